"""torchrun's own failure summary, read from a launcher's console output.

    from nonstop.diagnose import elastic
    root = elastic.summary("torchrun.out", from_line=48)   # the ChildFailedError line
    root.rank, root.host, root.exitcode, root.message, root.others

When a worker fails, torchrun (torch.distributed.elastic) raises `ChildFailedError` and prints
every failed rank in a fixed template (torch/distributed/elastic/multiprocessing/errors):

    ============================================================
    train.py FAILED
    ------------------------------------------------------------
    Failures:                              ("Other Failures:" before torch 2.x's reorder)
    [1]:
      time      : 2026-12-05_16:45:16
      host      : node-a
      rank      : 0 (local_rank: 0)
      exitcode  : -15 (pid: 32372)  (SIGTERM)
      error_file: /tmp/torchelastic_.../attempt_0/0/error.json
      traceback : Traceback (most recent call last): ...
    ------------------------------------------------------------
    Root Cause (first observed failure):
    [0]:
      ... the same fields for the rank that failed first ...
    ============================================================

The first-observed rank is the root cause; the ranks under "Failures" are mostly its victims
(SIGTERMed by the agent, or their collective failed because the root died), and their
tracebacks hold the peer-went-away lines that triage would otherwise name. "First" is by
timestamps in whole seconds: an error file's, or, for a rank that wrote none (SIGKILLed,
segfaulted, no `@record`), the moment the agent saw it die. So a victim that wrote its error
file in the root's second, or before the agent noticed a killed root, may be printed as the
root cause (seen in CI: tests/diagnose/recorded/torchrun-kill-root-is-victim.log): nonstop.diagnose.triage then takes the first entry
that is no echo (`echo_of`). Every line may carry
a prefix (`kubectl logs --prefix`'s `[pod/NAME/CONTAINER] `, `--timestamps`' RFC 3339 time,
`srun --label`'s `0: `): fields are found by key, wherever they start on the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SUMMARY_LINES = 4000  # read after the ChildFailedError line: a summary of many ranks' tracebacks
# what a wrapper puts before each line: `kubectl logs --prefix` ("[pod/NAME/CONTAINER] "),
# `--timestamps` (RFC 3339 with nanoseconds), `srun --label` ("1: ")
_PREFIX = re.compile(
    r"^(?:\[pod/[^\]\s]*\] ?)?(?:\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)? ?)?(?:\d+: )?"
)
_ROOT = re.compile(r"Root Cause \(first observed failure\):\s*$")
_OTHERS = re.compile(r"(?:^|[\s\]:])(?:Other )?Failures:\s*$")
_BORDER = re.compile(r"(?:^|\s)(?:={8,}|-{8,})\s*$")
_ENTRY = re.compile(r"(?:^|\s)\[\d+\]:\s*$")
_FIELD = re.compile(r"(?:^|\s)(time|host|rank|exitcode|error_file|traceback)\s*: ?(.*?)\s*$")
_RANK = re.compile(r"^(\d+)(?: \(local_rank: (\d+)\))?")
_EXITCODE = re.compile(r"^(-?\d+)")
NO_TRACEBACK = "To enable traceback see:"
"""What torchrun's summary prints as a rank's traceback when the rank wrote no error file (its
main not wrapped in torch's `@record`): a pointer to the docs, not the rank's error."""


@dataclass
class Summary:
    """One failed rank's entry in torchrun's failure summary, and where it is in the file."""

    rank: int
    local_rank: int | None = None
    host: str | None = None
    exitcode: int | None = None
    error_file: str | None = None
    message: str = ""
    """The entry's traceback's last line (its exception), or torchrun's signal line."""
    lines: tuple[int, int] = (0, 0)
    """First and last line of the entry (1-based, inclusive)."""
    first_observed: bool = True
    """torchrun's "Root Cause (first observed failure)"; False: one of the other "Failures"."""
    others: list[Summary] = field(default_factory=list)
    """The other entries (of the root cause only)."""
    echo_of: Summary | None = None
    """Set by the reader that found torchrun's first observed failure to be this one's echo
    (SIGTERMed by the agent, or its collective lost a peer): that entry."""

    def describe(self) -> str:
        where = f"rank {self.rank}" + (f" on {self.host}" if self.host else "")
        code = f", exitcode {self.exitcode}" if self.exitcode is not None else ""
        said = f": {self.message}" if self.message else ""
        what = "root cause (first observed failure)" if self.first_observed else "failure"
        echo = (
            f" (its first observed failure, rank {self.echo_of.rank}, is an echo: "
            f"exitcode {self.echo_of.exitcode})"
            if self.echo_of
            else ""
        )
        return f"torchrun's failure summary: {what} {where}{code}{said}{echo}"


def summary(path: str | Path, from_line: int) -> Summary | None:
    """torchrun's failure summary printed after line `from_line` of `path` (the line that names
    ChildFailedError): its root cause, with the other failed ranks in `others`; None when none
    follows (a quoted name, a summary cut off before its root cause's fields)."""
    try:
        with open(path, "rb") as f:
            for _ in range(from_line):
                if not f.readline():
                    return None
            lines = [
                f.readline().decode("utf-8", "replace").rstrip("\r\n") for _ in range(SUMMARY_LINES)
            ]
    except OSError:
        return None
    return parse(lines, first_line=from_line + 1)


def _entry(fields: dict[str, str], text: str, lines: tuple[int, int], root: bool) -> Summary | None:
    rank = _RANK.match(fields.get("rank", ""))
    if rank is None:
        return None
    code = _EXITCODE.match(fields.get("exitcode", ""))
    error_file = fields.get("error_file")
    tb = fields.get("traceback", "")
    if tb.startswith(NO_TRACEBACK):  # torchrun's placeholder where the rank wrote no error file
        tb = ""
    message = tb if tb and not tb.startswith("Traceback (most recent call last)") else text
    return Summary(
        rank=int(rank.group(1)),
        local_rank=int(rank.group(2)) if rank.group(2) else None,
        host=fields.get("host") or None,
        exitcode=int(code.group(1)) if code else None,
        error_file=None if error_file in (None, "", "<N/A>") else error_file,
        message=message[:400],
        lines=lines,
        first_observed=root,
    )


def parse(lines: list[str], *, first_line: int = 1) -> Summary | None:
    """The summary in `lines` (line `first_line` of the file first); None without a root cause."""
    section: str | None = None  # "root" or "others"
    got: list[Summary] = []
    fields: dict[str, str] = {}
    text, start = "", 0

    def close(end: int) -> None:
        nonlocal fields, text, start
        if start and section and (e := _entry(fields, text, (start, end), section == "root")):
            got.append(e)
        fields, text, start = {}, "", 0

    for i, raw in enumerate(lines):
        no = first_line + i
        line = _PREFIX.sub("", raw, count=1)
        if _ROOT.search(line):
            close(no - 1)
            section = "root"
            continue
        if _OTHERS.search(line) and section != "root":
            close(no - 1)
            section = "others"
            continue
        if section is None:
            continue
        border, entry = _BORDER.search(line), _ENTRY.search(line)
        if border or entry:
            close(no - 1)
            if border and section == "root":
                break
            start = no if entry else 0
            continue
        if start:
            # the fields, up to the traceback's first line; then its text (an exception's
            # message may hold "host: ...")
            if "traceback" not in fields and (m := _FIELD.search(line)):
                fields.setdefault(m.group(1), m.group(2))
            elif line.strip():
                text = line.strip()
    else:
        close(first_line + len(lines) - 1)  # cut after the root cause's entry
    roots = [e for e in got if e.first_observed]
    if not roots:
        return None
    roots[0].others = [e for e in got if not e.first_observed]
    return roots[0]
