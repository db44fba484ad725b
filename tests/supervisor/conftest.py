"""Real `nonstop run` processes on CPU/gloo: helpers shared by the supervisor tests."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

# A small model so that an attempt costs the interpreter start, not the training.
TINY = ["--dim", "32", "--layers", "1", "--heads", "2", "--kv-heads", "1", "--seq-len", "32",
        "--batch-size", "2", "--log-every", "5"]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def nonstop_run(args: list[str], *, timeout: float = 180, env: dict[str, str] | None = None,
                cwd: Path | None = None) -> subprocess.CompletedProcess[str]:  # fmt: skip
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("NONSTOP_FAULTS", None)
    return subprocess.run(
        [sys.executable, "-m", "nonstop.cli", "run", "--quiet", *args],
        capture_output=True, text=True, timeout=timeout, env=full_env, cwd=cwd,
    )  # fmt: skip


def rows(run_dir: Path, sql: str, params: tuple = ()) -> list[tuple]:
    conn = sqlite3.connect(run_dir / "ledger.db")
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def last_step(run_dir: Path, attempt: int = 0) -> int:
    """The newest step rank 0 has reported in an attempt (-1 before any)."""
    from nonstop.events import read_events

    path = run_dir / "events" / f"attempt-{attempt}" / "rank-0.jsonl"
    if not path.exists():
        return -1
    events, _ = read_events(path)
    return max((e.payload["step"] for e in events if e.kind == "step"), default=-1)


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return tmp_path / "run"
