"""Writes straight from the staged memory: a tensor of `STAGED_DIRECT` bytes or more is staged
into page-aligned memory, laid out at a 4 KiB-aligned file offset, and its aligned middle is
written with O_DIRECT from that memory, no copy into the writer's buffers; misaligned sources,
refused direct writes and failures take or report what the buffered path does
(docs/checkpoint.md, "Writes from the staged memory")."""

from __future__ import annotations

import errno
import mmap
import os
import threading
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.distributed.checkpoint as dcp
from support.direct_io import refuse_o_direct
from torch import nn
from torch.distributed.checkpoint import FileSystemReader

from nonstop.checkpoint import (
    CheckpointConfig,
    Checkpointer,
    FaultyStorage,
    LocalStorage,
    dcp_io,
    digest,
    direct,
    layout,
)

needs_direct = pytest.mark.skipif(not direct._O_DIRECT, reason="no O_DIRECT on this platform")
MB = 1 << 20


def _state(seed: int = 0) -> dict[str, Any]:
    """Two 16 MiB matrices with AdamW's two states each (96 MiB) and small tensors beside."""
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(2048, 2048), nn.Linear(2048, 2048), nn.LayerNorm(2048))
    opt = torch.optim.AdamW(model.parameters())
    model(torch.randn(2, 2048)).sum().backward()
    opt.step()
    return {"model": model, "optimizer": opt}


def _save(root: Path, state: dict[str, Any], step: int = 1) -> tuple[int, int]:
    """Save `state` asynchronously (staged); (staged, buffered) bytes of its direct files."""
    s0, b0 = direct.COUNTS.staged, direct.COUNTS.buffered
    with Checkpointer(root, config=CheckpointConfig()) as c:
        c.save(step, state)
        out = c.wait()
        assert out is not None and out.ok, out
    return direct.COUNTS.staged - s0, direct.COUNTS.buffered - b0


def _data(root: Path, step: int = 1) -> Path:
    return root / "checkpoints" / f"step-{step}" / "__0_0.distcp"


def _gaps(root: Path) -> int:
    """Bytes of the data file that no record covers (padding before aligned records)."""
    meta = FileSystemReader(root / "checkpoints" / "step-1").read_metadata()
    end, gaps = 0, 0
    for info in sorted(meta.storage_data.values(), key=lambda i: i.offset):
        gaps += info.offset - end
        end = info.offset + info.length
    return gaps + _data(root).stat().st_size - end


def _equal(a: dict[str, Any], b: dict[str, Any]) -> bool:
    sa, sb = a["model"].state_dict(), b["model"].state_dict()
    oa, ob = a["optimizer"].state_dict()["state"], b["optimizer"].state_dict()["state"]
    return all(torch.equal(sa[k], sb[k]) for k in sa) and all(
        torch.equal(oa[i][k], ob[i][k]) for i in oa for k in oa[i]
    )


@needs_direct
def test_most_of_a_large_state_goes_straight_from_the_staged_memory_and_loads_everywhere(
    tmp_path: Path,
) -> None:
    state = _state()
    staged, buffered = _save(tmp_path, state)
    assert staged >= 95 * MB and buffered < 2 * MB  # the counter: nearly all direct
    meta = FileSystemReader(tmp_path / "checkpoints" / "step-1").read_metadata()
    infos = list(meta.storage_data.values())
    large = [i for i in infos if i.length > direct.STAGED_DIRECT]
    assert len(large) == 6 and all(i.offset % layout.ALIGN == 0 for i in large)
    # stock dcp.load reads it
    fresh = _state(seed=1)
    flat = {f"model/{k}": torch.empty_like(v) for k, v in fresh["model"].state_dict().items()}
    dcp.load(flat, storage_reader=FileSystemReader(tmp_path / "checkpoints/step-1"), no_dist=True)
    for k, v in state["model"].state_dict().items():
        assert torch.equal(flat[f"model/{k}"], v)
    # and nonstop's verified load (every file's checksum checked first)
    with Checkpointer(tmp_path, config=CheckpointConfig()) as c:
        assert c.load_latest(fresh) == 1
        assert c.last_load is not None and not c.last_load.skipped
    assert _equal(fresh, state)


