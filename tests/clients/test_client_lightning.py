"""A PyTorch Lightning Trainer(strategy="ddp") on 2 CPU processes (lightning_ddp.py) under
torchrun and under `nonstop run`: a crash (SIGKILL of rank 1 at step 12) and a hang (SIGSTOP
of rank 1 at step 12 of the restarted attempt, in the same nonstop run). Lightning resumes
from its last.ckpt (step 10) each time; the run ends with the loss torchrun reaches after the
crash. The fault-free comparison with torchrun is test_client_ddp_tutorial.py's and
test_readme_snippet.py's (a run with faults shows the same lines, attempt by attempt)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from support.clients import Ran, crash_then_hang

# found, not imported: the clients run in their own processes, and importing it here
# costs every pytest process seconds of its collection (lightning 8 s, accelerate 2 s)
if importlib.util.find_spec("lightning") is None:
    pytest.skip("lightning is not installed", allow_module_level=True)

STEPS = "20"


def args(d: Path) -> list[str]:
    d.mkdir(parents=True, exist_ok=True)
    return [STEPS, str(d / "ckpt")]


def distinct(r: Ran, pattern: str) -> list[str]:
    return sorted(set(r.lines(pattern)))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_lightning_like_torchrun(tmp_path: Path) -> None:
    # torchrun restarts once after the crash; one nonstop run takes both faults: the crash,
    # then a hang at the same step of the restarted attempt. Each resumes from last.ckpt, and
    # nonstop run ends with the loss torchrun reaches after the crash
    crashed, ours = crash_then_hang(
        "lightning_ddp.py", args, tmp_path, resumed="Restoring states from the checkpoint path"
    )
    assert "final loss" in crashed.out and "final loss" in ours.out
    # Lightning's own lines, from every rank, as torchrun shows them (each attempt prints them
    # again: nonstop run had one attempt more)
    same = (
        r"Initializing distributed: GLOBAL_RANK: \d, MEMBER: \d/2|\[rank: \d\] Seed set to 0|"
        r"`Trainer.fit` stopped: `max_steps=20` reached"
    )
    assert distinct(ours, same) == distinct(crashed, same) and len(distinct(crashed, same)) == 5
