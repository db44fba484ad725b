"""The hashing writer between DCP and the storage, and torch.save's CRC-32 switch.

`_HashingWriter` checksums every checkpoint file while DCP writes it (digest.py's default, no
second read), gathering small writes (`SMALL_WRITE`) and passing large ones on in
`WRITE_PIECE` pieces (writeback.py), or straight from the staged memory to a direct writer
(direct.py). torch.save's own CRC-32 of each zip record is switched off for those writes
(`_torch_crc_off`): torch.load never checks it, and our checksums cover every byte of every
file, so it was the same work done twice.

The constants are read through this module at each use: set them here
(`hashing.OVERLAP_HASH_BYTES = ...`), not on a module that re-exports them.
"""

from __future__ import annotations

import errno
import io
import threading
from collections.abc import Iterator
from concurrent.futures import Future as _CFuture
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import IO, Any, cast

import torch

from nonstop.checkpoint import digest, direct, writeback

SMALL_WRITE = 64 << 10
"""Writes shorter than this are gathered into one (`_HashingWriter`)."""


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
            if len(self._gathered) >= writeback.WRITE_PIECE:
                self.drain()
            return len(view)
        self.drain()
        takes = getattr(self._raw, "takes_staged", None) if direct.STAGED_DIRECT > 0 else None
        if takes is not None and takes(view):  # straight from the staged memory
            try:
                cast(Any, self._raw).write_staged(view, self.hasher.update)
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
            piece = view[done : done + writeback.WRITE_PIECE]
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
