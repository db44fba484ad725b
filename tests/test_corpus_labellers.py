"""Two labellers on one collection (tests/corpus/real/README.md, "Two labellers on one
collection"): a second labeller's blind labels for the twenty-first collection, and how far they
agree with its collector's. The figures the README and docs/benchmarks.md quote are these."""

from __future__ import annotations

import json
from pathlib import Path

from nonstop import taxonomy

REAL = Path(__file__).resolve().parent / "corpus" / "real"


def test_the_second_labeller_agrees_with_the_collector_on_93_percent_of_categories() -> None:
    second = json.loads((REAL / "second_labeller_twentyfirst.json").read_text())["labels"]
    with open(REAL / "twentyfirst.jsonl") as f:
        first = {r["id"]: r for r in map(json.loads, filter(str.strip, f))}
    assert sorted(r["id"] for r in second) == sorted(first)  # every excerpt, once
    for r in second:
        assert r["category"] in taxonomy.IDS, r
        assert r["action"] == taxonomy.action_for(r["category"]), r
    same_category = sum(r["category"] == first[r["id"]]["category"] for r in second)
    same_action = sum(r["action"] == first[r["id"]]["action"] for r in second)
    assert (same_category, same_action, len(second)) == (78, 83, 84)
