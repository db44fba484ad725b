"""Planned interruptions: the run's control channel, and `nonstop drain` / `nonstop restart`.

An operator (or the scheduler's warning signal) asks for a planned stop; the run must lose no
progress. The channel is files in run_dir/control/, which every node's agent and every rank can
see on the shared filesystem the run directory already needs:

    request-<id>.json        an operator's request: drain a host, or restart as is
    stop-attempt-N.json      the plan: every rank checkpoints at the next agreed step, then exits

    teardown-HOST-attempt-N  written by a node's agent just before it stops its own ranks

The first agent to claim the stop plan (an exclusive create) writes it for all nodes; each
rank's watcher thread reads it on its own clock, so ranks learn of it at different steps. They
decide together when to stop: after each step every rank all-reduces "I have seen a plan"
(Runtime.planned_stop_due), so all of them save after the same step, however short the steps
and however late a watcher. The plan's `step` is only the last step the agent had seen.

Slurm sends SIGTERM to every process of a job at a time limit or a preemption; a rank that
gets it without a teardown marker takes it for the scheduler's and checkpoints (the bootstrap's
SigtermHandler). A request that cannot be carried out is refused, never turned into another
(a drain of a host the job does not have); a drain that leaves too few nodes becomes a stop.

    nonstop drain RUN_DIR --host node-7 --reason "GPU 3 throttling"
    nonstop restart RUN_DIR --reason "new dataset mix"
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import secrets
import signal
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from nonstop import rundir
from nonstop.errors import UserError

KINDS = ("preempt", "drain", "restart")
# the ledger actions that end a request (`--wait` prints the newest): drained (the host left),
# planned_restart (every node restarted), stopped (the job stopped after a checkpoint: a drain
# that left too few nodes), planned_stop_failed (refused, or the checkpoint was not made)
OUTCOMES = ("planned_restart", "drained", "stopped", "planned_stop_failed")


@dataclass(frozen=True)
class StopPlan:
    """Every rank saves a checkpoint at the next step boundary they agree on, then exits;
    `kind` says what follows; `step` is the last step the planning agent had seen (-1: none)."""

    attempt: int
    step: int
    kind: str  # preempt (stop, exit 75), drain (`host` leaves, others restart), restart
    host: str | None
    reason: str
    request_id: str
    time: float


def stop_path(run_dir: Path, attempt: int) -> Path:
    return rundir.RunDir(run_dir).control / f"stop-attempt-{attempt}.json"


PREEMPTION_SIGNALS = (signal.SIGTERM, signal.SIGUSR1, signal.SIGUSR2)
ENV_SIGTERM_GRACE = "NONSTOP_SIGTERM_GRACE_S"
"""Seconds a stop after SIGTERM may take, when shorter than --grace-period: the scheduler's
SIGKILL delay (Slurm's KillWait; examples/slurm/nonstop.sbatch sets it), while --grace-period
stays sized for a warning (SIGUSR1 300 s ahead) or a drain."""
_early: list[int] = []


def catch_early_signals() -> None:
    """Record the preemption signals that arrive while `nonstop run` starts, before its agent
    exists (imports take seconds; Slurm may send its warning up to 60 s early, and SIGUSR1's
    default action would kill the agent). The agent takes them over: early_signal()."""
    for sig in PREEMPTION_SIGNALS:
        signal.signal(sig, lambda signum, frame: _early.append(signum))


def early_signal() -> int | None:
    """The most urgent signal caught by catch_early_signals (SIGTERM first), if any."""
    if not _early:
        return None
    return int(signal.SIGTERM) if signal.SIGTERM in _early else _early[-1]


def sigterm_grace_s() -> float:
    """ENV_SIGTERM_GRACE as seconds (infinite when unset or not a positive number)."""
    try:
        value = float(os.environ.get(ENV_SIGTERM_GRACE, "inf"))
    except ValueError:
        return float("inf")
    return value if value > 0 else float("inf")


def teardown_path(run_dir: Path, host: str, attempt: int) -> Path:
    """Written by a node's agent just before it stops its own ranks (SIGTERM, SIGKILL 30 s
    later): a rank that gets SIGTERM while it exists dies at once; without it, SIGTERM came
    from the scheduler (Slurm signals every process of the job) and the rank checkpoints."""
    return rundir.RunDir(run_dir).control / f"teardown-{host}-attempt-{attempt}"


def mark_teardown(run_dir: Path, host: str, attempt: int) -> None:
    path = teardown_path(run_dir, host, attempt)
    with contextlib.suppress(OSError):  # never in the way of a teardown
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def claim_stop(run_dir: Path, plan: StopPlan) -> StopPlan:
    """Write the plan unless another agent already did; return the plan in force."""
    path = stop_path(run_dir, plan.attempt)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path.with_suffix(".claim"), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            existing = read_stop(run_dir, plan.attempt)
            if existing is not None:
                return existing
            time.sleep(0.05)
        raise RuntimeError(f"{path}: claimed by another agent but never written") from None
    os.close(fd)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(plan)))
    os.replace(tmp, path)
    return plan


def read_stop(run_dir: Path, attempt: int) -> StopPlan | None:
    """The plan in force, or None (none, or a file that is not one: anyone who can write
    control/ can write anything there; found by tests/props/test_props_fuzz_control.py)."""
    try:
        plan = StopPlan(**json.loads(stop_path(run_dir, attempt).read_text()))
    except (OSError, ValueError, TypeError):
        return None
    return plan if _well_typed(plan) else None


def _well_typed(p: StopPlan) -> bool:
    def integer(x: object) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    number = (integer(p.time) or isinstance(p.time, float)) and math.isfinite(p.time)
    return (integer(p.attempt) and integer(p.step) and p.kind in KINDS and number
            and (p.host is None or isinstance(p.host, str))
            and isinstance(p.reason, str) and isinstance(p.request_id, str))  # fmt: skip


def write_request(run_dir: Path, kind: str, *, host: str | None, reason: str) -> str:
    if kind not in ("drain", "restart"):
        raise UserError(f"unknown request {kind!r}")
    rid = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)
    control = rundir.RunDir(run_dir).control
    control.mkdir(parents=True, exist_ok=True)
    tmp = control / f".request-{rid}.tmp"
    body = {"id": rid, "kind": kind, "host": host, "reason": reason, "time": time.time()}
    tmp.write_text(json.dumps(body))
    os.replace(tmp, control / f"request-{rid}.json")
    return rid


def pending_requests(run_dir: Path, done: set[str]) -> list[dict[str, Any]]:
    control = rundir.RunDir(run_dir).control
    out = []
    for p in sorted(control.glob("request-*.json")) if control.is_dir() else []:
        with contextlib.suppress(OSError, ValueError):
            body = json.loads(p.read_text())
            if not (
                isinstance(body, dict)
                and isinstance(body.get("id"), str)
                and (body.get("host") is None or isinstance(body["host"], str))
            ):
                continue  # not a request (found by tests/props/test_props_fuzz_control.py)
            if body["id"] not in done and body.get("kind") in ("drain", "restart"):
                out.append(body)
    return out


# -- the operator's commands ---------------------------------------------------------------


def _wait_for_outcome(run_dir: Path, rid: str, timeout_s: float) -> int:
    from nonstop.ledger import Ledger

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        time.sleep(0.5)
        try:
            with Ledger.open(rundir.RunDir(run_dir).ledger, readonly=True) as led:
                rows = led.rows(
                    "SELECT action, reason FROM actions WHERE reason LIKE ? ORDER BY time",
                    (f"%[{rid}]%",),
                )
        except UserError:
            continue
        done = [r for r in rows if r[0] in OUTCOMES]
        if done:
            action, reason = done[-1]
            print(f"{action}: {reason}")
            if action == "stopped":
                print("the job stopped after the checkpoint (nonstop run exits 75): requeue it "
                      "to resume on other nodes")  # fmt: skip
            return 1 if action == "planned_stop_failed" else 0
    print(f"no outcome within {timeout_s:g} s; the request stays queued ({rid})")
    return 1


def known_hosts(run_dir: Path) -> list[str]:
    """The hosts whose ranks reported in the newest attempt (empty when not known yet)."""
    from nonstop.ledger import Ledger

    try:
        with Ledger.open(rundir.RunDir(run_dir).ledger, readonly=True) as led:
            rows = led.rows(
                "SELECT DISTINCT host FROM lifecycle WHERE host IS NOT NULL AND attempt ="
                " (SELECT MAX(attempt) FROM lifecycle)"
            )
    except UserError:
        return []
    return sorted(str(r[0]) for r in rows)


def _parser(prog: str, with_host: bool) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("run_dir", help="the run directory of a running `nonstop run`")
    if with_host:
        p.add_argument("--host", required=True, help="the node to take out (its --host-name)")
    p.add_argument("--reason", default="", help="recorded in the ledger")
    p.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                   help="wait this long for the outcome (default: return at once)")  # fmt: skip
    return p


def _request(argv: list[str], kind: str) -> int:
    a = _parser(f"nonstop {kind}", kind == "drain").parse_args(argv)
    rd = rundir.open_existing(a.run_dir)
    if not rd.ledger.exists():
        raise UserError(f"{a.run_dir} has no ledger: is `nonstop run` running there?")
    host = getattr(a, "host", None)
    hosts = known_hosts(rd.root) if host is not None else []
    if hosts and host not in hosts:  # a typo must not become a restart of the whole job
        raise UserError(f"unknown host {host!r}: the run's hosts are {', '.join(hosts)} "
                        f"(names as in --host-name); nothing was requested")  # fmt: skip
    rid = write_request(rd.root, kind, host=host, reason=a.reason)
    what = f"drain {host}" if kind == "drain" else "restart"
    print(f"requested {what} ({rid}): every rank checkpoints at the next agreed step, then "
          f"the job {'continues without ' + str(host) if host else 'restarts'}")  # fmt: skip
    return _wait_for_outcome(rd.root, rid, a.wait) if a.wait > 0 else 0


def drain_main(argv: list[str]) -> int:
    """`nonstop drain RUN_DIR --host HOST [--reason TEXT] [--wait S]`."""
    return _request(argv, "drain")


def restart_main(argv: list[str]) -> int:
    """`nonstop restart RUN_DIR [--reason TEXT] [--wait S]`."""
    return _request(argv, "restart")
