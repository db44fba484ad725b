"""The narrow storage seam under the checkpointer, and its DCP adapters.

`Storage` is everything the checkpointer needs from where checkpoints live: open a stream to
write or read one object, list, rename, remove, and an atomic small-file write. Keys are
"/"-separated and relative to the storage root ("step-10/__0_0.distcp"). `LocalStorage` is the
local (or shared POSIX) filesystem; an object store needs only these methods.

torch.distributed.checkpoint (DCP) writes and reads through `dcp_writer()` / `dcp_reader()`:

- the writer checksums every file while DCP writes it (digest.py's default, no second read), so
  each rank knows the checksums of exactly the files it wrote; torch.save's own CRC-32 of each
  zip record is switched off for those writes (`_torch_crc_off`): torch.load never checks it,
  and our checksums cover every byte of every file, so it was the same work done twice;
- a large tensor is laid out at a 4 KiB-aligned offset (layout.py) and written straight from
  its staged memory with O_DIRECT (`_DirectWriter.write_staged`), not copied into buffers;
- the reader never runs arbitrary pickle: DCP's `.metadata` is unpickled with an allow-list of
  DCP's own metadata classes, and nonstop checkpoints hold tensors only, which DCP reads with
  `torch.load(weights_only=True)`.

`FaultyStorage` injects ENOSPC/EIO deterministically after a byte budget: the fault-injection
tool for tests, the demo and the benchmarks.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import errno
import fcntl
import io
import mmap
import os
import pickle
import shutil
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future as _CFuture
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path, PurePosixPath
from typing import IO, Any, Protocol

import numpy as np
import torch
from torch.distributed.checkpoint import FileSystemReader, FileSystemWriter
from torch.distributed.checkpoint.filesystem import FileSystem
from torch.distributed.checkpoint.metadata import Metadata, StorageMeta
from torch.distributed.checkpoint.planner import LoadPlan, LoadPlanner, SavePlan, SavePlanner
from torch.distributed.checkpoint.storage import WriteResult
from torch.futures import Future

from nonstop.checkpoint import digest, layout
from nonstop.checkpoint.reading import read_into
from nonstop.errors import UserError

CHUNK = 8 << 20


class Storage(Protocol):
    """Where checkpoints live. Keys are relative, "/"-separated; directories are prefixes."""

    def describe(self, key: str) -> str:
        """A human-readable location (a path or URL) for messages."""
        ...

    def open_write(self, key: str) -> AbstractContextManager[IO[bytes]]:
        """A stream that creates (or truncates) `key`; closing it makes the bytes durable."""
        ...

    def open_read(self, key: str) -> AbstractContextManager[IO[bytes]]:
        """A readable, seekable stream over `key`."""
        ...

    def write_atomic(self, key: str, data: bytes) -> None:
        """Write `key` so that readers see either nothing or all of `data`."""
        ...

    def list_dir(self, key: str) -> list[str]:
        """Names directly under `key` ("" for the root); [] when it does not exist."""
        ...

    def exists(self, key: str) -> bool: ...

    def size(self, key: str) -> int: ...

    def mkdir(self, key: str) -> None: ...

    def rename(self, src: str, dst: str) -> None:
        """Move `src` to `dst` (which must not exist); atomic where the medium allows."""
        ...

    def remove(self, key: str) -> None:
        """Remove a file or a whole directory; missing is not an error."""
        ...


class LocalStorage:
    """Storage on a local or shared POSIX filesystem rooted at `root`."""

    def __init__(
        self, root: str | os.PathLike[str], *, fsync: bool = True, direct: bool = True
    ) -> None:
        self.root = Path(root)
        self.fsync = fsync
        self.direct = direct  # with fsync: large files around the page cache (_DirectWriter)

    def path(self, key: str) -> Path:
        return self.root / key if key else self.root

    def describe(self, key: str) -> str:
        return str(self.path(key))

    @contextmanager
    def open_write(self, key: str) -> Iterator[IO[bytes]]:
        """With `fsync` and `direct` (the defaults) a file longer than `DIRECT_CHUNK` is
        written around the page cache (`_DirectWriter`). With `fsync` alone, or where direct
        writes are refused, the stream starts the disk writes of every `WRITEBACK` bytes as
        soon as they are written (`sync_file_range`, where the platform has it), so that the
        fsync at close waits for the last stretch only, not the whole file."""
        p = self.path(key)
        p.parent.mkdir(parents=True, exist_ok=True)
        if self.fsync and self.direct and DIRECT_CHUNK > 0 and _O_DIRECT:
            with open(p, "wb", buffering=0) as raw:
                d = _DirectWriter(raw)
                try:
                    yield d  # type: ignore[misc]
                    d.finish()
                finally:
                    d.release()
                os.fsync(raw.fileno())
            return
        with open(p, "wb") as f:
            w = _WritebackWriter(f) if self.fsync and _sync_file_range is not None else f
            yield w  # type: ignore[misc]
            f.flush()
            if self.fsync:
                os.fsync(f.fileno())

    @contextmanager
    def open_read(self, key: str) -> Iterator[IO[bytes]]:
        with open(self.path(key), "rb") as f:
            yield f

    def write_atomic(self, key: str, data: bytes) -> None:
        tmp = key + ".tmp"
        with self.open_write(tmp) as f:
            f.write(data)
        os.replace(self.path(tmp), self.path(key))
        self._fsync_dir(self.path(key).parent)

    def list_dir(self, key: str) -> list[str]:
        try:
            return sorted(p.name for p in self.path(key).iterdir())
        except (FileNotFoundError, NotADirectoryError):
            return []

    def exists(self, key: str) -> bool:
        return self.path(key).exists()

    def size(self, key: str) -> int:
        return self.path(key).stat().st_size

    def mkdir(self, key: str) -> None:
        self.path(key).mkdir(parents=True, exist_ok=True)

    def rename(self, src: str, dst: str) -> None:
        if self.path(dst).exists():
            raise FileExistsError(errno.EEXIST, "rename target exists", str(self.path(dst)))
        os.rename(self.path(src), self.path(dst))
        self._fsync_dir(self.path(dst).parent)

    def remove(self, key: str) -> None:
        p = self.path(key)
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)

    def drop_cache(self, key: str) -> None:
        """Ask the kernel to forget the cached pages of file `key` (durable, clean pages only;
        a hint: a missing file or a platform without posix_fadvise is not an error).

        The checkpointer calls it on the files of its previous save right before the next one
        writes: the new files' page cache then reuses those pages instead of taking memory the
        host has not backed lately (docs/checkpoint.md, "Page cache")."""
        advise = getattr(os, "posix_fadvise", None)
        if advise is None:
            return
        try:
            fd = os.open(self.path(key), os.O_RDONLY)
        except OSError:
            return
        try:
            advise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        except OSError:
            pass
        finally:
            os.close(fd)

    def _fsync_dir(self, d: Path) -> None:
        if not self.fsync:
            return
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


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


class FaultyStorage(LocalStorage):
    """LocalStorage whose writes fail with `err` once `fail_after_bytes` have been written.

    Deterministic: the budget counts bytes across all streams since `arm()`. `heal()` stops
    the failures (the disk was cleaned up). Used to test a full disk without filling one.
    """

    def __init__(self, root: str | os.PathLike[str], **kwargs: Any) -> None:
        super().__init__(root, **kwargs)
        self._lock = threading.Lock()
        self._budget: int | None = None
        self._errno = errno.ENOSPC
        self.failures = 0
        self.on_refused: Any = None
        """Called (no arguments) at each write refused: the fault injector logs it."""

    def arm(self, *, fail_after_bytes: int = 0, err: int = errno.ENOSPC) -> None:
        with self._lock:
            self._budget, self._errno = fail_after_bytes, err

    def heal(self) -> None:
        with self._lock:
            self._budget = None

    def _spend(self, n: int) -> None:
        with self._lock:
            if self._budget is None:
                return
            if n > self._budget:
                self.failures += 1
                if self.on_refused is not None:
                    self.on_refused()
                raise OSError(self._errno, os.strerror(self._errno))
            self._budget -= n

    @contextmanager
    def open_write(self, key: str) -> Iterator[IO[bytes]]:
        with super().open_write(key) as f:
            yield _BudgetedWriter(f, self._spend)  # type: ignore[misc]


def storage_for_faults(root: str | os.PathLike[str], events: Any) -> FaultyStorage | None:
    """A FaultyStorage driven by the rank's fault injector when it holds a `diskfull` fault
    (`nonstop run --inject diskfull@...`), else None: any script that saves through the
    Checkpointer gets a full disk on cue, and the injector logs it at the first refused write."""
    faults = getattr(events, "faults", None)
    if not faults or not any(f.kind == "diskfull" for f in getattr(faults, "faults", ())):
        return None
    storage = FaultyStorage(root)
    faults.on_disk_full = lambda full: storage.arm() if full else storage.heal()
    storage.on_refused = faults.disk_refused
    return storage


class _BudgetedWriter(io.RawIOBase):
    def __init__(self, raw: IO[bytes], spend: Any) -> None:
        self._raw, self._spend = raw, spend

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        self._spend(memoryview(b).nbytes)
        return self._raw.write(b)

    def takes_staged(self, view: memoryview) -> bool:
        takes = getattr(self._raw, "takes_staged", None)
        return bool(takes is not None and takes(view))

    def write_staged(self, view: memoryview, hash_fn: Any) -> None:
        self._spend(len(view))
        self._raw.write_staged(view, hash_fn)

    def tell(self) -> int:
        return self._raw.tell()

    def fileno(self) -> int:
        return self._raw.fileno()

    def flush(self) -> None:
        self._raw.flush()


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
            _write_all(self._fallback, view)
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
                    _write_all(self._fallback, view[done:])
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
        self._fallback = _WritebackWriter(self._f) if _sync_file_range is not None else self._f
        pending, self._fill = self._fill, 0
        _write_all(self._fallback, self._view[:pending])
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


def _write_all(f: Any, view: memoryview) -> None:
    """Write all of `view` to `f` in calls of at most WRITE_PIECE bytes ("Write size")."""
    done = 0
    while done < len(view):
        n = f.write(view[done : done + WRITE_PIECE])
        n = len(view) - done if n is None else n
        if n <= 0:
            raise OSError(errno.EIO, f"short write ({done} of {len(view)} bytes)")
        done += n


class _HashingWriter(io.RawIOBase):
    """Passes writes through and hashes them. DCP only appends, so the hash is the file's.

    Writes under `SMALL_WRITE` bytes are gathered and passed on together: torch.save writes
    each record's header, name and alignment padding with a call of its own (~2,200 calls for
    the demo's 10 MB state), and each call through this writer, the hasher and the writeback
    writer cost ~45 us of Python, 0.1 s of CPU per save beside training. `drain` (from
    `flush`, and by the storage before it closes the file) passes on what is gathered."""

    def __init__(self, raw: IO[bytes], errors: list[OSError], algorithm: str) -> None:
        self._raw = raw
        self._errors = errors
        self.hasher = digest.Hasher(algorithm)
        self.nbytes = 0
        self._gathered = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        view = memoryview(b).cast("B")
        if len(view) < SMALL_WRITE:
            self._gathered += view
            if len(self._gathered) >= WRITE_PIECE:
                self.drain()
            return len(view)
        self.drain()
        takes = getattr(self._raw, "takes_staged", None) if STAGED_DIRECT > 0 else None
        if takes is not None and takes(view):  # straight from the staged memory
            try:
                self._raw.write_staged(view, self.hasher.update)
            except OSError as e:
                self._errors.append(e)
                raise
            self.nbytes += len(view)
            return len(view)
        if OVERLAP_HASH_BYTES <= 0 or len(view) < OVERLAP_HASH_BYTES:
            return self._write_pieces(view)
        hashing = _hash_beside(self.hasher, view)
        if hashing is None:  # overlap turned off since the check above
            return self._write_pieces(view)
        try:
            n = self._raw.write(view)
        except OSError as e:  # torch.save turns it into a vague RuntimeError: keep the cause
            self._errors.append(e)
            raise
        finally:
            hashing.result()  # never return while another thread still reads `b`
        n = len(view) if n is None else n
        if n != len(view):  # a short write after hashing it all: the digest would lie
            short = OSError(errno.EIO, f"short write ({n} of {len(view)} bytes)")
            self._errors.append(short)
            raise short
        self.nbytes += n
        return n

    def _write_pieces(self, view: memoryview) -> int:
        """Write `view` in WRITE_PIECE pieces, each hashed right after its write call has
        read it (still in the CPU's cache); a short write ends it, hashed as far as written."""
        done = 0
        while done < len(view):
            piece = view[done : done + WRITE_PIECE]
            try:
                n = self._raw.write(piece)
            except OSError as e:  # torch.save turns it into a vague RuntimeError: keep it
                self._errors.append(e)
                raise
            n = len(piece) if n is None else n
            self.hasher.update(piece[:n])
            done += n
            self.nbytes += n
            if n < len(piece):
                break
        return done

    def drain(self) -> None:
        """Write what small writes gathered; a short write is an error (the caller was told
        those bytes were written)."""
        if not self._gathered:
            return
        with memoryview(self._gathered) as view:
            done = self._write_pieces(view)
        if done != len(self._gathered):
            short = OSError(errno.EIO, f"short write ({done} of {len(self._gathered)} bytes)")
            self._errors.append(short)
            raise short
        self._gathered = bytearray()

    def discard(self) -> None:
        """Drop what is gathered and close this writer (not the file under it): after a
        failed write, the garbage collector's close would otherwise flush the gathered bytes
        into a file that is already closed."""
        self._gathered = bytearray()
        try:
            self.close()  # its flush may meet the file's own failure: that was reported
        except (OSError, ValueError):
            pass

    def tell(self) -> int:
        return self._raw.tell() + len(self._gathered)

    def fileno(self) -> int:
        return self._raw.fileno()

    def flush(self) -> None:
        self.drain()
        self._raw.flush()


SMALL_WRITE = 64 << 10
"""Writes shorter than this are gathered into one (`_HashingWriter`)."""

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

OVERLAP_HASH_BYTES = 0
"""When > 0, a write at least this large is hashed in a helper thread while the write call
copies it into the page cache (both release the GIL). Off (0, hash then write in the writing
thread): on this 2-core host, 1 GB saves with it were no faster within the noise (2026-12-03,
docs/checkpoint.md, "Time to durable"), and beside training it takes a core from it."""
_hash_pool: ThreadPoolExecutor | None = None
_hash_pool_lock = threading.Lock()


def _hash_beside(hasher: digest.Hasher, view: memoryview) -> _CFuture[None] | None:
    """Start `hasher.update(view)` in the helper thread; None where overlap is off."""
    global _hash_pool
    if OVERLAP_HASH_BYTES <= 0:
        return None
    with _hash_pool_lock:
        if _hash_pool is None:
            _hash_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="nonstop-hash")
    return _hash_pool.submit(hasher.update, view)


