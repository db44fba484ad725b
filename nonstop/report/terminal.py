"""The terminal report: headline ETTR, badput by category, attempts and failures (rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from nonstop import taxonomy

BADPUT_HELP = {
    "startup": "job start to the first step",
    "checkpoint": "training blocked by checkpoint saves",
    "lost_progress": "steps redone after a rollback",
    "detection": "fault to its detection",
    "recovery": "detection to the next first step",
    "straggler": "slow steps over the ideal step time",
    "idle": "gaps, shutdown, supervisor down",
}


def _dur(s: float) -> str:
    if s >= 3600:
        return f"{s / 3600:.2f} h"
    if s >= 60:
        return f"{s / 60:.1f} min"
    return f"{s:.1f} s"


def goodput_table(summary: dict[str, Any], title: str = "Goodput") -> Table:
    wall = summary["wall_s"] or 1.0
    t = Table(title=f"{title}: ETTR {summary['ettr']:.1%} of {_dur(summary['wall_s'])}")
    t.add_column("where the time went")
    t.add_column("seconds", justify="right")
    t.add_column("share", justify="right")
    t.add_column("meaning", style="dim")
    t.add_row("productive", f"{summary['productive_s']:.1f}",
              f"{summary['productive_s'] / wall:.1%}", "steps whose progress survived",
              style="green")  # fmt: skip
    for k, v in summary["badput_s"].items():
        t.add_row(k, f"{v:.1f}", f"{v / wall:.1%}", BADPUT_HELP.get(k, ""))
    return t


def failures_table(failures: list[dict[str, Any]]) -> Table:
    t = Table(title=f"Failures ({len(failures)})")
    for col in ("attempt", "rank", "host", "category", "action", "detail"):
        t.add_column(col)
    for f in failures:
        cat = f.get("category") or "unknown"
        name = taxonomy.get(cat).name if cat in taxonomy.IDS else cat
        detail = f.get("message") or f.get("signal") or f"exit {f.get('exit_code')}"
        t.add_row(str(f.get("attempt")), str(f.get("rank")), str(f.get("host")), name,
                  str(f.get("action")), str(detail)[:80])  # fmt: skip
    return t


def print_summary(summary: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console()
    console.print(goodput_table(summary))
    console.print(
        f"attempts: {summary['attempts']}   final step: {summary['final_step']}   "
        f"steps run: {summary.get('steps_total')} (lost {summary.get('steps_lost')})"
    )
    if summary["failures"]:
        console.print(failures_table(summary["failures"]))
