"""A/B of checkpoint write-path options (docs/checkpoint.md, "Time to durable", "Page cache").

    .venv/bin/python benchmarks/checkpoint_ab.py write 1024 4     # MB, reps
    VARIANTS=base,wb,ov,wb+ov,wb+ov+t2 ... write 1024 3            # which arms (default all)
    VARIANTS=wb,wb+big TRAIN=1 ... write 4096 3   # WRITE_PIECE write calls against 16 MiB ones
    TRAIN=1 ... write 1024 3       # with the benchmark's one-thread step loop running
    .venv/bin/python benchmarks/checkpoint_ab.py loaddrop 1024 3
    VERIFY=0 .venv/bin/python benchmarks/checkpoint_ab.py loadahead 4096 8   # read-ahead on/off
    PRESSURE_GB=10 .venv/bin/python benchmarks/checkpoint_ab.py loadpace 4096 3  # paced hash
    .venv/bin/python benchmarks/checkpoint_ab.py pieces 4096 3    # WRITE_PIECE writes vs 16 MiB
    ARMS=zlib/1m,isal/1m,isal/256k .venv/bin/python benchmarks/checkpoint_ab.py arms 4096 3
    ARMS=isal/1m/cache,isal/1m/direct .venv/bin/python benchmarks/checkpoint_ab.py arms 1024 5

`write`: ours with the early writeback (`wb`: sync_file_range every 32 MiB) on or off, the hash
beside the write (`ov`) on or off, `t2` two files per rank (thread_count=2), `big` each tensor
in one write call as torch.save hands it (16 MiB) instead of WRITE_PIECE pieces, and `dcp.save`,
order rotated each rep; per save the time to durable, the process's CPU time and the wall
time in fsync. `loaddrop`: load_latest then a save, with the loaded checkpoint's pages dropped
before the save writes (`drop`, the default) or kept (`keep`), alternated. `loadahead`: a cold
load (pages dropped first) of the newer of two checkpoints with the read pass's read-ahead
(`reading._Ahead`) on or off, alternated; `VERIFY=0` without the checksums. `loadpace`: the same cold verified load with
its checksums paced to the copy (`digest.Pace`, `paced`) or free (`free`, as before
2026-12-06), and `dcp.load` of a `dcp.save` of the same state (`dcp`), rotated, while
`PRESSURE_GB` of anonymous memory is held (the training state's staging buffers on a full host:
the page cache then holds less than the file), or as much as leaves `AVAIL_GB` available
(MemAvailable; `dcp.load` needs a second copy of the state and is OOM-killed below about 5 GB:
`ARMS=paced,free` then); per load the wall time, the MB the process read from the disk
(/proc/self/io) and the MB available after it. `pieces`: one
Checkpointer saving while the step loop trains, alternating write calls of `WRITE_PIECE`
(`small`, the default: 1 MiB) and of whole tensors (`big`), with the writer thread's CPU in the write
calls (hash included), in the hash and in the staging copy. `arms`: the same loop over
`ARMS` (CRC-32 implementation / write piece [/ `cache` to write through the page cache instead
of around it, `direct`, the default, `direct4k` direct from 4 KiB pages as before 2026-12-05's
huge-page buffers, `dcpstage` direct with DCP's stock staging copies, which hold the GIL,
`copy` direct with every byte copied into the writer's buffers as before 2026-12-05's writes
from the staged memory (`STAGED_DIRECT = 0`), `zerocopy` the same as `direct` now: large
tensors written straight from the staged memory], e.g. `zlib/256k,isal/1m/cache`), rotated
each rep, adding the training thread's lost progress (the window's time less its steps at the
step time measured right before the save), the CPU of the direct write calls (`pwrite`, in
whichever thread) and the share of the bytes written straight from the staged memory. A
diagnostic, not a kept benchmark: on a shared host compare medians of several runs.

    ARMS=isal/1m/copy,isal/1m/zerocopy nice -n 19 .venv/bin/python benchmarks/checkpoint_ab.py arms 1024 3
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import nonstop.checkpoint.direct as sdirect
import nonstop.checkpoint.hashing as shash
import nonstop.checkpoint.staging as stg
import nonstop.checkpoint.writeback as swb
from benchmarks.bench_checkpoint import make_state
from nonstop.checkpoint import CheckpointConfig, Checkpointer

warnings.simplefilter("ignore")
MB = 1 << 20
SFR = swb._sync_file_range
PIECE = swb.WRITE_PIECE
DIRECT = sdirect.DIRECT_CHUNK
STAGED = sdirect.STAGED_DIRECT
HUGE_BUFFER = sdirect._huge_buffer
OUR_STAGER = stg._stager
STOCK_STAGER = stg.DefaultStager
FSYNC_S = [0.0]


def _page_buffer(size: int) -> tuple[Any, Any, memoryview]:
    """The direct writer's buffer as it was before huge pages: a shared mapping, 4 KiB pages."""
    import ctypes
    import mmap

    buf = mmap.mmap(-1, size)
    return buf, (ctypes.c_char * size).from_buffer(buf), memoryview(buf)


