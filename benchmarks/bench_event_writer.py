"""Per-record cost of nonstop's event writer on the calling thread vs a naive synchronous logger.

    .venv/bin/python benchmarks/run.py event-writer --quick --json   # 20,000 records
    .venv/bin/python benchmarks/run.py event-writer --json           # 200,000 records

The same step-like records (step, start, end, five phase durations, loss, tokens, lr) go:

- ours: `nonstop.events.EventWriter.emit("step", ...)`: the caller builds the record and puts it
  on a bounded queue; a daemon thread serialises, writes and flushes in batches. Timed on the
  calling thread only, in bursts of 1,000 records with `flush()` (untimed) between bursts, so
  the queue (default size) never overflows and the writer thread competes for the GIL as it
  does in training;
- peer: what a naive logger does per record: `json.dumps` of the same record (with the same
  envelope: run id, attempt, rank, host, times, kind) + `file.write` + `file.flush`, to a file
  in the same directory.

Also reported: the writer thread's own throughput to disk (`writer_records_per_s`: records
emitted at once, fewer than the queue holds, divided by the time until flush() returns), the
`dropped` count (0 expected: the default queue is not overloaded here) and `write_errors`.
`ours` and `peer` are medians over 5 repeats, in microseconds per record.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from nonstop.events import EventWriter, read_events

BURST = 1000
REPEATS = 5


def payload(i: int) -> dict[str, Any]:
    """A step event's payload, as nonstop.runtime emits it."""
    t = 1.7e9 + i * 0.1
    return {"step": i, "start": t, "end": t + 0.1, "data_s": 0.001, "compute_s": 0.05,
            "backward_s": 0.03, "optimizer_s": 0.01, "loss": 2.5 - i * 1e-6, "tokens": 2048,
            "lr": 3e-4}  # fmt: skip


def ours_us(folder: Path, n: int) -> dict[str, Any]:
    """Caller-side µs per emit(), plus what the writer wrote and dropped."""
    path = folder / "ours.jsonl"
    w = EventWriter(path, run_id="bench", attempt=0, rank=0, host="h", install_sigterm=False)
    busy = 0.0
    try:
        for b in range(0, n, BURST):
            t0 = time.perf_counter()
            for i in range(b, min(n, b + BURST)):
                w.emit("step", **payload(i))
            busy += time.perf_counter() - t0
            w.flush(timeout_s=30.0)
    finally:
        w.close(timeout_s=30.0)
    written = len(read_events(path)[0])
    path.unlink()
    return {"us": busy / n * 1e6, "written": written, "dropped": w.dropped,
            "write_errors": w.write_errors}  # fmt: skip


def peer_us(folder: Path, n: int) -> float:
    """µs per record of json.dumps + write + flush on the calling thread."""
    path = folder / "peer.jsonl"
    with open(path, "a") as f:
        t0 = time.perf_counter()
        for i in range(n):
            record = {"schema_version": 1, "run_id": "bench", "attempt": 0, "rank": 0,
                      "host": "h", "mono": time.monotonic(), "time": time.time(),
                      "kind": "step", "payload": payload(i)}  # fmt: skip
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
            f.flush()
        dt = time.perf_counter() - t0
    path.unlink()
    return dt / n * 1e6


def writer_throughput(folder: Path, n: int) -> dict[str, Any]:
    """Records per second the writer thread puts on disk: emit n at once, wait for flush."""
    path = folder / "throughput.jsonl"
    w = EventWriter(path, run_id="bench", attempt=0, rank=0, host="h", install_sigterm=False)
    n = min(n, 60_000)  # below the default queue size (65,536): nothing may be dropped
    records = [payload(i) for i in range(n)]
    t0 = time.perf_counter()
    for p in records:
        w.emit("step", **p)
    w.flush(timeout_s=60.0)
    dt = time.perf_counter() - t0
    w.close()
    written = len(read_events(path)[0])
    path.unlink()
    return {"records_per_s": n / dt, "records": n, "written": written, "dropped": w.dropped}


def summarize(ours: list[dict[str, Any]], peer: list[float], thr: dict[str, Any],
              n: int) -> dict[str, Any]:  # fmt: skip
    o = statistics.median(r["us"] for r in ours)
    p = statistics.median(peer)
    return {
        "name": "event-writer",
        "ours": o,
        "peer": p,
        "peer_name": "json.dumps + write + flush per record",
        "ratio": o / p,
        "unit": "µs per record on the calling thread",
        "better": "lower",
        "records": n,
        "repeats": len(ours),
        "writer_records_per_s": thr["records_per_s"],
        "dropped": sum(r["dropped"] for r in ours) + thr["dropped"],
        "write_errors": sum(r["write_errors"] for r in ours),
        "all_written": all(r["written"] == n for r in ours) and thr["written"] == thr["records"],
        "ours_runs_us": [r["us"] for r in ours],
        "peer_runs_us": peer,
    }


def run(quick: bool) -> dict[str, Any]:
    n = 20_000 if quick else 200_000
    with tempfile.TemporaryDirectory(prefix="nonstop-bench-events-") as d:
        folder = Path(d)
        ours, peer = [], []
        for _ in range(REPEATS):  # alternated: drift falls on both alike
            ours.append(ours_us(folder, n))
            peer.append(peer_us(folder, n))
        thr = writer_throughput(folder, n)
    return summarize(ours, peer, thr, n)


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
