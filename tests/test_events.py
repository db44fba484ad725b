import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from nonstop.events import SCHEMA_VERSION, Event, EventWarning, EventWriter, from_dict, read_events
from nonstop.events.reader import iter_events
from nonstop.events.schema import SchemaError


def test_schema_round_trip():
    e = Event(
        run_id="r",
        attempt=2,
        rank=3,
        host="h",
        mono=1.5,
        time=1e9,
        kind="step",
        payload={"step": 7, "start": 1.0, "end": 2.0, "loss": float("nan")},
    )
    d = json.loads(e.to_json())
    assert d["schema_version"] == SCHEMA_VERSION
    back = from_dict(d)
    assert back.payload["loss"] is None  # NaN is written as null, never as invalid JSON
    assert (back.run_id, back.attempt, back.rank, back.kind) == ("r", 2, 3, "step")


@pytest.mark.parametrize(
    "record,needle",
    [
        ([], "not an object"),
        ({"kind": "step"}, "schema_version"),
        (
            {
                "schema_version": 99,
                "run_id": "r",
                "attempt": 0,
                "rank": 0,
                "host": "h",
                "mono": 0,
                "time": 0,
                "kind": "step",
                "payload": {},
            },
            "newer",
        ),
        (
            {
                "schema_version": 1,
                "run_id": "r",
                "attempt": "0",
                "rank": 0,
                "host": "h",
                "mono": 0,
                "time": 0,
                "kind": "step",
                "payload": {},
            },
            "attempt",
        ),
        (
            {
                "schema_version": 1,
                "run_id": "r",
                "attempt": 0,
                "rank": 0,
                "host": "h",
                "mono": 0,
                "time": 0,
                "kind": "step",
                "payload": {"step": 1},
            },
            "start",
        ),
    ],
)
def test_schema_rejects_bad_records(record, needle):
    with pytest.raises(SchemaError, match=needle):
        from_dict(record)


