"""In-memory checkpoint replicas: one small TCP server per node keeps ranks' latest snapshots in
CPU memory outside the worker processes, so a restart can load them (docs/checkpoint.md).

    addr = interface_toward("10.0.0.1:29400")       # the interface the rendezvous uses
    srv = ReplicaServer(host=addr, port=0, token=new_token(), capacity_bytes=8 << 30)
    srv.start()                                     # a daemon thread: survives worker restarts
    publish(run_dir, "node-a", srv)                 # run_dir/control/replicas/node-a.json
    discover(run_dir)                               # {"node-a": Peer("10.0.0.5", port, token)}
    srv.stop(); unpublish(run_dir, "node-a")

Protocol: requests one after another on a TCP connection, until the client closes it (a
`Channel` keeps one open for a rank's snapshot after snapshot: a connection and a server thread
per snapshot cost the node's agent ~20% of its CPU). Every frame is a 4-byte big-endian length
and a UTF-8 JSON header; raw bytes follow a header that announces a `size`. Every request
carries the server's secret token; a request with a wrong token, a malformed frame or a bad
field gets `{"ok": false, "error": ...}` (when a reply is still possible) and the connection is
closed.

    put   -> {op, token, rank, world_size, step, lineage, digest, size}
          <- {ok: true} (room reserved: send the bytes)   -> <size bytes>   <- {ok: true}
          (digest "": the sender trusts the transport, a server on its own host; the server
          keeps the digest of what it received, which every `get` is checked against)
    adopt -> {op, token, rank, world_size, step, lineage, digest, size, name}  <- {ok: true}
          (same host only: the sender wrote the snapshot into the file `name` of the server's
          `shared_dir`, a private folder in /dev/shm; the server keeps the file, no bytes cross
          a socket, and the sender's digest is what every `get` is checked against)
    get   -> {op, token, rank, world_size, step, lineage}  <- {ok, digest, size} <size bytes>
    list  -> {op, token}                                   <- {ok, entries: [{...}, ...]}

Digests are digest.py's default (CRC-32 per 64 MiB: corruption, not an adversary, is the
threat; the token keeps other clients out). The server keeps the three newest snapshots per
rank: a new one replaces the oldest only once it has arrived complete with a matching digest,
and a snapshot from another world size evicts the old world's. Standard library only.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import re
import secrets
import shutil
import socket
import socketserver
import stat
import struct
import tempfile
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final, NamedTuple

from nonstop.checkpoint import digest as dg
from nonstop.rundir import RunDir

log = logging.getLogger("nonstop.checkpoint")

REPLICAS_DIR: Final = "replicas"
"""Under run_dir/control/: one `<node>.json` per published server ({node, host, port, token})."""
MAX_HEADER: Final = 64 << 10
CHUNK: Final = 1 << 20
_LEN = struct.Struct("!I")
_NODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$")
_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")
SHM: Final = Path("/dev/shm")


Blob = bytearray | Path
"""A held snapshot: bytes received over a socket, or the shared file a sender wrote."""


class ReplicaError(Exception):
    """A replica request failed: unreachable server, refused request, or bad data."""


class CorruptReplica(ReplicaError):
    """The bytes received do not match the replica's digest."""


class Unreachable(ReplicaError):
    """The server could not be reached, or the connection failed or timed out."""


class Peer(NamedTuple):
    """Where one node's replica server listens, and its token."""

    host: str
    port: int
    token: str
    shared_dir: str = ""
    """The server's folder for `adopt` (same host only), "" when it has none."""


@dataclass(frozen=True, kw_only=True)
class Key:
    """One rank's snapshot: its rank and world size, the step, and the lineage (the id of the
    Checkpointer instances that took it, so that snapshots of different attempts never mix)."""

    rank: int
    world_size: int
    step: int
    lineage: str


@dataclass(frozen=True, kw_only=True)
class Entry:
    """A complete snapshot a server holds."""

    key: Key
    size: int
    digest: str