_fsync = os.fsync


def _timed_fsync(fd: int) -> None:
    t = time.perf_counter()
    try:
        _fsync(fd)
    finally:
        FSYNC_S[0] += time.perf_counter() - t


os.fsync = _timed_fsync


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def _set(variant: str) -> None:
    swb._sync_file_range = SFR if "wb" in variant else None
    swb.WRITE_PIECE = (1 << 62) if "big" in variant else PIECE
    shash.OVERLAP_HASH_BYTES = (1 << 20) if "ov" in variant else 0


def write(total: int, reps: int, root: str) -> dict[str, list[Any]]:
    variants = os.environ.get("VARIANTS", "base,wb,ov,wb+ov,wb+ov+t2").split(",")
    train = os.environ.get("TRAIN") == "1"
    model, opt = make_state(total)
    sd = {"model": model, "optimizer": opt}
    a, o = torch.randn(256, 256), torch.empty(256, 256)

    def train_until(done: Any) -> int:
        n = 0
        while n < 2 or not done():
            for _ in range(70):
                torch.mm(a, a, out=o)
            opt.step()
            n += 1
        return n

    cks, step, dcp_dir = {}, 0, None
    for v in variants:
        cfg = CheckpointConfig(keep_last=1, thread_count=2 if "t2" in v else 1)
        cks[v] = Checkpointer(f"{root}/{v}", config=cfg)
        _set(v)
        step += 1
        cks[v].save(step, sd, wait=True)
    res: dict[str, list[Any]] = {v: [] for v in [*variants, "dcp.save"]}
    arms = [*variants, "dcp.save"]
    for r in range(reps):
        for v in arms[r % len(arms) :] + arms[: r % len(arms)]:
            os.sync()
            step += 1
            FSYNC_S[0] = 0.0
            c0, t0 = _cpu(), time.perf_counter()
            if v == "dcp.save":
                if dcp_dir:
                    shutil.rmtree(dcp_dir)
                dcp_dir = f"{root}/dcp-{step}"
                msd, osd = get_state_dict(model, opt)
                dcp.save({"model": msd, "optimizer": osd}, checkpoint_id=dcp_dir)
                durable = time.perf_counter() - t0
            else:
                _set(v)
                cks[v].save(step, sd)
                key = f"{root}/{v}/checkpoints/step-{step}/COMMIT.json"
                if train:
                    train_until(lambda key=key: os.path.exists(key))
                result = cks[v].wait()
                assert result is not None and result.ok, result
                durable = result.total_s
            row = (round(durable, 3), round(_cpu() - c0, 3), round(FSYNC_S[0], 3))
            res[v].append((*row, round(os.getloadavg()[0], 1)))
            print(v, res[v][-1], flush=True)
    for c in cks.values():
        c.close()
    return res


def loaddrop(total: int, reps: int, root: str) -> dict[str, list[Any]]:
    model, opt = make_state(total)
    sd = {"model": model, "optimizer": opt}
    with Checkpointer(root, config=CheckpointConfig(keep_last=1)) as c:
        c.save(1, sd, wait=True)
    step = 1
    res: dict[str, list[Any]] = {"drop": [], "keep": []}
    for r in range(reps):
        for v in ["drop", "keep"] if r % 2 == 0 else ["keep", "drop"]:
            c = Checkpointer(root, config=CheckpointConfig(keep_last=1))
            assert c.load_latest(sd) == step
            if v == "keep":
                c._cached = []  # what the load read stays cached
            os.sync()
            step += 1
            FSYNC_S[0] = 0.0
            c0 = _cpu()
            out = c.save(step, sd, wait=True)
            assert out is not None and out.ok, out
            row = (round(out.total_s, 3), round(_cpu() - c0, 3), round(FSYNC_S[0], 3))
            c.close()
            res[v].append((*row, round(os.getloadavg()[0], 1)))
            print(v, res[v][-1], flush=True)
    return res


