"""Every use nonstop makes of torch.distributed.elastic's private internals, in one place.

torch's elastic agent has no public hooks for what the supervisor needs (an attempt number,
warm standbys in place of a spawn, a shorter rendezvous after a drain, a node leaving without
closing the rendezvous), so it reaches into names with a leading underscore. Each one is here,
with the torch versions whose source was read to check it (TORCH_CHECKED), and
tests/supervisor/test_torch_compat.py fails loudly, naming the attribute, when an upgrade
removes or changes one. The rest of the supervisor calls these functions and never touches a
private name of torch itself.

NonstopAgent also overrides SimpleElasticAgent's step methods (AGENT_HOOKS below); the test
checks that they exist with the parameters the overrides expect.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from types import FrameType
from typing import Any

from torch.distributed.elastic.agent.server import local_elastic_agent
from torch.distributed.elastic.multiprocessing import api as mp_api
from torch.distributed.elastic.multiprocessing import errors as mp_errors
from torch.distributed.elastic.multiprocessing import start_processes, tail_log
from torch.distributed.elastic.rendezvous import dynamic_rendezvous

TORCH_CHECKED = ("2.13.0",)
"""The torch versions whose elastic source was read against every function here."""

# SimpleElasticAgent / LocalElasticAgent methods NonstopAgent overrides: name -> parameters
# (after self) that torch calls them with. torch/distributed/elastic/agent/server/api.py and
# local_elastic_agent.py, checked in TORCH_CHECKED.
AGENT_HOOKS: dict[str, tuple[str, ...]] = {
    "_rendezvous": ("worker_group",),
    "_start_workers": ("worker_group",),
    "_stop_workers": ("worker_group",),
    "_monitor_workers": ("worker_group",),
    "_restart_workers": ("worker_group",),
}

# Agent attributes read or set here (LocalElasticAgent.__init__ / SimpleElasticAgent.run).
AGENT_ATTRIBUTES = (
    "_pcontext",
    "_worker_group",
    "_remaining_restarts",
    "_log_line_prefix_template",
    "_shutdown_timeout",
)

__all__ = [
    "AGENT_HOOKS",
    "TORCH_CHECKED",
    "before_close",
    "bounded_polls",
    "forwarding_signals",
    "global_ranks",
    "leave_round",
    "local_world_size",
    "logs_spec_settings",
    "master_addr_and_port",
    "no_first_round_skew",
    "no_more_restarts",
    "rendezvous_min_nodes",
    "restarts_left",
    "set_console",
    "settle_poll",
    "short_last_call",
    "start_processes",
    "start_processes_through",
    "store_per_attempt",
    "stuck_poll_s",
    "subprocess_exit_codes",
    "tail_logs_through",
]


# -- rendezvous (torch/distributed/elastic/rendezvous/dynamic_rendezvous.py) ----------------


@contextlib.contextmanager
def no_first_round_skew() -> Iterator[None]:
    """torch's c10d handler sleeps a random 0-0.3 s before joining while its state's round is
    0, to skew the nodes' first joins. Round 0 is still current at the first restart, so the
    first recovery paid that sleep too (most of a sub-second recovery: docs/benchmarks.md,
    "Figures behind the code"). On a restart
    the nodes' joins are already skewed by their detection times: skip it. Its other delay (1 s
    between polls of a round still filling) is left alone.

    Private: the module-level `dynamic_rendezvous._delay` (imported there from
    rendezvous/utils.py), called as `_delay(seconds=(0, 0.3))` in next_rendezvous and
    `_delay(seconds=1)` in the join op. Checked in TORCH_CHECKED."""
    original = dynamic_rendezvous._delay

    def delay(seconds: float | tuple[float, float]) -> None:
        if not isinstance(seconds, tuple):
            original(seconds)

    dynamic_rendezvous._delay = delay
    try:
        yield
    finally:
        dynamic_rendezvous._delay = original


@contextlib.contextmanager
def short_last_call(handler: Any, seconds: float) -> Iterator[None]:
    """After an operator drained a peer, the remaining nodes know it will not come back, but
    torch's c10d round still waits its last call (30 s by default) for more nodes once
    min_nodes have joined: pure planned badput. Shorten it for this one round. A node that does
    come back later joins as a spare; any other handler is left alone.

    Private: `DynamicRendezvousHandler._settings.timeout` (a RendezvousTimeout) and its
    `_last_call` field (the property `last_call` has no setter). The timeout object is shared
    by the handler, its state holder and its op executor. Checked in TORCH_CHECKED."""
    timeout = getattr(getattr(handler, "_settings", None), "timeout", None)
    old = getattr(timeout, "_last_call", None)
    if not isinstance(old, timedelta) or old.total_seconds() <= seconds:
        yield
        return
    timeout._last_call = timedelta(seconds=seconds)  # type: ignore[union-attr]
    try:
        yield
    finally:
        timeout._last_call = old  # type: ignore[union-attr]


POLL_WAIT_S = 1.0
"""How long one monitor tick waits for the rendezvous' membership poll before it goes on."""


