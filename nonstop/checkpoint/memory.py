"""In-memory snapshots: this rank's side of the checkpoint replicas (docs/checkpoint.md).

A snapshot is the flat dict of tensors a durable save writes (`state.collect`: model, optimizers,
per-rank state, RNG, step), packed into a reused buffer: where this node's ReplicaServer has a
shared folder (/dev/shm), one of four files there that this rank writes in turn, else private
memory. The training thread copies only what forward may change (buffers, per-rank state, RNG);
the parameters and optimizer states are copied by a background thread behind the next step's
forward and backward, and the next `optimizer.step()` waits for that copy. The background thread
(or, with NONSTOP_BACKGROUND_NICE, a second one at a lower CPU priority: background.py) then takes
the digest (digest.py: CRC-32, several GB/s) and hands the snapshot over: the file to
this node's server by name (`adopt`, on a connection kept open: no socket copy, no second
digest), the bytes to the next `replicas` nodes of the job in sorted ring order of node names,
which check their copy against the digest. Four files: the server keeps the three newest
snapshots (replica.py's `_Store` says why three), the fourth is the one being written.
On load, every rank lists what the published servers hold for it, the ranks agree on a step
(`choose`), each fetches and verifies its copy, and `restore` puts it into the live state
through the same code the durable path uses.

The blob holds no pickle:

    b"NSREPL1\\n" | u64 header length | header JSON | zero padding to 64 | tensor bytes
    header: {rank, world_size, step, lineage, tensors: [[key, dtype, shape, offset, nbytes]]}

offsets are relative to the end of the padded header and 64-byte aligned.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import math
import mmap
import os
import struct
import threading
import time
from collections.abc import Callable, Container, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any, Final

import torch
from torch.distributed.checkpoint.metadata import (
    Metadata,
    TensorProperties,
    TensorStorageMetadata,
)

from nonstop.checkpoint import background
from nonstop.checkpoint import digest as dg
from nonstop.checkpoint import state as st
from nonstop.checkpoint.cadence import Cadence
from nonstop.checkpoint.replica import (
    Channel,
    Entry,
    Key,
    ReplicaError,
    Unreachable,
    discover,
    get,
    list_entries,
    put,
)
from nonstop.checkpoint.staging import cuda_devices, local

log = logging.getLogger("nonstop.checkpoint")

MAGIC: Final = b"NSREPL1\n"
ALIGN: Final = 64
_U64 = struct.Struct("!Q")

Held = tuple[int, str]
"""(step, lineage) of a snapshot."""


class MemoryReplicas:
    """Takes this rank's in-memory snapshots and finds them again after a restart."""

    def __init__(
        self,
        run_dir: Path,
        *,
        node: str,
        job_nodes: Iterable[str],
        rank: int,
        world_size: int,
        lineage: str,
        cadence: Cadence,
        replicas: int,
        emit: Callable[..., None],
        clock: Callable[[], float] = time.monotonic,
        timeout_s: float = 60.0,
    ) -> None:
        self.node, self.rank, self.world_size = node, rank, world_size
        self.lineage, self.cadence = lineage, cadence
        self.peers = discover(run_dir)
        self.targets = self._targets(run_dir, job_nodes, replicas)
        self._on = bool(self.targets)
        self._emit, self._clock, self._timeout_s = emit, clock, timeout_s
        self._buf: torch.Tensor | None = None
        self._packer = Packer()
        own = self.peers.get(node)
        self._shared = Path(own.shared_dir) if own and own.shared_dir else None
        if self._shared is not None and not self._shared.is_dir():
            self._shared = None  # published by a server on another host under our name
        self._slots: list[_Slot | None] = [None] * SLOTS
        self._turn = 0
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nonstop-replica")
        lowered = background.nice_increment()  # 0 (default): the hand-over runs after the copy
        self._sender = background.executor("nonstop-replica-send", lowered) if lowered else None
        self._inflight: Future[None] | None = None
        self._channel: Channel | None = None  # to this node's server, kept open
        self._copied = threading.Event()  # the snapshot in flight has copied the state
        self._copied.set()
        self._hooked: dict[int, Any] = {}  # id(optimizer) -> its step pre-hook's handle

    def _targets(self, run_dir: Path, job_nodes: Iterable[str], replicas: int) -> list[str]:
        if self.node not in self.peers:
            log.warning(
                "no replica server published for node %s under %s: in-memory snapshots are off",
                self.node,
                run_dir,
            )
            return []
        others = ring_after(self.node, job_nodes)
        peers = [n for n in others if n in self.peers][:replicas]
        if len(peers) < replicas:
            unpublished = sorted(set(others) - set(self.peers))
            (log.warning if unpublished else log.info)(
                "in-memory snapshots: %d of %d peer nodes available (without a server: %s)",
                len(peers),
                replicas,
                ", ".join(unpublished) or "none",
            )
        return [self.node, *peers]

    # -- saving ----------------------------------------------------------------------------

    def due(self, step: int) -> bool:
        return self._on and self.cadence.due(step)

    def snapshot(
        self,
        step: int,
        flat: Mapping[str, Any],
        optimizers: Iterable[torch.optim.Optimizer] = (),
    ) -> int | None:
        """Copy `flat` and send it in the background. Waits first for the previous snapshot's
        send if it is still in flight, so that every rank holds every due step; the wait is
        part of `blocking_s` (a cadence the network cannot follow shows there).

        With `optimizers`, what only their `step()` changes (the parameters and their states:
        the bulk) is copied in the background thread too, overlapped with the next step's
        forward and backward, and each optimizer's `step()` waits until that copy is done (a
        step pre-hook, as nonstop.checkpoint.staging does for durable saves; the same caveat
        for in-place changes outside `step()`: `wait_for_copy`). The rest (buffers that
        forward changes, per-rank state, RNG) is copied before this returns. The snapshot's
        number in its cadence's measurements (None: not measured), for the caller's share."""
        t0 = self._clock()
        self.wait()
        measured = self.cadence.begun()
        opts = list(optimizers)
        later = _later(flat, opts)
        key = Key(rank=self.rank, world_size=self.world_size, step=step, lineage=self.lineage)
        name = None
        if self._shared is not None and self.node in self.targets:
            try:
                name, blob = self._pack_shared(flat, asdict(key), later)
            except OSError as e:  # /dev/shm full or gone: private memory and a socket
                log.warning("in-memory snapshots: shared folder unusable (%s); sending instead", e)
                self._shared = None
        if name is None:
            self._buf, blob = self._packer.pack(flat, asdict(key), self._buf, later=later)
        if later:
            for opt in opts:
                if id(opt) not in self._hooked:
                    self._hooked[id(opt)] = opt.register_step_pre_hook(self._before_step)
            self._copied.clear()
        devices = cuda_devices(dict(flat)) if later else []
        blocking_s = self._clock() - t0
        self._inflight = self._executor.submit(
            self._send, key, blob, name, blocking_s, t0, devices, measured
        )
        return measured

    def wait_for_copy(self) -> None:
        """Block until the snapshot in flight has copied the state (optimizer steps do this
        themselves); call it before changing parameters in place outside `optimizer.step()`."""
        self._copied.wait()

    def _before_step(self, *_: Any) -> None:
        self._copied.wait()

    def _finish_copy(self, devices: list[torch.device]) -> None:
        try:
            with torch.cuda.device(devices[0]) if devices else contextlib.nullcontext():
                self._packer.finish()
                for d in devices:
                    torch.cuda.synchronize(d)
        finally:
            self._copied.set()

    def _pack_shared(
        self, flat: Mapping[str, Any], meta: dict[str, Any], later: frozenset[str]
    ) -> tuple[str, Any]:
        """Pack into the next of this rank's files in the server's shared folder."""
        assert self._shared is not None
        i, self._turn = self._turn, (self._turn + 1) % SLOTS
        name = f"r{self.rank}-{self.lineage}-{i}.snap"
        need = self._packer.size(flat, meta)
        slot = self._slots[i]
        if slot is None or slot.size < need or not (self._shared / name).exists():
            self._packer.forget()
            if slot is not None:
                slot.close()
            self._slots[i] = slot = _Slot(self._shared / name, need)
        _, blob = self._packer.pack(flat, meta, slot.tensor, later=later)
        return name, blob

    def _send(
        self,
        key: Key,
        blob: torch.Tensor,
        name: str | None,
        blocking_s: float,
        t0: float,
        devices: list[torch.device],
        measured: int | None = None,
    ) -> None:
        cpu = self.cadence.cpu
        c0 = cpu()
        self._finish_copy(devices)
        if self._sender is None:
            self._hand_over(key, blob, name, blocking_s, t0)
            self.cadence.add_cpu(measured, cpu() - c0, background=True)
        else:  # what follows the copy waits on nothing of training's: lowered, if asked
            self.cadence.add_cpu(measured, cpu() - c0, background=True)
            self._sender.submit(
                self._measured_hand_over, measured, key, blob, name, blocking_s, t0
            ).result()

    def _measured_hand_over(self, measured: int | None, *args: Any) -> None:
        cpu = self.cadence.cpu
        c0 = cpu()
        try:
            self._hand_over(*args)
        finally:
            self.cadence.add_cpu(measured, cpu() - c0, background=True)

    def _hand_over(
        self, key: Key, blob: torch.Tensor, name: str | None, blocking_s: float, t0: float
    ) -> None:
        data = blob.numpy().data
        # This node's server over a socket (no wire between us) takes the digest of what it
        # receives; every other use needs the sender's: adopt, and another node's check.
        needed = name is not None or any(node != self.node for node in self.targets)
        digest = dg.of(data) if needed else ""
        done, errors = [], []
        for node in self.targets:
            try:
                if node == self.node and name is not None:
                    if self._channel is None:
                        self._channel = Channel(self.peers[node], timeout_s=self._timeout_s)
                    self._channel.adopt(key, name, data.nbytes, digest)
                else:
                    put(self.peers[node], key, data, digest, timeout_s=self._timeout_s)
                done.append(node)
            except Unreachable as e:  # do not pay its timeout at every snapshot
                errors.append(f"{node}: {e} (not tried again by this process)")
                self.targets = [n for n in self.targets if n != node]
            except ReplicaError as e:
                errors.append(f"{node}: {e}")
        if errors:
            log.warning("in-memory snapshot of step %d not replicated to %s", key.step, errors)
        extra = {"error": "; ".join(errors)[:500]} if errors else {}
        self._emit(
            "replicated",
            step=key.step,
            bytes=data.nbytes,
            blocking_s=blocking_s,
            total_s=self._clock() - t0,
            targets=done,
            **extra,
        )

    def wait(self) -> None:
        """Block until the snapshot being sent (if any) has reached its servers or failed."""
        fut, self._inflight = self._inflight, None
        if fut is not None and (e := fut.exception()) is not None:
            log.error("in-memory snapshot failed: %r", e)  # a bug of ours: never the run's end

    def close(self) -> None:
        self.wait()
        self._copied.set()
        for handle in self._hooked.values():
            handle.remove()
        self._hooked.clear()
        self._executor.shutdown(wait=True)
        if self._sender is not None:
            self._sender.shutdown(wait=True)
        if self._channel is not None:
            self._channel.close()
            self._channel = None
        self._buf = None
        self._packer.forget()
        for slot in self._slots:
            if slot is not None:
                slot.close()
        self._slots = [None] * SLOTS

    # -- loading ---------------------------------------------------------------------------

    def holdings(self) -> tuple[dict[Held, list[str]], list[str]]:
        """This rank's snapshots on every reachable server: (step, lineage) -> nodes, own node
        first; and a note for each server that could not be asked."""
        order = [n for n in [self.node, *ring_after(self.node, self.peers)] if n in self.peers]
        held: dict[Held, list[str]] = {}
        notes: list[str] = []
        with ThreadPoolExecutor(max_workers=max(1, min(16, len(order)))) as pool:
            listed = list(pool.map(self._list_one, order))
        for node, entries in zip(order, listed):
            if isinstance(entries, str):
                notes.append(f"replica server of {node} not asked: {entries}")
                continue
            for e in entries:
                if e.key.rank == self.rank and e.key.world_size == self.world_size:
                    held.setdefault((e.key.step, e.key.lineage), []).append(node)
        return held, notes

    def _list_one(self, node: str) -> list[Entry] | str:
        try:
            return list_entries(self.peers[node], timeout_s=min(self._timeout_s, 10.0))
        except ReplicaError as e:
            return str(e)

    def fetch(
        self, held: Held, nodes: list[str]
    ) -> tuple[tuple[str, dict[str, torch.Tensor]] | None, list[str]]:
        """(node, tensors) of the first copy that verifies, and why each earlier one did not."""
        key = Key(rank=self.rank, world_size=self.world_size, step=held[0], lineage=held[1])
        rejected: list[str] = []
        for node in nodes:
            try:
                blob = get(self.peers[node], key, timeout_s=self._timeout_s)
                return (node, unpack(blob, key)), rejected
            except (ReplicaError, ValueError) as e:
                rejected.append(f"replica of rank {self.rank} step {key.step} on {node}: {e}")
        return None, rejected


