"""Processes of the in-memory replica tests (CPU, gloo); started by test_ckpt_replica.py.

    python tests/checkpoint/replica_worker.py serve RUN_DIR NODE     # a node's replica server
    RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 \
        python tests/checkpoint/replica_worker.py '{"scenario": "train", "run_dir": ...}'

Scenarios (every rank is on the "node" spec["nodes"][rank], through NONSTOP_HOST):
  train  DDP training (ckpt_worker's model and data) with in-memory snapshots switched on by
         the environment, as `nonstop run` does; each rank writes its final state to
         trained-R.pt.
  load   loads with in-memory snapshots on (memory-R.pt, and what it loaded in memory-R.json);
         then, in new objects, from storage only (storage-R.pt, storage-R.json).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.distributed as dist
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ckpt_worker import Data, model

from nonstop.checkpoint import CheckpointConfig, Checkpointer
from nonstop.checkpoint.replica import ReplicaServer, new_token, publish


def serve(run_dir: str, node: str) -> None:
    srv = ReplicaServer(token=new_token(), capacity_bytes=64 << 20).start()
    publish(run_dir, node, srv)
    print("ready", flush=True)
    while True:
        time.sleep(3600)


def make_state(rank: int, seed: int) -> dict[str, Any]:
    net = nn.parallel.DistributedDataParallel(model())
    opt = torch.optim.AdamW(net.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    random.seed(seed + rank)  # other seeds per launch: only restored state can match
    np.random.seed(seed + rank)
    torch.manual_seed(seed + rank)
    return {
        "model": net,
        "optimizer": opt,
        "lr_scheduler": sched,
        "data": Data(rank),
        "extras": {"tokens_seen": 0},
    }


def snapshot(state: dict[str, Any]) -> dict[str, torch.Tensor]:
    """Everything a checkpoint restores, as tensors, to compare bitwise."""
    out = {f"model/{k}": v.clone() for k, v in state["model"].module.state_dict().items()}
    for i, s in state["optimizer"].state_dict()["state"].items():
        out.update({f"optim/{i}/{k}": torch.as_tensor(v).clone() for k, v in s.items()})
    out["lr"] = torch.tensor(state["optimizer"].param_groups[0]["lr"], dtype=torch.float64)
    out["sched_epoch"] = torch.tensor(state["lr_scheduler"].last_epoch)
    out["data"] = torch.tensor(state["data"].position)
    out["tokens"] = torch.tensor(state["extras"]["tokens_seen"])
    out["rng_torch"] = torch.get_rng_state()
    out["rng_numpy"] = torch.from_numpy(np.random.get_state()[1].astype(np.int64))
    out["rng_python"] = torch.tensor(random.getstate()[1], dtype=torch.int64)
    return out


def train(spec: dict[str, Any], rank: int) -> None:
    state = make_state(rank, spec["seed"])
    net, opt, data = state["model"], state["optimizer"], state["data"]
    cfg = CheckpointConfig(every_steps=spec["every"], if_busy="wait")  # no deferred saves
    ckpt = Checkpointer(spec["run_dir"], config=cfg)
    step = 0
    while step < spec["steps"]:
        x, y = data.next()
        noise = float(np.random.normal()) * 1e-3 + random.random() * 1e-3
        loss = (net(x) - y).pow(2).mean() + noise
        opt.zero_grad()
        loss.backward()
        opt.step()
        state["lr_scheduler"].step()
        state["extras"]["tokens_seen"] += x.numel()
        step += 1
        ckpt.maybe_save(step, state)
    ckpt.close()
    torch.save(snapshot(state), Path(spec["out"]) / f"trained-{rank}.pt")


def load(spec: dict[str, Any], rank: int) -> None:
    out = Path(spec["out"])
    for name, memory in (("memory", 1), ("storage", 0)):
        state = make_state(rank, spec["seed"])
        cfg = CheckpointConfig(every_steps=100, memory_every_steps=memory, replicas=1)
        ckpt = Checkpointer(spec["run_dir"], config=cfg)
        ckpt.load_latest(state)
        ckpt.close()
        torch.save(snapshot(state), out / f"{name}-{rank}.pt")
        info = ckpt.last_load
        assert info is not None
        record = {
            "step": info.step,
            "source": info.source,
            "replica_from": info.replica_from,
            "messages": info.messages,
        }
        (out / f"{name}-{rank}.json").write_text(json.dumps(record))


def main() -> None:
    if sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3])
        return
    spec = json.loads(sys.argv[1])
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    os.environ["NONSTOP_HOST"] = spec["nodes"][rank]
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=timedelta(seconds=60))
    try:
        train(spec, rank) if spec["scenario"] == "train" else load(spec, rank)
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
