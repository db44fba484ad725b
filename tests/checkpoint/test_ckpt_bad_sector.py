"""A checkpoint on a disk with a bad sector (docs/checkpoint.md, "A disk that cannot read").

The checkpoints live on a FUSE mount (tests/support/badsector.py) whose reads of a chosen byte
range fail with EIO through the real kernel, as a sector the disk cannot read does: `read`
fails with OSError, and a mapped page of it raises SIGBUS in the thread that touches it. The
checksums are computed through a mapping (digest.py), so before this was handled a verified
load killed the rank with SIGBUS, and every restart died again on the same checkpoint. Now the
file is reported unreadable, the checkpoint is moved aside, and the older one loads.

Each load runs in a child process: a regression is a signal there, not a dead test worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch
from support import badsector
from support.procs import clean_env
from torch import nn

from nonstop.checkpoint import CheckpointConfig, Checkpointer

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def mount(tmp_path: Path) -> Iterator[Path]:
    with badsector.mounted(tmp_path) as mnt:
        yield mnt


def make(seed: int) -> dict[str, Any]:
    torch.manual_seed(seed)
    model = nn.Linear(256, 128)
    return {"model": model, "optimizer": torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)}


def save(root: Path, steps: list[int]) -> dict[int, dict[str, torch.Tensor]]:
    """Train, saving at `steps` under `root`; the model's parameters at each save."""
    state, seen = make(0), {}
    with Checkpointer(root, config=CheckpointConfig(async_save=False, keep_last=10)) as c:
        for s in range(1, max(steps) + 1):
            state["model"](torch.randn(3, 256)).sum().backward()
            state["optimizer"].step()
            state["optimizer"].zero_grad()
            if s in steps:
                assert c.save(s, state).ok  # type: ignore[union-attr]
                seen[s] = {k: v.clone() for k, v in state["model"].state_dict().items()}
    return seen


def bad_sector_in(mnt: Path, step: int) -> str:
    """Make 512 bytes in the middle of step `step`'s data file unreadable; returns its path."""
    rel = f"checkpoints/step-{step}/__0_0.distcp"
    middle = (mnt / rel).stat().st_size // 2 // 512 * 512
    badsector.set_bad(mnt, rel, middle, middle + 512)
    return rel


CHILD = textwrap.dedent(
    """
    import json, os, sys, torch
    from torch import nn
    from nonstop.checkpoint import Checkpointer, commit
    from nonstop.errors import UserError
    if os.environ.get("OLDER_KERNEL"):  # no MADV_POPULATE_READ (Linux before 5.14)
        from nonstop.checkpoint import digest
        digest._can_populate = False
    if os.environ.get("BAD_AFTER_VERIFY"):  # the sector goes bad once the checksums passed
        real_verify = commit.verify
        def verify(*args, **kwargs):
            found = real_verify(*args, **kwargs)
            with open(os.path.join(sys.argv[1], ".bad"), "w") as f:
                f.write(os.environ["BAD_AFTER_VERIFY"])
            return found
        commit.verify = verify
    torch.manual_seed(1)
    model = nn.Linear(256, 128)
    state = {"model": model, "optimizer": torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)}
    try:
        with Checkpointer(sys.argv[1]) as c:
            step = c.load_latest(state)
            skipped = c.last_load.skipped if c.last_load else []
    except UserError as e:
        print(json.dumps({"error": str(e)}))
        raise SystemExit(1)
    torch.save(state["model"].state_dict(), sys.argv[2])
    print(json.dumps({"step": step, "skipped": skipped}))
    """
)


def _kernel_env(kernel: str) -> dict[str, str]:
    return {"OLDER_KERNEL": "1"} if kernel == "older" else {}


def load_in_child(
    mnt: Path, tmp_path: Path, **env: str
) -> tuple[int, dict[str, Any], dict[str, torch.Tensor]]:
    out = tmp_path / "loaded.pt"
    out.unlink(missing_ok=True)
    r = subprocess.run(
        [sys.executable, "-c", CHILD, str(mnt), str(out)],
        capture_output=True,
        text=True,
        timeout=90,
        env=clean_env() | env,
    )
    lines = r.stdout.strip().splitlines()
    report = json.loads(lines[-1]) if lines else {}
    params = torch.load(out, weights_only=True) if out.exists() else {}
    return r.returncode, report | {"stderr": r.stderr[-2000:]}, params


