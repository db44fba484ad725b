"""A cheap fingerprint of a replica's parameters, and the bit flip that tests it.

Data-parallel replicas hold bitwise-identical parameters after every optimizer step, so any
function of their bits must agree across replicas; one that disagrees names a replica whose
numbers went wrong without an error (silent data corruption). The fingerprint is, per tensor,
the wrapping sum of its bytes read as 64-bit words (int64), mixed in parameter order into one
64-bit number:

- two plain reductions over the parameters' memory, no copy: the int64 word sum, and the
  tensor's own `sum()`, whose finiteness says whether every element is finite (NaN and Inf
  propagate through a sum; an overflow to Inf would need parameters near 1e29). Both run at the
  speed of a plain `sum()`: an int32-to-int64 widening sum or `isfinite().all()` is 15-40x
  slower on CPU (measured: benchmarks/bench_guards.py). One device-to-host transfer in all;
- any single flipped bit changes its word's sum by +-2^b, so it is always caught; several flips
  can cancel only if they sum to zero modulo 2^64 within one tensor (not a cryptographic hash:
  it guards against hardware, not an adversary). Tensors whose size is not a multiple of 8
  bytes are summed as their own integer width, widened (slower, and only small ones are).

    from nonstop.runtime.fingerprint import fingerprint
    fp, finite = fingerprint(model.parameters())

Used by nonstop.runtime.guards (lazily: the runtime imports no torch at import), by the demo
workload to compare final states, and measured by benchmarks/bench_guards.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any, Final

import torch


def local(t: Any) -> torch.Tensor:
    """The tensor itself, or a DTensor's local shard (as nonstop.checkpoint.staging.local)."""
    return t.to_local() if hasattr(t, "to_local") else t


MASK64: Final = (1 << 64) - 1
_MIX: Final = 0x9E3779B97F4A7C15  # an odd 64-bit constant: order matters, no tensor cancels another
_INT_VIEW: Final = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _word_sum(t: torch.Tensor) -> torch.Tensor:
    """The wrapping int64 sum of the tensor's bytes as 64-bit words (or, when its size is not a
    multiple of 8 bytes, of its elements' bit patterns widened to int64)."""
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    flat = t.reshape(-1) if t.is_contiguous() else t.contiguous().reshape(-1)
    if (flat.numel() * flat.element_size()) % 8 == 0:
        try:
            return flat.view(torch.int64).sum()
        except RuntimeError:  # an unaligned storage offset: the widening path below
            pass
    ints = flat.view(_INT_VIEW[flat.element_size()]) if flat.is_floating_point() else flat
    return ints.sum(dtype=torch.int64)


def fingerprint(tensors: Iterable[Any]) -> tuple[int, bool]:
    """(64-bit fingerprint of the tensors' bits in order, whether every value is finite)."""
    sums, values = [], []
    with torch.no_grad():
        for t in tensors:
            x = local(t).detach()
            if x.numel() == 0:
                continue
            sums.append(_word_sum(x))
            if x.is_floating_point():
                values.append(x.sum().float())
        if not sums:
            return 0, True
        host = torch.stack(sums).cpu().tolist()
        ok = bool(torch.isfinite(torch.stack(values)).all().cpu()) if values else True
    return mix(host), ok


def word_sums(tensors: Iterable[Any]) -> torch.Tensor | None:
    """The per-tensor word sums `fingerprint` mixes, left on the tensors' device (no
    synchronization): a step's fingerprint kept for later (`mix(sums.tolist())`), as the
    guards' per-step history does. None when there is nothing to sum."""
    with torch.no_grad():
        sums = [_word_sum(local(t).detach()) for t in tensors if local(t).numel()]
        return torch.stack(sums) if sums else None


def mix(sums: Iterable[int]) -> int:
    """The 64-bit fingerprint of per-tensor word sums, in order."""
    acc = 0
    for i, s in enumerate(sums):
        acc = ((acc ^ (int(s) & MASK64)) * _MIX + i + 1) & MASK64
    return acc


def flip_bit(tensors: Iterable[Any], *, bit: int = 12, index: int = 0) -> str | None:
    """Flip one bit of one element (element `index` of the first floating-point tensor, in
    place): the fault `bitflip@step=S,rank=R` injects. What it did, for the log; None when no
    tensor has such an element (nothing was flipped)."""
    for t in tensors:
        x = local(t)
        if x.is_floating_point() and x.numel() > index:
            with torch.no_grad():
                flat = x.detach().view(-1).view(_INT_VIEW[x.element_size()])
                before = float(x.detach().view(-1)[index])
                nbits = 8 * x.element_size()
                mask = 1 << min(bit, nbits - 1)
                flat[index] ^= mask - (1 << nbits) if mask >> (nbits - 1) else mask  # signed
                after = float(x.detach().view(-1)[index])
            return f"bit {bit} of element {index}: {before!r} -> {after!r}"
    return None


def state_sha256(state: Mapping[str, torch.Tensor]) -> str:
    """sha256 of a state dict's tensors (sorted by name; name, dtype, shape and bytes), for
    comparing two runs' final parameters bit for bit."""
    h = hashlib.sha256()
    for name in sorted(state):
        t = local(state[name]).detach().cpu().contiguous()
        h.update(f"{name}|{t.dtype}|{list(t.shape)}|".encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    return h.hexdigest()
