"""Checkpoint cost measured from outside: nonstop's async Checkpointer vs dcp.async_save, dcp.save.

    .venv/bin/python benchmarks/run.py checkpoint --quick --json   # ~3 MB, 2 reps (wiring only)
    .venv/bin/python benchmarks/run.py checkpoint --json           # 100 MB and 1 GB, 5 reps
    NONSTOP_BENCH_CKPT_4GB=1 .venv/bin/python benchmarks/run.py checkpoint --json  # + 4 GB

The same state (a stack of 2048x2048 linear layers plus fused AdamW's two moments, float32, on
CPU; parameters are a third of it) is saved at the same cadence (one save per window) four ways,
each into its own folder on the same filesystem:

- ours: `Checkpointer.save(step, state)` as docs/checkpoint.md shows it (async, overlapped
  staging, a CRC-32 per 64 MiB of every file, COMMIT.json, retention keep_last=2, so that a load has an
  older checkpoint to fall back on and reads the disk once: docs/checkpoint.md, "Loading");
- dcp-async-process: `dcp.async_save(..., async_checkpointer_type=PROCESS, async_stager=S)`,
  the configuration TorchTitan calls async_with_pinned_mem; S = DefaultStager(StagingOptions(
  use_pinned_memory=False, use_shared_memory=True, use_async_staging=True,
  use_non_blocking_copy=False)), kept across saves so its staged storages are cached and reused
  (pinning and non-blocking copies need CUDA, which this host lacks); the user waits on
  `staging_completion` before the next `optimizer.step()`;
- dcp-async-thread: the same with AsyncCheckpointerType.THREAD;
- dcp-sync: `dcp.save` (the whole call blocks).

NVIDIA's resiliency extension (nvidia-resiliency-ext 0.4.1) is the fifth peer, and it cannot
run on this CPU-only torch (`nvrx` in the JSON says why, in its own source lines): its
recommended async path (`FileSystemWriterAsync` + `save_state_dict_async_plan` on an
`AsyncCallsQueue` with the persistent caller) stages in the checkpoint process with
`preload_tensors(..., non_blocking=True)`, which calls `torch.cuda.synchronize()`
unconditionally: the process dies and the trainer waits forever in `preload_q.join()`; the
temporal (fork) caller and `TorchAsyncCheckpoint.async_save` call `torch.cuda.synchronize()`
themselves. On a GPU host it would be an arm here.

Blocking is the extra wall time of a window of training-like steps that contains a save,
against the window before it without one (interleaved, method order rotated every repetition):
T_save - n_save * T_base / n_base, since the window with the save runs until the save is durable
(n_save >= n_base steps). A step is a fixed matmul loop (torch.mm 256x256, 70 times, one
intra-op thread: the compute) then `optimizer.step()` on the saved state (fused AdamW: the
mutation a staged copy must not race). The save is issued after step 1; n_base is 1.5x a
synchronous save's time at warm-up, in steps; durability is seen from outside (ours:
COMMIT.json in the committed folder; DCP: its upload future), so the staging wait, copy, hash
and write contention all count.
`durable_s` is save call to files complete (ours: COMMIT.json renamed in; DCP: upload future
done, .metadata written); `load_s` restores the newest checkpoint into the live state (ours:
`load_latest` with its default verification of every file's checksums; DCP: `dcp.load` of its
newest folder, which verifies nothing) with the files' pages in memory (read once right
before), `load_cold_s` the same right after those pages were dropped (`posix_fadvise
DONTNEED` on every file of the arm's folder): from the disk, as after a restart on another node
or once the cache has moved on. Ours writes around the page cache (docs/checkpoint.md, "Direct
writes"), so its first load after a save is the cold one, where DCP's is warm. `hash_mbps`: the checksum candidates' speed on 64 MB in
the same run (docs/checkpoint.md, "Checksums").
`lost_s` (the headline since 2026-12-03) is the same difference with each window's time
in the run queue taken out: the seconds the training thread was runnable but waiting for a CPU
(/proc/thread-self/schedstat), which on a shared 2-core host is mostly other sessions' load and
made the wall-time blocking undecided at load 11-18. What is left is the training thread's own
lost progress: waits for staging, for the GIL, slower steps (memory bandwidth), and the whole
synchronous save for dcp-sync. Left out too, for every arm alike: the queueing a save's own
background threads or process cause when they take a CPU the training thread wanted (on a
2-core host with a one-thread step that is little, unless the host is loaded; `blocking_s`
keeps it, with the host's noise).
`inside_s` is blocking measured from inside the training thread, which the host's noise
hardly touches: the save call plus the waits for staging before optimizer steps (ours: the
Checkpointer's own `blocking_s`, the same two; dcp-sync: the whole call); `ratio_inside_ci`.
`ratio_durable_ci` and `ratio_load_ci`: ours / each peer's (and / `dcp.load`'s) medians with
their 95% bootstrap intervals; every sample is kept (`samples_*`).
`ratio` = ours / the best peer (lowest median blocking) at the largest size measured (4 GB only
with NONSTOP_BENCH_CKPT_4GB=1 and more than 14 GB free: its windows take minutes each); `limit`
is the disk's sequential write speed (8 MiB writes + fsync) measured in the same run.
"""

