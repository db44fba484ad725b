"""Checkpoint-interval formulas: Young (1974), Daly (2006) and the first-order waste model.

Plain float functions so that the simulator, the planner and the checkpointer share one
definition. All times are seconds; ``mtbi_s`` is the job's mean time between (unexpected)
interruptions, which for a synchronous job is the per-node MTBF divided by the node count.

    >>> round(young_interval_s(30.0, 10_000.0))
    775
    >>> round(daly_interval_s(30.0, 10_000.0))
    755

Sources (see /work/shared/reference/facts.md, "Checkpoint interval"):

- J. W. Young, "A first order approximation to the optimum checkpoint interval",
  CACM 17(9), 1974: tau = sqrt(2 delta M).
- J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps",
  Future Generation Computer Systems 22(3), 2006, eq. 37.
- The first-order waste w(tau) = delta / tau + (tau / 2 + R) / M whose minimum is Young's tau.
"""

from __future__ import annotations

import math

__all__ = ["daly_interval_s", "waste_fraction", "young_interval_s"]


def _check(name: str, value: float, *, positive: bool) -> None:
    bad = not math.isfinite(value) or (value <= 0 if positive else value < 0)
    if bad:
        need = "> 0" if positive else ">= 0"
        raise ValueError(f"{name} must be finite and {need}, got {value!r}")


def young_interval_s(blocking_s: float, mtbi_s: float) -> float:
    """Young's first-order optimum compute time between checkpoints: sqrt(2 delta M)."""
    _check("blocking_s", blocking_s, positive=False)
    _check("mtbi_s", mtbi_s, positive=True)
    return math.sqrt(2.0 * blocking_s * mtbi_s)


def daly_interval_s(blocking_s: float, mtbi_s: float) -> float:
    """Daly's higher-order optimum (eq. 37); equal to ``mtbi_s`` once delta >= 2M.

    tau = sqrt(2 delta M) [1 + (1/3) sqrt(delta / 2M) + (1/9) (delta / 2M)] - delta.
    With delta = 0 the optimum is degenerate (checkpoint continuously) and this returns 0;
    callers that need a usable interval should floor it.
    """
    _check("blocking_s", blocking_s, positive=False)
    _check("mtbi_s", mtbi_s, positive=True)
    if blocking_s >= 2.0 * mtbi_s:
        return mtbi_s
    x = blocking_s / (2.0 * mtbi_s)
    return math.sqrt(2.0 * blocking_s * mtbi_s) * (1.0 + math.sqrt(x) / 3.0 + x / 9.0) - blocking_s


def waste_fraction(interval_s: float, blocking_s: float, mtbi_s: float, restart_s: float) -> float:
    """First-order fraction of wall time wasted: delta/tau + (tau/2 + R)/M.

    delta/tau is the checkpoint overhead, tau/2 the expected work lost per interruption (half an
    interval) and R the recovery time per interruption; both are paid once every M seconds.
    Valid while delta << tau << M; it can exceed 1 outside that range, which means "no progress".
    """
    _check("interval_s", interval_s, positive=True)
    _check("blocking_s", blocking_s, positive=False)
    _check("mtbi_s", mtbi_s, positive=True)
    _check("restart_s", restart_s, positive=False)
    return blocking_s / interval_s + (interval_s / 2.0 + restart_s) / mtbi_s
