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

The agent is composed of parts (context.py): FailureHandler (failures.py) reacts to failed and
hung ranks, PlannedStopMachine (planned_stop.py) carries out drains, restarts and preemptions.
They share an AgentContext (attempt, watchdog, the exit code and message, leaving) and call
back through AgentOps, which the agent implements; the agent owns torch's hooks, the attempt
numbering, the restart timeline, standbys, monitoring (events, stragglers, live settings,
kernel log, ingest) and the marker before it stops its own ranks (_guard_teardown).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from torch.distributed.elastic.agent.server.api import (
    DEFAULT_ROLE,
    RunResult,
    WorkerGroup,
    WorkerState,
)
from torch.distributed.elastic.agent.server.local_elastic_agent import LocalElasticAgent

from nonstop import envvars, log, rundir
from nonstop.events import EventWarning, ReadStats, iter_events
from nonstop.ledger import Ledger, ingest_run
from nonstop.supervisor import bootstrap, evidence, torch_compat
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.context import AgentContext
from nonstop.supervisor.failures import CULPRIT_WAIT_S, SELF_TEST_AFTER, FailureHandler  # noqa: F401
from nonstop.supervisor.health import SelfTestPool
from nonstop.supervisor.live_settings import LiveSettings, describe
from nonstop.supervisor.planned_stop import PlannedStopMachine, mark_teardown
from nonstop.supervisor.policy import (  # noqa: F401 (the exit codes: nonstop run's)
    EXIT_DRAINED,
    EXIT_EXCLUDE,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PAGE,
    EXIT_REQUEUE,
    Decision,
    FailureInfo,
    classify,
    signal_name,
)
from nonstop.supervisor.standby import StandbyContext, StandbyPool
from nonstop.supervisor.watchdog import Watchdog, learned_for, learned_path
from nonstop.supervisor.worker_logs import RunDirLogs

_log = log.get("supervisor")

SELF_TEST_WARM_AFTER_S = 30.0
"""An attempt trains this long before the collective self-test's interpreters are started
(health.SelfTestPool): a short run never pays their imports and memory."""


class StoppedInRendezvous(BaseException):
    """The scheduler's signal reached an agent waiting in a rendezvous. A BaseException, so
    that no `except Exception` of torch's rendezvous code swallows it on its way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


DRAIN_LAST_CALL_S = 1.0  # after a peer's drain, the rendezvous waits this long, not 30 s
# each agent samples its node's TCP connections per peer this often (a slow link; `ss -tin`)
NET_SAMPLE_S = 5.0


def _shared(name: str) -> Any:
    """An agent attribute that is the context's (launch and the agent's own hooks read and
    write it as the agent's; the parts see it through the context)."""
    return property(
        lambda self: getattr(self.ctx, name),
        lambda self, value: setattr(self.ctx, name, value),
        doc=f"AgentContext.{name}",
    )


