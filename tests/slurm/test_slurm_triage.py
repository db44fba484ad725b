"""`nonstop triage` on what a real `srun --label` prints: the failing task's rank and host.

`srun --label` puts the task's number before every line it relays ("1: RuntimeError: ..."),
and srun's own message names the task's node ("srun: error: NODE: task 1: Exited with exit
code 1"). With one task per rank (SLURM_PROCID as RANK), the task is the rank: triage names it
and its node. Before, it named neither.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from nonstop.cli import main as nonstop_main

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300), pytest.mark.xdist_group("slurm")]

SCRIPT = """\
import os, sys, time
rank = int(os.environ["SLURM_PROCID"])
for step in range(3):
    print(f"step {step} loss={2.3 - 0.1 * step:.4f}", flush=True)
if rank == 1:
    time.sleep(0.5)
    raise RuntimeError("CUDA error: an illegal memory access was encountered")
time.sleep(1)
"""


def test_srun_label_output_names_the_failing_task_and_its_node(
    slurm: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, SLURM_CONF=str(slurm))
    p = subprocess.run(
        ["srun", "--label", "-n", "2", "-t", "2", sys.executable, str(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    assert p.returncode != 0, p.stdout + p.stderr
    log = tmp_path / "slurm-job.out"
    log.write_text(p.stdout + p.stderr)  # what `srun ... > job.out 2>&1` keeps
    text = log.read_text()
    assert "1: RuntimeError: CUDA error" in text and "task 1: Exited" in text, text
    assert nonstop_main(["triage", "--json", str(log)]) == 0
    verdict = json.loads(capsys.readouterr().out)["files"][0]
    assert verdict["culprit"]["rank"] == 1, verdict
    assert verdict["culprit"]["host"] == socket.gethostname().split(".")[0], verdict
