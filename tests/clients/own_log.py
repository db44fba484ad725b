"""A plain DDP script that keeps its own log file and never closes it (as many do: a `log =
open(...)` at the top), on CPU with gloo. Written for these tests; it knows nothing of nonstop.

    torchrun --standalone --nproc-per-node 2 own_log.py LOG_DIR STEPS [FAIL_AT]

Rank 1 raises at step FAIL_AT (if given) after logging it; rank 0 waits in the step's
collective for a peer that is gone."""

import os
import sys

import torch
import torch.distributed as dist

log_dir, steps = sys.argv[1], int(sys.argv[2])
fail_at = int(sys.argv[3]) if len(sys.argv) > 3 else -1
dist.init_process_group("gloo")
rank = dist.get_rank()
log = open(os.path.join(log_dir, f"own-{rank}.log"), "w")  # noqa: SIM115 (never closed)
w = torch.zeros(4, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(steps):
    if rank == 1 and step == fail_at:
        log.write(f"step {step}: bad batch, giving up\n")
        raise ValueError(f"bad batch at step {step}")
    loss = (w - 3.0).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    dist.all_reduce(w.grad)
    opt.step()
    log.write(f"step {step} loss {loss.item():.6f}\n")
print(f"[rank{rank}] final loss {loss.item():.6f}", flush=True)
