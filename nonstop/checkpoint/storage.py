"""The narrow storage seam under the checkpointer, and its DCP adapters.

`Storage` is everything the checkpointer needs from where checkpoints live: open a stream to
write or read one object, list, rename, remove, and an atomic small-file write. Keys are
"/"-separated and relative to the storage root ("step-10/__0_0.distcp"). `LocalStorage` is the
local (or shared POSIX) filesystem; an object store needs only these methods.

torch.distributed.checkpoint (DCP) writes and reads through `RecordingWriter` / `SafeReader` (dcp_io.py):

- the writer checksums every file while DCP writes it (digest.py's default, no second read), so
  each rank knows the checksums of exactly the files it wrote; torch.save's own CRC-32 of each
  zip record is switched off for those writes (`hashing._torch_crc_off`): torch.load never
  checks it, and our checksums cover every byte of every file, so it was the same work done
  twice;
- a large tensor is laid out at a 4 KiB-aligned offset (layout.py) and written straight from
  its staged memory with O_DIRECT (`direct._DirectWriter.write_staged`), not copied into buffers;
- the reader never runs arbitrary pickle: DCP's `.metadata` is unpickled with an allow-list of
  DCP's own metadata classes, and nonstop checkpoints hold tensors only, which DCP reads with
  `torch.load(weights_only=True)`.

`FaultyStorage` injects ENOSPC/EIO deterministically after a byte budget: the fault-injection
tool for tests, the demo and the benchmarks.

The parts, in the order a checkpoint's bytes pass them (this module re-exports their public
names, so `from nonstop.checkpoint.storage import ...` is the one import for callers):

- dcp_io.py: DCP's writer and reader over a `Storage` (`RecordingWriter`, `SafeReader`);
- hashing.py: the hashing writer and torch.save's CRC-32 switch;
- local.py: `LocalStorage` and `FaultyStorage`;
- direct.py: writes around the page cache (O_DIRECT, `STAGED_DIRECT`, `COUNTS`);
- writeback.py: writes through the page cache (`WRITEBACK`, `WRITE_PIECE`).

A constant (`STAGED_DIRECT`, `WRITE_PIECE`, ...) is read through the module that owns it:
set it there (`direct.STAGED_DIRECT = 0`); setting the re-exported name here changes nothing.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import IO, Protocol

from nonstop.checkpoint.dcp_io import RecordingWriter, SafeReader, check_relative_paths
from nonstop.checkpoint.direct import COUNTS, DIRECT_CHUNK, DIRECT_DEPTH, STAGED_DIRECT
from nonstop.checkpoint.hashing import OVERLAP_HASH_BYTES, SMALL_WRITE
from nonstop.checkpoint.local import FaultyStorage, LocalStorage, storage_for_faults
from nonstop.checkpoint.writeback import WRITE_PIECE, WRITEBACK

__all__ = [
    "CHUNK",
    "COUNTS",
    "DIRECT_CHUNK",
    "DIRECT_DEPTH",
    "OVERLAP_HASH_BYTES",
    "SMALL_WRITE",
    "STAGED_DIRECT",
    "WRITEBACK",
    "WRITE_PIECE",
    "FaultyStorage",
    "LocalStorage",
    "RecordingWriter",
    "SafeReader",
    "Storage",
    "check_relative_paths",
    "storage_for_faults",
]

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
