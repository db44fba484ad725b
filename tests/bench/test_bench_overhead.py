"""bench_overhead's step-time parsing and result contract, on synthetic log text."""

from __future__ import annotations

import pytest

from benchmarks import bench_overhead as bo
from benchmarks.run import REQUIRED

LOG = """[train] 1.23 M params, world 2, steps 0..50
[train] step 10/50 loss 5.1000 400 ms/step
[train] step 20/50 loss 4.9000 101 ms/step
[train] step 30/50 loss 4.8000 103 ms/step
W1129 noise from torchrun [train] step 99/99 loss nan ms/step
[train] step 40/50 loss 4.7000 99 ms/step
[train] step 50/50 loss 4.6000 100 ms/step
"""


def test_windows_are_parsed_and_warmup_dropped() -> None:
    assert bo.window_ms(LOG) == [(10, 400.0), (20, 101.0), (30, 103.0), (40, 99.0),
                                 (50, 100.0)]  # fmt: skip
    assert bo.step_time_ms(LOG, warmup=10) == pytest.approx((101 + 103 + 99 + 100) / 4)
    assert bo.step_time_ms(LOG, warmup=0) == pytest.approx((400 + 101 + 103 + 99 + 100) / 5)
    assert bo.step_time_ms(LOG, warmup=15) == pytest.approx((103 + 99 + 100) / 3)
    assert bo.step_time_ms("no lines", warmup=0) is None


def test_summary_follows_the_harness_contract() -> None:
    out = bo.summarize([102.0, 100.0, 101.0], [100.0, 100.0, 99.0], pairs=3)
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 101.0 and out["peer"] == 100.0
    assert out["ratio"] == pytest.approx(1.01) and out["unit"] == "ms/step"
    assert out["pair_ratios"] == pytest.approx([1.02, 1.0, 101 / 99])
    assert out["meets_target"] is (out["ratio"] <= 1.01)


def test_both_sides_run_the_same_script_without_checkpoints() -> None:
    args = bo.train_args(80)
    assert args[:2] == ["-m", "nonstop.workloads.llama.train"]
    assert args[args.index("--checkpoint-every") + 1] == "0"
