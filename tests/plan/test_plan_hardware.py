"""GPU datasheets, days of compute and energy, checked against Llama 3's published run."""

from __future__ import annotations

import math

import pytest

from nonstop.errors import UserError
from nonstop.plan.hardware import GPUS, Cluster, get_gpu
from nonstop.plan.laws import training_flops

LLAMA3_FLOPS = training_flops(405e9, 15.6e12)


def test_llama3_405b_is_about_67_days_of_compute_on_16k_h100() -> None:
    # Table 4: 16,384 H100 at 400 TFLOPs/GPU. 3.79e25 / (16,384 x 400e12) s = 66.9 days.
    cluster = Cluster(gpus=16_384, gpu="h100", mfu=400 / 989)
    assert cluster.achieved_flops_per_gpu == pytest.approx(400e12)
    assert cluster.compute_days(LLAMA3_FLOPS) == pytest.approx(66.9, abs=0.05)


def test_more_gpus_at_higher_mfu_is_proportionally_faster() -> None:
    # Table 4: 8,192 GPUs at 430 TFLOPs/GPU.
    small = Cluster(gpus=8_192, gpu="h100", mfu=430 / 989).compute_days(LLAMA3_FLOPS)
    big = Cluster(gpus=16_384, gpu="h100", mfu=400 / 989).compute_days(LLAMA3_FLOPS)
    assert small / big == pytest.approx(2 * 400 / 430)


def test_datasheet_peaks_and_tdps() -> None:
    peaks = {name: gpu.peak_bf16_flops / 1e12 for name, gpu in GPUS.items()}
    assert peaks == {"a100": 312, "h100": 989, "h200": 989, "b200": 2250}
    assert get_gpu("H100").tdp_w == 700  # Llama 3's H100s ran at 700 W TDP
    assert all(gpu.source for gpu in GPUS.values())


def test_gpu_hours_and_energy() -> None:
    one = Cluster(gpus=1, gpu="h100", pue=1.0)
    assert one.gpu_hours(1.0) == 24.0
    assert one.energy_mwh(1.0) == pytest.approx(24 * 700 / 1e6)
    cluster = Cluster(gpus=16_384, gpu="b200", pue=1.5, tdp_w=1200.0)
    assert cluster.power_w == 1200.0
    assert cluster.power_mw() == pytest.approx(16_384 * 1200 * 1.5 / 1e6)
    assert cluster.energy_mwh(10.0) == pytest.approx(cluster.power_mw() * 240)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"gpus": 0}, "gpus must be a positive whole number, got 0"),
        ({"gpus": -8}, "gpus must be a positive whole number, got -8"),
        ({"gpus": 8, "mfu": 1.2}, r"mfu must be in \(0, 1\].*1\.2"),
        ({"gpus": 8, "mfu": 0.0}, r"mfu must be in \(0, 1\].*0\.0"),
        ({"gpus": 8, "mfu": math.nan}, r"mfu must be in \(0, 1\]"),
        ({"gpus": 8, "pue": 0.9}, "pue must be a number >= 1.*0.9"),
        ({"gpus": 8, "tdp_w": -700.0}, "tdp must be a positive number of watts"),
        ({"gpus": 8, "gpu": "v100"}, "unknown GPU type 'v100'; choose one of: a100, h100"),
    ],
)
def test_bad_cluster_is_a_user_error(kwargs: dict, match: str) -> None:
    with pytest.raises(UserError, match=match):
        Cluster(**kwargs)
