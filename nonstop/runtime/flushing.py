"""Flush what the script wrote but never closed, before a rank exits without Python's teardown.

A rank leaves through `os._exit` where the interpreter's own exit could deadlock (an uncaught
exception with a live gloo process group: bootstrap._exit_after_exception; a numerical
rollback: guards) and dies of SIGTERM when its agent stops it. Python's ordinary exit would
have flushed every open file object as it freed it; `os._exit` and a signal's death flush
none, so the last lines of a crashed rank's own log (the ones that say why) were lost, where
the same script under torchrun kept them. `flush_open_files` does that part of the teardown:
every buffered file object still alive is flushed, in a daemon thread bounded in time (a file
on a hung filesystem, or one whose lock the interrupted main thread holds, must not keep the
rank from exiting).
"""

from __future__ import annotations

import contextlib
import gc
import io
import itertools
import threading
from typing import Final

FLUSH_TIMEOUT_S: Final = 2.0
_FILE_TYPES: Final = (io.TextIOWrapper, io.BufferedWriter, io.BufferedRandom)
"""Exact types only: `type()` reads no attribute, where isinstance on some of torch's lazy
proxy objects warns (a deprecated `__class__`)."""
_FILE_TYPE_SET: Final = frozenset(_FILE_TYPES)


def _flush_all() -> int:
    objs = gc.get_objects()
    # the type test in C (map, compress): a rank with transformers loaded holds ~400k objects,
    # and the pass is on its way out, between its failure and the restart
    files = list(itertools.compress(objs, map(_FILE_TYPE_SET.__contains__, map(type, objs))))
    del objs
    flushed = 0
    for obj in files:
        # a closed file (ValueError), a full disk or a broken pipe (OSError), a reentrant call
        # into a writer the interrupted main thread was inside (RuntimeError): nothing to save
        with contextlib.suppress(OSError, ValueError, RuntimeError):
            if not obj.closed and obj.writable():
                obj.flush()
                flushed += 1
    return flushed


_pass: tuple[threading.Thread, list[int]] | None = None
"""The last pass: its thread and its result. No lock: the callers run on the main thread, where
a signal handler (bootstrap.SigtermHandler) interrupts between two bytecodes, so a lock held
by the interrupted call would deadlock the handler's (seen: a rank that took until torch's
SIGKILL to exit). Interrupted anywhere, the handler either joins the running pass or starts
its own; either way the files are flushed."""


def flush_open_files(timeout_s: float = FLUSH_TIMEOUT_S) -> int | None:
    """Flush every open, writable file object of this process; the number flushed, or None
    when the pass did not end within `timeout_s` (it goes on in the background until exit).
    A call while a pass runs (the agent's SIGTERM arriving while an uncaught exception's exit
    flushes) waits for that pass instead of scanning every object again."""
    global _pass
    current = _pass
    if current is None or not current[0].is_alive():
        result: list[int] = []
        t = threading.Thread(
            target=lambda: result.append(_flush_all()), name="nonstop-flush", daemon=True
        )
        current = _pass = (t, result)
        t.start()
    t, result = current
    t.join(timeout_s)
    return result[0] if result else None
