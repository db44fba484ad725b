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

__all__ = ["fields_from_observed", "observed_fields"]


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


def observed_fields(run_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a run's ledger (ingesting new events) and return SimConfig fields from it."""
    from nonstop.ledger import observed_rates  # only --from-run pays for the ledger import

    return fields_from_observed(observed_rates(run_dir))
