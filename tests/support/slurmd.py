"""What the two test Slurm clusters share: tests/slurm/slurm_cluster.py (one node, this host)
and tests/support/slurm_nodes.py (one slurmd per namespace node). Each writes its own
slurm.conf under its own ROOT; the client commands find it through SLURM_CONF."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

KILL_WAIT_S = 30  # Slurm's default: SIGTERM, then SIGKILL this much later
POLICY = f"""\
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobRequeue=1
KillWait={KILL_WAIT_S}
OverTimeLimit=0
InactiveLimit=0
MinJobAge=600"""
"""slurm.conf's lines both clusters share: logging, plugins (no accounting), backfill by CPU,
requeue, and the timeouts."""


class SlurmUnavailable(RuntimeError):
    """Slurm cannot run here (packages missing, not root); says what to do."""


def conf_path(root: Path) -> Path:
    return root / "slurm.conf"


def env(root: Path) -> dict[str, str]:
    """The environment for Slurm's client commands (sbatch, squeue, scontrol)."""
    return dict(os.environ, SLURM_CONF=str(conf_path(root)))


def require_slurm() -> None:
    """SlurmUnavailable unless Slurm's and munge's daemons are installed and this is root."""
    missing = [c for c in ("munged", "slurmctld", "slurmd", "sbatch") if not shutil.which(c)]
    if missing:
        raise SlurmUnavailable(f"{', '.join(missing)} not found: apt-get install slurm-wlm munge")
    if os.geteuid() != 0:
        raise SlurmUnavailable("the test cluster's daemons run as root; run as root (as CI does)")


def pid(path: Path) -> int | None:
    """The live process a pid file names; None when there is none."""
    try:
        n = int(path.read_text().strip())
    except (OSError, ValueError):
        return None
    return n if Path(f"/proc/{n}").exists() else None


def stop(pidfiles: Iterable[Path]) -> None:
    """SIGTERM each daemon a pid file names and wait up to 15 s for each to go."""
    for pidfile in pidfiles:
        n = pid(pidfile)
        if n is None:
            continue
        with contextlib.suppress(ProcessLookupError):
            os.kill(n, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and Path(f"/proc/{n}").exists():
            time.sleep(0.1)


def tail(path: Path, n: int) -> str:
    """The last `n` lines of a daemon's log, under its name ("" when it cannot be read)."""
    try:
        lines = path.read_text(errors="replace").splitlines()[-n:]
    except OSError:
        return ""
    return f"--- {path} ---\n" + "\n".join(lines) + "\n"


def main(
    argv: list[str],
    *,
    script: str,
    name: str,
    up: Callable[[], str],
    down: Callable[[], None],
    errors: tuple[type[Exception], ...] = (),
) -> int:
    """`python SCRIPT up|down`: `up()` returns the line to print; a cluster that cannot start
    is one line and exit 1, a wrong word the usage and exit 2."""
    if argv not in (["up"], ["down"]):
        print(f"usage: python {script} up|down", file=sys.stderr)
        return 2
    if argv == ["down"]:
        down()
        return 0
    try:
        done = up()
    except (SlurmUnavailable, subprocess.CalledProcessError, *errors) as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 1
    print(f"{name}: {done}")
    return 0
