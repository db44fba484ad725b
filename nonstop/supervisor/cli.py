"""`nonstop run`: a drop-in for torchrun that detects, diagnoses and recovers.

Every torchrun flag works unchanged (this is torch's own argument parser, with nonstop's flags
added); nonstop's flags go before the script like torchrun's:

    nonstop run --nproc-per-node 2 train.py --lr 3e-4
    nonstop run --nnodes 2:3 --rdzv-backend c10d --rdzv-endpoint head:29400 --rdzv-id job7 \\
        --run-dir /shared/runs/job7 --hang-timeout auto -m mypkg.train
    nonstop run --standalone --nproc-per-node 4 --inject crash@step=40,rank=1 train.py

Differences from torchrun, all on purpose: --max-restarts defaults to 3 (torchrun: 0; as there,
PET_MAX_RESTARTS sets it too); the gloo restart bug of torch 2.13 is avoided (one node: the
workers' store keys are scoped by attempt; several nodes: a new store per attempt); a missing
rendezvous endpoint means a private local one (like --standalone) rather than port 29500.
Exit codes: 0 done, 1 failed, 2 bad usage, 3 stopped for a human (deterministic failure),
75 stopped for a planned interruption (requeue), 93 this node is excluded (do not requeue here).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib.machinery
import importlib.util
import json
import math
import os
import shlex
import shutil
import socket
import sys
import time
from pathlib import Path
from typing import Any

from nonstop import envvars, log, rundir
from nonstop.errors import UserError
from nonstop.faults import check_run
from nonstop.supervisor.cloud_notices import CHOICES as CLOUD_CHOICES
from nonstop.supervisor.config import (
    SupervisorConfig,
    default,
    env_seconds,
    guards_spec,
    signals_to_forward,
)
from nonstop.supervisor.live_settings import parse_hang_timeout

_log = log.get("supervisor")

DEFAULT_MAX_RESTARTS = 3


def build_parser() -> argparse.ArgumentParser:
    from torch.distributed.run import get_args_parser

    p = get_args_parser()
    p.prog = "nonstop run"
    p.description = __doc__.split("\n")[0]
    if "PET_MAX_RESTARTS" not in os.environ:  # torchrun's environment form of the flag wins
        p.set_defaults(max_restarts=DEFAULT_MAX_RESTARTS)
    g = p.add_argument_group("nonstop")
    g.add_argument(
        "--run-dir",
        default=None,
        help="run directory (default: runs/<rdzv-id>, or a new one under runs/); "
        "running the same command again resumes it",
    )
    g.add_argument(
        "--hang-timeout",
        default="auto",
        help="seconds without progress that make a hang, or 'auto' (default): "
        "3x the median step with nonstop.runtime, 5x the longest gap between "
        "collectives without it",
    )
    g.add_argument(
        "--startup-timeout",
        type=float,
        default=default("startup_timeout_s"),
        help=f"seconds allowed before the first progress (default {default('startup_timeout_s'):g})",
    )
    g.add_argument(
        "--section-timeout",
        type=float,
        default=default("section_timeout_s"),
        help="seconds a named section (checkpoint, eval) may take "
        f"(default {default('section_timeout_s'):g})",
    )
    g.add_argument(
        "--exit-timeout",
        type=float,
        default=default("exit_timeout_s"),
        help="seconds the ranks get to exit once one has finished its script (teardown, "
        "a final save) before a rank still running is an exit hang "
        f"(default {default('exit_timeout_s'):g})",
    )
    checks = ",".join(default("health_checks"))
    g.add_argument(
        "--health-checks",
        default=checks,
        help="checks between attempts, comma-separated, or 'none' "
        f"(disk, memory, gpu, vendor, collective; default {checks})",
    )
    g.add_argument(
        "--no-self-test",
        action="store_true",
        help="never run the collective self-test (default: after hardware, hang "
        "and network failures)",
    )
    g.add_argument(
        "--health-timeout",
        type=float,
        default=default("health_timeout_s"),
        help="seconds per check",
    )
    g.add_argument(
        "--no-exclude", action="store_true", help="never exclude this node; restart instead"
    )
    g.add_argument(
        "--network-hold",
        type=float,
        default=default("network_hold_s"),
        help="seconds to hold a hang's kill while a link of the job is down, so that the "
        "network can give the collective back (at most 30 s when only peers are silent: "
        "a silent peer may be a dead host); 0 restarts at once "
        f"(default {default('network_hold_s'):g})",
    )
    g.add_argument(
        "--evidence-timeout",
        type=float,
        default=default("evidence_timeout_s"),
        help="seconds to wait for live ranks' dumps before restarting "
        f"(default {default('evidence_timeout_s'):g})",
    )
    g.add_argument(
        "--inject",
        action="append",
        default=[],
        metavar="FAULT",
        help="inject a fault, e.g. crash@step=40,rank=1 (see nonstop.faults)",
    )
    g.add_argument(
        "--grace-period",
        type=float,
        default=default("grace_period_s"),
        metavar="SECONDS",
        help="after SIGTERM/SIGUSR1/SIGUSR2 or a drain/restart request: time for "
        "every rank to checkpoint before it is stopped anyway "
        f"(default {default('grace_period_s'):g})",
    )
    g.add_argument(
        "--sigterm-grace",
        type=float,
        default=env_seconds(envvars.SIGTERM_GRACE_S, None) or None,
        metavar="SECONDS",
        help="after SIGTERM: the stop's time when shorter than --grace-period, i.e. the "
        "scheduler's SIGKILL delay (Slurm's KillWait) "
        f"(default ${envvars.SIGTERM_GRACE_S}, else --grace-period alone)",
    )
    g.add_argument(
        "--guards",
        default=os.environ.get(envvars.HEALTH, ""),
        metavar="SPEC",
        help="the ranks' numerical guards (NaN/Inf, loss spikes, replica fingerprints; "
        "docs/health.md): 'off', or key=value,... of their thresholds "
        f"(default ${envvars.HEALTH}, else on with their defaults)",
    )
    g.add_argument(
        "--telemetry-interval",
        type=float,
        default=env_seconds(envvars.TELEMETRY_S, default("telemetry_interval_s")),
        metavar="SECONDS",
        help="seconds between the ranks' GPU/CPU telemetry samples; 0: off "
        f"(default ${envvars.TELEMETRY_S}, else {default('telemetry_interval_s'):g})",
    )
    g.add_argument(
        "--kernel-log",
        default=os.environ.get(envvars.KERNEL_LOG, ""),
        metavar="FILE",
        help="a file read as the kernel log besides /dev/kmsg, e.g. a mounted kern.log; the "
        f"ranks write an injected Xid there (default ${envvars.KERNEL_LOG}, else none)",
    )
    g.add_argument(
        "--cloud-notices",
        choices=CLOUD_CHOICES,
        default=default("cloud_notices"),
        help="turn the cloud's preemption and maintenance notices (GCP, AWS, Azure metadata) "
        "into a planned stop: checkpoint, then exit 75 to requeue "
        f"(default {default('cloud_notices')}: the cloud found, if any)",
    )
    g.add_argument(
        "--cloud-metadata-url",
        default=os.environ.get(envvars.CLOUD_METADATA_URL) or default("cloud_metadata_url"),
        metavar="URL",
        help="the cloud metadata service --cloud-notices polls: a proxy, or a local server "
        f"(default ${envvars.CLOUD_METADATA_URL}, else {default('cloud_metadata_url')})",
    )
    g.add_argument(
        "--stop-check-every",
        type=int,
        default=_env_steps(envvars.STOP_CHECK_EVERY, default("stop_check_every")),
        metavar="STEPS",
        help="steps between the ranks' planned-stop agreements (one all-reduce each) "
        f"(default ${envvars.STOP_CHECK_EVERY}, else {default('stop_check_every')})",
    )
    g.add_argument(
        "--watcher-tick",
        type=float,
        default=env_seconds(envvars.TICK_S, None) or default("watcher_tick_s"),
        metavar="SECONDS",
        help="seconds between each rank's watcher heartbeats and dump-request polls "
        f"(default ${envvars.TICK_S}, else {default('watcher_tick_s'):g})",
    )
    g.add_argument(
        "--host-name", default=None, help="name this node in the ledger (default: the hostname)"
    )
    g.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics on this port (default: off)",
    )
    g.add_argument(
        "--metrics-host",
        default=default("metrics_host"),
        help=f"address for --metrics-port (default {default('metrics_host')}; 0.0.0.0 for all)",
    )
    g.add_argument(
        "--memory-checkpoint-every",
        type=_memory_every,
        default=default("memory_checkpoint_every"),
        metavar="STEPS|auto",
        help="also snapshot every rank's checkpoint state into CPU memory every this "
        "many steps, kept by this node's agent and replicated to --replicas "
        "peer nodes; restarts load from there (default 0: off). auto: measure the "
        "snapshot's CPU cost and take one as often as 1%% of the step time allows "
        "(a restart then redoes at most that many steps less one). The training "
        "script must save through nonstop.checkpoint",
    )
    g.add_argument(
        "--replicas",
        type=int,
        default=default("replicas"),
        metavar="K",
        help="peer nodes that keep a copy of each rank's memory snapshot "
        f"(default {default('replicas')})",
    )
    g.add_argument(
        "--replica-addr",
        default=None,
        metavar="ADDR",
        help="address this node's replica server listens on and peers use (default: "
        "127.0.0.1 with a loopback rendezvous, else this host's name, listening "
        "on all interfaces)",
    )
    g.add_argument(
        "--rdzv-fallback-endpoints",
        default=None,
        metavar="HOST:PORT[,HOST:PORT...]",
        help="where the job's rendezvous moves, in order, when the c10d store's host is lost: "
        "the agent on each endpoint's host starts a new store there, and a round forms once a "
        "majority of the last attempt's nodes joined (no split brain); the same list on every "
        "node (default: none: a lost store host ends the job after its reconnects)",
    )
    g.add_argument(
        "--replica-capacity-gb",
        type=float,
        default=default("replica_capacity_gb"),
        metavar="GB",
        help=f"CPU memory this node's replica server may hold "
        f"(default {default('replica_capacity_gb'):g})",
    )
    g.add_argument(
        "--no-standby",
        action="store_true",
        help="spawn every worker cold (default: keep one warm standby per local "
        "rank, interpreter and imports done, to hand restarts to)",
    )
    g.add_argument(
        "--replica-groups",
        type=int,
        default=default("replica_groups"),
        metavar="G",
        help="train as G replica groups of --nproc-per-node ranks on torchft (the script must "
        "use torchft's Manager): a failure stops and restarts only its group, which heals "
        "from a live one while the others train on (default 0: one ordinary job; "
        "docs/run.md, Replica groups)",
    )
    g.add_argument(
        "--replica-group",
        type=int,
        default=None,
        metavar="g",
        help="across hosts: this node runs replica group g of --replica-groups G, one node of "
        "it (the group's nodes meet at --rdzv-endpoint under rendezvous id <--rdzv-id>-g<g>; "
        "--nnodes is the group's); needs --lighthouse (default: every group on this host)",
    )
    g.add_argument(
        "--lighthouse",
        default=None,
        metavar="HOST:PORT",
        help="across hosts: the address of the job's torchft Lighthouse, which every group's "
        "Manager reaches (served by the node given --serve-lighthouse)",
    )
    g.add_argument(
        "--serve-lighthouse",
        action="store_true",
        help="across hosts, on one node: serve the Lighthouse on --lighthouse's port (restarted "
        "if it exits) and the groups' rendezvous store on --rdzv-endpoint's, both outliving "
        "every group, until the job finishes; without --replica-group it does nothing else",
    )
    g.add_argument("--quiet", action="store_true", help="no live view; for batch jobs")
    return p


def _env_steps(name: str, fallback: int) -> int:
    """A step count from a variable, as the ranks read it (not a number: `fallback`)."""
    raw = os.environ.get(name, "").strip()
    return max(1, int(raw)) if raw.isdigit() else fallback


def _hang_timeout(value: str) -> float | None:
    try:
        return parse_hang_timeout(value)
    except ValueError:
        raise UserError(
            f"--hang-timeout must be seconds above 0 or 'auto', got {value!r}"
        ) from None


def _memory_every(value: str) -> int | str:
    from nonstop.checkpoint.cadence import parse_every

    try:
        return parse_every(value)
    except ValueError:
        raise UserError(
            f"--memory-checkpoint-every must be a number of steps (0: off) or 'auto', got {value!r}"
        ) from None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _resolve_run_dir(args: argparse.Namespace) -> Path:
    if args.run_dir:
        return Path(args.run_dir)
    if args.rdzv_id and args.rdzv_id != "none":
        return Path("runs") / args.rdzv_id
    return rundir.default_root()


# the flags that take seconds, and whether 0 means something (no wait) rather than a mistake
SECONDS_FLAGS = {
    "--startup-timeout": False,
    "--section-timeout": False,
    "--exit-timeout": False,
    "--health-timeout": False,
    "--evidence-timeout": True,
    "--network-hold": True,
    "--grace-period": True,
    "--telemetry-interval": True,
    "--watcher-tick": False,
    "--sigterm-grace": False,  # None (unset) is skipped
}

# torchrun flags nonstop run cannot honour, refused rather than silently ignored (docs/run.md
# has the table of every flag)
REFUSED = {
    "logs_specs": "--logs-specs: nonstop run keeps every rank's log in the run directory "
    "(logs/attempt-N/rank-R.log); a custom LogsSpecs cannot replace that. Use --log-dir for "
    "torchrun's layout as well",
    "duplicate_stderr_filters": "--duplicate-stderr-filters: nonstop run merges each rank's "
    "stderr into its stdout log; use --duplicate-stdout-filters",
}


def _check_flags(args: argparse.Namespace) -> None:
    """Usage errors found before anything starts or is created (exit 2, one line)."""
    for name, why in REFUSED.items():
        if getattr(args, name, None):
            raise UserError(why)
    for ep in (args.rdzv_fallback_endpoints or "").split(","):
        host, _, port = ep.rpartition(":")
        if ep and (not host or not port.isdigit()):
            raise UserError(f"--rdzv-fallback-endpoints: {ep!r} is not HOST:PORT")
    parts = args.nnodes.split(":")
    try:
        lo, hi = int(parts[0]), int(parts[-1])
    except ValueError:
        lo = hi = 0
    if len(parts) > 2 or not 0 < lo <= hi:
        raise UserError(f"--nnodes must be N or MIN:MAX with 0 < MIN <= MAX, got {args.nnodes!r}")
    if args.stop_check_every < 1:
        raise UserError(f"--stop-check-every must be 1 or more, got {args.stop_check_every}")
    if args.memory_checkpoint_every:  # the ranks read it: refused by each, it cost every restart
        from nonstop.checkpoint.background import nice_increment

        nice_increment()
    if args.max_restarts < 0:
        raise UserError(f"--max-restarts must be 0 or more, got {args.max_restarts}")
    for flag, zero_ok in SECONDS_FLAGS.items():
        value = getattr(args, flag.lstrip("-").replace("-", "_"))
        if value is None:
            continue
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok):
            least = "0 or more" if zero_ok else "above 0"
            raise UserError(f"{flag} must be seconds {least}, got {value:g}")
    n = args.nproc_per_node
    if n.lstrip("-").isdigit():
        if int(n) <= 0:
            raise UserError(f"--nproc-per-node must be at least 1, got {n}")
    elif n not in ("cpu", "gpu", "xpu", "auto"):
        raise UserError(
            f"--nproc-per-node must be a number or one of cpu, gpu, xpu, auto; got {n!r}"
        )
    if args.local_ranks_filter:
        try:
            ranks = [int(r) for r in args.local_ranks_filter.split(",")]
        except ValueError:
            ranks = []
        if not ranks or min(ranks) < 0:
            raise UserError(
                "--local-ranks-filter must be comma-separated local ranks, e.g. 0,1; "
                f"got {args.local_ranks_filter!r}"
            )
    for flag, value in (("--redirects", args.redirects), ("--tee", args.tee)):
        if not _std_ok(value):
            raise UserError(f"{flag} must be 0-3 or LOCAL_RANK:0-3,..., got {value!r}")
    if args.log_dir and Path(args.log_dir).exists() and not Path(args.log_dir).is_dir():
        raise UserError(f"--log-dir {args.log_dir} is a file, not a directory")
    signals_to_forward(args.signals_to_handle)
    guards_spec(args.guards)
    _check_script(args)


def _std_ok(value: str) -> bool:
    """torchrun's --redirects/--tee syntax: one digit 0-3, or local_rank:digit pairs."""
    parts = value.split(",") if ":" in value else [value]
    try:
        for part in parts:
            key, _, std = part.rpartition(":")
            if (key and int(key) < 0) or int(std) not in range(4):
                return False
    except ValueError:
        return False
    return True


