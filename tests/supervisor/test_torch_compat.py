"""torch's private internals that nonstop.supervisor.torch_compat relies on still exist, with
the parameters it expects. A failure here after a torch upgrade names what moved: read that
function's docstring and torch's new source, fix the function, add the version to
TORCH_CHECKED."""

import inspect

import pytest
import torch
from torch.distributed.elastic.agent.server import local_elastic_agent
from torch.distributed.elastic.agent.server.api import SimpleElasticAgent
from torch.distributed.elastic.agent.server.local_elastic_agent import LocalElasticAgent
from torch.distributed.elastic.multiprocessing import api as mp_api
from torch.distributed.elastic.rendezvous import dynamic_rendezvous
from torch.distributed.elastic.rendezvous.api import RendezvousParameters
from torch.distributed.launcher import api as launcher_api

from nonstop.supervisor import torch_compat
from nonstop.supervisor.agent import NonstopAgent


def _params(fn) -> list[str]:
    return [p for p in inspect.signature(fn).parameters if p != "self"]


def _assigned_in(cls, name: str) -> bool:
    """Whether `self.<name> =` appears in the source of `cls` or a base of it."""
    return any(
        f"self.{name} =" in inspect.getsource(c) or f"self.{name}:" in inspect.getsource(c)
        for c in cls.__mro__
        if c.__module__.startswith("torch.")
    )


def test_the_installed_torch_was_checked():
    version = torch.__version__.split("+")[0]
    if version not in torch_compat.TORCH_CHECKED:
        pytest.fail(
            f"torch {version} is not in torch_compat.TORCH_CHECKED {torch_compat.TORCH_CHECKED}: "
            "read each function's docstring against this torch's elastic source, then add it"
        )


@pytest.mark.parametrize("hook", sorted(torch_compat.AGENT_HOOKS))
def test_agent_hooks_keep_their_parameters(hook):
    theirs = getattr(LocalElasticAgent, hook, None)
    assert theirs is not None, f"LocalElasticAgent.{hook} is gone (NonstopAgent overrides it)"
    assert _params(theirs)[: len(torch_compat.AGENT_HOOKS[hook])] == list(
        torch_compat.AGENT_HOOKS[hook]
    ), f"LocalElasticAgent.{hook}{inspect.signature(theirs)} changed"
    assert hook in vars(NonstopAgent), f"NonstopAgent no longer overrides {hook}"


@pytest.mark.parametrize("name", torch_compat.AGENT_ATTRIBUTES)
def test_agent_attributes_still_exist(name):
    assert _assigned_in(LocalElasticAgent, name), f"LocalElasticAgent no longer sets self.{name}"


def test_rendezvous_internals():
    # no_first_round_skew: the module-level _delay, called with a tuple for the first round
    assert callable(dynamic_rendezvous._delay)
    assert _params(dynamic_rendezvous._delay) == ["seconds"]
    src = inspect.getsource(dynamic_rendezvous.DynamicRendezvousHandler.next_rendezvous)
    assert "_delay(seconds=(0, 0.3))" in src, "the first round's skew moved"
    # short_last_call: RendezvousTimeout keeps last_call in _last_call
    timeout = dynamic_rendezvous.RendezvousTimeout()
    assert timeout._last_call == timeout.last_call
    # leave_round: the exit op, the op executor and the heartbeat stop
    handler = dynamic_rendezvous.DynamicRendezvousHandler
    assert callable(dynamic_rendezvous._RendezvousExitOp())
    assert _params(handler._stop_heartbeats) == []
    assert "self._op_executor" in inspect.getsource(handler.__init__)
    assert "self._settings" in inspect.getsource(handler.__init__)
    executor = dynamic_rendezvous._DistributedRendezvousOpExecutor
    assert _params(executor.run)[:2] == ["state_handler", "deadline"]
    # rendezvous_min_nodes
    assert "min_nodes" in dynamic_rendezvous.RendezvousSettings.__dataclass_fields__


def test_short_last_call_and_leave_round_on_a_real_handler():
    """On a c10d handler built by torch's registry: the last call is shortened and restored,
    the min_nodes read, and leaving a round that was never joined is a no-op."""
    from torch.distributed.elastic.rendezvous import registry

    params = RendezvousParameters(
        backend="c10d",
        endpoint=f"127.0.0.1:{_port()}",
        run_id="t",
        min_nodes=1,
        max_nodes=2,
        is_host=True,
    )
    handler = registry.get_rendezvous_handler(params)
    try:
        before = handler._settings.timeout.last_call
        with torch_compat.short_last_call(handler, 1.0):
            assert handler._settings.timeout.last_call.total_seconds() == 1.0
        assert handler._settings.timeout.last_call == before
        assert torch_compat.rendezvous_min_nodes(handler) == 1
        torch_compat.leave_round(handler)
    finally:
        handler.shutdown()


