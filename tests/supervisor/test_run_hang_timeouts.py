"""Hang timeouts on unmodified scripts, end to end: real processes, real gloo collectives.

An unmodified script (no nonstop.runtime) shows progress only as completed collectives; its
evaluation passes, rank-0 saves and recompiles are unmarked pauses. `auto` must survive them
and learn them; an explicit --hang-timeout must hold after a restart (issue 14)."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from support import nonstop_run, rows

pytestmark = pytest.mark.slow

SCRIPT = textwrap.dedent("""
    import os, sys, time
    import torch
    import torch.distributed as dist

    steps, pause_every, pause_s = (int(a) for a in sys.argv[1:4])
    hang_at = int(sys.argv[4]) if len(sys.argv) > 4 else -1
    dist.init_process_group("gloo")
    rank, attempt = dist.get_rank(), int(os.environ["TORCHELASTIC_RESTART_COUNT"])
    x = torch.ones(1000)
    for step in range(steps):
        dist.all_reduce(x)
        time.sleep(0.05)
        if pause_every and step and step % pause_every == 0:
            print(f"evaluating at step {step}", flush=True)
            time.sleep(pause_s)  # an evaluation pass: no collective, no section
        if attempt == 0 and hang_at >= 0 and rank == 1 and step == 5:
            sys.exit(1)  # attempt 0 crashes, so that the hang happens after a restart
        if attempt == 1 and rank == 0 and step == hang_at:
            print("hanging", flush=True)
            while True:
                time.sleep(3600)
    dist.destroy_process_group()
""")


def _script(tmp_path: Path) -> Path:
    path = tmp_path / "unmodified.py"
    path.write_text(SCRIPT)
    return path


def test_auto_survives_unmarked_evaluation_pauses_and_learns_them(tmp_path):
    # one 20 s evaluation at step 20: 4x the 5 s floor of an instrumented step, under the 60 s
    # floor of collectives (a second pause would be survived by that same floor: no more
    # checked); 19 steps after it, so that the progress that ends it is seen before the ranks
    # say they are done (a pause is learned only while every rank is still training)
    run_dir = tmp_path / "run"
    r = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--health-checks",
            "none",
            "--hang-timeout",
            "auto",
            str(_script(tmp_path)),
            "40",
            "20",
            "20",
        ],
        timeout=400,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert rows(run_dir, "SELECT COUNT(*) FROM failures")[0][0] == 0, r.stdout
    assert rows(run_dir, "SELECT COUNT(*) FROM attempts")[0][0] == 1
    learned = json.loads((run_dir / "control" / "timeouts.json").read_text())
    assert learned["pause_s"] >= 19.0, learned  # the next attempt and run start from it
    assert learned["startup_s"] is not None


def test_an_explicit_hang_timeout_holds_after_a_restart(tmp_path):
    run_dir = tmp_path / "run"
    r = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--health-checks",
            "none",
            "--no-self-test",
            "--max-restarts",
            "1",
            "--hang-timeout",
            "10",
            str(_script(tmp_path)),
            "400",
            "0",
            "0",
            "4",
        ],
        timeout=300,
    )
    assert r.returncode != 0, r.stdout
    assert "timeout 10.0 s, explicit" in r.stdout, r.stdout
    kinds = rows(run_dir, "SELECT attempt, kind, rank FROM detections ORDER BY attempt")
    assert (1, "hang", 0) in kinds, kinds


STUCK_AT_EXIT = textwrap.dedent("""
    import ctypes
    import torch
    import torch.distributed as dist

    dist.init_process_group("gloo")
    x = torch.ones(10)
    for _ in range(20):
        dist.all_reduce(x)
    rank = dist.get_rank()
    dist.destroy_process_group()
    if rank == 1:  # stuck in C while holding the GIL, as torch's exit-time deadlock is
        ctypes.PyDLL(None).sleep(100000)
""")


def test_a_rank_stuck_at_exit_after_its_peers_finished_is_killed_and_the_run_succeeds(tmp_path):
    """A finished run must not be restarted (it was: 481 s for 8 s of training, exit 75)."""
    script = tmp_path / "stuck.py"
    script.write_text(STUCK_AT_EXIT)
    run_dir = tmp_path / "run"
    r = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--health-checks",
            "none",
            "--hang-timeout",
            "10",
            "--exit-timeout",
            "15",
            str(script),
        ],
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ranks [1] were still running" in r.stdout, r.stdout
    # --exit-timeout 15 (over --hang-timeout 10) took effect: the default waits 60 s
    stalled = float(re.search(r"were still running (\d+) s", r.stdout).group(1))
    assert 15 <= stalled < 60, r.stdout
    assert rows(run_dir, "SELECT attempt, outcome FROM attempts") == [(0, "succeeded")]
    assert rows(run_dir, "SELECT kind, rank FROM detections") == [("exit_hang", 1)]
    assert rows(run_dir, "SELECT COUNT(*) FROM failures")[0][0] == 0
