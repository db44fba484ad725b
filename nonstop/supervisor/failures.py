"""What the node agent does when a rank fails or hangs: the agent's FailureHandler part
(context.py says how the parts are composed; planned_stop.PlannedStopMachine is another).

The agent calls, from its monitor loop and its worker starts:

    new_attempt          at each start: this node's link now, the per-attempt waits reset
    holding              hold torch's reaction this tick: only echoes of a peer's failure
                         exited (_awaiting_culprit), or every rank that failed had finished its
                         script (a crash in the interpreter's teardown) and others still run
                         (_awaiting_finish)
    finished_then_crashed / exit_crash
                         every rank finished its script and one crashed in teardown after it:
                         the attempt succeeds instead of training again
    on_failure           per failed rank: its last words, evidence, policy.decide, collateral
                         ranks, ledger rows; then _act
    on_hang              the watchdog's hang: the culprit on this node, evidence, SIGKILL of
                         the group (stopped processes too); a rank stuck after its peers
                         finished is killed and the attempt succeeds (_exit_hang); while a
                         link of the job is down the kill is held (netwait: the network may
                         give the collective back)
    hang_cleared         the watchdog sees progress again: a held hang healed by itself is
                         recorded as a network incident, nothing restarts
    before_stop          just before torch stops the ranks: which ones it stops (collateral)
                         and how long they get before SIGKILL
    fault_time           a rank's last progress time, for the records of a failure

_act runs diagnose (policy.refine), health checks, policy.resolve (the pure action and
exit-code resolution), the ledger's action and the live view, and sets the context's
exit_code, exit_message and leaving. The handler owns the run's failure policy (repeats,
remembered in control/policy.json) and its per-attempt waits; it reads the context's attempt
and watchdog, and asks the agent (AgentOps) for the ranks' events, the restart timeline, the
ledger ingest, and torch's worker processes and restart count.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import replace
from typing import Any

from torch.distributed.elastic.agent.server.api import RunResult, WorkerGroup, WorkerState
from torch.distributed.elastic.multiprocessing.errors import ProcessFailure

from nonstop import log, taxonomy
from nonstop.anomalies import EXIT_ROLLBACK, read_anomalies
from nonstop.supervisor import evidence, netroot, policy
from nonstop.supervisor.context import AgentContext, AgentOps
from nonstop.supervisor.health import HealthConfig, gpu_record_path, run_checks
from nonstop.supervisor.netwait import HEALED, HOLD, NetworkHold, Outage, cap_for
from nonstop.supervisor.policy import Decision, FailureInfo, Policy, classify, signal_name
from nonstop.supervisor.watchdog import Hang

_log = log.get("supervisor")

# only echoes of a peer's failure exited: how long the still-running ranks get to exit with
# their own status before torch stops them (the culprit is often still tearing down)
CULPRIT_WAIT_S = 3.0
# how long a rank whose SIGTERM reaches nonstop's handler gets between the agent's SIGTERM and
# SIGKILL (torch gives every rank 30 s): the handler exits at once once the teardown is marked,
# so a rank still alive after this is stuck in C code and only SIGKILL ends it (a peer that
# died before init_process_group leaves it in the store's wait: 30 s of every such restart)
STOP_WAIT_S = 5.0
# only echoes of one peer node's failure: how long that node's agent gets to record its own
# failure in the ledger before the node is recorded as lost on its behalf
LOST_PEER_WAIT_S = 3.0
# a peer node that does not answer a TCP connect within this is unreachable from here
PROBE_TIMEOUT_S = 1.0
# a node lost whole (every process gone at once, its agent too): the taxonomy's unplanned
# host maintenance, the row triage gives Slurm's "Node failure" and "Node unexpectedly
# rebooted"; its action, exclude_node, is what already happened: the job goes on without it
LOST_NODE = "host_maintenance"
# how often a running attempt's agent looks whether its peers filed its link as the attempt's
# root cause (a ledger read: cheap, but not every monitor tick)
PEER_FILING_CHECK_S = 1.0
OUTAGE_WATCH_S = 2.0
"""How often a node that waits for the culprit's node to act on a hang probes its peers
(FailureHandler._watch_outage): a probe of silent peers costs PROBE_TIMEOUT_S."""

# Categories after which the collective self-test is worth its seconds (1.5-3.5 s on CPU):
# hardware, hangs and network. Not after an unexplained exit: a bad node shows up again at the
# next attempt, and torchrun's plain restart is the bar to beat on recovery time.
SELF_TEST_AFTER = {c.id for c in taxonomy.CATEGORIES if c.hardware} | {
    "nccl_watchdog_timeout",
    "hang",
    "network_switch_cable",
}


def _lost_decision(host: str, message: str) -> Decision:
    """A node lost whole, as the one decision its survivors act on (LOST_NODE's action on its
    host: policy.resolve makes it a restart without it on every other node)."""
    return Decision(
        LOST_NODE,
        taxonomy.action_for(LOST_NODE),
        message,
        signature=f"lost|{host}",
        confidence=0.9,
        hosts=[host],
    )


def _split(codes: dict[int, int | None] | None) -> tuple[list[int], list[int]]:
    """(local ranks that failed, local ranks still running) from their exit codes."""
    codes = codes or {}
    return (
        [lr for lr, c in codes.items() if c not in (None, 0)],
        [lr for lr, c in codes.items() if c is None],
    )


class FailureHandler:
    """The agent's reaction to failed and hung ranks (the module's docstring)."""

    def __init__(self, ctx: AgentContext, ops: AgentOps) -> None:
        self.ctx, self.ops = ctx, ops
        self.cfg, self.ledger, self.live = ctx.cfg, ctx.ledger, ctx.live
        # the same-bug-twice memory outlives this supervisor (a resumed run reads it back)
        self.policy = Policy(path=ctx.cfg.run_dir.control / "policy.json")
        self.last_decision: Decision | None = None
        self._culprit_deadline: float | None = None
        self._finish_deadline: float | None = None
        self._stopped_running: set[int] = set()  # ranks running when this attempt was stopped
        self._link_before: Any = None  # this node's link at the attempt's start
        # the network filing _network_decision chose for the row about to be recorded:
        # ("own", host) this node's link, ("peer", host) a peer's, ("fabric", None) neither
        # named, ("confirm", host) this node's link as its peers filed it
        self._filing: tuple[str, str | None] | None = None
        self._next_peer_check = 0.0
        # a hang held while a link of the job is down (netwait), the watchdog's progress mark
        # when it began, the hang itself, and when the held links were last probed
        self._hold: NetworkHold | None = None
        self._hold_mark: float | None = None
        self._hold_hang: Hang | None = None
        self._probed: tuple[float, bool] = (0.0, True)
        # an outage probed while the ranks were stalled: (the watchdog's progress mark then,
        # the outage, when it was seen), and when the last such probe ran
        self._seen: tuple[float | None, Outage, float] | None = None
        self._watched = -OUTAGE_WATCH_S
        self.clock = time.monotonic  # the hold's clock (tests pass a fake)

    def new_attempt(self) -> None:
        """An attempt's ranks are about to start: note this node's link now (a cable pulled
        during the attempt shows later) and reset the per-attempt waits."""
        self._link_before = self._link_now()
        self._culprit_deadline = self._finish_deadline = None
        self._stopped_running = set()
        self._filing = None
        self._hold = self._hold_hang = None
        self._seen = None

    def holding(self, worker_group: WorkerGroup) -> bool:
        """Whether to hold torch's reaction to a failed rank this tick (either reason below)."""
        codes = self.ops.exit_codes()
        return self._awaiting_culprit(worker_group, codes) or self._awaiting_finish(
            worker_group, codes
        )

    def _awaiting_culprit(
        self, worker_group: WorkerGroup, codes: dict[int, int | None] | None
    ) -> bool:
        """Whether to hold torch's reaction to a failure for a moment: every rank that exited
        so far only echoes a peer's failure (gloo's "Connection closed by peer") while other
        ranks still run. The peer that caused it is then usually in its interpreter's teardown
        (a `sys.exit(3)` takes longer to finish than its peers' exit after the error), and
        torch would SIGTERM it now, losing its exit status and its last words: the failure
        would be recorded as nobody's. Waits at most CULPRIT_WAIT_S per attempt."""
        failed, running = _split(codes)
        if not codes or not failed or not running:
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
                    log_path=self.cfg.run_dir.log(self.ctx.attempt, rank),
                )
                if classify(info).root_cause:
                    self._culprit_deadline = now  # the cause is known: no wait
                    return False
            self._culprit_deadline = now + CULPRIT_WAIT_S
        return now < self._culprit_deadline

    def _awaiting_finish(
        self, worker_group: WorkerGroup, codes: dict[int, int | None] | None
    ) -> bool:
        """Whether to hold torch's reaction while every rank that failed so far had finished
        its script (torch 2.13 aborts now and then in an unmodified script's interpreter
        teardown: "terminate called without an active exception", SIGABRT) and other ranks
        still run: they may be finishing theirs (rank 0 saving the final model), which torch's
        SIGTERM would cut short. At most --exit-timeout per attempt."""
        wd = self.ctx.watchdog
        failed, running = _split(codes)
        if not codes or wd is None or not failed or not running:
            return False
        self.ops.poll_events()
        workers = worker_group.workers
        for lr in failed:
            st = wd.ranks.get(workers[lr].global_rank if lr < len(workers) else lr)
            if st is None or not st.finished:
                return False
        now = time.monotonic()
        if self._finish_deadline is None:
            self._finish_deadline = now + self.cfg.exit_timeout_s
        return now < self._finish_deadline

    def finished_then_crashed(self, result: RunResult) -> bool:
        """Every rank of the job finished its script, so the ranks in `result.failures` died
        in their teardown (or were stopped by torch after a peer did): the training is over."""
        wd = self.ctx.watchdog
        if wd is None or not wd.ranks or not result.failures:
            return False
        if any(r not in wd.ranks for r in result.failures):
            return False
        return all(st.finished for st in wd.ranks.values())

    def exit_crash(self, worker_group: WorkerGroup, result: RunResult) -> RunResult:
        """The attempt succeeds: torchrun would call it failed and train again (with no
        restarts left, fail a job whose training had completed)."""
        how = ", ".join(
            f"rank {r} {signal_name(f.exitcode) or f'exit {f.exitcode}'}"
            for r, f in sorted(result.failures.items())
        )
        return self._complete_after_teardown(
            worker_group,
            "exit_crash",
            {r: self.fault_time(r) for r in sorted(result.failures)},
            reason=f"{how} after every rank had finished its script; the run is complete",
            said=f"{how} in the interpreter's teardown, after every rank had finished its "
            "script: the training is complete, not restarted",
        )

    def _complete_after_teardown(
        self,
        worker_group: WorkerGroup,
        kind: str,
        ranks: dict[int, float | None],
        *,
        reason: str,
        said: str,
    ) -> RunResult:
        """The attempt succeeds although `ranks` (rank -> last progress time) hung or crashed
        after the training was over: a detection each, one action `none`, a line on the
        console (exit_hang, exit_crash)."""
        now = time.time()
        for r, last in ranks.items():
            self.ledger.add_detection(
                attempt=self.ctx.attempt,
                kind=kind,
                detection_time_s=now,
                rank=r,
                host=self.cfg.host,
                last_progress_time_s=last,
                evidence_path=str(self.cfg.run_dir.log(self.ctx.attempt, r)),
            )
        self.ledger.add_action(
            attempt=self.ctx.attempt, time_s=now, action="none", host=self.cfg.host, reason=reason
        )
        _log.info(said)
        return RunResult(
            state=WorkerState.SUCCEEDED,
            return_values={w.global_rank: None for w in worker_group.workers},
        )

    def before_stop(self) -> float | None:
        """Just before torch's process context stops this node's ranks: note the ranks still
        running (whatever they exit with, they were stopped by us: policy.mark_collateral),
        and return STOP_WAIT_S, torch's wait before SIGKILL for them, unless one of them said
        SIGTERM reaches the script's own handler (None: torch's 30 s). A rank that has not said
        yet (no heartbeat: under half a second into its attempt; chaos killed a peer then and
        the rank waited 30 s in the store) has had no time to install one, or anything to
        save."""
        codes = self.ops.exit_codes() or {}
        to_global = self.ops.global_ranks()
        running = {to_global.get(lr, lr) for lr, code in codes.items() if code is None}
        self._stopped_running = running
        wd = self.ctx.watchdog
        if not running or wd is None:
            return None
        if any(wd.ranks.get(r) is not None and wd.ranks[r].quick_stop is False for r in running):
            return None
        return STOP_WAIT_S

    def fault_time(self, rank: int) -> float | None:
        st = self.ctx.watchdog.ranks.get(rank) if self.ctx.watchdog else None
        return st.last_event_time if st else None

    def on_failure(self, worker_group: WorkerGroup, result: RunResult) -> None:
        detect = time.time()
        self.ops.poll_events()  # the ranks' last words: the step each failed at
        infos = []
        for grank, failure in sorted(result.failures.items()):
            st = self.ctx.watchdog.ranks.get(grank) if self.ctx.watchdog else None
            infos.append(
                FailureInfo(
                    rank=grank,
                    host=self.cfg.host,
                    exit_code=failure.exitcode,
                    message=evidence.failure_message(
                        failure, self.cfg.run_dir.log(self.ctx.attempt, grank)
                    ),
                    log_path=self.cfg.run_dir.log(self.ctx.attempt, grank),
                    step=st.step if st else None,
                    attempt=self.ctx.attempt,
                    progressed=self.ctx.watchdog.progressed if self.ctx.watchdog else None,
                    anomalies=read_anomalies(self.cfg.run_dir.root)  # the guards' rollback records
                    if failure.exitcode == EXIT_ROLLBACK
                    else [],
                )
            )
        dumps = self._collect_evidence(worker_group, dead={i.rank for i in infos})
        # torch's process context stops the rest of the group once one worker fails: those
        # ranks are collateral, not causes (policy.mark_collateral)
        decided = [self.policy.decide(i) for i in infos]
        decisions = policy.mark_collateral(infos, decided, stopped=self._stopped_running)
        decisions = self._own_slow_culprit(infos, decided, decisions)
        self._filing = None
        # ranks that failed while their hang was held for the network: what did not answer
        # during the hold is the evidence, even if it answers by now
        held, self._hold = self._hold, None
        if decisions and not any(d.root_cause for d in decisions):
            decisions[0] = self._network_decision(decisions[0], held.outage if held else None)
        for i, (info, d) in enumerate(zip(infos, decisions, strict=True)):
            self.ledger.add_detection(
                attempt=self.ctx.attempt,
                kind="exit",
                detection_time_s=detect,
                rank=info.rank,
                host=info.host,
                last_progress_time_s=self.fault_time(info.rank),
                evidence_path=str(info.log_path),
            )
            decisions[i] = self._record(
                d,
                rank=info.rank,
                time_s=self.fault_time(info.rank) or detect,
                exit_code=info.exit_code,
                facts={"dumps": dumps, "triage": d.evidence[:10]},
            )
        lost = None if any(d.root_cause for d in decisions) else self._name_lost_peer(infos)
        if lost is not None:  # one decision: the lost node excluded, this one restarts
            self._act(lost, culprit_hosts=list(lost.hosts))
            return
        # only our ranks echoing a peer's failure: the culprit is elsewhere, never us
        root, culprits = policy.pick_root(decisions, self.cfg.host)
        self._act(root, culprit_hosts=culprits)

    def _link_now(self) -> Any:
        """This node's link toward its peers (the interface holding the address it recorded
        in nodes/<host>.json), as the kernel counts its carrier; None on one host."""
        from nonstop.diagnose import peers

        own = {h: a for a, h in peers.node_addresses(self.cfg.run_dir.root).items()}
        address = own.get(self.cfg.host)
        return peers.link_state(address) if address else None

    def own_link_flap(self) -> str | None:
        """Words for this node's link when it went down during the attempt (or is down now),
        else None (one host, or no change)."""
        link, before = self._link_now(), self._link_before
        return link.flapped_since(before) if link is not None and before is not None else None

    def _network_decision(self, d: Decision, held: Outage | None = None) -> Decision:
        """The network's part in a failure or hang of ours, from where the kernel leaves it,
        and how the row about to be recorded is filed (self._filing; netroot: one network
        root cause per attempt, on the host whose link failed, whoever files it first).
        This node's own link went down during the attempt (a carrier change counted, or down
        now): a pulled cable or a flapping port (restart; excluded when it repeats). Else, for
        a hang or an echo: the peers have filed this node's link already (this node confirms
        it); or a network root cause is on record (ours joins it); or the peers this node
        cannot reach (a TCP connect to the rendezvous port unanswered) name it: one peer
        while the others answer is that peer's link (filed on its host), none reached is the
        fabric (a switch), a mix is the network, undetermined. `held`: the outage a held
        hang waited out (its unreachable peers stand when they answer again)."""
        before = self._link_before
        if before is None:
            return d  # one host, or no address recorded: nothing between hosts to blame
        host, attempt = self.cfg.host, self.ctx.attempt
        now = self._link_now()
        flap = now.flapped_since(before) if now is not None else None
        if flap:
            self._absorb_echoes(f"{host}'s link went down")
            self._filing = ("own", host)
            return policy.link_down(d, flap, self._link_flaps(host))
        if d.root_cause and d.category not in ("hang", "nccl_watchdog_timeout", "unknown"):
            return d
        said = netroot.filed_by_peers(self.ledger, host, attempt)
        if said is not None:
            return self._peers_named_us(d, said[1])
        recorded = netroot.failed_roots(self.ledger, attempt)
        if recorded:  # a hang or an echo here, the network's failure recorded already
            self._filing = ("fabric", None)  # joins it: its reporters, our row secondary
            return d
        unreachable, total = self._unreachable_peers()
        if not unreachable and held is not None and held.unreachable:
            # the kill was held while these peers did not answer; they do now, but the ranks
            # did not resume: what was unreachable is the evidence
            unreachable, total = list(held.unreachable), held.total
        if not unreachable:
            return d
        if len(unreachable) == 1 and total >= 2:  # the switch works: that node's link
            link = unreachable[0]
            flaps = len(netroot.link_flap_attempts(self.ledger, link, before=attempt)) + 1
            d = policy.peer_link_down(d, link, total - 1, total, flaps)
            self._filing = ("peer", link) if d.hosts == [link] else None
        else:
            d = policy.peers_unreachable(d, unreachable, total)
            self._filing = ("fabric", None) if d.category == netroot.NETWORK else None
        self._absorb_echoes("the network")
        return d

    def _unreachable_peers(self, among: tuple[str, ...] = ()) -> tuple[list[str], int]:
        """(the peer nodes of this attempt that do not answer a TCP connect to the
        rendezvous port, how many were asked); `among`: only those hosts."""
        from nonstop.diagnose import peers

        root, host = self.cfg.run_dir.root, self.cfg.host
        in_attempt = set(evidence.hosts_of_attempt(root, self.ctx.attempt).values())
        others = {
            a: h
            for a, h in peers.node_addresses(root).items()
            if h != host and h in in_attempt and (not among or h in among)
        }
        answers = peers.reachable(others, peers.rdzv_port(root), timeout_s=PROBE_TIMEOUT_S)
        return sorted(others[a] for a, ok in answers.items() if not ok), len(others)

    def _peers_named_us(self, d: Decision, reporters: list[str]) -> Decision:
        """The peers filed this node's link as the attempt's root cause (they reached every
        node but this one) and this node's carrier counted no change (a switch port, or a
        link down on the far side): this node takes it as its own link's failure, counted
        toward its exclusion, and confirms the root cause's action (netroot.confirm)."""
        words = (
            f"this node's link: its peers {', '.join(reporters) or '?'} could not reach it "
            "(its own carrier counted no change)"
        )
        self._filing = ("confirm", self.cfg.host)
        return policy.link_down(d, words, self._link_flaps(self.cfg.host))

    def _link_flaps(self, host: str) -> int:
        """The attempts in which `host`'s link failed, this one included: the policy's
        memory and the ledger's root causes (a peer may have filed one this agent missed)."""
        attempt = self.ctx.attempt
        known = netroot.link_flap_attempts(self.ledger, host, before=attempt)
        return self.policy.link_flaps(host, attempt, earlier=known)

    def _record(
        self,
        d: Decision,
        *,
        rank: int,
        time_s: float,
        facts: dict[str, Any],
        exit_code: int | None = None,
    ) -> Decision:
        """The ledger's row of one of this node's failed or hung ranks. A network filing
        (self._filing, consumed here) goes through netroot, and comes back secondary when it
        joined a root cause another node recorded first."""
        host, attempt = self.cfg.host, self.ctx.attempt
        row = netroot.Row(
            time_s=time_s,
            action=d.action if d.root_cause else "none",
            rank=rank,
            host=host,
            message=d.reason,
            evidence=facts,
            exit_code=exit_code,
            signal=signal_name(exit_code),
        )
        filing, self._filing = self._filing, None
        if filing is None:
            self.ledger.add_failure(
                attempt=attempt,
                time_s=time_s,
                category=d.category,
                action=row.action,
                rank=rank,
                host=host,
                exit_code=exit_code,
                signal=row.signal,
                message=d.reason[:2000],
                evidence=facts,
                root_cause=d.root_cause,
            )
            return d
        kind, link = filing
        if kind == "confirm":
            self._confirm(d, row)
            return d
        own = None
        if kind == "peer" and link is not None:  # the root cause goes on the link's host
            theirs = evidence.ranks_of_host(self.cfg.run_dir.root, attempt, link)
            peer_rank = theirs[0] if theirs else None
            own, row = row, replace(row, rank=peer_rank, host=link, exit_code=None, signal=None)
        filed = netroot.file(
            self.ledger,
            attempt=attempt,
            reporter=host,
            link_of=link,
            direct=kind == "own",
            root=row,
            own=own,
        )
        if filed.root:
            return d
        return replace(
            d,
            root_cause=False,
            reason=f"secondary (the network, recorded by {filed.into}): {d.reason}",
        )

    def _confirm(self, d: Decision, row: netroot.Row) -> None:
        """This node's link as its peers filed it: the root cause takes this node's action
        (its own count of its link's failures), this node's rank is recorded secondary."""
        netroot.confirm(
            self.ledger,
            attempt=self.ctx.attempt,
            host=self.cfg.host,
            action=d.action,
            words=f"confirmed by its own agent -> {d.action}",
        )
        self.ledger.add_failure(
            attempt=self.ctx.attempt,
            time_s=row.time_s,
            category=netroot.NETWORK,
            action="none",
            rank=row.rank,
            host=row.host,
            exit_code=row.exit_code,
            signal=row.signal,
            message=f"secondary (this node's link, recorded by its peers): {d.reason}"[:2000],
            evidence=row.evidence,
            root_cause=False,
        )

    def peers_named_this_link(
        self, worker_group: WorkerGroup, *, force: bool = False
    ) -> RunResult | None:
        """While this node's ranks run: whether the peers filed this node's link as the
        attempt's root cause (they reached every node but this one). Its ranks are stuck in
        the same collective, and the others' restart would stop them before this node's own
        hang timeout fires, leaving the failure recorded by the peers alone and this node's
        link uncounted: this node acts on it now, as on a hang of its own (its ranks killed,
        its link's failures counted, excluded on a repeat). Checked at most every
        PEER_FILING_CHECK_S (`force`: now; the agent's membership restart asks before it
        stops the ranks); None while nothing was filed."""
        if self._link_before is None:
            return None  # one host: no peers to file anything
        now = time.monotonic()
        if now < self._next_peer_check and not force:
            return None
        self._next_peer_check = now + PEER_FILING_CHECK_S
        said = netroot.filed_by_peers(self.ledger, self.cfg.host, self.ctx.attempt)
        if said is None:
            self._claim_healed(worker_group)
            return None
        detect = time.time()
        link = self._link_now()
        flap = link.flapped_since(self._link_before) if link is not None else None
        hang = Decision("hang", "restart", "its ranks wait on the peers it cannot reach")
        if flap:
            d = policy.link_down(hang, flap, self._link_flaps(self.cfg.host))
        else:
            d = self._peers_named_us(hang, said[1])
        workers = worker_group.workers
        first = workers[0].global_rank if workers else None
        self.ledger.add_detection(
            attempt=self.ctx.attempt,
            kind="peer_filed",
            detection_time_s=detect,
            rank=first,
            host=self.cfg.host,
            last_progress_time_s=self.fault_time(first) if first is not None else None,
        )
        self._confirm(
            d, netroot.Row(time_s=detect, action="none", rank=first, host=self.cfg.host,
                           message=d.reason)
        )  # fmt: skip
        failures = {}
        for w in workers:
            with contextlib.suppress(ProcessLookupError, TypeError):
                os.kill(int(w.id), signal.SIGKILL)
            failures[w.global_rank] = ProcessFailure(w.local_rank, int(w.id or 0), -9, "")
        _log.info(f"the peers {', '.join(said[1])} filed this node's link: {d.reason}")
        self._act(d, culprit_hosts=[self.cfg.host])
        return RunResult(state=WorkerState.FAILED, failures=failures)

    def _absorb_echoes(self, cause: str) -> None:
        """The other nodes' hangs and echoes recorded as root causes in this attempt become
        secondary to `cause` (their network filings are netroot's to merge)."""
        kinds = ["hang", "nccl_watchdog_timeout", "unknown"]
        marks = ", ".join("?" * len(kinds))
        with self.ledger.transaction() as conn:
            conn.execute(
                "UPDATE failures SET root_cause = 0, action = 'none',"
                " message = 'secondary (' || ? || '): ' || message"
                f" WHERE attempt = ? AND host != ? AND root_cause = 1 AND category IN ({marks})",
                (cause, self.ctx.attempt, self.cfg.host, *kinds),
            )

    def _own_slow_culprit(
        self, infos: list[FailureInfo], decided: list[Decision], decisions: list[Decision]
    ) -> list[Decision]:
        """When every rank that failed by itself only echoes a peer on this very host (gloo's
        "Connection closed by peer [127.0.0.1]"), the culprit is one of this node's ranks
        that was still running when the agent stopped them: a rank whose connections closed
        first but whose exit was slow (a killed DataLoader worker's teardown outlasting
        CULPRIT_WAIT_S on a loaded host). mark_collateral made it secondary, so the attempt
        had no root cause on record. It is the one stopped rank whose own decision was a
        cause; nothing changes when several could be or none is, when an echo names another
        host (its node speaks for it), or when a cause is already known."""
        from nonstop.diagnose import peers

        stopped = self._stopped_running
        if any(d.root_cause for d in decisions) or not stopped:
            return decisions
        echoes = [i for i in infos if i.rank not in stopped]
        named = {
            ip
            for i in echoes
            for ip in peers.failing_peers(evidence.last_words(i.log_path, i.message))
        }
        if not echoes or not named or not all(self._own_address(ip) for ip in named):
            return decisions
        # a stopped rank whose own words echo a peer is no cause (decided: not a root cause)
        causes = [k for k, i in enumerate(infos) if i.rank in stopped and decided[k].root_cause]
        if len(causes) != 1:
            return decisions
        k = causes[0]
        out = list(decisions)
        out[k] = replace(
            decided[k],
            root_cause=True,
            evidence=list(decided[k].evidence),
            hosts=list(decided[k].hosts),
            reason=(
                f"the culprit on this node: its peers' failing connections name this host "
                f"and rank {infos[k].rank} was still running when they failed (stopped by "
                f"the agent): {decided[k].reason}"
            ),
        )
        return out

    def _own_address(self, ip: str) -> bool:
        """Whether `ip` is this host's: loopback, the address its agent recorded, or held by
        one of its interfaces."""
        import ipaddress

        from nonstop.diagnose import peers

        try:
            if ipaddress.ip_address(ip).is_loopback:
                return True
        except ValueError:
            return False
        recorded = peers.node_addresses(self.cfg.run_dir.root)
        if recorded.get(ip) == self.cfg.host:
            return True
        try:
            return peers.interface_of(ip) is not None
        except OSError:
            return False

    def _name_lost_peer(self, infos: list[FailureInfo]) -> Decision | None:
        """Only our ranks failed, each echoing a peer ("connection closed by peer [a.b.c.d]").
        When every failing connection names one host and that host's agent records nothing
        of its own within LOST_PEER_WAIT_S, the node is gone whole (no agent left to speak):
        record its loss as the attempt's root cause, on its behalf, once for the run, and its
        exclusion as its action (it left the job); the decision every survivor acts on (the
        one that recorded it, or one that finds it recorded): exclude_node on the lost host,
        which policy.resolve makes a restart without it here."""
        from nonstop.diagnose import peers

        root = self.cfg.run_dir.root
        by_address = peers.node_addresses(root)
        own = {h: a for a, h in by_address.items()}
        reports = [(self.cfg.host, evidence.last_words(i.log_path, i.message)) for i in infos]
        link = peers.common_peer(reports, by_address, own=own)
        # only a node of this job can be lost: one whose agent recorded its address. On one
        # host no agent records one, and the echoes name the loopback address, which a
        # reverse lookup calls "localhost": that is this host, whose own slow rank (a
        # DataLoader's teardown) had not exited yet, not a peer gone whole
        if link is None or link.host == self.cfg.host or link.host not in own:
            return None
        lost_host, attempt = link.host, self.ctx.attempt
        deadline = time.monotonic() + LOST_PEER_WAIT_S
        # its agent spoke for its ranks, or the attempt's cause is already on record (a peer
        # whose agent stopped its ranks for a lost store is alive: not lost)
        seen = "SELECT COUNT(*) FROM failures WHERE attempt = ? AND (host = ? OR root_cause = 1)"
        while time.monotonic() < deadline:
            if self.ledger.rows(seen, (attempt, lost_host))[0][0]:
                return self._lost_on_record(lost_host)
            time.sleep(0.2)
        ranks = evidence.ranks_of_host(root, attempt, lost_host)
        message = (
            f"node {lost_host} lost: its agent recorded nothing {LOST_PEER_WAIT_S:.0f} s "
            f"after its peers failed (ranks {ranks or '?'}); {link.text()}; the job goes on "
            "without it (the host is gone: a crash, a reboot, a power loss or a host taken; "
            "a replaced machine may join again)"
        )
        # the check and the record in one write transaction: two survivors that waited out
        # the same silence would otherwise both record the loss (the multi-node soak saw two
        # records 20 ms apart)
        with self.ledger.transaction():
            if self.ledger.rows(seen, (attempt, lost_host))[0][0]:
                return self._lost_on_record(lost_host)  # another survivor recorded it first
            self.ledger.add_failure(
                attempt=attempt,
                time_s=time.time(),
                category=LOST_NODE,
                action=taxonomy.action_for(LOST_NODE),
                rank=ranks[0] if ranks else None,
                host=lost_host,
                exit_code=None,
                signal=None,
                message=message[:2000],
                evidence={"link": link.to_dict()},
                root_cause=True,
            )
            self.ledger.add_action(
                attempt=attempt,
                time_s=time.time(),
                action=taxonomy.action_for(LOST_NODE),
                host=lost_host,
                reason=f"left the job (recorded by {self.cfg.host}, its agent is gone): "
                + message[:1900],
            )
        return _lost_decision(lost_host, message)

    def _lost_on_record(self, host: str) -> Decision | None:
        """The loss of `host` another survivor recorded in this attempt, as the decision to
        act on; None when what is on record is something else (its agent spoke: not lost)."""
        rows = self.ledger.rows(
            "SELECT message FROM failures WHERE attempt = ? AND host = ? AND root_cause = 1"
            " AND category = ? ORDER BY id LIMIT 1",
            (self.ctx.attempt, host, LOST_NODE),
        )
        return _lost_decision(host, str(rows[0][0])) if rows else None

    def on_hang(self, worker_group: WorkerGroup, hang: Hang) -> RunResult | None:
        local = {w.global_rank: w for w in worker_group.workers}
        mine = [r for r in hang.culprits if r in local]
        if not mine and hang.stalled_s < 2 * hang.timeout_s:
            self._watch_outage()  # found after the network is back, it is still held
            return None  # the culprit's own node acts first
        if self._finished_by_peers(hang):
            return self._exit_hang(worker_group, hang, mine)
        if self._holding(hang):
            return None  # a link of the job is down: the network may give the job back
        held, self._hold = self._hold, None
        detect = time.time()
        stopped = [r for r in mine if evidence.proc_state(local[r].id) == "T"]
        dumps = self._collect_evidence(worker_group, dead=set(stopped))
        culprit = (mine or hang.culprits)[0]
        reason = hang.reason + (f"; ranks {stopped} are stopped (SIGSTOP)" if stopped else "")
        info = FailureInfo(
            rank=culprit,
            host=self.cfg.host,
            hang_reason=reason,
            step=hang.ranks.get(culprit, {}).get("step"),
            attempt=self.ctx.attempt,
        )
        self._filing = None
        d = self._network_decision(self.policy.decide(info), held.outage if held else None)
        d.evidence += [
            f"stalled {hang.stalled_s:.1f} s > timeout {hang.timeout_s:.1f} s ({hang.basis})"
        ]
        if held is not None:
            waited = (
                f"the kill was held {held.held_s():.0f} s while {held.outage.words} "
                f"(down {held.outage_s():.0f} s): {held.why}"
            )
            d = replace(d, reason=f"{d.reason}; {waited}", evidence=[*d.evidence, waited])
        self.ledger.add_detection(
            attempt=self.ctx.attempt,
            kind="hang",
            detection_time_s=detect,
            rank=culprit,
            host=self.cfg.host,
            last_progress_time_s=hang.last_progress_time,
            evidence_path=str(self.cfg.run_dir.flight_dir(self.ctx.attempt)),
        )
        d = self._record(
            d,
            rank=culprit,
            time_s=hang.last_progress_time,
            facts={
                "dumps": dumps,
                "hang": {
                    "culprits": hang.culprits,
                    "basis": hang.basis,
                    "timeout_s": hang.timeout_s,
                    "ranks": hang.ranks,
                },
            },
        )
        _log.info(
            f"hang detected after {hang.stalled_s:.1f} s without progress "
            f"(timeout {hang.timeout_s:.1f} s, {hang.basis}): rank {culprit} {reason}"
        )
        failures = {}
        for w in worker_group.workers:  # SIGKILL works on stopped processes too
            with contextlib.suppress(ProcessLookupError, TypeError):
                os.kill(int(w.id), signal.SIGKILL)
            if w.global_rank in mine or not mine:
                failures[w.global_rank] = ProcessFailure(w.local_rank, int(w.id), -9, "")
        # a peer's link named: that node is the culprit (excluded there, on a repeat), not us
        self._act(d, culprit_hosts=d.hosts or [self.cfg.host])
        return RunResult(state=WorkerState.FAILED, failures=failures)

    # -- a hang held while a link of the job is down (netwait) -------------------------------

    def _holding(self, hang: Hang) -> bool:
        """Whether to hold this hang's kill now: a link of the job is down (or was during the
        attempt and just came back) and the hold has not run out (netwait.NetworkHold)."""
        if self._hold is None:
            if self.cfg.network_hold_s <= 0 or self._hold_hang is not None:
                return False  # off, or this attempt's hold ran out already
            outage = self._outage_now() or self._seen_this_stall()
            if outage is None:
                return False
            cap = cap_for(outage, self.cfg.network_hold_s)
            self._hold = NetworkHold(outage, cap_s=cap, clock=self.clock, before_s=hang.stalled_s)
            self._hold_hang, self._probed = hang, (self.clock(), outage.down)
            wd = self.ctx.watchdog
            self._hold_mark = wd.last_progress if wd is not None else None
            _log.info(
                f"hang after {hang.stalled_s:.1f} s without progress while {outage.words}: "
                f"holding the kill up to {cap:g} s for the network to "
                "give the collective back"
            )
            return True
        verdict = self._hold.update(down=self._still_down(), progressed=False)
        if verdict == HOLD:
            return True
        _log.info(f"no longer holding the hang: {self._hold.why}")
        return False

    def _outage_now(self) -> Outage | None:
        """A link of the job down: this node's carrier (down now, or changed during the
        attempt: back already), else the peer nodes that do not answer; None when neither."""
        before = self._link_before
        if before is None:
            return None  # one host: no link between hosts
        link = self._link_now()
        flap = link.flapped_since(before) if link is not None else None
        if link is not None and flap:
            return Outage("own", flap, down=link.operstate not in ("up", "unknown"))
        unreachable, total = self._unreachable_peers()
        if not unreachable:
            return None
        kind = "peer" if len(unreachable) == 1 and total >= 2 else "fabric"
        words = f"peer node(s) {', '.join(unreachable)} unreachable ({len(unreachable)} of {total})"
        if len(unreachable) == total >= 2:  # as policy.peers_unreachable says it
            words = f"the fabric: this node's link is up but it reached none of its {total} peers"
        return Outage(kind, words, unreachable=tuple(unreachable), total=total)

    def _watch_outage(self) -> None:
        """Probe for an outage while the ranks are stalled but this node does not act yet (the
        culprit's node acts first, for up to a second timeout), and remember it for this
        stall. A switch down for 10 s under a 5 s hang timeout is back before this node calls
        the hang at 10 s; a probe then sees every peer answer, and without this memory the
        node restarted the job while the collective's TCP retransmission was about to bring
        it back (tests/cluster's switch test, under load). This node's own carrier needs no
        watch: the kernel counts its changes (_outage_now)."""
        wd = self.ctx.watchdog
        if wd is None or self.cfg.network_hold_s <= 0 or self._link_before is None:
            return
        now = self.clock()
        if self._hold is not None or now - self._watched < OUTAGE_WATCH_S:
            return
        self._watched = now
        outage = self._outage_now()
        if outage is not None:
            self._seen = (wd.last_progress, outage, now)

    def _seen_this_stall(self) -> Outage | None:
        """The outage _watch_outage saw during this stall (the watchdog's progress mark
        unchanged since), as back already; None when none was seen."""
        wd, seen = self.ctx.watchdog, self._seen
        if wd is None or seen is None or seen[0] != wd.last_progress:
            return None
        _, outage, at = seen
        ago = self.clock() - at
        words = f"{outage.words}, seen {ago:.0f} s before the hang was called (answering now)"
        return replace(outage, words=words, down=False)

    def _still_down(self) -> bool:
        """The held outage still on: this node's link down, or a peer that did not answer
        still silent (probed at most every PEER_FILING_CHECK_S: a silent peer costs the
        probe's timeout)."""
        hold = self._hold
        assert hold is not None
        if hold.outage.kind == "own":
            link = self._link_now()
            return link is not None and link.operstate not in ("up", "unknown")
        at, down = self._probed
        if self.clock() - at >= PEER_FILING_CHECK_S:
            down = bool(self._unreachable_peers(among=hold.outage.unreachable)[0])
            self._probed = (self.clock(), down)
        return down

    def hang_cleared(self, worker_group: WorkerGroup) -> None:
        """The watchdog sees no hang now. A held hang whose ranks made progress healed by
        itself: recorded as the network's incident (_record_healed), nothing restarts."""
        hold, wd = self._hold, self.ctx.watchdog
        if hold is None or wd is None:
            return
        mark, now = self._hold_mark, wd.last_progress
        if now is None or (mark is not None and now <= mark):
            return  # not the ranks' progress (an exit, a section): the hold goes on
        if hold.update(down=False, progressed=True) == HEALED:
            self._record_healed(worker_group, hold)
            self._hold = self._hold_hang = None  # a later outage of the attempt is held too

    def _record_healed(self, worker_group: WorkerGroup, hold: NetworkHold) -> None:
        """A network incident that healed: one root cause per incident (netroot merges the
        nodes' filings), on the failing link's host, action none; this node's action
        `continue` (nothing restarted, no step redone)."""
        o, host, attempt = hold.outage, self.cfg.host, self.ctx.attempt
        hang = self._hold_hang
        assert hang is not None
        back = hold.held_s() - hold.outage_s()
        stalled = hang.stalled_s + hold.held_s()  # from the job's last progress
        words = (
            f"healed without a restart: the job stalled {stalled:.0f} s (the link seen down "
            f"{hold.outage_s():.0f} s of them, after the hang was called), resumed by itself "
            f"{back:.0f} s after the link's return, 0 steps redone; {o.words}"
        )
        facts = {
            "healed": True,
            "stalled_s": round(stalled, 1),
            "outage_s": round(hold.outage_s(), 1),
            "held_s": round(hold.held_s(), 1),
            "steps_redone": 0,
            "outage": o.words,
        }
        workers = worker_group.workers
        rank = workers[0].global_rank if workers else None
        link_of = {"own": host, "peer": o.unreachable[0] if o.unreachable else None}.get(o.kind)
        where = link_of or host
        if where != host:
            theirs = evidence.ranks_of_host(self.cfg.run_dir.root, attempt, where)
            rank = theirs[0] if theirs else None
        row = netroot.Row(
            time_s=hang.last_progress_time,
            action="none",
            rank=rank,
            host=where,
            message=f"{words} (seen from {host})" if where != host else words,
            evidence=facts,
        )
        netroot.file(
            self.ledger,
            attempt=attempt,
            reporter=host,
            link_of=link_of,
            direct=o.kind == "own",
            root=row,
        )
        self.ledger.add_action(
            attempt=attempt, time_s=time.time(), action="continue", host=host, reason=words
        )
        self.ops.ingest(force=True)
        _log.info(f"the network gave the job back: {words}")

    def _claim_healed(self, worker_group: WorkerGroup) -> None:
        """The peers recorded an outage that healed, unplaced (two nodes: node0 alone cannot
        tell node1's link from the switch) or on this node's link, while this node's own
        carrier changed during the attempt: this node's link it was. Its agent may never
        have seen the hang (its monitor loop waits on the rendezvous store across the same
        link), so it files the incident here, as its own link's (netroot: it takes the root
        cause over); no action of its own, its ranks simply went on."""
        if not netroot.unclaimed_healed(self.ledger, self.ctx.attempt, self.cfg.host):
            return
        link = self._link_now()
        flap = link.flapped_since(self._link_before) if link is not None else None
        if not flap:
            return
        workers = worker_group.workers
        rank = workers[0].global_rank if workers else None
        for t, ev in netroot.unclaimed_healed(self.ledger, self.ctx.attempt, self.cfg.host):
            keys = ("stalled_s", "outage_s", "held_s", "steps_redone", "outage")
            facts = {k: ev.get(k) for k in keys}
            words = (
                f"healed without a restart: the job stalled {ev.get('stalled_s')} s as its "
                "peers saw it, and resumed by itself, 0 steps redone; "
                f"{flap}"
            )
            row = netroot.Row(
                time_s=t, action="none", rank=rank, host=self.cfg.host, message=words,
                evidence={**facts, "healed": True},
            )  # fmt: skip
            netroot.file(
                self.ledger,
                attempt=self.ctx.attempt,
                reporter=self.cfg.host,
                link_of=self.cfg.host,
                direct=True,
                root=row,
            )
            _log.info(f"the network gave the job back: {words}")

    def _finished_by_peers(self, hang: Hang) -> bool:
        """Every rank but the stuck ones finished its script (or exited): in synchronous
        training no rank finishes while a peer still needs it, so the job's work is done and
        the stuck ranks hang in teardown (torch's exit-time deadlocks: a gloo thread waiting for
        the GIL that ~ProcessGroupGloo holds)."""
        wd = self.ctx.watchdog
        if wd is None or hang.basis != "exit" or not hang.culprits:
            return False
        others = [st for r, st in wd.ranks.items() if r not in hang.culprits]
        return bool(others) and all(st.done for st in others)

    def _exit_hang(self, worker_group: WorkerGroup, hang: Hang, mine: list[int]) -> RunResult:
        """Kill the ranks stuck after their peers finished, and let the attempt succeed: the
        training is over (torchrun would wait on them forever)."""
        for w in worker_group.workers:
            if w.global_rank in mine:
                with contextlib.suppress(ProcessLookupError, TypeError):
                    os.kill(int(w.id), signal.SIGKILL)
        return self._complete_after_teardown(
            worker_group,
            "exit_hang",
            dict.fromkeys(hang.culprits, hang.last_progress_time),
            reason=f"ranks {hang.culprits} did not exit {hang.stalled_s:.0f} s "
            "after their peers finished; killed, the run is complete",
            said=f"ranks {hang.culprits} were still running {hang.stalled_s:.0f} s "
            "after every peer had finished (stuck tearing down); killed them: the training "
            "is complete",
        )

    def _collect_evidence(self, worker_group: WorkerGroup, dead: set[int]) -> list[str]:
        """Ask every live rank for its flight-recorder trace and Python stacks, briefly, and
        keep this node's kernel-log lines of the attempt (nonstop.supervisor.evidence)."""
        t0 = time.time()
        files = evidence.collect(
            self.ctx,
            self.cfg.run_dir,
            self.ctx.attempt,
            worker_group.workers,
            dead=dead,
            host=self.cfg.host,
            timeout_s=self.cfg.evidence_timeout_s,
            attempt_start=self.ctx.attempt_start,
            kernel_log_file=self.cfg.kernel_log,
        )
        self.ops.record_phase("evidence", t0)
        return files

    def _refine(self, d: Decision, hosts: list[str]) -> tuple[Decision, list[str]]:
        """Join flight dumps, every rank's log and the ledger (nonstop.diagnose); a more
        confident, more specific verdict overrides the per-rank classification
        (policy.refine)."""
        try:
            from nonstop.diagnose import diagnose_run

            v = diagnose_run(self.cfg.run_dir.root, attempt=self.ctx.attempt)
        except Exception as e:
            d.evidence.append(f"diagnose failed: {type(e).__name__}: {e}")
            return d, hosts
        return policy.refine(
            d,
            hosts,
            category=v.category,
            action=v.action,
            confidence=v.confidence,
            verdict=v.verdict,
            hosts=list(v.hosts or []),
        )

    def _act(self, d: Decision, culprit_hosts: list[str]) -> None:
        self.last_decision = d
        now = time.time()
        self.ledger.attempt_ended(self.ctx.attempt, time_s=now, outcome="failed")
        d, culprit_hosts = self._refine(d, culprit_hosts)
        health = self._health_checks(d)
        res = policy.resolve(
            d,
            culprits=culprit_hosts,
            host=self.cfg.host,
            exclude=self.cfg.exclude,
            health_failed=tuple(r.detail for r in health if r.failed),
            restarts_left=self.ops.restarts_left(),
        )
        d = self.last_decision = res.decision
        action = res.action
        if res.stop_restarts:
            self.ops.no_more_restarts()
        if res.leaving:
            self.ctx.leaving = True
        if res.exit_code is not None:
            self.ctx.exit_code, self.ctx.exit_message = res.exit_code, res.message
        self.ledger.add_action(
            attempt=self.ctx.attempt,
            time_s=time.time(),
            action=action,
            host=self.cfg.host,
            reason=d.reason[:2000],
        )
        self.ops.ingest(force=True)
        if self.live is not None:
            self.live.failure(self.ctx.attempt, d, action)
        if action == "restart" and res.exit_code is not None:  # --max-restarts spent
            action_said = "restart, but none is left (--max-restarts)"
        else:
            action_said = action
        _log.info(f"attempt {self.ctx.attempt} failed: [{d.category}] {d.reason} -> {action_said}")

    def _health_checks(self, d: Decision) -> list[Any]:
        names = list(self.cfg.health_checks)
        if self.cfg.self_test and d.category in SELF_TEST_AFTER:
            names.append("collective")
        if not names:
            return []
        t0 = time.time()
        cfg = HealthConfig(
            paths=(self.cfg.run_dir.root, self.cfg.run_dir.checkpoints),
            local_world_size=self.ops.local_world_size(),
            timeout_s=self.cfg.health_timeout_s,
            gpu_record=gpu_record_path(self.cfg.run_dir.control, self.cfg.host),
            evidence_dir=self.cfg.run_dir.root
            / "logs"
            / f"attempt-{self.ctx.attempt}"
            / f"vendor-{self.cfg.host}",
        )
        results = run_checks(names, cfg, self_tests=self.ctx.self_tests)
        for r in results:
            self.ledger.add_health_check(
                attempt=self.ctx.attempt,
                time_s=time.time(),
                name=r.name,
                status=r.status,
                host=self.cfg.host,
                detail=r.detail,
                duration_s=r.duration_s,
            )
        self.ops.record_phase("health_checks", t0)
        return results
