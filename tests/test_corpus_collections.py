"""The later collections of real failure excerpts (tests/corpus/real/{third,...}.jsonl) are
well formed.

Their records follow the corpus README: ids are the content hash, labels are taxonomy ids with
their default action, and no source repeats one of an earlier collection (the point of each
collection is logs nobody here had seen). A new collection is one more name in LATER.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from nonstop import taxonomy

REAL = Path(__file__).resolve().parent / "corpus" / "real"
KEYS = {"id", "source", "category", "action", "reason", "excerpt"}
EARLIER = ("tuning", "heldout", "fresh")
LATER = (
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
"""In the order collected: each may share no source with any split before it."""


def _load(split: str) -> list[dict[str, str]]:
    with open(REAL / f"{split}.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(params=LATER)
def split(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_enough_records_with_the_readme_keys(split: str) -> None:
    recs = _load(split)
    assert len(recs) >= 80
    for r in recs:
        assert set(r) == KEYS, r.get("id")
        assert all(isinstance(r[k], str) and r[k].strip() for k in KEYS), r["id"]
        assert r["source"].startswith(("https://", "http://")), r["id"]


def test_ids_are_the_content_hash_and_unique(split: str) -> None:
    recs = _load(split)
    for r in recs:
        digest = hashlib.sha256((r["source"] + "\n" + r["excerpt"]).encode()).hexdigest()
        assert r["id"] == digest[:12]
    assert len({r["id"] for r in recs}) == len(recs)


def test_labels_are_taxonomy_ids_with_their_default_action(split: str) -> None:
    for r in _load(split):
        assert r["category"] in taxonomy.IDS, r["id"]
        assert r["action"] in taxonomy.ACTIONS, r["id"]
        assert r["action"] == taxonomy.get(r["category"]).action, r["id"]


def test_shares_no_source_with_an_earlier_split(split: str) -> None:
    mine = [r["source"] for r in _load(split)]
    assert len(set(mine)) == len(mine)
    before = EARLIER + LATER[: LATER.index(split)]
    seen = {r["source"] for s in before for r in _load(s)}
    assert not seen & set(mine)
