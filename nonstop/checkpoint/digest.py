"""The checksums of checkpoint files and in-memory snapshots (docs/checkpoint.md, "Checksums").

They guard against corruption by hardware and storage (a flipped bit, a torn or rewritten
file), not against an adversary, so the default is the fastest checksum the standard library
has, not a cryptographic hash:

- `crc32-64m` (default): zlib's CRC-32 of every 64 MiB chunk, written as comma-separated hex.
  CRC-32 catches every burst of up to 32 flipped bits and misses random corruption with
  probability 2**-32 per chunk; it runs at several GB/s where sha256 runs at under 2, and the
  chunks let a verification hash one file on every core (zlib and os.pread release the GIL);
- `sha256`: what nonstop wrote before; checkpoints and markers that name it (or name no hash
  at all) are still verified with it.

    h = Hasher(DEFAULT); h.update(view); h.hexdigest()
    check_file(path, "crc32-64m", expected)       # None when it matches, else what was found
"""

from __future__ import annotations

import hashlib
import mmap
import os
import re
import zlib
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Final

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
            self._crc = zlib.crc32(view[:take], self._crc)
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


def of_file(path: str | os.PathLike[str], algorithm: str, *, threads: int | None = None) -> str:
    """The checksum of a local file; `crc32-64m` hashes its chunks on `threads` threads (the
    machine's cores by default), sha256 reads it in order.

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
        if mapped is None:
            crcs = _pread_crcs(f.fileno(), size, n, workers, path)
        else:
            with mapped:
                mapped.madvise(mmap.MADV_SEQUENTIAL)
                crcs = _mapped_crcs(mapped, n, workers)
    return ",".join(f"{c:08x}" for c in crcs)


def _map(fn: Callable[[int], int], n: int, workers: int) -> list[int]:
    # zlib and os.pread release the GIL on large buffers: the chunks hash in parallel
    if workers == 1:
        return [fn(i) for i in range(n)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, range(n)))


def _mapped_crcs(mapped: mmap.mmap, n: int, workers: int) -> list[int]:
    view = memoryview(mapped)
    try:

        def crc(i: int) -> int:
            with view[i * CHUNK : (i + 1) * CHUNK] as chunk:
                return zlib.crc32(chunk)

        return _map(crc, n, workers)
    finally:
        view.release()


def _pread_crcs(
    fd: int, size: int, n: int, workers: int, path: str | os.PathLike[str]
) -> list[int]:
    def crc(i: int) -> int:
        out, pos, end = 0, i * CHUNK, min(size, (i + 1) * CHUNK)
        while pos < end:
            block = os.pread(fd, min(8 << 20, end - pos), pos)
            if not block:
                raise OSError(f"{path}: shorter than its size while reading")
            out = zlib.crc32(block, out)
            pos += len(block)
        return out

    return _map(crc, n, workers)
