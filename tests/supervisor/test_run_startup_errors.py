"""A script that raises before it trains: one attempt, a page, and the truth in the ledger."""

from __future__ import annotations

import json

import pytest
from support import nonstop_cli, nonstop_run, rows

pytestmark = pytest.mark.slow


def _run_two(tmp_path, text, *args, name="train.py", env=None, script_args=()):
    """`nonstop run ARGS` on `text` as a plain script (given `script_args`), two ranks, no
    health checks: (result, run directory)."""
    script = tmp_path / name
    script.write_text(text)
    run_dir = tmp_path / "run"
    common = ("--nproc-per-node", "2", "--run-dir", str(run_dir), "--health-checks", "none")
    r = nonstop_run([*common, *args, str(script), *script_args], env=env)
    return r, run_dir


def test_a_script_that_raises_at_import_is_not_retried(tmp_path):
    text = "import os\nraise RuntimeError('boom at import')\n"
    r, run_dir = _run_two(tmp_path, text, "--max-restarts", "3", name="broken.py")
    assert r.returncode == 3, r.stdout + r.stderr  # EXIT_PAGE: a human must look
    assert rows(run_dir, "SELECT COUNT(*) FROM attempts")[0][0] == 1, r.stdout
    actions = rows(run_dir, "SELECT action FROM actions WHERE attempt = 0")
    assert actions == [("stop_and_page",)], actions
    roots = rows(run_dir, "SELECT action, message FROM failures WHERE root_cause = 1")
    assert roots and all(a == "stop_and_page" for a, _ in roots), roots
    assert "before the job made any progress" in roots[0][1]


DIES_BEFORE_INIT = """
import os, pathlib, time
import torch
import torch.distributed as dist

rank = int(os.environ["RANK"])
ready = pathlib.Path(os.environ["READY_FILE"])
if int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0")) == 0:
    if rank == 0:
        ready.touch()  # rank 0 now waits for rank 1 inside init_process_group, in C
    else:
        while not ready.exists():
            time.sleep(0.05)
        time.sleep(1.0)
        os.kill(os.getpid(), 9)  # dies before it joins the group
dist.init_process_group("gloo")
x = torch.ones(4)
for _ in range(5):
    dist.all_reduce(x)
dist.destroy_process_group()
"""


def _stamp(line: str) -> float:
    """Seconds of the day of a glog-style torch line: `W1202 02:40:14.550000 ...`."""
    hms = line.split()[1]
    h, m, sec = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(sec)


def test_a_rank_dead_before_init_is_the_cause_and_its_stuck_peer_is_stopped_in_seconds(
    tmp_path,
):
    """Rank 0 waits in the rendezvous store's C++ wait, where Python runs no signal handler:
    torch gave it 30 s between SIGTERM and SIGKILL, and its SIGKILL was recorded as a second
    root cause (which named rank 0 as the failure). Now the agent knows it stopped rank 0 and
    that rank 0's SIGTERM is nonstop's: 5 s, and rank 0 is secondary."""
    env = {"READY_FILE": str(tmp_path / "ready")}
    r, run_dir = _run_two(tmp_path, DIES_BEFORE_INIT, name="dies.py", env=env)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    got = rows(run_dir, "SELECT rank, exit_code, root_cause FROM failures WHERE attempt = 0")
    assert sorted(got) == [(0, -9, 0), (1, -9, 1)], got
    term = [ln for ln in out.splitlines() if "closing signal SIGTERM" in ln]
    kill = [ln for ln in out.splitlines() if "forcefully exiting via" in ln]
    assert term and kill, out  # rank 0 did ignore SIGTERM: the case under test
    assert _stamp(kill[0]) - _stamp(term[0]) < 20, (term[0], kill[0])  # torch's own: 30 s


# a plain DDP-style script, no nonstop code: 50 quick steps, then rank 1 raises; the whole run
# takes less than the bootstrap watcher's half-second tick
TRAINS_THEN_RAISES = """
import os
import torch, torch.distributed as dist

dist.init_process_group("gloo")
x = torch.ones(4)
for step in range(50):
    dist.all_reduce(x)
if dist.get_rank() == 1 and int(os.environ["TORCHELASTIC_RESTART_COUNT"]) == 0:
    raise ValueError("bad batch at step 50")
dist.barrier()
dist.destroy_process_group()
"""


def test_a_plain_script_that_trained_and_then_raised_is_retried(tmp_path):
    """No nonstop.runtime, so no step events; 50 all_reduces between two of the watcher's
    ticks. The watchdog saw no progress and the ValueError was read as raised "before the job
    made any progress (at import or in setup)", which stops and pages. The rank's last words
    now say how many collectives it completed: the failure is retried and the retry passes."""
    r, run_dir = _run_two(tmp_path, TRAINS_THEN_RAISES, "--max-restarts", "2")
    assert r.returncode == 0, r.stdout + r.stderr
    roots = rows(run_dir, "SELECT rank, action, message FROM failures WHERE root_cause = 1")
    assert len(roots) == 1 and roots[0][:2] == (1, "restart"), roots
    assert "ValueError" in roots[0][2] and "before the job" not in roots[0][2], roots


