"""Goodput accounting: where every second of wall time went (definitions in docs/goodput.md).

ETTR (effective training time ratio) = productive time / wall time. Wall time is split exactly,
with no overlap and no gap, into productive time and named badput:

    startup          first attempt: start of the job to its first step
    checkpoint       training blocked by checkpoint saves
    lost_progress    steps (and the partial step) whose progress was rolled back and redone
    detection        from the fault to its detection
    recovery         from detection to the next attempt's first step (teardown, health checks,
                     restart, rendezvous, checkpoint load)
    planned          a planned interruption (drain, restart, preemption): from the stop request
                     to the next attempt's first step, requeue wait included
    network          time of slow steps above the ideal step time while the network was out
                     and came back by itself (a healed outage: no restart, nothing redone)
    straggler        time of slow steps above the run's ideal step time
    idle             everything else: gaps between steps, shutdown, the supervisor being down

A step instance survives when no later instance has the same or a lower step number: a restart
is seen as repeated step numbers (as in Google's goodput library), so the accounting needs no
knowledge of checkpoints. Where intervals overlap the more specific label wins, in PRIORITY order.

Standard library only; `account()` is a pure function of a `Timeline`, tested on hand-made ones.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

BADPUT = (
    "startup",
    "checkpoint",
    "lost_progress",
    "detection",
    "recovery",
    "planned",
    "network",
    "straggler",
    "idle",
)
# Highest priority first: a checkpoint save inside a step's span is checkpoint, not productive.
PRIORITY = (
    "checkpoint",
    "detection",
    "recovery",
    "lost_progress",
    "network",
    "straggler",
    "productive",
    "planned",
    "startup",
)
MAD_K = 3.0  # steps slower than median + 3 MAD are stragglers (Google ml-goodput-measurement)
MAD_SCALE = 1.4826  # MAD of a normal distribution's sigma


@dataclass(frozen=True)
class AttemptSpan:
    attempt: int
    start: float
    end: float
    failed: bool = False
    fault_time: float | None = None
    """When the failure happened (last progress); None: unknown, taken as the last step's end."""
    detect_time: float | None = None
    """When it was detected; None: unknown, taken as the attempt's end."""
    planned: bool = False
    """Ended by a planned interruption; `fault_time` is then when the stop was requested."""


@dataclass(frozen=True)
class StepSpan:
    attempt: int
    step: int
    start: float
    end: float


@dataclass(frozen=True)
class Timeline:
    attempts: list[AttemptSpan]
    steps: list[StepSpan]
    checkpoint_blocks: list[tuple[float, float]] = field(default_factory=list)
    """(start, end) of each interval in which training was blocked by a save."""
    end: float | None = None
    """End of the run's wall window; defaults to the last attempt's end."""
    stalls: list[tuple[float, float]] = field(default_factory=list)
    """(start, end) of each network outage that healed by itself: the job's last progress
    before it to that plus the stall; a slow step inside one is `network`, not `straggler`."""


@dataclass
class Goodput:
    wall_s: float
    productive_s: float
    badput_s: dict[str, float]
    steps_total: int
    steps_lost: int
    final_step: int | None
    ideal_step_s: float | None

    @property
    def ettr(self) -> float:
        return self.productive_s / self.wall_s if self.wall_s > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "ettr": self.ettr,
            "wall_s": self.wall_s,
            "productive_s": self.productive_s,
            "badput_s": dict(self.badput_s),
            "steps_total": self.steps_total,
            "steps_lost": self.steps_lost,
            "final_step": self.final_step,
            "ideal_step_s": self.ideal_step_s,
        }


def surviving(steps: list[StepSpan]) -> list[bool]:
    """For steps in time order: True where the step's progress survived (was never redone)."""
    out = [True] * len(steps)
    min_later = float("inf")
    for i in range(len(steps) - 1, -1, -1):
        out[i] = steps[i].step < min_later
        min_later = min(min_later, steps[i].step)
    return out


def ideal_step_s(durations: Iterable[float]) -> tuple[float, float] | None:
    """(ideal, threshold): the mean of steps at or under median + 3 MAD, and that threshold."""
    d = sorted(durations)
    if not d:
        return None
    med = statistics.median(d)
    mad = statistics.median(abs(x - med) for x in d) * MAD_SCALE
    threshold = med + MAD_K * max(mad, 0.01 * med)  # a floor so that jitter-free runs work
    kept = [x for x in d if x <= threshold]
    return statistics.fmean(kept), threshold