def interface_toward(endpoint: str) -> str:
    """This host's address on the interface that reaches `endpoint` ("host:port", the
    rendezvous endpoint): where the replica server binds, so that it listens where the job's
    peers are and not on every interface (0.0.0.0). The kernel's routing table picks it (a UDP
    connect sends nothing). A loopback endpoint gives 127.0.0.1. When the endpoint names this
    host and resolves to a loopback alias (Debian's 127.0.1.1), the interface of the default
    route is used; when there is none, 127.0.0.1 with a warning (peers cannot reach it)."""
    host = endpoint.rsplit(":", 1)[0].strip("[]") if ":" in endpoint else endpoint
    host = host or "127.0.0.1"
    try:
        family, _, _, _, sockaddr = socket.getaddrinfo(host, 9, type=socket.SOCK_DGRAM)[0]
        addr = _route_source(family, sockaddr)
    except OSError as e:
        raise ReplicaError(f"cannot find the interface toward {endpoint!r}: {e}") from None
    if addr.startswith("127.") or addr == "::1":
        if host in ("localhost", "::1") or host.startswith("127."):
            return addr
        try:  # our own name on a loopback alias: the interface of the default route
            return _route_source(socket.AF_INET, ("192.0.2.1", 9))  # TEST-NET-1, never sent
        except OSError:
            log.warning(
                "no interface toward %s but loopback: the replica server listens on "
                "%s, which peer nodes cannot reach",
                endpoint,
                addr,
            )
    return addr


def _route_source(family: int, sockaddr: Any) -> str:
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        s.connect(sockaddr)
        return str(s.getsockname()[0])


def new_token() -> str:
    """A random secret for a replica server (128 bits, hex)."""
    return secrets.token_hex(16)


# -- server -------------------------------------------------------------------------------------


class _Store:
    """The snapshots, the newest KEEP per rank, and the bytes reserved for transfers in
    progress. Three, because that is how far apart the ranks' newest snapshots can be when a
    node dies. A rank sends step S in the background and waits for that send only when it
    takes S+1; the ranks meet in every step's collectives. So a rank whose own server already
    holds its step M (its hand-over to its own node is fast) has been through step M's
    collectives; every other rank was there too, so it had at least begun to take M-1,
    which first waited for its M-2 to arrive: its M-1 may still be on the wire to the
    surviving server, its M-2 is there. Every rank holds M-2 among its
    three newest, and the job resumes there. With two kept, the first rank held [M-1, M]
    and the other [M-3, M-2]: nothing in common, and the job started over from storage
    (seen on the namespace cluster under load, with a snapshot every step)."""

    KEEP = 3

    def __init__(self, capacity_bytes: int) -> None:
        self.capacity_bytes = capacity_bytes
        self._lock = threading.Lock()
        self._held: dict[int, list[tuple[Entry, Blob]]] = {}
        self._reserved = 0

    def _used(self) -> int:
        return sum(e.size for held in self._held.values() for e, _ in held) + self._reserved

    def held_bytes(self) -> int:
        """Bytes of the snapshots held plus those reserved for transfers in progress."""
        with self._lock:
            return self._used()

    @contextmanager
    def reservation(self, size: int) -> Iterator[None]:
        with self._lock:
            used = self._used()
            if used + size > self.capacity_bytes:
                raise ReplicaError(
                    f"replica server full: {size} more bytes would exceed its capacity of "
                    f"{self.capacity_bytes} bytes ({used} in use); raise the capacity or "
                    "take snapshots on fewer replicas"
                )
            self._reserved += size
        try:
            yield
        finally:
            with self._lock:
                self._reserved -= size

    def put(self, entry: Entry, blob: Blob) -> None:
        """Hold `blob`; a file that another held entry names is being rewritten by its sender:
        that entry goes. Files no longer held are deleted, except the sender's own lineage's,
        which it writes again (its ring of slots)."""
        dropped: list[tuple[Entry, Blob]] = []
        with self._lock:
            world = entry.key.world_size
            for rank in [r for r, h in self._held.items() if h[0][0].key.world_size != world]:
                dropped += self._held.pop(rank)
            held: list[tuple[Entry, Blob]] = []
            for h in self._held.get(entry.key.rank, []):
                same_file = isinstance(blob, Path) and h[1] == blob
                (dropped if h[0].key == entry.key or same_file else held).append(h)
            held.append((entry, blob))
            held.sort(key=lambda h: h[0].key.step)
            dropped += held[: -self.KEEP]
            self._held[entry.key.rank] = held[-self.KEEP :]
            kept = {b for h in self._held.values() for _, b in h if isinstance(b, Path)}
        for e, b in dropped:
            if isinstance(b, Path) and b not in kept and e.key.lineage != entry.key.lineage:
                b.unlink(missing_ok=True)

    def get(self, key: Key) -> tuple[Entry, Blob] | None:
        with self._lock:
            held = self._held.get(key.rank, [])
        return next((h for h in held if h[0].key == key), None)

    def entries(self) -> list[Entry]:
        with self._lock:
            return [e for held in self._held.values() for e, _ in held]

    def flip_byte(self, rank: int, offset: int, step: int | None) -> None:
        """Corrupt a snapshot of `rank`, the newest unless `step` says which (tests)."""
        with self._lock:
            held = self._held[rank]
            entry, blob = next(h for h in reversed(held) if step is None or h[0].key.step == step)
            if isinstance(blob, Path):  # the file may be longer than the snapshot it holds
                with open(blob, "r+b") as f:
                    pos = f.seek(offset if offset >= 0 else entry.size + offset)
                    byte = f.read(1)[0]
                    f.seek(pos)
                    f.write(bytes([byte ^ 0xFF]))
            else:
                blob[offset] ^= 0xFF


