"""`hang@...,how=collective` on an NCCL group (nonstop.faults): the receive is into a tensor on
the group's device, cuda:LOCAL_RANK, so that it waits instead of raising (NCCL takes no CPU
tensor). No GPU here: in a child process, a real one-rank gloo group stands in for the NCCL
one, and torch's `get_backend`, CUDA queries, `zeros` and `recv` are replaced by recorders
(the device asked for is what is checked; the tensor itself stays on the CPU)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(
    """
    import json, os, sys
    import torch, torch.distributed as dist
    dist.init_process_group("gloo", init_method="file://" + sys.argv[1], rank=0, world_size=1)
    asked = []
    zeros = torch.zeros
    def zeros_on(*size, device=None, **kw):
        asked.append(str(device))
        return zeros(*size, **kw)
    def recv(tensor, src, tag=0, group=None):
        print(json.dumps({"devices": asked, "src": src, "tag": tag}), flush=True)
        os._exit(0)  # the real one would wait here forever
    torch.zeros = zeros_on
    dist.recv = recv
    dist.get_backend = lambda group=None: "nccl"
    torch.cuda.is_available = lambda: True
    torch.cuda.device_count = lambda: 8
    torch.cuda.is_initialized = lambda: False  # no set_device: current would be cuda:0
    from nonstop import faults
    inj = faults.Injector(faults.parse_all("hang@step=1,how=collective"), attempt=0, rank=0)
    inj.on_step(1)
    print("the hang returned", flush=True)
    """
)


def test_the_collective_hang_receives_on_local_rank_s_gpu(tmp_path):
    env = {**__import__("os").environ, "LOCAL_RANK": "5", "NONSTOP_LOG_LEVEL": "ERROR"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "store")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"devices": ["cuda:5"], "src": 0, "tag": 31337}, got
