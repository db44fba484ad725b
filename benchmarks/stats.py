"""Repetition and spread for every benchmark (issue 19, item 10).

Every benchmark repeats its measurement at least `MIN_REPS` times and reports the median with
its spread. The JSON line keeps the harness's keys (`name, ours, peer, peer_name, ratio, unit,
better, limit`) and adds:

- `reps`: how many repetitions each side had;
- `spread`: {"ours": [lo, hi], "peer": [lo, hi], "ratio": [lo, hi]}, where [lo, hi] is the
  range of the repetitions for `ours` and `peer`, and for `ratio` a 95% bootstrap confidence
  interval of median(ours) / median(peer) (or of the median pair ratio when the runs were
  paired, A B A B ...).

numpy does the resampling; the seed is fixed so that a report can be reproduced from its
samples.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

MIN_REPS = 5
QUICK_REPS = 2  # --quick: a smoke run of the benchmark's wiring, not a figure


def reps(quick: bool, full: int = MIN_REPS) -> int:
    """Repetitions for a run: `full` (at least MIN_REPS) unless --quick; NONSTOP_BENCH_REPS
    overrides both (a short run when time is short: the JSON's `reps` says how many)."""
    import os

    from nonstop import envvars

    want = os.environ.get(envvars.BENCH_REPS, "").strip()
    if want.isdigit() and int(want) > 0:
        return int(want)
    return QUICK_REPS if quick else max(MIN_REPS, full)


def span(xs: Sequence[float]) -> list[float]:
    """[min, max] of the repetitions (rounded for the JSON line)."""
    return [round(float(min(xs)), 6), round(float(max(xs)), 6)] if xs else []


def bootstrap_ratio_ci(
    ours: Sequence[float],
    peer: Sequence[float],
    *,
    paired: bool = False,
    level: float = 0.95,
    n: int = 2000,
    seed: int = 0,
) -> list[float]:
    """A percentile bootstrap interval for median(ours) / median(peer).

    paired=True treats ours[i] and peer[i] as one pair (interleaved runs) and resamples pairs,
    bootstrapping the median of the pair ratios; otherwise each side is resampled on its own.
    """
    o, p = np.asarray(ours, dtype=float), np.asarray(peer, dtype=float)
    if len(o) == 0 or len(p) == 0:
        return []
    rng = np.random.default_rng(seed)
    if paired:
        k = min(len(o), len(p))
        r = o[:k] / p[:k]
        idx = rng.integers(0, k, size=(n, k))
        stats = np.median(r[idx], axis=1)
    else:
        io = rng.integers(0, len(o), size=(n, len(o)))
        ip = rng.integers(0, len(p), size=(n, len(p)))
        stats = np.median(o[io], axis=1) / np.median(p[ip], axis=1)
    lo, hi = np.quantile(stats, [(1 - level) / 2, 1 - (1 - level) / 2])
    return [round(float(lo), 4), round(float(hi), 4)]


def summarize(
    ours: Sequence[float],
    peer: Sequence[float] | None,
    *,
    name: str,
    unit: str,
    peer_name: str,
    better: str,
    paired: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The harness's JSON object from the repetitions of each side.

    `ours`/`peer` are medians; `ratio` is ours / peer (the median pair ratio when paired);
    `spread` and `reps` as the module says. A benchmark with no peer passes peer=None.
    """
    o = statistics.median(ours)
    out: dict[str, Any] = {
        "name": name,
        "ours": o,
        "unit": unit,
        "better": better,
        "peer_name": peer_name,
        "reps": len(ours),
        "samples": {"ours": [round(float(x), 6) for x in ours]},
    }
    if peer:
        p = statistics.median(peer)
        if paired:
            k = min(len(ours), len(peer))
            ratio = statistics.median([a / b for a, b in zip(ours[:k], peer[:k], strict=True)])
        else:
            ratio = o / p if p else float("nan")
        out.update(
            peer=p,
            ratio=ratio,
            spread={
                "ours": span(ours),
                "peer": span(peer),
                "ratio": bootstrap_ratio_ci(ours, peer, paired=paired),
            },
        )
        out["samples"]["peer"] = [round(float(x), 6) for x in peer]
        out["reps"] = min(len(ours), len(peer))
    else:
        out.update(peer=None, ratio=None, spread={"ours": span(ours)})
    out.update(extra)
    return out


def repeat(fn: Callable[[], float], k: int) -> list[float]:
    """k measurements of fn()."""
    return [float(fn()) for _ in range(k)]
