"""Observed reliability figures of a run, for `nonstop simulate --from-run` and `plan`."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field

from nonstop.ledger.db import Ledger
from nonstop.ledger.timeline import evidence_of, load_timeline


@dataclass(frozen=True)
class ObservedRates:
    """Failure rates and costs measured in one run."""

    node_days: float
    """Sum over attempts of (attempt duration x nodes in it), in days."""
    failures_by_category: dict[str, int] = field(default_factory=dict)
    """Unplanned failures by taxonomy id."""
    planned: int = 0
    """Planned interruptions (drain, preemption, operator restart)."""
    healed: int = 0
    """Network outages that healed by themselves (no restart): not failures to simulate."""
    mean_restart_s: float | None = None
    """Mean time from detection to the next attempt's first step."""
    mean_checkpoint_blocking_s: float | None = None
    mean_detection_s: float | None = None


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def rates_from_ledger(ledger: Ledger) -> ObservedRates:
    tl = load_timeline(ledger)
    # nodes per attempt: the hosts that trained in it (each agent of a multi-node job knows
    # only itself when it records the attempt), else what the supervisor recorded
    nodes_of = {
        int(r[0]): max(1, len(json.loads(r[1] or "[]")))
        for r in ledger.rows("SELECT attempt, nodes FROM attempts")
    }
    for attempt, hosts in ledger.rows(
        "SELECT attempt, COUNT(DISTINCT host) FROM steps GROUP BY attempt"
    ):
        nodes_of[int(attempt)] = max(nodes_of.get(int(attempt), 1), int(hosts))
    node_days = sum((a.end - a.start) * nodes_of.get(a.attempt, 1) for a in tl.attempts) / 86400
    by_cat: dict[str, int] = {}
    planned = healed = 0
    for r in ledger.rows("SELECT category, planned, evidence FROM failures WHERE root_cause = 1"):
        if r[1]:
            planned += 1
        elif evidence_of(r[2]).get("healed") is True:
            healed += 1
        else:
            by_cat[r[0]] = by_cat.get(r[0], 0) + 1
    first_step: dict[int, float] = {}
    for s in sorted(tl.steps, key=lambda s: s.start):
        first_step.setdefault(s.attempt, s.start)
    order = sorted(tl.attempts, key=lambda a: a.start)
    restarts = [
        first_step[b.attempt] - (a.detect_time if a.detect_time is not None else a.end)
        for a, b in itertools.pairwise(order)
        if a.failed and b.attempt in first_step
    ]
    blocking = [b - a for a, b in tl.checkpoint_blocks]
    detection = [
        float(r[0])
        for r in ledger.rows(
            "SELECT latency_s FROM detections WHERE latency_s >= 0 AND kind != 'straggler'"
        )
    ]
    return ObservedRates(
        node_days=node_days,
        failures_by_category=by_cat,
        planned=planned,
        healed=healed,
        mean_restart_s=_mean(restarts),
        mean_checkpoint_blocking_s=_mean(blocking),
        mean_detection_s=_mean(detection),
    )
