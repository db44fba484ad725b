"""Planned interruptions lose no progress: preemption signals and operator restarts; planned
stops that cannot keep that promise say so and exit non-zero."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

import psutil
import pytest
from support import TINY, free_port, last_step, rows

from nonstop.ledger import summarize_run
from nonstop.supervisor.planned_stop import write_request

pytestmark = pytest.mark.slow


def command(run_dir, steps, *flags):
    return [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nproc-per-node",
        "2",
        "--run-dir",
        str(run_dir),
        *flags,
        "-m",
        "nonstop.workloads.llama.train",
        *TINY,
        "--steps",
        str(steps),
        "--checkpoint-every",
        "1000",
    ]


# The numerical guards (another feature) stay out of these runs: a tiny model's gradient norm
# spikes now and then, and a rollback is not what is tested here.
ENV = dict(os.environ, NONSTOP_HEALTH="off")
POPEN = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True, "env": ENV}


def ctl(*args, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "nonstop.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


def wait_for_step(run_dir, step, attempt=0, timeout=120):
    deadline = time.monotonic() + timeout
    while last_step(run_dir, attempt) < step and time.monotonic() < deadline:
        time.sleep(0.2)
    assert last_step(run_dir, attempt) >= step


def test_preemption_signal_checkpoints_stops_75_and_resumes_with_nothing_lost(run_dir):
    with subprocess.Popen(command(run_dir, 100000), **POPEN) as sup:
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
    report = subprocess.run(
        [sys.executable, "-m", "nonstop.cli", "report", str(run_dir)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert report.returncode == 0, report.stderr
    assert "0 + 1 planned" in report.stdout  # a planned stop is not counted as a failure


def test_operator_restart_checkpoints_and_restarts_in_place(run_dir):
    with subprocess.Popen(command(run_dir, 2500), **POPEN) as sup:
        wait_for_step(run_dir, 50)
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "nonstop.cli",
                "restart",
                str(run_dir),
                "--reason",
                "new dataset mix",
                "--wait",
                "60",
            ],
            capture_output=True,
            text=True,
            timeout=90,
        )
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


def test_sigterm_to_every_process_at_once_still_checkpoints_then_resumes(run_dir):
    """What Slurm does at a time limit or a preemption: SIGTERM to the supervisor, its ranks and
    its standbys together (SIGKILL KillWait later). The ranks outlive the SIGTERM long enough to
    save the agreed checkpoint, and the agent is done within its grace period."""
    with subprocess.Popen(command(run_dir, 100000, "--grace-period", "60"), **POPEN) as sup:
        wait_for_step(run_dir, 30)
        everyone = [sup.pid] + [c.pid for c in psutil.Process(sup.pid).children(recursive=True)]
        assert len(everyone) >= 3  # the agent and its two ranks, at least
        for pid in everyone:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        out, _ = sup.communicate(timeout=120)
    assert sup.returncode == 75, out
    assert "stopped after a checkpoint at step" in out and "ran out" not in out, out
    ((step,),) = rows(run_dir, "SELECT MAX(step) FROM checkpoints WHERE phase = 'committed'")
    ((stop,),) = rows(run_dir, "SELECT MAX(step) FROM steps WHERE attempt = 0")
    assert step == stop + 1 > 30
    ranks = rows(run_dir, "SELECT rank FROM lifecycle WHERE phase = 'planned_stop' ORDER BY rank")
    assert ranks == [(0,), (1,)]  # both ranks saved and said so: none died of the SIGTERM
    r = subprocess.run(
        command(run_dir, step + 10), capture_output=True, text=True, timeout=180, env=ENV
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert rows(run_dir, "SELECT MIN(step) FROM steps WHERE attempt = 1")[0][0] == step
    s = summarize_run(run_dir).to_dict()
    assert s["steps_lost"] == 0 and [f["planned"] for f in s["failures"]] == [True]


UNMODIFIED = """
import time
import torch
import torch.distributed as dist

dist.init_process_group("gloo")  # a script that knows nothing of nonstop
x = torch.ones(4)
for step in range(100000):
    dist.all_reduce(x)
    x.fill_(1.0)
    time.sleep(0.01)
