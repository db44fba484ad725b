"""Power draw of the simulated job: MW levels, swings, ramp rates, and what mitigations cost.

A synchronous job moves all its GPUs together: when it stalls (checkpoint blocking, a failure,
detection, restart) every GPU drops to idle at once, and when it restarts every GPU jumps back.
Llama 3 (arXiv:2407.21783, section 3.3.4) reports that such swings reach tens of megawatts across
the data center. This module turns a `SimResult` into those figures with per-GPU phase powers:

    nonstop simulate --gpus 16384 --power
    nonstop simulate --gpus 100000 --power --json

Phase powers (per GPU). Only the TDP is published (facts.md: H100, 700 W); the rest are stated
assumptions, each a flag so a user can put in measured values from `nonstop report`:

- compute 650 W: GEMM-bound phases run close to the board's power limit (93% of TDP).
- communication 350 W: exposed collectives keep a few SMs busy and the tensor cores idle.
- idle 100 W: CUDA context resident, clocks up, waiting on a collective or the restart.
- compute share of a step 0.8: the rest is exposed communication.
- host 2,000 W per node, constant: CPUs, NICs, fans (a DGX H100 is rated 10.2 kW at most, of
  which 8 x 700 W are GPUs); it does not swing, so it only shifts the level.

Mitigations: a *staggered restart ramp* brings the GPUs up over `ramp_s` with a synthetic load
before the first step (overlapping the checkpoint load, so it costs energy, not time); a *power
floor* keeps stalled GPUs burning at `floor_w` during short stalls (checkpoint, detection,
recovery), so the job never drops below it; long stalls (manual work, waiting for a spare) ramp
down and up over `ramp_s` instead of burning for hours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from nonstop.sim.result import SimResult

__all__ = ["H100_TDP_W", "PowerConfig", "power_summary"]

H100_TDP_W = 700.0  # facts.md: H100, 700 W TDP (Llama 3 section 3.3.4)

# Badput kinds during which the GPUs sit idle; the others (lost progress, straggler slowdown,
# thermal) are spent computing.
_SHORT_STALLS = ("startup", "checkpoint", "detection", "recovery")
_LONG_STALLS = ("manual", "spare_wait")


@dataclass(frozen=True, kw_only=True)
class PowerConfig:
    """Per-GPU phase powers and mitigation settings (watts and seconds)."""

    compute_w: float = 650.0
    """GPU power in compute phases (assumption: 93% of the 700 W H100 TDP)."""
    comm_w: float = 350.0
    """GPU power in exposed communication phases (assumption)."""
    idle_w: float = 100.0
    """GPU power while the job is stalled (assumption)."""
    compute_fraction: float = 0.8
    """Share of a training step spent in compute; the rest is exposed communication."""
    host_w_per_node: float = 2000.0
    """Non-GPU power per node, constant (assumption)."""
    edge_s: float = 1.0
    """How fast an unmitigated stall or restart moves the power: about one step."""
    ramp_s: float = 60.0
    """Length of the staggered restart ramp (mitigation)."""
    floor_w: float = 450.0
    """Per-GPU power floor held during short stalls (mitigation)."""

    def __post_init__(self) -> None:
        for name in ("compute_w", "comm_w", "idle_w", "host_w_per_node", "floor_w"):
            v = getattr(self, name)
            if not math.isfinite(v) or v < 0:
                raise ValueError(f"PowerConfig.{name} must be a finite number >= 0, got {v!r}")
        for name in ("edge_s", "ramp_s"):
            v = getattr(self, name)
            if not math.isfinite(v) or v <= 0:
                raise ValueError(f"PowerConfig.{name} must be > 0 seconds, got {v!r}")
        if not 0 <= self.compute_fraction <= 1:
            raise ValueError(
                f"PowerConfig.compute_fraction must be in [0, 1], got {self.compute_fraction!r}"
            )
        if not self.idle_w <= self.floor_w <= self.train_w:
            raise ValueError(
                f"PowerConfig.floor_w must lie between idle_w ({self.idle_w}) and the training "
                f"mean ({self.train_w:.0f}), got {self.floor_w!r}"
            )

    @property
    def train_w(self) -> float:
        """Mean GPU power over a training step."""
        f = self.compute_fraction
        return f * self.compute_w + (1 - f) * self.comm_w


def power_summary(result: SimResult, power: PowerConfig | None = None) -> dict[str, object]:
    """MW levels, swings, ramp rates and energy of the simulated job, with and without mitigations.

    Energies are mean MWh per trial over the simulated window; rates are MW per second.
    """
    pw = power or PowerConfig()
    c = result.config
    n, window_s = c.gpus, c.duration_s
    mw = 1e-6
    bad = result.badput_s
    short = sum(bad[k] for k in _SHORT_STALLS)
    long = sum(bad[k] for k in _LONG_STALLS)
    busy = window_s - short - long
    host_mw = c.nodes * pw.host_w_per_node * mw
    train_mw = n * pw.train_w * mw + host_mw
    idle_mw = n * pw.idle_w * mw + host_mw
    floor_mw = n * pw.floor_w * mw + host_mw
    swing = train_mw - idle_mw
    energy = (train_mw * busy + idle_mw * (short + long)) / 3600.0

    counts = result.counts.mean(axis=0)
    stops = float(counts.sum())  # every event kind in the counts is a stop and a restart
    cycle = result.checkpoint_interval_s + c.checkpoint_blocking_s
    saves = busy / cycle if c.checkpoint_blocking_s > 0 else 0.0

    # Staggered ramp: each restart ramps in with a synthetic load; the energy of a linear ramp is
    # half the swing times its length. The drop at a failure is not ours to shape.
    ramp_mwh = stops * swing * pw.ramp_s / 2 / 3600.0
    # Power floor: short stalls burn at the floor instead of idling; long ones ramp down and up
    # over ramp_s, so they pay a ramp's energy twice per stall.
    floor_mwh = (
        floor_mw - idle_mw
    ) * short / 3600.0 + result.long_stalls * swing * pw.ramp_s / 3600.0
    floor_swing = train_mw - floor_mw

    def row(swing_mw: float, up: float, down: float, extra_mwh: float) -> dict[str, float]:
        return {
            "swing_mw": swing_mw,
            "ramp_up_mw_per_s": up,
            "ramp_down_mw_per_s": down,
            "extra_energy_mwh": extra_mwh,
            "extra_energy_pct": 100.0 * extra_mwh / energy if energy else 0.0,
        }

    return {
        "assumptions_w": {
            "tdp": H100_TDP_W,
            "compute": pw.compute_w,
            "communication": pw.comm_w,
            "idle": pw.idle_w,
            "train_mean": pw.train_w,
            "host_per_node": pw.host_w_per_node,
            "floor": pw.floor_w,
        },
        "train_mw": train_mw,
        "idle_mw": idle_mw,
        "mean_mw": energy * 3600.0 / window_s,
        "energy_mwh": energy,
        "badput_energy_mwh": (
            train_mw * (busy - result.ettr.mean() * window_s) + idle_mw * (short + long)
        )
        / 3600.0,
        "step_swing_mw": n * (pw.compute_w - pw.comm_w) * mw,
        "stall_swing_mw": swing,
        "stops_per_day": stops / c.days,
        "checkpoint_dips_per_day": saves / c.days,
        "mitigations": {
            "none": row(swing, swing / pw.edge_s, swing / pw.edge_s, 0.0),
            "staggered_ramp": row(swing, swing / pw.ramp_s, swing / pw.edge_s, ramp_mwh),
            "power_floor": row(
                floor_swing, floor_swing / pw.edge_s, floor_swing / pw.edge_s, floor_mwh
            ),
            "both": row(
                floor_swing, floor_swing / pw.ramp_s, floor_swing / pw.edge_s, floor_mwh + ramp_mwh
            ),
        },
    }
