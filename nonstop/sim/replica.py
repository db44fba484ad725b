"""Replica-group fault tolerance (HSDP with torchft, Meta's FT-HSDP), beside the whole-job model.

The job is G replica groups, each a full copy of the model on gpus / G GPUs, that exchange
gradients every step. The failure domain is one group, not the job:

- A failure stops every group only for a short job-wide **stall**: the survivors' collective
  fails (detection) and the quorum re-forms without the failed group (`reconfigure_s`). The step
  in flight is discarded (half a step lost on average).
- The failed group alone is down for detection, a manual intervention (by chance), a wait for a
  spare node, health checks, its restart and the **heal** from a live peer (`heal_s`: the
  state copied over the network, not read from storage). Meanwhile the other groups train:
  throughput is live / G. A free hot **spare group** (`spare_groups`) takes its place after
  detection and the spare's heal.
- Planned maintenance and straggler exclusions take one group down, controlled (no detection).
- Every step pays the per-step **quorum** (`quorum_s` against `step_s`).
- When every group is down at once no peer is left to heal from: an **outage**, whose recovery
  loses the work since the last durable checkpoint (uniform over an interval), unless a
  controlled stop (planned, straggler: it saves first) took the last group down. Durable
  checkpoints are still taken for that, at Daly's optimum for the mean time between outages.

Vectorised like `nonstop.sim.engine`: one event stream per trial (the same arrivals and kinds),
each event given a group uniformly at random (groups are the same size, so each is equally
likely to hold the failed node); a new event in a group restarts that group's downtime and,
when the group was up, stalls the job again (the stalls' union: a new one starts it over).
One sweep over the sorted interval ends gives the live groups and the stall at every instant,
so the wall clock splits exactly into productive time and named badput.

    >>> from nonstop.sim import SimConfig
    >>> from nonstop.sim.replica import ReplicaGroups, simulate_replica_groups
    >>> r = simulate_replica_groups(SimConfig(gpus=16_384, trials=50), ReplicaGroups(groups=16))
    >>> bool(r.ettr.mean() > 0.95)
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from nonstop.errors import UserError
from nonstop.sim import engine
from nonstop.sim.config import SimConfig
from nonstop.sim.interval import daly_interval_s

__all__ = [
    "BADPUT_KINDS",
    "ReplicaGroups",
    "ReplicaResult",
    "mean_time_between_outages_s",
    "simulate_replica_groups",
]

BADPUT_KINDS = (
    "startup",
    "stall",
    "fewer_replicas",
    "outage",
    "checkpoint",
    "quorum",
    "lost_progress",
    "straggler",
    "thermal",
)

Progress = Callable[[int, int], None]


@dataclass(frozen=True, kw_only=True)
class ReplicaGroups:
    """The replica-group design's own costs; everything else comes from the SimConfig.

    Defaults are assumptions (docs/simulate.md gives the reasoning); each is a flag.
    """

    groups: int
    """Replica groups G (>= 2): the job's GPUs split into G equal copies of the model."""
    heal_s: float = 60.0
    """A restarted group's copy of the state from a live peer (torchft's recovery). Assumption:
    4 GB/GPU over a 400 Gb/s NIC is ~0.1 s of transfer; a minute covers the group rejoining
    the quorum and the transfer's setup at scale."""
    reconfigure_s: float = 10.0
    """Job-wide stall, after detection, while the quorum re-forms without the failed group
    (assumption; torchft's Lighthouse forms a quorum in milliseconds once it knows)."""
    quorum_s: float = 0.01
    """Per-step cost of the quorum and commit (assumption: 10 ms; torchft overlaps the quorum
    with the forward pass, so this is the part left exposed)."""
    step_s: float = 5.0
    """Seconds per optimizer step (the quorum's and the lost in-flight step's unit)."""
    group_restart_s: float | None = None
    """A group's restart (reschedule, init; the heal is separate); None = SimConfig.restart_s."""
    spare_groups: int = 0
    """Hot spare groups (running, idle): one takes a failed group's place after detection and
    its heal; the failed group's nodes become the spare once their own recovery is done."""

    def __post_init__(self) -> None:
        g = self.groups
        if isinstance(g, bool) or not isinstance(g, int) or g < 2:
            raise ValueError(f"ReplicaGroups.groups must be an integer >= 2, got {g!r}")
        for name in ("heal_s", "reconfigure_s", "quorum_s"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v >= 0):
                raise ValueError(f"ReplicaGroups.{name} must be a finite number >= 0, got {v!r}")
        if not (math.isfinite(self.step_s) and self.step_s > 0):
            raise ValueError(f"ReplicaGroups.step_s must be positive, got {self.step_s!r}")
        sg = self.spare_groups
        if isinstance(sg, bool) or not isinstance(sg, int) or sg < 0:
            raise ValueError(f"ReplicaGroups.spare_groups must be an integer >= 0, got {sg!r}")
        r = self.group_restart_s
        if r is not None and not (math.isfinite(r) and r >= 0):
            raise ValueError(f"ReplicaGroups.group_restart_s must be None or >= 0, got {r!r}")

    def with_(self, **changes: Any) -> ReplicaGroups:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)


