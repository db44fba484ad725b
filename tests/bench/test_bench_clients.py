"""bench_clients's one observer: the client's step log, read the same way for every arm."""

from __future__ import annotations

import pytest

from benchmarks.bench_clients import recovery


def test_recovery_is_from_the_fault_until_every_rank_trains_in_the_next_attempt(tmp_path):
    log = tmp_path / "steps.log"
    log.write_text(
        "100.0 0 11 0\n100.1 0 11 1\n100.5 0 12 0\n100.6 0 12 1\n"
        "100.7 fault crash 12\n"
        "130.0 1 10 0\n131.5 1 10 1\n132.0 1 11 0\n"
    )
    secs, redone = recovery(log)
    assert secs == pytest.approx(131.5 - 100.7)  # the last rank's first step of attempt 1
    assert redone == 2  # crashed at 12, resumed at 10


def test_a_run_without_a_restart_is_an_error_not_a_figure(tmp_path):
    log = tmp_path / "steps.log"
    log.write_text("100.0 0 11 0\n100.7 fault crash 12\n")
    with pytest.raises(RuntimeError, match="no fault or no restarted attempt"):
        recovery(log)
