"""bench_event_writer at a tiny size: the real EventWriter against the naive logger, checking
what was written and the result contract, never the timings."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import bench_event_writer as be
from benchmarks.run import REQUIRED
from nonstop.events import KINDS


def test_payload_is_a_valid_step_event() -> None:
    p = be.payload(3)
    assert all(k in p for k in KINDS["step"]) and p["step"] == 3


def test_ours_writes_every_record_and_drops_none(tmp_path: Path) -> None:
    r = be.ours_us(tmp_path, 2500)  # three bursts, the last one partial
    assert r["written"] == 2500 and r["dropped"] == 0 and r["write_errors"] == 0
    assert r["us"] > 0
    assert not list(tmp_path.iterdir())  # cleans up after itself


def test_peer_writes_the_same_records(tmp_path: Path) -> None:
    assert be.peer_us(tmp_path, 10) > 0
    t = be.writer_throughput(tmp_path, 100)
    assert t["written"] == t["records"] == 100 and t["dropped"] == 0


def test_summary_follows_the_harness_contract() -> None:
    ours = [{"us": 2.0, "written": 5, "dropped": 0, "write_errors": 0},
            {"us": 4.0, "written": 5, "dropped": 1, "write_errors": 0}]  # fmt: skip
    thr = {"records_per_s": 1e5, "records": 5, "written": 5, "dropped": 0}
    out = be.summarize(ours, [6.0, 6.0], thr, 5)
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 3.0 and out["ratio"] == 0.5 and out["dropped"] == 1
    assert out["all_written"] is True
    json.dumps(out)  # what --json prints
