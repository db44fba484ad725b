"""Reading a run directory in tests: the ledger (SQLite) and the ranks' event files."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any


def rows(run_dir: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of one query against the run's ledger.db."""
    conn = sqlite3.connect(run_dir / "ledger.db")
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def rank_events(run_dir: Path, rank: int = 0, attempt: int = 0) -> list[Any]:
    """A rank's events in one attempt, as read so far ([] before the file exists)."""
    from nonstop.events import read_events

    path = run_dir / "events" / f"attempt-{attempt}" / f"rank-{rank}.jsonl"
    if not path.exists():
        return []
    events, _ = read_events(path)
    return events


def last_step(run_dir: Path, attempt: int = 0) -> int:
    """The newest step rank 0 has reported in an attempt (-1 before any)."""
    steps = (e.payload["step"] for e in rank_events(run_dir, 0, attempt) if e.kind == "step")
    return max(steps, default=-1)


def pid_of(run_dir: Path, rank: int, attempt: int = 0, timeout_s: float = 120) -> int:
    """The pid a rank reports in its attempt_start lifecycle event, once it has."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for e in rank_events(run_dir, rank, attempt):
            if e.kind == "lifecycle" and e.payload.get("pid"):
                return int(e.payload["pid"])
        time.sleep(0.2)
    raise AssertionError(f"rank {rank} never reported its pid")


def two_rank_run(root: Path, *, attempts: int = 2, steps: int = 5, crash_at: int = 3) -> Any:
    """A run directory written by the real event writer: 2 ranks on hosts h0/h1; attempt 0
    steps 0..crash_at-1, each later attempt from crash_at-1 to steps-1 (one step redone)."""
    from nonstop import rundir
    from nonstop.events import EventWriter

    rd = rundir.create(root)
    rd.write_config({"run_id": "t"})
    t = time.time()
    for a in range(attempts):
        for r in range(2):
            w = EventWriter(
                rd.events(a, r), run_id="t", attempt=a, rank=r, host=f"h{r}", install_sigterm=False
            )
            w.emit("lifecycle", phase="attempt_start")
            first = 0 if a == 0 else crash_at - 1
            last = crash_at if a == 0 else steps
            for s in range(first, last):
                w.emit(
                    "step", step=s, start=t + a * 100 + s, end=t + a * 100 + s + 0.9, loss=5.0 - s
                )
            w.close()
    return rd


def nodes_recorded(path: Path, nodes: dict[str, str], port: int = 29400) -> Any:
    """A run directory whose agents recorded `nodes` (host -> address) at start, as every
    multi-node agent does (nonstop.diagnose.peers.record_node)."""
    from nonstop import rundir
    from nonstop.diagnose import peers

    rd = rundir.RunDir(path)
    rd.control.mkdir(parents=True)
    for host, address in nodes.items():
        peers.record_node(rd.root, host, address, port)
    return rd


def ranks_ran(rd: Any, attempt: int, hosts: list[str]) -> None:
    """Rank i ran on hosts[i] in `attempt`: its event stream says it started."""
    from nonstop.events.writer import EventWriter

    for rank, host in enumerate(hosts):
        w = EventWriter(
            rd.events(attempt, rank), run_id="r", attempt=attempt, rank=rank, host=host,
            install_sigterm=False,
        )  # fmt: skip
        w.emit("lifecycle", phase="started")
        w.close()