def _port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_start_processes_swap():
    assert local_elastic_agent.start_processes is torch_compat.start_processes
    src = inspect.getsource(LocalElasticAgent._start_workers)
    assert "start_processes(" in src, "_start_workers no longer calls start_processes"
    for kw in ("envs", "args", "logs_specs", "start_method", "numa_options"):
        assert f"{kw}=" in src, f"_start_workers no longer passes {kw}= to start_processes"

    def spawn(**kwargs):
        return kwargs

    with torch_compat.start_processes_through(spawn):
        assert local_elastic_agent.start_processes is spawn
    assert local_elastic_agent.start_processes is torch_compat.start_processes


def test_process_context_internals():
    assert _params(mp_api.PContext._close)[:2] == ["death_sig", "timeout"]
    assert "self._close(" in inspect.getsource(mp_api.PContext.close)
    assert "self.subprocess_handlers" in inspect.getsource(mp_api.SubprocessContext.__init__)
    handler_src = inspect.getsource(mp_api.SubprocessHandler)
    assert "self.proc" in handler_src


def test_restart_count_and_worker_group():
    src = inspect.getsource(SimpleElasticAgent)
    assert "self._remaining_restarts" in src
    assert "self._remaining_restarts > 0" in src, "torch's restart test changed"
    assert "self._worker_group = WorkerGroup(spec)" in src


def test_logs_specs_internals():
    ls = mp_api.DefaultLogsSpecs(
        redirects=mp_api.Std.OUT, tee=mp_api.Std.ERR, local_ranks_filter={0}
    )
    assert torch_compat.logs_spec_settings(ls) == (mp_api.Std.OUT, mp_api.Std.ERR, {0})


def test_tail_log_reader_keeps_its_name_and_parameters():
    """TailLog.start submits the module-level tail_logfile by keyword; our reader
    (worker_logs.tail_logfile) takes its place with the same parameters."""
    from torch.distributed.elastic.multiprocessing import tail_log

    from nonstop.supervisor import worker_logs

    assert _params(tail_log.tail_logfile) == _params(worker_logs.tail_logfile)
    assert "tail_logfile," in inspect.getsource(tail_log.TailLog.start)


def test_launcher_addr_and_port():
    assert _params(launcher_api._get_addr_and_port) == ["rdzv_parameters"]
    params = RendezvousParameters(
        backend="static", endpoint="127.0.0.1:1234", run_id="t", min_nodes=1, max_nodes=1
    )
    assert torch_compat.master_addr_and_port(params) == ("127.0.0.1", 1234)


def test_store_per_attempt_on_a_real_handler(monkeypatch):
    """Without TORCH_DISABLE_SHARE_RDZV_TCP_STORE in the environment: the workers do not use
    the agent's store, rank 0's address and a port found free are published at each round, and
    no shared store server starts (what torch's opt-out does)."""
    from torch.distributed.elastic.rendezvous import registry

    monkeypatch.delenv("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", raising=False)
    src = inspect.getsource(dynamic_rendezvous.DynamicRendezvousHandler.next_rendezvous)
    for name in ("self._bootstrap_store_info", "self._shared_tcp_store_server"):
        assert name in src, f"next_rendezvous no longer uses {name}"
    assert "self._create_tcp_store_server(" in src
    assert "server_port = self._shared_tcp_store_server.port" in src
    params = RendezvousParameters(
        backend="c10d",
        endpoint=f"127.0.0.1:{_port()}",
        run_id="t",
        min_nodes=1,
        max_nodes=1,
        is_host=True,
        local_addr="127.0.0.1",
    )
    handler = registry.get_rendezvous_handler(params)
    try:
        assert handler.use_agent_store  # torch's default: the shared store
        torch_compat.store_per_attempt(handler)
        assert not handler.use_agent_store
        first = handler.next_rendezvous().bootstrap_store_info
        assert handler._shared_tcp_store_server.port == 0  # no server of the agent's
        second = handler.next_rendezvous().bootstrap_store_info
        assert first.master_addr == second.master_addr == "127.0.0.1"
        assert first.master_port > 0 and second.master_port > 0
    finally:
        handler.shutdown()


