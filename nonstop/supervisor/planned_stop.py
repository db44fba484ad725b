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
import dataclasses
import json
import math
import os
import secrets
import signal
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from torch.distributed.elastic.agent.server.api import RunResult, WorkerGroup

    from nonstop.supervisor.context import AgentContext, AgentOps

from nonstop import log, rundir
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
    return (
        integer(p.attempt)
        and integer(p.step)
        and p.kind in KINDS
        and number
        and (p.host is None or isinstance(p.host, str))
        and isinstance(p.reason, str)
        and isinstance(p.request_id, str)
    )


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
                rows = led.actions_for_request(rid)
        except UserError:
            continue
        done = [r for r in rows if r[0] in OUTCOMES]
        if done:
            action, reason = done[-1]
            print(f"{action}: {reason}")
            if action == "stopped":
                print(
                    "the job stopped after the checkpoint (nonstop run exits 75): requeue it "
                    "to resume on other nodes"
                )
            return 1 if action == "planned_stop_failed" else 0
    print(f"no outcome within {timeout_s:g} s; the request stays queued ({rid})")
    return 1


def known_hosts(run_dir: Path) -> list[str]:
    """The hosts whose ranks reported in the newest attempt (empty when not known yet)."""
    from nonstop.ledger import Ledger

    try:
        with Ledger.open(rundir.RunDir(run_dir).ledger, readonly=True) as led:
            return led.hosts_of_last_attempt()
    except UserError:
        return []


def _parser(prog: str, with_host: bool) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog)
    p.add_argument("run_dir", help="the run directory of a running `nonstop run`")
    if with_host:
        p.add_argument("--host", required=True, help="the node to take out (its --host-name)")
    p.add_argument("--reason", default="", help="recorded in the ledger")
    p.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait this long for the outcome (default: return at once)",
    )
    return p


def _request(argv: list[str], kind: str) -> int:
    a = _parser(f"nonstop {kind}", kind == "drain").parse_args(argv)
    rd = rundir.open_existing(a.run_dir)
    if not rd.ledger.exists():
        raise UserError(f"{a.run_dir} has no ledger: is `nonstop run` running there?")
    host = getattr(a, "host", None)
    hosts = known_hosts(rd.root) if host is not None else []
    if hosts and host not in hosts:  # a typo must not become a restart of the whole job
        raise UserError(
            f"unknown host {host!r}: the run's hosts are {', '.join(hosts)} "
            f"(names as in --host-name); nothing was requested"
        )
    rid = write_request(rd.root, kind, host=host, reason=a.reason)
    what = f"drain {host}" if kind == "drain" else "restart"
    print(
        f"requested {what} ({rid}): every rank checkpoints at the next agreed step, then "
        f"the job {'continues without ' + str(host) if host else 'restarts'}"
    )
    return _wait_for_outcome(rd.root, rid, a.wait) if a.wait > 0 else 0


def drain_main(argv: list[str]) -> int:
    """`nonstop drain RUN_DIR --host HOST [--reason TEXT] [--wait S]`."""
    return _request(argv, "drain")


def restart_main(argv: list[str]) -> int:
    """`nonstop restart RUN_DIR [--reason TEXT] [--wait S]`."""
    return _request(argv, "restart")


_log = log.get("supervisor")

# -- the agent's planned-stop machine ---------------------------------------------------------

ASK_WAIT_S = 30.0  # a planned stop waits this long for ranks that can be asked to checkpoint
NOTICE_MARGIN_S = 5.0  # a cloud notice's stop is done this long before the cloud acts


