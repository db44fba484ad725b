"""How often the in-memory snapshot is taken: every N steps, or `auto` within a cost budget.

A snapshot at every step makes a restart redo no step, and costs CPU at every step: collecting
the state, packing it, the background copy, the digest and the hand-over to the replica server
(docs/checkpoint.md, "In-memory replicas"). Where a step is long (a GPU step of seconds) that
cost is a fraction of a percent and every step is right; where steps are short and the host's
cores are busy training (CPU training, a small model), the same cost is several percent of every
step. `auto` measures it and chooses the cadence, again and again:

1. The first `WARMUP` snapshots are taken and not measured (buffers allocated, files created,
   hooks registered); from then on every snapshot's CPU seconds are measured on the training
   thread and on the background thread (`time.thread_time`, so a thread waiting is not
   counted), and so is the wall time between calls of `maybe_save` (a step).
2. At the `FIRST`-th call, after `PROBE` measured snapshots, and then at every `REVIEW`-th call,
   every rank calls `settle` (the ranks call `maybe_save` at every step, so they agree on which
   calls these are), and one collective gives every rank every rank's medians since the last
   choice. Every rank computes the same interval from them:

       every = ceil(max over ranks of the median snapshot CPU seconds
                    / (budget x median step seconds)),  within [1, MAX_EVERY]

   A snapshot every `every` steps then costs at most `budget` of a step's time on average, and a
   restart redoes at most `every - 1` steps (the snapshot's step is agreed by all ranks, so a
   restart never loads a torn set). Choosing again follows a run whose first steps were slow
   (standbys starting beside it, allocators warming up) or whose steps change later.
3. The first choice, and every one that changes the interval, is logged and emitted as a
   `checkpoint` event with phase `cadence`.

`BUDGET` is a fraction of the step's wall time in CPU seconds: on this project's 2-core CI
machine, where two CPU ranks fill both cores, a snapshot's wall cost to the step measured about
2x its CPU time (benchmarks/bench_overhead.py), so 1% of CPU keeps the wall cost near 2%.

The clock is passed in, never read here except `time.thread_time` through `cpu`: tests drive
both by hand.
"""

from __future__ import annotations

import math
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

AUTO: Final = "auto"
WARMUP: Final = 5
"""Snapshots taken before measuring (one-time costs: buffers, files, hooks)."""
PROBE: Final = 8
"""Snapshots measured before the first choice."""
REVIEW: Final = 20
"""Calls of `maybe_save` between later choices, each from what was measured since the last."""
BUDGET: Final = 0.01
"""A snapshot's CPU seconds as a fraction of a step's wall seconds, averaged over the cadence."""
MAX_EVERY: Final = 20
"""The longest interval `auto` chooses: at most 19 steps redone after a crash, and at least one
snapshot measured between two choices."""
FIRST: Final = WARMUP + PROBE + 1
"""The call of `maybe_save` at which the first choice is made."""

Every = int | Literal["auto"]


