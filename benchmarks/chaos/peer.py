"""The chaos peer: torchrun + DCP under the same seeded fault schedule as `nonstop run`.

    python -m benchmarks.chaos.peer --seed 0 --quick      # one peer run, prints its checks

The same demo workload, flags, checkpoint cadence (its DCP checkpointer, `--checkpoint-every`),
pacing and c10d rendezvous on the harness's own store; `python -m torch.distributed.run
--max-restarts N` instead of `nonstop run`, with each rank started through
benchmarks/chaos/peer_worker.py. Faults go in the same way: the injector's through
NONSTOP_FAULTS (nonstop.runtime reads it in any rank process), the external ones by the same
Harness code, with real signals, at the same steps. What differs, all on torchrun's side:

- no numerical guards (NONSTOP_HEALTH=off): a torchrun job has none; a NaN, a spike or a
  flipped parameter trains on;
- torchrun's strongest hang detection (peer_worker.py), the setting bench_hang_detection
  calls torchrun's strongest: gloo's timeout STEP_FLOOR_S (5 s) and every step inside torch's
  elastic timer (5 s, the agent's FileTimerServer). After reaping a rank the timer server
  SIGKILLs its own torchrun, which the harness then requeues as a scheduler would (up to
  max-restarts times for the peer, not the 2 requeues a killed `nonstop run` gets: the
  requeue stands in for the restart torchrun could not do);
- a killed torchrun is started again by the harness, as a scheduler would requeue the job (its
  orphaned ranks are SIGKILLed, as a scheduler's cgroup kill would); the attempt number
  continues across relaunches;
- the schedule's attempt keys are renumbered for torchrun (`peer_schedule`): a fault that ends
  an attempt under nonstop but goes unnoticed under torchrun (nan, spike, param_bitflip) does not
  start a new attempt there, so the next fault keyed to "the next attempt" would never fire;
  for the same reason a `kill_in_restart` that follows such a fault moves to torchrun's next
  restart (`peer_order`); `kill_in_health_check` has no moment under torchrun (no health
  checks) and is skipped.

Detection for torchrun (it keeps no ledger) is read from the run directory: a fault that ends
an attempt is detected when a next attempt started (torchrun restarted, or the harness requeued
it); a full disk when the workload's checkpointer recorded the refused write; a slow rank or a
numerical fault never.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.chaos import procs
from benchmarks.chaos.checks import (
    bitflip_quarantined,
    fault_items,
    injected_faults,
    side_result,
)
from benchmarks.chaos.harness import Harness, Record, train_args
from benchmarks.chaos.schedule import ENDS_ATTEMPT, NUMERIC, Schedule
from nonstop.supervisor.watchdog import STEP_FLOOR_S

PEER_ENDS = ENDS_ATTEMPT - frozenset(NUMERIC)
"""Faults that end an attempt under torchrun: without guards, numerical ones go unnoticed."""
PEER_NA = frozenset({"kill_in_health_check"})
"""Faults with no moment under torchrun (it runs no health checks)."""


def peer_order(faults: list[Any]) -> list[Any]:
    """The faults in the order torchrun meets them: a `kill_in_restart` (a rank of the next
    attempt killed before its first step) that follows a fault ending no attempt under torchrun
    (a NaN, a spike, a flipped parameter train on) waits for the next fault that does; keyed
    where it stood, it killed the very attempt that was to run the numerical fault, which then
    never fired (seeds 5 and 6, 2026-12-02)."""
    out: list[Any] = []
    held: list[Any] = []
    ends = True  # the start of the run: as if after an ending fault
    for f in faults:
        if f.kind == "kill_in_restart" and not ends:
            held.append(f)
            continue
        out.append(f)
        if f.kind == "kill_in_restart":
            continue  # it ends the attempt it kills: `ends` stays as it was (true)
        ends = f.kind in PEER_ENDS
        if ends:
            out.extend(held)
            held = []
    return out + held


def peer_schedule(s: Schedule) -> Schedule:
    """The same faults (kinds, ranks, steps; the order of `peer_order`), keyed to torchrun's
    attempt numbers."""
    faults = []
    attempt = 0
    for f in peer_order(list(s.faults)):
        owner = attempt - 1 if f.kind == "kill_in_health_check" else attempt
        faults.append(dataclasses.replace(f, attempt=max(0, owner)))
        attempt += f.kind in PEER_ENDS
    return dataclasses.replace(s, faults=faults)


def attempts_seen(run_dir: Path) -> list[int]:
    out = []
    with contextlib.suppress(OSError):
        for d in (run_dir / "events").iterdir():
            if d.name.startswith("attempt-") and d.name[8:].isdigit():
                out.append(int(d.name[8:]))
    return sorted(out)


class PeerHarness(Harness):
    """Harness with torchrun in place of `nonstop run`."""

    @property
    def max_requeues(self) -> int:
        return len(self.s.faults) + 3  # = its --max-restarts

    def command(self, port: int) -> list[str]:
        s = self.s
        train = train_args(s, self.final)
        assert train[:2] == ["-m", "nonstop.workloads.llama.train"]
        return [
            sys.executable,
            "-m",
            "torch.distributed.run",
            *self.launcher_flags(port, f"chaos-peer-{s.seed}"),
            "-m",
            "benchmarks.chaos.peer_worker",
            *train[2:],
        ]

    def env(self) -> dict[str, str]:
        seen = attempts_seen(self.run_dir)
        env = super().env()
        env.update(
            NONSTOP_RUN_DIR=str(self.run_dir),
            NONSTOP_RUN_ID=f"chaos-peer-{self.s.seed}",
            NONSTOP_FAULTS=";".join(self.s.injects()),
            NONSTOP_HEALTH="off",
            BENCH_PG_TIMEOUT_S=f"{STEP_FLOOR_S:g}",
            BENCH_TIMER_S=f"{STEP_FLOOR_S:g}",
            TORCHELASTIC_ENABLE_FILE_TIMER="1",
            TORCHELASTIC_TIMER_FILE=str(self.work / "timer.fifo"),
            BENCH_ATTEMPT_OFFSET=str(max(seen) + 1 if seen else 0),
            TORCH_DISABLE_SHARE_RDZV_TCP_STORE="1",
        )
        env.pop("NONSTOP_ATTEMPT", None)
        return env

    def _kill_supervisor(self) -> None:
        assert self.sup is not None
        ranks = list(procs.workers(self.run_dir).values())
        procs.kill(self.sup.pid)
        self.sup.wait(timeout=30)
        self.killed_by_us = True
        alive = list(procs.workers(self.run_dir).values())
        self.record.orphans += len(alive)  # torchrun's ranks have no parent-death signal
        # at once, as a scheduler's job kill takes the whole cgroup: orphans left training for
        # a second (as this harness once did) wrote a checkpoint past the next fault's step,
        # which then never fired, and every later fault keyed to a later attempt with it
        for pid in set(ranks) | set(alive):
            for sig in (signal.SIGCONT, signal.SIGKILL):
                procs.kill(pid, sig)
        procs.kill_group(self.sup.pid)


def _failed_saves(run_dir: Path, attempt: int) -> tuple[int, int]:
    """(refused checkpoint writes, commits after the first refusal) in `attempt`'s events."""
    failed, later, first = 0, 0, None
    for path in sorted((run_dir / "events" / f"attempt-{attempt}").glob("rank-*.jsonl")):
        for line in path.read_bytes().splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                e = json.loads(line)
                if e["kind"] != "checkpoint":
                    continue
                p = e["payload"]
                if p.get("phase") == "failed" and "No space" in str(p.get("error")):
                    failed += 1
                    first = e["time"] if first is None else min(first, e["time"])
                elif p.get("phase") == "committed" and first is not None and e["time"] > first:
                    later += 1
    return failed, later


