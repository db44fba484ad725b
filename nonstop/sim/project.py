"""Both designs at Llama 3's scale and at 100,000 GPUs: the projection and the choice between them.

`nonstop simulate --from-run RUN` projects the run's measured phase costs (detection, restart,
checkpoint blocking; heal where the run measured one) to 16,384 and 100,000 H100s with Llama 3's
per-node failure rates (a run's own rate, from a few failures in minutes, does not extrapolate),
for whole-job restarts and for replica groups. `nonstop plan` uses `choose()` to pick a design
for one scale and say why.

    >>> from nonstop.sim import SimConfig
    >>> c = choose(SimConfig(gpus=100_000, trials=50))
    >>> c["design"], c["replica_groups"]
    ('replica_groups', 98)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nonstop.sim.config import SimConfig
from nonstop.sim.replica import ReplicaGroups, simulate_replica_groups
from nonstop.sim.result import simulate

__all__ = [
    "DEFAULT_GROUP_GPUS",
    "PROJECTION_GPUS",
    "choose",
    "compare",
    "default_groups",
    "projection",
]

PROJECTION_GPUS = (16_384, 100_000)
"""Llama 3 405B's job and the 100k-GPU machine the seed projects to."""

DEFAULT_GROUP_GPUS = 1024
"""GPUs per replica group when none is given (assumption): one group is a whole model copy
(Llama 3 405B: tensor 8 x pipeline 16 = 128 GPUs) times an FSDP shard of 8; the FT-HSDP
reproduction assumes the same 1,024."""

MIN_GAIN = 0.005
"""ETTR points (as a fraction) below which replica groups are not worth their machinery:
torchft on every rank, a Lighthouse, a per-step quorum and a smaller global batch while a
group is down."""


def default_groups(gpus: int, gpus_per_node: int = 8) -> int:
    """Replica groups of about DEFAULT_GROUP_GPUS each (at least 2, at most one per node)."""
    nodes = -(-gpus // gpus_per_node)
    return max(2, min(nodes, round(gpus / DEFAULT_GROUP_GPUS)))


def _design(config: SimConfig, design: ReplicaGroups | None) -> ReplicaGroups:
    groups = default_groups(config.gpus, config.gpus_per_node)
    if design is None:
        return ReplicaGroups(groups=groups)
    return design


def choose(config: SimConfig, design: ReplicaGroups | None = None) -> dict[str, Any]:
    """Simulate both designs for `config` and pick one, with the reason in one line."""
    if config.nodes < 2 and design is None:
        w = float(simulate(config).ettr.mean())
        return {
            "design": "whole_job",
            "why": f"whole-job restarts: {100 * w:.1f}% ETTR; one node cannot be split into "
            "replica groups (a group is at least a node, its failure domain)",
            "whole_job_ettr": w,
            "replica_groups_ettr": None,
            "gain": None,
            "replica_groups": None,
            "gpus_per_group": None,
            "failures_per_day": 86_400.0 / config.mtbi_s(),
        }
    design = _design(config, design)
    whole = simulate(config).to_dict()
    groups = simulate_replica_groups(config, design).to_dict()
    return compare(config, design, whole, groups)


def compare(
    config: SimConfig,
    design: ReplicaGroups,
    whole: Mapping[str, Any],
    groups: Mapping[str, Any],
) -> dict[str, Any]:
    """The choice between two simulated designs (`SimResult.to_dict()` and
    `ReplicaResult.to_dict()` of the same job): which, by how much, and why in one line."""
    w, g = float(whole["ettr_mean"]), float(groups["ettr_mean"])
    gain = g - w
    per_day = float(whole["interruptions_mean"]) / config.days
    size = f"{design.groups} groups of {config.gpus / design.groups:,.0f} GPUs"
    if gain >= MIN_GAIN:
        pick = "replica_groups"
        why = (
            f"replica groups: {size} keep {100 * g:.1f}% ETTR against {100 * w:.1f}% for "
            f"whole-job restarts (+{100 * gain:.1f} points): at {per_day:.1f} failures a day "
            "each one stops the whole job, while a group's failure stops only that group"
        )
    else:
        pick = "whole_job"
        why = (
            f"whole-job restarts: {100 * w:.1f}% ETTR, and replica groups ({size}) would "
            f"change it by {100 * gain:+.2f} points at {per_day:.1f} failures a day, less "
            f"than the {100 * MIN_GAIN:.2f} that pays for torchft, the Lighthouse and the "
            "per-step quorum"
        )
    return {
        "design": pick,
        "why": why,
        "whole_job_ettr": w,
        "replica_groups_ettr": g,
        "gain": gain,
        "replica_groups": design.groups,
        "gpus_per_group": config.gpus / design.groups,
        "failures_per_day": per_day,
    }


def projection(
    config: SimConfig,
    *,
    sources: Mapping[str, str],
    heal: tuple[float | None, str],
    design: ReplicaGroups | None = None,
    scale_groups: bool = True,
    trials: int = 200,
) -> dict[str, Any]:
    """Both designs at each of PROJECTION_GPUS with `config`'s costs and Llama 3's rates.

    `sources` says where each cost came from (measured, flag, default); `heal` is
    `calibrate.heal_from_observed()`'s (seconds or None, source); `design`, when given, gives
    the replica costs and, with `scale_groups`, the GPUs per group (its group count scaled to
    each size); otherwise each size gets `default_groups()`.
    """
    heal_s, heal_source = heal
    base = config.with_(
        category_rates_per_node_day=None,
        failure_rate_per_node_day=None,
        planned_rate_per_node_day=None,
        trials=min(config.trials, trials),
    )
    rows = []
    for gpus in PROJECTION_GPUS:
        c = base.with_(gpus=gpus)
        d = design or ReplicaGroups(groups=2)
        if design is not None and scale_groups:
            per_group = config.gpus / design.groups
            d = d.with_(groups=max(2, min(c.nodes, round(gpus / per_group))))
        else:
            d = d.with_(groups=default_groups(gpus, c.gpus_per_node))
        if heal_s is not None:
            d = d.with_(heal_s=heal_s)
        chosen = choose(c, d)
        rows.append({"gpus": gpus, **chosen})
    costs = {
        "detection_s": config.detection_s,
        "restart_s": config.restart_s,
        "health_check_s": config.health_check_s,
        "checkpoint_blocking_s": config.checkpoint_blocking_s,
        "heal_s": heal_s if heal_s is not None else ReplicaGroups(groups=2).heal_s,
    }
    return {
        "rates": "Llama 3's per-node rates (arXiv:2407.21783: 419 unexpected and 47 planned "
        "in 54 days on 2,048 nodes); the run's own rate is in `calibration`",
        "costs": costs,
        "sources": {**{k: sources.get(k, "default") for k in costs}, "heal_s": heal_source},
        "scales": rows,
    }