def bounded_polls(handler: Any, give_up_s: float) -> None:
    """Bound the elastic agent's membership poll. While its ranks are healthy, torch's agent
    asks `rdzv_handler.num_nodes_waiting()` at every monitor tick, one store read in its main
    loop; on a node cut off from the store host (packets dropped, nothing refused) that read
    blocks until the kernel gives up retransmitting (16 minutes in a probe), and nonstop's
    watchdog, in the same loop, never runs. Here the poll runs on a helper thread: a tick
    waits POLL_WAIT_S for it, then reports no waiting node and lets the loop go on (the
    watchdog sees the ranks' hang); a poll that has not answered in `give_up_s` raises
    RendezvousConnectionError, the agent's lost-store path. Public API only; the handler is
    patched on the instance."""
    from torch.distributed.elastic.rendezvous import RendezvousConnectionError

    poll = handler.num_nodes_waiting
    state: dict[str, Any] = {}  # the poll in flight: its thread, start, result or error

    def run(box: dict[str, Any]) -> None:
        try:
            box["n"] = poll()
        except BaseException as e:  # handed to the monitor tick that reads it
            box["error"] = e
        finally:
            box["done"].set()

    def num_nodes_waiting() -> int:
        box = state.get("box")
        if box is None:  # a daemon thread: one stuck on a dead connection never holds up exit
            box = state["box"] = {"done": threading.Event(), "since": time.monotonic()}
            threading.Thread(target=run, args=(box,), name="nonstop-rdzv-poll", daemon=True).start()
        if not box["done"].wait(POLL_WAIT_S):
            waited = time.monotonic() - box["since"]
            if waited > give_up_s:
                raise RendezvousConnectionError(
                    f"the rendezvous store has not answered for {waited:.0f} s"
                )
            return 0
        state.pop("box", None)
        if "error" in box:
            raise box["error"]
        return int(box["n"])

    def stuck_for() -> float:
        box = state.get("box")
        return time.monotonic() - box["since"] if box and not box["done"].is_set() else 0.0

    def settle() -> None:
        """Before a rendezvous: wait out a poll in flight (raising once the store has been
        silent `give_up_s`), and drop an answer no tick read: it counted the old round."""
        while stuck_for() > 0:
            num_nodes_waiting()
        state.pop("box", None)

    handler.num_nodes_waiting = num_nodes_waiting
    handler._nonstop_stuck_poll_s = stuck_for
    handler._nonstop_settle_poll = settle


def settle_poll(handler: Any) -> None:
    """Before a rendezvous on a bounded handler (bounded_polls): a poll still waiting on the
    store is waited out or raises RendezvousConnectionError; an unread answer is dropped.
    Other handlers: nothing."""
    settle = getattr(handler, "_nonstop_settle_poll", None)
    if callable(settle):
        settle()


def stuck_poll_s(handler: Any) -> float:
    """Seconds the handler's membership poll (bounded_polls) has been waiting for the store;
    0 when none is pending or the handler is not bounded."""
    stuck = getattr(handler, "_nonstop_stuck_poll_s", None)
    return float(stuck()) if callable(stuck) else 0.0


