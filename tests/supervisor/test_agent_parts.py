"""The node agent's parts through their interfaces (nonstop.supervisor.context): a
FailureHandler and a PlannedStopMachine built from an AgentContext on a real run directory and
ledger, with a stand-in for the agent's side (support.fakes.AgentOps: the ranks' exit codes as
the test sets them, every call recorded). The end-to-end tests (test_run_*.py) confirm the
wiring into torch's agent; these check what each part decides and records on its own."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest
from support.fakes import AgentOps, Clock
from torch.distributed.elastic.agent.server.api import RunResult, WorkerState
from torch.distributed.elastic.multiprocessing.errors import ProcessFailure

from nonstop import rundir
from nonstop.events import Event
from nonstop.events.writer import EventWriter
from nonstop.ledger import Ledger
from nonstop.supervisor import failures
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.context import AgentContext
from nonstop.supervisor.failures import FailureHandler
from nonstop.supervisor.planned_stop import PlannedStopMachine, read_stop, write_request
from nonstop.supervisor.policy import EXIT_PAGE, EXIT_REQUEUE, FailureInfo
from nonstop.supervisor.watchdog import Hang, Watchdog

HOST = "node-a"


@pytest.fixture
def ctx(tmp_path):
    cfg = SupervisorConfig(
        run_dir=rundir.RunDir(tmp_path / "run"),
        run_id="r",
        host=HOST,
        health_checks=(),  # no checks between attempts: not what these tests are about
        self_test=False,
        evidence_timeout_s=0.2,
    )
    cfg.run_dir.control.mkdir(parents=True)
    ledger = Ledger.open(cfg.run_dir.ledger)
    c = AgentContext(cfg=cfg, ledger=ledger, attempt=0, attempt_start=time.time())
    ledger.attempt_started(0, time_s=c.attempt_start, world_size=2, nodes=[HOST])
    yield c
    ledger.close()


def _event(rank: int, kind: str, host: str = HOST, **payload: object) -> Event:
    return Event(
        run_id="r", attempt=0, rank=rank, host=host, mono=0.0, time=time.time(),
        kind=kind, payload=payload,
    )  # fmt: skip


def _group(pids: list[int | None], group_rank: int = 0) -> SimpleNamespace:
    workers = [
        SimpleNamespace(id=pid, local_rank=lr, global_rank=lr) for lr, pid in enumerate(pids)
    ]
    return SimpleNamespace(workers=workers, group_rank=group_rank, spec=None)


def _failed(**codes: int) -> RunResult:
    fails = {int(r[1:]): ProcessFailure(int(r[1:]), 0, c, "") for r, c in codes.items()}
    return RunResult(state=WorkerState.FAILED, failures=fails)


def _rows(ledger: Ledger, sql: str) -> list[tuple]:
    return [tuple(r) for r in ledger.rows(sql)]


def _actions(ledger: Ledger) -> list[str]:
    return [a for (a,) in _rows(ledger, "SELECT action FROM actions ORDER BY id")]


# -- FailureHandler ------------------------------------------------------------------------


def test_an_echo_holds_torch_for_the_culprit_and_a_known_cause_does_not(ctx, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    log0 = ctx.cfg.run_dir.log(0, 0)
    log0.parent.mkdir(parents=True)
    log0.write_text("RuntimeError: [gloo] Connection closed by peer [10.0.0.2]:4242\n")
    ops = AgentOps({0: 1, 1: None}, {0: 0, 1: 1})
    handler = FailureHandler(ctx, ops)
    assert handler.holding(_group([None, None])) is True  # rank 1 may be the culprit
    clock.t += failures.CULPRIT_WAIT_S + 0.1
    assert handler.holding(_group([None, None])) is False  # waited long enough
    handler.new_attempt()  # a new attempt waits again, once
    log0.write_text("Traceback (most recent call last):\nZeroDivisionError: division by zero\n")
    assert handler.holding(_group([None, None])) is False  # rank 0 failed of its own


def test_a_user_error_before_any_progress_pages_and_ends_torchs_restarts(ctx):
    log0 = ctx.cfg.run_dir.log(0, 0)
    log0.parent.mkdir(parents=True)
    log0.write_text("Traceback (most recent call last):\nZeroDivisionError: division by zero\n")
    ctx.watchdog = Watchdog(ranks=[0, 1])
    ops = AgentOps({0: 1, 1: -15}, {0: 0, 1: 1}, restarts=3)
    handler = FailureHandler(ctx, ops)
    handler.on_failure(_group([None, None]), _failed(r0=1))
    assert ctx.exit_code == EXIT_PAGE and "ZeroDivisionError" in ctx.exit_message
    assert "no_more_restarts" in ops.names() and ("ingest", (True,)) in ops.calls
    assert _actions(ctx.ledger) == ["stop_and_page"]
    (cat, root), *rest = _rows(ctx.ledger, "SELECT category, root_cause FROM failures")
    assert root == 1 and not rest and handler.last_decision is not None
    assert handler.last_decision.category == cat
    assert _rows(ctx.ledger, "SELECT kind, rank FROM detections") == [("exit", 0)]


def test_a_hang_kills_the_group_and_records_the_culprit(ctx):
    sleepers = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])]
    sleepers.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    try:
        ctx.watchdog = Watchdog(ranks=[0, 1])
        ops = AgentOps({0: None, 1: None}, {0: 0, 1: 1})
        handler = FailureHandler(ctx, ops)
        hang = Hang(
            culprits=[1], reason="stuck in allreduce", stalled_s=12.0, timeout_s=10.0,
            basis="steps", last_progress_time=time.time() - 12, ranks={1: {"step": 7}},
        )  # fmt: skip
        result = handler.on_hang(_group([p.pid for p in sleepers]), hang)
        assert result is not None and result.state == WorkerState.FAILED
        assert sorted(result.failures) == [1]  # only the culprit is a failure
        assert [p.wait(timeout=30) for p in sleepers] == [-signal.SIGKILL] * 2
    finally:
        for p in sleepers:
            p.kill()
            p.wait()
    assert _rows(ctx.ledger, "SELECT kind, rank FROM detections") == [("hang", 1)]
    assert _rows(ctx.ledger, "SELECT category, rank FROM failures") == [("hang", 1)]
    assert len(_actions(ctx.ledger)) == 1 and ("record_phase", ("evidence",)) in ops.calls


def test_a_crash_after_every_rank_finished_completes_the_attempt(ctx):
    ctx.watchdog = Watchdog(ranks=[0, 1])
    for r in (0, 1):
        ctx.watchdog.observe(_event(r, "lifecycle", phase="finished"))
    handler = FailureHandler(ctx, AgentOps({0: -6, 1: 0}, {0: 0, 1: 1}))
    crashed = _failed(r0=-int(signal.SIGABRT))
    assert handler.finished_then_crashed(crashed)
    result = handler.exit_crash(_group([None, None]), crashed)
    assert result.state == WorkerState.SUCCEEDED and ctx.exit_code is None
    assert _rows(ctx.ledger, "SELECT kind, rank FROM detections") == [("exit_crash", 0)]
    assert _actions(ctx.ledger) == ["none"]
    # a rank that had not finished: a failure like any other
    ctx.watchdog = Watchdog(ranks=[0, 1])
    ctx.watchdog.observe(_event(1, "lifecycle", phase="finished"))
    assert not handler.finished_then_crashed(crashed)


def test_two_survivors_record_a_lost_node_once(ctx, monkeypatch):
    """node-b is lost whole; node-a and node-c both see only echoes naming it and both wait out
    its silence. The second survivor's check runs right after the first one's (the soak saw
    two records 20 ms apart): the check and the record are one write transaction, so the
    second finds the first's record and writes none."""
    from nonstop.diagnose import peers

    monkeypatch.setattr(failures, "LOST_PEER_WAIT_S", 0.0)  # the silence waited out already
    root = ctx.cfg.run_dir.root
    for host, address in ((HOST, "10.0.0.1"), ("node-b", "10.0.0.2"), ("node-c", "10.0.0.3")):
        peers.record_node(root, host, address)
    echo = "RuntimeError: [gloo] Connection closed by peer [10.0.0.2]:4242\n"

    def handler_on(c: AgentContext, rank: int) -> tuple[FailureHandler, list[FailureInfo]]:
        log = c.cfg.run_dir.log(0, rank)
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(echo)
        info = FailureInfo(rank=rank, host=c.cfg.host, exit_code=1, log_path=log, attempt=0)
        return FailureHandler(c, AgentOps({rank: 1}, {rank: rank})), [info]

    first, first_infos = handler_on(ctx, 0)
    results: list = []

    def other_survivor() -> None:  # its own agent: its own connection, in its own thread
        ledger = Ledger.open(ctx.cfg.run_dir.ledger)
        try:
            cfg = replace(ctx.cfg, host="node-c")
            c = AgentContext(cfg=cfg, ledger=ledger, attempt=0, attempt_start=time.time())
            second, infos = handler_on(c, 2)
            results.append(second._name_lost_peer(infos))
        finally:
            ledger.close()

    racer = threading.Thread(target=other_survivor)
    rows = ctx.ledger.rows

    def rows_then_race(sql: str, params: tuple = ()) -> list:
        out = rows(sql, params)
        if "root_cause = 1" in sql and not racer.is_alive() and not results:
            racer.start()  # the other survivor, between this check and this record
            racer.join(timeout=3)  # done when nothing serializes it; else blocked on the lock
        return out

    monkeypatch.setattr(ctx.ledger, "rows", rows_then_race)
    assert first._name_lost_peer(first_infos) is not None
    racer.join(timeout=60)
    # the second survivor acts on the first one's record: the same decision
    assert [(d.category, d.action, d.hosts) for d in results if d is not None] == [
        ("host_maintenance", "exclude_node", ["node-b"])
    ], results
    lost = _rows(ctx.ledger, "SELECT host, category, action FROM failures WHERE root_cause = 1")
    # a node gone whole is the host's (unplanned host maintenance), not `unknown`: the job
    # goes on without it
    assert lost == [("node-b", "host_maintenance", "exclude_node")], lost


