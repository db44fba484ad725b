"""Sweeps over the simulator: how ETTR moves with each knob, and what reaches a target ETTR.

    nonstop simulate --gpus 16384 --sensitivity        # ETTR at half and double of each knob
    nonstop simulate --gpus 100000 --target-ettr 0.9   # the value of each knob that reaches 90%

Every run in a sweep uses the same seed (common random numbers): differences between runs come
from the knob, not from sampling noise, so small trial counts give smooth curves and the
bisections below see a monotone function.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

from nonstop.sim.config import SimConfig
from nonstop.sim.engine import auto_interval_s
from nonstop.sim.result import simulate

__all__ = ["KNOBS", "Knob", "sensitivity", "target_search"]

Progress = Callable[[int, int], None]

SEARCH_TRIALS = 200  # per evaluation in a target search: ETTR's standard error is then ~0.05 pt
BISECTIONS = 10  # relative precision 2^-10 of the bracket


@dataclass(frozen=True)
class Knob:
    """One dial of the job: a label, a unit and how to set it on a config."""

    label: str
    unit: str
    get: Callable[[SimConfig], float]
    set: Callable[[SimConfig, float], SimConfig]


def _scaled_rates(c: SimConfig, total: float) -> SimConfig:
    rates = c.resolved_rates()
    now = sum(rates.values())
    factor = 0.0 if now == 0 else total / now
    return c.with_(
        failure_rate_per_node_day=None,
        category_rates_per_node_day={k: v * factor for k, v in rates.items()},
    )


def _field(name: str) -> Callable[[SimConfig, float], SimConfig]:
    return lambda c, v: c.with_(**{name: v})


def _detection(c: SimConfig, v: float) -> SimConfig:
    # Per-category detection times move with the default one, keeping their ratios.
    base = c.detection_s or 1.0
    per = {k: s * v / base for k, s in c.detection_by_category_s.items()}
    return c.with_(detection_s=v, detection_by_category_s=per)


KNOBS: tuple[Knob, ...] = (
    Knob("checkpoint interval", "s", auto_interval_s, _field("checkpoint_interval_s")),
    Knob(
        "checkpoint blocking",
        "s",
        lambda c: c.checkpoint_blocking_s,
        _field("checkpoint_blocking_s"),
    ),
    Knob("failure rate", "/node-day", lambda c: sum(c.resolved_rates().values()), _scaled_rates),
    Knob("detection", "s", lambda c: c.detection_s, _detection),
    Knob("restart", "s", lambda c: c.restart_s, _field("restart_s")),
    Knob("health check", "s", lambda c: c.health_check_s, _field("health_check_s")),
    Knob("manual intervention", "s", lambda c: c.manual_s, _field("manual_s")),
    Knob(
        "straggler rate",
        "/node-day",
        lambda c: c.straggler_rate_per_node_day,
        _field("straggler_rate_per_node_day"),
    ),
)

_SPARES = Knob(
    "spare nodes",
    "nodes",
    lambda c: float(c.spare_nodes or 0),
    lambda c, v: c.with_(spare_nodes=int(v)),
)


def sensitivity(config: SimConfig, progress: Progress | None = None) -> list[dict[str, object]]:
    """ETTR at half and at double each knob's value (others held), against the baseline."""
    knobs = [k for k in KNOBS if k.get(config) > 0]
    if config.spare_nodes:
        knobs.append(_SPARES)
    total = 1 + 2 * len(knobs)
    base = float(simulate(config).ettr.mean())
    done = 1
    rows: list[dict[str, object]] = []
    for knob in knobs:
        value = knob.get(config)
        row: dict[str, object] = {"knob": knob.label, "unit": knob.unit, "value": value}
        for side, factor in (("low", 0.5), ("high", 2.0)):
            v = round(value * factor) if knob is _SPARES else value * factor
            row[f"{side}_value"] = v
            row[f"{side}_ettr"] = float(simulate(knob.set(config, v)).ettr.mean())
            done += 1
            if progress:
                progress(done, total)
        row["ettr"] = base
        rows.append(row)
    return rows


def _ettr(config: SimConfig) -> float:
    return float(simulate(config).ettr.mean())


