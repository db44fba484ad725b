"""Slurm across the namespace cluster's nodes: one slurmd per node, one slurmctld for them all.

Each node of tests/support/cluster.py runs its own `slurmd` inside its network namespace and
its own UTS namespace (NodeName = its hostname `node<i>`, NodeAddr = its IP); `slurmctld`
runs on this host's side of the bridge, which gets the address <subnet>.1 for it. Jobs that
`sbatch` starts run on those nodes for real: the batch script on the first node of the
allocation, `srun`'s tasks on every node, each in its node's network (a node whose cable is
pulled is cut off from the controller and its peers alike).

Everything is this cluster's own, beside the one-node cluster of tests/slurm/slurm_cluster.py
(which keeps the default ports and the system's munged): a munged on its own socket and key,
ports 6900 + the subnet's second octet (slurmctld) and one more (every slurmd, each in its own
namespace), state and logs under ROOT. Root only, Debian's slurm-wlm and munge.

    NONSTOP_CLUSTER_PREFIX=nss NONSTOP_CLUSTER_SUBNET=10.80.0 python tests/support/slurm_nodes.py up
    SLURM_CONF=/tmp/nonstop-slurm-nss/slurm.conf sinfo
    python tests/support/slurm_nodes.py down       # the daemons; the namespaces stay
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

from support import cluster as netns
from support import slurmd
from support.slurmd import SlurmUnavailable, conf_path, env, pid, require_slurm

ROOT = Path(os.environ.get("NONSTOP_SLURM_NODES_ROOT", f"/tmp/nonstop-slurm-{netns.PREFIX}"))
CTLD_PORT = 6900 + int(netns.SUBNET.split(".")[1])
SLURMD_PORT = CTLD_PORT + 1


def host_ip() -> str:
    """This host's address on the cluster's bridge: where every slurmd finds the controller."""
    return f"{netns.SUBNET}.1"


def _conf(root: Path, c: netns.Cluster) -> str:
    host = socket.gethostname().split(".")[0]
    nodes = "\n".join(
        f"NodeName={n.name} NodeAddr={n.ip} NodeHostname={n.name} CPUs=2 RealMemory=1000"
        " State=UNKNOWN"
        for n in c.nodes
    )
    return f"""\
