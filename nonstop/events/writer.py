"""A per-rank, append-only JSONL event writer that never blocks the training step.

`emit()` puts the record on a bounded queue and returns; a daemon thread writes batches and
flushes them. When the queue is full the record is dropped and counted (`dropped`): monitoring
must never slow or kill training. The counts of dropped and unwritable records are reported:
the writer thread keeps them in a small file beside the stream (rank-R.losses.json, rewritten
after each batch in which they grew, so a SIGKILL keeps them), which `nonstop report` shows, and
`close()` says them once on stderr. The writer flushes at interpreter exit and on SIGTERM (then
lets the previous SIGTERM behaviour happen), so an orderly stop loses nothing; a SIGKILL loses at
most what was queued and a torn last line, which the reader skips.

    w = EventWriter(path, run_id="r1", attempt=0, rank=0, host="node-a")
    w.emit("step", step=1, start=t0, end=t1, loss=2.3)
    w.close()
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import signal
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

from nonstop import log
from nonstop.events.schema import Event

_log = log.get("events")
_STOP = object()


class EventWriter:
    """Writes one rank's events to `path` (JSONL, append-only) from a background thread."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        run_id: str,
        attempt: int,
        rank: int,
        host: str,
        max_queue: int = 65_536,
        flush_interval_s: float = 0.2,
        install_sigterm: bool = True,
    ) -> None:
        self.path = Path(path)
        self.run_id, self.attempt, self.rank, self.host = run_id, attempt, rank, host
        self.dropped = 0
        self.write_errors = 0
        self._reported = (0, 0)
        self._flush_interval_s = flush_interval_s
        # SimpleQueue, not Queue: its put is reentrant, so an emit from a signal handler (the
        # SIGTERM handlers here and in the bootstrap) that interrupts an emit on the same thread
        # cannot deadlock on Queue's mutex, which would freeze every thread that emits.
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._max_queue = max_queue
        self._closed = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a+b")  # noqa: SIM115 - owned by the writer thread
        self._end_torn_line()
        self._thread = threading.Thread(
            target=self._run, name=f"nonstop-events-r{rank}", daemon=True
        )
        self._thread.start()
        atexit.register(self.close)
        self._prev_sigterm: Any = None
        if install_sigterm and threading.current_thread() is threading.main_thread():
            self._prev_sigterm = signal.signal(signal.SIGTERM, self._on_sigterm)

    def emit(self, kind: str, /, **payload: Any) -> None:
        """Queue one event of `kind`; never blocks, never raises on a full queue."""
        if self._closed:
            return
        event = Event(
            run_id=self.run_id,
            attempt=self.attempt,
            rank=self.rank,
            host=self.host,
            mono=time.monotonic(),
            time=time.time(),
            kind=kind,
            payload=payload,
        )
        if self._queue.qsize() >= self._max_queue:
            self.dropped += 1
        else:
            self._queue.put(event)

    def flush(self, timeout_s: float = 5.0) -> None:
        """Wait (up to timeout_s) until everything emitted so far is written and flushed."""
        if self._closed or not self._thread.is_alive():
            return
        written = threading.Event()
        self._queue.put(written)  # set by the writer thread once everything before it is written
        written.wait(timeout_s)

    def close(self, timeout_s: float = 5.0) -> None:
        """Write what is queued, stop the thread and close the file. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(_STOP)
        self._thread.join(timeout_s)
        self._report_losses()
        if self.dropped or self.write_errors:
            _log.warning(
                "rank %s lost %d event record(s) to a full queue and %d to write errors (%s)",
                self.rank,
                self.dropped,
                self.write_errors,
                self.path,
            )
        with log.swallowed(_log, "unregistering the writer's atexit hook (it runs again at exit)"):
            atexit.unregister(self.close)

    @property
    def losses_path(self) -> Path:
        return losses_path(self.path)

    def _report_losses(self) -> None:
        """Rewrite the losses file when the counts grew (atomically; failures survived)."""
        counts = (self.dropped, self.write_errors)
        if counts == self._reported:
            return
        self._reported = counts
        with contextlib.suppress(OSError):
            tmp = self.losses_path.with_name(self.losses_path.name + ".tmp")
            tmp.write_text(json.dumps({"dropped": counts[0], "write_errors": counts[1]}))
            os.replace(tmp, self.losses_path)

    # -- internals -------------------------------------------------------------------------

    def _end_torn_line(self) -> None:
        # A previous writer killed mid-line left a fragment; start ours on a fresh line so the
        # fragment stays one skippable line instead of corrupting our first record.
        self._file.seek(0, os.SEEK_END)
        if self._file.tell() > 0:
            self._file.seek(-1, os.SEEK_END)
            if self._file.read(1) != b"\n":
                self._file.write(b"\n")
                self._file.flush()

    def _run(self) -> None:
        stop = False
        while not stop:
            try:
                first = self._queue.get(timeout=self._flush_interval_s)
            except queue.Empty:
                continue
            batch = [first]
            while len(batch) < 4096:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            lines, flushes = [], []
            for item in batch:
                if isinstance(item, threading.Event):
                    flushes.append(item)
                elif item is _STOP:
                    stop = True
                elif isinstance(item, Event):
                    try:
                        lines.append(item.to_json())
                    except (TypeError, ValueError) as e:  # an unserialisable payload
                        self.write_errors += 1
                        _log.warning("dropped an event: %s", e)
            try:
                if lines:
                    self._file.write(("\n".join(lines) + "\n").encode())
                    self._file.flush()
            except OSError as e:  # disk full or gone: survive, count, say so once per batch
                self.write_errors += 1
                _log.warning("could not write events to %s: %s", self.path, e)
            finally:
                self._report_losses()
                for written in flushes:
                    written.set()
        with contextlib.suppress(OSError):
            self._file.close()

    def _on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        self.close(timeout_s=2.0)
        prev = self._prev_sigterm
        if callable(prev):
            prev(signum, frame)
        elif prev == signal.SIG_IGN:
            return
        else:  # default: die of SIGTERM as if we had not been here
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)


def losses_path(events_path: str | os.PathLike[str]) -> Path:
    """rank-R.jsonl -> rank-R.losses.json, beside it."""
    p = Path(events_path)
    return p.with_name(p.name.removesuffix(".jsonl") + ".losses.json")


def read_losses(events_path: str | os.PathLike[str]) -> tuple[int, int]:
    """(dropped, write_errors) a stream's writer reported; (0, 0) when it reported none."""
    try:
        d = json.loads(losses_path(events_path).read_text())
        return int(d.get("dropped", 0)), int(d.get("write_errors", 0))
    except (OSError, ValueError, TypeError, AttributeError):
        return 0, 0