from __future__ import annotations

import math
import os
import shutil
import socket
import statistics
import tempfile
import time
import warnings
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
from torch.distributed.checkpoint.state_dict import get_state_dict
from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType

from benchmarks.stats import bootstrap_ratio_ci, reps, span, summarize
from nonstop.checkpoint import CheckpointConfig, Checkpointer, digest, writeback

MB = 1 << 20
MM_SIZE, MM_ITERS = 256, 70  # the step's fixed compute (about 40 ms on one core here)
BIG_SIZE_FREE_GB = 14.0  # the 4 GB size runs only with this much memory free


def make_state(total_mb: int) -> tuple[nn.Module, torch.optim.Optimizer]:
    """Parameters a third of `total_mb`, fused AdamW's moments the rest; grads kept."""
    width = 2048 if total_mb >= 48 else 512
    layers = max(1, round(total_mb * MB / 3 / 4 / (width * width)))
    torch.manual_seed(0)
    model = nn.Sequential(*(nn.Linear(width, width, bias=False) for _ in range(layers)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-6, fused=True)
    for p in model.parameters():
        p.grad = torch.randn_like(p) * 1e-3  # kept: every step mutates params and moments
    opt.step()
    return model, opt


class _Ours:
    name = "ours"

    def __init__(self, root: Path, model: nn.Module, opt: torch.optim.Optimizer) -> None:
        self.state, self.root = {"model": model, "optimizer": opt}, root / "ours"
        # two kept: a verified load with an older one to fall back on reads the disk once
        # (docs/checkpoint.md, "Loading"), as every run with the default keep_last=3 does
        self.ckpt = Checkpointer(self.root, config=CheckpointConfig(keep_last=2))
        self.step = 0
        self.inside_s = 0.0

    def start(self, step: int) -> None:
        self.step = step
        self.ckpt.save(step, self.state)

    def done(self) -> bool:  # from outside: the committed folder with its COMMIT.json
        return (self.root / "checkpoints" / f"step-{self.step}" / "COMMIT.json").exists()

    def before_step(self) -> None:  # the Checkpointer's optimizer pre-hook waits by itself
        pass

    def finish(self) -> float:
        r = self.ckpt.wait()
        assert r is not None and r.ok, r
        self.inside_s = r.blocking_s  # save() itself + optimizer steps that waited for the copy
        return r.total_s

    def load(self) -> float:
        c = Checkpointer(self.root, config=CheckpointConfig())
        t0 = time.perf_counter()
        assert c.load_latest(self.state) > 0
        dt = time.perf_counter() - t0
        c.close()
        return dt

    def close(self) -> None:
        self.ckpt.close()


class _Dcp:
    def __init__(
        self,
        root: Path,
        model: nn.Module,
        opt: torch.optim.Optimizer,
        mode: AsyncCheckpointerType | None,
        stager: DefaultStager | None,
    ) -> None:
        self.name = "dcp-sync" if mode is None else f"dcp-async-{mode.value}"
        self.root, self.model, self.opt = root / self.name, model, opt
        self.mode, self.stager = mode, stager
        self.resp: Any = None
        self.t0 = self.t_done = 0.0
        self.last: Path | None = None
        self.inside_s = 0.0  # the save call + waits for staging before optimizer steps

    def start(self, step: int) -> None:
        if self.last is not None:
            shutil.rmtree(self.last, ignore_errors=True)  # keeps one (ours two: see _Ours)
        self.last = self.root / f"step-{step}"
        self.t0 = time.perf_counter()
        msd, osd = get_state_dict(self.model, self.opt)
        sd = {"model": msd, "optimizer": osd}
        if self.mode is None:
            dcp.save(sd, checkpoint_id=self.last)
            self.t_done = time.perf_counter()
            self.inside_s = self.t_done - self.t0
            return
        self.resp = dcp.async_save(
            sd, checkpoint_id=self.last, async_checkpointer_type=self.mode, async_stager=self.stager
        )
        self.resp.upload_completion.add_done_callback(self._done)
        self.inside_s = time.perf_counter() - self.t0

    def done(self) -> bool:
        return self.resp is None or self.resp.upload_completion.done()

    def _done(self, _: Future[Any]) -> None:
        self.t_done = time.perf_counter()

    def before_step(self) -> None:  # the staged copy must be complete before params change
        if self.resp is not None and not self.resp.staging_completion.done():
            t0 = time.perf_counter()
            self.resp.staging_completion.result()
            self.inside_s += time.perf_counter() - t0

    def finish(self) -> float:
        if self.resp is not None:
            self.resp.upload_completion.result()
            self.resp = None
            while self.t_done < self.t0:  # the callback runs on the executor's thread
                time.sleep(0.001)
        return self.t_done - self.t0

    def load(self) -> float:
        msd, osd = get_state_dict(self.model, self.opt)
        t0 = time.perf_counter()
        dcp.load({"model": msd, "optimizer": osd}, checkpoint_id=self.last)
        return time.perf_counter() - t0

    def close(self) -> None:
        pass


def _compute(a: torch.Tensor, out: torch.Tensor) -> None:
    for _ in range(MM_ITERS):
        torch.mm(a, a, out=out)


def _queued_s() -> float:
    """Seconds this thread has spent runnable but waiting for a CPU (the scheduler's run
    queue; /proc/thread-self/schedstat's second field), 0.0 where the kernel does not say."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _window(
    steps: int,
    opt: torch.optim.Optimizer,
    method: Any,
    save_step: int | None,
    a: torch.Tensor,
    out: torch.Tensor,
) -> tuple[float, float, int, float]:
    """Wall seconds of a window of training-like steps, seconds to durable (0 without a save),
    the number of steps, and the seconds of the window the training thread spent waiting in
    the run queue for a CPU. With `save_step`, the save is issued after step 1 and the window
    goes on past `steps` until the save is durable."""
    q0 = _queued_s()
    t0 = time.perf_counter()
    i = 0
    while i < steps or (save_step is not None and not method.done()):
        _compute(a, out)
        if save_step is not None:
            method.before_step()
        opt.step()
        if i == 1 and save_step is not None:
            method.start(save_step)
        i += 1
    durable = method.finish() if save_step is not None else 0.0
    return time.perf_counter() - t0, durable, i, _queued_s() - q0


def _drop_cached(folder: Path) -> None:
    """Ask the kernel to forget the cached pages of every file under `folder` (clean pages
    only: the files are durable), so that the next load reads them from the disk."""
    for p in folder.rglob("*"):
        if p.is_file():
            fd = os.open(p, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def _disk_write_mbps(folder: Path, nbytes: int) -> float:
    chunk = os.urandom(8 * MB)
    n = max(1, nbytes // len(chunk))
    path = folder / "disk-probe.bin"
    t0 = time.perf_counter()
    with open(path, "wb") as f:
        for _ in range(n):
            f.write(chunk)
        f.flush()
        os.fsync(f.fileno())
    dt = time.perf_counter() - t0
    path.unlink()
    return n * len(chunk) / MB / dt


def _one_size(total_mb: int, k: int, root: Path) -> dict[str, Any]:
    model, opt = make_state(total_mb)
    nbytes = sum(p.nbytes for p in model.parameters()) * 3
    a, out = torch.randn(MM_SIZE, MM_SIZE), torch.empty(MM_SIZE, MM_SIZE)
    root = root / f"{total_mb}mb"  # each size its own folders: no step of another size to see
    root.mkdir(parents=True, exist_ok=True)
    opts = StagingOptions(
        use_pinned_memory=False,
        use_shared_memory=True,
        use_async_staging=True,
        use_non_blocking_copy=False,
    )
    stager = DefaultStager(opts)
    methods = [
        _Ours(root, model, opt),
        _Dcp(root, model, opt, AsyncCheckpointerType.PROCESS, stager),
        _Dcp(root, model, opt, AsyncCheckpointerType.THREAD, stager),
        _Dcp(root, model, opt, None, None),
    ]
    t0 = time.perf_counter()
    for _ in range(3):
        _compute(a, out)
        opt.step()
    step_s = (time.perf_counter() - t0) / 3
    sync_s = 0.0
    for m in methods:  # warm-up save each (spawns DCP's checkpoint process), not counted
        _, d, _, _ = _window(2, opt, m, 1, a, out)
        sync_s = d if m.name == "dcp-sync" else sync_s
    steps = max(6, math.ceil(1.5 * sync_s / step_s) + 2)
    rows: dict[str, dict[str, list[float]]] = {
        m.name: {
            "blocking_s": [],
            "lost_s": [],
            "inside_s": [],
            "durable_s": [],
            "load_s": [],
            "load_cold_s": [],
            "extra_steps": [],
        }
        for m in methods
    }
    for r in range(k):
        for m in methods[r % len(methods) :] + methods[: r % len(methods)]:
            base, _, _, base_q = _window(steps, opt, m, None, a, out)
            with_save, durable, n, save_q = _window(steps, opt, m, 2 + r, a, out)
            rows[m.name]["blocking_s"].append(with_save - n * base / steps)
            # the training thread's lost progress: the same difference without the time it
            # waited in the run queue (the host's other load, and any thread's CPU share)
            rows[m.name]["lost_s"].append((with_save - save_q) - n * (base - base_q) / steps)
            rows[m.name]["durable_s"].append(durable)
            rows[m.name]["inside_s"].append(m.inside_s)
            rows[m.name]["extra_steps"].append(n - steps)
    for _ in range(k):
        for m in methods:
            _drop_cached(m.root)  # cold: read from the disk, every arm alike
            rows[m.name]["load_cold_s"].append(m.load())
            rows[m.name]["load_s"].append(m.load())  # warm: the same files, just read
    for m in methods:
        m.close()
    stager.close()
    med = {n: {key: statistics.median(v) for key, v in row.items()} for n, row in rows.items()}
    peers = [n for n in rows if n != "ours"]
    best = min(peers, key=lambda n: med[n]["blocking_s"])
    best_lost = min(peers, key=lambda n: med[n]["lost_s"])
    out_row: dict[str, Any] = {
        "target_mb": total_mb,
        "state_mb": round(nbytes / MB, 1),
        "window_steps": steps,
        "step_s": round(step_s, 4),
        # the headline: the training thread's lost progress (wall less run-queue waits)
        "best_peer_lost": best_lost,
        "ratio_lost_vs_best_peer": med["ours"]["lost_s"] / med[best_lost]["lost_s"],
        "ratio_lost_ci": {
            n: [
                round(med["ours"]["lost_s"] / med[n]["lost_s"], 3),
                bootstrap_ratio_ci(rows["ours"]["lost_s"], rows[n]["lost_s"]),
            ]
            for n in peers
        },
        # blocking in wall time, as before (the host's noise included)
        "best_peer": best,
        "ratio_vs_best_peer": med["ours"]["blocking_s"] / med[best]["blocking_s"],
        "ratio_ci": bootstrap_ratio_ci(rows["ours"]["blocking_s"], rows[best]["blocking_s"]),
        "ratio_durable_vs_best_peer": med["ours"]["durable_s"] / med[best]["durable_s"],
        "ratio_load_vs_dcp_load": med["ours"]["load_s"] / med["dcp-sync"]["load_s"],
        # ours / each peer, with the 95% bootstrap interval of the ratio of medians
        "ratio_durable_ci": {
            n: [
                round(med["ours"]["durable_s"] / med[n]["durable_s"], 3),
                bootstrap_ratio_ci(rows["ours"]["durable_s"], rows[n]["durable_s"]),
            ]
            for n in peers
        },
        "ratio_inside_ci": {
            n: [
                round(med["ours"]["inside_s"] / med[n]["inside_s"], 3),
                bootstrap_ratio_ci(rows["ours"]["inside_s"], rows[n]["inside_s"]),
            ]
            for n in peers
        },
        "ratio_load_ci": [
            round(med["ours"]["load_s"] / med["dcp-sync"]["load_s"], 3),
            bootstrap_ratio_ci(rows["ours"]["load_s"], rows["dcp-sync"]["load_s"]),
        ],
        "ratio_load_cold_ci": [
            round(med["ours"]["load_cold_s"] / med["dcp-sync"]["load_cold_s"], 3),
            bootstrap_ratio_ci(rows["ours"]["load_cold_s"], rows["dcp-sync"]["load_cold_s"]),
        ],
        "disk_write_mbps": _disk_write_mbps(root, nbytes),
    }
    for n, row in rows.items():
        out_row[n] = {
            **{f"{key}": round(med[n][key], 4) for key in row},
            **{f"{key}_span": span(v) for key, v in row.items()},
            **{f"samples_{key}": [round(x, 4) for x in row[key]] for key in row},
        }
    out_row["_samples"] = rows  # popped by run(): the headline's summarize() needs them
    del model, opt, methods
    return out_row


def hash_mbps(nbytes: int = 64 * MB) -> dict[str, float]:
    """MB/s of each checksum candidate on `nbytes` of random data (best of 3, one thread)."""
    import hashlib
    import zlib

    data = memoryview(os.urandom(nbytes))
    fns: dict[str, Any] = {
        "sha256": lambda d: hashlib.sha256(d).digest(),
        "blake2b": lambda d: hashlib.blake2b(d).digest(),
        "md5": lambda d: hashlib.md5(d).digest(),
        "zlib.adler32": zlib.adler32,
        "zlib.crc32": zlib.crc32,
    }
    try:
        from isal import isal_zlib

        fns["isal.crc32"] = isal_zlib.crc32  # what crc32-64m runs on (digest.CRC32_IMPL)
    except ImportError:
        pass
    try:
        import xxhash  # type: ignore[import-not-found]

        fns["xxh3_64"] = lambda d: xxhash.xxh3_64(d).digest()
    except ImportError:
        pass  # not installed here: not measured
    out = {}
    for name, fn in fns.items():
        best = math.inf
        for _ in range(3):
            t0 = time.perf_counter()
            fn(data)
            best = min(best, time.perf_counter() - t0)
        out[name] = round(nbytes / MB / best)
    return out


def nvrx_status() -> dict[str, Any]:
    """Whether NVIDIA's resiliency extension's checkpointing can be a peer here, and why not."""
    try:
        from importlib.metadata import version

        v = version("nvidia-resiliency-ext")
    except Exception:  # not installed
        return {"run": False, "why": "nvidia-resiliency-ext is not installed"}
    if torch.cuda.is_available():
        return {
            "version": v,
            "run": False,
            "why": "CUDA present: this benchmark's state is "
            "on CPU, which NVRx's preload does not copy (tensor.to('cpu') is the tensor)",
        }
    return {
        "version": v,
        "run": False,
        "why": "needs CUDA: async_ckpt/filesystem_async.py FileSystemWriterAsync.preload_tensors "
        "calls torch.cuda.synchronize() unconditionally (the persistent caller's process dies, "
        "the trainer blocks forever in preload_q.join()); core.py TemporalAsyncCaller and "
        "torch_ckpt.py TorchAsyncCheckpoint.async_save call torch.cuda.synchronize(); "
        "local checkpointing: basic_state_dict.py BasicTensorAwareStateDict asserts every "
        "tensor is_cuda, base_manager.py's async save calls torch.cuda.synchronize(), "
        "replication moves tensors to 'cuda'",
    }


def _free_gb() -> float:
    with open("/proc/meminfo") as f:
        info = {line.split(":")[0]: int(line.split()[1]) for line in f}
    return info["MemAvailable"] / (1 << 20)


def _init_single_rank_group() -> bool:
    """DCP's process mode needs a process group (its daemon joins one): a 1-rank gloo group."""
    if dist.is_initialized():
        return False
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1)
    return True


