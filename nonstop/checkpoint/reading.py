"""Reading a verified checkpoint's tensors straight into the live state.

DCP's FileSystemReader loads every tensor with `torch.load` into a fresh tensor and then copies
it into the target: a new allocation (its page faults were half of `dcp.load`'s CPU here) and a
second copy of the whole state. Once a checkpoint's files have passed their checksums, this
reader copies each tensor's bytes from the file's pages into the target itself, one copy:

    read_into(storage_data, plan, planner, open_file)  # instead of FileSystemReader.read_data

Each item in a `.distcp` file is a `torch.save` zip of one tensor. The zip's directory gives the
data record's place; its `data.pkl` is read by a small unpickler that knows only what
`torch.save` of one plain tensor writes (`_rebuild_tensor_v2`, a storage type, an OrderedDict)
and never calls anything. Whatever is not exactly a whole, contiguous, same-dtype tensor on CPU
(a resharded slice, a transformed stream, another layout) is loaded the way DCP does it
(`torch.load(weights_only=True)`, narrow, copy), so the result is the same either way.
"""

from __future__ import annotations

import functools
import io
import mmap
import os
import pickle
import struct
import zipfile
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import IO, Any, cast

import numpy as np
import torch
from torch.distributed._shard._utils import narrow_tensor_by_index
from torch.distributed.checkpoint.planner import LoadItemType, LoadPlan, LoadPlanner

from nonstop.checkpoint import digest

_DTYPES = {
    "FloatStorage": torch.float32,
    "DoubleStorage": torch.float64,
    "HalfStorage": torch.float16,
    "BFloat16Storage": torch.bfloat16,
    "LongStorage": torch.int64,
    "IntStorage": torch.int32,
    "ShortStorage": torch.int16,
    "CharStorage": torch.int8,
    "ByteStorage": torch.uint8,
    "BoolStorage": torch.bool,
}


class NotPlain(Exception):
    """The item is not a plain tensor this reader copies directly: DCP's way loads it."""


@dataclass(frozen=True)
class _Storage:
    key: str
    dtype: torch.dtype
    numel: int


@dataclass(frozen=True)
class _Saved:
    storage: _Storage
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]


def _rebuild(storage: Any, offset: Any, size: Any, stride: Any, *rest: Any) -> _Saved:
    if not isinstance(storage, _Storage) or not isinstance(offset, int):
        raise NotPlain("not a tensor over one storage")
    return _Saved(storage, offset, tuple(size), tuple(stride))


class _Unpickler(pickle.Unpickler):
    """Reads torch.save's data.pkl of one tensor into a `_Saved`; refuses anything else."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        if module == "torch" and name in _DTYPES:
            return name
        raise NotPlain(f"{module}.{name}")

    def persistent_load(self, pid: Any) -> _Storage:
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise NotPlain("unknown persistent id")
        _, kind, key, location, numel = pid
        if kind not in _DTYPES or location != "cpu" or not isinstance(numel, int):
            raise NotPlain(f"storage {kind} on {location}")
        return _Storage(str(key), _DTYPES[kind], numel)


class _View(io.RawIOBase):
    """A seekable read-only stream over a slice of a buffer (no copy until read)."""

    def __init__(self, buf: memoryview) -> None:
        self._buf, self._pos = buf, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, pos: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: len(self._buf)}[whence]
        self._pos = max(0, base + pos)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def readinto(self, b: Any) -> int:
        out = memoryview(b).cast("B")
        n = max(0, min(len(out), len(self._buf) - self._pos))
        out[:n] = self._buf[self._pos : self._pos + n]
        self._pos += n
        return n


def _record(item: memoryview, info: zipfile.ZipInfo) -> tuple[int, int]:
    """(start, end) of a stored record's bytes in `item`, from its local header. Not through
    zipfile's reader: checkpoint files carry no zip CRC-32 (hashing.py), which it would check."""
    if info.compress_type != zipfile.ZIP_STORED:
        raise NotPlain("compressed record")
    head = bytes(item[info.header_offset : info.header_offset + 30])
    if len(head) != 30 or head[:4] != b"PK\x03\x04":
        raise NotPlain("no local header")
    name_len, extra_len = struct.unpack_from("<HH", head, 26)
    start = info.header_offset + 30 + name_len + extra_len
    if start + info.file_size > len(item):
        raise NotPlain("record past the item")
    return start, start + info.file_size


