"""Reliability of a planned run: wall-clock days, interruptions, ETTR and checkpoint intervals.

The numbers come from nonstop's simulator (``nonstop.sim``) and its interval formulas
(``nonstop.sim.interval``); this module only chooses what to ask them. Wall-clock time needs a
fixed point: ETTR depends on how long the job runs (it meets more interruptions the longer it
runs), and the wall duration is compute days / ETTR. Starting from the compute days, three
iterations agree to well under a percent, because ETTR changes slowly with duration.

    >>> from nonstop.plan.reliability import checkpoint_intervals
    >>> {k: round(v) for k, v in checkpoint_intervals(blocking_s=30.0, mtbi_s=10_000.0).items()}
    {'young_interval_s': 775, 'daly_interval_s': 755}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from nonstop.errors import UserError
from nonstop.sim import SimConfig, simulate
from nonstop.sim.interval import daly_interval_s, young_interval_s
from nonstop.sim.project import choose
from nonstop.sim.replica import ReplicaGroups

FIXED_POINT_ITERATIONS: Final = 3
"""Iterations of wall = compute / ETTR(wall); successive values agree to < 1% by the third."""

DEFAULT_TRIALS: Final = 200
"""Monte Carlo trials per simulation: a mean ETTR to about 0.1% (the spread across trials is
about 1%), and `nonstop plan` still answers well within a second (three simulations)."""

DAY_S: Final = 86_400.0

MIN_ETTR: Final = 0.05
"""Below this the job makes almost no progress; we say so rather than simulate for decades."""

EVENT_BUDGET: Final = 200_000
"""Interruptions simulated per call, across trials: trials are cut (not below MIN_TRIALS) when
each trial meets very many interruptions, whose mean ETTR is then tight anyway. The default
Llama 3 plan (about 630 per trial at 200 trials) stays within it."""

MIN_TRIALS: Final = 8


def checkpoint_intervals(*, blocking_s: float, mtbi_s: float) -> dict[str, float]:
    """Young's (1974) and Daly's (2006) optimal compute time between checkpoints, in seconds."""
    if not (math.isfinite(mtbi_s) and mtbi_s > 0):
        raise UserError(f"--mtbf must be a positive number of seconds, got {mtbi_s!r}")
    if not (math.isfinite(blocking_s) and blocking_s >= 0):
        raise UserError(
            f"--checkpoint-blocking must be a number of seconds >= 0, got {blocking_s!r}"
        )
    return {
        "young_interval_s": young_interval_s(blocking_s, mtbi_s),
        "daly_interval_s": daly_interval_s(blocking_s, mtbi_s),
    }


@dataclass(frozen=True, kw_only=True)
class Reliability:
    """What the simulator predicts for a run of ``compute_days`` on a cluster."""

    days_wall: float
    """Expected wall-clock days: compute days over ETTR at the fixed point."""
    ettr: float
    """Mean effective training time ratio (productive over wall time)."""
    ettr_p5: float
    """5th percentile of ETTR across trials."""
    ettr_p95: float
    """95th percentile of ETTR across trials."""
    unexpected_interruptions: float
    """Mean unexpected interruptions (failures) over the wall-clock duration."""
    planned_interruptions: float
    """Mean planned maintenance stops over the wall-clock duration."""
    mtbf_s: float
    """The job's mean time between unexpected interruptions that the simulator assumed."""
    checkpoint_blocking_s: float
    """Blocking time per checkpoint save that the simulator assumed."""
    optimal_checkpoint_interval_s: float
    """Daly's optimum for this job (the interval the simulator used unless one was given)."""
    young_interval_s: float
    """Young's first-order optimum for this job."""
    iterations: tuple[float, ...]
    """Wall-clock days after each fixed-point iteration, for the curious and the tests."""
    trials: int
    """Monte Carlo trials of the last simulation (fewer than asked when trials are long)."""

    @property
    def expected_interruptions(self) -> float:
        """All interruptions, unexpected and planned (Llama 3: 466 = 419 + 47 in 54 days)."""
        return self.unexpected_interruptions + self.planned_interruptions

    def to_dict(self) -> dict[str, object]:
        """Plain numbers for JSON."""
        return {
            "days_wall": self.days_wall,
            "ettr": self.ettr,
            "ettr_p5": self.ettr_p5,
            "ettr_p95": self.ettr_p95,
            "expected_interruptions": self.expected_interruptions,
            "unexpected_interruptions": self.unexpected_interruptions,
            "planned_interruptions": self.planned_interruptions,
            "mtbf_s": self.mtbf_s,
            "checkpoint_blocking_s": self.checkpoint_blocking_s,
            "optimal_checkpoint_interval_s": self.optimal_checkpoint_interval_s,
            "young_interval_s": self.young_interval_s,
            "daly_interval_s": self.optimal_checkpoint_interval_s,
            "fixed_point_days": list(self.iterations),
            "trials": self.trials,
        }