def account_peer(s: Schedule, run_dir: Path, record: Record, finished: bool) -> dict[str, Any]:
    """Every injected fault of a torchrun run, detected as the module docstring says."""
    attempts = set(attempts_seen(run_dir))
    items = fault_items(injected_faults(s, run_dir), record)
    for it in items:
        a, k = it["attempt"], it["kind"]
        if k in PEER_ENDS:
            it["detected"] = a + 1 in attempts
            it["action"] = "restart" if it["detected"] else None
            if k == "bitflip":  # the workload's verified load must have refused it
                quarantined = bitflip_quarantined(run_dir, record, a)
                it["quarantined"] = quarantined
                it["detected"] = it["detected"] and quarantined
        elif k == "diskfull":
            failed, later = _failed_saves(run_dir, a)
            it["detected"] = failed > 0  # by the workload's checkpointer, not by torchrun
            it["action"] = "train_on" if later else None
        else:  # slow, nan, spike, param_bitflip: torchrun has no straggler check, no guards
            it["detected"] = False
            it["action"] = None
        it["recovered"] = bool(it["detected"] and it["action"] and finished)
    unfired = [
        {**f.to_dict(), "why": "the injector never logged it as fired"}
        for f in s.faults
        if f.spec() is not None and not any(i.get("spec") == f.spec() for i in items)
    ]
    return {
        "items": items,
        "injected": len(items),
        "detected": sum(bool(i["detected"]) for i in items),
        "recovered": sum(bool(i["recovered"]) for i in items),
        "missed": [i for i in items if not i["detected"]],
        "unfired": unfired,
    }