def loadahead(total: int, reps: int, root: str) -> dict[str, list[Any]]:
    """A cold load with the read pass's read-ahead (reading._Ahead) on and off, alternated."""
    from benchmarks.bench_checkpoint import _drop_cached
    from nonstop.checkpoint import reading

    model, opt = make_state(total)
    sd = {"model": model, "optimizer": opt}
    with Checkpointer(root, config=CheckpointConfig(keep_last=2)) as c:
        for step in (1, 2):  # two: the verified load is the one pass, as in training
            c.save(step, sd, wait=True)
    verify = os.environ.get("VERIFY", "1") == "1"
    asks = reading._Ahead.__call__
    res: dict[str, list[Any]] = {"ahead": [], "none": []}
    for r in range(reps):
        for v in ["ahead", "none"] if r % 2 == 0 else ["none", "ahead"]:
            reading._Ahead.__call__ = asks if v == "ahead" else lambda self, end: None  # type: ignore[method-assign]
            os.sync()
            _drop_cached(Path(root))
            c = Checkpointer(root, config=CheckpointConfig(keep_last=2, verify_on_load=verify))
            t0, c0 = time.perf_counter(), _cpu()
            assert c.load_latest(sd) == 2
            row = (round(time.perf_counter() - t0, 3), round(_cpu() - c0, 3))
            c.close()
            res[v].append((*row, round(os.getloadavg()[0], 1)))
            print(v, res[v][-1], flush=True)
    reading._Ahead.__call__ = asks  # type: ignore[method-assign]
    return res


