"""Every environment variable nonstop sets or reads, in one table (the contract layer: standard
library only, imports nothing of ours).

Code names a variable by its constant, never by a string literal:

    from nonstop import envvars
    run_dir = os.environ.get(envvars.RUN_DIR)

`tests/test_envvars.py` fails on a `NONSTOP_*` name in nonstop/ that this table does not
declare, and checks that docs/environment.md is the table's rendering:

    python -m nonstop.envvars > docs/environment.md    # regenerate after editing the table

Who sets a variable: `supervisor` (`nonstop run`, for its ranks or itself), `user` (the person
or the job script that starts the run), `scheduler` (Slurm, Kubernetes), `torch` (torchrun's
elastic agent, which `nonstop run` is), `tests` and `benchmarks` (our own harnesses).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, kw_only=True)
class EnvVar:
    """One environment variable: who sets it, who reads it, what it means, its default."""

    name: str
    set_by: str
    """supervisor, user, scheduler, torch, tests or benchmarks (comma-separated)."""
    read_by: str
    """The modules (or programs) that read it."""
    meaning: str
    default: str
    """What an unset (or empty) variable means."""
    per_worker: bool = False
    """Set per worker by the launcher, so a warm standby does not have it while it imports
    (nonstop.supervisor.standby refuses scripts that read one at import)."""


# -- nonstop's own variables: one constant each ----------------------------------------------

RUN_DIR: Final = "NONSTOP_RUN_DIR"
RUN_ID: Final = "NONSTOP_RUN_ID"
HOST: Final = "NONSTOP_HOST"
ATTEMPT: Final = "NONSTOP_ATTEMPT"
FAULTS: Final = "NONSTOP_FAULTS"
MERGE_STDERR: Final = "NONSTOP_MERGE_STDERR"
MTBI_S: Final = "NONSTOP_MTBI_S"
MEMORY_CKPT_EVERY: Final = "NONSTOP_MEMORY_CKPT_EVERY"
REPLICAS: Final = "NONSTOP_REPLICAS"
BACKGROUND_NICE: Final = "NONSTOP_BACKGROUND_NICE"
REPLICA_GROUPS_DIR: Final = "NONSTOP_REPLICA_GROUPS_DIR"
HEALTH: Final = "NONSTOP_HEALTH"
SKIP_BATCHES: Final = "NONSTOP_SKIP_BATCHES"
TELEMETRY_S: Final = "NONSTOP_TELEMETRY_S"
TICK_S: Final = "NONSTOP_TICK_S"
STOP_CHECK_EVERY: Final = "NONSTOP_STOP_CHECK_EVERY"
SIGTERM_GRACE_S: Final = "NONSTOP_SIGTERM_GRACE_S"
KERNEL_LOG: Final = "NONSTOP_KERNEL_LOG"
CLOUD_METADATA_URL: Final = "NONSTOP_CLOUD_METADATA_URL"
TRIAGE_SEARCH: Final = "NONSTOP_TRIAGE_SEARCH"
LOG_LEVEL: Final = "NONSTOP_LOG_LEVEL"
LOG_PREFIX: Final = "NONSTOP_LOG_PREFIX"
# read by the Slurm job script and our harnesses, not by the package
RDZV_PORT: Final = "NONSTOP_RDZV_PORT"
WARN_S: Final = "NONSTOP_WARN_S"
GRACE_S: Final = "NONSTOP_GRACE_S"
CHAOS_HEALTH: Final = "NONSTOP_CHAOS_HEALTH"
CHAOS_DIR: Final = "NONSTOP_CHAOS_DIR"
CHAOS_SEEDS: Final = "NONSTOP_CHAOS_SEEDS"
BENCH_CKPT_4GB: Final = "NONSTOP_BENCH_CKPT_4GB"
BENCH_DATA_DIR: Final = "NONSTOP_BENCH_DATA_DIR"
BENCH_REPS: Final = "NONSTOP_BENCH_REPS"
BENCH_HANG_KINDS: Final = "NONSTOP_BENCH_HANG_KINDS"
BENCH_MULTINODE_KINDS: Final = "NONSTOP_BENCH_MULTINODE_KINDS"
SOAK_DIR: Final = "NONSTOP_SOAK_DIR"
SOAK_KINDS: Final = "NONSTOP_SOAK_KINDS"
SLURM_ROOT: Final = "NONSTOP_SLURM_ROOT"
SLURM_NODES_ROOT: Final = "NONSTOP_SLURM_NODES_ROOT"
SBATCH_EXCLUDED: Final = "NONSTOP_SBATCH_EXCLUDED"
SBATCH_EXCLUDED_BEFORE: Final = "NONSTOP_SBATCH_EXCLUDED_BEFORE"
SBATCH_AGENTS: Final = "NONSTOP_SBATCH_AGENTS"
SBATCH_MIN_NODES: Final = "NONSTOP_SBATCH_MIN_NODES"
CLUSTER_ROOT: Final = "NONSTOP_CLUSTER_ROOT"
CLUSTER_PREFIX: Final = "NONSTOP_CLUSTER_PREFIX"
CLUSTER_SUBNET: Final = "NONSTOP_CLUSTER_SUBNET"

# -- torch's, the launcher's and the scheduler's that nonstop reads or sets ------------------

TORCH_ATTEMPT: Final = "TORCHELASTIC_RESTART_COUNT"
TORCH_ERROR_FILE: Final = "TORCHELASTIC_ERROR_FILE"
TORCH_USE_AGENT_STORE: Final = "TORCHELASTIC_USE_AGENT_STORE"
TORCH_SIGNALS_TO_HANDLE: Final = "TORCHELASTIC_SIGNALS_TO_HANDLE"
TORCH_DISABLE_SHARE_RDZV_TCP_STORE: Final = "TORCH_DISABLE_SHARE_RDZV_TCP_STORE"
TORCH_FR_BUFFER_SIZE: Final = "TORCH_FR_BUFFER_SIZE"
TORCH_NCCL_TRACE_BUFFER_SIZE: Final = "TORCH_NCCL_TRACE_BUFFER_SIZE"
RANK: Final = "RANK"
LOCAL_RANK: Final = "LOCAL_RANK"
WORLD_SIZE: Final = "WORLD_SIZE"
LOCAL_WORLD_SIZE: Final = "LOCAL_WORLD_SIZE"
MASTER_PORT: Final = "MASTER_PORT"
OMP_NUM_THREADS: Final = "OMP_NUM_THREADS"
CUDA_VISIBLE_DEVICES: Final = "CUDA_VISIBLE_DEVICES"

_SUP, _W = "supervisor", "nonstop.runtime (every rank)"
_TORCH_WORKER = "torch (per worker)"

TABLE: Final[tuple[EnvVar, ...]] = (
    # nonstop's own, set by `nonstop run` for every worker
    EnvVar(
        name=RUN_DIR,
        set_by=_SUP,
        read_by=f"{_W}, checkpoint",
        per_worker=True,
        meaning="the run directory the rank writes events, logs and checkpoints to",
        default="none: nonstop.runtime is a no-op",
    ),
    EnvVar(
        name=RUN_ID,
        set_by=_SUP,
        read_by=_W,
        per_worker=True,
        meaning="the run's id, on every event record",
        default="local",
    ),
    EnvVar(
        name=HOST,
        set_by="supervisor, user",
        read_by=f"supervisor.cli, {_W}, checkpoint",
        per_worker=True,
        meaning="this node's name in the ledger (several 'nodes' on one machine; a pod's "
        "node name); the supervisor's --host-name wins",
        default="the hostname",
    ),
    EnvVar(
        name=ATTEMPT,
        set_by=_SUP,
        read_by=f"{_W}, checkpoint, bootstrap",
        per_worker=True,
        meaning="the run's attempt number, counted across supervisor restarts",
        default=f"${TORCH_ATTEMPT}, else 0",
    ),
    EnvVar(
        name=FAULTS,
        set_by="supervisor (--inject), user",
        read_by="faults (every rank)",
        per_worker=True,
        meaning="injected faults, `SPEC;SPEC` (docs/chaos.md)",
        default="none",
    ),
    EnvVar(
        name=MERGE_STDERR,
        set_by=_SUP,
        read_by="supervisor.bootstrap",
        meaning="1: the rank's stderr goes to its stdout (one log per rank)",
        default="stderr kept apart",
    ),
    EnvVar(
        name=MTBI_S,
        set_by="supervisor (the ledger's observed MTBI), user",
        read_by="checkpoint.config (interval `auto`)",
        meaning="mean seconds between interruptions for Daly's checkpoint interval",
        default="3600",
    ),
    EnvVar(
        name=MEMORY_CKPT_EVERY,
        set_by="supervisor (--memory-checkpoint-every)",
        read_by="checkpoint.config",
        meaning="steps between in-memory snapshots, or `auto` (measured: checkpoint.cadence)",
        default="0 (off)",
    ),
    EnvVar(
        name=REPLICAS,
        set_by="supervisor (--replicas)",
        read_by="checkpoint.config",
        meaning="peer nodes that keep each in-memory snapshot",
        default="1",
    ),
    EnvVar(
        name=BACKGROUND_NICE,
        set_by="user",
        read_by="checkpoint.background",
        meaning="how much lower (nice increment, 0-19) the thread that hands in-memory "
        "snapshots over runs than training; 0 keeps it at training's priority",
        default="0",
    ),
    EnvVar(
        name=REPLICA_GROUPS_DIR,
        set_by="supervisor (--replica-groups)",
        read_by="workloads.llama.ft",
        meaning="the replica-group job's run directory: the groups' start barrier and the "
        "marker of a finished job (a group back after the others finished stops)",
        default="unset (not a replica group)",
    ),
    EnvVar(
        name=SKIP_BATCHES,
        set_by="user",
        read_by="runtime.guards",
        meaning="batches to skip besides the loss spikes' (health/), `STEP:N,...`",
        default="none",
    ),
    # nonstop's own, set by users (or passed through by `nonstop run`)
    EnvVar(
        name=HEALTH,
        set_by="user (the default of `nonstop run --guards`), supervisor (its ranks': --guards)",
        read_by="supervisor.cli (the flag's default), runtime.guards",
        meaning="the numerical guards, `key=value,...` or `off` (docs/health.md)",
        default="on, GuardConfig's defaults",
    ),
    EnvVar(
        name=TELEMETRY_S,
        set_by="user (the default of `nonstop run --telemetry-interval`), supervisor (its "
        "ranks': --telemetry-interval)",
        read_by="supervisor.cli (the flag's default), runtime.telemetry",
        meaning="seconds between telemetry samples; 0 disables",
        default="5",
    ),
    EnvVar(
        name=TICK_S,
        set_by="user (the default of `nonstop run --watcher-tick`), supervisor (its ranks': "
        "--watcher-tick)",
        read_by="supervisor.cli (the flag's default), supervisor.bootstrap (watcher)",
        meaning="seconds between the watcher's heartbeats and dump-request polls",
        default="0.5",
    ),
    EnvVar(
        name=STOP_CHECK_EVERY,
        set_by="user (the default of `nonstop run --stop-check-every`), supervisor (its "
        "ranks': --stop-check-every)",
        read_by="supervisor.cli (the flag's default), nonstop.runtime (planned_stop_due)",
        meaning="steps between the ranks' planned-stop agreements (one all-reduce each)",
        default="1",
    ),
    EnvVar(
        name=SIGTERM_GRACE_S,
        set_by="user, scheduler script (examples/slurm/nonstop.sbatch): the default of "
        "`nonstop run --sigterm-grace`",
        read_by="supervisor.cli (the flag's default)",
        meaning="seconds a stop after SIGTERM may take (the scheduler's SIGKILL delay)",
        default="infinite: --grace-period alone",
    ),
    EnvVar(
        name=KERNEL_LOG,
        set_by="user, tests (the default of `nonstop run --kernel-log`), supervisor (its "
        "ranks': --kernel-log)",
        read_by="supervisor.cli (the flag's default), diagnose.kernel_log (`nonstop diagnose`), "
        "faults (the ranks' injected Xid)",
        meaning="a file read as the kernel log besides /dev/kmsg (a mounted kern.log)",
        default="none",
    ),
    EnvVar(
        name=CLOUD_METADATA_URL,
        set_by="user, tests (the default of `nonstop run --cloud-metadata-url`)",
        read_by="supervisor.cli (the flag's default), supervisor.cloud_notices (CloudNotices "
        "without a base)",
        meaning="base address of the cloud's metadata service that --cloud-notices polls "
        "(GCP, AWS and Azure paths and headers appended as each documents): a proxy, or a "
        "local server in tests",
        default="http://169.254.169.254",
    ),
    EnvVar(
        name=TRIAGE_SEARCH,
        set_by="user, tests",
        read_by="diagnose.triage",
        meaning="which program finds the candidate lines of big logs: `rg` (ripgrep), `grep` "
        "(GNU grep) or `python` (no external program)",
        default="ripgrep if usable, else GNU grep, else Python",
    ),
    EnvVar(
        name=LOG_LEVEL,
        set_by="user",
        read_by="nonstop.log (supervisor and ranks)",
        meaning="nonstop's log level: DEBUG, INFO, WARNING, ERROR; DEBUG shows the "
        "exceptions that monitoring swallowed",
        default="INFO",
    ),
    EnvVar(
        name=LOG_PREFIX,
        set_by="user",
        read_by="nonstop.log",
        meaning="1: prefix every supervisor line with `nonstop[host h aN]` as the ranks' "
        "lines are (the prefix is on at DEBUG anyway)",
        default="0",
    ),
    # the Slurm job script's and our harnesses'
    EnvVar(
        name=RDZV_PORT,
        set_by="user",
        read_by="examples/slurm/nonstop.sbatch",
        meaning="the rendezvous port on the job's first node",
        default="20000 + job id mod 20000",
    ),
    EnvVar(
        name=WARN_S,
        set_by="user",
        read_by="examples/slurm/nonstop.sbatch",
        meaning="seconds before the time limit that Slurm's USR1 warning comes (--signal)",
        default="300",
    ),
    EnvVar(
        name=GRACE_S,
        set_by="user",
        read_by="examples/slurm/nonstop.sbatch",
        meaning="--grace-period for a stop after the warning",
        default="NONSTOP_WARN_S - 30",
    ),
    EnvVar(
        name=CHAOS_HEALTH,
        set_by="user, benchmarks",
        read_by="benchmarks/chaos",
        meaning="NONSTOP_HEALTH for the chaos runs' ranks",
        default="the harness's",
    ),
    EnvVar(
        name=CHAOS_DIR,
        set_by="user",
        read_by="benchmarks/bench_chaos.py",
        meaning="keep the chaos runs here",
        default="a temporary directory",
    ),
    EnvVar(
        name=CHAOS_SEEDS,
        set_by="user",
        read_by="benchmarks/bench_chaos.py",
        meaning="the chaos benchmark's seeds, comma-separated",
        default="1 (0 with --quick)",
    ),
    EnvVar(
        name=BENCH_CKPT_4GB,
        set_by="user",
        read_by="benchmarks/bench_checkpoint.py",
        meaning="1: the checkpoint benchmark adds the 4 GB size",
        default="0",
    ),
    EnvVar(
        name=BENCH_DATA_DIR,
        set_by="user",
        read_by="benchmarks/keep.py",
        meaning="keep generated benchmark data (flight-recorder, rundir-scale) here and reuse it",
        default="a temporary directory, deleted after the run",
    ),
    EnvVar(
        name=BENCH_REPS,
        set_by="user",
        read_by="benchmarks/stats.py",
        meaning="repetitions per benchmark instead of 5 (a short run; its JSON says reps)",
        default="5 (2 with --quick)",
    ),
    EnvVar(
        name=SOAK_DIR,
        set_by="user",
        read_by="benchmarks/bench_soak.py",
        meaning="keep the soak's run directory here",
        default="a temporary directory",
    ),
    EnvVar(
        name=BENCH_HANG_KINDS,
        set_by="user",
        read_by="benchmarks/bench_hang_detection.py",
        meaning="hang kinds and legitimate pauses the benchmark runs, comma-separated "
        "(sigstop, collective, startup, loader; load, eval, save, compile)",
        default="all",
    ),
    EnvVar(
        name=BENCH_MULTINODE_KINDS,
        set_by="user",
        read_by="benchmarks/bench_multinode.py",
        meaning="the faults the multi-node benchmark runs, comma-separated (node_lost, "
        "cable_pulled, switch_lost, rdzv_host_lost)",
        default="node_lost,cable_pulled",
    ),
    EnvVar(
        name=SOAK_KINDS,
        set_by="user",
        read_by="benchmarks/bench_soak.py",
        meaning="fault kinds the soak injects, comma-separated",
        default="all",
    ),
    EnvVar(
        name=SLURM_ROOT,
        set_by="user",
        read_by="tests/slurm",
        meaning="the one-node test cluster's directory",
        default="/tmp/nonstop-slurm",
    ),
    EnvVar(
        name=SLURM_NODES_ROOT,
        set_by="user",
        read_by="tests/support/slurm_nodes.py",
        meaning="the Slurm-across-namespaces test cluster's directory",
        default="/tmp/nonstop-slurm-PREFIX (PREFIX: the network cluster's prefix)",
    ),
    # set by examples/slurm/nonstop.sbatch for its own srun tasks (each node's shell that
    # writes an excluded node down and stops the step when too few agents are left)
    *(
        EnvVar(
            name=n,
            set_by="user (examples/slurm/nonstop.sbatch, for its srun tasks)",
            read_by="examples/slurm/nonstop.sbatch",
            meaning=m,
            default=d,
        )
        for n, m, d in (
            (
                SBATCH_EXCLUDED,
                "the file of nodes nonstop excluded (exit 93), one a line, over every start "
                "of the job",
                "RUN_DIR/slurm-excluded-nodes",
            ),
            (
                SBATCH_EXCLUDED_BEFORE,
                "how many lines that file had when this start of the job began",
                "its line count",
            ),
            (SBATCH_AGENTS, "the agents this start of the job launched", "one per task"),
            (
                SBATCH_MIN_NODES,
                "fewer agents than this left: stop the step so the job is requeued",
                "--nnodes' minimum, else the agents",
            ),
        )
    ),
    EnvVar(
        name=CLUSTER_ROOT,
        set_by="user",
        read_by="tests/support/cluster.py",
        meaning="the network-namespace test cluster's state directory",
        default="/tmp/nonstop-cluster (/tmp/nonstop-cluster-PREFIX for another prefix)",
    ),
    EnvVar(
        name=CLUSTER_PREFIX,
        set_by="user",
        read_by="tests/support/cluster.py",
        meaning="name prefix of the cluster's namespaces, veths and bridges (one per cluster)",
        default="nsc",
    ),
    EnvVar(
        name=CLUSTER_SUBNET,
        set_by="user",
        read_by="tests/support/cluster.py",
        meaning="the cluster's /24 (first three octets); nodes are .10 and up",
        default="10.77.0",
    ),
    # torch's and the launcher's, per worker (what a standby must not read at import)
    *(
        EnvVar(name=n, set_by=_TORCH_WORKER, read_by=r, meaning=m, default=d, per_worker=True)
        for n, r, m, d in (
            (RANK, f"{_W}, workloads", "the global rank", "0"),
            (
                LOCAL_RANK,
                "runtime.telemetry, device, workloads",
                "the rank on this node (its GPU: cuda:LOCAL_RANK)",
                "0",
            ),
            ("GROUP_RANK", "-", "this node's rank among the nodes", "-"),
            ("ROLE_RANK", "-", "the rank within its role", "-"),
            ("ROLE_NAME", "-", "the worker role", "-"),
            (WORLD_SIZE, _W, "the number of ranks", "1"),
            (LOCAL_WORLD_SIZE, "workloads", "ranks on this node", "1"),
            ("GROUP_WORLD_SIZE", "-", "the number of nodes", "-"),
            ("ROLE_WORLD_SIZE", "-", "ranks in the role", "-"),
            ("MASTER_ADDR", "torch.distributed", "the store's host", "-"),
            (
                MASTER_PORT,
                "torch.distributed, supervisor.cli (a set port: no standalone)",
                "the store's port",
                "-",
            ),
            (
                TORCH_ATTEMPT,
                _W,
                "torchrun's restart count in this launcher (attempt fallback)",
                "0",
            ),
            ("TORCHELASTIC_MAX_RESTARTS", "-", "--max-restarts", "-"),
            ("TORCHELASTIC_RUN_ID", "-", "the rendezvous id", "-"),
            (
                TORCH_USE_AGENT_STORE,
                "supervisor.bootstrap (scopes the store by attempt)",
                "True: the workers use the agent's rendezvous store",
                "-",
            ),
            (
                TORCH_ERROR_FILE,
                "supervisor.bootstrap (writes an uncaught exception); supervisor.launch (set "
                "for nonstop run itself, by a scheduler such as TorchX: the first failed rank's "
                "error file is copied there, as torchrun does)",
                "the rank's error file (the supervisor names it per rank)",
                "-",
            ),
            ("TORCH_NCCL_ASYNC_ERROR_HANDLING", "torch", "NCCL's async error handling", "-"),
        )
    ),
    # torch's, for the agent's whole process: nonstop run leaves its own environment alone
    # and gives torch the same settings through torch_compat
    EnvVar(
        name=TORCH_SIGNALS_TO_HANDLE,
        set_by="torch (torchrun's launch_agent, in its own environment, which its workers "
        "inherit; nonstop run leaves its own alone, passes --signals-to-handle as its ranks "
        "start instead: torch_compat.forwarding_signals, and sets it in the ranks' environment)",
        read_by="torch.distributed.elastic",
        meaning="signals the agent forwards to its ranks (--signals-to-handle)",
        default="SIGTERM,SIGINT,SIGHUP,SIGQUIT",
    ),
    EnvVar(
        name=TORCH_DISABLE_SHARE_RDZV_TCP_STORE,
        set_by="user",
        read_by="torch.distributed.elastic, supervisor.config (store_per_attempt, which "
        "nonstop run applies without the variable: torch_compat.store_per_attempt)",
        meaning="1: a new rendezvous store per attempt, hosted by rank 0 (nonstop run's own "
        "choice with several nodes or --no-python); 0: the agent's shared store",
        default="shared (nonstop run: per attempt with several nodes or --no-python)",
    ),
    EnvVar(
        name=TORCH_FR_BUFFER_SIZE,
        set_by="supervisor.bootstrap, supervisor.standby",
        read_by="torch (flight recorder)",
        meaning="flight-recorder entries per rank (on for gloo and NCCL)",
        default="2000",
    ),
    EnvVar(
        name=TORCH_NCCL_TRACE_BUFFER_SIZE,
        set_by="supervisor.bootstrap (torch < 2.8)",
        read_by="torch (NCCL flight recorder)",
        meaning="the old name of TORCH_FR_BUFFER_SIZE",
        default="TORCH_FR_BUFFER_SIZE",
    ),
    EnvVar(
        name=OMP_NUM_THREADS,
        set_by="torch, user",
        read_by="supervisor.standby",
        meaning="threads per rank; a standby applies it when it takes over",
        default="-",
    ),
    EnvVar(
        name=CUDA_VISIBLE_DEVICES,
        set_by="scheduler, user",
        read_by="runtime.telemetry",
        meaning="which GPU this rank samples",
        default="all",
    ),
)

BY_NAME: Final[dict[str, EnvVar]] = {v.name: v for v in TABLE}
PER_WORKER: Final[frozenset[str]] = frozenset(v.name for v in TABLE if v.per_worker)
"""What torchrun and `nonstop run` set per worker (nonstop.supervisor.standby's RANK_ENV)."""

assert len(BY_NAME) == len(TABLE), "a variable is declared twice"


def markdown() -> str:
    """docs/environment.md: the table, rendered."""
    lines = [
        "# Environment variables",
        "",
        "Every environment variable nonstop sets or reads. Generated from `nonstop/envvars.py`"
        " (`python -m nonstop.envvars > docs/environment.md`); `tests/test_envvars.py` checks"
        " that this page is in sync. *Per worker*: set by the launcher for each rank, absent"
        " while a warm standby imports the script (docs/run.md).",
        "",
        "| variable | set by | read by | meaning | default | per worker |",
        "|---|---|---|---|---|---|",
    ]
    for v in TABLE:
        cells = (
            f"`{v.name}`",
            v.set_by,
            v.read_by,
            v.meaning,
            v.default,
            "yes" if v.per_worker else "",
        )
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
