"""`nonstop report RUN_DIR --tensorboard OUTDIR`: the report's scalars as a TensorBoard run.

Writes OUTDIR/<run_id>/events.out.tfevents.*.nonstop with torch.utils.tensorboard (what
TorchTitan uses), so several runs exported to one OUTDIR show up side by side:

    nonstop report runs/A --tensorboard tb/ && nonstop report runs/B --tensorboard tb/
    tensorboard --logdir tb/

Scalars, by training step: train/loss, train/tokens_per_s, time/step_s, time/busy_max_s (the
run's surviving steps, once each), checkpoint/blocking_s, and at the final step goodput/ettr,
goodput/wall_s, goodput/productive_s, badput/<category>_s, failures/<category>. Telemetry,
telemetry/<metric>/<host>_r<rank>, is indexed by seconds since the run began (every sample
kept, failures included; TensorBoard's "relative" x-axis shows the same).
Re-exporting a run replaces its earlier export (only files ending in .nonstop are removed).
Needs the `tensorboard` package: pip install 'nonstop[tensorboard]'.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from nonstop.errors import UserError
from nonstop.report import data as rd
from nonstop.report.compare import full_summary

SUFFIX = ".nonstop"


def _writer(logdir: Path) -> Any:
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        raise UserError(
            "--tensorboard needs the tensorboard package, which is not installed; "
            "pip install 'nonstop[tensorboard]' (or: pip install tensorboard)"
        ) from None
    return SummaryWriter(log_dir=str(logdir), filename_suffix=SUFFIX)


def export(data: rd.ReportData, outdir: str | os.PathLike[str]) -> Path:
    """Write the run's scalars under outdir/<run_id>/; return the event file's path."""
    logdir = Path(outdir) / (data.run_id or "run")
    for p in (Path(outdir), logdir):
        if p.exists() and not p.is_dir():
            raise UserError(f"{p} is a file; pass a folder to --tensorboard")
    try:
        logdir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"--tensorboard {logdir}: cannot create it ({e.strerror or e})") from None
    for old in logdir.glob(f"events.out.tfevents.*{SUFFIX}"):
        old.unlink()
    w = _writer(logdir)
    try:
        _write(w, data)
    finally:
        w.close()
    files = sorted(logdir.glob(f"events.out.tfevents.*{SUFFIX}"))
    assert files, f"SummaryWriter wrote no event file in {logdir}"
    return files[-1]


def _write(w: Any, data: rd.ReportData) -> None:
    lead = [s for s in rd.lead_rank_steps(data) if s.survived]
    busy_max: dict[tuple[int, int], float] = {}
    for s in data.steps:
        key = (s.attempt, s.step)
        busy_max[key] = max(busy_max.get(key, 0.0), s.busy_s)
    for s in lead:
        if s.loss is not None:
            w.add_scalar("train/loss", s.loss, s.step, walltime=s.end)
        duration = s.end - s.start
        w.add_scalar("time/step_s", duration, s.step, walltime=s.end)
        w.add_scalar("time/busy_max_s", busy_max[(s.attempt, s.step)], s.step, walltime=s.end)
        if s.tokens and duration > 0:
            w.add_scalar("train/tokens_per_s", s.tokens / duration, s.step, walltime=s.end)
    for c in data.checkpoints:
        if c["blocking_s"] is not None:
            w.add_scalar("checkpoint/blocking_s", c["blocking_s"], c["step"], walltime=c["time"])
    # Telemetry is indexed by whole seconds since the run began, not by training step: steps
    # repeat after a restart, and TensorBoard drops a tag's points past a step that goes back.
    for t, rank, host, _source, metrics in data.telemetry:
        step = int(t - data.start)
        for name, value in metrics.items():
            w.add_scalar(f"telemetry/{name}/{host}_r{rank}", value, step, walltime=t)
    summary = full_summary(data)
    final = summary["final_step"] if summary["final_step"] is not None else 0
    for figure in ("ettr", "wall_s", "productive_s"):
        if summary[figure] is not None:  # None: not measured (a script without nonstop.runtime)
            w.add_scalar(f"goodput/{figure}", summary[figure], final, walltime=data.end)
    for cat, secs in summary["badput_s"].items():
        w.add_scalar(f"badput/{cat}_s", secs, final, walltime=data.end)
    for cat, n in summary["failures_by_category"].items():
        w.add_scalar(f"failures/{cat}", n, final, walltime=data.end)
    w.flush()