class ReplicaServer:
    """Holds ranks' snapshots in this process's memory and serves them over TCP."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str,
        capacity_bytes: int,
        timeout_s: float = 60.0,
        shared_dir: bool = True,
    ) -> None:
        """`shared_dir`: make a private folder in /dev/shm (when there is one) into which
        senders on this host write their snapshots and hand them over (`adopt`): no socket
        copies and no digest taken here, the cheapest path for a node's own ranks."""
        if not token:
            raise ValueError("token must be a non-empty secret (use new_token())")
        if isinstance(capacity_bytes, bool) or not isinstance(capacity_bytes, int):
            raise ValueError(f"capacity_bytes must be an integer, got {capacity_bytes!r}")
        if capacity_bytes < 1:
            raise ValueError(f"capacity_bytes must be >= 1, got {capacity_bytes!r}")
        self.token = token
        self.timeout_s = timeout_s
        self.store = _Store(capacity_bytes)
        self._tcp = _TCPServer((host, port), _Handler, self)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()  # connections being served
        self.shared_dir: Path | None = None
        if shared_dir and SHM.is_dir() and os.access(SHM, os.W_OK):
            self.shared_dir = Path(tempfile.mkdtemp(prefix="nonstop-replicas-", dir=SHM))
            # tmpfs outlives the process: removed at stop(), else when it is collected or
            # the interpreter exits (only a SIGKILL leaves it behind)
            weakref.finalize(self, shutil.rmtree, self.shared_dir, True)

    @property
    def address(self) -> tuple[str, int]:
        host, port = self._tcp.server_address[:2]
        return str(host), int(port)

    def start(self) -> ReplicaServer:
        """Serve in a daemon thread (it ends with the process); returns self."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._tcp.serve_forever, args=(0.1,), name="nonstop-replicas", daemon=True
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving (connections kept open by clients too) and drop every snapshot.
        Idempotent."""
        if self._thread is not None:
            self._tcp.shutdown()
            self._thread.join()
            with self._lock:
                self._thread = None
                for sock in self._open:
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
        self._tcp.server_close()
        self.store = _Store(self.store.capacity_bytes)
        if self.shared_dir is not None:
            shutil.rmtree(self.shared_dir, ignore_errors=True)
            self.shared_dir = None

    def entries(self) -> list[Entry]:
        """The complete snapshots held now."""
        return self.store.entries()

    def flip_byte(self, rank: int, offset: int = -1, *, step: int | None = None) -> None:
        """Fault injection: corrupt one byte of a stored snapshot of `rank` (the newest unless
        `step` is given) in place."""
        self.store.flip_byte(rank, offset, step)

    # -- requests (handler threads) ---------------------------------------------------------

    def serve(self, sock: socket.socket) -> None:
        """Answer requests on `sock` until the client closes it, fails one, or the server
        stops; never raises for a client's mistake."""
        with self._lock:
            if self._thread is None:
                return
            self._open.add(sock)
        try:
            while self._serve_one(sock):
                pass
        finally:
            with self._lock:
                self._open.discard(sock)

    def _serve_one(self, sock: socket.socket) -> bool:
        """Answer one request; False when the connection is done."""
        try:
            if not sock.recv(1, socket.MSG_PEEK):
                return False  # the client closed the connection between requests
        except OSError:
            return False  # idle past the timeout, or reset: nothing asked, nothing to answer
        try:
            header = recv_frame(sock)
            if not hmac.compare_digest(str(header.get("token", "")).encode(), self.token.encode()):
                raise ReplicaError("wrong token: request refused")
            op = header.get("op")
            if op == "put":
                self._put(sock, header)
            elif op == "adopt":
                self._adopt(sock, header)
            elif op == "get":
                self._get(sock, header)
            elif op == "list":
                send_frame(sock, {"ok": True, "entries": [_entry_json(e) for e in self.entries()]})
            else:
                raise ReplicaError(f"unknown op {op!r}")
            return True
        except ReplicaError as e:
            _try_send(sock, {"ok": False, "error": str(e)})
        except (OSError, ValueError) as e:  # client gone, timed out, or sent garbage
            log.debug("replica request dropped: %s", e)
            _try_send(sock, {"ok": False, "error": f"bad request: {e}"})
        return False

    def _put(self, sock: socket.socket, header: dict[str, Any]) -> None:
        key, size, sent = _key(header), _int(header, "size", 0), _digest(header, empty=True)
        with self.store.reservation(size):
            send_frame(sock, {"ok": True})
            blob, digest = recv_body(sock, size)
            if sent and digest != sent:
                raise ReplicaError(f"digest mismatch: received {digest[:17]}, sent {sent[:17]}")
            self.store.put(Entry(key=key, size=size, digest=digest), blob)
        send_frame(sock, {"ok": True})

    def _adopt(self, sock: socket.socket, header: dict[str, Any]) -> None:
        key, size, digest = _key(header), _int(header, "size", 0), _digest(header, empty=False)
        name = header.get("name")
        if self.shared_dir is None:
            raise ReplicaError("this server has no shared folder: use put")
        if not isinstance(name, str) or not _FILE.match(name):
            raise ReplicaError(f"name must be a plain file name, got {name!r}")
        path = self.shared_dir / name
        try:
            st_ = os.stat(path, follow_symlinks=False)
        except OSError as e:
            raise ReplicaError(f"cannot adopt {name}: {e.strerror}") from None
        if not stat.S_ISREG(st_.st_mode) or st_.st_uid != os.getuid() or st_.st_size < size:
            raise ReplicaError(f"cannot adopt {name}: not a file of ours of >= {size} bytes")
        with self.store.reservation(size):
            self.store.put(Entry(key=key, size=size, digest=digest), path)
        send_frame(sock, {"ok": True})

    def _get(self, sock: socket.socket, header: dict[str, Any]) -> None:
        held = self.store.get(_key(header))
        if held is None:
            raise ReplicaError("no such snapshot")
        entry, blob = held
        send_frame(sock, {"ok": True, "digest": entry.digest, "size": entry.size})
        if isinstance(blob, Path):
            with open(blob, "rb") as f:
                sock.sendfile(f, 0, entry.size)
        else:
            sock.sendall(blob)