def _data_range(item: memoryview) -> tuple[_Saved, int]:
    """The saved tensor's description and where its storage's bytes start in `item`."""
    with zipfile.ZipFile(_View(item)) as z:
        infos = {i.filename: i for i in z.infolist()}
    pkl = [n for n in infos if n.endswith("/data.pkl") or n == "data.pkl"]
    if len(pkl) != 1:
        raise NotPlain("no single data.pkl")
    prefix = pkl[0][: -len("data.pkl")]
    if prefix + "byteorder" in infos:
        a, b = _record(item, infos[prefix + "byteorder"])
        if bytes(item[a:b]) != b"little":
            raise NotPlain("big-endian data")
    a, b = _record(item, infos[pkl[0]])
    saved = _Unpickler(io.BytesIO(bytes(item[a:b]))).load()
    if not isinstance(saved, _Saved):
        raise NotPlain("not one tensor")
    info = infos.get(f"{prefix}data/{saved.storage.key}")
    if info is None:
        raise NotPlain("no data record")
    itemsize = torch.empty((), dtype=saved.storage.dtype).element_size()
    if info.file_size != saved.storage.numel * itemsize:
        raise NotPlain("data record size")
    return saved, _record(item, info)[0]


def _contiguous_strides(size: tuple[int, ...]) -> tuple[int, ...]:
    out, acc = [], 1
    for d in reversed(size):
        out.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(out))


PIECE = 64 << 20
"""Bytes of a tensor copied at a time, each piece's pages read in first (`_Ensure`)."""


AHEAD_PIECES = 4
"""Pieces of a file asked of the disk ahead of the one read in (`_Ahead`)."""


