"""A statistical fallback for log triage: a guess for a log no signature row matches.

    python benchmarks/build_triage_fallback.py          # rebuild fallback_table.json from the corpus
    python benchmarks/build_triage_fallback.py --check  # exit 1 if the shipped table is stale

The rows of nonstop.diagnose.signatures decide whenever one matches; this module is asked only
when none did (nonstop.diagnose.triage). It is a binarized multinomial naive Bayes over the
log's normalized words and word pairs (numbers, hex, addresses and ids masked, digits inside
names folded to 0), trained on the corpus splits declared tuning data (tests/corpus/real:
tuning, fresh, third, fourth, fifth; never the frozen held-out set nor the latest collection). Its
posterior is tempered (`temperature`) and it abstains, answering unknown, below `threshold`.
A guess never excludes a node: words are not evidence enough to take a machine out (a healthy
`smartctl -a` report reads like a disk failure to a bag of words), so a hardware guess is
reported as weak evidence, category unknown, action restart (nonstop.diagnose.triage.guess).
The temperature and the threshold are chosen by 5-fold cross-validation on the training splits
only (folds by content hash), scoring what triage would then answer, so the build is
deterministic.

The corpus ships in tests/, not in the wheel, so the trained table ships as package data
(fallback_table.json: per-class document counts and, per feature, the classes it was seen in);
tests/diagnose/test_fallback.py pins that it equals a fresh build. Standard library only.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from nonstop import taxonomy

TABLE = Path(__file__).with_name("fallback_table.json")
VERSION = 1
ALPHA = 0.5  # additive smoothing of the per-class feature counts
MIN_DF = 2  # a feature seen in fewer training documents is dropped (noise, and table size)
FOLDS = 5
TEMPERATURES = (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0)
THRESHOLDS = tuple(round(0.30 + 0.05 * i, 2) for i in range(14))  # 0.30 .. 0.95
MAX_FEATURES = 4000  # distinct features read from one log (a bound on the work per guess)

_MASKS = (
    re.compile(rb"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"),  # uuid
    re.compile(rb"0x[0-9a-f]+"),  # hex literal
    re.compile(rb"(?<![a-z0-9_])[0-9a-f:.]*[0-9][0-9a-f:.]*(?![a-z0-9_])"),  # numbers, addresses
)
_WORD = re.compile(rb"[a-z_][a-z0-9_]*")
_DIGITS = re.compile(rb"[0-9]+")
_HEXISH = re.compile(rb"[a-f]{6,}|_+")


def features(text: str | bytes) -> set[str]:
    """The log's normalized words and adjacent word pairs (a set: repeats count once)."""
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


class Model:
    """Per-class document counts and per-feature class counts: what the table stores."""

    def __init__(self, table: dict[str, Any]) -> None:
        self.classes: list[str] = table["classes"]
        self.docs: list[int] = table["docs"]
        self.temperature: float = table["temperature"]
        self.threshold: float = table["threshold"]
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

    def posterior(self, feats: Iterable[str]) -> list[float]:
        """P(class | features), tempered; the classes in `self.classes` order."""
        score = list(self._prior)
        for f in feats:
            row = self._loglik.get(f)
            if row is not None:
                for i, x in enumerate(row):
                    score[i] += x
        top = max(score)
        w = [math.exp((s - top) / self.temperature) for s in score]
        z = sum(w)
        return [x / z for x in w]

    def guess(self, text: str | bytes) -> tuple[str, float]:
        """The most probable category and its probability (no threshold applied)."""
        p = self.posterior(features(text))
        i = max(range(len(p)), key=lambda j: (p[j], -j))
        return self.classes[i], p[i]

    def decide(self, category: str, p: float) -> str:
        """What triage answers for a guess: the category if it is confident enough and names
        no hardware fault, else unknown (abstain, or weak evidence of a hardware fault)."""
        return answer(category, p, self.threshold)


def answer(category: str, p: float, threshold: float) -> str:
    if p < threshold or taxonomy.action_for(category) == "exclude_node":
        return taxonomy.UNKNOWN
    return category


@cache
def model() -> Model:
    """The shipped table (loaded once)."""
    return Model(json.loads(TABLE.read_text()))


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
        "threshold": params.get("threshold", 0.5),
        "features": _counts(docs, classes),
    }


def _utility(pred: str, true: str) -> float:
    return (pred == true) + (taxonomy.action_for(pred) == taxonomy.action_for(true))


def build(records: Sequence[dict[str, str]]) -> dict[str, Any]:
    """Train on labelled excerpts (id, category, excerpt) and choose the temperature and the
    thresholds by cross-validation on them; returns the table fallback_table.json holds."""
    docs = [(features(r["excerpt"]), r["category"]) for r in records]
    folds = [int(r["id"][:8], 16) % FOLDS for r in records]
    classes = sorted({label for _, label in docs})
    # out-of-fold scores (temperature 1), one list per document
    oof: list[list[float]] = [[] for _ in docs]
    for k in range(FOLDS):
        train = [d for d, f in zip(docs, folds, strict=True) if f != k]
        m = Model(_table(train, classes))
        for i, (feats, _) in enumerate(docs):
            if folds[i] == k:
                oof[i] = [math.log(max(p, 1e-300)) for p in m.posterior(feats)]
    labels = [classes.index(label) for _, label in docs]

    def tempered(t: float) -> list[list[float]]:
        out = []
        for logp in oof:
            top = max(logp)
            w = [math.exp((x - top) / t) for x in logp]
            z = sum(w)
            out.append([x / z for x in w])
        return out

    def log_loss(t: float) -> float:
        return -sum(math.log(max(p[y], 1e-12)) for p, y in zip(tempered(t), labels, strict=True))

    temperature = min(TEMPERATURES, key=lambda t: (round(log_loss(t), 6), t))
    post = tempered(temperature)
    best: tuple[float, float] | None = None
    for t in THRESHOLDS:
        u = 0.0
        for p, (_, true) in zip(post, docs, strict=True):
            i = max(range(len(p)), key=lambda j: (p[j], -j))
            u += _utility(answer(classes[i], p[i], t), true)
        key = (round(u, 6), t)  # ties: the more cautious threshold
        if best is None or key > best:
            best = key
    assert best is not None
    return _table(docs, classes, temperature=temperature, threshold=best[1])


def dumps(table: dict[str, Any]) -> str:
    """The table as fallback_table.json holds it (compact, one feature per line, sorted)."""
    head = {k: v for k, v in table.items() if k != "features"}
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "features": {']
    feats = table["features"]
    lines += [
        f"{json.dumps(f)}: {json.dumps(per, separators=(',', ':'))}"
        + ("," if i < len(feats) - 1 else "")
        for i, (f, per) in enumerate(feats.items())
    ]
    lines.append("}}")
    return "\n".join(lines) + "\n"
