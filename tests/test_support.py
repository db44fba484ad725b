"""tests/support itself: its package imports no nonstop and nothing outside the standard
library at import time (system python3 runs the cluster scripts, `make slurm-up`), and its
copy of the tiny model's flags is the workload's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.procs import tiny

from nonstop.workloads.llama import tiny_args

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script", ["tests/slurm/slurm_cluster.py", "tests/support/slurm_nodes.py"])
def test_the_cluster_scripts_run_without_site_packages(script: str) -> None:
    # -S: no site-packages (neither nonstop nor psutil), as a bare system python3
    r = subprocess.run(
        [sys.executable, "-S", "-I", script, "nonsense"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and r.stderr == f"usage: python {script} up|down\n", r.stderr


def test_tiny_flags_are_the_workloads() -> None:
    assert tiny() == tiny_args(log_every=5) and tiny(500) == tiny_args(log_every=500)
