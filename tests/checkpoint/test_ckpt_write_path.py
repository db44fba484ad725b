"""The write path: a durable file is written around the page cache (O_DIRECT) in aligned
buffers, or, where the filesystem refuses that, through it with its disk writes started while
the file is still being written (sync_file_range every WRITEBACK bytes); a large write reaches
the file in WRITE_PIECE pieces each hashed right after it is written, and (optionally) a large
write is hashed in a helper thread while the write call copies it (docs/checkpoint.md, "Direct
writes", "Time to durable", "Write size")."""

from __future__ import annotations

import errno
import fcntl
import io
import os
import zlib
from pathlib import Path
from typing import Any

import pytest
import torch
from support.direct_io import refuse_o_direct
from torch import nn

from nonstop.checkpoint import (
    CheckpointConfig,
    Checkpointer,
    LocalStorage,
    dcp_io,
    digest,
    direct,
    hashing,
    writeback,
)

needs_direct = pytest.mark.skipif(not direct._O_DIRECT, reason="no O_DIRECT on this platform")
needs_sfr = pytest.mark.skipif(writeback._sync_file_range is None, reason="no sync_file_range here")


@needs_sfr
def test_disk_writes_start_every_writeback_bytes_and_cover_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[int, int, int]] = []
    real = writeback._sync_file_range

    def recording(fd: int, offset: int, nbytes: int, flags: int) -> int:
        calls.append((offset, nbytes, flags))
        return real(fd, offset, nbytes, flags)

    monkeypatch.setattr(writeback, "_sync_file_range", recording)
    monkeypatch.setattr(writeback, "WRITEBACK", 1000)
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 0)  # through the page cache
    data = os.urandom(10_500)
    storage = LocalStorage(tmp_path)
    with storage.open_write("f.bin") as f:
        for i in range(0, len(data), 700):
            f.write(data[i : i + 700])
        assert f.tell() == len(data)
    assert (tmp_path / "f.bin").read_bytes() == data
    assert len(calls) == 7 and all(flags == 2 for _, _, flags in calls)  # start, do not wait
    pos = 0
    for offset, nbytes, _ in calls:  # contiguous stretches from the start, each >= WRITEBACK
        assert offset == pos and nbytes >= 1000
        pos += nbytes
    assert pos <= len(data)


def _write_in_parts(storage: LocalStorage, data: bytes, part: int) -> Any:
    with storage.open_write("f.bin") as f:
        for i in range(0, len(data), part):
            f.write(data[i : i + part])
            assert f.tell() == min(i + part, len(data))  # DCP records offsets with tell()
        return f


@needs_direct
@pytest.mark.parametrize("size", [0, 100, 8192, 8193, 3 * 8192 + 4095])
def test_durable_files_are_written_around_the_page_cache_in_aligned_buffers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 8192)
    seen: list[bool] = []
    real_pwrite = os.pwrite

    def recording(fd: int, data: Any, offset: int) -> int:  # was O_DIRECT set for this call?
        seen.append(bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT))
        return real_pwrite(fd, data, offset)

    monkeypatch.setattr(direct.os, "pwrite", recording)
    data = os.urandom(size)
    w = _write_in_parts(LocalStorage(tmp_path), data, 3000)
    assert (tmp_path / "f.bin").read_bytes() == data
    full = size // 8192 * 8192
    assert w.direct_bytes == full
    assert seen.count(True) == full // 8192  # one direct call per full buffer
    assert seen.count(False) == (1 if size % 8192 else 0)  # the tail through the page cache


@needs_direct
@pytest.mark.parametrize("refused_at", ["flag", "write"])
def test_a_filesystem_refusing_direct_writes_gets_the_page_cache_path_and_every_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused_at: str
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 8192)
    refuse_o_direct(monkeypatch, refused_at)
    data = os.urandom(5 * 8192 + 77)
    w = _write_in_parts(LocalStorage(tmp_path), data, 5000)
    assert w.direct_bytes == 0
    assert (tmp_path / "f.bin").read_bytes() == data


@needs_direct
def test_a_file_written_after_it_was_closed_is_an_error_not_a_write_to_freed_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 8192)
    with LocalStorage(tmp_path).open_write("f.bin") as f:
        f.write(b"x" * 10_000)
    with pytest.raises(ValueError, match="already closed"):
        f.write(b"y")  # its buffers are unmapped: a copy into them would crash the process
    assert (tmp_path / "f.bin").read_bytes() == b"x" * 10_000


def test_a_failed_stream_is_not_flushed_later_by_the_garbage_collector(tmp_path: Path) -> None:
    """A write that fails leaves torch.save's small writes gathered; the writer's close at
    garbage collection must not pass them to the file (closed by then: in the chaos run of
    2026-12-05 that crashed a rank, with direct writes, on a full disk)."""
    import gc

    fs = dcp_io._StorageFS(LocalStorage(tmp_path))
    with pytest.raises(OSError), fs.create_stream(tmp_path / "f.bin", "wb") as w:
        w.write(b"small header")  # gathered, not yet written
        raise OSError(errno.ENOSPC, "No space left on device")
    assert w.closed and w.tell() == 0
    del w
    gc.collect()
    assert (tmp_path / "f.bin").read_bytes() == b""


