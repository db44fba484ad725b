"""`nonstop demo`: a tiny Llama trained on local CPU ranks, with live progress and the goodput
table at the end.

    nonstop demo                          # 2 ranks, defaults, a new folder under ./runs/
    nonstop demo --ranks 4 --steps 300 --run-dir runs/mine
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from nonstop import rundir
from nonstop.errors import UserError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nonstop demo", description=__doc__.split("\n")[0])
    p.add_argument("--run-dir", type=Path, default=None, help="default: a new folder in ./runs/")
    p.add_argument("--ranks", type=int, default=2, help="CPU ranks, 2 to 4 (default 2)")
    p.add_argument("--steps", type=int, default=200, help="training steps (default 200)")
    p.add_argument("--quiet", action="store_true", help="no live view")
    return p


def _tail_steps(path: Path, offset: int) -> tuple[list[dict], int]:
    """New complete step events of one stream since `offset`."""
    from nonstop.events import ReadStats, iter_events

    if not path.exists():
        return [], offset
    stats = ReadStats()
    out = [e.payload for e in iter_events(path, start_offset=offset, stats=stats)
           if e.kind == "step"]  # fmt: skip
    return out, stats.end_offset


def main(argv: list[str]) -> int:
    a = build_parser().parse_args(argv)
    if not 2 <= a.ranks <= 4:
        raise UserError(f"--ranks must be 2 to 4 on one machine, got {a.ranks}")
    if a.steps <= 0:
        raise UserError(f"--steps must be positive, got {a.steps}")
    root = a.run_dir or rundir.default_root()
    if (root / rundir.LEDGER).exists():
        raise UserError(f"{root} already holds a run; pass a new --run-dir")
    rd = rundir.create(root)
    run_id = root.name
    rd.write_config({"run_id": run_id, "demo": {"ranks": a.ranks, "steps": a.steps}})
    env = dict(os.environ, **{rundir.ENV_RUN_DIR: str(rd.root.resolve()),
                               rundir.ENV_RUN_ID: run_id})  # fmt: skip
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", str(a.ranks),
           "--rdzv-backend", "c10d", "--rdzv-endpoint", "127.0.0.1:0",
           "-m", "nonstop.workloads.llama.train", "--steps", str(a.steps)]  # fmt: skip
    print(f"nonstop demo: {a.ranks} ranks, {a.steps} steps, run directory {rd.root}")
    log = open(rd.root / "logs" / "launcher.log", "w")  # noqa: SIM115
    with log, subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT) as proc:
        _watch(proc, rd, a.steps, a.quiet)
    if proc.returncode != 0:
        print(f"nonstop demo: training exited with {proc.returncode}; see {log.name}")
    from nonstop.ledger import summarize_run
    from nonstop.report.terminal import print_summary

    print_summary(summarize_run(rd.root).to_dict())
    print(f"\nnext: nonstop report {rd.root}")
    return 0 if proc.returncode == 0 else 1


def _watch(proc: subprocess.Popen[bytes], rd: rundir.RunDir, steps: int, quiet: bool) -> None:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    offset, attempt = 0, 0
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                  TimeElapsedColumn(), disable=quiet) as bar:  # fmt: skip
        task = bar.add_task("training", total=steps, info="starting ranks...")
        while proc.poll() is None:
            time.sleep(0.5)
            new, offset = _tail_steps(rd.events(attempt, 0), offset)
            if new:
                last = new[-1]
                loss = last.get("loss")
                bar.update(
                    task,
                    completed=last["step"] + 1,
                    info=f"step {last['step'] + 1} loss {loss:.3f}" if loss else "",
                )
