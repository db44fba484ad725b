"""`nonstop simulate --health`: SDC and loss spikes, detection latency and rollback cost."""

from __future__ import annotations

import json

import pytest

from nonstop import cli
from nonstop.sim.health import HealthConfig, simulate_health


def test_latency_grows_with_k_and_the_sweep_finds_the_analytic_optimum():
    r = simulate_health(HealthConfig(gpus=16_384, checkpoint_interval_s=3600, trials=400))
    assert r["sdc_expected"] == pytest.approx(6.0)  # Llama 3's 6 in 54 days
    lat = [s["detection_latency_s"] for s in r["sweep"]]
    assert lat == sorted(lat) and lat[0] < 5.0  # K=1: within a 5 s step
    # checks only before saves: half a checkpoint interval on average
    assert r["only_at_checkpoints"]["detection_latency_s"] == pytest.approx(1800, rel=0.3)
    overhead = [s["overhead_fraction"] for s in r["sweep"]]
    assert overhead == sorted(overhead, reverse=True)
    assert 10 <= r["k_star"] <= 50 and 5 <= r["best_k"] <= 100


def test_spikes_cost_rollbacks_and_no_faults_cost_only_the_guards():
    quiet = simulate_health(HealthConfig(gpus=8, sdc_per_node_day=0, trials=50))
    assert quiet["at_k"]["wasted_fraction"] == pytest.approx(quiet["at_k"]["overhead_fraction"])
    spiky = simulate_health(HealthConfig(gpus=8, sdc_per_node_day=0, spikes_per_day=2, trials=50))
    assert spiky["at_k"]["spike_rollback_fraction"] > 0


@pytest.mark.parametrize(
    ("field", "value"), [("step_s", 0.0), ("fingerprint_every", -1), ("spikes_per_day", -1.0)]
)
def test_bad_values_name_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        HealthConfig(gpus=8, **{field: value})


def test_cli_health_json_and_usage_errors(capsys):
    assert (
        cli.main(
            [
                "simulate",
                "--gpus",
                "64",
                "--trials",
                "20",
                "--health",
                "--spike-rate",
                "1",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["health"]["config"]["spikes_per_day"] == 1.0
    assert {s["fingerprint_every"] for s in out["health"]["sweep"]} >= {1, 10, 100}
    assert (
        cli.main(["simulate", "--gpus", "64", "--trials", "5", "--health", "--step-time", "0"]) == 2
    )
    assert "step_s" in capsys.readouterr().err
