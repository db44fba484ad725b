"""The HTML report's charts, each a function of `ReportData` returning one SVG string.

    waterfall(data)      wall time stepped down by each badput category to productive time
    timeline(data)       attempts, trained spans, restart phases, checkpoints, failures
    failure_bars(data)   failures by taxonomy category
    step_heatmap(data)   per-rank busy time over wall time (stragglers are dark rows)
    loss_chart(data)     loss by step, per attempt, rolled-back steps dashed
    telemetry_chart(...) power or temperature over time with throughput on the right axis
    checkpoint_chart     blocking (and total) seconds of each save over time

Standard library only.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from nonstop import taxonomy
from nonstop.report import data as rd
from nonstop.report.svg import (
    GRID,
    MUTED,
    Band,
    Frame,
    LineChart,
    Series,
    color_scale,
    empty,
    esc,
    f,
    hbars,
    legend,
    nice_ticks,
    num,
    svg,
    time_unit,
    tip,
    x_axis,
    y_axis,
)

COLORS = {
    "productive": "#2f9e44",
    "startup": "#868e96",
    "checkpoint": "#1c7ed6",
    "lost_progress": "#e8590c",
    "detection": "#f59f00",
    "recovery": "#c2255c",
    "planned": "#0ca678",
    "network": "#fa5252",
    "straggler": "#7048e8",
    "idle": "#adb5bd",
}
GROUP_COLORS = {
    taxonomy.GPU: "#c92a2a",
    taxonomy.HOST: "#e8590c",
    taxonomy.NETWORK: "#1c7ed6",
    taxonomy.DEPENDENCY: "#7048e8",
    taxonomy.UNPLANNED_MAINTENANCE: "#f59f00",
    taxonomy.UNKNOWN_GROUP: "#868e96",
    taxonomy.JOB: "#495057",
}
PHASE_COLORS = {
    "rendezvous": "#74c0fc",
    "spawn": "#4dabf7",
    "teardown": "#ced4da",
    "health_checks": "#ffa94d",
    "evidence": "#ffd43b",
}
LINE = ["#1c7ed6", "#2f9e44", "#e8590c", "#7048e8", "#c2255c", "#0c8599", "#f59f00", "#495057"]
FULL, HALF = 1240, 620
MAX_SERIES = 8


def clock(data: rd.ReportData) -> tuple[str, Callable[[float], str], Callable[[float], float]]:
    """(axis label, tick formatter for wall times, wall time -> seconds since start)."""
    unit, per = time_unit(data.end - data.start)
    return (
        f"time since start ({unit})",
        lambda t: num((t - data.start) / per),
        lambda t: t - data.start,
    )


def time_ticks(data: rd.ReportData, n: int) -> list[float]:
    """Round ticks in time since start (0, 5, 10 ... of the axis unit), as wall times."""
    _, per = time_unit(data.end - data.start)
    return [data.start + t * per for t in nice_ticks(0.0, (data.end - data.start) / per, n)]


def waterfall(data: rd.ReportData) -> str:
    s = data.summary
    wall = s["wall_s"]
    if not wall:
        return empty(HALF, 260, "no time recorded yet")
    cats = [(k, v) for k, v in s["badput_s"].items()]
    cols = [("wall", 0.0, wall, "#495057")]
    level = wall
    for k, v in cats:
        cols.append((k, level - v, level, COLORS.get(k, "#adb5bd")))
        level -= v
    cols.append(("productive", 0.0, s["productive_s"], COLORS["productive"]))
    unit, per = time_unit(wall)
    fr = Frame(HALF, 270, 0, len(cols), 0, wall * 1.08, left=52, right=34, bottom=56, top=10)
    slot = fr.plot_w / len(cols)
    body = [
        y_axis(
            fr,
            nice_ticks(0, wall * 1.08),
            f"seconds ({unit})" if unit != "s" else "seconds",
            fmt=lambda v: num(v / per),
        )
    ]
    for i, (name, lo, hi, color) in enumerate(cols):
        x = fr.left + i * slot + slot * 0.15
        h = max(fr.y(lo) - fr.y(hi), 0.8 if hi > lo else 0)
        share = (hi - lo) / wall
        body.append(
            f'<rect x="{f(x)}" y="{f(fr.y(hi))}" width="{f(slot * 0.7)}" height="{f(h)}" '
            f'fill="{color}"{tip(f"{name}: {hi - lo:.1f} s, {share:.1%} of wall time")}/>'
            f'<text x="{f(x + slot * 0.35)}" y="{f(fr.y(hi) - 4)}" text-anchor="middle" '
            f'font-size="11">{share:.0%}</text>'
            f'<text transform="translate({f(x + slot * 0.4)},{f(fr.height - fr.bottom + 8)}) '
            f'rotate(35)" font-size="11">{esc(name.replace("_", " "))}</text>'
        )
        if 0 < i < len(cols) - 1:  # connectors: each step starts where the previous ended
            body.append(
                f'<line x1="{f(x - slot * 0.3)}" x2="{f(x)}" y1="{f(fr.y(hi))}" '
                f'y2="{f(fr.y(hi))}" stroke="{MUTED}" stroke-dasharray="2 2"/>'
            )
    return svg(HALF, 270, "".join(body), "badput waterfall")


def timeline(data: rd.ReportData) -> str:
    if data.end <= data.start:
        return empty(FULL, 200, "no attempts recorded")
    lanes = ["attempts", "training", "restart", "checkpoints", "failures"]
    label, fmt, _ = clock(data)
    lane_h = 30
    fr = Frame(
        FULL,
        40 + lane_h * len(lanes),
        data.start,
        data.end,
        0,
        len(lanes),
        left=96,
        top=6,
        bottom=34,
    )
    body = [x_axis(fr, time_ticks(data, 12), fmt, label)]

    def y(lane: str) -> float:
        return fr.top + lanes.index(lane) * lane_h + 5

    def bar(lane: str, t0: float, t1: float, color: str, text: str, h: float = 20) -> str:
        w = max(fr.x(t1) - fr.x(t0), 1.5)
        return (
            f'<rect x="{f(fr.x(t0))}" y="{f(y(lane) + (20 - h) / 2)}" width="{f(w)}" '
            f'height="{f(h)}" fill="{color}"{tip(text)}/>'
        )

    for lane in lanes:
        body.append(
            f'<text x="{f(fr.left - 8)}" y="{f(y(lane) + 14)}" text-anchor="end" '
            f'fill="{MUTED}">{lane}</text>'
        )
    rel = clock(data)[2]
    for a in data.attempts:
        color = {"succeeded": "#69db7c", "failed": "#ff8787"}.get(a["outcome"], "#ced4da")
        body.append(
            bar(
                "attempts",
                a["start"],
                a["end"],
                color,
                f"attempt {a['attempt']} ({a['outcome']}): t+{rel(a['start']):.1f} s "
                f"to t+{rel(a['end']):.1f} s",
            )
        )
        if fr.x(a["end"]) - fr.x(a["start"]) > 70:
            x0, y0 = fr.x(a["start"]) + 4, y("attempts") + 14
            body.append(
                f'<text x="{f(x0)}" y="{f(y0)}" font-size="11">attempt {a["attempt"]}</text>'
            )
    for t0, t1, survived, n in _trained_spans(data):
        what = "progress kept" if survived else "progress lost (redone)"
        body.append(
            bar(
                "training",
                t0,
                t1,
                COLORS["productive" if survived else "lost_progress"],
                f"{n} steps, {what}: t+{rel(t0):.1f} to t+{rel(t1):.1f} s",
            )
        )
    for p in data.phases:
        body.append(
            bar(
                "restart",
                p["start"],
                p["end"],
                PHASE_COLORS.get(p["phase"], "#ced4da"),
                f"attempt {p['attempt']} {p['phase']}: {p['end'] - p['start']:.2f} s",
            )
        )
    for t0, t1 in data.blocks:
        body.append(
            bar(
                "checkpoints",
                t0,
                t1,
                COLORS["checkpoint"],
                f"checkpoint save blocked training {t1 - t0:.2f} s at t+{rel(t0):.1f} s",
                h=14,
            )
        )
    for fl in data.summary["failures"]:
        x, yy = fr.x(fl["time"]), y("failures")
        body.append(
            f'<path d="M{f(x - 6)},{f(yy + 2)}h12l-6,12z" fill="#c92a2a"'
            f"{tip(_failure_text(fl, rel))}/>"
        )
    for d in data.detections:
        x, yy = fr.x(d["time"]), y("failures") + 10
        lat = "" if d["latency_s"] is None else f" {d['latency_s']:.2f} s after last progress"
        text = f"detected ({d['kind']}) rank {d['rank']} at t+{rel(d['time']):.1f} s{lat}"
        body.append(f'<path d="M{f(x)},{f(yy)}l5,5l-5,5l-5,-5z" fill="#f59f00"{tip(text)}/>')
    return svg(FULL, fr.height, "".join(body), "timeline of attempts")


def _failure_text(fl: dict, rel: Callable[[float], float]) -> str:
    cat = fl.get("category") or "unknown"
    name = taxonomy.get(cat).name if cat in taxonomy.IDS else cat
    return (
        f"failure at t+{rel(fl['time']):.1f} s, rank {fl['rank']} on {fl['host']}: {name} "
        f"-> {fl['action']}. {str(fl.get('message') or '')[:160]}"
    )


def _trained_spans(data: rd.ReportData) -> list[tuple[float, float, bool, int]]:
    """Lead-rank steps merged into contiguous spans of the same survival (gaps break spans)."""
    steps = rd.lead_rank_steps(data)
    ideal = data.summary.get("ideal_step_s") or 0.0
    spans: list[tuple[float, float, bool, int]] = []
    for s in steps:
        if spans and spans[-1][2] == s.survived and s.start - spans[-1][1] <= max(ideal, 0.05):
            t0, _, ok, n = spans[-1]
            spans[-1] = (t0, s.end, ok, n + 1)
        else:
            spans.append((s.start, s.end, s.survived, 1))
    return spans


def failure_bars(data: rd.ReportData) -> str:
    rows = []
    for c in rd.failures_by_category(data):
        ref = f"; {c['llama3_share']:.1%} of Llama 3's 419" if c["llama3_share"] else ""
        if c["taken"] and c["taken"] != [c["action"]]:
            ref = f"; taken here: {', '.join(c['taken'])}{ref}"
        rows.append(
            (
                c["name"],
                float(c["count"]),
                GROUP_COLORS.get(c["group"], "#868e96"),
                f"{c['name']} ({c['group']}): {c['count']}, default action {c['action']}{ref}",
            )
        )
    return hbars(rows, width=HALF, label="failures by category")


def step_heatmap(data: rd.ReportData, max_rows: int = 48) -> tuple[str, str]:
    """(svg, note) of per-rank busy time; above max_rows ranks, the slowest rows are shown."""
    hm = rd.heatmap(data, columns=90)
    if hm is None:
        return empty(FULL, 120, "no steps recorded"), ""
    rows = list(zip(hm.ranks, hm.cells))
    note = ""
    if len(rows) > max_rows:

        def worst(row: tuple[int, list[float | None]]) -> float:
            vals = [v for v in row[1] if v is not None]
            return statistics.median(vals) if vals else 0.0

        rows = sorted(sorted(rows, key=worst, reverse=True)[:max_rows])
        note = f"showing the {max_rows} slowest of {len(hm.ranks)} ranks"
    row_h = 18 if len(rows) <= 16 else 10
    label, fmt, rel = clock(data)
    fr = Frame(
        FULL,
        66 + row_h * len(rows),
        hm.edges[0],
        hm.edges[-1],
        0,
        len(rows),
        left=70,
        top=8,
        bottom=58,
    )
    body = [x_axis(fr, time_ticks(data, 12), fmt, label)]
    for i, (rank, cells) in enumerate(rows):
        yy = fr.top + i * row_h
        body.append(
            f'<text x="{f(fr.left - 6)}" y="{f(yy + row_h - 4)}" text-anchor="end" '
            f'font-size="{11 if row_h > 12 else 8}">rank {rank}</text>'
        )
        for c, v in enumerate(cells):
            if v is None:
                continue
            x0, x1 = fr.x(hm.edges[c]), fr.x(hm.edges[c + 1])
            ratio = v / hm.reference_s
            text = (
                f"rank {rank}, t+{rel(hm.edges[c]):.1f} s: busy {v:.3f} s per step "
                f"({ratio:.2f}x the run median)"
            )
            body.append(
                f'<rect x="{f(x0)}" y="{f(yy)}" width="{f(x1 - x0 + 0.3)}" '
                f'height="{f(row_h - 1)}" fill="{color_scale(ratio)}"{tip(text)}/>'
            )
    ly = fr.height - 16
    for j, r in enumerate((0.5, 0.75, 1.0, 1.25, 1.5, 2.0)):
        x = FULL - 330 + j * 52
        body.append(
            f'<rect x="{f(x)}" y="{f(ly - 9)}" width="16" height="10" '
            f'fill="{color_scale(r)}" stroke="{GRID}"/><text x="{f(x + 19)}" '
            f'y="{f(ly)}" font-size="10">{r:g}x</text>'
        )
    body.append(
        f'<text x="{f(FULL - 336)}" y="{f(ly)}" text-anchor="end" font-size="10" '
        f'fill="{MUTED}">busy time / run median {hm.reference_s * 1000:.0f} ms</text>'
    )
    return svg(FULL, fr.height, "".join(body), "step-time heatmap per rank"), note


def loss_chart(data: rd.ReportData) -> str:
    by_attempt: dict[tuple[int, bool], list[tuple[float, float]]] = {}
    for step, loss, attempt, survived in rd.loss_series(data):
        by_attempt.setdefault((attempt, survived), []).append((float(step), loss))
    kept = [c for c in LINE if c != COLORS["lost_progress"]]
    series = []
    for (attempt, survived), pts in sorted(
        by_attempt.items(), key=lambda kv: (not kv[0][1], kv[0])
    ):
        name = f"attempt {attempt}" + ("" if survived else " (rolled back)")
        color = kept[attempt % len(kept)] if survived else COLORS["lost_progress"]
        series.append(Series(name, color, rd.thin(pts, 1500), dash=not survived))
    return LineChart(series, "step", "loss", y_zero=False).render("loss curve")


def telemetry_chart(data: rd.ReportData, metric: str, y_label: str) -> str:
    label, fmt, _ = clock(data)
    series = _aggregate(rd.telemetry_series(data, metric))
    tput = rd.throughput_series(data)
    if tput:
        series.append(Series("tokens/s", "#495057", tput, dash=True, width=1.2, right=True))
    bands = [Band(t0, t1, "#c92a2a", text) for t0, t1, text in outages(data)]
    ch = LineChart(
        series,
        label,
        y_label,
        "tokens / s",
        x_range=(data.start, data.end),
        x_fmt=fmt,
        x_ticks=lambda lo, hi: time_ticks(data, 8),
        bands=bands,
        y_zero=False,
    )
    return ch.render(f"{y_label} over time")


def outages(data: rd.ReportData) -> list[tuple[float, float, str]]:
    """(from, to, text) of each failure: from the fault to the next attempt's first step."""
    first: dict[int, float] = {}
    for s in rd.lead_rank_steps(data):
        first.setdefault(s.attempt, s.start)
    out = []
    for a, b in zip(data.attempts, [*data.attempts[1:], None]):
        if not a["failed"]:
            continue
        faults = [fl["time"] for fl in data.summary["failures"] if fl["attempt"] == a["attempt"]]
        t0 = min(faults, default=a["end"])
        t1 = first.get(b["attempt"], b["start"]) if b else a["end"]
        out.append(
            (t0, max(t0, t1), f"attempt {a['attempt']} failed: down {max(0, t1 - t0):.1f} s")
        )
    return out


