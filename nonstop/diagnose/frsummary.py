"""Reduce flight-recorder dumps to what the analysis needs, fast enough for 16,384 ranks.

Each worker process reads a batch of dumps (`summarize`) and returns a `Partial`: per rank and
process group the frontier (highest sequence id entered, highest completed, state), plus the
collectives on which ranks disagree, and enqueue-time spreads of recent collectives. Partials
merge associatively in the parent.

Speed: decoding a dump costs ~1.5 us per entry; the analysis must not add much to that. Rows
(group, seq, op, sizes, dtypes) are extracted with `operator.itemgetter` at C speed, and a rank
whose rows equal a reference rank's over their overlap (one C-level list comparison) is done:
it agrees on every collective there. Only ranks that differ are compared entry by entry. The
reference is per process group: each rank's rows are split by group, and the first rank seen in
a group is that group's reference. (Keyed by the set of groups a rank is in, as before, every
rank of a 3D-parallel job was its own reference under tensor x pipeline x data parallelism: no
rank was compared with any other, and a worker held every rank's rows, 7 GB at 16,384 ranks.)
Frontiers come from scanning back from each buffer's end, and arrival spreads from the last
`TAIL` entries only.
"""

from __future__ import annotations

import gc
import json
import re
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any

from nonstop.diagnose.frdump import (
    RECORDER_ERRORS,
    WINDOW_TAIL,
    DumpError,
    load_dump,
    load_window,
    rank_of,
)

SAMPLE = 16  # ranks kept per collective variant (the rest are counted)
TAIL = 64  # entries per rank whose enqueue times feed the suspect-group ranking

_ROW = itemgetter(
    "process_group",
    "collective_seq_id",
    "profiling_name",
    "input_sizes",
    "input_dtypes",
    "output_sizes",
)
Row = tuple[Any, ...]
_P2P = itemgetter("is_p2p")


@dataclass
class PgView:
    """One rank's view of one process group."""

    entered: int = 0
    """Highest collective sequence id this rank enqueued in the group."""
    completed: int = 0
    """Highest sequence id this rank saw complete (completed or retired, or pg_status)."""
    completion_known: bool = False
    """Whether the dump says which collectives completed at all (an entry's `state` or
    `retired`, or pg_status): a dump without them said "last completed #0" and "every rank
    waits in the frontier collective", neither of which it records."""
    first: int = 0
    """Lowest sequence id still in the ring buffer (older ones were overwritten)."""
    last_state: str = ""
    last_sig: tuple[Any, ...] | None = None
    site: str = ""
    """Where the program called its last collective here: the innermost frame outside torch
    (``file:line (function)``); empty where the dump has no frames (torch's JSON dumps)."""


@dataclass
class Partial:
    """What one worker extracts from a batch of dumps."""

    ranks: dict[int, dict[str, PgView]] = field(default_factory=dict)
    files: dict[int, str] = field(default_factory=dict)
    versions: set[str] = field(default_factory=set)
    backends: set[str] = field(default_factory=set)  # profiling names' prefixes: gloo, nccl
    problems: list[tuple[str, str]] = field(default_factory=list)  # (file, why)
    # (rank, recorder, why): a recorder that failed while another dumped (the bootstrap's
    # nonstop_recorder_errors); its collectives are missing from that rank's dump
    recorder_errors: list[tuple[int, str, str]] = field(default_factory=list)
    truncated: set[int] = field(default_factory=set)
    wrapped: set[int] = field(default_factory=set)  # ranks whose ring buffer lost its start
    windowed: int = 0  # dumps read in part: their first and last entries (frdump.load_window)
    pg_desc: dict[str, str] = field(default_factory=dict)
    pg_ranks: dict[str, list[int]] = field(default_factory=dict)
    # (pg, seq) -> [[op signature, ranks holding it, sample of those ranks]], only where ranks
    # disagree (counts are those of the workers that saw the disagreement)
    variants: dict[tuple[str, int], list[list[Any]]] = field(default_factory=dict)
    # (pg, seq) -> [earliest time_created_ns, latest, rank that enqueued latest]
    arrival: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def merge(self, o: Partial) -> None:
        self.ranks.update(o.ranks)
        self.files.update(o.files)
        self.versions |= o.versions
        self.backends |= o.backends
        self.problems += o.problems
        self.recorder_errors += o.recorder_errors
        self.truncated |= o.truncated
        self.wrapped |= o.wrapped
        self.windowed += o.windowed
        for k, v in o.pg_desc.items():
            self.pg_desc.setdefault(k, v)
        for k, r in o.pg_ranks.items():
            self.pg_ranks.setdefault(k, r)
        for key, vs in o.variants.items():
            for sig, n, sample in vs:
                _vote(self.variants.setdefault(key, []), sig, n, sample)
        for key, (lo, hi, who) in o.arrival.items():
            _arrive(self.arrival, key, lo, who, hi)