def _base(
    gpus: int, trials: int, seed: int, checkpoint_blocking_s: float | None, mtbf_s: float | None
) -> SimConfig:
    base = SimConfig(gpus=gpus, trials=trials, seed=seed)
    if checkpoint_blocking_s is not None:
        base = base.with_(checkpoint_blocking_s=checkpoint_blocking_s)
    if mtbf_s is not None:
        # A synchronous job stops when any node does: job rate = node rate x nodes.
        base = base.with_(failure_rate_per_node_day=DAY_S / mtbf_s / base.nodes)
    return base


def choose_design(
    *,
    gpus: int,
    days: float,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    checkpoint_blocking_s: float | None = None,
    mtbf_s: float | None = None,
    replica_groups: int | None = None,
) -> dict[str, Any]:
    """Whole-job restarts or replica groups for this job over ``days`` of wall clock, and why
    (``nonstop.sim.project.choose``); groups of about 1,024 GPUs unless ``replica_groups``."""
    base = _base(gpus, trials, seed, checkpoint_blocking_s, mtbf_s)
    cfg = base.with_(days=days, trials=_trials(base, days))
    design = None if replica_groups is None else ReplicaGroups(groups=replica_groups)
    if design is not None and design.groups > cfg.nodes:
        raise UserError(
            f"--replica-groups {design.groups} is more groups than the job's {cfg.nodes} nodes"
        )
    return choose(cfg, design)


def simulate_wall_clock(
    *,
    gpus: int,
    compute_days: float,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    checkpoint_blocking_s: float | None = None,
    mtbf_s: float | None = None,
) -> Reliability:
    """Wall-clock days and interruptions of ``compute_days`` of training on ``gpus`` GPUs.

    ``mtbf_s``, when given, is the job's mean time between unexpected interruptions and replaces
    the simulator's Llama 3 calibration (keeping Table 5's mix); ``checkpoint_blocking_s``
    replaces its default save time. Everything else is the simulator's default job.
    """
    if not (math.isfinite(compute_days) and compute_days > 0):
        raise UserError(f"compute days must be positive, got {compute_days!r}")
    base = _base(gpus, trials, seed, checkpoint_blocking_s, mtbf_s)
    wall = compute_days
    history: list[float] = []
    days_simulated = wall
    result: dict[str, object] = {}
    for _ in range(FIXED_POINT_ITERATIONS):
        days_simulated = wall
        cfg = base.with_(days=days_simulated, trials=_trials(base, days_simulated))
        result = simulate(cfg).to_dict()
        ettr = _num(result, "ettr_mean")
        if not ettr >= MIN_ETTR:
            raise UserError(
                f"the simulated job barely progresses on {gpus} GPUs (ETTR {ettr:.3g}): an "
                f"interruption every {cfg.mtbi_s():,.0f} s against {_recovery_s(cfg):,.0f} s "
                "to detect and restart; use fewer GPUs or a larger --mtbf"
            )
        wall = compute_days / ettr
        history.append(wall)
    # The last simulation ran for days_simulated; counts scale with the (slightly) longer wall.
    scale = wall / days_simulated
    return Reliability(
        days_wall=wall,
        ettr=_num(result, "ettr_mean"),
        ettr_p5=_num(result, "ettr_p5"),
        ettr_p95=_num(result, "ettr_p95"),
        unexpected_interruptions=_num(result, "interruptions_mean") * scale,
        planned_interruptions=_num(result, "planned_mean") * scale,
        mtbf_s=_num(result, "mtbi_s"),
        checkpoint_blocking_s=base.checkpoint_blocking_s,
        optimal_checkpoint_interval_s=_num(result, "optimal_checkpoint_interval_s"),
        young_interval_s=_num(result, "young_interval_s"),
        iterations=tuple(history),
        trials=int(_num(result, "trials")),
    )


def _trials(cfg: SimConfig, days: float) -> int:
    events = days * DAY_S / cfg.mtbi_s() + days * cfg.resolved_planned_rate() * cfg.nodes
    return max(MIN_TRIALS, min(cfg.trials, int(EVENT_BUDGET / max(events, 1.0))))


def _recovery_s(cfg: SimConfig) -> float:
    return cfg.detection_s + cfg.health_check_s + cfg.restart_s


def _num(result: dict[str, object], key: str) -> float:
    value = result[key]
    assert isinstance(value, int | float), (key, value)
    return float(value)
