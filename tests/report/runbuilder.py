"""A synthetic but complete run directory for the report tests, built through the contract.

Events are `nonstop.events.Event` records serialised by `Event.to_json()` (what EventWriter
writes) so that their wall times can be chosen; the supervisor's tables go through the Ledger
API the agent uses. The run: 4 ranks on 2 hosts, rank 2 a straggler (busy 1.6x), checkpoints
every 10 steps, attempt 0 failing at step 25 (an NCCL watchdog timeout on rank 3), detection,
health checks, restart phases, attempt 1 resuming from step 20 to the end; NVML telemetry
(power, temperature) on every rank and a host (cpu) sample on rank 0.
"""

from __future__ import annotations

import math
from pathlib import Path

from nonstop import rundir
from nonstop.events import Event
from nonstop.ledger import Ledger

T0 = 1_790_000_000.0
STEP_S = 0.5
HOSTS = {0: "node-a", 1: "node-a", 2: "node-b", 3: "node-b"}


class Streams:
    def __init__(self, rd: rundir.RunDir, run_id: str) -> None:
        self.rd, self.run_id = rd, run_id
        self.lines: dict[Path, list[str]] = {}

    def emit(self, attempt: int, rank: int, t: float, kind: str, **payload: object) -> None:
        e = Event(
            run_id=self.run_id,
            attempt=attempt,
            rank=rank,
            host=HOSTS[rank],
            mono=t - T0,
            time=t,
            kind=kind,
            payload=payload,
        )
        self.lines.setdefault(self.rd.events(attempt, rank), []).append(e.to_json())

    def write(self) -> None:
        for path, lines in self.lines.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines) + "\n")


def _attempt(
    s: Streams,
    attempt: int,
    t: float,
    first: int,
    last: int,
    *,
    fail_at: int | None = None,
    ckpt_every: int = 10,
) -> float:
    """Emit one attempt's events from wall time t; return the time its training stopped."""
    for r in HOSTS:
        s.emit(attempt, r, t, "lifecycle", phase="attempt_start", world_size=4)
    t += 2.0  # start-up: imports, process group, checkpoint load
    if first > 0:
        for r in HOSTS:
            s.emit(attempt, r, t, "lifecycle", phase="resumed", step=first - 1)
    for step in range(first, last + 1):
        if step == fail_at:
            s.emit(
                attempt,
                3,
                t + 0.1,
                "failure",
                message="Watchdog caught collective "
                "operation timeout: WorkNCCL(SeqNum=77, OpType=ALLREDUCE)",
                step=step,
            )
            return t + 0.1
        end = t + STEP_S
        loss = 6.0 * math.exp(-step / 25) + 2.0 + 0.03 * math.sin(step)
        for r in HOSTS:
            busy = STEP_S * (0.95 if r == 2 else 0.6)  # rank 2 computes slowest
            s.emit(attempt, r, t, "heartbeat", step=step)
            s.emit(
                attempt,
                r,
                end,
                "step",
                step=step,
                start=t,
                end=end,
                data_s=0.01,
                compute_s=busy,
                optimizer_s=0.02,
                tokens=4096,
                loss=loss,
            )
        t = end
        if (step + 1) % ckpt_every == 0:
            for r in HOSTS:
                s.emit(attempt, r, t, "checkpoint", phase="begin", step=step + 1)
                s.emit(
                    attempt,
                    r,
                    t + 0.08,
                    "checkpoint",
                    phase="staged",
                    step=step + 1,
                    blocking_s=0.08,
                    bytes=50_000_000,
                )
                s.emit(
                    attempt,
                    r,
                    t + 0.9,
                    "checkpoint",
                    phase="committed",
                    step=step + 1,
                    blocking_s=0.08,
                    total_s=0.9,
                    bytes=50_000_000,
                )
            t += 0.08
    for r in HOSTS:
        s.emit(attempt, r, t, "lifecycle", phase="finished", step=last)
    return t


def _telemetry(s: Streams, attempt: int, t0: float, t1: float) -> None:
    t = t0
    while t < t1:
        for r in HOSTS:
            phase = (t - T0) / 30
            s.emit(
                attempt,
                r,
                t,
                "telemetry",
                source="nvml",
                metrics={
                    "gpu": r % 2,
                    "power_w": 520 + 140 * math.sin(phase) + 9 * r,
                    "temp_c": 64 + 6 * math.sin(phase / 2) + r,
                    "sm_clock_mhz": 1980,
                },
            )
        s.emit(
            attempt,
            0,
            t,
            "telemetry",
            source="cpu",
            metrics={"cpu_util_pct": 40 + 10 * math.cos(t), "mem_used_pct": 31.0},
        )
        t += 1.0


def build_run(
    root: Path,
    *,
    run_id: str = "synthetic-run",
    fail: bool = True,
    ckpt_every: int = 10,
    steps: int = 60,
) -> Path:
    """Write the run directory under root and return it."""
    rd = rundir.create(root)
    rd.write_config({"run_id": run_id})
    s = Streams(rd, run_id)
    ledger = Ledger.open(rd.ledger)
    with ledger:
        ledger.attempt_started(0, time_s=T0, world_size=4, nodes=["node-a", "node-b"])
        ledger.add_restart_phase(attempt=0, phase="rendezvous", start_s=T0, end_s=T0 + 0.4)
        if not fail:
            end = _attempt(s, 0, T0, 0, steps - 1, ckpt_every=ckpt_every)
            _telemetry(s, 0, T0 + 1, end)
            ledger.attempt_ended(0, time_s=end + 0.5, outcome="succeeded")
            s.write()
            return root
        stop = _attempt(s, 0, T0, 0, steps - 1, fail_at=25, ckpt_every=ckpt_every)
        _telemetry(s, 0, T0 + 1, stop)
        detect = stop + 4.0
        ledger.add_detection(
            attempt=0,
            kind="hang",
            detection_time_s=detect,
            rank=3,
            host="node-b",
            last_progress_time_s=stop,
        )
        ledger.add_failure(
            attempt=0,
            time_s=stop,
            category="nccl_watchdog_timeout",
            action="restart",
            rank=3,
            host="node-b",
            message="collective ALLREDUCE timed out <on rank 3>",
        )
        ledger.add_failure(
            attempt=0,
            time_s=stop + 0.2,
            category="unknown",
            action="none",
            rank=1,
            host="node-a",
            message="peer closed",
            root_cause=False,
        )
        ledger.add_restart_phase(attempt=0, phase="evidence", start_s=detect, end_s=detect + 1)
        ledger.add_restart_phase(
            attempt=0, phase="health_checks", start_s=detect + 1, end_s=detect + 3
        )
        for name in ("disk", "memory", "gpu"):
            ledger.add_health_check(
                attempt=0,
                time_s=detect + 3,
                name=name,
                status="passed",
                host="node-b",
                detail="ok",
                duration_s=0.5,
            )
        ledger.attempt_ended(0, time_s=detect + 3, outcome="failed")
        ledger.add_action(
            attempt=0,
            time_s=detect + 3,
            action="restart",
            host="node-b",
            reason="NCCL watchdog timeout",
        )
        t1 = detect + 3.5
        ledger.add_restart_phase(attempt=1, phase="rendezvous", start_s=detect + 3, end_s=t1)
        ledger.attempt_started(1, time_s=t1, world_size=4, nodes=["node-a", "node-b"])
        end = _attempt(s, 1, t1, 20, steps - 1, ckpt_every=ckpt_every)
        _telemetry(s, 1, t1 + 1, end)
        ledger.attempt_ended(1, time_s=end + 0.5, outcome="succeeded")
    s.write()
    return root
