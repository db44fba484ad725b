"""Per-step cost of the training-health guards at their defaults (docs/health.md).

    .venv/bin/python benchmarks/run.py guards --quick --json
    .venv/bin/python benchmarks/bench_guards.py              # the same, printed as a table

What a step under the guards pays, measured piece by piece in this process (and two gloo ranks
for the collective), against the demo workload's own step (`nonstop.workloads.llama`, default
model, batch 8 x 128, one CPU process with the threads one of 2 ranks gets, or the GPU when
there is one):

- decide: `Guards.decide` on a full baseline window (pure Python, every step);
- allreduce: the one all-reduce of the (world x 11) float64 vector, 2 gloo ranks on this host
  (every step), beside the one-element all-reduce `planned_stop_due` already pays;
- fingerprint: `nonstop.runtime.fingerprint` of the model's parameters (every K steps and
  before every checkpoint), beside a plain `sum()` of the same tensors (one read of the same
  memory: the floor), also on a larger synthetic parameter set to give bytes per second.

`ours` is the guards' per-step cost at the defaults (decide + allreduce + fingerprint / K),
`peer` the demo's step time, `ratio` their quotient. `k_for_0.1pct` is the smallest K at which
the fingerprint costs at most 0.1% of a step (the default K is chosen from it). Each of 5
repetitions (2 with --quick) measures every piece again; `ours`/`peer` are the medians and
`spread` their ranges, with a bootstrap interval of the paired ratio (benchmarks/stats.py).
"""

from __future__ import annotations

import math
import os
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import stats


def _median_s(fn: Any, n: int, sync: Any = None) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        if sync is not None:
            sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _allreduce_worker(rank: int, port: int, n: int, out: Any) -> None:
    import torch
    import torch.distributed as dist

    from nonstop.runtime.guards import SLOTS

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=2)
    vec = torch.zeros(2, len(SLOTS), dtype=torch.float64)
    one = torch.zeros(1, dtype=torch.int32)
    for _ in range(20):  # warm the connections
        dist.all_reduce(vec)
    res = {}
    for name, t in (("vector", vec), ("one", one)):
        times = []
        for _ in range(n):
            dist.barrier()
            t0 = time.perf_counter()
            dist.all_reduce(t)
            times.append(time.perf_counter() - t0)
        res[name] = times
    if rank == 0:
        out.put(res)
    dist.destroy_process_group()


def allreduce_s(n: int) -> dict[str, list[float]]:
    """n timed all-reduces of each kind on 2 gloo ranks (seconds, in order)."""
    import torch.multiprocessing as mp

    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    port = _free_port()
    procs = [ctx.Process(target=_allreduce_worker, args=(r, port, n, out)) for r in range(2)]
    for p in procs:
        p.start()
    res = out.get(timeout=300)
    for p in procs:
        p.join(timeout=60)
    return dict(res)


def run(quick: bool = False) -> dict[str, Any]:
    import torch

    from nonstop.runtime.fingerprint import fingerprint
    from nonstop.runtime.guards import GuardConfig, Guards, make_row
    from nonstop.workloads.llama.model import Llama, LlamaConfig

    cuda = torch.cuda.is_available()
    dev = torch.device("cuda" if cuda else "cpu")
    if not cuda:  # as each of the demo's 2 ranks does (train.py): on a busy host, more threads
        torch.set_num_threads(max(1, (os.cpu_count() or 1) // 2))  # only wait for each other
    sync = torch.cuda.synchronize if cuda else None
    reps = 10 if quick else 30
    defaults = GuardConfig()
    k = defaults.fingerprint_every

    # the demo's step (train.py's defaults)
    torch.manual_seed(0)
    model = Llama(LlamaConfig(dim=128, n_layers=4, n_heads=4, n_kv_heads=2, max_seq_len=256)).to(
        dev
    )
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    x = torch.randint(0, 256, (8, 128), device=dev)

    def step() -> None:
        loss = model.loss(x, x)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        loss.item()

    for _ in range(3):
        step()
    params = list(model.parameters())
    n_params = sum(p.numel() for p in params)
    guards = Guards(defaults)
    for s in range(defaults.window):
        guards.decide(s, [make_row(loss=3.0 + 0.01 * (s % 7), grad_norm=1.0)] * 2)
    rows = [make_row(loss=3.0, grad_norm=1.0)] * 2

    n_reps = stats.reps(quick)
    per_ar = 50 if quick else 200
    ar = allreduce_s(per_ar * n_reps)  # one pair of ranks; its samples split into the reps
    # each repetition measures every piece again; ours and peer of one repetition are a pair
    ours, peer, pieces = [], [], []
    for r in range(n_reps):
        step_s = _median_s(step, reps, sync)
        fp_s = _median_s(lambda: fingerprint(params), reps * 5, sync)
        plain_s = _median_s(lambda: [p.sum() for p in params] and None, reps * 5, sync)
        decide_s = _median_s(lambda: guards.decide(10_000, rows), 2000)
        ar_s = statistics.median(ar["vector"][r * per_ar : (r + 1) * per_ar])
        one_s = statistics.median(ar["one"][r * per_ar : (r + 1) * per_ar])
        ours.append((decide_s + ar_s + fp_s / k) * 1e3)
        peer.append(step_s * 1e3)
        pieces.append((decide_s, ar_s, one_s, fp_s, plain_s, step_s))
    decide_s, ar_s, one_s, fp_s, plain_s, step_s = (
        statistics.median(col) for col in zip(*pieces, strict=True)
    )

    # a larger parameter set: bytes per second of the fingerprint vs the plain read
    big_n = (64 if quick else 256) * 2**20 if not cuda else 2**30  # elements
    dtype = torch.bfloat16 if cuda else torch.float32
    big = [torch.randn(big_n // 64, dtype=torch.float32, device=dev).to(dtype) for _ in range(64)]
    big_bytes = sum(t.numel() * t.element_size() for t in big)
    big_fp_s = _median_s(lambda: fingerprint(big), 3 if quick else 7, sync)
    big_plain_s = _median_s(lambda: [t.sum() for t in big] and None, 3 if quick else 7, sync)
    big.clear()

    k_needed = max(1, math.ceil(fp_s / (0.001 * step_s)))
    out = stats.summarize(
        ours,
        peer,
        name="guards",
        unit="ms/step",
        better="lower",
        paired=True,
        peer_name="the demo's step (default model, batch 8x128)",
    )
    return {
        **out,
        "device": "cuda" if cuda else "cpu",
        "params": n_params,
        "fingerprint_every": k,
        "decide_ms": round(decide_s * 1e3, 4),
        "allreduce_ms": round(ar_s * 1e3, 4),
        "allreduce_one_int_ms": round(one_s * 1e3, 4),
        "fingerprint_ms": round(fp_s * 1e3, 4),
        "plain_sum_ms": round(plain_s * 1e3, 4),
        "fingerprint_gb_s": round(big_bytes / big_fp_s / 1e9, 2),
        "plain_sum_gb_s": round(big_bytes / big_plain_s / 1e9, 2),
        "fingerprint_share_of_step": round(fp_s / step_s, 5),
        "k_for_0.1pct": k_needed,
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