# written by tests/support/slurm_nodes.py: one slurmd per namespace node, no accounting
ClusterName=nonstop{netns.PREFIX}
SlurmctldHost={host}({host_ip()})
SlurmUser=root
SlurmdUser=root
SlurmctldPort={CTLD_PORT}
SlurmdPort={SLURMD_PORT}
AuthType=auth/munge
AuthInfo=socket={root}/munge/munge.socket
CredType=cred/munge
StateSaveLocation={root}/state
SlurmdSpoolDir={root}/spool/%n
SlurmctldPidFile={root}/slurmctld.pid
SlurmdPidFile={root}/slurmd-%n.pid
SlurmctldLogFile={root}/slurmctld.log
SlurmdLogFile={root}/slurmd-%n.log
{slurmd.POLICY}
SlurmdTimeout=60
SchedulerParameters=bf_interval=1,sched_interval=1
{nodes}
PartitionName=nodes Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
"""


def _munge(root: Path) -> None:
    """A munged of our own (socket and key under ROOT/munge), as the munge user."""
    d = root / "munge"
    sock = d / "munge.socket"
    ok = ["munge", "-n", "--socket", str(sock)]
    if subprocess.run(ok, capture_output=True).returncode == 0:
        return
    d.mkdir(parents=True, exist_ok=True)
    d.chmod(0o755)
    shutil.chown(d, "munge", "munge")
    key = d / "munge.key"
    if not key.exists():
        subprocess.run(["mungekey", "--create", "--keyfile", str(key)], check=True)
        shutil.chown(key, "munge", "munge")
        key.chmod(0o600)
    files = [
        f"--socket={sock}",
        f"--key-file={key}",
        f"--pid-file={d / 'munged.pid'}",
        f"--log-file={d / 'munged.log'}",
        f"--seed-file={d / 'munged.seed'}",
    ]
    subprocess.run(["runuser", "-u", "munge", "--", "munged", *files], check=True)
    deadline = time.monotonic() + 10
    while subprocess.run(ok, capture_output=True).returncode != 0:
        if time.monotonic() > deadline:
            raise SlurmUnavailable(f"munged on {sock} does not answer")
        time.sleep(0.2)


def states(root: Path = ROOT) -> dict[str, str]:
    """{node: Slurm state} as sinfo says ({} when the controller does not answer)."""
    try:
        r = subprocess.run(
            ["sinfo", "-h", "-N", "-o", "%N %T"],
            env=env(root),
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {}
    if r.returncode != 0:
        return {}
    return dict(line.split() for line in r.stdout.splitlines() if len(line.split()) == 2)


def up(c: netns.Cluster, root: Path = ROOT, timeout_s: float = 120.0) -> Path:
    """slurmctld and a slurmd on every node of `c` (the running ones reused); every node idle."""
    require_slurm()
    for sub in ("state", *(f"spool/{n.name}" for n in c.nodes)):
        (root / sub).mkdir(parents=True, exist_ok=True)
    addrs = subprocess.run(["ip", "-o", "addr", "show", "dev", netns.BRIDGE], capture_output=True)
    if f" {host_ip()}/".encode() not in addrs.stdout:
        subprocess.run(
            ["ip", "addr", "add", f"{host_ip()}/24", "dev", netns.BRIDGE], check=True, timeout=30
        )
    text = _conf(root, c)
    fresh = not conf_path(root).exists() or conf_path(root).read_text() != text
    if fresh:
        down(root)
        conf_path(root).write_text(text)
        # `ip netns exec` mounts a sysfs of the node's own, with no cgroup file system under
        # it, where slurmd 22.05 finds none and stops ("No filesystem mounted on
        # /sys/fs/cgroup"); told the version, it mounts the v1 hierarchies it needs itself
        (root / "cgroup.conf").write_text("CgroupPlugin=cgroup/v1\nCgroupAutomount=yes\n")
    _munge(root)
    if pid(root / "slurmctld.pid") is None:
        # -c: no jobs left by an earlier cluster; -i: ignore stale state files
        subprocess.run(["slurmctld", "-c", "-i", "-f", str(conf_path(root))], env=env(root))
    for n in c.nodes:
        if pid(root / f"slurmd-{n.name}.pid") is None:
            # slurmd daemonizes: it stays in the node's namespaces, as every job step it starts
            n.run(["slurmd", "-N", n.name, "-f", str(conf_path(root))], env=env(root))
    deadline = time.monotonic() + timeout_s
    while True:
        s = states(root)
        if len(s) == len(c.nodes) and all(v == "idle" for v in s.values()):
            return conf_path(root)
        if any(v.startswith(("drain", "down")) for v in s.values()):
            for name, v in s.items():  # a node whose slurmd restarted: back to service
                if v.startswith(("drain", "down")):
                    subprocess.run(
                        ["scontrol", "update", f"NodeName={name}", "State=RESUME"],
                        env=env(root),
                        capture_output=True,
                        timeout=30,
                    )
        if time.monotonic() > deadline:
            logs = "".join(slurmd.tail(p, 15) for p in sorted(root.glob("*.log")))
            raise SlurmUnavailable(f"nodes not idle after {timeout_s:g} s: {s}\n{logs}")
        time.sleep(1.0)


def down(root: Path = ROOT) -> None:
    """Stop slurmctld, every slurmd and our munged (by their pid files). Idempotent."""
    slurmd.stop([root / "slurmctld.pid", *root.glob("slurmd-*.pid"), root / "munge/munged.pid"])


if __name__ == "__main__":
    sys.exit(
        slurmd.main(
            sys.argv[1:],
            script="tests/support/slurm_nodes.py",
            name="slurm-nodes",
            up=lambda: (
                f"a slurmd on each of 4 namespace nodes; export SLURM_CONF={up(netns.up(4))}"
            ),
            down=down,
            errors=(netns.ClusterUnavailable,),
        )
    )
