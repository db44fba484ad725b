"""`nonstop` subprocesses for the tests: the real CLI (`python -m nonstop.cli`), in an
environment cleaned of the outer one's nonstop and torchelastic variables (a developer's
NONSTOP_FAULTS, or the suite itself running under a launcher, must not leak into a test)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def tiny(log_every: int = 5) -> list[str]:
    """The flags of the smallest model nonstop.workloads.llama.train builds, so that an attempt
    costs the interpreter's start, not the training: nonstop.workloads.llama.tiny_args (which
    the benchmarks use), kept here because `support` imports no nonstop (system python3 runs
    tests/slurm/slurm_cluster.py for `make slurm-up`); tests/test_support.py checks both agree."""
    return [
        "--dim",
        "32",
        "--layers",
        "1",
        "--heads",
        "2",
        "--kv-heads",
        "1",
        "--seq-len",
        "32",
        "--batch-size",
        "2",
        "--log-every",
        str(log_every),
    ]


TINY = tiny()

CLI = [sys.executable, "-m", "nonstop.cli"]


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without NONSTOP_* and TORCHELASTIC_* variables, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NONSTOP_", "TORCHELASTIC"))}
    env.update(extra or {})
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def nonstop_cli(
    *args: str, cwd: Path | None = None, timeout: float = 240, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`nonstop ARGS...` to the end, output captured."""
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=timeout, env=clean_env(env), cwd=cwd
    )


def nonstop_run(
    args: list[str],
    *,
    timeout: float = 180,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """`nonstop run --quiet ARGS...` to the end, output captured."""
    return nonstop_cli("run", "--quiet", *args, cwd=cwd, timeout=timeout, env=env)


def start(
    args: list[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> subprocess.Popen[str]:
    """`nonstop run --quiet ARGS...` started, stdout and stderr together (see `finish`)."""
    return subprocess.Popen(
        [*CLI, "run", "--quiet", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=clean_env(env),
        cwd=cwd,
    )


def finish(p: subprocess.Popen[str], timeout_s: float = 180) -> tuple[int, str]:
    """Wait for a process `start`ed; killed (with its tree) if it runs past `timeout_s`."""
    try:
        out, _ = p.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        kill_tree(p.pid)
        out, _ = p.communicate()
    return p.returncode, out


def kill_tree(pid: int) -> None:
    """SIGKILL a launcher and every process under it (torch starts each rank in a session of
    its own, and torchrun's ranks outlive their launcher); stopped ones are continued first."""
    import psutil

    try:
        procs = [psutil.Process(pid)]
        procs += procs[0].children(recursive=True)
    except psutil.Error:
        return
    for p in procs:
        for sig in (signal.SIGCONT, signal.SIGKILL):
            with contextlib.suppress(psutil.Error):
                p.send_signal(sig)