def surviving_steps(run_dir: Path) -> dict[int, float]:
    """{step: seconds} of rank 0's steps whose result survived: for each step number, its
    execution in the latest attempt that ran it (an earlier one was redone after a restart)."""
    latest: dict[int, tuple[int, float]] = {}
    for path in (run_dir / "events").glob("attempt-*/rank-0.jsonl"):
        attempt = int(path.parent.name[8:])
        for line in path.read_bytes().splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                e = json.loads(line)
                if e["kind"] != "step":
                    continue
                p = e["payload"]
                step, dur = int(p["step"]), float(p["end"]) - float(p["start"])
                if step not in latest or latest[step][0] <= attempt:
                    latest[step] = (attempt, dur)
    return {step: dur for step, (_, dur) in latest.items()}


def ettr_from_events(run_dir: Path, wall_s: float, step_s: float | None = None) -> dict[str, Any]:
    """Useful time / wall, measured the same way for both sides from rank 0's step events.

    Useful: the surviving steps (`surviving_steps`), each worth `step_s` (bench_chaos passes
    the median over both sides' surviving steps: the same work is worth the same on both
    sides, and a side's own per-step overhead is not useful time); without `step_s`, their
    own durations. Wall: the harness's clock from the first launch to the last exit."""
    durations = list(surviving_steps(run_dir).values())
    useful = len(durations) * step_s if step_s is not None else sum(durations)
    return {
        "ettr": useful / wall_s if wall_s > 0 else 0.0,
        "useful_s": round(useful, 3),
        "wall_s": round(wall_s, 3),
        "steps_kept": len(durations),
        "median_step_s": statistics.median(durations) if durations else None,
    }


def evaluate_peer(
    s: Schedule,
    work: Path,
    record: Record,
    reference: Path,
    wall_s: float,
    step_s: float | None = None,
) -> dict[str, Any]:
    run_dir, faults, out = side_result(s, work, record, reference, account_peer)
    na = [
        {**f.to_dict(), "why": "no moment under torchrun (no health checks)"}
        for f in s.faults
        if f.kind in PEER_NA
    ]
    out.update(
        faults=faults["items"],
        skipped=record.skipped + faults["unfired"],
        not_applicable=na,
        requeues=record.requeues,
        orphans=record.orphans,
        supervisor_exits=record.supervisor_exits,
        attempts=len(attempts_seen(run_dir)),
        ettr=ettr_from_events(run_dir, wall_s, step_s),
        schedule=s.describe(),
    )
    return out


def run_peer(
    s: Schedule, work: Path, reference: Path, *, timeout_s: float, step_s: float | None = None
) -> dict[str, Any]:
    """One torchrun run under `s` (nonstop's schedule), evaluated against `reference`."""
    ps = peer_schedule(s)
    harness = PeerHarness(ps, work, timeout_s=timeout_s)
    harness.pending = [f for f in ps.faults if f.external and f.kind not in PEER_NA]
    t0 = time.monotonic()
    record = harness.run()
    return evaluate_peer(ps, work, record, reference, time.monotonic() - t0, step_s)


def main(argv: list[str] | None = None) -> int:
    import argparse
    import tempfile

    from benchmarks.chaos.harness import reference_run
    from benchmarks.chaos.schedule import KINDS, QUICK_KINDS, make_schedule

    p = argparse.ArgumentParser(prog="python -m benchmarks.chaos.peer")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--work", default=None)
    a = p.parse_args(argv)
    s = make_schedule(
        seed=a.seed, kinds=QUICK_KINDS if a.quick else KINDS, gap=(7, 9) if a.quick else (9, 13)
    )
    print(peer_schedule(s).describe(), file=sys.stderr)
    work = Path(a.work or tempfile.mkdtemp(prefix="nonstop-chaos-peer-"))
    ref = reference_run(s, work)
    out = run_peer(s, work / "peer", ref, timeout_s=400 if a.quick else 900)
    print(json.dumps(out, indent=1, default=str))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
