"""The failing link named: which host every failing connection has in common.

NCCLX localizes a fabric fault from who failed to talk to whom; this does it from what any
backend already writes. A rank that loses a peer says so with the peer's address: gloo's
"Connection closed by peer [10.0.0.3]:4412" or "Connect timeout [10.0.0.3]:...", NCCL's
"NET/Socket : Connection closed by remote peer 10.0.0.3<4412>" or "Got completion from peer
10.0.0.3<...> with status=12", c10d's "failed to connect to [10.0.0.3]:29400". Each (rank, peer
address) pair is one failing connection. The host common to them is named with the count:

    node1 (10.77.0.11): 6 of 6 failing connections involve it

A slow link is named the same way, from the kernel's own measure of each connection: every
agent samples its node's TCP connections per peer (`ss -tin`: smoothed RTT, retransmits) into
`nodes/<host>.net.jsonl`, and the host common to the slow node pairs is the slow link's
(`slow_link`: "node1's link: 2 of 3 node pairs slow, all involving it").

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
# The same pattern, case-sensitive, for lower-cased ASCII text: for ASCII, IGNORECASE folds
# nothing but A-Z, and without it the engine skips ahead by first characters (13x faster on a
# rank's log tail, the common no-failure case).
_FAILING_LOWER = re.compile(_FAILING.pattern.removeprefix("(?i)"))
assert _FAILING.pattern.startswith("(?i)") and _FAILING_LOWER.pattern.islower()
_ADDR = re.compile(
    r"(?<![\d.])\[?((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})\]?"
    r"(?:[:<](\d{1,5})>?)"
)
_UNSPECIFIED = ("0.0.0.0", "255.255.255.255")


def failing_peers(text: str) -> list[str]:
    """The peer addresses named on failing-connection lines of `text`, in order, distinct."""
    seen: dict[str, None] = {}
    # the common case (no failing connection), in one regex pass over the whole text
    if not (_FAILING_LOWER.search(text.lower()) if text.isascii() else _FAILING.search(text)):
        return []
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
    return common_peer_of(((o, failing_peers(text)) for o, text in reports), hosts, own=own)


def common_peer_of(
    found: Iterable[tuple[str, list[str]]],
    hosts: Mapping[str, str] | None = None,
    *,
    own: Mapping[str, str] | None = None,
) -> LinkVerdict | None:
    """`common_peer` from (observer host, `failing_peers` of its text) pairs, where the texts
    were read elsewhere (a worker process)."""
    hosts = dict(hosts or {})
    own = dict(own or {})
    pairs: list[tuple[str, str]] = []
    for observer, ips in found:
        mine = own.get(observer)
        pairs += [(observer, ip) for ip in ips if ip != mine]
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


# -- a slow link: the host common to the slow connections -----------------------------------

# `ss -tin` (iproute2): a connection line "Recv-Q Send-Q LOCAL PEER", then its TCP info line
_SS_PEER = re.compile(r"(?:\[(?:::ffff:)?)?(\d{1,3}(?:\.\d{1,3}){3})\]?:\d+\s*$")
_SS_RTT = re.compile(r"\brtt:([\d.]+)/")
_SS_RETRANS = re.compile(r"\bretrans:\d+/(\d+)")
_SS_SEGS = re.compile(r"\bsegs_out:(\d+)")


def parse_ss(text: str) -> dict[str, dict[str, float]]:
    """Per peer IPv4 address, from `ss -tinH state established`: the connections (`conns`),
    their median smoothed RTT in ms (`rtt_ms`), the segments they sent (`segs`) and
    retransmitted (`retrans`), each over the connections' lives."""
    rtts: dict[str, list[float]] = {}
    retrans: dict[str, int] = {}
    segs: dict[str, int] = {}
    peer = None
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():  # a connection line
            fields = line.split()
            m = _SS_PEER.search(fields[3]) if len(fields) >= 4 else None
            peer = m.group(1) if m else None
            if peer is not None and peer.startswith("127."):
                peer = None
            continue
        if peer is None:
            continue
        rtt = _SS_RTT.search(line)
        if rtt:
            rtts.setdefault(peer, []).append(float(rtt.group(1)))
            r, n = _SS_RETRANS.search(line), _SS_SEGS.search(line)
            retrans[peer] = retrans.get(peer, 0) + (int(r.group(1)) if r else 0)
            segs[peer] = segs.get(peer, 0) + (int(n.group(1)) if n else 0)
        peer = None
    out: dict[str, dict[str, float]] = {}
    for ip, xs in rtts.items():
        xs.sort()
        out[ip] = {
            "conns": len(xs),
            "rtt_ms": round(xs[len(xs) // 2], 3),
            "segs": segs[ip],
            "retrans": retrans[ip],
        }
    return out


def tcp_peers(timeout_s: float = 2.0) -> dict[str, dict[str, float]] | None:
    """This host's established TCP connections per peer address, as the kernel measures them
    (`ss -tin`); None where `ss` is missing or fails."""
    import subprocess

    try:
        out = subprocess.run(
            ["ss", "-tinH", "state", "established"],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_ss(out)


def net_samples_path(run_dir: str | os.PathLike[str], host: str) -> Path:
    return nodes_dir(run_dir) / f"{host}.net.jsonl"


def record_net_sample(
    run_dir: str | os.PathLike[str],
    host: str,
    attempt: int,
    sample: Mapping[str, Mapping[str, float]],
    now: float,
) -> None:
    """Append one sample of this node's connections per peer (tcp_peers) to
    `nodes/<host>.net.jsonl`, for the slow-link report."""
    line = json.dumps({"time": now, "host": host, "attempt": attempt, "peers": sample})
    path = net_samples_path(run_dir, host)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        f.write(line + "\n")


def read_net_samples(run_dir: str | os.PathLike[str], attempt: int | None = None) -> list[dict]:
    """Every node's samples (of `attempt`, if given); torn or foreign lines are skipped."""
    out = []
    for p in sorted(nodes_dir(run_dir).glob("*.net.jsonl")):
        try:
            lines = p.read_text().splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                rec = json.loads(line)
                if attempt is None or rec["attempt"] == attempt:
                    out.append({"host": str(rec["host"]), "peers": dict(rec["peers"])})
            except (ValueError, KeyError, TypeError):
                continue
    return out


# A node pair is slow when its connections lose segments or queue: at SLOW_FACTOR times the
# best pair's retransmit rate and at least LOSS_MIN, or at SLOW_FACTOR times the fastest pair's
# RTT and SLOW_MIN_MS more (on a loaded host the kernel's RTT of a connection reaches 10-15 ms
# with no link at fault; a shaped or congested link's queue is tens to hundreds).
SLOW_FACTOR, LOSS_MIN, SLOW_MIN_MS = 5.0, 0.01, 50.0
MIN_SEGS = 200  # a pair with fewer segments (start-up, the store's calls) is judged by neither


@dataclass(frozen=True)
class SlowLink:
    """The node whose link every slow connection between the nodes involves."""

    host: str
    slow: int  # slow node pairs
    total: int  # node pairs measured
    loss: float  # retransmitted / sent segments on the slow pairs' connections
    others_loss: float  # the same on the other pairs
    rtt_ms: float  # median RTT of the slow pairs (each its slower direction's median)
    others_ms: float  # the same of the other pairs

    def text(self) -> str:
        return (
            f"{self.host}'s link: {self.slow} of {self.total} node pairs slow, all involving it "
            f"({self.loss:.1%} of segments retransmitted against {self.others_loss:.1%}; "
            f"RTT {self.rtt_ms:.3g} ms against {self.others_ms:.3g} ms)"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "host": self.host,
            "slow": self.slow,
            "total": self.total,
            "loss": round(self.loss, 4),
            "others_loss": round(self.others_loss, 4),
            "rtt_ms": self.rtt_ms,
            "others_ms": self.others_ms,
            "text": self.text(),
        }


def slow_link(samples: Iterable[Mapping], addresses: Mapping[str, str]) -> SlowLink | None:
    """The host common to the slow node pairs, from the nodes' connection samples
    (read_net_samples) and `addresses` (address -> host, node_addresses). None when no pair is
    slow, or when the slow pairs have no one host in common. Two nodes make one pair, with
    nothing to compare it with: it takes three to name a link."""
    rtts: dict[tuple[str, str], list[float]] = {}
    last: dict[tuple[str, str], tuple[int, int]] = {}  # (segs, retrans): counts only grow
    for s in samples:
        for ip, c in s["peers"].items():
            peer = addresses.get(ip)
            if peer is None or peer == s["host"]:
                continue
            key = (s["host"], peer)
            rtts.setdefault(key, []).append(float(c["rtt_ms"]))
            seen = last.get(key, (0, 0))
            last[key] = (
                max(seen[0], int(c.get("segs", 0))),
                max(seen[1], int(c.get("retrans", 0))),
            )
    rtt: dict[frozenset[str], float] = {}
    sent: dict[frozenset[str], list[int]] = {}
    for (a, b), xs in rtts.items():
        xs.sort()
        k = frozenset((a, b))
        rtt[k] = max(rtt.get(k, 0.0), xs[len(xs) // 2])
        tot = sent.setdefault(k, [0, 0])
        tot[0], tot[1] = tot[0] + last[(a, b)][0], tot[1] + last[(a, b)][1]
    if len(rtt) < 2:
        return None

    def rate(ks: Iterable[frozenset[str]]) -> float:
        n = [sum(sent[k][i] for k in ks) for i in (0, 1)]
        return n[1] / n[0] if n[0] else 0.0

    fastest = min(rtt.values())
    best = min(rate([k]) for k in rtt)
    slow = {
        k
        for k, r in rtt.items()
        if sent[k][0] >= MIN_SEGS
        and (
            (r >= SLOW_FACTOR * fastest and r - fastest >= SLOW_MIN_MS)
            or (rate([k]) >= LOSS_MIN and rate([k]) >= SLOW_FACTOR * best)
        )
    }
    if not slow:
        return None
    counts = Counter(h for k in slow for h in k)
    top = max(counts.values())
    common = [h for h, n in counts.items() if n == top and all(h in k for k in slow)]
    if len(common) != 1:
        return None  # one slow pair: either end, and no other pair says which
    others = [k for k in rtt if k not in slow]
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    return SlowLink(
        host=common[0],
        slow=len(slow),
        total=len(rtt),
        loss=rate(slow),
        others_loss=rate(others),
        rtt_ms=med([rtt[k] for k in slow]),
        others_ms=med([rtt[k] for k in others]) if others else fastest,
    )
