"""A Hugging Face transformers.Trainer (ddp_backend="gloo", a tiny GPT-2 built from a config,
synthetic tokens, no download) under torchrun and under `nonstop run`: a crash (SIGKILL of
rank 1 at step 12) and a hang (SIGSTOP at step 12 of the restarted attempt, in the same nonstop
run); the fault-free comparison is test_client_ddp_tutorial.py's. The Trainer resumes from
its checkpoint-10 each time; the run ends with the loss torchrun reaches after the crash.
The median step time each launcher gave is printed (not asserted: the machine is shared)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from support.clients import Ran, crash_then_hang

# found, not imported: the clients run in their own processes, and importing them here
# costs every pytest process seconds of its collection (lightning 8 s, accelerate 2 s)
if importlib.util.find_spec("transformers") is None:
    pytest.skip("transformers is not installed", allow_module_level=True)
if importlib.util.find_spec("accelerate") is None:
    pytest.skip("accelerate is not installed", allow_module_level=True)

STEPS = "20"
LOSS_LINE = r"\{'loss': '[\d.]+', 'grad_norm': '[\d.]+'"


def args(d: Path) -> list[str]:
    d.mkdir(parents=True, exist_ok=True)
    return [STEPS, str(d / "out")]


def step_ms(r: Ran) -> float | None:
    m = re.search(r"median step ([\d.]+) ms", r.out)
    return float(m.group(1)) if m else None


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_transformers_trainer_like_torchrun(tmp_path: Path) -> None:
    # one nonstop run for both faults: the crash, then a hang at the same step of the restarted
    # attempt; each resumes from checkpoint-10, and it ends with torchrun's loss after the crash
    crashed, ours = crash_then_hang(
        "hf_trainer.py", args, tmp_path, resumed="resuming from checkpoint-10"
    )
    # the Trainer's loss lines, every step's, the same under both (nonstop run's restarted
    # attempts print steps 11 and 12 again, with the same values)
    mine, theirs = set(ours.lines(LOSS_LINE)), set(crashed.lines(LOSS_LINE))
    assert mine == theirs and len(theirs) >= 18, (sorted(mine ^ theirs), len(theirs))
    print(
        f"\ntransformers.Trainer median step: torchrun {step_ms(crashed)} ms, "
        f"nonstop run {step_ms(ours)} ms"
    )
