"""One rank of the distributed checkpoint tests (CPU, gloo); started by test_ckpt_dist.py.

    RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 \
        python tests/checkpoint/ckpt_worker.py '{"scenario": "ddp", "run_dir": "/tmp/r", ...}'

Scenarios:
  ddp        DDP training with dropout, NumPy/Python randomness, an LR scheduler and a stateful
             data position; optional resume, optional stop; rank 0 writes the final parameters.
             With "defer": the step-2 save is held back until step 4 has fallen due, so that
             save is deferred to step 5 (the if_busy="defer" policy), deterministically.
             With "if_busy": "wait", every save falls on its step (the steps wait for it).
  fsdp_save  FSDP2 (fully_shard on a CPU mesh) trains 3 steps and saves synchronously.
  fsdp_load  FSDP2 on this world size loads the newest checkpoint (resharding).
Both FSDP2 scenarios write the full (gathered) model and optimizer state from rank 0.
"""

from __future__ import annotations

import json
import os
import random
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_optimizer_state_dict,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from nonstop.checkpoint import CheckpointConfig, Checkpointer, LocalStorage


class HeldStorage(LocalStorage):
    """LocalStorage whose first checkpoint's writes wait until `release` is set."""

    def __init__(self, root: str, release: threading.Event) -> None:
        super().__init__(root)
        self.release = release

    @contextmanager
    def open_write(self, key: str) -> Iterator[Any]:
        if "step-2" in key:
            self.release.wait(timeout=60)
        with super().open_write(key) as f:
            yield f


class Data:
    """A resumable data stream: batch i of rank r is a pure function of (r, i)."""

    def __init__(self, rank: int) -> None:
        self.rank, self.position = rank, 0

    def next(self) -> tuple[torch.Tensor, torch.Tensor]:
        g = torch.Generator().manual_seed(1000 * self.rank + self.position)
        self.position += 1
        x = torch.randn(8, 6, generator=g)
        return x, x.sum(dim=1, keepdim=True).tanh()

    def state_dict(self) -> dict[str, Any]:
        return {"position": self.position, "rank": self.rank}

    def load_state_dict(self, sd: dict[str, Any]) -> None:
        self.position = int(sd["position"])


def model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 1))


def ddp(spec: dict[str, Any], rank: int) -> None:
    net = nn.parallel.DistributedDataParallel(model())
    opt = torch.optim.AdamW(net.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    data = Data(rank)
    extras: dict[str, Any] = {"tokens_seen": 0}
    state = {"model": net, "optimizer": opt, "lr_scheduler": sched, "data": data, "extras": extras}
    # Different seeds per launch: the resumed run is right only if the RNG states are restored.
    random.seed(spec["seed"] + rank)
    np.random.seed(spec["seed"] + rank)
    torch.manual_seed(spec["seed"] + rank)
    cfg = CheckpointConfig(
        every_steps=spec["every"], keep_last=2, if_busy=spec.get("if_busy", "defer")
    )
    release = threading.Event()
    held = HeldStorage(str(Path(spec["run_dir"]) / "checkpoints"), release)
    ckpt = Checkpointer(spec["run_dir"], config=cfg, storage=held if spec.get("defer") else None)
    step = ckpt.load_latest(state) if spec.get("resume") else 0
    stop = spec.get("stop_at") or spec["steps"]
    while step < stop:
        x, y = data.next()
        noise = float(np.random.normal()) * 1e-3 + random.random() * 1e-3
        loss = (net(x) - y).pow(2).mean() + noise
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        extras["tokens_seen"] += x.numel()
        step += 1
        began = ckpt.maybe_save(step, state)
        if spec.get("defer") and step == 4:
            assert not began, "the step-4 save should have been deferred"
            release.set()
            ckpt.wait()  # the held save commits; the deferred one begins at step 5
    ckpt.close()
    if rank == 0:
        out = {k: v.detach().clone() for k, v in net.module.state_dict().items()}
        out["_tokens_seen"] = torch.tensor(extras["tokens_seen"])
        out["_resumed_from"] = torch.tensor(ckpt.last_load.step or 0 if ckpt.last_load else -1)
        torch.save(out, spec["out"])


def fsdp(spec: dict[str, Any], rank: int, world: int) -> None:
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard

    mesh = init_device_mesh("cpu", (world,))
    torch.manual_seed(spec["seed"])
    net = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, 3))
    for layer in (net[0], net[2]):
        fully_shard(layer, mesh=mesh)
    fully_shard(net, mesh=mesh)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    state = {"model": net, "optimizer": opt}
    ckpt = Checkpointer(spec["run_dir"], config=CheckpointConfig(every_steps=1000))
    info: dict[str, Any] = {}
    if spec["scenario"] == "fsdp_save":
        for i in range(3):
            g = torch.Generator().manual_seed(rank * 100 + i)
            net(torch.randn(4, 6, generator=g)).pow(2).mean().backward()
            opt.step()
            opt.zero_grad()
        result = ckpt.save(3, state, wait=True)
        assert result is not None and result.ok, result
    else:
        info["step"] = ckpt.load_latest(state)
        assert ckpt.last_load is not None
        info["messages"] = ckpt.last_load.messages
        info["not_resharded"] = ckpt.last_load.not_resharded
    ckpt.close()
    full = StateDictOptions(full_state_dict=True, cpu_offload=True)
    msd = get_model_state_dict(net, options=full)
    osd = get_optimizer_state_dict(net, opt, options=full)
    if rank == 0:
        flat = {f"model/{k}": v for k, v in msd.items()}
        for fqn, s in osd["state"].items():
            flat.update({f"optim/{fqn}/{k}": v for k, v in s.items()})
        torch.save(flat, spec["out"])
        Path(spec["out"] + ".json").write_text(json.dumps(info))


def main() -> None:
    spec = json.loads(sys.argv[1])
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=60))
    try:
        if spec["scenario"] == "ddp":
            ddp(spec, rank)
        else:
            fsdp(spec, rank, world)
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
