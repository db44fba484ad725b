"""A cheap fingerprint of a replica's parameters, and the bit flip that tests it.

Data-parallel replicas hold bitwise-identical parameters after every optimizer step, so any
function of their bits must agree across replicas; one that disagrees names a replica whose
numbers went wrong without an error (silent data corruption). The fingerprint is, per tensor,
the wrapping int64 sum of its elements' bit patterns (float32 viewed as int32, bf16 as int16),
mixed in parameter order into one 64-bit number:

- one pass over the parameters' memory, no copy (`sum(dtype=int64)` accumulates in place), one
  device-to-host transfer for all tensors together;
- any single flipped bit changes its tensor's sum by +-2^b, so it is always caught; several
  flips can cancel only if they sum to zero modulo 2^64 within one tensor (not a cryptographic
  hash: it guards against hardware, not an adversary);
- finiteness of every parameter comes out of the same call.

    from nonstop.checkpoint.fingerprint import fingerprint
    fp, finite = fingerprint(model.parameters())

Used by nonstop.runtime.guards (lazily: the runtime imports no torch) and measured by
benchmarks/bench_guards.py.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any, Final

import torch

from nonstop.checkpoint.staging import local

MASK64: Final = (1 << 64) - 1
_MIX: Final = 0x9E3779B97F4A7C15  # an odd 64-bit constant: order matters, no tensor cancels another
_INT_VIEW: Final = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _bits(t: torch.Tensor) -> torch.Tensor:
    t = local(t).detach()
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    flat = t.reshape(-1) if t.is_contiguous() else t.contiguous().reshape(-1)
    if t.is_floating_point() or t.is_complex():
        return flat.view(_INT_VIEW[flat.element_size()])
    return flat


def fingerprint(tensors: Iterable[Any]) -> tuple[int, bool]:
    """(64-bit fingerprint of the tensors' bits in order, whether every value is finite)."""
    sums, finite = [], []
    with torch.no_grad():
        for t in tensors:
            if local(t).numel() == 0:
                continue
            sums.append(_bits(t).sum(dtype=torch.int64))
            if local(t).is_floating_point():
                finite.append(torch.isfinite(local(t)).all())
        if not sums:
            return 0, True
        host = torch.stack(sums).cpu().tolist()
        ok = bool(torch.stack(finite).all().cpu()) if finite else True
    acc = 0
    for i, s in enumerate(host):
        acc = ((acc ^ (s & MASK64)) * _MIX + i + 1) & MASK64
    return acc, ok


def flip_bit(tensors: Iterable[Any], *, bit: int = 12, index: int = 0) -> str:
    """Flip one bit of one element (element `index` of the first floating-point tensor, in
    place): the fault `bitflip@step=S,rank=R` injects. What it did, for the log."""
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
    return "no floating-point parameter to flip"


def state_sha256(state: Mapping[str, torch.Tensor]) -> str:
    """sha256 of a state dict's tensors (sorted by name; name, dtype, shape and bytes), for
    comparing two runs' final parameters bit for bit."""
    h = hashlib.sha256()
    for name in sorted(state):
        t = local(state[name]).detach().cpu().contiguous()
        h.update(f"{name}|{t.dtype}|{list(t.shape)}|".encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b"")
    return h.hexdigest()
