"""`make gpu-check` (benchmarks/gpu_check.py) on this CPU-only host: one line, exit 0; and its
pure parts (the verdict over the checks, the table). The checks themselves need a GPU."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks import gpu_check

ROOT = Path(__file__).resolve().parents[2]


def test_without_cuda_it_says_so_in_one_line_and_exits_0():
    p = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "gpu_check.py")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        gpu_check.no_cuda_line("torch.cuda.is_available() is False")
    ], p.stdout
    assert p.stdout.startswith("gpu-check: no CUDA GPU on this host")


def test_the_overall_status():
    ok = gpu_check.result("a", "passed", "")
    skip = gpu_check.result("b", "skipped", "no 4 GB free")
    assert gpu_check.overall([ok, skip]) == "passed"
    assert gpu_check.overall([skip]) == "skipped"
    assert gpu_check.overall([ok, gpu_check.result("c", "failed", "x")]) == "failed"
    assert gpu_check.overall([ok, gpu_check.result("d", "error", "bug")]) == "failed"


def test_the_table_from_a_result_dict():
    summary = {
        "gpu": "NVIDIA H100 80GB HBM3",
        "torch": "2.13.0",
        "cuda": "12.8",
        "driver": "570.1",
        "status": "failed",
        "total_s": 301.4,
        "checks": [
            {
                **gpu_check.result("checkpoint", "passed", "", **{"1gb_blocking_s": 0.04321}),
                "seconds": 41.23,
            },
            {
                **gpu_check.result("collective_hang", "failed", "exit 1: ['ValueError: x']"),
                "seconds": 3.0,
            },
        ],
    }
    table = gpu_check.render_table(summary, width=80).splitlines()
    assert table[0] == (
        "NVIDIA H100 80GB HBM3: failed in 301 s (torch 2.13.0, CUDA 12.8, driver 570.1)"
    )
    assert table[1].split() == ["check", "status", "s", "figures", "/", "detail"]
    assert set(table[2]) == {"-"}
    assert table[3].split() == ["checkpoint", "passed", "41.2", "1gb_blocking_s=0.0432"]
    assert table[4].startswith("collective_hang  failed") and "exit 1:" in table[4]
    assert all(len(line) <= 80 for line in table[1:])


def test_long_details_wrap_under_their_column():
    summary = {"checks": [{**gpu_check.result("health", "failed", "x" * 150), "seconds": 1}]}
    lines = gpu_check.render_table(summary, width=60).splitlines()[3:]
    assert len(lines) == 4 and all(len(line) <= 60 for line in lines)
    assert lines[1].startswith(" " * len("health  failed  1.0  "))
