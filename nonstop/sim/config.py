"""What `nonstop simulate` simulates: one synchronous job, typed and validated.

`SimConfig` is the single input of `nonstop.sim.simulate`. Its defaults describe Llama 3 405B's
job (arXiv:2407.21783, section 3.3.4) where the paper gives a number and a stated assumption
where it does not; together the defaults reproduce the paper's ">90% effective training time".

    >>> from nonstop.sim import SimConfig
    >>> SimConfig(gpus=16_384).nodes
    2048

Failure rates are per node-day (a synchronous job stops when any node stops, so the job's rate is
the node rate times the node count). `resolved_rates()` turns the three sources (Llama 3
calibration, a user total keeping the Table 5 mix, or measured per-category rates) into one
table of per-category rates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from nonstop import taxonomy

__all__ = ["SNAPSHOT_NODE_DAYS", "SimConfig"]

# 16,384 GPUs / 8 per node x 54 days: the exposure behind Table 5's 419 counts.
SNAPSHOT_NODE_DAYS: float = (
    taxonomy.SNAPSHOT_GPUS / taxonomy.SNAPSHOT_GPUS_PER_NODE * taxonomy.SNAPSHOT_DAYS
)
DAY_S: float = 86_400.0


def _frozen(m: Mapping[str, float] | None) -> Mapping[str, float]:
    return MappingProxyType(dict(m or {}))


WEIBULL_SHAPE_MIN, WEIBULL_SHAPE_MAX = 0.1, 10.0


@dataclass(frozen=True, kw_only=True)
class SimConfig:
    """One synchronous training job on `gpus` GPUs for `days` days, simulated `trials` times.

    All durations are seconds. Validation raises ValueError naming the field and the value.
    """

    gpus: int
    """GPUs in the job (the job stops whenever any of its nodes stops)."""
    gpus_per_node: int = taxonomy.SNAPSHOT_GPUS_PER_NODE
    """GPUs per node; failure rates are per node-day (Llama 3: 8 H100 per server)."""
    days: float = float(taxonomy.SNAPSHOT_DAYS)
    """Wall-clock length of the simulated window (Llama 3's snapshot: 54 days)."""
    trials: int = 1000
    """Independent Monte Carlo trials."""
    seed: int = 0
    """Seed of numpy's PCG64 generator; the same seed gives the same result."""

    failure_rate_per_node_day: float | None = None
    """Unexpected interruptions per node-day with Table 5's mix; None = Llama 3 (419 in 54 days)."""
    category_rates_per_node_day: Mapping[str, float] | None = None
    """Measured rate per taxonomy id (from a run ledger); excludes failure_rate_per_node_day."""
    planned: bool = True
    """Include planned maintenance stops (checkpoint, then restart; no lost work)."""
    planned_rate_per_node_day: float | None = None
    """Planned stops per node-day; None = Llama 3's 47 in 54 days at 2,048 nodes."""
    weibull_shape: float | None = None
    """Weibull shape k for unexpected inter-arrival times (same mean); None = exponential."""

    checkpoint_interval_s: float | None = None
    """Compute time between checkpoints; None = auto (Daly's optimum for this job)."""
    checkpoint_blocking_s: float = 10.0
    """Training stall per checkpoint save. Assumption: async save; a synchronous 4 GB/GPU at
    2 TB/s (facts.md) would block ~33 s, ByteRobust's synchronous baseline blocks 6.77 s."""
    detection_s: float = 60.0
    """Time from a fault to its detection. Assumption between ByteRobust's 10-30 s for network
    faults and NCCL's ~10 min default timeout."""
    detection_by_category_s: Mapping[str, float] = field(default_factory=dict)
    """Per-taxonomy-id detection times overriding detection_s (e.g. NCCL timeouts are slower)."""
    restart_s: float = 300.0
    """Job restart after an interruption: reschedule, init, load checkpoint. Assumption: Llama 3
    'reduced job start time'; MegaScale cut init on 2,048 GPUs from 1,047 s to under 5 s."""
    health_check_s: float = 60.0
    """Health checks on the nodes before the restart (assumption)."""
    startup_s: float | None = None
    """The job's first start at time 0; None = restart_s."""
    manual_prob: float = taxonomy.SNAPSHOT_MANUAL / taxonomy.SNAPSHOT_UNEXPECTED
    """Chance an unexpected interruption needs a human (Llama 3: 3 of 419)."""
    manual_prob_by_category: Mapping[str, float] = field(default_factory=dict)
    """Per-taxonomy-id overrides of manual_prob (stop_and_page categories default to 1)."""
    manual_s: float = 4 * 3600.0
    """Duration of a manual intervention (assumption: four hours to page, triage and fix)."""
    exclude_nodes: bool = True
    """Exclude the node on hardware faults; without it the job retries on the bad node once
    and a human must remove it (manual intervention on every hardware fault)."""
    spare_nodes: int | None = None
    """Hot spare nodes; None = unlimited (Llama 3 ran 16K GPUs out of a 24K cluster)."""
    node_repair_s: float = 3 * DAY_S
    """Time before an excluded node is back in the spare pool (assumption: three days)."""
    straggler_rate_per_node_day: float = 0.0
    """Onsets of a straggling node per node-day (off by default: no published rate)."""
    straggler_slowdown: float = 0.1
    """Extra step time while a straggler is in the job (MegaScale: about 10% slower)."""
    straggler_detection_s: float = 600.0
    """Time until a straggler is detected and excluded by a controlled restart (assumption)."""
    diurnal_dvfs: float = 0.0
    """Peak-to-trough diurnal throughput swing from GPU DVFS (Llama 3: 0.01-0.02); 0 = off."""

    def __post_init__(self) -> None:
        for name in ("detection_by_category_s", "manual_prob_by_category"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        if self.category_rates_per_node_day is not None:
            object.__setattr__(
                self, "category_rates_per_node_day", _frozen(self.category_rates_per_node_day)
            )
        self._validate()

    def _validate(self) -> None:
        def bad(name: str, need: str) -> ValueError:
            return ValueError(f"SimConfig.{name} must be {need}, got {getattr(self, name)!r}")

        for name in ("gpus", "gpus_per_node", "trials"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise bad(name, "a positive integer")
        if not math.isfinite(self.days) or self.days <= 0:
            raise bad("days", "a positive number of days")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise bad("seed", "an integer >= 0 (numpy's generators take no negative seeds)")
        nonneg = [
            "checkpoint_blocking_s",
            "detection_s",
            "restart_s",
            "health_check_s",
            "manual_s",
            "node_repair_s",
            "straggler_rate_per_node_day",
            "straggler_slowdown",
            "straggler_detection_s",
        ]
        for name in (*nonneg, "failure_rate_per_node_day", "planned_rate_per_node_day"):
            v = getattr(self, name)
            if v is not None and (not math.isfinite(v) or v < 0):
                raise bad(name, "a finite number >= 0")
        if self.startup_s is not None and (not math.isfinite(self.startup_s) or self.startup_s < 0):
            raise bad("startup_s", "None or a finite number >= 0")
        if self.checkpoint_interval_s is not None and not (
            math.isfinite(self.checkpoint_interval_s) and self.checkpoint_interval_s > 0
        ):
            raise bad("checkpoint_interval_s", "None (auto) or a positive number of seconds")
        if self.weibull_shape is not None and not (
            WEIBULL_SHAPE_MIN <= self.weibull_shape <= WEIBULL_SHAPE_MAX
        ):
            # below 0.1 the gaps' scale (1 / Gamma(1 + 1/k)) overflows a float by k ~ 0.006
            # and a single gap spans ages; published fits of hardware failures lie in 0.3-3
            raise bad(
                "weibull_shape", f"None or a shape from {WEIBULL_SHAPE_MIN} to {WEIBULL_SHAPE_MAX}"
            )
        if not 0 <= self.manual_prob <= 1:
            raise bad("manual_prob", "a probability in [0, 1]")
        if not 0 <= self.diurnal_dvfs < 1:
            raise bad("diurnal_dvfs", "a fraction in [0, 1)")
        if self.spare_nodes is not None and (
            isinstance(self.spare_nodes, bool)
            or not isinstance(self.spare_nodes, int)
            or self.spare_nodes < 0
        ):
            raise bad("spare_nodes", "None (unlimited) or an integer >= 0")
        if self.failure_rate_per_node_day is not None and self.category_rates_per_node_day:
            raise ValueError(
                "SimConfig.failure_rate_per_node_day and category_rates_per_node_day are "
                "exclusive: give a total rate or measured per-category rates, not both"
            )
        self._check_table("detection_by_category_s", lambda v: math.isfinite(v) and v >= 0)
        self._check_table("manual_prob_by_category", lambda v: 0 <= v <= 1)
        if self.category_rates_per_node_day is not None:
            self._check_table("category_rates_per_node_day", lambda v: math.isfinite(v) and v >= 0)

    def _check_table(self, name: str, ok: Any) -> None:
        table: Mapping[str, float] = getattr(self, name)
        for key, value in table.items():
            if key not in taxonomy.IDS:
                raise ValueError(
                    f"SimConfig.{name} has unknown category {key!r}; valid: {', '.join(taxonomy.IDS)}"
                )
            if not ok(value):
                raise ValueError(f"SimConfig.{name}[{key!r}] is out of range: {value!r}")

    @property
    def nodes(self) -> int:
        """Nodes in the job (a partial node counts as one: it fails like a whole one)."""
        return -(-self.gpus // self.gpus_per_node)

    @property
    def duration_s(self) -> float:
        """Length of the window in seconds."""
        return self.days * DAY_S

    def resolved_rates(self) -> dict[str, float]:
        """Unexpected interruptions per node-day for every taxonomy id (zeros included)."""
        rates = dict.fromkeys(taxonomy.IDS, 0.0)
        if self.category_rates_per_node_day is not None:
            rates.update(self.category_rates_per_node_day)
            return rates
        # Llama 3 calibration: each Table 5 count over the snapshot's node-days. A user total keeps
        # the same mix, so the categories scale together.
        total = self.failure_rate_per_node_day
        if total is None:
            total = taxonomy.SNAPSHOT_UNEXPECTED / SNAPSHOT_NODE_DAYS
        for cid, share in taxonomy.published_mix().items():
            rates[cid] = total * share
        return rates

    def resolved_planned_rate(self) -> float:
        """Planned stops per node-day (0 when planned maintenance is off).

        Assumption: planned maintenance scales with node count like failures do (each node's
        maintenance window stops the job unless it is batched), calibrated to 47 in 54 days.
        """
        if not self.planned:
            return 0.0
        if self.planned_rate_per_node_day is not None:
            return self.planned_rate_per_node_day
        return taxonomy.SNAPSHOT_PLANNED / SNAPSHOT_NODE_DAYS

    def mtbi_s(self) -> float:
        """Mean time between unexpected interruptions of the whole job (inf without failures)."""
        per_day = sum(self.resolved_rates().values()) * self.nodes
        return math.inf if per_day == 0 else DAY_S / per_day

    def with_(self, **changes: Any) -> SimConfig:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)