def _vote(vs: list[list[Any]], sig: Any, n: int, sample: list[int]) -> None:
    for v in vs:
        if v[0] == sig:
            v[1] += n
            v[2] = (v[2] + sample)[:SAMPLE]
            return
    vs.append([sig, n, sample[:SAMPLE]])


def _arrive(
    arrival: dict[tuple[str, int], list[int]], key: Any, t: int, rank: int, t_hi: int | None = None
) -> None:
    hi = t if t_hi is None else t_hi
    a = arrival.get(key)
    if a is None:
        arrival[key] = [t, hi, rank]
    else:
        if t < a[0]:
            a[0] = t
        if hi > a[1]:
            a[1], a[2] = hi, rank


@dataclass
class _Ref:
    """A process group's reference rank in one worker: its rows of that group, and the spans
    other ranks of the group agreed on."""

    rank: int
    rows: list[Row]
    index: dict[int, int]  # sequence id -> position in rows
    spans: list[tuple[int, int, int]] = field(default_factory=list)  # (start, stop, rank)


def summarize(paths: list[str]) -> Partial:
    """Read dumps and reduce them (a worker). Unreadable files become `problems`."""
    p = Partial()
    refs: dict[str, _Ref] = {}
    enabled = gc.isenabled()
    gc.disable()  # millions of short-lived dicts, no cycles: let refcounting free them
    try:
        for f in paths:
            _one(p, refs, Path(f))
    finally:
        if enabled:
            gc.enable()
    _count_agreement(p, refs)
    return p


def _load(path: Path) -> tuple[dict[str, Any], bool]:
    """A large dump's first and last entries when they hold every group's frontier (checked by
    `_window_covers`), else the whole dump."""
    dump = load_window(path)
    if dump is not None and _window_covers(dump):
        return dump, False
    return load_dump(path)


def _window_covers(dump: dict[str, Any]) -> bool:
    """Whether the decoded tail holds, for every group this rank used, its last collective and
    its last completed one, so that frontiers are those of the whole dump. Groups used are
    those of pg_status with a collective enqueued (else every group of pg_config), and every
    group seen in the head; a group used only in the skipped middle would be missed."""
    entries = dump["entries"]
    try:
        tail = [
            (e["process_group"][0], str(e["pg_id"]), e["state"] == "completed" or e["retired"])
            for e in entries[-WINDOW_TAIL:]
        ]
        head = {e["process_group"][0] for e in entries[: dump["nonstop_window"][0]]}
    except (KeyError, TypeError, IndexError):
        return False
    seen = {name for name, _, _ in tail}
    ids = {pg_id for _, pg_id, _ in tail}
    if seen != {name for name, _, done in tail if done is True} or not head <= seen:
        return False
    status, config = dump.get("pg_status"), dump.get("pg_config")
    if isinstance(status, dict) and status:
        return all(
            str(k) in ids
            for k, st in status.items()
            if not isinstance(st, dict) or _seq(st.get("last_enqueued_collective", 1)) != 0
        )
    return isinstance(config, dict) and bool(config) and all(k in seen for k in config)