def _aggregate(by_label: dict[str, list[tuple[float, float]]]) -> list[Series]:
    """One line per source, or mean and max lines when there are too many to tell apart."""
    if len(by_label) <= MAX_SERIES:
        return [
            Series(k, LINE[i % len(LINE)], v) for i, (k, v) in enumerate(sorted(by_label.items()))
        ]
    pts = sorted(p for v in by_label.values() for p in v)
    lo, hi = pts[0][0], pts[-1][0]
    n = 200
    width = (hi - lo) / n or 1.0
    bins: dict[int, list[float]] = {}
    for t, v in pts:
        bins.setdefault(min(n - 1, int((t - lo) / width)), []).append(v)
    mean = [(lo + (i + 0.5) * width, statistics.fmean(v)) for i, v in sorted(bins.items())]
    top = [(lo + (i + 0.5) * width, max(v)) for i, v in sorted(bins.items())]
    return [Series(f"mean of {len(by_label)}", LINE[0], mean), Series("max", LINE[2], top)]


def checkpoint_chart(data: rd.ReportData) -> str:
    cks = [c for c in data.checkpoints if c["blocking_s"] is not None or c["total_s"] is not None]
    if not cks:
        return empty(HALF, 250, "no checkpoints saved in this run")
    label, fmt, rel = clock(data)
    top = max(max(float(c["total_s"] or 0), float(c["blocking_s"] or 0)) for c in cks) or 1.0
    fr = Frame(HALF, 250, data.start, data.end, 0, top * 1.1, top=26)
    body = [
        x_axis(fr, time_ticks(data, 8), fmt, label),
        y_axis(fr, nice_ticks(0, top * 1.1), "seconds"),
    ]
    w = max(3.0, min(14.0, fr.plot_w / (len(cks) * 2)))
    for c in cks:
        x = fr.x(c["time"]) - w / 2
        total, blocking = float(c["total_s"] or 0), float(c["blocking_s"] or 0)
        size = f", {c['bytes'] / 1e6:.1f} MB" if c["bytes"] else ""
        text = (
            f"step {c['step']} at t+{rel(c['time']):.1f} s: blocked training {blocking:.3f} s"
            f" of a {total:.3f} s save{size}" + (" (failed)" if c["failed"] else "")
        )
        if total > 0:
            body.append(
                f'<rect x="{f(x)}" y="{f(fr.y(total))}" width="{f(w)}" '
                f'height="{f(fr.y(0) - fr.y(total))}" fill="#a5d8ff"{tip(text)}/>'
            )
        body.append(
            f'<rect x="{f(x)}" y="{f(fr.y(blocking))}" width="{f(w)}" '
            f'height="{f(max(fr.y(0) - fr.y(blocking), 1))}" '
            f'fill="{"#c92a2a" if c["failed"] else COLORS["checkpoint"]}"{tip(text)}/>'
        )
    body.append(
        legend(
            [
                Series("blocking", COLORS["checkpoint"], [(0, 0)]),
                Series("whole save (async)", "#a5d8ff", [(0, 0)]),
            ],
            fr.left + 4,
            4,
        )
    )
    return svg(HALF, 250, "".join(body), "checkpoint blocking over time")