def _check_script(args: argparse.Namespace) -> None:
    """A script, module or program that cannot be found is a usage error now, not a failed
    attempt later (torchrun would start every rank, each failing the same way)."""
    script = args.training_script
    if args.module:
        top = script.split(".")[0]
        # the ranks run `python -m` in this directory, which puts it first on sys.path; an
        # editable install is found by a meta-path finder, not on sys.path
        here = importlib.machinery.PathFinder.find_spec(top, [os.getcwd(), *sys.path])
        if here is None and importlib.util.find_spec(top) is None:
            raise UserError(f"-m {script}: no module named {top!r} (from {os.getcwd()})")
    elif args.no_python and not args.run_path:
        if shutil.which(script) is None and not Path(script).is_file():
            raise UserError(f"{script}: no such program (--no-python runs it directly)")
    elif not Path(script).is_file():
        what = "is not a file" if Path(script).exists() else "no such file"
        raise UserError(f"{script}: {what} (the training script)")


def _torchrun_config(args: argparse.Namespace) -> tuple[Any, Any, list[str]]:
    """torch's own LaunchConfig from the flags; its ValueErrors and assertions are usage errors.
    Its default LogsSpecs would create a torchelastic_* temporary folder (or --log-dir) that
    nonstop never writes: the run directory's logs replace it (worker_logs.RunDirLogs)."""
    import torch.distributed.run as torchrun
    from torch.distributed.elastic.utils.logging import get_logger

    log_dir, args.log_dir = args.log_dir, os.devnull
    # torchrun runs torch/distributed/run.py as __main__, so its warnings (OMP_NUM_THREADS set
    # to 1, --node-rank ignored) go to a logger named __main__ that no torch handler serves:
    # they print plain. Imported, they reached torch's handler with a glog prefix per line.
    logger, torchrun.logger = torchrun.logger, get_logger("__main__")
    try:
        return torchrun.config_from_args(args)
    except (ValueError, AssertionError, RuntimeError) as e:
        raise UserError(str(e)) from None
    finally:
        args.log_dir = log_dir
        torchrun.logger = logger


