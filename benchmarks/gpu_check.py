"""`make gpu-check`: nonstop's CUDA and NCCL paths on one real GPU, in under 8 minutes.

    .venv/bin/python benchmarks/gpu_check.py                 # JSON summary, then a table
    .venv/bin/python benchmarks/gpu_check.py --save benchmarks/results/gpu-check.json
    .venv/bin/python benchmarks/gpu_check.py --only checkpoint,health --small --dir /scratch

Nothing here is faked: real CUDA tensors, pinned memory, NVML, an NCCL process group, real
`nonstop run` and `nonstop diagnose` processes. On a host without CUDA it prints one line and
exits 0. Each check is passed, failed, skipped (with the reason) or error (the check broke);
the exit code is 1 when any check failed or broke. What each check proves and what one GPU
cannot prove (several ranks on several GPUs, NVLink) is in docs/gpu.md.

It lives beside the benchmarks, not in tests/, because half of it is measurement (the save
times against dcp.async_save on the same GPU, CUDA-event against wall time) kept in
benchmarks/results/, and because the suite must pass on the CPU-only CI host, where this has
nothing to run; tests/bench/test_gpu_check.py checks its CPU line and its pure parts.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GB = 1 << 30
CHUNK = 64 << 20  # bytes per tensor of the checkpointed state (float32)
TELEMETRY_S = 30.0
BUDGET_S = 8 * 60
CHECKS = (
    "checkpoint",
    "telemetry",
    "gpu_timing",
    "guards",
    "nccl_flight",
    "collective_hang",
    "health",
    "nonstop_run",
)
TINY = ["--dim", "64", "--layers", "2", "--heads", "4", "--kv-heads", "2", "--seq-len", "64"]
TINY += ["--batch-size", "4", "--log-every", "10"]


def no_cuda_line(reason: str) -> str:
    """The one line printed on a host without CUDA."""
    return f"gpu-check: no CUDA GPU on this host ({reason}); nothing to check"


def result(name: str, status: str, detail: str, **figures: Any) -> dict[str, Any]:
    assert status in ("passed", "failed", "skipped", "error"), status
    return {"name": name, "status": status, "detail": detail, "figures": figures}


def overall(checks: list[dict[str, Any]]) -> str:
    """failed when any check failed or broke; passed when at least one passed and none did."""
    if any(c["status"] in ("failed", "error") for c in checks):
        return "failed"
    return "passed" if any(c["status"] == "passed" for c in checks) else "skipped"


def _figure(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3g}"
    if isinstance(v, (list, tuple)):
        return ",".join(_figure(x) for x in v)
    return str(v)


def render_table(summary: dict[str, Any], width: int = 100) -> str:
    """A plain-text table of the summary's checks: name, status, seconds, figures, detail."""
    rows = [("check", "status", "s", "figures / detail")]
    for c in summary["checks"]:
        figs = " ".join(f"{k}={_figure(v)}" for k, v in c.get("figures", {}).items())
        text = "; ".join(x for x in (figs, c.get("detail", "")) if x)
        rows.append((c["name"], c["status"], f"{c.get('seconds', 0.0):.1f}", text))
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    room = max(20, width - w0 - w1 - w2 - 6)
    lines = []
    for i, (a, b, s, text) in enumerate(rows):
        chunks = [text[j : j + room] for j in range(0, len(text), room)] or [""]
        lines.append(f"{a:<{w0}}  {b:<{w1}}  {s:>{w2}}  {chunks[0]}")
        lines += [f"{'':<{w0}}  {'':<{w1}}  {'':>{w2}}  {c}" for c in chunks[1:]]
        if i == 0:
            lines.append("-" * min(width, w0 + w1 + w2 + 6 + room))
    head = (
        f"{summary.get('gpu', '?')}: {summary.get('status', '?')} in "
        f"{summary.get('total_s', 0.0):.0f} s (torch {summary.get('torch', '?')}, "
        f"CUDA {summary.get('cuda', '?')}, driver {summary.get('driver', '?')})"
    )
    return "\n".join([head, *lines])


