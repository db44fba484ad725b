"""`nonstop diagnose` and `nonstop triage`: one verdict, printed for humans or as JSON.

    nonstop diagnose RUN_DIR [--attempt N] [--json]          # everything the run directory holds
    nonstop diagnose --flight DIR [--world-size N] [--run-dir RUN_DIR] [--json]
    nonstop triage FILE|DIR|-... [--json]                    # classify log files

Exit status 0 when a diagnosis was made (whatever it says), 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from nonstop.diagnose import triage
from nonstop.diagnose.verdict import Verdict
from nonstop.errors import UserError


def _how(v: Verdict) -> str:
    """What the confidence is: a row's, or (no row matched) a guess's probability, from a log's
    words (the fallback) or a description's (nonstop.diagnose.prose), or an operator's stated
    conclusion's (nonstop.diagnose.advice)."""
    if not v.guessed:
        return "confidence"
    source = v.details.get("guess", {}).get("from")
    if source == "operator":  # nonstop.diagnose.advice: a person's conclusion, not evidence
        return "advice from an operator's words, confidence"
    return "guess from a description, p" if source == "description" else "guess, p"


def _print(v: Verdict, *, limit: int = 12) -> None:
    print(textwrap.fill(v.verdict, width=100))
    print(f"\ncategory: {v.category}   action: {v.action}   {_how(v)}: {v.confidence:.2f}")
    for c in v.culprits[:limit]:
        print(f"culprit: rank {c.rank}  host {c.host}  gpu {c.gpu}")
        for e in c.evidence[:3]:
            print(f"    {e}")
    if len(v.culprits) > limit:
        print(f"... and {len(v.culprits) - limit} more culprit(s) (see --json)")
    if v.evidence:
        print("evidence:")
        for e in v.evidence[:limit]:
            print(f"  {e}")


def _flight_hosts(folder: Path, run_dir: str | None) -> dict[int, str]:
    from nonstop.diagnose import join
    from nonstop.rundir import RunDir, open_existing  # not at the top: triage needs neither

    rd: RunDir | None = None
    if run_dir:
        rd = open_existing(run_dir)
    elif re.fullmatch(r"attempt-\d+", folder.name) and folder.parent.name == "flight":
        rd = RunDir(folder.parent.parent)  # a run directory's own flight/attempt-N
    if rd is None:
        return {}
    m = re.fullmatch(r"attempt-(\d+)", folder.name)
    return join.rank_hosts(rd, int(m.group(1)) if m else join.latest_attempt(rd))


def main(argv: list[str]) -> int:
    # here, not at the top: `nonstop triage` (triage_main) needs none of them
    from nonstop.diagnose import flight, history, join

    p = argparse.ArgumentParser(prog="nonstop diagnose", description=__doc__.split("\n")[0])
    p.add_argument("run_dir", nargs="?", help="a run directory (nonstop run / nonstop demo)")
    p.add_argument(
        "--attempt",
        type=int,
        default=None,
        help="one attempt to diagnose (default: the whole run, every attempt)",
    )
    p.add_argument("--flight", metavar="DIR", help="analyze a folder of flight-recorder dumps")
    p.add_argument("--world-size", type=int, default=None, help="ranks expected (for --flight)")
    p.add_argument("--run-dir", dest="hosts_from", help="map --flight ranks to hosts from a run")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes that read dumps, logs and event streams (default: one per core)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args(argv)
    if a.flight:
        folder = Path(a.flight)
        v = flight.analyze(
            folder,
            hosts=_flight_hosts(folder, a.hosts_from),
            world_size=a.world_size,
            workers=a.workers,
        )
        if history.weak(v):  # nothing found, or nothing readable: no recommendation
            history.without_recommendation(v, "No action is recommended on this evidence.")
    elif a.run_dir and a.attempt is None:
        v = history.diagnose_history(a.run_dir)  # the whole run: every attempt, the ledger
    elif a.run_dir:
        v = join.diagnose_run(a.run_dir, a.attempt, workers=a.workers)
        if history.weak(v):
            history.without_recommendation(v, "No action is recommended on this evidence.")
    else:
        raise UserError("give a run directory, or --flight DIR (see nonstop diagnose --help)")
    if a.json:
        print(json.dumps(v.to_dict(), default=str))
    else:
        _print(v)
    return 0