def account(tl: Timeline) -> Goodput:
    """Split the run's wall time into productive time and badput categories (exact sum)."""
    if not tl.attempts:
        return Goodput(0.0, 0.0, dict.fromkeys(BADPUT, 0.0), 0, 0, None, None)
    attempts = sorted(tl.attempts, key=lambda a: a.start)
    run_start = attempts[0].start
    run_end = tl.end if tl.end is not None else max(a.end for a in attempts)
    steps = sorted(tl.steps, key=lambda s: (s.start, s.end))
    alive = surviving(steps)
    ideal = ideal_step_s(s.end - s.start for s, ok in zip(steps, alive) if ok)

    segs: list[tuple[float, float, str]] = []
    for s, ok in zip(steps, alive):
        if not ok:
            segs.append((s.start, s.end, "lost_progress"))
        elif ideal and s.end - s.start > ideal[1]:
            stalled = any(a < s.end and s.start < b for a, b in tl.stalls)
            segs.append((s.start, s.start + ideal[0], "productive"))
            segs.append((s.start + ideal[0], s.end, "network" if stalled else "straggler"))
        else:
            segs.append((s.start, s.end, "productive"))
    segs += [(a, b, "checkpoint") for a, b in tl.checkpoint_blocks]

    by_attempt: dict[int, list[StepSpan]] = {}
    for s in steps:
        by_attempt.setdefault(s.attempt, []).append(s)
    prev_failed = prev_planned = False
    prev_end = run_start
    for i, a in enumerate(attempts):
        mine = by_attempt.get(a.attempt, [])
        first = mine[0].start if mine else a.end
        if i > 0 and (prev_failed or prev_planned):
            # the gap since the interrupted attempt plus this attempt's own start-up
            segs.append((prev_end, first, "recovery" if prev_failed else "planned"))
        else:
            segs.append((a.start, first, "startup"))
        if a.planned and a.fault_time is not None:
            segs.append((a.fault_time, a.end, "planned"))  # the agreed save and the stop
        if a.failed:
            last = max((s.end for s in mine), default=first)
            fault = a.fault_time if a.fault_time is not None else last
            detect = a.detect_time if a.detect_time is not None else a.end
            segs.append((min(last, fault), fault, "lost_progress"))  # the partial step
            segs.append((fault, max(fault, detect), "detection"))
            segs.append((detect, a.end, "recovery"))
        prev_failed, prev_planned, prev_end = a.failed, a.planned, a.end

    totals = _sweep(segs, run_start, run_end)
    productive = totals.pop("productive", 0.0)
    badput = {k: totals.get(k, 0.0) for k in BADPUT}
    badput["idle"] = max(0.0, (run_end - run_start) - productive - sum(badput.values()))
    final = max((s.step for s, ok in zip(steps, alive) if ok), default=None)
    return Goodput(
        wall_s=run_end - run_start,
        productive_s=productive,
        badput_s=badput,
        steps_total=len(steps),
        steps_lost=alive.count(False),
        final_step=final,
        ideal_step_s=ideal[0] if ideal else None,
    )


def _sweep(segs: list[tuple[float, float, str]], lo: float, hi: float) -> dict[str, float]:
    """Total length per label over [lo, hi]; where labels overlap, the higher priority wins."""
    rank = {label: i for i, label in enumerate(PRIORITY)}
    points: list[tuple[float, int, int]] = []  # (time, +1/-1, label rank)
    for a, b, label in segs:
        a, b = max(a, lo), min(b, hi)
        if b > a:
            points.append((a, 1, rank[label]))
            points.append((b, -1, rank[label]))
    points.sort()
    active = [0] * len(PRIORITY)
    totals = [0.0] * len(PRIORITY)
    prev = lo
    for t, delta, r in points:
        if t > prev:
            top = next((i for i, n in enumerate(active) if n > 0), None)
            if top is not None:
                totals[top] += t - prev
            prev = t
        active[r] += delta
    return {PRIORITY[i]: v for i, v in enumerate(totals) if v}
