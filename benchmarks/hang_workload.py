"""The hang-detection benchmark's training script: a small DDP job on gloo, the same for both sides.

    nonstop run --nproc-per-node 2 -m benchmarks.hang_workload --steps 30
    BENCH_PG_TIMEOUT_S=5 BENCH_TIMER_S=5 TORCHELASTIC_ENABLE_FILE_TIMER=1 \\
        torchrun --nproc-per-node 2 -m benchmarks.hang_workload --steps 30

It reports its steps with nonstop.runtime (a no-op without NONSTOP_RUN_DIR), so that faults from
nonstop.faults (`--inject` / NONSTOP_FAULTS: the SIGSTOP and collective hangs) fire at the same
step on both sides. The environment configures what the two launchers cannot give the script:

    BENCH_PG_TIMEOUT_S  init_process_group(timeout=...) (default 1800 s, torch's own)
    BENCH_TIMER_S       every step runs inside torch.distributed.elastic.timer.expires(after=S)
                        when torchrun's agent runs its FileTimerServer (TORCHELASTIC_TIMER_FILE
                        is set: TORCHELASTIC_ENABLE_FILE_TIMER=1); the server SIGKILLs a rank
                        whose step outlives it
    BENCH_HANG          the script's own hangs, which nonstop.faults has no spec for:
                        `startup@rank=R` (rank R blocks forever after init_process_group, before
                        DDP is built and any step starts: a hung dataset mount) or
                        `loader@step=N,rank=R` (rank R's DataLoader worker blocks forever while
                        producing step N's batch: a data-loader deadlock)
    BENCH_PAUSE         a legitimately slow phase, `KIND@step=N,rank=R,s=SECONDS`: `load` (rank
                        R sleeps S seconds before DDP is built, in a "load" section: a
                        checkpoint read from a slow filesystem before the first step), `eval` (rank
                        R evaluates after step N: forward passes, CPU-bound, in an "eval"
                        section), `save` (rank R writes a synchronous checkpoint after step N:
                        S seconds of writes to a 16 MiB/s filesystem, then fsync, I/O-bound,
                        in a "checkpointing" section; `slow_save`) or
                        `compile` (rank R spends S seconds of Python work inside step N before
                        its forward pass, like a recompile: no section)
    BENCH_MARKS         folder for `hang.json` / `pause.json`: the wall time the script's own
                        hang or pause began (the benchmark's time zero for them)
    BENCH_FT            `sections` or `heartbeats`: report to NVIDIA's resiliency extension's
                        rank monitor (nvidia_resiliency_ext.fault_tolerance.RankMonitorClient,
                        under ft_launcher) as its integration guides do. `sections`: a `setup`
                        section from the client's start to the first step, a `step` section
                        around each step, `checkpointing` / `eval` around the slow phases;
                        `heartbeats`: one heartbeat at each step's start
    BENCH_SECTIONS      `0`: the slow phases run outside any section (rt.section or the FT
                        client's), so that the launcher is not told about them
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

import nonstop.runtime as ns


def parse_spec(text: str) -> tuple[str, dict[str, float]]:
    """`kind@key=value,...` -> (kind, {key: value})."""
    kind, _, rest = text.partition("@")
    keys = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
    return kind, {k: float(v) for k, v in keys.items()}


def mark(name: str, **payload: object) -> None:
    folder = os.environ.get("BENCH_MARKS")
    if folder:
        path = Path(folder) / name
        path.write_text(json.dumps({"time": time.time(), **payload}))


def block_forever() -> None:
    """Block without CPU; exit once the parent is gone (a DataLoader worker must not outlive
    its rank)."""
    parent = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


class Batches(torch.utils.data.Dataset[tuple[torch.Tensor, torch.Tensor]]):
    """Deterministic synthetic batches; one item is one step's batch."""

    def __init__(self, steps: int, batch: int, dim: int, rank: int, hang_step: int | None):
        self.steps, self.batch, self.dim, self.rank, self.hang_step = (
            steps,
            batch,
            dim,
            rank,
            hang_step,
        )

    def __len__(self) -> int:
        return self.steps

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        if i == self.hang_step:
            mark("hang.json", kind="loader", step=i, rank=self.rank, pid=os.getpid())
            block_forever()
        g = torch.Generator().manual_seed(1000 * self.rank + i)
        x = torch.randn(self.batch, self.dim, generator=g)
        return x, x.sum(dim=1, keepdim=True)


def busy_python(seconds: float) -> None:
    """Pure-Python work (a recompile is mostly Python): the process's CPU time advances."""
    end = time.monotonic() + seconds
    x = 0
    while time.monotonic() < end:
        for i in range(10_000):
            x ^= i * i
    del x


@contextlib.contextmanager
def nothing() -> Iterator[None]:
    yield