def run(quick: bool) -> dict[str, Any]:
    free_gb = _free_gb()
    sizes = [3] if quick else [100, 1024]
    big_ok = free_gb > BIG_SIZE_FREE_GB
    if not quick and os.environ.get("NONSTOP_BENCH_CKPT_4GB") == "1" and big_ok:
        sizes.append(4096)
    k = reps(quick)
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-ckpt-"))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the step's compute on one core; the save's threads get the other
    created = _init_single_rank_group()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # DCP's experimental/single-rank notices
            rows = [_one_size(mb, k, root) for mb in sizes]
    finally:
        if created:
            dist.destroy_process_group()
        torch.set_num_threads(threads)
        shutil.rmtree(root, ignore_errors=True)
    samples = [r.pop("_samples") for r in rows]
    big, s = rows[-1], samples[-1]
    best = big["best_peer_lost"]
    out = summarize(
        s["ours"]["lost_s"],
        s[best]["lost_s"],
        name="checkpoint",
        unit="s of training progress lost per save (extra window time less run-queue waits)",
        better="lower",
        peer_name=f"{best} ({big['state_mb']:.0f} MB, best of "
        "dcp.async_save process/thread and dcp.save)",
    )
    out.update(
        limit=big["disk_write_mbps"],
        limit_unit="MB/s sequential disk write (fsync), same run",
        headline_mb=big["state_mb"],
        durable_s={
            n: big[n]["durable_s"]
            for n in ("ours", "dcp-async-process", "dcp-async-thread", "dcp-sync")
        },
        load_s={n: big[n]["load_s"] for n in ("ours", "dcp-sync")},
        hash_mbps=hash_mbps(4 * MB if quick else 64 * MB),
        crc32_impl=digest.CRC32_IMPL,
        write_piece=writeback.WRITE_PIECE,
        nvrx=nvrx_status(),
        rows=rows,
        load=[round(x, 2) for x in os.getloadavg()],
        free_gb_at_start=round(free_gb, 1),
        date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        torch=torch.__version__,
        method="the training thread's lost progress: extra time of a window of steps with one "
        "save (run until durable) vs the window before it without, each less the time the "
        "training thread waited in the run queue for a CPU (/proc/thread-self/schedstat); "
        "interleaved, order rotated; medians over reps. Wall-time blocking (run-queue waits "
        "included) is blocking_s in rows",
    )
    if len(sizes) < 3 and not quick:
        out["skipped"] = (
            f"4096 MB: needs NONSTOP_BENCH_CKPT_4GB=1 (about an hour on a loaded 2-core host) "
            f"and > {BIG_SIZE_FREE_GB} GB free ({free_gb:.1f} GB at start)"
        )
    if out["peer"] <= 0 or out["spread"]["ratio"][0] <= 0:
        out["note"] = (
            "the best peer's blocking is within the noise of the window (<= 0 in some "
            "reps): the ratio is not meaningful; compare the blocking seconds and their spans"
        )
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(run(quick=True), indent=1))
