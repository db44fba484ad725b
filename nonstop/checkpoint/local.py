"""`LocalStorage`: the `Storage` (storage.py) of a local or shared POSIX filesystem, and
`FaultyStorage`, which injects ENOSPC/EIO deterministically after a byte budget.

A durable file is written around the page cache (direct.py) or through it with early
writeback (writeback.py); small files, renames and directories are fsynced.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, cast

from nonstop.checkpoint import direct, writeback


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
        if self.fsync and self.direct and direct.DIRECT_CHUNK > 0 and direct._O_DIRECT:
            with open(p, "wb", buffering=0) as raw:
                d = direct._DirectWriter(raw)
                try:
                    yield d  # type: ignore[misc]
                    d.finish()
                finally:
                    d.release()
                os.fsync(raw.fileno())
            return
        with open(p, "wb") as f:
            w = (
                writeback._WritebackWriter(f)
                if self.fsync and writeback._sync_file_range is not None
                else f
            )
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
        cast(Any, self._raw).write_staged(view, hash_fn)  # a _DirectWriter: takes_staged

    def tell(self) -> int:
        return self._raw.tell()

    def fileno(self) -> int:
        return self._raw.fileno()

    def flush(self) -> None:
        self._raw.flush()
