"""`nonstop simulate` from the command line: JSON keys, tables, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonstop import cli as nonstop_cli
from nonstop.errors import UserError
from nonstop.ledger.rates import ObservedRates
from nonstop.sim import cli
from nonstop.sim.calibrate import fields_from_observed

FAST = ["--trials", "40", "--days", "10"]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert cli.main([*FAST, *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_output_has_the_issue_keys(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "--gpus", "4096", "--seed", "5")
    for key in [
        "interruptions_mean",
        "interruptions_p5",
        "interruptions_p95",
        "by_category",
        "ettr_mean",
        "ettr_p5",
        "ettr_p95",
        "badput_s",
        "checkpoint_interval_s",
        "optimal_checkpoint_interval_s",
    ]:
        assert key in d, key
    assert d["gpus"] == 4096 and d["nodes"] == 512 and d["seed"] == 5


def test_flags_reach_the_config() -> None:
    ns = cli.build_parser().parse_args(
        [
            "--gpus",
            "64",
            "--failure-rate",
            "0.2",
            "--checkpoint-interval",
            "900",
            "--detection",
            "30",
            "--detection",
            "nccl_watchdog_timeout=600",
            "--manual-prob",
            "0.1",
            "--spares",
            "3",
            "--no-planned",
            "--weibull-shape",
            "0.8",
            "--straggler-rate",
            "0.01",
            "--diurnal-dvfs",
            "0.015",
        ]
    )
    c = cli.config_from_args(ns)
    assert (c.gpus, c.failure_rate_per_node_day, c.checkpoint_interval_s) == (64, 0.2, 900.0)
    assert c.detection_s == 30.0 and c.detection_by_category_s == {"nccl_watchdog_timeout": 600}
    assert (c.manual_prob, c.spare_nodes, c.planned, c.weibull_shape) == (0.1, 3, False, 0.8)
    assert cli.config_from_args(cli.build_parser().parse_args([])).checkpoint_interval_s is None


def test_table_output_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*FAST, "--gpus", "4096"]) == 0
    out = capsys.readouterr().out
    assert "ETTR" in out and "Faulty GPU" in out and "lost progress" in out


def test_sensitivity_target_and_power_sections(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(capsys, "--gpus", "4096", "--sensitivity", "--target-ettr", "0.5", "--power")
    knobs = {r["knob"]: r for r in d["sensitivity"]}
    restart = knobs["restart"]
    assert restart["low_ettr"] > restart["ettr"] > restart["high_ettr"]
    assert d["target"]["recipe"]["fewest_spares"] >= 0
    assert d["power"]["stall_swing_mw"] > 0
    assert (
        cli.main([*FAST, "--gpus", "1024", "--sensitivity", "--target-ettr", "0.9", "--power"]) == 0
    )
    assert "Mitigations" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--gpus", "0"], "--gpus"),
        (["--gpus", "-16"], "--gpus"),
        (["--failure-rate", "0.1", "--from-run", "x"], "--from-run"),
        (["--detection", "no_such_category=5"], "no_such_category"),
        (["--detection", "soon"], "--detection"),
        (["--checkpoint-interval", "-5"], "checkpoint_interval_s"),
        (["--trials", "0"], "trials"),
        (["--target-ettr", "1.5"], "--target-ettr"),
        (["--power-floor-w", "900"], "floor_w"),
    ],
)
def test_bad_input_is_a_user_error(argv: list[str], message: str) -> None:
    with pytest.raises(UserError, match=message):
        cli.main(argv)


def test_unknown_option_exits_2() -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["--gpu", "8"])
    assert e.value.code == 2


def test_dispatcher_prints_one_line_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert nonstop_cli.main(["simulate", "--gpus", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("nonstop simulate: error:") and "\n" not in err


def test_from_run_on_a_run_without_exposure(tmp_path: Path) -> None:
    (tmp_path / "events").mkdir()
    with pytest.raises(UserError, match="node time"):
        cli.main(["--from-run", str(tmp_path), "--json"])
    with pytest.raises(UserError, match="no such run directory"):
        cli.main(["--from-run", str(tmp_path / "missing")])


def test_observed_rates_become_config_fields() -> None:
    obs = ObservedRates(
        node_days=4.0,
        failures_by_category={"faulty_gpu": 2, "martian_rays": 1},
        planned=1,
        mean_restart_s=90.0,
        mean_checkpoint_blocking_s=2.0,
        mean_detection_s=15.0,
    )
    f = fields_from_observed(obs)
    assert f["category_rates_per_node_day"] == {"faulty_gpu": 0.5, "unknown": 0.25}
    assert f["planned_rate_per_node_day"] == 0.25
    assert (f["restart_s"], f["health_check_s"]) == (90.0, 0.0)
    assert (f["checkpoint_blocking_s"], f["detection_s"]) == (2.0, 15.0)


def test_a_window_too_long_to_simulate_is_a_clear_error(capsys):
    from nonstop import cli

    assert cli.main(["simulate", "--days", "1e9"]) == 2  # found by hypothesis: a 64 GiB array
    assert "shorten --days" in capsys.readouterr().err


def test_a_rate_from_few_failures_comes_with_its_interval_and_a_warning() -> None:
    from nonstop.sim.calibrate import calibration

    few = ObservedRates(
        node_days=0.001,
        failures_by_category={"faulty_gpu": 2},
        planned=0,
        mean_restart_s=None,
        mean_checkpoint_blocking_s=None,
        mean_detection_s=None,
    )
    c = calibration(few)
    assert c["failures"] == 2 and c["rate_per_node_day"] == pytest.approx(2000)
    lo, hi = c["rate_95"]
    assert lo == pytest.approx(242.2, rel=1e-3) and hi == pytest.approx(7225.0, rel=1e-3)
    assert "2 failure(s) in 0.024 node-hours" in c["warning"]
    many = ObservedRates(
        node_days=100.0,
        failures_by_category={"faulty_gpu": 40},
        planned=0,
        mean_restart_s=None,
        mean_checkpoint_blocking_s=None,
        mean_detection_s=None,
    )
    c = calibration(many)
    assert c["warning"] is None and c["rate_95"][0] < 0.4 < c["rate_95"][1]
