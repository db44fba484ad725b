"""Power figures follow from the phase powers; sweeps move ETTR the right way."""

from __future__ import annotations

import pytest

from nonstop.sim import SimConfig, simulate
from nonstop.sim.power import PowerConfig, power_summary
from nonstop.sim.search import sensitivity, target_search


def test_swing_is_gpus_times_train_minus_idle() -> None:
    r = simulate(SimConfig(gpus=16_384, trials=50))
    p = power_summary(r, PowerConfig(compute_w=700, comm_w=300, idle_w=100, compute_fraction=0.5))
    assert p["stall_swing_mw"] == pytest.approx(16_384 * (500 - 100) / 1e6)
    assert p["step_swing_mw"] == pytest.approx(16_384 * 400 / 1e6)
    m = p["mitigations"]
    assert m["staggered_ramp"]["ramp_up_mw_per_s"] == pytest.approx(p["stall_swing_mw"] / 60)
    assert m["power_floor"]["swing_mw"] < m["none"]["swing_mw"]
    assert 0 < m["staggered_ramp"]["extra_energy_mwh"] < m["both"]["extra_energy_mwh"]
    assert p["idle_mw"] < p["mean_mw"] < p["train_mw"]


def test_swings_scale_with_the_job() -> None:
    small = power_summary(simulate(SimConfig(gpus=16_384, trials=20)))
    big = power_summary(simulate(SimConfig(gpus=100_000, trials=20)))
    assert big["stall_swing_mw"] / small["stall_swing_mw"] == pytest.approx(100_000 / 16_384)
    assert big["stops_per_day"] > 5 * small["stops_per_day"]


def test_power_config_validation() -> None:
    with pytest.raises(ValueError, match="floor_w"):
        PowerConfig(floor_w=50.0)
    with pytest.raises(ValueError, match="ramp_s"):
        PowerConfig(ramp_s=0.0)


def test_sensitivity_moves_the_right_way() -> None:
    rows = {r["knob"]: r for r in sensitivity(SimConfig(gpus=16_384, trials=50))}
    for knob in ("failure rate", "restart", "checkpoint blocking", "detection"):
        assert rows[knob]["low_ettr"] > rows[knob]["ettr"] > rows[knob]["high_ettr"], knob
    interval = rows["checkpoint interval"]  # Daly's optimum: both sides are worse
    assert interval["ettr"] > max(interval["low_ettr"], interval["high_ettr"])


def test_target_search_finds_values_that_reach_the_target() -> None:
    c = SimConfig(gpus=16_384, trials=50, days=20.0)
    out = target_search(c, 0.9)
    knobs = {r["knob"]: r for r in out["knobs"]}
    most = knobs["restart"]["max"]
    assert most is not None and most > 0
    assert simulate(c.with_(restart_s=most * 0.95)).ettr.mean() >= 0.9
    assert simulate(c.with_(restart_s=most * 1.2)).ettr.mean() < 0.9
    recipe = out["recipe"]
    lo, hi = recipe["interval_range_s"]
    assert lo < recipe["checkpoint_interval_s"] < hi
    assert simulate(c.with_(spare_nodes=recipe["fewest_spares"])).ettr.mean() >= 0.9


def test_unreachable_target_says_so() -> None:
    # A fixed one-hour interval at a 30-minute MTBI loses half of all work whatever the overheads.
    c = SimConfig(gpus=100_000, trials=20, days=5.0, checkpoint_interval_s=3600.0)
    out = target_search(c, 0.9)
    assert out["recipe"] is None
    assert all(r["max"] is None for r in out["knobs"] if r["knob"] != "failure rate")
