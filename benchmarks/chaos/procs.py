"""The process tree of one run, read from /proc (Linux): its workers and the supervisor's
children. Standard library only."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from dataclasses import dataclass
from pathlib import Path

from nonstop.supervisor.health import SELF_TEST_NAME

RANK_MARKERS = (b"nonstop.supervisor", b"chaos.peer_worker")
"""What a rank's command line holds: nonstop's bootstrap, or the torchrun peer's worker."""


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    state: str
    cmdline: str


def _read(path: str, limit: int = -1) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read(limit)
    except OSError:
        return None


def processes() -> list[Proc]:
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        stat = _read(f"/proc/{name}/stat")
        cmd = _read(f"/proc/{name}/cmdline")
        if stat is None or cmd is None:
            continue
        try:
            fields = stat.decode(errors="replace").rsplit(")", 1)[1].split()
            out.append(
                Proc(
                    int(name),
                    int(fields[1]),
                    fields[0],
                    cmd.replace(b"\0", b" ").decode(errors="replace"),
                )
            )
        except (IndexError, ValueError):
            continue
    return out


def workers(run_dir: Path) -> dict[tuple[int, int], int]:
    """{(attempt, rank): pid} of the live training ranks of this run directory.

    Each rank reports its pid in its first event (lifecycle `attempt_start`). /proc cannot say
    it: a rank that a warm standby became keeps the standby's command line and the environment
    it was started with (no RANK, no NONSTOP_ATTEMPT)."""
    found = {}
    for path in run_dir.glob("events/attempt-*/rank-*.jsonl"):
        pid = _reported_pid(path)
        if pid is None:
            continue
        stat, cmd = _read(f"/proc/{pid}/stat"), _read(f"/proc/{pid}/cmdline") or b""
        if stat is None or not any(m in cmd for m in RANK_MARKERS):  # gone, or pid reused
            continue
        if stat.decode(errors="replace").rsplit(")", 1)[1].split()[0] in ("Z", "X"):
            continue
        with contextlib.suppress(ValueError):
            found[(int(path.parent.name[8:]), int(path.stem[5:]))] = pid
    return found


def _reported_pid(events: Path) -> int | None:
    head = _read(str(events), 65536) or b""  # the first event; a stream grows to megabytes
    for line in head.splitlines():
        if b'"attempt_start"' in line:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                return int(json.loads(line)["payload"]["pid"])
    return None


def self_test_running(supervisor_pid: int) -> bool:
    """Whether the supervisor is running its collective self-test (a health check)."""
    return any(
        p.ppid == supervisor_pid and p.state != "Z" and _comm(p.pid) == SELF_TEST_NAME
        for p in processes()
    )


def _comm(pid: int) -> str:
    """What a process calls itself (the self-test names itself while it runs; its waiting
    interpreters, started ahead by health.SelfTestPool, are plain `python`)."""
    return (_read(f"/proc/{pid}/comm") or b"").decode(errors="replace").strip()


def kill(pid: int, sig: int = signal.SIGKILL) -> bool:
    try:
        os.kill(pid, sig)
        return True
    except ProcessLookupError:
        return False


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
