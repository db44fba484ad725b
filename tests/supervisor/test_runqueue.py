"""The watchdog's "is this rank computing?" on an oversubscribed host, against the real kernel.

A rank that computes while six other processes share its CPU gets about a seventh of a core:
its CPU time alone (BUSY_CPU_FRACTION 0.2) looked like a rank that sleeps, and `auto` called a
long evaluation a hang (at load 17 in a benchmark). The bootstrap now also reports how much of
the time its busiest thread was runnable (bootstrap.RunnableMeter, from
/proc/self/task/*/schedstat); these tests pin real processes to one crowded CPU and read it,
and run `nonstop run` through both sides: a starved evaluation (spared) and a starved hang
(still a hang).

    .venv/bin/pytest tests/supervisor/test_runqueue.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from support import nonstop_run, rows

from nonstop.supervisor.bootstrap import RunnableMeter, thread_schedstats
from nonstop.supervisor.watchdog import BUSY_CPU_FRACTION, BUSY_RUNNABLE_FRACTION

HOGS = 6
PROBE = """
import json, os, sys, threading, time
from nonstop.supervisor.bootstrap import RunnableMeter
os.sched_setaffinity(0, {int(sys.argv[1])})
mode = sys.argv[2]
if mode == "io":  # a thread that wakes 100 times a second, as gloo's I/O loop does
    def poll():
        while True:
            time.sleep(0.01)
    threading.Thread(target=poll, daemon=True).start()
meter = RunnableMeter()
t0, c0, r0 = time.monotonic(), time.process_time(), meter.sample()
while time.monotonic() - t0 < 4.0:
    if mode != "work":
        time.sleep(0.05)
    meter.sample()
t1, c1, r1 = time.monotonic(), time.process_time(), meter.sample()
print(json.dumps({"cpu": (c1 - c0) / (t1 - t0), "runnable": (r1 - r0) / (t1 - t0)}))
"""

needs_schedstat = pytest.mark.skipif(
    thread_schedstats() is None, reason="this kernel keeps no per-thread schedstats"
)


def probe(mode: str, cpu: int) -> dict[str, float]:
    r = subprocess.run(
        [sys.executable, "-c", PROBE, str(cpu), mode],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture
def crowded_cpu():
    """One CPU of this machine with HOGS spinning processes pinned to it."""
    cpu = max(os.sched_getaffinity(0))
    spin = f"import os; os.sched_setaffinity(0, {{{cpu}}})\nwhile True: pass"
    hogs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(HOGS)]
    try:
        yield cpu
    finally:
        for h in hogs:
            h.kill()
        for h in hogs:
            h.wait()


@needs_schedstat
def test_the_meter_counts_seconds_that_only_grow():
    meter = RunnableMeter()
    a, b = meter.sample(), meter.sample()
    assert a == 0.0 and b is not None and b >= a
    stats = thread_schedstats()
    assert stats and all(run >= 0 and wait >= 0 for run, wait in stats.values())


@needs_schedstat
@pytest.mark.timeout(120)
def test_a_starved_rank_that_computes_is_told_from_one_that_sleeps(crowded_cpu):
    work = probe("work", crowded_cpu)
    # its CPU alone says idle (a seventh of a core, under the threshold) ...
    assert work["cpu"] < BUSY_CPU_FRACTION, work
    # ... but it wanted a CPU all the time
    assert work["runnable"] > 0.8, work
    for mode in ("sleep", "io"):  # on the same crowded CPU, its wake-ups queue, no more
        idle = probe(mode, crowded_cpu)
        assert idle["cpu"] < BUSY_CPU_FRACTION and idle["runnable"] < BUSY_RUNNABLE_FRACTION, (
            mode,
            idle,
        )


STARVED = textwrap.dedent("""
    import os, sys, time, subprocess
    import torch
    import torch.distributed as dist
    import nonstop.runtime as ns

    cpu, mode, HOGS = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    rt = ns.init()
    dist.init_process_group("gloo")
    x = torch.ones(100)
    for step in range(30):
        with rt.step(step):
            dist.all_reduce(x)
            time.sleep(0.05)
        if step == 12 and dist.get_rank() == 1:
            # its own children, so that they share its scheduling group (autogroup: a session)
            spin = f"import os; p = os.getppid(); os.sched_setaffinity(0, {{{cpu}}})\\nwhile os.getppid() == p: pass"
            hogs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(HOGS)]
            if mode == "compute":  # an unmarked evaluation: pure Python, no collective
                mask = os.sched_getaffinity(0)
                os.sched_setaffinity(0, {cpu})  # this thread only: the watcher keeps its CPU
                print("computing", flush=True)
                t0, n = time.monotonic(), 0
                while time.monotonic() - t0 < 15.0:
                    n += 1
                os.sched_setaffinity(0, mask)
                for h in hogs:
                    h.kill()
                print(f"computed {n} iterations", flush=True)
            else:  # hung on the same crowded CPU, every thread of it there
                for tid in os.listdir("/proc/self/task"):
                    os.sched_setaffinity(int(tid), {cpu})
                print("hanging", flush=True)
                while True:
                    time.sleep(3600)
    rt.close()
    dist.destroy_process_group()
