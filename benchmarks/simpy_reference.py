"""A straightforward SimPy model of the job `nonstop.sim` simulates: the reference it must match.

One SimPy process per trial runs the job (compute `interval`, save `blocking`, repeat); arrival
processes interrupt it; the downtime after each interruption is a sequence of timeouts and a wait
on a FIFO spare-node container. Nothing is vectorised: it is the model written the obvious way,
slow and easy to check. Tests compare its means with `nonstop.sim.simulate` (t-tests) and
benchmarks/bench_simulate.py times both.

Stragglers and the diurnal DVFS term are left out: they are simple additive terms in the
vectorised model and tested in closed form there.

    python -c "from benchmarks.simpy_reference import run_trials; \
from nonstop.sim import SimConfig; print(run_trials(SimConfig(gpus=1024, days=5), 3))"
"""

from __future__ import annotations

import math

import numpy as np
import simpy

from nonstop.sim import SimConfig, engine

_RUN, _DOWN = "run", "down"


class _Job:
    def __init__(self, env: simpy.Environment, p: engine._Params, rng: np.random.Generator):
        self.env, self.p, self.rng = env, p, rng
        self.spares = (
            None if p.spares is None else simpy.Container(env, init=p.spares, capacity=math.inf)
        )
        self.productive = self.lost = 0.0
        self.unexpected = 0
        self.phase = _DOWN
        self.cycle_start = 0.0  # start of the current compute (or save) in the RUN phase
        self.saving = False
        self.proc = env.process(self.run())

    def downtime(self, kind: int) -> list[tuple[str, float]]:
        """The downtime after an event of this kind, and ask the spare pool at once."""
        p = self.p
        manual = p.manual_s if self.rng.random() < p.manual_p[kind] else 0.0
        steps: list[tuple[str, float]] = [
            ("t", p.blocking_s if p.controlled[kind] else 0.0),
            ("t", float(p.detect_s[kind])),
            ("t", manual),
        ]
        if self.spares is not None and p.exclusion[kind]:
            request = self.spares.get(1)
            self.env.process(self.repair())
            steps.append(("spare", 0.0))
            self.request = request
        steps.append(("t", float(p.recovery_s[kind])))
        return steps

    def repair(self):  # type: ignore[no-untyped-def]
        yield self.env.timeout(self.p.repair_s)
        assert self.spares is not None
        yield self.spares.put(1)

    def on_event(self, kind: int) -> list[tuple[str, float]]:
        """Account the work at an interruption and return the downtime to serve."""
        if self.phase == _RUN:
            done = self.env.now - self.cycle_start
            compute = self.p.interval_s if self.saving else done
            if kind < engine.N_CAT:
                self.lost += compute
            else:
                self.productive += compute
        if kind < engine.N_CAT:
            self.unexpected += 1
        self.phase = _DOWN
        return self.downtime(kind)

    def run(self):  # type: ignore[no-untyped-def]
        env, p = self.env, self.p
        steps: list[tuple[str, float]] = [("t", p.startup_s)]
        while True:
            try:
                for what, seconds in steps:
                    if what == "spare":
                        yield self.request
                    elif seconds > 0:
                        yield env.timeout(seconds)
                self.phase = _RUN
                while True:
                    self.saving, self.cycle_start = False, env.now
                    yield env.timeout(p.interval_s)
                    self.saving = True
                    if p.blocking_s > 0:
                        yield env.timeout(p.blocking_s)
                    self.productive += p.interval_s
            except simpy.Interrupt as stop:
                steps = self.on_event(stop.cause)

    def finish(self) -> None:
        """At the window's end the compute in flight counts: the job goes on."""
        if self.phase == _RUN:
            done = self.env.now - self.cycle_start
            self.productive += self.p.interval_s if self.saving else done


def _arrivals(env, job, rng, rate, kinds, probs, gap):  # type: ignore[no-untyped-def]
    while True:
        yield env.timeout(gap())
        job.proc.interrupt(int(rng.choice(kinds, p=probs)))


def run_trial(config: SimConfig, seed: int) -> dict[str, float]:
    """One trial: ETTR, unexpected interruptions and lost work."""
    p = engine.resolve(config)
    rng = np.random.default_rng(seed)
    env = simpy.Environment()
    job = _Job(env, p, rng)
    rate = p.rate_per_s.copy()
    rate[engine.STRAGGLER] = 0.0
    unexpected = rate[: engine.N_CAT].sum()
    kinds = np.arange(engine.N_KIND)
    if p.weibull_shape is not None and unexpected > 0:
        k = p.weibull_shape
        scale = 1.0 / (unexpected * math.gamma(1.0 + 1.0 / k))
        probs = np.where(kinds < engine.N_CAT, rate, 0.0) / unexpected
        env.process(
            _arrivals(env, job, rng, unexpected, kinds, probs, lambda: scale * rng.weibull(k))
        )
        rate[: engine.N_CAT] = 0.0
    total = rate.sum()
    if total > 0:
        env.process(
            _arrivals(env, job, rng, total, kinds, rate / total, lambda: rng.exponential(1 / total))
        )
    env.run(until=p.duration_s)
    job.finish()
    productive = job.productive * (1.0 - p.thermal_loss)
    return {
        "ettr": productive / p.duration_s,
        "interruptions": float(job.unexpected),
        "lost_progress": job.lost,
    }


def run_trials(config: SimConfig, trials: int, seed: int = 12345) -> dict[str, np.ndarray]:
    """`trials` independent trials; arrays of ETTR, interruptions and lost work."""
    rows = [run_trial(config, seed + i) for i in range(trials)]
    return {k: np.array([r[k] for r in rows]) for k in rows[0]}
