"""Start one node's agent: torch's own launch path (rendezvous, WorkerSpec) with NonstopAgent.

Mirrors torch.distributed.launcher.api.launch_agent, so torchrun's flags mean what they mean
there, and adds the run directory, the ledger, resume after a killed supervisor, and the exit
codes of nonstop run.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from torch.distributed.elastic.multiprocessing.api import SignalException
from torch.distributed.elastic.multiprocessing.errors import (
    ChildFailedError,
    ProcessFailure,
    get_error_handler,
)
from torch.distributed.elastic.rendezvous import RendezvousConnectionError, RendezvousParameters
from torch.distributed.elastic.rendezvous import registry as rdzv_registry

from nonstop import envvars, log, rundir, taxonomy
from nonstop.errors import UserError
from nonstop.ledger import Ledger
from nonstop.supervisor import agent as ag
from nonstop.supervisor import evidence, failures, netroot, policy, torch_compat, worker_logs
from nonstop.supervisor.cloud_notices import CloudNotices
from nonstop.supervisor.config import SupervisorConfig
from nonstop.supervisor.health import SelfTestPool
from nonstop.supervisor.live import LiveView
from nonstop.supervisor.standby import StandbyPool
from nonstop.supervisor.worker_logs import RunDirLogs

_log = log.get("supervisor")

PREEMPTION_SIGNALS = (signal.SIGTERM, signal.SIGUSR1, signal.SIGUSR2)


def _root_cause_to_error_file(failures: dict[int, ProcessFailure]) -> None:
    """As torchrun's `@record` main does when its ranks failed: the first failed rank's error
    file, copied (with its exit code) to the file TORCHELASTIC_ERROR_FILE names in this
    process's environment, which a scheduler that launches torchrun (TorchX) sets and reads
    for the job's error. Nothing without that variable, or when that rank left no error file
    (torchrun: the same)."""
    if not os.environ.get(envvars.TORCH_ERROR_FILE) or not failures:
        return
    first = min(failures.values(), key=lambda f: f.timestamp)
    if first.error_file == torch_compat.NO_ERROR_FILE:
        return
    with log.swallowed(_log, "copying the root cause's error file to TORCHELASTIC_ERROR_FILE"):
        get_error_handler().dump_error_file(first.error_file, first.exitcode)


def _resume(ledger: Ledger, run_dir: rundir.RunDir, *, multi_node: bool = False) -> int:
    """The next attempt number; an attempt left open by a killed supervisor is closed as an
    interruption, detected now. With several nodes, or a rendezvous others may join (a spare
    of a one-node group), an open attempt may be running on the others (this node is a spare
    joining it): the agents decide after the rendezvous (NonstopAgent._agree_attempt)."""
    found = ledger.last_attempt()
    if found is None:
        return 0
    last, end = found
    if end is None:
        if multi_node:
            return last + 1
        ledger.close_abandoned(before=last + 1, now_s=time.time())
        _log.info(
            f"resuming {run_dir.root}: attempt {last} was left open; "
            f"continuing with attempt {last + 1}"
        )
    else:
        # killed between a failure and its action (evidence, health checks): record that the
        # recovery was interrupted, so that every failure has a detection and an action
        if ledger.unanswered_failures(last):
            now = time.time()
            ledger.add_detection(attempt=last, kind="supervisor_restart", detection_time_s=now)
            ledger.add_action(
                attempt=last,
                time_s=now,
                action="restart",
                reason="recovery interrupted: the supervisor stopped before "
                "acting; a new `nonstop run` resumed the run",
            )
            _log.info(
                f"resuming {run_dir.root}: the recovery of attempt {last} was "
                "interrupted; restarting"
            )
    return last + 1


STORE_SILENT_S = 60.0
"""A rendezvous store that has not answered a poll for this long is lost (the store client's
own timeout, torch's default `read_timeout`; torch_compat.bounded_polls): on a connection whose
packets are dropped the read itself would wait for the kernel's retransmissions, 16 minutes.
`--rdzv-conf read_timeout=S` sets both (store_silent_s)."""
SHUTDOWN_WAIT_S = 10.0


def store_silent_s(params: Any) -> float:
    """How long a membership poll may go unanswered before the store is lost: the store
    client's own timeout, `--rdzv-conf read_timeout` (torch's c10d backend reads the same key
    for its TCPStore), STORE_SILENT_S when unset or not a positive number."""
    try:
        s = params.get_as_int("read_timeout", None)
    except ValueError:  # torch's own backend refuses it with its message, at the rendezvous
        return STORE_SILENT_S
    return float(s) if s is not None and s > 0 else STORE_SILENT_S


def _bounded(fn: Callable[[], object], what: str) -> None:
    """`fn()` on a daemon thread, waited for SHUTDOWN_WAIT_S: a store that does not answer must
    not hold up a reconnect or the exit (the thread goes with the process)."""

    def run() -> None:
        with log.swallowed(_log, what):
            fn()

    t = threading.Thread(target=run, name="nonstop-rdzv-shutdown", daemon=True)
    t.start()
    t.join(SHUTDOWN_WAIT_S)
    if t.is_alive():
        _log.warning(f"{what}: the store did not answer in {SHUTDOWN_WAIT_S:.0f} s; going on")


def _release(agent: ag.NonstopAgent) -> None:
    """Close what an agent replaced after a lost store holds outside the garbage collector's
    reach: its kernel-log reader, a raw fd. Without this the supervisor's fds grew at every
    lost store (docs/benchmarks.md, the soak)."""
    from nonstop.diagnose import kernel_log

    with log.swallowed(_log, "releasing the replaced agent (its kernel-log fd stays open)"):
        kernel_log.release_for(agent.ctx)


def _store_lost(ledger: Ledger, agent: ag.NonstopAgent, e: Exception, endpoint: str) -> None:
    now = time.time()
    _log.warning(f"lost the rendezvous store ({e}); reconnecting")
    with log.swallowed(_log, "recording the lost store (the ledger misses this failure)"):
        ledger.attempt_ended(agent.attempt, time_s=now, outcome="failed")
        ledger.add_detection(
            attempt=agent.attempt,
            kind="store_lost",
            detection_time_s=now,
            last_progress_time_s=agent.failures.fault_time(0),
        )
        why = f"rendezvous store unreachable: {e}"
        store_host = _store_host(agent.cfg.run_dir.root, endpoint)
        # the store lived in a node's agent (c10d's is_host): that node lost whole, as a lost
        # node is recorded (failures.LOST_NODE), not a dependency; or cut off by the network
        # (its kernel silent too: netroot.store_host_cause)
        cause = _store_cause(agent, store_host, endpoint) if store_host else None
        category = cause.category if cause else "dependency"
        # the check and the record in one write transaction: every survivor loses the store
        # at once, and the attempt already has its cause once one of them recorded it (the
        # store's host lost, a network fault): losing the store with it is its consequence,
        # once per node, not another interruption
        with ledger.transaction():
            known = ledger.rows(
                "SELECT host, category FROM failures WHERE attempt = ? AND root_cause = 1"
                " ORDER BY time LIMIT 1",
                (agent.attempt,),
            )
            ledger.add_failure(
                attempt=agent.attempt,
                time_s=now,
                category=category if not known else "dependency",
                action="none" if known else taxonomy.action_for(category),
                host=(cause.host if cause else None) or agent.cfg.host,
                message=(
                    f"secondary ({known[0][1]} on {known[0][0]}): {why}"
                    if known
                    else f"{cause.words}: {why}"
                    if cause
                    else why
                ),
                evidence=(
                    {"link_of": cause.link_of, "direct": cause.host == agent.cfg.host}
                    if cause and cause.category == netroot.NETWORK
                    else {}
                ),
                root_cause=not known,
            )
        ledger.add_action(
            attempt=agent.attempt,
            time_s=now,
            action="restart",
            host=agent.cfg.host,
            reason="reconnect to the rendezvous store",
        )


def _store_cause(agent: ag.NonstopAgent, store_host: str, endpoint: str) -> netroot.StoreCause:
    """Probe what a lost store's host left: its kernel (a TCP connect to the store's
    port, PROBE_TIMEOUT_S), this node's own carrier, the job's other peer nodes
    (netroot.store_host_cause decides)."""
    from nonstop.diagnose import peers

    root, me = agent.cfg.run_dir.root, agent.cfg.host
    host, _, port = endpoint.rpartition(":")
    address = host.strip("[]")
    answers = peers.reachable([address], int(port or 29400), timeout_s=failures.PROBE_TIMEOUT_S)
    own_flap = agent.failures.own_link_flap()
    in_attempt = set(evidence.hosts_of_attempt(root, agent.attempt).values())
    others = {
        a: h
        for a, h in peers.node_addresses(root).items()
        if h not in (me, store_host) and h in in_attempt
    }
    reached = peers.reachable(others, peers.rdzv_port(root), timeout_s=failures.PROBE_TIMEOUT_S)
    return netroot.store_host_cause(
        store_host,
        endpoint,
        me=me,
        answers=answers.get(address, False),
        own_flap=own_flap,
        reached=sum(reached.values()),
        others=len(others),
        lost_node=failures.LOST_NODE,
    )


def _store_host(run_root: Any, endpoint: str) -> str | None:
    """The node whose agent hosted the store at `endpoint`, by the addresses the agents
    recorded (nodes/<host>.json); None for a store outside the job's nodes or on one host."""
    from nonstop.diagnose.peers import node_addresses

    host = endpoint.rpartition(":")[0].strip("[]")
    return node_addresses(run_root).get(host)


