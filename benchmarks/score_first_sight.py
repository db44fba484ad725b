"""Score one new corpus collection once, at first sight, before any row is written for it.

    python benchmarks/score_first_sight.py thirtyfirst          # prints the figures
    python benchmarks/score_first_sight.py thirtyfirst --out F  # and writes them to F (JSON)

What `nonstop triage` answers on every excerpt of tests/corpus/real/<split>.jsonl, with the
statistical fallback and the description reader (as shipped) and with the signature rows alone:
category and action accuracy on all labels and on the labels the collector was sure of (a
`reason` not starting with "Unsure"), the guesses, the excerpts with no answer, the wrong
`exclude_node` verdicts and the misses; `first_sight_predictions` is the rows-alone verdict per
id in tests/corpus/real/first_sight.json's format ([category, action, confidence, matched]).
Run it once, right after the collection is merged, and record what it printed
(tests/corpus/real/README.md, "Scored once at first sight").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_triage_accuracy as bench


def _accuracy(pairs: list[tuple[dict[str, Any], Any]]) -> dict[str, Any]:
    n = len(pairs)
    cat = sum(v.category == r["category"] for r, v in pairs)
    act = sum(v.action == r["action"] for r, v in pairs)
    return {
        "category": round(cat / n, 4) if n else None,
        "action": round(act / n, 4) if n else None,
        "n": n,
        "cat_right": cat,
        "act_right": act,
    }


def score(split: str) -> dict[str, Any]:
    records = bench.load(split)
    unsure = {r["id"] for r in records if r["reason"].lower().startswith("unsure")}
    full = bench.classify(records, fallback=True)
    rows = bench.classify(records, fallback=False)
    guesses = [(r, v) for r, v in full if getattr(v, "guessed", False)]
    return {
        "split": split,
        "all": _accuracy(full),
        "rows_only": _accuracy(rows),
        "sure": _accuracy([(r, v) for r, v in full if r["id"] not in unsure]),
        "sure_rows_only": _accuracy([(r, v) for r, v in rows if r["id"] not in unsure]),
        "guesses": len(guesses),
        "guesses_right": sum(v.category == r["category"] for r, v in guesses),
        "no_answer": sum(
            v.category == "unknown"
            and not getattr(v, "guessed", False)
            and r["category"] != "unknown"
            for r, v in full
        ),
        "wrong_exclude_node": [
            r["id"] for r, v in full if v.action == "exclude_node" and r["action"] != "exclude_node"
        ],
        "unsure": sorted(unsure),
        "misses": [
            f"{r['id']}{'*' if r['id'] in unsure else ''} {r['category']} -> "
            f"{v.category}/{v.action}{' (g)' if getattr(v, 'guessed', False) else ''}"
            for r, v in full
            if v.category != r["category"] or v.action != r["action"]
        ],
        "first_sight_predictions": {
            r["id"]: [v.category, v.action, round(v.confidence, 4), bool(v.evidence)]
            for r, v in rows
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("split", help="the collection's file name without .jsonl")
    ap.add_argument("--out", type=Path, help="also write the whole result here (JSON)")
    args = ap.parse_args()
    if not (bench.CORPUS / f"{args.split}.jsonl").is_file():
        sys.exit(f"score_first_sight: no collection {args.split!r} in {bench.CORPUS}")
    out = score(args.split)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    shown = {k: v for k, v in out.items() if k not in ("first_sight_predictions", "unsure")}
    print(json.dumps(shown, indent=1))


if __name__ == "__main__":
    main()
