"""Read one attempt's per-rank files in worker processes: the reading half of `diagnose_run`.

    from nonstop.diagnose import gather
    got = gather.read_attempt(RunDir(path), attempt=0)    # every core; serial when small
    got.hosts, got.streams, got.scans, got.link_peers, got.flight

At Llama 3's scale an attempt is 16,384 event streams, 16,384 logs and 8.7 GB of flight-recorder
dumps. Reading them is Python-bound (JSON lines, pickles, regexes), so they are read in as many
processes as there are cores (threads would share one), all from one pool: dump batches first
(the largest share), then logs, then event streams, in batches small enough that both cores stay
busy to the end. Each batch is reduced where it is read (a flight `Partial`, the straggler
replay's `Streams`, each log's `Scan` and the peers its failing connections name) so that only
small results cross back; the parent merges them in rank order, which gives the same results as
reading serially (tests/diagnose/test_gather.py). Below `PARALLEL_MIN_FILES` files per kind the
parent reads them itself: starting workers costs more than it saves.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from nonstop.diagnose import flight, inputs, peers, stragglers, triage
from nonstop.diagnose.frsummary import Partial, summarize
from nonstop.rundir import RunDir

PARALLEL_MIN_FILES = flight.PARALLEL_MIN_FILES
LINK_TAIL_BYTES = 64 * 1024  # of each rank's log, read for the peers its connections lost
_OWN_LOG = re.compile(r"^rank-\d+\.log$")  # as nonstop writes it: text, read in place
RANK_LOG = re.compile(r"^rank-(\d+)\.log(?:\.\d+)?(?:\.(?:gz|xz|bz2))?$")
"""A rank's log: nonstop's own, or rotated (`rank-3.log.1`) and compressed (`rank-3.log.1.gz`)
by logrotate or by hand to save room."""
# batches per worker and kind: more means better balance at the end, fewer less overhead
_BATCHES = {"flight": 4, "logs": 2, "events": 3}


@dataclass
class Attempt:
    """What one attempt's per-rank files hold, reduced."""

    attempt: int
    hosts: dict[int, str] = field(default_factory=dict)
    """rank -> host, from the first event of each rank's stream."""
    streams: stragglers.Streams = field(default_factory=stragglers.Streams)
    logs: list[Path] = field(default_factory=list)
    scans: list[triage.Scan] = field(default_factory=list)
    """One per file of `logs`, in order."""
    link_peers: list[tuple[int, list[str]]] = field(default_factory=list)
    """(rank, peer addresses its log's tail names on failing-connection lines), per rank log."""
    dumps: list[Path] = field(default_factory=list)
    flight: Partial | None = None
    """The dumps' summary; None when the attempt has no flight-recorder dumps."""
    workers: int = 1
    """Processes that read them (1: the caller's own)."""


def read_logs(paths: list[str]) -> tuple[list[triage.Scan], list[tuple[int, list[str]]]]:
    """Triage scans of `paths` (one each, in order, named as given), and the failing peers
    named in each rank log's tail. A file not as nonstop writes it is read as `nonstop triage`
    reads it (nonstop.diagnose.inputs): a compressed or UTF-16 log decompressed or converted
    into a spool folder, a binary one left out with a line on standard error (an empty scan):
    a rotated `rank-1.log.1.gz` was scanned as its compressed bytes and nothing was found."""
    with tempfile.TemporaryDirectory(prefix="nonstop-diagnose-") as tmp:
        text: dict[str, str | None] = {}  # path -> the text file read (None: left out)
        for path in paths:
            if _OWN_LOG.match(os.path.basename(path)):
                text[path] = path
                continue
            got = inputs.Inputs()  # an unreadable file is left out with a line, as a binary one
            inputs.readable(path, path, Path(tmp), got, named=False, who="nonstop diagnose")
            text[path] = got.files[0] if got.files else None
        read = [t for t in text.values() if t is not None]
        scanned = dict(zip(read, triage.scan_all([Path(t) for t in read]), strict=True))
        scans = []
        for path, t in text.items():
            s = scanned[t] if t is not None else triage.Scan(file=path)
            if s.file != path:  # the spool's name: the evidence names the user's file
                s.file = path
                for h in s.hits:
                    h.file = path
            scans.append(s)
        return scans, _link_peers(text)


