"""Train the demo Llama with torch.distributed (gloo on CPU, NCCL on GPU) and DDP.

Run it under any launcher that sets torchrun's environment variables:

    torchrun --nproc-per-node 2 -m nonstop.workloads.llama.train --steps 200
    nonstop run --nproc-per-node 2 -m nonstop.workloads.llama.train --steps 200

It reports steps, loss and lifecycle through nonstop.runtime (a no-op outside `nonstop run`).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from datetime import timedelta
from typing import Any

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import nonstop.runtime as ns
from nonstop import envvars
from nonstop.errors import UserError
from nonstop.workloads.llama.data import ResumableLoader, load_corpus
from nonstop.workloads.llama.model import Llama, LlamaConfig


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="nonstop.workloads.llama.train", description=__doc__)
    p.add_argument("--steps", type=int, default=300, help="optimizer steps in total")
    p.add_argument("--batch-size", type=int, default=8, help="sequences per rank per step")
    p.add_argument("--seq-len", type=int, default=128, help="bytes per sequence")
    p.add_argument("--dim", type=int, default=128)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--kv-heads", type=int, default=2)
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    p.add_argument("--warmup", type=int, default=20, help="linear warm-up steps")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--data", default=None, help="text file or folder (default: Python's stdlib)")
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument(
        "--save-final",
        default=None,
        metavar="PATH",
        help="rank 0 writes the final parameters here (torch.save), for comparing runs bit for bit",
    )
    p.add_argument(
        "--ordered-allreduce",
        action="store_true",
        help="sum the gradients in rank order (all_gather, then a local sum) so that "
        "a resumed run is bitwise identical to an uninterrupted one at any world "
        "size (costs world-size x the all-reduce's traffic; for tests)",
    )
    p.add_argument(
        "--fault-tolerant",
        action="store_true",
        help="train as one replica group of a torchft job (Manager, its DDP and optimizer "
        "wrappers; gloo): a failed group heals from a live one while the others train on. "
        "Run under `nonstop run --replica-groups G` (nonstop.workloads.llama.ft)",
    )
    p.add_argument(
        "--ft-timeout",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="--fault-tolerant: torchft's timeout for its collectives, commits and heals; "
        "below the group's hang timeout (5 s at least), so that a group waiting on a hung "
        "peer group gives up on the step before its own agent calls it hung (default 3)",
    )
    p.add_argument(
        "--min-step-s",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="--fault-tolerant: pad every step to at least this long, a stand-in for a "
        "bigger model's step on a few CPU cores, so that a group's restart lasts a few steps "
        "of its peers', as on a cluster, not hundreds (default 0)",
    )
    p.add_argument(
        "--checkpoint-every",
        default="auto",
        help="steps between checkpoints, 'auto' (Daly's optimum from the measured "
        "save time and the run's MTBI) or 0 for none (default auto)",
    )
    a = p.parse_args(argv)
    if a.checkpoint_every != "auto" and not a.checkpoint_every.isdigit():
        p.error(
            f"--checkpoint-every must be a number of steps, 'auto' or 0, got {a.checkpoint_every!r}"
        )
    for name in ("steps", "batch_size", "seq_len", "log_every"):
        if getattr(a, name) <= 0:
            p.error(f"--{name.replace('_', '-')} must be positive, got {getattr(a, name)}")
    return a


def cosine_lr(step: int, *, warmup: int, total: int) -> float:
    """Multiplier of the peak LR: linear warm-up, then cosine decay to 10%."""
    if step < warmup:
        return (step + 1) / warmup
    progress = min(1.0, (step - warmup) / max(1, total - warmup))
    return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress))


def setup_distributed() -> tuple[int, int, torch.device]:
    if envvars.RANK not in os.environ:  # a single process without a launcher
        return 0, 1, torch.device("cpu")
    cuda = torch.cuda.is_available()
    local = int(os.environ.get(envvars.LOCAL_RANK, "0"))
    device = torch.device("cuda", local) if cuda else torch.device("cpu")
    if cuda:
        torch.cuda.set_device(device)
    else:  # several ranks share the cores: don't oversubscribe them
        per = max(1, (os.cpu_count() or 1) // int(os.environ.get(envvars.LOCAL_WORLD_SIZE, "1")))
        torch.set_num_threads(per)
    dist.init_process_group("nccl" if cuda else "gloo", timeout=timedelta(minutes=5))
    return dist.get_rank(), dist.get_world_size(), device


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    if a.fault_tolerant:
        from nonstop.workloads.llama import ft

        return ft.main(a)
    rt = ns.init()
    rank, world, device = setup_distributed()
    rt.lifecycle("pg_ready", world_size=world)
    torch.manual_seed(a.seed)  # identical initial weights on every rank
    cfg = LlamaConfig(
        dim=a.dim,
        n_layers=a.layers,
        n_heads=a.heads,
        n_kv_heads=a.kv_heads,
        max_seq_len=max(256, a.seq_len),
    )
    model = Llama(cfg).to(device)
    rt.health.watch(model)  # NaN/spike guards and replica fingerprints (docs/health.md)
    # the RoPE tables are buffers every rank computes alike: no broadcast in forward, so that
    # the compute phase holds no collective (a slow link would otherwise show as slow compute)
    ddp = DDP(model, broadcast_buffers=False) if world > 1 else model
    if isinstance(ddp, DDP) and a.ordered_allreduce:  # world > 1
        ddp.register_comm_hook(None, _ordered_allreduce)
    if world > 1:
        _prime_buckets(ddp, a.batch_size, a.seq_len, device)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.1, betas=(0.9, 0.95))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: cosine_lr(s, warmup=a.warmup, total=a.steps)
    )
    loader = ResumableLoader(
        load_corpus(a.data),
        seq_len=a.seq_len,
        batch_size=a.batch_size,
        rank=rank,
        world_size=world,
        seed=a.seed,
    )
    ckpt = _checkpointer(a, rt)
    if ckpt is not None:  # a save in flight at a rollback predates the anomaly: keep it
        rt.health.before_rollback(lambda: ckpt.wait(timeout_s=120))
    state = {"model": model, "optimizer": opt, "lr_scheduler": sched, "data": loader}
    start = ckpt.load_latest(state) if ckpt is not None else 0
    if start > 0:
        rt.lifecycle("resumed", step=start - 1)
    if rank == 0:
        print(
            f"[train] {model.num_params() / 1e6:.2f} M params, world {world}, "
            f"steps {start}..{a.steps}",
            flush=True,
        )
    t_log = time.perf_counter()
    planned = False
    skips = rt.health.skip_plan()  # after a loss spike's rollback: batches not to train on again
    for step in range(start, a.steps):
        if step in skips:
            lo, hi = loader.skip(skips[step])
            rt.lifecycle(
                "skipped_batches", step=step, batches=skips[step], from_position=lo, to_position=hi
            )
            if rank == 0:
                print(
                    f"[train] step {step}: skipped batches {lo}..{hi - 1} (a loss spike)",
                    flush=True,
                )
        with rt.step(step) as st:
            with st.phase("data"):
                batch = loader.position
                x, y = loader.next_batch()
                x, y = x.to(device), y.to(device)
            # compute = forward only: this rank's own busy time, with no collective inside,
            # which is what straggler scores compare across ranks (DDP's all-reduce overlaps
            # the backward pass, so backward_s includes waiting for the slowest rank)
            with st.phase("compute"):
                loss = model.loss(x, y) if world == 1 else _ddp_loss(ddp, x, y)
                if rt.faults:  # injected nan@ / spike@ (nonstop.faults)
                    loss = rt.faults.scale_loss(loss, step, batch)
            with st.phase("backward"):
                loss.backward()
            with st.phase("optimizer"):
                norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
                opt.zero_grad(set_to_none=True)
                sched.step()
            st.record(
                loss=loss.item(),
                tokens=x.numel() * world,
                lr=sched.get_last_lr()[0],
                grad_norm=norm.item(),
            )
        if ckpt is not None:
            ckpt.maybe_save(step + 1, state)  # blocks only while staging to CPU memory
        if rt.planned_stop_due(step + 1):  # drain, restart or preemption: save, then stop
            if ckpt is not None:
                with rt.section("checkpoint"):
                    last = ckpt.wait()
                    if last is None or not last.ok or last.step != step + 1:
                        ckpt.save(step + 1, state, wait=True)
            rt.lifecycle("planned_stop", step=step)
            planned = True
            break
        if rank == 0 and (step + 1) % a.log_every == 0:
            dt = (time.perf_counter() - t_log) / a.log_every
            print(
                f"[train] step {step + 1}/{a.steps} loss {loss.item():.4f} {dt * 1000:.0f} ms/step",
                flush=True,
            )
            t_log = time.perf_counter()
    if ckpt is not None:
        with rt.section("checkpoint"):  # the last write may take a while: not a hang
            ckpt.close()
    if a.save_final and rank == 0 and not planned:
        torch.save({k: v.detach().cpu() for k, v in model.state_dict().items()}, a.save_final)
    if not planned:  # state_sha256: two runs' final parameters compare bit for bit
        from nonstop.runtime.fingerprint import state_sha256

        rt.lifecycle("finished", step=a.steps - 1, state_sha256=state_sha256(model.state_dict()))
    if world > 1:
        dist.barrier()
        dist.destroy_process_group()
    rt.close()
    return 0


def _checkpointer(a: argparse.Namespace, rt: ns.Runtime) -> Any:
    """A checkpointer under the run directory, or None without one (plain torchrun)."""
    if rt.run_dir is None or a.checkpoint_every == "0":
        return None
    from nonstop.checkpoint import CheckpointConfig, Checkpointer

    every = None if a.checkpoint_every == "auto" else int(a.checkpoint_every)
    cfg = CheckpointConfig(every_steps=every, keep_last=2)
    storage = None  # an injected full disk (diskfull@...): the Checkpointer wires it itself
    run_config = {k: v for k, v in vars(a).items() if k not in ("save_final", "log_every")}
    return Checkpointer(
        rt.run_dir,
        config=cfg,
        events=rt,
        run_config=run_config,
        storage=storage,
        verify=rt.health.verify,
    )


def _prime_buckets(
    ddp: torch.nn.Module, batch_size: int, seq_len: int, device: torch.device
) -> None:
    """One discarded forward and backward, so that every step this process trains all-reduces
    through DDP's rebuilt buckets. DDP lays out the first backward of each process with every
    gradient in one bucket in reverse parameter order, then rebuilds its buckets in the order
    the gradients became ready; a ring all-reduce adds each element in an order that depends on
    its offset in the bucket, so at 3 or more ranks the first step after every restart rounded
    differently from the same step of a run that never stopped (the multi-node soak's final
    parameters were 1.9e-5 away). Primed in every process, a fresh start's step 0 included,
    every step sums alike. The layout depends on the graph, not on the values: a batch of zeros
    does, and the model draws no random numbers, so the data position and RNG stay untouched.
    Costs one step's compute and all-reduce per process start (docs/run.md)."""
    x = torch.zeros(batch_size, seq_len, dtype=torch.long, device=device)
    _ddp_loss(ddp, x, x).backward()
    ddp.zero_grad(set_to_none=True)


def _ordered_allreduce(state, bucket):  # unannotated: DDP checks a hook's annotations
    """DDP comm hook: the mean of every rank's bucket, summed in rank order. A ring all-reduce
    adds each element in an order that depends on its offset in DDP's bucket, and DDP lays its
    buckets out anew after the first step of every process, so with 3 or more ranks a resumed
    run rounds differently from an uninterrupted one. Summing in rank order does not."""
    t = bucket.buffer()
    parts = [torch.empty_like(t) for _ in range(dist.get_world_size())]
    fut = dist.all_gather(parts, t, async_op=True).get_future()

    def total(_: Any) -> torch.Tensor:
        out = parts[0].clone()
        for p in parts[1:]:
            out += p
        return out.div_(len(parts))

    return fut.then(total)


def _ddp_loss(ddp: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # DDP hooks into forward(), so compute the loss from its output rather than model.loss
    logits = ddp(x)
    return torch.nn.functional.cross_entropy(logits.flatten(0, 1), y.flatten())


if __name__ == "__main__":
    try:
        sys.exit(main())
    except UserError as e:
        print(f"nonstop.workloads.llama.train: error: {e}", file=sys.stderr)
        sys.exit(2)
