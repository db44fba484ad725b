"""The real-failure corpus (tests/corpus/real) and the accuracy targets on its frozen held-out set:
category >= 85%, action >= 90%; a wrong exclude_node is the costly mistake."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from nonstop import taxonomy

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus" / "real"
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_triage_accuracy as bench  # noqa: E402


def test_corpus_records_are_sourced_labelled_and_split_by_content_hash() -> None:
    seen = set()
    total = 0
    for split in ("tuning", "heldout"):
        for r in bench.load(split):
            total += 1
            assert set(r) == {"id", "source", "category", "action", "reason", "excerpt"}, r
            assert r["source"].startswith("https://") or r["source"].startswith("http://")
            assert r["category"] in taxonomy.IDS and r["action"] in taxonomy.ACTIONS
            assert r["action"] == taxonomy.action_for(r["category"])
            assert r["reason"].strip() and r["excerpt"].strip()
            key = hashlib.sha256((r["source"] + "\n" + r["excerpt"]).encode()).hexdigest()
            assert r["id"] == key[:12] and key not in seen
            seen.add(key)
            assert (int(key[:8], 16) % 10 < 4) == (split == "heldout"), r["id"]
    assert total >= 250
    fresh = bench.load("fresh")
    for r in fresh:
        assert set(r) == {"id", "source", "category", "action", "reason", "excerpt"}, r
        assert r["category"] in taxonomy.IDS and r["action"] == taxonomy.action_for(r["category"])
        key = hashlib.sha256((r["source"] + "\n" + r["excerpt"]).encode()).hexdigest()
        assert r["id"] == key[:12] and key not in seen, r["id"]
        seen.add(key)
    assert len(fresh) >= 70


def assert_first_sight(
    d: dict,
    name: str,
    *,
    sure: float,
    sure_n: int,
    category: float | None = None,
    action: float | None = None,
    rows_only: float | None = None,
    wrong: frozenset[str] | set[str] = frozenset(),
) -> None:
    """A collection scored once at first sight (tests/corpus/real/README.md): its recorded figures,
    the bench's `NAME_FIRST` constants equal to the literals here so that neither can drift (all
    labels; the rows alone; its collector's sure labels and how many); at least 80 excerpts; later
    work may only move its accuracy up, on all labels and on the sure ones; and its wrong
    exclude_node at first sight (`wrong`) may only go, no other may appear."""
    first = getattr(bench, f"{name.upper()}_FIRST")
    first_sure = getattr(bench, f"{name.upper()}_FIRST_SURE")
    if category is not None:
        assert d[f"{name}_first_category"] == first["category"] == category
    if action is not None:
        assert d[f"{name}_first_action"] == first["action"] == action
    if rows_only is not None:
        assert d[f"{name}_first_rows_only_category"] == rows_only
    assert d[f"{name}_first_sure_category"] == sure and d[f"{name}_sure_excerpts"] == sure_n
    assert d[f"{name}_excerpts"] >= 80
    assert d[f"{name}_category_accuracy"] >= first["category"], d
    assert d[f"{name}_action_accuracy"] >= first["action"], d
    assert d[f"{name}_sure_category_accuracy"] >= first_sure["category"]
    assert set(d[f"{name}_wrong_exclude_node"]) <= wrong, d


@pytest.mark.timeout(900)  # every split twice (with and without the fallback): 155 s in a CI
# run on 2 cores (2026-12-04), 264 s on 2026-12-05, beside the rest of the suite; about 100 s
# alone since the leave-one-collection-out estimate's fold models subtract counts
# (fallback._fold_models, 2026-12-05); it grows with each collection
def test_heldout_accuracy_meets_the_targets() -> None:
    r = bench.run(quick=True)
    d = r["detail"]
    # each split's figures are its own: `<split>_excerpts` is its file's record count (a reused
    # variable once gave the third's fields the thirtieth's figures, unseen by the checks below)
    for key, n in d.items():
        split = key.removesuffix("_excerpts")
        if key.endswith("_excerpts") and (CORPUS / f"{split}.jsonl").exists():
            assert n == len(bench.load(split)), (key, n)
    assert d["heldout_excerpts"] >= 90
    # the quick run leaves three collections out (the saved, full run every one of them); the
    # estimate pools their excerpts and its fallback guessed somewhere
    quick = bench.triage_first_sight.QUICK
    assert d["loco_collections"] == len(quick) == 3
    assert d["loco_excerpts"] == sum(len(bench.load(k)) for k in quick)
    assert d["loco_first_sight_guesses"] > 0
    assert (
        0 < d["loco_first_sight_rows_only_category"] < 1 and 0 < d["loco_first_sight_category"] < 1
    )
    # the third collection after its rows (0.59 / 0.73 at first sight, before them)
    assert d["third_category_accuracy"] >= 0.95, d["third_misses"]
    assert d["third_action_accuracy"] >= 0.95, d["third_misses"]
    assert set(d["third_wrong_exclude_node"]) <= {"b1955f48ee64"}, d
    assert d["heldout_category_accuracy"] >= 0.85, d
    assert d["heldout_action_accuracy"] >= 0.90, d
    assert not d["heldout_wrong_exclude_node"], d
    assert d["fresh_category_accuracy"] >= 0.85, d["fresh_misses"]  # 0.74 before its rows
    # the fourth collection after its rows (0.55 / 0.80 at first sight, before them)
    assert d["fourth_category_accuracy"] >= 0.85, d["fourth_misses"]
    assert d["fourth_action_accuracy"] >= 0.90, d["fourth_misses"]
    assert not d["fourth_wrong_exclude_node"], d
    # the fifth collection after its rows (0.63 / 0.81 at first sight, before them and before
    # the statistical fallback); the rows alone and with the fallback's guesses
    assert d["fifth_first_category"] == bench.FIFTH_FIRST["category"] == 0.6265
    assert d["fifth_rows_only_category_accuracy"] >= 0.85, d["fifth_misses"]
    assert d["fifth_category_accuracy"] >= d["fifth_rows_only_category_accuracy"]
    assert d["fifth_action_accuracy"] >= 0.90, d["fifth_misses"]
    assert not d["fifth_wrong_exclude_node"], d
    # the sixth collection: its first sight, recorded once
    assert d["sixth_first_category"] == bench.SIXTH_FIRST["category"] == 0.7294
    assert d["sixth_first_action"] == bench.SIXTH_FIRST["action"] == 0.8471
    assert d["sixth_excerpts"] >= 80
    # ... and after its rows (not out of sample): the rows alone and with the fallback
    assert d["sixth_rows_only_category_accuracy"] >= 0.90, d["sixth_misses"]
    assert d["sixth_action_accuracy"] >= 0.95, d["sixth_misses"]
    assert not d["sixth_wrong_exclude_node"], d
    # the seventh collection: its first sight, recorded once, and later work may only move it up
    assert d["seventh_first_category"] == bench.SEVENTH_FIRST["category"] == 0.618
    assert d["seventh_first_action"] == bench.SEVENTH_FIRST["action"] == 0.8202
    assert d["seventh_excerpts"] >= 80
    assert d["seventh_category_accuracy"] >= bench.SEVENTH_FIRST["category"], d["seventh_misses"]
    assert d["seventh_action_accuracy"] >= bench.SEVENTH_FIRST["action"], d["seventh_misses"]
    # ... and after its rows (not out of sample): the rows alone and with the fallback. Its one
    # wrong exclude_node is the AMD MC4 corrected DRAM ECC line the held-out set labels
    # system_memory (7f3ef7f44b8f): the held-out label decides (tests/corpus/real/README.md)
    assert d["seventh_rows_only_category_accuracy"] >= 0.90, d["seventh_misses"]
    assert d["seventh_category_accuracy"] >= d["seventh_rows_only_category_accuracy"]
    assert d["seventh_action_accuracy"] >= 0.95, d["seventh_misses"]
    assert d["seventh_wrong_exclude_node"] in ([], ["0bb28ceda4e7"]), d
    # the eighth collection: its first sight, recorded once, and later work may only move it up
    assert d["eighth_first_category"] == bench.EIGHTH_FIRST["category"] == 0.7093
    assert d["eighth_first_action"] == bench.EIGHTH_FIRST["action"] == 0.9186
    assert d["eighth_excerpts"] >= 80
    assert d["eighth_category_accuracy"] >= bench.EIGHTH_FIRST["category"], d["eighth_misses"]
    assert d["eighth_action_accuracy"] >= bench.EIGHTH_FIRST["action"], d["eighth_misses"]
    # ... and after its rows (not out of sample any more): the rows alone and with the fallback.
    # Its two wrong exclude_node left are labels the collector doubted or a class no row should
    # take: a Kubernetes NodeNotReady labelled unknown (7813a6c5708d) and a Longhorn volume's I/O
    # errors whose excerpt names only sda (5ddbd1b3472a); tests/corpus/real/README.md
    assert d["eighth_rows_only_category_accuracy"] >= 0.8372, d["eighth_misses"]
    assert d["eighth_category_accuracy"] >= 0.8605, d["eighth_misses"]
    assert d["eighth_category_accuracy"] >= d["eighth_rows_only_category_accuracy"]
    assert d["eighth_action_accuracy"] >= 0.9767, d["eighth_misses"]
    assert set(d["eighth_wrong_exclude_node"]) <= {"7813a6c5708d", "5ddbd1b3472a"}, d
    # the ninth collection: its first sight, recorded once, and later work may only move it up;
    # its one wrong exclude_node is a corrected-memory-errors excerpt the collector labelled
    # unknown and marked unsure (7af83a0d002f)
    assert d["ninth_first_category"] == bench.NINTH_FIRST["category"] == 0.8391
    assert d["ninth_first_action"] == bench.NINTH_FIRST["action"] == 0.9195
    assert d["ninth_excerpts"] >= 80
    assert d["ninth_category_accuracy"] >= bench.NINTH_FIRST["category"], d["ninth_misses"]
    assert d["ninth_action_accuracy"] >= bench.NINTH_FIRST["action"], d["ninth_misses"]
    assert set(d["ninth_wrong_exclude_node"]) <= {"7af83a0d002f"}, d
    # ... and after its rows (not out of sample any more): the rows alone and with the fallback.
    # The five misses left are labels the collector doubted or classes no line row can take
    # (tests/corpus/real/README.md, the ninth's "After its rows")
    assert d["ninth_rows_only_category_accuracy"] >= 0.8966, d["ninth_misses"]
    assert d["ninth_category_accuracy"] >= 0.9425, d["ninth_misses"]
    assert d["ninth_category_accuracy"] >= d["ninth_rows_only_category_accuracy"]
    assert d["ninth_action_accuracy"] >= 0.9425, d["ninth_misses"]
    # the tenth collection: its first sight, recorded once (also on the labels its collector
    # was sure of), and later work may only move it up; its one wrong exclude_node is a vanished
    # cloud volume's EXT4 I/O errors, marked unsure (65b84b3a2a62)
    assert_first_sight(
        d,
        "tenth",
        category=0.7586,
        action=0.9195,
        sure=0.9123,
        sure_n=57,
        wrong={"65b84b3a2a62"},
    )
    # ... and after its rows (not out of sample any more): the rows alone and with the fallback.
    # The six misses left are labels the collector doubted or classes with one public wording
    # (tests/corpus/real/README.md, the tenth's "After its rows")
    assert d["tenth_rows_only_category_accuracy"] >= 0.8736, d["tenth_misses"]
    assert d["tenth_category_accuracy"] >= 0.931, d["tenth_misses"]
    assert d["tenth_category_accuracy"] >= d["tenth_rows_only_category_accuracy"]
    # 0.9885 until mpi_daemon_lost became `unknown` (the thirty-seventh's two sure labels of the
    # line; four of its five labels say restart): the tenth's c983ac5d9327 (host_maintenance,
    # unsure) is missed on purpose (test_diag_rows_thirtyseventh.py)
    assert d["tenth_action_accuracy"] >= 0.977, d["tenth_misses"]
    # the eleventh collection: its first sight, recorded once (also on the labels its collector
    # was sure of), and later work may only move it up; its one wrong exclude_node was a
    # script's "GPU circuit breaker OPEN" read as a supply (0cf59f2a871d)
    assert_first_sight(
        d,
        "eleventh",
        category=0.6897,
        action=0.8966,
        sure=0.7231,
        sure_n=65,
        wrong={"0cf59f2a871d"},
    )
    # ... and after its rows (not out of sample any more): the rows alone and with the fallback;
    # the misses left are reporters' sentences without a log line and labels that disagree
    # with earlier collections (tests/corpus/real/README.md, the eleventh's "After its rows")
    assert d["eleventh_rows_only_category_accuracy"] >= 0.8046, d["eleventh_misses"]
    assert d["eleventh_category_accuracy"] >= 0.8391, d["eleventh_misses"]
    assert d["eleventh_action_accuracy"] >= 0.9425, d["eleventh_misses"]
    assert not d["eleventh_wrong_exclude_node"], d
    # the twelfth collection: its first sight, recorded once (also on the labels its collector
    # was sure of), and later work may only move it up; no wrong exclude_node at first sight,
    # and none may appear
    assert_first_sight(d, "twelfth", category=0.7529, action=0.8941, sure=0.8413, sure_n=63)
    # ... and after its rows (not out of sample any more): the rows alone and with the fallback;
    # the misses left are reporters' sentences without a log line, labels the rules dispute and
    # classes with one public wording (tests/corpus/real/README.md, the twelfth's "After its rows")
    assert d["twelfth_rows_only_category_accuracy"] >= 0.7765, d["twelfth_misses"]
    assert d["twelfth_category_accuracy"] >= 0.8941, d["twelfth_misses"]
    assert d["twelfth_action_accuracy"] >= 0.9412, d["twelfth_misses"]
    # the thirteenth collection: its first sight (also on the labels its collector was sure of);
    # later work may only move it up; no wrong exclude_node at first sight, and none may appear
    assert_first_sight(d, "thirteenth", rows_only=0.5581, sure=0.775, sure_n=40)
    # ... and after its rows and the fallback's retraining on it (not out of sample any more); the
    # misses left are reporters' sentences without a log line, labels the rules dispute and
    # classes with one public wording (tests/corpus/real/README.md, the thirteenth's "After its
    # rows")
    assert d["thirteenth_rows_only_category_accuracy"] >= 0.6744, d["thirteenth_misses"]
    assert d["thirteenth_category_accuracy"] >= 0.8372, d["thirteenth_misses"]
    assert d["thirteenth_action_accuracy"] >= 0.8837, d["thirteenth_misses"]
    # the fourteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; one wrong exclude_node at first sight (an unsure
    # label), and no other may appear
    assert_first_sight(
        d,
        "fourteenth",
        category=0.5172,
        action=0.7701,
        rows_only=0.4253,
        sure=0.641,
        sure_n=39,
        wrong={"8cf26aab0871"},
    )
    # ... and after its rows and the fallback's retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the fourteenth's "After its rows")
    assert d["fourteenth_rows_only_category_accuracy"] >= 0.5057, d["fourteenth_misses"]
    assert d["fourteenth_category_accuracy"] >= 0.8276, d["fourteenth_misses"]
    assert d["fourteenth_action_accuracy"] >= 0.8046, d["fourteenth_misses"]
    # the fifteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; two wrong exclude_node at first sight (both
    # unsure labels), and no other may appear
    assert_first_sight(
        d,
        "fifteenth",
        category=0.6667,
        action=0.9,
        rows_only=0.5667,
        sure=0.7414,
        sure_n=58,
        wrong={"3e61fff77b1c", "58ea47a76cd1"},
    )
    # ... and after its rows and the retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the fifteenth's "After its rows")
    assert d["fifteenth_rows_only_category_accuracy"] >= 0.7556, d["fifteenth_misses"]
    assert d["fifteenth_category_accuracy"] >= 0.9, d["fifteenth_misses"]
    assert d["fifteenth_action_accuracy"] >= 0.9111, d["fifteenth_misses"]
    # the sixteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; one wrong exclude_node at first sight (a
    # driver that does not support the GPU read as the GPU), and no other may appear
    assert_first_sight(
        d,
        "sixteenth",
        category=0.5843,
        action=0.7753,
        rows_only=0.5169,
        sure=0.6833,
        sure_n=60,
        wrong={"df0fc79b12a1"},
    )
    # ... and after its rows and the retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the sixteenth's "After its rows")
    assert d["sixteenth_rows_only_category_accuracy"] >= 0.6854, d["sixteenth_misses"]
    assert d["sixteenth_category_accuracy"] >= 0.9438, d["sixteenth_misses"]
    # (86.5% since an operator's stated conclusion is read as advice, issue-27advice)
    assert d["sixteenth_action_accuracy"] >= 0.8652, d["sixteenth_misses"]
    # the seventeenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert_first_sight(
        d, "seventeenth", category=0.5843, action=0.7865, rows_only=0.4382, sure=0.5714, sure_n=49
    )
    # ... and after its rows and the retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the seventeenth's "After its rows")
    assert d["seventeenth_rows_only_category_accuracy"] >= 0.6067, d["seventeenth_misses"]
    assert d["seventeenth_category_accuracy"] >= 0.9326, d["seventeenth_misses"]
    assert d["seventeenth_action_accuracy"] >= 0.8427, d["seventeenth_misses"]
    # the eighteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert_first_sight(
        d, "eighteenth", category=0.6854, action=0.8427, rows_only=0.5393, sure=0.8113, sure_n=53
    )
    # the nineteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert_first_sight(
        d, "nineteenth", category=0.5882, action=0.7765, rows_only=0.5059, sure=0.66, sure_n=50
    )
    # ... and after its rows and the tables retrained on it (issue-27rows19, in sample:
    # tests/corpus/real/README.md, the nineteenth's "After its rows")
    assert d["nineteenth_rows_only_category_accuracy"] >= 0.6353, d["nineteenth_misses"]
    assert d["nineteenth_category_accuracy"] >= 0.8824, d["nineteenth_misses"]
    assert d["nineteenth_action_accuracy"] >= 0.8118, d["nineteenth_misses"]
    # the twentieth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its one wrong exclude_node at first sight
    # (cff5dc79d854, an unsure label) may only go
    assert_first_sight(
        d,
        "twentieth",
        category=0.619,
        action=0.8333,
        rows_only=0.5238,
        sure=0.7674,
        sure_n=43,
        wrong={"cff5dc79d854"},
    )
    # the twenty-first collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its two wrong exclude_node at first sight
    # (driver bugs read as a faulty GPU, unsure labels) may only go
    assert_first_sight(
        d,
        "twentyfirst",
        category=0.6548,
        action=0.9048,
        rows_only=0.5357,
        sure=0.7609,
        sure_n=46,
        wrong={"9278bb57cf00", "4ffecfebd734"},
    )
    # the twenty-second collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its one wrong exclude_node at first sight
    # (ccf26e5bb282: Xid 120 that follows the X server across cards, an unsure software_bug
    # label) may only go
    assert_first_sight(
        d,
        "twentysecond",
        category=0.7195,
        action=0.8537,
        rows_only=0.6463,
        sure=0.8261,
        sure_n=46,
        wrong={"ccf26e5bb282"},
    )
    # the sixty-seventh collection: its first sight is the recorded out-of-sample figure (also on
    # the 32 labels its collector was sure of, 48 of 80 unsure: 27 categories, 30 actions), and
    # later work may only move it up; its three wrong exclude_node at first sight (Node Health
    # Check failing on itself or on the environment, 776dd6ca012b and e875bb42f4cc; "CUDA-capable
    # device(s) is/are busy or unavailable", 83988252db7b, an unsure label) may only go
    assert d["first_sight_category"] == bench.SIXTYSEVENTH_FIRST["category"] == 0.7375
    assert d["first_sight_action"] == bench.SIXTYSEVENTH_FIRST["action"] == 0.9125
    assert_first_sight(
        d,
        "sixtyseventh",
        category=0.7375,
        action=0.9125,
        rows_only=0.5625,
        sure=0.8438,
        sure_n=32,
        wrong={"776dd6ca012b", "e875bb42f4cc", "83988252db7b"},
    )
    # the sixty-sixth collection: its first sight (also on the 33 labels its collector was sure
    # of, 51 of 84 unsure: 22 categories, 30 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "sixtysixth",
        category=0.5357,
        action=0.9167,
        rows_only=0.4643,
        sure=0.6667,
        sure_n=33,
    )
    # the sixty-fifth collection: its first sight (also on the 34 labels its collector was sure
    # of, 49 of 83 unsure: 25 categories, 26 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "sixtyfifth",
        category=0.6024,
        action=0.747,
        rows_only=0.5663,
        sure=0.7353,
        sure_n=34,
    )
    # the sixty-fourth collection: its first sight (also on the 44 labels its collector was sure
    # of, 39 of 83 unsure: 38 categories, 43 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "sixtyfourth",
        category=0.7229,
        action=0.9398,
        rows_only=0.5783,
        sure=0.8636,
        sure_n=44,
    )
    # the sixty-third collection: its first sight (also on the 39 labels its collector was sure
    # of, 44 of 83 unsure: 34 categories, 39 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "sixtythird",
        category=0.7229,
        action=0.8675,
        rows_only=0.7108,
        sure=0.8718,
        sure_n=39,
    )
    # the sixty-second collection: its first sight (also on the 41 labels its collector was sure
    # of, 42 of 83 unsure: 34 categories, 38 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "sixtysecond",
        category=0.6867,
        action=0.9277,
        rows_only=0.6265,
        sure=0.8293,
        sure_n=41,
    )
    # ... and the sixty-fifth to sixty-seventh after their rows and the tables retrained on them
    # (issue-27rows65/66/67, in sample: tests/corpus/real/README.md, each one's "After its
    # rows"); the one wrong exclude_node left is the sixty-seventh's "CUDA-capable device(s)
    # is/are busy or unavailable" (83988252db7b: the corpus labels that wording faulty_gpu 4 to 3)
    for name, rows_only, category, action in (
        ("sixtyfifth", 0.6627, 0.747, 0.8072),
        ("sixtysixth", 0.6429, 0.8929, 0.9762),
        ("sixtyseventh", 0.65, 0.975, 0.95),
    ):
        assert d[f"{name}_rows_only_category_accuracy"] >= rows_only, d[f"{name}_misses"]
        assert d[f"{name}_category_accuracy"] >= category, d[f"{name}_misses"]
        assert d[f"{name}_action_accuracy"] >= action, d[f"{name}_misses"]
        assert set(d[f"{name}_wrong_exclude_node"]) <= {"83988252db7b"}, d
    # ... and the sixty-second to sixty-fourth after their rows and the tables retrained on them
    # (issue-27rows62/63/64, in sample: tests/corpus/real/README.md, each one's "After its rows");
    # no wrong exclude_node then or since
    for name, rows_only, category, action in (
        ("sixtysecond", 0.7831, 0.9036, 0.9639),
        ("sixtythird", 0.7831, 0.8675, 0.9398),
        ("sixtyfourth", 0.6988, 0.8916, 0.9759),
    ):
        assert d[f"{name}_rows_only_category_accuracy"] >= rows_only, d[f"{name}_misses"]
        assert d[f"{name}_category_accuracy"] >= category, d[f"{name}_misses"]
        assert d[f"{name}_action_accuracy"] >= action, d[f"{name}_misses"]
        assert d[f"{name}_wrong_exclude_node"] == [], d
    # the sixty-first collection: its first sight (also on the 31 labels its collector was sure
    # of, 52 of 83 unsure: 27 categories, 31 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "sixtyfirst",
        category=0.6747,
        action=1.0,
        rows_only=0.6386,
        sure=0.871,
        sure_n=31,
    )
    # the sixtieth collection: its first sight (also on the 29 labels its collector was sure of,
    # 53 of 82 unsure: 27 categories, 28 actions), and later work may only move it up; its
    # one wrong exclude_node at first sight (d950d7ca40cb: Xid 109 "CTX SWITCH TIMEOUT" read as a
    # faulty GPU, an unsure `software_bug` label) may only go
    assert_first_sight(
        d,
        "sixtieth",
        category=0.622,
        action=0.8659,
        rows_only=0.561,
        sure=0.931,
        sure_n=29,
        wrong={"d950d7ca40cb"},
    )
    # the fifty-ninth collection: its first sight (also on the 42 labels its collector was sure
    # of, 40 of 82 unsure: 35 categories, 42 actions), and later work may only move it up; its
    # one wrong exclude_node at first sight (0164891c5ba7: "CUDA-capable device(s) is/are busy or
    # unavailable" read as a faulty GPU, an unsure `dependency` label) may only go
    assert_first_sight(
        d,
        "fiftyninth",
        category=0.6829,
        action=0.939,
        rows_only=0.5244,
        sure=0.8333,
        sure_n=42,
        wrong={"0164891c5ba7"},
    )
    # the fifty-eighth collection: its first sight (also on the 38 labels its collector was sure
    # of, 44 of 82 unsure: 30 categories, 34 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fiftyeighth",
        category=0.6585,
        action=0.8902,
        rows_only=0.5732,
        sure=0.7895,
        sure_n=38,
    )
    # the fifty-seventh collection: its first sight (also on the 33 labels its collector was sure
    # of, 50 of 83 unsure: 29 categories, 31 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fiftyseventh",
        category=0.6747,
        action=0.9157,
        rows_only=0.5783,
        sure=0.8788,
        sure_n=33,
    )
    # the fifty-sixth collection: its first sight (also on the 41 labels its collector was sure
    # of, 42 of 83 unsure: 33 categories, 40 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fiftysixth",
        category=0.6747,
        action=0.9518,
        rows_only=0.5783,
        sure=0.8049,
        sure_n=41,
    )
    # the fifty-fifth collection: its first sight (also on the 26 labels its collector was sure
    # of, 58 of 84 unsure: 22 categories, 26 actions), and later work may only move it up; its
    # one wrong exclude_node at first sight (49c5adb59cbe: EXT4's "Inode table ... marked as
    # needing zeroing" at mount read as a failing SSD, an unsure `software_bug` label) may only go
    assert_first_sight(
        d,
        "fiftyfifth",
        category=0.6071,
        action=0.869,
        rows_only=0.5119,
        sure=0.8462,
        sure_n=26,
        wrong={"49c5adb59cbe"},
    )
    # the fifty-fourth collection: its first sight (also on the 37 labels its collector was sure
    # of, 46 of 83 unsure: 33 categories, 35 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fiftyfourth",
        category=0.8193,
        action=0.9518,
        rows_only=0.7831,
        sure=0.8919,
        sure_n=37,
    )
    # the fifty-third collection: its first sight (also on the 34 labels its collector was sure
    # of, 50 of 84 unsure: 27 categories, 33 actions), and later work may only move it up; its
    # one wrong exclude_node at first sight (7c41a84331b7: libibverbs' warning that a driver does
    # not support the kernel's ABI read as the NIC, an unsure `dependency` label) may only go
    assert_first_sight(
        d,
        "fiftythird",
        category=0.5952,
        action=0.9167,
        rows_only=0.5357,
        sure=0.7941,
        sure_n=34,
        wrong={"7c41a84331b7"},
    )
    # the fifty-second collection: its first sight (also on the 32 labels its collector was sure
    # of, 52 of 84 unsure: 26 categories, 29 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fiftysecond",
        category=0.5476,
        action=0.8452,
        rows_only=0.4286,
        sure=0.8125,
        sure_n=32,
    )
    # the fifty-first collection: its first sight (also on the 15 labels its collector was sure
    # of, 68 of 83 unsure: 12 categories, all 15 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fiftyfirst",
        category=0.7349,
        action=0.9759,
        rows_only=0.6024,
        sure=0.8,
        sure_n=15,
    )
    # the fiftieth collection: its first sight (also on the 37 labels its collector was sure
    # of, 46 of 83 unsure: 30 categories, 34 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fiftieth",
        category=0.6145,
        action=0.8675,
        rows_only=0.5542,
        sure=0.8108,
        sure_n=37,
    )
    # the forty-ninth collection: its first sight (also on the 27 labels its collector was sure
    # of, 57 of 84 unsure: 24 categories, 26 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fortyninth",
        category=0.6667,
        action=0.8571,
        rows_only=0.5476,
        sure=0.8889,
        sure_n=27,
    )
    # the forty-eighth collection: its first sight (also on the 23 labels its collector was sure
    # of, 60 of 83 unsure: 20 categories, all 23 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fortyeighth",
        category=0.7108,
        action=0.9398,
        rows_only=0.5422,
        sure=0.8696,
        sure_n=23,
    )
    # the forty-seventh collection: its first sight (also on the 15 labels its collector was sure
    # of, 66 of 81 unsure: 14 categories, 13 actions), and later work may only move it up; its
    # three wrong exclude_node at first sight, all on unsure `unknown` labels, may only go:
    # 5e80cb972dcf read as a disk, af8326a16f35 as the GPU, 2276a1d163c7 as the CPU
    assert_first_sight(
        d,
        "fortyseventh",
        category=0.7037,
        action=0.7284,
        rows_only=0.5802,
        sure=0.9333,
        sure_n=15,
        wrong={"5e80cb972dcf", "af8326a16f35", "2276a1d163c7"},
    )
    # the forty-sixth collection: its first sight (also on the 23 labels its collector was sure
    # of, 60 of 83 unsure: 20 categories, all 23 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fortysixth",
        category=0.6386,
        action=0.9157,
        rows_only=0.5783,
        sure=0.8696,
        sure_n=23,
    )
    # the forty-fifth collection: its first sight (also on the 22 labels its collector was sure
    # of, 61 of 83 unsure: 17 categories, all 22 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fortyfifth",
        category=0.5181,
        action=0.8916,
        rows_only=0.3494,
        sure=0.7727,
        sure_n=22,
    )
    # the forty-fourth collection: its first sight (also on the 28 labels its collector was sure
    # of, 54 of 82 unsure: 24 categories, 26 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fortyfourth",
        category=0.6341,
        action=0.8902,
        rows_only=0.5366,
        sure=0.8571,
        sure_n=28,
    )
    # the forty-third collection: its first sight (also on the 23 labels its collector was sure
    # of, 62 of 85 unsure: 19 categories, 20 actions), and later work may only move it up; its one
    # wrong exclude_node at first sight, on an unsure label, may only go: 3b421e8b245e
    # (`dependency`) read as host maintenance
    assert_first_sight(
        d,
        "fortythird",
        category=0.5765,
        action=0.8706,
        rows_only=0.5412,
        sure=0.8261,
        sure_n=23,
        wrong={"3b421e8b245e"},
    )
    # the forty-second collection: its first sight (also on the 23 labels its collector was sure
    # of, 57 of 80 unsure: 21 categories, all 23 actions), and later work may only move it up; its
    # one wrong exclude_node at first sight, on an unsure label, may only go: 24bd33886111
    # (sglang's prefill/decode run finding the device busy or unavailable when setting a stream,
    # then an unspecified launch failure, software_bug) read as the GPU
    assert_first_sight(
        d,
        "fortysecond",
        category=0.7375,
        action=0.925,
        rows_only=0.7125,
        sure=0.913,
        sure_n=23,
        wrong={"24bd33886111"},
    )
    # the forty-first collection: its first sight (also on the 17 labels its collector was sure
    # of, 65 of 82 unsure: 16 categories, 16 actions), and later work may only move it up; no
    # wrong exclude_node at first sight, and none may appear
    assert_first_sight(
        d,
        "fortyfirst",
        category=0.7073,
        action=0.878,
        rows_only=0.5488,
        sure=0.9412,
        sure_n=17,
    )
    # the fortieth collection: its first sight (also on the labels its collector was sure of: 28
    # of 31 categories, 28 actions), and later work may only move it up; no wrong exclude_node at
    # first sight, and none may appear
    assert_first_sight(
        d,
        "fortieth",
        category=0.825,
        action=0.9125,
        rows_only=0.775,
        sure=0.9032,
        sure_n=31,
    )
    # the thirty-ninth collection: its first sight (also on the labels its collector was sure of:
    # 18 of 22 categories, 21 actions), and later work may only move it up; its one wrong
    # exclude_node at first sight, on an unsure label, may only go: c9868f6140c6 (an amdgpu job
    # timeout in a browser process, then a GPU reset whose KIQ ring tests fail, software_bug)
    # read as the GPU
    assert_first_sight(
        d,
        "thirtyninth",
        category=0.5814,
        action=0.907,
        rows_only=0.3953,
        sure=0.8182,
        sure_n=22,
        wrong={"c9868f6140c6"},
    )
    # the thirty-eighth collection: its first sight (also on the labels its collector was sure
    # of: 26 of 28 categories, all 28 actions), and later work may only move it up; its one wrong
    # exclude_node at first sight, on an unsure label, may only go: dedd1aa75299 (a bare
    # "Detected Critical Xid Error" with no Xid number before a Megatron traceback, unknown) read
    # as the GPU
    assert_first_sight(
        d,
        "thirtyeighth",
        category=0.6875,
        action=0.95,
        rows_only=0.575,
        sure=0.9286,
        sure_n=28,
        wrong={"dedd1aa75299"},
    )
    # the thirty-seventh collection: its first sight (also on the labels its collector was sure
    # of: 17 of 25 categories, 21 actions), and later work may only move it up; its two wrong
    # exclude_node at first sight, both on sure labels, may only go: 3169b5f9707c and
    # c09059b25b1a (ORTE "has lost communication with a remote daemon", unknown by the peer rule,
    # the second after a bare exit code 137) read as a host lost
    assert_first_sight(
        d,
        "thirtyseventh",
        category=0.575,
        action=0.9,
        rows_only=0.425,
        sure=0.68,
        sure_n=25,
        wrong={"3169b5f9707c", "c09059b25b1a"},
    )
    # the thirty-sixth collection: its first sight (also on the labels its collector was sure of:
    # only 3, all right; 77 of its 80 are unsure), and later work may only move it up; its four
    # wrong exclude_node at first sight, all on unsure labels, may only go: 3ef33824fe67 (a
    # kubelet's NodeNotReady for "PLEG is not healthy", software_bug) read as a node lost;
    # 18aa9e0c5d49 (an igb "Detected Tx Unit Hang" under the out-of-tree netmap driver,
    # software_bug) read as the NIC; b1ef0e93a617 (buffer I/O errors on an offline Longhorn iSCSI
    # volume, storage) read as a local disk; 944ed3b1d8e7 (the BMC's PSU monitor failing a D-Bus
    # call, "UnknownMethod", dependency) read as a power supply
    assert_first_sight(
        d,
        "thirtysixth",
        category=0.45,
        action=0.7,
        rows_only=0.45,
        sure=1.0,
        sure_n=3,
        wrong={"3ef33824fe67", "18aa9e0c5d49", "b1ef0e93a617", "944ed3b1d8e7"},
    )
    # the thirty-fifth collection: its first sight (also on the labels its collector was sure of:
    # all 24 right), and later work may only move it up; no wrong exclude_node at first sight (no
    # label of it excludes a node), and none may appear
    assert_first_sight(
        d,
        "thirtyfifth",
        category=0.7778,
        action=0.9136,
        rows_only=0.7531,
        sure=1.0,
        sure_n=24,
    )
    # the thirty-fourth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its four wrong exclude_node at first sight, all on
    # unsure labels, may only go: b940ab1d7b59 (medium errors and an ext4 journal abort on a
    # Longhorn iSCSI volume) and eba9dde53531 (DID_BAD_TARGET on a Google PersistentDisk),
    # network volumes read as a local disk; dc856aafddab (Btrfs errors on an emulated zoned NVMe
    # device, software_bug) read as a local disk; e0ab62b33df0 (a machine check whose bank status
    # is all zeros, unknown) read as the CPU
    assert_first_sight(
        d,
        "thirtyfourth",
        category=0.675,
        action=0.75,
        rows_only=0.6375,
        sure=0.9444,
        sure_n=18,
        wrong={"b940ab1d7b59", "eba9dde53531", "dc856aafddab", "e0ab62b33df0"},
    )
    # the thirty-third collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none may
    # appear
    assert_first_sight(
        d,
        "thirtythird",
        category=0.8875,
        action=0.9875,
        rows_only=0.8625,
        sure=0.975,
        sure_n=40,
    )
    # the thirty-second collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its one wrong exclude_node at first sight
    # (982651df85b4: ext4 journals aborting on Longhorn's replicated network volumes, read as a
    # local disk; an unsure storage label, ssd its alternative) may only go
    assert_first_sight(
        d,
        "thirtysecond",
        category=0.75,
        action=0.9,
        rows_only=0.675,
        sure=0.9091,
        sure_n=33,
        wrong={"982651df85b4"},
    )
    # the thirty-first collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its one wrong exclude_node at first sight
    # (667a6856940a: a GPU health agent's README quoting Xid 13 then Xid 109, read as a faulty
    # GPU; an unsure software_bug label) may only go
    assert_first_sight(
        d,
        "thirtyfirst",
        category=0.6625,
        action=0.9,
        rows_only=0.575,
        sure=0.8,
        sure_n=20,
        wrong={"667a6856940a"},
    )
    # ... and after its rows and the tables retrained on it (issue-27rows31, in sample:
    # tests/corpus/real/README.md, the thirty-first's "After its rows"); its one wrong exclusion
    # (667a6856940a, left alone there: the bare Xid 13 and Xid 109 rules) may only go, no other
    # may appear
    assert d["thirtyfirst_rows_only_category_accuracy"] >= 0.6375, d["thirtyfirst_misses"]
    assert d["thirtyfirst_category_accuracy"] >= 0.85, d["thirtyfirst_misses"]
    assert d["thirtyfirst_action_accuracy"] >= 0.925, d["thirtyfirst_misses"]
    assert set(d["thirtyfirst_wrong_exclude_node"]) <= {"667a6856940a"}, d
    # the thirty-second after its rows and the tables retrained on it (issue-27rows32, in sample:
    # tests/corpus/real/README.md, the thirty-second's "After its rows"; 75.0% / 90.0% at first
    # sight): its one wrong exclusion at first sight (982651df85b4, ext4 on Longhorn volumes)
    # went with the reading of several disks' I/O errors as shared storage, and none may
    # appear
    assert d["thirtysecond_rows_only_category_accuracy"] >= 0.7875, d["thirtysecond_misses"]
    assert d["thirtysecond_rows_only_action_accuracy"] >= 0.95, d["thirtysecond_misses"]
    # (0.9375 until the tables were retrained with the thirty-fourth: its 0bc43323dabf, an
    # exporter's "nvml: Not Supported" fan query under an unsure `unknown` label, became a
    # `faulty_gpu` guess with the same action, restart)
    assert d["thirtysecond_category_accuracy"] >= 0.925, d["thirtysecond_misses"]
    assert d["thirtysecond_action_accuracy"] >= 0.95, d["thirtysecond_misses"]
    assert not d["thirtysecond_wrong_exclude_node"], d["thirtysecond_misses"]
    # the thirty-third after its rows and the tables retrained on it (issue-27rows33, in sample:
    # tests/corpus/real/README.md, the thirty-third's "After its rows"; 88.75% / 98.75% at first
    # sight, rows alone 86.25% / 98.75%, no wrong exclude_node): none may appear
    assert d["thirtythird_rows_only_category_accuracy"] >= 0.8875, d["thirtythird_misses"]
    assert d["thirtythird_rows_only_action_accuracy"] >= 0.9875, d["thirtythird_misses"]
    assert d["thirtythird_category_accuracy"] >= 0.925, d["thirtythird_misses"]
    assert d["thirtythird_action_accuracy"] >= 0.9875, d["thirtythird_misses"]
    assert not d["thirtythird_wrong_exclude_node"], d["thirtythird_misses"]
    # the thirty-fourth after its rows (issue-27rows34, in sample: tests/corpus/real/README.md, the
    # thirty-fourth's "After its rows"; 63.75% / 75.0% rows alone at first sight), the rows alone
    # (the tables are retrained on it later): its wrong exclusion e0ab62b33df0 (a machine-check
    # bank whose status holds no error) went with _MCE_NO_ERROR and may not come back; the other
    # three (b940ab1d7b59 and eba9dde53531, network volumes the excerpts show only as local sd
    # disks; dc856aafddab, btrfs's own error counts on an emulated NVMe device) were left alone
    # there and may only go; with the tables retrained on it (by the lead, after both branches:
    # fallback parameters kept, the reader's back to temperature 4, length exponent 0.25)
    # 85.0% / 81.25% in sample
    assert d["thirtyfourth_rows_only_category_accuracy"] >= 0.6875, d["thirtyfourth_misses"]
    assert d["thirtyfourth_rows_only_action_accuracy"] >= 0.8, d["thirtyfourth_misses"]
    assert d["thirtyfourth_category_accuracy"] >= 0.85, d["thirtyfourth_misses"]
    assert d["thirtyfourth_action_accuracy"] >= 0.8125, d["thirtyfourth_misses"]
    assert set(d["thirtyfourth_wrong_exclude_node"]) <= {
        "b940ab1d7b59",
        "eba9dde53531",
        "dc856aafddab",
    }, d["thirtyfourth_misses"]
    # the thirtieth collection: its first sight (also on the labels its collector was sure of),
    # and later work may only move it up; its one wrong exclude_node at first sight
    # (b1f60f568db1: tcpreplay's send failure read as the NIC, an unsure software_bug label) may
    # only go
    assert_first_sight(
        d,
        "thirtieth",
        category=0.4875,
        action=0.7875,
        rows_only=0.4125,
        sure=0.4762,
        sure_n=21,
        wrong={"b1f60f568db1"},
    )
    # ... and after its rows and the tables retrained on it (issue-27rows30, in sample:
    # tests/corpus/real/README.md, the thirtieth's "After its rows"); its one wrong exclusion
    # (b1f60f568db1, left alone there: the transmit-hang rule) may only go, no other may appear
    assert d["thirtieth_rows_only_category_accuracy"] >= 0.575, d["thirtieth_misses"]
    assert d["thirtieth_category_accuracy"] >= 0.8625, d["thirtieth_misses"]
    assert d["thirtieth_action_accuracy"] >= 0.925, d["thirtieth_misses"]
    assert set(d["thirtieth_wrong_exclude_node"]) <= {"b1f60f568db1"}, d
    # the twenty-ninth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert_first_sight(
        d,
        "twentyninth",
        category=0.5432,
        action=0.7654,
        rows_only=0.4691,
        sure=0.8519,
        sure_n=27,
    )
    # ... and after its rows and the tables retrained on it (issue-27rows29, in sample:
    # tests/corpus/real/README.md, the twenty-ninth's "After its rows"); no wrong exclusion then
    # or since
    assert d["twentyninth_rows_only_category_accuracy"] >= 0.6667, d["twentyninth_misses"]
    assert d["twentyninth_category_accuracy"] >= 0.9012, d["twentyninth_misses"]
    assert d["twentyninth_action_accuracy"] >= 0.8765, d["twentyninth_misses"]
    assert d["twentyninth_wrong_exclude_node"] == [], d
    # every collection's first sight on its sure labels, pooled: recorded figures, fixed
    assert d["first_sight_sure_collections"] == 58
    assert d["first_sight_sure_excerpts"] == 1996
    assert (d["first_sight_sure_category"], d["first_sight_sure_action"]) == (0.8116, 0.9248)
    assert d["first_sight_sure_latest6_excerpts"] == 223
    assert (d["first_sight_sure_latest6_category"], d["first_sight_sure_latest6_action"]) == (
        0.8072,
        0.9238,
    )
    # the twenty-eighth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert_first_sight(
        d,
        "twentyeighth",
        category=0.5854,
        action=0.7927,
        rows_only=0.4634,
        sure=0.8095,
        sure_n=21,
    )
    # ... and after its rows and the tables retrained on it (issue-27rows28, in sample:
    # tests/corpus/real/README.md, the twenty-eighth's "After its rows"); no wrong exclusion then
    # or since
    assert d["twentyeighth_rows_only_category_accuracy"] >= 0.6951, d["twentyeighth_misses"]
    assert d["twentyeighth_category_accuracy"] >= 0.8658, d["twentyeighth_misses"]
    assert d["twentyeighth_action_accuracy"] >= 0.9268, d["twentyeighth_misses"]
    assert d["twentyeighth_wrong_exclude_node"] == [], d
    # the twenty-seventh collection: its first sight (also on the labels its collectors were
    # sure of), and later work may only move it up; its one wrong exclude_node at first sight
    # (51bf7c0fac2a: a corrected machine check, status without the UC bit, read as the CPU; an
    # unsure unknown label) may only go
    assert_first_sight(
        d,
        "twentyseventh",
        category=0.6543,
        action=0.7654,
        rows_only=0.5309,
        sure=0.871,
        sure_n=31,
        wrong={"51bf7c0fac2a"},
    )
    # ... and after its rows and the tables retrained on it (issue-27rows27, in sample:
    # tests/corpus/real/README.md, the twenty-seventh's "After its rows"); its wrong exclusion
    # (a corrected machine-check status) is gone
    assert d["twentyseventh_rows_only_category_accuracy"] >= 0.6049, d["twentyseventh_misses"]
    assert d["twentyseventh_category_accuracy"] >= 0.8272, d["twentyseventh_misses"]
    assert d["twentyseventh_action_accuracy"] >= 0.8272, d["twentyseventh_misses"]
    assert d["twentyseventh_wrong_exclude_node"] == [], d
    # the twenty-sixth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its three wrong exclude_node at first sight (all
    # unsure labels: Open MPI losing a daemon read as a lost host twice, a DCGM NVLink-down
    # table on A100s without NVLink) may only go
    assert_first_sight(
        d,
        "twentysixth",
        category=0.619,
        action=0.8571,
        rows_only=0.5476,
        sure=0.8684,
        sure_n=38,
        wrong={"20c94915ad92", "f65548ccecc2", "7ee63fa55be7"},
    )
    # ... and after its rows and the tables retrained on it (issue-27rows2526, in sample:
    # tests/corpus/real/README.md, the twenty-sixth's "After its rows"); its three wrong
    # exclusions, all on unsure labels, are left alone there (Open MPI's lost daemon: the tenth's
    # c983ac5d9327 labels the same line host_maintenance; the DCGM table's alternative is
    # faulty_gpu), so the assert stays
    assert d["twentysixth_rows_only_category_accuracy"] >= 0.5952, d["twentysixth_misses"]
    assert d["twentysixth_category_accuracy"] >= 0.7976, d["twentysixth_misses"]
    assert d["twentysixth_action_accuracy"] >= 0.881, d["twentysixth_misses"]
    # the twenty-fifth, scored once at first sight on the same code (its wrong exclude_node
    # then, b465b5e9236f: an NVMe PCIe error that recovered by itself, may only go)
    assert_first_sight(
        d,
        "twentyfifth",
        category=0.6988,
        action=0.7831,
        rows_only=0.6627,
        sure=0.8049,
        sure_n=41,
        wrong={"b465b5e9236f"},
    )
    # ... and after its rows and the tables retrained on it (issue-27rows2526, in sample:
    # tests/corpus/real/README.md, the twenty-fifth's "After its rows"): b465b5e9236f is gone
    # (nvme's "frozen state error detected" starts every PCIe recovery; the recovery succeeded)
    assert d["twentyfifth_wrong_exclude_node"] == [], d
    assert d["twentyfifth_rows_only_category_accuracy"] >= 0.759, d["twentyfifth_misses"]
    assert d["twentyfifth_category_accuracy"] >= 0.8795, d["twentyfifth_misses"]
    assert d["twentyfifth_action_accuracy"] >= 0.8675, d["twentyfifth_misses"]
    # the twenty-fourth collection, scored once at first sight (its wrong exclude_node then,
    # 24e8d131a69b: amdgpu failing at init on a board under a coreboot port, may only go)
    assert_first_sight(
        d,
        "twentyfourth",
        category=0.7439,
        action=0.9146,
        rows_only=0.7073,
        sure=0.878,
        sure_n=41,
        wrong={"24e8d131a69b"},
    )
    # ... and after its rows and the tables retrained on it (issue-27rows24, in sample:
    # tests/corpus/real/README.md, the twenty-fourth's "After its rows"); 24e8d131a69b (amdgpu
    # failing its ring test and IP init on a coreboot port, an unsure software_bug label whose
    # alternative, faulty_gpu, excludes the node) is left alone there, so the assert stays
    assert d["twentyfourth_rows_only_category_accuracy"] >= 0.7561, d["twentyfourth_misses"]
    assert d["twentyfourth_category_accuracy"] >= 0.878, d["twentyfourth_misses"]
    assert d["twentyfourth_action_accuracy"] >= 0.9146, d["twentyfourth_misses"]
    # the twenty-third collection, scored once at first sight (its wrong exclude_node then,
    # 0f507aa9668a: a burst of Xid 9 labelled software_bug, may only go)
    assert_first_sight(
        d,
        "twentythird",
        category=0.7683,
        action=0.8293,
        rows_only=0.6707,
        sure=0.7955,
        sure_n=44,
        wrong={"0f507aa9668a"},
    )
    # ... and after its rows and the tables retrained on it (issue-27rows23, in sample:
    # tests/corpus/real/README.md, the twenty-third's "After its rows"); 0f507aa9668a (a burst
    # of Xid 9, a sure software_bug label) is left alone there: NVIDIA's catalog as xids.py has
    # it files Xid 9 under CONTACT_SUPPORT and no other collection labels one, so the assert on
    # its wrong exclusion stays
    assert d["twentythird_rows_only_category_accuracy"] >= 0.7805, d["twentythird_misses"]
    assert d["twentythird_category_accuracy"] >= 0.8902, d["twentythird_misses"]
    assert d["twentythird_action_accuracy"] >= 0.9024, d["twentythird_misses"]
    # ... and after its rows and the tables retrained on it (issue-27rows22, in sample:
    # tests/corpus/real/README.md, the twenty-second's "After its rows"); ccf26e5bb282 (an Xid
    # 120 GSP exception, an unsure software_bug label) is left alone there: earlier collections'
    # sure labels read Xid 120 as the GSP, so the assert on its wrong exclusion stays
    assert d["twentysecond_rows_only_category_accuracy"] >= 0.7927, d["twentysecond_misses"]
    assert d["twentysecond_category_accuracy"] >= 0.939, d["twentysecond_misses"]
    assert d["twentysecond_action_accuracy"] >= 0.8902, d["twentysecond_misses"]
    # ... and after its rows and the tables retrained on it (issue-27rows21, in sample:
    # tests/corpus/real/README.md, the twenty-first's "After its rows"); 9278bb57cf00 (an amdgpu
    # reset whose KIQ ring test fails) and 4ffecfebd734 (repeated Xid 109) are left alone there:
    # earlier collections' sure labels read the same records as the GPU, so the assert stays
    assert d["twentyfirst_rows_only_category_accuracy"] >= 0.6786, d["twentyfirst_misses"]
    assert d["twentyfirst_category_accuracy"] >= 0.9048, d["twentyfirst_misses"]
    assert d["twentyfirst_action_accuracy"] >= 0.9405, d["twentyfirst_misses"]
    # ... and after its rows and the tables retrained on it (issue-27rows20, in sample:
    # tests/corpus/real/README.md, the twentieth's "After its rows"); cff5dc79d854, dcgmi
    # health's own table on an unsure label, is left alone there; 0.9167 until the tables were
    # retrained on sixty-four splits (2026-12-07), which took the guess for 32c72ac0101f (HCCL's
    # bare "Communication_Error_Get_Socket(EI0006)", no row) from dependency to unknown
    assert d["twentieth_rows_only_category_accuracy"] >= 0.6905, d["twentieth_misses"]
    assert d["twentieth_category_accuracy"] >= 0.9048, d["twentieth_misses"]
    assert d["twentieth_action_accuracy"] >= 0.869, d["twentieth_misses"]
    # ... and after its rows and the tables retrained on it (issue-27rows18, in sample:
    # tests/corpus/real/README.md, the eighteenth's "After its rows")
    assert d["eighteenth_rows_only_category_accuracy"] >= 0.6404, d["eighteenth_misses"]
    assert d["eighteenth_category_accuracy"] >= 0.9213, d["eighteenth_misses"]
    assert d["eighteenth_action_accuracy"] >= 0.8876, d["eighteenth_misses"]
    # failures told in words (issue-27words, in sample: tests/corpus/real/README.md, "Failures told
    # in words"): a part stated failed, a bad part named as the cause, a part changed with the
    # failure gone, Ray's dead node; no wrong exclude_node added anywhere (the lists above)
    assert d["twelfth_action_accuracy"] >= 0.9529, d["twelfth_misses"]
    # (0.8837 between the retrains on the thirty-sixth and the thirty-eighth: the reader at
    # temperature 2 read c4f11f5a57a2 as out of memory at p 0.88, under the page threshold)
    assert d["thirteenth_action_accuracy"] >= 0.8953, d["thirteenth_misses"]
    assert d["fourteenth_action_accuracy"] >= 0.8621, d["fourteenth_misses"]
    assert d["fifteenth_action_accuracy"] >= 0.9444, d["fifteenth_misses"]
    # 0.9663 until issue-27rows2526: the tables retrained on the twenty-fifth, whose 657613ac3f4f
    # (a crash dump's "BUG: unable to handle kernel NULL pointer dereference" under PANIC) is
    # labelled server_chassis, now guess the sixteenth's dac1390da9e5 (the same line as an oops,
    # software_bug) server_chassis at 0.3: labels that disagree, the same action (a guess restarts)
    assert d["sixteenth_category_accuracy"] >= 0.9551, d["sixteenth_misses"]
    assert d["sixteenth_action_accuracy"] >= 0.9213, d["sixteenth_misses"]
    assert d["seventeenth_action_accuracy"] >= 0.8652, d["seventeenth_misses"]
    # the fallback never changes a verdict a row gave: the held-out set, all matched, is as before
    assert d["heldout_category_accuracy"] == d["heldout_rows_only_category_accuracy"]
    assert r["ours"] > r["peer"]
    json.dumps(r)  # the JSON line benchmarks/run.py prints
