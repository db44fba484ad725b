"""Reading a verified checkpoint's tensors straight into the live state (reading.py)."""

from __future__ import annotations

import mmap
from pathlib import Path

import pytest
import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint import FileSystemWriter

from nonstop.checkpoint import LocalStorage, digest, reading
from nonstop.checkpoint.storage import RecordingWriter, SafeReader


@pytest.fixture(autouse=True, params=["populate", "older"])
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """`older`: a kernel without MADV_POPULATE_READ (before 5.14); the copy reads with pread."""
    if request.param == "older":
        monkeypatch.setattr(digest, "_can_populate", False)
    return str(request.param)


def _saved(tmp_path: Path, state: dict[str, torch.Tensor], *, ours: bool = True) -> SafeReader:
    storage = LocalStorage(tmp_path)
    writer = RecordingWriter(storage, "ck") if ours else FileSystemWriter(tmp_path / "ck")
    dcp.save(state, storage_writer=writer, no_dist=True)
    return SafeReader(storage, "ck")


def _state() -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return {
        "f32": torch.randn(5, 7, generator=g),
        "bf16": torch.randn(3, 4, generator=g).to(torch.bfloat16),
        "i64": torch.arange(11),
        "bool": torch.tensor([True, False, True]),
        "scalar": torch.tensor(2.5),
        "empty": torch.empty(0, 3),
    }


def test_plain_tensors_are_copied_straight_into_their_targets(tmp_path: Path) -> None:
    want = _state()
    reader = _saved(tmp_path, want)
    got = {k: torch.full_like(v, 0) if v.numel() else torch.empty_like(v) for k, v in want.items()}
    ptrs = {k: v.data_ptr() for k, v in got.items()}
    dcp.load(got, storage_reader=reader, no_dist=True)
    assert reader.direct == len(want) - 1  # none went through torch.load (DCP reads no empty)
    for k, v in want.items():
        assert torch.equal(got[k], v), k
        assert got[k].data_ptr() == ptrs[k], k  # loaded in place


def test_files_plain_dcp_wrote_load_the_same(tmp_path: Path) -> None:
    want = _state()  # torch.save's zip CRC-32s present: the direct reader ignores them
    reader = _saved(tmp_path, want, ours=False)
    got = {k: torch.empty_like(v) for k, v in want.items()}
    dcp.load(got, storage_reader=reader, no_dist=True)
    assert reader.direct == len(want) - 1
    assert all(torch.equal(got[k], v) for k, v in want.items())


def test_a_target_that_is_not_a_plain_contiguous_tensor_loads_the_way_dcp_does(
    tmp_path: Path,
) -> None:
    want = {"m": torch.randn(4, 3), "v": torch.randn(6)}
    reader = _saved(tmp_path, want)
    strided = torch.zeros(3, 4).t()  # 4x3, not contiguous: no byte copy into it
    got = {"m": strided, "v": torch.zeros(6)}
    dcp.load(got, storage_reader=reader, no_dist=True)
    assert reader.direct == 1
    assert torch.equal(got["m"], want["m"]) and torch.equal(got["v"], want["v"])


class _Recorded(mmap.mmap):
    """A real mapping that records the read-ahead it is asked for."""

    calls: list[tuple[int, int]]

    def madvise(self, option: int, start: int = 0, length: int = 0) -> None:
        assert option == mmap.MADV_WILLNEED
        self.calls.append((start, length))
        super().madvise(option, start, length)


def test_the_read_pass_asks_the_disk_for_the_pieces_ahead_once_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    piece = 16 * mmap.PAGESIZE
    monkeypatch.setattr(reading, "PIECE", piece)
    size = 40 * piece + 123
    path = tmp_path / "f"
    path.write_bytes(b"\1" * size)
    with path.open("rb") as f:
        mapped = _Recorded(f.fileno(), size, access=mmap.ACCESS_READ)
        mapped.calls = []
        ahead = reading._Ahead(mapped)
        for end in range(100, 4000, 100):  # small items at the front: one call for them all
            ahead(end)
        assert len(mapped.calls) == 1
        for end in range(piece, size + piece, piece):  # then piece after piece
            ahead(min(end, size))
            want = min(size, end + reading.AHEAD_PIECES * piece - piece // 4)
            assert sum(n for _, n in mapped.calls) + mapped.calls[0][0] >= want - mmap.PAGESIZE
        mapped.close()
    starts = [s for s, _ in mapped.calls]
    assert all(s % mmap.PAGESIZE == 0 for s in starts)
    assert all(a + n <= b for (a, n), b in zip(mapped.calls, starts[1:]))  # asked once each
    assert mapped.calls[-1][0] + mapped.calls[-1][1] == size  # up to the end, not past it
    assert len(mapped.calls) < 40  # in runs of pieces, not a call per piece
