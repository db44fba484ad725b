"""The report's figures as one JSON-able dict, and two runs side by side.

    nonstop report RUN_DIR --json                 # full_summary(load(RUN_DIR))
    nonstop report RUN_A RUN_B [--json]           # compare(A, B): both summaries and B - A

`full_summary` keeps every key of `summarize(...).to_dict()` (ettr, wall_s, productive_s,
badput_s, attempts, failures, final_step, steps_total, steps_lost, ideal_step_s) and adds
run_id, run_dir, tokens_per_s, checkpoint figures, failures_by_category and telemetry peaks.

Standard library only.
"""

from __future__ import annotations

from typing import Any

from nonstop.report import data as rd

# Figures whose difference is meaningful; None on either side gives a None delta.
NUMERIC = (
    "ettr",
    "wall_s",
    "productive_s",
    "attempts",
    "failure_count",
    "final_step",
    "steps_total",
    "steps_lost",
    "ideal_step_s",
    "tokens_per_s",
    "checkpoints",
    "checkpoint_blocking_mean_s",
    "checkpoint_blocking_max_s",
    "checkpoint_blocking_total_s",
    "peak_power_w",
    "peak_temp_c",
)


def full_summary(data: rd.ReportData) -> dict[str, Any]:
    s = dict(data.summary)
    s["warnings"] = list(data.warnings)
    s["run_id"] = data.run_id
    s["run_dir"] = data.run_dir
    s["failure_count"] = len(s["failures"])
    s["failures_by_category"] = {c["category"]: c["count"] for c in rd.failures_by_category(data)}
    s["tokens_per_s"] = rd.tokens_per_s(data)
    s.update(rd.checkpoint_stats(data))
    for key, metric in (("peak_power_w", "power_w"), ("peak_temp_c", "temp_c")):
        values = [m[metric] for *_, m in data.telemetry if metric in m]
        s[key] = max(values) if values else None
    if s.get("measured") is False:  # no steps: these are unknown, not zero
        for key in UNMEASURED:
            s[key] = None
    return s


UNMEASURED = ("ettr", "productive_s", "final_step", "steps_total", "steps_lost", "ideal_step_s")
"""Figures that rest on nonstop.runtime's steps: None in a run without them."""


def _minus(b: Any, a: Any) -> float | None:
    if isinstance(a, bool) or isinstance(b, bool):
        return None
    if isinstance(a, int | float) and isinstance(b, int | float):
        return b - a
    return None


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """{"a": summary A, "b": summary B, "delta": B - A for each numeric figure}."""
    delta: dict[str, Any] = {k: _minus(b.get(k), a.get(k)) for k in NUMERIC}
    cats = sorted(set(a["badput_s"]) | set(b["badput_s"]))
    delta["badput_s"] = {k: b["badput_s"].get(k, 0.0) - a["badput_s"].get(k, 0.0) for k in cats}
    fa, fb = a.get("failures_by_category", {}), b.get("failures_by_category", {})
    delta["failures_by_category"] = {
        k: fb.get(k, 0) - fa.get(k, 0) for k in sorted(set(fa) | set(fb))
    }
    return {"a": a, "b": b, "delta": delta}
