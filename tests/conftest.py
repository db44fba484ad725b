"""Hooks for the whole suite (fixtures and hooks only: shared helpers live in tests/support).

At the end of a run, the wall time spent in each top-level test directory (setup, call and
teardown of its tests, summed) and the session's total, so that a slow directory shows up in
every CI log next to --durations' slowest tests (tests/README.md).

Under pytest-xdist (`make test` runs two workers) the tests marked slow are handed out first,
so that no worker is left with a long end-to-end test after the other has finished, and each
worker builds its own namespace cluster (tests/support/cluster.py): gw0 the default `nsc` on
10.77.0, gw<n> `nsc<n>` on 10.<77-n>.0, so that no worker waits for the other's cluster tests
(they held one cluster by turns: 160 s of waiting in one setup). A prefix set outside wins."""

from __future__ import annotations

import os
import time
from collections import defaultdict
from pathlib import PurePosixPath

import pytest

_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_N = int(_WORKER[2:]) if _WORKER[:2] == "gw" and _WORKER[2:].isdigit() else 0
if _N > 0 and "NONSTOP_CLUSTER_PREFIX" not in os.environ:  # before support/cluster.py reads it
    os.environ["NONSTOP_CLUSTER_PREFIX"] = f"nsc{_N}"
    os.environ["NONSTOP_CLUSTER_SUBNET"] = f"10.{77 - _N}.0"


def directory(nodeid: str) -> str:
    """The top-level test directory of a test id ("tests/supervisor"; "tests/*.py" for the
    files directly under tests/)."""
    parts = PurePosixPath(nodeid.split("::", 1)[0]).parts
    if len(parts) >= 3 and parts[0] == "tests":
        return f"tests/{parts[1]}"
    return "tests/*.py" if parts and parts[0] == "tests" else (parts[0] if parts else "?")


class WallTime:
    """Seconds and tests per top-level directory, printed after the run."""

    def __init__(self) -> None:
        self.start = time.monotonic()
        self.spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])

    def pytest_sessionstart(self) -> None:
        self.start = time.monotonic()  # as pytest's own "in N s" counts, where this comes first

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        entry = self.spent[directory(report.nodeid)]
        entry[0] += report.duration
        if report.when == "call" or (report.when == "setup" and report.skipped):
            entry[1] += 1

    def pytest_terminal_summary(
        self, terminalreporter: pytest.TerminalReporter, config: pytest.Config
    ) -> None:
        if not self.spent:
            return
        workers = getattr(config.option, "numprocesses", None) or 0
        tr, total = terminalreporter, time.monotonic() - self.start
        started = getattr(tr, "_session_start", None)  # pytest's own "in N s", where it has it
        if started is not None and hasattr(started, "elapsed"):
            total = max(total, started.elapsed().seconds)
        tr.write_sep("=", "wall time per test directory")
        width = max(len(d) for d in self.spent)
        for d, (seconds, n) in sorted(self.spent.items(), key=lambda kv: -kv[1][0]):
            share = 100 * seconds / total if total else 0.0
            tr.write_line(f"{d:<{width}}  {seconds:8.1f} s  {int(n):4d} tests  {share:5.1f}%")
        tests = int(sum(n for _, n in self.spent.values()))
        in_tests = sum(s for s, _ in self.spent.values())
        if workers > 1:  # the tests' own seconds overlap: no "rest" to compute
            tr.write_line(
                f"{'total':<{width}}  {total:8.1f} s  {tests:4d} tests (in the tests "
                f"{in_tests:.1f} s, summed over {workers} workers)"
            )
            return
        tr.write_line(
            f"{'total':<{width}}  {total:8.1f} s  {tests:4d} tests (in the tests "
            f"{in_tests:.1f} s, collection and the rest {total - in_tests:.1f} s)"
        )


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controller reports, not each worker
        config.pluginmanager.register(WallTime(), "nonstop-wall-time")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist, slow tests first (a stable sort: each worker collects the same order)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=lambda it: it.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _fresh_logging():
    """nonstop.log's setup is process-wide (the role decides stdout or stderr): a test that
    ran `nonstop run`'s code in this process must not change where the next test's lines go."""
    yield
    from nonstop import log

    log.reset()
