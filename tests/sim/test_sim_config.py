"""SimConfig: validation names the field and the value; rates resolve to the Llama 3 table."""

from __future__ import annotations

import math
from typing import Any

import pytest

from nonstop import taxonomy
from nonstop.sim import SimConfig
from nonstop.sim.config import SNAPSHOT_NODE_DAYS


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"gpus": 0}, "gpus"),
        ({"gpus": -8}, "gpus"),
        ({"gpus": 8, "gpus_per_node": 0}, "gpus_per_node"),
        ({"gpus": 8, "days": 0.0}, "days"),
        ({"gpus": 8, "trials": 0}, "trials"),
        ({"gpus": 8, "seed": -1}, "seed"),  # hypothesis: numpy's ValueError
        ({"gpus": 8, "restart_s": -1.0}, "restart_s"),
        ({"gpus": 8, "checkpoint_interval_s": 0.0}, "checkpoint_interval_s"),
        ({"gpus": 8, "weibull_shape": -0.5}, "weibull_shape"),
        ({"gpus": 8, "weibull_shape": 1e-300}, "weibull_shape"),  # hypothesis: OverflowError
        ({"gpus": 8, "weibull_shape": 50.0}, "weibull_shape"),
        ({"gpus": 8, "manual_prob": 1.5}, "manual_prob"),
        ({"gpus": 8, "spare_nodes": -1}, "spare_nodes"),
        ({"gpus": 8, "failure_rate_per_node_day": math.inf}, "failure_rate_per_node_day"),
        ({"gpus": 8, "detection_by_category_s": {"no_such": 1.0}}, "detection_by_category_s"),
        ({"gpus": 8, "manual_prob_by_category": {"nic": 2.0}}, "manual_prob_by_category"),
    ],
)
def test_validation_names_field_and_value(fields: dict[str, Any], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        SimConfig(**fields)


def test_total_rate_and_measured_rates_are_exclusive() -> None:
    with pytest.raises(ValueError, match="exclusive"):
        SimConfig(gpus=8, failure_rate_per_node_day=0.1, category_rates_per_node_day={"nic": 1.0})


def test_default_rates_are_table5_over_the_snapshot_exposure() -> None:
    c = SimConfig(gpus=taxonomy.SNAPSHOT_GPUS)
    rates = c.resolved_rates()
    assert rates["faulty_gpu"] == pytest.approx(148 / SNAPSHOT_NODE_DAYS)
    assert sum(rates.values()) * c.nodes * c.days == pytest.approx(419)
    assert c.resolved_planned_rate() * c.nodes * c.days == pytest.approx(47)
    assert c.mtbi_s() / 3600 == pytest.approx(54 * 24 / 419)  # facts.md: MTBF 3.09 h


def test_user_total_keeps_the_mix() -> None:
    rates = SimConfig(gpus=8, failure_rate_per_node_day=1.0).resolved_rates()
    assert sum(rates.values()) == pytest.approx(1.0)
    assert rates["gpu_hbm3_memory"] == pytest.approx(72 / 419)


def test_partial_nodes_count_and_planned_can_be_off() -> None:
    c = SimConfig(gpus=100, planned=False)
    assert c.nodes == 13
    assert c.resolved_planned_rate() == 0.0
    assert math.isinf(SimConfig(gpus=8, failure_rate_per_node_day=0.0).mtbi_s())


def test_config_is_frozen() -> None:
    c = SimConfig(gpus=8, detection_by_category_s={"nic": 5.0})
    with pytest.raises(AttributeError):
        c.gpus = 16  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.detection_by_category_s["nic"] = 1.0  # type: ignore[index]