class _TCPServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: type, replica: ReplicaServer) -> None:
        self.replica = replica
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, handler)


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        server = self.server
        assert isinstance(server, _TCPServer)
        sock = self.request
        sock.settimeout(server.replica.timeout_s)
        server.replica.serve(sock)


# -- framing ------------------------------------------------------------------------------------


def send_frame(sock: socket.socket, header: dict[str, Any]) -> None:
    data = json.dumps(header, separators=(",", ":")).encode()
    sock.sendall(_LEN.pack(len(data)) + data)


def recv_frame(sock: socket.socket) -> dict[str, Any]:
    (n,) = _LEN.unpack(_recv_exact(sock, _LEN.size))
    if n > MAX_HEADER:
        raise ValueError(f"header of {n} bytes exceeds {MAX_HEADER}")
    header = json.loads(_recv_exact(sock, n).decode())
    if not isinstance(header, dict):
        raise ValueError("header is not a JSON object")
    return header


def recv_body(sock: socket.socket, size: int) -> tuple[bytearray, str]:
    """`size` bytes and their digest, taken as they arrive."""
    blob = bytearray(size)
    view, h, pos = memoryview(blob), dg.Hasher(dg.DEFAULT), 0
    while pos < size:
        n = sock.recv_into(view[pos : pos + CHUNK])
        if n == 0:
            raise ConnectionError(f"connection closed after {pos} of {size} bytes")
        h.update(view[pos : pos + n])
        pos += n
    return blob, h.hexdigest()


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    blob, _ = recv_body(sock, n)
    return bytes(blob)


