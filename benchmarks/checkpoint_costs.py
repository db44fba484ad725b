"""Where a checkpoint's save and load spend their time, nonstop's against dcp.save / dcp.load.

    .venv/bin/python benchmarks/checkpoint_costs.py 1024 3          # MB, reps: save, then load
    TRAIN=1 .venv/bin/python benchmarks/checkpoint_costs.py 1024 2  # saves while training
                                                  # (ours vs dcp.async_save, thread mode)
    COLD=1 ...      # drop the checkpoint files' pages (posix_fadvise) before each load

A diagnostic, not a kept benchmark (benchmarks/bench_checkpoint.py is that): the same state as
the benchmark, each method in turn (order alternated per rep, `os.sync()` before each), and per
measurement the wall time, the process's CPU time (user + sys), bytes written and read
(/proc/self/io), and per phase (staging copy, checksum, writes, torch.save/load, fsync, commit,
verification, the direct read) the wall time, the CPU time of the thread that ran it, the calls
and the bytes, by wrapping those functions. On a loaded host, compare CPU times: wall time is
CPU time times the run queue. The JSON goes to $OUT (default /tmp/checkpoint-costs.json).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import warnings

import torch
import torch.distributed.checkpoint as dcp
from torch.distributed.checkpoint.state_dict import get_state_dict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import nonstop.checkpoint.checkpointer as ckm
import nonstop.checkpoint.commit as cm
import nonstop.checkpoint.dcp_io as dio
import nonstop.checkpoint.digest as dg
import nonstop.checkpoint.hashing as shash
import nonstop.checkpoint.staging as stg
import nonstop.checkpoint.state as st
from benchmarks.bench_checkpoint import make_state
from nonstop.checkpoint import CheckpointConfig, Checkpointer

warnings.simplefilter("ignore")
MB = 1 << 20
PH: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0, 0])  # wall cpu n bytes
LOCK = threading.Lock()


def rec(name, wall, cpu, nbytes=0):
    with LOCK:
        p = PH[name]
        p[0] += wall
        p[1] += cpu
        p[2] += 1
        p[3] += nbytes


def wrap(obj, attr, name, nbytes=None):
    orig = getattr(obj, attr)

    def w(*a, **k):
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return orig(*a, **k)
        finally:
            rec(name, time.perf_counter() - t0, time.thread_time() - c0, nbytes(a) if nbytes else 0)

    setattr(obj, attr, w)
    return orig


def wrap_cm(obj, attr, name):
    orig = getattr(obj, attr)

    @contextlib.contextmanager
    def w(*a, **k):
        t0, c0 = time.perf_counter(), time.thread_time()
        with orig(*a, **k) as f:
            yield f
        rec(name, time.perf_counter() - t0, time.thread_time() - c0)

    setattr(obj, attr, w)


# instrument
wrap(os, "fsync", "fsync")
wrap(dg.Hasher, "update", "hash.update", lambda a: memoryview(a[1]).nbytes)
wrap(
    shash._HashingWriter,
    "write",
    "hashingwriter.write(incl hash)",
    lambda a: memoryview(a[1]).nbytes,
)
wrap(stg.Stager, "_copy", "stage.copy", lambda a: stg.nbytes(a[2]))
wrap(cm, "commit", "commit")
wrap(cm, "verify", "verify")
wrap(st, "apply", "load.apply")
wrap(st, "targets", "load.targets")
wrap(st, "collect", "save.collect")
wrap(torch, "save", "torch.save")
wrap(torch, "load", "torch.load")
import nonstop.checkpoint.reading as rdg  # noqa: E402

wrap(dio, "read_into", "read_into(direct)")
wrap(rdg, "_copy_direct", "copy_direct")
orig_save = dcp.save
orig_load = dcp.load


def timed_save(*a, **k):
    t0, c0 = time.perf_counter(), time.thread_time()
    try:
        return orig_save(*a, **k)
    finally:
        who = threading.current_thread().name.split("_")[0]
        rec(f"dcp.save[{who}]", time.perf_counter() - t0, time.thread_time() - c0)


def timed_load(*a, **k):
    t0, c0 = time.perf_counter(), time.thread_time()
    try:
        return orig_load(*a, **k)
    finally:
        rec("dcp.load(any)", time.perf_counter() - t0, time.thread_time() - c0)


ckm.dcp.save = timed_save  # same module object as dcp
ckm.dcp.load = timed_load


def io_counters():
    d = {}
    with open("/proc/self/io") as f:
        for line in f:
            k, v = line.split(":")
            d[k] = int(v)
    return d


def minflt():
    """This process's minor page faults so far (/proc/self/stat field 10)."""
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[7])


def cpu():
    t = os.times()
    return t.user + t.system


@contextlib.contextmanager
def measure(label, out):
    PH.clear()
    io0, c0, t0, f0 = io_counters(), cpu(), time.perf_counter(), minflt()
    yield
    t1, c1, io1 = time.perf_counter(), cpu(), io_counters()
    row = {
        "wall_s": round(t1 - t0, 3),
        "cpu_s": round(c1 - c0, 3),
        "minor_faults": minflt() - f0,
        "write_MB": round((io1["write_bytes"] - io0["write_bytes"]) / MB),
        "wchar_MB": round((io1["wchar"] - io0["wchar"]) / MB),
        "read_MB": round((io1["read_bytes"] - io0["read_bytes"]) / MB),
        "rchar_MB": round((io1["rchar"] - io0["rchar"]) / MB),
        "phases": {
            k: [round(v[0], 3), round(v[1], 3), v[2], round(v[3] / MB)] for k, v in PH.items()
        },
        "load": os.getloadavg()[0],
    }
    out.setdefault(label, []).append(row)
    print(label, json.dumps(row), flush=True)


