"""The `nonstop` command: a thin dispatcher to one module per verb.

Each verb module exposes ``main(argv: list[str]) -> int`` and owns its own arguments, so that
`nonstop run` can hand its argv to torchrun's own parser unchanged. Verb modules are imported
only when used: `nonstop plan` never loads torch.

    nonstop demo                 # a tiny Llama on local CPU ranks, through injected faults
    nonstop report RUN_DIR       # where the time went
    nonstop --help
"""

from __future__ import annotations

import gc
import importlib
import io
import os
import signal
import sys
from typing import IO, NoReturn

from nonstop import __version__
from nonstop.errors import UserError

# verb -> (module, function, one-line help). A plain table: no registration magic.
VERBS: dict[str, tuple[str, str, str]] = {
    "run": ("nonstop.supervisor.cli", "main", "torchrun drop-in: detect, diagnose, recover"),
    "demo": ("nonstop.demo", "main", "train a tiny Llama on CPU ranks through injected faults"),
    "report": ("nonstop.report.cli", "main", "goodput, badput and failures of a run"),
    "diagnose": ("nonstop.diagnose.cli", "main", "one verdict for a failed run or dump folder"),
    "triage": ("nonstop.diagnose.cli", "triage_main", "classify log files by failure signature"),
    "simulate": ("nonstop.sim.cli", "main", "Monte Carlo reliability and power of a job"),
    "plan": ("nonstop.plan.cli", "main", "scaling-law planning: size, tokens, days, energy"),
    "drain": (
        "nonstop.supervisor.planned_stop",
        "drain_main",
        "checkpoint, then go on without a host",
    ),
    "restart": (
        "nonstop.supervisor.planned_stop",
        "restart_main",
        "checkpoint, then restart as is",
    ),
    "ctl": (
        "nonstop.supervisor.live_settings",
        "ctl_main",
        "change a running job's settings, no restart",
    ),
}


def _usage() -> str:
    width = max(map(len, VERBS))
    lines = [
        f"nonstop {__version__}: keep large PyTorch training runs training",
        "",
        "usage: nonstop VERB [ARGS...]   (nonstop VERB --help for its flags)",
        "",
        "verbs:",
    ]
    lines += [f"  {v.ljust(width)}  {h}" for v, (_, _, h) in VERBS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    if args[0] in ("-V", "--version"):
        print(__version__)
        return 0
    verb, rest = args[0], args[1:]
    if verb not in VERBS:
        print(f"nonstop: unknown verb {verb!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, func_name, _ = VERBS[verb]
    _names_as_bytes(sys.stdout)
    try:
        func = getattr(importlib.import_module(module_name), func_name)
        return int(func(rest) or 0)
    except UserError as e:
        print(f"nonstop {verb}: error: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"nonstop {verb}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`nonstop triage DIR | head`): it had what it wanted. Standard
        # output goes to /dev/null so that the exit's flush does not raise again, and the
        # status is a shell's for a program SIGPIPE ended (141), as `cat` would give
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 128 + signal.SIGPIPE


def _names_as_bytes(out: IO[str]) -> None:
    """A file name that is not UTF-8 (held as lone surrogates, os.fsdecode) is printed as its
    bytes, as `ls` prints it: under a UTF-8 locale Python's standard output refused it, and
    `nonstop triage DIR` ended in a UnicodeEncodeError traceback. (JSON output writes such a
    name as `\\xff` text: nonstop.errors.json_text.)"""
    if isinstance(out, io.TextIOWrapper) and out.errors == "strict":
        out.reconfigure(errors="surrogateescape")


def entry() -> NoReturn:
    """The `nonstop` process (the console script, `python -m nonstop.cli`): main(), then
    Python's ordinary exit, after one garbage collection and a freeze of what is still alive
    (gc.freeze), so that the exit's own collections do not walk torch's objects. Once torch
    is loaded (`nonstop run`) those walks took 1.5-2.3 s of CPU on a quiet host after the run
    had ended and "finished" was printed (strace: no system call in them), more on a busy
    one, which a requeued job, a script waiting on the job and every end-to-end test paid for
    nothing; the one collection here costs about 0.2 s. The rest of the exit is unchanged:
    threads joined, atexit handlers, modules torn down (nonstop.supervisor.bootstrap's
    run_then_exit does the same for each rank)."""
    try:
        sys.exit(main())
    finally:
        gc.collect()
        gc.freeze()


if __name__ == "__main__":
    entry()