def test_an_echo_of_no_recorded_node_loses_no_node(ctx, monkeypatch):
    """Echoes that name an address no agent of the job recorded lose no node. On one host no
    agent records an address and gloo's echo names the loopback address, which a reverse
    lookup calls "localhost": CI once recorded "localhost" lost, excluded, as the root cause
    of a rank whose DataLoader worker was killed (its own rank was slow to exit). An address
    of a machine outside the job is not a node of it either."""
    from nonstop.diagnose import peers

    monkeypatch.setattr(failures, "LOST_PEER_WAIT_S", 0.0)
    monkeypatch.setattr(peers, "_resolve", lambda ip: {"127.0.0.1": "localhost"}.get(ip, "db-7"))
    log = ctx.cfg.run_dir.log(0, 0)
    log.parent.mkdir(parents=True, exist_ok=True)
    info = FailureInfo(rank=0, host=HOST, exit_code=1, log_path=log, attempt=0)
    handler = FailureHandler(ctx, AgentOps({0: 1}, {0: 0}))
    for address in ("127.0.0.1", "10.0.0.9"):
        log.write_text(f"RuntimeError: [gloo] Connection closed by peer [{address}]:4242\n")
        assert handler._name_lost_peer([info]) is None, address
    # with the job's nodes recorded: still none for the outsider, the recorded peer is lost
    for host, address in ((HOST, "10.0.0.1"), ("node-b", "10.0.0.2")):
        peers.record_node(ctx.cfg.run_dir.root, host, address)
    assert handler._name_lost_peer([info]) is None
    log.write_text("RuntimeError: [gloo] Connection closed by peer [10.0.0.2]:4242\n")
    lost = handler._name_lost_peer([info])
    assert lost is not None and lost.hosts == ["node-b"], lost
    assert _rows(ctx.ledger, "SELECT host FROM failures WHERE root_cause = 1") == [("node-b",)]


