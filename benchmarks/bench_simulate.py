"""`nonstop simulate` against a plain SimPy model of the same job: seconds per trial.

    python benchmarks/run.py simulate [--quick] [--json]

The job is Llama 3's (16,384 GPUs, 54 days, default calibration). `ours` and `peer` are seconds
per trial (ours vectorised over 1,000 trials, SimPy one trial at a time); the detail keys give
the headline timings from the issue (1,000 trials of 16k GPUs over 54 days; 100,000 GPUs over a
year) and the agreement between the two models on mean ETTR (Welch t-test).
"""

from __future__ import annotations

import time

from scipy import stats

from benchmarks.simpy_reference import run_trials
from nonstop.sim import SimConfig, simulate


def _timed(fn):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def run(quick: bool) -> dict:
    llama = SimConfig(gpus=16_384, days=54.0, trials=1000)
    ours, ours_s = _timed(lambda: simulate(llama))
    peer_trials = 10 if quick else 100
    peer, peer_s = _timed(lambda: run_trials(llama, peer_trials, seed=1000))
    detail: dict[str, object] = {
        "ours_1000_trials_16k_54d_s": round(ours_s, 3),
        "simpy_trials": peer_trials,
        "ettr_ours": float(ours.ettr.mean()),
        "ettr_simpy": float(peer["ettr"].mean()),
        "ettr_welch_p": float(stats.ttest_ind(ours.ettr, peer["ettr"], equal_var=False).pvalue),
        "interruptions_ours": float(ours.interruptions.mean()),
        "interruptions_simpy": float(peer["interruptions"].mean()),
    }
    big = SimConfig(gpus=100_000, days=365.0, trials=100 if quick else 1000)
    big_result, big_s = _timed(lambda: simulate(big))
    detail[f"ours_{big.trials}_trials_100k_365d_s"] = round(big_s, 3)
    detail["ettr_100k_365d"] = float(big_result.ettr.mean())
    per_ours, per_peer = ours_s / llama.trials, peer_s / peer_trials
    return {
        "name": "simulate",
        "ours": per_ours,
        "peer": per_peer,
        "peer_name": "simpy",
        "ratio": per_ours / per_peer,
        "unit": "s/trial",
        "better": "lower",
        **detail,
    }