def _create_run_dir(root: Path) -> rundir.RunDir:
    existed = root.exists()
    try:
        return rundir.create(root)
    except OSError as e:
        if not existed:  # nothing half-made left behind
            with contextlib.suppress(OSError):
                shutil.rmtree(root)
        why = e.strerror or type(e).__name__
        raise UserError(f"--run-dir {root}: cannot create it ({why}: {e.filename})") from None


def main(argv: list[str]) -> int:
    from nonstop.supervisor.planned_stop import catch_early_signals

    catch_early_signals()  # a scheduler's warning during the imports is not lost (launch.py)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.training_script:
        parser.error("the training script is missing")
    _hang_timeout(args.hang_timeout)  # a usage error before anything starts
    faults = ";".join(args.inject)
    if (
        args.replica_groups
        or args.replica_group is not None
        or args.lighthouse
        or (args.serve_lighthouse)
    ):  # the script uses torchft; `group=N` routes a fault to group N
        from nonstop.supervisor import replica_groups

        replica_groups.check_request(args)
        split = replica_groups.split_faults(args.inject, args.replica_groups)
        faults = ";".join(dict.fromkeys(f for per in split for f in per))
    # validate now: a typo, or a fault that could never fire, is a usage error
    check_run(
        faults,
        nproc_per_node=args.nproc_per_node,
        nnodes=args.nnodes,
        no_python=args.no_python,
        script=None if args.no_python else args.training_script,
        module=args.module,
    )
    checks = [] if args.health_checks == "none" else args.health_checks.split(",")
    from nonstop.supervisor.health import CHECKS

    bad = [c for c in checks if c not in CHECKS]
    if bad:
        raise UserError(f"--health-checks: unknown check {bad[0]!r}; known: {', '.join(CHECKS)}")
    _check_flags(args)
    if (
        args.replica_groups
    ):  # one agent per group under a parent (nonstop.supervisor.replica_groups)
        return _replica_groups(args, argv)
    if args.run_path:  # runpy.run_path in a fresh interpreter: what the bootstrap does anyway
        args.run_path = False
    single = args.rdzv_backend == "static" and args.nnodes in ("1", "1:1")
    default_port = "MASTER_PORT" not in os.environ and args.master_port in (None, 29500)
    if single and default_port and not args.standalone:
        args.standalone = True  # a private local rendezvous: no clash on port 29500
    explicit_id = args.rdzv_id not in (None, "", "none")
    shared = args.rdzv_backend == "c10d" and bool(args.rdzv_endpoint) and not args.standalone
    if args.standalone:
        args.rdzv_backend, args.rdzv_endpoint = "c10d", f"127.0.0.1:{_free_port()}"
        args.rdzv_id = args.rdzv_id if explicit_id else rundir.new_run_id()
        args.nnodes, args.standalone = "1", False
    torchrun = _torchrun_config(args)
    log.setup(log.RUN)  # from here on, the status lines: `nonstop run: ...` on stdout

    root = _resolve_run_dir(args)
    resumable = bool(args.run_dir) or explicit_id
    rd = _create_run_dir(root)
    run_id = root.name
    previous = rd.read_config()
    cfg = SupervisorConfig.from_args(args, run_dir=rd, run_id=run_id, host=_host_name(args))
    cfg = dataclasses.replace(cfg, shared_rendezvous=shared)
    config = {
        "run_id": run_id,
        "argv": argv,
        # the training command alone: a later run of it learns this one's startup time
        # (watchdog.learned_for)
        "command": [
            *(["-m"] if args.module else []),
            args.training_script,
            *args.training_script_args,
        ],
        "host": cfg.host,
        "started": time.time(),
        "supervisor": cfg.to_dict(),  # the resolved settings (SupervisorConfig.from_dict)
        "torchrun": _resolved_torchrun(torchrun[0]),
    }
    if not previous:
        rd.write_config(config)
    if not resumable:  # the next identical command starts a new run: say how to resume this one
        _log.info(f"run directory {root}; to resume it later: {resume_command(root, argv)}")
    from nonstop.supervisor.launch import launch

    return launch(cfg, torchrun)