def _try_send(sock: socket.socket, header: dict[str, Any]) -> None:
    try:
        send_frame(sock, header)
    except OSError:
        pass  # the client is gone; nothing to tell it


def _int(header: dict[str, Any], name: str, minimum: int) -> int:
    v = header.get(name)
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise ReplicaError(f"{name} must be an integer >= {minimum}, got {v!r}")
    return v


def _digest(header: dict[str, Any], *, empty: bool) -> str:
    d = header.get("digest", "")
    if not isinstance(d, str) or not ((empty and d == "") or (d and dg.valid(dg.DEFAULT, d))):
        raise ReplicaError(f"digest must be a {dg.DEFAULT} digest{' or empty' if empty else ''}")
    return d


def _key(header: dict[str, Any]) -> Key:
    lineage = header.get("lineage")
    if not isinstance(lineage, str) or not 0 < len(lineage) <= 64:
        raise ReplicaError(f"lineage must be a string of 1 to 64 characters, got {lineage!r}")
    return Key(
        rank=_int(header, "rank", 0),
        world_size=_int(header, "world_size", 1),
        step=_int(header, "step", 0),
        lineage=lineage,
    )


def _entry_json(e: Entry) -> dict[str, Any]:
    return {**asdict(e.key), "size": e.size, "digest": e.digest}


# -- client -------------------------------------------------------------------------------------


@contextmanager
def _request(
    peer: Peer, header: dict[str, Any], timeout_s: float
) -> Iterator[tuple[socket.socket, dict[str, Any]]]:
    """A connection that has sent `header`, and the server's ok reply to it."""
    where = f"{peer.host}:{peer.port}"
    try:
        sock = socket.create_connection((peer.host, peer.port), timeout=timeout_s)
    except OSError as e:
        raise Unreachable(f"cannot reach {where}: {e}") from e
    with sock:
        try:
            send_frame(sock, {**header, "token": peer.token})
            yield sock, _check(recv_frame(sock), where)
        except OSError as e:
            raise Unreachable(f"{where}: {type(e).__name__}: {e}") from e
        except ValueError as e:
            raise ReplicaError(f"{where}: bad reply: {e}") from e


def _check(reply: dict[str, Any], where: str) -> dict[str, Any]:
    if reply.get("ok") is not True:
        raise ReplicaError(f"{where} refused: {reply.get('error', 'no reason given')}")
    return reply


class Channel:
    """One connection to `peer`'s server, kept for request after request (a rank's snapshots,
    one thread at a time). A kept connection the server has since closed (its idle timeout, a
    restart) is opened again once per request; a fresh one that fails raises as `adopt` does."""

    def __init__(self, peer: Peer, *, timeout_s: float = 60.0) -> None:
        self.peer, self.timeout_s = peer, timeout_s
        self._sock: socket.socket | None = None

    def adopt(self, key: Key, name: str, size: int, digest: str) -> None:
        """As `adopt`, on this connection."""
        header = {"op": "adopt", **asdict(key), "digest": digest, "size": size, "name": name}
        self._exchange({**header, "token": self.peer.token})

    def _exchange(self, header: dict[str, Any]) -> dict[str, Any]:
        where = f"{self.peer.host}:{self.peer.port}"
        kept = self._sock is not None
        for fresh in [False, True] if kept else [True]:
            if fresh:
                self.close()
                try:
                    self._sock = socket.create_connection(
                        (self.peer.host, self.peer.port), timeout=self.timeout_s
                    )
                except OSError as e:
                    raise Unreachable(f"cannot reach {where}: {e}") from e
            assert self._sock is not None
            try:
                send_frame(self._sock, header)
                reply = recv_frame(self._sock)
            except (OSError, ValueError) as e:
                self.close()
                if not fresh:
                    continue  # the server closed the kept connection: once more, anew
                if isinstance(e, OSError):
                    raise Unreachable(f"{where}: {type(e).__name__}: {e}") from e
                raise ReplicaError(f"{where}: bad reply: {e}") from e
            if reply.get("ok") is not True:
                self.close()  # the server closes after a refusal
            return _check(reply, where)
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._sock = None


