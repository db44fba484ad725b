"""A real cluster of hosts on this machine: one network namespace per node, a bridge as the switch.

Every node has its own network stack, IP address (10.77.0.10 + i), hostname (`node<i>`, through
its own UTS namespace) and /etc/hosts naming every node; a "node" is every process started in
its namespace. The bridge plays the switch: each node's cable is a veth pair whose host end is
a bridge port. Faults are the real thing, applied to the kernel's network:

    node.link_down() / link_up()     the node's cable pulled and plugged back (its veth, both ends)
    cluster.switch_down() / up()     the switch lost: the bridge down, every port with it
    node.slow("2mbit")               a slow link: a tbf qdisc each way on the node's cable
    cluster.partition(a, b)          two halves on two bridges that cannot see each other
    node.kill()                      every process of the node SIGKILLed at once

Root only (it creates namespaces and links). State lives under ROOT (cluster.json); starting
twice reuses a cluster that is up, and `up(owner_pid=...)` leaves a reaper that tears it down
when that process dies (a killed test run leaves nothing behind).

    python tests/support/cluster.py up --nodes 4     # or `make cluster-up NODES=4`
    python tests/support/cluster.py exec node1 hostname
    python tests/support/cluster.py down             # or `make cluster-down`

Standard library only: `make cluster-up` runs it with the system Python.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# Several clusters can live side by side (one per engineer or test worker): each has its own
# name prefix and /24. The defaults are the one cluster `make cluster-up` builds.
PREFIX = os.environ.get("NONSTOP_CLUSTER_PREFIX", "nsc")  # netns nsc-node<i>, veths nscv<i>
SUBNET = os.environ.get("NONSTOP_CLUSTER_SUBNET", "10.77.0")
ROOT = Path(
    os.environ.get(
        "NONSTOP_CLUSTER_ROOT",
        "/tmp/nonstop-cluster" if PREFIX == "nsc" else f"/tmp/nonstop-cluster-{PREFIX}",
    )
)
BRIDGE = f"{PREFIX}br"
BRIDGE_B = f"{PREFIX}br2"  # the second switch of a partition
MAX_NODES = 64


class ClusterUnavailable(RuntimeError):
    """Namespaces cannot be made here (not root, no iproute2); says why."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=30)


def _tc(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["tc", *args], capture_output=True, text=True, check=check, timeout=30)


