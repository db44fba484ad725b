"""nonstop's logging: one handler on the "nonstop" logger, for the supervisor and the ranks
(the contract layer: standard library only, imports nothing of ours but the variables' names).

    from nonstop import log
    _log = log.get("bootstrap")                      # logging.getLogger("nonstop.bootstrap")
    _log.warning("no flight-recorder dump: %s", e)   # nonstop[host n1 attempt 2 rank 1] ...
    with log.swallowed(_log, "telemetry sample", expected=OSError):  # not suppress(Exception)
        sample()                                     # OSError at DEBUG, anything else WARNING

Each process calls `setup(role, ...)` once it knows who it is (`nonstop run` as role "run", the
bootstrap as role "rank"); before that, and in processes that never call it (a script using
nonstop.checkpoint on its own, the tests), the handler is already there with the defaults, so
our messages reach stderr as they always did.

What a line looks like (decided here, once):

- role "run" (the supervisor): `nonstop run: MESSAGE` on stdout, exactly the status lines that
  users and tests read; with the prefix, `nonstop[host H attempt N] nonstop run: MESSAGE`. So
  `print(f"nonstop run: hang detected ...", flush=True)` becomes
  `_log.info("hang detected ...")`: the message without "nonstop run: ", whichever module logs.
- every other role (the ranks, other verbs): `nonstop.NAME: MESSAGE` on stderr (a rank's stderr
  is its log), NAME the logger's (`nonstop.faults: ...`, `nonstop.bootstrap: ...`); with the
  prefix, `nonstop[host H attempt N rank R] nonstop.NAME: MESSAGE`. The prefix shows what is
  known: parts not given are left out.
- the prefix is on for the ranks (several ranks' lines meet on one console with `--tee` or
  plain torchrun) and off for the supervisor; NONSTOP_LOG_PREFIX=1 or 0 overrides both, and
  level DEBUG turns it on. The text after the prefix never changes, so a grep for it works at
  every level.
- level: NONSTOP_LOG_LEVEL (DEBUG, INFO, WARNING, ERROR or a number), default INFO; DEBUG shows
  every exception that monitoring swallowed, with its traceback (`swallowed`); one a site did
  not expect is a WARNING at every level.

Once set up, the "nonstop" logger does not propagate to the root logger: a training script's
own logging configuration does not print our lines a second time. Before (the defaults) it
does, so `caplog` and an application's handlers see our records.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from types import TracebackType
from typing import IO, Any, Final

from nonstop import envvars

ROOT: Final = "nonstop"
RUN: Final = "run"
"""The supervisor's role: its lines are `nonstop run: ...` on stdout."""
RANK: Final = "rank"
DEFAULT_LEVEL: Final = logging.INFO

_lock = threading.Lock()
_context: dict[str, Any] = {"role": None, "host": None, "attempt": None, "rank": None}


def get(name: str) -> logging.Logger:
    """The logger `nonstop.NAME` (`get("faults")`); its lines carry NAME."""
    return logging.getLogger(f"{ROOT}.{name}" if name else ROOT)


def level_from_env(environ: dict[str, str] | os._Environ[str] | None = None) -> int:
    """NONSTOP_LOG_LEVEL as a logging level: a name or a number; INFO when unset or unknown."""
    raw = (os.environ if environ is None else environ).get(envvars.LOG_LEVEL, "").strip()
    if not raw:
        return DEFAULT_LEVEL
    if raw.isdigit():
        return int(raw)
    value = logging.getLevelName(raw.upper())
    return value if isinstance(value, int) else DEFAULT_LEVEL


def _prefix_wanted(role: str | None, level: int, explicit: bool | None) -> bool:
    if explicit is not None:
        return explicit
    raw = os.environ.get(envvars.LOG_PREFIX, "").strip()
    if raw in ("0", "1"):
        return raw == "1"
    return level <= logging.DEBUG or role not in (None, RUN)


class _Formatter(logging.Formatter):
    """`[prefix ]TAG: MESSAGE`; the context is read at each record (set_context moves it)."""

    def __init__(self) -> None:
        super().__init__()
        self.prefix = False

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        tag = "nonstop run" if _context["role"] == RUN else record.name
        line = f"{tag}: {text}"
        if self.prefix:
            line = prefix() + line
        if record.exc_info:
            if not record.exc_text:
                record.exc_text = self.formatException(record.exc_info)
            line = f"{line}\n{record.exc_text}"
        return line