@needs_direct
def test_the_file_is_byte_for_byte_what_the_buffers_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state()
    staged, _ = _save(tmp_path / "staged", state)
    monkeypatch.setattr(direct._DirectWriter, "takes_staged", lambda self, view: False)
    staged_off, _ = _save(tmp_path / "buffered", state)
    assert staged > 90 * MB and staged_off == 0
    assert _data(tmp_path / "staged").read_bytes() == _data(tmp_path / "buffered").read_bytes()


@needs_direct
def test_without_it_the_tensors_are_the_same_and_the_layout_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state()
    _save(tmp_path / "on", state)
    monkeypatch.setattr(direct, "STAGED_DIRECT", 0)
    staged, _ = _save(tmp_path / "off", state)
    assert staged == 0
    assert _gaps(tmp_path / "off") == 0 and _gaps(tmp_path / "on") > 0  # no padding, as before
    on, off = _data(tmp_path / "on").stat().st_size, _data(tmp_path / "off").stat().st_size
    assert 0 < on - off < 6 * 48 << 10  # the padding: under 48 KiB per large tensor
    fresh = _state(seed=1)
    with Checkpointer(tmp_path / "off", config=CheckpointConfig()) as c:
        assert c.load_latest(fresh) == 1
    assert _equal(fresh, state)


def test_the_alignment_switch_reaches_only_the_writing_thread_until_its_file_ends() -> None:
    assert layout.aligning_transforms(1) is not None  # installs the switch
    seen: dict[str, int] = {}
    layout._THREAD.align = layout.ALIGN

    def other() -> None:
        seen["other"] = torch.serialization._get_storage_alignment()

    t = threading.Thread(target=other)
    t.start()
    t.join()
    seen["writer"] = torch.serialization._get_storage_alignment()
    layout.reset()
    seen["after"] = torch.serialization._get_storage_alignment()
    assert seen == {"other": 64, "writer": layout.ALIGN, "after": 64}


@needs_direct
def test_an_aligned_record_says_so_and_torch_load_reads_it_alone(tmp_path: Path) -> None:
    import io

    state = _state()
    _save(tmp_path, state)
    meta = FileSystemReader(tmp_path / "checkpoints" / "step-1").read_metadata()
    data = _data(tmp_path).read_bytes()
    weight = state["model"].state_dict()["0.weight"]
    for index, info in meta.storage_data.items():
        if index.fqn == "model.0.weight" or index.fqn == "model/0.weight":
            record = data[info.offset : info.offset + info.length]
            break
    else:
        raise AssertionError(sorted(i.fqn for i in meta.storage_data))
    assert record.startswith(b"PK\x03\x04")  # the record itself starts at the recorded offset
    assert torch.equal(torch.load(io.BytesIO(record), weights_only=True), weight)
    reader = torch._C.PyTorchFileReader(io.BytesIO(record))
    assert int(bytes(reader.get_record(".storage_alignment"))) == layout.ALIGN


def _aligned_view(nbytes: int, shift: int = 0) -> tuple[mmap.mmap, memoryview]:
    buf = mmap.mmap(-1, nbytes + shift)
    buf.write(os.urandom(nbytes + shift))
    return buf, memoryview(buf)[shift:]


def _write(path: Path, parts: list[Any], *, staged: bool = True) -> direct._DirectWriter:
    """Write `parts` through a `_HashingWriter` over `LocalStorage.open_write`, as DCP does;
    the writer under it, and its hash equals the file's."""
    fs = dcp_io._StorageFS(LocalStorage(path.parent))
    with fs.create_stream(path, "wb") as w:
        raw = w._raw
        for p in parts:
            w.write(p)
    assert fs.written[path.as_posix()]["digest"] == digest.of_file(path, digest.DEFAULT)
    return raw  # type: ignore[no-any-return]