def test_the_stopped_rank_is_the_cause_only_when_the_echoes_name_this_host(ctx):
    """Rank 0 failed echoing a peer, rank 1 was still running and the agent stopped it (its
    decision made collateral). The echo naming this host (loopback) makes rank 1, whose own
    words were its failure, the root cause; an echo naming another host, or a stopped rank
    whose own words echo a peer too, changes nothing (the culprit's node speaks for it)."""
    from nonstop.supervisor import policy

    def infos(echo0: str, words1: str) -> list[FailureInfo]:
        out = []
        for rank, text, code in ((0, echo0, 1), (1, words1, -15)):
            log = ctx.cfg.run_dir.log(0, rank)
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(text)
            out.append(FailureInfo(rank=rank, host=HOST, exit_code=code, log_path=log, attempt=0))
        return out

    handler = FailureHandler(ctx, AgentOps({0: 1, 1: -15}, {0: 0, 1: 1}))
    handler._stopped_running = {1}
    own = "RuntimeError: [gloo] Connection closed by peer [127.0.0.1]:4242\n"
    other = "RuntimeError: [gloo] Connection closed by peer [10.0.0.2]:4242\n"
    killed = "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Killed.\n"
    for echo0, words1, root in ((own, killed, 1), (other, killed, None), (own, other, None)):
        fs = infos(echo0, words1)
        decided = [handler.policy.decide(i) for i in fs]
        marked = policy.mark_collateral(fs, decided, stopped={1})
        assert not any(d.root_cause for d in marked)
        out = handler._own_slow_culprit(fs, decided, marked)
        roots = [i.rank for i, d in zip(fs, out, strict=True) if d.root_cause]
        assert roots == ([root] if root is not None else []), (echo0, words1, out)
        if root is not None:
            assert out[1].reason.startswith("the culprit on this node"), out[1]
            assert out[1].category == decided[1].category