_WRITING = threading.local()


def _install_torch_crc_switch() -> None:
    """Make torch.save skip its per-record CRC-32 in a thread inside `_torch_crc_off()`.

    DCP writes every tensor with torch.save, which by default computes a CRC-32 of each zip
    record (as costly as our own checksum: 0.25 s of CPU per GB here) that torch.load never
    verifies; our checksum of the whole file is what a load checks. torch reads the option
    through `torch.serialization.get_crc32_options()` at each save; that function is wrapped
    once so that only a thread writing a checkpoint file sees False, and every other thread
    (the user's own torch.save) sees torch's setting. Without that function (another torch),
    nothing changes: the files are the same but for the zip's CRC fields.
    """
    ser = torch.serialization
    original = getattr(ser, "get_crc32_options", None)
    if original is None or getattr(original, "_nonstop_switch", False):
        return

    def get_crc32_options() -> bool:
        return False if getattr(_WRITING, "active", False) else bool(original())

    get_crc32_options._nonstop_switch = True  # type: ignore[attr-defined]
    get_crc32_options.__doc__ = original.__doc__
    ser.get_crc32_options = get_crc32_options


@contextmanager
def _torch_crc_off() -> Iterator[None]:
    before = getattr(_WRITING, "active", False)
    _WRITING.active = True
    try:
        yield
    finally:
        _WRITING.active = before


