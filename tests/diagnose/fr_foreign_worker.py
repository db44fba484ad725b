"""A plain torch rank (no nonstop) that hangs the way users' jobs do and dumps its generic
flight recorder the way users get the dumps. Run under torchrun:

    TORCH_FR_BUFFER_SIZE=2000 TORCH_FR_DUMP_TEMP_FILE=/tmp/fr/pickle/rank_ \\
    FR_JSON_PREFIX=/tmp/fr/json/rank_ \\
    torchrun --nproc-per-node 3 tests/diagnose/fr_foreign_worker.py SCENARIO

Every rank does WARMUP all_reduces (and, but in subgroup_first, one on a sub-group of ranks 0
and 1), then:

- sleep: the last rank sleeps instead of entering an all_reduce the others wait in;
- desync: rank 1 calls all_gather where the others call all_reduce;
- subgroup: rank 1 sleeps instead of entering the sub-group's all_reduce rank 0 waits in,
  while the default group goes on fine (one more all_reduce by every rank);
- subgroup_first: as subgroup, but the hung collective is the sub-group's first (no rank
  recorded one in it before);
- p2p: rank 0 sends to rank 1, which never posts the receive;
- dead: the last rank exits with 1 before the all_reduce the others enter (it leaves no dump);
- timeout: as sleep, with a 2 s process-group timeout: the waiters' all_reduce raises, then
  they dump (gloo records the collective that raised as retired);
- wrap: as sleep, after 2,500 all_reduces (the 2,000-entry ring buffer wrapped).

Ranks that wait dump from a thread after DUMP_AFTER_S; a rank that sleeps dumps from a SIGALRM
handler; a rank whose collective fails dumps after the error, and one that torchrun stops
(SIGTERM, after another rank failed) from its SIGTERM handler. Each dump goes to
``$TORCH_FR_DUMP_TEMP_FILE<rank>`` (pickle, `_dump_fr_trace`) and ``$FR_JSON_PREFIX<rank>``
(`_dump_fr_trace_json`), written atomically, then the rank exits 0.
"""

import os
import signal
import sys
import threading
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch._C._distributed_c10d import _dump_fr_trace, _dump_fr_trace_json

DUMP_AFTER_S = 3.0
EXIT_AFTER_DUMP_S = 1.5
scenario = sys.argv[1]
WARMUP = 2500 if scenario == "wrap" else 3


_dumped = threading.Lock()


def dump(*_: object) -> None:
    """Write both dumps once (the first caller), then exit after the peers wrote theirs."""
    if _dumped.acquire(blocking=False):
        for prefix, data in (
            (os.environ["TORCH_FR_DUMP_TEMP_FILE"], _dump_fr_trace()),
            (os.environ["FR_JSON_PREFIX"], _dump_fr_trace_json()),
        ):
            dest = f"{prefix}{rank}"
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest + ".tmp", "wb") as f:
                f.write(data)
            os.replace(dest + ".tmp", dest)
    time.sleep(EXIT_AFTER_DUMP_S)  # a peer that exits first would fail the others' collective
    os._exit(0)


def dump_later() -> None:
    threading.Thread(target=lambda: (time.sleep(DUMP_AFTER_S), dump()), daemon=True).start()


def sleep_then_dump() -> None:
    signal.signal(signal.SIGALRM, dump)
    signal.alarm(int(DUMP_AFTER_S))
    time.sleep(60)


def on_sigterm(*_: object) -> None:  # torchrun stops the survivors of a failed rank
    global EXIT_AFTER_DUMP_S
    EXIT_AFTER_DUMP_S = 0.0
    if not _dumped.locked():  # else this thread is inside dump(): let it finish
        dump()


dist.init_process_group("gloo", timeout=timedelta(seconds=2 if scenario == "timeout" else 60))
rank, world = dist.get_rank(), dist.get_world_size()
signal.signal(signal.SIGTERM, on_sigterm)
x = torch.ones(4)
sub = dist.new_group([0, 1])
for _ in range(WARMUP):
    dist.all_reduce(x)
if rank in (0, 1) and scenario != "subgroup_first":
    dist.all_reduce(x, group=sub)
dist.barrier()

if scenario in ("sleep", "wrap"):
    if rank == world - 1:
        sleep_then_dump()
    dump_later()
    dist.all_reduce(torch.ones(8, dtype=torch.float64))
elif scenario == "timeout":  # as sleep, but the waiters dump after gloo's timeout fires
    if rank == world - 1:
        sleep_then_dump()
    try:
        dist.all_reduce(torch.ones(8, dtype=torch.float64))
    except RuntimeError as e:
        print(f"rank {rank}: collective failed: {e}", flush=True)
    time.sleep(0.5)  # gloo's thread retires the collective that raised
    dump()
elif scenario == "desync":
    dump_later()
    try:
        if rank == 1:
            dist.all_gather([torch.ones(8) for _ in range(world)], torch.ones(8))
        else:
            dist.all_reduce(torch.ones(8))
    except RuntimeError as e:
        print(f"rank {rank}: collective failed: {e}", flush=True)
    time.sleep(60)
elif scenario in ("subgroup", "subgroup_first"):
    # subgroup_first: rank 1 never enters the sub-group's first collective
    if scenario == "subgroup":
        dist.all_reduce(x)  # the default group goes on fine
    if rank == 1:
        sleep_then_dump()
    dump_later()
    if rank == 0:
        dist.all_reduce(x, group=sub)
    time.sleep(60)
elif scenario == "p2p":
    if rank == 1:
        sleep_then_dump()
    dump_later()
    if rank == 0:
        dist.send(torch.ones(8), dst=1)
    time.sleep(60)
elif scenario == "dead":
    if rank == world - 1:
        os._exit(1)
    try:
        dist.all_reduce(torch.ones(8, dtype=torch.float64))
    except RuntimeError as e:
        print(f"rank {rank}: collective failed: {e}", flush=True)
    EXIT_AFTER_DUMP_S = 0.0
    dump()
time.sleep(60)
os._exit(3)  # reaching here means the collective did not wait
