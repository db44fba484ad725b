"""bench_overhead's step-time parsing and result contract, on synthetic log text."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from benchmarks import bench_overhead as bo
from benchmarks import bench_recovery as br
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
    assert bo.window_ms(LOG) == [(10, 400.0), (20, 101.0), (30, 103.0), (40, 99.0), (50, 100.0)]
    assert bo.step_time_ms(LOG, warmup=10) == pytest.approx((101 + 103 + 99 + 100) / 4)
    assert bo.step_time_ms(LOG, warmup=0) == pytest.approx((400 + 101 + 103 + 99 + 100) / 5)
    assert bo.step_time_ms(LOG, warmup=15) == pytest.approx((103 + 99 + 100) / 3)
    assert bo.step_time_ms("no lines", warmup=0) is None


def test_summary_follows_the_harness_contract() -> None:
    out = bo.summarize([102.0, 100.0, 101.0], [100.0, 100.0, 99.0], pairs=3)
    assert not [k for k in REQUIRED if k not in out]
    assert out["ours"] == 101.0 and out["peer"] == 100.0 and out["unit"] == "ms/step"
    assert out["pair_ratios"] == pytest.approx([1.02, 1.0, 101 / 99])
    assert out["ratio"] == pytest.approx(1.02)  # the median pair ratio (paired runs)
    lo, hi = out["spread"]["ratio"]
    assert 1.0 <= lo <= out["ratio"] <= hi <= 1.03 and out["reps"] == 3
    assert out["meets_target"] is (out["ratio"] <= bo.TARGET) and bo.TARGET == 1.03


def test_both_sides_run_the_same_workload_at_the_recovery_cadence() -> None:
    ours, peer = bo.train_args(80), bo.peer_args(80, Path("/ckpt"))
    assert ours[:2] == ["-m", "nonstop.workloads.llama.train"]
    assert peer[:2] == ["-m", "benchmarks.peer_dcp_train"]
    assert ours[2:] == peer[2 : len(ours)]  # steps, durable cadence, log interval
    assert ours[ours.index("--checkpoint-every") + 1] == str(bo.DURABLE_EVERY)
    if hasattr(br, "FULL"):  # the recovery benchmark's durable interval and snapshot cadence
        assert br.FULL[2] == bo.DURABLE_EVERY
    # the recommended cadence is the recovery benchmark's auto arm; every step its other arm
    assert ["--memory-checkpoint-every", str(bo.MEMORY_EVERY)] == br.MEMORY_AUTO
    assert ["--memory-checkpoint-every", str(bo.EVERY_STEP)] == br.MEMORY
    assert br.ARMS["standby+memory-auto"] == br.MEMORY_AUTO


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_peer_script_saves_with_async_dcp(tmp_path: Path) -> None:
    """The peer really trains and writes DCP checkpoints that load back."""
    ckpt = tmp_path / "ckpt"
    cmd = [
        bo.PY,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc-per-node",
        "2",
        *bo.peer_args(10, ckpt),
        "--checkpoint-every",
        "5",
        "--log-every",
        "5",
        "--dim",
        "32",
        "--layers",
        "1",
        "--seq-len",
        "32",
    ]
    p = subprocess.run(
        cmd, cwd=br.REPO, env=bo._plain_env(), capture_output=True, text=True, timeout=180
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert [end for end, _ in bo.window_ms(p.stdout)] == [5, 10]
    assert sorted(d.name for d in ckpt.iterdir()) == ["step-10", "step-5"]
    import torch.distributed.checkpoint as dcp

    meta = dcp.FileSystemReader(str(ckpt / "step-10")).read_metadata()
    assert any(k.startswith("model.") for k in meta.state_dict_metadata)
