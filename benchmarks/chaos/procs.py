"""The process tree of one run, read from /proc (Linux): its workers and the supervisor's
children. Standard library only."""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    state: str
    cmdline: str


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
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
            out.append(Proc(int(name), int(fields[1]), fields[0],
                            cmd.replace(b"\0", b" ").decode(errors="replace")))  # fmt: skip
        except (IndexError, ValueError):
            continue
    return out


def environ(pid: int) -> dict[str, str]:
    raw = _read(f"/proc/{pid}/environ") or b""
    env = {}
    for item in raw.split(b"\0"):
        key, eq, value = item.partition(b"=")
        if eq:
            env[key.decode(errors="replace")] = value.decode(errors="replace")
    return env


def workers(run_dir: Path) -> dict[tuple[int, int], int]:
    """{(attempt, rank): pid} of the live training ranks of this run directory."""
    want = str(run_dir.resolve())
    found = {}
    for p in processes():
        if "nonstop.supervisor.bootstrap" not in p.cmdline or p.state in ("Z", "X"):
            continue
        env = environ(p.pid)
        if env.get("NONSTOP_RUN_DIR") != want or "RANK" not in env:
            continue
        with contextlib.suppress(ValueError):
            found[(int(env.get("NONSTOP_ATTEMPT", "-1")), int(env["RANK"]))] = p.pid
    return found


def self_test_running(supervisor_pid: int) -> bool:
    """Whether the supervisor is running its collective self-test (a health check)."""
    return any(
        p.ppid == supervisor_pid and "init_process_group" in p.cmdline and p.state != "Z"
        for p in processes()
    )


def kill(pid: int, sig: int = signal.SIGKILL) -> bool:
    try:
        os.kill(pid, sig)
        return True
    except ProcessLookupError:
        return False


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