@needs_direct
def test_a_failing_direct_write_is_an_error_not_a_silent_switch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 8192)
    real_pwrite = os.pwrite
    calls = [0]

    def full_disk(fd: int, data: Any, offset: int) -> int:
        calls[0] += 1
        if calls[0] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_pwrite(fd, data, offset)

    monkeypatch.setattr(direct.os, "pwrite", full_disk)
    with pytest.raises(OSError) as e:
        _write_in_parts(LocalStorage(tmp_path), os.urandom(4 * 8192), 8192)
    assert e.value.errno == errno.ENOSPC


def test_without_fsync_no_writeback_is_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(writeback, "_sync_file_range", lambda *a: calls.append(a) or 0)
    monkeypatch.setattr(writeback, "WRITEBACK", 10)
    with LocalStorage(tmp_path, fsync=False).open_write("f.bin") as f:
        f.write(b"x" * 100)
    assert not calls


class _Raw(io.RawIOBase):
    """A sink that accepts at most `limit` bytes per call (a short write)."""

    def __init__(self, limit: int | None = None) -> None:
        self.buf = bytearray()
        self.limit = limit

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        view = memoryview(b).cast("B")
        n = len(view) if self.limit is None else min(self.limit, len(view))
        self.buf += view[:n]
        return n

    def tell(self) -> int:
        return len(self.buf)


@pytest.mark.parametrize("overlap", [1, 0])
def test_a_hash_beside_the_write_equals_the_files_checksum(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, overlap: int
) -> None:
    monkeypatch.setattr(hashing, "OVERLAP_HASH_BYTES", overlap * 4096)
    monkeypatch.setattr(digest, "CHUNK", 10_000)  # many chunk boundaries inside writes
    raw, errors = _Raw(), []
    w = hashing._HashingWriter(raw, errors, digest.DEFAULT)
    data = os.urandom(123_457)
    for i in range(0, len(data), 7000):
        w.write(data[i : i + 7000])
    w.flush()  # writes under SMALL_WRITE are gathered until then
    assert bytes(raw.buf) == data and w.nbytes == len(data)
    path = tmp_path / "d.bin"
    path.write_bytes(data)
    assert w.hasher.hexdigest() == digest.of_file(path, digest.DEFAULT)
    first = zlib.crc32(data[:10_000])
    assert w.hasher.hexdigest().split(",")[0] == f"{first:08x}"


def test_a_short_write_hashed_beside_is_an_error_not_a_wrong_digest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hashing, "SMALL_WRITE", 0)  # each call as it comes (gathering: below)
    monkeypatch.setattr(hashing, "OVERLAP_HASH_BYTES", 16)
    errors: list[OSError] = []
    w = hashing._HashingWriter(_Raw(limit=10), errors, digest.DEFAULT)
    with pytest.raises(OSError) as e:
        w.write(b"y" * 100)
    assert e.value.errno == errno.EIO and "short write" in str(e.value)
    assert errors and errors[0] is e.value


def test_a_checkpoint_written_with_both_overlaps_loads_and_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writeback, "WRITEBACK", 64 << 10)
    monkeypatch.setattr(hashing, "OVERLAP_HASH_BYTES", 4096)
    torch.manual_seed(0)
    model = nn.Linear(256, 256)
    state = {"model": model, "optimizer": torch.optim.SGD(model.parameters(), lr=0.1)}
    with Checkpointer(tmp_path, config=CheckpointConfig()) as ckpt:
        assert ckpt.save(3, state, wait=True).ok  # type: ignore[union-attr]
    fresh = nn.Linear(256, 256)
    other = {"model": fresh, "optimizer": torch.optim.SGD(fresh.parameters(), lr=0.1)}
    with Checkpointer(tmp_path, config=CheckpointConfig()) as ckpt:
        assert ckpt.load_latest(other) == 3
        assert ckpt.last_load is not None and not ckpt.last_load.skipped
    assert torch.equal(fresh.weight, model.weight)


