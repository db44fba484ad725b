"""The terminal report (rich): headline ETTR, badput by category, failures, and two runs compared.

`print_summary(summary)` takes the dict of `nonstop report --json` (what `summarize(...)
.to_dict()` returns, plus the optional keys `full_summary` adds) and is also what `nonstop demo`
prints at the end.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from nonstop import taxonomy
from nonstop.ledger.restarts import COLUMNS as RESTART_COLUMNS

BADPUT_HELP = {
    "startup": "job start to the first step",
    "checkpoint": "training blocked by checkpoint saves",
    "lost_progress": "steps redone after a rollback",
    "detection": "fault to its detection",
    "recovery": "detection to the next first step",
    "planned": "drain, restart or preemption: stop to next step",
    "network": "slow steps while a network outage healed by itself",
    "straggler": "slow steps over the ideal step time",
    "idle": "gaps, shutdown, supervisor down",
}
STYLE = {
    "productive": "green",
    "startup": "grey62",
    "checkpoint": "blue",
    "lost_progress": "dark_orange",
    "detection": "yellow",
    "recovery": "magenta",
    "planned": "cyan",
    "network": "red",
    "straggler": "purple",
    "idle": "grey50",
}


def dur(s: float | None) -> str:
    """Seconds as a short human duration: 12.3 s, 4.5 min, 2.10 h."""
    if s is None:
        return "-"
    if s >= 3600:
        return f"{s / 3600:.2f} h"
    if s >= 60:
        return f"{s / 60:.1f} min"
    return f"{s:.2f} s" if s < 10 else f"{s:.1f} s"


_dur = dur  # the name earlier modules used


def _bar(share: float, width: int = 12) -> str:
    full = share * width
    return "█" * int(full) + ("▌" if full - int(full) >= 0.5 else "")


def headline(summary: dict[str, Any]) -> Panel:
    """ETTR in large type with the run's key figures, as one panel."""
    if summary.get("measured") is False:
        return _unmeasured_headline(summary)
    ettr = summary["ettr"]
    color = "green" if ettr >= 0.9 else "yellow" if ettr >= 0.7 else "red"
    title = Text.assemble(
        ("ETTR ", "bold"),
        (f"{ettr:.1%}", f"bold {color}"),
        f"  of {dur(summary['wall_s'])} wall time",
    )
    figs = [
        ("productive", dur(summary["productive_s"])),
        ("badput", dur(sum(summary["badput_s"].values()))),
        ("attempts", str(summary["attempts"])),
        ("failures", failure_count(summary["failures"])),
        ("final step", str(summary["final_step"])),
        ("steps run / redone", f"{summary.get('steps_total')} / {summary.get('steps_lost')}"),
    ]
    if summary.get("tokens_per_s"):
        figs.append(("tokens/s", f"{summary['tokens_per_s']:,.0f}"))
    if summary.get("checkpoints"):
        mean = summary.get("checkpoint_blocking_mean_s")
        figs.append(("checkpoints", f"{summary['checkpoints']} (blocking {dur(mean)} mean)"))
    if summary.get("peak_power_w") is not None:
        figs.append(("peak power", f"{summary['peak_power_w']:.0f} W"))
    if summary.get("peak_temp_c") is not None:
        figs.append(("peak temperature", f"{summary['peak_temp_c']:.0f} °C"))
    line = Text("   ").join(Text.assemble((k + " ", "dim"), v) for k, v in figs)
    return Panel(
        Group(title, line),
        title=summary.get("run_id") or "nonstop report",
        title_align="left",
        expand=False,
    )


def goodput_table(summary: dict[str, Any], title: str = "Goodput") -> Table:
    wall = summary["wall_s"] or 1.0
    t = Table(title=f"{title}: ETTR {summary['ettr']:.1%} of {dur(summary['wall_s'])}")
    t.add_column("where the time went", no_wrap=True)
    t.add_column("seconds", justify="right", no_wrap=True)
    t.add_column("share", justify="right", no_wrap=True)
    t.add_column("", min_width=12, no_wrap=True)
    t.add_column("meaning", style="dim", overflow="ellipsis", ratio=1)
    rows = [("productive", summary["productive_s"], "steps whose progress survived")]
    rows += [(k, v, BADPUT_HELP.get(k, "")) for k, v in summary["badput_s"].items()]
    for k, v, meaning in rows:
        t.add_row(
            k,
            f"{v:.1f}",
            f"{v / wall:.1%}",
            Text(_bar(v / wall), STYLE.get(k, "")),
            meaning,
            style="green" if k == "productive" else "",
        )
    return t


