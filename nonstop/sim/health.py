"""Silent data corruption and loss spikes: detection latency, rollback cost, and the trade
between the fingerprint interval and wasted compute (`nonstop simulate --health`).

The model follows what nonstop's guards do (docs/health.md):

- every step pays the guards' all-reduce (`guard_s`), and every K steps one fingerprint of the
  parameters (`fingerprint_s`): an overhead of (guard_s + fingerprint_s / K) / step_s;
- a silent corruption at time t is detected at the next fingerprint check or the next
  checkpoint, whichever comes first (every save verifies the replicas first), so no checkpoint
  after t exists; the job rolls back to the last checkpoint before t and loses the work from it
  to the detection, plus a restart (`restart_s`);
- a loss spike is detected at its own step; the rollback loses the work since the last
  checkpoint plus a restart; the skipped batches cost data, not compute.

Corruptions and spikes arrive as Poisson processes (SDC per node-day, default Llama 3's 6 in 54
days on 2,048 nodes; spikes per job-day). A Monte Carlo over `trials` jobs gives the wasted
fraction's mean and spread at each K; the first-order optimum is
K* = sqrt(2 fingerprint_s / (rate x step_s^2)). NumPy only, no torch.

    >>> r = simulate_health(HealthConfig(gpus=16_384, trials=200))
    >>> r["k_star"] > 1 and 0 < r["at_k"]["wasted_fraction"] < 0.01
    True
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from nonstop import taxonomy

DAY_S = 86_400.0
# Llama 3 (arXiv:2407.21783, Table 5): 6 silent data corruptions in 54 days on 2,048 nodes
LLAMA3_SDC_PER_NODE_DAY = 6 / (taxonomy.SNAPSHOT_GPUS / taxonomy.SNAPSHOT_GPUS_PER_NODE * 54)
SWEEP_K = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


@dataclass(frozen=True, kw_only=True)
class HealthConfig:
    """One job's exposure to SDC and loss spikes, and the guards' costs (seconds)."""

    gpus: int
    """GPUs in the job."""
    gpus_per_node: int = taxonomy.SNAPSHOT_GPUS_PER_NODE
    """GPUs per node (SDC rates are per node-day)."""
    days: float = 54.0
    """Wall-clock window."""
    step_s: float = 5.0
    """Seconds per optimizer step."""
    sdc_per_node_day: float = LLAMA3_SDC_PER_NODE_DAY
    """Silent data corruptions per node-day (Llama 3: 6 / (2,048 x 54))."""
    spikes_per_day: float = 0.0
    """Loss spikes per job-day (PaLM 540B: ~20 over its run)."""
    fingerprint_every: int = 10
    """K: steps between fingerprint checks (0: only before checkpoints)."""
    fingerprint_s: float = 0.01
    """Seconds per fingerprint of one replica's parameters (bench_guards.py measures it)."""
    guard_s: float = 0.0005
    """Seconds per step of the guards' all-reduce and decision."""
    checkpoint_interval_s: float = 1800.0
    """Seconds between checkpoints (the rollback target)."""
    restart_s: float = 300.0
    """Seconds from a detection to training again (restart and load)."""
    trials: int = 1000
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("gpus", "gpus_per_node", "trials"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)!r}")
        if self.fingerprint_every < 0:
            raise ValueError(f"fingerprint_every must be >= 0, got {self.fingerprint_every!r}")
        for name in ("days", "step_s", "checkpoint_interval_s"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a positive number, got {v!r}")
        for name in ("sdc_per_node_day", "spikes_per_day", "fingerprint_s", "guard_s", "restart_s"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v >= 0):
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed!r}")

    @property
    def sdc_rate_s(self) -> float:
        """Job-level SDC arrivals per second."""
        return self.sdc_per_node_day * math.ceil(self.gpus / self.gpus_per_node) / DAY_S


def _latency(t: np.ndarray, check_s: float | None, ckpt_s: float) -> np.ndarray:
    """Seconds from t to the next check: the next fingerprint or the next checkpoint."""
    to_ckpt = ckpt_s - np.mod(t, ckpt_s)
    if check_s is None:
        return to_ckpt
    return np.minimum(check_s - np.mod(t, check_s), to_ckpt)


def _trial_waste(c: HealthConfig, k: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Per trial: seconds wasted by SDC rollbacks, by spike rollbacks, and the detection
    latencies (seconds) of every SDC."""
    window = c.days * DAY_S
    check_s = c.step_s * k if k > 0 else None
    out = {}
    for name, rate in (("sdc", c.sdc_rate_s), ("spike", c.spikes_per_day / DAY_S)):
        n = rng.poisson(rate * window, size=c.trials)
        t = rng.uniform(0, window, size=int(n.sum()))
        since_ckpt = np.mod(t, c.checkpoint_interval_s)
        if name == "sdc":
            latency = _latency(t, check_s, c.checkpoint_interval_s)
            out["latency"] = latency
        else:
            latency = np.full_like(t, c.step_s)  # detected at the end of its own step
        waste = since_ckpt + latency + c.restart_s
        trial = np.repeat(np.arange(c.trials), n)
        out[name] = np.bincount(trial, weights=waste, minlength=c.trials)
    return out


def simulate_health(c: HealthConfig) -> dict[str, Any]:
    """The wasted fraction at K = c.fingerprint_every, a sweep over K, and K*."""
    window = c.days * DAY_S

    def at(k: int) -> dict[str, Any]:
        # the same arrivals at every K (common random numbers): differences are K's alone
        w = _trial_waste(c, k, np.random.default_rng(c.seed))
        overhead = (c.guard_s + (c.fingerprint_s / k if k > 0 else 0.0)) / c.step_s
        wasted = overhead + (w["sdc"] + w["spike"]) / window
        lat = w["latency"]
        return {
            "fingerprint_every": k,
            "overhead_fraction": overhead,
            "sdc_rollback_fraction": float(np.mean(w["sdc"]) / window),
            "spike_rollback_fraction": float(np.mean(w["spike"]) / window),
            "wasted_fraction": float(np.mean(wasted)),
            "wasted_p95": float(np.quantile(wasted, 0.95)),
            "detection_latency_s": float(np.mean(lat)) if lat.size else None,
            "detection_latency_p95_s": float(np.quantile(lat, 0.95)) if lat.size else None,
        }

    rate = c.sdc_rate_s
    k_star = math.sqrt(2 * c.fingerprint_s / (rate * c.step_s**2)) if rate > 0 else math.inf
    sweep = [at(k) for k in SWEEP_K]
    best = min(sweep, key=lambda r: r["wasted_fraction"])
    return {
        "config": asdict(c),
        "sdc_expected": rate * window,
        "spikes_expected": c.spikes_per_day * c.days,
        "at_k": at(c.fingerprint_every),
        "only_at_checkpoints": at(0),
        "sweep": sweep,
        "best_k": best["fingerprint_every"],
        "k_star": k_star,
    }
