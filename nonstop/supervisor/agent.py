"""The node agent: torch's LocalElasticAgent, with detection, evidence, decisions and a ledger.

torch.distributed.elastic does the process management, rendezvous (c10d) and restarts; this
subclass hooks its steps:

    _rendezvous / _start_workers / _stop_workers   timed into the ledger's restart timeline;
                                                   each start is a new attempt number
    _monitor_workers                                tails the ranks' events into the watchdog;
                                                   on a hang or a failed worker: evidence,
                                                   classification, health checks, action

Actions: restart (torch's own restart, counted against --max-restarts), exclude_node (stop
here with EXIT_EXCLUDE so the scheduler replaces the node; peers go on when --nnodes allows),
stop_and_page (stop with EXIT_PAGE and a clear message).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torch.distributed.elastic.agent.server.api import RunResult, WorkerGroup, WorkerState
from torch.distributed.elastic.agent.server.local_elastic_agent import LocalElasticAgent
from torch.distributed.elastic.multiprocessing.errors import ProcessFailure

from nonstop import rundir, taxonomy
from nonstop.diagnose import kernel_log
from nonstop.events import EventWarning, ReadStats, iter_events
from nonstop.ledger import Ledger, ingest_run
from nonstop.runtime.guards import EXIT_ROLLBACK, read_anomalies
from nonstop.supervisor import bootstrap, torch_compat
from nonstop.supervisor.health import HealthConfig, run_checks
from nonstop.supervisor.live_settings import LiveSettings, describe
from nonstop.supervisor.planned_stop import StopPlan
from nonstop.supervisor.policy import Decision, FailureInfo, Policy, classify, signal_name
from nonstop.supervisor.standby import StandbyContext, StandbyPool
from nonstop.supervisor.watchdog import Hang, Learned, Watchdog, learned_path
from nonstop.supervisor.worker_logs import RunDirLogs

DRAIN_LAST_CALL_S = 1.0  # after a peer's drain, the rendezvous waits this long, not 30 s
# only echoes of a peer's failure exited: how long the still-running ranks get to exit with
# their own status before torch stops them (the culprit is often still tearing down)
CULPRIT_WAIT_S = 3.0
ASK_WAIT_S = 30.0  # a planned stop waits this long for ranks that can be asked to checkpoint

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_PAGE = 3  # stopped on a deterministic failure: a human must look
EXIT_REQUEUE = 75  # EX_TEMPFAIL: planned stop after a checkpoint; requeue the job
EXIT_EXCLUDE = 93  # this node is bad: do not requeue the job on it (as nvidia-resiliency-ext)
EXIT_DRAINED = 0  # this node was drained by an operator: the job goes on without it
STRAGGLER_CHECK_STEPS = 20  # online straggler scores every this many steps

# Categories after which the collective self-test is worth its seconds (1.5-3.5 s on CPU):
# hardware, hangs and network. Not after an unexplained exit: a bad node shows up again at the
# next attempt, and torchrun's plain restart is the bar to beat on recovery time.
SELF_TEST_AFTER = {c.id for c in taxonomy.CATEGORIES if c.hardware} | {
    "nccl_watchdog_timeout", "hang", "network_switch_cable",
}  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class SupervisorConfig:
    """What `nonstop run`'s flags resolve to for one node's agent."""

    run_dir: rundir.RunDir
    """The run directory (shared by every node)."""
    run_id: str
    """The run id (the folder name)."""
    host: str
    """This node's name in the ledger (--host-name, $NONSTOP_HOST or the hostname)."""
    hang_timeout_s: float | None = None
    """Seconds without progress that make a hang; None learns it (--hang-timeout auto)."""
    startup_timeout_s: float = 300.0
    """Seconds allowed before the first progress of an attempt."""
    section_timeout_s: float = 1800.0
    """Seconds a named section (checkpoint, eval) may take."""
    evidence_timeout_s: float = 3.0
    """Seconds to wait for live ranks' flight-recorder dumps and stacks."""
    health_checks: tuple[str, ...] = ("disk", "memory", "gpu")
    """Checks run between attempts (nonstop.supervisor.health.CHECKS)."""
    self_test: bool = True
    """Add the collective self-test after hardware, hang and network failures."""
    health_timeout_s: float = 60.0
    """Timeout of each health check."""
    exclude: bool = True
    """Allow exclude_node (exit 93); False restarts instead."""
    faults: str = ""
    """Injected faults for the workers ($NONSTOP_FAULTS)."""
    multi_node: bool = False
    """More than one node may join (--nnodes MAX > 1)."""
    grace_period_s: float = 120.0
    """Time for every rank to checkpoint after a preemption signal or a drain/restart."""
    standby_wait_s: float = 15.0
    """How long a start waits for standbys still importing before it spawns cold."""


TORCH_BOILERPLATE = "To enable traceback see"


def failure_message(failure: ProcessFailure, log: Path) -> str:
    """One failed rank in words: the exception from its error file (torch keeps the file's
    JSON as a dict; its "message" is "RuntimeError: boom"), else, where torch has only its
    boilerplate ("To enable traceback see: https://..."), the rank's own last log line."""
    m: Any = failure.message
    if isinstance(m, dict):
        return str(m.get("message") or "")
    text = str(m or "")
    if text and not text.startswith(TORCH_BOILERPLATE):
        return text
    with contextlib.suppress(OSError):
        with open(log, "rb") as f:
            f.seek(max(0, log.stat().st_size - 4096))
            lines = [ln.strip() for ln in f.read().decode(errors="replace").splitlines()]
        last = [ln for ln in lines if ln]
        if last:
            return f"last output: {last[-1][:300]}"
    return text


def close_abandoned(ledger: Ledger, *, before: int) -> None:
    """Close attempts left open by a supervisor that was killed: an interruption detected now,
    its progress ending at the last step or lifecycle event the ledger has."""
    for (attempt,) in ledger.rows(
        "SELECT attempt FROM attempts WHERE end_time IS NULL AND attempt < ?", (before,)
    ):
        seen = ledger.rows(
            "SELECT MAX(t) FROM (SELECT MAX(end) AS t FROM steps WHERE attempt = ?"
            " UNION ALL SELECT MAX(time) FROM lifecycle WHERE attempt = ?)", (attempt, attempt),
        )[0][0]  # fmt: skip
        now = time.time()
        t = float(seen) if seen is not None else now
        ledger.attempt_ended(attempt, time_s=t, outcome="failed")
        ledger.add_detection(attempt=attempt, kind="supervisor_restart", detection_time_s=now,
                             last_progress_time_s=t)  # fmt: skip
        ledger.add_failure(attempt=attempt, time_s=t, category="unknown", action="restart",
                           message="the supervisor stopped during this attempt (killed?); "
                                   "a new `nonstop run` resumed the run")  # fmt: skip