def ring_after(node: str, nodes: Iterable[str]) -> list[str]:
    """The other nodes in sorted ring order, starting with the one after `node`."""
    ring = sorted({*nodes, node})
    i = ring.index(node)
    return ring[i + 1 :] + ring[:i]


def choose(held: list[list[Held]], floor: int) -> tuple[Held | None, str]:
    """The newest snapshot that every rank holds (one list per rank), if it is not older than
    the durable checkpoint at step `floor`; else None and why not."""
    found, why = candidates(held, floor)
    return (found[0] if found else None), why


def candidates(held: list[list[Held]], floor: int) -> tuple[list[Held], str]:
    """Every snapshot that every rank holds and that is not older than the durable checkpoint
    at step `floor`, newest first; else [] and why not."""
    missing = [r for r, h in enumerate(held) if not h]
    if missing:
        return [], f"no replica found for rank(s) {', '.join(map(str, missing))}"
    common = set.intersection(*({(int(s), str(lin)) for s, lin in h} for h in held))
    if not common:
        steps = "; ".join(f"rank {r}: {sorted({s for s, _ in h})}" for r, h in enumerate(held))
        return [], f"the ranks' replicas are of different steps or attempts ({steps})"
    best = max(common)
    if best[0] < floor:
        return [], f"newest common replica (step {best[0]}) is older than storage's ({floor})"
    return sorted((c for c in common if c[0] >= floor), reverse=True), ""