@dataclass(frozen=True)
class Node:
    """One host: a network namespace, its address and hostname, and its cable to the switch."""

    index: int
    root: Path

    @property
    def name(self) -> str:
        return f"node{self.index}"

    @property
    def netns(self) -> str:
        return f"{PREFIX}-{self.name}"

    @property
    def ip(self) -> str:
        return f"{SUBNET}.{10 + self.index}"

    @property
    def veth(self) -> str:
        """The host end of the node's cable (a bridge port)."""
        return f"{PREFIX}v{self.index}"

    def argv(self, cmd: list[str]) -> list[str]:
        """`cmd` as run on this node: its namespace (and /etc/hosts) and its own hostname."""
        inner = f'hostname {self.name} && exec "$@"'
        return ["ip", "netns", "exec", self.netns, "unshare", "--uts", "sh", "-c", inner, "-", *cmd]

    def popen(self, cmd: list[str], **kwargs) -> subprocess.Popen:
        """Start `cmd` on this node; the returned process is `ip netns exec`, which execs into it."""
        return subprocess.Popen(self.argv(cmd), **kwargs)

    def run(self, cmd: list[str], timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("text", True)
        return subprocess.run(self.argv(cmd), timeout=timeout, **kwargs)

    def pids(self) -> list[int]:
        out = _ip("netns", "pids", self.netns, check=False).stdout
        return [int(p) for p in out.split()]

    def kill(self, sig: int = signal.SIGKILL) -> list[int]:
        """Every process of the node at once (the node lost); returns the pids signalled."""
        pids = self.pids()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        return pids

    def link_down(self) -> None:
        """The cable pulled: both ends of the veth go down (the node sees carrier loss)."""
        _ip("link", "set", self.veth, "down")
        _ip("-n", self.netns, "link", "set", "eth0", "down")

    def link_up(self) -> None:
        _ip("-n", self.netns, "link", "set", "eth0", "up")
        _ip("link", "set", self.veth, "up")
        # the address's route goes with the link; it comes back with the address on link up
        _ip("-n", self.netns, "route", "replace", f"{SUBNET}.0/24", "dev", "eth0", check=False)

    def slow(self, rate: str = "2mbit", burst: str = "32kbit", latency: str = "50ms") -> None:
        """A slow link: token-bucket shaping both ways (to the node on the host end, from it
        inside the namespace)."""
        for args in (["dev", self.veth], ["dev", "eth0"]):
            ns = [] if args[1] == self.veth else ["-n", self.netns]
            tbf = ["tbf", "rate", rate, "burst", burst, "latency", latency]
            _tc(*ns, "qdisc", "replace", *args, "root", *tbf)

    def unslow(self) -> None:
        _tc("qdisc", "del", "dev", self.veth, "root", check=False)
        _tc("-n", self.netns, "qdisc", "del", "dev", "eth0", "root", check=False)

    def attach(self, bridge: str) -> None:
        _ip("link", "set", self.veth, "master", bridge)


@dataclass(frozen=True)
class Cluster:
    root: Path
    size: int

    @property
    def nodes(self) -> list[Node]:
        return [Node(i, self.root) for i in range(self.size)]

    def __getitem__(self, i: int) -> Node:
        return self.nodes[i]

    def switch_down(self) -> None:
        _ip("link", "set", BRIDGE, "down")

    def switch_up(self) -> None:
        _ip("link", "set", BRIDGE, "up")

    def partition(self, side_a: list[int], side_b: list[int]) -> None:
        """Move side_b's cables to a second switch: each half sees only itself."""
        del side_a  # stays on the main bridge
        if _ip("link", "show", BRIDGE_B, check=False).returncode != 0:
            _ip("link", "add", BRIDGE_B, "type", "bridge")
        _ip("link", "set", BRIDGE_B, "up")
        for i in side_b:
            self[i].attach(BRIDGE_B)

    def heal(self) -> None:
        """Every cable on the main switch, up, unshaped; the switch up; no processes left."""
        self.switch_up()
        for n in self.nodes:
            n.attach(BRIDGE)
            n.unslow()
            n.link_up()
        _ip("link", "del", BRIDGE_B, check=False)

    def kill_all(self) -> None:
        for n in self.nodes:
            n.kill()

    def reset(self) -> None:
        """Between tests: no process on any node, the network whole."""
        self.kill_all()
        self.heal()
        deadline = time.monotonic() + 10
        while any(n.pids() for n in self.nodes) and time.monotonic() < deadline:
            time.sleep(0.1)
            self.kill_all()

    def hosts_file(self) -> str:
        lines = ["127.0.0.1 localhost"] + [f"{n.ip} {n.name}" for n in self.nodes]
        return "\n".join(lines) + "\n"


def _state(root: Path) -> Path:
    return root / "cluster.json"


def check_available() -> None:
    if os.geteuid() != 0:
        raise ClusterUnavailable("network namespaces need root (run as root, or skip)")
    for tool in ("ip", "tc", "unshare"):
        if shutil.which(tool) is None:
            raise ClusterUnavailable(f"{tool} not found (Debian: iproute2, util-linux)")


def _is_up(c: Cluster) -> bool:
    if _ip("link", "show", BRIDGE, check=False).returncode != 0:
        return False
    names = set(_ip("netns", "list", check=False).stdout.split())
    return all(n.netns in names for n in c.nodes)


def up(nodes: int = 4, root: Path = ROOT, owner_pid: int | None = None) -> Cluster:
    """A cluster of `nodes` hosts, reused when one of that size is up; torn down when
    `owner_pid` exits (if given)."""
    check_available()
    if not 1 <= nodes <= MAX_NODES:
        raise ValueError(f"nodes must be 1..{MAX_NODES}, got {nodes}")
    c = Cluster(root, nodes)
    try:
        old = json.loads(_state(root).read_text())
    except (OSError, ValueError):
        old = None
    if old and old.get("nodes") == nodes and _is_up(c):
        c.reset()
        new_owner = old.get("owner_pid") != owner_pid
    else:
        down(root)
        _create(c)
        new_owner = True
    root.mkdir(parents=True, exist_ok=True)
    _state(root).write_text(json.dumps({"nodes": nodes, "owner_pid": owner_pid}))
    if owner_pid is not None and new_owner:
        _spawn_reaper(root, owner_pid)
    return c


def _create(c: Cluster) -> None:
    c.root.mkdir(parents=True, exist_ok=True)
    _ip("link", "add", BRIDGE, "type", "bridge")
    _ip("link", "set", BRIDGE, "up")
    hosts = c.hosts_file()
    for n in c.nodes:
        _ip("netns", "add", n.netns)
        _ip("link", "add", n.veth, "type", "veth", "peer", "name", "eth0", "netns", n.netns)
        _ip("link", "set", n.veth, "master", BRIDGE, "up")
        _ip("-n", n.netns, "addr", "add", f"{n.ip}/24", "dev", "eth0")
        _ip("-n", n.netns, "link", "set", "eth0", "up")
        _ip("-n", n.netns, "link", "set", "lo", "up")
        # `ip netns exec` bind-mounts /etc/netns/<ns>/* over /etc: the node's own hosts file
        etc = Path("/etc/netns") / n.netns
        etc.mkdir(parents=True, exist_ok=True)
        (etc / "hosts").write_text(hosts)
        (etc / "hostname").write_text(n.name + "\n")


def down(root: Path = ROOT) -> None:
    """Every namespace, cable and bridge of ours, and the processes in them. Idempotent."""
    for ns in _ip("netns", "list", check=False).stdout.split():
        if not ns.startswith(f"{PREFIX}-"):
            continue
        for pid in _ip("netns", "pids", ns, check=False).stdout.split():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)
        _ip("netns", "del", ns, check=False)
        shutil.rmtree(Path("/etc/netns") / ns, ignore_errors=True)
    links = _ip("-o", "link", "show", check=False).stdout.splitlines()
    for line in links:
        name = line.split(":")[1].strip().split("@")[0] if ":" in line else ""
        if re.fullmatch(rf"{re.escape(PREFIX)}(v\d+|br2?)", name):  # not another prefix's
            _ip("link", "del", name, check=False)
    with contextlib.suppress(OSError):
        _state(root).unlink()