def test_forwarding_signals_around_a_real_process_context(tmp_path, monkeypatch):
    """torch's process context, started without TORCHELASTIC_SIGNALS_TO_HANDLE in this
    process's environment, registers its handler only for the signals asked for; the planned
    stop's SIGTERM keeps its handler, and one that arrives meanwhile reaches it."""
    import signal
    import sys

    monkeypatch.delenv("TORCHELASTIC_SIGNALS_TO_HANDLE", raising=False)
    start_src = inspect.getsource(mp_api.PContext.start)
    assert f'"TORCHELASTIC_SIGNALS_TO_HANDLE", "{torch_compat.TORCH_SIGNALS}"' in start_src
    assert "signal.signal(sig, _terminate_process_handler)" in start_src
    got: list[int] = []

    def planned(signum, frame):
        got.append(signum)

    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    signal.signal(signal.SIGTERM, planned)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with torch_compat.forwarding_signals("SIGINT"):
            ctx = torch_compat.start_processes(
                name="t",
                entrypoint=sys.executable,
                args={0: ("-c", "pass")},
                envs={0: {}},
                logs_specs=mp_api.DefaultLogsSpecs(log_dir=str(tmp_path)),
            )
            # a scheduler's SIGTERM while the ranks start goes to the planned stop
            signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)
        ctx.wait(timeout=60)
        ctx.close()
        assert got == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGTERM) is planned
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        # torch's handler as nonstop raises it (a DeathSignal, which no `except Exception`
        # swallows: test_run_interrupt.py)
        assert signal.getsignal(signal.SIGINT) is torch_compat._latched
    finally:
        for s, h in saved.items():
            signal.signal(s, h)


class _SilentStore:
    """A handler whose membership poll blocks until released, as a read on a connection whose
    packets are dropped does; then it answers `n` (or raises `error`)."""

    def __init__(self) -> None:
        import threading

        self.release = threading.Event()
        self.n, self.error, self.calls = 2, None, 0

    def num_nodes_waiting(self) -> int:
        self.calls += 1
        self.release.wait(30)
        if self.error is not None:
            raise self.error
        return self.n


def test_a_silent_store_poll_lets_the_monitor_loop_go_on_then_counts_as_lost():
    import time

    from torch.distributed.elastic.rendezvous import RendezvousConnectionError

    h = _SilentStore()
    torch_compat.bounded_polls(h, give_up_s=2.5)
    t0 = time.monotonic()
    assert h.num_nodes_waiting() == 0  # still asking: the tick goes on after POLL_WAIT_S
    assert time.monotonic() - t0 < torch_compat.POLL_WAIT_S + 1.0
    assert torch_compat.stuck_poll_s(h) > 0 and h.calls == 1  # one poll in flight, not two
    with pytest.raises(RendezvousConnectionError, match="has not answered"):
        while True:
            h.num_nodes_waiting()
    assert h.calls == 1
    h.release.set()  # the store answers at last: that answer is the next tick's
    assert h.num_nodes_waiting() == 2 and torch_compat.stuck_poll_s(h) == 0
    h.error = RuntimeError("connection reset")  # an error is the tick's, as before
    with pytest.raises(RuntimeError, match="connection reset"):
        h.num_nodes_waiting()
    assert torch_compat.stuck_poll_s(object()) == 0.0  # an unbounded handler: never stuck
    torch_compat.settle_poll(object())  # nothing to settle there


def test_a_silent_store_is_lost_after_the_store_clients_own_read_timeout():
    from nonstop.supervisor.launch import STORE_SILENT_S, store_silent_s

    def params(**conf: object) -> RendezvousParameters:
        return RendezvousParameters("c10d", "node0:29400", "job", 2, 3, **conf)

    assert store_silent_s(params()) == STORE_SILENT_S == 60.0  # torch's default read_timeout
    assert store_silent_s(params(read_timeout="20")) == 20.0  # --rdzv-conf read_timeout=20
    # nonsense is torch's backend's to refuse, with its own message; the poll keeps the default
    assert store_silent_s(params(read_timeout="0")) == STORE_SILENT_S
    assert store_silent_s(params(read_timeout="soon")) == STORE_SILENT_S


def test_a_rendezvous_drops_a_poll_answer_about_the_old_round():
    h = _SilentStore()
    torch_compat.bounded_polls(h, give_up_s=60)
    assert h.num_nodes_waiting() == 0  # slow: the tick went on
    h.release.set()
    torch_compat.settle_poll(h)  # the rendezvous comes: the old round's answer is dropped
    h.n = 0
    assert h.num_nodes_waiting() == 0 and h.calls == 2  # a fresh poll, not the stale 2
