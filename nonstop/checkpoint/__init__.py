"""Asynchronous, atomic, verified checkpoints on torch.distributed.checkpoint (docs/checkpoint.md).

from nonstop.checkpoint import Checkpointer, CheckpointConfig

ckpt = Checkpointer(run_dir, config=CheckpointConfig(every_steps=100), events=writer)
state = {"model": model, "optimizer": opt, "lr_scheduler": sched, "data": loader}
step = ckpt.load_latest(state)          # 0 when there is no good checkpoint
while step < total_steps:
    train_one_step()
    step += 1
    ckpt.maybe_save(step, state)        # blocks only while staging to CPU memory
ckpt.close()                            # waits for the save in flight

In-memory replicas (`nonstop.checkpoint.replica`): one ReplicaServer per node, published in the
run directory; CheckpointConfig(memory_every_steps=N) or $NONSTOP_MEMORY_CKPT_EVERY switches the
workers' snapshots on.
"""

from nonstop.checkpoint.checkpointer import Checkpointer, LoadResult, SaveResult
from nonstop.checkpoint.config import (
    DEFAULT_MTBI_S,
    ENV_MEMORY_EVERY,
    ENV_MTBI_S,
    ENV_REPLICAS,
    CheckpointConfig,
    parse_interval,
)
from nonstop.checkpoint.interval import IntervalPolicy
from nonstop.checkpoint.replica import ReplicaServer, discover, new_token, publish, unpublish
from nonstop.checkpoint.storage import FaultyStorage, LocalStorage, Storage

__all__ = [
    "DEFAULT_MTBI_S",
    "ENV_MEMORY_EVERY",
    "ENV_MTBI_S",
    "ENV_REPLICAS",
    "CheckpointConfig",
    "Checkpointer",
    "FaultyStorage",
    "IntervalPolicy",
    "LoadResult",
    "LocalStorage",
    "ReplicaServer",
    "SaveResult",
    "Storage",
    "discover",
    "new_token",
    "parse_interval",
    "publish",
    "unpublish",
]
