"""A real one-node Slurm cluster on this machine: munged, slurmctld and slurmd, as root.

Debian's `slurm-wlm` and `munge` packages (`.ci/run` installs them), a private `slurm.conf`
with one node (this host, all its CPUs) and one partition, state and logs under ROOT. Clients
find it through SLURM_CONF. Starting twice is harmless: a cluster that answers is reused.

    python tests/slurm/slurm_cluster.py up    # or `make slurm-up`; prints the SLURM_CONF to use
    python tests/slurm/slurm_cluster.py down
    SLURM_CONF=/tmp/nonstop-slurm/slurm.conf sinfo
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from support import slurmd
from support.slurmd import SlurmUnavailable, conf_path, env, require_slurm, stop, tail

ROOT = Path(os.environ.get("NONSTOP_SLURM_ROOT", "/tmp/nonstop-slurm"))
DAEMONS = ("slurmctld", "slurmd")


def _conf(root: Path, host: str, cpus: int, memory_mb: int) -> str:
    return f"""\
# written by tests/slurm/slurm_cluster.py: one node, one partition, no accounting
ClusterName=nonstop
SlurmctldHost={host}
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd.log
{slurmd.POLICY}
SchedulerParameters=bf_interval=1,sched_interval=1
NodeName={host} CPUs={cpus} RealMemory={memory_mb} State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
"""


def _answers(root: Path) -> bool:
    try:
        r = subprocess.run(
            ["sinfo", "-h", "-o", "%T"], env=env(root), capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0 and any(s in r.stdout for s in ("idle", "mix", "alloc"))


def _start_munge() -> None:
    if subprocess.run(["munge", "-n"], capture_output=True).returncode == 0:
        return
    for d in ("/run/munge", "/var/log/munge", "/var/lib/munge"):
        Path(d).mkdir(parents=True, exist_ok=True)
        shutil.chown(d, "munge", "munge")
    key = Path("/etc/munge/munge.key")
    if not key.exists():
        subprocess.run(["mungekey", "--create"], check=True, capture_output=True)
        shutil.chown(key, "munge", "munge")
    subprocess.run(["runuser", "-u", "munge", "--", "munged"], check=True, capture_output=True)
    deadline = time.monotonic() + 10
    while subprocess.run(["munge", "-n"], capture_output=True).returncode != 0:
        if time.monotonic() > deadline:
            raise SlurmUnavailable("munged started but does not answer (`munge -n` fails)")
        time.sleep(0.2)


def up(root: Path = ROOT, timeout_s: float = 90.0) -> Path:
    """Start the cluster unless it already answers; return the slurm.conf path."""
    require_slurm()
    _start_munge()
    if conf_path(root).exists() and _answers(root):
        return conf_path(root)
    down(root)
    for sub in ("state", "spool"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    host = socket.gethostname().split(".")[0]
    memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1 << 20) // 2
    conf_path(root).write_text(_conf(root, host, os.cpu_count() or 1, memory_mb))
    e = env(root)
    # -c: a clean state (no jobs left by an earlier cluster); -i: ignore stale state files
    subprocess.run(["slurmctld", "-c", "-i", "-f", str(conf_path(root))], env=e, check=True)
    subprocess.run(["slurmd", "-f", str(conf_path(root))], env=e, check=True)
    deadline = time.monotonic() + timeout_s
    while not _answers(root):
        if time.monotonic() > deadline:
            logs = "".join(tail(root / f"{d}.log", 20) for d in DAEMONS)
            raise SlurmUnavailable(f"the Slurm node is not idle after {timeout_s:g} s\n{logs}")
        time.sleep(0.5)
    return conf_path(root)


def down(root: Path = ROOT) -> None:
    """Stop the daemons this module started (by their pid files); munged stays."""
    stop(root / f"{d}.pid" for d in DAEMONS)


if __name__ == "__main__":
    sys.exit(
        slurmd.main(
            sys.argv[1:],
            script="tests/slurm/slurm_cluster.py",
            name="slurm-up",
            up=lambda: f"a one-node cluster is up; export SLURM_CONF={up()}",
            down=down,
        )
    )