def _answers(endpoint: str, timeout_s: float = 3.0) -> bool:
    """Whether the rendezvous store at `endpoint` ("host:port") accepts a connection."""
    import socket

    host, _, port = endpoint.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port or 29400)), timeout=timeout_s):
            return True
    except (OSError, ValueError):
        return False


def _majority(ledger: Ledger, min_nodes: int, max_nodes: int) -> int:
    """The nodes a round on a new store needs: more than half of the last attempt's, and
    never fewer than --nnodes' minimum (nor more than its maximum)."""
    last = len(ledger.hosts_of_last_attempt())
    return min(max_nodes, max(min_nodes, last // 2 + 1))


def _record_address(rd: rundir.RunDir, host: str, endpoint: str) -> None:
    """nodes/<host>.json: the address peers see this node at, so that an address in a rank's
    "connection closed by peer [a.b.c.d]" names a host (nonstop.diagnose.peers)."""
    if endpoint.split(":")[0] in ("", "127.0.0.1", "localhost", "::1"):
        return  # one host: every rank's peer is this node
    from nonstop.checkpoint.replica import interface_toward
    from nonstop.diagnose.peers import record_node

    try:
        port = endpoint.rpartition(":")[2]
        record_node(
            rd.root, host, interface_toward(endpoint), int(port) if port.isdigit() else None
        )
    except OSError as e:
        _log.warning(f"could not record this node's address ({e}): failing links name addresses")


def _start_replica_server(
    cfg: SupervisorConfig, rd: rundir.RunDir, host: str, endpoint: str
) -> Any:
    """This node's in-memory checkpoint replica server (nonstop.checkpoint.replica), published
    in the run directory; the workers learn the snapshot interval from their environment
    (NonstopAgent._start_workers)."""
    if not cfg.memory_checkpoint_every:
        return None
    if cfg.replicas < 0:
        raise UserError("--replicas must be 0 or more")
    from nonstop.checkpoint.replica import ReplicaServer, interface_toward, new_token, publish

    loopback = endpoint.split(":")[0] in ("", "127.0.0.1", "localhost", "::1")
    # never every interface (0.0.0.0): the one the rendezvous uses (docs/security.md)
    addr = cfg.replica_addr or ("127.0.0.1" if loopback else interface_toward(endpoint))
    capacity = int(cfg.replica_capacity_gb * (1 << 30))
    server = ReplicaServer(host=addr, port=0, token=new_token(), capacity_bytes=capacity)
    server.start()
    publish(rd.root, host, server, host=addr)
    _log.info(
        f"in-memory checkpoints every {cfg.memory_checkpoint_every} steps"
        f"{' (measured)' if cfg.memory_checkpoint_every == 'auto' else ''}, "
        f"kept at {addr}:{server.address[1]} and on {cfg.replicas} peer node(s)",
    )
    return server


class _NoPrefix(str):
    """A log-line prefix template that is set but empty. torch's agent builds per-rank
    prefixes only when its template is truthy, and its TailLog otherwise heads every line with
    "[default0]:"; this makes the console show each rank's lines as the rank wrote them, as
    torchrun does when it lets the workers write to the console themselves."""

    def __bool__(self) -> bool:
        return True


def _console(agent: ag.NonstopAgent, config: Any, cfg: SupervisorConfig) -> None:
    """torchrun's console on the agent: its prefix template
    (TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE), else "[<role><local rank>]:" when --tee asks for
    one, else each rank's lines unprefixed; and --shutdown-timeout."""
    template = config.log_line_prefix_template
    if not template and not cfg.console_prefix:
        template = _NoPrefix("")
    torch_compat.set_console(agent, template, config.shutdown_timeout)
    worker_logs.exact_console()


def _record_gpus(cfg: SupervisorConfig) -> None:
    """The GPU check once before the first attempt: its first pass is the node's record
    (count, ECC), which the checks after a failure compare with (a GPU that vanished fails)."""
    if "gpu" not in cfg.health_checks:
        return
    from nonstop.supervisor.health import HealthConfig, gpu_record_path, run_checks

    record = gpu_record_path(cfg.run_dir.control, cfg.host)
    hc = HealthConfig(paths=(), timeout_s=cfg.health_timeout_s, gpu_record=record)
    (r,) = run_checks(["gpu"], hc)
    if r.status == "failed":
        _log.warning("GPU check before the first attempt: %s", r.detail)


def launch(cfg: SupervisorConfig, torchrun: tuple[Any, Any, list[str]]) -> int:
    """Run this node's agent until the job ends; returns `nonstop run`'s exit code. `cfg` is
    nonstop's configuration, `torchrun` torch's own (LaunchConfig, entrypoint, its args)."""
    config, cmd, cmd_args = torchrun
    rd, run_id, host = cfg.run_dir, cfg.run_id, cfg.host
    log.set_context(host=host)
    # the signals torch forwards to the ranks (torch's launch_agent sets them in its own
    # environment): set as each attempt's ranks start (NonstopAgent._spawn_or_hand_over)
    # every worker goes through the bootstrap, which then runs the user's command unchanged
    if cmd != sys.executable and not str(cmd).endswith("python"):
        entry_args = [a for a in cmd_args]
        _log.info("--no-python scripts run without the bootstrap (no collective progress watching)")
        entrypoint, worker_args = cmd, entry_args
    else:
        rest = [a for a in cmd_args if a != "-u"]
        entrypoint, worker_args = cmd, ["-u", "-m", "nonstop.supervisor.bootstrap", *rest]

    def make_params(endpoint: str, min_nodes: int) -> RendezvousParameters:
        return RendezvousParameters(
            backend=config.rdzv_backend,
            endpoint=endpoint,
            run_id=config.run_id,
            min_nodes=min_nodes,
            max_nodes=config.max_nodes,
            local_addr=config.local_addr,
            **config.rdzv_configs,
        )

    endpoints = [config.rdzv_endpoint, *cfg.rdzv_fallbacks]
    at = 0  # the endpoint in use
    params = make_params(endpoints[at], config.min_nodes)
    from torch.distributed.elastic.agent.server.api import WorkerSpec

    def make_spec() -> WorkerSpec:
        try:
            master_addr, master_port = torch_compat.master_addr_and_port(params)
        except ValueError as e:  # torchrun shows a traceback; the fix is one flag away
            raise UserError(
                f"the rendezvous endpoint {params.endpoint or '(none)'!r} does not name a port "
                f"({e}); a job of several nodes (--nnodes {config.min_nodes}:"
                f"{config.max_nodes}) needs --rdzv-backend c10d --rdzv-endpoint HOST:PORT, "
                "or --standalone on one node"
            ) from None
        handler = rdzv_registry.get_rendezvous_handler(params)
        torch_compat.bounded_polls(handler, store_silent_s(params))
        if cfg.store_per_attempt:
            torch_compat.store_per_attempt(handler)
        return WorkerSpec(
            role=config.role,
            local_world_size=config.nproc_per_node,
            entrypoint=entrypoint,
            args=tuple(worker_args),
            rdzv_handler=handler,
            max_restarts=config.max_restarts,
            monitor_interval=min(config.monitor_interval, 0.5),
            master_addr=master_addr,
            master_port=master_port,
            local_addr=config.local_addr,
            event_log_handler=config.event_log_handler,
            numa_options=config.numa_options,
            duplicate_stdout_filters=config.duplicate_stdout_filters,
            virtual_local_rank=config.virtual_local_rank,
        )

    spec = make_spec()
    ls = config.logs_specs  # torch's, from the flags: nonstop keeps its settings, not its files
    redirects, tee, ranks_filter = torch_compat.logs_spec_settings(ls)
    logs = RunDirLogs(
        rd, redirects=redirects, tee=tee, local_ranks_filter=ranks_filter, log_dir=cfg.log_dir
    )
    ledger = Ledger.open(rd.ledger)
    first = _resume(ledger, rd, multi_node=cfg.multi_node or cfg.shared_rendezvous)
    live = None if cfg.quiet or not sys.stdout.isatty() else LiveView(rd.root)
    metrics = None
    if cfg.metrics_port is not None:
        from nonstop.report.prometheus import MetricsExporter

        metrics = MetricsExporter(cfg.metrics_host, cfg.metrics_port, run_id=run_id, node=host)
        metrics.start()  # UserError if the port is taken
    _record_address(rd, host, config.rdzv_endpoint)
    replicas = _start_replica_server(cfg, rd, host, config.rdzv_endpoint)
    _record_gpus(cfg)
    standbys = None
    if cfg.numa_binding and cfg.standbys:
        _log.info(
            "--numa-binding: standbys off (a standby's CPUs are set before it knows its rank)"
        )
    elif cfg.standbys and "nonstop.supervisor.bootstrap" in worker_args:
        standbys = StandbyPool(
            list(worker_args),
            config.nproc_per_node,
            rd.root / "logs" / f"standby-{host}",
            single_node=config.max_nodes == 1,
        )
    self_tests = SelfTestPool() if cfg.self_test else None
    agent = ag.NonstopAgent(
        spec=spec,
        logs=logs,
        start_method=config.start_method,
        cfg=cfg,
        ledger=ledger,
        first_attempt=first,
        live=live,
        metrics=metrics,
        standbys=standbys,
        self_tests=self_tests,
    )
    _console(agent, config, cfg)
    # the cloud's preemption and maintenance notices: found and polled on their own thread
    cloud = CloudNotices(cfg.cloud_notices, base=cfg.cloud_metadata_url)
    cloud.start()
    agent.stops.cloud_notices = cloud
    code = policy.EXIT_FAILED
    store_losses = 0
    try:
        if live is not None:
            live.start()
        from nonstop.supervisor.planned_stop import early_signal

        agent.stops.signal_received = early_signal()  # one that came while nonstop run started
        while True:
            for sig in PREEMPTION_SIGNALS:  # the scheduler's warning: checkpoint, then stop
                signal.signal(sig, agent.on_signal)
            try:
                result = agent.run()
            except RendezvousConnectionError as e:
                # the rendezvous store went away (its host died, a network cut): the workers are
                # stopped; reconnect with a fresh handler and go on as a new attempt
                store_losses += 1
                _store_lost(ledger, agent, e, endpoints[at])
                if at + 1 < len(endpoints) and not _answers(endpoints[at]):
                    # its host is lost: a new store where the fallback list says, joined by
                    # a majority of the last attempt's nodes (a minority cut off by a
                    # partition cannot form a round of its own)
                    at, store_losses = at + 1, 0
                    quorum = _majority(ledger, config.min_nodes, config.max_nodes)
                    params = make_params(endpoints[at], quorum)
                    _log.warning(
                        f"the rendezvous store at {endpoints[at - 1]} is lost: moving to "
                        f"{endpoints[at]}; a round needs {quorum} node(s)"
                    )
                elif store_losses > max(1, config.max_restarts):
                    agent.exit_message = f"the rendezvous store stayed unreachable: {e}"
                    break
                time.sleep(min(30.0, 2.0 * store_losses))
                _bounded(spec.rdzv_handler.shutdown, "shutting the lost rendezvous down")
                new_spec = None
                while new_spec is None:
                    try:  # a fresh handler connects to the store: one that does not answer
                        new_spec = make_spec()  # is one more loss, under the same bound
                    except RendezvousConnectionError as again:
                        store_losses += 1
                        e = again
                        _log.warning(f"the rendezvous store still does not answer ({again})")
                        if store_losses > max(1, config.max_restarts):
                            break
                        time.sleep(min(30.0, 2.0 * store_losses))
                if new_spec is None:
                    agent.exit_message = f"the rendezvous store stayed unreachable: {e}"
                    break
                spec = new_spec
                lost, agent = (
                    agent,
                    ag.NonstopAgent(
                        spec=spec,
                        logs=logs,
                        start_method=config.start_method,
                        cfg=cfg,
                        ledger=ledger,
                        first_attempt=agent.attempt + 1,
                        live=live,
                        metrics=metrics,
                        standbys=standbys,
                        self_tests=self_tests,
                    ),
                )
                _console(agent, config, cfg)
                agent.stops.cloud_notices = cloud
                _release(lost)
                del lost
                gc.collect()  # the old rendezvous' store sockets, held in reference cycles
                continue
            if result is None:  # torch: RendezvousGracefulExitError, the round closed
                # a spare that waited in the redundancy list while the job finished without it
                _log.info("the rendezvous closed while this node waited as a spare: done")
                code = policy.exit_code(agent.exit_code, failed=False)
                break
            code = policy.exit_code(agent.exit_code, failed=result.is_failed())
            if result.is_failed():
                _root_cause_to_error_file(result.failures)
            break
    except ag.StoppedInRendezvous as e:
        name = signal.Signals(e.signum).name
        why = f"{name} while waiting in the rendezvous (no rank running: nothing to checkpoint)"
        with log.swallowed(_log, "recording the stop in the ledger"):
            ledger.add_action(
                attempt=agent.attempt,
                time_s=time.time(),
                action="planned_stop",
                host=host,
                reason=f"preempt: {why} [signal-{name}]",
            )
        agent.exit_message = f"stopped: {why}; requeue the job"
        code = policy.EXIT_REQUEUE
    except (SignalException, torch_compat.DeathSignal, KeyboardInterrupt) as e:
        # Ctrl-C (SIGINT), the terminal gone (SIGHUP), SIGQUIT: torch's agent has stopped the
        # ranks (DeathSignal: it came outside the agent's run, with no rank running), and
        # torchrun leaves with the exception's traceback and exit 1. The attempt is closed
        # here as stopped: left open, the next `nonstop run` of the directory read it as a
        # supervisor killed mid-attempt, a failure that never happened
        # KeyboardInterrupt: Ctrl-C before torch's handler was in place (the first ranks
        # starting); torch's run() stopped what had started on its way out
        name = "SIGINT" if isinstance(e, KeyboardInterrupt) else signal.Signals(e.sigval).name
        with log.swallowed(_log, "recording the interruption in the ledger"):
            now = time.time()
            ledger.attempt_ended(agent.attempt, time_s=now, outcome="stopped")
            ledger.add_action(
                attempt=agent.attempt,
                time_s=now,
                action="interrupted",
                host=host,
                reason=f"{name} to nonstop run: the ranks were stopped",
            )
        agent.exit_message = (
            f"interrupted ({name}): the ranks were stopped; the same command with "
            f"--run-dir {rd.root} resumes the run"
        )
        # torchrun's: 1 on its handler's exception; Python's 130 on a KeyboardInterrupt
        code = 130 if isinstance(e, KeyboardInterrupt) else policy.EXIT_FAILED
    except ChildFailedError:
        code = policy.exit_code(agent.exit_code, failed=True)
    finally:
        cloud.stop()
        if live is not None:
            live.stop()
        with log.swallowed(
            _log, "leaving the rendezvous (peers wait for this node until a timeout)"
        ):
            if agent.leaving:  # an excluded or drained node leaves; the job goes on
                torch_compat.leave_round(spec.rdzv_handler)
            else:
                _bounded(spec.rdzv_handler.shutdown, "leaving the rendezvous")
        if standbys is not None:
            standbys.close()
        if self_tests is not None:
            self_tests.close()
        if replicas is not None:
            from nonstop.checkpoint.replica import unpublish

            replicas.stop()
            unpublish(rd.root, host)
        agent._ingest(force=True)
        ledger.close()
        if metrics is not None:
            metrics.stop()
    if code == policy.EXIT_OK:
        done = agent.exit_message or "finished"
        last = f"nonstop run: {done}; see `nonstop report {rd.root}`"
    else:
        last = (
            f"nonstop run: {agent.exit_message or 'failed'} (exit {code}); "
            f"see `nonstop diagnose {rd.root}`"
        )
    try:
        print(last, flush=True)  # flushed here: a broken pipe at the exit's flush is status 120
    except BrokenPipeError:
        # the console's reader left (`nonstop run ... | head -1`): the status stays the run's,
        # as torchrun's does (its own lines go to stderr), not the 141 of a killed pipeline
        log.console_closed(sys.stdout)
    return code
