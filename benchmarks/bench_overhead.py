"""Step-time overhead of nonstop's recovery configuration against torchrun + dcp.async_save.

    .venv/bin/python benchmarks/run.py overhead --quick --json   # 2 pairs (ABAB), 40 steps
    .venv/bin/python benchmarks/run.py overhead --json           # 10 pairs, 70 steps
    NONSTOP_BENCH_REPS=20 .venv/bin/python benchmarks/run.py overhead --json  # 20 pairs

Both sides train the demo workload (2 ranks, gloo on CPU, the default model, the same data,
optimizer and step) with a durable checkpoint every 10 steps, the recovery benchmark's
cadence (`bench_recovery.FULL`):

- ours: `nonstop run --quiet --memory-checkpoint-every auto -m nonstop.workloads.llama.train
  --checkpoint-every 10`, the recommended recovery configuration: warm standbys (the default),
  an in-memory snapshot of every rank's state replicated to the agent's replica server at the
  interval `auto` measures and chooses (nonstop/checkpoint/cadence.py: within 1% of a step's
  time in CPU; every step until its first choice at step 14, then chosen again every 20 steps),
  async durable saves (CRC-32, COMMIT.json), nonstop.runtime with its event writer, guards and
  the bootstrap's watcher, the supervisor tailing events;
- peer: `python -m torch.distributed.run --standalone -m benchmarks.peer_dcp_train
  --checkpoint-every 10`: the same model, data and step without nonstop.runtime, saving with
  `dcp.async_save` in its best configuration here (checkpoint process, cached shared-memory
  stager, see benchmarks/peer_dcp_train.py).

Runs alternate A B C D A B C D ... (ours first) so drift on a shared machine falls on every arm
alike. C and D are not the headline. C is ours with a snapshot at every step
(`--memory-checkpoint-every 1`, the headline until 2026-12-06: a restart redoes no step;
`detail.every_step`, its median and paired ratio to the peer); D is `nonstop run` without
in-memory snapshots (`detail.no_memory`), to split the cost into the snapshots and the rest.
`detail.auto_chosen` lists what `auto` chose in each run of A. Until 2026-12-06 D was A with the
snapshot's hand-over 10 nice levels lower (`NONSTOP_BACKGROUND_NICE=10`): it measured
1.003 [0.980, 1.032] of A on 2026-12-05 (`overhead-2026-12-05d.json`), no gain, and was dropped.

How a step is timed, identically on both sides: rank 0 prints `[train] step X/Y loss L NN
ms/step` every `--log-every 10` steps, the mean wall time per step over those 10 steps
(perf_counter; every window holds one durable save and, for ours, its snapshots). Windows that
end at or before the warm-up step are dropped; a run's figure is the mean of the rest. `ours`
and `peer` are medians over runs (ms/step); `ratio` is the median of the pairs' own ratios with
a paired 95% bootstrap interval (`spread.ratio`). Target: ratio <= 1.03.

NVIDIA's resiliency extension's local checkpointing (in-memory/node-local snapshots with
replication, nvidia-resiliency-ext 0.4.1) would be the peer for the snapshots, and cannot run
on this CPU-only torch: `nvrx` in the JSON says why (bench_checkpoint.nvrx_status).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_checkpoint import nvrx_status
from benchmarks.bench_recovery import PY, WORLD, run_group
from benchmarks.stats import reps
from benchmarks.stats import summarize as summarize_reps

LOG_EVERY = 10
DURABLE_EVERY = 10  # bench_recovery.FULL's durable checkpoint interval (steps)
MEMORY_EVERY = "auto"  # the recommended cadence: measured, within 1% of a step's CPU (cadence.py)
EVERY_STEP = 1  # bench_recovery.MEMORY: an in-memory snapshot at every step (arm C)
TARGET = 1.03  # issue 30: the recovery configuration within 3% of torchrun + dcp.async_save
LINE = re.compile(r"\[train\] step (\d+)/(\d+) loss \S+ (\d+) ms/step")


def _common(steps: int) -> list[str]:
    return [
        "--steps",
        str(steps),
        "--checkpoint-every",
        str(DURABLE_EVERY),
        "--log-every",
        str(LOG_EVERY),
    ]


def train_args(steps: int) -> list[str]:
    """Ours: the demo script, as `nonstop run` starts it."""
    return ["-m", "nonstop.workloads.llama.train", *_common(steps)]


def peer_args(steps: int, ckpt_dir: Path) -> list[str]:
    """The peer: the same workload with dcp.async_save (benchmarks/peer_dcp_train.py)."""
    return ["-m", "benchmarks.peer_dcp_train", *_common(steps), "--checkpoint-dir", str(ckpt_dir)]


def window_ms(text: str) -> list[tuple[int, float]]:
    """(last step of the window, mean ms/step) of every log line in `text`."""
    return [(int(m.group(1)), float(m.group(3))) for m in LINE.finditer(text)]


def step_time_ms(text: str, warmup: int) -> float | None:
    """Mean ms/step over the windows after `warmup` steps, or None without any."""
    kept = [ms for end, ms in window_ms(text) if end - LOG_EVERY >= warmup]
    return statistics.fmean(kept) if kept else None


def summarize(ours: list[float], peer: list[float], **detail: Any) -> dict[str, Any]:
    """The harness's JSON object from per-run step times (ms), in ABAB order (paired)."""
    out = summarize_reps(
        ours,
        peer,
        name="overhead",
        unit="ms/step",
        better="lower",
        peer_name="torchrun + dcp.async_save (process, cached stager), same "
        f"durable cadence (every {DURABLE_EVERY} steps)",
        paired=True,
    )
    ratio = out["ratio"]
    out.update(
        overhead_pct=(ratio - 1) * 100,
        target_ratio=TARGET,
        meets_target=ratio <= TARGET,
        pair_ratios=[a / b for a, b in zip(ours, peer, strict=False)],
        **detail,
    )
    return out


