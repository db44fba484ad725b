"""The failing link named: which host every failing connection has in common.

NCCLX localizes a fabric fault from who failed to talk to whom; this does it from what any
backend already writes. A rank that loses a peer says so with the peer's address: gloo's
"Connection closed by peer [10.0.0.3]:4412" or "Connect timeout [10.0.0.3]:...", NCCL's
"NET/Socket : Connection closed by remote peer 10.0.0.3<4412>" or "Got completion from peer
10.0.0.3<...> with status=12", c10d's "failed to connect to [10.0.0.3]:29400". Each (rank, peer
address) pair is one failing connection. The host common to them is named with the count:

    node1 (10.77.0.11): 6 of 6 failing connections involve it

Addresses are mapped to hosts through the addresses the agents recorded in the run directory
(`nodes/<host>.json`, written by `nonstop run` at start) and else the resolver (/etc/hosts,
DNS). Standard library only; no torch.
"""

from __future__ import annotations

import json
import os
import re
import socket
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

# A failing-connection line: one of these words, and an IPv4 address with a port written as
# [a.b.c.d]:port, a.b.c.d:port or a.b.c.d<port> (NCCL).
_FAILING = re.compile(
    r"(?i)closed by (?:remote )?peer|reset by peer|connection refused|refused|timed? ?out"
    r"|failed to connect|connect(?:ion)? (?:failed|error)|no route to host|unreachable"
    r"|broken pipe|network error|completion from peer|error \d+ from peer|read error"
    r"|write error|socket error|connect timeout"
)
_ADDR = re.compile(
    r"(?<![\d.])\[?((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})\]?"
    r"(?:[:<](\d{1,5})>?)"
)
_UNSPECIFIED = ("0.0.0.0", "255.255.255.255")


def failing_peers(text: str) -> list[str]:
    """The peer addresses named on failing-connection lines of `text`, in order, distinct."""
    seen: dict[str, None] = {}
    for line in text.splitlines():
        if not _FAILING.search(line):
            continue
        for m in _ADDR.finditer(line):
            ip = m.group(1)
            if ip not in _UNSPECIFIED:
                seen.setdefault(ip, None)
    return list(seen)


@dataclass(frozen=True)
class LinkVerdict:
    """The host (or its link) common to the failing connections."""

    address: str
    host: str | None
    involving: int  # failing connections that name this address
    total: int  # failing connections seen
    observers: list[str] = field(default_factory=list)  # the hosts whose ranks reported them

    @property
    def name(self) -> str:
        return f"{self.host} ({self.address})" if self.host else self.address

    def text(self) -> str:
        return (
            f"{self.name}: {self.involving} of {self.total} failing connections involve it"
            f" (seen from {', '.join(sorted(set(self.observers))) or 'no host'})"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "address": self.address,
            "host": self.host,
            "involving": self.involving,
            "total": self.total,
            "observers": sorted(set(self.observers)),
            "text": self.text(),
        }


def common_peer(
    reports: Iterable[tuple[str, str]],
    hosts: Mapping[str, str] | None = None,
    *,
    own: Mapping[str, str] | None = None,
) -> LinkVerdict | None:
    """The address most failing connections name, from (observer host, text) pairs, one per
    rank. `hosts` maps addresses to host names; an address that is the observer's own (`own`:
    host -> address) is not a peer. None when no failing connection names an address, or when
    two addresses are named equally often (no common host: say so rather than guess)."""
    hosts = dict(hosts or {})
    own = dict(own or {})
    pairs: list[tuple[str, str]] = []
    for observer, text in reports:
        mine = own.get(observer)
        pairs += [(observer, ip) for ip in failing_peers(text) if ip != mine]
    if not pairs:
        return None
    counts = Counter(ip for _, ip in pairs)
    (top, n), *rest = counts.most_common()
    if rest and rest[0][1] == n:
        return None
    return LinkVerdict(
        address=top,
        host=hosts.get(top) or _resolve(top),
        involving=n,
        total=len(pairs),
        observers=[o for o, ip in pairs if ip == top],
    )


