"""`simulate(config) -> SimResult`: run the trials block by block and summarise them.

    >>> from nonstop.sim import SimConfig, simulate
    >>> r = simulate(SimConfig(gpus=16_384, trials=200))
    >>> bool(380 < r.interruptions.mean() < 460)  # Llama 3: 419 unexpected in 54 days
    True

`SimResult.to_dict()` is what `nonstop simulate --json` prints.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from nonstop import taxonomy
from nonstop.errors import UserError
from nonstop.sim import engine
from nonstop.sim.config import SimConfig
from nonstop.sim.interval import daly_interval_s, waste_fraction, young_interval_s

__all__ = ["SimResult", "simulate"]

Progress = Callable[[int, int], None]
"""Called after each block with (trials done, trials in all)."""


@dataclass(frozen=True)
class SimResult:
    """Per-trial outcomes of a simulation and the means the CLI prints."""

    config: SimConfig
    checkpoint_interval_s: float
    """Interval the simulated job used (the configured one, or Daly's optimum)."""
    ettr: np.ndarray
    """Effective training time ratio per trial: surviving productive time over wall time."""
    interruptions: np.ndarray
    """Unexpected interruptions per trial (what Llama 3's Table 5 counts)."""
    counts: np.ndarray
    """Events per trial and kind, shape (trials, engine.N_KIND)."""
    badput_s: dict[str, float]
    """Mean seconds per trial of each badput kind (engine.BADPUT_KINDS)."""
    badput_by_event_s: dict[str, float]
    """Mean seconds per trial lost to each kind of event: lost work plus its downtime."""
    long_stalls: float
    """Mean stops per trial that waited for a human or a spare node (hours, not minutes)."""

    @property
    def mtbi_s(self) -> float:
        """Mean time between unexpected interruptions of this job (model input)."""
        return self.config.mtbi_s()

    @property
    def optimal_checkpoint_interval_s(self) -> float | None:
        """Daly's optimum for this job's blocking time and MTBI; None without failures."""
        mtbi = self.mtbi_s
        if math.isinf(mtbi):
            return None
        return daly_interval_s(self.config.checkpoint_blocking_s, mtbi)

    def by_category(self) -> dict[str, float]:
        """Mean unexpected interruptions per trial by taxonomy id (non-zero ones)."""
        means = self.counts[:, : engine.N_CAT].mean(axis=0)
        return {c: float(v) for c, v in zip(taxonomy.IDS, means, strict=True) if v > 0}

    def first_order_ettr(self) -> float | None:
        """1 - Daly/Young first-order waste for this job (planned stops and spares excluded)."""
        mtbi = self.mtbi_s
        if math.isinf(mtbi):
            return None
        c = self.config
        tau = self.checkpoint_interval_s
        restart = c.detection_s + c.health_check_s + c.restart_s
        return 1.0 - waste_fraction(tau, c.checkpoint_blocking_s, mtbi, restart)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready summary (the `--json` output)."""
        c = self.config

        def q(x: np.ndarray, pct: float) -> float:
            return float(np.percentile(x, pct))

        opt = self.optimal_checkpoint_interval_s
        mtbi = self.mtbi_s
        fo = self.first_order_ettr()
        return {
            "gpus": c.gpus,
            "nodes": c.nodes,
            "days": c.days,
            "trials": c.trials,
            "seed": c.seed,
            "interruptions_mean": float(self.interruptions.mean()),
            "interruptions_p5": q(self.interruptions, 5),
            "interruptions_p95": q(self.interruptions, 95),
            "by_category": self.by_category(),
            "planned_mean": float(self.counts[:, engine.PLANNED].mean()),
            "straggler_exclusions_mean": float(self.counts[:, engine.STRAGGLER].mean()),
            "ettr_mean": float(self.ettr.mean()),
            "ettr_p5": q(self.ettr, 5),
            "ettr_p95": q(self.ettr, 95),
            "badput_s": dict(self.badput_s),
            "badput_by_category_s": dict(self.badput_by_event_s),
            "checkpoint_interval_s": self.checkpoint_interval_s,
            "optimal_checkpoint_interval_s": opt,
            "young_interval_s": None
            if math.isinf(mtbi)
            else young_interval_s(c.checkpoint_blocking_s, mtbi),
            "mtbi_s": None if math.isinf(mtbi) else mtbi,
            "first_order_ettr": fo,
        }


MAX_EVENTS_PER_TRIAL = 5e6
"""Beyond this a trial's arrival times alone would take hundreds of MB (100k GPUs for 100
years is about 1e6)."""


def expected_events(config: SimConfig) -> float:
    """Events one trial is expected to draw (interruptions, planned stops, stragglers)."""
    p = engine.resolve(config)
    return float(p.rate_per_s.sum() * p.duration_s)


def simulate(config: SimConfig, progress: Progress | None = None) -> SimResult:
    """Run `config.trials` trials of the job and summarise them. Deterministic in config.seed."""
    p = engine.resolve(config)
    expected = expected_events(config)
    if expected > MAX_EVENTS_PER_TRIAL:
        raise UserError(
            f"one trial would draw about {expected:.3g} interruptions ({config.gpus} GPUs over "
            f"{config.days:g} days); the simulator handles up to {MAX_EVENTS_PER_TRIAL:.0e} per "
            "trial: shorten --days or lower the failure rate"
        )
    rng = np.random.default_rng(config.seed)
    per_block = engine.block_trials(p)
    ettr: list[np.ndarray] = []
    counts: list[np.ndarray] = []
    badput = dict.fromkeys(engine.BADPUT_KINDS, 0.0)
    by_event = np.zeros(engine.N_KIND)
    long_stalls = 0
    done = 0
    while done < config.trials:
        m = min(per_block, config.trials - done)
        out = engine.block(p, m, rng)
        ettr.append(out["productive"] / p.duration_s)
        counts.append(out["counts"])
        for k in badput:
            badput[k] += float(out[k].sum())
        by_event += out["cat_badput"]
        long_stalls += int(out["long_stalls"].sum())
        done += m
        if progress is not None:
            progress(done, config.trials)
    n = config.trials
    all_counts = np.concatenate(counts)
    names = (*taxonomy.IDS, "planned", "straggler")
    return SimResult(
        config=config,
        checkpoint_interval_s=p.interval_s,
        ettr=np.concatenate(ettr),
        interruptions=all_counts[:, : engine.N_CAT].sum(axis=1),
        counts=all_counts,
        badput_s={k: v / n for k, v in badput.items()},
        badput_by_event_s={k: float(v) / n for k, v in zip(names, by_event) if v > 0},
        long_stalls=long_stalls / n,
    )
