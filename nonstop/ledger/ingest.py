"""Ingest the ranks' event streams into the ledger, idempotently.

Each stream's byte offset is stored with the rows it produced, in one transaction, so running
ingestion twice (or after the supervisor was killed mid-way) never duplicates a row. Only
complete lines are consumed; a torn last line is picked up once its writer finishes it.
"""

from __future__ import annotations

import json
import sqlite3
import warnings
from dataclasses import dataclass
from pathlib import Path

from nonstop.events import Event, EventWarning, ReadStats, iter_events
from nonstop.ledger.db import Ledger
from nonstop.rundir import RunDir


@dataclass
class IngestStats:
    """What one ingestion pass did."""

    files: int = 0
    events: int = 0
    torn: int = 0
    corrupt: int = 0
    unknown: int = 0


def _row(event: Event) -> tuple[str, tuple[object, ...]] | None:
    """The ledger row for one event, or None for kinds the ledger does not keep."""
    p, a, r, h = event.payload, event.attempt, event.rank, event.host
    if event.kind == "step":
        return (
            "INSERT OR IGNORE INTO steps VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                a,
                r,
                int(p["step"]),
                float(p["start"]),
                float(p["end"]),
                h,
                p.get("data_s"),
                p.get("compute_s"),
                p.get("optimizer_s"),
                p.get("tokens"),
                p.get("loss"),
            ),
        )
    if event.kind == "checkpoint":
        path = p.get("path")
        if p.get("source"):  # a load: memory:<node that held the replica>, or storage:<path>
            path = f"{p['source']}:{p.get('replica_from') or path or ''}"
        return (
            "INSERT OR IGNORE INTO checkpoints VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                a,
                r,
                int(p["step"]),
                str(p["phase"]),
                event.time,
                p.get("bytes"),
                p.get("blocking_s"),
                p.get("total_s", p.get("load_s")),
                path,
                p.get("error"),
            ),
        )
    if event.kind == "lifecycle" and p.get("phase") == "skipped_batches" and r == 0:
        # the workers' own decision after a loss spike's rollback (nonstop.runtime.guards);
        # every rank skips the same batches: rank 0's event is the ledger's one row
        why = (
            f"step {p.get('step')}: skipped {p.get('batches')} batch(es), data positions "
            f"{p.get('from_position')}..{p.get('to_position')} (after a loss spike)"
        )
        return (
            "INSERT INTO actions (attempt, time, action, host, reason) VALUES (?,?,?,?,?)",
            (a, event.time, "skip_batches", h, why),
        )
    if event.kind == "lifecycle" and p.get("phase") == "sdc_attributed" and r == 0:
        # the re-run's replay named the corrupted replica of a tie, or said it cannot
        # (nonstop.runtime.sdc_replay): rank 0 alone records the verdict every rank reached
        why = (
            f"attempt {p.get('anomaly_attempt')} step {p.get('step')}: the replicas' tie "
            f"replayed; {p.get('reason', '')}"
        )
        hosts = p.get("hosts") or []
        return (
            "INSERT INTO actions (attempt, time, action, host, reason) VALUES (?,?,?,?,?)",
            (a, event.time, "attribute_sdc", hosts[0] if hosts else None, why),
        )
    if event.kind == "lifecycle":
        return (
            "INSERT OR IGNORE INTO lifecycle VALUES (?,?,?,?,?,?)",
            (a, r, str(p["phase"]), event.time, h, p.get("step")),
        )
    if event.kind == "failure":
        return (
            "INSERT OR IGNORE INTO errors VALUES (?,?,?,?,?,?,?,?)",
            (
                a,
                r,
                event.time,
                h,
                p.get("type"),
                str(p["message"]),
                p.get("step"),
                p.get("category"),
            ),
        )
    if event.kind == "telemetry":
        return (
            "INSERT OR IGNORE INTO telemetry VALUES (?,?,?,?,?,?)",
            (a, r, event.time, h, str(p["source"]), json.dumps(p["metrics"])),
        )
    return None  # heartbeats and sections are for live watching, not the ledger


def _attributed(event: Event) -> list[tuple[str, tuple[object, ...]]]:
    """After a replay named the corrupted replica of a tie: the anomaly's failure rows name it
    as the root cause, with the action decided (the agent, deciding before the replay, took the
    first rank it read; the others' rows stay, as echoes with action none). A named rank the
    agent stopped before it could exit with the guards' code itself (its row a secondary,
    stopped after a peer failed: on a loaded host the first rank's exit is read before the
    other's) is the same replica: its row takes the category first. Nothing when the replay
    could not decide or no row of that rank exists."""
    p = event.payload
    if not (event.kind == "lifecycle" and p.get("phase") == "sdc_attributed" and event.rank == 0):
        return []
    culprits = [int(r) for r in p.get("ranks") or []]
    if not culprits:
        return []
    a = int(p["anomaly_attempt"])
    sdc = "attempt = ? AND category = 'silent_data_corruption' AND NOT planned"
    named = f"rank IN ({','.join('?' * len(culprits))})"
    root = f"(SELECT action FROM failures WHERE {sdc} AND root_cause = 1 ORDER BY id LIMIT 1)"
    has = f"EXISTS (SELECT 1 FROM failures WHERE {sdc} AND {named})"
    args = (a, *culprits)
    return [  # in order: the named rows take the root's action, then the flags move
        (  # a named rank stopped by the agent before its own exit: the tie's replica all the same
            f"UPDATE failures SET category = 'silent_data_corruption' WHERE attempt = ? AND NOT"
            f" planned AND {named} AND root_cause = 0 AND category = 'unknown' AND EXISTS"
            f" (SELECT 1 FROM failures WHERE {sdc} AND root_cause = 1)",
            (a, *culprits, a),
        ),
        (
            f"UPDATE failures SET action = COALESCE({root}, action) WHERE {sdc} AND {named}"
            f" AND root_cause = 0",
            (a, *args),
        ),
        (
            f"UPDATE failures SET action = 'none' WHERE {sdc} AND root_cause = 1 AND NOT "
            f"{named} AND {has}",
            (*args, *args),
        ),
        (
            f"UPDATE failures SET root_cause = ({named}) WHERE {sdc} AND {has}",
            (*culprits, a, *args),
        ),
    ]


