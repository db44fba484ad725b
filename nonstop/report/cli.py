"""`nonstop report RUN_DIR [--json]`: where a run's time went.

nonstop report runs/20261129-201500-a1b2c3
nonstop report runs/20261129-201500-a1b2c3 --json | jq .ettr
"""

from __future__ import annotations

import argparse
import json
import warnings

from nonstop.events import EventWarning
from nonstop.ledger import summarize_run


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nonstop report", description=__doc__.split("\n")[0])
    p.add_argument("run_dir", help="a run directory made by `nonstop run` or `nonstop demo`")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return p


def main(argv: list[str]) -> int:
    a = build_parser().parse_args(argv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EventWarning)
        summary = summarize_run(a.run_dir).to_dict()
    skipped = [str(w.message) for w in caught if issubclass(w.category, EventWarning)]
    if a.json:
        summary["warnings"] = skipped
        print(json.dumps(summary, indent=2))
        return 0
    from nonstop.report.terminal import print_summary

    for msg in skipped[:10]:
        print(f"warning: {msg}")
    print_summary(summary)
    return 0
