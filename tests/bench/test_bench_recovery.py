"""bench_recovery's measurement on a synthetic run directory written by the real EventWriter
and Ledger; no training is launched."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

from benchmarks import bench_recovery as br
from benchmarks.run import REQUIRED
from nonstop.events import EventWriter, read_events
from nonstop.ledger import Ledger
from nonstop.rundir import RunDir, create


def _writer(rd: RunDir, attempt: int, rank: int) -> EventWriter:
    return EventWriter(
        rd.events(attempt, rank),
        run_id="r",
        attempt=attempt,
        rank=rank,
        host="h",
        install_sigterm=False,
    )


def _synthetic_run(
    root: Path, *, restarted: bool = True, resume_at: int = 1, last: int | None = None
) -> tuple[RunDir, float]:
    """Rank 1 fails at step 1 of attempt 0; attempt 1 runs from `resume_at` to `last`."""
    rd = create(root)
    for rank in (0, 1):
        w = _writer(rd, 0, rank)
        w.emit("step", step=0, start=100.0, end=100.5)
        if rank == 1:
            w.emit("failure", message="injected crash", injected=True, fault="crash", step=1)
        w.close()
    (fail,) = [e for e in read_events(rd.events(0, 1))[0] if e.kind == "failure"]
    if restarted:
        stop = resume_at + 1 if last is None else last
        for rank, start in ((0, fail.time + 3.0), (1, fail.time + 2.5)):
            w = _writer(rd, 1, rank)
            for i, step in enumerate(range(resume_at, stop + 1)):
                w.emit("step", step=step, start=start + 0.1 * i, end=start + 0.1 * (i + 1))
            w.close()
    with Ledger.open(rd.ledger) as led:
        t = fail.time
        led.attempt_started(0, time_s=t - 10.0, world_size=2, restart_path="cold")
        led.attempt_started(1, time_s=t + 1.5, world_size=2, restart_path="warm")
        led.add_detection(
            attempt=0,
            kind="straggler",
            detection_time_s=t - 5.0,
            rank=0,
            last_progress_time_s=t - 5.0,
        )
        led.add_detection(
            attempt=0, kind="exit", detection_time_s=t + 0.25, rank=1, last_progress_time_s=t
        )
        for attempt, phase, a, b in (
            (0, "evidence", 0.3, 0.4),
            (0, "health_checks", 0.4, 1.4),
            (0, "teardown", 1.4, 1.5),
            (1, "rendezvous", 1.5, 1.7),
            (1, "spawn", 1.7, 1.8),
            (0, "rendezvous", -9.0, -8.0),
        ):
            led.add_restart_phase(attempt=attempt, phase=phase, start_s=t + a, end_s=t + b)
    return rd, fail.time


def test_recovery_is_fault_event_to_first_step_of_next_attempt(tmp_path: Path) -> None:
    rd, t_fail = _synthetic_run(tmp_path / "run")
    r = br.recovery(rd.root)
    assert r["ok"] and r["fault_attempt"] == 0 and r["fault_rank"] == 1
    assert math.isclose(r["recovery_s"], 2.5, abs_tol=1e-6)  # the earliest rank's first step
    assert r["resumed_at_step"] == 1 and r["back_s"] == r["recovery_s"]
    b = br.ledger_breakdown(rd.root, 0, t_fail)
    assert math.isclose(b["health_checks_s"], 1.0, abs_tol=1e-6)
    assert math.isclose(b["rendezvous_s"], 0.2, abs_tol=1e-6)  # attempt 1's, not attempt 0's
    assert math.isclose(b["detection_s"], 0.25, abs_tol=1e-6)  # not the earlier straggler's
    assert math.isclose(b["worker_start_s"], 2.5 - 1.8, abs_tol=1e-6)
    assert set(b) >= {"evidence_s", "teardown_s", "spawn_s", "detection_latency_s"}


def test_back_at_crash_counts_the_redone_steps(tmp_path: Path) -> None:
    """Crashed at step 1 (the last step started before the fault is 0), resumed at step 0:
    training is back when step 1 starts again, one step after the first resumed one."""
    rd, t_fail = _synthetic_run(tmp_path / "run", resume_at=0)
    r = br.recovery(rd.root)
    assert r["ok"] and r["crash_step"] == 1 and r["resumed_at_step"] == 0
    assert r["lost_steps"] == 1
    assert math.isclose(r["recovery_s"], 2.5, abs_tol=1e-6)
    assert math.isclose(r["back_s"], 2.6, abs_tol=1e-6)  # the earliest rank's step 1
    assert math.isclose(r["redo_s"], 0.1, abs_tol=1e-6)
    # the same figure from the fault's time alone (a whole-node kill has no failure event)
    assert br.back_at_crash(rd.root, t_fail)["back_s"] == r["back_s"]


def test_resuming_at_the_crash_step_is_back_at_once(tmp_path: Path) -> None:
    rd, _ = _synthetic_run(tmp_path / "run", resume_at=1)
    r = br.recovery(rd.root)
    assert r["ok"] and r["lost_steps"] == 0 and r["back_s"] == r["recovery_s"]


def test_no_restart_is_reported_not_measured(tmp_path: Path) -> None:
    rd, _ = _synthetic_run(tmp_path / "run", restarted=False)
    r = br.recovery(rd.root)
    assert not r["ok"] and "attempt 1" in r["why"]
    assert not br.recovery(create(tmp_path / "empty").root)["ok"]
    stuck, _ = _synthetic_run(tmp_path / "stuck", resume_at=0, last=0)  # never reached step 1
    r = br.recovery(stuck.root)
    assert not r["ok"] and "never ran again" in r["why"] and "back_s" not in r


def test_restart_info_reads_the_ledgers_restart_rows(tmp_path: Path) -> None:
    rd, _ = _synthetic_run(tmp_path / "run")
    info = br.restart_info(rd.root, 1)
    (row,) = info["restarts"]
    assert info["restart_path"] == "warm" and info["state_from"] is None
    assert row["attempt"] == 1 and math.isclose(row["phases"]["health_checks"], 1.0)
    assert "rendezvous" in row["phases"] and "evidence" in row["phases"]


def _row(back: float | None, **kw: object) -> dict[str, object]:
    return {"ok": back is not None, "back_s": back, "recovery_s": back, **kw}


def test_summary_follows_the_harness_contract() -> None:
    arms = {
        "standby+memory": [
            _row(0.5, lost_steps=0, restart_path="warm", restarts=[{"phases": {"handover": 0.01}}]),
            _row(0.7, lost_steps=0),
        ],
        "standby": [_row(1.0, lost_steps=5), _row(1.2, lost_steps=5)],
        "cold": [_row(3.0, lost_steps=5), _row(None)],
    }
    peer = [_row(2.0, lost_steps=5), _row(2.4, lost_steps=5)]
    ft = [_row(4.0, lost_steps=5), _row(4.4, lost_steps=5)]
    out = br.summarize(arms, peer, ft, load={"start": [1.0, 1.0, 1.0]})
    assert not [k for k in (*REQUIRED, "limit", "spread", "reps") if k not in out]
    # the headline is nonstop's default configuration, not the best arm
    assert out["headline_arm"] == "standby" and out["best_arm"] == "standby+memory"
    assert out["ours"] == 1.1 and out["peer"] == 2.2
    assert math.isclose(out["ratio"], 1.1 / 2.2) and out["better"] == "lower"
    assert out["spread"]["ours"] == [1.0, 1.2] and len(out["spread"]["ratio"]) == 2
    assert out["reps"] == 2 and out["load"] == {"start": [1.0, 1.0, 1.0]}
    assert set(out["ratio_ci_per_arm"]) == set(arms)
    assert math.isclose(out["ft_launcher"]["ratio_per_arm"]["standby"], 1.1 / 4.2, abs_tol=1e-4)
    best = out["arms"]["standby+memory"]
    assert best["phases_s"] == {"handover": 0.01} and best["restart_path"] == ["warm"]
    assert out["arms"]["cold"]["ok"] == 1 and out["arms"]["cold"]["back_s"] == 3.0
    assert math.isclose(out["ratio_per_arm"]["cold"], 3.0 / 2.2, abs_tol=1e-4)
    c = br.compare(arms["standby+memory"], peer)
    assert c["ours"] == 0.6 and c["peer"] == 2.2 and c["reps"] == 2


def test_commands_run_the_same_workload_and_fault() -> None:
    train = br.workload(["--dim", "64"], 30, 5)
    ours = br.nonstop_cmd(Path("/x"), train, inject=br.crash_spec(7), extra=[])
    peer = br.torchrun_cmd(train, max_restarts=1)
    ft = br.torchrun_cmd(train, max_restarts=1, launcher="ft")
    assert ours[-len(train) :] == train and peer[-len(train) :] == train
    assert ft[-len(train) :] == train and ft[0].endswith("ft_launcher")
    assert ft[ft.index("--max-restarts") + 1] == "1" and "--ft-restart-policy" in ft
    assert "crash@step=7,rank=1,signal=SIGKILL" in ours
    env = br.torchrun_env(Path("/x/run"), br.crash_spec(7))
    assert env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] == "1" and env["NONSTOP_RUN_ID"] == "run"
    shared = br.torchrun_env(Path("/x/run"), "", share_store=True)
    assert "TORCH_DISABLE_SHARE_RDZV_TCP_STORE" not in shared


def test_kill_group_stops_a_launcher_and_its_stopped_children() -> None:
    code = (
        "import os, signal, subprocess, sys, time\n"
        "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
        " start_new_session=True)\n"
        "os.kill(c.pid, signal.SIGSTOP); print(c.pid, flush=True); time.sleep(60)\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True
    )
    assert p.stdout is not None
    child = int(p.stdout.readline())
    assert child in br.proc_tree(p.pid)
    br.kill_group(p, grace_s=5.0)
    p.stdout.close()
    assert br.proc_tree(p.pid) == {}
    assert br.proc_tree(child) in ({}, {child: "Z"})  # gone (or an unreaped zombie of init)
