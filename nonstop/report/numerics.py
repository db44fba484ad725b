"""The training-health part of `nonstop report`: every numerical anomaly the ranks' guards
agreed on (run_dir/health/, nonstop.runtime.guards), what the supervisor decided, and the
batches skipped after a loss spike (ledger actions `skip_batches`). Never torch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table

from nonstop.anomalies import CATEGORY, read_anomalies


def numerical_events(
    run_dir: str | Path, actions: list[dict[str, Any]], failures: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """One row per anomaly and per skip, in order: attempt, step, what, ranks, decision, detail."""
    decided = {
        int(f["attempt"]): f.get("action")
        for f in failures
        if f.get("category") in CATEGORY.values()
    }
    rows: list[dict[str, Any]] = []
    for a in read_anomalies(run_dir):
        attempt = int(a.get("attempt", -1))
        rows.append(
            {
                "attempt": attempt,
                "step": int(a["step"]),
                "what": CATEGORY[a["kind"]],
                "ranks": list(a.get("ranks") or []),
                "decision": decided.get(attempt),
                "detail": str(a.get("detail", "")),
            }
        )
    for act in actions:
        if act.get("action") == "skip_batches":
            reason = str(act.get("reason") or "")
            step = reason.removeprefix("step ").split(":", 1)[0]
            rows.append(
                {
                    "attempt": int(act["attempt"]),
                    "step": int(step) if step.isdigit() else None,
                    "what": "skip_batches",
                    "ranks": [],
                    "decision": "skip_batches",
                    "detail": reason,
                }
            )
    return sorted(rows, key=lambda r: (r["attempt"], r["step"] if r["step"] is not None else -1))


def numerical_table(rows: list[dict[str, Any]]) -> Table:
    t = Table(title=f"Training health ({sum(r['what'] != 'skip_batches' for r in rows)} anomalies)")
    for col in ("attempt", "step", "what", "ranks", "decision", "detail"):
        t.add_column(col, overflow="fold")
    for r in rows:
        t.add_row(
            str(r["attempt"]),
            "" if r["step"] is None else str(r["step"]),
            r["what"],
            ", ".join(map(str, r["ranks"])),
            r["decision"] or "",
            r["detail"],
        )
    return t