def _one(p: Partial, refs: dict[str, _Ref], path: Path) -> None:
    try:
        dump, truncated = _load(path)
    except DumpError as err:
        p.problems.append((str(path), str(err).split(": ", 1)[-1]))
        return
    if "nonstop_window" in dump:
        p.windowed += 1
    rank = rank_of(path, dump)
    if rank is None:
        p.problems.append(
            (str(path), "no rank in the file name (expected a name ending in digits)")
        )
        return
    if truncated:
        p.truncated.add(rank)
    p.files[rank] = str(path)
    p.versions.add(str(dump.get("version", "")))
    failed = dump.get(RECORDER_ERRORS)
    if isinstance(failed, dict):
        p.recorder_errors += [(rank, str(k), str(v)) for k, v in sorted(failed.items())]
    _pg_config(p, dump.get("pg_config"))
    entries = dump.get("entries") or []
    try:  # the common case at C speed: every entry a dict with an is_p2p field
        p2p = any(map(_P2P, entries))
    except (KeyError, TypeError):
        entries = [e for e in entries if isinstance(e, dict)]
        p2p = any(e.get("is_p2p") for e in entries)
    if p2p:  # p2p ops pair up by p2p_seq_id, not here
        entries = [e for e in entries if not e.get("is_p2p")]
    first_id = entries[0].get("record_id") if entries else 0
    if not isinstance(first_id, int) or first_id > 0:  # record ids count from 0
        p.wrapped.add(rank)
    rows = _rows(entries)
    p.backends.update(str(r[2]).split(":", 1)[0] for r in rows[:1] + rows[-1:] if ":" in str(r[2]))
    p.ranks[rank] = _views(p, rows, entries, dump.get("pg_status"))
    _compare(p, refs, rank, rows)
    for row, e in zip(rows[-TAIL:], entries[-TAIL:]):
        t = e.get("time_created_ns")
        if isinstance(t, int):
            _arrive(p.arrival, (str(row[0][0]), row[1]), t, rank)


def _rows(entries: list[dict[str, Any]]) -> list[Row]:
    try:
        rows = list(map(_ROW, entries))
    except KeyError:  # older formats: seq_id instead of collective_seq_id, no dtypes
        rows = [
            (
                e.get("process_group"),
                e.get("collective_seq_id", e.get("seq_id", 0)),
                e.get("profiling_name"),
                e.get("input_sizes"),
                e.get("input_dtypes"),
                e.get("output_sizes"),
            )
            for e in entries
        ]
    if rows and not isinstance(rows[0][0], tuple):  # JSON: (name, desc) came back as a list
        rows = [(tuple(r[0]) if isinstance(r[0], list) else (str(r[0]), ""), *r[1:]) for r in rows]
    return rows


_TORCH_FRAME = re.compile(
    r"[/\\](?:site|dist)-packages[/\\]torch[/\\]|[/\\]torch[/\\]distributed[/\\]"
)


def _site(frames: Any) -> str:
    """The innermost frame of the program's own code: torch's Python frames (c10d, its
    logger's wrapper) come first in a collective's stack and say nothing of where it was
    called. torch's are those of an installed torch package, or of torch/distributed in a
    source checkout (a user's own folder named torch is not torch's)."""
    if not isinstance(frames, list):
        return ""
    for f in frames:
        if not isinstance(f, dict):
            continue
        path = str(f.get("filename", ""))
        if path and not _TORCH_FRAME.search(path):
            return f"{path}:{f.get('line', '?')} ({f.get('name', '?')})"
    return ""


