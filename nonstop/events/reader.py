"""Read event streams back, surviving torn and corrupt lines.

A writer killed with SIGKILL can leave a partial last line; the reader drops it silently
(counted in `torn`). A corrupt line elsewhere, a record of a newer schema, or an unknown kind is
skipped with a warning (counted); the file itself is never modified.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from nonstop.events.schema import Event, SchemaError, from_dict


class EventWarning(UserWarning):
    """An event line was skipped: corrupt, of a newer schema, or of an unknown kind."""


@dataclass
class ReadStats:
    """What reading one stream found besides valid events."""

    events: int = 0
    torn: int = 0
    corrupt: int = 0
    unknown_kinds: dict[str, int] = field(default_factory=dict)
    end_offset: int = 0
    """Byte offset just after the last complete line: where an incremental reader resumes."""


_KIND = re.compile(rb'"kind"\s*:\s*"([^"\\]*)"')


def iter_events(
    path: str | Path,
    *,
    start_offset: int = 0,
    stats: ReadStats | None = None,
    kinds: frozenset[str] | None = None,
) -> Iterator[Event]:
    """Yield the valid, known-kind events of one JSONL stream, from `start_offset` on.

    Only complete lines (ending in a newline) are consumed; `stats.end_offset` tells where the
    next incremental read should begin. `kinds`: only events of these kinds are wanted; a line
    whose every `"kind":"..."` names another kind is skipped unparsed (a third of the cost of
    reading 16k ranks' streams for their step events); any other line is parsed and checked.
    """
    wanted = {k.encode() for k in kinds} if kinds is not None else None
    stats = stats if stats is not None else ReadStats()
    path = Path(path)
    offset = start_offset
    stats.end_offset = offset
    before: int | None = None  # lines before start_offset: counted only for a bad line's number
    with open(path, "rb") as f:
        f.seek(start_offset)
        for lineno, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):  # torn last line of a killed writer
                stats.torn += 1
                break
            offset += len(raw)
            stats.end_offset = offset
            line = raw.strip()
            if not line:
                continue
            if wanted is not None:
                named = _KIND.findall(line)
                if named and not any(k in wanted for k in named):
                    continue
            try:
                event = from_dict(json.loads(line.decode()))
            except (ValueError, SchemaError) as e:  # JSONDecodeError and UnicodeDecodeError too
                stats.corrupt += 1
                if before is None:
                    before = _lines_before(path, start_offset)
                warnings.warn(
                    f"{path}:{before + lineno}: skipped a bad event line ({e})",
                    EventWarning,
                    stacklevel=2,
                )
                continue
            if not event.known:
                n = stats.unknown_kinds.get(event.kind, 0)
                stats.unknown_kinds[event.kind] = n + 1
                if n == 0:
                    warnings.warn(
                        f"{path}: skipped events of unknown kind {event.kind!r} (kept in the file)",
                        EventWarning,
                        stacklevel=2,
                    )
                continue
            if kinds is not None and event.kind not in kinds:
                continue
            stats.events += 1
            yield event


def _lines_before(path: Path, offset: int) -> int:
    """The lines of `path` before byte `offset` (a line start): an incremental read's bad line
    is numbered from the file's start, as an editor numbers it (it said "rank-1.jsonl:1:" for a
    line far into the file, counting from where that read began)."""
    n = 0
    try:
        with open(path, "rb") as f:
            while offset > 0 and (chunk := f.read(min(offset, 1 << 20))):
                n += chunk.count(b"\n")
                offset -= len(chunk)
    except OSError:
        pass
    return n


def read_events(path: str | Path) -> tuple[list[Event], ReadStats]:
    """All valid events of one stream, with what was skipped."""
    stats = ReadStats()
    return list(iter_events(path, stats=stats)), stats
