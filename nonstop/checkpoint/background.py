"""The thread that hands in-memory snapshots over, optionally at a lower CPU priority than
training (docs/checkpoint.md, "Background priority").

After a snapshot's copy (which the next optimizer step waits for), its digest and hand-over to
the replica servers are CPU work that nothing in training waits for. Where every core trains
(CPU ranks, or a node whose data loaders keep every core busy) it takes its time from training,
so `NONSTOP_BACKGROUND_NICE=N` runs it N nice levels lower: Linux shares a contended core by
weight, and a thread 10 levels down gets about a tenth of it, all of an idle one. What it runs
releases Python's GIL (the CRC, the socket), so a lowered thread does not hold the training
thread up while it waits for a core (the durable writer, which pickles in Python holding the
GIL, is never lowered: docs/checkpoint.md, "Writer priority").

Off by default (0): a lowered hand-over finishes later when the cores are busy, and a rank that
crashes in that window leaves its newest snapshot unsent, so the restart resumes one snapshot
earlier (a 3-node test under the CI's load did: tests/cluster/test_resume_bitwise.py), while the
step-time gain was not shown (docs/benchmarks.md, overhead).

Linux only (nice is per thread there); elsewhere, or where the call fails, nothing changes.

    pool = executor("nonstop-replica-send", 10)   # a one-thread pool whose thread runs lowered
"""

from __future__ import annotations

import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from nonstop import envvars
from nonstop.errors import UserError

log = logging.getLogger("nonstop.checkpoint")

DEFAULT_NICE: Final = 0


def nice_increment() -> int:
    """$NONSTOP_BACKGROUND_NICE (0-19), else DEFAULT_NICE; UserError when it is not such."""
    raw = os.environ.get(envvars.BACKGROUND_NICE, "").strip()
    if not raw:
        return DEFAULT_NICE
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if not 0 <= value <= 19:
        raise UserError(
            f"{envvars.BACKGROUND_NICE}={raw!r}: give a nice increment from 0 (the training "
            f"threads' priority) to 19 (the lowest); default {DEFAULT_NICE}"
        )
    return value


def lower_priority(increment: int) -> int | None:
    """Lower the calling thread's priority by `increment` nice levels (at most to 19); its
    nice value after, or None where that could not be done."""
    if increment <= 0 or not hasattr(os, "setpriority"):
        return None
    tid = threading.get_native_id()
    try:
        nice = min(19, os.getpriority(os.PRIO_PROCESS, tid) + increment)
        os.setpriority(os.PRIO_PROCESS, tid, nice)
        return nice
    except OSError as e:  # a sandbox without the call: run at training's priority
        log.debug("background thread priority unchanged: %s", e)
        return None


def executor(name: str, increment: int) -> ThreadPoolExecutor:
    """A one-thread pool named `name` whose thread runs `increment` nice levels below its
    creator."""
    return ThreadPoolExecutor(
        max_workers=1, thread_name_prefix=name, initializer=lower_priority, initargs=(increment,)
    )
