"""The device of nonstop's own GPU work (nonstop.device): the rank's tensors', the
group's bound device or LOCAL_RANK's, never torch's current device (cuda:0 in a script that
puts its model on cuda:LOCAL_RANK without set_device). The table is the decision; the last
test runs it through a real gloo group (no GPU here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from nonstop.device import pick

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
    "a bare 'cuda' tensor device is the current one": (
        ("nccl", ("cuda",), None, 3, 8, 1),
        "cuda:1",
    ),
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

    from nonstop.device import collective_device

    dist.init_process_group(
        "gloo", init_method=f"file://{tmp_path / 'store'}", rank=0, world_size=1
    )
    try:
        assert collective_device() == torch.device("cpu")
        assert collective_device(None, [torch.zeros(1)]) == torch.device("cpu")
    finally:
        dist.destroy_process_group()


CHILD = textwrap.dedent(
    """
    import json, os, sys
    import torch, torch.distributed as dist
    dist.init_process_group("gloo", init_method="file://" + sys.argv[1], rank=0, world_size=1)
    asked = []
    real = {"zeros": torch.zeros, "tensor": torch.tensor}
    def on(name):
        def make(*a, device=None, **kw):
            if device is not None:
                asked.append((name, str(device)))
            return real[name](*a, **kw)
        return make
    torch.zeros, torch.tensor = on("zeros"), on("tensor")
    dist.all_reduce = lambda t, op=None, group=None: None
    dist.get_backend = lambda group=None: "nccl"
    dist.get_world_size = lambda group=None: 2
    torch.cuda.is_available = lambda: True
    torch.cuda.device_count = lambda: 8
    torch.cuda.is_initialized = lambda: False  # never set_device: current would be cuda:0
    from nonstop.runtime import Runtime
    from nonstop.runtime.guards import Health
    from pathlib import Path
    rt = Runtime(run_dir=Path(sys.argv[2]), run_id="r", attempt=0, rank=0, world_size=2, host="h")
    rt.planned_stop_due(1)
    from nonstop.runtime.guards import SLOTS
    Health(rt)._gather([0.0] * len(SLOTS))
    rt.close()
    print(json.dumps(asked))
    """
)


def test_the_guards_and_planned_stop_all_reduce_on_local_rank_s_gpu(tmp_path):
    """LOCAL_RANK 5 of 8, NCCL, no set_device: both all-reduces' tensors are asked for on
    cuda:5 (the old code asked for torch.cuda.current_device(): cuda:0). torch's calls are
    recorders in a child process (no GPU here)."""
    env = {**os.environ, "LOCAL_RANK": "5", "NONSTOP_LOG_LEVEL": "ERROR"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "store"), str(tmp_path / "run")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    asked = json.loads(out.stdout.strip().splitlines()[-1])
    assert asked == [["tensor", "cuda:5"], ["zeros", "cuda:5"]], asked
