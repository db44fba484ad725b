"""Rebuild nonstop/diagnose/fallback_table.json, triage's statistical fallback, from the corpus.

    python benchmarks/build_triage_fallback.py          # write the table
    python benchmarks/build_triage_fallback.py --check  # exit 1 if the shipped table is stale

Trains on the splits declared tuning data (tests/corpus/real/README.md): tuning, fresh, third,
fourth, fifth, sixth, seventh, eighth, ninth, tenth, eleventh, twelfth and thirteenth (each
scored once at first sight before it became tuning data). Never on heldout (frozen). Calibrated
leaving one split out (fallback.build, groups/asked).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nonstop.diagnose import fallback

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "real"
TRAINING = (
    "tuning",
    "fresh",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
)


def training(
    splits: tuple[str, ...] | list[str] = TRAINING,
) -> tuple[list[dict[str, str]], list[str], list[bool]]:
    """The records of `splits`, the split each came from, and whether the fallback would have
    been asked about it at first sight (no row matched it then: tests/corpus/real/first_sight.json;
    the tuning split has no first sight, rows were written on it from the start)."""
    seen = json.loads((CORPUS / "first_sight.json").read_text())["collections"]
    out, groups, asked = [], [], []
    for split in splits:
        with open(CORPUS / f"{split}.jsonl") as f:
            recs = [json.loads(line) for line in f if line.strip()]
        first = seen.get(split, {}).get("predictions", {})
        out += recs
        groups += [split] * len(recs)
        asked += [r["id"] in first and not first[r["id"]][3] for r in recs]
    return out, groups, asked


def records() -> list[dict[str, str]]:
    return training()[0]


def table(records: list[dict[str, str]], groups: list[str], asked: list[bool]) -> dict:
    """The shipped method: leave one split out, the threshold chosen where no row matched at
    first sight."""
    return fallback.build(records, groups=groups, asked=asked)


def main(argv: list[str]) -> int:
    text = fallback.dumps(table(*training()))
    if "--check" in argv:
        if fallback.TABLE.read_text() != text:
            print(f"{fallback.TABLE} is stale: run {__file__}", file=sys.stderr)
            return 1
        return 0
    fallback.TABLE.write_text(text)
    head = json.loads(text)
    print(
        f"wrote {fallback.TABLE}: {len(head['features'])} features, {len(head['classes'])} "
        f"classes, temperature {head['temperature']}, threshold {head['threshold']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
