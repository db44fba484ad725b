"""An estimate of triage's accuracy at first sight, on collections it has already seen.

    python benchmarks/triage_first_sight.py            # leave-one-collection-out, as shipped
    python benchmarks/triage_first_sight.py --json

Every later collection (fresh, third, ... fiftyeighth) was scored once at first sight, and rows
were then written for it, so today's rows have seen all of them: scoring them now says nothing
about a new collection. What can still be estimated honestly is the part of triage that does not
depend on per-collection rows, the statistical fallback. For each collection k this script:

- takes the rows' verdicts *as they stood at k's first sight* (tests/corpus/real/first_sight.json:
  the code of that day run on k, rows alone, with whether any row matched),
- trains the fallback the way benchmarks/build_triage_fallback.py does, on every split declared
  tuning data except k (never heldout),
- asks it about each excerpt of k that no row matched and that has a failure marker (as
  `nonstop triage` does), and scores what triage would then answer against k's labels.

The mean over collections is the estimate: what the rows of the day plus today's fallback method
would have scored on a collection nobody had tuned on. Row work cannot be measured this way (a
row written after reading k reads k); the rows' own first-sight figures are in the README. Nor
can triage's series check (`triage.spike`, a loss or gradient-norm jump), written after reading
these collections: what it adds where no row matched is printed apart, as in sample.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # build_triage_fallback, beside this file

import build_triage_fallback

from nonstop.diagnose import fallback, triage

CORPUS = build_triage_fallback.CORPUS
# every collection the fallback trains on (each was scored once at first sight before it became
# tuning data): leaving one out only means something for those
COLLECTIONS = tuple(s for s in build_triage_fallback.TRAINING if s != "tuning")
# the quick run's sample: the first, one from the middle and the latest collection (the whole
# estimate takes one training per collection, minutes; the saved figures are the whole one)
QUICK = (COLLECTIONS[0], COLLECTIONS[len(COLLECTIONS) // 2], COLLECTIONS[-1])


def first_sight() -> dict[str, dict[str, list[Any]]]:
    data = json.loads((CORPUS / "first_sight.json").read_text())
    return {k: v["predictions"] for k, v in data["collections"].items()}


def load(split: str) -> list[dict[str, str]]:
    with open(CORPUS / f"{split}.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def marked(records: list[dict[str, str]]) -> dict[str, bool]:
    out = {}
    with tempfile.TemporaryDirectory(prefix="nonstop-first-sight-") as tmp:
        for r in records:
            path = Path(tmp) / f"{r['id']}.log"
            path.write_text(r["excerpt"] + "\n")
            out[r["id"]] = triage.scan(path).marked
    return out


def estimate(build: Any = None, collections: tuple[str, ...] = COLLECTIONS) -> dict[str, Any]:
    """Per collection and pooled: first sight with the rows of the day alone, and with a
    fallback trained without the collection by `build(records, groups, asked)` (default: the
    shipped method, build_triage_fallback.table). Each collection left out costs one training
    (~4 s); `collections` picks which are left out (all of them by default; the quick run of
    benchmarks/run.py triage-accuracy takes a few, QUICK)."""
    build = build or build_triage_fallback.table
    seen = first_sight()
    splits = {s: load(s) for s in collections}
    out: dict[str, Any] = {"collections": {}}
    pooled = {"n": 0, "rows_cat": 0, "rows_act": 0, "cat": 0, "act": 0, "guesses": 0, "right": 0}
    pooled |= {"series_cat": 0, "series_act": 0, "spikes": 0}
    wrong_exclude = 0
    for k in collections:
        train = [s for s in build_triage_fallback.TRAINING if s != k]
        records, groups, asked = build_triage_fallback.training(train)
        m = fallback.Model(build(records, groups, asked))
        recs = splits[k]
        mk = marked(recs)
        row = {"n": len(recs), "rows_cat": 0, "rows_act": 0, "cat": 0, "act": 0}
        row |= {"guesses": 0, "right": 0, "guessed": []}
        row |= {"series_cat": 0, "series_act": 0, "spikes": 0}
        for r in recs:
            cat, act, _conf, matched = seen[k][r["id"]]
            row["rows_cat"] += cat == r["category"]
            row["rows_act"] += act == r["action"]
            # today's series check (triage.spike), where no row matched: written after reading
            # these collections, so in sample; reported apart from the estimate
            spiked = None if matched else triage.spike(r["excerpt"].encode())
            if not matched and mk[r["id"]]:
                g, p = m.guess(r["excerpt"])
                if not m.abstains(g, p):
                    cat = m.decide(g, p)
                    act = fallback.action(cat)  # a hardware guess restarts
                    row["guesses"] += 1
                    row["right"] += cat == r["category"]
                    row["guessed"].append(f"{r['id']} {r['category']} -> {cat} ({g} {p:.2f})")
            row["cat"] += cat == r["category"]
            row["act"] += act == r["action"]
            if spiked is not None:
                row["spikes"] += 1
                cat, act = spiked.category, spiked.action
            row["series_cat"] += cat == r["category"]
            row["series_act"] += act == r["action"]
            wrong_exclude += act == "exclude_node" and r["action"] != "exclude_node"
        for key in pooled:
            pooled[key] += row[key]
        out["collections"][k] = row
    n = pooled["n"]
    out["pooled"] = pooled | {
        "rows_category": round(pooled["rows_cat"] / n, 4),
        "rows_action": round(pooled["rows_act"] / n, 4),
        "category": round(pooled["cat"] / n, 4),
        "action": round(pooled["act"] / n, 4),
        "wrong_exclude_node": wrong_exclude,
        "with_series_category": round(pooled["series_cat"] / n, 4),
        "with_series_action": round(pooled["series_act"] / n, 4),
    }
    cols = out["collections"].values()
    out["mean_category"] = round(sum(c["cat"] / c["n"] for c in cols) / len(collections), 4)
    out["mean_action"] = round(sum(c["act"] / c["n"] for c in cols) / len(collections), 4)
    return out


def main(argv: list[str]) -> int:
    est = estimate()
    if "--json" in argv:
        print(json.dumps(est, indent=1))
        return 0
    for k, c in est["collections"].items():
        print(
            f"{k:8s} rows {c['rows_cat'] / c['n']:.1%} / {c['rows_act'] / c['n']:.1%}  "
            f"with fallback {c['cat'] / c['n']:.1%} / {c['act'] / c['n']:.1%}  "
            f"({c['guesses']} guesses, {c['right']} right)"
        )
        for line in c["guessed"]:
            print("    " + line)
    p = est["pooled"]
    print(
        f"pooled   rows {p['rows_category']:.1%} / {p['rows_action']:.1%}  with fallback "
        f"{p['category']:.1%} / {p['action']:.1%}  ({p['guesses']} guesses, {p['right']} right, "
        f"{p['wrong_exclude_node']} wrong exclude_node); mean over collections "
        f"{est['mean_category']:.1%} / {est['mean_action']:.1%}"
    )
    print(
        f"in sample: with today's series check too (triage.spike, {p['spikes']} spikes) "
        f"{p['with_series_category']:.1%} / {p['with_series_action']:.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
