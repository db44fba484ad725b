"""Load PyTorch flight-recorder dumps safely: pickle or JSON, whole or truncated, without torch.

Formats read (no torch needed): the pickle that ``torch._C._distributed_c10d._dump_fr_trace``
(generic recorder: gloo) and ``_dump_nccl_trace`` (NCCL, written on watchdog timeout) return, and
the JSON of their ``*_json`` variants; dump format versions 2.x. The top level is
``{version, pg_config, pg_status, entries, ...}``; each entry has ``record_id``, ``pg_id``,
``process_group`` (name, desc), ``collective_seq_id``, ``p2p_seq_id``, ``op_id``,
``profiling_name``, ``input_sizes``, ``input_dtypes``, ``output_sizes``, ``state``, ``retired``,
``time_created_ns``, ``frames``. Field meanings were read from torch's own
``torch/distributed/flight_recorder`` (types.py, builder.py); no code is taken from it.

SECURITY: a dump is a pickle, possibly from an untrusted machine. `safe_loads` uses an Unpickler
whose ``find_class`` always raises, so only builtin containers and scalars can be built and no
callable is ever reachable: a malicious dump fails to load instead of running code.

A dump cut short (a rank killed while writing) is salvaged: the entries decoded before the cut
are kept (pickle: from the pure-Python unpickler's stacks; JSON: object by object).

Gloo records into the generic recorder: ``state`` stays ``scheduled`` and completion shows only
as ``retired``; ``pg_config`` is empty, so group membership must come from elsewhere.
"""

from __future__ import annotations

import io
import json
import pickle
import re
import struct
from pathlib import Path
from typing import Any

_RANK_IN_NAME = re.compile(r"(\d+)(?:\.(?:json|pkl|pickle|bin))?$")


class DumpError(ValueError):
    """A file that is not a readable flight-recorder dump (the message says why)."""


class _Restricted(pickle.Unpickler):
    """C unpickler that refuses every global: no class, function or reducer can be loaded."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused global {module}.{name} in a flight-recorder dump")


class _RestrictedPy(pickle._Unpickler):
    """Pure-Python twin, used only to salvage truncated dumps: its stacks survive an error."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused global {module}.{name} in a flight-recorder dump")


RECORDER_ERRORS = "nonstop_recorder_errors"
"""A dump's {recorder: why it failed}, written by nonstop's bootstrap when one flight recorder
(NCCL's) failed while another dumped: that recorder's collectives are missing from the dump."""


def safe_loads(data: bytes) -> Any:
    """Unpickle builtin containers and scalars only; raise pickle.UnpicklingError otherwise."""
    return _Restricted(io.BytesIO(data)).load()


def _is_entry(obj: Any) -> bool:
    return isinstance(obj, dict) and "profiling_name" in obj and "record_id" in obj


def _salvage_pickle(data: bytes) -> dict[str, Any] | None:
    u = _RestrictedPy(io.BytesIO(data))
    try:
        return u.load()  # type: ignore[no-any-return,unused-ignore]
    except pickle.UnpicklingError as err:
        if "refused global" in str(err):
            raise
    except (
        EOFError,
        ValueError,
        IndexError,
        KeyError,
        TypeError,
        AttributeError,
        OverflowError,
        MemoryError,
        struct.error,
    ):
        pass
    found: dict[int, dict[str, Any]] = {}
    top: dict[str, Any] = {}
    frames = [*getattr(u, "metastack", []), getattr(u, "stack", [])]
    for frame in frames:
        items = list(frame)
        for i, obj in enumerate(items):
            if isinstance(obj, list):
                for e in obj:
                    if _is_entry(e):
                        found[id(e)] = e
            elif _is_entry(obj):
                found[id(obj)] = obj
            elif isinstance(obj, str) and i + 1 < len(items) and obj in ("version", "pg_status"):
                top[obj] = items[i + 1]  # key/value pairs of the unfinished top-level dict
    if not found:
        return None
    top["entries"] = sorted(found.values(), key=lambda e: e.get("record_id", 0))
    return top


def _salvage_json(text: str) -> dict[str, Any] | None:
    start = text.find('"entries"')
    if start < 0:
        return None
    pos = text.find("[", start) + 1
    dec = json.JSONDecoder()
    entries = []
    while True:
        while pos < len(text) and text[pos] in " \n\r\t,":
            pos += 1
        try:
            obj, pos = dec.raw_decode(text, pos)
        except ValueError:
            break
        if _is_entry(obj):
            entries.append(obj)
    if not entries:
        return None
    m = re.search(r'"version"\s*:\s*"([^"]*)"', text)
    return {"version": m.group(1) if m else "", "entries": entries}


def load_dump(path: str | Path) -> tuple[dict[str, Any], bool]:
    """(dump, truncated): a dump as plain dicts and lists; raise DumpError if unreadable."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise DumpError(f"{path}: {e.strerror or e}") from None
    if not data:
        raise DumpError(f"{path}: empty file")
    if data[:1] in (b"{", b"[", b" ", b"\n"):
        text = data.decode("utf-8", "replace")
        try:
            obj = json.loads(text)
        except ValueError:
            salvaged = _salvage_json(text)
            if salvaged is None:
                raise DumpError(f"{path}: not valid JSON and nothing salvageable") from None
            return salvaged, True
    else:
        try:
            obj = safe_loads(data)
        except pickle.UnpicklingError as e:
            if "refused global" in str(e):
                raise DumpError(f"{path}: {e}") from None
            obj = None
        except (
            EOFError,
            ValueError,
            IndexError,
            KeyError,
            TypeError,
            MemoryError,
            AttributeError,
            OverflowError,
            struct.error,
        ):
            obj = None
        if obj is None:
            try:
                salvaged = _salvage_pickle(data)
            except pickle.UnpicklingError as e:
                raise DumpError(f"{path}: {e}") from None
            if salvaged is None:
                raise DumpError(f"{path}: truncated or corrupt pickle, no entries salvageable")
            return salvaged, True
    if not isinstance(obj, dict) or not isinstance(obj.get("entries", []), list):
        raise DumpError(f"{path}: not a flight-recorder dump (no 'entries' list)")
    return obj, False


def rank_of(path: Path, dump: dict[str, Any] | None = None) -> int | None:
    """The global rank: the dump's own 'rank' field if any, else trailing digits of the name."""
    if dump is not None and isinstance(dump.get("rank"), int):
        return int(dump["rank"])
    m = _RANK_IN_NAME.search(path.name)
    return int(m.group(1)) if m else None