class NonstopAgent(LocalElasticAgent):
    def __init__(self, *, spec: Any, logs: RunDirLogs, start_method: str, cfg: SupervisorConfig,
                 ledger: Ledger, first_attempt: int, live: Any = None,
                 metrics: Any = None, standbys: StandbyPool | None = None) -> None:  # fmt: skip
        super().__init__(spec=spec, logs_specs=logs, start_method=start_method)
        self.cfg, self.ledger, self.logs, self.live = cfg, ledger, logs, live
        self.metrics = metrics
        self.signal_received: int | None = None
        self.stop_plan: StopPlan | None = None
        self._stop_deadline = 0.0
        self._stop_asked = False  # the ranks call planned_stop_due: a stop gets a checkpoint
        self._stop_trigger_time: float | None = None  # when the pending stop was first asked for
        self._stop_grace_s = cfg.grace_period_s  # this stop's grace (shorter after a SIGTERM)
        self._done_requests: set[str] = set()
        self.stragglers: Any = None
        self._straggler_step = 0
        self._flagged: set[int] = set()
        self.attempt = first_attempt - 1
        self.first_attempt = first_attempt
        # the same-bug-twice memory outlives this supervisor (a resumed run reads it back)
        self.policy = Policy(path=cfg.run_dir.control / "policy.json")
        self.exit_code: int | None = None
        self.exit_message = ""
        self.leaving = False
        """True when this node leaves a job that goes on (excluded or drained): the rendezvous
        must stay open for the others."""
        self.watchdog: Watchdog | None = None
        self.offsets: dict[Path, int] = {}
        self.last_decision: Decision | None = None
        self.t_start = time.time()
        self.attempt_start = self.t_start
        self._last_ingest = 0.0
        self._pending_restart: float | None = None
        self.standbys = standbys
        self.restart_path = "cold"
        self._cold_why = ""
        self._culprit_deadline: float | None = None
        self._rendezvoused = False
        self._peer_drained = False  # the next round goes on without a node an operator drained
        self.settings = LiveSettings(cfg.run_dir.root)  # `nonstop ctl`: applied without restart
        self._hang_timeout_s = cfg.hang_timeout_s
        self._learned_saved: dict[str, Any] | None = None
        self._straggler_every = STRAGGLER_CHECK_STEPS
        if standbys is not None:
            standbys.fill()  # they import while the rendezvous runs

    # -- lifecycle hooks -------------------------------------------------------------------

    def _rendezvous(self, worker_group: WorkerGroup) -> None:
        t0 = time.time()
        with contextlib.ExitStack() as stack:
            if self._rendezvoused:
                stack.enter_context(torch_compat.no_first_round_skew())
            if self._peer_drained:
                stack.enter_context(
                    torch_compat.short_last_call(worker_group.spec.rdzv_handler, DRAIN_LAST_CALL_S)
                )
            super()._rendezvous(worker_group)
        self._rendezvoused, self._peer_drained = True, False
        self._agree_attempt(worker_group)
        self._phase("rendezvous", t0)

    def _agree_attempt(self, worker_group: WorkerGroup) -> None:
        """Every node's agent numbers attempts itself; a node that joined later (a spare, or one
        that missed the first round) would count differently, and the ranks of one job would
        read different stop plans and write to different attempt directories. After each
        rendezvous the agents agree on the highest candidate through the round's store."""
        n, me, store = worker_group.group_world_size, worker_group.group_rank, worker_group.store
        if n <= 1 or store is None:
            return
        try:
            store.set(f"nonstop/attempt/{me}", str(self.attempt + 1))
            agreed = max(int(store.get(f"nonstop/attempt/{i}")) for i in range(n))
        except Exception as e:  # keep our own number rather than fail the job
            print(f"nonstop run: could not agree on the attempt number ({e!r})", flush=True)
            return
        self.attempt = agreed - 1
        if me == 0:  # every member stopped its last attempt before joining: open ones are orphans
            with contextlib.suppress(Exception):
                close_abandoned(self.ledger, before=agreed)

    def _restart_workers(self, worker_group: WorkerGroup) -> None:
        """torchrun restarts a healthy group when a node joins (a spare, a returning node): the
        attempt ends without a failure; it was not counted anywhere before."""
        with contextlib.suppress(Exception):
            (end,) = self.ledger.rows("SELECT end_time FROM attempts WHERE attempt = ?",
                                      (self.attempt,))[0]  # fmt: skip
            if end is None:
                now = time.time()
                self.ledger.attempt_ended(self.attempt, time_s=now, outcome="resized")
                self.ledger.add_action(attempt=self.attempt, time_s=now,
                                       action="membership_change", host=self.cfg.host,
                                       reason="a node joined the rendezvous: the job restarts "
                                              "with it from the last checkpoint")  # fmt: skip
        super()._restart_workers(worker_group)

    def _start_workers(self, worker_group: WorkerGroup) -> dict[int, Any]:
        t0 = time.time()
        self.attempt += 1
        self.logs.attempt = self.attempt
        env = {
            rundir.ENV_ATTEMPT: str(self.attempt),
            rundir.ENV_RUN_DIR: str(self.cfg.run_dir.root.resolve()),
            rundir.ENV_RUN_ID: self.cfg.run_id,
            rundir.ENV_HOST: self.cfg.host,
            bootstrap.ENV_MERGE_STDERR: "1",
        }
        if self.cfg.faults:
            env["NONSTOP_FAULTS"] = self.cfg.faults
        mtbi = self._observed_mtbi_s()
        if mtbi is not None:  # checkpoint interval `auto` (Daly) learns from the ledger
            env["NONSTOP_MTBI_S"] = f"{mtbi:.1f}"
        os.environ.update(env)
        workers = worker_group.workers
        world = workers[0].world_size if workers else 0
        start = self.t_start if self.attempt == self.first_attempt else t0
        self.attempt_start = start
        nodes = sorted({self.cfg.host}) if not self.cfg.multi_node else None
        self.ledger.attempt_started(self.attempt, time_s=start, world_size=world, nodes=nodes)
        self._save_learned()  # what the last attempt taught, before it is replaced
        self.watchdog = Watchdog(
            ranks=list(range(world)), hang_timeout_s=self._hang_timeout_s,
            startup_timeout_s=self.cfg.startup_timeout_s,
            section_timeout_s=self.cfg.section_timeout_s,
            learned=Learned.load(learned_path(self.cfg.run_dir.root)),
        )  # fmt: skip
        self.offsets = {}
        self._culprit_deadline = None
        from nonstop.diagnose.stragglers import StragglerDetector

        # online: stricter than the offline default (0.85, 2 checks), because ranks sharing
        # a loaded host jitter; a 1.3x-slow rank (score 0.77) is still flagged
        self.stragglers = StragglerDetector(threshold=0.8, patience=3)
        self._straggler_step, self._flagged = 0, set()
        self.restart_path = "cold"
        with torch_compat.start_processes_through(self._spawn_or_hand_over):
            pids = super()._start_workers(worker_group)
        self._guard_teardown()
        self._phase("handover" if self.restart_path == "warm" else "spawn", t0)
        with contextlib.suppress(Exception):
            self.ledger.set_restart_path(self.attempt, self.restart_path)
        if self.live is not None:
            self.live.attempt_started(self.attempt, world)
        return pids

    def _spawn_or_hand_over(self, **kwargs: Any) -> Any:
        """torchrun's start_processes, with ready standbys in place of new processes."""
        pool = self.standbys
        if pool is not None:
            pool.fill()  # short after a quick failure: waiting for new ones costs no more than cold
        standbys, why = (None, "standbys off") if pool is None else pool.take(
            len(kwargs["args"]), wait_s=self.cfg.standby_wait_s)  # fmt: skip
        if standbys is None:
            if why != self._cold_why:  # said once, not at every restart
                print(f"nonstop run: cold start of attempt {self.attempt}: {why}", flush=True)
                self._cold_why = why
            return torch_compat.start_processes(**kwargs)
        kwargs.pop("start_method", None)
        kwargs.pop("numa_options", None)
        ctx = StandbyContext(standbys, **kwargs)
        ctx.start()
        self.restart_path = "warm"
        return ctx

    def _refill_standbys(self) -> None:
        """Replace the standbys that took over once the new attempt trains (their imports
        would otherwise compete with the restart for the CPU), or 10 s after it started."""
        pool, wd = self.standbys, self.watchdog
        if pool is None or not pool.short:
            return
        training = wd is not None and bool(wd.step_durations)
        if training or time.time() - self.attempt_start > min(10.0, self.cfg.startup_timeout_s):
            pool.fill()

    def _stop_workers(self, worker_group: WorkerGroup, *args: Any, **kwargs: Any) -> None:
        t0 = time.time()
        super()._stop_workers(worker_group, *args, **kwargs)
        self._phase("teardown", t0)

    def _phase(self, phase: str, t0: float) -> None:
        attempt = self.attempt + (1 if phase == "rendezvous" else 0)
        with contextlib.suppress(Exception):
            self.ledger.add_restart_phase(attempt=attempt, phase=phase, start_s=t0,
                                          end_s=time.time())  # fmt: skip

    # -- monitoring ------------------------------------------------------------------------

    def _monitor_workers(self, worker_group: WorkerGroup) -> RunResult:
        if self._awaiting_culprit(worker_group):
            return RunResult(state=WorkerState.HEALTHY)
        result = super()._monitor_workers(worker_group)
        self._apply_settings()
        self._poll_events()
        self._note_exited(worker_group)
        kernel_log.poll_for(self, self.cfg.run_dir.root, self.cfg.host)  # cheap, rate-limited
        self._refill_standbys()
        try:
            planned = self._planned(worker_group, result)
        except Exception as e:
            print(f"nonstop run: internal error in a planned stop ({e!r})", flush=True)
            planned = None
        if planned is not None:
            return planned
        try:
            if result.state == WorkerState.HEALTHY and self.watchdog is not None:
                hang = self.watchdog.check()
                if hang is not None:
                    result = self._on_hang(worker_group, hang) or result
            elif result.state == WorkerState.FAILED:
                self._on_failure(worker_group, result)
        except Exception as e:  # our own bug must never cost the job: fall back to torchrun's way
            import traceback

            traceback.print_exc()
            print(f"nonstop run: internal error while handling a failure ({e!r}); "
                  "falling back to a plain restart", flush=True)  # fmt: skip
        if result.state == WorkerState.SUCCEEDED:
            self.ledger.attempt_ended(self.attempt, time_s=time.time(), outcome="succeeded")
            self._ingest(force=True)
        if time.time() - self._last_ingest > 10:
            self._ingest()
        return result

    def _awaiting_culprit(self, worker_group: WorkerGroup) -> bool:
        """Whether to hold torch's reaction to a failure for a moment: every rank that exited
        so far only echoes a peer's failure (gloo's "Connection closed by peer") while other
        ranks still run. The peer that caused it is then usually in its interpreter's teardown
        (a `sys.exit(3)` takes longer to finish than its peers' exit after the error), and
        torch would SIGTERM it now, losing its exit status and its last words: the failure
        would be recorded as nobody's. Waits at most CULPRIT_WAIT_S per attempt."""
        codes = torch_compat.subprocess_exit_codes(self)
        if not codes:
            return False
        failed = [lr for lr, c in codes.items() if c not in (None, 0)]
        running = [lr for lr, c in codes.items() if c is None]
        if not failed or not running:
            return False
        now = time.monotonic()
        if self._culprit_deadline is None:
            workers = worker_group.workers
            for lr in failed:
                rank = workers[lr].global_rank if lr < len(workers) else lr
                info = FailureInfo(
                    rank=rank,
                    host=self.cfg.host,
                    exit_code=codes[lr],
                    log_path=self.cfg.run_dir.log(self.attempt, rank),
                )
                if classify(info).root_cause:
                    self._culprit_deadline = now  # the cause is known: no wait
                    return False
            self._culprit_deadline = now + CULPRIT_WAIT_S
        return now < self._culprit_deadline

    def _apply_settings(self) -> None:
        """`nonstop ctl RUN set ...`: apply this node's share (hang timeout, straggler interval)
        to the running attempt, and record the version in the ledger."""
        try:
            got = self.settings.poll()
            if got is None:
                return
            version, changed = got
            if "hang_timeout" in changed:
                self._hang_timeout_s = changed["hang_timeout"]
                if self.watchdog is not None:
                    self.watchdog.hang_timeout_s = self._hang_timeout_s
            if "straggler_every" in changed:
                self._straggler_every = int(changed["straggler_every"])
            what = describe(changed) or "(no change)"
            self.ledger.add_action(attempt=self.attempt, time_s=time.time(), action="reconfigure",
                                   host=self.cfg.host, reason=f"{what} [settings v{version}]")  # fmt: skip
            print(f"nonstop run: settings v{version} applied: {what}", flush=True)
        except Exception as e:  # a bad settings file must never cost the job
            print(f"nonstop run: could not apply live settings ({e!r})", flush=True)

    def _poll_events(self) -> None:
        if self.watchdog is None:
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EventWarning)
            # while this node's new standbys import, its ranks share the CPU with them: their
            # step times say nothing about the ranks (a problem on small hosts only)
            busy = self.standbys is not None and self.standbys.importing
            for rank in self.watchdog.ranks:
                path = self.cfg.run_dir.events(self.attempt, rank)
                if not path.exists():
                    continue
                stats = ReadStats()
                start = self.offsets.get(path, 0)
                for event in iter_events(path, start_offset=start, stats=stats):
                    self.watchdog.observe(event)
                    if self.live is not None and rank == 0:
                        self.live.observe(event)
                    if self.metrics is not None:
                        self.metrics.observe(event)
                    if self.stragglers is not None and event.kind == "step" and not busy:
                        self.stragglers.feed(event)
                        if rank == 0:
                            self._straggler_step += 1
                self.offsets[path] = stats.end_offset
        if self.stragglers is not None and self._straggler_step >= self._straggler_every:
            self._straggler_step = 0
            self._check_stragglers()

    def _check_stragglers(self) -> None:
        """Online straggler scores (nonstop.diagnose): a newly flagged rank is recorded as a
        detection of kind `straggler`; it slows the job but is not a failure."""
        report = self.stragglers.check()
        # only ranks slower than their peers: a whole job slowing down together (a busy
        # machine, a slow phase) is not a straggler
        slower = {s.rank for s in report.scores
                  if s.rank in report.flagged_ranks and s.relative < self.stragglers.threshold}  # fmt: skip
        for rank in sorted(slower - self._flagged):
            self._flagged.add(rank)
            st = self.watchdog.ranks.get(rank) if self.watchdog else None
            self.ledger.add_detection(
                attempt=self.attempt, kind="straggler", detection_time_s=time.time(), rank=rank,
                host=st.host if st else None,
            )  # fmt: skip
            print(f"nonstop run: rank {rank} is a straggler (scores below "
                  f"{self.stragglers.threshold})", flush=True)  # fmt: skip

    # -- planned interruptions (nonstop.supervisor.planned_stop) ------------------------------------

    def on_signal(self, signum: int, frame: Any) -> None:
        """SIGTERM, SIGUSR1, SIGUSR2: the scheduler warns of a preemption (Slurm's --signal, a
        time limit or `scontrol requeue`, a pod's deletion). Only a flag here; the monitor loop
        plans the stop. Slurm signals the ranks too: bootstrap.SigtermHandler keeps them alive
        for the checkpoint."""
        self.signal_received = signum

    def _guard_teardown(self) -> None:
        """Mark every stop of our own ranks (torch's teardown, restart or shutdown, and the
        process context stopping the rest after one rank failed) before its SIGTERM, so that
        the ranks die at once instead of taking it for the scheduler's warning."""
        from nonstop.supervisor.planned_stop import mark_teardown

        root, host, attempt = self.cfg.run_dir.root, self.cfg.host, self.attempt
        torch_compat.before_close(self, lambda: mark_teardown(root, host, attempt))

    def _stop_step(self) -> int:
        """The last step any rank finished (-1 without step data): the ranks save at their next
        agreed check after it (Runtime.planned_stop_due decides that collectively)."""
        wd = self.watchdog
        if wd is None or not wd.step_durations:
            return -1
        return max(s.step for s in wd.ranks.values())

    def _lifecycle_seen(self, phase: str) -> bool:
        """Whether any rank of this attempt reported a lifecycle `phase` (read via the ledger)."""
        self._ingest(force=True)
        try:
            rows = self.ledger.rows("SELECT COUNT(*) FROM lifecycle WHERE attempt = ? AND phase = ?",
                                    (self.attempt, phase))  # fmt: skip
        except Exception:
            return False
        return bool(rows[0][0])

    def _trigger(self, result: RunResult) -> tuple[str, str | None, str, str] | None:
        """(kind, host, reason, request id) of a stop to plan now, if any."""
        if self.signal_received is not None:
            name = signal.Signals(self.signal_received).name
            return "preempt", None, f"{name} from the scheduler", f"signal-{name}"
        # SIGTERM to the ranks only (the scheduler signalled them, not us): they saved and left
        if result.state == WorkerState.SUCCEEDED and self._lifecycle_seen("stop_signal"):
            return "preempt", None, "SIGTERM to the ranks", "signal-ranks"
        from nonstop.supervisor.planned_stop import pending_requests

        reqs = pending_requests(self.cfg.run_dir.root, self._done_requests)
        if reqs:
            r = reqs[0]
            return r["kind"], r.get("host"), r.get("reason") or "", r["id"]
        return None

    def _refuse(self, worker_group: WorkerGroup, rid: str, why: str) -> None:
        """A request that cannot be carried out: recorded (once, by the first node's agent),
        printed, and never turned into something else."""
        self._done_requests.add(rid)
        if worker_group.group_rank in (0, None):
            self.ledger.add_action(attempt=self.attempt, time_s=time.time(),
                                   action="planned_stop_failed", host=self.cfg.host,
                                   reason=f"{why} [{rid}]")  # fmt: skip
        req = self.cfg.run_dir.control / f"request-{rid}.json"
        with contextlib.suppress(OSError):
            req.rename(req.with_suffix(".refused"))
        print(f"nonstop run: request {rid} refused: {why}", flush=True)

    def _check_drain(self, worker_group: WorkerGroup, kind: str, host: str | None,
                     reason: str, rid: str) -> tuple[str, str] | None:  # fmt: skip
        """A drain names a host of this job, and leaves enough nodes to train; one that leaves
        too few becomes a stop after a checkpoint (exit 75: requeue the job elsewhere).
        Returns the (kind, reason) to plan (kind `wait`: not known yet), or None when refused."""
        wd = self.watchdog
        hosts = sorted({s.host for s in wd.ranks.values() if s.host}) if wd else []
        if not hosts:
            return "wait", reason  # no rank has reported yet
        if host not in hosts:
            self._refuse(worker_group, rid, f"drain of unknown host {host!r}: this job's hosts "
                                            f"are {', '.join(hosts)}; nothing was stopped")  # fmt: skip
            return None
        min_nodes = torch_compat.rendezvous_min_nodes(worker_group.spec.rdzv_handler)
        left = len(hosts) - 1
        if left < min_nodes:
            return "preempt", (f"drain of {host} leaves {left} node(s) to train on, fewer "
                               f"than --nnodes allows ({min_nodes}); {reason}".rstrip("; "))  # fmt: skip
        return kind, reason

    def _planned(self, worker_group: WorkerGroup, result: RunResult) -> RunResult | None:
        """Plan, wait for and finish a planned stop. The ranks can be asked to checkpoint once
        one of them has called Runtime.planned_stop_due in this attempt (lifecycle
        `stop_checks`, right after its first step): then every rank saves after the same step
        and the stop waits for that, up to --grace-period from the trigger. A SIGTERM (SIGKILL
        follows) that finds no rank asking stops at once; a warning or a request gives them
        ASK_WAIT_S first (a restarted attempt may still be loading), then stops without a
        checkpoint of ours, which loses nothing a checkpoint would have kept: no step of this
        attempt was done, or the script never asks (it resumes from its own checkpoints)."""
        from nonstop.supervisor.planned_stop import StopPlan, claim_stop, read_stop, sigterm_grace_s

        root = self.cfg.run_dir.root
        if self.stop_plan is None:
            adopted = read_stop(root, self.attempt)  # another node may have planned it
            if adopted is not None:
                self.stop_plan = adopted
                self._stop_trigger_time = time.time()
            else:
                trigger = self._trigger(result)
                if trigger is None:
                    return None
                kind, host, reason, rid = trigger
                if self._stop_trigger_time is None:
                    self._stop_trigger_time = time.time()
                if kind == "drain":
                    checked = self._check_drain(worker_group, kind, host, reason, rid)
                    if checked is None or checked[0] == "wait":
                        self._stop_trigger_time = None
                        return None
                    kind, reason = checked
                waited = time.time() - self._stop_trigger_time
                urgent = rid in ("signal-SIGTERM", "signal-ranks")
                asked = self._lifecycle_seen("stop_checks")
                if not asked and result.state == WorkerState.HEALTHY and (
                    waited < (2.0 if urgent else min(ASK_WAIT_S, self.cfg.grace_period_s))
                    and (self._stop_step() >= 0 or not urgent)
                ):  # fmt: skip
                    return None  # the first step's `stop_checks` may be on its way
                plan = StopPlan(attempt=self.attempt, step=self._stop_step(), kind=kind,
                                host=host, reason=reason, request_id=rid, time=time.time())  # fmt: skip
                self.stop_plan = claim_stop(root, plan)
            p = self.stop_plan
            assert self._stop_trigger_time is not None
            self._stop_grace_s = self.cfg.grace_period_s
            if p.request_id in ("signal-SIGTERM", "signal-ranks"):  # SIGKILL follows: sooner
                self._stop_grace_s = min(self._stop_grace_s, sigterm_grace_s())
            self._stop_deadline = self._stop_trigger_time + self._stop_grace_s
            self._stop_asked = self._lifecycle_seen("stop_checks")
            after = f" after step {p.step}" if p.step >= 0 else ""
            self.ledger.add_action(
                attempt=self.attempt, time_s=time.time(), action="planned_stop", host=p.host,
                reason=f"{p.kind}{after}: {p.reason} [{p.request_id}]",
            )  # fmt: skip
            then = "stops" if p.kind == "preempt" else "the job restarts"
            if self._stop_asked:
                print(f"nonstop run: planned {p.kind} ({p.reason}): every rank checkpoints "
                      f"at its next step boundary, then {then}", flush=True)  # fmt: skip
        p = self.stop_plan
        done = result.state == WorkerState.SUCCEEDED
        late = time.time() > self._stop_deadline
        if not (done or late or result.state == WorkerState.FAILED or not self._stop_asked):
            return None
        self._stop_trigger_time = None
        return self._finish_planned(worker_group, p, result)

    def _finish_planned(self, worker_group: WorkerGroup, p: Any, result: RunResult) -> RunResult:
        clean = result.state == WorkerState.SUCCEEDED
        asked = self._stop_asked
        now = time.time()
        if not clean:
            self._stop_workers(worker_group)
        self.ledger.attempt_ended(self.attempt, time_s=now, outcome="planned")
        mine = p.kind == "drain" and p.host == self.cfg.host
        leaves = p.kind == "preempt" or mine
        self._ingest(force=True)
        saved = None
        with contextlib.suppress(Exception):  # the step the ranks agreed to stop after
            last = self.ledger.rows("SELECT MAX(step) FROM steps WHERE attempt = ?",
                                    (self.attempt,))[0][0]  # fmt: skip
            p = dataclasses.replace(p, step=int(last)) if last is not None else p
            saved = self.ledger.rows("SELECT MAX(step) FROM checkpoints WHERE phase = 'committed'"
                                     )[0][0]  # fmt: skip
        what = f"planned {p.kind}" + (f" after step {p.step}" if p.step >= 0 else "")
        since = f"step {saved}" if saved is not None else "the start"
        if clean:
            lost = resume = ""
        elif not asked:
            lost = ("the script cannot be asked to checkpoint (no rank has called "
                    "nonstop.runtime's planned_stop_due in this attempt), so its ranks were "
                    "stopped without one")  # fmt: skip
            resume = "from the script's own last checkpoint, if any"
        else:
            cause = (f"the grace period ({self._stop_grace_s:g} s, --grace-period) ran out"
                     if now > self._stop_deadline else "a rank failed")  # fmt: skip
            lost = (f"{cause} before every rank had checkpointed, so its ranks were stopped; "
                    f"the steps since the last checkpoint ({since}) are lost")  # fmt: skip
            resume = f"from the last checkpoint ({since})"
        if worker_group.group_rank in (0, None):  # one interruption, one row (not one a node)
            self.ledger.add_failure(
                attempt=self.attempt, time_s=p.time, category="host_maintenance",
                action="exclude_node" if p.kind == "drain" else "restart", host=p.host,
                message=f"{what}: {p.reason}" + (f" ({lost})" if lost else ""),
                planned=True,
            )  # fmt: skip
        self._done_requests.add(p.request_id)
        req = self.cfg.run_dir.control / f"request-{p.request_id}.json"
        with contextlib.suppress(OSError):
            req.rename(req.with_suffix(".done"))
        failed = bool(lost) and asked  # a checkpoint was asked for and not made
        outcome = "drained" if mine else ("stopped" if leaves else "planned_restart")
        self.ledger.add_action(attempt=self.attempt, time_s=time.time(),
                               action="planned_stop_failed" if failed else outcome,
                               host=self.cfg.host,
                               reason=f"{what}: {p.reason}" + (f"; {lost}" if lost else "")
                                      + f" [{p.request_id}]")  # fmt: skip
        if lost:
            print(f"nonstop run: {what} ({p.reason}): {lost}; a restart resumes {resume}",
                  flush=True)  # fmt: skip
        self.stop_plan, self.signal_received = None, None
        self._peer_drained = p.kind == "drain" and not mine
        if leaves:
            torch_compat.no_more_restarts(self)
            self.leaving = mine
            if mine:
                self.exit_code = EXIT_FAILED if failed else EXIT_DRAINED
                self.exit_message = f"drained by request: {p.reason}" + (
                    f"; {lost}" if failed else "")  # fmt: skip
            elif clean:
                self.exit_code = EXIT_REQUEUE
                self.exit_message = (f"stopped after a checkpoint at step {p.step} ({p.reason}); "
                                     f"requeue the job to resume")  # fmt: skip
            else:
                self.exit_code = EXIT_REQUEUE
                self.exit_message = (f"stopped ({p.reason}) without the planned checkpoint; "
                                     f"requeue the job to resume {resume}")  # fmt: skip
            if clean and not mine:
                return result  # every rank saved and exited 0
            if mine:  # leave now: the others restart without us (no exit barrier with them)
                return RunResult(state=WorkerState.FAILED)
            failures = {w.global_rank: ProcessFailure(w.local_rank, int(w.id or 0), -15, "")
                        for w in worker_group.workers}  # fmt: skip
            return RunResult(state=WorkerState.FAILED, failures=failures)
        print(f"nonstop run: {what} done; restarting", flush=True)
        self._restart_workers(worker_group)
        return RunResult(state=WorkerState.HEALTHY)

    def _observed_mtbi_s(self) -> float | None:
        """Mean time between interruptions seen so far in this run, if any were seen."""
        try:
            (n,) = self.ledger.rows(
                "SELECT COUNT(*) FROM failures WHERE root_cause = 1 AND planned = 0"
            )[0]
            (wall,) = self.ledger.rows(
                "SELECT SUM(COALESCE(end_time, start_time) - start_time) FROM attempts"
            )[0]
        except Exception:
            return None
        return float(wall) / n if n and wall else None

    def _note_exited(self, worker_group: WorkerGroup) -> None:
        """Ranks whose process is gone (exited 0 while a peer still runs, say) are done: the
        watchdog allows the others their exit and never names a finished rank."""
        if self.watchdog is None:
            return
        for w in worker_group.workers:
            if w.id is not None and _proc_state(w.id) in (None, "Z"):
                self.watchdog.exited(w.global_rank)

    def _save_learned(self) -> None:
        """The watchdog's learned timeouts, for the next attempt and the next run."""
        if self.watchdog is None:
            return
        snap = dataclasses.asdict(self.watchdog.snapshot())
        if snap == self._learned_saved:
            return  # called at every ingest (10 s): write only what changed
        try:
            self.watchdog.snapshot().save(learned_path(self.cfg.run_dir.root))
            self._learned_saved = snap
        except OSError as e:  # a full disk must not cost the job; the defaults still hold
            print(f"nonstop run: could not keep the learned timeouts ({e})", flush=True)

    def _ingest(self, force: bool = False) -> None:
        self._last_ingest = time.time()
        self._save_learned()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EventWarning)
            try:
                ingest_run(self.cfg.run_dir, self.ledger)
            except Exception as e:  # the ledger must never take the job down
                print(f"nonstop run: could not ingest events: {e}")
        if self.metrics is not None:
            try:
                self.metrics.update_from_ledger(self.ledger)
            except Exception as e:
                print(f"nonstop run: metrics not updated: {e}")
        if self.live is not None:
            self.live.refresh_ledger(self.ledger)

    # -- failures --------------------------------------------------------------------------

    def _fault_time(self, rank: int) -> float | None:
        st = self.watchdog.ranks.get(rank) if self.watchdog else None
        return st.last_event_time if st else None

    def _on_failure(self, worker_group: WorkerGroup, result: RunResult) -> None:
        detect = time.time()
        self._poll_events()  # the ranks' last words: the step each failed at
        infos = []
        for grank, failure in sorted(result.failures.items()):
            st = self.watchdog.ranks.get(grank) if self.watchdog else None
            infos.append(FailureInfo(
                rank=grank, host=self.cfg.host, exit_code=failure.exitcode,
                message=failure_message(failure, self.cfg.run_dir.log(self.attempt, grank)),
                log_path=self.cfg.run_dir.log(self.attempt, grank),
                step=st.step if st else None, attempt=self.attempt,
                progressed=self.watchdog.progressed if self.watchdog else None,
                anomalies=read_anomalies(self.cfg.run_dir.root)  # the guards' rollback records
                if failure.exitcode == EXIT_ROLLBACK else [],
            ))  # fmt: skip
        evidence = self._collect_evidence(worker_group, dead={i.rank for i in infos})
        decisions = []
        # torch's process context SIGTERMs the rest of the group once one worker fails: those
        # ranks are collateral, not causes (unless every rank got SIGTERM from outside)
        term = -int(signal.SIGTERM)
        collateral = {i.rank for i in infos if i.exit_code == term} if any(
            i.exit_code != term for i in infos) else set()  # fmt: skip
        for info in infos:
            d = self.policy.decide(info)
            if info.rank in collateral and d.root_cause:
                d.root_cause = False
                d.reason = f"secondary (stopped by the agent after a peer failed): {d.reason}"
            decisions.append((info, d))
            self.ledger.add_detection(
                attempt=self.attempt, kind="exit", detection_time_s=detect, rank=info.rank,
                host=info.host, last_progress_time_s=self._fault_time(info.rank),
                evidence_path=str(info.log_path),
            )  # fmt: skip
            self.ledger.add_failure(
                attempt=self.attempt, time_s=self._fault_time(info.rank) or detect,
                category=d.category, action=d.action if d.root_cause else "none",
                rank=info.rank, host=info.host, exit_code=info.exit_code,
                signal=signal_name(info.exit_code), message=d.reason[:2000],
                evidence={"dumps": evidence, "triage": d.evidence[:10]},
                root_cause=d.root_cause,
            )  # fmt: skip
        roots = [d for _, d in decisions if d.root_cause]
        # only our ranks echoing a peer's failure: the culprit is elsewhere, never us
        self._act((roots or [d for _, d in decisions])[0],
                  culprit_hosts=(roots[0].hosts or [self.cfg.host]) if roots else [])  # fmt: skip

    def _on_hang(self, worker_group: WorkerGroup, hang: Hang) -> RunResult | None:
        local = {w.global_rank: w for w in worker_group.workers}
        mine = [r for r in hang.culprits if r in local]
        if not mine and hang.stalled_s < 2 * hang.timeout_s:
            return None  # the culprit's own node acts first
        if self._finished_by_peers(hang):
            return self._exit_hang(worker_group, hang, mine)
        detect = time.time()
        stopped = [r for r in mine if _proc_state(local[r].id) == "T"]
        evidence = self._collect_evidence(worker_group, dead=set(stopped))
        culprit = (mine or hang.culprits)[0]
        reason = hang.reason + (f"; ranks {stopped} are stopped (SIGSTOP)" if stopped else "")
        info = FailureInfo(rank=culprit, host=self.cfg.host, hang_reason=reason,
                           step=hang.ranks.get(culprit, {}).get("step"),
                           attempt=self.attempt)  # fmt: skip
        d = self.policy.decide(info)
        d.evidence += [f"stalled {hang.stalled_s:.1f} s > timeout {hang.timeout_s:.1f} s "
                       f"({hang.basis})"]  # fmt: skip
        self.ledger.add_detection(
            attempt=self.attempt, kind="hang", detection_time_s=detect, rank=culprit,
            host=self.cfg.host, last_progress_time_s=hang.last_progress_time,
            evidence_path=str(self.cfg.run_dir.flight_dir(self.attempt)),
        )  # fmt: skip
        self.ledger.add_failure(
            attempt=self.attempt, time_s=hang.last_progress_time, category=d.category,
            action=d.action, rank=culprit, host=self.cfg.host, message=d.reason[:2000],
            evidence={"dumps": evidence, "hang": {"culprits": hang.culprits, "basis": hang.basis,
                      "timeout_s": hang.timeout_s, "ranks": hang.ranks}},
        )  # fmt: skip
        print(f"nonstop run: hang detected after {hang.stalled_s:.1f} s without progress "
              f"(timeout {hang.timeout_s:.1f} s, {hang.basis}): rank {culprit} {reason}",
              flush=True)  # fmt: skip
        failures = {}
        for w in worker_group.workers:  # SIGKILL works on stopped processes too
            with contextlib.suppress(ProcessLookupError, TypeError):
                os.kill(int(w.id), signal.SIGKILL)
            if w.global_rank in mine or not mine:
                failures[w.global_rank] = ProcessFailure(w.local_rank, int(w.id), -9, "")
        self._act(d, culprit_hosts=[self.cfg.host])
        return RunResult(state=WorkerState.FAILED, failures=failures)

    def _finished_by_peers(self, hang: Hang) -> bool:
        """Every rank but the stuck ones finished its script (or exited): in synchronous
        training no rank finishes while a peer still needs it, so the job's work is done and
        the stuck ranks hang in teardown (torch's exit-time deadlocks: a gloo thread waiting for
        the GIL that ~ProcessGroupGloo holds)."""
        wd = self.watchdog
        if wd is None or hang.basis != "exit" or not hang.culprits:
            return False
        others = [st for r, st in wd.ranks.items() if r not in hang.culprits]
        return bool(others) and all(st.done for st in others)

    def _exit_hang(self, worker_group: WorkerGroup, hang: Hang, mine: list[int]) -> RunResult:
        """Kill the ranks stuck after their peers finished, and let the attempt succeed: the
        training is over (torchrun would wait on them forever)."""
        now = time.time()
        for w in worker_group.workers:
            if w.global_rank in mine:
                with contextlib.suppress(ProcessLookupError, TypeError):
                    os.kill(int(w.id), signal.SIGKILL)
        for r in hang.culprits:
            self.ledger.add_detection(attempt=self.attempt, kind="exit_hang", detection_time_s=now,
                                      rank=r, host=self.cfg.host,
                                      last_progress_time_s=hang.last_progress_time)  # fmt: skip
        self.ledger.add_action(attempt=self.attempt, time_s=now, action="none", host=self.cfg.host,
                               reason=f"ranks {hang.culprits} did not exit {hang.stalled_s:.0f} s "
                                      "after their peers finished; killed, the run is complete")  # fmt: skip
        print(f"nonstop run: ranks {hang.culprits} were still running {hang.stalled_s:.0f} s "
              "after every peer had finished (stuck tearing down); killed them: the training "
              "is complete", flush=True)  # fmt: skip
        return RunResult(
            state=WorkerState.SUCCEEDED,
            return_values={w.global_rank: None for w in worker_group.workers},
        )

    def _collect_evidence(self, worker_group: WorkerGroup, dead: set[int]) -> list[str]:
        """Ask every live rank for its flight-recorder trace and Python stacks, briefly."""
        t0 = time.time()
        req = bootstrap.dump_request_path(self.cfg.run_dir.root, self.attempt)
        req.parent.mkdir(parents=True, exist_ok=True)
        req.write_text(str(t0))
        os.utime(req, (t0, t0))
        alive = [
            w.global_rank
            for w in worker_group.workers
            if w.global_rank not in dead and _proc_state(w.id) not in (None, "Z", "T")
        ]
        files: list[str] = []
        answered: set[int] = set()
        deadline = t0 + self.cfg.evidence_timeout_s
        while time.time() < deadline and len(answered) < len(alive):
            time.sleep(0.1)
            for r in alive:
                if r in answered:
                    continue
                stacks = self.cfg.run_dir.log(self.attempt, r).with_suffix(".stacks.txt")
                if stacks.exists() and stacks.stat().st_mtime >= t0 - 1:
                    answered.add(r)
                    files.append(str(stacks))
                    fr = self.cfg.run_dir.flight(self.attempt, r)
                    if fr.exists():
                        files.append(str(fr))
        # this node's kernel-log lines of the attempt (Xid, MCE, NIC, OOM killer), attributed
        # to ranks by pid and kept under the run directory, where policy's triage reads them
        try:
            ranks = {w.global_rank: w for w in worker_group.workers}
            pids = {int(w.id): r for r, w in ranks.items() if w.id is not None}
            gpus = kernel_log.gpu_ranks_from_nvml({w.local_rank: r for r, w in ranks.items()})
            watch = kernel_log.watch_for(self, self.cfg.run_dir.root, self.cfg.host)
            files.append(str(watch.keep(self.attempt, self.attempt_start, pids, gpus)))
        except Exception as e:  # evidence must never cost the job
            print(f"nonstop run: kernel log not kept ({e!r})", flush=True)
        self._phase("evidence", t0)
        return files

    def _refine(self, d: Decision, hosts: list[str]) -> list[str]:
        """Join flight dumps, every rank's log and the ledger (nonstop.diagnose); a more
        confident, more specific verdict overrides the per-rank classification."""
        try:
            from nonstop.diagnose import diagnose_run

            v = diagnose_run(self.cfg.run_dir.root, attempt=self.attempt)
        except Exception as e:
            d.evidence.append(f"diagnose failed: {type(e).__name__}: {e}")
            return hosts
        d.evidence.append(f"diagnose: {v.verdict[:300]}")
        if v.category != taxonomy.UNKNOWN and v.confidence > max(d.confidence, 0.8):
            d.category, d.action, d.confidence = v.category, v.action, v.confidence
            d.reason += f"; diagnose: {v.verdict[:200]}"
            return v.hosts or hosts  # the culprit may sit on another node
        return hosts

    def _act(self, d: Decision, culprit_hosts: list[str]) -> None:
        self.last_decision = d
        now = time.time()
        self.ledger.attempt_ended(self.attempt, time_s=now, outcome="failed")
        culprit_hosts = self._refine(d, culprit_hosts)
        health = self._health_checks(d)
        if any(r.failed for r in health) and self.cfg.exclude:
            d.action = "exclude_node"
            d.reason += "; health check failed: " + "; ".join(r.detail for r in health if r.failed)
            culprit_hosts = [self.cfg.host]
        action = d.action
        if action == "exclude_node" and (
            not self.cfg.exclude or self.cfg.host not in culprit_hosts
        ):
            action = "restart"  # the bad node is another one: it leaves, we restart without it
        if action == "stop_and_page":
            torch_compat.no_more_restarts(self)
            self.exit_code = EXIT_PAGE
            self.exit_message = f"stopped: {d.reason} [{d.category}]; a human must look"
        elif action == "exclude_node":
            torch_compat.no_more_restarts(self)
            self.leaving = True
            self.exit_code = EXIT_EXCLUDE
            self.exit_message = (
                f"excluding node {self.cfg.host}: {d.reason} [{d.category}]; "
                f"exit {EXIT_EXCLUDE} tells the scheduler not to requeue here"
            )
        elif torch_compat.restarts_left(self) <= 0:
            self.exit_code = EXIT_FAILED
            self.exit_message = f"no restarts left (--max-restarts): {d.reason}"
        self.ledger.add_action(attempt=self.attempt, time_s=time.time(), action=action,
                               host=self.cfg.host, reason=d.reason[:2000])  # fmt: skip
        self._ingest(force=True)
        if self.live is not None:
            self.live.failure(self.attempt, d, action)
        print(f"nonstop run: attempt {self.attempt} failed: [{d.category}] {d.reason} -> {action}",
              flush=True)  # fmt: skip

    def _health_checks(self, d: Decision) -> list[Any]:
        names = list(self.cfg.health_checks)
        if self.cfg.self_test and d.category in SELF_TEST_AFTER:
            names.append("collective")
        if not names:
            return []
        t0 = time.time()
        cfg = HealthConfig(
            paths=(self.cfg.run_dir.root, self.cfg.run_dir.checkpoints),
            local_world_size=torch_compat.local_world_size(self),
            timeout_s=self.cfg.health_timeout_s,
        )  # fmt: skip
        results = run_checks(names, cfg)
        for r in results:
            self.ledger.add_health_check(attempt=self.attempt, time_s=time.time(), name=r.name,
                                         status=r.status, host=self.cfg.host, detail=r.detail,
                                         duration_s=r.duration_s)  # fmt: skip
        self._phase("health_checks", t0)
        return results


def _proc_state(pid: Any) -> str | None:
    """The kernel's state letter of a process (R, S, D, T stopped, Z zombie), None if gone."""
    try:
        with open(f"/proc/{int(pid)}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, ValueError, TypeError, IndexError):
        return None
