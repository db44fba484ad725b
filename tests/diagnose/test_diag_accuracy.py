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


@pytest.mark.timeout(600)  # every split twice (with and without the fallback): 155 s in a CI
# run on 2 cores (2026-12-04), beside the rest of the suite; it grows with each collection
def test_heldout_accuracy_meets_the_targets() -> None:
    r = bench.run(quick=True)
    d = r["detail"]
    assert d["heldout_excerpts"] >= 90
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
    assert d["tenth_first_category"] == bench.TENTH_FIRST["category"] == 0.7586
    assert d["tenth_first_action"] == bench.TENTH_FIRST["action"] == 0.9195
    assert d["tenth_first_sure_category"] == 0.9123 and d["tenth_sure_excerpts"] == 57
    assert d["tenth_excerpts"] >= 80
    assert d["tenth_category_accuracy"] >= bench.TENTH_FIRST["category"], d["tenth_misses"]
    assert d["tenth_action_accuracy"] >= bench.TENTH_FIRST["action"], d["tenth_misses"]
    assert d["tenth_sure_category_accuracy"] >= bench.TENTH_FIRST_SURE["category"]
    assert set(d["tenth_wrong_exclude_node"]) <= {"65b84b3a2a62"}, d
    # ... and after its rows (not out of sample any more): the rows alone and with the fallback.
    # The six misses left are labels the collector doubted or classes with one public wording
    # (tests/corpus/real/README.md, the tenth's "After its rows")
    assert d["tenth_rows_only_category_accuracy"] >= 0.8736, d["tenth_misses"]
    assert d["tenth_category_accuracy"] >= 0.931, d["tenth_misses"]
    assert d["tenth_category_accuracy"] >= d["tenth_rows_only_category_accuracy"]
    assert d["tenth_action_accuracy"] >= 0.9885, d["tenth_misses"]
    # the eleventh collection: its first sight, recorded once (also on the labels its collector
    # was sure of), and later work may only move it up; its one wrong exclude_node was a
    # script's "GPU circuit breaker OPEN" read as a supply (0cf59f2a871d)
    assert d["eleventh_first_category"] == bench.ELEVENTH_FIRST["category"] == 0.6897
    assert d["eleventh_first_action"] == bench.ELEVENTH_FIRST["action"] == 0.8966
    assert d["eleventh_first_sure_category"] == 0.7231 and d["eleventh_sure_excerpts"] == 65
    assert d["eleventh_excerpts"] >= 80
    assert d["eleventh_category_accuracy"] >= bench.ELEVENTH_FIRST["category"], d
    assert d["eleventh_action_accuracy"] >= bench.ELEVENTH_FIRST["action"], d
    assert d["eleventh_sure_category_accuracy"] >= bench.ELEVENTH_FIRST_SURE["category"]
    assert set(d["eleventh_wrong_exclude_node"]) <= {"0cf59f2a871d"}, d
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
    assert d["twelfth_first_category"] == bench.TWELFTH_FIRST["category"] == 0.7529
    assert d["twelfth_first_action"] == bench.TWELFTH_FIRST["action"] == 0.8941
    assert d["twelfth_first_sure_category"] == 0.8413 and d["twelfth_sure_excerpts"] == 63
    assert d["twelfth_excerpts"] >= 80
    assert d["twelfth_category_accuracy"] >= bench.TWELFTH_FIRST["category"], d
    assert d["twelfth_action_accuracy"] >= bench.TWELFTH_FIRST["action"], d
    assert d["twelfth_sure_category_accuracy"] >= bench.TWELFTH_FIRST_SURE["category"]
    assert not d["twelfth_wrong_exclude_node"], d
    # ... and after its rows (not out of sample any more): the rows alone and with the fallback;
    # the misses left are reporters' sentences without a log line, labels the rules dispute and
    # classes with one public wording (tests/corpus/real/README.md, the twelfth's "After its rows")
    assert d["twelfth_rows_only_category_accuracy"] >= 0.7765, d["twelfth_misses"]
    assert d["twelfth_category_accuracy"] >= 0.8941, d["twelfth_misses"]
    assert d["twelfth_action_accuracy"] >= 0.9412, d["twelfth_misses"]
    # the thirteenth collection: its first sight (also on the labels its collector was sure of);
    # later work may only move it up; no wrong exclude_node at first sight, and none may appear
    assert d["thirteenth_first_rows_only_category"] == 0.5581
    assert d["thirteenth_first_sure_category"] == 0.775 and d["thirteenth_sure_excerpts"] == 40
    assert d["thirteenth_excerpts"] >= 80
    assert d["thirteenth_category_accuracy"] >= bench.THIRTEENTH_FIRST["category"], d
    assert d["thirteenth_action_accuracy"] >= bench.THIRTEENTH_FIRST["action"], d
    assert d["thirteenth_sure_category_accuracy"] >= bench.THIRTEENTH_FIRST_SURE["category"]
    assert not d["thirteenth_wrong_exclude_node"], d
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
    assert d["fourteenth_first_category"] == bench.FOURTEENTH_FIRST["category"] == 0.5172
    assert d["fourteenth_first_action"] == bench.FOURTEENTH_FIRST["action"] == 0.7701
    assert d["fourteenth_first_rows_only_category"] == 0.4253
    assert d["fourteenth_first_sure_category"] == 0.641 and d["fourteenth_sure_excerpts"] == 39
    assert d["fourteenth_excerpts"] >= 80
    assert d["fourteenth_category_accuracy"] >= bench.FOURTEENTH_FIRST["category"], d
    assert d["fourteenth_action_accuracy"] >= bench.FOURTEENTH_FIRST["action"], d
    assert d["fourteenth_sure_category_accuracy"] >= bench.FOURTEENTH_FIRST_SURE["category"]
    assert set(d["fourteenth_wrong_exclude_node"]) <= {"8cf26aab0871"}, d
    # ... and after its rows and the fallback's retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the fourteenth's "After its rows")
    assert d["fourteenth_rows_only_category_accuracy"] >= 0.5057, d["fourteenth_misses"]
    assert d["fourteenth_category_accuracy"] >= 0.8276, d["fourteenth_misses"]
    assert d["fourteenth_action_accuracy"] >= 0.8046, d["fourteenth_misses"]
    # the fifteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; two wrong exclude_node at first sight (both
    # unsure labels), and no other may appear
    assert d["fifteenth_first_category"] == bench.FIFTEENTH_FIRST["category"] == 0.6667
    assert d["fifteenth_first_action"] == bench.FIFTEENTH_FIRST["action"] == 0.9
    assert d["fifteenth_first_rows_only_category"] == 0.5667
    assert d["fifteenth_first_sure_category"] == 0.7414 and d["fifteenth_sure_excerpts"] == 58
    assert d["fifteenth_excerpts"] >= 80
    assert d["fifteenth_category_accuracy"] >= bench.FIFTEENTH_FIRST["category"], d
    assert d["fifteenth_action_accuracy"] >= bench.FIFTEENTH_FIRST["action"], d
    assert d["fifteenth_sure_category_accuracy"] >= bench.FIFTEENTH_FIRST_SURE["category"]
    assert set(d["fifteenth_wrong_exclude_node"]) <= {"3e61fff77b1c", "58ea47a76cd1"}, d
    # ... and after its rows and the retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the fifteenth's "After its rows")
    assert d["fifteenth_rows_only_category_accuracy"] >= 0.7556, d["fifteenth_misses"]
    assert d["fifteenth_category_accuracy"] >= 0.9, d["fifteenth_misses"]
    assert d["fifteenth_action_accuracy"] >= 0.9111, d["fifteenth_misses"]
    # the sixteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; one wrong exclude_node at first sight (a
    # driver that does not support the GPU read as the GPU), and no other may appear
    assert d["sixteenth_first_category"] == bench.SIXTEENTH_FIRST["category"] == 0.5843
    assert d["sixteenth_first_action"] == bench.SIXTEENTH_FIRST["action"] == 0.7753
    assert d["sixteenth_first_rows_only_category"] == 0.5169
    assert d["sixteenth_first_sure_category"] == 0.6833 and d["sixteenth_sure_excerpts"] == 60
    assert d["sixteenth_excerpts"] >= 80
    assert d["sixteenth_category_accuracy"] >= bench.SIXTEENTH_FIRST["category"], d
    assert d["sixteenth_action_accuracy"] >= bench.SIXTEENTH_FIRST["action"], d
    assert d["sixteenth_sure_category_accuracy"] >= bench.SIXTEENTH_FIRST_SURE["category"]
    assert set(d["sixteenth_wrong_exclude_node"]) <= {"df0fc79b12a1"}, d
    # ... and after its rows and the retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the sixteenth's "After its rows")
    assert d["sixteenth_rows_only_category_accuracy"] >= 0.6854, d["sixteenth_misses"]
    assert d["sixteenth_category_accuracy"] >= 0.9438, d["sixteenth_misses"]
    # (86.5% since an operator's stated conclusion is read as advice, issue-27advice)
    assert d["sixteenth_action_accuracy"] >= 0.8652, d["sixteenth_misses"]
    # the seventeenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert d["seventeenth_first_category"] == bench.SEVENTEENTH_FIRST["category"] == 0.5843
    assert d["seventeenth_first_action"] == bench.SEVENTEENTH_FIRST["action"] == 0.7865
    assert d["seventeenth_first_rows_only_category"] == 0.4382
    assert d["seventeenth_first_sure_category"] == 0.5714 and d["seventeenth_sure_excerpts"] == 49
    assert d["seventeenth_excerpts"] >= 80
    assert d["seventeenth_category_accuracy"] >= bench.SEVENTEENTH_FIRST["category"], d
    assert d["seventeenth_action_accuracy"] >= bench.SEVENTEENTH_FIRST["action"], d
    assert d["seventeenth_sure_category_accuracy"] >= bench.SEVENTEENTH_FIRST_SURE["category"]
    assert d["seventeenth_wrong_exclude_node"] == [], d
    # ... and after its rows and the retraining on it (not out of sample any more,
    # tests/corpus/real/README.md, the seventeenth's "After its rows")
    assert d["seventeenth_rows_only_category_accuracy"] >= 0.6067, d["seventeenth_misses"]
    assert d["seventeenth_category_accuracy"] >= 0.9326, d["seventeenth_misses"]
    assert d["seventeenth_action_accuracy"] >= 0.8427, d["seventeenth_misses"]
    # the eighteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert d["eighteenth_first_category"] == bench.EIGHTEENTH_FIRST["category"] == 0.6854
    assert d["eighteenth_first_action"] == bench.EIGHTEENTH_FIRST["action"] == 0.8427
    assert d["eighteenth_first_rows_only_category"] == 0.5393
    assert d["eighteenth_first_sure_category"] == 0.8113 and d["eighteenth_sure_excerpts"] == 53
    assert d["eighteenth_excerpts"] >= 80
    assert d["eighteenth_category_accuracy"] >= bench.EIGHTEENTH_FIRST["category"], d
    assert d["eighteenth_action_accuracy"] >= bench.EIGHTEENTH_FIRST["action"], d
    assert d["eighteenth_sure_category_accuracy"] >= bench.EIGHTEENTH_FIRST_SURE["category"]
    assert d["eighteenth_wrong_exclude_node"] == [], d
    # the nineteenth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; no wrong exclude_node at first sight, and none
    # may appear
    assert d["nineteenth_first_category"] == bench.NINETEENTH_FIRST["category"] == 0.5882
    assert d["nineteenth_first_action"] == bench.NINETEENTH_FIRST["action"] == 0.7765
    assert d["nineteenth_first_rows_only_category"] == 0.5059
    assert d["nineteenth_first_sure_category"] == 0.66 and d["nineteenth_sure_excerpts"] == 50
    assert d["nineteenth_excerpts"] >= 80
    assert d["nineteenth_category_accuracy"] >= bench.NINETEENTH_FIRST["category"], d
    assert d["nineteenth_action_accuracy"] >= bench.NINETEENTH_FIRST["action"], d
    assert d["nineteenth_sure_category_accuracy"] >= bench.NINETEENTH_FIRST_SURE["category"]
    assert d["nineteenth_wrong_exclude_node"] == [], d
    # ... and after its rows and the tables retrained on it (issue-27rows19, in sample:
    # tests/corpus/real/README.md, the nineteenth's "After its rows")
    assert d["nineteenth_rows_only_category_accuracy"] >= 0.6353, d["nineteenth_misses"]
    assert d["nineteenth_category_accuracy"] >= 0.8824, d["nineteenth_misses"]
    assert d["nineteenth_action_accuracy"] >= 0.8118, d["nineteenth_misses"]
    # the twentieth collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its one wrong exclude_node at first sight
    # (cff5dc79d854, an unsure label) may only go
    assert d["twentieth_first_category"] == bench.TWENTIETH_FIRST["category"] == 0.619
    assert d["twentieth_first_action"] == bench.TWENTIETH_FIRST["action"] == 0.8333
    assert d["twentieth_first_rows_only_category"] == 0.5238
    assert d["twentieth_first_sure_category"] == 0.7674 and d["twentieth_sure_excerpts"] == 43
    assert d["twentieth_excerpts"] >= 80
    assert d["twentieth_category_accuracy"] >= bench.TWENTIETH_FIRST["category"], d
    assert d["twentieth_action_accuracy"] >= bench.TWENTIETH_FIRST["action"], d
    assert d["twentieth_sure_category_accuracy"] >= bench.TWENTIETH_FIRST_SURE["category"]
    assert set(d["twentieth_wrong_exclude_node"]) <= {"cff5dc79d854"}, d
    # the twenty-first collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its two wrong exclude_node at first sight
    # (driver bugs read as a faulty GPU, unsure labels) may only go
    assert d["twentyfirst_first_category"] == bench.TWENTYFIRST_FIRST["category"] == 0.6548
    assert d["twentyfirst_first_action"] == bench.TWENTYFIRST_FIRST["action"] == 0.9048
    assert d["twentyfirst_first_rows_only_category"] == 0.5357
    assert d["twentyfirst_first_sure_category"] == 0.7609 and d["twentyfirst_sure_excerpts"] == 46
    assert d["twentyfirst_excerpts"] >= 80
    assert d["twentyfirst_category_accuracy"] >= bench.TWENTYFIRST_FIRST["category"], d
    assert d["twentyfirst_action_accuracy"] >= bench.TWENTYFIRST_FIRST["action"], d
    assert d["twentyfirst_sure_category_accuracy"] >= bench.TWENTYFIRST_FIRST_SURE["category"]
    assert set(d["twentyfirst_wrong_exclude_node"]) <= {"9278bb57cf00", "4ffecfebd734"}, d
    # the twenty-second collection: its first sight (also on the labels its collector was sure
    # of), and later work may only move it up; its one wrong exclude_node at first sight
    # (ccf26e5bb282: Xid 120 that follows the X server across cards, an unsure software_bug
    # label) may only go
    assert d["twentysecond_first_category"] == bench.TWENTYSECOND_FIRST["category"] == 0.7195
    assert d["twentysecond_first_action"] == bench.TWENTYSECOND_FIRST["action"] == 0.8537
    assert d["twentysecond_first_rows_only_category"] == 0.6463
    assert d["twentysecond_first_sure_category"] == 0.8261 and d["twentysecond_sure_excerpts"] == 46
    assert d["twentysecond_excerpts"] >= 80
    assert d["twentysecond_category_accuracy"] >= bench.TWENTYSECOND_FIRST["category"], d
    assert d["twentysecond_action_accuracy"] >= bench.TWENTYSECOND_FIRST["action"], d
    assert d["twentysecond_sure_category_accuracy"] >= bench.TWENTYSECOND_FIRST_SURE["category"]
    assert set(d["twentysecond_wrong_exclude_node"]) <= {"ccf26e5bb282"}, d
    # the twenty-sixth collection: its first sight is the recorded out-of-sample figure (also
    # on the labels its collector was sure of), and later work may only move it up; its three
    # wrong exclude_node at first sight (all unsure labels: Open MPI losing a daemon read as a
    # lost host twice, a DCGM NVLink-down table on A100s without NVLink) may only go
    assert d["first_sight_category"] == bench.TWENTYSIXTH_FIRST["category"] == 0.619
    assert d["first_sight_action"] == bench.TWENTYSIXTH_FIRST["action"] == 0.8571
    assert d["twentysixth_first_rows_only_category"] == 0.5476
    assert d["twentysixth_first_sure_category"] == 0.8684 and d["twentysixth_sure_excerpts"] == 38
    assert d["twentysixth_excerpts"] >= 80
    assert d["twentysixth_category_accuracy"] >= bench.TWENTYSIXTH_FIRST["category"], d
    assert d["twentysixth_action_accuracy"] >= bench.TWENTYSIXTH_FIRST["action"], d
    assert d["twentysixth_sure_category_accuracy"] >= bench.TWENTYSIXTH_FIRST_SURE["category"]
    assert set(d["twentysixth_wrong_exclude_node"]) <= {
        "20c94915ad92",
        "f65548ccecc2",
        "7ee63fa55be7",
    }, d
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
    assert d["twentyfifth_first_category"] == bench.TWENTYFIFTH_FIRST["category"] == 0.6988
    assert d["twentyfifth_first_action"] == bench.TWENTYFIFTH_FIRST["action"] == 0.7831
    assert d["twentyfifth_first_rows_only_category"] == 0.6627
    assert d["twentyfifth_first_sure_category"] == 0.8049 and d["twentyfifth_sure_excerpts"] == 41
    assert d["twentyfifth_excerpts"] >= 80
    assert d["twentyfifth_category_accuracy"] >= bench.TWENTYFIFTH_FIRST["category"], d
    assert d["twentyfifth_action_accuracy"] >= bench.TWENTYFIFTH_FIRST["action"], d
    assert d["twentyfifth_sure_category_accuracy"] >= bench.TWENTYFIFTH_FIRST_SURE["category"]
    assert set(d["twentyfifth_wrong_exclude_node"]) <= {"b465b5e9236f"}, d
    # ... and after its rows and the tables retrained on it (issue-27rows2526, in sample:
    # tests/corpus/real/README.md, the twenty-fifth's "After its rows"): b465b5e9236f is gone
    # (nvme's "frozen state error detected" starts every PCIe recovery; the recovery succeeded)
    assert d["twentyfifth_wrong_exclude_node"] == [], d
    assert d["twentyfifth_rows_only_category_accuracy"] >= 0.759, d["twentyfifth_misses"]
    assert d["twentyfifth_category_accuracy"] >= 0.8795, d["twentyfifth_misses"]
    assert d["twentyfifth_action_accuracy"] >= 0.8675, d["twentyfifth_misses"]
    # the twenty-fourth collection, scored once at first sight (its wrong exclude_node then,
    # 24e8d131a69b: amdgpu failing at init on a board under a coreboot port, may only go)
    assert d["twentyfourth_first_category"] == bench.TWENTYFOURTH_FIRST["category"] == 0.7439
    assert d["twentyfourth_first_action"] == bench.TWENTYFOURTH_FIRST["action"] == 0.9146
    assert d["twentyfourth_first_rows_only_category"] == 0.7073
    assert d["twentyfourth_first_sure_category"] == 0.878 and d["twentyfourth_sure_excerpts"] == 41
    assert d["twentyfourth_excerpts"] >= 80
    assert d["twentyfourth_category_accuracy"] >= bench.TWENTYFOURTH_FIRST["category"], d
    assert d["twentyfourth_action_accuracy"] >= bench.TWENTYFOURTH_FIRST["action"], d
    assert d["twentyfourth_sure_category_accuracy"] >= bench.TWENTYFOURTH_FIRST_SURE["category"]
    assert set(d["twentyfourth_wrong_exclude_node"]) <= {"24e8d131a69b"}, d
    # ... and after its rows and the tables retrained on it (issue-27rows24, in sample:
    # tests/corpus/real/README.md, the twenty-fourth's "After its rows"); 24e8d131a69b (amdgpu
    # failing its ring test and IP init on a coreboot port, an unsure software_bug label whose
    # alternative, faulty_gpu, excludes the node) is left alone there, so the assert stays
    assert d["twentyfourth_rows_only_category_accuracy"] >= 0.7561, d["twentyfourth_misses"]
    assert d["twentyfourth_category_accuracy"] >= 0.878, d["twentyfourth_misses"]
    assert d["twentyfourth_action_accuracy"] >= 0.9146, d["twentyfourth_misses"]
    # the twenty-third collection, scored once at first sight (its wrong exclude_node then,
    # 0f507aa9668a: a burst of Xid 9 labelled software_bug, may only go)
    assert d["twentythird_first_category"] == bench.TWENTYTHIRD_FIRST["category"] == 0.7683
    assert d["twentythird_first_action"] == bench.TWENTYTHIRD_FIRST["action"] == 0.8293
    assert d["twentythird_first_rows_only_category"] == 0.6707
    assert d["twentythird_first_sure_category"] == 0.7955 and d["twentythird_sure_excerpts"] == 44
    assert d["twentythird_excerpts"] >= 80
    assert d["twentythird_category_accuracy"] >= bench.TWENTYTHIRD_FIRST["category"], d
    assert d["twentythird_action_accuracy"] >= bench.TWENTYTHIRD_FIRST["action"], d
    assert d["twentythird_sure_category_accuracy"] >= bench.TWENTYTHIRD_FIRST_SURE["category"]
    assert set(d["twentythird_wrong_exclude_node"]) <= {"0f507aa9668a"}, d
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
    # health's own table on an unsure label, is left alone there
    assert d["twentieth_rows_only_category_accuracy"] >= 0.6905, d["twentieth_misses"]
    assert d["twentieth_category_accuracy"] >= 0.9167, d["twentieth_misses"]
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
