"""The run ledger (SQLite) and goodput accounting.

    from nonstop.ledger import open_run, summarize_run, observed_rates
    with open_run("runs/20261129-201500-a1b2c3") as ledger:   # ingests new events first
        print(summarize(ledger).to_dict()["ettr"])

Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

from nonstop import rundir
from nonstop.ledger.db import SCHEMA_VERSION, Ledger
from nonstop.ledger.goodput import BADPUT, AttemptSpan, Goodput, StepSpan, Timeline, account
from nonstop.ledger.ingest import IngestStats, ingest_run
from nonstop.ledger.rates import ObservedRates, rates_from_ledger
from nonstop.ledger.timeline import RunSummary, load_timeline, summarize

__all__ = [
    "BADPUT",
    "SCHEMA_VERSION",
    "AttemptSpan",
    "Goodput",
    "IngestStats",
    "Ledger",
    "ObservedRates",
    "RunSummary",
    "StepSpan",
    "Timeline",
    "account",
    "ingest_run",
    "load_timeline",
    "observed_rates",
    "open_run",
    "rates_from_ledger",
    "summarize",
    "summarize_run",
]


def open_run(run_dir: str | os.PathLike[str], *, ingest: bool = True) -> Ledger:
    """Open a run directory's ledger (creating it from the events if absent) and ingest what is
    new. UserError if the path is not a run directory or the ledger is corrupt or newer."""
    rd = rundir.open_existing(Path(run_dir))
    ledger = Ledger.open(rd.ledger)
    if ingest:
        try:
            ingest_run(rd, ledger)
        except BaseException:
            ledger.close()
            raise
    return ledger


def summarize_run(run_dir: str | os.PathLike[str]) -> RunSummary:
    with open_run(run_dir) as ledger:
        return summarize(ledger)


def observed_rates(run_dir: str | os.PathLike[str]) -> ObservedRates:
    """Failure rates and costs measured in a run (for simulate --from-run)."""
    with open_run(run_dir) as ledger:
        return rates_from_ledger(ledger)