class _StdHandler(logging.StreamHandler):
    """stdout or stderr as they are at each record (a test's capture, a standby's dup2)."""

    def __init__(self) -> None:
        super().__init__()
        self.to_stdout = False

    @property
    def stream(self) -> IO[str]:
        return sys.stdout if self.to_stdout else sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:  # StreamHandler.__init__ assigns it
        pass

    def handleError(self, record: logging.LogRecord) -> None:
        # the reader of the console went away (`nonstop run ... | head -1`): later lines go
        # nowhere, as the rest of a pipeline's output would, rather than a "--- Logging
        # error ---" traceback per line
        if isinstance(sys.exc_info()[1], BrokenPipeError):
            console_closed(self.stream)
            return
        super().handleError(record)


def console_closed(stream: IO[str]) -> None:
    """`stream` (stdout or stderr) lost its reader: point its file descriptor at /dev/null, so
    that every later write to it, the interpreter's last flush included, succeeds and goes
    nowhere instead of raising BrokenPipeError again (which at exit makes the status 120)."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


_formatter = _Formatter()
_handler = _StdHandler()
_handler.setFormatter(_formatter)
_handler.set_name("nonstop")


def prefix() -> str:
    """`nonstop[host H attempt N rank R] ` with the parts known (empty when none is)."""
    parts = [
        f"{key} {_context[key]}" for key in ("host", "attempt", "rank") if _context[key] is not None
    ]
    return f"nonstop[{' '.join(parts)}] " if parts else ""


def set_context(**known: Any) -> None:
    """Update what the prefix shows (`set_context(attempt=3)` when a new attempt starts)."""
    unknown = set(known) - {"host", "attempt", "rank"}
    if unknown:
        raise ValueError(f"set_context: unknown field(s) {sorted(unknown)}")
    with _lock:
        _context.update(known)


def setup(
    role: str,
    *,
    host: str | None = None,
    attempt: int | None = None,
    rank: int | None = None,
    level: int | str | None = None,
    prefix: bool | None = None,
) -> logging.Logger:
    """Configure the one "nonstop" handler for this process; calling it again reconfigures
    (never a second handler). `level` None: NONSTOP_LOG_LEVEL, else INFO; `prefix` None: see the
    module docstring. Returns the "nonstop" logger."""
    if isinstance(level, str):
        value = logging.getLevelName(level.upper())
        if not isinstance(value, int):
            raise ValueError(f"setup: level {level!r} is not a logging level")
        level = value
    lvl = level_from_env() if level is None else level
    with _lock:
        _context.update(role=role, host=host, attempt=attempt, rank=rank)
        _formatter.prefix = _prefix_wanted(role, lvl, prefix)
        _handler.to_stdout = role == RUN
        logger = logging.getLogger(ROOT)
        logger.setLevel(lvl)
        logger.propagate = False
        if _handler not in logger.handlers:
            logger.addHandler(_handler)
    return logger


def reset() -> None:
    """Back to the import-time defaults (tests)."""
    with _lock:
        _context.update(role=None, host=None, attempt=None, rank=None)
        logger = logging.getLogger(ROOT)
        logger.setLevel(level_from_env())
        logger.propagate = True
        _formatter.prefix = _prefix_wanted(None, logger.level, None)
        _handler.to_stdout = False
        if _handler not in logger.handlers:
            logger.addHandler(_handler)


class swallowed:  # lower case: used like contextlib.suppress
    """`with swallowed(log, "what was lost"):` swallows an Exception (never a BaseException
    such as KeyboardInterrupt) and logs it: at DEBUG with its traceback when it is one of
    `expected` (the failures this site survives by design: a closed stream, no NVML), at
    WARNING otherwise (the traceback too at DEBUG). Nothing is expected by default, so a site
    that names no kind says every failure at WARNING: `what` should then say what was lost
    ("recording the spawn phase (the ledger has no such row)"). The replacement for
    `contextlib.suppress(Exception)`.

        with swallowed(_log, "closing the standby's stdin", expected=OSError): ...
    """

    __slots__ = ("expected", "logger", "what")

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        *,
        expected: type[BaseException] | tuple[type[BaseException], ...] = (),
    ) -> None:
        self.logger, self.what, self.expected = logger, what, expected

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, typ: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool:
        if exc is None or not isinstance(exc, Exception):
            return False
        try:
            if isinstance(exc, self.expected):
                if self.logger.isEnabledFor(logging.DEBUG):
                    self.logger.debug("%s: %r (ignored)", self.what, exc, exc_info=exc)
            else:
                debug = self.logger.isEnabledFor(logging.DEBUG)
                self.logger.warning(
                    "%s: %r (ignored)", self.what, exc, exc_info=exc if debug else None
                )
        except Exception:  # logging itself failed (a closed stream at exit): nothing to tell
            pass
        return True


reset()