# -- the checks (CUDA only below this line) ----------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _state(torch: Any, nbytes: int, device: Any, seed: int) -> Any:
    """A module whose parameters are `nbytes` of float32 on `device`, in CHUNK-sized tensors."""
    g = torch.Generator(device=device).manual_seed(seed)
    n = max(1, nbytes // CHUNK)
    ps = [torch.randn(CHUNK // 4, generator=g, device=device) for _ in range(n)]
    return torch.nn.ParameterList([torch.nn.Parameter(p) for p in ps])


def check_checkpoint(ctx: dict[str, Any]) -> dict[str, Any]:
    """nonstop's pinned async save and verified load of 1 GB and 4 GB, bitwise, against
    dcp.async_save (pinned, non-blocking, thread) of the same state on the same GPU."""
    import torch
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.staging import DefaultStager, StagingOptions
    from torch.distributed.checkpoint.state_dict_saver import AsyncCheckpointerType

    from nonstop.checkpoint import CheckpointConfig, Checkpointer

    dev = ctx["device"]
    figures: dict[str, Any] = {}
    problems = []
    sizes = [1] if ctx["small"] else [1, 4]
    free_gpu = torch.cuda.mem_get_info(dev)[0]
    for gb in sizes:
        if free_gpu < 2.5 * gb * GB:  # the state, the loaded copy and DCP's working room
            problems.append(f"{gb} GB skipped: {free_gpu / GB:.1f} GB free on the GPU")
            continue
        root = ctx["tmp"] / f"ckpt-{gb}gb"
        model = _state(torch, gb * GB, dev, seed=gb)
        ck = Checkpointer(root / "ours", config=CheckpointConfig(keep_last=1))
        t0 = time.perf_counter()
        ck.save(1, {"model": model})
        returned = time.perf_counter() - t0
        r = ck.wait()
        durable = time.perf_counter() - t0
        ck.close()
        if r is None or not r.ok:
            problems.append(f"{gb} GB: nonstop's save failed ({r and r.error})")
            continue
        fresh = _state(torch, gb * GB, dev, seed=1000 + gb)  # other values: the load must land
        loader = Checkpointer(root / "ours", config=CheckpointConfig())
        t1 = time.perf_counter()
        step = loader.load_latest({"model": fresh})
        torch.cuda.synchronize(dev)
        load_s = time.perf_counter() - t1
        loader.close()
        same = step == 1 and all(torch.equal(a, b) for a, b in zip(model, fresh, strict=True))
        if not same:
            problems.append(f"{gb} GB: the verified load is not bitwise the saved state")
        del fresh
        stager = DefaultStager(StagingOptions(True, False, True, True))
        t2 = time.perf_counter()
        resp = dcp.async_save(
            {"model": model.state_dict()},
            checkpoint_id=root / "dcp",
            async_checkpointer_type=AsyncCheckpointerType.THREAD,
            async_stager=stager,
            no_dist=True,
        )
        resp.staging_completion.result()  # a user waits for this before optimizer.step()
        dcp_blocking = time.perf_counter() - t2
        resp.upload_completion.result()
        dcp_durable = time.perf_counter() - t2
        stager.close()
        figures.update(
            {
                f"{gb}gb_blocking_s": round(r.blocking_s, 3),
                f"{gb}gb_returned_s": round(returned, 3),
                f"{gb}gb_durable_s": round(durable, 3),
                f"{gb}gb_load_verified_s": round(load_s, 3),
                f"{gb}gb_bitwise": same,
                f"{gb}gb_dcp_blocking_s": round(dcp_blocking, 3),
                f"{gb}gb_dcp_durable_s": round(dcp_durable, 3),
            }
        )
        del model
        shutil.rmtree(root, ignore_errors=True)
        torch.cuda.empty_cache()
    failed = [p for p in problems if "skipped" not in p]
    status = "failed" if failed else ("passed" if figures else "skipped")
    return result("checkpoint", status, "; ".join(problems), **figures)


def check_telemetry(ctx: dict[str, Any]) -> dict[str, Any]:
    """The runtime's NVML sampler and event set (Xid, ECC, throttle) for 30 s under load."""
    import torch

    from nonstop.events import read_events
    from nonstop.runtime import Runtime
    from nonstop.runtime.telemetry import TelemetrySampler, load_nvml

    nvml = load_nvml()
    if nvml is None:
        return result("telemetry", "failed", "NVML does not load beside a CUDA GPU")
    rd = ctx["tmp"] / "telemetry-run"
    rt = Runtime(run_dir=rd, run_id="gpu-check", attempt=0, rank=0, world_size=1, host="gpu")
    sampler = TelemetrySampler(rt, interval_s=1.0, nvml=nvml, device=ctx["nvml_index"])
    sampler.start()
    a = torch.randn(4096, 4096, device=ctx["device"])
    t0 = time.monotonic()
    while time.monotonic() - t0 < ctx["telemetry_s"]:  # keep the GPU busy: clocks, power
        for _ in range(20):
            a = torch.tanh(a @ a)
        torch.cuda.synchronize(ctx["device"])
    sampler.stop()
    registered = sampler._registered
    rt.close()
    events = [e.payload for e in read_events(rt.writer.path)[0] if e.kind == "telemetry"]
    nv = [p for p in events if p.get("source") == "nvml"]
    seen = sorted({p["event"] for p in events if p.get("event")})
    keys = sorted({k for p in nv for k in p.get("metrics", {})})
    figures = {
        "samples": len(nv),
        "errors": sampler.errors,
        "event_mask": hex(registered),
        "events_seen": seen,
        "metrics": keys,
    }
    if nv:
        last = nv[-1]["metrics"]
        figures.update(power_w=last.get("power_w"), temp_c=last.get("temp_c"))
    ok = len(nv) >= ctx["telemetry_s"] / 2 and registered != 0 and sampler.errors == 0
    detail = "" if ok else "too few samples, errors, or no NVML event type registered"
    return result("telemetry", "passed" if ok else "failed", detail, **figures)


def check_gpu_timing(ctx: dict[str, Any]) -> dict[str, Any]:
    """GpuTimer's CUDA events around a step's kernels against the wall time of the same step
    (synchronized), on LOCAL_RANK's device."""
    import torch

    from nonstop.runtime.gputime import GpuTimer

    dev = ctx["device"]
    a = torch.randn(4096, 4096, device=dev)
    torch.cuda.synchronize(dev)
    timer = GpuTimer.for_process()
    if timer is None:
        return result("gpu_timing", "failed", "no GpuTimer although CUDA is initialised")
    walls = []
    for step in range(20):
        torch.cuda.synchronize(dev)
        t0 = time.perf_counter()
        h = timer.start()
        for _ in range(10):
            a = torch.tanh(a @ a)
        timer.stop(h, step)
        torch.cuda.synchronize(dev)
        walls.append(time.perf_counter() - t0)
    resolved = dict(timer.resolved())
    gpu = [resolved[s] for s in sorted(resolved)]
    ratio = statistics.median(g / w for g, w in zip(gpu, walls[: len(gpu)], strict=False))
    ok = len(gpu) == 20 and 0.5 < ratio <= 1.05 and str(timer.device) == str(dev)
    return result(
        "gpu_timing",
        "passed" if ok else "failed",
        "" if ok else "unresolved pairs, a GPU/wall ratio off, or the wrong device",
        device=str(timer.device),
        resolved=len(gpu),
        gpu_ms=round(statistics.median(gpu) * 1e3, 3) if gpu else None,
        wall_ms=round(statistics.median(walls) * 1e3, 3),
        gpu_over_wall=round(ratio, 3),
    )


def _init_nccl(ctx: dict[str, Any]) -> None:
    import torch.distributed as dist

    if dist.is_initialized():
        return
    dist.init_process_group(
        "cpu:gloo,cuda:nccl",
        init_method=f"tcp://127.0.0.1:{_free_port()}",
        rank=0,
        world_size=1,
        device_id=ctx["device"],
    )


def check_guards(ctx: dict[str, Any]) -> dict[str, Any]:
    """The replica fingerprint on CUDA tensors (equal to the CPU's, moved by one flipped bit,
    NaN seen) and the guards' all-reduce buffer on the device nonstop picks, over NCCL."""
    import torch
    import torch.distributed as dist

    from nonstop.device import collective_device
    from nonstop.runtime.fingerprint import fingerprint, flip_bit
    from nonstop.runtime.guards import SLOTS

    dev = ctx["device"]
    g = torch.Generator(device=dev).manual_seed(7)
    params = [torch.randn(1 << 20, generator=g, device=dev) for _ in range(8)]
    on_gpu, finite = fingerprint(params)
    on_cpu, _ = fingerprint([p.cpu() for p in params])
    flip_bit(params, bit=12)
    flipped, _ = fingerprint(params)
    params[3][5] = float("nan")
    _, finite_after_nan = fingerprint(params)
    _init_nccl(ctx)
    nccl = dist.new_group(backend="nccl")
    where = collective_device(nccl, params)
    buf = torch.ones(1, len(SLOTS), dtype=torch.float64, device=where)
    dist.all_reduce(buf, group=nccl)
    torch.cuda.synchronize(dev)
    ok = (
        on_gpu == on_cpu
        and finite
        and flipped != on_gpu
        and not finite_after_nan
        and str(where) == str(dev)
        and float(buf.sum()) == len(SLOTS)
    )
    return result(
        "guards",
        "passed" if ok else "failed",
        "" if ok else "a fingerprint, finiteness or the all-reduce's device disagreed",
        gpu_equals_cpu=on_gpu == on_cpu,
        bitflip_seen=flipped != on_gpu,
        nan_seen=not finite_after_nan,
        allreduce_device=str(where),
    )


def check_nccl_flight(ctx: dict[str, Any]) -> dict[str, Any]:
    """An NCCL group of one rank, its collectives in NCCL's flight recorder, dumped by the
    bootstrap's code and read back by `nonstop diagnose --flight`."""
    import torch
    import torch.distributed as dist

    from nonstop import rundir
    from nonstop.supervisor import bootstrap

    _init_nccl(ctx)
    group = dist.new_group(backend="nccl")
    x = torch.ones(1 << 16, device=ctx["device"])
    for _ in range(5):
        dist.all_reduce(x, group=group)
    torch.cuda.synchronize(ctx["device"])
    rd = rundir.RunDir(ctx["tmp"] / "flight-run")
    out = rd.flight(0, 0)
    c10d = sys.modules.get("torch._C._distributed_c10d")
    blobs, errors = bootstrap._recorder_dumps(c10d, True, False, False)
    wrote = bootstrap._write_trace(c10d, out, False)
    if not wrote:
        return result("nccl_flight", "failed", f"no dump written ({errors})")
    cmd = [sys.executable, "-m", "nonstop.cli", "diagnose", "--flight", str(out.parent)]
    p = subprocess.run(
        [*cmd, "--world-size", "1", "--json"], capture_output=True, text=True, timeout=120
    )
    try:
        verdict = json.loads(p.stdout)
    except ValueError:
        return result("nccl_flight", "failed", f"diagnose printed no JSON: {p.stderr[-300:]}")
    groups = verdict.get("details", {}).get("groups", [])
    frontier = max((int(g.get("frontier") or 0) for g in groups), default=0)
    ok = p.returncode == 0 and not errors and frontier >= 5
    return result(
        "nccl_flight",
        "passed" if ok else "failed",
        "" if ok else f"recorder errors {errors} or NCCL's collectives missing from the dump",
        recorders=len(blobs),
        groups=len(groups),
        frontier=frontier,
        verdict=verdict.get("verdict", "")[:80],
    )


HANG_CHILD = """
import os, sys, datetime, torch, torch.distributed as dist
dev = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
dist.init_process_group("nccl", init_method=sys.argv[1], rank=0, world_size=1, device_id=dev,
                        timeout=datetime.timedelta(seconds=600))
x = torch.ones(4, device=dev)
dist.all_reduce(x)
torch.cuda.synchronize(dev)
from nonstop import faults
inj = faults.Injector(faults.parse_all("hang@step=1,how=collective"), attempt=0, rank=0)
print("entering the hang", flush=True)
inj.on_step(1)
print("the hang returned", flush=True)
"""


def check_collective_hang(ctx: dict[str, Any]) -> dict[str, Any]:
    """`hang@...,how=collective` on an NCCL group: the receive must wait, not raise. With one
    GPU the group has one rank and the receive is from itself, which no send matches."""
    wait_s = 20.0
    p = subprocess.Popen(
        [sys.executable, "-c", HANG_CHILD, f"tcp://127.0.0.1:{_free_port()}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    t0 = time.monotonic()
    while time.monotonic() - t0 < wait_s and p.poll() is None:
        time.sleep(0.5)
    alive = p.poll() is None
    if alive:
        os.killpg(p.pid, signal.SIGKILL)
    out, _ = p.communicate(timeout=30)
    entered = "entering the hang" in out
    ok = alive and entered
    detail = (
        f"still waiting after {wait_s:g} s, as intended"
        if ok
        else f"exit {p.returncode}: {out.strip().splitlines()[-1:] or ['?']}"
    )
    return result("collective_hang", "passed" if ok else "failed", detail, entered=entered)


def check_health(ctx: dict[str, Any]) -> dict[str, Any]:
    """The GPU health check twice (the first pass is the node's record, the second compares
    with it) and the NCCL self-test of one process."""
    from nonstop.supervisor.health import HealthConfig, run_checks

    record = ctx["tmp"] / "control" / "gpus-gpu-check.json"
    cfg = HealthConfig(paths=(ctx["tmp"],), local_world_size=1, timeout_s=120, gpu_record=record)
    first = run_checks(["gpu"], cfg)
    again = run_checks(["gpu", "collective"], cfg)
    rs = [*first, *again]
    kept = json.loads(record.read_text()) if record.exists() else {}
    ok = all(r.status == "passed" for r in rs) and kept.get("count", 0) >= 1
    return result(
        "health",
        "passed" if ok else "failed",
        "; ".join(f"{r.name} {r.status}: {r.detail}" for r in rs),
        gpus_recorded=kept.get("count"),
    )


def check_nonstop_run(ctx: dict[str, Any]) -> dict[str, Any]:
    """`nonstop run` of the demo workload on the GPU (NCCL, one rank) through a crash: two
    attempts, the second resumed from a checkpoint and finished, NVML telemetry from both; the
    restart path (warm: a standby, whose imports must not have initialized CUDA) is reported."""
    rd = ctx["tmp"] / "demo-run"
    cmd = [sys.executable, "-m", "nonstop.cli", "run", "--nproc-per-node", "1"]
    cmd += ["--run-dir", str(rd), "--max-restarts", "2"]  # standbys on: warm on a GPU too
    cmd += ["--inject", "crash@step=30,rank=0", "-m", "nonstop.workloads.llama.train"]
    cmd += [*TINY, "--steps", "60", "--checkpoint-every", "10"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NONSTOP_", "TORCHELASTIC_"))}
    env["NONSTOP_TELEMETRY_S"] = "1"
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    if not (rd / "ledger.db").exists():
        return result("nonstop_run", "failed", f"exit {p.returncode}: {p.stderr[-300:]}")
    with sqlite3.connect(rd / "ledger.db") as db:
        attempts = db.execute(
            "SELECT attempt, outcome, restart_path FROM attempts ORDER BY attempt"
        ).fetchall()
        nvml = db.execute(
            "SELECT COUNT(DISTINCT attempt) FROM telemetry WHERE source = 'nvml'"
        ).fetchone()[0]
        last = db.execute("SELECT MAX(step) FROM steps").fetchone()[0]
    ok = p.returncode == 0 and len(attempts) == 2 and nvml == 2 and (last or 0) >= 59
    return result(
        "nonstop_run",
        "passed" if ok else "failed",
        "" if ok else f"exit {p.returncode}: {(p.stdout + p.stderr)[-300:]}",
        attempts=[f"{a}:{o}:{path}" for a, o, path in attempts],
        attempts_with_nvml=nvml,
        last_step=last,
    )


RUNNERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "checkpoint": check_checkpoint,
    "telemetry": check_telemetry,
    "gpu_timing": check_gpu_timing,
    "guards": check_guards,
    "nccl_flight": check_nccl_flight,
    "collective_hang": check_collective_hang,
    "health": check_health,
    "nonstop_run": check_nonstop_run,
}


def _environment(torch: Any) -> dict[str, Any]:
    env: dict[str, Any] = {
        "gpu": torch.cuda.get_device_name(0),
        "gpus": torch.cuda.device_count(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
    }
    try:
        v = torch.cuda.nccl.version()
        env["nccl"] = ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
    except Exception as e:  # a build without NCCL: the NCCL checks will fail and say so
        env["nccl"] = f"unknown ({type(e).__name__})"
    try:
        import pynvml

        pynvml.nvmlInit()
        env["driver"] = pynvml.nvmlSystemGetDriverVersion()
    except Exception as e:  # the telemetry and health checks will say more
        env["driver"] = f"unknown ({type(e).__name__})"
    return env


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gpu_check", description=__doc__.split("\n")[0])
    p.add_argument("--only", default="", help=f"comma-separated checks ({', '.join(CHECKS)})")
    p.add_argument("--small", action="store_true", help="1 GB state only, telemetry for 10 s")
    p.add_argument("--save", metavar="PATH", help="also write the JSON summary to PATH")
    p.add_argument(
        "--dir",
        metavar="DIR",
        help="where checkpoints and run directories go (default: a new folder in $TMPDIR; "
        "about 10 GB at the 4 GB size, removed at the end)",
    )
    a = p.parse_args(argv)
    try:
        import torch
    except ImportError as e:
        print(no_cuda_line(f"torch does not import: {e}"))
        return 0
    if not torch.cuda.is_available():
        print(no_cuda_line("torch.cuda.is_available() is False"))
        return 0
    names = [n for n in a.only.split(",") if n] or list(CHECKS)
    unknown = [n for n in names if n not in RUNNERS]
    if unknown:
        p.error(f"no such check: {', '.join(unknown)} (one of {', '.join(CHECKS)})")
    os.environ.setdefault("TORCH_FR_BUFFER_SIZE", "2000")  # NCCL's recorder, as the bootstrap
    os.environ.setdefault("LOCAL_RANK", "0")
    from nonstop.runtime.telemetry import _device_for

    local = int(os.environ["LOCAL_RANK"])
    device = torch.device("cuda", local)
    torch.cuda.set_device(device)
    tmp = Path(tempfile.mkdtemp(prefix="nonstop-gpu-check-", dir=a.dir))
    ctx = {
        "device": device,
        "tmp": tmp,
        "small": a.small,
        "telemetry_s": 10.0 if a.small else TELEMETRY_S,
        "nvml_index": _device_for(local, torch.cuda.device_count()),
    }
    summary: dict[str, Any] = {**_environment(torch), "checks": []}
    t_all = time.monotonic()
    try:
        for name in names:
            t0 = time.monotonic()
            try:
                r = RUNNERS[name](ctx)
            except Exception as e:  # the check itself broke: say where, go on with the next
                tb = traceback.format_exc(limit=-2).strip().splitlines()
                r = result(name, "error", f"{type(e).__name__}: {e} ({' | '.join(tb[-3:])})")
            r["seconds"] = round(time.monotonic() - t0, 2)
            summary["checks"].append(r)
            print(f"gpu-check: {name} {r['status']} ({r['seconds']:.1f} s)", file=sys.stderr)
    finally:
        import torch.distributed as dist

        if dist.is_initialized():
            dist.destroy_process_group()
        shutil.rmtree(tmp, ignore_errors=True)
    summary["total_s"] = round(time.monotonic() - t_all, 1)
    summary["within_budget"] = summary["total_s"] <= BUDGET_S
    summary["status"] = overall(summary["checks"])
    text = json.dumps(summary, indent=2, default=str)
    print(text)
    print(render_table(summary))
    if a.save:
        Path(a.save).write_text(text + "\n")
    return 0 if summary["status"] != "failed" else 1


if __name__ == "__main__":
    sys.exit(main())