def _largest(ok: Callable[[float], bool], start: float, cap: float) -> float | None:
    """Largest x in [0, cap] with ok(x), for ok true below a threshold; None if not even ok(0)."""
    if not ok(0.0):
        return None
    hi = max(start, 1e-9)
    while ok(hi):
        if hi >= cap:
            return cap
        hi = min(cap, hi * 2)
    lo = 0.0
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def target_search(
    config: SimConfig, target_ettr: float, progress: Progress | None = None
) -> dict[str, object]:
    """What each knob alone (and all overheads together) must be for mean ETTR >= target.

    Knobs are searched one at a time, the others at their configured values. "all overheads"
    scales blocking, detection, health check, restart and manual time by one factor.
    """
    if not 0 < target_ettr < 1:
        raise ValueError(f"target_ettr must be in (0, 1), got {target_ettr!r}")
    c = config.with_(trials=min(config.trials, SEARCH_TRIALS))
    steps = [0]

    def ok(cfg: SimConfig) -> bool:
        steps[0] += 1
        if progress:
            progress(steps[0], 0)
        return _ettr(cfg) >= target_ettr

    rows: list[dict[str, object]] = []
    day = 86_400.0
    plan: list[tuple[Knob, float]] = [
        (KNOBS[1], day),  # blocking
        (KNOBS[3], day),  # detection
        (KNOBS[4], day),  # restart
        (KNOBS[5], day),  # health check
        (KNOBS[6], 30 * day),  # manual
        (KNOBS[2], 1.0),  # failure rate per node-day
    ]
    for knob, cap in plan:
        value = knob.get(c)
        need = _largest(functools.partial(_ok_at, ok, knob, c), value, cap)
        rows.append({"knob": knob.label, "unit": knob.unit, "value": value, "max": need})

    factor = _largest(lambda f: ok(_scale_overheads(c, f)), 1.0, 64.0)
    rows.append({"knob": "all overheads (factor)", "unit": "x", "value": 1.0, "max": factor})

    # Where the job misses the target, answer for a recipe instead: all overheads scaled to 80%
    # of the factor that just reaches it (a margin), and search the interval and spares there.
    recipe = c
    if factor is not None and factor < 1.0:
        recipe = _scale_overheads(c, 0.8 * factor)
    reachable = factor is not None
    interval = auto_interval_s(recipe)
    lo = hi = None
    if reachable and ok(recipe):
        below = _largest(
            lambda d: ok(recipe.with_(checkpoint_interval_s=interval - d)),
            interval / 4,
            interval * 0.999,
        )
        above = _largest(
            lambda d: ok(recipe.with_(checkpoint_interval_s=interval + d)), interval, 100 * interval
        )
        lo, hi = interval - (below or 0.0), interval + (above or 0.0)
    spares = _fewest_spares(recipe, ok) if reachable else None
    return {
        "target_ettr": target_ettr,
        "ettr": _ettr(c),
        "trials_per_evaluation": c.trials,
        "mtbi_s": None if math.isinf(c.mtbi_s()) else c.mtbi_s(),
        "knobs": rows,
        "recipe": None
        if not reachable
        else {
            "ettr": _ettr(recipe),
            "checkpoint_blocking_s": recipe.checkpoint_blocking_s,
            "detection_s": recipe.detection_s,
            "health_check_s": recipe.health_check_s,
            "restart_s": recipe.restart_s,
            "manual_s": recipe.manual_s,
            "checkpoint_interval_s": interval,
            "interval_range_s": None if lo is None else [lo, hi],
            "fewest_spares": spares,
            "node_repair_s": recipe.node_repair_s,
        },
    }


def _ok_at(ok: Callable[[SimConfig], bool], knob: Knob, c: SimConfig, v: float) -> bool:
    return ok(knob.set(c, v))


def _scale_overheads(c: SimConfig, f: float) -> SimConfig:
    return _detection(c, c.detection_s * f).with_(
        checkpoint_blocking_s=c.checkpoint_blocking_s * f,
        health_check_s=c.health_check_s * f,
        restart_s=c.restart_s * f,
        manual_s=c.manual_s * f,
        startup_s=None if c.startup_s is None else c.startup_s * f,
    )


def _fewest_spares(c: SimConfig, ok: Callable[[SimConfig], bool]) -> int | None:
    """Fewest spare nodes (repaired after node_repair_s) that keep the target; None if even
    unlimited spares do not."""
    if not ok(c.with_(spare_nodes=None)):
        return None
    hi = 1
    while not ok(c.with_(spare_nodes=hi)):
        hi *= 2
        if hi > c.nodes:
            return None
    lo = hi // 2  # fails (or is 0, checked next)
    if lo == 0 and ok(c.with_(spare_nodes=0)):
        return 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(c.with_(spare_nodes=mid)) else (mid, hi)
    return hi
