"""The vectorised Monte Carlo: every trial's interruptions at once, as NumPy arrays.

The model (docs/simulate.md has the long version):

- Interruptions arrive in wall-clock time, whatever the job is doing: unexpected ones per
  taxonomy category, planned maintenance, and detected stragglers. With exponential gaps the
  streams are merged by drawing one Poisson stream of the total rate and a category per event.
- Between interruptions the job runs: `interval` seconds of compute, then a `blocking` stall to
  save, repeated. An unexpected interruption loses the compute since the last completed save; a
  planned stop or a straggler exclusion saves first and loses nothing.
- After an interruption the job is down for detection, a manual intervention (by chance), a
  wait for a spare node (when the pool is empty), health checks and the restart. A new
  interruption during that downtime starts it again (the restart has to be redone), so every
  downtime ends at t_i + D_i and no trial needs a sequential loop.

Per event the lost work is (uptime mod cycle) capped at the interval; the wall clock is split
exactly into productive time and named badput, which tests check sum to the window.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from nonstop import taxonomy
from nonstop.sim.config import DAY_S, SimConfig
from nonstop.sim.interval import daly_interval_s

# Event kinds: one per taxonomy id, then these three.
N_CAT = len(taxonomy.IDS)
PLANNED, STRAGGLER, END = N_CAT, N_CAT + 1, N_CAT + 2
N_KIND = N_CAT + 3

# Downtime components in the order they happen after an interruption; names are badput kinds.
COMPONENTS = ("checkpoint", "detection", "manual", "spare_wait", "recovery")
BADPUT_KINDS = (
    "startup",
    "checkpoint",
    "lost_progress",
    "detection",
    "manual",
    "spare_wait",
    "recovery",
    "straggler",
    "thermal",
)

# Elements per (trials x events) block: bounds memory (~20 float64 arrays of this size).
BLOCK_ELEMENTS = 1_000_000
MIN_INTERVAL_S = 1.0  # floor of the auto interval: Daly's optimum is 0 when saving is free


@dataclass(frozen=True)
class _Params:
    """Per-kind lookup tables and scalars resolved once from a SimConfig."""

    duration_s: float
    interval_s: float
    blocking_s: float
    startup_s: float
    rate_per_s: np.ndarray  # expected events per second of the whole job, by kind
    weibull_shape: float | None
    detect_s: np.ndarray
    manual_p: np.ndarray
    recovery_s: np.ndarray
    controlled: np.ndarray  # saves before stopping: no lost work
    exclusion: np.ndarray  # takes a node out of the job (needs a spare)
    manual_s: float
    spares: int | None
    repair_s: float
    straggler_s: float
    straggler_cost: float  # fraction of slowed time that is badput: s / (1 + s)
    thermal_loss: float


def auto_interval_s(config: SimConfig) -> float:
    """The interval the job uses: the configured one, else Daly's optimum (floored at 1 s)."""
    if config.checkpoint_interval_s is not None:
        return config.checkpoint_interval_s
    mtbi = config.mtbi_s()
    if math.isinf(mtbi):
        return config.duration_s  # no failures: one save at the end is optimal
    return max(MIN_INTERVAL_S, daly_interval_s(config.checkpoint_blocking_s, mtbi))


