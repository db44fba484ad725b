"""Writes through the page cache: a checkpoint file whose bytes go to the disk while the rest
is written.

`_WritebackWriter` asks the kernel to start the disk writes of every `WRITEBACK` bytes as soon
as they are written (`sync_file_range`), so that the fsync at close waits for the last stretch
only; `_write_all` hands the page cache at most `WRITE_PIECE` bytes per write call ("Write
size" in docs/checkpoint.md). `LocalStorage` (local.py) writes this way with fsync alone, and
the direct writer (direct.py) falls back to it where a filesystem refuses O_DIRECT.

The constants are read through this module at each use: set them here
(`writeback.WRITE_PIECE = ...`), not on a module that re-exports them.
"""

from __future__ import annotations

import ctypes
import errno
import io
import sys
from typing import IO, Any

WRITEBACK = 32 << 20
"""Bytes written to a checkpoint file between two starts of its disk writes."""


def _load_sync_file_range() -> Any:
    """libc's sync_file_range (Linux), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_sync_file_range = _load_sync_file_range()
_SYNC_FILE_RANGE_WRITE = 2


class _WritebackWriter(io.RawIOBase):
    """A file opened for appending whose written bytes go to disk while the rest is written.

    Without it, a 1 GB checkpoint sits dirty in the page cache (the kernel's background
    writeback starts at 10% of memory) until the fsync at close, which then waits for the
    whole file's disk writes. Every `WRITEBACK` bytes this asks the kernel to start writing
    the stretch just written (`SYNC_FILE_RANGE_WRITE`: start, do not wait), so the disk works
    while the writer serializes and hashes the next tensors; the fsync still makes it durable.
    A failure of the hint is ignored (the fsync reports real I/O errors)."""

    def __init__(self, f: IO[bytes]) -> None:
        self._f = f
        self._fd = f.fileno()
        self._pos = f.tell()
        self._started = self._pos  # bytes before this offset have been handed to the disk
        self.kicks = 0

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        n = self._f.write(b)
        self._pos += memoryview(b).nbytes if n is None else n
        if self._pos - self._started >= WRITEBACK:
            self._f.flush()
            assert _sync_file_range is not None
            _sync_file_range(
                self._fd, self._started, self._pos - self._started, _SYNC_FILE_RANGE_WRITE
            )
            self._started = self._pos
            self.kicks += 1
        return memoryview(b).nbytes if n is None else n

    def tell(self) -> int:
        return self._f.tell()

    def fileno(self) -> int:
        return self._fd

    def flush(self) -> None:
        self._f.flush()


WRITE_PIECE = 1 << 20
"""The most bytes one write call hands the page cache. torch.save writes a tensor's storage
with one call (16 MiB for a 2048x2048 float32 matrix), and on Linux 6.18's ext4 a write call's
length sets the size of the page-cache folios it allocates (up to 2 MiB). On the 2-core
virtual machine nonstop is benchmarked on, 16 MiB write calls cost the kernel 4-13x the CPU of
the same bytes in 256 KiB calls (4 GB: 9-13 s against 1.3-1.5 s; likely because its balloon
hands free 2 MiB blocks back to the host, which must back them again: docs/checkpoint.md,
"Write size"), and 2 MiB calls were as bad. 1 MiB calls, with the CRC-32 from ISA-L, beat 256
KiB and 512 KiB ones at 1 GB and 4 GB under training (fewer calls, fewer GIL handoffs;
`benchmarks/checkpoint_ab.py arms`, 2026-12-03). Each piece is hashed right after its write,
while its bytes are still cached."""


def _write_all(f: Any, view: memoryview) -> None:
    """Write all of `view` to `f` in calls of at most WRITE_PIECE bytes ("Write size")."""
    done = 0
    while done < len(view):
        n = f.write(view[done : done + WRITE_PIECE])
        n = len(view) - done if n is None else n
        if n <= 0:
            raise OSError(errno.EIO, f"short write ({done} of {len(view)} bytes)")
        done += n
