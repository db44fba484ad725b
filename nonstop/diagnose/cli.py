"""`nonstop diagnose` and `nonstop triage`: one verdict, printed for humans or as JSON.

    nonstop diagnose RUN_DIR [--attempt N] [--json]          # everything the run directory holds
    nonstop diagnose --flight DIR [--world-size N] [--run-dir RUN_DIR] [--json]
    nonstop diagnose DUMP_DIR [--world-size N] [--json]      # a folder of torch's dumps, as --flight
    nonstop triage FILE|DIR|-... [--json]                    # classify log files

Exit status 0 when a diagnosis was made (whatever it says), 2 on bad input.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

from nonstop.diagnose import inputs, triage
from nonstop.diagnose.verdict import Verdict
from nonstop.errors import UserError, json_text


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


def _dump_folder(path: Path) -> bool:
    """A folder of flight-recorder dumps that is no run directory (which holds dumps too)."""
    from nonstop.diagnose import flight
    from nonstop.rundir import RunDir

    if not path.is_dir():
        return False
    rd = RunDir(path)
    if rd.config.exists() or rd.ledger.exists() or (path / "events").is_dir():
        return False
    return flight.holds_dumps(path)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="nonstop diagnose", description=__doc__.split("\n")[0])
    p.add_argument(
        "run_dir",
        nargs="?",
        help="a run directory (nonstop run / nonstop demo), or a folder of flight-recorder dumps",
    )
    p.add_argument(
        "--attempt",
        type=int,
        default=None,
        help="one attempt to diagnose (default: the whole run, every attempt)",
    )
    p.add_argument("--flight", metavar="DIR", help="analyze a folder of flight-recorder dumps")
    p.add_argument("--world-size", type=int, default=None, help="ranks expected (for dumps)")
    p.add_argument("--run-dir", dest="hosts_from", help="map --flight ranks to hosts from a run")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes that read dumps, logs and event streams (default: one per core)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args(argv)
    from nonstop.events import EventWarning  # here: `nonstop triage` reads no event stream

    # bad event lines (a stream cut or damaged) are said in a few lines of our own, not one
    # Python warning with a source line per bad line: 500 bad lines printed 1,000
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EventWarning)
        v = _diagnose(a)
    # each once: a stream is read more than once (the hosts, the straggler replay)
    skipped = list(
        dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, EventWarning))
    )
    for w in caught:
        if not issubclass(w.category, EventWarning):
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    for msg in skipped[:3]:
        print(f"nonstop diagnose: warning: {msg}", file=sys.stderr)
    if len(skipped) > 3:
        print(f"nonstop diagnose: warning: ... and {len(skipped) - 3} more", file=sys.stderr)
    if a.json:
        print(json_text(v.to_dict(), who="nonstop diagnose", default=str))
    else:
        _print(v)
    return 0


def _diagnose(a: argparse.Namespace) -> Verdict:
    # here, not at the top: `nonstop triage` (triage_main) needs none of them
    from nonstop.diagnose import flight, history, join
    from nonstop.rundir import open_existing

    if a.run_dir and not a.flight and _dump_folder(Path(a.run_dir)):
        if a.attempt is not None:
            raise UserError(f"{a.run_dir}: a folder of flight-recorder dumps has no attempts")
        a.flight = a.run_dir  # torch's own dumps (TORCH_FR_DUMP_TEMP_FILE), no run directory
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
        # a ledger that is not one is an error here as for the whole run (history), not a
        # verdict without the recorded root cause, which may name a rank that died of a peer
        rd = open_existing(a.run_dir)
        known = {r.attempt for r in history.read_attempts(rd.ledger)} | join.attempts_on_disk(rd)
        if a.attempt not in known:  # it said "Nothing conclusive for attempt 99"
            have = ", ".join(map(str, sorted(known))) or "none"
            raise UserError(f"{a.run_dir}: no attempt {a.attempt} (attempts: {have})")
        v = join.diagnose_run(a.run_dir, a.attempt, workers=a.workers)
        if history.weak(v):
            history.without_recommendation(v, "No action is recommended on this evidence.")
    else:
        raise UserError("give a run directory, or --flight DIR (see nonstop diagnose --help)")
    return v


def _name_inputs(v: Verdict, names: dict[str, str]) -> None:
    """A verdict's files and evidence say what the user named (`<stdin>`, `kern.log.2.gz`),
    not the spool file triage read (nonstop.diagnose.inputs)."""

    def named(text: str) -> str:
        for spooled, name in names.items():
            if text.startswith(spooled):
                return name + text[len(spooled) :]
        return text

    if v.details.get("file") in names:
        v.details["file"] = names[v.details["file"]]
    for e in v.details.get("evidence_lines", []):
        if isinstance(e, dict) and e.get("file") in names:
            e["file"] = names[e["file"]]
    v.evidence = [named(e) for e in v.evidence]
    for c in v.culprits:
        c.evidence = [named(e) for e in c.evidence]


def triage_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="nonstop triage", description="classify log files")
    p.add_argument(
        "files",
        nargs="+",
        help="log files (any size: they are streamed; gzip, xz, bzip2 and UTF-16 are read too), "
        "directories (every file in them), pipes or - (standard input)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args(argv)
    # many plain files (rank logs): the search starts at once, and each file is opened once,
    # to count its lines, keep its tail and see that it is text (a sixth of the time on 4,096
    # rank logs); anything else is collected (converted, refused) first, as before
    files = inputs.plain_files(a.files)
    scans = triage.scan_unread(files) if files is not None else None
    if files is not None and scans is not None:
        return _triage(inputs.Inputs(files=files), a.json, scans)
    import tempfile  # here: the rank logs above need no spool folder (7 ms of the start)

    with tempfile.TemporaryDirectory(prefix="nonstop-triage-") as tmp:
        return _triage(inputs.collect(a.files, Path(tmp)), a.json)


def _triage(got: inputs.Inputs, as_json: bool, scans: list[triage.Scan] | None = None) -> int:
    paths: list[str | Path] = list(got.files)
    # text a user hands us may be a reporter's description: read it too (never a run's logs)
    per, joint = triage.triage_files(paths, descriptions=True, scans=scans)
    for v in [*per, joint]:
        _name_inputs(v, got.names)
    if as_json:
        out: dict[str, Any] = {
            "files": [triage.file_json(v) for v in per],
            "overall": joint.to_dict(),
        }
        print(json_text(out, who="nonstop triage", default=str))
        return 0
    for v in per:
        j = triage.file_json(v)
        c = j["culprit"]
        how = _how(v)
        print(
            f"{j['file']}: {j['category']} -> {j['action']} ({how} {j['confidence']})"
            f"  host={c['host']} rank={c['rank']} gpu={c['gpu']}"
        )
        if v.verdict == triage.EMPTY:
            print(f"    {v.verdict}")
        if root := v.details.get("torchrun_root_cause"):
            print(f"    {root['line']}: {root['said']}")
        shown = list({e["line"]: e for e in j["evidence"]}.values())  # one line, several rows
        for e in shown[:3]:
            print(f"    {e['line']}: [{e['signature']}] {e['text']}")
    if len(per) > 1:
        print("\noverall:")
        _print(joint, limit=6)
    return 0
