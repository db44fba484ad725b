"""Diagnosis: flight-recorder analysis, stragglers, log triage, and one verdict per run.

Torch-free: dumps are read with a restricted unpickler, logs as bytes.

    from nonstop.diagnose import diagnose_run, StragglerDetector
    verdict = diagnose_run(run_dir)              # the supervisor's call after a failure
    verdict.to_dict()                            # verdict, category, action, culprits, ...
"""

from nonstop.diagnose.flight import analyze as analyze_flight
from nonstop.diagnose.join import diagnose_run
from nonstop.diagnose.stragglers import (
    StragglerDetector,
    StragglerReport,
    detect_stragglers,
    rank_groups,
)
from nonstop.diagnose.triage import triage_file, triage_files
from nonstop.diagnose.verdict import Culprit, Verdict

__all__ = [
    "Culprit",
    "StragglerDetector",
    "StragglerReport",
    "Verdict",
    "analyze_flight",
    "detect_stragglers",
    "diagnose_run",
    "rank_groups",
    "triage_file",
    "triage_files",
]