STDIN = "<stdin>"


def _spool_stdin(spool: Path) -> None:
    """Standard input into `spool`; a terminal or an unreadable stream is one clear line."""
    stdin = sys.stdin
    try:
        if stdin is None or stdin.isatty():
            raise UserError(
                "-: standard input is a terminal; pipe a log in "
                "(e.g. journalctl -k | nonstop triage -)"
            )
        with open(spool, "wb") as out:
            shutil.copyfileobj(getattr(stdin, "buffer", stdin), out, 1 << 20)
    except (OSError, ValueError, AttributeError) as e:  # closed, captured, not a stream
        raise UserError(f"-: standard input could not be read ({e})") from None


def _log_files(args: list[str], spool: Path) -> list[str]:
    """The files `nonstop triage` reads: each file as given, each directory's regular files
    (recursively, in name order, hidden ones left out), and `-` as standard input spooled to
    `spool` (a pipe cannot be read twice; triage reads a file's tail again for its guess)."""
    files: list[str] = []
    for arg in args:
        if arg == "-":
            if str(spool) in files:
                continue  # standard input is read once
            _spool_stdin(spool)
            files.append(str(spool))
        elif os.path.isdir(arg):
            found = [
                os.path.join(top, name)
                for top, _, names in os.walk(arg)
                for name in names
                if not name.startswith(".") and os.path.isfile(os.path.join(top, name))
            ]
            if not found:
                raise UserError(f"{arg}: a directory with no files in it")
            files += sorted(found)
        elif os.path.isfile(arg):
            files.append(arg)
        else:
            raise UserError(f"{arg}: no such log file")
    return files


def _name_stdin(v: Verdict, spool: str) -> None:
    """Standard input's verdict and evidence say `<stdin>`, not the spool file's path."""

    def named(text: str) -> str:
        return STDIN + text[len(spool) :] if text.startswith(spool) else text

    if v.details.get("file") == spool:
        v.details["file"] = STDIN
    for e in v.details.get("evidence_lines", []):
        if isinstance(e, dict) and e.get("file") == spool:
            e["file"] = STDIN
    v.evidence = [named(e) for e in v.evidence]
    for c in v.culprits:
        c.evidence = [named(e) for e in c.evidence]


def triage_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="nonstop triage", description="classify log files")
    p.add_argument(
        "files",
        nargs="+",
        help="log files (any size: they are streamed), directories (every file in them) or - "
        "(standard input)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="nonstop-triage-") as tmp:
        spool = Path(tmp) / "stdin.log"
        return _triage(_log_files(a.files, spool), str(spool), a.json)


def _triage(files: list[str], spool: str, as_json: bool) -> int:
    paths: list[str | Path] = list(files)
    # text a user hands us may be a reporter's description: read it too (never a run's logs)
    per, joint = triage.triage_files(paths, descriptions=True)
    for v in [*per, joint]:
        _name_stdin(v, spool)
    if as_json:
        out: dict[str, Any] = {
            "files": [triage.file_json(v) for v in per],
            "overall": joint.to_dict(),
        }
        print(json.dumps(out, default=str))
        return 0
    for v in per:
        j = triage.file_json(v)
        c = j["culprit"]
        how = _how(v)
        print(
            f"{j['file']}: {j['category']} -> {j['action']} ({how} {j['confidence']})"
            f"  host={c['host']} rank={c['rank']} gpu={c['gpu']}"
        )
        shown = list({e["line"]: e for e in j["evidence"]}.values())  # one line, several rows
        for e in shown[:3]:
            print(f"    {e['line']}: [{e['signature']}] {e['text']}")
    if len(per) > 1:
        print("\noverall:")
        _print(joint, limit=6)
    return 0
