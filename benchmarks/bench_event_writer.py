"""nonstop's event writer against the standard library's non-blocking logger: CPU per record.

    .venv/bin/python benchmarks/run.py event-writer --quick --json   # 20,000 records, 2 reps
    .venv/bin/python benchmarks/run.py event-writer --json           # 200,000 records, 5 reps

The same step records (step, start, end, five phase durations, loss, tokens, lr, with the same
envelope: schema version, run id, attempt, rank, host, monotonic and wall time, kind) go, one
JSON line each, to a file in the same directory:

- ours: `nonstop.events.EventWriter.emit("step", ...)`: a bounded queue, a daemon thread that
  serialises, writes and flushes in batches;
- peer: `logging.handlers.QueueHandler` on a logger, `QueueListener` with a `FileHandler` whose
  formatter writes the same JSON line (the standard library's non-blocking logging: the caller
  builds and queues the record, the listener thread formats and writes it; FileHandler flushes
  per record, as it always does).

Both are driven identically: bursts of 1,000 records, then a wait (untimed on the caller) until
the queue is drained, so that neither queue overflows and the writer thread competes for the
GIL as in training. `ours` and `peer` are the process CPU time (time.process_time: every thread,
the writer's and listener's included) per record, from the first record until the last is on
disk, median of interleaved repetitions; `caller_us` is the calling thread's wall time per
record. Also reported: the writer thread's throughput to disk, `dropped` and `write_errors`.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import queue
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import stats
from nonstop.events import EventWriter, read_events

BURST = 1000


def payload(i: int) -> dict[str, Any]:
    """A step event's payload, as nonstop.runtime emits it."""
    t = 1.7e9 + i * 0.1
    return {
        "step": i,
        "start": t,
        "end": t + 0.1,
        "data_s": 0.001,
        "compute_s": 0.05,
        "backward_s": 0.03,
        "optimizer_s": 0.01,
        "loss": 2.5 - i * 1e-6,
        "tokens": 2048,
        "lr": 3e-4,
    }


def _drain(q: queue.Queue[Any], timeout_s: float = 60.0) -> None:
    """Wait until every queued item is processed (both sides: the same poll as EventWriter's)."""
    deadline = time.monotonic() + timeout_s
    while q.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.005)


def _lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def ours(folder: Path, n: int) -> dict[str, Any]:
    """CPU and caller µs per emit(), plus what the writer wrote and dropped."""
    path = folder / "ours.jsonl"
    w = EventWriter(path, run_id="bench", attempt=0, rank=0, host="h", install_sigterm=False)
    caller = 0.0
    c0 = time.process_time()
    try:
        for b in range(0, n, BURST):
            t0 = time.perf_counter()
            for i in range(b, min(n, b + BURST)):
                w.emit("step", **payload(i))
            caller += time.perf_counter() - t0
            w.flush(timeout_s=60.0)
    finally:
        w.close(timeout_s=60.0)
    cpu = time.process_time() - c0
    written = len(read_events(path)[0])
    path.unlink()
    return {
        "cpu_us": cpu / n * 1e6,
        "caller_us": caller / n * 1e6,
        "written": written,
        "dropped": w.dropped,
        "write_errors": w.write_errors,
    }


class _JsonLine(logging.Formatter):
    """The peer's record as the same JSON line (formatted on the listener's thread)."""

    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(
            {
                "schema_version": 1,
                "run_id": "bench",
                "attempt": 0,
                "rank": 0,
                "host": "h",
                "mono": record.mono,
                "time": record.created,
                "kind": record.msg,
                "payload": record.payload,
            },  # type: ignore[attr-defined]
            separators=(",", ":"),
            allow_nan=False,
        )


def peer(folder: Path, n: int) -> dict[str, Any]:
    """CPU and caller µs per record through QueueHandler -> QueueListener -> FileHandler."""
    path = folder / "peer.jsonl"
    q: queue.Queue[Any] = queue.Queue()
    fh = logging.FileHandler(path, encoding="utf-8")
    fh.setFormatter(_JsonLine())
    listener = logging.handlers.QueueListener(q, fh)
    log = logging.getLogger(f"nonstop.bench.peer.{id(q)}")
    log.propagate, log.level = False, logging.INFO
    qh = logging.handlers.QueueHandler(q)
    log.addHandler(qh)
    caller = 0.0
    c0 = time.process_time()
    listener.start()
    try:
        for b in range(0, n, BURST):
            t0 = time.perf_counter()
            for i in range(b, min(n, b + BURST)):
                log.info("step", extra={"payload": payload(i), "mono": time.monotonic()})
            caller += time.perf_counter() - t0
            _drain(q)
    finally:
        listener.stop()
        fh.close()
        log.removeHandler(qh)
    cpu = time.process_time() - c0
    written = _lines(path)
    path.unlink()
    return {"cpu_us": cpu / n * 1e6, "caller_us": caller / n * 1e6, "written": written}


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


def summarize(
    o: list[dict[str, Any]], p: list[dict[str, Any]], thr: dict[str, Any], n: int
) -> dict[str, Any]:
    caller = stats.summarize(
        [r["caller_us"] for r in o],
        [r["caller_us"] for r in p],
        name="caller",
        unit="µs",
        peer_name="",
        better="lower",
        paired=True,
    )
    return stats.summarize(
        [r["cpu_us"] for r in o],
        [r["cpu_us"] for r in p],
        name="event-writer",
        unit="µs CPU per record (all threads)",
        peer_name="logging QueueHandler + QueueListener + FileHandler (JSON lines)",
        better="lower",
        paired=True,
        records=n,
        caller_us={k: caller[k] for k in ("ours", "peer", "ratio", "spread")},
        writer_records_per_s=thr["records_per_s"],
        dropped=sum(r["dropped"] for r in o) + thr["dropped"],
        write_errors=sum(r["write_errors"] for r in o),
        all_written=all(r["written"] == n for r in o + p) and thr["written"] == thr["records"],
        load=os.getloadavg(),
    )


def run(quick: bool) -> dict[str, Any]:
    n = 20_000 if quick else 200_000
    with tempfile.TemporaryDirectory(prefix="nonstop-bench-events-") as d:
        folder = Path(d)
        ours(folder, 2000), peer(folder, 2000)  # warm-up, discarded
        o, p = [], []
        for _ in range(stats.reps(quick)):  # interleaved: drift falls on both alike
            o.append(ours(folder, n))
            p.append(peer(folder, n))
        thr = writer_throughput(folder, n)
    return summarize(o, p, thr, n)


if __name__ == "__main__":
    print(json.dumps(run(quick=True), indent=1))
