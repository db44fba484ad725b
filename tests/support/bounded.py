"""For the property tests: a per-example time bound that turns a hang into a failure."""

from __future__ import annotations

import contextlib
import hashlib
import signal
from collections.abc import Iterator
from pathlib import Path


class Hang(Exception):
    """An example ran past its time bound: a hang (hypothesis reports the minimal example)."""


@contextlib.contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Raise Hang in the main thread if the block runs longer than `seconds` (SIGALRM)."""

    def on_alarm(signum: int, frame: object) -> None:
        raise Hang(f"no result within {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