class _StorageFS(FileSystem):
    """DCP's filesystem interface over a `Storage`, recording checksum and size of each write."""

    def __init__(self, storage: Storage, algorithm: str = digest.DEFAULT) -> None:
        self.storage = storage
        self.algorithm = algorithm
        self.written: dict[str, dict[str, Any]] = {}
        self.read: set[str] = set()
        self.errors: list[OSError] = []
        self._lock = threading.Lock()

    @contextmanager
    def create_stream(self, path: str | os.PathLike[str], mode: str) -> Iterator[io.IOBase]:
        key = Path(path).as_posix()
        if "w" not in mode:
            with self._lock:
                self.read.add(key)
            with self.storage.open_read(key) as f:
                yield f  # type: ignore[misc]
            return
        with self.storage.open_write(key) as raw, _torch_crc_off():
            w = _HashingWriter(raw, self.errors, self.algorithm)
            try:
                yield w
                w.drain()
            finally:
                layout.reset()  # the last record's alignment ends with its file
                w.discard()  # a failed write's gathered bytes are not flushed later by gc
        with self._lock:
            self.written[key] = {"digest": w.hasher.hexdigest(), "bytes": w.nbytes}

    def concat_path(self, path: str | os.PathLike[str], suffix: str) -> Path:
        return Path(path) / suffix

    def init_path(self, path: str | os.PathLike[str]) -> Path:
        return Path(path)

    def rename(self, path: str | os.PathLike[str], new_path: str | os.PathLike[str]) -> None:
        src, dst = Path(path).as_posix(), Path(new_path).as_posix()
        self.storage.rename(src, dst)
        with self._lock:
            if src in self.written:
                self.written[dst] = self.written.pop(src)

    def mkdir(self, path: str | os.PathLike[str]) -> None:
        self.storage.mkdir(Path(path).as_posix())

    def exists(self, path: str | os.PathLike[str]) -> bool:
        return self.storage.exists(Path(path).as_posix())

    def rm_file(self, path: str | os.PathLike[str]) -> None:
        self.storage.remove(Path(path).as_posix())

    def ls(self, path: str | os.PathLike[str]) -> list[str]:
        key = Path(path).as_posix()
        return [f"{key}/{n}" for n in self.storage.list_dir(key)]