def _replica_groups(args: argparse.Namespace, argv: list[str]) -> int:
    from nonstop.supervisor import replica_groups

    def cfg_dict(root: Path) -> dict[str, Any]:
        rd = rundir.RunDir(root)
        return SupervisorConfig.from_args(
            args, run_dir=rd, run_id=root.name, host=_host_name(args)
        ).to_dict()

    return replica_groups.main(args, argv, cfg_dict)


def resume_command(root: Path, argv: list[str]) -> str:
    """The command line that resumes the run in `root`: the same flags with --run-dir first."""
    return shlex.join(["nonstop", "run", "--run-dir", str(root), *argv])


def _host_name(args: argparse.Namespace) -> str:
    """--host-name, else $NONSTOP_HOST (a pod's node name), else the hostname."""
    return args.host_name or os.environ.get(rundir.ENV_HOST) or socket.gethostname()


def _resolved_torchrun(launch_config: Any) -> dict[str, Any]:
    """torch's LaunchConfig as resolved from torchrun's flags (its JSON-able fields)."""
    import dataclasses

    fields = {f.name: getattr(launch_config, f.name) for f in dataclasses.fields(launch_config)}
    return {k: v for k, v in fields.items() if _jsonable(v)}


def _jsonable(v: Any) -> bool:
    try:
        json.dumps(v)
        return True
    except TypeError:
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