""")


def starved_run(tmp_path, mode: str):
    script = tmp_path / "starved.py"
    script.write_text(STARVED)
    run_dir = tmp_path / "run"
    r = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--health-checks",
            "none",
            "--no-standby",
            "--max-restarts",
            "0",
            str(script),
            str(max(os.sched_getaffinity(0))),
            mode,
            str(HOGS),
        ],
        timeout=280,
    )
    from nonstop.events import read_events

    events, _ = read_events(run_dir / "events" / "attempt-0" / "rank-1.jsonl")
    beats = [
        {**e.payload, "t": e.time}
        for e in events
        if e.kind == "heartbeat" and "runnable_s" in e.payload
    ]
    assert beats, "no heartbeat carried runnable_s"
    return r, run_dir, beats


@needs_schedstat
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_auto_spares_a_rank_that_computes_on_a_crowded_cpu(tmp_path):
    """15 s of computation at a seventh of a core: 3x the 5 s step floor, its CPU time alone
    under the busy threshold. The old watchdog called it a hang; it must finish untouched."""
    r, run_dir, beats = starved_run(tmp_path, "compute")
    assert r.returncode == 0, r.stdout + r.stderr
    assert rows(run_dir, "SELECT COUNT(*) FROM failures")[0][0] == 0, r.stdout
    assert rows(run_dir, "SELECT COUNT(*) FROM attempts")[0][0] == 1
    # the heartbeats said so: runnable through the 15 s, on a CPU for a fraction of them
    cpu = beats[-1]["cpu_s"] - beats[0]["cpu_s"]
    runnable = beats[-1]["runnable_s"] - beats[0]["runnable_s"]
    assert runnable > 12.0 and cpu < runnable / 2, (beats[0], beats[-1])


@needs_schedstat
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_rank_hung_on_a_crowded_cpu_is_still_a_hang(tmp_path):
    """The same crowd, but the rank sleeps for ever: its few wake-ups wait for the CPU too,
    and that must not read as computing."""
    r, run_dir, beats = starved_run(tmp_path, "hang")
    assert r.returncode != 0, r.stdout + r.stderr
    failures = rows(run_dir, "SELECT category, rank FROM failures WHERE root_cause = 1")
    assert failures == [("hang", 1)], r.stdout
    hung = [b for b in beats if b["step"] == 12][1:]  # its heartbeats while it slept
    assert len(hung) >= 4, beats
    rate = (hung[-1]["runnable_s"] - hung[0]["runnable_s"]) / (hung[-1]["t"] - hung[0]["t"])
    assert rate < BUSY_RUNNABLE_FRACTION, hung


def test_io_bytes_counts_what_the_process_writes(tmp_path):
    """What the watchdog reads as "busy writing": 8 MiB written (and fsynced) show in it."""
    from nonstop.supervisor.bootstrap import io_bytes

    before = io_bytes()
    assert before is not None  # Linux: /proc/self/io
    with open(tmp_path / "save.bin", "wb") as f:
        for _ in range(8):
            f.write(b"\0" * (1 << 20))
        f.flush()
        os.fsync(f.fileno())
    after = io_bytes()
    assert after is not None and after - before >= 8 << 20
