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


def test_ledger_hangs_and_the_fault_record_are_read_from_the_run_directory(tmp_path: Path) -> None:
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
    dets, hang = bh.hang_detections(tmp_path / "run")
    assert [(round(d - t, 6), r) for d, r, _ in dets] == [(5.5, 1)]
    assert hang == {"timeout_s": 5.0, "basis": "steps"}
    assert bh.hang_time(tmp_path / "run") == t
    assert bh.steps_after(tmp_path / "run", 0, t) == 0
    assert bh.steps_after(tmp_path / "run", 0, 9.0) == 1
    assert bh.rank_pids(tmp_path / "run") == {1: 4321}


def test_no_ledger_is_no_hang_detection(tmp_path: Path) -> None:
    _fault_event(tmp_path / "run")
    assert bh.hang_detections(tmp_path / "run") == ([], {})
    Ledger.open(tmp_path / "run" / "ledger.db").close()
    assert bh.hang_detections(tmp_path / "run") == ([], {})


def test_the_scripts_own_hang_is_timed_from_its_marker(tmp_path: Path) -> None:
    create(tmp_path / "run")
    assert bh.hang_time(tmp_path / "run") is None
    (tmp_path / "run" / "hang.json").write_text(json.dumps({"time": 123.5, "kind": "loader"}))
    assert bh.hang_time(tmp_path / "run") == 123.5


def test_every_kind_hangs_rank_1_the_same_way_in_every_arm(tmp_path: Path) -> None:
    for kind in bh.KINDS + bh.PAUSES:
        envs = {a: bh.arm_env(a, tmp_path, kind) for a in bh.ARMS}
        for key, value in bh.fault_env(kind).items():
            assert {e[key] for e in envs.values()} == {value}
        assert "BENCH_PG_TIMEOUT_S" not in envs["ours"] and "BENCH_FT" not in envs["ours"]
        assert envs["ft"]["BENCH_FT"] == "sections" and "BENCH_TIMER_S" not in envs["ft"]
        tr = envs["torchrun"]
        assert tr["BENCH_PG_TIMEOUT_S"] == tr["BENCH_TIMER_S"] == "5"  # STEP_FLOOR_S
        assert tr["TORCHELASTIC_ENABLE_FILE_TIMER"] == "1"
    assert bh.arm_env("ft", tmp_path, "eval", told=False)["BENCH_SECTIONS"] == "0"
    with pytest.raises(ValueError, match="kind"):
        bh.fault_env("nope")


def test_ft_gets_the_same_thresholds_as_ours(tmp_path: Path) -> None:
    cmd = bh.arm_command("ft", tmp_path, setup_s=42.0)
    assert cmd[0].endswith("ft_launcher") and cmd[-len(bh.train_args()) :] == bh.train_args()
    sections = dict(
        x.split(":") for x in cmd[cmd.index("--ft-rank-section-timeouts") + 1].split(",")
    )
    assert sections["setup"] == "42" and sections["step"] == "5"
    assert float(sections["checkpointing"]) == float(sections["eval"]) == bh.SECTION_TIMEOUT_S
    assert cmd[cmd.index("--ft-rank-out-of-section-timeout") + 1] == "5"
    assert cmd[cmd.index("--max-restarts") + 1] == "0"


def test_the_startup_timeout_is_learned_from_earlier_runs_beside(tmp_path: Path) -> None:
    from nonstop.supervisor.watchdog import Learned, learned_path

    assert bh.startup_timeout(tmp_path) == 300.0  # nothing run yet: the configured default
    run = tmp_path / "ours-calibrate"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"command": bh.train_args()}))
    Learned(startup_s=10.0).save(learned_path(run))
    assert bh.startup_timeout(tmp_path) == 30.0  # 3 x 10 s


def _det(s: float, first: str = "ranks [1]") -> dict:
    return {
        "ok": True,
        "detected": True,
        "detection_s": s,
        "stopped_s": s + 0.1,
        "first_gone": first,
    }


def test_summary_has_ft_as_peer_and_torchrun_beside_and_counts_false_hangs() -> None:
    rows = {
        "collective": {
            "ours": [{**_det(5.5), "basis": "steps"}],
            "ft": [_det(5.2, "ranks [0]")],
            "torchrun": [_det(5.1, "ranks [0]")],
        }
    }
    fp = {
        "eval": {
            "ours": {"false_hang": False},
            "ours_untold": {"false_hang": False},
            "ft": {"false_hang": False},
            "ft_untold": {"false_hang": True},
            "torchrun": {"false_hang": True},
        },
        "save": {
            "ours": {"false_hang": False},
            "ours_untold": {"false_hang": True},
            "ft": {"false_hang": False},
            "ft_untold": {"false_hang": True},
            "torchrun": {"false_hang": True},
        },
    }
    out = bh.combine(rows, fp, ("collective",), load=[1.0, 1.0])
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 5.5 and out["peer"] == 5.2 and out["reps"] == 1
    assert math.isclose(out["ratio"], 5.5 / 5.2)
    assert out["torchrun"]["median"] == 5.1 and math.isclose(out["torchrun"]["ratio"], 5.5 / 5.1)
    assert out["false_hangs"] == 0
    assert out["false_hangs_by_arm"] == {
        "ours": 0,
        "ours_untold": 1,
        "ft": 0,
        "ft_untold": 2,
        "torchrun": 2,
    }
    assert out["per_kind"]["collective"]["ratio_vs_ft"] == out["ratio"]
    assert math.isclose(out["stopped"]["ft"], 5.3)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_quick_benchmark_measures_every_arm() -> None:
    t0 = time.monotonic()
    out = bh.run(quick=True)
    took = time.monotonic() - t0
    assert not [k for k in REQUIRED if k not in out]
    (kind,) = out["kinds"]
    run = out["runs"][kind]
    for arm in bh.ARMS:
        assert run[arm][0]["ok"] and run[arm][0]["detected"], run[arm][0]
    assert run["ours"][0]["ledger_hang_detections"] == 1
    assert out["torchrun_orphans"] >= 0 and "load" in out
    print(f"quick hang-detection took {took:.0f} s")