def _link_peers(text: dict[str, str | None]) -> list[tuple[int, list[str]]]:
    found = []
    for name, path in text.items():
        m = RANK_LOG.match(os.path.basename(name))
        if m is None or path is None:
            continue  # error files repeat the log's last words: one report per rank
        try:
            with open(path, "rb") as f:
                f.seek(max(0, os.fstat(f.fileno()).st_size - LINK_TAIL_BYTES))
                tail = f.read().decode(errors="replace")
        except OSError:
            continue
        found.append((int(m.group(1)), peers.failing_peers(tail)))
    return found


def _batches(items: list[Any], n: int) -> list[list[Any]]:
    size = max(1, -(-len(items) // max(1, n)))
    return [items[i : i + size] for i in range(0, len(items), size)]


def read_attempt(
    rd: RunDir,
    attempt: int,
    *,
    workers: int | None = None,
    parallel_min: int | None = None,
    metrics: tuple[str, ...] = stragglers.METRICS,
) -> Attempt:
    """Read `attempt`'s event streams, logs and flight-recorder dumps (see the module doc)."""
    out = Attempt(attempt)
    _, streams = stragglers.attempt_streams(rd, attempt)
    logs_dir = rd.root / "logs" / f"attempt-{attempt}"
    if logs_dir.is_dir():
        # by name (as Path order within one folder), not by Path: 16k Path comparisons cost
        out.logs = sorted((p for p in logs_dir.iterdir() if p.is_file()), key=lambda p: p.name)
    fdir = rd.flight_dir(attempt)
    out.dumps = flight.find_dumps(fdir) if fdir.is_dir() else []
    logs = [str(p) for p in out.logs]
    dumps = [str(p) for p in out.dumps]

    workers = workers or os.cpu_count() or 1
    big = max(len(streams), len(logs), len(dumps)) >= (parallel_min or PARALLEL_MIN_FILES)
    jobs: list[tuple[str, Callable[..., Any], list[Any]]] = []
    for kind, fn, items in (
        ("flight", summarize, dumps),
        ("logs", read_logs, logs),
        ("events", stragglers.read_streams, streams),
    ):
        if items:
            parts = _batches(items, workers * _BATCHES[kind]) if big and workers > 1 else [items]
            jobs += [(kind, fn, part) for part in parts]
    results = _run(jobs, workers, metrics) if big and workers > 1 else None
    if results is None:
        results = [_call(fn, part, kind, metrics) for kind, fn, part in jobs]
    else:
        out.workers = workers
    for (kind, _, _), got in zip(jobs, results, strict=True):
        if kind == "flight":
            if out.flight is None:
                out.flight = got
            else:
                out.flight.merge(got)
        elif kind == "logs":
            out.scans += got[0]
            out.link_peers += got[1]
        else:
            out.streams.merge(got)
    out.hosts = dict(out.streams.hosts)
    return out


def _call(fn: Callable[..., Any], part: list[Any], kind: str, metrics: tuple[str, ...]) -> Any:
    return fn(part, metrics) if kind == "events" else fn(part)


def _run(
    jobs: list[tuple[str, Callable[..., Any], list[Any]]], workers: int, metrics: tuple[str, ...]
) -> list[Any] | None:
    """Every job's result, in order, from one pool of `workers` processes; None when the pool
    cannot run (the caller reads serially)."""
    try:
        # spawn, not fork: the supervisor, which calls diagnose_run, has threads
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as ex:
            futs: list[Future[Any]] = [
                ex.submit(_call, fn, part, kind, metrics) for kind, fn, part in jobs
            ]
            return [f.result() for f in futs]
    except (BrokenProcessPool, OSError):  # e.g. a __main__ that spawn cannot re-import
        return None
