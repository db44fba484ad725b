"""Where each restart's seconds went: one row per attempt after the first.

The failed attempt owns detection, evidence, health checks and teardown; the new attempt owns
the rendezvous, the start of its workers (`spawn` cold, `handover` from warm standbys), and the
workers' own phases (interpreter, imports and process group, state load, first step). `total`
runs from the failed attempt's last progress to the end of the new attempt's first step.

`script_start` is what those phases leave of the total: the script's own start-up and
re-initialization where it reports no lifecycle phases (a Lightning or Hugging Face script
starts its process group itself: a cold restart's 20 s were otherwise counted nowhere), and the
gaps between phases. With it the phases add up to the total.
"""

from __future__ import annotations

import itertools
from typing import Any

from nonstop.ledger.db import Ledger

BEFORE = ("evidence", "health_checks", "teardown")
AFTER = (
    "rendezvous",
    "spawn",
    "handover",
    "interpreter",
    "imports_and_pg",
    "state_load",
    "first_step",
)
REMAINDER = "script_start"
COLUMNS = ("detection", *BEFORE, *AFTER, REMAINDER)
MIN_REMAINDER_S = 0.005
"""Less than this left over is rounding between clocks, not a phase."""


def restarts(ledger: Ledger) -> list[dict[str, Any]]:
    attempts = ledger.rows("SELECT attempt, restart_path FROM attempts ORDER BY attempt")
    out = []
    for (prev, _), (attempt, path) in itertools.pairwise(attempts):
        row: dict[str, Any] = {
            "attempt": attempt,
            "path": path or "",
            "source": "",
            "phases": {},
            "total_s": None,
        }
        for phase, start, end in ledger.rows(
            "SELECT phase, start, end FROM restart_phases WHERE (attempt = ? AND phase IN"
            f" ({_marks(BEFORE)})) OR (attempt = ? AND phase IN ({_marks(AFTER)}))",
            (prev, *BEFORE, attempt, *AFTER),
        ):
            row["phases"][phase] = float(end) - float(start)
        det = ledger.rows(
            "SELECT MIN(detection_time), MIN(latency_s) FROM detections WHERE attempt = ?"
            " AND kind != 'straggler'",
            (prev,),
        )[0]
        if det[1] is not None:
            row["phases"]["detection"] = float(det[1])
        first = ledger.rows("SELECT MIN(end) FROM steps WHERE attempt = ?", (attempt,))[0][0]
        if det[0] is not None and first is not None:
            row["total_s"] = float(first) - (float(det[0]) - float(det[1] or 0.0))
            left = row["total_s"] - sum(row["phases"].values())
            if left >= MIN_REMAINDER_S:
                row["phases"][REMAINDER] = left
        loaded = ledger.rows(
            "SELECT path FROM checkpoints WHERE attempt = ? AND phase = 'loaded' LIMIT 1",
            (attempt,),
        )
        if loaded and loaded[0][0]:
            row["source"] = "memory" if str(loaded[0][0]).startswith("memory") else "storage"
        out.append(row)
    return out


def _marks(names: tuple[str, ...]) -> str:
    return ", ".join("?" * len(names))
