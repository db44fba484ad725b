"""`nonstop report RUN_DIR [RUN_B] [--json] [--html [OUT]] [--tensorboard OUTDIR]`: where a run's
time went.

nonstop report runs/20261129-201500-a1b2c3                  # terminal: ETTR, badput, failures
nonstop report runs/20261129-201500-a1b2c3 --json | jq .ettr
nonstop report runs/20261129-201500-a1b2c3 --html           # -> RUN_DIR/report.html
nonstop report runs/20261129-201500-a1b2c3 --html /tmp/r.html --tensorboard tb/
nonstop report runs/before runs/after [--json]              # two runs side by side, with B - A
"""

from __future__ import annotations

import argparse
import sys
from typing import IO

from nonstop.errors import UserError, json_text
from nonstop.report import data as rd
from nonstop.report.compare import compare, full_summary


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="nonstop report",
        description="Where a run's time went (terminal, JSON, HTML, TensorBoard), or two runs "
        "side by side.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  " + "\n  ".join(__doc__.strip().split("\n")[3:]),
    )
    p.add_argument("run_dir", help="a run directory made by `nonstop run` or `nonstop demo`")
    p.add_argument(
        "run_b", nargs="?", default=None, help="a second run directory: compare the two (B - A)"
    )
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument(
        "--html",
        nargs="?",
        const="",
        default=None,
        metavar="OUT",
        help="also write a self-contained HTML page (default RUN_DIR/report.html)",
    )
    p.add_argument(
        "--tensorboard",
        default=None,
        metavar="OUTDIR",
        help="also export the scalars for TensorBoard into OUTDIR/<run_id>/",
    )
    return p


def _warn(msgs: list[str], out: IO[str], most: int = 10) -> None:
    """What reading the run skipped (bad event lines, ...), the first `most` and how many more."""
    for msg in msgs[:most]:
        print(f"warning: {msg}", file=out)
    if len(msgs) > most:
        print(f"warning: ... and {len(msgs) - most} more", file=out)


def main(argv: list[str]) -> int:
    a = build_parser().parse_args(argv)
    if a.run_b is not None:
        if a.html is not None or a.tensorboard is not None:
            raise UserError("--html and --tensorboard take one run; compare runs without them")
        return _compare(a.run_dir, a.run_b, as_json=a.json)
    from nonstop.report import replica_groups

    if replica_groups.is_replica_run(a.run_dir):  # `nonstop run --replica-groups G`
        return _replica_groups(a)
    data = rd.load(a.run_dir)
    summary = full_summary(data)
    from nonstop.report.numerics import numerical_events  # NaN, spikes, SDC: docs/health.md

    summary["numerical"] = numerical_events(a.run_dir, data.actions, summary["failures"])
    written = []
    if a.html is not None:
        from nonstop.report import html

        written.append(("HTML report", html.write(data, a.html or None)))
    if a.tensorboard is not None:
        from nonstop.report import tb_export

        written.append(("TensorBoard events", tb_export.export(data, a.tensorboard)))
    if a.json:
        _warn(data.warnings, sys.stderr)  # stdout stays one JSON object
        print(json_text(summary, who="nonstop report", indent=2))
        for what, path in written:
            print(f"wrote {what}: {path}", file=sys.stderr)
        return 0
    from nonstop.report.terminal import print_summary

    _warn(data.warnings, sys.stdout)
    print_summary(summary)
    for what, path in written:
        print(f"wrote {what}: {path}")
    return 0


def _replica_groups(a: argparse.Namespace) -> int:
    """The job across its replica groups (each group's own report is the run directory's)."""
    from pathlib import Path

    from nonstop.report import replica_groups

    if a.tensorboard is not None:
        raise UserError("--tensorboard takes one group's run directory: <run dir>/groups/g<i>")
    summary = replica_groups.summarize(a.run_dir)
    written = None
    if a.html is not None:
        written = Path(a.html) if a.html else Path(a.run_dir) / "report.html"
        written.write_text(replica_groups.html(summary), encoding="utf-8")
    if a.json:
        print(json_text(summary, who="nonstop report", indent=2))
    else:
        replica_groups.print_summary(summary)
    if written is not None:
        print(f"wrote HTML report: {written}", file=sys.stderr if a.json else sys.stdout)
    return 0


def _compare(run_a: str, run_b: str, *, as_json: bool) -> int:
    a, b = rd.load(run_a), rd.load(run_b)
    result = compare(full_summary(a), full_summary(b))
    if as_json:
        print(json_text(result, who="nonstop report", indent=2))
        return 0
    from nonstop.report.terminal import print_compare

    for msg in (a.warnings + b.warnings)[:10]:
        print(f"warning: {msg}")
    print_compare(result)
    return 0
