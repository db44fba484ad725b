"""Writes around the page cache: large durable checkpoint files written with O_DIRECT.

`_DirectWriter` gathers the bytes in page-aligned, huge-page buffers of `DIRECT_CHUNK` bytes
(`_huge_buffer`) and writes each full one with one direct write call, `DIRECT_DEPTH` in
flight; a tensor of `STAGED_DIRECT` bytes or more, laid out at a 4 KiB-aligned offset
(layout.py) and staged into page-aligned memory (staging.py), is written straight from that
memory (`write_staged`). Where direct writes are refused it falls back to the page cache
(writeback.py). `COUNTS` counts the bytes of each path. docs/checkpoint.md, "Direct writes"
and "Writes from the staged memory".

The constants are read through this module at each use: set them here
(`direct.STAGED_DIRECT = 0`), not on a module that re-exports them.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import errno
import fcntl
import io
import mmap
import os
import threading
from concurrent.futures import Future as _CFuture
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import IO, Any

import numpy as np

from nonstop.checkpoint import writeback

DIRECT_CHUNK = 4 << 20
"""Bytes gathered in an aligned buffer and written with one direct (O_DIRECT) write call; 0
writes through the page cache instead (`_WritebackWriter`)."""
DIRECT_DEPTH = 2
"""Direct writes of one file in flight at a time, each on a thread of its own (pwrite)."""
_O_DIRECT: int = getattr(os, "O_DIRECT", 0)
STAGED_DIRECT = 2 << 20
"""A tensor of at least this many bytes is laid out at a 4 KiB-aligned file offset
(layout.py), staged into page-aligned memory (staging.py), and written by `_DirectWriter`
straight from that memory, no copy into its buffers; 0 turns all three off (the files and the
staging buffers as before). docs/checkpoint.md, "Writes from the staged memory"."""
_ALIGN = 4096  # layout.ALIGN: O_DIRECT's alignment of offset, length and memory


class _Counts:
    """Bytes of direct (durable) checkpoint files by how they reached the disk, since the
    process started: `staged` straight from the caller's (staged) memory, `buffered` copied
    into the writer's aligned buffers or written through the page cache. Tests and the
    benchmark read the difference around a save."""

    def __init__(self) -> None:
        self.staged = 0
        self.buffered = 0
        self._lock = threading.Lock()

    def add(self, staged: int, buffered: int) -> None:
        with self._lock:
            self.staged += staged
            self.buffered += buffered


COUNTS = _Counts()


_HUGE = 2 << 20  # a transparent huge page on x86-64 and most arm64 kernels


def _huge_buffer(size: int) -> tuple[mmap.mmap, Any, memoryview]:
    """`size` bytes of private anonymous memory starting at a 2 MiB boundary, asked to be
    backed by transparent huge pages (MADV_HUGEPAGE; a hint: where refused or unsupported, the
    buffer is page-aligned 4 KiB pages, still what O_DIRECT requires).

    Why: a direct write hands the device the buffer's pages as a scatter list, one segment per
    physically contiguous run. With 4 KiB pages a 4 MiB write needed ~8 requests and as many
    completion interrupts on the benchmark's virtual disk (254 segments per request): 2,061
    interrupts per GB, 0.65 s; from huge pages one request each, 269 per GB, 0.43 s, and a
    third of the kernel CPU (docs/checkpoint.md, "Direct writes"). A shared mapping (what
    `mmap.mmap(-1, n)` gives) is shmem, which this hint does not reach, hence MAP_PRIVATE."""
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    buf = mmap.mmap(-1, size + _HUGE, flags=flags) if flags else mmap.mmap(-1, size + _HUGE)
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is not None:
        with suppress(OSError):
            buf.madvise(advice)
    base = ctypes.addressof(ctypes.c_char.from_buffer(buf))
    off = -base % _HUGE
    arr = (ctypes.c_char * size).from_buffer(buf, off)
    return buf, arr, memoryview(buf)[off : off + size]


class _DirectWriter(io.RawIOBase):
    """A file written around the page cache (O_DIRECT), for large files that must be durable.

    Through the page cache, the kernel copies every byte of a checkpoint into cache pages it
    allocates first (0.24-1.2 s of CPU per GB on the benchmark's virtual machine, most of the
    save's CPU beside training), then writes them back, and the fsync waits for that. Here the
    bytes are gathered in page-aligned buffers of `DIRECT_CHUNK` bytes (a memcpy without the
    GIL: ~0.1 s per GB) and each full buffer goes to the disk by one direct write call, at
    offsets that are multiples of the buffer's size, with no cache page at all: 0.06-0.09 s of
    CPU per GB (docs/checkpoint.md, "Direct writes"). While one buffer is on its way to the
    disk (on a thread of its own: a direct write returns when the disk has the bytes) the next
    one is filled. The tail shorter than a buffer is written through the page cache (O_DIRECT
    cleared), and the caller's fsync makes both durable.

    Where the filesystem refuses direct writes (EINVAL when setting the flag or at the first
    write), the file is written through the page cache as before (`_WritebackWriter`);
    nothing written is lost on the switch. A file shorter than one buffer never uses
    O_DIRECT. A failed write is raised by the next call (`write` or `finish`).

    A large write whose memory agrees with its file offset modulo 4 KiB (a staged tensor laid
    out by layout.py) skips the buffers: `write_staged` sends its aligned middle to the disk
    straight from that memory (`STAGED_DIRECT`; docs/checkpoint.md, "Writes from the staged
    memory")."""

    def __init__(self, f: IO[bytes]) -> None:
        self._f = f
        self._fd = f.fileno()
        self._bufs: list[tuple[mmap.mmap, Any, memoryview]] = []
        self._cur = 0
        self._addr = 0
        self._fill = 0
        self._pos = 0  # bytes handed to the file
        self._direct = False
        self._fallback: Any = None  # what writes through the page cache, once refused
        self._pool: ThreadPoolExecutor | None = None
        self._pending: dict[int, _CFuture[None]] = {}  # buffer index -> its write in flight
        self.direct_bytes = 0  # of them, written direct from the buffers
        self.staged_bytes = 0  # written direct from the caller's memory (`write_staged`)
        self.buffered_bytes = 0  # handed to `write`: copied into the buffers (or the cache)
        self._staged_refused = False  # a direct write from the caller's memory got EINVAL
        self._staged_tried = False
        self._use(0)

    def _use(self, i: int) -> None:
        while len(self._bufs) <= i:
            self._bufs.append(_huge_buffer(DIRECT_CHUNK))
        self._cur, self._addr = i, ctypes.addressof(self._bufs[i][1])

    @property
    def _view(self) -> memoryview:
        return self._bufs[self._cur][2]

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        if not self._bufs:  # released: the buffers' memory is gone
            raise ValueError("write to a checkpoint file that was already closed")
        view = memoryview(b).cast("B")
        n = len(view)
        self.buffered_bytes += n
        if self._fallback is not None:
            writeback._write_all(self._fallback, view)
            return n
        src = np.frombuffer(view, dtype=np.uint8) if n else None
        done = 0
        while done < n:
            k = min(n - done, DIRECT_CHUNK - self._fill)
            ctypes.memmove(self._addr + self._fill, src.ctypes.data + done, k)  # type: ignore[union-attr]
            self._fill += k
            done += k
            if self._fill == DIRECT_CHUNK:
                self._write_chunk()
                if self._fallback is not None and done < n:
                    writeback._write_all(self._fallback, view[done:])
                    break
        return n

    def takes_staged(self, view: memoryview) -> bool:
        """Whether `write_staged` would write most of `view` straight from its memory: it is
        at least `STAGED_DIRECT` long and its address agrees with its file offset modulo 4
        KiB (what O_DIRECT needs), and direct writes have not been refused here."""
        if STAGED_DIRECT <= 0 or len(view) < STAGED_DIRECT or not self._bufs:
            return False
        if self._fallback is not None or self._staged_refused:
            return False
        start = self._pos + self._fill
        return (_address(view) - start) % _ALIGN == 0

    def write_staged(self, view: memoryview, hash_fn: Any) -> None:
        """Write all of `view` (one that `takes_staged`), its 4 KiB-aligned middle straight
        from its memory with `DIRECT_DEPTH` direct writes in flight, the unaligned head and
        tail through the buffers; call `hash_fn(view)` once, while the middle is on its way.
        Returns only when no write reads `view` any more (as `write` does); a failed write
        raises. Where the file or this memory refuses the direct write (EINVAL at the
        first), the rest goes through the buffers (or the page cache) as `write` does."""
        start = self._pos + self._fill
        head = min(-start % _ALIGN, len(view))
        middle = (len(view) - head) // _ALIGN * _ALIGN
        if head:
            self.write(view[:head])
        if self._fill and self._fallback is None:
            self._write_chunk()  # what the buffer holds ends at an aligned offset now
        if self._fallback is None and not self._direct and not self._set_direct(True):
            self._fall_back()
        if self._fallback is not None or not middle:
            self.write(view[head:])
            hash_fn(view)
            return
        body = view[head : head + middle]
        done = 0
        if not self._staged_tried:  # is a direct write from this memory accepted here?
            first = body[:DIRECT_CHUNK]
            try:
                _pwrite_all(self._fd, first, self._pos)
            except OSError as e:
                if e.errno != errno.EINVAL:
                    raise
                self._staged_refused = True
                if not self.direct_bytes:  # nothing direct went through: let `write` probe
                    self._set_direct(False)
                self.write(view[head:])
                hash_fn(view)
                return
            self._staged_tried = True
            done = len(first)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(DIRECT_DEPTH, thread_name_prefix="nonstop-direct")
        writes: list[_CFuture[None]] = []
        try:
            for a in range(done, middle, DIRECT_CHUNK):
                piece = body[a : a + DIRECT_CHUNK]
                writes.append(self._pool.submit(_pwrite_all, self._fd, piece, self._pos + a))
            hash_fn(view)
        finally:
            concurrent.futures.wait(writes)  # none may read `view` once this returns
        for w in writes:
            w.result()
        self._pos += middle
        self.staged_bytes += middle
        if head + middle < len(view):
            self.write(view[head + middle :])

    def _write_chunk(self) -> None:
        if not self._direct:  # the first buffer: is a direct write accepted here?
            if not self._set_direct(True):
                self._fall_back()
                return
            try:
                _pwrite_all(self._fd, self._view[: self._fill], self._pos)
            except OSError as e:
                if e.errno != errno.EINVAL:
                    raise
                self._set_direct(False)  # e.g. a larger alignment than the buffer's
                self._fall_back()
                return
            self._pos += self._fill
            self.direct_bytes += self._fill
            self._fill = 0
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(DIRECT_DEPTH, thread_name_prefix="nonstop-direct")
        self._pending[self._cur] = self._pool.submit(
            _pwrite_all, self._fd, self._view[: self._fill], self._pos
        )
        self._pos += self._fill
        self.direct_bytes += self._fill
        self._fill = 0
        nxt = (self._cur + 1) % (DIRECT_DEPTH + 1)
        self._wait(nxt)  # its write has ended: it may be filled again
        self._use(nxt)

    def _wait(self, i: int | None = None) -> None:
        """Wait for buffer i's write (every write in flight with None); raise its error."""
        for j in [i] if i is not None else sorted(self._pending):
            pending = self._pending.pop(j, None)
            if pending is not None:
                pending.result()

    def _set_direct(self, on: bool) -> bool:
        try:
            flags = fcntl.fcntl(self._fd, fcntl.F_GETFL)
            fcntl.fcntl(self._fd, fcntl.F_SETFL, flags | _O_DIRECT if on else flags & ~_O_DIRECT)
        except OSError:
            return False
        self._direct = on
        return True

    def _fall_back(self) -> None:
        """Through the page cache from here on, starting with what the buffer holds."""
        os.lseek(self._fd, self._pos, os.SEEK_SET)  # direct writes are positioned (pwrite)
        self._fallback = (
            writeback._WritebackWriter(self._f)
            if writeback._sync_file_range is not None
            else self._f
        )
        pending, self._fill = self._fill, 0
        writeback._write_all(self._fallback, self._view[:pending])
        self._pos += pending

    def finish(self) -> None:
        """Wait for the buffer on its way and write the tail through the page cache (the
        caller fsyncs)."""
        self._wait()
        if self._fallback is None and self._fill:
            if self._direct and not self._set_direct(False):
                raise OSError(errno.EIO, "could not clear O_DIRECT to write the file's tail")
            _pwrite_all(self._fd, self._view[: self._fill], self._pos)
            self._pos += self._fill
            self._fill = 0

    def release(self) -> None:
        """Free the buffers (after any write in flight has ended, failed or not)."""
        pending, self._pending = list(self._pending.values()), {}
        concurrent.futures.wait(pending)
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._bufs:
            COUNTS.add(self.staged_bytes, self.buffered_bytes)
        self._bufs.clear()  # unmapped as the last reference goes (a failed write's traceback
        # may hold a view of one a while longer, so they are not closed here)

    def tell(self) -> int:
        return self._f.tell() if self._fallback is not None else self._pos + self._fill

    def fileno(self) -> int:
        return self._fd

    def flush(self) -> None:
        """Buffered bytes stay in the aligned buffer until it is full or `finish` is called."""


def _address(view: memoryview) -> int:
    """The address of `view`'s first byte (read-only views included)."""
    return int(np.frombuffer(view, dtype=np.uint8).ctypes.data) if len(view) else 0


def _pwrite_all(fd: int, view: memoryview, offset: int) -> None:
    done = 0
    while done < len(view):
        n = os.pwrite(fd, view[done:], offset + done)
        if n <= 0:
            raise OSError(errno.EIO, f"short write ({done} of {len(view)} bytes)")
        done += n
