"""A gloo rank for the flight-recorder tests: run as `python fr_worker.py RANK WORLD PORT RUN_DIR MODE`.

Every rank does three all_reduces, a sub-group all_reduce and a barrier, writing step events
through the real EventWriter. Then the last rank misbehaves while the others enter an
all_reduce of 8 doubles and wait in it:

- MODE=sleep: the last rank sleeps (alive, dumps its own trace from a thread, killed by the test);
- MODE=stop: the last rank SIGSTOPs itself (no dump: the test SIGKILLs it afterwards);
- MODE=dead: the last rank exits (no dump); the others' all_reduce fails, they log it and dump.

Waiting ranks dump their generic (gloo) flight-recorder trace from a thread after DUMP_AFTER_S,
as pickle into flight/attempt-0/rank-R and as JSON into flight-json/rank-R.json, then exit.
"""

import os
import signal
import sys
import threading
import time

os.environ.setdefault("TORCH_FR_BUFFER_SIZE", "200")  # the recorder is off without a buffer size

import torch
import torch.distributed as dist
from torch._C._distributed_c10d import _dump_fr_trace, _dump_fr_trace_json

from nonstop.events import EventWriter
from nonstop.rundir import RunDir

DUMP_AFTER_S = 1.5

rank, world, port, run_dir, mode = (
    int(sys.argv[1]),
    int(sys.argv[2]),
    int(sys.argv[3]),
    sys.argv[4],
    sys.argv[5],
)
rd = RunDir(__import__("pathlib").Path(run_dir))
w = EventWriter(
    rd.events(0, rank),
    run_id="t",
    attempt=0,
    rank=rank,
    host=f"node-{rank // 2}",
    install_sigterm=False,
)
dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
x = torch.ones(4)
for step in range(3):
    t0 = time.time()
    dist.all_reduce(x)
    w.emit("step", step=step, start=t0, end=time.time(), compute_s=0.01)
sub = dist.new_group([0, 1])
if rank in (0, 1):
    dist.all_reduce(x, group=sub)
dist.barrier()
w.close()


def dump(then_exit: bool = True) -> None:
    time.sleep(DUMP_AFTER_S)
    path = rd.flight(0, rank)
    path.parent.mkdir(parents=True, exist_ok=True)
    jdir = rd.root / "flight-json"
    jdir.mkdir(exist_ok=True)
    for dest, data in (
        (path, _dump_fr_trace()),
        (jdir / f"rank-{rank}.json", _dump_fr_trace_json()),
    ):
        tmp = dest.with_name(".tmp-" + dest.name)  # atomic: the test may kill us any time after
        tmp.write_bytes(data)
        os.replace(tmp, dest)
    if then_exit:
        os._exit(0)


if rank == world - 1:
    if mode == "dead":
        os._exit(9)  # dies without a dump, just before the collective its peers enter
    if mode == "stop":
        os.kill(os.getpid(), signal.SIGSTOP)
    threading.Thread(target=dump, args=(False,), daemon=True).start()
    time.sleep(60)  # alive and silent until the test kills it
    os._exit(0)
if mode == "dead":  # the last rank died above; this all_reduce fails, then we dump
    try:
        dist.all_reduce(torch.ones(8, dtype=torch.float64))
    except RuntimeError as e:
        print(f"collective failed: {e}", flush=True)
    dump()
threading.Thread(target=dump, daemon=True).start()
dist.all_reduce(torch.ones(8, dtype=torch.float64))
os._exit(3)  # reaching here means the all_reduce did not wait: the test will say so