def failure_count(failures: list[dict[str, Any]]) -> str:
    """'2', or '2 + 1 planned': planned stops (drain, restart, preemption) are not failures."""
    planned = sum(1 for f in failures if f.get("planned"))
    unplanned = len(failures) - planned
    return f"{unplanned} + {planned} planned" if planned else str(unplanned)


def failures_table(failures: list[dict[str, Any]]) -> Table:
    what = "Failures and planned stops" if any(f.get("planned") for f in failures) else "Failures"
    t = Table(title=f"{what} ({failure_count(failures)})")
    for col in ("attempt", "rank", "host", "category", "action"):
        t.add_column(col, no_wrap=True)
    t.add_column("detail", overflow="fold")
    for f in failures:
        cat = f.get("category") or "unknown"
        name = taxonomy.get(cat).name if cat in taxonomy.IDS else cat
        detail = (
            f.get("detail") or f.get("message") or f.get("signal") or (f"exit {f.get('exit_code')}")
        )
        t.add_row(
            str(f.get("attempt")),
            str(f.get("rank")),
            str(f.get("host")),
            name,
            str(f.get("action")),
            str(detail)[:160],
        )
    return t


def restarts_table(restarts: list[dict[str, Any]], limit: int = 6) -> Table:
    """Seconds per phase of each restart (nonstop.ledger.restarts), a column per restart: how
    its workers started (warm standbys or cold) and where its state came from."""
    shown = restarts[-limit:]
    more = f", the last {limit} of {len(restarts)}" if len(restarts) > limit else ""
    # the title is the caption above the table: kept short enough not to wrap over a
    # one-restart table; a restart without a measured total gets "-", and no blank total row
    t = Table(title=f"Restarts (s){more}", title_justify="left")
    t.add_column("phase", no_wrap=True)
    for r in shown:
        t.add_column(f"→ {r['attempt']}", justify="right", no_wrap=True)
    t.add_row("workers", *[r["path"] or "-" for r in shown])
    t.add_row("state from", *[r["source"] or "-" for r in shown])
    for col in RESTART_COLUMNS:
        if any(col in r["phases"] for r in shown):
            t.add_row(
                col, *[f"{r['phases'][col]:.2f}" if col in r["phases"] else "-" for r in shown]
            )
    if any(r["total_s"] is not None for r in shown):
        t.add_row("total", *["-" if r["total_s"] is None else f"{r['total_s']:.2f}" for r in shown])
    return t


def _unmeasured_headline(summary: dict[str, Any]) -> Panel:
    """A run without nonstop.runtime steps: what is not measured and why, and the estimate
    from collective progress, labelled as one; never a made-up zero."""
    est = summary.get("estimate") or {}
    title = Text.assemble(
        ("ETTR ", "bold"),
        ("not measured", "bold yellow"),
        f"  ({est.get('why', 'no steps reported')})",
    )
    figs = [
        ("wall time", dur(summary["wall_s"])),
        ("attempts", str(summary["attempts"])),
        ("failures", failure_count(summary["failures"])),
    ]
    if est.get("collective_s") is not None:
        figs.insert(1, ("collectives advancing (estimate)", dur(est["collective_s"])))
        figs.append(("ETTR at most (estimate)", f"{est['ettr_at_most']:.1%}"))
    line = Text("   ").join(Text.assemble((k + " ", "dim"), v) for k, v in figs)
    basis = Text(f"estimate from {est.get('basis', 'nothing')}", style="dim")
    return Panel(
        Group(title, line, basis),
        title=summary.get("run_id") or "nonstop report",
        title_align="left",
        expand=False,
    )


