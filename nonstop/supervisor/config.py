"""`nonstop run`'s settings, resolved once from the command line.

SupervisorConfig is the one configuration channel of the supervisor: `from_args` builds it from
the parsed flags (torchrun's and nonstop's), launch() and the agent read nothing else of
nonstop's, and config.json in the run directory records it (`to_dict`). The defaults live in
the fields below; the flags' help text reads them from there (`default`).

torch's own LaunchConfig (torch.distributed.run.config_from_args) stays torch's: the rendezvous,
--nproc-per-node, --max-restarts and the console flags mean what they mean to torchrun.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nonstop import envvars, rundir
from nonstop.errors import UserError


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
    """Seconds allowed before the first progress of an attempt (--startup-timeout)."""
    section_timeout_s: float = 1800.0
    """Seconds a named section (checkpoint, eval) may take (--section-timeout)."""
    exit_timeout_s: float = 60.0
    """Seconds the job's ranks get to exit once one has finished its script: its interpreter
    teardown, or a peer still saving the final model (--exit-timeout)."""
    evidence_timeout_s: float = 3.0
    """Seconds to wait for live ranks' flight-recorder dumps and stacks (--evidence-timeout)."""
    network_hold_s: float = 120.0
    """Seconds a hang's kill is held while a link of the job is down (this node's carrier, or
    peer nodes unreachable), so that a collective the network gives back completes by
    itself; the ranks then get a grace once the link is back (nonstop.supervisor.netwait).
    0: never hold, restart at once as for any hang (--network-hold)."""
    health_checks: tuple[str, ...] = ("disk", "memory", "gpu", "vendor")
    """Checks run between attempts (nonstop.supervisor.health.CHECKS; --health-checks)."""
    self_test: bool = True
    """Add the collective self-test after hardware, hang and network failures."""
    health_timeout_s: float = 60.0
    """Timeout of each health check (--health-timeout)."""
    exclude: bool = True
    """Allow exclude_node (exit 93); False restarts instead (--no-exclude)."""
    faults: str = ""
    """Injected faults for the workers (--inject, ';'-joined; the workers' NONSTOP_FAULTS)."""
    multi_node: bool = False
    """More than one node may join (--nnodes MAX > 1)."""
    shared_rendezvous: bool = False
    """Other agents may join this run's rendezvous and run directory (c10d at an endpoint the
    user gave: a spare of a one-node group too), so an attempt left open may be a live one of
    theirs, not a killed supervisor's."""
    grace_period_s: float = 120.0
    """Time for every rank to checkpoint after a preemption signal or a drain/restart."""
    sigterm_grace_s: float | None = None
    """Seconds a stop after SIGTERM may take when shorter than grace_period_s: the
    scheduler's SIGKILL delay (--sigterm-grace, default $NONSTOP_SIGTERM_GRACE_S, which
    examples/slurm/nonstop.sbatch sets from Slurm's KillWait); None: grace_period_s alone."""
    kernel_log: str = ""
    """A file read as the kernel log besides /dev/kmsg, e.g. a mounted kern.log (--kernel-log,
    default $NONSTOP_KERNEL_LOG); the ranks get it too (an injected Xid is written there when
    /dev/kmsg is not writable). "": none."""
    guards: str = ""
    """The ranks' numerical guards (nonstop.runtime.guards.GuardConfig.from_spec): `off`,
    `key=value,...` or "" for GuardConfig's defaults (--guards, default $NONSTOP_HEALTH;
    the ranks' NONSTOP_HEALTH)."""
    telemetry_interval_s: float = 5.0
    """Seconds between the ranks' telemetry samples (NVML or psutil); 0: off
    (--telemetry-interval, default $NONSTOP_TELEMETRY_S; the ranks' NONSTOP_TELEMETRY_S)."""
    store_per_attempt: bool = False
    """A new rendezvous store per attempt, hosted by rank 0, in place of the agent's shared
    one (torch's TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 without setting it): several nodes or
    --no-python, where the bootstrap cannot scope the workers' keys by attempt; the variable
    set by the user decides where given."""
    cloud_notices: str = "auto"
    """Watch the cloud's maintenance and preemption notices: auto, gcp, aws, azure or off
    (nonstop.supervisor.cloud_notices; --cloud-notices)."""
    cloud_metadata_url: str = "http://169.254.169.254"
    """The cloud metadata service --cloud-notices polls: the link-local address of GCP, AWS
    and Azure alike, a proxy, or a local server in tests (--cloud-metadata-url, default
    $NONSTOP_CLOUD_METADATA_URL)."""
    stop_check_every: int = 1
    """Steps between the ranks' planned-stop agreements, one all-reduce each
    (--stop-check-every, default $NONSTOP_STOP_CHECK_EVERY; the ranks' variable)."""
    watcher_tick_s: float = 0.5
    """Seconds between the bootstrap watcher's heartbeats and dump-request polls in every rank
    (--watcher-tick, default $NONSTOP_TICK_S; the ranks' variable)."""
    standbys: bool = True
    """Keep one warm standby per local rank to hand restarts to (--no-standby: False)."""
    standby_wait_s: float = 15.0
    """How long a start waits for standbys still importing before it spawns cold."""
    straggler_every: int = 20
    """Online straggler scores every this many steps (live setting straggler_every)."""
    memory_checkpoint_every: int | str = 0
    """Steps between in-memory snapshots of every rank's checkpoint state; 0: off; `auto`: as
    often as a CPU budget allows (nonstop.checkpoint.cadence)."""
    replicas: int = 1
    """Peer nodes that keep a copy of each rank's memory snapshot (--replicas)."""
    replica_addr: str | None = None
    """Address of this node's replica server (--replica-addr; None: chosen from the
    rendezvous endpoint)."""
    rdzv_fallbacks: tuple[str, ...] = ()
    """Rendezvous endpoints to move to, in order, when the store's host is lost
    (--rdzv-fallback-endpoints): a new store on a surviving node, joined by a majority."""
    replica_capacity_gb: float = 64.0
    """CPU memory this node's replica server may hold (--replica-capacity-gb)."""
    metrics_port: int | None = None
    """Serve Prometheus metrics on this port (--metrics-port; None: off)."""
    metrics_host: str = "127.0.0.1"
    """Address for --metrics-port."""
    quiet: bool = False
    """No live view (--quiet)."""
    numa_binding: bool = False
    """torchrun's --numa-binding was given (standbys are off with it)."""
    signals_to_forward: str = ""
    """The signals torch's process context forwards to the ranks (--signals-to-handle less
    SIGTERM, SIGUSR1 and SIGUSR2, which are nonstop's planned stop)."""
    signals_to_handle: str = "SIGTERM,SIGINT,SIGHUP,SIGQUIT"
    """--signals-to-handle as given: the ranks' TORCHELASTIC_SIGNALS_TO_HANDLE, as torchrun's
    workers inherit it from its launch_agent."""
    console_prefix: bool = False
    """--tee asks for torchrun's "[<role><local rank>]:" prefix on the console."""
    log_dir: str | None = None
    """torchrun's --log-dir: its layout there too, as links to the run directory's files."""
    replica_groups: int = 0
    """Replica groups of --nproc-per-node ranks each on torchft, one `nonstop run` agent per
    group under a parent that runs torchft's Lighthouse (nonstop.supervisor.replica_groups;
    --replica-groups); 0: one ordinary job."""
    replica_group: int | None = None
    """Across hosts: the one replica group this node runs (--replica-group); None: every group
    on this host."""
    lighthouse: str | None = None
    """Across hosts: HOST:PORT of the job's torchft Lighthouse (--lighthouse)."""
    serve_lighthouse: bool = False
    """Across hosts: this node serves the Lighthouse and the groups' rendezvous store
    (--serve-lighthouse)."""

    @classmethod
    def from_args(
        cls, args: argparse.Namespace, *, run_dir: rundir.RunDir, run_id: str, host: str
    ) -> SupervisorConfig:
        """The configuration from `nonstop run`'s parsed flags (nonstop.supervisor.cli's
        parser, torchrun's flags included). Raises UserError naming a bad flag's value."""
        from nonstop.supervisor.live_settings import parse_hang_timeout

        try:
            hang = parse_hang_timeout(args.hang_timeout)
        except ValueError:
            raise UserError(
                f"--hang-timeout must be seconds above 0 or 'auto', got {args.hang_timeout!r}"
            ) from None
        checks = () if args.health_checks == "none" else tuple(args.health_checks.split(","))
        return cls(
            run_dir=run_dir,
            run_id=run_id,
            host=host,
            hang_timeout_s=hang,
            startup_timeout_s=args.startup_timeout,
            section_timeout_s=args.section_timeout,
            exit_timeout_s=args.exit_timeout,
            evidence_timeout_s=args.evidence_timeout,
            network_hold_s=args.network_hold,
            health_checks=checks,
            self_test=not args.no_self_test,
            health_timeout_s=args.health_timeout,
            exclude=not args.no_exclude,
            faults=";".join(args.inject),
            multi_node=int(args.nnodes.split(":")[-1]) > 1,
            grace_period_s=args.grace_period,
            sigterm_grace_s=args.sigterm_grace,
            kernel_log=args.kernel_log or "",
            guards=guards_spec(args.guards),
            telemetry_interval_s=args.telemetry_interval,
            store_per_attempt=store_per_attempt(args),
            cloud_notices=args.cloud_notices,
            cloud_metadata_url=args.cloud_metadata_url.rstrip("/"),
            stop_check_every=args.stop_check_every,
            watcher_tick_s=args.watcher_tick,
            standbys=not args.no_standby,
            memory_checkpoint_every=args.memory_checkpoint_every,
            replicas=args.replicas,
            replica_addr=args.replica_addr,
            replica_capacity_gb=args.replica_capacity_gb,
            rdzv_fallbacks=tuple(e for e in (args.rdzv_fallback_endpoints or "").split(",") if e),
            metrics_port=args.metrics_port,
            metrics_host=args.metrics_host,
            quiet=args.quiet,
            numa_binding=args.numa_binding is not None,
            signals_to_forward=signals_to_forward(args.signals_to_handle),
            signals_to_handle=args.signals_to_handle,
            console_prefix=args.tee not in ("", "0"),
            log_dir=args.log_dir,
            replica_groups=getattr(args, "replica_groups", 0) or 0,
            replica_group=getattr(args, "replica_group", None),
            lighthouse=getattr(args, "lighthouse", None),
            serve_lighthouse=bool(getattr(args, "serve_lighthouse", False)),
        )

    def to_dict(self) -> dict[str, Any]:
        """The resolved values, as config.json records them (the run directory as its path)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["run_dir"] = str(self.run_dir.root)
        out["health_checks"] = list(self.health_checks)
        out["rdzv_fallbacks"] = list(self.rdzv_fallbacks)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SupervisorConfig:
        """The configuration config.json recorded (to_dict's inverse); unknown keys ignored."""
        known = {k: v for k, v in d.items() if k in FIELDS}
        known["run_dir"] = rundir.RunDir(Path(d["run_dir"]))
        known["health_checks"] = tuple(d.get("health_checks", default("health_checks")))
        known["rdzv_fallbacks"] = tuple(d.get("rdzv_fallbacks", ()))
        return cls(**known)


FIELDS = {f.name: f for f in dataclasses.fields(SupervisorConfig)}


def default(name: str) -> Any:
    """A setting's default (the flags' help text and argparse defaults read it here)."""
    value = FIELDS[name].default
    assert value is not dataclasses.MISSING, f"{name} has no default"
    return value


def store_per_attempt(args: argparse.Namespace) -> bool:
    """torch 2.13: a restart through the agent's shared rendezvous store reads the previous
    attempt's peer addresses; on one node the bootstrap scopes the workers' keys by attempt
    and the process group starts in milliseconds. Several nodes (an exclusion with a spare
    joining stalled torch's rank assignment on the shared store) and --no-python (no
    bootstrap) get torch's own workaround: a new store per attempt, hosted by rank 0. A
    TORCH_DISABLE_SHARE_RDZV_TCP_STORE the user set decides instead (torch reads it too)."""
    theirs = os.environ.get(envvars.TORCH_DISABLE_SHARE_RDZV_TCP_STORE)
    if theirs is not None:
        return theirs == "1"
    return bool(args.no_python) or args.nnodes.split(":")[-1] not in ("1", "")


def guards_spec(value: str) -> str:
    """--guards as the ranks will read it (GuardConfig.from_spec); UserError naming the bad
    field, before a rank starts."""
    from nonstop.runtime.guards import GuardConfig

    try:
        GuardConfig.from_spec(value)
    except ValueError as e:
        raise UserError(f"--guards: {e}") from None
    return value.strip()


def env_seconds(name: str, default: float | None) -> float | None:
    """A flag's default from the variable a scheduler script or the user sets: its value as
    seconds, or `default` when unset, empty, not a number or negative (where the ranks and the
    supervisor ignored such a value before these settings had flags)."""
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw)
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= 0 else default


def signals_to_forward(value: str) -> str:
    """--signals-to-handle: the signals torch's process context forwards to the ranks. SIGTERM,
    SIGUSR1 and SIGUSR2 are nonstop's planned stop instead (checkpoint, then stop), so torch
    must not turn them into an immediate teardown."""
    from nonstop.supervisor.planned_stop import PREEMPTION_SIGNALS

    names = [v.strip() for v in value.split(",") if v.strip()]
    for n in names:
        if not hasattr(signal, n) or not n.startswith("SIG"):
            raise UserError(f"--signals-to-handle: unknown signal {n!r}")
    planned = {s.name for s in PREEMPTION_SIGNALS}
    return ",".join(n for n in names if n not in planned)