def test_concurrent_writers_one_file_each(tmp_path):
    writers = [
        EventWriter(
            tmp_path / f"rank-{r}.jsonl",
            run_id="r",
            attempt=0,
            rank=r,
            host="h",
            install_sigterm=False,
        )
        for r in range(4)
    ]

    def work(w):
        for i in range(2000):
            w.emit("heartbeat", step=i)

    threads = [threading.Thread(target=work, args=(w,)) for w in writers for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for w in writers:
        w.close()
    for r in range(4):
        events, stats = read_events(tmp_path / f"rank-{r}.jsonl")
        assert len(events) == 4000 and stats.torn == 0 and stats.corrupt == 0
        assert all(e.rank == r for e in events)


def test_full_queue_drops_instead_of_blocking(tmp_path):
    w = EventWriter(
        tmp_path / "e.jsonl",
        run_id="r",
        attempt=0,
        rank=0,
        host="h",
        max_queue=10,
        install_sigterm=False,
    )
    t0 = time.monotonic()
    for i in range(20000):
        w.emit("heartbeat", step=i)
    emit_s = time.monotonic() - t0
    w.close()
    events, _ = read_events(tmp_path / "e.jsonl")
    assert w.dropped > 0 and len(events) + w.dropped == 20000
    assert emit_s < 30  # sanity only: it returned, it did not wait on the disk


WRITER_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from nonstop.events import EventWriter
    w = EventWriter(sys.argv[1], run_id="r", attempt=0, rank=0, host="h", flush_interval_s=0.001)
    i = 0
    while True:
        w.emit("step", step=i, start=time.time(), end=time.time(), note="x" * 2000)
        i += 1
        if i == 200:
            print("ready", flush=True)
    """
)


def test_kill_9_mid_write_loses_at_most_the_torn_line(tmp_path):
    path = tmp_path / "rank-0.jsonl"
    with subprocess.Popen(
        [sys.executable, "-c", WRITER_SCRIPT, str(path)], stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    events, stats = read_events(path)
    assert stats.corrupt == 0 and stats.torn <= 1
    steps = [e.payload["step"] for e in events]
    assert steps == list(range(len(steps))) and len(steps) >= 200
    # A new writer appends after the torn fragment without corrupting its own first record.
    w = EventWriter(path, run_id="r", attempt=0, rank=0, host="h", install_sigterm=False)
    w.emit("heartbeat", step=-1)
    w.close()
    with pytest.warns(EventWarning) if stats.torn else _nullwarn():
        again, _ = read_events(path)
    assert again[-1].kind == "heartbeat" and len(again) == len(events) + 1


class _nullwarn:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def test_sigterm_flushes_everything(tmp_path):
    path = tmp_path / "rank-0.jsonl"
    script = textwrap.dedent(
        """
        import sys, time
        from nonstop.events import EventWriter
        w = EventWriter(sys.argv[1], run_id="r", attempt=0, rank=0, host="h",
                        flush_interval_s=60)
        for i in range(5000):
            w.emit("heartbeat", step=i)
        print("ready", flush=True)
        time.sleep(60)
        """
    )
    with subprocess.Popen(
        [sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=20) == -signal.SIGTERM
    events, stats = read_events(path)
    assert len(events) == 5000 and stats.torn == 0


def test_reader_skips_garbage_and_unknown_kinds_with_warnings(tmp_path):
    good = Event(
        run_id="r",
        attempt=0,
        rank=0,
        host="h",
        mono=0,
        time=0,
        kind="heartbeat",
        payload={"step": 1},
    ).to_json()
    unknown = good.replace('"heartbeat"', '"quantum_flux"')
    path = tmp_path / "e.jsonl"
    original = f'{good}\nnot json at all\n{unknown}\n\x00\x01\x02\n{good}\n{{"torn'
    path.write_text(original)
    with pytest.warns(EventWarning) as record:
        events, stats = read_events(path)
    assert len(events) == 2 and stats.corrupt == 2 and stats.torn == 1
    assert stats.unknown_kinds == {"quantum_flux": 1}
    assert any("quantum_flux" in str(w.message) for w in record)
    assert path.read_text() == original  # kept, never rewritten


SIGNAL_EMIT_SCRIPT = textwrap.dedent(
    """
    import signal, sys, time
    from pathlib import Path
    from nonstop.events import EventWriter, read_events
    path = Path(sys.argv[1])
    w = EventWriter(path, run_id="r", attempt=0, rank=0, host="h", install_sigterm=False)
    fired = 0
    def handler(signum, frame):  # what the SIGTERM handlers do: emit on the interrupted thread
        global fired
        fired += 1
        w.emit("lifecycle", phase="stop_signal", n=fired)
    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.0005, 0.0005)
    t0, n = time.monotonic(), 0
    while time.monotonic() - t0 < 2.0:
        w.emit("heartbeat", step=n)
        n += 1
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    w.close()
    events, _ = read_events(path)
    assert fired > 100 and len(events) + w.dropped == n + fired, (n, fired, len(events))
    print("ok", n, fired)
    """
)


def test_an_emit_from_a_signal_handler_that_interrupts_an_emit_does_not_deadlock(tmp_path):
    """A SIGTERM handler's emit landing inside the main thread's emit deadlocked on
    queue.Queue's mutex and froze every thread of the rank (its watcher too: no heartbeats, no
    dumps): a CI run saw a Slurm requeue read as a hang. A timer signal every 0.5 ms hits
    that window within seconds on the old writer."""
    r = subprocess.run(
        [sys.executable, "-c", SIGNAL_EMIT_SCRIPT, str(tmp_path / "e.jsonl")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr[-2000:]


def test_iter_events_kinds_skips_only_lines_of_other_kinds(tmp_path):
    path = tmp_path / "rank-0.jsonl"
    w = EventWriter(path, run_id="r", attempt=0, rank=0, host="h")
    w.emit("heartbeat", step=1)  # "step" in its payload, kind heartbeat: skipped
    w.emit("step", step=1, start=0.0, end=1.0)
    w.close()
    spaced = json.loads(path.read_text().splitlines()[1])
    with open(path, "a") as f:  # a hand-written line, spaced and reordered: still read
        f.write(json.dumps({"kind": "step", **{k: v for k, v in spaced.items() if k != "kind"}}))
        f.write("\n")
    got = list(iter_events(path, kinds=frozenset({"step"})))
    assert [e.kind for e in got] == ["step", "step"]
    assert [e.kind for e in iter_events(path)] == ["heartbeat", "step", "step"]
