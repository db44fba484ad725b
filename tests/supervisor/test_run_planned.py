"""Planned interruptions lose no progress: preemption signals and operator restarts."""

import signal
import subprocess
import sys
import time

import pytest
from conftest import TINY, last_step, rows

from nonstop.ledger import summarize_run

pytestmark = pytest.mark.slow


def command(run_dir, steps):
    return [sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--nproc-per-node", "2",
            "--run-dir", str(run_dir), "-m", "nonstop.workloads.llama.train", *TINY,
            "--steps", str(steps), "--checkpoint-every", "1000"]  # fmt: skip


def wait_for_step(run_dir, step, attempt=0, timeout=120):
    deadline = time.monotonic() + timeout
    while last_step(run_dir, attempt) < step and time.monotonic() < deadline:
        time.sleep(0.2)
    assert last_step(run_dir, attempt) >= step


def test_preemption_signal_checkpoints_stops_75_and_resumes_with_nothing_lost(run_dir):
    with subprocess.Popen(command(run_dir, 100000), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as sup:  # fmt: skip
        wait_for_step(run_dir, 50)
        sup.send_signal(signal.SIGUSR1)  # Slurm's --signal=USR1@300 warning
        out, _ = sup.communicate(timeout=120)
    assert sup.returncode == 75, out
    ((step,),) = rows(run_dir, "SELECT MAX(step) FROM checkpoints WHERE phase = 'committed'")
    assert step > 50 and (run_dir / "checkpoints" / f"step-{step}").is_dir()
    # the requeued job: the same command resumes exactly where the checkpoint was taken
    r = subprocess.run(command(run_dir, step + 20), capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    first = rows(run_dir, "SELECT MIN(step) FROM steps WHERE attempt = 1")[0][0]
    assert first == step
    s = summarize_run(run_dir).to_dict()
    assert s["steps_lost"] == 0 and s["badput_s"]["lost_progress"] == 0
    assert [f["planned"] for f in s["failures"]] == [True]
    outcomes = rows(run_dir, "SELECT outcome FROM attempts ORDER BY attempt")
    assert outcomes == [("planned",), ("succeeded",)]
    report = subprocess.run([sys.executable, "-m", "nonstop.cli", "report", str(run_dir)],
                            capture_output=True, text=True, timeout=60)  # fmt: skip
    assert report.returncode == 0, report.stderr
    assert "0 + 1 planned" in report.stdout  # a planned stop is not counted as a failure


def test_operator_restart_checkpoints_and_restarts_in_place(run_dir):
    with subprocess.Popen(command(run_dir, 2500), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as sup:  # fmt: skip
        wait_for_step(run_dir, 50)
        r = subprocess.run([sys.executable, "-m", "nonstop.cli", "restart", str(run_dir),
                            "--reason", "new dataset mix", "--wait", "60"],
                           capture_output=True, text=True, timeout=90)  # fmt: skip
        assert r.returncode == 0, r.stdout + r.stderr
        assert "planned_restart" in r.stdout
        out, _ = sup.communicate(timeout=240)
    assert sup.returncode == 0, out
    stop = rows(run_dir, "SELECT MAX(step) FROM steps WHERE attempt = 0")[0][0]
    first = rows(run_dir, "SELECT MIN(step) FROM steps WHERE attempt = 1")[0][0]
    assert first == stop + 1  # nothing redone
    s = summarize_run(run_dir).to_dict()
    assert s["steps_lost"] == 0 and s["final_step"] == 2499
    (f,) = s["failures"]
    assert f["planned"] and "new dataset mix" in f["message"]
