"""The event schema: one versioned record type for everything a training rank reports.

Every record carries `schema_version`, the run id, attempt, rank, host, monotonic and wall time,
a `kind` and a `payload`. Kinds and the payload fields each one requires are a plain table
(`KINDS`); optional fields are documented in docs/run-directory.md. Readers keep records of
kinds they do not know (the file is never rewritten) and skip them with a warning.

Standard library only: this is the contract between processes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Final

SCHEMA_VERSION: Final = 1

# kind -> payload fields that must be present. Everything else in a payload is optional.
KINDS: Final[dict[str, tuple[str, ...]]] = {
    # one optimizer step: start/end are wall times; the *_s durations split it.
    # optional: data_s, compute_s, optimizer_s, tokens, loss, lr
    "step": ("step", "start", "end"),
    # checkpoint phases: begin, staged (training may go on), committed, failed; replicated (an
    # in-memory snapshot reached its servers) and loaded (source: memory or storage).
    # optional: bytes, blocking_s, total_s, path, error
    "checkpoint": ("phase", "step"),
    # liveness: the step being worked on and the named section, if any (e.g. "checkpoint").
    "heartbeat": ("step",),
    # a named section opened or closed: slow phases that must not raise hang alarms.
    "section": ("name", "phase"),
    # telemetry sample: source is "nvml" or "cpu"; metrics maps names to numbers.
    "telemetry": ("source", "metrics"),
    # lifecycle: attempt_start, pg_ready, resumed (payload step = the last step whose state was
    # loaded), finished, exit, skipped_batches, sdc_attributed (docs/run-directory.md).
    "lifecycle": ("phase",),
    # a failure seen from inside the rank: exception type and message, optional category.
    "failure": ("message",),
}


class SchemaError(ValueError):
    """A record that is not a valid event of our schema (the message says why)."""


@dataclass(frozen=True, kw_only=True)
class Event:
    """One event record. `mono` is time.monotonic() of the writing process; `time` is wall."""

    run_id: str
    attempt: int
    rank: int
    host: str
    mono: float
    time: float
    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    schema_version: int = SCHEMA_VERSION

    def to_json(self) -> str:
        """One line of JSON (no newline). NaN/Inf losses become null rather than invalid JSON."""
        return json.dumps(
            {
                "schema_version": self.schema_version,
                "run_id": self.run_id,
                "attempt": self.attempt,
                "rank": self.rank,
                "host": self.host,
                "mono": self.mono,
                "time": self.time,
                "kind": self.kind,
                "payload": _finite(self.payload),
            },
            separators=(",", ":"),
            allow_nan=False,
        )

    @property
    def known(self) -> bool:
        return self.kind in KINDS


def _finite(obj: Any) -> Any:
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {str(k): _finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_finite(v) for v in obj]
    return obj


_HEADER: Final[dict[str, type | tuple[type, ...]]] = {
    "schema_version": int,
    "run_id": str,
    "attempt": int,
    "rank": int,
    "host": str,
    "mono": (int, float),
    "time": (int, float),
    "kind": str,
    "payload": dict,
}


_NUMBER: Final = (int, float)


def from_dict(d: Any) -> Event:
    """Validate a decoded JSON object and build an Event; raise SchemaError naming the problem.

    Records of unknown kinds are returned (check `Event.known`); records whose schema_version is
    newer than ours raise, since their meaning may have changed.
    """
    if not isinstance(d, dict):
        raise SchemaError(f"record is a {type(d).__name__}, not an object")
    g = d.get
    if not (  # what json.loads makes of a valid line, at a third of the loop's cost below
        type(g("schema_version")) is int
        and type(g("run_id")) is str
        and type(g("attempt")) is int
        and type(g("rank")) is int
        and type(g("host")) is str
        and type(g("mono")) in _NUMBER
        and type(g("time")) in _NUMBER
        and type(g("kind")) is str
        and type(g("payload")) is dict
    ):
        for key, typ in _HEADER.items():  # anything else: checked field by field, named
            if key not in d:
                raise SchemaError(f"record has no {key!r}")
            value = d[key]
            if isinstance(value, bool) or not isinstance(value, typ):
                raise SchemaError(f"field {key!r} has type {type(value).__name__}")
    if d["schema_version"] > SCHEMA_VERSION:
        raise SchemaError(
            f"schema_version {d['schema_version']} is newer than this nonstop's "
            f"{SCHEMA_VERSION}; upgrade nonstop to read it"
        )
    kind = d["kind"]
    payload = d["payload"]
    missing = [f for f in KINDS.get(kind, ()) if f not in payload]
    if missing:
        raise SchemaError(f"{kind} record lacks payload field(s) {', '.join(missing)}")
    try:
        mono, wall = float(d["mono"]), float(d["time"])
    except OverflowError:
        raise SchemaError("field 'mono' or 'time' is out of range") from None
    return Event(
        schema_version=d["schema_version"],
        run_id=d["run_id"],
        attempt=d["attempt"],
        rank=d["rank"],
        host=d["host"],
        mono=mono,
        time=wall,
        kind=kind,
        payload=payload,
    )
