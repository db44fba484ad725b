"""The overhead benchmark's peer: the demo workload under plain torchrun with dcp.async_save.

    torchrun --nproc-per-node 2 benchmarks/peer_dcp_train.py --steps 200 \
        --checkpoint-every 10 --checkpoint-dir /tmp/peer-ckpt

The same model, data, optimizer, schedule and step as `nonstop.workloads.llama.train` (its
helpers are imported, not copied), without nonstop.runtime, and checkpoints the way a careful
torchrun user on torch 2.13 would (TorchTitan's async_with_pinned_mem): every N steps,
`dcp.async_save` of model, optimizer, LR scheduler and data position into `step-N/`, on a
DefaultStager kept across saves (cached shared-memory staging copies, staged in a background
thread; pinning and non-blocking copies need CUDA), in a checkpoint process (`--async-mode
process`, default) or thread; `optimizer.step()` waits for the staged copy first, a new save
waits for the previous upload, the newest two are kept. It prints the same
`[train] step X/Y loss L NN ms/step` lines.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
from torch.distributed.checkpoint.state_dict import get_state_dict
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType
from torch.nn.parallel import DistributedDataParallel as DDP

from nonstop.workloads.llama.data import ResumableLoader, load_corpus
from nonstop.workloads.llama.model import Llama, LlamaConfig
from nonstop.workloads.llama.train import _ddp_loss, cosine_lr, setup_distributed


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="peer_dcp_train.py", description=__doc__)
    for name, default in (
        ("steps", 300),
        ("batch-size", 8),
        ("seq-len", 128),
        ("dim", 128),
        ("layers", 4),
        ("heads", 4),
        ("kv-heads", 2),
        ("warmup", 20),
        ("seed", 1234),
        ("log-every", 10),
        ("checkpoint-every", 10),
    ):
        p.add_argument(f"--{name}", type=int, default=default)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--checkpoint-dir", required=True)
    p.add_argument("--async-mode", choices=("process", "thread"), default="process")
    return p.parse_args(argv)


class AsyncDcp:
    """dcp.async_save at a fixed cadence, as TorchTitan drives it."""

    def __init__(self, root: Path, mode: str) -> None:
        self.root = root
        self.mode = AsyncCheckpointerType(mode)
        self.stager = DefaultStager(
            StagingOptions(
                use_pinned_memory=False,
                use_shared_memory=True,
                use_async_staging=True,
                use_non_blocking_copy=False,
            )
        )
        self.resp: Any = None
        self.saved: list[Path] = []

    def save(
        self,
        step: int,
        model: torch.nn.Module,
        opt: torch.optim.Optimizer,
        sched: Any,
        loader: ResumableLoader,
    ) -> None:
        if self.resp is not None:  # one save in flight at a time
            self.resp.upload_completion.result()
        if len(self.saved) > 2 and dist.get_rank() == 0:
            shutil.rmtree(self.saved.pop(0), ignore_errors=True)
        msd, osd = get_state_dict(model, opt)
        sd = {
            "model": msd,
            "optimizer": osd,
            "lr_scheduler": sched.state_dict(),
            f"data_rank{dist.get_rank()}": loader.state_dict(),
        }
        path = self.root / f"step-{step}"
        self.saved.append(path)
        self.resp = dcp.async_save(
            sd, checkpoint_id=path, async_checkpointer_type=self.mode, async_stager=self.stager
        )

    def before_optimizer_step(self) -> None:
        if self.resp is not None:
            self.resp.staging_completion.result()

    def close(self) -> None:
        if self.resp is not None:
            self.resp.upload_completion.result()
        self.stager.close()


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    rank, world, device = setup_distributed()
    torch.manual_seed(a.seed)
    cfg = LlamaConfig(
        dim=a.dim,
        n_layers=a.layers,
        n_heads=a.heads,
        n_kv_heads=a.kv_heads,
        max_seq_len=max(256, a.seq_len),
    )
    model = Llama(cfg).to(device)
    ddp = DDP(model)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.1, betas=(0.9, 0.95))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: cosine_lr(s, warmup=a.warmup, total=a.steps)
    )
    loader = ResumableLoader(
        load_corpus(None),
        seq_len=a.seq_len,
        batch_size=a.batch_size,
        rank=rank,
        world_size=world,
        seed=a.seed,
    )
    ckpt = AsyncDcp(Path(a.checkpoint_dir), a.async_mode) if a.checkpoint_every else None
    if rank == 0:
        print(
            f"[train] {model.num_params() / 1e6:.2f} M params, world {world}, steps 0..{a.steps}",
            flush=True,
        )
    t_log = time.perf_counter()
    for step in range(a.steps):
        x, y = loader.next_batch()
        x, y = x.to(device), y.to(device)
        loss = _ddp_loss(ddp, x, y)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        if ckpt is not None:
            ckpt.before_optimizer_step()
        opt.step()
        opt.zero_grad(set_to_none=True)
        sched.step()
        loss.item(), norm.item()  # the reference script records both every step
        if ckpt is not None and (step + 1) % a.checkpoint_every == 0:
            ckpt.save(step + 1, model, opt, sched, loader)
        if rank == 0 and (step + 1) % a.log_every == 0:
            dt = (time.perf_counter() - t_log) / a.log_every
            print(
                f"[train] step {step + 1}/{a.steps} loss {loss.item():.4f} {dt * 1000:.0f} ms/step",
                flush=True,
            )
            t_log = time.perf_counter()
    if ckpt is not None:
        ckpt.close()
    dist.barrier()
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