def _one(
    root: Path,
    tag: str,
    steps: int,
    warmup: int,
    *,
    ours: bool,
    memory: int | str | None = MEMORY_EVERY,
    env: dict[str, str] | None = None,
) -> float:
    out = root / f"{tag}.out"
    if ours:
        run_dir = root / tag
        cmd = [
            PY,
            "-m",
            "nonstop.cli",
            "run",
            "--nproc-per-node",
            str(WORLD),
            "--quiet",
            "--run-dir",
            str(run_dir),
            *(["--memory-checkpoint-every", str(memory)] if memory else []),
            *train_args(steps),
        ]
        rc, _ = run_group(cmd, env=env, out=out)
        log = run_dir / "logs" / "attempt-0" / "rank-0.log"  # rank 0's stdout under nonstop
        text = log.read_text(errors="replace") if log.exists() else ""
        shutil.rmtree(run_dir / "checkpoints", ignore_errors=True)
    else:
        ckpt = root / f"{tag}-ckpt"
        cmd = [
            PY,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc-per-node",
            str(WORLD),
            *peer_args(steps, ckpt),
        ]
        rc, _ = run_group(cmd, env=_plain_env(), out=out)
        text = out.read_text(errors="replace")
        shutil.rmtree(ckpt, ignore_errors=True)
    ms = step_time_ms(text, warmup)
    if rc != 0 or ms is None:
        raise RuntimeError(f"{tag}: exit {rc}, no step times; see {out}")
    return ms


