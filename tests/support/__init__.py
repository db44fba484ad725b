"""Helpers shared by the test suite, importable from any test (`tests/` is on pytest's
`pythonpath`, pyproject.toml): `from support import nonstop_run, rows`.

    procs     `nonstop` subprocesses with a clean environment: run to the end, or start one
              and finish it later; a free port; killing a process tree
    scripts   the unmodified (never imports nonstop) gloo script, and writing scripts
    rundir    reading a run directory: ledger rows, a rank's events, steps and pid
    clients   real client scripts under torchrun and under `nonstop run`, compared
    bounded   a per-example time bound for property tests, and file digests
    slurmd    what the two test Slurm clusters share (slurm_cluster.py, slurm_nodes.py)
    prefilter the rows triage's prefilter finds, against the full regexes (row tests)

A submodule here must not share a name with an export below: importing it would replace
the export on the package (support/rows.py once shadowed rows()).

conftest.py files hold fixtures and hooks only (tests/README.md).
"""

from support.procs import TINY, clean_env, finish, free_port, nonstop_cli, nonstop_run, start
from support.rundir import last_step, pid_of, rank_events, rows
from support.scripts import unmodified, write_script

__all__ = [
    "TINY",
    "clean_env",
    "finish",
    "free_port",
    "last_step",
    "nonstop_cli",
    "nonstop_run",
    "pid_of",
    "rank_events",
    "rows",
    "start",
    "unmodified",
    "write_script",
]
