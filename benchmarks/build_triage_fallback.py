"""Rebuild nonstop/diagnose/fallback_table.json, triage's statistical fallback, from the corpus.

    python benchmarks/build_triage_fallback.py          # write the table
    python benchmarks/build_triage_fallback.py --check  # exit 1 if the shipped table is stale

Trains on the splits declared tuning data (tests/corpus/real/README.md): tuning, fresh, third,
fourth and fifth. Never on heldout (frozen) nor on sixth (the latest first-sight collection).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nonstop.diagnose import fallback

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "real"
TRAINING = ("tuning", "fresh", "third", "fourth", "fifth")


def records() -> list[dict[str, str]]:
    out = []
    for split in TRAINING:
        with open(CORPUS / f"{split}.jsonl") as f:
            out += [json.loads(line) for line in f if line.strip()]
    return out


def main(argv: list[str]) -> int:
    text = fallback.dumps(fallback.build(records()))
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