@dataclass(frozen=True)
class _Rp:
    groups: int
    spare_groups: int
    heal_s: float
    reconfigure_s: float
    quorum_frac: float  # share of training time the quorum takes: q / (step + q)
    step_s: float
    group_down_s: np.ndarray  # by kind: a group's health checks, restart and heal
    interval_s: float
    mtbo_s: float


def _mean_group_down_s(p: engine._Params, rg: ReplicaGroups) -> float:
    """Mean downtime of a failed group (for the outage estimate): detection, manual by chance,
    recovery and heal, weighted by the categories' rates."""
    w = p.rate_per_s[: engine.N_CAT]
    if w.sum() == 0:
        return 0.0
    n = engine.N_CAT
    per = p.detect_s[:n] + p.manual_p[:n] * p.manual_s + p.recovery_s[:n] + rg.heal_s
    return float((w * per).sum() / w.sum())


def mean_time_between_outages_s(
    config: SimConfig, rg: ReplicaGroups, p: engine._Params | None = None
) -> float:
    """Closed-form estimate of the mean time between moments when every group is down.

    Each group fails at lambda / G and is down for D; a group is down a share
    q = 1 - exp(-lambda D / G) of the time (a new failure restarts its downtime). An outage
    begins when a failure hits the last live group: rate G (lambda / G) (1 - q) q^(G-1).
    """
    p = p or resolve(config, rg)[0]
    lam = float(p.rate_per_s[: engine.N_CAT].sum())
    if lam == 0:
        return math.inf
    d = _mean_group_down_s(p, rg)
    q = -math.expm1(-lam * d / rg.groups)
    rate = lam * (1.0 - q) * q ** (rg.groups - 1)
    return math.inf if rate <= 0 else 1.0 / rate


def resolve(config: SimConfig, rg: ReplicaGroups) -> tuple[engine._Params, _Rp]:
    """The whole-job engine's tables, with the group's restart and this design's interval."""
    if rg.groups > config.nodes:
        raise UserError(
            f"--replica-groups {rg.groups} is more groups than the job's {config.nodes} nodes; "
            "a group is at least one node (its failure domain)"
        )
    base = config
    if rg.group_restart_s is not None:
        # the job's first start stays the whole job's; only a group's restart changes
        first = config.restart_s if config.startup_s is None else config.startup_s
        base = config.with_(restart_s=rg.group_restart_s, startup_s=first)
    p = engine.resolve(base)
    down = p.recovery_s.copy()
    down[: engine.END] += rg.heal_s
    down[engine.END] = 0.0
    mtbo = mean_time_between_outages_s(config, rg, p)
    if config.checkpoint_interval_s is not None:
        interval = config.checkpoint_interval_s
    elif math.isinf(mtbo):
        interval = config.duration_s  # no failures: one save at the end
    else:
        # Daly's optimum for the outages alone: rare outages, rare saves, but an outage then
        # loses up to that interval (the trials that meet one show it in ettr_p5)
        daly = daly_interval_s(config.checkpoint_blocking_s, mtbo)
        interval = min(config.duration_s, max(engine.MIN_INTERVAL_S, daly))
    q = rg.quorum_s / (rg.step_s + rg.quorum_s)
    return p, _Rp(
        rg.groups, rg.spare_groups, rg.heal_s, rg.reconfigure_s, q, rg.step_s, down, interval, mtbo
    )


