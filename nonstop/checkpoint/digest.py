"""The checksums of checkpoint files and in-memory snapshots (docs/checkpoint.md, "Checksums").

They guard against corruption by hardware and storage (a flipped bit, a torn or rewritten
file), not against an adversary, so the default is the fastest checksum the standard library
has, not a cryptographic hash:

- `crc32-64m` (default): the CRC-32 (zlib's polynomial) of every 64 MiB chunk, written as
  comma-separated hex. CRC-32 catches every burst of up to 32 flipped bits and misses random
  corruption with probability 2**-32 per chunk, and the chunks let a verification hash one
  file on every core (the CRC and os.pread release the GIL). It is computed by ISA-L
  (`isal`, carry-less multiplication: 25 GB/s on one core here) where that is installed, else
  by zlib (3.5-4 GB/s): the same values, so either reads what the other wrote
  (`CRC32_IMPL` says which one runs);
- `sha256`: what nonstop wrote before; checkpoints and markers that name it (or name no hash
  at all) are still verified with it.

    h = Hasher(DEFAULT); h.update(view); h.hexdigest()
    check_file(path, "crc32-64m", expected)       # None when it matches, else what was found
"""

from __future__ import annotations

import errno
import functools
import hashlib
import mmap
import os
import re
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

_isal_zlib: Any
try:  # the same CRC-32 as zlib's, 6-7x faster on one core (docs/checkpoint.md, "Checksums")
    from isal import isal_zlib as _isal_zlib
except ImportError:  # a dependency; tests/checkpoint runs this fallback in a subprocess
    _isal_zlib = None

CRC32_64M: Final = "crc32-64m"
SHA256: Final = "sha256"
DEFAULT: Final = CRC32_64M
LEGACY: Final = SHA256
"""The algorithm of a marker or request that names none (written before the choice existed)."""
ALGORITHMS: Final = (CRC32_64M, SHA256)
CHUNK: Final = 64 << 20
_PATTERN: Final = {
    CRC32_64M: re.compile(r"^[0-9a-f]{8}(,[0-9a-f]{8})*$"),
    SHA256: re.compile(r"^[0-9a-f]{64}$"),
}


_crc32: Callable[[Any, int], int] = zlib.crc32
CRC32_IMPL = "zlib"
"""Which library computes `crc32-64m`: "isal" when it is installed, else "zlib"."""


def use_crc32(impl: str | None = None) -> str:
    """Compute CRC-32 with `impl` ("isal" or "zlib"; None: isal when installed) from now on;
    returns the one in use. Both give the same values: tests and the benchmarks' A/B use it."""
    global _crc32, CRC32_IMPL
    if impl is None:
        impl = "isal" if _isal_zlib is not None else "zlib"
    if impl == "isal":
        if _isal_zlib is None:
            raise ValueError("isal is not installed (pip install isal)")
        _crc32, CRC32_IMPL = _isal_zlib.crc32, "isal"
    elif impl == "zlib":
        _crc32, CRC32_IMPL = zlib.crc32, "zlib"
    else:
        raise ValueError(f"unknown CRC-32 implementation {impl!r} (isal, zlib)")
    return CRC32_IMPL


use_crc32()


class UnknownHash(ValueError):
    """A checksum algorithm this nonstop does not know."""


def known(algorithm: str) -> str:
    """`algorithm` itself, or UnknownHash with a clear message."""
    if algorithm not in ALGORITHMS:
        raise UnknownHash(
            f"checksum algorithm {algorithm!r} is not one this nonstop knows "
            f"({', '.join(ALGORITHMS)}); it was written by a newer nonstop"
        )
    return algorithm


def valid(algorithm: str, digest: str) -> bool:
    """Whether `digest` is well formed for `algorithm`."""
    return bool(_PATTERN[known(algorithm)].match(digest))