def _seq(value: Any) -> int | None:
    """A sequence id of pg_status: an int in a pickle dump, a decimal string in torch's JSON
    dump (`_dump_fr_trace_json`: {"last_completed_collective": "4"}), which was ignored."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return None


def _views(
    p: Partial, rows: list[Row], entries: list[dict[str, Any]], status: Any
) -> dict[str, PgView]:
    views: dict[str, PgView] = {}
    for pg in set(map(itemgetter(0), rows)):
        name = str(pg[0])
        views[name] = PgView()
        p.pg_desc.setdefault(name, str(pg[1]) if len(pg) > 1 else "")
    open_ = set(views)  # groups still missing their last entry or last completion
    for row, e in zip(reversed(rows), reversed(entries)):
        if not open_:
            break
        name = str(row[0][0])
        if name not in open_:
            continue
        v = views[name]
        done = e.get("state") == "completed" or e.get("retired") is True
        v.completion_known = v.completion_known or "state" in e or "retired" in e
        if not v.entered:
            v.entered, v.last_sig = row[1], row[2:]
            v.site = _site(e.get("frames"))
            v.last_state = "completed" if done else str(e.get("state", ""))
        if done:
            v.completed = row[1]
            open_.discard(name)
    need_first = set(views)
    for row in rows:
        name = str(row[0][0])
        if name in need_first:
            views[name].first = row[1]
            need_first.discard(name)
            if not need_first:
                break
    if isinstance(status, dict):  # pg_status, keyed by pg_id: authoritative for completion
        ids = {str(e.get("pg_id")): str(r[0][0]) for r, e in zip(rows[-TAIL:], entries[-TAIL:])}
        for pg_id, st in status.items():
            name = ids.get(str(pg_id), "")
            last = _seq(st.get("last_completed_collective")) if isinstance(st, dict) else None
            if name in views and last is not None:
                views[name].completion_known = True
                views[name].completed = max(views[name].completed, last)
    return views


def _compare(p: Partial, refs: dict[str, _Ref], rank: int, rows: list[Row]) -> None:
    by_group: dict[str, list[Row]] = {}
    for r in rows:
        g = r[0][0]
        got = by_group.get(g)
        if got is None:
            by_group[g] = [r]
        else:
            got.append(r)
    for g, grows in by_group.items():
        name = str(g)
        ref = refs.get(name)
        if ref is None:
            refs[name] = _Ref(rank, grows, {r[1]: i for i, r in enumerate(grows)})
            continue
        i = ref.index.get(grows[0][1])
        j = 0
        if i is None:  # this rank's buffer starts before the reference's: find the ref's start
            start = ref.rows[0][1]
            j = next((k for k, r in enumerate(grows) if r[1] == start), len(grows))
            i = 0
        n = min(len(grows) - j, len(ref.rows) - i)
        if n > 0:
            ref.spans.append((i, i + n, rank))  # agrees on the overlap, except as recorded below
            if grows[j : j + n] == ref.rows[i : i + n]:  # the common case: one C-level comparison
                continue
        for row in grows:  # slow path: entry by entry against the reference
            k = ref.index.get(row[1])
            if k is not None and ref.rows[k] != row:
                _vote(p.variants.setdefault((name, row[1]), []), row[2:], 1, [rank])


def _count_agreement(p: Partial, refs: dict[str, _Ref]) -> None:
    """For each disagreement, count its group's reference and the ranks that agreed with it."""
    for (name, seq), vs in p.variants.items():
        ref = refs.get(name)
        k = ref.index.get(seq) if ref is not None else None
        if ref is None or k is None:
            continue
        if any(v[0] == ref.rows[k][2:] and ref.rank in v[2] for v in vs):
            continue
        agree = [ref.rank] + [r for a, b, r in ref.spans if a <= k < b]
        differing = {r for v in vs for r in v[2]}
        agree = [r for r in agree if r not in differing]
        _vote(vs, ref.rows[k][2:], len(agree), agree)


def _pg_config(p: Partial, cfg: Any) -> None:
    if not isinstance(cfg, dict):
        return
    for name, c in cfg.items():
        if not isinstance(c, dict) or not name or str(name) in p.pg_ranks:
            continue  # parse each group's member list once: it is 16k ranks long at scale
        p.pg_desc.setdefault(str(name), str(c.get("desc", "")))
        try:
            ranks = json.loads(c["ranks"]) if isinstance(c.get("ranks"), str) else []
        except ValueError:
            ranks = []
        if ranks and all(isinstance(r, int) for r in ranks):
            p.pg_ranks.setdefault(str(name), ranks)