def leave_round(handler: Any) -> None:
    """Take this node out of the current c10d round without closing the rendezvous (an
    excluded or drained node). Without it the others' next round sees it as a participant
    until torch's keep-alive sanitiser drops it, 15 s after its last heartbeat. This is the
    exit step torch runs itself at the start of each next_rendezvous; other handlers: no-op.

    Private: `DynamicRendezvousHandler._op_executor.run(op, deadline)`,
    `DynamicRendezvousHandler._stop_heartbeats()` and `dynamic_rendezvous._RendezvousExitOp`.
    Checked in TORCH_CHECKED."""
    executor = getattr(handler, "_op_executor", None)
    stop = getattr(handler, "_stop_heartbeats", None)
    if executor is None or stop is None:
        return
    stop()
    executor.run(dynamic_rendezvous._RendezvousExitOp(), time.monotonic() + 10.0)


class _StorePerAttempt(dynamic_rendezvous.DynamicRendezvousHandler):
    """The c10d handler as torch runs it with TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1, without
    the variable: the workers do not use the agent's store (rank 0 hosts a new one at a port
    found free at each round), and no shared store server is started."""

    @property
    def use_agent_store(self) -> bool:
        return False

    def next_rendezvous(self) -> Any:
        # a new bootstrap address every round, as torch's opt-out path builds it
        self._bootstrap_store_info = None
        self._shared_tcp_store_server = None
        return super().next_rendezvous()

    def _create_tcp_store_server(self, master_addr: Any, master_port: Any) -> Any:
        return _NoServer()  # port 0: RendezvousStoreInfo.build takes a free port, as opted out


class _NoServer:
    port = 0


def store_per_attempt(handler: Any) -> None:
    """A new rendezvous store per attempt for the workers, hosted by their rank 0, in place of
    the agent's shared one: what torch's TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 does, which
    torch reads from this process's environment at each round (the supervisor leaves its own
    environment alone: SupervisorConfig.store_per_attempt). Other handlers: unchanged (the
    variable means nothing to them).

    Private: `DynamicRendezvousHandler._bootstrap_store_info`, `._shared_tcp_store_server` and
    `._create_tcp_store_server(addr, port)` (its `.port` passed to RendezvousStoreInfo.build,
    which takes a free port for 0), read in next_rendezvous's shared-store path. Checked in
    TORCH_CHECKED."""
    if type(handler) is dynamic_rendezvous.DynamicRendezvousHandler:
        handler.__class__ = _StorePerAttempt


def rendezvous_min_nodes(handler: Any) -> int:
    """--nnodes' minimum as the c10d handler holds it (1 for handlers without settings).

    Private: `DynamicRendezvousHandler._settings.min_nodes` (RendezvousSettings).
    Checked in TORCH_CHECKED."""
    settings = getattr(handler, "_settings", None)
    return max(1, int(getattr(settings, "min_nodes", 1) or 1))


def master_addr_and_port(params: Any) -> tuple[str | None, int | None]:
    """The static rendezvous' master address and port, as torch's launch_agent computes them.

    Private: `torch.distributed.launcher.api._get_addr_and_port(params)`.
    Checked in TORCH_CHECKED."""
    from torch.distributed.launcher.api import _get_addr_and_port

    return _get_addr_and_port(params)


# -- the agent (torch/distributed/elastic/agent/server/{api,local_elastic_agent}.py) -------


@contextlib.contextmanager
def start_processes_through(spawn: Callable[..., Any]) -> Iterator[None]:
    """Make LocalElasticAgent._start_workers call `spawn(**kwargs)` in place of torch's
    start_processes (same keyword arguments: name, entrypoint, args, envs, logs_specs,
    log_line_prefixes, start_method, numa_options, duplicate_*_filters); `spawn` returns a
    PContext. The warm standbys' hand-over goes through it.

    Private: the module global `local_elastic_agent.start_processes`, looked up at each call
    in `_start_workers`. Checked in TORCH_CHECKED."""
    original = local_elastic_agent.start_processes
    local_elastic_agent.start_processes = spawn
    try:
        yield
    finally:
        local_elastic_agent.start_processes = original


NO_ERROR_FILE: str = mp_errors._NOT_AVAILABLE
"""What a ProcessFailure's `error_file` says when the rank left none ("<N/A>"). Private:
`multiprocessing.errors._NOT_AVAILABLE`, checked in TORCH_CHECKED."""

TORCH_SIGNALS = "SIGTERM,SIGINT,SIGHUP,SIGQUIT"
"""The signals PContext.start registers its handler for when TORCHELASTIC_SIGNALS_TO_HANDLE is
unset (torch/distributed/elastic/multiprocessing/api.py)."""