def put(peer: Peer, key: Key, data: memoryview, digest: str, *, timeout_s: float = 60.0) -> None:
    """Store `data` (whose digest the caller computed, or "" to have the server take the digest
    of what it receives: for a server on the caller's own host) under `key` on `peer`'s
    server."""
    header = {"op": "put", **asdict(key), "digest": digest, "size": data.nbytes}
    with _request(peer, header, timeout_s) as (sock, _):
        sock.sendall(data)
        _check(recv_frame(sock), f"{peer.host}:{peer.port}")


def adopt(
    peer: Peer, key: Key, name: str, size: int, digest: str, *, timeout_s: float = 60.0
) -> None:
    """Hand the snapshot the caller wrote into `peer.shared_dir/name` (its first `size` bytes,
    whose digest it computed) to that server, on this host."""
    header = {"op": "adopt", **asdict(key), "digest": digest, "size": size, "name": name}
    with _request(peer, header, timeout_s):
        pass


def get(peer: Peer, key: Key, *, timeout_s: float = 60.0) -> bytearray:
    """The snapshot `key` from `peer`; CorruptReplica when it does not match its digest."""
    with _request(peer, {"op": "get", **asdict(key)}, timeout_s) as (sock, reply):
        blob, digest = recv_body(sock, _int(reply, "size", 0))
    if digest != reply.get("digest"):
        raise CorruptReplica(
            f"digest mismatch: {digest[:17]} received, {str(reply.get('digest'))[:17]} expected"
        )
    return blob


def list_entries(peer: Peer, *, timeout_s: float = 10.0) -> list[Entry]:
    """The complete snapshots `peer`'s server holds."""
    with _request(peer, {"op": "list"}, timeout_s) as (_, reply):
        pass
    try:
        return [
            Entry(key=_key(e), size=_int(e, "size", 0), digest=str(e["digest"]))
            for e in reply["entries"]
        ]
    except (KeyError, TypeError) as e:
        raise ReplicaError(f"{peer.host}:{peer.port}: malformed list reply: {e}") from e


# -- discovery ----------------------------------------------------------------------------------


def _path(run_dir: str | os.PathLike[str], node: str) -> Path:
    if not _NODE.match(node):
        raise ValueError(f"node name {node!r} must be letters, digits, '.', '_' or '-'")
    return RunDir(Path(run_dir)).control / REPLICAS_DIR / f"{node}.json"


def publish(
    run_dir: str | os.PathLike[str], node: str, server: ReplicaServer, *, host: str | None = None
) -> Path:
    """Write run_dir/control/replicas/<node>.json atomically (mode 0600: it holds the token).
    `host`: the address peers should connect to (default: the one the server is bound to)."""
    path = _path(run_dir, node)
    path.parent.mkdir(parents=True, exist_ok=True)
    bound, port = server.address
    shared = str(server.shared_dir or "")
    record = {"node": node, "host": host or bound, "port": port, "token": server.token}
    record["shared_dir"] = shared
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(3)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(record, f)
    os.replace(tmp, path)
    return path


def unpublish(run_dir: str | os.PathLike[str], node: str) -> None:
    """Remove the node's record; missing is not an error."""
    _path(run_dir, node).unlink(missing_ok=True)


def discover(run_dir: str | os.PathLike[str]) -> dict[str, Peer]:
    """Every published server by node name; unreadable records are skipped with a warning."""
    folder = RunDir(Path(run_dir)).control / REPLICAS_DIR
    out: dict[str, Peer] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            d = json.loads(path.read_text())
            shared = str(d.get("shared_dir", ""))
            out[str(d["node"])] = Peer(str(d["host"]), int(d["port"]), str(d["token"]), shared)
        except (OSError, ValueError, KeyError, TypeError) as e:
            log.warning("ignoring replica server record %s: %s", path, e)
    return out
