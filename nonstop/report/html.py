"""`nonstop report RUN_DIR --html [OUT]`: one self-contained HTML page (default RUN_DIR/report.html).

The page needs no network: charts are SVG drawn here (nonstop.report.charts), the only script is
report.js (tooltips, render check), both inlined, and a Content-Security-Policy forbids the page
from loading anything else. It is laid out for a laptop screen (1366x768): the headline and the
badput waterfall first, then the timeline, failures, stragglers, loss, power and checkpoints.

    nonstop report runs/20261129-201500-a1b2c3 --html            # -> .../report.html
    nonstop report runs/20261129-201500-a1b2c3 --html /tmp/r.html

Standard library only.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from html import escape
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from nonstop import __version__, taxonomy
from nonstop.errors import UserError
from nonstop.ledger.restarts import COLUMNS as RESTART_COLUMNS
from nonstop.report import charts
from nonstop.report import data as rd
from nonstop.report.terminal import BADPUT_HELP, dur, failure_count


def _asset(name: str) -> str:
    return (resources.files("nonstop.report") / "static" / name).read_text(encoding="utf-8")


def render(data: rd.ReportData) -> str:
    """The whole page as one string."""
    parts = [_header(data)]
    if data.warnings:
        shown = "<br>".join(escape(w) for w in data.warnings[:5])
        more = f" (and {len(data.warnings) - 5} more)" if len(data.warnings) > 5 else ""
        parts.append(f'<div class="warn">Skipped or lost event records{more}:<br>{shown}</div>')
    heat, note = charts.step_heatmap(data)
    metrics = rd.telemetry_metrics(data)
    power = ("power_w", "power (W)") if "power_w" in metrics else ("cpu_util_pct", "CPU use (%)")
    where = _card(
        "Where the time went",
        "wall time stepped down by each kind of badput to the productive time",
        charts.waterfall(data),
        "waterfall",
        legend=_badput_legend(),
    )
    if data.estimate is not None:  # no steps: the badput split would rest on nothing
        where = _card(
            "Progress, estimated",
            "the script does not report steps through "
            "nonstop.runtime: what its collectives and logs show",
            "",
            "",
            extra=_estimate_table(data.estimate),
        )
    cards = [
        _headline(data),
        where,
        _card(
            "Timeline",
            "attempts, trained spans (green kept, orange redone), restart phases, "
            "checkpoints, failures (red) and their detection (amber); hover for details",
            charts.timeline(data),
            "timeline",
            full=True,
        ),
        _card(
            "Failures by category",
            "root causes, coloured by component group (Llama 3 taxonomy)",
            charts.failure_bars(data),
            "failures",
            extra=_failure_table(data),
        ),
        _card(
            "Loss",
            "lead rank's loss by step; dashed: steps rolled back and redone",
            charts.loss_chart(data),
            "loss",
        ),
        _card(
            "Step time per rank",
            "each rank's busy time per step (compute, without waiting "
            "for peers) over the run; a straggler is a darker row" + (f"; {note}" if note else ""),
            heat,
            "heatmap",
            full=True,
        ),
        _card(
            power[1].split(" (")[0].capitalize() + " and throughput",
            f"{power[1]} of each "
            "sampled device, tokens/s dashed on the right axis; red bands: down after a failure",
            charts.telemetry_chart(data, power[0], power[1]),
            "power",
        ),
        _card(
            "Temperature and throughput",
            "degrees Celsius, tokens/s dashed on the right axis",
            charts.telemetry_chart(data, "temp_c", "temperature (°C)"),
            "temperature",
        ),
        _card(
            "Checkpoint blocking",
            "seconds each save blocked training (dark) within the whole save (light)",
            charts.checkpoint_chart(data),
            "checkpoints",
            extra=_checkpoint_note(data),
        ),
        _card(
            "Recovery",
            "detections, actions, health checks and restart phases",
            "",
            "",
            extra=_recovery_tables(data),
        ),
    ]
    parts.append('<div class="grid">' + "".join(cards) + "</div>")
    page = Template(_asset("report.html"))
    return page.substitute(
        version=escape(__version__),
        title=escape(f"nonstop report: {data.run_id}"),
        body="\n".join(parts),
        script=_asset("report.js"),
    )


def write(data: rd.ReportData, out: str | os.PathLike[str] | None = None) -> Path:
    """Write the page (atomically) to `out`, default RUN_DIR/report.html, DIR/report.html for
    a folder; return its path. A place it cannot be written is a UserError, and nothing is
    left behind (a folder given to --html was a traceback that left `DIR.tmp` beside it)."""
    path = Path(out) if out is not None else Path(data.run_dir) / "report.html"
    if path.is_dir():
        path = path / "report.html"
    page = render(data)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # ours alone: no user file
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(page, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        with contextlib.suppress(OSError):  # not there, or its folder is not one
            tmp.unlink()
        raise UserError(f"--html {path}: cannot write it ({e.strerror or e})") from None
    return path


def _header(data: rd.ReportData) -> str:
    when = dt.datetime.fromtimestamp(data.start, tz=dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return (
        f"<header><h1>nonstop report: {escape(data.run_id)}</h1><span class=meta>"
        f"{escape(data.run_dir)} &middot; started {when} &middot; nonstop {__version__}"
        "</span></header>"
    )


def _card(
    title: str,
    sub: str,
    chart: str,
    name: str,
    *,
    full: bool = False,
    extra: str = "",
    legend: str = "",
) -> str:
    body = f'<div class="chart" id="chart-{name}">{chart}</div>' if chart else ""
    return (
        f'<section class="card{" full" if full else ""}"><h2>{escape(title)}</h2>'
        f'<p class="sub">{escape(sub)}</p>{body}{legend}{extra}</section>'
    )


def _badput_legend() -> str:
    items = [("productive", "steps whose progress survived"), *BADPUT_HELP.items()]
    return (
        '<div class="legend">'
        + "".join(
            f'<span title="{escape(help_)}"><i style="background:{charts.COLORS[k]}"></i>'
            f"{escape(k.replace('_', ' '))}</span>"
            for k, help_ in items
        )
        + "</div>"
    )


def _unmeasured_headline(data: rd.ReportData) -> str:
    """No steps: ETTR, productive time and the final step are not measured; the estimate from
    collective progress is shown as one, with its basis."""
    s, est = data.summary, data.estimate or {}
    figs = [
        (dur(s["wall_s"]), "wall time"),
        (dur(est.get("collective_s")), "collectives advancing (estimate)"),
        (
            "-" if est.get("ettr_at_most") is None else f"{est['ettr_at_most']:.1%}",
            "ETTR at most (estimate)",
        ),
        (str(s["attempts"]), "attempts"),
        (failure_count(s["failures"]), "failures (root causes)"),
        ("not measured", "steps"),
    ]
    cells = "".join(f"<div><b>{escape(v)}</b><span>{escape(k)}</span></div>" for v, k in figs)
    return (
        f'<section class="card headline" id="headline"><div><h2>Effective training time'
        f' ratio</h2><p class="sub">{escape(str(est.get("why", "")))}</p>'
        f'<div class="ettr unmeasured" data-ettr="">not measured</div>'
        f'<p class="note">estimate from {escape(str(est.get("basis", "nothing")))}</p>'
        f'</div><div class="figs">{cells}</div></section>'
    )


def _estimate_table(est: dict[str, Any]) -> str:
    rows = []
    for a in est.get("attempts", []):
        r = a.get("resumed_from")
        rows.append(
            [
                a["attempt"],
                "not seen" if a["collectives"] is None else a["collectives"],
                "not seen" if a["active_s"] is None else dur(a["active_s"]),
                f"{r['unit']} {r['at']}: {r['line']}" if r else "",
            ]
        )
    return _table(
        ["attempt", "collectives", "advancing", "resumed from (log)"],
        rows,
        numeric=frozenset({1, 2}),
    )


def _headline(data: rd.ReportData) -> str:
    if data.estimate is not None:
        return _unmeasured_headline(data)
    s = data.summary
    ettr = s["ettr"]
    grade = "good" if ettr >= 0.9 else "fair" if ettr >= 0.7 else "poor"
    ck = rd.checkpoint_stats(data)
    tps = rd.tokens_per_s(data)
    peak = _peak(data, "power_w")
    temp = _peak(data, "temp_c")
    figs = [
        (dur(s["wall_s"]), "wall time"),
        (dur(s["productive_s"]), "productive"),
        (dur(sum(s["badput_s"].values())), "badput"),
        (str(s["attempts"]), "attempts"),
        (failure_count(s["failures"]), "failures (root causes)"),
        (str(s["final_step"]), "final step"),
        (f"{s['steps_total']} / {s['steps_lost']}", "steps run / redone"),
        ("-" if s["ideal_step_s"] is None else f"{s['ideal_step_s'] * 1000:.0f} ms", "ideal step"),
        ("-" if tps is None else f"{tps:,.0f}", "tokens/s while training"),
        (str(ck["checkpoints"]), "checkpoints"),
        (
            "-"
            if ck["checkpoint_blocking_mean_s"] is None
            else f"{ck['checkpoint_blocking_mean_s']:.2f} s",
            "mean checkpoint blocking",
        ),
        (f"{peak:.0f} W", "peak power (one device)")
        if peak is not None
        else (f"{temp:.0f} °C", "peak temperature")
        if temp is not None
        else ("-", "power (no GPU telemetry)"),
    ]
    cells = "".join(f"<div><b>{escape(v)}</b><span>{escape(k)}</span></div>" for v, k in figs)
    return (
        f'<section class="card headline" id="headline"><div><h2>Effective training time'
        f' ratio</h2><p class="sub">productive time over wall time (ETTR, goodput)</p>'
        f'<div class="ettr {grade}" data-ettr="{ettr:.6f}">{ettr:.1%}<small>ETTR</small>'
        f'</div></div><div class="figs">{cells}</div></section>'
    )


def _peak(data: rd.ReportData, metric: str) -> float | None:
    vals = [m[metric] for *_, m in data.telemetry if metric in m]
    return max(vals) if vals else None


def _table(head: list[str], rows: list[list[Any]], numeric: frozenset[int] = frozenset()) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{"num" if i in numeric else "msg" if i == len(r) - 1 else ""}">'
            f"{escape('' if v is None else str(v))}</td>"
            for i, v in enumerate(r)
        )
        + "</tr>"
        for r in rows
    )
    # inside a scroller: a wide table scrolls in its card, never the page sideways
    return f'<div class="scroll"><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table></div>'


def _failure_table(data: rd.ReportData) -> str:
    fails = data.summary["failures"]
    if not fails:
        return '<p class="note">No failures.</p>'
    rows = []
    for fl in fails:
        cat = fl.get("category") or taxonomy.UNKNOWN
        name = taxonomy.get(cat).name if cat in taxonomy.IDS else cat
        detail = fl.get("detail") or fl.get("message") or ""
        rows.append(
            [
                fl["attempt"],
                f"t+{fl['time'] - data.start:.1f} s",
                fl["rank"],
                fl["host"],
                name,
                fl["action"],
                str(detail)[:300],
            ]
        )
    table = _table(["attempt", "when", "rank", "host", "category", "action", "detail"], rows)
    summary = f"{failure_count(fails)} failure(s)"
    own = "".join(
        f"<details><summary>attempt {fl['attempt']}, rank {fl['rank']}: its last lines</summary>"
        f"<pre>{escape(chr(10).join(fl['last_lines']))}</pre></details>"
        for fl in fails
        if fl.get("last_lines")
    )
    return f"<details open><summary>{summary}</summary>{table}{own}</details>"


def _checkpoint_note(data: rd.ReportData) -> str:
    ck = rd.checkpoint_stats(data)
    if not ck["checkpoints"]:
        return ""
    return (
        f'<p class="note">{ck["checkpoints"]} saves; blocking mean '
        f"{ck['checkpoint_blocking_mean_s'] or 0:.3f} s, max {ck['checkpoint_blocking_max_s'] or 0:.3f} s, "
        f"total {ck['checkpoint_blocking_total_s'] or 0:.1f} s</p>"
    )


def _recovery_tables(data: rd.ReportData) -> str:
    def rel(t: float | None) -> str:
        return "" if t is None else f"t+{t - data.start:.1f} s"

    out = []
    if data.detections:
        out.append(
            "<details open><summary>detections</summary>"
            + _table(
                ["attempt", "when", "kind", "rank", "host", "latency"],
                [
                    [
                        d["attempt"],
                        rel(d["time"]),
                        d["kind"],
                        d["rank"],
                        d["host"],
                        "" if d["latency_s"] is None else f"{d['latency_s']:.2f} s",
                    ]
                    for d in data.detections
                ],
            )
            + "</details>"
        )
    if data.actions:
        out.append(
            "<details open><summary>actions</summary>"
            + _table(
                ["attempt", "when", "action", "host", "reason"],
                [
                    [a["attempt"], rel(a["time"]), a["action"], a["host"], a["reason"]]
                    for a in data.actions
                ],
            )
            + "</details>"
        )
    if data.health:
        out.append(
            "<details><summary>health checks</summary>"
            + _table(
                ["attempt", "when", "check", "status", "host", "detail"],
                [
                    [h["attempt"], rel(h["time"]), h["name"], h["status"], h["host"], h["detail"]]
                    for h in data.health
                ],
            )
            + "</details>"
        )
    if data.restarts:
        cols = [c for c in RESTART_COLUMNS if any(c in r["phases"] for r in data.restarts)]
        out.append(
            "<details open><summary>restarts: seconds per phase</summary>"
            + _table(
                ["attempt", "workers", "state from", *cols, "total"],
                [
                    [
                        r["attempt"],
                        r["path"],
                        r["source"],
                        *[f"{r['phases'][c]:.2f}" if c in r["phases"] else "" for c in cols],
                        "" if r["total_s"] is None else f"{r['total_s']:.2f}",
                    ]
                    for r in data.restarts
                ],
                numeric=frozenset(range(3, len(cols) + 4)),
            )
            + "</details>"
        )
    if data.phases:
        out.append(
            "<details><summary>restart phases</summary>"
            + _table(
                ["attempt", "phase", "start", "seconds"],
                [
                    [p["attempt"], p["phase"], rel(p["start"]), f"{p['end'] - p['start']:.2f}"]
                    for p in data.phases
                ],
                numeric=frozenset({3}),
            )
            + "</details>"
        )
    return "".join(out) or '<p class="note">Nothing to recover from: no detections or actions.</p>'
