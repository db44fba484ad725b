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

import functools
import io
import itertools
import json
import os
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
    # A BufferedReader, not the BytesIO itself: the C unpickler peeks into its buffer instead
    # of calling read() per opcode (3-5x faster on a 500 kB dump).
    return _Restricted(io.BufferedReader(io.BytesIO(data))).load()


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


# -- windowed reads: the first and last entries only -------------------------------------------

WINDOW_HEAD = 64
"""Entries decoded from a large dump's start (the memo of shared strings and stacks is there)."""
WINDOW_TAIL = 128
"""Entries decoded from its end: every group's frontier must fall inside (checked)."""
_HEAD_BYTES = 32 << 10
_TAIL_BYTES = 48 << 10
_ENTRIES_KEY = "entries"
_head_hint = [_HEAD_BYTES]  # bytes the last dump's head needed, in this process


def _entry_start(head: bytes) -> re.Pattern[bytes] | None:
    """A pattern for the start of every entry after the first, learnt from the first: EMPTY_DICT,
    a memo put, MARK, then the first key fetched from the memo by index. None: a layout this
    reader does not know (protocol 4 frames, MEMOIZE, no entries list): decode in full."""
    # Walk opcodes from the "entries" key on (a BINUNICODE or SHORT_BINUNICODE op), not from
    # the start: pg_config alone is thousands of opcodes at scale.
    key = _ENTRIES_KEY.encode()
    at = head.find(b"X" + len(key).to_bytes(4, "little") + key)
    if at < 0:
        at = head.find(b"\x8c" + bytes([len(key)]) + key)
    if at < 0:
        return None
    # The ops walked fit in _SHAPE_BYTES unless keys are long: the pattern is a function of
    # those bytes, learnt once per process for all the dumps of one job.
    got = _shape_pattern(head[at : at + _SHAPE_BYTES])
    if got is None and len(head) - at > _SHAPE_BYTES:
        got = _shape_pattern.__wrapped__(head[at:])
    return got


_SHAPE_BYTES = 96


@functools.lru_cache(maxsize=64)
def _shape_pattern(ops: bytes) -> re.Pattern[bytes] | None:
    import pickletools

    shape: list[str] = []
    try:
        for op, arg, _pos in pickletools.genops(io.BytesIO(ops)):
            shape.append(op.name)
            if op.name in ("BINPUT", "LONG_BINPUT") and shape[-2:-1] == ["BINUNICODE"]:
                if len(shape) > 2 and isinstance(arg, int):
                    idx = arg
                    break
            elif len(shape) > 10:
                return None
        else:
            return None
    except (ValueError, EOFError, IndexError, struct.error, UnicodeDecodeError):
        return None
    shape = shape[1:]
    # entries: EMPTY_LIST [put] MARK EMPTY_DICT [put] MARK BINUNICODE(key) put
    want = [s for s in shape if s not in ("BINPUT", "LONG_BINPUT")]
    if want != ["EMPTY_LIST", "MARK", "EMPTY_DICT", "MARK", "BINUNICODE"]:
        return None
    get = b"h" + bytes([idx]) if idx < 256 else b"j" + idx.to_bytes(4, "little")
    return re.compile(rb"\}(?:q.|r....)?\(" + re.escape(get), re.DOTALL)


def _consecutive(entries: list[Any]) -> bool:
    try:
        ids = [e["record_id"] for e in entries]
    except (KeyError, TypeError):
        return False
    return bool(ids) and isinstance(ids[0], int) and ids == list(range(ids[0], ids[0] + len(ids)))


def _load_restricted(data: bytes, memo: Any = None) -> tuple[Any, Any]:
    u = _Restricted(io.BufferedReader(io.BytesIO(data)))
    if memo is not None:  # the other unpickler's memo proxy (a plain dict is lost in 3.11)
        u.memo = memo
    return u.load(), u


def load_window(
    path: str | Path, head: int = WINDOW_HEAD, tail: int = WINDOW_TAIL
) -> dict[str, Any] | None:
    """A pickle dump with only its first `head` and last `tail` entries decoded, read with two
    seeks instead of the whole file; None when the dump is small or its layout not one this
    reader can cut safely (the caller then loads it in full). The result carries
    ``nonstop_window = (head entries, entries skipped)``.

    The entries list is cut at entry boundaries found by a byte pattern learnt from the first
    entry; the tail is decoded with the head's memo, so strings and stacks shared with the
    head resolve. Anything unexpected (a memo index defined only in the skipped middle, a
    pattern hit that is not an entry, non-consecutive record ids) returns None."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < 4 * _TAIL_BYTES:
                return None
            # Dumps of one job are alike: start from the head size the last dump needed (a
            # size the doubling below would reach anyway), not 32 kB thrice doubled at 16k ranks.
            first_read = _HEAD_BYTES
            while first_read * 2 <= min(_head_hint[0], size // 4):
                first_read *= 2
            hb = f.read(first_read)
            if hb[:2] != b"\x80\x02":
                return None
            # The head grows until it holds `head` entries (pg_config lists every member of
            # the default group: 100 kB at 16k ranks), the tail until it holds `tail`; the two
            # never meet (the file is then decoded in full).
            while True:
                pat = _entry_start(hb)
                starts = (
                    [m.start() for m in itertools.islice(pat.finditer(hb), head)] if pat else []
                )
                if len(starts) >= head or len(hb) >= size // 2:
                    break
                hb += f.read(min(len(hb), size // 2 - len(hb)))
            if pat is None:
                return None
            _head_hint[0] = len(hb)
            want = _TAIL_BYTES
            if len(starts) >= head > 8:  # later head entries are the size of the tail's
                mid = head // 2
                per = (starts[-1] - starts[mid]) / (head - 1 - mid)
                want = max(4096, min(want, int(per * (tail + 8) * 1.25)))
            while True:
                want = min(want, size - len(hb))
                f.seek(size - want)
                tb = f.read()
                ends = [m.start() for m in pat.finditer(tb)]
                if len(ends) > tail or want >= size - len(hb):
                    break
                want *= 2
    except OSError:
        return None
    if len(starts) < head or len(ends) < tail + 1:
        return None
    try:
        first, u = _load_restricted(hb[: starts[head - 1]] + b"eu.")
        memo = u.memo
        prefix = b"\x80\x02}(X" + len(_ENTRIES_KEY).to_bytes(4, "little") + b"entries]("
        rest, _ = _load_restricted(prefix + tb[ends[-tail] :], memo)
    except Exception:  # any failure: decode in full instead
        return None
    if not (isinstance(first, dict) and isinstance(rest, dict)):
        return None
    a, b = first.get(_ENTRIES_KEY), rest.get(_ENTRIES_KEY)
    if not (isinstance(a, list) and isinstance(b, list) and _consecutive(a) and _consecutive(b)):
        return None
    skipped = b[0]["record_id"] - a[-1]["record_id"] - 1
    if skipped < 1:
        return None
    for k, v in rest.items():
        if k != _ENTRIES_KEY:
            first[k] = v
    first[_ENTRIES_KEY] = a + b
    first["nonstop_window"] = (len(a), skipped)
    return first