def drop_cache(folder):
    for dp, _, fs in os.walk(folder):
        for f in fs:
            fd = os.open(os.path.join(dp, f), os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)


def train_until(done, opt, a, o, min_steps=2):
    n = 0
    while n < min_steps or not done():
        for _ in range(70):
            torch.mm(a, a, out=o)
        opt.step()
        n += 1
    return n


def main_train():
    from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
    from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType

    total = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    torch.set_num_threads(1)
    root = tempfile.mkdtemp(prefix="ckpt30-", dir=os.environ.get("ROOT", "/tmp"))
    model, opt = make_state(total)
    sdict = {"model": model, "optimizer": opt}
    a, o = torch.randn(256, 256), torch.empty(256, 256)
    out: dict = {}
    ck = Checkpointer(f"{root}/ours", config=CheckpointConfig(keep_last=1))
    stager = DefaultStager(StagingOptions(False, True, True, False))
    ck.save(1, sdict)
    ck.wait()
    step = 1
    last = [None]

    def dcp_async(step):
        if last[0]:
            shutil.rmtree(last[0], ignore_errors=True)
        last[0] = f"{root}/dcpa-{step}"
        msd, osd = get_state_dict(model, opt)
        resp = dcp.async_save(
            {"model": msd, "optimizer": osd},
            checkpoint_id=last[0],
            async_checkpointer_type=AsyncCheckpointerType.THREAD,
            async_stager=stager,
        )
        return resp

    r0 = dcp_async(0)
    r0.upload_completion.result()
    for r in range(reps):
        order = ["dcpa", "ours"] if r % 2 == 0 else ["ours", "dcpa"]
        for m in order:
            os.sync()
            step += 1
            if m == "ours":
                with measure("train+save ours", out):
                    ck.save(step, sdict)
                    key = f"{root}/ours/checkpoints/step-{step}/COMMIT.json"
                    n = train_until(lambda key=key: os.path.exists(key), opt, a, o)
                    ck.wait()
                    rec("steps", n, 0)
            else:
                with measure("train+save dcp.async_save thread", out):
                    resp = dcp_async(step)

                    def before(resp=resp):
                        resp.staging_completion.result()
                        return resp.upload_completion.done()

                    n = train_until(before, opt, a, o)
                    resp.upload_completion.result()
                    rec("steps", n, 0)
    ck.close()
    stager.close()
    shutil.rmtree(root, ignore_errors=True)


def main():
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    cold = os.environ.get("COLD") == "1"
    torch.set_num_threads(1)
    root = tempfile.mkdtemp(prefix="ckpt30-", dir=os.environ.get("ROOT", "/tmp"))
    model, opt = make_state(total)
    sdict = {"model": model, "optimizer": opt}
    out: dict = {}
    ck = Checkpointer(f"{root}/ours", config=CheckpointConfig(keep_last=1))
    dcp_dir = None
    step = 0
    # warm-up (not counted): allocates the stager's buffers, imports
    ck.save(1, sdict)
    ck.wait()
    msd, osd = get_state_dict(model, opt)
    dcp.save({"model": msd, "optimizer": osd}, checkpoint_id=f"{root}/dcp-0")
    shutil.rmtree(f"{root}/dcp-0")
    step = 1
    for r in range(reps):
        order = ["dcp", "ours"] if r % 2 == 0 else ["ours", "dcp"]
        for m in order:
            os.sync()
            step += 1
            if m == "ours":
                with measure("save ours (async save + wait)", out):
                    t0 = time.perf_counter()
                    ck.save(step, sdict)
                    rec("blocking", time.perf_counter() - t0, 0)
                    ck.wait()
            else:
                after = os.environ.get("DCP_DELETE_AFTER") == "1"
                if dcp_dir and not after:
                    shutil.rmtree(dcp_dir)
                old, dcp_dir = dcp_dir, f"{root}/dcp-{step}"
                with measure("save dcp.save", out):
                    msd, osd = get_state_dict(model, opt)
                    dcp.save({"model": msd, "optimizer": osd}, checkpoint_id=dcp_dir)
                    if old and after:
                        shutil.rmtree(old)
    for r in range(reps):
        order = ["dcp", "ours"] if r % 2 == 0 else ["ours", "dcp"]
        for m in order:
            os.sync()
            if cold:
                drop_cache(root)
            if m == "ours":
                c = Checkpointer(f"{root}/ours", config=CheckpointConfig())
                with measure("load ours (load_latest, verified)", out):
                    assert c.load_latest(sdict) > 0
                c.close()
            else:
                with measure("load dcp.load", out):
                    msd, osd = get_state_dict(model, opt)
                    dcp.load({"model": msd, "optimizer": osd}, checkpoint_id=dcp_dir)
    ck.close()
    for d in (f"{root}/ours/checkpoints", dcp_dir):
        for dp, _, fs in os.walk(d):
            print(dp, [(f, os.path.getsize(os.path.join(dp, f)) // MB) for f in fs])
    print("SUMMARY (medians)")
    for label, rows in out.items():
        import statistics

        print(
            f"{label:40s} wall {statistics.median(x['wall_s'] for x in rows):6.2f}  "
            f"cpu {statistics.median(x['cpu_s'] for x in rows):6.2f}  "
            f"write {statistics.median(x['write_MB'] for x in rows)} MB  "
            f"read {statistics.median(x['read_MB'] for x in rows)} MB  load {rows[-1]['load']:.1f}"
        )
    with open(os.environ.get("OUT", "/tmp/checkpoint-costs.json"), "w") as f:
        json.dump(out, f, indent=1)
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main_train() if os.environ.get("TRAIN") == "1" else main()
