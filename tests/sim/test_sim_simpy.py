"""The vectorised simulator agrees statistically with a plain SimPy model of the same job.

Welch t-tests on per-trial ETTR and interruption counts, and a 4-standard-error check on the mean
lost work; each case stresses one mechanism (overlapping downtimes, Weibull gaps, a short spare
pool, manual interventions). SimPy is a dev dependency, imported only here and in benchmarks/.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from scipy import stats

from nonstop.sim import SimConfig, simulate

pytest.importorskip("simpy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repo root, for benchmarks/
from benchmarks.simpy_reference import run_trials

P_MIN = 1e-3  # a false alarm once in a thousand runs per comparison at most

# 256 nodes at 0.05 failures per node-day: ~13 a day, 10-minute downtimes that often overlap.
BUSY = {
    "gpus": 2048,
    "days": 10.0,
    "failure_rate_per_node_day": 0.05,
    "detection_s": 120.0,
    "restart_s": 600.0,
    "checkpoint_blocking_s": 15.0,
}
CASES = {
    "overlapping downtimes": {},
    "weibull gaps": {"weibull_shape": 0.7},
    "short spare pool": {"spare_nodes": 4, "node_repair_s": 43_200.0},
    "manual work, no planned stops": {"manual_prob": 0.1, "manual_s": 3600.0, "planned": False},
    "fixed interval, no exclusion": {"checkpoint_interval_s": 1800.0, "exclude_nodes": False},
}


@pytest.mark.parametrize("case", list(CASES))
def test_vectorised_matches_simpy(case: str) -> None:
    config = SimConfig(**{**BUSY, **CASES[case], "trials": 400, "seed": 3})  # type: ignore[arg-type]
    ours = simulate(config)
    ref = run_trials(config, trials=60, seed=1000)
    assert stats.ttest_ind(ours.ettr, ref["ettr"], equal_var=False).pvalue > P_MIN
    counts = ours.interruptions.astype(float)
    assert stats.ttest_ind(counts, ref["interruptions"], equal_var=False).pvalue > P_MIN
    lost, se = ref["lost_progress"].mean(), ref["lost_progress"].std(ddof=1) / 60**0.5
    assert abs(ours.badput_s["lost_progress"] - lost) < 4 * se + 1e-9


def test_simpy_reference_sees_a_difference_when_there_is_one() -> None:
    """The comparison above has power: a 2x restart time is told apart."""
    config = SimConfig(**{**BUSY, "trials": 400, "seed": 3})  # type: ignore[arg-type]
    ours = simulate(config.with_(restart_s=1200.0))
    ref = run_trials(config, trials=60, seed=1000)
    assert stats.ttest_ind(ours.ettr, ref["ettr"], equal_var=False).pvalue < P_MIN