def ingest_file(ledger: Ledger, path: Path, stats: IngestStats) -> None:
    key = str(path.resolve())
    row = ledger.conn.execute("SELECT offset FROM ingested WHERE path = ?", (key,)).fetchone()
    start = int(row[0]) if row else 0
    if path.stat().st_size <= start:
        return
    read = ReadStats()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EventWarning)
        with ledger.transaction() as conn:
            for event in iter_events(path, start_offset=start, stats=read):
                try:
                    sql_row = _row(event)
                    if sql_row is not None:
                        conn.execute(*sql_row)
                    for extra in _attributed(event):
                        conn.execute(*extra)
                except (
                    TypeError,
                    ValueError,
                    KeyError,
                    OverflowError,
                    sqlite3.ProgrammingError,
                    sqlite3.InterfaceError,
                ) as e:  # a payload of wrong types
                    read.corrupt += 1
                    warnings.warn(
                        f"{path}: skipped a malformed {event.kind} event: {e}",
                        EventWarning,
                        stacklevel=2,
                    )
            conn.execute(
                "INSERT INTO ingested VALUES (?,?,?,?,?) ON CONFLICT(path) DO UPDATE SET"
                " offset = excluded.offset, torn = excluded.torn,"
                " corrupt = corrupt + excluded.corrupt, unknown = unknown + excluded.unknown",
                (key, read.end_offset, read.torn, read.corrupt, sum(read.unknown_kinds.values())),
            )
    # Re-emit the reader's warnings once, outside the transaction, for the caller to see.
    for w in caught:
        warnings.warn(str(w.message), EventWarning, stacklevel=2)
    stats.files += 1
    stats.events += read.events
    stats.torn += read.torn
    stats.corrupt += read.corrupt
    stats.unknown += sum(read.unknown_kinds.values())


def ingest_run(run_dir: RunDir, ledger: Ledger) -> IngestStats:
    """Bring every event stream of the run into the ledger (only what is new since last time)."""
    stats = IngestStats()
    for _attempt, _rank, path in run_dir.event_files():
        ingest_file(ledger, path, stats)
    derive_start_phases(ledger)
    return stats


# The workers' side of each attempt's start, from the slowest rank's lifecycle events:
# (phase, from, to). `spawned` is the supervisor's spawn phase end; the rest are lifecycle
# phases, and `first_step` the end of the attempt's first step.
START_PHASES = (
    ("interpreter", "spawned", "attempt_start"),  # python starts (or a standby takes over)
    ("imports_and_pg", "attempt_start", "pg_ready"),  # the script's imports, process group
    ("state_load", "pg_ready", "resumed"),  # model built, checkpoint verified and loaded
    ("first_step", "resumed", "first_step"),  # the first step after the load
)


def derive_start_phases(ledger: Ledger) -> None:
    """Time the restart path inside the workers into `restart_phases` (idempotent)."""
    marks: dict[int, dict[str, float]] = {}
    for attempt, phase, t in ledger.rows(
        "SELECT attempt, phase, MAX(time) FROM lifecycle"
        " WHERE phase IN ('attempt_start', 'pg_ready', 'resumed') GROUP BY attempt, phase"
    ):
        marks.setdefault(int(attempt), {})[str(phase)] = float(t)
    for attempt, t in ledger.rows(
        "SELECT attempt, end FROM restart_phases WHERE phase IN ('spawn', 'handover')"
    ):
        marks.setdefault(int(attempt), {})["spawned"] = float(t)
    for attempt, t in ledger.rows(
        "SELECT attempt, MAX(first) FROM (SELECT attempt, rank, MIN(end) AS first FROM steps"
        " GROUP BY attempt, rank) GROUP BY attempt"
    ):
        marks.setdefault(int(attempt), {})["first_step"] = float(t)
    with ledger.transaction() as conn:
        for attempt, m in marks.items():
            if "resumed" not in m and "pg_ready" in m:
                m["resumed"] = m["pg_ready"]  # a fresh start: nothing to load
            for phase, a, b in START_PHASES:
                if a in m and b in m and m[b] >= m[a]:
                    conn.execute(
                        "INSERT OR REPLACE INTO restart_phases VALUES (?,?,?,?)",
                        (attempt, phase, m[a], m[b]),
                    )