# a child process of rank 1 is SIGKILLed in the first attempt (as the host's OOM killer does):
# a DataLoader worker, or a torch.multiprocessing.spawn child before any collective completed
KILLED_CHILD = """
import os, signal, sys
import torch, torch.distributed as dist, torch.multiprocessing as mp
from torch.utils.data import DataLoader, Dataset

FIRST = int(os.environ["TORCHELASTIC_RESTART_COUNT"]) == 0


class Items(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        if FIRST and dist.get_rank() == 1 and i == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return torch.tensor([float(i)])


def child(i, rank):
    if FIRST and rank == 1 and i == 1:
        os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    dist.init_process_group("gloo")
    if sys.argv[1] == "spawn":
        mp.spawn(child, args=(dist.get_rank(),), nprocs=2)
    else:
        for batch in DataLoader(Items(), batch_size=2, num_workers=2):
            dist.all_reduce(batch)
    dist.barrier()
    dist.destroy_process_group()
"""


@pytest.mark.parametrize("how", ["dataloader", "spawn"])
def test_a_ranks_killed_child_is_no_bug_of_the_script(tmp_path, how):
    """The rank's exception only reports that its child died ("DataLoader worker (pid N) is
    killed by signal: Killed", "process 1 terminated with signal SIGKILL"): it was read as
    user_code_error, which stopped the job after one retry (the DataLoader) or at once, as
    "raised before any progress" (mp.spawn before a collective completed), where torchrun
    restarts. Now: unknown, restarted, and the retry trains to the end."""
    r, run_dir = _run_two(tmp_path, KILLED_CHILD, "--max-restarts", "1", script_args=(how,))
    assert r.returncode == 0, r.stdout + r.stderr
    roots = rows(run_dir, "SELECT rank, category, action FROM failures WHERE root_cause = 1")
    assert roots == [(1, "unknown", "restart")], roots


# rank 1 closes its connections, then is slow to exit (as a killed DataLoader worker's teardown
# can be on a loaded host): rank 0 fails echoing this very host, rank 1 is still running when
# the agent stops it
SLOW_EXIT = """
import os, sys, time
import torch, torch.distributed as dist

FIRST = int(os.environ["TORCHELASTIC_RESTART_COUNT"]) == 0
dist.init_process_group("gloo")
dist.all_reduce(torch.ones(2))
if FIRST and dist.get_rank() == 1:
    dist.destroy_process_group()
    time.sleep(60)
    sys.exit(3)
dist.all_reduce(torch.ones(2))
dist.barrier()
dist.destroy_process_group()
"""


def test_a_rank_slow_to_exit_on_one_host_is_the_cause_not_a_lost_localhost(tmp_path):
    """CI once recorded the killed DataLoader worker's failure as "node localhost lost",
    host_maintenance, exclude_node: rank 1 outlived the culprit wait, rank 0's echo named
    127.0.0.1, a reverse lookup called it "localhost", and no agent of that name spoke. On
    one host the echo names this host: the culprit is the rank the agent had to stop."""
    r, run_dir = _run_two(tmp_path, SLOW_EXIT, "--max-restarts", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    roots = rows(run_dir, "SELECT rank, host, category, action FROM failures WHERE root_cause = 1")
    assert [(rank, c, a) for rank, _, c, a in roots] == [(1, "unknown", "restart")], roots
    assert roots[0][1] != "localhost"
    assert rows(run_dir, "SELECT COUNT(*) FROM actions WHERE action = 'exclude_node'") == [(0,)]


INTERRUPTED = """
import torch, torch.distributed as dist

dist.init_process_group("gloo")
dist.all_reduce(torch.ones(2))
if dist.get_rank() == 1:
    raise KeyboardInterrupt
dist.barrier()
"""


def test_an_interrupted_rank_is_unknown_and_the_last_restart_is_said_spent(tmp_path):
    """A rank that dies of a KeyboardInterrupt (exit -2): its log's only words are the traceback
    ("[rank1]: KeyboardInterrupt"), from which the fallback guessed "storage"; and with
    --max-restarts 0 the failure line said "-> restart" just before "no restarts left"."""
    script = tmp_path / "train.py"
    script.write_text(INTERRUPTED)
    run_dir = tmp_path / "run"
    r = nonstop_cli(  # not --quiet: the failure line is an info line
        "run",
        *("--nproc-per-node", "2", "--run-dir", str(run_dir)),
        *("--health-checks", "none", "--max-restarts", "0"),
        str(script),
    )
    out = r.stdout + r.stderr
    assert r.returncode == 1, out  # torchrun's too
    roots = rows(run_dir, "SELECT rank, category FROM failures WHERE root_cause = 1")
    assert roots == [(1, "unknown")], roots
    assert "-> restart, but none is left (--max-restarts)" in out, out
    log = run_dir / "logs" / "attempt-0" / "rank-1.log"
    got = nonstop_cli("triage", str(log), "--json")
    f = json.loads(got.stdout)["files"][0]
    assert (f["category"], f["guessed"]) == ("unknown", False), f