def _resolve(ip: str) -> str | None:
    try:
        name = socket.gethostbyaddr(ip)[0]
    except (OSError, UnicodeError):
        return None
    return name.split(".")[0] or None


# -- the addresses the agents recorded -----------------------------------------------------


def nodes_dir(run_dir: str | os.PathLike[str]) -> Path:
    return Path(run_dir) / "nodes"


def record_node(
    run_dir: str | os.PathLike[str], host: str, address: str, rdzv_port: int | None = None
) -> Path:
    """`nodes/<host>.json`: the address this node's agent reaches the rendezvous from, and the
    rendezvous port (what a reachability probe knocks on: a reply of any kind is an answer)."""
    path = nodes_dir(run_dir) / f"{host}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"host": host, "address": address, "rdzv_port": rdzv_port}))
    os.replace(tmp, path)
    return path


def rdzv_port(run_dir: str | os.PathLike[str], default: int = 29400) -> int:
    """The rendezvous port the agents recorded (the first readable record's)."""
    for p in sorted(nodes_dir(run_dir).glob("*.json")):
        try:
            return int(json.loads(p.read_text())["rdzv_port"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return default


def node_addresses(run_dir: str | os.PathLike[str]) -> dict[str, str]:
    """address -> host, from every agent's record; unreadable records are skipped."""
    out: dict[str, str] = {}
    for p in sorted(nodes_dir(run_dir).glob("*.json")):
        try:
            rec = json.loads(p.read_text())
            out[str(rec["address"])] = str(rec["host"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


# -- this node's own link: where the kernel records a pulled cable --------------------------

_SIOCGIFADDR = 0x8915


def interface_of(address: str) -> str | None:
    """The name of this host's interface that holds the IPv4 `address`, if any."""
    import fcntl
    import struct

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            req = struct.pack("256s", name.encode()[:15])
            try:
                got = fcntl.ioctl(s.fileno(), _SIOCGIFADDR, req)
            except OSError:
                continue  # no IPv4 address on it
            if socket.inet_ntoa(got[20:24]) == address:
                return name
    return None


@dataclass(frozen=True)
class LinkState:
    """An interface's carrier as the kernel counts it (/sys/class/net/IFACE)."""

    interface: str
    address: str
    carrier_changes: int | None
    operstate: str

    def flapped_since(self, before: LinkState) -> str | None:
        """Words for a link that went down since `before` (or is down now), else None."""
        down_now = self.operstate not in ("up", "unknown")
        a, b = before.carrier_changes, self.carrier_changes
        changed = a is not None and b is not None and b > a
        if not (down_now or changed):
            return None
        what = f"carrier changes {a} -> {b}" if changed else "no carrier change counted"
        return (
            f"this node's link {self.interface} ({self.address}) went down during the attempt "
            f"({what}; now {self.operstate})"
        )


def link_state(address: str, sys_class_net: Path = Path("/sys/class/net")) -> LinkState | None:
    """The carrier of the interface holding `address`; None where it cannot be read."""
    iface = interface_of(address)
    if iface is None:
        return None
    base = sys_class_net / iface
    try:
        operstate = (base / "operstate").read_text().strip()
    except OSError:
        return None
    try:
        changes: int | None = int((base / "carrier_changes").read_text())
    except (OSError, ValueError):
        changes = None
    return LinkState(iface, address, changes, operstate)


def reachable(addresses: Iterable[str], port: int, timeout_s: float = 1.0) -> dict[str, bool]:
    """Whether each address answers a TCP connect to `port` within `timeout_s`, in parallel.
    An answer of any kind is reachable (accepted, or refused: the host's kernel replied); a
    timeout, no route or an unreachable network is not."""
    import concurrent.futures as cf

    def probe(ip: str) -> bool:
        try:
            with socket.create_connection((ip, port), timeout=timeout_s):
                return True
        except ConnectionRefusedError:
            return True
        except OSError:
            return False

    addrs = list(dict.fromkeys(addresses))
    if not addrs:
        return {}
    with cf.ThreadPoolExecutor(max_workers=min(32, len(addrs))) as pool:
        return dict(zip(addrs, pool.map(probe, addrs), strict=True))
