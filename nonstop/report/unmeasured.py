"""What a report can say about a run whose script never calls nonstop.runtime.

`nonstop run` is a drop-in for torchrun, so many runs report no steps: their productive time,
ETTR and final step are not measured, and the report must not print zeros for them. What such a
run does leave:

- the bootstrap's heartbeats, twice a second per rank, with the collectives the rank's flight
  recorder has seen completed (`coll_done`): the span in which they advanced is an upper bound
  on the time the attempt trained (work that a restart redid is not known);
- the ranks' logs, where training frameworks say where they resumed from ("Restoring states
  from the checkpoint", "Continuing training from global step 20", "resumed from step 20");
- the rank's own last lines when it failed: its exception, or what it printed last.

    from nonstop.report.unmeasured import estimate, last_lines
    estimate(run_dir, wall_s=120.0)     # None when nothing at all was seen
    last_lines(run_dir, attempt=0, rank=1)

Standard library only.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

from nonstop import rundir
from nonstop.events import EventWarning, iter_events

NOT_MEASURED = "the script does not report steps through nonstop.runtime"

# Lines in which training code says it resumed; the step is the first number after "step".
RESUME = re.compile(
    r"(?i)(resum\w*|restor\w*|continu\w* training|load\w* (?:a |the )?checkpoint)"
    r".{0,120}?(global[_ ]step|step|epoch)\D{0,3}(\d+)"
)
# Noise a rank's log ends with that says nothing about the failure itself.
NOISE = re.compile(r"^(\[W\d{4} |W\d{4} |\[rank\d+\]:\[W)|^\s*$")
EXCEPTION = re.compile(
    r"^(?:\[rank\d+\]:\s*)?([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit))"
    r"(?::\s.*)?$"
)


def _heartbeats(path: Path) -> tuple[float | None, float | None, int]:
    """(start, end, collectives completed) of one rank's event file: bounds, as wide as one
    heartbeat interval either side, on when its completed collectives advanced. `start` is the
    last heartbeat before the count first moved, `end` the first after it last moved."""
    start = end = None
    done, moved, before = -1, False, None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventWarning)
        for e in iter_events(path):
            if e.kind != "heartbeat":
                continue
            n = int(e.payload.get("coll_done", -1))
            if n > done:
                if start is None:
                    start = before if before is not None else e.time
                done, moved, end = n, True, e.time
            elif moved:
                end, moved = e.time, False  # the first heartbeat that saw no more progress
            before = e.time
    return start, (end if done >= 0 else None), done + 1


def resumed_from(run_dir: Path, attempt: int) -> dict[str, Any] | None:
    """The first resume line in the lowest rank's log of an attempt: {"unit" (step or
    epoch), "at", "line"}."""
    logs = sorted(
        (run_dir / "logs" / f"attempt-{attempt}").glob("rank-*.log"), key=lambda p: p.name
    )
    logs = [p for p in logs if p.name.count(".") == 1]  # rank-R.log, not .stderr/.stacks
    for path in logs[:1]:
        try:
            with open(path, errors="replace") as f:
                for line in f:
                    m = RESUME.search(line)
                    if m:
                        unit = "epoch" if m.group(2).lower() == "epoch" else "step"
                        return {"unit": unit, "at": int(m.group(3)), "line": line.strip()[:200]}
        except OSError:
            return None
    return None


def estimate(run_dir: str | Path, *, wall_s: float) -> dict[str, Any]:
    """The estimate for a run without steps: per attempt the collectives the ranks were seen to
    complete and the span in which they advanced, what the logs say it resumed from, and an upper bound
    on ETTR. `measured` is False throughout; `basis` says what the figures rest on, or why
    there are none."""
    root = Path(run_dir)
    rd = rundir.RunDir(root)
    attempts = []
    for adir in sorted((root / "events").glob("attempt-*"), key=lambda p: _num(p.name)):
        n = _num(adir.name)
        spans = [_heartbeats(p) for p in sorted(adir.glob("rank-*.jsonl"))]
        seen = [s for s in spans if s[0] is not None and s[1] is not None]
        row: dict[str, Any] = {"attempt": n, "collectives": None, "active_s": None}
        if seen:  # from the first rank's first progress to the last rank's last
            first = min(s[0] for s in seen if s[0] is not None)
            last = max(s[1] for s in seen if s[1] is not None)
            # the most any rank was seen to complete: a lower bound (a heartbeat every 0.5 s
            # misses what an attempt did after its last one)
            row["collectives"] = max(s[2] for s in spans)
            row["active_s"] = max(0.0, last - first)
        resumed = resumed_from(rd.root, n)
        if resumed:
            row["resumed_from"] = resumed
        attempts.append(row)
    active = [a["active_s"] for a in attempts if a["active_s"] is not None]
    out: dict[str, Any] = {"measured": False, "why": NOT_MEASURED, "attempts": attempts}
    if active:
        total = sum(active)
        out["basis"] = (
            "collective progress from the flight recorder (the bootstrap's "
            "heartbeats, every 0.5 s): the time in which the ranks' completed "
            "collectives advanced; an upper bound, since work a restart redid is "
            "not known"
        )
        out["collective_s"] = total
        out["ettr_at_most"] = min(1.0, total / wall_s) if wall_s > 0 else None
    else:
        out["basis"] = (
            "none: no collective was seen either (no process group, or a --no-python program)"
        )
        out["collective_s"] = out["ettr_at_most"] = None
    return out


def last_lines(run_dir: str | Path, *, attempt: int, rank: int | None, n: int = 8) -> list[str]:
    """The rank's own last lines in its log: from its last exception header on (a Python
    traceback's final line, with what it printed just before), else what it printed last;
    torch's warnings and blank lines left out."""
    if rank is None:
        return []
    path = rundir.RunDir(Path(run_dir)).log(attempt, rank)
    try:
        with open(path, "rb") as f:
            f.seek(max(0, path.stat().st_size - 64_000))
            text = f.read().decode(errors="replace")
    except OSError:
        return []
    lines = [ln.rstrip() for ln in text.splitlines() if not NOISE.search(ln)]
    return [ln[:300] for ln in lines[-n:]]


def exception_line(lines: list[str]) -> str:
    """The last 'SomeError: message' line, if any."""
    for line in reversed(lines):
        if EXCEPTION.match(line.strip()):
            return line.strip()
    return ""


BOILERPLATE = ("To enable traceback see", "{'message'")


def failure_detail(failure: dict[str, Any], lines: list[str]) -> str:
    """A failure's detail in one line: the supervisor's reason unless it is torchelastic's
    boilerplate (or its raw error-file dict), then the rank's exception or last line."""
    message = str(failure.get("message") or "")
    own = exception_line(lines) or (lines[-1] if lines else "")
    if any(b in message for b in BOILERPLATE) and not own:  # a ledger from before the fix
        own = "no exception and no output (the process ended itself with this code)"
    if own and (not message or any(b in message for b in BOILERPLATE)):
        head = message.split(":", 1)[0] if message.startswith("exit") else ""
        return f"{head}: {own}" if head else own
    return message or str(failure.get("signal") or f"exit {failure.get('exit_code')}")


def _num(name: str) -> int:
    try:
        return int(name.rsplit("-", 1)[1])
    except (IndexError, ValueError):
        return -1