def _spawn_reaper(root: Path, owner_pid: int) -> None:
    """A detached process (its own session, its parent the shell that started it and exited)."""
    cmd = f"{sys.executable} {__file__} reap --pid {owner_pid} --root {root} </dev/null >/dev/null 2>&1 &"
    subprocess.run(["sh", "-c", cmd], check=True, start_new_session=True, timeout=30)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap(root: Path, owner_pid: int, poll_s: float = 1.0) -> None:
    """Wait for the owner to exit, then tear down, unless a newer owner took the cluster."""
    while _alive(owner_pid):
        time.sleep(poll_s)
    try:
        state = json.loads(_state(root).read_text())
    except (OSError, ValueError):
        return
    if state.get("owner_pid") == owner_pid:
        down(root)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="cluster.py", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="verb", required=True)
    u = sub.add_parser("up", help="create (or reuse) the cluster")
    u.add_argument("--nodes", type=int, default=4)
    sub.add_parser("down", help="tear it down")
    sub.add_parser("status", help="list the nodes and what runs on them")
    e = sub.add_parser("exec", help="run a command on a node")
    e.add_argument("node")
    e.add_argument("cmd", nargs=argparse.REMAINDER)
    r = sub.add_parser("reap", help=argparse.SUPPRESS)
    r.add_argument("--pid", type=int, required=True)
    r.add_argument("--root", type=Path, default=ROOT)
    args = p.parse_args(argv)
    try:
        if args.verb == "up":
            c = up(args.nodes)
            for n in c.nodes:
                print(f"{n.name}  {n.ip}  netns {n.netns}")
            print(f"switch: bridge {BRIDGE}; run on a node: python {__file__} exec node0 CMD")
        elif args.verb == "down":
            down()
        elif args.verb == "reap":
            reap(args.root, args.pid)
        else:
            size = json.loads(_state(ROOT).read_text())["nodes"]
            c = Cluster(ROOT, size)
            if args.verb == "status":
                for n in c.nodes:
                    print(f"{n.name}  {n.ip}  {len(n.pids())} processes")
            else:
                node = c[int(args.node.removeprefix("node"))]
                return subprocess.call(node.argv(args.cmd))
    except ClusterUnavailable as e:
        print(f"cluster: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError) as e:
        print(f"cluster: {e} (is it up? `make cluster-up`)", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as e:
        print(f"cluster: {' '.join(e.cmd)} failed: {e.stderr.strip()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
