"""Rebuild nonstop/diagnose/fallback_table.json, triage's statistical fallback, and
prose_table.json, the description reader's parameters (nonstop.diagnose.prose), from the corpus.

    python benchmarks/build_triage_fallback.py          # write the tables
    python benchmarks/build_triage_fallback.py --check  # exit 1 if a shipped table is stale

Trains on the splits declared tuning data (tests/corpus/real/README.md): tuning, fresh, third,
fourth, fifth, sixth, seventh, eighth, ninth, tenth, eleventh, twelfth, thirteenth, fourteenth,
fifteenth, sixteenth, seventeenth, eighteenth, nineteenth, twentieth, twentyfirst, twentysecond,
twentythird, twentyfourth, twentyfifth, twentysixth, twentyseventh, twentyeighth, twentyninth, thirtieth, thirtyfirst, thirtysecond, thirtythird, thirtyfourth, thirtyfifth, thirtysixth, thirtyseventh, thirtyeighth, thirtyninth, fortieth,
fortyfirst, fortysecond, fortythird, fortyfourth, fortyfifth, fortysixth, fortyseventh,
fortyeighth, fortyninth, fiftieth, fiftyfirst, fiftysecond, fiftythird, fiftyfourth, fiftyfifth, fiftysixth, fiftyseventh,
fiftyeighth, fiftyninth, sixtieth, sixtyfirst, sixtysecond, sixtythird, sixtyfourth, sixtyfifth,
sixtysixth and sixtyseventh (each scored once at first sight before it became tuning data). Never on heldout (frozen). Calibrated leaving one split out (fallback.build,
groups/asked).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nonstop.diagnose import fallback, prose

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
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "twentyfirst",
    "twentysecond",
    "twentythird",
    "twentyfourth",
    "twentyfifth",
    "twentysixth",
    "twentyseventh",
    "twentyeighth",
    "twentyninth",
    "thirtieth",
    "thirtyfirst",
    "thirtysecond",
    "thirtythird",
    "thirtyfourth",
    "thirtyfifth",
    "thirtysixth",
    "thirtyseventh",
    "thirtyeighth",
    "thirtyninth",
    "fortieth",
    "fortyfirst",
    "fortysecond",
    "fortythird",
    "fortyfourth",
    "fortyfifth",
    "fortysixth",
    "fortyseventh",
    "fortyeighth",
    "fortyninth",
    "fiftieth",
    "fiftyfirst",
    "fiftysecond",
    "fiftythird",
    "fiftyfourth",
    "fiftyfifth",
    "fiftysixth",
    "fiftyseventh",
    "fiftyeighth",
    "fiftyninth",
    "sixtieth",
    "sixtyfirst",
    "sixtysecond",
    "sixtythird",
    "sixtyfourth",
    "sixtyfifth",
    "sixtysixth",
    "sixtyseventh",
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


PROSE_ABOUT = (
    "The description reader's parameters (nonstop.diagnose.prose): fallback_table.json's "
    "counts (the same training splits: " + ", ".join(TRAINING) + "), the temperature, length "
    "exponent and thresholds chosen leaving one split out on the descriptions no row matched at "
    "first sight (prose.build). Built by benchmarks/build_triage_fallback.py; measured leaving "
    "one collection out by benchmarks/triage_prose.py (tests/corpus/real/README.md, "
    "issue-27prose)."
)


def prose_table(records: list[dict[str, str]], groups: list[str], asked: list[bool]) -> dict:
    """What prose_table.json holds: the reader's parameters and their provenance."""
    return prose.head(prose.build(records, groups, asked), PROSE_ABOUT)


def main(argv: list[str]) -> int:
    data = training()
    texts = {
        fallback.TABLE: fallback.dumps(table(*data)),
        prose.TABLE: prose.dumps(prose_table(*data)),
    }
    if "--check" in argv:
        stale = [path for path, text in texts.items() if path.read_text() != text]
        for path in stale:
            print(f"{path} is stale: run {__file__}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in texts.items():
        path.write_text(text)
    head = fallback.loads(texts[fallback.TABLE])
    print(
        f"wrote {fallback.TABLE}: {len(head['features'])} features, {len(head['classes'])} "
        f"classes, temperature {head['temperature']}, threshold {head['threshold']}"
    )
    print(f"wrote {prose.TABLE}: {texts[prose.TABLE]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