def check_relative_paths(metadata: Metadata, where: str) -> None:
    """Refuse a `.metadata` that names a file outside its checkpoint folder (an absolute path,
    `..`, an empty or non-text name): DCP would open `folder / relative_path` as given, so a
    crafted checkpoint could make a rank read any file it can. UserError: not loaded."""
    for info in (getattr(metadata, "storage_data", None) or {}).values():
        rel = getattr(info, "relative_path", None)
        if not _inside(rel):
            raise UserError(
                f"{where} names data file {rel!r}, outside its checkpoint folder: refusing to "
                "load it (a crafted or corrupt checkpoint); load an older step or delete it"
            )


def _inside(rel: object) -> bool:
    if not isinstance(rel, str) or rel in ("", ".") or "\x00" in rel or rel.startswith("/"):
        return False
    return ".." not in PurePosixPath(rel).parts


class RecordingWriter(FileSystemWriter):
    """DCP's FileSystemWriter writing through a `Storage`; `checksums()` after the save."""

    def __init__(
        self, storage: Storage, key: str, *, thread_count: int = 1, algorithm: str = digest.DEFAULT
    ) -> None:
        # Durability is the storage's job (LocalStorage fsyncs on close), not DCP's.
        super().__init__(key, thread_count=thread_count, sync_files=False, overwrite=True)
        _install_torch_crc_switch()
        self._sfs = _StorageFS(storage, algorithm)
        self.fs = self._sfs
        self.path = Path(key)
        self._prefix = Path(key).as_posix() + "/"
        self._aligning = None
        if _writes_direct(storage):  # large tensors at aligned offsets (layout.py)
            self._aligning = layout.aligning_transforms(STAGED_DIRECT)
            if self._aligning is not None:
                self.transforms = self._aligning

    def write_data(self, plan: SavePlan, planner: SavePlanner) -> Future[list[WriteResult]]:
        written = super().write_data(plan, planner)
        if self._aligning is None:
            return written
        placed: Future[list[WriteResult]] = Future()
        placed.set_result(self._aligning.place(written.wait()))
        return placed

    def checksums(self) -> dict[str, dict[str, Any]]:
        """{file name inside the checkpoint: {"digest", "bytes"}} for what this rank wrote."""
        return {k.removeprefix(self._prefix): v for k, v in self._sfs.written.items()}

    @property
    def io_error(self) -> OSError | None:
        """The first OSError a write raised on this rank (ENOSPC, EIO), if any."""
        return self._sfs.errors[0] if self._sfs.errors else None