class Hasher:
    """An incremental checksum of a byte stream."""

    def __init__(self, algorithm: str = DEFAULT) -> None:
        self.algorithm = known(algorithm)
        self._sha = hashlib.sha256() if algorithm == SHA256 else None
        self._crcs: list[int] = []
        self._crc = 0
        self._filled = 0  # bytes in the current chunk

    def update(self, data: bytes | bytearray | memoryview) -> None:
        if self._sha is not None:
            self._sha.update(data)
            return
        view = memoryview(data).cast("B")
        while len(view):
            take = min(len(view), CHUNK - self._filled)
            self._crc = _crc32(view[:take], self._crc)
            self._filled += take
            view = view[take:]
            if self._filled == CHUNK:
                self._crcs.append(self._crc)
                self._crc, self._filled = 0, 0

    def hexdigest(self) -> str:
        if self._sha is not None:
            return self._sha.hexdigest()
        crcs = [*self._crcs, self._crc] if self._filled or not self._crcs else self._crcs
        return ",".join(f"{c:08x}" for c in crcs)


def of(data: bytes | bytearray | memoryview, algorithm: str = DEFAULT) -> str:
    """The checksum of `data`."""
    h = Hasher(algorithm)
    h.update(data)
    return h.hexdigest()


def of_stream(chunks: Iterable[bytes], algorithm: str) -> str:
    h = Hasher(algorithm)
    for c in chunks:
        h.update(c)
    return h.hexdigest()