def parse_every(text: str | int, *, name: str = "memory_every_steps") -> Every:
    """`auto` or an integer >= 0 (0: off), from a flag, an environment variable or a config."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise ValueError(f"{name} must be an integer >= 0 or 'auto', got {text!r}")
        return text
    raw = str(text).strip().lower()
    if raw == AUTO:
        return AUTO
    if not raw.isdigit():
        raise ValueError(f"{name} must be an integer >= 0 or 'auto', got {text!r}")
    return int(raw)


def choose_every(
    costs_s: Sequence[float], steps_s: Sequence[float], *, budget: float = BUDGET
) -> int:
    """The interval that keeps the snapshot within `budget` of the step: the largest of the
    ranks' medians of snapshot CPU seconds over the ranks' median step seconds. No rank took a
    snapshot (no node has a replica server): the longest, since each due step still costs a
    fingerprint of the replicas for nothing; no step measured: every step."""
    if not costs_s or not max(costs_s) > 0:
        return MAX_EVERY
    if not steps_s or not budget > 0:
        return 1
    cost, step = max(costs_s), statistics.median(steps_s)
    if not step > 0:
        return 1
    return max(1, min(MAX_EVERY, math.ceil(round(cost / (budget * step), 6))))


class Cadence:
    """Which steps get a snapshot; with `auto`, measured and agreed across ranks again and again."""

    def __init__(
        self,
        every: Every,
        *,
        clock: Callable[[], float] = time.monotonic,
        cpu: Callable[[], float] = time.thread_time,
        budget: float = BUDGET,
    ) -> None:
        if every == AUTO:
            self.auto, self.every = True, 1  # every step until the first choice
        else:
            assert isinstance(every, int) and every > 0, every
            self.auto, self.every = False, every
        self.budget = budget
        self._clock, self.cpu = clock, cpu
        self.calls = 0
        self.choices = 0
        self._last_call: float | None = None
        self._step_s: list[float] = []  # wall seconds between calls since the last choice
        self._taken = 0  # snapshots begun
        self._since = WARMUP  # the first snapshot number of this window
        self._train_cpu: dict[int, float] = {}  # snapshot number -> training thread's seconds
        self._back_cpu: dict[int, float] = {}  # ... -> background thread's seconds
        self._lock = threading.Lock()
        self._last_cost = 0.0  # the previous window's, for a window without a snapshot
        self.chosen: dict[str, Any] | None = None

    def due(self, step: int) -> bool:
        return step % self.every == 0

    def tick(self) -> bool:
        """Called once per `maybe_save` (every rank, every step), before anything else: True
        when this call is one at which every rank chooses (then call `settle`): the FIRST-th,
        then every REVIEW-th after it. Every rank counts the same calls."""
        self.calls += 1
        now = self._clock()
        if self.auto and self._last_call is not None and self._taken >= WARMUP:
            self._step_s.append(now - self._last_call)
        self._last_call = now
        return self.auto and self.calls >= FIRST and (self.calls - FIRST) % REVIEW == 0

    def begun(self) -> int | None:
        """A snapshot begins: its number if it is measured, else None."""
        n, self._taken = self._taken, self._taken + 1
        return n if self.auto and n >= WARMUP else None

    def add_cpu(self, n: int | None, seconds: float, *, background: bool) -> None:
        """CPU seconds that snapshot `n` took on one thread (any thread may call this)."""
        if n is None:
            return
        with self._lock:
            table = self._back_cpu if background else self._train_cpu
            table[n] = table.get(n, 0.0) + seconds

    def mine(self) -> tuple[float, float]:
        """This rank's (median snapshot CPU seconds, median step seconds) since the last choice;
        the cost of the window before when none was taken since, zeros before any."""
        with self._lock:
            costs = [
                c + self._back_cpu.get(n, 0.0)
                for n, c in self._train_cpu.items()
                if n >= self._since
            ]
        cost = statistics.median(costs) if costs else self._last_cost
        step = statistics.median(self._step_s) if self._step_s else 0.0
        return cost, step

    def settle(self, figures: Sequence[tuple[float, float]], step: int) -> dict[str, Any] | None:
        """Choose from every rank's `mine()` (the same list on every rank), and start a new
        window. What it was chosen from, for the event, when this is the first choice or the
        interval changed; else None."""
        costs = [c for c, _ in figures]
        steps = [s for _, s in figures if s > 0]
        every = choose_every(costs, steps, budget=self.budget)
        self._last_cost = self.mine()[0]
        with self._lock:  # a new window: what was measured before it is done with
            self._since = self._taken
            self._train_cpu = {n: c for n, c in self._train_cpu.items() if n >= self._since}
            self._back_cpu = {n: c for n, c in self._back_cpu.items() if n >= self._since}
        self._step_s.clear()
        self.choices += 1
        if every == self.every and self.choices > 1:
            return None
        self.every = every
        self.chosen = {
            "step": step,
            "every": every,
            "snapshot_cpu_s": round(max(costs), 6) if costs else 0.0,
            "step_s": round(statistics.median(steps), 6) if steps else 0.0,
            "budget": self.budget,
            "choice": self.choices,
        }
        return self.chosen