class NonstopAgent(LocalElasticAgent):
    """torch's LocalElasticAgent with nonstop's hooks; implements AgentOps for its parts."""

    attempt = _shared("attempt")
    attempt_start = _shared("attempt_start")
    watchdog = _shared("watchdog")
    exit_code = _shared("exit_code")
    exit_message = _shared("exit_message")
    leaving = _shared("leaving")

    def __init__(
        self,
        *,
        spec: Any,
        logs: RunDirLogs,
        start_method: str,
        cfg: SupervisorConfig,
        ledger: Ledger,
        first_attempt: int,
        live: Any = None,
        metrics: Any = None,
        standbys: StandbyPool | None = None,
        self_tests: SelfTestPool | None = None,
    ) -> None:
        super().__init__(spec=spec, logs_specs=logs, start_method=start_method)
        self.cfg, self.ledger, self.logs, self.live = cfg, ledger, logs, live
        self.metrics = metrics
        self.ctx = AgentContext(cfg=cfg, ledger=ledger, live=live, self_tests=self_tests)
        self.failures = FailureHandler(self.ctx, self)
        self.stops = PlannedStopMachine(self.ctx, self)
        self.stragglers: Any = None
        self._net_sampled, self._slow_links = 0.0, set[str]()
        self._slow_named: str | None = None
        self._straggler_step = 0
        self._flagged: set[int] = set()
        self.attempt = first_attempt - 1
        self.first_attempt = first_attempt
        self.offsets: dict[Path, int] = {}
        self.t_start = time.time()
        self.attempt_start = self.t_start
        self._last_ingest = 0.0  # monotonic; 0: the first monitor call ingests
        self._pending_restart: float | None = None
        self.standbys = standbys
        self.restart_path = "cold"
        self._cold_why = ""
        self._triage_warm: threading.Thread | None = None
        self._rendezvoused = False
        self._leave_now = False  # excluded during a membership restart (_restart_workers)
        self._in_rendezvous = False  # waiting for peers: no rank to checkpoint, no monitor loop
        self.settings = LiveSettings(cfg.run_dir.root)  # `nonstop ctl`: applied without restart
        self._hang_timeout_s = cfg.hang_timeout_s
        self._learned_saved: dict[str, Any] | None = None
        self._straggler_every = cfg.straggler_every
        self._worker_env: dict[str, str] = {}
        if standbys is not None:
            standbys.fill()  # they import while the rendezvous runs

    # -- lifecycle hooks -------------------------------------------------------------------

    def _rendezvous(self, worker_group: WorkerGroup) -> None:
        t0 = time.time()
        with contextlib.ExitStack() as stack:
            if self._rendezvoused:
                stack.enter_context(torch_compat.no_first_round_skew())
            if self.stops.peer_drained:
                stack.enter_context(
                    torch_compat.short_last_call(worker_group.spec.rdzv_handler, DRAIN_LAST_CALL_S)
                )
            # a membership poll that never came back means the store is not answering, and
            # torch's rendezvous would wait on it without a bound: this raises
            # RendezvousConnectionError (the lost-store path) once it has been silent
            # launch.store_silent_s, and drops an answer about the old round no tick read
            torch_compat.settle_poll(worker_group.spec.rdzv_handler)
            self._in_rendezvous = True
            if self.stops.signal_received is not None:  # came while the last attempt ended
                self._in_rendezvous = False
                raise StoppedInRendezvous(self.stops.signal_received)
            try:
                super()._rendezvous(worker_group)
            finally:
                self._in_rendezvous = False
        self._rendezvoused, self.stops.peer_drained = True, False
        self._agree_attempt(worker_group)
        self._phase("rendezvous", t0)

    def _agree_attempt(self, worker_group: WorkerGroup) -> None:
        """Every node's agent numbers attempts itself; a node that joined later (a spare, or one
        that missed the first round) would count differently, and the ranks of one job would
        read different stop plans and write to different attempt directories. After each
        rendezvous the agents agree on the highest candidate through the round's store."""
        n, me, store = worker_group.group_world_size, worker_group.group_rank, worker_group.store
        assert n is not None and me is not None, "set by torch's _rendezvous"
        # a round of spares only (every member of the last attempt still stopping, or gone: a
        # one-node group whose node was excluded and whose spare took its place) would agree
        # on their own count, the number of an attempt the run already had: the run's ledger
        # (every node writes it) knows the highest. Read before our key is set: no member can
        # start the next attempt before every key is in.
        own = candidate = self.attempt + 1
        with log.swallowed(_log, "reading the run's last attempt (agreeing among members only)"):
            last = self.ledger.last_attempt()
            if last is not None:
                candidate = max(candidate, last[0] + 1)
        if n <= 1 or store is None:
            self.attempt = candidate - 1  # alone: nobody to agree with
            if own == self.first_attempt:  # this agent's first round, alone in it: an attempt
                # still open is an orphan (a killed supervisor's, an excluded or lost node's)
                with log.swallowed(_log, "closing abandoned attempts (they stay open)"):
                    self.ledger.close_abandoned(before=candidate, now_s=time.time())
            return
        try:
            store.set(f"nonstop/attempt/{me}", str(candidate))
            agreed = max(int(store.get(f"nonstop/attempt/{i}")) for i in range(n))
        except Exception as e:  # keep our own number rather than fail the job
            _log.warning(f"could not agree on the attempt number ({e!r})")
            return
        self.attempt = agreed - 1
        if me == 0:  # every member stopped its last attempt before joining: open ones are orphans
            # (not those only the ledger knew of: their members may still be recording the end)
            with log.swallowed(_log, "closing abandoned attempts (they stay open in the ledger)"):
                self.ledger.close_abandoned(before=min(agreed, own), now_s=time.time())

    def _restart_workers(self, worker_group: WorkerGroup) -> None:
        """torchrun restarts a healthy group when a node joins (a spare, a returning node): the
        attempt ends without a failure; it was not counted anywhere before."""
        with log.swallowed(_log, "recording a membership change (the ledger misses it)"):
            if self.ledger.attempt_is_open(self.attempt):
                now = time.time()
                self.ledger.attempt_ended(self.attempt, time_s=now, outcome="resized")
                self.ledger.add_action(
                    attempt=self.attempt,
                    time_s=now,
                    action="membership_change",
                    host=self.cfg.host,
                    reason="a node joined the rendezvous: the job restarts "
                    "with it from the last checkpoint",
                )
        # the peers filed this node's link while our monitor loop waited on the store (the
        # link down): the others' restart reaches us before any tick saw it. Act on it now;
        # when it excludes this node, stop here: the next tick ends torch's loop (exit 93)
        if self.cfg.multi_node and worker_group.state == WorkerState.HEALTHY:
            with log.swallowed(_log, "reading the peers' filing of this node's link"):
                named = self.failures.peers_named_this_link(worker_group, force=True)
                if named is not None and self.leaving:
                    self._stop_workers(worker_group)
                    self._leave_now = True
                    return
        super()._restart_workers(worker_group)

    def _start_workers(self, worker_group: WorkerGroup) -> dict[int, Any]:
        t0 = time.time()
        self.attempt += 1
        self.failures.new_attempt()  # this node's link now: a cable pulled later shows
        self.logs.attempt = self.attempt
        log.set_context(attempt=self.attempt)
        env = {
            rundir.ENV_ATTEMPT: str(self.attempt),
            rundir.ENV_RUN_DIR: str(self.cfg.run_dir.root.resolve()),
            rundir.ENV_RUN_ID: self.cfg.run_id,
            rundir.ENV_HOST: self.cfg.host,
            bootstrap.ENV_MERGE_STDERR: "1",
            # the ranks' settings from the flags (their defaults: the same variables, read
            # by the flags), so that config.json says what every rank ran with
            envvars.HEALTH: self.cfg.guards,
            envvars.TELEMETRY_S: f"{self.cfg.telemetry_interval_s:g}",
            envvars.KERNEL_LOG: self.cfg.kernel_log,
            envvars.STOP_CHECK_EVERY: str(self.cfg.stop_check_every),
            envvars.TICK_S: f"{self.cfg.watcher_tick_s:g}",
            # torchrun's launch_agent sets it in its own environment, which its workers
            # inherit; nonstop run leaves its own alone (torch_compat.forwarding_signals)
            envvars.TORCH_SIGNALS_TO_HANDLE: self.cfg.signals_to_handle,
        }
        if self.cfg.faults:
            env[envvars.FAULTS] = self.cfg.faults
        if self.cfg.memory_checkpoint_every:  # the replica server runs (launch.py)
            env[envvars.MEMORY_CKPT_EVERY] = str(self.cfg.memory_checkpoint_every)
            env[envvars.REPLICAS] = str(self.cfg.replicas)
        mtbi = self._observed_mtbi_s()
        if mtbi is not None:  # checkpoint interval `auto` (Daly) learns from the ledger
            env[envvars.MTBI_S] = f"{mtbi:.1f}"
        # the workers' share of the settings: added to torch's per-worker environment in
        # _spawn_or_hand_over (spawned or handed over), never to this process's own
        self._worker_env = env
        workers = worker_group.workers
        world = workers[0].world_size if workers else 0
        start = self.t_start if self.attempt == self.first_attempt else t0
        self.attempt_start = start
        # the kernel-log reader opens (or starts its new window) before any worker exists:
        # what arrives from here on is this attempt's by sequence number, whatever its clock
        evidence.poll_kernel_log(
            self.ctx, self.cfg.run_dir.root, self.cfg.host, self.cfg.kernel_log
        )
        nodes = sorted({self.cfg.host}) if not self.cfg.multi_node else None
        self.ledger.attempt_started(self.attempt, time_s=start, world_size=world, nodes=nodes)
        self._save_learned()  # what the last attempt taught, before it is replaced
        self.watchdog = Watchdog(
            ranks=list(range(world)),
            hang_timeout_s=self._hang_timeout_s,
            startup_timeout_s=self.cfg.startup_timeout_s,
            section_timeout_s=self.cfg.section_timeout_s,
            exit_timeout_s=self.cfg.exit_timeout_s,
            learned=learned_for(self.cfg.run_dir.root),
        )
        self.offsets = {}
        from nonstop.diagnose.stragglers import StragglerDetector

        # online: stricter than the offline default (0.85, 2 checks), because ranks sharing
        # a loaded host jitter; a 1.3x-slow rank (score 0.77) is still flagged
        self.stragglers = StragglerDetector(threshold=0.8, patience=3)
        self._straggler_step, self._flagged = 0, set()
        self._slow_links, self._slow_named = set(), None
        self._net_sampled = time.monotonic()  # the first sample once the ranks run
        self.restart_path = "cold"
        # torch's process context (spawned or a standby's) registers its signal handlers as
        # it starts: only for --signals-to-handle's, not the planned stop's
        with (
            torch_compat.start_processes_through(self._spawn_or_hand_over),
            torch_compat.forwarding_signals(self.cfg.signals_to_forward),
        ):
            pids = super()._start_workers(worker_group)
        self._guard_teardown()
        self._phase("handover" if self.restart_path == "warm" else "spawn", t0)
        with log.swallowed(_log, "recording the restart path (the report shows none)"):
            self.ledger.set_restart_path(self.attempt, self.restart_path)
        if self.live is not None:
            self.live.attempt_started(self.attempt, world)
        return pids

    def _spawn_or_hand_over(self, **kwargs: Any) -> Any:
        """torchrun's start_processes, with ready standbys in place of new processes; every
        worker's environment (torch's, per local rank) gets nonstop's variables too."""
        for env in kwargs["envs"].values():
            env.update(self._worker_env)
        pool = self.standbys
        # each rank's whole environment, as a cold worker or a standby's hand-over gets it
        envs = [{**os.environ, **kwargs["envs"][r]} for r in sorted(kwargs["envs"])]
        if pool is not None:
            pool.fill()  # short after a quick failure: waiting for new ones costs no more than cold
        standbys, why = (
            (None, "standbys off")
            if pool is None
            else pool.take(len(kwargs["args"]), wait_s=self.cfg.standby_wait_s, envs=envs)
        )
        if standbys is None:
            if why != self._cold_why:  # said once, not at every restart
                _log.info(f"cold start of attempt {self.attempt}: {why}")
                self._cold_why = why
            ctx = torch_compat.start_processes(**kwargs)
        else:
            kwargs.pop("start_method", None)
            kwargs.pop("numa_options", None)
            ctx = StandbyContext(standbys, **kwargs)
            ctx.start()
            self.restart_path = "warm"
        if pool is not None:
            pool.predict(envs)  # the next standbys import as these ranks' successors
        return ctx

    def _refill_standbys(self) -> None:
        """Replace the standbys that took over once the new attempt trains (their imports
        would otherwise compete with the restart for the CPU), or 10 s after it started; not
        once a rank's script has returned."""
        pool, wd = self.standbys, self.watchdog
        if pool is None or not pool.short:
            return
        if wd is not None and any(st.finished for st in wd.ranks.values()):
            return  # the script returned: the run is ending, and new imports slow its exit
        training = wd is not None and bool(wd.step_durations)
        if training or time.time() - self.attempt_start > min(10.0, self.cfg.startup_timeout_s):
            pool.fill()

    def _warm_triage(self) -> None:
        """Import the run's diagnosis and build triage's tables (triage.prepare) on a thread
        as the first attempt starts: a failure's first classification (`policy.classify`, on
        the monitor loop, before torch stops the ranks) and its diagnosis (`FailureHandler.
        _refine`) otherwise import and build them: 0.4 s of CPU added to the detection and the
        restart of the run's first crash (measured on the transformers client). At the ranks'
        priority: their imports share the cores with it once, at the start; 10 nice levels
        lower it was still unfinished at a crash 5 s in."""
        if self._triage_warm is not None or self.watchdog is None:
            return

        def prepare() -> None:
            with log.swallowed(_log, "preparing triage (the first failure builds it instead)"):
                from nonstop.diagnose import diagnose_run, triage  # noqa: F401 (imported)

                triage.prepare()

        self._triage_warm = threading.Thread(target=prepare, name="ns-triage-warm", daemon=True)
        self._triage_warm.start()

    def _warm_self_tests(self) -> None:
        """Start the self-test's interpreters (health.SelfTestPool) once this attempt has
        trained SELF_TEST_WARM_AFTER_S, while nothing else imports: never during a start or
        a restart, whose CPU they would take. A script that reports no steps (one
        nonstop.runtime does not time: Lightning, `transformers.Trainer`, the DDP tutorial)
        gets them after twice that from the attempt's start."""
        pool, wd = self.ctx.self_tests, self.watchdog
        if pool is None or wd is None:
            return
        after_s = SELF_TEST_WARM_AFTER_S * (1 if wd.step_durations else 2)
        if time.time() - self.attempt_start < after_s:
            return
        if self.standbys is not None and self.standbys.importing:
            return
        if any(st.finished for st in wd.ranks.values()):
            return  # the run is ending
        n = self.local_world_size()
        if pool.warm_count < n:
            pool.warm(n)

    def _stop_workers(self, worker_group: WorkerGroup, *args: Any, **kwargs: Any) -> None:
        t0 = time.time()
        super()._stop_workers(worker_group, *args, **kwargs)
        self._phase("teardown", t0)

    def _phase(self, phase: str, t0: float) -> None:
        attempt = self.attempt + (1 if phase == "rendezvous" else 0)
        with log.swallowed(_log, f"recording the {phase} phase (the restart table misses it)"):
            self.ledger.add_restart_phase(
                attempt=attempt, phase=phase, start_s=t0, end_s=time.time()
            )

    # -- monitoring ------------------------------------------------------------------------

    def _invoke_run(self, role: str = DEFAULT_ROLE) -> RunResult:
        try:
            return super()._invoke_run(role)
        except torch_compat.DeathSignal as e:
            # torch's run() stops the ranks with the same signal on its own exception
            raise e.as_torchs() from None

    def _monitor_workers(self, worker_group: WorkerGroup) -> RunResult:
        # a death signal whose DeathSignal an `except BaseException` caught: torch's run()
        # stops the ranks on it from here
        torch_compat.raise_death_signal()
        if self._leave_now:  # excluded in a membership restart: torch stops, no restart left
            return RunResult(state=WorkerState.FAILED)
        if self.failures.holding(worker_group):
            return RunResult(state=WorkerState.HEALTHY)
        result = super()._monitor_workers(worker_group)
        self.logs.link_error_files()  # --log-dir's, once a rank wrote its error file
        self._apply_settings()
        self._poll_events()
        self._note_exited(worker_group)
        evidence.poll_kernel_log(
            self.ctx, self.cfg.run_dir.root, self.cfg.host, self.cfg.kernel_log
        )  # cheap
        self._refill_standbys()
        self._warm_self_tests()
        self._warm_triage()
        try:
            planned = self.stops.planned(worker_group, result)
        except Exception as e:  # our bug: the stop goes on as torch's teardown; say where
            _log.warning(f"internal error in a planned stop ({e!r})", exc_info=True)
            planned = None
        if planned is not None:
            return planned
        try:
            # the peers filed this node's link as the attempt's root cause: act on it before
            # their restart stops our ranks (it counts toward our exclusion); handled there,
            # so not handled again as a failure below
            named = (
                self.failures.peers_named_this_link(worker_group)
                if result.state == WorkerState.HEALTHY and self.cfg.multi_node
                else None
            )
            if named is not None:
                result = named
            elif result.state == WorkerState.HEALTHY and self.watchdog is not None:
                hang = self.watchdog.check()
                if hang is not None:
                    result = self.failures.on_hang(worker_group, hang) or result
                else:  # a hang held while the network was down may have healed
                    self.failures.hang_cleared(worker_group)
            elif result.state == WorkerState.FAILED and self.failures.finished_then_crashed(result):
                result = self.failures.exit_crash(worker_group, result)
            elif result.state == WorkerState.FAILED:
                self.failures.on_failure(worker_group, result)
        except Exception as e:  # our own bug must never cost the job: fall back to torchrun's way
            import traceback

            traceback.print_exc()
            _log.warning(
                f"internal error while handling a failure ({e!r}); falling back to a plain restart"
            )
        if result.state == WorkerState.SUCCEEDED:
            self.ledger.attempt_ended(self.attempt, time_s=time.time(), outcome="succeeded")
            self._ingest(force=True)
        if time.monotonic() - self._last_ingest > 10:
            self._ingest()
        return result

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
            self.ledger.add_action(
                attempt=self.attempt,
                time_s=time.time(),
                action="reconfigure",
                host=self.cfg.host,
                reason=f"{what} [settings v{version}]",
            )
            _log.info(f"settings v{version} applied: {what}")
        except Exception as e:  # a bad settings file must never cost the job
            _log.warning(f"could not apply live settings ({e!r})")

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
        now = time.monotonic()
        if self.cfg.multi_node and now - self._net_sampled >= NET_SAMPLE_S:
            self._net_sampled = now
            self._check_links()

    def _check_stragglers(self) -> None:
        """Online straggler scores (nonstop.diagnose): a newly flagged rank is recorded as a
        detection of kind `straggler`; it slows the job but is not a failure."""
        report = self.stragglers.check()
        # only ranks slower than their peers (report.stragglers, the rule `nonstop diagnose`
        # names them by): a whole job slowing down together (a busy machine, a slow phase) is
        # not a straggler. Behind its peers by a material gap, not by any metric: a rank slow
        # against its own past in compute whose 1 ms data wait also happened to trail its
        # peer's (noise) was flagged beside the real straggler
        for rank in sorted(set(report.stragglers) - self._flagged):
            self._flagged.add(rank)
            st = self.watchdog.ranks.get(rank) if self.watchdog else None
            self.ledger.add_detection(
                attempt=self.attempt,
                kind="straggler",
                detection_time_s=time.time(),
                rank=rank,
                host=st.host if st else None,
            )
            _log.info(f"rank {rank} is a straggler (scores below {self.stragglers.threshold})")

    def _check_links(self) -> None:
        """A slow link is no rank's compute: each agent samples its node's TCP connections per
        peer (nonstop.diagnose.peers) every NET_SAMPLE_S while its ranks run; the node every
        slow pair involves is recorded once per attempt as a detection of kind `slow_link`."""
        from nonstop.diagnose import peers

        sample = peers.tcp_peers()
        if not sample:
            return
        root = self.cfg.run_dir.root
        peers.record_net_sample(root, self.cfg.host, self.attempt, sample, time.time())
        link = peers.slow_link(
            peers.read_net_samples(root, self.attempt), peers.node_addresses(root)
        )
        named = link.host if link is not None else None
        before, self._slow_named = self._slow_named, named
        if link is None or named != before or link.host in self._slow_links:
            return  # recorded when two samples in a row name the host, once per attempt
        self._slow_links.add(link.host)
        if self.ledger.add_detection(
            attempt=self.attempt,
            kind="slow_link",
            detection_time_s=time.time(),
            host=link.host,
            once=True,  # every agent may name it in the same second
        ):
            _log.info(f"slow link: {link.text()}")

    def _observed_mtbi_s(self) -> float | None:
        """Mean time between interruptions seen so far in this run, if any were seen."""
        try:
            return self.ledger.observed_mtbi_s()
        except Exception as e:  # it sets the ranks' checkpoint interval: never silently
            _log.warning(f"could not read the observed MTBI ({e!r}): the default interval")
            return None

    def _note_exited(self, worker_group: WorkerGroup) -> None:
        """Ranks whose process is gone (exited 0 while a peer still runs, say) are done: the
        watchdog allows the others their exit and never names a finished rank."""
        if self.watchdog is None:
            return
        for w in worker_group.workers:
            if w.id is not None and evidence.proc_state(w.id) in (None, "Z"):
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
            _log.warning(f"could not keep the learned timeouts ({e})")

    def _ingest(self, force: bool = False) -> None:
        self._last_ingest = time.monotonic()
        self._save_learned()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EventWarning)
            try:
                ingest_run(self.cfg.run_dir, self.ledger)
            except Exception as e:  # the ledger must never take the job down
                _log.warning(f"could not ingest events: {e}")
        if self.metrics is not None:
            try:
                self.metrics.update_from_ledger(self.ledger)
            except Exception as e:
                _log.warning(f"metrics not updated: {e}")
        if self.live is not None:
            self.live.refresh_ledger(self.ledger)

    # -- the planned stops' signal, and the marker before our own stops ----------------------

    def on_signal(self, signum: int, frame: Any) -> None:
        """SIGTERM, SIGUSR1, SIGUSR2 (launch installs it): PlannedStopMachine.on_signal, whose
        flag the monitor loop acts on. An agent waiting in a rendezvous runs no monitor loop
        and has no rank to checkpoint (it may wait there for minutes: too few nodes after an
        exclusion): it leaves at once (StoppedInRendezvous; launch exits 75, requeue), rather
        than sit out the scheduler's KillWait into a SIGKILL."""
        self.stops.on_signal(signum, frame)
        if self._in_rendezvous:
            raise StoppedInRendezvous(signum)

    def _guard_teardown(self) -> None:
        """Mark every stop of our own ranks (torch's teardown, restart or shutdown, and the
        process context stopping the rest after one rank failed) before its SIGTERM, so that
        the ranks die at once instead of taking it for the scheduler's warning; then
        FailureHandler.before_stop notes the ranks stopped and shortens torch's wait."""
        root, host, attempt = self.cfg.run_dir.root, self.cfg.host, self.attempt

        def before_close() -> float | None:
            mark_teardown(root, host, attempt)
            try:
                return self.failures.before_stop()
            except Exception as e:  # never in the way of a teardown: torch's 30 s then
                _log.warning(f"internal error before stopping the ranks ({e!r})")
                return None

        torch_compat.before_close(self, before_close)

    # -- AgentOps: what the parts ask of the agent (context.py) -----------------------------

    def poll_events(self) -> None:
        self._poll_events()

    def record_phase(self, phase: str, t0: float) -> None:
        self._phase(phase, t0)

    def ingest(self, force: bool = False) -> None:
        self._ingest(force)

    def stop_workers(self, worker_group: WorkerGroup) -> None:
        self._stop_workers(worker_group)

    def restart_workers(self, worker_group: WorkerGroup) -> None:
        self._restart_workers(worker_group)

    def exit_codes(self) -> dict[int, int | None] | None:
        return torch_compat.subprocess_exit_codes(self)

    def global_ranks(self) -> dict[int, int]:
        return torch_compat.global_ranks(self)

    def restarts_left(self) -> int:
        return torch_compat.restarts_left(self)

    def no_more_restarts(self) -> None:
        torch_compat.no_more_restarts(self)

    def local_world_size(self) -> int:
        return torch_compat.local_world_size(self)