"""


def test_sigterm_on_a_script_without_the_runtime_says_that_no_checkpoint_was_made(
    run_dir, tmp_path
):
    """Issue 20: the supervisor claimed "a checkpoint at step -1" for a script that cannot be
    asked to checkpoint at all."""
    script = tmp_path / "plain.py"
    script.write_text(UNMODIFIED)
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
        str(script),
    ]
    with subprocess.Popen(cmd, **POPEN) as sup:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not rows_or_none(
            run_dir, "SELECT 1 FROM lifecycle WHERE phase = 'attempt_start'"
        ):
            time.sleep(0.5)
        time.sleep(3)  # training: all-reducing
        sup.send_signal(signal.SIGTERM)
        out, _ = sup.communicate(timeout=120)
    assert sup.returncode == 75, out  # requeue: the script resumes from its own checkpoints
    assert "cannot be asked to checkpoint" in out and "own last checkpoint, if any" in out, out
    assert "step -1" not in out and "after a checkpoint" not in out, out
    recorded = rows(run_dir, "SELECT reason FROM actions") + rows(
        run_dir, "SELECT message FROM failures"
    )
    assert recorded and all(
        "step -1" not in r and "after a checkpoint" not in r for (r,) in recorded
    ), recorded
    ((message,),) = rows(run_dir, "SELECT message FROM failures WHERE planned = 1")
    assert "without one" in message, message
    assert rows(run_dir, "SELECT COUNT(*) FROM checkpoints") == [(0,)]


def rows_or_none(run_dir, sql):
    try:
        return rows(run_dir, sql)
    except Exception:
        return None


def test_a_grace_period_overrun_says_so_and_the_operator_command_fails(run_dir):
    """Rank 1 sleeps at step 60, so the agreed checkpoint never comes; after --grace-period the
    ranks are stopped, the ledger says planned_stop_failed and `nonstop restart --wait` exits 1
    with the reason. The job then restarts from its last checkpoint and finishes."""
    flags = [
        "--grace-period",
        "3",
        "--hang-timeout",
        "600",
        "--inject",
        "hang@step=60,rank=1,how=sleep",
    ]
    with subprocess.Popen(command(run_dir, 150, *flags), **POPEN) as sup:
        wait_for_step(run_dir, 59)
        r = ctl("restart", str(run_dir), "--reason", "new dataset mix", "--wait", "90")
        out, _ = sup.communicate(timeout=240)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "planned_stop_failed" in r.stdout and "grace period (3 s" in r.stdout, r.stdout
    assert "steps since the last checkpoint" in r.stdout, r.stdout
    assert sup.returncode == 0, out  # the restarted attempt trained to the end
    assert "grace period (3 s, --grace-period) ran out" in out, out
    (f,) = summarize_run(run_dir).to_dict()["failures"]
    assert f["planned"] and "ran out" in f["message"]


def test_a_sigterm_stop_has_the_shorter_sigterm_grace_and_an_overrun_says_so(run_dir):
    """NONSTOP_SIGTERM_GRACE_S (Slurm's KillWait, set by the sbatch example) bounds a stop
    after SIGTERM, while --grace-period stays long for warnings; the run still exits 75 (requeue:
    it resumes from the last checkpoint) and says that it did so without the planned one."""
    flags = [
        "--grace-period",
        "600",
        "--hang-timeout",
        "600",
        "--inject",
        "hang@step=60,rank=1,how=sleep",
    ]
    env = dict(ENV, NONSTOP_SIGTERM_GRACE_S="3")
    with subprocess.Popen(command(run_dir, 100000, *flags), **{**POPEN, "env": env}) as sup:
        wait_for_step(run_dir, 59)
        time.sleep(1)
        sup.send_signal(signal.SIGTERM)
        out, _ = sup.communicate(timeout=120)
    assert sup.returncode == 75, out
    assert "grace period (3 s, --grace-period) ran out" in out, out
    assert "without the planned checkpoint" in out and "from the last checkpoint" in out, out
    ((action,),) = rows(run_dir, "SELECT action FROM actions WHERE action LIKE 'planned_stop_%'")
    assert action == "planned_stop_failed"


def test_drain_refuses_an_unknown_host_and_draining_the_last_node_stops_75(run_dir):
    with subprocess.Popen(command(run_dir, 100000, "--host-name", "node-a"), **POPEN) as sup:
        wait_for_step(run_dir, 20)
        # a typo is caught by the command, from the hosts the ledger knows
        r = ctl("drain", str(run_dir), "--host", "node-b", "--wait", "30")
        assert r.returncode == 2, r.stdout + r.stderr
        assert "unknown host 'node-b'" in r.stderr and "node-a" in r.stderr, r.stderr
        # and by the agents, for a request that got past it: refused, never a restart
        write_request(run_dir, "drain", host="node-c", reason="typo")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not rows(
            run_dir, "SELECT 1 FROM actions WHERE action = 'planned_stop_failed'"
        ):
            time.sleep(0.5)
        ((reason,),) = rows(run_dir, "SELECT reason FROM actions WHERE action != 'reconfigure'")
        assert "unknown host 'node-c'" in reason and "node-a" in reason, reason
        # draining the only node leaves nothing to train on: a checkpoint, then exit 75
        r = ctl("drain", str(run_dir), "--host", "node-a", "--reason", "maint", "--wait", "90")
        out, _ = sup.communicate(timeout=120)
    assert r.returncode == 0 and "stopped:" in r.stdout and "requeue" in r.stdout, r.stdout
    assert sup.returncode == 75, out
    assert "leaves 0 node(s) to train on" in out and "stopped after a checkpoint" in out, out
    assert rows(run_dir, "SELECT outcome FROM attempts") == [("planned",)]
    ((step,),) = rows(run_dir, "SELECT MAX(step) FROM checkpoints WHERE phase = 'committed'")
    assert step == rows(run_dir, "SELECT MAX(step) FROM steps")[0][0] + 1


def test_a_cloud_preemption_notice_checkpoints_stops_75_and_resumes(run_dir):
    """GCP's `instance/preempted` turns TRUE (a local server that answers as GCP's metadata
    server does, found by `--cloud-notices auto`): the same planned stop as SIGUSR1, a
    checkpoint, exit 75, and the requeued job resumes at that checkpoint, no step twice."""
    from support.cloud_metadata import FakeCloud

    with FakeCloud("gcp") as cloud:
        env = dict(ENV, NONSTOP_CLOUD_METADATA_URL=cloud.url)
        with subprocess.Popen(command(run_dir, 100000), **{**POPEN, "env": env}) as sup:
            wait_for_step(run_dir, 30)
            assert ("GET", "/computeMetadata/v1/instance/preempted") in cloud.requests
            cloud.gcp_preempted = "TRUE"
            out, _ = sup.communicate(timeout=120)
        assert sup.returncode == 75, out
        assert "gcp notice: preempted" in out, out
        ((step,),) = rows(run_dir, "SELECT MAX(step) FROM checkpoints WHERE phase = 'committed'")
        assert step > 30 and (run_dir / "checkpoints" / f"step-{step}").is_dir()
        last = rows(run_dir, "SELECT MAX(step) FROM steps WHERE attempt = 0")[0][0]
        assert last == step - 1  # the checkpoint holds steps 0..step-1: it stopped there
        (reason,) = rows(run_dir, "SELECT message FROM failures WHERE planned = 1")[0]
        assert "gcp notice: preempted" in reason
        config = json.loads((run_dir / "config.json").read_text())
        assert config["supervisor"]["cloud_notices"] == "auto"
        # the requeued job, on a machine the cloud is not taking away
        cloud.gcp_preempted = "FALSE"
        r = subprocess.run(
            command(run_dir, step + 10), capture_output=True, text=True, timeout=180, env=env
        )
    assert r.returncode == 0, r.stdout + r.stderr
    assert rows(run_dir, "SELECT MIN(step) FROM steps WHERE attempt = 1")[0][0] == step
    s = summarize_run(run_dir).to_dict()
    assert s["steps_lost"] == 0 and s["badput_s"]["lost_progress"] == 0
    assert [f["planned"] for f in s["failures"]] == [True]


def test_sigterm_to_an_agent_waiting_in_the_rendezvous_stops_75_at_once(run_dir):
    """One agent of a two-node job waits for its peer (as a surviving node does after an
    exclusion leaves too few): the scheduler's SIGTERM ends the wait with exit 75 (requeue),
    instead of the rendezvous' 10 minutes or Slurm's SIGKILL after KillWait (exit 137)."""
    port = free_port()
    flags = ["--nnodes", "2", "--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}"]
    with subprocess.Popen(command(run_dir, 100, *flags), **POPEN) as sup:
        deadline = time.monotonic() + 120  # the agent hosts the store: it listens, then waits
        while time.monotonic() < deadline and not port_open(port):
            assert sup.poll() is None, sup.communicate()[0]
            time.sleep(0.2)
        time.sleep(2.0)  # in the rendezvous' wait for a second node by now
        t0 = time.monotonic()
        sup.send_signal(signal.SIGTERM)
        out, _ = sup.communicate(timeout=60)
    assert sup.returncode == 75, out
    assert time.monotonic() - t0 < 30, out  # not the rendezvous' own timeout
    assert "SIGTERM while waiting in the rendezvous" in out and "requeue" in out, out
    ((action, reason),) = rows(run_dir, "SELECT action, reason FROM actions")
    assert action == "planned_stop" and "SIGTERM" in reason, reason


def port_open(port):
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False
