"""Calibrate the simulator from a real run: `nonstop simulate --from-run RUN_DIR`.

The run ledger (nonstop.ledger) measures node-days of exposure, failures by taxonomy category,
planned stops and the mean detection, restart and checkpoint-blocking times. Turned into
`SimConfig` fields, they replace the Llama 3 calibration; flags given on the command line still
win over them.

    >>> from nonstop.ledger.rates import ObservedRates
    >>> fields_from_observed(ObservedRates(node_days=2.0, failures_by_category={"nic": 1}))
    {'category_rates_per_node_day': {'nic': 0.5}, 'planned_rate_per_node_day': 0.0}
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any, Protocol

from nonstop import taxonomy
from nonstop.errors import UserError

__all__ = ["calibration", "fields_from_observed", "heal_from_observed", "observed_fields"]

# Fewer failures than this and the measured rate is a guess: its 95% interval spans more
# than a factor of 3 (Poisson counts: k=10 gives 0.48x to 1.84x).
FEW_FAILURES = 10


class Observed(Protocol):
    """What nonstop.ledger.observed_rates returns (ObservedRates); a Protocol keeps the sim
    free of the ledger's imports until --from-run is used."""

    @property
    def node_days(self) -> float: ...
    @property
    def failures_by_category(self) -> Mapping[str, int]: ...
    @property
    def planned(self) -> int: ...
    @property
    def mean_restart_s(self) -> float | None: ...
    @property
    def mean_checkpoint_blocking_s(self) -> float | None: ...
    @property
    def mean_detection_s(self) -> float | None: ...


def fields_from_observed(obs: Observed) -> dict[str, Any]:
    """SimConfig fields for measured rates and costs; raises UserError with no exposure."""
    if not (math.isfinite(obs.node_days) and obs.node_days > 0):
        raise UserError(
            f"the run has no measured node time (node_days={obs.node_days!r}); "
            "simulate it after it has run, or give --failure-rate instead"
        )
    rates: dict[str, float] = {}
    for cid, count in obs.failures_by_category.items():
        # Categories this version of the taxonomy does not know count as unknown.
        key = cid if cid in taxonomy.IDS else taxonomy.UNKNOWN
        rates[key] = rates.get(key, 0.0) + count / obs.node_days
    fields: dict[str, Any] = {
        "category_rates_per_node_day": rates,
        "planned_rate_per_node_day": obs.planned / obs.node_days,
    }
    if obs.mean_restart_s is not None:
        # The ledger measures detection to the next attempt's first step, health checks included.
        fields["restart_s"] = obs.mean_restart_s
        fields["health_check_s"] = 0.0
    if obs.mean_checkpoint_blocking_s is not None:
        fields["checkpoint_blocking_s"] = obs.mean_checkpoint_blocking_s
    if obs.mean_detection_s is not None:
        fields["detection_s"] = obs.mean_detection_s
    return fields


def calibration(obs: Observed) -> dict[str, Any]:
    """How much the measured failure rate can be trusted: the failures counted, the node-days
    they were counted over, the rate and its exact 95% Poisson interval, and a warning when
    the count is too small to extrapolate from (a demo run measured over minutes)."""
    from scipy.stats import chi2

    k = sum(obs.failures_by_category.values())
    t = obs.node_days
    lo = 0.0 if k == 0 else float(chi2.ppf(0.025, 2 * k)) / (2 * t)
    hi = float(chi2.ppf(0.975, 2 * k + 2)) / (2 * t)
    out: dict[str, Any] = {
        "failures": k,
        "node_days": t,
        "rate_per_node_day": k / t,
        "rate_95": [lo, hi],
        "warning": None,
    }
    if k < FEW_FAILURES:
        out["warning"] = (
            f"the failure rate comes from {k} failure(s) in {t * 24:.3g} node-hours "
            f"(95% interval {lo:.3g} to {hi:.3g} per node-day); extrapolating it to a long run "
            f"is a guess until the ledger holds {FEW_FAILURES} or more failures. Give "
            "--failure-rate to use a published rate (see docs/simulate.md)."
        )
    return out


HEAL_ASSUMED = (
    "assumed: nonstop.sim.replica.ReplicaGroups.heal_s (the run has no heal measurement: it "
    "trained without replica groups)"
)


def heal_from_observed(obs: Observed) -> tuple[float | None, str]:
    """A run's measured heal (a restarted replica group's copy of the state from a live peer)
    and where it came from. A ledger whose ObservedRates carries `mean_heal_s` (a run with
    replica groups) gives it; any other run says the heal time is assumed, and from where."""
    heal = getattr(obs, "mean_heal_s", None)
    if heal is not None and math.isfinite(heal) and heal >= 0:
        return float(heal), "measured: the run's mean heal from a live peer"
    return None, HEAL_ASSUMED


def observed_fields(
    run_dir: str | os.PathLike[str],
) -> tuple[dict[str, Any], dict[str, Any], tuple[float | None, str]]:
    """Read a run's ledger (ingesting new events); the SimConfig fields it measured,
    `calibration()`'s account of how far the measured failure rate can be trusted, and
    `heal_from_observed()`'s heal time with its source."""
    from nonstop.ledger import observed_rates  # only --from-run pays for the ledger import

    obs = observed_rates(run_dir)
    fields = fields_from_observed(obs)
    return fields, calibration(obs), heal_from_observed(obs)