class PlannedStopMachine:
    """The agent's planned-stop part: a trigger (the scheduler's signal, the ranks' SIGTERM,
    the cloud's notice, an operator's request), a plan claimed for every node, the wait for
    the ranks' checkpoint, and the stop, drain or restart that follows, with its exit code.
    torch is imported only inside the methods: the operator's commands above must not load it.

    The agent calls on_signal (its signal handler) and, from its monitor loop, planned; it
    reads peer_drained before a rendezvous (a drained peer's round waits less). launch sets
    signal_received (a signal caught while it started) and cloud_notices. The machine owns the
    plan and the requests it has done; it reads the context's attempt and watchdog, sets its
    exit_code, exit_message and leaving, and asks the agent (AgentOps) for the ledger ingest,
    torch's teardown and restart of the ranks, and an end to torch's restarts."""

    def __init__(self, ctx: AgentContext, ops: AgentOps) -> None:
        self.ctx, self.ops = ctx, ops
        self.cfg, self.ledger = ctx.cfg, ctx.ledger
        self.signal_received: int | None = None
        self.stop_plan: StopPlan | None = None
        self._stop_deadline = 0.0
        self._stop_asked = False  # the ranks call planned_stop_due: a stop gets a checkpoint
        self._stop_trigger_time: float | None = None  # when the pending stop was first asked for
        self._stop_grace_s = ctx.cfg.grace_period_s  # this stop's grace (shorter after a SIGTERM)
        self._done_requests: set[str] = set()
        self.peer_drained = False  # the next round goes on without a node an operator drained
        self.cloud_notices: Any = None  # launch's CloudNotices: a notice is a preemption too

    def on_signal(self, signum: int, frame: Any) -> None:
        """SIGTERM, SIGUSR1, SIGUSR2: the scheduler warns of a preemption (Slurm's --signal, a
        time limit or `scontrol requeue`, a pod's deletion). Only a flag here; the monitor loop
        plans the stop. Slurm signals the ranks too: bootstrap.SigtermHandler keeps them alive
        for the checkpoint."""
        self.signal_received = signum

    def _stop_step(self) -> int:
        """The last step any rank finished (-1 without step data): the ranks save at their next
        agreed check after it (Runtime.planned_stop_due decides that collectively)."""
        wd = self.ctx.watchdog
        if wd is None or not wd.step_durations:
            return -1
        return max(s.step for s in wd.ranks.values())

    def _lifecycle_seen(self, phase: str, *, unknown: bool) -> bool:
        """Whether any rank of this attempt reported a lifecycle `phase` (read via the ledger).
        When the ledger cannot say (a locked or broken database), the answer is `unknown`,
        the safe one for the caller, and a WARNING says so: for `stop_checks` that is True
        (ask the ranks to checkpoint and wait up to the grace period: a script that never
        asks costs that wait, never a checkpoint), for `stop_signal` False (no preemption
        invented)."""
        self.ops.ingest(force=True)
        try:
            return self.ledger.lifecycle_seen(self.ctx.attempt, phase)
        except Exception as e:
            _log.warning(
                f"could not read whether a rank reported {phase} ({e!r}); taking "
                f"{'yes' if unknown else 'no'}"
            )
            return unknown

    def _trigger(self, result: RunResult) -> tuple[str, str | None, str, str] | None:
        """(kind, host, reason, request id) of a stop to plan now, if any."""
        from torch.distributed.elastic.agent.server.api import WorkerState

        if self.signal_received is not None:
            name = signal.Signals(self.signal_received).name
            return "preempt", None, f"{name} from the scheduler", f"signal-{name}"
        notice = self.cloud_notices.notice() if self.cloud_notices is not None else None
        if notice is not None:  # the cloud's own warning: as the scheduler's signal
            return "preempt", None, notice.reason, f"cloud-{notice.provider}"
        # SIGTERM to the ranks only (the scheduler signalled them, not us): they saved and left
        if result.state == WorkerState.SUCCEEDED and self._lifecycle_seen(
            "stop_signal", unknown=False
        ):
            return "preempt", None, "SIGTERM to the ranks", "signal-ranks"
        reqs = pending_requests(self.cfg.run_dir.root, self._done_requests)
        if reqs:
            r = reqs[0]
            return r["kind"], r.get("host"), r.get("reason") or "", r["id"]
        return None

    def _notice_left_s(self) -> float | None:
        """Seconds the cloud's notice leaves before it acts, counted from when it was seen."""
        notice = self.cloud_notices.notice() if self.cloud_notices is not None else None
        return notice.seconds_left if notice is not None else None

    def _refuse(self, worker_group: WorkerGroup, rid: str, why: str) -> None:
        """A request that cannot be carried out: recorded (once, by the first node's agent),
        printed, and never turned into something else."""
        self._done_requests.add(rid)
        if worker_group.group_rank in (0, None):
            self.ledger.add_action(
                attempt=self.ctx.attempt,
                time_s=time.time(),
                action="planned_stop_failed",
                host=self.cfg.host,
                reason=f"{why} [{rid}]",
            )
        req = self.cfg.run_dir.control / f"request-{rid}.json"
        with contextlib.suppress(OSError):
            req.rename(req.with_suffix(".refused"))
        _log.info(f"request {rid} refused: {why}")

    def _check_drain(
        self, worker_group: WorkerGroup, kind: str, host: str | None, reason: str, rid: str
    ) -> tuple[str, str] | None:
        """A drain names a host of this job, and leaves enough nodes to train; one that leaves
        too few becomes a stop after a checkpoint (exit 75: requeue the job elsewhere).
        Returns the (kind, reason) to plan (kind `wait`: not known yet), or None when refused."""
        wd = self.ctx.watchdog
        hosts = sorted({s.host for s in wd.ranks.values() if s.host}) if wd else []
        if not hosts:
            return "wait", reason  # no rank has reported yet
        if host not in hosts:
            self._refuse(
                worker_group,
                rid,
                f"drain of unknown host {host!r}: this job's hosts "
                f"are {', '.join(hosts)}; nothing was stopped",
            )
            return None
        from nonstop.supervisor import torch_compat

        min_nodes = torch_compat.rendezvous_min_nodes(worker_group.spec.rdzv_handler)
        left = len(hosts) - 1
        if left < min_nodes:
            return "preempt", (
                f"drain of {host} leaves {left} node(s) to train on, fewer "
                f"than --nnodes allows ({min_nodes}); {reason}".rstrip("; ")
            )
        return kind, reason

    def planned(self, worker_group: WorkerGroup, result: RunResult) -> RunResult | None:
        """Plan, wait for and finish a planned stop. The ranks can be asked to checkpoint once
        one of them has called Runtime.planned_stop_due in this attempt (lifecycle
        `stop_checks`, right after its first step): then every rank saves after the same step
        and the stop waits for that, up to --grace-period from the trigger. A SIGTERM (SIGKILL
        follows) that finds no rank asking stops at once; a warning or a request gives them
        ASK_WAIT_S first (a restarted attempt may still be loading), then stops without a
        checkpoint of ours, which loses nothing a checkpoint would have kept: no step of this
        attempt was done, or the script never asks (it resumes from its own checkpoints)."""
        from torch.distributed.elastic.agent.server.api import WorkerState

        root = self.cfg.run_dir.root
        if self.stop_plan is None:
            adopted = read_stop(root, self.ctx.attempt)  # another node may have planned it
            if adopted is not None:
                self.stop_plan = adopted
                self._stop_trigger_time = time.monotonic()
            else:
                trigger = self._trigger(result)
                if trigger is None:
                    return None
                kind, host, reason, rid = trigger
                if self._stop_trigger_time is None:
                    self._stop_trigger_time = time.monotonic()
                if kind == "drain":
                    checked = self._check_drain(worker_group, kind, host, reason, rid)
                    if checked is None or checked[0] == "wait":
                        self._stop_trigger_time = None
                        return None
                    kind, reason = checked
                waited = time.monotonic() - self._stop_trigger_time
                left = self._notice_left_s()
                urgent = rid in ("signal-SIGTERM", "signal-ranks") or (
                    left is not None and left < 2 * ASK_WAIT_S
                )
                asked = self._lifecycle_seen("stop_checks", unknown=True)
                if (
                    not asked
                    and result.state == WorkerState.HEALTHY
                    and (
                        waited < (2.0 if urgent else min(ASK_WAIT_S, self.cfg.grace_period_s))
                        and (self._stop_step() >= 0 or not urgent)
                    )
                ):
                    return None  # the first step's `stop_checks` may be on its way
                plan = StopPlan(
                    attempt=self.ctx.attempt,
                    step=self._stop_step(),
                    kind=kind,
                    host=host,
                    reason=reason,
                    request_id=rid,
                    time=time.time(),
                )
                self.stop_plan = claim_stop(root, plan)
            p = self.stop_plan
            assert self._stop_trigger_time is not None
            self._stop_grace_s = self.cfg.grace_period_s
            if p.request_id in ("signal-SIGTERM", "signal-ranks"):  # SIGKILL follows: sooner
                # --sigterm-grace (the scheduler's SIGKILL delay: Slurm's KillWait), while
                # --grace-period stays sized for a warning (SIGUSR1 300 s ahead) or a drain
                sigkill_s = self.cfg.sigterm_grace_s or math.inf
                self._stop_grace_s = min(self._stop_grace_s, sigkill_s)
            left = self._notice_left_s()
            if p.request_id.startswith("cloud-") and left is not None:  # the cloud acts then
                self._stop_grace_s = min(self._stop_grace_s, max(1.0, left - NOTICE_MARGIN_S))
            self._stop_deadline = self._stop_trigger_time + self._stop_grace_s
            self._stop_asked = self._lifecycle_seen("stop_checks", unknown=True)
            after = f" after step {p.step}" if p.step >= 0 else ""
            self.ledger.add_action(
                attempt=self.ctx.attempt,
                time_s=time.time(),
                action="planned_stop",
                host=p.host,
                reason=f"{p.kind}{after}: {p.reason} [{p.request_id}]",
            )
            then = "stops" if p.kind == "preempt" else "the job restarts"
            if self._stop_asked:
                _log.info(
                    f"planned {p.kind} ({p.reason}): every rank checkpoints "
                    f"at its next step boundary, then {then}"
                )
        p = self.stop_plan
        done = result.state == WorkerState.SUCCEEDED
        late = time.monotonic() > self._stop_deadline
        if not (done or late or result.state == WorkerState.FAILED or not self._stop_asked):
            return None
        self._stop_trigger_time = None
        return self._finish_planned(worker_group, p, result)

    def _finish_planned(self, worker_group: WorkerGroup, p: Any, result: RunResult) -> RunResult:
        from torch.distributed.elastic.agent.server.api import RunResult, WorkerState
        from torch.distributed.elastic.multiprocessing.errors import ProcessFailure

        from nonstop.supervisor.policy import EXIT_DRAINED, EXIT_FAILED, EXIT_REQUEUE

        clean = result.state == WorkerState.SUCCEEDED
        asked = self._stop_asked
        now = time.time()
        if not clean:
            self.ops.stop_workers(worker_group)
        self.ledger.attempt_ended(self.ctx.attempt, time_s=now, outcome="planned")
        mine = p.kind == "drain" and p.host == self.cfg.host
        leaves = p.kind == "preempt" or mine
        self.ops.ingest(force=True)
        saved = None
        # the step the ranks agreed to stop after, and the newest checkpoint, for the message
        with log.swallowed(_log, "reading the stop step (the message below may name none)"):
            last = self.ledger.last_step(self.ctx.attempt)
            p = dataclasses.replace(p, step=last) if last is not None else p
            saved = self.ledger.last_committed_step()
        what = f"planned {p.kind}" + (f" after step {p.step}" if p.step >= 0 else "")
        since = f"step {saved}" if saved is not None else "the start"
        if clean:
            lost = resume = ""
        elif not asked:
            lost = (
                "the script cannot be asked to checkpoint (no rank has called "
                "nonstop.runtime's planned_stop_due in this attempt), so its ranks were "
                "stopped without one"
            )
            resume = "from the script's own last checkpoint, if any"
        else:
            cause = (
                f"the grace period ({self._stop_grace_s:g} s, --grace-period) ran out"
                if time.monotonic() > self._stop_deadline
                else "a rank failed"
            )
            lost = (
                f"{cause} before every rank had checkpointed, so its ranks were stopped; "
                f"the steps since the last checkpoint ({since}) are lost"
            )
            resume = f"from the last checkpoint ({since})"
        if worker_group.group_rank in (0, None):  # one interruption, one row (not one a node)
            self.ledger.add_failure(
                attempt=self.ctx.attempt,
                time_s=p.time,
                # an operator's drain is maintenance of that host; a preemption, a cloud's
                # notice or a restart asked for is a planned stop (taxonomy: nothing excluded)
                category="host_maintenance" if p.kind == "drain" else "planned_stop",
                action="exclude_node" if p.kind == "drain" else "restart",
                host=p.host,
                message=f"{what}: {p.reason}" + (f" ({lost})" if lost else ""),
                planned=True,
            )
        self._done_requests.add(p.request_id)
        req = self.cfg.run_dir.control / f"request-{p.request_id}.json"
        with contextlib.suppress(OSError):
            req.rename(req.with_suffix(".done"))
        failed = bool(lost) and asked  # a checkpoint was asked for and not made
        outcome = "drained" if mine else ("stopped" if leaves else "planned_restart")
        self.ledger.add_action(
            attempt=self.ctx.attempt,
            time_s=time.time(),
            action="planned_stop_failed" if failed else outcome,
            host=self.cfg.host,
            reason=f"{what}: {p.reason}" + (f"; {lost}" if lost else "") + f" [{p.request_id}]",
        )
        if lost:
            _log.info(f"{what} ({p.reason}): {lost}; a restart resumes {resume}")
        self.stop_plan, self.signal_received = None, None
        self.peer_drained = p.kind == "drain" and not mine
        if leaves:
            self.ops.no_more_restarts()
            self.ctx.leaving = mine
            if mine:
                self.ctx.exit_code = EXIT_FAILED if failed else EXIT_DRAINED
                self.ctx.exit_message = f"drained by request: {p.reason}" + (
                    f"; {lost}" if failed else ""
                )
            elif clean:
                self.ctx.exit_code = EXIT_REQUEUE
                self.ctx.exit_message = (
                    f"stopped after a checkpoint at step {p.step} ({p.reason}); "
                    f"requeue the job to resume"
                )
            else:
                self.ctx.exit_code = EXIT_REQUEUE
                self.ctx.exit_message = (
                    f"stopped ({p.reason}) without the planned checkpoint; "
                    f"requeue the job to resume {resume}"
                )
            if clean and not mine:
                return result  # every rank saved and exited 0
            if mine:  # leave now: the others restart without us (no exit barrier with them)
                return RunResult(state=WorkerState.FAILED)
            failures = {
                w.global_rank: ProcessFailure(w.local_rank, int(w.id or 0), -15, "")
                for w in worker_group.workers
            }
            return RunResult(state=WorkerState.FAILED, failures=failures)
        _log.info(f"{what} done; restarting")
        self.ops.restart_workers(worker_group)
        return RunResult(state=WorkerState.HEALTHY)