@pytest.mark.parametrize("kernel", ["populate", "older"])
def test_a_mapped_hash_of_a_bad_sector_is_an_io_error_not_sigbus(mount: Path, kernel: str) -> None:
    """`older`: a kernel without MADV_POPULATE_READ (before 5.14), as digest.populate finds
    it: the file is hashed with pread instead of through the mapping."""
    (mount / "f.bin").write_bytes(os.urandom(3 << 20))
    badsector.set_bad(mount, "f.bin", 2 << 20, (2 << 20) + 512)
    older = "digest._can_populate = False\n" if kernel == "older" else ""
    code = (
        f"import sys\nfrom nonstop.checkpoint import digest\n{older}"
        "try:\n    digest.of_file(sys.argv[1], 'crc32-64m')\n"
        "except OSError as e:\n    print('OSError', e.errno, e)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, str(mount / "f.bin")],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(),
    )
    assert r.returncode == 0, (r.returncode, r.stderr[-1000:])  # -7 was SIGBUS
    assert r.stdout.startswith("OSError 5 "), r.stdout
    if kernel == "populate":
        assert "cannot be read (I/O error)" in r.stdout


@pytest.mark.parametrize("kernel", ["populate", "older"])
def test_a_newest_checkpoint_with_a_bad_sector_falls_back_in_one_pass(
    mount: Path, tmp_path: Path, kernel: str
) -> None:
    """Two checkpoints: the newest is hashed while it is read (one pass); its bad sector
    fails the hash and the read, and the older one is loaded over whatever was copied.
    `older`: the kernel has no MADV_POPULATE_READ, and the copy reads with pread."""
    seen = save(mount, [2, 4])
    bad_sector_in(mount, 4)
    rc, report, params = load_in_child(mount, tmp_path, **_kernel_env(kernel))
    assert rc == 0, report
    assert report["step"] == 2
    (where, why), *_ = report["skipped"]
    assert where == "step-4" and "cannot be read" in why, why
    for k, v in params.items():
        assert torch.equal(v, seen[2][k])
    assert (mount / "checkpoints" / "step-4.corrupt").is_dir()  # the next run reads it no more


def test_a_lone_checkpoint_with_a_bad_sector_is_refused_before_it_touches_the_state(
    mount: Path, tmp_path: Path
) -> None:
    save(mount, [3])
    bad_sector_in(mount, 3)
    rc, report, params = load_in_child(mount, tmp_path)
    assert rc == 0, report
    assert report["step"] == 0 and "cannot be read" in report["skipped"][0][1]
    fresh = make(1)["model"].state_dict()
    for k, v in params.items():
        assert torch.equal(v, fresh[k])  # the state is still the fresh model's


@pytest.mark.parametrize("kernel", ["populate", "older"])
def test_a_sector_that_goes_bad_after_the_checksums_passed_is_unreadable_not_a_misfit(
    mount: Path, tmp_path: Path, kernel: str
) -> None:
    """The checksums pass, then the read fails with EIO: that checkpoint cannot be read (not
    "does not fit this run's state"). Its tensors may be half copied and nothing older is
    there, so the load refuses loudly, and the next run starts cleanly."""
    save(mount, [3])
    rel = "checkpoints/step-3/__0_0.distcp"
    middle = (mount / rel).stat().st_size // 2 // 512 * 512
    rc, report, _ = load_in_child(
        mount, tmp_path, BAD_AFTER_VERIFY=f"{rel} {middle} {middle + 512}", **_kernel_env(kernel)
    )
    assert rc == 1, report
    assert "could not be read" in report["error"] and "does not fit" not in report["error"]
    assert "[Errno 5]" in report["error"], report["error"]
    assert "run it again" in report["error"]
    assert (mount / "checkpoints" / "step-3.corrupt").is_dir()
    rc, report, _ = load_in_child(mount, tmp_path)
    assert rc == 0 and report["step"] == 0, report