class _Ahead:
    """How far into one mapped file the disk was asked to read (`MADV_WILLNEED`), shared by
    its items: each read-in first asks for the file's next `AHEAD_PIECES` pieces, so the disk
    has reads queued while this piece is copied, as the checksums' read-ahead does
    (digest.AHEAD). It matters where nothing else reads ahead: a load without verification
    (measured on a 4 GB cold load, 8 alternated pairs: 3.07 s against 3.20 s, 0.96x; one
    piece ahead 0.98x); a verified load, whose hashing threads read the file ahead of the copy,
    is unchanged (2.49 s against 2.53 s). docs/checkpoint.md, "A disk that cannot read"."""

    def __init__(
        self, mapped: mmap.mmap | None, copied: Callable[[int], None] | None = None
    ) -> None:
        self.mapped, self.upto, self.copied = mapped, 0, copied

    def __call__(self, end: int) -> None:
        """Ask for the file's bytes from `end` on, those not asked before (and tell the
        checksums computed at the same time, `copied`, that the copy is at `end`)."""
        if self.copied is not None:
            self.copied(end)
        if self.mapped is None or not hasattr(mmap, "MADV_WILLNEED"):
            return
        page = mmap.PAGESIZE  # madvise wants a page boundary; the asked end stays on one
        lo = max(end, self.upto) // page * page
        hi = min(len(self.mapped), -(-(end + AHEAD_PIECES * PIECE) // page) * page)
        if hi <= self.upto or (hi - lo < PIECE // 4 and hi < len(self.mapped)):
            return  # asked already, or all but a sliver: not worth a call per small item
        try:
            self.mapped.madvise(mmap.MADV_WILLNEED, lo, hi - lo)
        except OSError:
            pass  # a hint: the read-in reads the pages all the same
        self.upto = hi


class _Ensure:
    """Reads an item's bytes [lo, hi) into memory before they are touched: a page the disk
    cannot read is then an OSError(EIO), where touching it in the mapping is SIGBUS
    (digest.populate; tests/checkpoint/test_ckpt_bad_sector.py). On a kernel without
    MADV_POPULATE_READ (before 5.14) the bytes are read with `pread` instead: into the target
    itself for a tensor's data (`copy`), into a scratch buffer for the rest, which leaves
    them in the page cache for the mapping to find. Before each read-in the file's next pieces
    are asked of the disk (`_Ahead`)."""

    def __init__(
        self, mapped: mmap.mmap | None, base: int, path: str, fd: int, ahead: _Ahead
    ) -> None:
        self.mapped, self.base, self.path, self.fd, self.ahead = mapped, base, path, fd, ahead

    def __call__(self, lo: int, hi: int) -> None:
        self.ahead(self.base + hi)
        if self.mapped is not None and not digest.populate(
            self.mapped, self.base + lo, hi - lo, self.path
        ):
            scratch = bytearray(min(hi - lo, 8 << 20))
            for at in range(lo, hi, len(scratch) or 1):
                self._pread(memoryview(scratch)[: min(len(scratch), hi - at)], at)

    def copy(self, dst: np.ndarray, src: np.ndarray, lo: int, hi: int, start: int) -> None:
        """dst[lo:hi] = the item's bytes at [start + lo, start + hi) (src is their mapping)."""
        self.ahead(self.base + start + hi)
        if self.mapped is None or digest.populate(
            self.mapped, self.base + start + lo, hi - lo, self.path
        ):
            dst[lo:hi] = src[lo:hi]
        else:
            self._pread(memoryview(cast("bytearray", dst[lo:hi])), start + lo)

    def _pread(self, into: memoryview, at: int) -> None:
        done = 0
        while done < len(into):
            try:
                n = os.preadv(self.fd, [into[done:]], self.base + at + done)
            except OSError as e:
                first = self.base + at + done
                raise OSError(
                    e.errno,
                    f"{self.path}: bytes {first}-{first + len(into) - done} cannot be "
                    f"read ({e.strerror})",
                ) from e
            if n <= 0:
                raise OSError(f"{self.path}: shorter than its items")
            done += n


def _copy_direct(item: memoryview, req: Any, planner: LoadPlanner, ensure: _Ensure) -> bool:
    """Copy a whole plain tensor's bytes from `item` into its target; False if not plain."""
    ensure(0, min(len(item), 1 << 16))  # the zip headers and the pickle, at the front
    try:
        saved, start = _data_range(item)
    except Exception:  # anything unexpected in the item: DCP's own way reads it, or says why
        return False
    target = planner.resolve_tensor(req).detach()
    whole = list(req.storage_offsets) == [0] * len(saved.size) and list(req.lengths) == list(
        saved.size
    )
    if not (
        whole
        and type(target) is torch.Tensor  # not a DTensor or another subclass
        and not (target.is_conj() or target.is_neg())
        and saved.offset == 0
        and saved.stride == _contiguous_strides(saved.size)
        and target.device.type == "cpu"
        and target.dtype == saved.storage.dtype
        and tuple(target.size()) == saved.size
        and target.is_contiguous()
    ):
        return False
    nbytes = target.numel() * target.element_size()
    if nbytes > saved.storage.numel * target.element_size():
        return False
    if nbytes:
        src = np.frombuffer(item, dtype=np.uint8, count=nbytes, offset=start)
        dst = target.reshape(-1).view(torch.uint8).numpy()
        for lo in range(0, nbytes, PIECE):  # each piece read in, then copied
            ensure.copy(dst, src, lo, min(nbytes, lo + PIECE), start)
    planner.commit_tensor(req, target)
    return True


def _copy_like_dcp(item: memoryview, req: Any, planner: LoadPlanner) -> None:
    stream = cast("IO[bytes]", _View(item))  # a RawIOBase: what torch.load reads from
    tensor = torch.load(stream, map_location="cpu", weights_only=True)
    tensor = narrow_tensor_by_index(tensor, req.storage_offsets, req.lengths)
    target = planner.resolve_tensor(req).detach()
    if target.size() != tensor.size():
        raise RuntimeError(f"{req.storage_index}: saved {tensor.size()}, target {target.size()}")
    target.copy_(tensor)
    planner.commit_tensor(req, target)


def read_into(
    storage_data: dict[Any, Any],
    plan: LoadPlan,
    planner: LoadPlanner,
    open_file: Callable[[str], AbstractContextManager[IO[bytes]]],
    *,
    pace: digest.Pace | None = None,
) -> int:
    """Load `plan`'s items from their files (opened by relative path); the number of tensors
    copied directly. Every file must be mappable (a local file). `pace`: checksums computed
    at the same time, told how far each file's copy is (digest.Pace)."""
    by_file: dict[str, list[Any]] = {}
    for req in plan.items:
        by_file.setdefault(storage_data[req.storage_index].relative_path, []).append(req)
    direct = 0
    for rel, reqs in by_file.items():
        with open_file(rel) as f:
            size = f.seek(0, io.SEEK_END)
            mapped = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_READ) if size else None
            whole = memoryview(mapped) if mapped is not None else memoryview(b"")
            copied = None
            if pace is not None:
                copied = functools.partial(pace.copying, digest.Pace.ident(f.fileno()))
            ahead = _Ahead(mapped, copied)
            try:
                for req in sorted(reqs, key=lambda r: storage_data[r.storage_index].offset):
                    info = storage_data[req.storage_index]
                    with whole[info.offset : info.offset + info.length] as item:
                        if len(item) != info.length:
                            raise OSError(f"{rel}: shorter than its items")
                        ensure = _Ensure(mapped, info.offset, rel, f.fileno(), ahead)
                        if req.type == LoadItemType.BYTE_IO:
                            ensure(0, len(item))
                            planner.load_bytes(req, io.BytesIO(bytes(item)))
                        elif _copy_direct(item, req, planner, ensure):
                            direct += 1
                        else:
                            ensure(0, len(item))
                            _copy_like_dcp(item, req, planner)
            finally:
                if copied is not None:
                    copied(size)  # done with the file (or failed): its hash runs free
                whole.release()
                if mapped is not None:
                    try:
                        mapped.close()
                    except BufferError:  # a view outlived an error: the collector closes it
                        pass
    return direct
