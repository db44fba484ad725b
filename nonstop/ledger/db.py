"""The run ledger: one SQLite file per run (run_dir/ledger.db), WAL mode, versioned migrations.

The supervisor writes attempts, failures, detections, actions and health checks; `ingest` adds
the ranks' event streams (steps, checkpoints, lifecycle, telemetry, errors) idempotently. Every
reader (report, diagnose, simulate --from-run) goes through this module.

Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from nonstop.errors import UserError

# Each entry migrates from version i to i+1; PRAGMA user_version holds the version reached.
# Never edit a shipped migration: append a new one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE attempts (
        attempt INTEGER PRIMARY KEY, start_time REAL NOT NULL, end_time REAL,
        world_size INTEGER, nodes TEXT, outcome TEXT, restart_path TEXT,
        planned INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE failures (
        id INTEGER PRIMARY KEY, attempt INTEGER NOT NULL, time REAL NOT NULL, rank INTEGER,
        host TEXT, category TEXT NOT NULL, action TEXT NOT NULL, exit_code INTEGER,
        signal TEXT, message TEXT, evidence TEXT, planned INTEGER NOT NULL DEFAULT 0,
        root_cause INTEGER NOT NULL DEFAULT 1);
    CREATE TABLE detections (
        id INTEGER PRIMARY KEY, attempt INTEGER NOT NULL, kind TEXT NOT NULL, rank INTEGER,
        host TEXT, last_progress_time REAL, detection_time REAL NOT NULL, latency_s REAL,
        evidence_path TEXT);
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY, attempt INTEGER NOT NULL, time REAL NOT NULL,
        action TEXT NOT NULL, host TEXT, reason TEXT);
    CREATE TABLE health_checks (
        id INTEGER PRIMARY KEY, attempt INTEGER NOT NULL, time REAL NOT NULL, host TEXT,
        name TEXT NOT NULL, status TEXT NOT NULL, detail TEXT, duration_s REAL);
    CREATE TABLE restart_phases (
        attempt INTEGER NOT NULL, phase TEXT NOT NULL, start REAL NOT NULL, end REAL NOT NULL,
        PRIMARY KEY (attempt, phase));
    CREATE TABLE steps (
        attempt INTEGER NOT NULL, rank INTEGER NOT NULL, step INTEGER NOT NULL,
        start REAL NOT NULL, end REAL NOT NULL, host TEXT, data_s REAL, compute_s REAL,
        optimizer_s REAL, tokens INTEGER, loss REAL,
        PRIMARY KEY (attempt, rank, step, start));
    CREATE TABLE checkpoints (
        attempt INTEGER NOT NULL, rank INTEGER NOT NULL, step INTEGER NOT NULL,
        phase TEXT NOT NULL, time REAL NOT NULL, bytes INTEGER, blocking_s REAL,
        total_s REAL, path TEXT, error TEXT,
        PRIMARY KEY (attempt, rank, step, phase, time));
    CREATE TABLE lifecycle (
        attempt INTEGER NOT NULL, rank INTEGER NOT NULL, phase TEXT NOT NULL,
        time REAL NOT NULL, host TEXT, step INTEGER,
        PRIMARY KEY (attempt, rank, phase, time));
    CREATE TABLE errors (
        attempt INTEGER NOT NULL, rank INTEGER NOT NULL, time REAL NOT NULL, host TEXT,
        type TEXT, message TEXT, step INTEGER, category TEXT,
        PRIMARY KEY (attempt, rank, time));
    CREATE TABLE telemetry (
        attempt INTEGER NOT NULL, rank INTEGER NOT NULL, time REAL NOT NULL, host TEXT,
        source TEXT NOT NULL, metrics TEXT NOT NULL,
        PRIMARY KEY (attempt, rank, time, source));
    CREATE TABLE ingested (
        path TEXT PRIMARY KEY, offset INTEGER NOT NULL, torn INTEGER NOT NULL DEFAULT 0,
        corrupt INTEGER NOT NULL DEFAULT 0, unknown INTEGER NOT NULL DEFAULT 0);
    CREATE INDEX steps_by_time ON steps (start);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class Ledger:
    """A connection to one run's ledger. Use `Ledger.open(path)`; close it (or use `with`)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, path: str | Path, *, create: bool = True, readonly: bool = False) -> Ledger:
        """Open (and migrate) a ledger. A corrupt file or a newer schema raises UserError and
        leaves the file untouched."""
        path = Path(path)
        if not path.exists() and (readonly or not create):
            raise UserError(f"{path}: no ledger here")
        if path.exists() and not _looks_like_sqlite(path):
            raise UserError(
                f"{path} is not a SQLite ledger (corrupt or another file); it was left untouched"
            )
        uri = f"file:{path}?mode=ro" if readonly else f"file:{path}"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=30.0, isolation_level=None)
            conn.row_factory = sqlite3.Row
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as e:
            raise UserError(
                f"{path} is not a readable ledger ({e}); it was left untouched"
            ) from None
        if version > SCHEMA_VERSION:
            conn.close()
            raise UserError(
                f"{path} has ledger schema v{version}, newer than this nonstop's "
                f"v{SCHEMA_VERSION}; upgrade nonstop to read it (the file was left untouched)"
            )
        ledger = cls(conn, path)
        if not readonly:
            try:
                conn.execute("PRAGMA busy_timeout=30000")
                _retry_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
                ledger._migrate()
            except sqlite3.DatabaseError as e:
                conn.close()
                raise UserError(f"{path} is not a usable ledger ({e}); left untouched") from None
        elif version < SCHEMA_VERSION:
            conn.close()
            raise UserError(
                f"{path} has an older ledger schema v{version}; open it read-write once"
            )
        return ledger

    def _migrate(self) -> None:
        # Several agents may open a new ledger at once: each migration re-reads the version
        # inside its write transaction, so exactly one of them applies it.
        for target, script in enumerate(MIGRATIONS, start=1):
            with self.transaction():
                if self.conn.execute("PRAGMA user_version").fetchone()[0] >= target:
                    continue
                for stmt in script.split(";"):
                    if stmt.strip():
                        self.conn.execute(stmt)
                self.conn.execute(f"PRAGMA user_version = {target}")
                if target == 1:
                    self.set_meta("created", str(time.time()))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # -- meta ------------------------------------------------------------------------------

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    # -- what the supervisor writes ----------------------------------------------------------

    def attempt_started(
        self,
        attempt: int,
        *,
        time_s: float,
        world_size: int | None = None,
        nodes: list[str] | None = None,
        restart_path: str | None = None,
        planned: bool = False,
    ) -> None:
        self.conn.execute(
            "INSERT INTO attempts (attempt, start_time, world_size, nodes, restart_path, planned)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(attempt) DO UPDATE SET"
            " world_size = excluded.world_size, nodes = excluded.nodes",
            (attempt, time_s, world_size, json.dumps(nodes or []), restart_path, int(planned)),
        )

    def set_restart_path(self, attempt: int, path: str) -> None:
        """How the attempt's workers started: warm (standbys took over) or cold (spawned);
        `mixed` when the nodes of one attempt disagree."""
        self.conn.execute(
            "UPDATE attempts SET restart_path = CASE WHEN restart_path IS NULL OR"
            " restart_path = ? THEN ? ELSE 'mixed' END WHERE attempt = ?",
            (path, path, attempt),
        )

    def attempt_ended(self, attempt: int, *, time_s: float, outcome: str) -> None:
        """outcome: succeeded, failed, stopped, planned (a drain or preemption)."""
        self.conn.execute(
            "UPDATE attempts SET end_time = ?, outcome = ? WHERE attempt = ?",
            (time_s, outcome, attempt),
        )

    def add_failure(
        self,
        *,
        attempt: int,
        time_s: float,
        category: str,
        action: str,
        rank: int | None = None,
        host: str | None = None,
        exit_code: int | None = None,
        signal: str | None = None,
        message: str | None = None,
        evidence: dict[str, Any] | None = None,
        planned: bool = False,
        root_cause: bool = True,
    ) -> int:
        """One failure. `root_cause=False` marks a rank that only echoed another's failure
        (a peer's connection closed): kept as evidence, not counted as an interruption."""
        cur = self.conn.execute(
            "INSERT INTO failures (attempt, time, rank, host, category, action, exit_code,"
            " signal, message, evidence, planned, root_cause) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                attempt,
                time_s,
                rank,
                host,
                category,
                action,
                exit_code,
                signal,
                message,
                json.dumps(evidence or {}),
                int(planned),
                int(root_cause),
            ),
        )
        return int(cur.lastrowid or 0)

    def add_detection(
        self,
        *,
        attempt: int,
        kind: str,
        detection_time_s: float,
        last_progress_time_s: float | None = None,
        rank: int | None = None,
        host: str | None = None,
        evidence_path: str | None = None,
        once: bool = False,
    ) -> bool:
        """Record a detection; with `once`, only if this attempt has none of this kind for this
        rank and host yet, in one statement, so that agents on several nodes that see the same
        thing at once file it once (a read then an insert would let two both write). Returns
        whether a row was written."""
        latency = None if last_progress_time_s is None else detection_time_s - last_progress_time_s
        values = (
            attempt,
            kind,
            rank,
            host,
            last_progress_time_s,
            detection_time_s,
            latency,
            evidence_path,
        )
        columns = (
            "INSERT INTO detections (attempt, kind, rank, host, last_progress_time,"
            " detection_time, latency_s, evidence_path)"
        )
        if not once:
            cur = self.conn.execute(f"{columns} VALUES (?,?,?,?,?,?,?,?)", values)
        else:
            cur = self.conn.execute(
                f"{columns} SELECT ?,?,?,?,?,?,?,? WHERE NOT EXISTS (SELECT 1 FROM detections"
                " WHERE attempt = ? AND kind = ? AND rank IS ? AND host IS ?)",
                (*values, attempt, kind, rank, host),
            )
        return cur.rowcount > 0

    def add_action(
        self,
        *,
        attempt: int,
        time_s: float,
        action: str,
        host: str | None = None,
        reason: str | None = None,
    ) -> None:
        self.conn.execute(
            "INSERT INTO actions (attempt, time, action, host, reason) VALUES (?,?,?,?,?)",
            (attempt, time_s, action, host, reason),
        )

    def add_health_check(
        self,
        *,
        attempt: int,
        time_s: float,
        name: str,
        status: str,
        host: str | None = None,
        detail: str | None = None,
        duration_s: float | None = None,
    ) -> None:
        self.conn.execute(
            "INSERT INTO health_checks (attempt, time, host, name, status, detail, duration_s)"
            " VALUES (?,?,?,?,?,?,?)",
            (attempt, time_s, host, name, status, detail, duration_s),
        )

    def add_restart_phase(self, *, attempt: int, phase: str, start_s: float, end_s: float) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO restart_phases VALUES (?,?,?,?)",
            (attempt, phase, start_s, end_s),
        )

    def close_abandoned(self, *, before: int, now_s: float) -> None:
        """Close attempts left open by a supervisor that was killed: an interruption detected
        at `now_s`, its progress ending at the last step or lifecycle event the ledger has."""
        for attempt in self.open_attempts(before=before):
            seen = self.last_progress_time(attempt)
            t = seen if seen is not None else now_s
            self.attempt_ended(attempt, time_s=t, outcome="failed")
            self.add_detection(
                attempt=attempt,
                kind="supervisor_restart",
                detection_time_s=now_s,
                last_progress_time_s=t,
            )
            self.add_failure(
                attempt=attempt,
                time_s=t,
                category="unknown",
                action="restart",
                message="the supervisor stopped during this attempt (killed?); "
                "a new `nonstop run` resumed the run",
            )

    # -- what the supervisor reads -----------------------------------------------------------

    def last_attempt(self) -> tuple[int, float | None] | None:
        """(number, end time or None while open) of the highest attempt; None before any."""
        row = self.conn.execute(
            "SELECT attempt, end_time FROM attempts ORDER BY attempt DESC LIMIT 1"
        ).fetchone()
        return None if row is None else (int(row[0]), row[1])

    def open_attempts(self, *, before: int) -> list[int]:
        """Attempts below `before` that have no end time."""
        return [
            int(r[0])
            for r in self.conn.execute(
                "SELECT attempt FROM attempts WHERE end_time IS NULL AND attempt < ?", (before,)
            )
        ]

    def attempt_is_open(self, attempt: int) -> bool:
        """Whether the attempt was recorded as started and has no end time yet."""
        row = self.conn.execute(
            "SELECT end_time FROM attempts WHERE attempt = ?", (attempt,)
        ).fetchone()
        return row is not None and row[0] is None

    def last_progress_time(self, attempt: int) -> float | None:
        """The attempt's last step end or lifecycle event, whichever is later."""
        (t,) = self.conn.execute(
            "SELECT MAX(t) FROM (SELECT MAX(end) AS t FROM steps WHERE attempt = ?"
            " UNION ALL SELECT MAX(time) FROM lifecycle WHERE attempt = ?)",
            (attempt, attempt),
        ).fetchone()
        return None if t is None else float(t)

    def lifecycle_seen(self, attempt: int, phase: str) -> bool:
        """Whether any rank of the attempt reported the lifecycle `phase`."""
        (n,) = self.conn.execute(
            "SELECT COUNT(*) FROM lifecycle WHERE attempt = ? AND phase = ?", (attempt, phase)
        ).fetchone()
        return bool(n)

    def last_step(self, attempt: int) -> int | None:
        """The highest step any rank of the attempt finished."""
        (step,) = self.conn.execute(
            "SELECT MAX(step) FROM steps WHERE attempt = ?", (attempt,)
        ).fetchone()
        return None if step is None else int(step)

    def last_committed_step(self) -> int | None:
        """The highest step of the run with a committed checkpoint."""
        (step,) = self.conn.execute(
            "SELECT MAX(step) FROM checkpoints WHERE phase = 'committed'"
        ).fetchone()
        return None if step is None else int(step)

    def unanswered_failures(self, attempt: int) -> int:
        """Root-cause failures of the attempt with no action recorded for it (a supervisor
        killed between a failure and its action)."""
        (n,) = self.conn.execute(
            "SELECT COUNT(*) FROM failures f WHERE f.attempt = ? AND f.root_cause = 1"
            " AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.attempt = f.attempt)",
            (attempt,),
        ).fetchone()
        return int(n)

    def observed_mtbi_s(self) -> float | None:
        """Mean time between unplanned interruptions so far: the attempts' wall time over the
        root-cause failures; None before the first. A network outage that healed by itself
        (`healed` in its evidence: nothing restarted, no work lost) is no interruption."""
        (n,) = self.conn.execute(
            "SELECT COUNT(*) FROM failures WHERE root_cause = 1 AND planned = 0"
            " AND COALESCE(evidence, '') NOT LIKE '%\"healed\": true%'"
        ).fetchone()
        (wall,) = self.conn.execute(
            "SELECT SUM(COALESCE(end_time, start_time) - start_time) FROM attempts"
        ).fetchone()
        return float(wall) / n if n and wall else None

    def actions_for_request(self, request_id: str) -> list[tuple[str, str]]:
        """(action, reason) of the actions that name a planned-stop request ("[id]" in the
        reason), oldest first."""
        return [
            (str(a), str(r))
            for a, r in self.conn.execute(
                "SELECT action, reason FROM actions WHERE reason LIKE ? ORDER BY time",
                (f"%[{request_id}]%",),
            )
        ]

    def hosts_of_last_attempt(self) -> list[str]:
        """The hosts whose ranks reported lifecycle events in the newest such attempt."""
        return sorted(
            str(r[0])
            for r in self.conn.execute(
                "SELECT DISTINCT host FROM lifecycle WHERE host IS NOT NULL AND attempt ="
                " (SELECT MAX(attempt) FROM lifecycle)"
            )
        )

    # -- reading -----------------------------------------------------------------------------

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        return list(self.conn.execute(sql, params))


def _retry_locked(fn: Any, attempts: int = 100) -> Any:
    """Run fn, retrying while SQLite says the database is locked (some statements, such as a
    journal-mode change, do not wait on the busy timeout)."""
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or i == attempts - 1:
                raise
            time.sleep(0.05 + 0.01 * i)
    return None


def _looks_like_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError:
        return False
    return head == b"" or head == b"SQLite format 3\x00"