def test_a_lost_node_is_one_decision_in_the_ledger_report_and_diagnose(ctx, monkeypatch):
    """node-b lost whole: its failure row says exclude_node, and so does the action recorded
    for it (it left the job); the survivor's own action is the restart without it, with the
    same reason. `nonstop diagnose` tells both, each with its node."""
    from nonstop.diagnose import peers
    from nonstop.diagnose.history import read_attempts

    monkeypatch.setattr(failures, "LOST_PEER_WAIT_S", 0.0)
    root = ctx.cfg.run_dir.root
    for host, address in ((HOST, "10.0.0.1"), ("node-b", "10.0.0.2")):
        peers.record_node(root, host, address)
    log0 = ctx.cfg.run_dir.log(0, 0)
    log0.parent.mkdir(parents=True)
    log0.write_text("RuntimeError: [gloo] Connection closed by peer [10.0.0.2]:4242\n")
    ctx.watchdog = Watchdog(ranks=[0])
    ops = AgentOps({0: 1}, {0: 0}, restarts=3)
    handler = FailureHandler(ctx, ops)
    handler.on_failure(_group([None]), _failed(r0=1))
    roots = _rows(ctx.ledger, "SELECT host, category, action FROM failures WHERE root_cause = 1")
    assert roots == [("node-b", "host_maintenance", "exclude_node")], roots
    acts = _rows(ctx.ledger, "SELECT host, action, reason FROM actions ORDER BY id")
    assert [(h, a) for h, a, _ in acts] == [("node-b", "exclude_node"), (HOST, "restart")], acts
    assert acts[0][2].startswith("left the job (recorded by node-a")
    assert (
        acts[1][2].startswith("node node-b lost")
        and "node-a restarts without node-b" in (acts[1][2])
    ), acts[1][2]
    assert handler.last_decision is not None
    assert (handler.last_decision.category, handler.last_decision.hosts) == (
        "host_maintenance",
        ["node-b"],
    )
    assert ctx.exit_code is None  # this node goes on
    (row,) = read_attempts(ctx.cfg.run_dir.ledger)
    assert row.actions == ("exclude_node (node-b)", "restart (node-a)"), row


# -- PlannedStopMachine --------------------------------------------------------------------


def _ranks_ask(ctx, *ranks: int) -> None:
    """The ranks call planned_stop_due (lifecycle stop_checks), as nonstop.runtime does."""
    for r in ranks:
        w = EventWriter(
            ctx.cfg.run_dir.events(0, r), run_id="r", attempt=0, rank=r, host=HOST,
            install_sigterm=False,
        )  # fmt: skip
        w.emit("lifecycle", phase="stop_checks")
        w.close()


def _machine(ctx) -> tuple[PlannedStopMachine, AgentOps]:
    ops = AgentOps(run_dir=ctx.cfg.run_dir, ledger=ctx.ledger)
    ctx.watchdog = Watchdog(ranks=[0, 1])
    for r in (0, 1):
        ctx.watchdog.observe(_event(r, "heartbeat", step=3))
    return PlannedStopMachine(ctx, ops), ops


