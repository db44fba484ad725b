"""The README's training-loop snippet works as printed, outside `nonstop run` too (issue 14,
item 8): under plain torchrun, where `rt.run_dir` is None, and under `nonstop run`. The snippet
is read from README.md, so the test breaks when the README does."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What the snippet leaves to the reader: a model, an optimizer, a schedule, a stateful data
# position and a batch. Tiny, on CPU, with gloo.
PREAMBLE = """
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
torch.manual_seed(0)
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 10)


class Loader:
    def __init__(self):
        self.pos = 0

    def state_dict(self):
        return {"pos": self.pos}

    def load_state_dict(self, sd):
        self.pos = sd["pos"]


loader = Loader()
steps = 6


class Model:
    def __call__(self, _):
        return model(torch.ones(2, 4)).pow(2).mean()


batch, model_call = None, Model()
"""


def snippet() -> str:
    text = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(import nonstop\.runtime as ns.*?)```", text, re.S)
    assert block, "README.md lost its training-loop snippet"
    code = block.group(1).replace("loss = model(batch)", "loss = model_call(batch)")
    return PREAMBLE + code + "\nprint(f'done at step {step + 1} from {start}', flush=True)\n"


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NONSTOP_", "TORCHELASTIC"))}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)


@pytest.mark.slow
def test_readme_snippet_under_plain_torchrun_and_under_nonstop_run(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(snippet())
    plain = run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc-per-node",
            "2",
            "train.py",
        ],
        tmp_path,
    )
    # torch 2.13 aborts now and then in the teardown of a script that never destroys its
    # process group ("terminate called without an active exception", SIGABRT), after both ranks
    # finished; torchrun calls that a failure, `nonstop run` a completed run (as for the other
    # clients' torchrun arms, support.clients.Ran.completed; seen in a CI run, 2026-12-04)
    aborted = "terminate called without an active exception" in plain.stderr
    assert plain.returncode == 0 or aborted, plain.stdout[-2000:] + plain.stderr[-3000:]
    assert plain.stdout.count("done at step 6 from 0") == 2, plain.stdout[-2000:]
    ours = run(
        [
            sys.executable,
            "-m",
            "nonstop.cli",
            "run",
            "--quiet",
            "--nproc-per-node",
            "2",
            "--run-dir",
            "run",
            "train.py",
        ],
        tmp_path,
    )
    assert ours.returncode == 0, ours.stdout[-2000:] + ours.stderr[-3000:]
    assert ours.stdout.count("done at step 6 from 0") == 2
