"""Evidence a node's agent collects before it kills or restarts ranks.

`collect` asks every live rank for its flight-recorder trace and Python stacks (the
bootstrap's watcher answers a dump request file), waits for them briefly, and keeps this node's
kernel-log lines of the attempt under the run directory, where policy's triage reads them;
`failure_message` puts one failed rank in words; `poll_kernel_log` is the monitor loop's cheap
periodic kernel-log read. Evidence never costs the job: every error here is logged and survived.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from torch.distributed.elastic.multiprocessing.errors import ProcessFailure

from nonstop import log, rundir
from nonstop.diagnose import kernel_log
from nonstop.supervisor import bootstrap

_log = log.get("supervisor")

TORCH_BOILERPLATE = "To enable traceback see"
NO_OUTPUT = "no exception and no output (the process ended itself with this code)"
"""A failed rank's message when torch has only its boilerplate and the rank's log is empty (a
bare `os._exit(3)`): torch's link to its error-handling docs says nothing about the failure."""


def proc_state(pid: Any) -> str | None:
    """The kernel's state letter of a process (R, S, D, T stopped, Z zombie), None if gone."""
    try:
        with open(f"/proc/{int(pid)}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, ValueError, TypeError, IndexError):
        return None


def failure_message(failure: ProcessFailure, log: Path) -> str:
    """One failed rank in words: the exception from its error file (torch keeps the file's
    JSON as a dict; its "message" is "RuntimeError: boom"), else, where torch has only its
    boilerplate ("To enable traceback see: https://..."), the rank's own last log line, or,
    when it printed nothing, NO_OUTPUT (never the boilerplate)."""
    m: Any = failure.message
    if isinstance(m, dict):
        return str(m.get("message") or "")
    text = str(m or "")
    if text and not text.startswith(TORCH_BOILERPLATE):
        return text
    with contextlib.suppress(OSError):
        with open(log, "rb") as f:
            f.seek(max(0, log.stat().st_size - 4096))
            lines = [ln.strip() for ln in f.read().decode(errors="replace").splitlines()]
        last = [ln for ln in lines if ln]
        if last:
            return f"last output: {last[-1][:300]}"
    return NO_OUTPUT if text.startswith(TORCH_BOILERPLATE) else text


def collect(
    owner: object,
    run_dir: rundir.RunDir,
    attempt: int,
    workers: Iterable[Any],
    *,
    dead: set[int],
    host: str,
    timeout_s: float,
    attempt_start: float,
    kernel_log_file: str = "",
) -> list[str]:
    """Ask every live rank of `workers` (torch's Worker objects) for its flight-recorder trace
    and Python stacks, wait up to `timeout_s` for them, and keep the node's kernel-log lines of
    the attempt. Returns the evidence files. `owner` keys the node's kernel-log watch (one per
    agent; `kernel_log_file`: the file read besides /dev/kmsg, --kernel-log)."""
    workers = list(workers)
    t0 = time.time()  # compared with the files' mtimes: wall clock
    req = bootstrap.dump_request_path(run_dir.root, attempt)
    req.parent.mkdir(parents=True, exist_ok=True)
    req.write_text(str(t0))
    os.utime(req, (t0, t0))
    alive = [
        w.global_rank
        for w in workers
        if w.global_rank not in dead and proc_state(w.id) not in (None, "Z", "T")
    ]
    files: list[str] = []
    answered: set[int] = set()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and len(answered) < len(alive):
        time.sleep(0.1)
        for r in alive:
            if r in answered:
                continue
            stacks = run_dir.log(attempt, r).with_suffix(".stacks.txt")
            if stacks.exists() and stacks.stat().st_mtime >= t0 - 1:
                answered.add(r)
                files.append(str(stacks))
                fr = run_dir.flight(attempt, r)
                if fr.exists():
                    files.append(str(fr))
    # this node's kernel-log lines of the attempt (Xid, MCE, NIC, OOM killer), attributed
    # to ranks by pid and kept under the run directory, where policy's triage reads them
    try:
        ranks = {w.global_rank: w for w in workers}
        pids = {int(w.id): r for r, w in ranks.items() if w.id is not None}
        gpus = kernel_log.gpu_ranks_from_nvml({w.local_rank: r for r, w in ranks.items()})
        watch = kernel_log.watch_for(owner, run_dir.root, host, kernel_log_file)
        files.append(str(watch.keep(attempt, attempt_start, pids, gpus)))
    except Exception as e:  # evidence must never cost the job
        _log.warning(f"kernel log not kept ({e!r})")
    return files


def poll_kernel_log(owner: object, run_root: Path, host: str, extra_file: str) -> None:
    """The monitor loop's periodic kernel-log read (rate-limited, never raises); `extra_file`
    is --kernel-log ("": /dev/kmsg and the system's tools only)."""
    kernel_log.poll_for(owner, run_root, host, extra_file)


def last_words(log: Path | None, message: str = "", tail_bytes: int = 65536) -> str:
    """A failed rank's message and the tail of its log: where a lost peer's address is named."""
    text = message
    if log is not None:
        try:
            with open(log, "rb") as f:
                f.seek(max(0, log.stat().st_size - tail_bytes))
                text += "\n" + f.read().decode(errors="replace")
        except OSError:
            pass  # no log: the message alone
    return text


def hosts_of_attempt(run_root: Path, attempt: int) -> dict[int, str]:
    """rank -> host for `attempt`, from the first record of each rank's event stream."""
    out: dict[int, str] = {}
    for p in sorted((run_root / "events" / f"attempt-{attempt}").glob("rank-*.jsonl")):
        try:
            with open(p) as f:
                first = json.loads(f.readline())
            rank, host = int(first["rank"]), str(first["host"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        out[rank] = host
    return out


def ranks_of_host(run_root: Path, attempt: int, host: str) -> list[int]:
    """The ranks that host ran in `attempt`."""
    return sorted(r for r, h in hosts_of_attempt(run_root, attempt).items() if h == host)
