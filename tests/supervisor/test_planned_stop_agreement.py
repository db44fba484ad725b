"""Ranks that read a stop plan at different steps still stop after the same step.

Each rank's watcher thread reads the plan on its own clock; a plan that named a step ahead
failed when steps were short and one watcher was late (ranks saved at different steps, the
early ones exited, the late one waited in a collective for the whole grace period).
"""

import subprocess
import sys

from support import free_port

SCRIPT = r"""
import os, sys
from pathlib import Path
import torch.distributed as dist
from nonstop.runtime import Runtime

rank = int(sys.argv[1])
dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{sys.argv[2]}", rank=rank,
                        world_size=2)
rt = Runtime(run_dir=Path(sys.argv[3]), run_id="t", attempt=0, rank=rank, world_size=2,
             host="h")
for step in range(50):
    if rank == 0 and step == 7:
        rt.stop_at = 3  # rank 0's watcher read the plan; rank 1's never did
    if rt.planned_stop_due(step + 1):
        print("stopped after", step, flush=True)
        break
else:
    print("never stopped", flush=True)
rt.close()
dist.destroy_process_group()
"""


def _two_ranks(script: str, tmp_path) -> list[str]:
    """Run `script` as ranks 0 and 1 of a gloo group; their outputs (both must exit 0)."""
    port = free_port()
    cmd = [sys.executable, "-c", script]
    out = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True}
    procs = [subprocess.Popen([*cmd, str(r), str(port), str(tmp_path)], **out) for r in range(2)]
    outs = [p.communicate(timeout=60)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    return outs


def test_ranks_agree_on_the_stop_step_whatever_each_watcher_saw(tmp_path):
    outs = _two_ranks(SCRIPT, tmp_path)
    assert all("stopped after 7" in o for o in outs), outs


def test_check_every_n_steps(monkeypatch, tmp_path):
    from nonstop.runtime import Runtime

    monkeypatch.setenv("NONSTOP_STOP_CHECK_EVERY", "4")
    rt = Runtime(run_dir=tmp_path, run_id="t", attempt=0, rank=0, world_size=1, host="h")
    rt.stop_at = 0
    assert [s for s in range(1, 10) if rt.planned_stop_due(s)] == [4, 8]
    rt.close()
    monkeypatch.setenv("NONSTOP_STOP_CHECK_EVERY", "often")  # not a number: every step
    plain = Runtime(run_dir=None, run_id="t", attempt=0, rank=0, world_size=1, host="h")
    assert plain.stop_check_every == 1
    plain.stop_at = 0  # without a run directory no supervisor plans stops: never a collective
    assert not plain.planned_stop_due(4)


GUARDED = r"""
import sys
from pathlib import Path
import torch
import torch.distributed as dist
from nonstop.runtime import Runtime

rank = int(sys.argv[1])
dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{sys.argv[2]}", rank=rank,
                        world_size=2)
calls = []
real = dist.all_reduce
def counted(*a, **k):
    calls.append(1)
    return real(*a, **k)
dist.all_reduce = counted
rt = Runtime(run_dir=Path(sys.argv[3]), run_id="t", attempt=0, rank=rank, world_size=2,
             host="h")
model = torch.nn.Linear(4, 4)
rt.health.watch(model)
for step in range(50):
    if rank == 0 and step == 7:
        rt.stop_at = 3
    with rt.step(step) as st:
        st.record(loss=1.0 + 0.01 * (step % 3))
    if rt.planned_stop_due(step + 1):
        print("stopped after", step, "collectives", len(calls), flush=True)
        break
else:
    print("never stopped", flush=True)
rt.close()
dist.destroy_process_group()
"""


def test_the_guards_check_carries_the_stop_flag(tmp_path):
    """With the guards watching every rank, their one check per step also agrees on a planned
    stop: the ranks still stop after the same step, and planned_stop_due adds no collective."""
    outs = _two_ranks(GUARDED, tmp_path)
    # steps 0-7: one guard check each, and no all-reduce of planned_stop_due's own
    assert all("stopped after 7 collectives 8" in o for o in outs), outs