def _sweep(
    starts: list[np.ndarray],
    ends: list[np.ndarray],
    weights: list[int],
    tags: list[np.ndarray],
    T: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sorted segment boundaries of a union of intervals with two counters.

    `weights[i]` says which counter interval set i moves: 0 = groups down, 1 = job stalled;
    `tags[i]` labels its starts (small integers; ends are 0), returned in sweep order.
    Returns (segment lengths, groups down, stalls, tags) per segment, shape (m, P).
    """
    # Ends before starts: at a tie (a group's downtime cut by its next event) the group goes
    # up and down again in a segment of zero length, never twice down.
    times = np.concatenate([*ends, *starts], axis=1)

    def moves(counter: int) -> np.ndarray:
        return np.concatenate(
            [
                np.full(e.shape, -1 if w == counter else 0)
                for e, w in zip(ends, weights, strict=True)
            ]
            + [
                np.full(s.shape, 1 if w == counter else 0)
                for s, w in zip(starts, weights, strict=True)
            ],
            axis=1,
        )

    down_d, stall_d = moves(0), moves(1)
    tag = np.concatenate([np.zeros(e.shape, dtype=np.int8) for e in ends] + list(tags), axis=1)
    order = np.argsort(times, axis=1, kind="stable")
    times = np.take_along_axis(times, order, axis=1)
    down = np.cumsum(np.take_along_axis(down_d, order, axis=1), axis=1)
    stall = np.cumsum(np.take_along_axis(stall_d, order, axis=1), axis=1)
    length = np.diff(times, axis=1, append=np.full((times.shape[0], 1), T))
    return np.maximum(length, 0.0), down, stall, np.take_along_axis(tag, order, axis=1)


def _with_spare_groups(
    rp: _Rp, t: np.ndarray, valid: np.ndarray, down: np.ndarray, detect: np.ndarray
) -> np.ndarray:
    """Group downtimes where a hot spare group stands in: detection, then the spare's heal.

        A spare is free at event i when fewer than `spare_groups` earlier events are still in
        their own recovery (t_j + D_j > t_i). Every such event is counted as holding a spare, also
        one that found none and recovered by itself: conservative, so spares never look better
        than they are. Rows are offset (each spans less than 2 x span) so that the flat array stays
    sorted and one searchsorted serves every trial.
    """
    m, k = t.shape
    # events past the window hold nothing: they end at -1, before any event of their row
    ends = np.where(valid, t + down, -1.0)
    span = float(np.max(ends[valid], initial=0.0)) + 1.0
    offset = (np.arange(m) * 2.0 * span)[:, None]
    flat_ends = np.sort(ends + offset, axis=1).ravel()
    ended = np.searchsorted(flat_ends, (t + offset).ravel(), side="right").reshape(m, k)
    ended -= (np.arange(m) * k)[:, None]  # ends before t_i in this row only
    started = np.arange(k)[None, :]  # events before i in this row (times are sorted)
    ended -= (~valid).sum(axis=1, keepdims=True)  # the fillers count as ended
    free = valid & (started - ended < rp.spare_groups)
    return np.where(free, np.minimum(down, detect + rp.heal_s), down)


def draw(p: engine._Params, rp: _Rp, m: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """m trials' events, shape (m, K): times `t`, `kind`, `group`, each group's `down` time
    (spares and spare groups applied) and `detect`ion time."""
    t, kind = engine.events(p, m, rng)
    valid = kind != engine.END
    group = rng.integers(0, rp.groups, size=t.shape)
    detect = np.take(p.detect_s, kind)
    manual = np.zeros(t.shape)
    if p.manual_s > 0 and p.manual_p.any():
        manual = np.where(rng.random(t.shape) < np.take(p.manual_p, kind), p.manual_s, 0.0)
    spare = np.zeros(t.shape)
    if p.spares is not None:
        back = engine._spare_back(p, t, kind)
        spare = np.maximum(0.0, back - t - detect - manual)
    down = np.where(valid, detect + manual + spare + np.take(rp.group_down_s, kind), 0.0)
    if rp.spare_groups > 0:
        down = _with_spare_groups(rp, t, valid, down, detect)
    return {"t": t, "kind": kind, "group": group, "down": down, "detect": detect}


def timeline(p: engine._Params, rp: _Rp, d: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Where each trial's wall clock went, from `draw()`'s events; per trial (m,):
    startup, stall, outage, fewer_replicas, train (productive before checkpoints, quorum and
    lost work), outages, lossy_outages, hits (events that found their group up),
    group_down_s, fewer_time_s."""
    t, kind, group, down = d["t"], d["kind"], d["group"], d["down"]
    m = t.shape[0]
    T, G = p.duration_s, rp.groups
    valid = kind != engine.END
    # A group's downtime is cut short by the next event in the same group (it starts over).
    key = group * (T + 1.0) + t
    order = np.argsort(key, axis=1, kind="stable")
    ts = np.take_along_axis(t, order, axis=1)
    gs = np.take_along_axis(group, order, axis=1)
    ds = np.take_along_axis(down, order, axis=1)
    nxt = np.full(ts.shape, T)
    same = gs[:, 1:] == gs[:, :-1]
    nxt[:, :-1] = np.where(same, ts[:, 1:], T)
    g_len = np.minimum(ds, np.maximum(nxt - ts, 0.0))
    # An event in a group that is already down stops no one else: no job-wide stall, no step
    # in flight lost (the survivors dropped that group at its first failure).
    cut = np.zeros(ts.shape, dtype=bool)
    cut[:, 1:] = same & (ds[:, :-1] > ts[:, 1:] - ts[:, :-1])
    was_down = np.empty(t.shape, dtype=bool)
    np.put_along_axis(was_down, order, cut, axis=1)
    hits = valid & ~was_down
    # Every stall is an interval of its own; the sweep's counter takes their union, which is
    # the same as a new failure starting the stall over.
    stall = np.where(hits, d["detect"] + rp.reconfigure_s, 0.0)
    s_len = np.minimum(stall, T - t)

    start = np.full((m, 1), 0.0)
    startup = np.full((m, 1), min(p.startup_s, T))
    # Group starts are tagged 1, or 2 for a controlled stop (planned, straggler), which saves
    # first: when it takes the last group down, the outage loses nothing.
    controlled = np.take_along_axis(np.take(p.controlled, kind), order, axis=1)
    g_tag = np.where(controlled, 2, 1).astype(np.int8)
    length, n_down, n_stall, tag = _sweep(
        [ts, t, start],
        [ts + g_len, t + s_len, startup],
        [0, 1, 1],
        [g_tag, np.zeros(t.shape, dtype=np.int8), np.zeros((m, 1), dtype=np.int8)],
        T,
    )
    # every segment carries the tag of the last group start at or before it: the start that
    # made an outage, whatever zero-length segments other points at that instant opened
    last_start = np.maximum.accumulate(np.where(tag > 0, np.arange(tag.shape[1]), 0), axis=1)
    saved = np.take_along_axis(tag, last_start, axis=1) == 2
    stalled = n_stall > 0
    live = (G - np.minimum(n_down, G)) / G
    running = length * ~stalled
    all_down = n_down >= G
    # Outages: entries into "every group down" (zero-length segments carry the state before
    # them, so a tie never counts as an entry).
    cols = np.where(length > 0, np.arange(length.shape[1]), 0)
    state = np.take_along_axis(all_down & (length > 0), np.maximum.accumulate(cols, axis=1), axis=1)
    enter = state & ~np.concatenate([np.zeros((m, 1), dtype=bool), state[:, :-1]], axis=1)
    return {
        "startup": startup[:, 0],
        "stall": (length * stalled).sum(axis=1) - startup[:, 0],
        "outage": (running * all_down).sum(axis=1),
        "fewer_replicas": (running * (1.0 - live) * ~all_down).sum(axis=1),
        "train": (running * live).sum(axis=1),
        "outages": enter.sum(axis=1),
        "lossy_outages": (enter & ~saved).sum(axis=1),
        "hits": hits,
        "group_down_s": g_len.sum(axis=1),
        "fewer_time_s": (length * (n_down > 0)).sum(axis=1),
    }


def block(p: engine._Params, rp: _Rp, m: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Simulate m trials of the replica-group design; per-trial badput, productive and counts."""
    d = draw(p, rp, m, rng)
    tl = timeline(p, rp, d)
    kind = d["kind"]
    failure = kind < engine.N_CAT
    tau, delta = rp.interval_s, p.blocking_s
    ckpt = tl["train"] * (delta / (tau + delta))
    work = tl["train"] - ckpt
    quorum = work * rp.quorum_frac
    work = work - quorum
    # each outage a failure began loses the work since the last durable save
    n_lossy = tl["lossy_outages"]
    draws = rng.random((m, int(n_lossy.max()) if n_lossy.size else 0)) * tau
    lost_outage = np.where(np.arange(draws.shape[1]) < n_lossy[:, None], draws, 0.0).sum(axis=1)
    inflight = (failure & tl["hits"]).sum(axis=1) * rp.step_s / 2.0
    lost = np.minimum(lost_outage + inflight, work)
    work = work - lost
    strag = np.zeros(m)
    if p.rate_per_s[engine.STRAGGLER] > 0:
        slowed = (kind == engine.STRAGGLER).sum(axis=1) * p.straggler_s * p.straggler_cost
        strag = np.minimum(slowed, work)
        work = work - strag
    out = {k: tl[k] for k in ("startup", "stall", "outage", "fewer_replicas", "outages")}
    out["checkpoint"] = ckpt
    out["quorum"] = quorum
    out["lost_progress"] = lost
    out["straggler"] = strag
    out["thermal"] = work * p.thermal_loss
    out["productive"] = work - out["thermal"]
    out["group_down_s"] = tl["group_down_s"]
    out["fewer_time_s"] = tl["fewer_time_s"]
    out["failures"] = (failure & (kind != engine.END)).sum(axis=1)
    return out


@dataclass(frozen=True)
class ReplicaResult:
    """Per-trial outcomes of the replica-group design and the means the CLI prints."""

    config: SimConfig
    design: ReplicaGroups
    checkpoint_interval_s: float
    """Durable checkpoint interval used (the configured one, or Daly's for outages)."""
    mtbo_s: float
    """Estimated mean time between outages (every group down at once)."""
    ettr: np.ndarray
    badput_s: dict[str, float]
    outages: np.ndarray
    failures: np.ndarray
    group_down_s: float
    """Mean group-seconds a trial's groups spent down (a group's GPUs x these = GPU-seconds)."""
    fewer_replicas_s: float
    """Mean seconds per trial with at least one group down."""

    def to_dict(self) -> dict[str, object]:
        """JSON-ready summary (`nonstop simulate --replica-groups G --json`: `replica_groups`)."""
        c, d = self.config, self.design
        return {
            "design": "replica_groups",
            "replica_groups": d.groups,
            "spare_groups": d.spare_groups,
            "gpus_per_group": c.gpus / d.groups,
            "heal_s": d.heal_s,
            "reconfigure_s": d.reconfigure_s,
            "quorum_s": d.quorum_s,
            "step_s": d.step_s,
            "group_restart_s": c.restart_s if d.group_restart_s is None else d.group_restart_s,
            "ettr_mean": float(self.ettr.mean()),
            "ettr_p5": float(np.percentile(self.ettr, 5)),
            "ettr_p95": float(np.percentile(self.ettr, 95)),
            "badput_s": dict(self.badput_s),
            "failures_mean": float(self.failures.mean()),
            "outages_mean": float(self.outages.mean()),
            "mtbo_s": None if math.isinf(self.mtbo_s) else self.mtbo_s,
            "checkpoint_interval_s": self.checkpoint_interval_s,
            "group_seconds_down_mean": self.group_down_s,
            "gpu_seconds_down_mean": self.group_down_s * c.gpus / d.groups,
            "fewer_replicas_fraction": self.fewer_replicas_s / c.duration_s,
        }


def simulate_replica_groups(
    config: SimConfig, design: ReplicaGroups, progress: Progress | None = None
) -> ReplicaResult:
    """Run `config.trials` trials of the job as `design.groups` replica groups (seeded)."""
    p, rp = resolve(config, design)
    rng = np.random.default_rng(config.seed)
    per_block = max(1, engine.block_trials(p) // 4)  # ~4x the arrays of the whole-job block
    ettr: list[np.ndarray] = []
    badput = dict.fromkeys(BADPUT_KINDS, 0.0)
    outages: list[np.ndarray] = []
    failures: list[np.ndarray] = []
    down = fewer = 0.0
    done = 0
    while done < config.trials:
        n = min(per_block, config.trials - done)
        out = block(p, rp, n, rng)
        ettr.append(out["productive"] / p.duration_s)
        for k in badput:
            badput[k] += float(out[k].sum())
        outages.append(out["outages"])
        failures.append(out["failures"])
        down += float(out["group_down_s"].sum())
        fewer += float(out["fewer_time_s"].sum())
        done += n
        if progress is not None:
            progress(done, config.trials)
    n = config.trials
    return ReplicaResult(
        config=config,
        design=design,
        checkpoint_interval_s=rp.interval_s,
        mtbo_s=rp.mtbo_s,
        ettr=np.concatenate(ettr),
        badput_s={k: v / n for k, v in badput.items()},
        outages=np.concatenate(outages),
        failures=np.concatenate(failures),
        group_down_s=down / n,
        fewer_replicas_s=fewer / n,
    )
