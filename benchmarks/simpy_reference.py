"""A SimPy model of the job `nonstop.sim` simulates, written as a discrete-event engineer would.

Events exist only where something happens: an interruption arrives (one timeout per arrival, per
stream), the downtime after it passes (at most two timeouts and one spare-pool request), an
excluded node comes back from repair. Progress between interruptions is arithmetic, not
simulated: an uptime of `up` seconds holds floor(up / (interval + blocking)) whole compute-and-
save cycles and a rest, so no event is scheduled per checkpoint cycle.

The model terms are nonstop.sim's (docs/simulate.md), resolved by the same `engine.resolve`:

- arrivals: one Poisson stream of every kind's total rate with a kind drawn per event, plus a
  Weibull renewal stream for the unexpected kinds when `weibull_shape` is set;
- an unexpected interruption loses the compute since the last completed save (the whole interval
  when it lands in a save); planned stops and straggler exclusions save first and lose nothing;
- downtime: detection and a manual intervention (by chance), a wait for a spare node (a FIFO
  `simpy.Container`, nodes back `repair_s` after their exclusion), then the checkpoint stall of a
  controlled stop and the recovery (health checks + restart). Ordering the stall after the wait
  gives the vectorised engine's total, detection + manual + max(0, spare - detection - manual) +
  stall + recovery. A new interruption during downtime starts it over;
- stragglers cost min(detection time, uptime) x s / (1 + s) of the work before them; the diurnal
  DVFS term scales productive time by 1 - A/2.

Tests compare its means with `nonstop.sim.simulate` (tests/sim/test_sim_simpy.py) and
benchmarks/bench_simulate.py times both.

    python -c "from benchmarks.simpy_reference import run_trials; \
from nonstop.sim import SimConfig; print(run_trials(SimConfig(gpus=1024, days=5), 3))"
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from typing import Any

import numpy as np
import simpy

from nonstop.sim import SimConfig, engine


class _Job:
    """One trial's job: a process that is down, then up until the next interrupt."""

    def __init__(self, env: simpy.Environment, p: engine._Params, rng: np.random.Generator):
        self.env, self.p, self.rng = env, p, rng
        self.spares = (
            None if p.spares is None else simpy.Container(env, init=p.spares, capacity=math.inf)
        )
        self.work = self.lost = 0.0
        self.unexpected = 0
        self.up_since: float | None = None  # None while down
        self.never = env.event()  # the job runs until interrupted
        self.proc = env.process(self.run())

    def account(self, up: float, kind: int) -> None:
        """Credit `up` seconds of uptime ended by an event of this kind, arithmetically."""
        p = self.p
        cycle = p.interval_s + p.blocking_s
        cycles = math.floor(up / cycle)
        rest = up - cycles * cycle
        partial = min(rest, p.interval_s)  # compute since the last completed save
        lost = partial if kind < engine.N_CAT else 0.0
        work = up - cycles * p.blocking_s - (rest - partial) - lost
        if kind == engine.STRAGGLER:
            work -= min(min(p.straggler_s, up) * p.straggler_cost, work)
        self.work += work
        self.lost += lost

    def interruption(self, kind: int) -> tuple[float, simpy.Event | None, float]:
        """Account the uptime that ends now; return the downtime (before, spare, after)."""
        p = self.p
        if self.up_since is not None:
            self.account(self.env.now - self.up_since, kind)
            self.up_since = None
        if kind < engine.N_CAT:
            self.unexpected += 1
        manual = p.manual_s if self.rng.random() < p.manual_p[kind] else 0.0
        request = None
        if self.spares is not None and p.exclusion[kind]:
            request = self.spares.get(1)  # asked at once, served first come, first served
            self.env.process(self.repair())
        stall = p.blocking_s if p.controlled[kind] else 0.0
        return float(p.detect_s[kind]) + manual, request, stall + float(p.recovery_s[kind])

    def repair(self) -> Generator[simpy.Event, Any, None]:
        yield self.env.timeout(self.p.repair_s)
        assert self.spares is not None
        yield self.spares.put(1)

    def run(self) -> Generator[simpy.Event, Any, None]:
        env = self.env
        before, request, after = self.p.startup_s, None, 0.0
        while True:
            try:
                if before > 0:
                    yield env.timeout(before)
                if request is not None:
                    yield request
                if after > 0:
                    yield env.timeout(after)
                self.up_since = env.now
                yield self.never
            except simpy.Interrupt as stop:
                before, request, after = self.interruption(stop.cause)

    def finish(self) -> None:
        """At the window's end the compute in flight counts: the job goes on."""
        if self.up_since is not None:
            self.account(self.p.duration_s - self.up_since, engine.END)


def _arrivals(
    env: simpy.Environment,
    job: _Job,
    rng: np.random.Generator,
    cum: np.ndarray,
    gap: Callable[[], float],
) -> Generator[simpy.Event, Any, None]:
    """One interruption stream: wait a gap, interrupt the job with a kind drawn from `cum`."""
    while True:
        yield env.timeout(gap())
        kind = int(np.searchsorted(cum, rng.random(), side="right"))
        job.proc.interrupt(min(kind, len(cum) - 1))  # cum[-1] may round to just below 1


def run_trial(config: SimConfig, seed: int, p: engine._Params | None = None) -> dict[str, float]:
    """One trial: ETTR, unexpected interruptions and lost work."""
    p = engine.resolve(config) if p is None else p
    rng = np.random.default_rng(seed)
    env = simpy.Environment()
    job = _Job(env, p, rng)
    rate = p.rate_per_s.copy()
    unexpected = rate[: engine.N_CAT].sum()
    if p.weibull_shape is not None and unexpected > 0:
        k = p.weibull_shape
        scale = 1.0 / (unexpected * math.gamma(1.0 + 1.0 / k))  # mean gap 1 / rate
        cum = np.cumsum(rate[: engine.N_CAT]) / unexpected
        env.process(_arrivals(env, job, rng, cum, lambda: scale * rng.weibull(k)))
        rate[: engine.N_CAT] = 0.0
    total = rate.sum()
    if total > 0:
        cum = np.cumsum(rate) / total
        env.process(_arrivals(env, job, rng, cum, lambda: rng.exponential(1.0 / total)))
    env.run(until=p.duration_s)
    job.finish()
    productive = job.work * (1.0 - p.thermal_loss)
    return {
        "ettr": productive / p.duration_s,
        "interruptions": float(job.unexpected),
        "lost_progress": job.lost,
    }


def run_trials(config: SimConfig, trials: int, seed: int = 12345) -> dict[str, np.ndarray]:
    """`trials` independent trials; arrays of ETTR, interruptions and lost work."""
    p = engine.resolve(config)
    rows = [run_trial(config, seed + i, p) for i in range(trials)]
    return {k: np.array([r[k] for r in rows]) for k in rows[0]}