def _chosen(root: Path, runs: int) -> dict[str, Any]:
    """What `auto` chose in ours' runs (rank 0's `cadence` events: the first choice and each
    change, as [step, every]), the interval each run ended with, and the steps a crash would
    redo at most."""
    from nonstop.events import read_events

    per_run: list[list[list[int]]] = []
    for i in range(runs):
        path = root / f"ours-{i}" / "events" / "attempt-0" / "rank-0.jsonl"
        events = read_events(path)[0] if path.exists() else []
        per_run.append(
            [
                [int(e.payload["step"]), int(e.payload["every"])]
                for e in events
                if e.kind == "checkpoint" and e.payload.get("phase") == "cadence"
            ]
        )
    last = [run[-1][1] for run in per_run if run]
    every = [c[1] for run in per_run for c in run]
    return {
        "choices": per_run,
        "final_every": last,
        "final_median": statistics.median(last) if last else None,
        "steps_redone_at_most": max(every) - 1 if every else None,
    }


def _plain_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("NONSTOP_")}


def run(quick: bool) -> dict[str, Any]:
    pairs = reps(quick, full=10)  # NONSTOP_BENCH_REPS=20: twenty pairs, for a narrower interval
    steps, warmup = (40, 10) if quick else (70, 30)
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-overhead-"))
    load_before = os.getloadavg()
    ours, peer, every, bare = [], [], [], []
    for i in range(pairs):
        ours.append(_one(root, f"ours-{i}", steps, warmup, ours=True))
        peer.append(_one(root, f"torchrun-{i}", steps, warmup, ours=False))
        every.append(_one(root, f"ours-every-step-{i}", steps, warmup, ours=True, memory=1))
        bare.append(_one(root, f"ours-no-memory-{i}", steps, warmup, ours=True, memory=None))
        print(  # progress on stderr (the harness's JSON is stdout's last line)
            f"[overhead] pair {i + 1}/{pairs}: ours {ours[-1]:.1f} peer {peer[-1]:.1f} "
            f"every step {every[-1]:.1f} no-memory {bare[-1]:.1f} "
            f"ms/step, load {os.getloadavg()[0]:.1f}",
            file=sys.stderr,
            flush=True,
        )
    no_memory = summarize_reps(
        bare, peer, name="overhead", unit="ms/step", better="lower", peer_name="", paired=True
    )
    every_step = summarize_reps(
        every, peer, name="overhead", unit="ms/step", better="lower", peer_name="", paired=True
    )
    chosen = _chosen(root, pairs)
    return summarize(
        ours,
        peer,
        pairs=pairs,
        steps=steps,
        warmup_steps=warmup,
        workload=" ".join(train_args(steps)),
        ours_flags=f"nonstop run --memory-checkpoint-every {MEMORY_EVERY} "
        "(warm standbys on by default)",
        peer_workload=" ".join(peer_args(steps, Path("CKPT"))),
        order="ABCDABCD (ours first; C: ours with a snapshot at every step; D: ours without "
        "in-memory snapshots)",
        detail={
            "auto_chosen": chosen,
            "every_step": {
                "flags": f"nonstop run --memory-checkpoint-every {EVERY_STEP}",
                "ms_per_step": every_step["ours"],
                "ratio": every_step["ratio"],
                "spread": {k: every_step["spread"][k] for k in ("ours", "ratio")},
                "samples": every,
            },
            "no_memory": {
                "flags": "nonstop run (no --memory-checkpoint-every; standbys on)",
                "ms_per_step": no_memory["ours"],
                "ratio": no_memory["ratio"],
                "spread": {k: no_memory["spread"][k] for k in ("ours", "ratio")},
                "samples": bare,
            },
            "snapshot_ms_per_step": statistics.median(ours) - no_memory["ours"],
            "snapshot_every_step_ms_per_step": statistics.median(every) - no_memory["ours"],
        },
        method="mean of rank 0's 10-step ms/step lines after warm-up, per run; "
        "median over runs; ratio = median pair ratio, paired bootstrap CI",
        load=[round(x, 2) for x in (*load_before, *os.getloadavg())],
        nvrx=nvrx_status(),
        date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        run_root=str(root),
    )


if __name__ == "__main__":
    import json

    print(json.dumps(run(quick=True), indent=1))
