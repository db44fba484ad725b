"""Build the goodput `Timeline` of a run from its ledger, and summarise the run.

Attempts come from the supervisor's `attempts` table when it exists; a run launched without
the supervisor (plain torchrun) has its attempts derived from the ranks' own events.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from nonstop.ledger.db import Ledger
from nonstop.ledger.goodput import AttemptSpan, Goodput, StepSpan, Timeline, account
from nonstop.ledger.restarts import restarts

ORDERLY = ("succeeded", "planned", "stopped")


def load_timeline(ledger: Ledger) -> Timeline:
    steps = [
        StepSpan(int(r[0]), int(r[1]), float(r[2]), float(r[3]))
        for r in ledger.rows(
            "SELECT attempt, step, MIN(start), MAX(end) FROM steps GROUP BY attempt, step"
        )
    ]
    # A save blocks from its `begin` for blocking_s (the committed/failed record carries the
    # total, including optimizer steps that waited for the background copy).
    blocks = []
    for t0, total, staged, t_staged in ledger.rows(
        "SELECT MIN(CASE WHEN phase = 'begin' THEN time END),"
        " MAX(CASE WHEN phase IN ('committed', 'failed') THEN blocking_s END),"
        " MAX(CASE WHEN phase = 'staged' THEN blocking_s END),"
        " MIN(CASE WHEN phase = 'staged' THEN time END)"
        " FROM checkpoints WHERE phase IN ('begin', 'staged', 'committed', 'failed')"
        " GROUP BY attempt, step"
    ):
        b = total if total is not None else staged
        if not b or b <= 0:
            continue
        start = t0 if t0 is not None else (t_staged - b if t_staged is not None else None)
        if start is not None:
            blocks.append((float(start), float(start) + float(b)))
    # An in-memory snapshot (nonstop.checkpoint.replica) blocks for its copy: `replicated` is
    # written when the last server answered, total_s after the copy began.
    for t0, b in ledger.rows(
        "SELECT MIN(time - COALESCE(total_s, 0)), MAX(blocking_s) FROM checkpoints"
        " WHERE phase = 'replicated' GROUP BY attempt, step"
    ):
        if b and b > 0 and t0 is not None:
            blocks.append((float(t0), float(t0) + float(b)))
    blocks.sort()
    # Bounds of each attempt seen in the ranks' own records.
    seen = {
        int(r[0]): (float(r[1]), float(r[2]))
        for r in ledger.rows(
            "SELECT attempt, MIN(t0), MAX(t1) FROM ("
            " SELECT attempt, start AS t0, end AS t1 FROM steps"
            " UNION ALL SELECT attempt, time, time FROM lifecycle"
            " UNION ALL SELECT attempt, time - COALESCE(blocking_s, 0), time FROM checkpoints"
            " UNION ALL SELECT attempt, time, time FROM errors) GROUP BY attempt"
        )
    }
    detections = {
        int(r[0]): (r[1], float(r[2]))
        for r in ledger.rows(
            "SELECT attempt, MIN(last_progress_time), MIN(detection_time) FROM detections"
            " WHERE kind != 'straggler' GROUP BY attempt"
        )
    }
    planned_at = {
        int(r[0]): float(r[1])
        for r in ledger.rows(
            "SELECT attempt, MIN(time) FROM failures WHERE planned = 1 GROUP BY attempt"
        )
    }
    rows = ledger.rows("SELECT attempt, start_time, end_time, outcome FROM attempts")
    attempts = []
    if rows:
        last = max(int(r[0]) for r in rows)
        for r in rows:
            n = int(r[0])
            end = r[2] if r[2] is not None else seen.get(n, (r[1], r[1]))[1]
            failed = r[3] == "failed" or (r[3] not in ORDERLY and n != last)
            if r[3] == "planned":
                attempts.append(
                    AttemptSpan(
                        n, float(r[1]), float(end), False, planned_at.get(n), None, planned=True
                    )
                )
                continue
            fault, detect = detections.get(n, (None, None))
            attempts.append(AttemptSpan(n, float(r[1]), float(end), failed, fault, detect))
    else:
        order = sorted(seen)
        for i, n in enumerate(order):
            start, end = seen[n]
            attempts.append(AttemptSpan(n, start, end, failed=i < len(order) - 1))
    ends = [a.end for a in attempts] + [s.end for s in steps]
    return Timeline(
        attempts, steps, blocks, end=max(ends) if ends else None, stalls=healed_stalls(ledger)
    )


def healed_stalls(ledger: Ledger) -> list[tuple[float, float]]:
    """(start, end) of the run's network outages that healed without a restart (the root
    causes the agents filed with `healed` evidence: from the job's last progress, stalled_s)."""
    out = []
    for t, text in ledger.rows(
        "SELECT time, evidence FROM failures WHERE root_cause = 1 AND planned = 0"
        " AND evidence LIKE '%healed%'"
    ):
        ev = evidence_of(text)
        stalled = ev.get("stalled_s")
        if ev.get("healed") is True and isinstance(stalled, int | float) and t is not None:
            out.append((float(t), float(t) + float(stalled)))
    return sorted(out)


def evidence_of(text: str | None) -> dict[str, Any]:
    """A failure row's `evidence` column as a dict ({} where absent or not a JSON object)."""
    try:
        ev = json.loads(text or "{}")
    except ValueError:
        return {}
    return ev if isinstance(ev, dict) else {}


@dataclass
class RunSummary:
    goodput: Goodput
    attempts: int
    failures: list[dict[str, Any]]
    restarts: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        g = self.goodput.to_dict()
        return {
            "ettr": g["ettr"],
            "wall_s": g["wall_s"],
            "productive_s": g["productive_s"],
            "badput_s": g["badput_s"],
            "attempts": self.attempts,
            "failures": self.failures,
            "restarts": self.restarts,
            "final_step": g["final_step"],
            "steps_total": g["steps_total"],
            "steps_lost": g["steps_lost"],
            "ideal_step_s": g["ideal_step_s"],
        }


def summarize(ledger: Ledger) -> RunSummary:
    tl = load_timeline(ledger)
    failures = [
        {
            "attempt": r[0],
            "time": r[1],
            "rank": r[2],
            "host": r[3],
            "category": r[4],
            "action": r[5],
            "exit_code": r[6],
            "signal": r[7],
            "message": r[8],
            "planned": bool(r[9]),
        }
        for r in ledger.rows(
            "SELECT attempt, time, rank, host, category, action, exit_code, signal, message,"
            " planned FROM failures WHERE root_cause = 1 ORDER BY time"
        )
    ]
    return RunSummary(account(tl), len(tl.attempts), failures, restarts(ledger))
