"""The failure taxonomy: one table that the launcher, triage, simulator and report all import.

The categories are the root causes of the 419 unexpected interruptions in Meta's 54-day Llama 3
405B snapshot (The Llama 3 Herd of Models, arXiv:2407.21783, Table 5), plus the job-level
categories a real triage needs (out of memory, storage, user code error, numerical faults found
by the runtime's guards: NaN/Inf and loss spikes, unknown), and the planned stop that triage
must not read as a failure (a cloud's preemption or maintenance notice). Silent data corruption
is one of Table 5's own (6 of the 419).

Each category has a stable snake_case id (used in every JSON output and in the ledger), a display
name, a group, a default action and, where the paper gives one, the published count.

Standard library only: this module is part of the contract and imports nothing of ours.

    >>> from nonstop import taxonomy
    >>> taxonomy.get("faulty_gpu").action
    'exclude_node'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Action = Literal["restart", "exclude_node", "stop_and_page"]
ACTIONS: Final[tuple[Action, ...]] = ("restart", "exclude_node", "stop_and_page")

# Groups. The first five are the paper's own "category" column; JOB holds the job-level ones;
# PLANNED the announced stops (the snapshot's 47 planned interruptions are not among its 419).
GPU: Final = "GPU"
HOST: Final = "Host"
NETWORK: Final = "Network"
DEPENDENCY: Final = "Dependency"
UNPLANNED_MAINTENANCE: Final = "Unplanned Maintenance"
UNKNOWN_GROUP: Final = "Unknown"
JOB: Final = "Job"
PLANNED: Final = "Planned"  # announced stops: no failure, so in no count of the snapshot

# The 54-day snapshot the counts come from (arXiv:2407.21783, section 3.3.4).
SNAPSHOT_DAYS: Final = 54
SNAPSHOT_GPUS: Final = 16_384
SNAPSHOT_GPUS_PER_NODE: Final = 8
SNAPSHOT_UNEXPECTED: Final = 419
SNAPSHOT_PLANNED: Final = 47
SNAPSHOT_MANUAL: Final = 3  # interruptions that needed significant manual intervention


@dataclass(frozen=True, kw_only=True)
class Category:
    """One root-cause category."""

    id: str
    """Stable snake_case id used in JSON output and the ledger."""
    name: str
    """Display name as the paper prints it (or ours for job-level categories)."""
    group: str
    """Component group: GPU, Host, Network, Dependency, Unplanned Maintenance, Unknown, Job,
    Planned."""
    action: Action
    """Default action: restart the job, exclude the node and restart, or stop and page a human."""
    count: int | None
    """Count among the 419 unexpected interruptions of the 54-day snapshot, if published."""
    hardware: bool
    """True where the fault lives in a node's hardware (so excluding the node helps)."""
    description: str
    """One line for humans: what it is and why the default action is what it is."""

    @property
    def share(self) -> float | None:
        """Fraction of the snapshot's unexpected interruptions (count / 419)."""
        return None if self.count is None else self.count / SNAPSHOT_UNEXPECTED


def _c(
    id: str, name: str, group: str, action: Action, count: int | None, hw: bool, desc: str
) -> Category:
    return Category(
        id=id, name=name, group=group, action=action, count=count, hardware=hw, description=desc
    )