def resolve(config: SimConfig) -> _Params:
    nodes = config.nodes
    rate = np.zeros(N_KIND)
    cat_rates = config.resolved_rates()
    rate[:N_CAT] = [cat_rates[c] * nodes / DAY_S for c in taxonomy.IDS]
    rate[PLANNED] = config.resolved_planned_rate() * nodes / DAY_S
    rate[STRAGGLER] = config.straggler_rate_per_node_day * nodes / DAY_S

    cats = taxonomy.CATEGORIES
    hardware = np.array([c.hardware and c.action == "exclude_node" for c in cats] + [False] * 3)
    detect = np.zeros(N_KIND)
    detect[:N_CAT] = [
        config.detection_by_category_s.get(c, config.detection_s) for c in taxonomy.IDS
    ]
    manual = np.zeros(N_KIND)
    manual[:N_CAT] = [
        config.manual_prob_by_category.get(
            c.id, 1.0 if c.action == "stop_and_page" else config.manual_prob
        )
        for c in cats
    ]
    recovery = np.full(N_KIND, config.health_check_s + config.restart_s)
    recovery[END] = 0.0
    exclusion = hardware.copy()
    exclusion[STRAGGLER] = True
    if not config.exclude_nodes:
        # No automated exclusion: the restart lands on the bad node and fails again, then a human
        # has to take the node out. Stragglers stay in the job (slow) until the window ends.
        manual[:N_CAT] = np.where(hardware[:N_CAT], 1.0, manual[:N_CAT])
        recovery[:N_CAT] += np.where(hardware[:N_CAT], detect[:N_CAT] + recovery[:N_CAT], 0.0)
        exclusion[:] = False
        rate[STRAGGLER] = 0.0
    controlled = np.zeros(N_KIND, dtype=bool)
    controlled[[PLANNED, STRAGGLER]] = True
    s = config.straggler_slowdown
    return _Params(
        duration_s=config.duration_s,
        interval_s=auto_interval_s(config),
        blocking_s=config.checkpoint_blocking_s,
        startup_s=config.restart_s if config.startup_s is None else config.startup_s,
        rate_per_s=rate,
        weibull_shape=config.weibull_shape,
        detect_s=detect,
        manual_p=manual,
        recovery_s=recovery,
        controlled=controlled,
        exclusion=exclusion,
        manual_s=config.manual_s,
        spares=config.spare_nodes,
        repair_s=config.node_repair_s,
        straggler_s=config.straggler_detection_s,
        straggler_cost=s / (1.0 + s),
        thermal_loss=config.diurnal_dvfs / 2.0,
    )