class Pace:
    """Keeps the checksums of a file at most `lead` bytes ahead of a load copying the same
    file at the same time (the checkpointer's one pass: Checkpointer._load_step).

    Hashed freely, the checksum threads (two, on every core) ran ahead of the copy (one) by
    1.5-2.5 GB on a 4 GB file; where the page cache could not hold that much (a host whose
    memory the training state and its staging buffers fill) the pages were reclaimed before
    the copy came to them and the file was read from the disk twice: 8.8-9.9 GB read for a
    4 GB verified load, 6.3-7.3 s against dcp.load's 3.8-4.2 s (docs/checkpoint.md). Paced,
    each page is read once. The lead is half the memory the kernel says is available
    (MemAvailable), at least LEAD_FLOOR: with memory to spare the hash runs ahead as before
    (its read-ahead keeps the disk busy while the one copying thread works). Only a file the
    copy said it reads (`copying`) is paced; the copy never waits; `close` (the load returned
    or failed) lets every hash run free."""

    LEAD_FLOOR = 4 * CHUNK

    def __init__(self, lead: int | None = None) -> None:
        self.lead = lead if lead is not None else max(self.LEAD_FLOOR, _available() // 2)
        self._cond = threading.Condition()
        self._copied: dict[tuple[int, int], int] = {}  # (st_dev, st_ino): bytes copied
        self._closed = False
        self.waited_s = 0.0
        """Seconds the checksum threads waited for the copy (for the benchmarks)."""

    @staticmethod
    def ident(fd: int) -> tuple[int, int]:
        st = os.fstat(fd)
        return st.st_dev, st.st_ino

    def copying(self, ident: tuple[int, int], upto: int) -> None:
        """The copy of the file `ident` has read its bytes up to `upto`."""
        with self._cond:
            self._copied[ident] = max(upto, self._copied.get(ident, 0))
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def wait(self, ident: tuple[int, int], start: int) -> None:
        """Block a checksum thread about to read from `start` until the copy is near."""
        with self._cond:
            t0 = None
            while not self._closed:
                at = self._copied.get(ident)
                if at is None or start < at + self.lead:
                    break
                t0 = t0 if t0 is not None else time.monotonic()
                self._cond.wait(1.0)
            if t0 is not None:
                self.waited_s += time.monotonic() - t0


def _available() -> int:
    """Bytes of memory the kernel says are available (/proc/meminfo MemAvailable); 0 where
    it does not say."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return 0


def of_file(
    path: str | os.PathLike[str],
    algorithm: str,
    *,
    threads: int | None = None,
    backward: bool | None = None,
    pace: Pace | None = None,
) -> str:
    """The checksum of a local file; `crc32-64m` hashes its chunks on `threads` threads (the
    machine's cores by default), from the end (`backward`, None: `BACKWARD`), sha256 reads it in
    order. `pace`: a load that copies this file at the same time (forward only: `Pace`).

    The chunks are hashed straight from the page cache through a read-only mapping: reading
    them into buffers first cost a copy of the whole file (0.1 s of CPU per GB here), and a
    verified load reads the file again right after (DCP), from the pages this pass brought in.
    """
    if known(algorithm) == SHA256:
        with open(path, "rb") as f:
            return of_stream(iter(lambda: f.read(8 << 20), b""), SHA256)
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        n = max(1, -(-size // CHUNK))
        workers = max(1, min(n, threads or os.cpu_count() or 1))
        try:
            mapped = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_READ) if size else None
        except (OSError, ValueError):  # a filesystem that cannot map files: read them
            mapped = None
        if mapped is not None and not populate(mapped, 0, min(size, mmap.PAGESIZE), path):
            mapped.close()  # no way to read a mapping without risking SIGBUS: read the file
            mapped = None
        order = BACKWARD if backward is None else backward
        wait = None
        if pace is not None and not order:
            wait = functools.partial(pace.wait, Pace.ident(f.fileno()))
        if mapped is None:
            crcs = _pread_crcs(f.fileno(), size, n, workers, path, wait)
        else:
            with mapped:
                crcs = _mapped_crcs(mapped, n, workers, order, path, wait)
    return ",".join(f"{c:08x}" for c in crcs)


MADV_POPULATE_READ: Final = getattr(mmap, "MADV_POPULATE_READ", 22)  # Linux 5.14, <linux/mman.h>
_can_populate: bool | None = None  # whether this kernel knows MADV_POPULATE_READ (None: not asked)


def populate(mapped: mmap.mmap, start: int, length: int, path: str | os.PathLike[str]) -> bool:
    """Read [start, start + length) of `mapped` into memory before it is touched; False when
    the kernel cannot (then touching the mapping is the only way to read it, see below).

    A page the disk cannot read (a bad sector: the kernel logs an I/O error and the read
    fails with EIO) cannot be mapped either, and a thread that touches it gets SIGBUS: the
    whole process dies, and a verified load restarted into the same checkpoint dies again on
    every attempt (tests/checkpoint/test_ckpt_bad_sector.py). MADV_POPULATE_READ faults the
    pages in ahead of the hash and reports that failure as an error (EFAULT) instead, raised
    here as OSError(EIO) naming the bytes: verification then says the file cannot be read, and
    the load falls back to an older checkpoint like for any other corrupt one. The load's copy
    out of its own mapping (reading.read_into) asks the same before each piece it copies."""
    global _can_populate
    if length <= 0:
        return True
    if _can_populate is False:
        return False
    aligned = start // mmap.PAGESIZE * mmap.PAGESIZE  # madvise wants a page boundary
    try:
        mapped.madvise(MADV_POPULATE_READ, aligned, length + start - aligned)
    except OSError as e:
        if e.errno in (errno.EINVAL, errno.ENOSYS) and _can_populate is None:
            _can_populate = False  # kernel older than 5.14
            return False
        if e.errno in _UNREADABLE:
            raise OSError(
                errno.EIO, f"{path}: bytes {start}-{start + length} cannot be read (I/O error)"
            ) from e
        return True  # ENOMEM and the like: touching the pages is what was done before
    _can_populate = True
    return True


# what MADV_POPULATE_READ answers for a page that cannot be read: EFAULT where touching it
# would be SIGBUS, EHWPOISON for memory the kernel took out of use (madvise(2))
_UNREADABLE: Final = frozenset({errno.EFAULT, errno.EIO, getattr(errno, "EHWPOISON", 133)})


def _map(fn: Callable[[int], int], n: int, workers: int) -> list[int]:
    # the CRC (isal and zlib) and os.pread release the GIL on large buffers: the chunks hash in parallel
    if workers == 1:
        return [fn(i) for i in range(n)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, range(n)))


AHEAD: Final = 2
"""Chunks asked of the disk ahead of those being hashed (`MADV_WILLNEED`), per worker."""
BACKWARD = True
"""Hash a mapped file's chunks from its end to its start."""


def _mapped_crcs(
    mapped: mmap.mmap,
    n: int,
    workers: int,
    backward: bool,
    path: str | os.PathLike[str],
    wait: Callable[[int], None] | None = None,
) -> list[int]:
    """CRC-32 of each chunk of the mapped file, `workers` chunks at a time. The chunks ahead of
    those being hashed are asked of the disk (`MADV_WILLNEED`: the kernel reads them while
    these hash), so a file that is not in memory (a load after a restart on another node, or
    written around the page cache) streams at the disk's speed. `MADV_SEQUENTIAL`, used
    before, read ahead less and marked the pages first to reclaim: under memory pressure the
    load's read pass, right after, found them gone and read the file again (a 4 GB verified
    load from the disk took 4.3-8.4 s with it, 2.0-2.2 s with this; docs/checkpoint.md).

    The chunks are hashed from the file's end to its start (`BACKWARD`): where memory cannot
    hold the whole file, the pages reclaimed first are the ones read longest ago, and the load's
    read pass, which goes from the start, finds the pages it needs first among the newest.
    Hashed from the start, a file larger than the free memory was read from the disk twice
    (each page reclaimed just before the read pass came to it): a 2 GB verified load in a 4.5 GB
    memory cgroup took 3.5-4.1 s hashed forward, 2.4-2.9 s backward, and 1.8 s either way with
    memory to spare. A load that reads the file while it is hashed (the checkpointer's one pass)
    hashes it forward, ahead of the read."""
    size = len(mapped)

    def chunk_at(k: int) -> int:  # the k-th chunk hashed: from the file's end when backward
        return n - 1 - k if backward else k

    def ask(k: int) -> None:
        if k >= n or not hasattr(mmap, "MADV_WILLNEED"):
            return
        i = chunk_at(k)
        start = i * CHUNK // mmap.PAGESIZE * mmap.PAGESIZE  # madvise wants a page boundary
        try:
            mapped.madvise(mmap.MADV_WILLNEED, start, min(size, (i + 1) * CHUNK) - start)
        except OSError:
            pass  # a hint: the hash reads the pages all the same

    for k in range(min(n, workers * (1 + AHEAD))):
        ask(k)
    view = memoryview(mapped)
    try:

        def crc(k: int) -> int:
            i = chunk_at(k)
            if wait is not None:
                wait(i * CHUNK)  # a load copying the file: no further ahead of it than its lead
            ask(k + workers * (1 + AHEAD))
            populate(mapped, i * CHUNK, min(size, (i + 1) * CHUNK) - i * CHUNK, path)
            with view[i * CHUNK : (i + 1) * CHUNK] as chunk:
                return _crc32(chunk, 0)

        crcs = _map(crc, n, workers)
        return crcs[::-1] if backward else crcs
    finally:
        view.release()


def _pread_crcs(
    fd: int,
    size: int,
    n: int,
    workers: int,
    path: str | os.PathLike[str],
    wait: Callable[[int], None] | None = None,
) -> list[int]:
    def crc(i: int) -> int:
        if wait is not None:
            wait(i * CHUNK)
        out, pos, end = 0, i * CHUNK, min(size, (i + 1) * CHUNK)
        while pos < end:
            block = os.pread(fd, min(8 << 20, end - pos), pos)
            if not block:
                raise OSError(f"{path}: shorter than its size while reading")
            out = _crc32(block, out)
            pos += len(block)
        return out

    return _map(crc, n, workers)
