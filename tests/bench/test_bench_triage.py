"""bench_triage's inputs and its three tools at a tiny size: every tool finds the same failure
lines in the same files (the peers search the needles ours does); never the timings."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from benchmarks import bench_triage as bt
from nonstop.diagnose import triage

needs_rg = pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep (rg) is not installed")


def test_every_pattern_compiles_in_python() -> None:
    for p in bt.patterns():
        re.compile(p)


@needs_rg
def test_rank_logs_one_failure_found_by_all_three(tmp_path: Path) -> None:
    paths = bt.make_rank_logs(tmp_path / "logs", 9, kb=4)
    assert len(paths) == 9
    hit = [p for p in paths if triage.scan(p).hits]
    assert [p.name for p in hit] == ["rank-3.log"]
    m = bt.measure(paths, tmp_path, 1)
    assert m["files"] == 9 and m["rg_matching_lines"] >= 1
    assert m["rg_matching_lines"] == m["grep_matching_lines"]
    assert set(m["mb_per_s_wall"]) == set(bt.TOOLS) and len(m["samples_wall"]["ours"]) == 1


@needs_rg
def test_big_log_peers_count_the_same_lines(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    assert bt.make_log(log, 1) >= 1 << 20
    m = bt.measure([log], tmp_path, 1)
    assert m["rg_matching_lines"] == m["grep_matching_lines"] > 0
    assert triage.scan(log).counts  # ours classifies the same failure lines
