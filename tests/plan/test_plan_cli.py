"""`nonstop plan` end to end through the real dispatcher: output, --json keys, bad input."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

import nonstop.plan
from nonstop import cli

LLAMA3_405B = ["--params", "405B", "--tokens", "15.6T"]
ON_16K_H100 = ["--gpus", "16384", "--gpu", "h100", "--mfu", str(400 / 989)]


def plan(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert cli.main(["plan", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_llama3_405b_on_16k_h100(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, *LLAMA3_405B, *ON_16K_H100)
    for key in (
        "params",
        "tokens",
        "flops",
        "days_compute",
        "days_wall",
        "ettr",
        "gpu_hours",
        "expected_interruptions",
        "energy_mwh",
        "optimal_checkpoint_interval_s",
    ):
        assert isinstance(out[key], float), key
    assert out["flops"] == pytest.approx(3.79e25, rel=1e-3)
    assert out["days_compute"] == pytest.approx(66.9, abs=0.05)
    # The wall clock is the fixed point wall = compute / ETTR(wall); Llama 3 had > 90%.
    assert out["days_wall"] == pytest.approx(out["days_compute"] / out["ettr"], rel=1e-9)
    assert out["fixed_point_days"][-1] == pytest.approx(out["fixed_point_days"][-2], rel=0.01)
    assert 0.85 < out["ettr"] < 0.97
    # The simulator is calibrated on 419 unexpected + 47 planned in 54 days at 16,384 GPUs.
    per_day = out["unexpected_interruptions"] / out["days_wall"]
    assert per_day == pytest.approx(419 / 54, rel=0.1)
    assert out["expected_interruptions"] == pytest.approx(466 / 54 * out["days_wall"], rel=0.1)
    assert out["mtbf_s"] == pytest.approx(3.09 * 3600, rel=0.01)
    assert out["gpu_hours"] == pytest.approx(16_384 * 24 * out["days_wall"])
    assert out["energy_mwh"] == pytest.approx(out["gpu_hours"] * 700 * 1.08 / 1e6)
    assert out["optimal_checkpoint_interval_s"] == out["daly_interval_s"]


def test_text_output_names_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["plan", *LLAMA3_405B, *ON_16K_H100]) == 0
    text = capsys.readouterr().out
    for expected in (
        "405B",
        "15.6T",
        "3.79e+25",
        "days of compute",
        "66.9",
        "ETTR",
        "MWh",
        "Daly (2006)",
        "Assumptions",
    ):
        assert expected in text, expected


def test_mtbf_overrides_the_simulators_failure_rate(capsys: pytest.CaptureFixture[str]) -> None:
    base = plan(capsys, *LLAMA3_405B, *ON_16K_H100)
    worse = plan(
        capsys, *LLAMA3_405B, *ON_16K_H100, "--mtbf", "3600", "--checkpoint-blocking", "30"
    )
    assert worse["mtbf_s"] == pytest.approx(3600)
    assert worse["checkpoint_blocking_s"] == 30
    assert worse["daly_interval_s"] < base["daly_interval_s"]
    assert worse["ettr"] < base["ettr"] and worse["days_wall"] > base["days_wall"]


def test_checkpoint_intervals_alone(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, "--mtbf", "11124", "--checkpoint-blocking", "30")
    young = math.sqrt(2 * 30 * 11124)
    x = 30 / (2 * 11124)
    assert out["young_interval_s"] == pytest.approx(young)
    assert out["daly_interval_s"] == pytest.approx(young * (1 + math.sqrt(x) / 3 + x / 9) - 30)
    assert out["optimal_checkpoint_interval_s"] == out["daly_interval_s"]
    assert "params" not in out and "days_wall" not in out


@pytest.mark.parametrize(
    ("law", "params", "tokens"),
    [
        ("chinchilla", 562.7e9, 11.25e12),
        ("llama3", 605.3e9, 10.46e12),
        ("besiroglu", 618.7e9, 10.24e12),
        ("chinchilla-fit", 213.5e9, 29.67e12),
    ],
)
def test_compute_budget_per_law(
    capsys: pytest.CaptureFixture[str], law: str, params: float, tokens: float
) -> None:
    out = plan(capsys, "--compute", "3.8e25", "--law", law)
    assert out["params"] == pytest.approx(params, rel=1e-3)
    assert out["tokens"] == pytest.approx(tokens, rel=1e-3)
    assert ("loss" in out) == (law in ("chinchilla-fit", "besiroglu"))
    assert any("beyond the fitted range" in n for n in out["notes"])


def test_llama3_law_surfaces_the_rounding_discrepancy(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, "--compute", "3.8e25", "--law", "llama3")
    assert out["llama3_sensitivity"]["paper_tokens"] == 16.55e12
    assert out["llama3_sensitivity"]["paper_params"] == 402e9
    assert cli.main(["plan", "--compute", "3.8e25", "--law", "llama3"]) == 0
    text = capsys.readouterr().out
    assert "402B on 16.55T" in text and "10.5T" in text and "0.5378" in text


def test_compute_with_one_of_params_or_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, "--compute", "3.79e25", "--params", "405B")
    assert out["tokens"] == pytest.approx(3.79e25 / (6 * 405e9))


def test_inference_aware_plan(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, "--compute", "1e24", "--inference-tokens", "2e13")
    inf = out["inference"]
    assert out["law"] == "chinchilla-fit"
    assert out["params"] == inf["total_optimal"]["params"] < inf["compute_optimal"]["params"]
    assert inf["total_optimal"]["total_flops"] < inf["compute_optimal"]["total_flops"]
    assert inf["compute_optimal"]["training_flops"] == pytest.approx(1e24)
    assert any("Sardana" in a for a in out["assumptions"])
    assert any("2 (a forward pass)" in a for a in out["assumptions"])


def test_target_loss_plan(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, "--target-loss", "2.0", "--inference-tokens", "1e12", "--law", "besiroglu")
    assert out["loss"] == pytest.approx(2.0, abs=1e-9)


def test_sweep(capsys: pytest.CaptureFixture[str]) -> None:
    out = plan(capsys, "--sweep", "--law", "besiroglu")
    assert out["flops"] == pytest.approx(3.8e25)
    assert len(out["sweep"]) == 9 and len(out["llama3_comparison"]) == 6
    assert out["pays_from_inference_tokens"] > 0
    assert cli.main(["plan", "--sweep"]) == 0
    text = capsys.readouterr().out
    assert "Over-training starts to pay" in text and "1875" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--compute", "1e24", "--gpus", "0"], "--gpus must be a positive whole number, got 0"),
        (["--compute", "1e24", "--gpus", "-8"], "--gpus must be a positive whole number"),
        (["--compute", "1e24", "--gpus", "8", "--mfu", "1.5"], "--mfu must be in (0, 1]"),
        (["--compute", "1e24", "--gpus", "8", "--mfu", "0"], "--mfu must be in (0, 1]"),
        (["--compute", "1e24", "--gpus", "8", "--gpu", "v100"], "unknown GPU type 'v100'"),
        (["--compute", "1e24", "--law", "kaplan"], "unknown law 'kaplan'"),
        (["--compute", "1e24", "--params", "1B", "--tokens", "1T"], "over-determine"),
        (["--params", "405B"], "--params needs --compute"),
        (["--compute=-1e24"], "--compute must be a positive number"),
        (["--compute", "0"], "--compute must be a positive number"),
        (["--compute", "lots"], "is not a number"),
        (["--compute", "1e24", "--mfu", "0.5"], "--mfu needs --gpus"),
        (["--gpus", "8"], "--gpus needs a budget"),
        ([], "nothing to plan"),
        (["--mtbf", "3600"], "--mtbf needs --checkpoint-blocking"),
        (["--mtbf=-1", "--checkpoint-blocking", "30"], "--mtbf must be a positive"),
        (["--checkpoint-blocking", "30"], "--checkpoint-blocking needs --mtbf"),
        (["--compute", "1e24", "--inference-tokens", "1e12", "--law", "llama3"], "no loss fit"),
        (["--compute", "1e24", "--inference-tokens", "-5"], "--inference-tokens must be"),
        (["--params", "1B", "--tokens", "1T", "--inference-tokens", "1e12"], "drop --params"),
        (["--compute", "1e24", "--target-loss", "2.0"], "give one of them"),
        (["--target-loss", "1.5"], "irreducible loss"),
        (["--sweep", "--inference-tokens", "1e12"], "drop --inference-tokens"),
        (["--compute", "1e24", "--bogus"], "unrecognized arguments: --bogus"),
        ([*LLAMA3_405B, "--gpus", "16384", "--mtbf", "60"], "barely progresses"),
        ([*LLAMA3_405B, "--gpus", "8", "--seed=-1"], "--seed must be a whole number >= 0"),
        ([*LLAMA3_405B, "--gpus", "8", "--trials", "0"], "--trials must be a positive"),
        ([*LLAMA3_405B, "--replica-groups", "4"], "--replica-groups needs --gpus"),
        ([*LLAMA3_405B, "--gpus", "64", "--replica-groups", "1"], "must be 2 or more"),
        ([*LLAMA3_405B, "--gpus", "64", "--replica-groups", "9"], "more groups than the job's 8"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert cli.main(["plan", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nonstop plan: error: ")
    assert message in lines[0]


def test_public_api_is_pinned() -> None:
    assert nonstop.plan.__all__ == [
        "BESIROGLU_FIT",
        "CHINCHILLA_FIT",
        "GPUS",
        "LAWS",
        "Cluster",
        "Gpu",
        "InferencePlan",
        "Law",
        "LossFit",
        "PlanRequest",
        "Point",
        "get_gpu",
        "get_law",
        "implied_inference_tokens",
        "make_plan",
        "optimize_for_compute",
        "optimize_for_loss",
        "training_flops",
    ]


def test_plan_loads_no_torch() -> None:
    code = "import sys, nonstop.plan.cli; assert 'torch' not in sys.modules, 'torch loaded'"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.parametrize(
    ("gpus", "extra", "design", "groups"),
    [
        ("100000", [], "replica_groups", 98),
        ("16384", ["--replica-groups", "4"], "replica_groups", 4),
        ("256", [], "whole_job", 2),
        ("8", [], "whole_job", None),
    ],
)
def test_plan_chooses_a_design_and_says_why(
    capsys: pytest.CaptureFixture[str], gpus: str, extra: list[str], design: str, groups: object
) -> None:
    out = plan(capsys, "--compute", "1e25", "--gpus", gpus, "--trials", "40", *extra)
    d = out["design"]
    assert d["design"] == design and d["replica_groups"] == groups
    assert d["why"].startswith("replica groups:" if design == "replica_groups" else "whole-job")
    assert d["whole_job_ettr"] == pytest.approx(out["ettr"], abs=0.02)
    assert any("replica groups" in a for a in out["assumptions"])
    assert cli.main(["plan", "--compute", "1e25", "--gpus", gpus, "--trials", "40", *extra]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "design " + d["why"] in text
