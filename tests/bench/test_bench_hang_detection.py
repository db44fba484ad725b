"""bench_hang_detection's measurement on a synthetic run directory (real EventWriter and
Ledger); no training is launched."""

from __future__ import annotations

import math
from pathlib import Path

from benchmarks import bench_hang_detection as bh
from benchmarks.run import REQUIRED
from nonstop.events import EventWriter, read_events
from nonstop.ledger import Ledger
from nonstop.rundir import create


def test_detection_is_fault_event_to_ledger_hang(tmp_path: Path) -> None:
    rd = create(tmp_path / "run")
    w = EventWriter(rd.events(0, 1), run_id="r", attempt=0, rank=1, host="h",
                    install_sigterm=False)  # fmt: skip
    w.emit("step", step=3, start=10.0, end=10.1)
    w.emit("failure", message="injected hang", injected=True, fault="hang", step=4)
    w.close()
    (fail,) = [e for e in read_events(rd.events(0, 1))[0] if e.kind == "failure"]
    with Ledger.open(rd.ledger) as led:
        led.add_detection(attempt=0, kind="straggler", detection_time_s=fail.time + 1.0)
        led.add_detection(attempt=0, kind="hang", detection_time_s=fail.time + 5.5, rank=1,
                          last_progress_time_s=fail.time)  # fmt: skip
        led.add_failure(attempt=0, time_s=fail.time, category="hang", action="restart",
                        evidence={"hang": {"timeout_s": 5.0, "basis": "steps"}})  # fmt: skip
    r = bh.detection(rd.root)
    assert r["ok"] and r["detected_rank"] == 1 and r["hang_rank"] == 1
    assert math.isclose(r["detection_s"], 5.5, abs_tol=1e-6)
    assert r["timeout_s"] == 5.0 and r["basis"] == "steps"
    assert bh.steps_after(rd.root, 0, fail.time) == 0
    assert bh.steps_after(rd.root, 0, 9.0) == 1


def test_no_hang_detection_is_not_a_figure(tmp_path: Path) -> None:
    rd = create(tmp_path / "run")
    w = EventWriter(rd.events(0, 1), run_id="r", attempt=0, rank=1, host="h",
                    install_sigterm=False)  # fmt: skip
    w.emit("failure", message="injected hang", injected=True)
    w.close()
    Ledger.open(rd.ledger).close()
    assert not bh.detection(rd.root)["ok"]


def test_undetected_peer_reports_the_budget_as_a_lower_bound() -> None:
    peer = {"ok": True, "detected": False, "watched_s": 20.1, "launcher_alive": True,
            "worker_states": ["S", "T"], "stopped_workers": 1, "steps_after_hang": 0}  # fmt: skip
    out = bh.summarize({"ok": True, "detection_s": 5.0}, peer, 20.0)
    assert not [k for k in REQUIRED if k not in out]
    assert out["peer"] == 20.0 and out["ratio"] == 0.25
    assert out["peer_detected"] is False and out["ratio_is_lower_bound"] is True
    assert "1 stopped" in out["peer_state_at_budget"]


def test_detected_peer_reports_its_time() -> None:
    out = bh.summarize({"ok": True, "detection_s": 5.0}, {"ok": True, "detected": True,
                       "detection_s": 10.0}, 60.0)  # fmt: skip
    assert out["peer"] == 10.0 and out["ratio"] == 0.5 and not out["ratio_is_lower_bound"]
