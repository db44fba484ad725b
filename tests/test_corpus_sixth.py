"""tests/corpus/real/sixth.jsonl: a sixth collection of real failure excerpts, well formed.

Its records follow the corpus README: ids are the content hash, labels are taxonomy ids with
their default action, and no source repeats one of tuning, heldout, fresh, third, fourth or
fifth (the point of the collection is logs nobody here had seen).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from nonstop import taxonomy

REAL = Path(__file__).resolve().parent / "corpus" / "real"
KEYS = {"id", "source", "category", "action", "reason", "excerpt"}


def _load(split: str) -> list[dict[str, str]]:
    with open(REAL / f"{split}.jsonl") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_sixth_has_enough_records_with_the_readme_keys() -> None:
    recs = _load("sixth")
    assert len(recs) >= 80
    for r in recs:
        assert set(r) == KEYS, r.get("id")
        assert all(isinstance(r[k], str) and r[k].strip() for k in KEYS), r["id"]
        assert r["source"].startswith(("https://", "http://")), r["id"]


def test_sixth_ids_are_the_content_hash_and_unique() -> None:
    recs = _load("sixth")
    for r in recs:
        digest = hashlib.sha256((r["source"] + "\n" + r["excerpt"]).encode()).hexdigest()
        assert r["id"] == digest[:12]
    assert len({r["id"] for r in recs}) == len(recs)


def test_sixth_labels_are_taxonomy_ids_with_their_default_action() -> None:
    for r in _load("sixth"):
        assert r["category"] in taxonomy.IDS, r["id"]
        assert r["action"] in taxonomy.ACTIONS, r["id"]
        assert r["action"] == taxonomy.get(r["category"]).action, r["id"]


def test_sixth_shares_no_source_with_the_other_splits() -> None:
    sixth = [r["source"] for r in _load("sixth")]
    assert len(set(sixth)) == len(sixth)
    seen = {
        r["source"]
        for split in ("tuning", "heldout", "fresh", "third", "fourth", "fifth")
        for r in _load(split)
    }
    assert not seen & set(sixth)
