"""Checkpoint blocking time: nonstop's async Checkpointer vs synchronous dcp.save and torch.save.

    .venv/bin/python benchmarks/run.py checkpoint --quick    # ~100 MB of state
    .venv/bin/python benchmarks/run.py checkpoint            # ~100 MB and ~1 GB

For each size, the same state (an MLP's parameters plus AdamW's two moments, float32, on CPU)
is saved three ways, each a few times, into a temporary folder on the same filesystem:

- ours: `Checkpointer.save()` in async mode inside a real training step of that model (save,
  forward, backward, optimizer.step): the figure is the time training is blocked, i.e. the
  synchronous part of the save plus any wait of optimizer.step() for the copy of parameters and
  moments, which overlaps forward/backward. `ours_worst_blocking_s` saves between backward and
  optimizer.step (nothing to overlap: the whole copy is exposed). The background write +
  sha256 + commit is timed too;
- peer: `torch.distributed.checkpoint.save` (synchronous, fsync on), the whole call blocks;
- torch.save of the same state dict to one file, plus fsync.

`limit` is the disk's own sequential write speed (8 MiB writes + fsync of a file as large as the
state), measured in the same run; our write throughput is reported against it. Load time of
`Checkpointer.load_latest` (sha256 verification included, and without) is compared with
`dcp.load` into the same tensors. Medians over the repeats after the first (warm-up) save.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import torch
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_state_dict

from nonstop.checkpoint import CheckpointConfig, Checkpointer

MB = 1 << 20


def _state(total_mb: int) -> dict[str, Any]:
    """A model whose parameters are a third of `total_mb`; AdamW's moments are the rest."""
    width = 2048
    layers = max(1, round(total_mb * MB / 3 / 4 / (width * width)))
    torch.manual_seed(0)
    model = nn.Sequential(*(nn.Linear(width, width, bias=False) for _ in range(layers)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for p in model.parameters():
        p.grad = torch.randn_like(p)
    opt.step()
    opt.zero_grad(set_to_none=True)
    return {"model": model, "optimizer": opt}


def _disk_write_mbps(folder: Path, nbytes: int) -> float:
    chunk = os.urandom(8 * MB)
    path = folder / "disk-probe.bin"
    t0 = time.perf_counter()
    with open(path, "wb") as f:
        for _ in range(max(1, nbytes // len(chunk))):
            f.write(chunk)
        f.flush()
        os.fsync(f.fileno())
    dt = time.perf_counter() - t0
    path.unlink()
    return max(1, nbytes // len(chunk)) * len(chunk) / MB / dt


def _median(xs: list[float]) -> float:
    return statistics.median(xs[1:] if len(xs) > 1 else xs)


def _one_size(total_mb: int, repeats: int, root: Path) -> dict[str, Any]:
    state = _state(total_mb)
    msd, osd = get_state_dict(state["model"], state["optimizer"])
    plain = {"model": msd, "optimizer": osd}
    out: dict[str, Any] = {"target_mb": total_mb}

    ours_dir = root / f"ours-{total_mb}"
    ckpt = Checkpointer(ours_dir, config=CheckpointConfig(every_steps=10**9, keep_last=1))
    model, opt = state["model"], state["optimizer"]
    x = torch.randn(64, model[0].in_features)

    def step(save_at: int | None, *, overlapped: bool) -> None:
        if save_at is not None and overlapped:
            ckpt.save(save_at, state)  # the copy runs during this step's forward/backward
        model(x).square().mean().backward()
        if save_at is not None and not overlapped:
            ckpt.save(save_at, state)  # worst case: optimizer.step() right after the save
        opt.step()  # waits for the copy if it is not done yet: counted as blocking
        opt.zero_grad(set_to_none=True)

    results = {}
    for overlapped in (True, False):
        rows = []
        for _ in range(repeats):
            n = len(ckpt.history) + 1
            step(n, overlapped=overlapped)
            result = ckpt.wait()
            assert result is not None and result.ok, result
            rows.append(result)
        results[overlapped] = rows
    ckpt.close()
    blocking = [r.blocking_s for r in results[True]]
    total = [r.total_s for r in results[True]]
    write_mbps = [r.bytes / MB / (r.total_s - r.blocking_s) for r in results[True]]
    nbytes = results[True][-1].bytes
    out["ours_worst_blocking_s"] = _median([r.blocking_s for r in results[False]])
    out["state_mb"] = round(nbytes / MB, 1)

    sync_s, tsave_s = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # DCP's single-process notice
        for i in range(repeats):
            d = root / f"dcp-{total_mb}-{i}"
            t0 = time.perf_counter()
            dcp.save(plain, checkpoint_id=d, no_dist=True)
            sync_s.append(time.perf_counter() - t0)
            if i < repeats - 1:
                shutil.rmtree(d)
        for _ in range(repeats):
            f = root / f"torch-{total_mb}.pt"
            t0 = time.perf_counter()
            torch.save(plain, f)
            with open(f, "rb+") as fh:
                os.fsync(fh.fileno())
            tsave_s.append(time.perf_counter() - t0)
            f.unlink()

        # load: ours (verified, then unverified) vs dcp.load into the same live tensors
        load_ours, load_noverify, load_dcp = [], [], []
        for _ in range(repeats):
            for verify, sink in ((True, load_ours), (False, load_noverify)):
                c = Checkpointer(ours_dir, config=CheckpointConfig(verify_on_load=verify))
                t0 = time.perf_counter()
                assert c.load_latest(state) == 2 * repeats
                sink.append(time.perf_counter() - t0)
                c.close()
            msd, osd = get_state_dict(state["model"], state["optimizer"])
            t0 = time.perf_counter()
            dcp.load(
                {"model": msd, "optimizer": osd},
                checkpoint_id=root / f"dcp-{total_mb}-{repeats - 1}",
                no_dist=True,
            )
            load_dcp.append(time.perf_counter() - t0)

    disk = _disk_write_mbps(root, nbytes)
    out.update(
        ours_blocking_s=_median(blocking),
        ours_first_blocking_s=blocking[0],
        ours_total_s=_median(total),
        dcp_sync_s=_median(sync_s),
        torch_save_s=_median(tsave_s),
        ratio_vs_dcp=_median(blocking) / _median(sync_s),
        ratio_vs_torch_save=_median(blocking) / _median(tsave_s),
        ours_write_mbps=_median(write_mbps),
        dcp_write_mbps=nbytes / MB / _median(sync_s),
        disk_write_mbps=disk,
        load_ours_s=_median(load_ours),
        load_ours_noverify_s=_median(load_noverify),
        load_dcp_s=_median(load_dcp),
    )
    return out


def run(quick: bool) -> dict[str, Any]:
    sizes = [100] if quick else [100, 1024]
    repeats = 3 if quick else 4
    root = Path(tempfile.mkdtemp(prefix="nonstop-bench-ckpt-"))
    try:
        rows = [_one_size(mb, repeats, root) for mb in sizes]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    big = rows[-1]
    return {
        "name": "checkpoint",
        "ours": big["ours_blocking_s"],
        "peer": big["dcp_sync_s"],
        "peer_name": f"synchronous dcp.save ({big['state_mb']:.0f} MB)",
        "ratio": big["ratio_vs_dcp"],
        "unit": "s blocked per save",
        "better": "lower",
        "limit": big["disk_write_mbps"],
        "limit_unit": "MB/s sequential disk write (ours writes at detail.ours_write_mbps)",
        "detail": {"sizes": rows, "repeats": repeats, "torch": torch.__version__},
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(quick=True), indent=1))