class FTClient:
    """The workload's side of ft_launcher: heartbeats or sections, as NVRx's integration
    guides (Heartbeats API, Sections API) describe; every call a no-op when mode is ""."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.client = None
        if mode not in ("", "sections", "heartbeats"):
            raise SystemExit(f"BENCH_FT: unknown mode {mode!r}; sections or heartbeats")
        if mode:
            from nvidia_resiliency_ext.fault_tolerance import RankMonitorClient

            self.client = RankMonitorClient()
            self.client.init_workload_monitoring()
            if mode == "sections":
                self.client.start_section("setup")
        self._setup_open = mode == "sections"

    @contextlib.contextmanager
    def step(self) -> Iterator[None]:
        if self.client is None:
            yield
            return
        if self.mode == "heartbeats":
            self.client.send_heartbeat()
            yield
            return
        if self._setup_open:
            self.client.end_section("setup")
            self._setup_open = False
        self.client.start_section("step")
        yield
        self.client.end_section("step")

    @contextlib.contextmanager
    def section(self, name: str) -> Iterator[None]:
        if self.client is None or self.mode != "sections":
            yield
            return
        self.client.start_section(name)
        yield
        self.client.end_section(name)

    def close(self) -> None:
        if self.client is not None:
            self.client.shutdown_workload_monitoring()


def main() -> int:
    p = argparse.ArgumentParser(prog="benchmarks.hang_workload")
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--batch-size", type=int, default=64)
    a = p.parse_args()
    rt = ns.init()
    torch.set_num_threads(1)
    pg_timeout = float(os.environ.get("BENCH_PG_TIMEOUT_S", "1800"))
    dist.init_process_group("gloo", timeout=timedelta(seconds=pg_timeout))
    rank = dist.get_rank()
    rt.lifecycle("pg_ready", world_size=dist.get_world_size())
    ft = FTClient(os.environ.get("BENCH_FT", ""))
    told = os.environ.get("BENCH_SECTIONS", "1") != "0"

    def section(name: str) -> contextlib.AbstractContextManager[None]:
        """The slow phase's section for both launchers, or none (BENCH_SECTIONS=0)."""
        if not told:
            return nothing()
        stack = contextlib.ExitStack()
        stack.enter_context(rt.section(name))
        stack.enter_context(ft.section(name))
        return stack

    hang_kind, hang = parse_spec(os.environ.get("BENCH_HANG", ""))
    mine = int(hang.get("rank", -1)) == rank
    if hang_kind == "startup" and mine:
        mark("hang.json", kind="startup", rank=rank, pid=os.getpid())
        block_forever()
    pause_kind, pause = parse_spec(os.environ.get("BENCH_PAUSE", ""))
    pause_here = int(pause.get("rank", -1)) == rank
    pause_step, pause_s = int(pause.get("step", -1)), pause.get("s", 8.0)
    if pause_kind == "load" and pause_here:  # before the first step: a checkpoint's load
        mark("pause.json", kind="load", rank=rank)
        with section("load"):
            time.sleep(pause_s)

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(a.dim, a.dim), torch.nn.ReLU(), torch.nn.Linear(a.dim, 1)
    )
    ddp = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    loader_hang = int(hang["step"]) if hang_kind == "loader" and mine else None
    data = Batches(a.steps, a.batch_size, a.dim, rank, loader_hang)
    loader = torch.utils.data.DataLoader(data, batch_size=None, num_workers=1, prefetch_factor=2)

    timer_s = float(os.environ.get("BENCH_TIMER_S", "0"))
    timer_file = os.environ.get("TORCHELASTIC_TIMER_FILE")
    if timer_s > 0 and timer_file:
        from torch.distributed.elastic import timer

        timer.configure(timer.FileTimerClient(timer_file))

        def guard() -> contextlib.AbstractContextManager[None]:
            return timer.expires(after=timer_s)
    else:
        guard = nothing

    batches = iter(loader)
    for step in range(a.steps):
        with guard(), ft.step(), rt.step(step):
            x, y = next(batches)
            if pause_kind == "compile" and pause_here and step == pause_step:
                mark("pause.json", kind="compile", rank=rank, step=step)
                busy_python(pause_s)
            loss = torch.nn.functional.mse_loss(ddp(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        if pause_here and step == pause_step and pause_kind == "eval":
            mark("pause.json", kind="eval", rank=rank, step=step)
            with section("eval"), torch.no_grad():
                end = time.monotonic() + pause_s
                while time.monotonic() < end:
                    model(torch.randn(a.batch_size, a.dim))
        elif pause_here and step == pause_step and pause_kind == "save":
            mark("pause.json", kind="save", rank=rank, step=step)
            with section("checkpointing"):
                path = Path(os.environ.get("BENCH_MARKS") or ".") / f"save-{rank}.pt"
                slow_save(model.state_dict(), path, pause_s)
    rt.lifecycle("finished", step=a.steps - 1)
    ft.close()
    dist.barrier()
    dist.destroy_process_group()
    return 0


SLOW_FS_BYTES_PER_S = 16 << 20
"""The slow filesystem a `save` pause writes to: 16 MiB/s (a congested network share)."""


def slow_save(state: dict[str, Any], path: Path, seconds: float) -> None:
    """A synchronous checkpoint to a slow filesystem, taking `seconds`: the state is written,
    then padded to what that filesystem takes in that time, in 1 MiB writes each returning at
    its pace (a real slow write blocks inside write(); its bytes count as they go, which is
    what a launcher can see from outside), then fsynced."""
    end = time.monotonic() + seconds
    buf = io.BytesIO()
    torch.save(state, buf)
    data = buf.getvalue()
    total = max(len(data), int(seconds * SLOW_FS_BYTES_PER_S))
    chunk = 1 << 20
    start = time.monotonic()
    with open(path, "wb") as f:
        for at in range(0, total, chunk):
            f.write(data[at : at + chunk] if at < len(data) else b"\0" * min(chunk, total - at))
            due = start + (at + chunk) / SLOW_FS_BYTES_PER_S
            time.sleep(max(0.0, min(due, end) - time.monotonic()))
        f.flush()
        os.fsync(f.fileno())
    time.sleep(max(0.0, end - time.monotonic()))


if __name__ == "__main__":
    raise SystemExit(main())