def _writes_direct(storage: Storage) -> bool:
    """Whether `storage` writes large files around the page cache (`_DirectWriter`)."""
    return (
        isinstance(storage, LocalStorage)
        and storage.fsync
        and storage.direct
        and DIRECT_CHUNK > 0
        and bool(_O_DIRECT)
    )


class SafeReader(FileSystemReader):
    """DCP's FileSystemReader over a `Storage` that unpickles `.metadata` with an allow-list.

    On a local filesystem the tensors are copied from the files' pages straight into the live
    state (reading.py: one copy, no fresh tensor per item); elsewhere DCP reads them."""

    def __init__(self, storage: Storage, key: str) -> None:
        super().__init__(key)
        self._sfs = _StorageFS(storage)
        self.fs = self._sfs
        self.path = Path(key)
        self._storage, self._key = storage, key
        self.direct = 0
        """Tensors the last `read_data` copied directly (the rest went through torch.load)."""
        self._read_keys: set[str] = set()

    def read_data(self, plan: LoadPlan, planner: LoadPlanner) -> Future[None]:
        infos = [self.storage_data[r.storage_index] for r in plan.items]
        if not isinstance(self._storage, LocalStorage) or any(
            getattr(i, "transform_descriptors", None) for i in infos
        ):
            return super().read_data(plan, planner)
        self.direct = read_into(self.storage_data, plan, planner, self._open_data)
        done: Future[None] = Future()
        done.set_result(None)
        return done

    def _open_data(self, rel: str) -> AbstractContextManager[IO[bytes]]:
        key = f"{self._key}/{rel}"
        self._read_keys.add(key)
        return self._storage.open_read(key)

    @property
    def read_keys(self) -> set[str]:
        """The storage keys of the data files this reader opened (its rank's share)."""
        return self._read_keys | self._sfs.read

    def read_metadata(self, *args: Any, **kwargs: Any) -> Metadata:
        rank = kwargs.get("rank")
        name = ".metadata" if rank is None else f"__{rank}.metadata"
        with self._storage.open_read(f"{self._key}/{name}") as f:
            metadata = _MetadataUnpickler(f).load()
        if not isinstance(metadata, Metadata):
            raise pickle.UnpicklingError(f"{name} holds a {type(metadata).__name__}")
        check_relative_paths(metadata, self._storage.describe(f"{self._key}/{name}"))
        if getattr(metadata, "storage_meta", None) is None:
            metadata.storage_meta = StorageMeta()
        assert metadata.storage_meta is not None
        metadata.storage_meta.load_id = self.load_id
        return metadata


_ALLOWED: dict[str, set[str] | None] = {
    # None: any class or enum defined in that module (DCP's own metadata dataclasses).
    "torch.distributed.checkpoint.metadata": None,
    "torch.distributed.checkpoint.filesystem": {"_StorageInfo"},
    "torch.serialization": {"_get_layout"},
    "collections": {"OrderedDict"},
    "pathlib": {"Path", "PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath"},
}


class _MetadataUnpickler(pickle.Unpickler):
    """Refuses every global that is not part of DCP's metadata (weights_only in spirit)."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch":
            obj = getattr(torch, name, None)
            if name == "Size" or isinstance(obj, torch.dtype | torch.memory_format):
                return obj
        elif module in _ALLOWED:
            names = _ALLOWED[module]
            obj = super().find_class(module, name)
            if names is None and isinstance(obj, type) and obj.__module__ == module:
                return obj
            if names is None and name == "_MEM_FORMAT_ENCODING":
                return obj
            if names is not None and name in names:
                return obj
        raise pickle.UnpicklingError(
            f"checkpoint metadata refers to {module}.{name}, which is not DCP metadata; "
            "refusing to unpickle it"
        )