def loadpace(total: int, reps: int, root: str) -> dict[str, list[Any]]:
    """A cold verified load with its checksums paced to the copy and free, and dcp.load of the
    same state, rotated, with PRESSURE_GB of memory held."""
    from benchmarks.bench_checkpoint import _drop_cached
    from nonstop.checkpoint import digest

    model, opt = make_state(total)
    sd = {"model": model, "optimizer": opt}
    ours, theirs = Path(root) / "ours", Path(root) / "dcp"
    with Checkpointer(ours, config=CheckpointConfig(keep_last=2)) as c:
        for step in (1, 2):  # two: the verified load is the one pass, as in training
            c.save(step, sd, wait=True)
    msd, osd = get_state_dict(model, opt)
    dcp.save({"model": msd, "optimizer": osd}, checkpoint_id=theirs)
    gb = float(os.environ.get("PRESSURE_GB", "0"))
    if "AVAIL_GB" in os.environ:  # hold what leaves AVAIL_GB available
        gb = max(0.0, digest._available() / (1 << 30) - float(os.environ["AVAIL_GB"]))
    held = torch.ones(int(gb * (1 << 30)) // 4)
    print(f"holding {gb:.1f} GB: {digest._available() >> 20} MB available", flush=True)
    wait = digest.Pace.wait
    arms = os.environ.get("ARMS", "paced,free,dcp").split(",")
    res: dict[str, list[Any]] = {v: [] for v in arms}
    for r in range(reps):
        for v in arms[r % len(arms) :] + arms[: r % len(arms)]:
            digest.Pace.wait = wait if v == "paced" else lambda self, ident, start: None  # type: ignore[method-assign]
            os.sync()
            _drop_cached(Path(root))
            read0, t0 = _read_mb(), time.perf_counter()
            if v == "dcp":
                dcp.load({"model": msd, "optimizer": osd}, checkpoint_id=theirs)
            else:
                with Checkpointer(ours, config=CheckpointConfig(keep_last=2)) as c:
                    assert c.load_latest(sd) == 2
            row = (round(time.perf_counter() - t0, 3), _read_mb() - read0)
            res[v].append((*row, digest._available() >> 20, round(os.getloadavg()[0], 1)))
            print(v, res[v][-1], flush=True)
    digest.Pace.wait = wait  # type: ignore[method-assign]
    del held
    return res


def _read_mb() -> int:
    """MB this process has read from the disk so far (/proc/self/io read_bytes)."""
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("read_bytes:"):
                return int(line.split()[1]) >> 20
    return 0


def _timed_phases() -> dict[str, list[float]]:
    """Patch the write path so each call's thread CPU lands in the returned dict, per phase:
    `write+hash` (a write call of the checkpoint writer, its hash included), `hash`, `stage`
    (the staging copies, in whichever thread made them)."""
    import nonstop.checkpoint.digest as dg
    import nonstop.checkpoint.staging as stg

    phases: dict[str, list[float]] = {}

    def timed(obj: Any, attr: str, name: str) -> None:
        orig = getattr(obj, attr)

        def w(*a: Any, **k: Any) -> Any:
            c0 = time.thread_time()
            try:
                return orig(*a, **k)
            finally:
                phases.setdefault(name, []).append(time.thread_time() - c0)

        setattr(obj, attr, w)

    timed(shash._HashingWriter, "write", "write+hash")
    timed(sdirect, "_pwrite_all", "pwrite")  # direct writes, in the writer or a pool thread
    timed(dg.Hasher, "update", "hash")
    timed(stg.Stager, "_copy", "stage")
    timed(stg._Copies, "work", "stage")  # a CPU state's later part, either thread's share
    return phases


def pieces(total: int, reps: int, root: str) -> dict[str, list[Any]]:

    phases = _timed_phases()
    model, opt = make_state(total)
    sd = {"model": model, "optimizer": opt}
    a, o = torch.randn(256, 256), torch.empty(256, 256)
    res: dict[str, list[Any]] = {"small": [], "big": []}
    with Checkpointer(root, config=CheckpointConfig(keep_last=1)) as c:
        c.save(1, sd)  # warm-up, async: the writer thread's staging buffers are touched once
        c.wait()
        step = 1
        for r in range(reps):
            for v in ["small", "big"] if r % 2 == 0 else ["big", "small"]:
                swb.WRITE_PIECE = PIECE if v == "small" else 1 << 62
                os.sync()
                phases.clear()
                step += 1
                c.save(step, sd)
                key = f"{root}/checkpoints/step-{step}/COMMIT.json"
                n = 0
                while n < 2 or not os.path.exists(key):
                    for _ in range(70):
                        torch.mm(a, a, out=o)
                    opt.step()
                    n += 1
                out = c.wait()
                assert out is not None and out.ok, out
                cpu = {k: round(sum(x), 2) for k, x in phases.items()}
                row = (round(out.total_s, 3), cpu["write+hash"], cpu["hash"], cpu["stage"])
                res[v].append((*row, round(os.getloadavg()[0], 1)))
                print(v, res[v][-1], flush=True)
    swb.WRITE_PIECE = PIECE
    return res


def _size(text: str) -> int:
    mult = {"k": 1 << 10, "m": 1 << 20}
    return int(text[:-1]) * mult[text[-1]] if text[-1] in mult else int(text)


def _use_stager(c: Checkpointer, caches: dict[Any, dict[Any, Any]], stock: bool) -> None:
    """Stage with DCP's stock storage copies (`stock`: UntypedStorage.copy_, GIL held) or
    with ours (`staging._Storages`), each arm keeping its own cached buffers (page-aligned
    ones where `STAGED_DIRECT` is on, torch's where off)."""
    stg._stager = STOCK_STAGER if stock else OUR_STAGER
    c._stager._stagers = caches.setdefault((stock, sdirect.STAGED_DIRECT), {})


def _arm_key(name: str) -> tuple[bool, int]:
    path = name.split("/")[2:]
    return path == ["dcpstage"], 0 if path == ["copy"] else STAGED


def arms(total: int, reps: int, root: str) -> dict[str, list[Any]]:
    import nonstop.checkpoint.digest as dg

    names = os.environ.get("ARMS", "zlib/1m,isal/1m").split(",")
    phases = _timed_phases()
    model, opt = make_state(total)
    sd = {"model": model, "optimizer": opt}
    a, o = torch.randn(256, 256), torch.empty(256, 256)

    def step() -> None:
        for _ in range(70):
            torch.mm(a, a, out=o)
        opt.step()

    res: dict[str, list[Any]] = {v: [] for v in names}
    caches: dict[Any, dict[Any, Any]] = {}  # (stock stager?, STAGED_DIRECT) -> staged buffers
    with Checkpointer(root, config=CheckpointConfig(keep_last=1)) as c:
        n_step = 0
        for stock, staged in sorted({_arm_key(v) for v in names}):  # warm-up: buffers touched
            sdirect.STAGED_DIRECT = staged
            _use_stager(c, caches, stock)
            n_step += 1
            c.save(n_step, sd)
            c.wait()
        for r in range(reps):
            for v in names[r % len(names) :] + names[: r % len(names)]:
                impl, piece, *path = v.split("/")
                sdirect.STAGED_DIRECT = _arm_key(v)[1]
                _use_stager(c, caches, path == ["dcpstage"])
                dg.use_crc32(impl)
                swb.WRITE_PIECE = _size(piece)
                sdirect.DIRECT_CHUNK = 0 if path == ["cache"] else DIRECT
                sdirect._huge_buffer = _page_buffer if path == ["direct4k"] else HUGE_BUFFER
                os.sync()
                times = []
                for _ in range(8):  # the step time right before the save
                    t = time.perf_counter()
                    step()
                    times.append(time.perf_counter() - t)
                step_s = statistics.median(times)
                phases.clear()
                staged0, buffered0 = sdirect.COUNTS.staged, sdirect.COUNTS.buffered
                n_step += 1
                key = f"{root}/checkpoints/step-{n_step}/COMMIT.json"
                t0 = time.perf_counter()
                c.save(n_step, sd)
                blocking = time.perf_counter() - t0
                n = 0
                while n < 2 or not os.path.exists(key):
                    step()
                    n += 1
                window = time.perf_counter() - t0
                out = c.wait()
                assert out is not None and out.ok, out
                cpu = {k: round(sum(x), 3) for k, x in phases.items()}
                staged = sdirect.COUNTS.staged - staged0
                written = staged + sdirect.COUNTS.buffered - buffered0
                row = (
                    round(out.total_s, 3),
                    round(window - n * step_s, 3),
                    cpu["write+hash"],
                    cpu["hash"],
                    cpu["stage"],
                    round(blocking, 3),
                    cpu.get("pwrite", 0.0),
                    round(staged / max(written, 1), 3),
                )
                res[v].append((*row, round(os.getloadavg()[0], 1)))
                print(v, res[v][-1], flush=True)
    swb.WRITE_PIECE = PIECE
    sdirect.DIRECT_CHUNK = DIRECT
    sdirect.STAGED_DIRECT = STAGED
    sdirect._huge_buffer = HUGE_BUFFER
    stg._stager = OUR_STAGER
    dg.use_crc32()
    return res


def main() -> None:
    mode, total, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    torch.set_num_threads(int(os.environ.get("THREADS", "1")))  # 2: training takes both cores
    root = tempfile.mkdtemp(prefix="ckpt-ab-", dir=os.environ.get("ROOT", "/tmp"))
    try:
        run = {
            "write": write,
            "loaddrop": loaddrop,
            "loadahead": loadahead,
            "loadpace": loadpace,
            "pieces": pieces,
            "arms": arms,
        }[mode]
        res = run(total, reps, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    what = {
        "pieces": "write+hash CPU s, hash CPU s",
        "arms": "lost progress s, write+hash CPU s, hash CPU s, stage CPU s, blocking s, "
        "pwrite CPU s, share written from the staged memory",
        "loadahead": "load CPU s",
        "loadpace": "read MB, available MB",
    }.get(mode, "CPU s, fsync wall s")
    first = "load s" if mode in ("loadahead", "loadpace") else "durable s"
    print(f"arm: {first}, {what} (medians); {first.split()[0]} samples")
    for v, rows in res.items():
        med = [statistics.median(x[i] for x in rows) for i in range(len(rows[0]) - 1)]
        print(f"{v:10s} {' '.join(f'{m:.3f}' for m in med)}  {[x[0] for x in rows]}")


if __name__ == "__main__":
    main()
