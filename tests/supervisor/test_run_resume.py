"""The supervisor itself is killed; running the same command again continues the run."""

import os
import signal
import subprocess
import sys
import time

import pytest
from support import TINY, last_step, rows

pytestmark = pytest.mark.slow


def test_killed_supervisor_resumes_the_same_run(run_dir):
    cmd = [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nproc-per-node",
        "2",
        "--run-dir",
        str(run_dir),
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        "60",
        "--checkpoint-every",
        "5",
    ]
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as sup:
        deadline = time.monotonic() + 120
        while last_step(run_dir) < 25 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert last_step(run_dir) >= 25
        sup.send_signal(signal.SIGKILL)
        sup.wait(timeout=10)
    # the workers die with their supervisor (PR_SET_PDEATHSIG): no orphan keeps training
    time.sleep(2.0)
    frozen = last_step(run_dir)
    time.sleep(2.0)
    assert last_step(run_dir) == frozen
    committed = [
        int(p.name[5:])
        for p in (run_dir / "checkpoints").glob("step-*")
        if p.name[5:].isdigit() and (p / "COMMIT.json").exists()
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=dict(os.environ))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "resuming" in r.stdout
    attempts = rows(run_dir, "SELECT attempt, outcome FROM attempts ORDER BY attempt")
    assert attempts == [(0, "failed"), (1, "succeeded")]
    ((kind,),) = rows(run_dir, "SELECT kind FROM detections WHERE kind != 'straggler'")
    assert kind == "supervisor_restart"
    first_resumed = min(
        s for (s,) in rows(run_dir, "SELECT step FROM steps WHERE attempt = 1 AND rank = 0")
    )
    # from the newest checkpoint committed before the kill (a save in flight is lost), not 0
    assert committed and first_resumed == max(committed) <= frozen + 1, (committed, frozen)
    assert rows(run_dir, "SELECT MAX(step) FROM steps")[0][0] == 59
