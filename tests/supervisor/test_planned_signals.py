"""The signal plumbing of planned stops, on real signals in small processes (no torch).

A rank's SIGTERM: from the scheduler (Slurm signals every process of a job), it becomes a
planned stop and the rank goes on to its checkpoint; from its own agent's teardown (marked
first), or in a script that cannot be asked to checkpoint, it kills the rank as before.
"""

import signal
import subprocess
import sys

import pytest

from nonstop.supervisor import planned_stop as control

RANK = r"""
import os, signal, sys, time
from pathlib import Path
from nonstop.runtime import Runtime
from nonstop.supervisor.bootstrap import SigtermHandler
from nonstop.supervisor.planned_stop import mark_teardown

run_dir, mode = Path(sys.argv[1]), sys.argv[2]
rt = Runtime(run_dir=run_dir, run_id="t", attempt=3, rank=0, world_size=1, host="node-a")
rt.current_step = 41
signal.signal(signal.SIGTERM, SigtermHandler(rt))
if mode != "unmodified":
    rt.planned_stop_due(42)  # the script asks: it can be asked to checkpoint
if mode == "teardown":
    mark_teardown(run_dir, "node-a", 3)
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(0.5)
print("alive, stop_at", rt.stop_at, "due", rt.planned_stop_due(43), flush=True)
rt.close()
"""


def run_rank(tmp_path, mode):
    return subprocess.run(
        [sys.executable, "-c", RANK, str(tmp_path), mode],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_scheduler_sigterm_becomes_a_planned_stop_at_the_next_check(tmp_path):
    r = run_rank(tmp_path, "scheduler")
    assert r.returncode == 0, r.stderr
    assert "alive, stop_at 41 due True" in r.stdout
    events = (tmp_path / "events/attempt-3/rank-0.jsonl").read_text()
    assert '"stop_signal"' in events and '"stop_checks"' in events


@pytest.mark.parametrize("mode", ["teardown", "unmodified"])
def test_the_agents_own_teardown_or_an_unaskable_script_dies_of_sigterm(tmp_path, mode):
    r = run_rank(tmp_path, mode)
    assert r.returncode == -signal.SIGTERM, r.stdout + r.stderr
    assert "alive" not in r.stdout
    events = (tmp_path / "events/attempt-3/rank-0.jsonl").read_text()
    assert "stop_signal" not in events
    assert ('"stop_checks"' in events) == (mode == "teardown")  # flushed before it died


def test_a_warning_during_start_up_is_kept_for_the_agent():
    before = {s: signal.getsignal(s) for s in control.PREEMPTION_SIGNALS}
    try:
        control.catch_early_signals()
        assert control.early_signal() is None
        signal.raise_signal(signal.SIGUSR1)
        assert control.early_signal() == signal.SIGUSR1
        signal.raise_signal(signal.SIGTERM)
        signal.raise_signal(signal.SIGUSR2)
        assert control.early_signal() == signal.SIGTERM  # the most urgent one wins
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        control._early.clear()
