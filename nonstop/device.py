"""The device nonstop's own GPU work runs on: the rank's, never torch's *current* device.

`torch.cuda.current_device()` is per thread and is cuda:0 until someone calls `set_device`. A
script may place its model on `cuda:LOCAL_RANK` (or pass `device_id=` to init_process_group)
without ever calling `set_device`; nonstop's all-reduces, CUDA events and hang injector would
then run on GPU 0 for every rank: a CUDA context and memory on a neighbour's GPU, and an NCCL
collective on the wrong device (a hang or an error). So the device is chosen explicitly, in
this order: the CUDA tensors at hand (the parameters), the process group's bound device, the
rank's LOCAL_RANK, and only where LOCAL_RANK is not a visible device (one GPU per process
through CUDA_VISIBLE_DEVICES) the current device. A gloo group, or one with gloo for CPU
tensors ("cpu:gloo,cuda:nccl"), gets the CPU: no GPU work at all (docs/gpu.md).

Imports no torch at module level (the runtime is imported by every rank).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from nonstop import envvars


def pick(
    *,
    backend: str,
    tensor_devices: Iterable[str] = (),
    bound: str | None = None,
    local_rank: int = 0,
    device_count: int = 0,
    current: int = 0,
) -> str:
    """The device, as torch spells it ("cpu", "cuda:3"), for a collective of `backend`.
    Pure: the decision table of `collective_device` and `gpu_device`."""
    b = backend.lower()
    if "nccl" not in b or "gloo" in b:
        return "cpu"
    return cuda_device(
        tensor_devices=tensor_devices,
        bound=bound,
        local_rank=local_rank,
        device_count=device_count,
        current=current,
    )


def cuda_device(
    *,
    tensor_devices: Iterable[str] = (),
    bound: str | None = None,
    local_rank: int = 0,
    device_count: int = 0,
    current: int = 0,
) -> str:
    """The rank's CUDA device: its tensors', the group's bound one, LOCAL_RANK, the current."""
    for d in tensor_devices:
        if d.startswith("cuda"):
            return d if ":" in d else f"cuda:{current}"
    if bound is not None and bound.startswith("cuda"):
        return bound
    if 0 <= local_rank < device_count:
        return f"cuda:{local_rank}"
    return f"cuda:{current}"


def _local_rank() -> int:
    try:
        return int(os.environ.get(envvars.LOCAL_RANK, "0"))
    except ValueError:
        return 0


def gpu_device(torch: Any, tensors: Iterable[Any] = ()) -> Any:
    """This rank's CUDA device (`torch.device`) from its tensors or LOCAL_RANK; CUDA must be
    available."""
    cuda = torch.cuda
    return torch.device(
        cuda_device(
            tensor_devices=[str(t.device) for t in tensors],
            local_rank=_local_rank(),
            device_count=cuda.device_count(),
            current=cuda.current_device() if cuda.is_initialized() else 0,
        )
    )


def collective_device(group: Any = None, tensors: Iterable[Any] = ()) -> Any:
    """The `torch.device` for a tensor that `group` (None: the default group) all-reduces."""
    import torch
    import torch.distributed as dist

    backend = str(dist.get_backend(group))
    if "nccl" not in backend.lower() or not torch.cuda.is_available():
        return torch.device("cpu")
    pg = group if group is not None else dist.group.WORLD
    bound = getattr(pg, "bound_device_id", None)
    cuda = torch.cuda
    return torch.device(
        pick(
            backend=backend,
            tensor_devices=[str(t.device) for t in tensors],
            bound=None if bound is None else str(bound),
            local_rank=_local_rank(),
            device_count=cuda.device_count(),
            current=cuda.current_device() if cuda.is_initialized() else 0,
        )
    )
