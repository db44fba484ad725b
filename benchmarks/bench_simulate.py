"""`nonstop simulate` against a SimPy model of the same job: seconds per trial, same trials.

    python benchmarks/run.py simulate [--quick] [--json]

The job is Llama 3's (16,384 GPUs, 54 days, default calibration). Each repetition times 1,000
trials of ours (vectorised) and 1,000 trials of benchmarks/simpy_reference.py (a discrete-event
model with events only for interruptions and progress computed arithmetically between them;
the same model terms, resolved by the same `engine.resolve`), interleaved A B A B over 5
repetitions (--quick: 100 trials, 2 repetitions). `ours` and `peer` are medians of seconds per
trial; the ratio's spread is a paired bootstrap interval.

Agreement is an estimate, not a test: `ettr_diff` is mean ETTR ours - SimPy over the first
repetition's trials, with a 95% normal (Welch) interval and a 95% bootstrap interval of the
difference of means. Also timed once: 1,000 trials of 100,000 GPUs over a year (ours only).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks import stats
from benchmarks.simpy_reference import run_trials
from nonstop.sim import SimConfig, simulate


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def diff_ci(a: np.ndarray, b: np.ndarray, *, n: int = 2000, seed: int = 0) -> dict[str, Any]:
    """mean(a) - mean(b) with a 95% normal (Welch) and a 95% percentile bootstrap interval."""
    d = float(a.mean() - b.mean())
    se = float(np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)))
    rng = np.random.default_rng(seed)
    boot = a[rng.integers(0, len(a), (n, len(a)))].mean(axis=1) - b[
        rng.integers(0, len(b), (n, len(b)))
    ].mean(axis=1)
    lo, hi = np.quantile(boot, [0.025, 0.975])
    return {
        "diff": d,
        "normal_ci95": [d - 1.96 * se, d + 1.96 * se],
        "bootstrap_ci95": [float(lo), float(hi)],
        "se": se,
    }


def run(quick: bool) -> dict:
    trials = 100 if quick else 1000
    llama = SimConfig(gpus=16_384, days=54.0, trials=trials)
    k = stats.reps(quick)
    ours_s: list[float] = []
    peer_s: list[float] = []
    first: dict[str, Any] = {}
    simulate(llama.with_(trials=10))  # warm-up, untimed: imports and first-call caches
    run_trials(llama, 2, seed=1)
    for i in range(k):  # interleaved: drift on a shared machine falls on both alike
        o, t_o = _timed(lambda i=i: simulate(llama.with_(seed=llama.seed + i)))
        p, t_p = _timed(lambda i=i: run_trials(llama, trials, seed=1000 + i * trials))
        ours_s.append(t_o / trials)
        peer_s.append(t_p / trials)
        if i == 0:
            first = {"ours": o, "peer": p}
    o, p = first["ours"], first["peer"]
    agree = diff_ci(np.asarray(o.ettr, float), np.asarray(p["ettr"], float))
    big = SimConfig(gpus=100_000, days=365.0, trials=100 if quick else 1000)
    big_result, big_s = _timed(lambda: simulate(big))
    return stats.summarize(
        ours_s,
        peer_s,
        name="simulate",
        unit="s/trial",
        peer_name="simpy (events only for interruptions)",
        better="lower",
        paired=True,
        trials=trials,
        ettr_ours=float(o.ettr.mean()),
        ettr_simpy=float(p["ettr"].mean()),
        ettr_diff=agree,
        interruptions_ours=float(o.interruptions.mean()),
        interruptions_simpy=float(p["interruptions"].mean()),
        **{f"ours_{big.trials}_trials_100k_365d_s": round(big_s, 3)},
        ettr_100k_365d=float(big_result.ettr.mean()),
        load=os.getloadavg(),
    )
