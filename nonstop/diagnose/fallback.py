"""A statistical fallback for log triage: a guess for a log no signature row matches.

    python benchmarks/build_triage_fallback.py          # rebuild fallback_table.json from the corpus
    python benchmarks/build_triage_fallback.py --check  # exit 1 if the shipped table is stale

The rows of nonstop.diagnose.signatures decide whenever one matches; this module is asked only
when none did and a line of the log has a failure marker (signatures.MARKERS; see
nonstop.diagnose.triage). It is a binarized multinomial naive Bayes over the
log's normalized words and word pairs (numbers, hex, addresses and ids masked, digits inside
names folded to 0), trained on the corpus splits declared tuning data (tests/corpus/real:
tuning, fresh, third, ... sixteenth; never the frozen held-out set). Its
posterior is tempered (`temperature`, times the number of features it read to the power
`length_exponent`) and it abstains, answering unknown, below `threshold`;
a guess that would page someone (stop_and_page) needs `page_threshold`.
A guess never excludes a node: words are not evidence enough to take a machine out (a healthy
`smartctl -a` report reads like a disk failure to a bag of words), so a hardware guess is
reported as weak evidence with action restart (`action`; nonstop.diagnose.triage.guess): its
category named at `hardware_threshold` or above, unknown below it.
The temperature, the length exponent and the thresholds are chosen leaving one training split
out at a time (what a new collection is to the fallback), the length exponent and the thresholds
on the excerpts no row matched at each collection's first sight (tests/corpus/real/first_sight.json), scoring what triage would then
answer; the build is deterministic. benchmarks/triage_first_sight.py estimates first sight the
same way.

The corpus ships in tests/, not in the wheel, so the trained table ships as package data
(fallback_table.json: per-class document counts and the features grouped by their class counts);
tests/diagnose/test_fallback.py pins that it equals a fresh build. Standard library only.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from nonstop import taxonomy

TABLE = Path(__file__).with_name("fallback_table.json")
VERSION = 2  # 2: each feature's class counts as one short string ("20 22:2"; 1 before: a dict)
ALPHA = 0.1  # additive smoothing of the per-class feature counts (chosen leaving one
# collection out: 0.5 -> 0.1 raised the estimate of first sight, benchmarks/triage_first_sight.py)
# a feature seen in fewer training documents is dropped. 1 (keep every feature): a stack or a
# wording one earlier excerpt showed is what a new collection most often brings back (Neuron,
# Gaudi, HCCL, ...), and at 2 its words were dropped; leaving one collection out, 2 -> 1 raised
# the estimate of first sight from 75.5% to 76.5% (benchmarks/triage_first_sight.py), at a
# table 2.7x larger (tests/corpus/real/README.md, issue-27gen4). Measured again over fifteen
# collections (issue-27advice): 2 would cost 73.0% -> 71.5% category, 86.5% -> 86.4% action,
# for a table of 245 KB instead of 695 KB
MIN_DF = 1
FOLDS = 5
TEMPERATURES = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
# naive Bayes adds one log-likelihood per feature as if the words of a log were independent, so
# its certainty grows with the log's length (a long log of one stack's words reads as sure as a
# clear failure line); the log-odds are also divided by n ** e (n: the features the table
# knows), e chosen like the thresholds, by what triage would answer left out (issue-27gen4)
LENGTH_EXPONENTS = (0.0, 0.25, 0.5, 0.75, 1.0)
THRESHOLDS = tuple(round(0.30 + 0.05 * i, 2) for i in range(14))  # 0.30 .. 0.95
# where a hardware guess names its category (with action restart: it costs no action, only the
# category when wrong, so the grid goes lower; chosen like the threshold)
HARDWARE_THRESHOLDS = tuple(round(0.10 + 0.05 * i, 2) for i in range(18))  # 0.10 .. 0.95
# a guess that would page someone (stop_and_page) needs this much; fixed, not fitted: chosen
# per left-out collection it swung from 0.35 to 0.9 (a handful of such guesses decide it), and
# 0.9 kept every right page guess and dropped the wrong ones (benchmarks/triage_first_sight.py)
PAGE_THRESHOLD = 0.9
MAX_FEATURES = 4000  # distinct features read from one log (a bound on the work per guess)

_MASKS = (
    re.compile(rb"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"),  # uuid
    re.compile(rb"0x[0-9a-f]+"),  # hex literal
    re.compile(rb"(?<![a-z0-9_])[0-9a-f:.]*[0-9][0-9a-f:.]*(?![a-z0-9_])"),  # numbers, addresses
)
_WORD = re.compile(rb"[a-z_][a-z0-9_]*")
_DIGITS = re.compile(rb"[0-9]+")
_HEXISH = re.compile(rb"[a-f]{6,}|_+")
# What `features` does, made fast (`features_reference` is the plain statement; the tests pin that
# the two agree). Python's regex engine runs these masks at 20-40 MB/s per pass, and triage asks
# for a guess on every log no row matched (4,095 of 4,096 clean rank logs: 17 s of CPU of the
# 20 s of `nonstop triage`). But what the masks and words find depends on which bytes are digits, not
# on which digits (the words fold each digit run to one 0), but for one thing: a hex literal
# starts with `0x`. So each `0x` is marked (`\0x`: the fast path is not taken where the text has a
# NUL byte) and then one bytes.translate lowers the letters and makes every digit 0: lines that
# differ only in their digits become the same bytes. Each distinct line is worked out once (a line
# seen again adds no feature), with its digits as 0 or, before an `x`, 1 (`_line_features`), and
# its features are kept for the next log (lines of up to 400 bytes, 8,192 of them): rank logs
# repeat each other's lines.
_MARK = b"\0x"
_HEX_START, _HEX_START_UPPER = re.compile(rb"0x"), re.compile(rb"0X")
_FOLD = bytes.maketrans(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789", b"abcdefghijklmnopqrstuvwxyz000000000"
)
_LINE_CACHE: dict[bytes, tuple[str, ...]] = {}
_LINE_CACHE_MAX = 8192  # distinct lines kept between logs (a few MB: the cache is cleared then)
_LINE_CACHE_LONGEST = 400  # longer lines are worked out and not kept


def features_reference(text: str | bytes) -> set[str]:
    """`features` as first written, line by line: the specification the fast one must meet."""
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    out: set[str] = set()
    for line in data.lower().splitlines():
        for mask in _MASKS:
            line = mask.sub(b" ", line)
        words = [
            _DIGITS.sub(b"0", w).decode("ascii")
            for w in _WORD.findall(line)
            if len(w) > 1 and not _HEXISH.fullmatch(w)
        ]
        out.update(words)
        out.update(f"{a} {b}" for a, b in pairwise(words))
        if len(out) > MAX_FEATURES:
            break
    return out


def _line_features(key: bytes) -> tuple[str, ...]:
    """The words and word pairs of each line whose `features` key is `key`."""
    line = key.replace(b"0x", b"1x").replace(_MARK, b"0x")  # a digit as it was: 0, or not 0
    for mask in _MASKS:
        line = mask.sub(b" ", line)
    line = _DIGITS.sub(b"0", line)
    words = [
        w.decode("ascii") for w in _WORD.findall(line) if len(w) > 1 and not _HEXISH.fullmatch(w)
    ]
    return (*words, *(f"{a} {b}" for a, b in pairwise(words)))


def _keys(data: bytes) -> list[bytes]:
    """Each line of `data` with its letters lowered and its digits 0, but for a `0x`, marked
    `\\0x` (`data` has no NUL byte)."""
    if b"x" in data:
        data = _HEX_START.sub(_MARK, data)
    if b"X" in data:
        data = _HEX_START_UPPER.sub(_MARK, data)
    key = data.translate(_FOLD)
    return key.split(b"\n") if b"\r" not in key else key.splitlines()  # empty lines: no word


def features(text: str | bytes) -> set[str]:
    """The log's normalized words and adjacent word pairs (a set: repeats count once), read
    until more than MAX_FEATURES are found (at the end of a line)."""
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    if b"\0" in data:
        return features_reference(data)
    cache = _LINE_CACHE
    if len(cache) > _LINE_CACHE_MAX:
        cache.clear()
    lines = _keys(data)
    out: set[str] = set()
    out = out.union(*[f if (f := cache.get(k)) is not None else _kept(k) for k in set(lines)])
    if len(out) > MAX_FEATURES:  # read line by line, up to the line that passes the bound
        out = set()
        for k in dict.fromkeys(lines):
            out.update(cache.get(k) or _line_features(k))
            if len(out) > MAX_FEATURES:
                break
    return out


def _kept(key: bytes) -> tuple[str, ...]:
    """`_line_features`, kept for the next log unless the line is long."""
    feats = _line_features(key)
    if len(key) <= _LINE_CACHE_LONGEST:
        _LINE_CACHE[key] = feats
    return feats


class Model:
    """Per-class document counts and per-feature class counts: what the table stores."""

    def __init__(self, table: dict[str, Any]) -> None:
        self.classes: list[str] = table["classes"]
        self.docs: list[int] = table["docs"]
        self.temperature: float = table["temperature"]
        self.length_exponent: float = table.get("length_exponent", 0.0)
        self.threshold: float = table["threshold"]
        self.page_threshold: float = table.get("page_threshold", self.threshold)
        # None (a table built before it): a hardware guess is never named, always unknown
        self.hardware_threshold: float | None = table.get("hardware_threshold")
        counts: dict[str, dict[str, int]] = table["features"]
        n = len(self.classes)
        totals = [0] * n
        for per in counts.values():
            for k, c in per.items():
                totals[int(k)] += c
        v = len(counts)
        self._unseen = [math.log(ALPHA / (totals[i] + ALPHA * v)) for i in range(n)]
        self._loglik: dict[str, list[float]] = {}
        for f, per in counts.items():
            row = list(self._unseen)
            for k, c in per.items():
                i = int(k)
                row[i] = math.log((c + ALPHA) / (totals[i] + ALPHA * v))
            self._loglik[f] = row
        total_docs = sum(self.docs)
        self._prior = [math.log((d + 1) / (total_docs + n)) for d in self.docs]
        # what `guess` keeps between logs (see `known`): per line key, (how many features the
        # line has, those of them the table knows); per set of known features, the reading
        self._lines: dict[bytes, tuple[int, tuple[str, ...]]] = {}
        self._readings: dict[frozenset[str], tuple[str, float]] = {}

    def posterior(self, feats: Iterable[str]) -> list[float]:
        """P(class | features), tempered; the classes in `self.classes` order."""
        lik = self._loglik
        rows = [row for f in feats if (row := lik.get(f)) is not None]
        score = [sum(col) for col in zip(self._prior, *rows, strict=True)]
        top = max(score)
        scale = self.temperature * max(1, len(rows)) ** self.length_exponent
        w = [math.exp((s - top) / scale) for s in score]
        z = sum(w)
        return [x / z for x in w]

    def known(self, text: str | bytes) -> frozenset[str]:
        """`features(text)` that the table holds: all the posterior reads (a feature the table
        lacks adds nothing to any class's score), found with less work per log. Each distinct
        line's features are worked out once and kept as their count and their known part; the
        known parts of a log's lines are joined unless their counts could pass MAX_FEATURES
        (then `features` reads up to the cut, as the posterior always has)."""
        data = text.encode("utf-8", "replace") if isinstance(text, str) else text
        if b"\0" in data:
            return frozenset(features_reference(data) & self._loglik.keys())
        cache = self._lines
        if len(cache) > _LINE_CACHE_MAX:
            cache.clear()
        parts = [c if (c := cache.get(k)) is not None else self._line(k) for k in set(_keys(data))]
        if sum(n for n, _ in parts) > MAX_FEATURES:  # the union may pass the cut: read to it
            return frozenset(features(data) & self._loglik.keys())
        return frozenset().union(*[known for _, known in parts])

    def _line(self, key: bytes) -> tuple[int, tuple[str, ...]]:
        feats = _LINE_CACHE.get(key) or _line_features(key)
        lik = self._loglik
        got = (len(feats), tuple(f for f in dict.fromkeys(feats) if f in lik))
        if len(key) <= _LINE_CACHE_LONGEST:
            self._lines[key] = got
        return got

    def guess(self, text: str | bytes) -> tuple[str, float]:
        """The most probable category and its probability (no threshold applied). Logs with
        the same known features get the same reading, worked out once (rank logs of one job
        mostly share their words)."""
        feats = self.known(text)
        got = self._readings.get(feats)
        if got is None:
            if len(self._readings) > _LINE_CACHE_MAX:
                self._readings.clear()
            got = self._readings[feats] = self.reading(feats)
        return got

    def reading(self, feats: Iterable[str]) -> tuple[str, float]:
        """The most probable category for `feats` and its probability."""
        p = self.posterior(feats)
        i = max(range(len(p)), key=lambda j: (p[j], -j))
        return self.classes[i], p[i]

    def decide(self, category: str, p: float) -> str:
        """What triage answers for a guess: the category if it is confident enough, else
        unknown (abstain, or weak evidence of a hardware fault below the hardware threshold, or
        a guess that would page someone below the page threshold). Its action is `action`'s."""
        return answer(category, p, self.threshold, self.page_threshold, self.hardware_threshold)

    def abstains(self, category: str, p: float) -> bool:
        """Whether triage says nothing of this reading (the rows' "no known failure signature"
        stands): below every threshold that could name it, or a guess of unknown."""
        if category == taxonomy.UNKNOWN:
            return True
        return p < self.threshold and self.decide(category, p) == taxonomy.UNKNOWN


def answer(
    category: str,
    p: float,
    threshold: float,
    page_threshold: float = 0.0,
    hardware_threshold: float | None = None,
) -> str:
    """The category a guess reports. A hardware guess is named only at `hardware_threshold`
    (None: never), and never excludes a node (`action`); a guess pages someone
    (stop_and_page: out of memory, a bug in the script) only at `page_threshold` or above: a
    wrong page costs a person, a wrong restart a few minutes."""
    default = taxonomy.action_for(category)
    if default == "exclude_node":
        named = hardware_threshold is not None and p >= hardware_threshold
        return category if named else taxonomy.UNKNOWN
    if p < threshold:
        return taxonomy.UNKNOWN
    if default == "stop_and_page" and p < page_threshold:
        return taxonomy.UNKNOWN
    return category


def action(category: str) -> taxonomy.Action:
    """The action of a guess that reports `category`: its default, but restart for a hardware
    fault (words are not evidence enough to take a machine out of the job)."""
    default = taxonomy.action_for(category)
    return "restart" if default == "exclude_node" else default


@cache
def model() -> Model:
    """The shipped table (loaded once)."""
    return Model(loads(TABLE.read_text()))


# ---- building the table (benchmarks/build_triage_fallback.py) ----------------------------------


def _counts(docs: Sequence[tuple[set[str], str]], classes: list[str]) -> dict[str, dict[str, int]]:
    index = {c: i for i, c in enumerate(classes)}
    df: Counter[str] = Counter()
    for feats, _ in docs:
        df.update(feats)
    out: dict[str, dict[str, int]] = {}
    for feats, label in docs:
        for f in feats:
            if df[f] >= MIN_DF:
                per = out.setdefault(f, {})
                k = str(index[label])
                per[k] = per.get(k, 0) + 1
    return {f: dict(sorted(out[f].items(), key=lambda kv: int(kv[0]))) for f in sorted(out)}


def _table(docs: Sequence[tuple[set[str], str]], classes: list[str], **params: Any) -> dict:
    docs_per = Counter(label for _, label in docs)
    return {
        "version": VERSION,
        "classes": classes,
        "docs": [docs_per[c] for c in classes],
        "temperature": params.get("temperature", 1.0),
        "length_exponent": params.get("length_exponent", 0.0),
        "threshold": params.get("threshold", 0.5),
        "page_threshold": params.get("page_threshold", params.get("threshold", 0.5)),
        "hardware_threshold": params.get("hardware_threshold"),
        "features": _counts(docs, classes),
    }


def _fold_models(
    docs: Sequence[tuple[set[str], str]], folds: Sequence[int], classes: list[str]
) -> Iterator[tuple[int, Model]]:
    """For each fold k, the model `Model(_table(docs not in k, classes))` as far as the
    posterior of fold k's own documents reads it: the same prior, and the same log-likelihood
    rows for the features those documents have. The counts of the other folds are the whole
    corpus's less fold k's (MIN_DF = 1: a feature is in a table when one training document has
    it), so each fold costs its own documents and one pass over the vocabulary, not a table
    built from scratch: the leave-one-collection-out estimate (29 groups, each built 29 times)
    took most of `test_heldout_accuracy_meets_the_targets`'s 260 s. The figures are the same
    to the bit (integer counts; the same float expressions; `Model.posterior` itself)."""
    assert MIN_DF == 1, "the subtraction below assumes every training feature is kept"
    n = len(classes)
    index = {c: i for i, c in enumerate(classes)}

    def tally(which: Iterable[int]) -> tuple[dict[str, list[int]], list[int], list[int]]:
        per: dict[str, list[int]] = {}  # feature -> documents having it, per class
        tokens, ndocs = [0] * n, [0] * n
        for j in which:
            feats, label = docs[j]
            c = index[label]
            ndocs[c] += 1
            tokens[c] += len(feats)
            for f in feats:
                row = per.get(f)
                if row is None:
                    row = per[f] = [0] * n
                row[c] += 1
        return per, tokens, ndocs

    everything, all_tokens, all_docs = tally(range(len(docs)))
    for k in sorted(set(folds)):
        mine = [j for j, f in enumerate(folds) if f == k]
        held, held_tokens, held_docs = tally(mine)
        # features only fold k has are not in its table
        vocabulary = len(everything) - sum(1 for f, row in held.items() if row == everything[f])
        totals = [a - b for a, b in zip(all_tokens, held_tokens, strict=True)]
        ndocs = [a - b for a, b in zip(all_docs, held_docs, strict=True)]
        m = Model.__new__(Model)
        m.classes, m.docs = classes, ndocs
        m.temperature, m.length_exponent = 1.0, 0.0
        unseen = [math.log(ALPHA / (totals[i] + ALPHA * vocabulary)) for i in range(n)]
        m._loglik = {}
        for f in held:
            left = [a - b for a, b in zip(everything[f], held[f], strict=True)]
            if any(left):
                m._loglik[f] = [
                    math.log((c + ALPHA) / (totals[i] + ALPHA * vocabulary)) if c else unseen[i]
                    for i, c in enumerate(left)
                ]
        total_docs = sum(ndocs)
        m._prior = [math.log((d + 1) / (total_docs + n)) for d in ndocs]
        yield k, m


def _utility(pred: str, true: str) -> float:
    """What triage's answer `pred` (a guess's, so its action is `action`'s) scores against the
    label: one for the category, one for the action."""
    return (pred == true) + (action(pred) == taxonomy.action_for(true))


def build(
    records: Sequence[dict[str, str]],
    *,
    groups: Sequence[str] | None = None,
    asked: Sequence[bool] | None = None,
    thresholds: Sequence[float] = THRESHOLDS,
) -> dict[str, Any]:
    """Train on labelled excerpts (id, category, excerpt) and choose the temperature, the length
    exponent and the thresholds by cross-validation on them; returns the table
    fallback_table.json holds.

    `groups` (one name per record, e.g. the corpus split it came from): leave one group out,
    which is what a new collection is to the fallback (first sight), instead of FOLDS folds by
    content hash. `asked` (one flag per record): the threshold is chosen on these records only,
    the ones the fallback would have been asked about (no row matched them at first sight);
    all records count when it is None. `thresholds`: the grid the threshold is chosen from."""
    docs = [(features(r["excerpt"]), r["category"]) for r in records]
    if groups is None:
        folds = [int(r["id"][:8], 16) % FOLDS for r in records]
    else:
        names = sorted(set(groups))
        folds = [names.index(g) for g in groups]
    classes = sorted({label for _, label in docs})
    # out-of-fold scores (temperature 1, length exponent 0), one list per document, and how
    # many features the fold's table knew of it
    oof: list[list[float]] = [[] for _ in docs]
    known = [1] * len(docs)
    for k, m in _fold_models(docs, folds, classes):
        for i, (feats, _) in enumerate(docs):
            if folds[i] == k:
                oof[i] = [math.log(max(p, 1e-300)) for p in m.posterior(feats)]
                known[i] = max(1, sum(f in m._loglik for f in feats))
    labels = [classes.index(label) for _, label in docs]
    use = list(asked) if asked is not None else [True] * len(docs)

    def tempered(t: float, e: float) -> list[list[float]]:
        out = []
        for logp, n in zip(oof, known, strict=True):
            top, scale = max(logp), t * n**e
            w = [math.exp((x - top) / scale) for x in logp]
            z = sum(w)
            out.append([x / z for x in w])
        return out

    def log_loss(t: float, e: float, only: Sequence[bool] | None = None) -> float:
        post = tempered(t, e)
        keep = only if only is not None else [True] * len(post)
        return -sum(
            math.log(max(p[y], 1e-12)) for p, y, k in zip(post, labels, keep, strict=True) if k
        )

    def best_of(
        seen: list[tuple[str, float, str]],
        grid: Sequence[float],
        score: Callable[[str, float, str, float], float],
    ) -> tuple[float, float]:
        # the best threshold and its score; ties: the more cautious threshold
        got = max((round(sum(score(c, p, true, t) for c, p, true in seen), 6), t) for t in grid)
        return got[1], got[0]

    def fit(e: float) -> tuple[float, tuple[float, float, float, float]]:
        """For length exponent `e`: the temperature by log loss, then the thresholds, and what
        triage would then score on the records the fallback is asked about."""
        t = min(TEMPERATURES, key=lambda t: (round(log_loss(t, e), 6), t))
        post = tempered(t, e)
        tops = [max(range(len(p)), key=lambda j: (p[j], -j)) for p in post]
        seen = [  # (guess, its probability, the label) of each record the fallback is asked
            (classes[i], p[i], true)
            for p, i, (_, true), ok in zip(post, tops, docs, use, strict=True)
            if ok
        ]
        # the threshold reads the guesses of a category that is no hardware fault, the hardware
        # threshold those of one that is (answer keeps them apart): each chosen on its own
        threshold, _ = best_of(seen, thresholds, lambda c, p, y, h: _utility(answer(c, p, h), y))
        page = max(PAGE_THRESHOLD, threshold)
        hardware, score = best_of(
            seen,
            HARDWARE_THRESHOLDS,
            lambda c, p, y, h: _utility(answer(c, p, threshold, page, h), y),
        )
        return score, (t, threshold, page, hardware)

    fits = {e: fit(e) for e in LENGTH_EXPONENTS}
    # ties (the description reader's few records tie often): the exponent whose probabilities
    # fit the asked records best (log loss), then the smaller. The smaller alone had picked 0,
    # with temperature 8: as good a score, but bolder on a short text that says little (a
    # vague complaint read as a loss spike at 0.32; tests/diagnose/test_prose.py)
    exponent = max(
        LENGTH_EXPONENTS,
        key=lambda e: (fits[e][0], -round(log_loss(fits[e][1][0], e, use), 6), -e),
    )
    temperature, threshold, page_threshold, hardware_threshold = fits[exponent][1]
    return _table(
        docs,
        classes,
        temperature=temperature,
        length_exponent=exponent,
        threshold=threshold,
        page_threshold=page_threshold,
        hardware_threshold=hardware_threshold,
    )


def _packed(per: dict[str, int]) -> str:
    """A feature's class counts as the table groups them: "20 22:2" is class 20 once, class 22
    twice (three of four features are seen once, in one class: the key is then one number)."""
    return " ".join(k if c == 1 else f"{k}:{c}" for k, c in per.items())


def _unpacked(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in text.split():
        k, _, c = item.partition(":")
        out[k] = int(c) if c else 1
    return out


def dumps(table: dict[str, Any]) -> str:
    """The table as fallback_table.json holds it: its features grouped by their class counts
    (`_packed`), one feature per line, groups and features sorted (616 KB instead of 995 KB as
    one dict per feature, on twenty-seven splits)."""
    head = {k: v for k, v in table.items() if k != "features"}
    groups: dict[str, list[str]] = {}
    for f, per in table["features"].items():
        groups.setdefault(_packed(per), []).append(f)
    blocks = []
    for key in sorted(groups, key=lambda k: [_order(item) for item in k.split()]):
        feats = ",\n".join(json.dumps(f) for f in sorted(groups[key]))
        blocks.append(f"{json.dumps(key)}: [\n{feats}\n]")
    body = ",\n".join(blocks)
    return json.dumps(head, sort_keys=True)[:-1] + ', "features": {\n' + body + "\n}}\n"


def _order(item: str) -> tuple[int, int]:
    k, _, c = item.partition(":")
    return int(k), int(c or 1)


def loads(text: str) -> dict[str, Any]:
    """A table written by `dumps`, its features as {feature: {class index: count}} (what `Model`
    and the build work with). Version 1 tables (one dict per feature) read as they are."""
    table = json.loads(text)
    if table.get("version", 1) >= 2:
        table["features"] = {
            f: _unpacked(key) for key, feats in table["features"].items() for f in feats
        }
    return table
