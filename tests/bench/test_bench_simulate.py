"""bench_simulate's SimPy peer and result contract at a tiny size (never the timings)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("simpy")

from benchmarks import bench_simulate as bs
from benchmarks.run import REQUIRED
from benchmarks.simpy_reference import run_trial
from nonstop.sim import SimConfig, engine


def test_no_interruptions_is_pure_compute_and_saves() -> None:
    """Without arrivals the job's ETTR is arithmetic: startup, then interval/(interval+save)."""
    c = SimConfig(
        gpus=8,
        days=1.0,
        failure_rate_per_node_day=0.0,
        planned=False,
        checkpoint_interval_s=1000.0,
        checkpoint_blocking_s=10.0,
        startup_s=100.0,
    )
    r = run_trial(c, seed=0)
    p = engine.resolve(c)
    up = p.duration_s - 100.0
    cycles = up // 1010.0
    rest = min(up - cycles * 1010.0, 1000.0)
    assert r["interruptions"] == 0 and r["lost_progress"] == 0
    assert r["ettr"] == pytest.approx((cycles * 1000.0 + rest) / p.duration_s)


def test_diff_ci_covers_zero_for_the_same_sample_and_not_for_a_shift() -> None:
    a = np.random.default_rng(0).normal(0.9, 0.01, 500)
    same = bs.diff_ci(a, a.copy())
    assert same["normal_ci95"][0] <= 0 <= same["normal_ci95"][1]
    shifted = bs.diff_ci(a + 0.01, a)
    assert shifted["bootstrap_ci95"][0] > 0 and shifted["normal_ci95"][0] > 0


def test_quick_run_follows_the_harness_contract() -> None:
    out = bs.run(quick=True)
    assert not [k for k in REQUIRED if k not in out]
    assert out["reps"] == 2 and out["trials"] == 100 and len(out["spread"]["ratio"]) == 2
    lo, hi = out["ettr_diff"]["normal_ci95"]
    assert lo < 0.005 and hi > -0.005  # the two models agree to within half a point of ETTR
    json.dumps(out)
