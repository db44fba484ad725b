"""Health checks (nonstop.supervisor.health): real directories, real processes; each check
bounded by its timeout, and a check that breaks is nonstop's error, not the node's."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from nonstop.supervisor import health
from nonstop.supervisor.health import CheckResult, HealthConfig, run_checks


def test_disk_and_memory_pass_and_fail_on_their_thresholds(tmp_path):
    ok = run_checks(["disk", "memory"], HealthConfig(paths=(tmp_path,)))
    assert [r.status for r in ok] == ["passed", "passed"], ok
    bad = run_checks(
        ["disk", "memory"], HealthConfig(paths=(tmp_path,), min_free_gb=1e9, min_free_memory_gb=1e9)
    )
    assert [r.status for r in bad] == ["failed", "failed"], bad
    assert all(r.failed for r in bad)


def test_a_check_that_raises_is_an_error_logged_and_never_a_node_failure(
    tmp_path, monkeypatch, caplog
):
    def broken(cfg: HealthConfig, **_: object) -> CheckResult:
        raise ZeroDivisionError("a bug in the check")

    monkeypatch.setitem(health.CHECKS, "broken", broken)
    with caplog.at_level(logging.ERROR, logger="nonstop.health"):
        (r,) = run_checks(["broken"], HealthConfig(paths=(tmp_path,)))
    assert r.status == "error" and not r.failed, r
    assert "ZeroDivisionError: a bug in the check" in r.detail
    assert "health check broken" in caplog.text


def test_a_check_that_hangs_fails_within_its_timeout(tmp_path, monkeypatch):
    """A hung NFS mount: the check's system call never returns; the agent must go on."""
    release = threading.Event()

    def hung(cfg: HealthConfig, **_: object) -> CheckResult:
        release.wait()  # stands in for a stat() on a dead mount
        return CheckResult("hung", "passed", "")

    monkeypatch.setitem(health.CHECKS, "hung", hung)
    t0 = time.monotonic()
    results = run_checks(["hung", "memory"], HealthConfig(paths=(tmp_path,), timeout_s=0.5))
    release.set()
    assert time.monotonic() - t0 < 30  # bounded (generous: shared machines)
    assert results[0].status == "failed" and "did not finish within 0.5 s" in results[0].detail
    assert results[1].status == "passed"  # the next check still runs


def test_an_unknown_check_is_an_error(tmp_path):
    (r,) = run_checks(["warp-drive"], HealthConfig(paths=(tmp_path,)))
    assert r.status == "error" and "no such check" in r.detail


def test_gpu_check_skips_without_a_gpu(tmp_path):
    (r,) = run_checks(["gpu"], HealthConfig(paths=(tmp_path,)))
    assert r.status in ("skipped", "passed"), r  # passed only where a GPU exists


@pytest.mark.slow
def test_the_collective_self_test_runs_real_processes(tmp_path):
    (r,) = run_checks(
        ["collective"], HealthConfig(paths=(tmp_path,), local_world_size=2, timeout_s=120)
    )
    assert r.status == "passed", r
