"""Where a checkpoint file's large tensors land: their bytes at 4 KiB-aligned file offsets.

DCP writes each tensor of a rank's file with torch.save at the file's current end and records
(offset, length) of that record. For a tensor of `min_bytes` or more, `AligningTransforms`
(called by DCP right after it has recorded the offset, before torch.save starts) first pads
the file with zeros up to a multiple of `ALIGN`, and makes that torch.save align its records
to `ALIGN` within the record (torch's `storage_alignment`, switched per thread like its CRC:
the user's own torch.save is not touched). The tensor's bytes then start at an aligned file
offset, where `direct._DirectWriter` can hand them to the disk straight from the staged
memory (docs/checkpoint.md, "Writes from the staged memory"). `place` moves each such record's
recorded offset past its padding, so the zeros lie between records, read by no one, and the
file stays what stock `dcp.load` reads; the file's checksum covers them like every byte.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import torch
from torch.distributed.checkpoint import filesystem as _fs
from torch.distributed.checkpoint.planner import WriteItemType

ALIGN = 4096
"""O_DIRECT's alignment on this host's disks (logical block size 512 or 4096) and the page
size: a direct write's file offset, length and memory all must be multiples of it."""

_THREAD = threading.local()
_Transforms: Any = getattr(_fs, "_StorageWriterTransforms", None)
_Base: Any = _Transforms if _Transforms is not None else object


def _install_alignment_switch() -> bool:
    """Make torch.save read its storage alignment from this thread's `_THREAD.align` where
    set (else torch's setting): it reads it twice, to align and to record the alignment in
    the record's `.storage_alignment`, which torch.load may use. False where this torch has
    no such setting."""
    ser = torch.serialization
    original = getattr(ser, "_get_storage_alignment", None)
    if original is None:
        return False
    if getattr(original, "_nonstop_switch", False):
        return True

    def _get_storage_alignment() -> int:
        align = getattr(_THREAD, "align", None)
        return int(original()) if align is None else int(align)

    _get_storage_alignment._nonstop_switch = True  # type: ignore[attr-defined]
    ser._get_storage_alignment = _get_storage_alignment
    return True


def reset() -> None:
    """End this thread's alignment (at the end of each file DCP writes): its next torch.save,
    outside a checkpoint's records, aligns as torch is set to."""
    _THREAD.align = None


def _tensor_bytes(item: Any) -> int:
    if item.type == WriteItemType.BYTE_IO or item.tensor_data is None:
        return 0
    n = torch._utils._element_size(item.tensor_data.properties.dtype)
    for s in item.tensor_data.size:
        n *= s
    return int(n)


def aligning_transforms(min_bytes: int) -> Any:
    """DCP's stream transforms (none) that align tensors of `min_bytes` or more; None where
    this torch's DCP or torch.save lacks what that needs (the files are then as before)."""
    if min_bytes <= 0 or _Transforms is None or not _install_alignment_switch():
        return None
    return AligningTransforms(min_bytes)


class AligningTransforms(_Base):
    """DCP's stream transforms with no extension, padding before each large tensor's record."""

    def __init__(self, min_bytes: int) -> None:
        super().__init__(None)
        self.min_bytes = min_bytes
        self.moved: dict[Any, tuple[int, int]] = {}  # item index -> (DCP's offset, pad)
        self._lock = threading.Lock()

    def transform_save_stream(self, write_item: Any, raw_stream: Any) -> Any:
        _THREAD.align = None
        if _tensor_bytes(write_item) >= self.min_bytes:
            start = raw_stream.tell()  # what DCP recorded, nothing written since
            pad = -start % ALIGN
            if pad:
                raw_stream.write(bytes(pad))
            with self._lock:
                self.moved[write_item.index] = (start, pad)
            _THREAD.align = ALIGN
        return super().transform_save_stream(write_item, raw_stream)

    def place(self, results: list[Any]) -> list[Any]:
        """DCP's write results with each aligned record starting after its padding."""
        out = []
        for r in results:
            with self._lock:
                moved = self.moved.pop(r.index, None)
            if moved is None:
                out.append(r)
                continue
            start, pad = moved
            info = r.storage_data
            if info.offset != start:  # this DCP recorded the offset elsewhere: refuse
                raise RuntimeError(
                    f"DCP recorded {r.index.fqn} at offset {info.offset}, not where its "
                    f"write began ({start}): nonstop's aligned layout does not fit this "
                    "torch; set nonstop.checkpoint.direct.STAGED_DIRECT = 0 and report it"
                )
            info = dataclasses.replace(info, offset=start + pad, length=info.length - pad)
            out.append(
                dataclasses.replace(r, size_in_bytes=r.size_in_bytes - pad, storage_data=info)
            )
        return out