def _arrivals(
    rng: np.random.Generator, m: int, rate: float, horizon: float, gap: Callable[..., np.ndarray]
) -> np.ndarray:
    """Sorted arrival times (m rows) covering [0, horizon]; padded with times past the horizon."""
    if rate <= 0:
        return np.full((m, 1), np.inf)
    n = rate * horizon
    k = int(n + 6.0 * math.sqrt(n) + 16)
    t = np.cumsum(gap((m, k)), axis=1)
    while (t[:, -1] < horizon).any():  # rare: a row ran out of events before the horizon
        more = t[:, -1:] + np.cumsum(gap((m, max(16, k // 4))), axis=1)
        t = np.concatenate([t, more], axis=1)
    return t


def events(p: _Params, m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Event times and kinds, shape (m, K); past the window: time = window end, kind = END."""
    T = p.duration_s
    poisson = p.rate_per_s.copy()
    weibull = None
    if p.weibull_shape is not None and poisson[:N_CAT].sum() > 0:
        weibull = poisson[:N_CAT].copy()
        poisson[:N_CAT] = 0.0
    total = poisson.sum()
    t = _arrivals(rng, m, total, T, lambda shape: rng.exponential(1.0 / total, shape))
    kind = (
        rng.choice(N_KIND, size=t.shape, p=poisson / total) if total > 0 else np.full(t.shape, END)
    )
    if weibull is not None:
        k = p.weibull_shape
        assert k is not None
        lam = weibull.sum()
        scale = 1.0 / (lam * math.gamma(1.0 + 1.0 / k))  # keeps the mean gap at 1 / lambda
        tw = _arrivals(rng, m, lam, T, lambda shape: scale * rng.weibull(k, shape))
        kw = rng.choice(N_KIND, size=tw.shape, p=np.append(weibull / lam, [0.0] * 3))
        t = np.concatenate([t, tw], axis=1)
        kind = np.concatenate([kind, kw], axis=1)
        order = np.argsort(t, axis=1, kind="stable")
        t = np.take_along_axis(t, order, axis=1)
        kind = np.take_along_axis(kind, order, axis=1)
    # One END column guarantees the last segment (up to the window's end) is accounted.
    t = np.concatenate([t, np.full((m, 1), np.inf)], axis=1)
    kind = np.concatenate([kind, np.full((m, 1), END)], axis=1)
    past = t >= T
    return np.where(past, T, t), np.where(past, END, kind)


def _spare_back(p: _Params, t: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """When each exclusion's spare is available (-inf: at once); excluded nodes return after repair.

    An exclusion at t asks the pool for a spare at t. Requests are served first come, first
    served and nodes come back repair_s after they were excluded, so request i of a trial is
    served when exclusion i - spares of that trial is repaired (a FIFO container, as in the
    SimPy reference). Exclusion times are wall-clock arrivals known up front, so this is one
    pass over all trials, rows offset so that they never mix.
    """
    back = np.full(t.shape, -np.inf)
    if p.spares is None:
        return back
    rows, cols = np.nonzero(p.exclusion[kind])
    if rows.size == 0:
        return back
    # Index of each exclusion within its own trial: position minus the row's first position.
    start = np.searchsorted(rows, rows, side="left")
    i = np.arange(rows.size) - start
    waits = i >= p.spares
    src = np.where(waits, np.arange(rows.size) - p.spares, 0)
    back[rows, cols] = np.where(waits, t[rows[src], cols[src]] + p.repair_s, -np.inf)
    return back


def block(p: _Params, m: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Simulate m trials. Returns per-trial badput by kind, productive time and event counts.

    Keys: each of BADPUT_KINDS and "productive" -> shape (m,); "counts" -> (m, N_KIND);
    "cat_badput" -> (N_KIND,) total seconds lost to each kind of event over the block.
    """
    T, tau, delta = p.duration_s, p.interval_s, p.blocking_s
    t, kind = events(p, m, rng)
    valid = kind != END
    zero = np.zeros(t.shape)

    # Downtime components in order; all-zero ones stay a shared zero array (most runs have no
    # spare pool, many no manual work) so that the hot path skips them.
    comp: dict[str, np.ndarray] = dict.fromkeys(COMPONENTS, zero)
    if delta > 0:
        comp["checkpoint"] = np.take(np.where(p.controlled, delta, 0.0), kind)
    comp["detection"] = np.take(p.detect_s, kind)
    if p.manual_s > 0 and p.manual_p.any():
        draw = rng.random(t.shape) < np.take(p.manual_p, kind)
        comp["manual"] = np.where(draw, p.manual_s, 0.0)
    if p.spares is not None:
        # The spare is asked for at the event; the job waits only for what is left after
        # detection and any manual intervention.
        back = _spare_back(p, t, kind)
        comp["spare_wait"] = np.maximum(0.0, back - t - comp["detection"] - comp["manual"])
    comp["recovery"] = np.take(p.recovery_s, kind)

    # Downtime is cut short by the next event (whose own downtime starts over) or the window
    # end: spend the window on the components in order.
    left = np.diff(t, axis=1, append=T)
    down = np.zeros(t.shape)
    spent: dict[str, np.ndarray] = {}
    for name, c in comp.items():
        if c is zero:
            spent[name] = zero
            continue
        s = np.minimum(c, left)
        left -= s
        down += c
        spent[name] = s

    # Uptime since the previous downtime ended; then whole (compute + save) cycles and a rest.
    up = np.empty(t.shape)
    up[:, 0] = t[:, 0] - p.startup_s
    np.subtract(t[:, 1:], t[:, :-1] + down[:, :-1], out=up[:, 1:])
    np.maximum(up, 0.0, out=up)
    cycles = np.floor(up / (tau + delta))
    rest = up - cycles * (tau + delta)
    partial = np.minimum(rest, tau)  # compute since the last completed save
    lost = np.where(kind < N_CAT, partial, 0.0)
    ckpt = cycles * delta + (rest - partial)
    work = up - ckpt - lost

    out = {name: x.sum(axis=1) for name, x in spent.items()}
    out["checkpoint"] = out["checkpoint"] + ckpt.sum(axis=1)
    out["startup"] = np.minimum(p.startup_s, t[:, 0])
    out["lost_progress"] = lost.sum(axis=1)
    out["straggler"] = np.zeros(m)
    if p.rate_per_s[STRAGGLER] > 0:
        slowed = np.where(kind == STRAGGLER, np.minimum(p.straggler_s, up), 0.0)
        strag = np.minimum(slowed * p.straggler_cost, work)
        work -= strag
        out["straggler"] = strag.sum(axis=1)
    productive = work.sum(axis=1)
    # Throughput follows 1 - A/2 (1 + cos(2 pi t / day)); over many days its mean loss is A/2.
    out["thermal"] = productive * p.thermal_loss
    out["productive"] = productive - out["thermal"]
    flat = (np.arange(m)[:, None] * N_KIND + kind)[valid]
    out["counts"] = np.bincount(flat, minlength=m * N_KIND).reshape(m, N_KIND)
    long = (comp["manual"] + comp["spare_wait"] > 0) & valid
    out["long_stalls"] = long.sum(axis=1)
    per_event = sum((spent[n] for n in COMPONENTS), lost)
    out["cat_badput"] = np.bincount(kind[valid], weights=per_event[valid], minlength=N_KIND)
    return out


def block_trials(p: _Params) -> int:
    """Trials per block so that one block's arrays stay near BLOCK_ELEMENTS."""
    per_trial = p.rate_per_s.sum() * p.duration_s + 1.0
    return max(1, int(BLOCK_ELEMENTS // per_trial))
