"""Hooks for the whole suite (fixtures and hooks only: shared helpers live in tests/support).

At the end of a run, the wall time spent in each top-level test directory (setup, call and
teardown of its tests, summed) and the session's total, so that a slow directory shows up in
every CI log next to --durations' slowest tests (tests/README.md)."""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import PurePosixPath

import pytest


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

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.spent:
            return
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
        tr.write_line(
            f"{'total':<{width}}  {total:8.1f} s  {tests:4d} tests (in the tests "
            f"{in_tests:.1f} s, collection and the rest {total - in_tests:.1f} s)"
        )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(WallTime(), "nonstop-wall-time")


@pytest.fixture(autouse=True)
def _fresh_logging():
    """nonstop.log's setup is process-wide (the role decides stdout or stderr): a test that
    ran `nonstop run`'s code in this process must not change where the next test's lines go."""
    yield
    from nonstop import log

    log.reset()
