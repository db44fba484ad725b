"""bench_event_writer at a tiny size: the real EventWriter against the real stdlib QueueHandler
and QueueListener, checking what was written and the result contract, never the timings."""

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
    r = be.ours(tmp_path, 2500)  # three bursts, the last one partial
    assert r["written"] == 2500 and r["dropped"] == 0 and r["write_errors"] == 0
    assert r["cpu_us"] > 0 and r["caller_us"] > 0
    assert not list(tmp_path.iterdir())  # cleans up after itself


def test_peer_writes_the_same_json_lines(tmp_path: Path) -> None:
    r = be.peer(tmp_path, 1500)
    assert r["written"] == 1500 and r["cpu_us"] > 0
    assert not list(tmp_path.iterdir())
    # The line itself has the envelope of ours.
    line = be._JsonLine().format(_record())
    rec = json.loads(line)
    assert rec["kind"] == "step" and rec["payload"] == be.payload(1) and rec["schema_version"] == 1


def _record():  # type: ignore[no-untyped-def]
    import logging

    r = logging.LogRecord("x", logging.INFO, __file__, 1, "step", None, None)
    r.payload, r.mono = be.payload(1), 1.0
    return r


def test_writer_throughput_writes_everything(tmp_path: Path) -> None:
    t = be.writer_throughput(tmp_path, 100)
    assert t["written"] == t["records"] == 100 and t["dropped"] == 0


def test_summary_follows_the_harness_contract() -> None:
    o = [
        {"cpu_us": 2.0, "caller_us": 1.0, "written": 5, "dropped": 0, "write_errors": 0},
        {"cpu_us": 4.0, "caller_us": 1.0, "written": 5, "dropped": 1, "write_errors": 0},
    ]
    p = [{"cpu_us": 6.0, "caller_us": 2.0, "written": 5}] * 2
    thr = {"records_per_s": 1e5, "records": 5, "written": 5, "dropped": 0}
    out = be.summarize(o, p, thr, 5)
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 3.0 and out["ratio"] == 0.5 and out["dropped"] == 1
    assert out["reps"] == 2 and out["spread"]["ours"] == [2.0, 4.0]
    assert out["all_written"] is True and out["caller_us"]["ratio"] == 0.5
    json.dumps(out)  # what --json prints