HEALTHY = RunResult(state=WorkerState.HEALTHY)


def test_a_drain_of_an_unknown_host_is_refused_and_nothing_stops(ctx):
    stops, ops = _machine(ctx)
    rid = write_request(ctx.cfg.run_dir.root, "drain", host="node-z", reason="typo")
    assert stops.planned(_group([None, None]), HEALTHY) is None
    assert _actions(ctx.ledger) == ["planned_stop_failed"]
    assert (ctx.cfg.run_dir.control / f"request-{rid}.refused").exists()
    assert read_stop(ctx.cfg.run_dir.root, 0) is None and ctx.exit_code is None
    assert stops.planned(_group([None, None]), HEALTHY) is None  # refused once, not again
    assert _actions(ctx.ledger) == ["planned_stop_failed"]
    assert "stop_workers" not in ops.names()


def test_the_schedulers_signal_plans_a_stop_that_ends_in_exit_75(ctx):
    _ranks_ask(ctx, 0, 1)
    stops, ops = _machine(ctx)
    stops.on_signal(signal.SIGUSR1, None)
    assert stops.planned(_group([None, None]), HEALTHY) is None  # the ranks checkpoint first
    plan = read_stop(ctx.cfg.run_dir.root, 0)
    assert plan is not None and plan.kind == "preempt" and plan.request_id == "signal-SIGUSR1"
    assert _actions(ctx.ledger) == ["planned_stop"]
    saved = RunResult(state=WorkerState.SUCCEEDED, return_values={0: None, 1: None})
    assert stops.planned(_group([None, None]), saved) is saved  # every rank saved and left
    assert ctx.exit_code == EXIT_REQUEUE and "requeue" in ctx.exit_message
    assert "no_more_restarts" in ops.names() and "stop_workers" not in ops.names()
    assert _actions(ctx.ledger) == ["planned_stop", "stopped"]
    assert stops.signal_received is None and stops.stop_plan is None


def _drain_peer(ctx, min_nodes: int) -> tuple[PlannedStopMachine, AgentOps, RunResult | None]:
    """node-b (rank 1) is drained by request; the ranks checkpoint and exit 0."""
    _ranks_ask(ctx, 0, 1)
    stops, ops = _machine(ctx)
    ctx.watchdog.observe(_event(1, "heartbeat", host="node-b", step=3))
    write_request(ctx.cfg.run_dir.root, "drain", host="node-b", reason="GPU 3 throttling")
    group = _group([None, None])
    # torch's c10d handler holds --nnodes' minimum in its settings (torch_compat)
    group.spec = SimpleNamespace(rdzv_handler=SimpleNamespace(_settings=SimpleNamespace(
        min_nodes=min_nodes)))  # fmt: skip
    assert stops.planned(group, HEALTHY) is None  # planned: the ranks checkpoint
    saved = RunResult(state=WorkerState.SUCCEEDED, return_values={0: None, 1: None})
    return stops, ops, stops.planned(group, saved)


def test_a_drain_of_a_peer_restarts_this_nodes_ranks(ctx):
    stops, ops, result = _drain_peer(ctx, min_nodes=1)
    # a peer was drained: this node restarts its ranks, and the next round waits less
    assert result is not None and result.state == WorkerState.HEALTHY
    assert "restart_workers" in ops.names() and stops.peer_drained
    assert ctx.exit_code is None and not ctx.leaving
    assert _actions(ctx.ledger) == ["planned_stop", "planned_restart"]


def test_a_drain_that_leaves_too_few_nodes_stops_the_job(ctx):
    _, ops, result = _drain_peer(ctx, min_nodes=2)
    plan = read_stop(ctx.cfg.run_dir.root, 0)
    assert plan is not None and plan.kind == "preempt" and "fewer than --nnodes" in plan.reason
    assert result is not None and result.state == WorkerState.SUCCEEDED
    assert ctx.exit_code == EXIT_REQUEUE and "restart_workers" not in ops.names()
    assert _actions(ctx.ledger) == ["planned_stop", "stopped"]


