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
        (["--heal-s", "30"], "--heal-s needs --replica-groups"),
        (["--replica-groups", "1"], "--replica-groups must be an integer >= 2"),
        (["--gpus", "16", "--replica-groups", "3"], "more groups than the job's 2 nodes"),
        (["--replica-groups", "4", "--quorum-ms", "-1"], "quorum_s"),
        (["--replica-groups", "4", "--spare-groups", "-1"], "spare_groups"),
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


def test_replica_groups_beside_the_whole_job(capsys: pytest.CaptureFixture[str]) -> None:
    d = run_json(
        capsys,
        *("--gpus", "100000", "--replica-groups", "98", "--heal-s", "30", "--quorum-ms", "20"),
        *("--spare-groups", "2", "--reconfigure-s", "5", "--group-restart", "120"),
    )
    g = d["replica_groups"]
    assert (g["replica_groups"], g["heal_s"], g["quorum_s"]) == (98, 30.0, 0.02)
    assert (g["spare_groups"], g["reconfigure_s"], g["group_restart_s"]) == (2, 5.0, 120.0)
    for key in ("ettr_mean", "ettr_p5", "ettr_p95", "badput_s", "outages_mean", "mtbo_s"):
        assert key in g, key
    c = d["designs"]
    assert c["design"] == "replica_groups" and c["whole_job_ettr"] == d["ettr_mean"]
    assert c["replica_groups_ettr"] == g["ettr_mean"] > d["ettr_mean"]
    assert cli.main([*FAST, "--gpus", "100000", "--replica-groups", "98"]) == 0
    out = capsys.readouterr().out
    assert "Two designs" in out and "replica groups: 98 groups" in " ".join(out.split())


def test_reproduce_ft_hsdp(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--reproduce", "ft-hsdp", "--trials", "20", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["given"]["whole_job_ettr"] == 0.44 and r["given"]["replica_ettr"] == 0.80
    assert r["assumed"]["replica_groups"] == 96 and "arXiv:2602.00277" in r["source"]
    assert cli.main(["--reproduce", "ft-hsdp", "--trials", "20"]) == 0
    assert "within the stated tolerance of 3 ETTR points" in capsys.readouterr().out


def _synthetic_run(tmp_path: Path) -> Path:
    """tests/report's run directory (a real ledger and event streams, one failure)."""
    import importlib.util

    path = Path(__file__).parent.parent / "report" / "runbuilder.py"
    spec = importlib.util.spec_from_file_location("runbuilder", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.build_run(tmp_path / "run")


def test_from_run_projects_both_designs_to_16k_and_100k(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _synthetic_run(tmp_path)
    # the run's own job (two nodes) at its own measured rate; the projection at Llama 3's
    d = run_json(capsys, "--from-run", str(run), "--gpus", "16")
    p = d["projection"]
    assert [r["gpus"] for r in p["scales"]] == [16_384, 100_000]
    small, big = p["scales"]
    assert big["whole_job_ettr"] < small["whole_job_ettr"]
    assert big["design"] == "replica_groups" and big["replica_groups_ettr"] > big["whole_job_ettr"]
    assert (small["replica_groups"], big["replica_groups"]) == (16, 98)
    # the run measured detection (4 s), the restart and checkpoint blocking; never a heal
    assert p["costs"]["detection_s"] == pytest.approx(4.0)
    assert p["sources"]["detection_s"].startswith("measured in")
    assert p["sources"]["restart_s"].startswith("measured in")
    assert p["sources"]["heal_s"].startswith("assumed: nonstop.sim.replica.ReplicaGroups.heal_s")
    assert "Llama 3" in p["rates"]
    d = run_json(
        capsys, "--from-run", str(run), "--gpus", "16", "--heal-s", "12", "--detection", "30"
    )
    p = d["projection"]
    assert (p["costs"]["heal_s"], p["sources"]["heal_s"]) == (12.0, "flag")
    assert (p["costs"]["detection_s"], p["sources"]["detection_s"]) == (30.0, "flag")
    assert cli.main([*FAST, "--from-run", str(run), "--gpus", "16"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Projection with this run's costs" in out and "100,000" in out
    assert "heal 60.0 s (assumed" in out


def test_a_measured_heal_is_used_and_named() -> None:
    from dataclasses import dataclass

    from nonstop.sim.calibrate import HEAL_ASSUMED, heal_from_observed

    @dataclass(frozen=True)
    class WithHeal(ObservedRates):
        mean_heal_s: float | None = None

    assert heal_from_observed(WithHeal(node_days=1.0, mean_heal_s=7.5))[0] == 7.5
    assert heal_from_observed(WithHeal(node_days=1.0))[1] == HEAL_ASSUMED
    assert heal_from_observed(ObservedRates(node_days=1.0)) == (None, HEAL_ASSUMED)


def test_from_run_still_projects_when_its_own_rate_is_too_high_to_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One failure in 36 node-minutes is 969 a node-day: 2e7 interruptions a trial at the
    default 16,384 GPUs. The run's own job is not simulated; its costs are still projected."""
    run = _synthetic_run(tmp_path)
    assert cli.main([*FAST, "--from-run", str(run), "--json"]) == 0
    captured = capsys.readouterr()
    d = json.loads(captured.out)
    assert "ettr_mean" not in d and d["skipped"].startswith("not simulating the run's own")
    assert [r["gpus"] for r in d["projection"]["scales"]] == [16_384, 100_000]
    assert d["calibration"]["failures"] == 1
    assert "not simulating the run's own failure rate on 16,384 GPUs" in captured.err
    assert cli.main([*FAST, "--from-run", str(run)]) == 0
    assert "Projection with this run's costs" in capsys.readouterr().out
