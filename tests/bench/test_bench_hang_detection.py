"""bench_hang_detection's measurement on synthetic run directories (real EventWriter and Ledger),
and the quick benchmark end to end (real nonstop run and torchrun, gloo)."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest

from benchmarks import bench_hang_detection as bh
from benchmarks.run import REQUIRED
from nonstop.events import EventWriter, read_events
from nonstop.ledger import Ledger
from nonstop.rundir import create


def _fault_event(root: Path) -> float:
    rd = create(root)
    w = EventWriter(rd.events(0, 1), run_id="r", attempt=0, rank=1, host="h", install_sigterm=False)
    w.emit("lifecycle", phase="attempt_start", pid=4321)
    w.emit("step", step=3, start=10.0, end=10.1)
    w.emit("failure", message="injected hang", injected=True, fault="hang", step=4)
    w.close()
    (fail,) = [e for e in read_events(rd.events(0, 1))[0] if e.kind == "failure"]
    return fail.time


def test_detection_is_fault_event_to_first_ledger_hang(tmp_path: Path) -> None:
    t = _fault_event(tmp_path / "run")
    with Ledger.open(tmp_path / "run" / "ledger.db") as led:
        led.add_detection(attempt=0, kind="straggler", detection_time_s=t + 1.0)
        led.add_detection(
            attempt=0, kind="hang", detection_time_s=t + 5.5, rank=1, last_progress_time_s=t
        )
        led.add_failure(
            attempt=0,
            time_s=t,
            category="hang",
            action="restart",
            evidence={"hang": {"timeout_s": 5.0, "basis": "steps"}},
        )
    r = bh.detection(tmp_path / "run")
    assert r["ok"] and r["detected_rank"] == 1
    assert math.isclose(r["detection_s"], 5.5, abs_tol=1e-6)
    assert r["timeout_s"] == 5.0 and r["basis"] == "steps"
    assert bh.steps_after(tmp_path / "run", 0, t) == 0
    assert bh.steps_after(tmp_path / "run", 0, 9.0) == 1
    assert bh.rank_pids(tmp_path / "run") == {1: 4321}


def test_no_hang_detection_is_not_a_figure(tmp_path: Path) -> None:
    _fault_event(tmp_path / "run")
    Ledger.open(tmp_path / "run" / "ledger.db").close()
    assert not bh.detection(tmp_path / "run")["ok"]
    assert bh.hang_detections(tmp_path / "run") == ([], {})


def test_the_scripts_own_hang_is_timed_from_its_marker(tmp_path: Path) -> None:
    create(tmp_path / "run")
    assert bh.hang_time(tmp_path / "run") is None
    (tmp_path / "run" / "hang.json").write_text(json.dumps({"time": 123.5, "kind": "loader"}))
    assert bh.hang_time(tmp_path / "run") == 123.5


def test_every_kind_hangs_rank_1_the_same_way_on_both_sides(tmp_path: Path) -> None:
    for kind in bh.KINDS + bh.PAUSES:
        ours = bh.side_env(tmp_path, kind, peer=False)
        peer = bh.side_env(tmp_path, kind, peer=True)
        for key, value in bh.fault_env(kind).items():
            assert ours[key] == peer[key] == value
        assert "BENCH_PG_TIMEOUT_S" not in ours and "TORCHELASTIC_ENABLE_FILE_TIMER" not in ours
        assert peer["BENCH_PG_TIMEOUT_S"] == peer["BENCH_TIMER_S"] == "5"  # STEP_FLOOR_S
        assert peer["TORCHELASTIC_ENABLE_FILE_TIMER"] == "1"
    with pytest.raises(ValueError, match="kind"):
        bh.fault_env("nope")


def test_summary_counts_false_hangs_of_each_side() -> None:
    rows = {
        "collective": {
            "ours": [{"ok": True, "detection_s": 5.5, "basis": "steps"}],
            "peer": [{"ok": True, "detected": True, "detection_s": 5.1, "first_gone": "ranks [1]"}],
        }
    }
    fp = {
        "eval": {"ours": {"false_hangs": 0}, "peer": {"false_hangs": 1}},
        "save": {"ours": {"false_hangs": 1}, "peer": {"false_hangs": 1}},
    }
    out = bh.combine(rows, fp, ("collective",), load=[1.0, 1.0])
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 5.5 and out["peer"] == 5.1 and out["reps"] == 1
    assert math.isclose(out["ratio"], 5.5 / 5.1)
    assert out["false_hangs"] == 1 and out["peer_false_hangs"] == 2
    assert "spread" in out and out["per_kind"]["collective"]["ratio"] == out["ratio"]


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_quick_benchmark_measures_both_sides() -> None:
    t0 = time.monotonic()
    out = bh.run(quick=True)
    took = time.monotonic() - t0
    assert not [k for k in REQUIRED if k not in out]
    (kind,) = out["kinds"]
    run = out["runs"][kind]
    assert run["ours"][0]["ok"], run["ours"][0]
    assert run["peer"][0]["ok"] and run["peer"][0]["detected"], run["peer"][0]
    assert out["peer_orphans"] >= 0 and "load" in out
    print(f"quick hang-detection took {took:.0f} s")