# Order: the paper's table order, then the job-level categories and the planned stop.
CATEGORIES: Final[tuple[Category, ...]] = (
    _c(
        "faulty_gpu",
        "Faulty GPU",
        GPU,
        "exclude_node",
        148,
        True,
        "GPU fell off the bus, Xid 79/48/..., or failed its health check; the node must go.",
    ),
    _c(
        "gpu_hbm3_memory",
        "GPU HBM3 Memory",
        GPU,
        "exclude_node",
        72,
        True,
        "Uncorrectable ECC or row-remapping failure in HBM; the GPU needs service.",
    ),
    _c(
        "software_bug",
        "Software Bug",
        DEPENDENCY,
        "restart",
        54,
        False,
        "A bug in the framework or a library (not the user's code); often transient, so restart.",
    ),
    _c(
        "network_switch_cable",
        "Network Switch/Cable",
        NETWORK,
        "restart",
        35,
        False,
        "Link flap or switch fault (IB/RoCE retry exceeded); the fabric heals or reroutes.",
    ),
    _c(
        "host_maintenance",
        "Host Maintenance",
        UNPLANNED_MAINTENANCE,
        "exclude_node",
        32,
        True,
        "The host was taken for unplanned maintenance; continue without it.",
    ),
    _c(
        "gpu_sram_memory",
        "GPU SRAM Memory",
        GPU,
        "exclude_node",
        19,
        True,
        "On-chip SRAM ECC error (Xid 94/95 contained/uncontained).",
    ),
    _c(
        "gpu_system_processor",
        "GPU System Processor",
        GPU,
        "exclude_node",
        17,
        True,
        "GSP firmware timeout or error (Xid 119/120).",
    ),
    _c("nic", "NIC", HOST, "exclude_node", 7, True, "Network adapter failure on one host."),
    _c(
        "nccl_watchdog_timeout",
        "NCCL Watchdog Timeouts",
        UNKNOWN_GROUP,
        "restart",
        7,
        False,
        "A collective timed out with no more specific cause found; restart.",
    ),
    _c(
        "silent_data_corruption",
        "Silent Data Corruption",
        GPU,
        "exclude_node",
        6,
        True,
        "Wrong results without an error (loss spikes, NaN, checksum mismatch); quarantine the GPU.",
    ),
    _c(
        "gpu_thermal_interface_sensor",
        "GPU Thermal Interface + Sensor",
        GPU,
        "exclude_node",
        6,
        True,
        "Overheating or a faulty thermal sensor; the node needs service.",
    ),
    _c("ssd", "SSD", HOST, "exclude_node", 3, True, "Local disk failure on one host."),
    _c("power_supply", "Power Supply", HOST, "exclude_node", 3, True, "PSU failure on one host."),
    _c(
        "server_chassis",
        "Server Chassis",
        HOST,
        "exclude_node",
        2,
        True,
        "Chassis fault (fans, board) on one host.",
    ),
    _c(
        "io_expansion_board",
        "IO Expansion Board",
        HOST,
        "exclude_node",
        2,
        True,
        "PCIe switch / IO board fault on one host.",
    ),
    _c(
        "dependency",
        "Dependency",
        DEPENDENCY,
        "restart",
        2,
        False,
        "An external service the job depends on failed (store, scheduler, data service).",
    ),
    _c("cpu", "CPU", HOST, "exclude_node", 2, True, "Host CPU fault, machine-check exception."),
    _c(
        "system_memory",
        "System Memory",
        HOST,
        "exclude_node",
        2,
        True,
        "Host DRAM ECC error or failure.",
    ),
    _c(
        "out_of_memory",
        "Out of Memory",
        JOB,
        "stop_and_page",
        None,
        False,
        "CUDA or host OOM: deterministic for a given configuration, so a restart would repeat it.",
    ),
    _c(
        "storage",
        "Storage / Filesystem",
        JOB,
        "restart",
        None,
        False,
        "No space, I/O errors or a stale NFS handle on shared storage; often transient.",
    ),
    _c(
        "user_code_error",
        "User Code Error",
        JOB,
        "stop_and_page",
        None,
        False,
        "An exception in the training script; restarting would burn restarts on the same bug.",
    ),
    _c(
        "numerical_nan",
        "NaN / Inf",
        JOB,
        "restart",
        None,
        False,
        "A non-finite loss, gradient or parameter (runtime guards); roll back to the newest "
        "checkpoint before it; a NaN that recurs after the rollback stops and pages.",
    ),
    _c(
        "loss_spike",
        "Loss Spike",
        JOB,
        "restart",
        None,
        False,
        "Loss or gradient norm far above its running median (runtime guards); roll back and "
        "skip the batches that caused it, as PaLM did.",
    ),
    _c(
        "hang",
        "Hang / No Progress",
        JOB,
        "restart",
        None,
        False,
        "No rank progressed within the hang timeout (a stopped or deadlocked rank, a collective "
        "no peer joins) and no more specific cause was found; restart. Table 5 counts the NCCL "
        "case as NCCL watchdog timeouts.",
    ),
    _c(
        "planned_stop",
        "Planned Stop",
        PLANNED,
        "restart",
        None,
        False,
        "The cloud or the scheduler announced it is taking the node (preemption, spot reclaim, "
        "scheduled maintenance or retirement): no failure; checkpoint and requeue on other "
        "nodes (the planned-stop path), nothing to exclude.",
    ),
    _c(
        "unknown",
        "Unknown",
        JOB,
        "restart",
        None,
        False,
        "No signature matched; restart once and keep the evidence.",
    ),
)

_BY_ID: Final[dict[str, Category]] = {c.id: c for c in CATEGORIES}
IDS: Final[tuple[str, ...]] = tuple(_BY_ID)
UNKNOWN: Final = "unknown"


def get(category_id: str) -> Category:
    """Return the category with this id; raise KeyError naming the valid ids otherwise."""
    try:
        return _BY_ID[category_id]
    except KeyError:
        raise KeyError(
            f"unknown failure category {category_id!r}; valid ids: {', '.join(IDS)}"
        ) from None


def action_for(category_id: str) -> Action:
    """Default action of a category (``unknown`` for ids we do not know)."""
    return _BY_ID.get(category_id, _BY_ID[UNKNOWN]).action


def published() -> dict[str, int]:
    """Published counts of the 54-day snapshot by category id (sums to 419)."""
    return {c.id: c.count for c in CATEGORIES if c.count is not None}


def published_mix() -> dict[str, float]:
    """Category mix of the snapshot's unexpected interruptions (shares sum to 1)."""
    counts = published()
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


assert sum(published().values()) == SNAPSHOT_UNEXPECTED, "Table 5 counts must sum to 419"