def estimate_table(summary: dict[str, Any]) -> Table:
    """Per attempt, what an unmodified script left: collectives completed by every rank, the
    seconds in which they advanced, and where the logs say it resumed from."""
    est = summary.get("estimate") or {}
    t = Table(title="Progress, estimated from collectives (no nonstop.runtime steps)")
    for col in ("attempt", "collectives", "advancing", "resumed from"):
        t.add_column(
            col,
            no_wrap=col != "resumed from",
            justify="right" if col in ("collectives", "advancing") else "left",
        )
    for a in est.get("attempts", []):
        r = a.get("resumed_from")
        t.add_row(
            str(a["attempt"]),
            "not seen" if a["collectives"] is None else str(a["collectives"]),
            "not seen" if a["active_s"] is None else dur(a["active_s"]),
            f"{r['unit']} {r['at']}: {r['line'][:60]}" if r else "-",
        )
    return t


def print_summary(summary: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console()
    console.print(headline(summary))
    if summary.get("measured") is False:
        console.print(estimate_table(summary))
    else:
        console.print(goodput_table(summary))
    if summary["failures"]:
        console.print(failures_table(summary["failures"]))
    if summary.get("restarts"):
        console.print(restarts_table(summary["restarts"]))
    if summary.get("numerical"):
        from nonstop.report.numerics import numerical_table

        console.print(numerical_table(summary["numerical"]))


# -- two runs side by side --------------------------------------------------------------------

ROWS: list[tuple[str, str, str]] = [
    # (key in the summary or "badput_s.<cat>", label, format: pct | s | int | f)
    ("ettr", "ETTR", "pct"),
    ("wall_s", "wall time", "s"),
    ("productive_s", "productive", "s"),
    *[(f"badput_s.{k}", f"  badput: {k}", "s") for k in BADPUT_HELP],
    ("attempts", "attempts", "int"),
    ("failure_count", "failures", "int"),
    ("final_step", "final step", "int"),
    ("steps_total", "steps run", "int"),
    ("steps_lost", "steps redone", "int"),
    ("ideal_step_s", "ideal step", "s"),
    ("tokens_per_s", "tokens/s while training", "f"),
    ("checkpoints", "checkpoints", "int"),
    ("checkpoint_blocking_mean_s", "checkpoint blocking (mean)", "s"),
    ("checkpoint_blocking_total_s", "checkpoint blocking (total)", "s"),
]


def _fmt(v: Any, kind: str, signed: bool = False) -> str:
    if v is None:
        return "-"
    sign = "+" if signed and v > 0 else ""
    if kind == "pct":
        return f"{sign}{v * 100:.1f} pt" if signed else f"{v:.1%}"
    if kind == "s":
        return f"{sign}{v:.3f} s" if abs(v) < 1 else f"{sign}{v:.1f} s"
    if kind == "int":
        return f"{sign}{int(v)}"
    return f"{sign}{v:,.0f}"


def compare_table(result: dict[str, Any]) -> Table:
    """The `nonstop report A B` table: A, B and B - A for each figure."""
    a, b, delta = result["a"], result["b"], result["delta"]
    t = Table(title="Two runs compared (delta = B - A)")
    t.add_column("")
    t.add_column(f"A: {a.get('run_id') or 'A'}", justify="right")
    t.add_column(f"B: {b.get('run_id') or 'B'}", justify="right")
    t.add_column("delta", justify="right")
    for key, label, kind in ROWS:
        d = lookup(delta, key)
        better = key in ("ettr", "productive_s", "final_step", "tokens_per_s")
        style = "" if not d else ("green" if (d > 0) == better else "red")
        if key in ("wall_s", "attempts", "steps_total", "checkpoints", "ideal_step_s"):
            style = ""  # neither better nor worse by itself
        t.add_row(
            label,
            _fmt(lookup(a, key), kind),
            _fmt(lookup(b, key), kind),
            Text(_fmt(d, kind, signed=True), style=style),
        )
    return t


def lookup(d: dict[str, Any], key: str) -> Any:
    if key == "failure_count" and "failures" in d and isinstance(d["failures"], list):
        return len(d["failures"])
    for part in key.split("."):
        d = d.get(part) if isinstance(d, dict) else None  # type: ignore[assignment]
    return d


def print_compare(result: dict[str, Any], console: Console | None = None) -> None:
    console = console or Console()
    console.print(compare_table(result))