def _signals(names: str) -> set[int]:
    return {int(getattr(signal, n.strip())) for n in names.split(",") if n.strip()}


def _deliver(previous: Any, signum: int, frame: FrameType | None) -> None:
    """Act on a signal as `previous` (a handler signal.getsignal returned) would have."""
    if callable(previous):
        previous(signum, frame)
    elif previous != signal.SIG_IGN:  # the default action: stop, as it would have
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


_death_signals: list[int] = []
"""The death signals torch's handler has been given in this process, oldest first."""


class DeathSignal(BaseException):
    """A death signal (--signals-to-handle: Ctrl-C's SIGINT, SIGHUP, SIGQUIT) in the agent's
    main thread, in place of torch's SignalException: not an Exception, so that the `except
    Exception` blocks that keep telemetry from killing the job (ingesting events, polling the
    kernel log, a planned stop's checks) let it through instead of swallowing it, which lost a
    Ctrl-C (the job trained on) or logged it as an internal error. torch's own rule: "It is
    important not to swallow the exception otherwise the process would not terminate."
    NonstopAgent._invoke_run hands it to torch's run() as the SignalException it expects."""

    def __init__(self, signum: int) -> None:
        self.sigval = signal.Signals(signum)
        super().__init__(f"Process {os.getpid()} got signal: {self.sigval}")

    def as_torchs(self) -> Exception:
        """torch's SignalException for it, with the message and `sigval` torch's
        `_terminate_process_handler` gives (private: `multiprocessing.api.SignalException`,
        TORCH_CHECKED)."""
        return mp_api.SignalException(str(self), sigval=self.sigval)


def _latched(signum: int, frame: FrameType | None) -> None:
    """The handler for the signals torch's process context forwards to the ranks: torch's
    `_terminate_process_handler`, raising DeathSignal instead, and remembering the signal for
    raise_death_signal (a `except BaseException` may still hold it)."""
    _death_signals.append(signum)
    raise DeathSignal(signum)


def raise_death_signal() -> None:
    """Raise torch's SignalException for a death signal already received whose DeathSignal
    was caught on its way (see _latched); nothing when none came."""
    if _death_signals:
        raise DeathSignal(_death_signals[0]).as_torchs()


@contextlib.contextmanager
def forwarding_signals(names: str) -> Iterator[None]:
    """While torch's process context starts the ranks, its handler (stop every rank, raise
    SignalException in the agent) goes to exactly the signals `names` lists, comma-separated
    (SupervisorConfig.signals_to_forward), and the others keep theirs (the planned stop's
    SIGTERM, SIGUSR1 and SIGUSR2). torch reads that list from TORCHELASTIC_SIGNALS_TO_HANDLE in
    this process's environment, which torch's launch_agent sets; the supervisor leaves its own
    environment alone. A signal that arrives meanwhile goes where it would have gone.

    Private: the module global `multiprocessing.api._terminate_process_handler`, which
    PContext.start registers (main thread only) for each signal of the variable, else of
    TORCH_SIGNALS. Checked in TORCH_CHECKED."""
    if threading.current_thread() is not threading.main_thread():
        yield  # torch registers nothing outside the main thread either
        return
    wanted = _signals(names)
    touched = wanted | _signals(TORCH_SIGNALS)
    before = {s: signal.getsignal(s) for s in touched}
    torchs = mp_api._terminate_process_handler
    latched = _latched

    def dispatch(signum: int, frame: FrameType | None) -> None:
        # a signal outside both lists came from a TORCHELASTIC_SIGNALS_TO_HANDLE the user set:
        # torch's, as that variable asks
        if signum in wanted or signum not in before:
            latched(signum, frame)
        else:
            _deliver(before[signum], signum, frame)

    mp_api._terminate_process_handler = dispatch
    try:
        yield
    finally:
        mp_api._terminate_process_handler = torchs
        for s in touched:
            if s in wanted:
                signal.signal(s, latched)
            elif before[s] is not None:
                signal.signal(s, before[s])