@needs_direct
@pytest.mark.parametrize("direct_writes", [True, False])
def test_a_checkpoint_written_around_the_page_cache_loads_and_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, direct_writes: bool
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 16 << 10)  # many buffers, a tail in every file
    real_pwrite, direct_calls = os.pwrite, [0]

    def counting(fd: int, data: Any, offset: int) -> int:
        direct_calls[0] += bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_DIRECT)
        return real_pwrite(fd, data, offset)

    monkeypatch.setattr(direct.os, "pwrite", counting)
    torch.manual_seed(0)
    model = nn.Linear(300, 300)  # 360 KB of weights: not a whole number of buffers
    state = {"model": model, "optimizer": torch.optim.SGD(model.parameters(), lr=0.1)}
    config = CheckpointConfig(direct_writes=direct_writes)
    with Checkpointer(tmp_path, config=config) as ckpt:
        assert ckpt.save(3, state, wait=True).ok  # type: ignore[union-attr]
    assert (direct_calls[0] > 0) == direct_writes
    fresh = nn.Linear(300, 300)
    other = {"model": fresh, "optimizer": torch.optim.SGD(fresh.parameters(), lr=0.1)}
    with Checkpointer(tmp_path, config=CheckpointConfig()) as ckpt:
        assert ckpt.load_latest(other) == 3  # every file's checksum verified
        assert ckpt.last_load is not None and not ckpt.last_load.skipped
    assert torch.equal(fresh.weight, model.weight) and torch.equal(fresh.bias, model.bias)


class _Calls(_Raw):
    """A sink that records the length of every write call."""

    def __init__(self, limit: int | None = None) -> None:
        super().__init__(limit)
        self.lengths: list[int] = []

    def write(self, b: Any) -> int:
        self.lengths.append(memoryview(b).nbytes)
        return super().write(b)


def test_a_large_write_reaches_the_file_in_pieces_hashed_as_one_stream(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(hashing, "SMALL_WRITE", 0)  # each call as it comes (gathering: below)
    monkeypatch.setattr(writeback, "WRITE_PIECE", 1000)
    monkeypatch.setattr(digest, "CHUNK", 4096)  # chunk boundaries inside pieces
    raw = _Calls()
    w = hashing._HashingWriter(raw, [], digest.DEFAULT)
    data = os.urandom(10_500)
    assert w.write(data) == len(data) and w.write(b"tail") == 4
    assert raw.lengths == [1000] * 10 + [500, 4]  # never more than WRITE_PIECE per call
    assert bytes(raw.buf) == data + b"tail" and w.nbytes == len(data) + 4
    path = tmp_path / "d.bin"
    path.write_bytes(data + b"tail")
    assert w.hasher.hexdigest() == digest.of_file(path, digest.DEFAULT)


def test_a_short_piece_ends_the_write_hashed_as_far_as_written(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hashing, "SMALL_WRITE", 0)  # each call as it comes (gathering: below)
    monkeypatch.setattr(writeback, "WRITE_PIECE", 100)
    raw = _Calls(limit=70)
    w = hashing._HashingWriter(raw, [], digest.DEFAULT)
    data = os.urandom(1000)
    assert w.write(data) == 70  # a short write is reported, not hidden by the next piece
    assert raw.lengths == [100] and w.nbytes == 70
    assert w.hasher.hexdigest() == digest.of(data[:70])


def test_a_refused_piece_is_recorded_and_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hashing, "SMALL_WRITE", 0)  # each call as it comes (gathering: below)
    monkeypatch.setattr(writeback, "WRITE_PIECE", 100)

    class Full(_Calls):
        def write(self, b: Any) -> int:
            if len(self.buf) >= 200:
                raise OSError(errno.ENOSPC, "No space left on device")
            return super().write(b)

    errors: list[OSError] = []
    w = hashing._HashingWriter(Full(), errors, digest.DEFAULT)
    with pytest.raises(OSError) as e:
        w.write(b"z" * 1000)
    assert e.value.errno == errno.ENOSPC and errors == [e.value] and w.nbytes == 200


def test_small_writes_are_gathered_and_the_file_its_tell_and_hash_unchanged() -> None:
    """torch.save writes each record's header and padding with a call of its own: those go
    on together, while `tell` (DCP records offsets with it) and the digest stay the stream's."""
    raw = _Calls()
    w = hashing._HashingWriter(raw, [], digest.DEFAULT)
    data = os.urandom(20_000)
    sizes = [1, 63, 700, 5] * 20
    done = 0
    for n in sizes:
        if done >= len(data):
            break
        piece = data[done : done + n]
        assert w.write(piece) == len(piece)
        done += len(piece)
        assert w.tell() == done
    big = os.urandom(100_000)  # at least SMALL_WRITE: goes on at once, after what was gathered
    assert w.write(big) == len(big)
    w.flush()
    assert bytes(raw.buf) == data[:done] + big and w.nbytes == done + len(big)
    assert raw.lengths == [done, len(big)]  # 80 small writes went on as one call
    assert w.hasher.hexdigest() == digest.of(data[:done] + big)


def test_a_short_write_of_gathered_bytes_is_an_error() -> None:
    errors: list[OSError] = []
    w = hashing._HashingWriter(_Calls(limit=10), errors, digest.DEFAULT)
    assert w.write(b"x" * 100) == 100  # gathered: told written
    with pytest.raises(OSError) as e:
        w.flush()
    assert e.value.errno == errno.EIO and errors == [e.value]
