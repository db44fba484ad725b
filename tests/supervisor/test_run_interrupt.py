"""Ctrl-C (SIGINT) or a closed terminal (SIGHUP) to `nonstop run` while ranks train: as under
torchrun the ranks are stopped and the exit is 1; the ledger closes the attempt as stopped (not
left open to read later as a supervisor killed mid-attempt), and no rank outlives the launcher.

    pytest -q tests/supervisor/test_run_interrupt.py
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """\
import os, sys, time
from pathlib import Path
here = Path(sys.argv[1])
(here / f"pid-{os.environ['RANK']}").write_text(str(os.getpid()))
while not (here / "done").exists():
    time.sleep(0.05)
"""


def _run(tmp_path: Path, run_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--standalone"),
            *("--nproc-per-node", "2", "--health-checks", "none", "--no-self-test"),
            *("--run-dir", str(run_dir), str(tmp_path / "train.py"), str(tmp_path)),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for the user; /proc says so
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.timeout(240)
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP], ids=["SIGINT", "SIGHUP"])
def test_an_interrupted_run_closes_its_attempt_and_resumes_without_a_failure(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """Before: the SignalException's traceback, and the attempt left open in the ledger (no end,
    no outcome): the report's wall time stopped at the attempt's start, and the next `nonstop
    run` of the directory recorded a failure ("the supervisor stopped during this attempt
    (killed?)") that was the user's Ctrl-C. And now and then (1 of 2 here) the signal was lost
    and the job trained on: see the next test."""
    (tmp_path / "train.py").write_text(SCRIPT)
    run_dir = tmp_path / "run"
    proc = _run(tmp_path, run_dir)
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"pid-{r}").exists() for r in (0, 1)):
        assert proc.poll() is None, proc.communicate()[0]
        assert time.monotonic() < deadline, "the ranks never started"
        time.sleep(0.1)
    pids = [int((tmp_path / f"pid-{r}").read_text()) for r in (0, 1)]
    proc.send_signal(sig)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()  # the ranks die with it (PR_SET_PDEATHSIG)
        out, _ = proc.communicate()
        pytest.fail(f"{sig.name} was lost: nonstop run went on\n{out}")
    assert proc.returncode == 1, out  # torchrun's exit on a death signal
    assert "SignalException" not in out, out
    assert f"nonstop run: interrupted ({sig.name})" in out, out
    assert not [p for p in pids if _alive(p)], out
    con = sqlite3.connect(run_dir / "ledger.db")
    try:
        rows = list(con.execute("SELECT attempt, end_time, outcome FROM attempts"))
        assert len(rows) == 1 and rows[0][1] is not None and rows[0][2] == "stopped", rows
        actions = list(con.execute("SELECT action, reason FROM actions"))
        assert actions == [("interrupted", f"{sig.name} to nonstop run: the ranks were stopped")]
    finally:
        con.close()

    for r in (0, 1):
        (tmp_path / f"pid-{r}").unlink()
    (tmp_path / "done").write_text("")
    again = _run(tmp_path, run_dir)
    out, _ = again.communicate(timeout=180)
    assert again.returncode == 0, out
    con = sqlite3.connect(run_dir / "ledger.db")
    try:
        failures = list(con.execute("SELECT attempt, message FROM failures"))
        outcomes = [o for (o,) in con.execute("SELECT outcome FROM attempts ORDER BY attempt")]
    finally:
        con.close()
    assert failures == [], failures
    assert outcomes == ["stopped", "succeeded"], outcomes


LATCH = """\
import os, signal, time
from torch.distributed.elastic.multiprocessing.api import SignalException
from nonstop import log
from nonstop.supervisor import torch_compat
with torch_compat.forwarding_signals("SIGINT,SIGHUP"):
    pass  # torch's process context registers its handler in here; nonstop's replaces it after
try:
    # the agent's loop keeps telemetry from killing the job: `except Exception`, swallowed()
    with log.swallowed(log.get("t"), "telemetry"):
        try:
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(5)
        except Exception as e:
            print("swallowed", type(e).__name__, flush=True)
except BaseException as e:
    print("passed through", type(e).__name__, e.sigval.name, flush=True)
try:
    torch_compat.raise_death_signal()  # the monitor loop's next turn
except SignalException as e:
    print("raised again", e.sigval.name, flush=True)
"""


@pytest.mark.timeout(120)
def test_a_death_signal_passes_through_the_agents_broad_excepts(tmp_path: Path) -> None:
    """torch's handler raised SignalException (an Exception) wherever the agent's main thread
    was; raised inside nonstop's event ingest (`except Exception`: "could not ingest events:
    Process N got signal: 1") it was swallowed, and SIGHUP or Ctrl-C left the job training
    (1 run of 2 of the test above). The handler raises DeathSignal, a BaseException, which
    the agent hands to torch's run() as its SignalException; and a signal received is raised
    again at the monitor loop's next turn."""
    r = subprocess.run(
        [sys.executable, "-c", LATCH],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    assert r.stdout.split("\n")[:2] == [
        "passed through DeathSignal SIGHUP",
        "raised again SIGHUP",
    ], r.stdout + r.stderr


@pytest.mark.timeout(240)
def test_ctrl_c_while_the_first_ranks_start_closes_the_attempt(tmp_path: Path) -> None:
    """Ctrl-C after the attempt began but before torch's handler was in place (the ranks still
    starting: here a standby importing the script's slow module) is Python's
    KeyboardInterrupt: `nonstop run` said "interrupted" and left the attempt open, as the
    first test's SignalException did."""
    (tmp_path / "slowmod.py").write_text("import time\ntime.sleep(20)\n")
    (tmp_path / "train.py").write_text("import slowmod\n")
    run_dir = tmp_path / "run"
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--standalone"),
            *("--nproc-per-node", "1", "--health-checks", "none", "--no-self-test"),
            *("--run-dir", str(run_dir), str(tmp_path / "train.py")),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 120
    rows: list[tuple] = []
    while not rows:
        assert proc.poll() is None, proc.communicate()[0]
        assert time.monotonic() < deadline, "the attempt never began"
        time.sleep(0.2)
        if (run_dir / "ledger.db").exists():
            con = sqlite3.connect(f"file:{run_dir / 'ledger.db'}?mode=ro", uri=True)
            try:
                rows = list(con.execute("SELECT attempt FROM attempts"))
            except sqlite3.OperationalError:  # the schema not written yet
                rows = []
            finally:
                con.close()
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        pytest.fail(f"SIGINT was lost: nonstop run went on\n{out}")
    assert proc.returncode == 130, out
    assert "nonstop run: interrupted (SIGINT)" in out, out
    con = sqlite3.connect(run_dir / "ledger.db")
    try:
        rows = list(con.execute("SELECT attempt, end_time, outcome FROM attempts"))
    finally:
        con.close()
    assert len(rows) == 1 and rows[0][1] is not None and rows[0][2] == "stopped", (rows, out)