@needs_direct
@pytest.mark.parametrize("shift", [0, 100])
def test_a_source_agreeing_with_its_offset_modulo_4k_goes_direct_between_head_and_tail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shift: int
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 1 * MB)
    head = os.urandom(100 + shift)  # a file offset of 100 + shift before the large write
    _buf, view = _aligned_view(5 * MB + 777, shift=100 + shift)  # same address modulo 4096
    raw = _write(tmp_path / "f.bin", [head, view, b"end"])
    assert (tmp_path / "f.bin").read_bytes() == head + bytes(view) + b"end"
    start = 100 + shift
    middle = (5 * MB + 777 - (-start % 4096)) // 4096 * 4096
    assert raw.staged_bytes == middle and raw.buffered_bytes == len(head) + 5 * MB + 780 - middle


@needs_direct
def test_a_misaligned_source_goes_through_the_buffers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 1 * MB)
    _buf, view = _aligned_view(5 * MB, shift=16)  # file offset 0, address a page + 16
    raw = _write(tmp_path / "f.bin", [view])
    assert (tmp_path / "f.bin").read_bytes() == bytes(view)
    assert raw.staged_bytes == 0 and raw.direct_bytes == 5 * MB


@needs_direct
@pytest.mark.parametrize("refused_at", ["flag", "write"])
def test_a_filesystem_refusing_direct_writes_gets_every_byte_through_the_page_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refused_at: str
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 1 * MB)
    refuse_o_direct(monkeypatch, refused_at)
    _buf, view = _aligned_view(5 * MB + 10)
    raw = _write(tmp_path / "f.bin", [view, b"x" * 5000, view])
    assert (tmp_path / "f.bin").read_bytes() == bytes(view) + b"x" * 5000 + bytes(view)
    assert raw.staged_bytes == 0 and raw.direct_bytes == 0


def test_a_checkpoint_on_tmpfs_saves_and_loads(tmp_path: Path) -> None:
    """tmpfs: O_DIRECT refused (older kernels) or accepted (6.6 and later); either way."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or not os.access(shm, os.W_OK):
        pytest.skip("no writable /dev/shm")
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="nonstop-test-", dir=shm))
    try:
        state = _state()
        _save(root, state)
        fresh = _state(seed=1)
        with Checkpointer(root, config=CheckpointConfig()) as c:
            assert c.load_latest(fresh) == 1
        assert _equal(fresh, state)
    finally:
        import shutil

        shutil.rmtree(root, ignore_errors=True)


@needs_direct
@pytest.mark.parametrize("how", ["enospc", "short"])
def test_a_failing_direct_write_from_the_staged_memory_is_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    monkeypatch.setattr(direct, "DIRECT_CHUNK", 1 * MB)
    real_pwrite, calls = os.pwrite, [0]

    def failing(fd: int, data: Any, offset: int) -> int:
        calls[0] += 1
        if calls[0] == 3:  # after the first (the probe): one in flight on the pool
            if how == "short":
                return 0
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_pwrite(fd, data, offset)

    monkeypatch.setattr(direct.os, "pwrite", failing)
    _buf, view = _aligned_view(6 * MB)
    with pytest.raises(OSError) as e:
        _write(tmp_path / "f.bin", [view])
    assert e.value.errno == (errno.ENOSPC if how == "enospc" else errno.EIO)


@needs_direct
def test_a_full_disk_while_writing_the_staged_tensors_fails_the_save(tmp_path: Path) -> None:
    storage = FaultyStorage(tmp_path / "checkpoints")
    state = _state()
    with Checkpointer(tmp_path, config=CheckpointConfig(), storage=storage) as c:
        storage.arm(fail_after_bytes=40 * MB, err=errno.ENOSPC)  # inside the second matrix
        c.save(1, state)
        out = c.wait()
        assert out is not None and not out.ok
        assert storage.failures == 1
        storage.heal()
        c.save(2, state)
        again = c.wait()
        assert again is not None and again.ok
    assert not (tmp_path / "checkpoints" / "step-1").exists()
    fresh = _state(seed=1)
    with Checkpointer(tmp_path, config=CheckpointConfig()) as c:
        assert c.load_latest(fresh) == 2
    assert _equal(fresh, state)