def subprocess_exit_codes(agent: Any) -> dict[int, int | None] | None:
    """Each local rank's exit code so far (None: still running), read from the agent's
    process context without waiting; None when the context has no subprocess handlers (the
    multiprocessing start method, a standby context).

    Private: `LocalElasticAgent._pcontext` and `SubprocessContext.subprocess_handlers`
    (local rank -> SubprocessHandler, its `.proc` a subprocess.Popen). Checked in
    TORCH_CHECKED."""
    handlers = getattr(getattr(agent, "_pcontext", None), "subprocess_handlers", None)
    if not handlers:
        return None
    return {int(lr): h.proc.poll() for lr, h in handlers.items()}


def before_close(agent: Any, hook: Callable[[], float | None]) -> None:
    """Run `hook()` before the agent's process context stops its ranks (torch's teardown,
    restart or shutdown, and the context stopping the rest after one rank failed). A number
    the hook returns shortens torch's wait between SIGTERM and SIGKILL (30 s) to it.

    Private: `LocalElasticAgent._pcontext` and `PContext._close(death_sig, timeout=30)`,
    which PContext.close calls with keywords. Checked in TORCH_CHECKED."""
    ctx = getattr(agent, "_pcontext", None)
    close = getattr(ctx, "_close", None)
    if close is None:
        return

    def marked_close(*args: Any, **kwargs: Any) -> Any:
        wait_s = hook()
        if wait_s is not None:
            if len(args) >= 2:
                args = (args[0], min(args[1], wait_s), *args[2:])
            else:
                kwargs["timeout"] = min(kwargs.get("timeout", 30), wait_s)
        return close(*args, **kwargs)

    ctx._close = marked_close  # type: ignore[union-attr]


def global_ranks(agent: Any) -> dict[int, int]:
    """Local rank -> global rank of the agent's current workers ({} before the first start).

    Private: `SimpleElasticAgent._worker_group`. Checked in TORCH_CHECKED."""
    group = getattr(agent, "_worker_group", None)
    return {int(w.local_rank): int(w.global_rank) for w in getattr(group, "workers", None) or []}


def restarts_left(agent: Any) -> int:
    """The restarts torch will still make (--max-restarts minus those made).

    Private: `SimpleElasticAgent._remaining_restarts`. Checked in TORCH_CHECKED."""
    return int(agent._remaining_restarts)


def no_more_restarts(agent: Any) -> None:
    """torch makes no more restarts: the next failure ends the agent's run.

    Private: `SimpleElasticAgent._remaining_restarts`. Checked in TORCH_CHECKED."""
    agent._remaining_restarts = 0


def local_world_size(agent: Any) -> int:
    """Ranks on this node (the worker group's spec).

    Private: `SimpleElasticAgent._worker_group`. Checked in TORCH_CHECKED."""
    return int(agent._worker_group.spec.local_world_size)


def set_console(agent: Any, template: Any, shutdown_timeout: float | None) -> None:
    """torchrun's console settings on our agent: the log-line prefix template and
    --shutdown-timeout, which torch's launch_agent passes to LocalElasticAgent's constructor
    (NonstopAgent's constructor does not take them).

    Private: `LocalElasticAgent._log_line_prefix_template` and `._shutdown_timeout`.
    Checked in TORCH_CHECKED."""
    agent._log_line_prefix_template = template
    if shutdown_timeout is not None:
        agent._shutdown_timeout = int(shutdown_timeout)


def tail_logs_through(tail: Callable[..., None]) -> None:
    """Make torch's TailLog copy each log with `tail` in place of its own reader (the
    agent's process, for good): torch's TailLog submits the module-level
    `tail_log.tail_logfile(header=, file=, dst=, finished=, interval_sec=, log_line_filter=)`
    per log file to its thread pool.

    Public module, but `tail_logfile` is not in its documented API. Checked in TORCH_CHECKED."""
    tail_log.tail_logfile = tail


# -- logs (torch/distributed/elastic/multiprocessing/api.py) --------------------------------


def logs_spec_settings(logs_specs: Any) -> tuple[Any, Any, set[int] | None]:
    """(redirects, tee, local_ranks_filter) of a LogsSpecs that torch built from the flags.

    Private: `LogsSpecs._redirects`, `._tee`, `._local_ranks_filter` (set in
    LogsSpecs.__init__). Checked in TORCH_CHECKED."""
    return logs_specs._redirects, logs_specs._tee, logs_specs._local_ranks_filter
