"""Step-time overhead of `nonstop run` against plain torchrun, same script, no faults.

    .venv/bin/python benchmarks/run.py overhead --quick --json   # 2 pairs (ABAB), 80 steps
    .venv/bin/python benchmarks/run.py overhead --json           # 4 pairs, 200 steps

Both sides run the demo workload (`-m nonstop.workloads.llama.train`, 2 ranks, gloo on CPU,
the default model) with `--checkpoint-every 0`:

- ours: `nonstop run --quiet` (bootstrap, nonstop.runtime with its event writer, the
  bootstrap's watcher thread reading the flight recorder, the supervisor tailing events);
- peer: `python -m torch.distributed.run --standalone` without NONSTOP_RUN_DIR, where
  nonstop.runtime is a no-op.

Runs alternate A B A B ... so drift on a shared machine falls on both sides alike.

How a step is timed, identically on both sides: rank 0 of the script prints
`[train] step X/Y loss L NN ms/step` every `--log-every 10` steps, the mean wall time per step
over those 10 steps (perf_counter, printed to the millisecond). Windows that end at or before
the warm-up step are dropped; a run's figure is the mean of its remaining windows, that is its
mean step time over steps [warmup, N). The rounding to 1 ms (about 1% of a step here) averages
out over the windows. `ours` and `peer` are medians over the runs of each side, in ms/step;
`pair_ratios` gives each A/B pair's own ratio. Target: ratio <= 1.01.
"""

from __future__ import annotations

import re
import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.bench_recovery import PY, WORLD, run_group

LOG_EVERY = 10
LINE = re.compile(r"\[train\] step (\d+)/(\d+) loss \S+ (\d+) ms/step")


def train_args(steps: int) -> list[str]:
    return ["-m", "nonstop.workloads.llama.train", "--steps", str(steps),
            "--checkpoint-every", "0", "--log-every", str(LOG_EVERY)]  # fmt: skip


def window_ms(text: str) -> list[tuple[int, float]]:
    """(last step of the window, mean ms/step) of every log line in `text`."""
    return [(int(m.group(1)), float(m.group(3))) for m in LINE.finditer(text)]


def step_time_ms(text: str, warmup: int) -> float | None:
    """Mean ms/step over the windows after `warmup` steps, or None without any."""
    kept = [ms for end, ms in window_ms(text) if end - LOG_EVERY >= warmup]
    return statistics.fmean(kept) if kept else None


def summarize(ours: list[float], peer: list[float], **detail: Any) -> dict[str, Any]:
    """The harness's JSON object from per-run step times (ms), in ABAB order."""
    o, p = statistics.median(ours), statistics.median(peer)
    pairs = [a / b for a, b in zip(ours, peer, strict=False)]
    ratio = o / p
    return {
        "name": "overhead",
        "ours": o,
        "peer": p,
        "peer_name": "plain torchrun (nonstop.runtime a no-op)",
        "ratio": ratio,
        "unit": "ms/step",
        "better": "lower",
        "overhead_pct": (ratio - 1) * 100,
        "target_ratio": 1.01,
        "meets_target": ratio <= 1.01,
        "pair_ratios": pairs,
        "ours_runs_ms": ours,
        "peer_runs_ms": peer,
        **detail,
    }


def _one(root: Path, tag: str, steps: int, warmup: int, *, ours: bool) -> float:
    out = root / f"{tag}.out"
    if ours:
        run_dir = root / tag
        cmd = [PY, "-m", "nonstop.cli", "run", "--nproc-per-node", str(WORLD), "--quiet",
               "--run-dir", str(run_dir), *train_args(steps)]  # fmt: skip
        rc, _ = run_group(cmd, env=None, out=out)
        log = run_dir / "logs" / "attempt-0" / "rank-0.log"  # rank 0's stdout under nonstop
        text = log.read_text(errors="replace") if log.exists() else ""
    else:
        cmd = [PY, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
               str(WORLD), *train_args(steps)]  # fmt: skip
        rc, _ = run_group(cmd, env=_plain_env(), out=out)
        text = out.read_text(errors="replace")
    ms = step_time_ms(text, warmup)
    if rc != 0 or ms is None:
        raise RuntimeError(f"{tag}: exit {rc}, no step times; see {out}")
    return ms


def _plain_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("NONSTOP_")}


def run(quick: bool) -> dict[str, Any]:
    pairs, steps, warmup = (2, 80, 20) if quick else (4, 200, 30)
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-overhead-"))
    ours, peer = [], []
    for i in range(pairs):
        ours.append(_one(root, f"ours-{i}", steps, warmup, ours=True))
        peer.append(_one(root, f"torchrun-{i}", steps, warmup, ours=False))
    return summarize(ours, peer, pairs=pairs, steps=steps, warmup_steps=warmup,
                     workload=" ".join(train_args(steps)), order="ABAB (ours first)",
                     method="mean of rank 0's 10-step ms/step lines after warm-up, per run; "
                     "median over runs", run_root=str(root))  # fmt: skip


if __name__ == "__main__":
    import json

    print(json.dumps(run(quick=True), indent=1))