SLOTS: Final = 4
"""Files per rank in the shared folder: the server's three newest and the one being written."""


def _reserve(fd: int, size: int) -> None:
    """Reserve the file's space before it is written through a mapping. A full tmpfs (Docker
    gives a container 64 MB of /dev/shm by default) accepts any ftruncate, and a mapped page
    it cannot back is SIGBUS in the thread that writes it: the training rank died at its first
    snapshot. posix_fallocate refuses with ENOSPC instead (an OSError: the caller sends the
    snapshot over the socket). A filesystem that cannot fallocate is left as it was."""
    try:
        os.posix_fallocate(fd, 0, size)
    except OSError as e:
        if e.errno not in (errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
            raise


class _Slot:
    """One file of the shared folder, mapped into this process (the server keeps the file
    when this process dies; it deletes it once a later attempt's snapshot replaces it)."""

    def __init__(self, path: Path, size: int) -> None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            os.ftruncate(fd, size)
            _reserve(fd, size)
            self._map = mmap.mmap(fd, size)
        except OSError:
            path.unlink(missing_ok=True)
            raise
        finally:
            os.close(fd)
        self.size = size
        self.tensor: torch.Tensor | None = torch.frombuffer(self._map, dtype=torch.uint8)

    def close(self) -> None:
        self.tensor = None  # the buffer's last export, or the map cannot close
        with contextlib.suppress(BufferError):  # a blob still in flight: the GC closes it
            self._map.close()


# -- the blob -------------------------------------------------------------------------------------


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


class Packer:
    """Packs one rank's snapshots, step after step. A training state keeps its keys and dtypes
    from step to step and nearly all its sizes: only the small JSON skeletons change length (the
    learning rate's digits, the step's). So the layout is kept: every tensor under 64 KiB gets
    room to grow (a quarter more, and 64 bytes), the header is padded with spaces to a reserved
    length (JSON allows them), and each buffer's destination views are built once and reused. A
    step's pack is then the header, one copy per tensor and a view rebuilt only for a tensor
    whose shape changed (building every view anew took 30 us per tensor, 5 ms for the demo's
    163, and a skeleton changing length had forced that at every step). A tensor outgrowing its
    room, or another key or dtype, lays everything out anew."""

    def __init__(self) -> None:
        self._keys: tuple[tuple[str, torch.dtype], ...] | None = None
        self._slots: list[tuple[int, int]] = []  # (offset, room in bytes) of each tensor
        self._total = 0  # the tensors' bytes, room and padding included
        self._shapes: list[torch.Size | None] = []
        self._rows: list[list[Any]] = []  # the header's "tensors" table
        self._rows_json = b""
        self._head = 0  # bytes reserved for magic, length and header (a multiple of ALIGN)
        self._views: dict[tuple[int, int], list[torch.Tensor | None]] = {}
        self._later: list[tuple[torch.Tensor, torch.Tensor]] = []  # (destination, source)

    def _learn(self, tensors: list[tuple[str, torch.Tensor]]) -> None:
        keys = tuple((k, t.dtype) for k, t in tensors)
        sizes = [t.numel() * t.element_size() for _, t in tensors]
        if keys != self._keys or any(n > room for n, (_, room) in zip(sizes, self._slots)):
            slots, offset = [], 0
            for n in sizes:
                room = _aligned(n + n // 4 + ALIGN) if n < _ROOM_BELOW else n
                slots.append((offset, room))
                offset = _aligned(offset + room)
            self._keys, self._slots, self._total = keys, slots, offset
            self._shapes = [None] * len(tensors)
            self._rows = [[] for _ in tensors]
            self._views.clear()
        changed = False
        for i, ((k, t), n) in enumerate(zip(tensors, sizes, strict=True)):
            if self._shapes[i] != t.shape:
                self._shapes[i] = t.shape
                dtype = str(t.dtype).removeprefix("torch.")
                self._rows[i] = [k, dtype, list(t.shape), self._slots[i][0], n]
                for views in self._views.values():
                    views[i] = None
                changed = True
        if changed:
            self._rows_json = json.dumps(self._rows, separators=(",", ":")).encode()

    def forget(self) -> None:
        """Drop the views into buffers (before one is closed or replaced)."""
        self._views.clear()

    def _prefix(self, meta: dict[str, Any]) -> bytes:
        head = json.dumps(meta, separators=(",", ":")).encode()
        head = (
            (head[:-1] + b"," if len(head) > 2 else b"{") + b'"tensors":' + self._rows_json + b"}"
        )
        lead = len(MAGIC) + _U64.size
        if lead + len(head) > self._head:
            self._head = _aligned(lead + len(head) + _HEAD_ROOM)
        head += b" " * (self._head - lead - len(head))
        return MAGIC + _U64.pack(len(head)) + head

    def size(self, flat: Mapping[str, Any], meta: dict[str, Any]) -> int:
        """The bytes `pack` needs for `flat`."""
        self._learn(_tensors(flat))
        return len(self._prefix(meta)) + self._total

    def pack(
        self,
        flat: Mapping[str, Any],
        meta: dict[str, Any],
        buf: torch.Tensor | None,
        *,
        later: Container[str] = (),
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Copy `flat` into `buf` (reallocated when too small), but for the keys in `later`,
        which `finish` copies; (the buffer, the blob: its prefix)."""
        tensors = _tensors(flat)
        self._learn(tensors)
        prefix = self._prefix(meta)
        base = len(prefix)
        if buf is None or buf.numel() < base + self._total:
            self.forget()  # the views would keep the old buffers alive
            # pinned only for a GPU state, and under its device: pinning under the current
            # device makes a CUDA context on GPU 0 in every rank that never called set_device
            # (docs/gpu.md)
            devices = cuda_devices(dict(flat))
            with torch.cuda.device(devices[0]) if devices else contextlib.nullcontext():
                buf = torch.zeros(base + self._total, dtype=torch.uint8, pin_memory=bool(devices))
        buf[:base].copy_(torch.frombuffer(bytearray(prefix), dtype=torch.uint8))
        views = self._views.setdefault((buf.data_ptr(), base), [None] * len(tensors))
        todo = []
        with torch.no_grad():
            for i, (k, t) in enumerate(tensors):
                dst = views[i]
                if dst is None:
                    off, n = self._rows[i][3], self._rows[i][4]
                    dst = views[i] = buf[base + off : base + off + n].view(t.dtype).view(t.shape)
                if not dst.numel():
                    continue
                if k in later:
                    todo.append((dst, t))
                else:
                    dst.copy_(t)
        self._later = todo
        end = max((off + n for *_, off, n in self._rows), default=0)
        return buf, buf[: base + end]

    def finish(self) -> None:
        """Copy what the last `pack` left for later."""
        todo, self._later = self._later, []
        with torch.no_grad():
            for dst, t in todo:
                dst.copy_(t)


_ROOM_BELOW: Final = 64 << 10
"""Tensors smaller than this (the JSON skeletons) get room to grow in a Packer's layout."""
_HEAD_ROOM: Final = 256
"""Bytes a Packer's header may grow by before the layout moves."""


def _later(flat: Mapping[str, Any], optimizers: list[torch.optim.Optimizer]) -> frozenset[str]:
    """The keys of `flat` whose tensors only the optimizers' `step()` changes: the parameters
    and their states, by address (a view elsewhere in their memory is copied at once, which
    is always safe; comparing storages instead cost 0.3 ms a step for the demo)."""
    guarded = {
        local(t).data_ptr()
        for opt in optimizers
        for group in opt.param_groups
        for t in group["params"]
    }
    guarded.update(
        local(v).data_ptr()
        for opt in optimizers
        for per_param in opt.state.values()
        for v in per_param.values()
        if isinstance(v, torch.Tensor)
    )
    guarded.discard(0)
    return frozenset(k for k, v in flat.items() if local(v).data_ptr() in guarded)


def _tensors(flat: Mapping[str, Any]) -> list[tuple[str, torch.Tensor]]:
    return [(k, local(v)) for k, v in flat.items()]


def packed_size(flat: Mapping[str, Any], meta: dict[str, Any]) -> int:
    """The bytes `pack` needs for `flat`."""
    return Packer().size(flat, meta)


def pack(
    flat: Mapping[str, Any], meta: dict[str, Any], buf: torch.Tensor | None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Copy `flat` into `buf` (reallocated when too small); (the buffer, the blob: its prefix).
    One snapshot; `Packer` for one after another."""
    return Packer().pack(flat, meta, buf)


def unpack(blob: bytearray, key: Key) -> dict[str, torch.Tensor]:
    """The tensors of a snapshot (views into `blob`); ValueError when it is malformed or is
    not the snapshot `key`."""
    try:
        if bytes(blob[: len(MAGIC)]) != MAGIC:
            raise ValueError("not a nonstop replica")
        (n,) = _U64.unpack_from(blob, len(MAGIC))
        start = len(MAGIC) + _U64.size
        head = json.loads(bytes(blob[start : start + n]).decode())
        if {k: head.get(k) for k in asdict(key)} != asdict(key):
            raise ValueError(f"it holds rank {head.get('rank')} step {head.get('step')}")
        base = _aligned(start + n)
        data = torch.frombuffer(blob, dtype=torch.uint8)
        return {k: _tensor(data, base, *row) for k, *row in head["tensors"]}
    except (KeyError, TypeError, ValueError, RuntimeError, struct.error) as e:
        raise ValueError(f"malformed replica: {e}") from None


def _tensor(data: torch.Tensor, base: int, dtype: str, shape: list[int], off: int, n: int) -> Any:
    dt = getattr(torch, dtype, None)
    if not isinstance(dt, torch.dtype) or math.prod(shape) * dt.itemsize != n:
        raise ValueError(f"bad tensor entry {dtype} {shape} of {n} bytes")
    if base + off + n > data.numel():
        raise ValueError("tensor bytes past the end (truncated)")
    if n == 0:
        return torch.empty(shape, dtype=dt)
    return data[base + off : base + off + n].view(dt).view(shape)


# -- restoring -------------------------------------------------------------------------------------


def restore(
    entries: st.Entries, tensors: Mapping[str, torch.Tensor], *, rank: int, world_size: int
) -> st.Restored:
    """Put a snapshot into the live state, through the same targets and apply as a DCP load."""
    md = Metadata(
        state_dict_metadata={
            k: TensorStorageMetadata(TensorProperties(dtype=t.dtype), t.size(), [])
            for k, t in tensors.items()
        }
    )
    flat, sections, restored = st.targets(
        entries, md, rank=rank, saved_world=world_size, world_size=world_size
    )
    with torch.no_grad():
        for k, dst in flat.items():
            src, into = tensors.get(k), local(dst)
            if src is None or src.shape != into.shape or src.dtype != into.dtype:
                got = "missing" if src is None else f"{src.dtype} {list(src.shape)}"
                raise ValueError(
                    f"{k}: the replica has {got}, the state {into.dtype} {list(into.shape)}"
                )
            into.copy_(src)
    st.apply(entries, flat, sections, restored)
    return restored
