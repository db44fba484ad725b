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
    return EventWriter(rd.events(attempt, rank), run_id="r", attempt=attempt, rank=rank,
                       host="h", install_sigterm=False)  # fmt: skip


def _synthetic_run(root: Path, *, restarted: bool = True) -> tuple[RunDir, float]:
    rd = create(root)
    for rank in (0, 1):
        w = _writer(rd, 0, rank)
        w.emit("step", step=0, start=100.0, end=100.5)
        if rank == 1:
            w.emit("failure", message="injected crash", injected=True, fault="crash", step=1)
        w.close()
    (fail,) = [e for e in read_events(rd.events(0, 1))[0] if e.kind == "failure"]
    if restarted:
        for rank, start in ((0, fail.time + 3.0), (1, fail.time + 2.5)):
            w = _writer(rd, 1, rank)
            w.emit("step", step=5, start=start, end=start + 0.1)
            w.emit("step", step=6, start=start + 0.1, end=start + 0.2)
            w.close()
    with Ledger.open(rd.ledger) as led:
        t = fail.time
        led.add_detection(attempt=0, kind="exit", detection_time_s=t + 0.25, rank=1,
                          last_progress_time_s=t)  # fmt: skip
        for attempt, phase, a, b in ((0, "evidence", 0.3, 0.4), (0, "health_checks", 0.4, 1.4),
                                     (0, "teardown", 1.4, 1.5), (1, "rendezvous", 1.5, 1.7),
                                     (1, "spawn", 1.7, 1.8),
                                     (0, "rendezvous", -9.0, -8.0)):  # fmt: skip
            led.add_restart_phase(attempt=attempt, phase=phase, start_s=t + a, end_s=t + b)
    return rd, fail.time


def test_recovery_is_fault_event_to_first_step_of_next_attempt(tmp_path: Path) -> None:
    rd, t_fail = _synthetic_run(tmp_path / "run")
    r = br.recovery(rd.root)
    assert r["ok"] and r["fault_attempt"] == 0 and r["fault_rank"] == 1
    assert math.isclose(r["recovery_s"], 2.5, abs_tol=1e-6)  # the earliest rank's first step
    assert r["resumed_at_step"] == 5
    b = br.ledger_breakdown(rd.root, 0, t_fail)
    assert math.isclose(b["health_checks_s"], 1.0, abs_tol=1e-6)
    assert math.isclose(b["rendezvous_s"], 0.2, abs_tol=1e-6)  # attempt 1's, not attempt 0's
    assert math.isclose(b["detection_s"], 0.25, abs_tol=1e-6)
    assert math.isclose(b["worker_start_s"], 2.5 - 1.8, abs_tol=1e-6)
    assert set(b) >= {"evidence_s", "teardown_s", "spawn_s", "detection_latency_s"}


def test_no_restart_is_reported_not_measured(tmp_path: Path) -> None:
    rd, _ = _synthetic_run(tmp_path / "run", restarted=False)
    r = br.recovery(rd.root)
    assert not r["ok"] and "attempt 1" in r["why"]
    assert not br.recovery(create(tmp_path / "empty").root)["ok"]


def test_summary_follows_the_harness_contract() -> None:
    ours = [{"recovery_s": 0.5, "breakdown": {"handover_s": 0.01}, "lost_steps": 0},
            {"recovery_s": 0.7, "lost_steps": 1}]  # fmt: skip
    durable = [{"recovery_s": 3.0, "breakdown": {"spawn_s": 0.2}, "lost_steps": 5}]
    peer = [{"recovery_s": 2.0, "lost_steps": 5}, {"recovery_s": None}]
    out = br.summarize(ours, durable, peer, repetitions=2)
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 0.6 and out["peer"] == 2.0 and out["ratio"] == 0.3
    assert out["ours_durable_only_s"] == 3.0 and out["ours_breakdown_s"] == {"handover_s": 0.01}
    assert out["lost_steps"] == {"ours": 0.5, "ours_durable_only": 5, "torchrun": 5}
    assert out["better"] == "lower" and out["repetitions"] == 2


def test_commands_run_the_same_workload_and_fault() -> None:
    train = br.workload(["--dim", "64"], 30, 5)
    ours = br.nonstop_cmd(Path("/x"), train, inject=br.crash_spec(7), extra=[])
    peer = br.torchrun_cmd(train, max_restarts=1)
    assert ours[-len(train):] == train and peer[-len(train):] == train  # fmt: skip
    assert "crash@step=7,rank=1,signal=SIGKILL" in ours
    env = br.torchrun_env(Path("/x/run"), br.crash_spec(7))
    assert env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] == "1" and env["NONSTOP_RUN_ID"] == "run"
    shared = br.torchrun_env(Path("/x/run"), "", share_store=True)
    assert "TORCH_DISABLE_SHARE_RDZV_TCP_STORE" not in shared


def test_kill_group_stops_a_launcher_and_its_stopped_children() -> None:
    code = ("import os, signal, subprocess, sys, time\n"
            "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],"
            " start_new_session=True)\n"
            "os.kill(c.pid, signal.SIGSTOP); print(c.pid, flush=True); time.sleep(60)\n")  # fmt: skip
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                         start_new_session=True)  # fmt: skip
    assert p.stdout is not None
    child = int(p.stdout.readline())
    assert child in br.proc_tree(p.pid)
    br.kill_group(p, grace_s=5.0)
    p.stdout.close()
    assert br.proc_tree(p.pid) == {}
    assert br.proc_tree(child) in ({}, {child: "Z"})  # gone (or an unreaped zombie of init)