def test_the_self_tests_interpreters_start_only_once_an_attempt_has_trained_a_while():
    """The agent warms health.SelfTestPool after SELF_TEST_WARM_AFTER_S of training, never
    while standbys import or the run ends; a warm pool is left alone."""
    from nonstop.supervisor import agent as ag

    warmed: list[int] = []
    pool = SimpleNamespace(warm_count=0, warm=warmed.append)
    wd = SimpleNamespace(step_durations=[], ranks={0: SimpleNamespace(finished=False)})
    stub = SimpleNamespace(
        ctx=SimpleNamespace(self_tests=pool),
        watchdog=wd,
        attempt_start=time.time(),
        standbys=SimpleNamespace(importing=False),
        local_world_size=lambda: 2,
    )
    ag.NonstopAgent._warm_self_tests(stub)  # no step yet: starting
    stub.attempt_start -= ag.SELF_TEST_WARM_AFTER_S + 1
    ag.NonstopAgent._warm_self_tests(stub)  # no step reported, and not twice the wait yet
    stub.attempt_start += ag.SELF_TEST_WARM_AFTER_S + 1
    wd.step_durations = [0.1]
    ag.NonstopAgent._warm_self_tests(stub)  # training, but only just
    assert warmed == []
    stub.attempt_start -= ag.SELF_TEST_WARM_AFTER_S + 1
    stub.standbys.importing = True
    ag.NonstopAgent._warm_self_tests(stub)  # the standbys take the CPU now
    assert warmed == []
    stub.standbys.importing = False
    ag.NonstopAgent._warm_self_tests(stub)
    assert warmed == [2]
    pool.warm_count = 2
    ag.NonstopAgent._warm_self_tests(stub)  # already warm
    wd.ranks[0].finished = True
    pool.warm_count = 0
    ag.NonstopAgent._warm_self_tests(stub)  # a rank's script returned: the run ends
    stub.ctx.self_tests = None
    ag.NonstopAgent._warm_self_tests(stub)  # --no-self-test
    assert warmed == [2]
    # a script nonstop.runtime does not time (no step ever reported): after twice the wait
    stub.ctx.self_tests, wd.ranks[0].finished, wd.step_durations = pool, False, []
    stub.attempt_start = time.time() - 2 * ag.SELF_TEST_WARM_AFTER_S - 1
    ag.NonstopAgent._warm_self_tests(stub)
    assert warmed == [2, 2]


def test_triage_is_prepared_on_a_thread_once_the_first_attempt_starts(monkeypatch):
    """The agent builds triage's tables on a thread as its first attempt starts (its first
    failure's classification would otherwise pay for them), once per run."""
    from nonstop.diagnose import triage
    from nonstop.supervisor import agent as ag

    called: list[int] = []
    monkeypatch.setattr(triage, "prepare", lambda: called.append(1))
    stub = SimpleNamespace(_triage_warm=None, watchdog=None)
    ag.NonstopAgent._warm_triage(stub)  # before the attempt starts: nothing
    assert stub._triage_warm is None
    stub.watchdog = SimpleNamespace()
    ag.NonstopAgent._warm_triage(stub)
    stub._triage_warm.join(30)
    first = stub._triage_warm
    ag.NonstopAgent._warm_triage(stub)  # once per run
    assert called == [1] and stub._triage_warm is first and first.name == "ns-triage-warm"


def test_triage_prepare_builds_what_the_first_triage_would():
    """triage.prepare leaves the tries compiled and the fallback loaded (cached)."""
    from nonstop.diagnose import fallback, signatures, triage

    triage.prepare()
    assert signatures.PREFILTER._compiled is not None and signatures.MARKER._compiled is not None
    assert fallback.model.cache_info().currsize == 1


@pytest.mark.slow
def test_the_self_test_after_a_hang_takes_the_warm_interpreters(ctx):
    from nonstop.supervisor.health import SelfTestPool
    from nonstop.supervisor.policy import Decision

    pool = SelfTestPool()
    try:
        pool.warm(2)
        ctx.cfg = replace(ctx.cfg, self_test=True)
        ctx.self_tests = pool
        handler = FailureHandler(ctx, AgentOps(local_world_size=2))
        results = handler._health_checks(Decision("hang", "restart", "no progress"))
        assert [(r.name, r.status) for r in results] == [("collective", "passed")]
        assert pool.warm_count == 0  # taken, not fresh ones beside them
        (row,) = ctx.ledger.rows("SELECT name, status FROM health_checks")
        assert tuple(row) == ("collective", "passed")
    finally:
        pool.close()
