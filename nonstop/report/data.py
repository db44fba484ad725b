"""What a report shows, read once from a run's ledger: the model behind every renderer.

The terminal report, the HTML page, the TensorBoard export and `nonstop report A B` all read a
`ReportData`; the chart series (loss, throughput, step-time heatmap, telemetry, checkpoint
blocking) are plain functions of it, so each renderer only draws.

    from nonstop.report.data import load
    data = load("runs/20261129-201500-a1b2c3")
    data.summary["ettr"], loss_series(data), heatmap(data, columns=80)

Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from nonstop import rundir, taxonomy
from nonstop.events import EventWarning
from nonstop.events.writer import read_losses
from nonstop.ledger import Ledger, open_run, summarize
from nonstop.ledger.goodput import StepSpan, surviving
from nonstop.ledger.restarts import restarts
from nonstop.ledger.timeline import load_timeline


class Step(NamedTuple):
    """One rank's record of one step instance."""

    attempt: int
    rank: int
    step: int
    start: float
    end: float
    busy_s: float
    """Time the rank itself was busy (compute_s, else data+compute+optimizer, else wall)."""
    tokens: int | None
    loss: float | None
    survived: bool
    """False when this step's progress was rolled back and redone later."""


@dataclass
class ReportData:
    """Everything the renderers need, with times in wall seconds (time.time())."""

    run_dir: str
    run_id: str
    summary: dict[str, Any]
    start: float
    end: float
    attempts: list[dict[str, Any]] = field(default_factory=list)
    phases: list[dict[str, Any]] = field(default_factory=list)
    restarts: list[dict[str, Any]] = field(default_factory=list)
    detections: list[dict[str, Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    health: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    """One row per save: attempt, step, time (its first record, normally `begin`), blocking_s,
    total_s, bytes, committed, failed."""
    blocks: list[tuple[float, float]] = field(default_factory=list)
    """(start, end) of each interval in which a save blocked training (the goodput's own)."""
    steps: list[Step] = field(default_factory=list)
    telemetry: list[tuple[float, int, str, str, dict[str, float]]] = field(default_factory=list)
    """(time, rank, host, source, metrics) of every telemetry sample."""
    warnings: list[str] = field(default_factory=list)
    estimate: dict[str, Any] | None = None
    """For a run without nonstop.runtime steps: progress estimated from collectives and the
    logs (nonstop.report.unmeasured.estimate); None when steps were measured."""


def load(run_dir: str | os.PathLike[str]) -> ReportData:
    """Ingest what is new and read the whole report model (UserError if not a run directory)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EventWarning)
        with open_run(run_dir) as ledger:
            data = from_ledger(ledger, run_dir)
            skipped = ledger.conn.execute(
                "SELECT path, corrupt FROM ingested WHERE corrupt > 0 ORDER BY path"
            ).fetchall()
    now = _bounded([str(w.message) for w in caught if issubclass(w.category, EventWarning)])
    # bad lines an earlier ingest skipped: said on every report, not only the first to read them
    root = Path(run_dir).resolve()
    earlier = [
        f"{path}: {n} bad event line{'s' if n != 1 else ''} skipped"
        for path, n in skipped
        if Path(path).is_relative_to(root)  # a copied ledger also names the original's files
        and not any(m.startswith((f"{path}:", f"{os.path.relpath(path)}:")) for m in now)
    ]
    data.warnings = now + earlier + data.warnings
    return data


BAD_LINES_SHOWN = 3  # bad lines named one by one per stream; the rest counted in one line
_BAD_LINE = re.compile(r"^(?P<path>.+):\d+: skipped a bad event line ")


def _bounded(msgs: list[str]) -> list[str]:
    """`msgs` with at most BAD_LINES_SHOWN bad lines named per stream and the rest counted
    ("PATH: 99,997 more bad event lines skipped"): a stream of 100,000 lines from a newer
    nonstop (schema_version 2) gave 100,000 warnings, 16 MB of `--json`."""
    out: list[str] = []
    more: dict[str, int] = {}
    shown: dict[str, int] = {}
    for m in msgs:
        bad = _BAD_LINE.match(m)
        if bad is None:
            out.append(m)
            continue
        path = bad.group("path")
        shown[path] = shown.get(path, 0) + 1
        if shown[path] <= BAD_LINES_SHOWN:
            out.append(m)
        else:
            more[path] = more.get(path, 0) + 1
    out += [
        f"{path}: {n:,} more bad event line{'s' if n != 1 else ''} skipped"
        for path, n in more.items()
    ]
    return out


def from_ledger(ledger: Ledger, run_dir: str | os.PathLike[str] = "") -> ReportData:
    summary = summarize(ledger).to_dict()
    tl = load_timeline(ledger)
    start = min((a.start for a in tl.attempts), default=0.0)
    end = tl.end if tl.end is not None else start
    config = rundir.RunDir(Path(run_dir)).read_config() if os.fspath(run_dir) else {}
    data = ReportData(
        run_dir=os.fspath(run_dir),
        run_id=str(config.get("run_id") or Path(run_dir).name),
        summary=summary,
        start=start,
        end=max(end, start),
    )
    outcome = {int(r[0]): r[1] for r in ledger.rows("SELECT attempt, outcome FROM attempts")}
    data.attempts = [
        {
            "attempt": a.attempt,
            "start": a.start,
            "end": a.end,
            "failed": a.failed,
            "outcome": outcome.get(a.attempt) or ("failed" if a.failed else "succeeded"),
        }
        for a in sorted(tl.attempts, key=lambda a: a.start)
    ]
    data.phases = [dict(r) for r in ledger.rows("SELECT * FROM restart_phases ORDER BY start")]
    data.restarts = restarts(ledger)
    data.detections = [
        dict(r)
        for r in ledger.rows(
            "SELECT attempt, kind, rank, host, detection_time AS time, latency_s FROM detections"
            " ORDER BY detection_time"
        )
    ]
    data.actions = [dict(r) for r in ledger.rows("SELECT * FROM actions ORDER BY time")]
    data.health = [dict(r) for r in ledger.rows("SELECT * FROM health_checks ORDER BY time")]
    data.checkpoints = [
        dict(r)
        for r in ledger.rows(
            "SELECT attempt, step, MIN(time) AS time, MAX(blocking_s) AS blocking_s,"
            " MAX(total_s) AS total_s, SUM(bytes) AS bytes,"
            " MAX(phase = 'committed') AS committed, MAX(phase = 'failed') AS failed"
            " FROM checkpoints WHERE phase IN ('begin', 'staged', 'committed', 'failed')"
            " GROUP BY attempt, step ORDER BY time"
        )
    ]
    data.blocks = list(tl.checkpoint_blocks)
    if os.fspath(run_dir):
        _from_run_dir(data, Path(run_dir))
    data.steps = _steps(ledger)
    for r in ledger.rows("SELECT time, rank, host, source, metrics FROM telemetry ORDER BY time"):
        try:
            metrics = {
                k: float(v)
                for k, v in json.loads(r[4]).items()
                if isinstance(v, int | float) and not isinstance(v, bool)
            }
        except (ValueError, AttributeError):
            continue
        data.telemetry.append((float(r[0]), int(r[1]), str(r[2]), str(r[3]), metrics))
    return data


def _from_run_dir(data: ReportData, root: Path) -> None:
    """What only the run directory has: each failed rank's own last lines (its exception or
    last output, shown as the failure's detail instead of torchelastic's boilerplate) and, for
    a run without steps, the estimate from collective progress."""
    from nonstop.report import unmeasured

    for f in data.summary["failures"]:
        lines = unmeasured.last_lines(root, attempt=int(f["attempt"]), rank=f.get("rank"))
        f["last_lines"] = lines
        f["detail"] = unmeasured.failure_detail(f, lines)
    lost = 0
    for path in sorted((root / "events").glob("attempt-*/rank-*.jsonl")):
        dropped, errors = read_losses(path)
        if dropped or errors:
            lost += dropped + errors
            data.warnings.append(
                f"{path.parent.name}, {path.stem}: its event writer lost "
                f"{dropped} record(s) to a full queue and {errors} to write "
                "errors; figures from its events miss them"
            )
    data.summary["events_lost"] = lost
    data.summary["measured"] = bool(data.summary.get("steps_total"))
    if not data.summary["measured"]:
        data.estimate = unmeasured.estimate(root, wall_s=float(data.summary["wall_s"] or 0.0))
        data.summary["estimate"] = data.estimate


def _steps(ledger: Ledger) -> list[Step]:
    rows = ledger.rows(
        "SELECT attempt, rank, step, start, end, data_s, compute_s, optimizer_s, tokens, loss"
        " FROM steps ORDER BY start, rank"
    )
    # Survival is decided on the run's step sequence (one instance per attempt and step).
    firsts: dict[tuple[int, int], float] = {}
    for r in rows:
        key = (int(r[0]), int(r[2]))
        firsts[key] = min(firsts.get(key, float(r[3])), float(r[3]))
    order = sorted(firsts, key=lambda k: firsts[k])
    alive = dict(zip(order, surviving([StepSpan(a, s, firsts[a, s], 0.0) for a, s in order])))
    out = []
    for r in rows:
        wall = float(r[4]) - float(r[3])
        if r[6] is not None:
            busy = float(r[6])
        elif r[5] is not None or r[7] is not None:
            busy = float(r[5] or 0) + float(r[7] or 0)
        else:
            busy = wall
        out.append(
            Step(
                int(r[0]),
                int(r[1]),
                int(r[2]),
                float(r[3]),
                float(r[4]),
                busy,
                None if r[8] is None else int(r[8]),
                None if r[9] is None else float(r[9]),
                alive[(int(r[0]), int(r[2]))],
            )
        )
    return out


# -- series for the charts --------------------------------------------------------------------


def lead_rank_steps(data: ReportData) -> list[Step]:
    """The steps of the lowest rank of each attempt (rank 0 in practice), in time order."""
    lowest: dict[int, int] = {}
    for s in data.steps:
        lowest[s.attempt] = min(lowest.get(s.attempt, s.rank), s.rank)
    return [s for s in data.steps if s.rank == lowest[s.attempt]]


def loss_series(data: ReportData) -> list[tuple[int, float, int, bool]]:
    """(step, loss, attempt, survived) of the lead rank, in time order."""
    return [
        (s.step, s.loss, s.attempt, s.survived) for s in lead_rank_steps(data) if s.loss is not None
    ]


def throughput_series(data: ReportData, bins: int = 100) -> list[tuple[float, float]]:
    """(bin middle time, tokens per second) over the run: zero where nothing trained.

    `tokens` of a step event are the step's global tokens (the workload records them so); the
    lead rank's steps are counted, each in the bin where it ended.
    """
    steps = [s for s in lead_rank_steps(data) if s.tokens]
    if not steps or data.end <= data.start:
        return []
    n = max(1, min(bins, len(steps) // 3 or 1))
    width = (data.end - data.start) / n
    totals = [0.0] * n
    for s in steps:
        totals[min(n - 1, max(0, int((s.end - data.start) / width)))] += s.tokens or 0
    return [(data.start + (i + 0.5) * width, t / width) for i, t in enumerate(totals)]


@dataclass
class Heatmap:
    ranks: list[int]
    edges: list[float]
    """Bin edges in wall time (len(columns) + 1)."""
    cells: list[list[float | None]]
    """cells[row][column]: median busy time of that rank's steps starting in the bin."""
    reference_s: float
    """Median busy time over the whole run: the colour scale's 1.0."""


def heatmap(data: ReportData, columns: int = 80) -> Heatmap | None:
    """Per-rank busy time binned over wall time; a straggler is a row darker than the others."""
    if not data.steps or data.end <= data.start:
        return None
    ranks = sorted({s.rank for s in data.steps})
    per_rank_steps = max(1, len(data.steps) // len(ranks))
    n = max(1, min(columns, per_rank_steps))
    width = (data.end - data.start) / n
    buckets: dict[tuple[int, int], list[float]] = {}
    for s in data.steps:
        col = min(n - 1, max(0, int((s.start - data.start) / width)))
        buckets.setdefault((s.rank, col), []).append(s.busy_s)
    cells = [
        [statistics.median(buckets[(r, c)]) if (r, c) in buckets else None for c in range(n)]
        for r in ranks
    ]
    ref = statistics.median(s.busy_s for s in data.steps) or 1e-9
    edges = [data.start + i * width for i in range(n + 1)]
    return Heatmap(ranks, edges, cells, ref)


def telemetry_series(
    data: ReportData, metric: str, max_points: int = 600
) -> dict[str, list[tuple[float, float]]]:
    """{"host rank R (source)": [(time, value)]} of one telemetry metric, thinned evenly."""
    out: dict[str, list[tuple[float, float]]] = {}
    for t, rank, host, source, metrics in data.telemetry:
        if metric in metrics:
            out.setdefault(f"{host} r{rank} {source}", []).append((t, metrics[metric]))
    return {k: thin(v, max_points) for k, v in out.items()}


def telemetry_metrics(data: ReportData) -> set[str]:
    return {name for *_, metrics in data.telemetry for name in metrics}


def thin(points: list[Any], max_points: int) -> list[Any]:
    """Every k-th point so that at most max_points remain (the last point always kept)."""
    if len(points) <= max_points:
        return points
    k = -(-len(points) // max_points)
    return points[::k] + ([points[-1]] if (len(points) - 1) % k else [])


def failures_by_category(data: ReportData) -> list[dict[str, Any]]:
    """Root-cause failures counted per taxonomy category, most frequent first. `action` is the
    category's default; `taken` the actions its failures were given, most frequent first (a
    guessed hardware fault is restarted, not excluded: the two can differ)."""
    counts: dict[str, int] = {}
    taken: dict[str, dict[str, int]] = {}
    for f in data.summary["failures"]:
        cat = f.get("category") or taxonomy.UNKNOWN
        counts[cat] = counts.get(cat, 0) + 1
        if f.get("action"):
            per = taken.setdefault(cat, {})
            per[f["action"]] = per.get(f["action"], 0) + 1
    out = []
    for cat, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        known = taxonomy.get(cat) if cat in taxonomy.IDS else None
        out.append(
            {
                "category": cat,
                "name": known.name if known else cat,
                "group": known.group if known else "Unknown",
                "count": n,
                "action": known.action if known else taxonomy.action_for(cat),
                "taken": sorted(taken.get(cat, {}), key=lambda a: (-taken[cat][a], a)),
                "llama3_share": known.share if known else None,
            }
        )
    return out


def checkpoint_stats(data: ReportData) -> dict[str, float | int | None]:
    """Count of saves and their blocking seconds (mean, max, total)."""
    blocking = [float(c["blocking_s"]) for c in data.checkpoints if c["blocking_s"] is not None]
    return {
        "checkpoints": len(data.checkpoints),
        "checkpoint_blocking_mean_s": statistics.fmean(blocking) if blocking else None,
        "checkpoint_blocking_max_s": max(blocking) if blocking else None,
        "checkpoint_blocking_total_s": sum(blocking),
    }


def tokens_per_s(data: ReportData) -> float | None:
    """Mean training throughput over the productive steps (tokens of surviving lead steps)."""
    steps = [s for s in lead_rank_steps(data) if s.survived and s.tokens]
    busy = sum(s.end - s.start for s in steps)
    return sum(s.tokens or 0 for s in steps) / busy if busy > 0 else None
