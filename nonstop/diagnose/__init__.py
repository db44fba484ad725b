"""Diagnosis: flight-recorder analysis, stragglers, log triage, and one verdict per run.

Torch-free: dumps are read with a restricted unpickler, logs as bytes.

    from nonstop.diagnose import diagnose_run, StragglerDetector
    verdict = diagnose_run(run_dir)              # the supervisor's call after a failure
    verdict.to_dict()                            # verdict, category, action, culprits, ...
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Imported on first use: `nonstop triage` over many small logs should not pay for the flight
# recorder's process pool and the run joiner (a tenth of its CPU).
_LAZY = {
    "analyze_flight": ("nonstop.diagnose.flight", "analyze"),
    "diagnose_run": ("nonstop.diagnose.join", "diagnose_run"),
    "StragglerDetector": ("nonstop.diagnose.stragglers", "StragglerDetector"),
    "StragglerReport": ("nonstop.diagnose.stragglers", "StragglerReport"),
    "detect_stragglers": ("nonstop.diagnose.stragglers", "detect_stragglers"),
    "rank_groups": ("nonstop.diagnose.stragglers", "rank_groups"),
    "triage_file": ("nonstop.diagnose.triage", "triage_file"),
    "triage_files": ("nonstop.diagnose.triage", "triage_files"),
    "Culprit": ("nonstop.diagnose.verdict", "Culprit"),
    "Verdict": ("nonstop.diagnose.verdict", "Verdict"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'nonstop.diagnose' has no attribute {name!r}")
    import importlib

    module, attr = _LAZY[name]
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


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
