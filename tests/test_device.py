"""The device of nonstop's own GPU work (nonstop.runtime.device): the rank's tensors', the
group's bound device or LOCAL_RANK's, never torch's current device (cuda:0 in a script that
puts its model on cuda:LOCAL_RANK without set_device). The table is the decision; the last
test runs it through a real gloo group (no GPU here)."""

from __future__ import annotations

import pytest

from nonstop.runtime.device import pick

# (backend, tensors' devices, group's bound device, LOCAL_RANK, GPUs visible, current) -> device
TABLE = {
    "NCCL, no set_device: LOCAL_RANK's GPU, not the current cuda:0": (
        ("nccl", (), None, 3, 8, 0),
        "cuda:3",
    ),
    "the parameters' device first": (("nccl", ("cuda:5",), None, 3, 8, 0), "cuda:5"),
    "CPU tensors say nothing about the GPU": (("nccl", ("cpu",), None, 2, 8, 0), "cuda:2"),
    "the group's bound device (init_process_group(device_id=))": (
        ("nccl", (), "cuda:6", 3, 8, 0),
        "cuda:6",
    ),
    "one GPU per process (CUDA_VISIBLE_DEVICES): LOCAL_RANK 3 is not visible": (
        ("nccl", (), None, 3, 1, 0),
        "cuda:0",
    ),
    "a bare 'cuda' tensor device is the current one": (("nccl", ("cuda",), None, 3, 8, 1), "cuda:1"),
    "gloo: the CPU": (("gloo", ("cuda:1",), None, 1, 8, 0), "cpu"),
    "gloo for CPU tensors beside NCCL: the CPU": (("cpu:gloo,cuda:nccl", (), None, 1, 8, 0), "cpu"),
}


@pytest.mark.parametrize(("args", "device"), list(TABLE.values()), ids=list(TABLE))
def test_the_device_table(args, device):
    backend, tensors, bound, local_rank, count, current = args
    got = pick(
        backend=backend,
        tensor_devices=tensors,
        bound=bound,
        local_rank=local_rank,
        device_count=count,
        current=current,
    )
    assert got == device


def test_a_gloo_group_gets_the_cpu(tmp_path):
    import torch
    import torch.distributed as dist

    from nonstop.runtime.device import collective_device

    dist.init_process_group(
        "gloo", init_method=f"file://{tmp_path / 'store'}", rank=0, world_size=1
    )
    try:
        assert collective_device() == torch.device("cpu")
        assert collective_device(None, [torch.zeros(1)]) == torch.device("cpu")
    finally:
        dist.destroy_process_group()
