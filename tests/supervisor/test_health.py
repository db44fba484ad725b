"""Health checks (nonstop.supervisor.health): real directories, real processes; each check
bounded by its timeout, and a check that breaks is nonstop's error, not the node's."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from nonstop.supervisor import health
from nonstop.supervisor.health import (
    SELF_TEST_NAME,
    CheckResult,
    HealthConfig,
    SelfTestPool,
    run_checks,
)


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


def _exited(pid: int, within_s: float = 10.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
def test_the_self_test_runs_in_the_interpreters_started_ahead(tmp_path):
    pool = SelfTestPool()
    try:
        pool.warm(2)
        pids = [p.pid for p in pool._waiting]
        (r,) = run_checks(
            ["collective"],
            HealthConfig(paths=(tmp_path,), local_world_size=2, timeout_s=120),
            self_tests=pool,
        )
        assert r.status == "passed", r
        # the two that waited ran it (a fresh pair would have left them waiting)
        assert pool.warm_count == 0 and all(_exited(pid) for pid in pids)
    finally:
        pool.close()


@pytest.mark.slow
def test_a_waiting_interpreter_that_died_is_replaced_not_blamed(tmp_path):
    pool = SelfTestPool()
    try:
        pool.warm(2)
        dead = pool._waiting[0]
        dead.kill()
        dead.wait(10)
        (r,) = run_checks(
            ["collective"],
            HealthConfig(paths=(tmp_path,), local_world_size=2, timeout_s=120),
            self_tests=pool,
        )
        assert r.status == "passed", r
    finally:
        pool.close()


def test_waiting_interpreters_leave_with_the_supervisor_or_the_pool():
    pool = SelfTestPool()
    pool.warm(2)
    first, second = pool._waiting
    # the supervisor gone: its end of the pipe closes, and the interpreter ends on its own
    assert first.stdin is not None
    first.stdin.close()
    assert first.wait(60) == 0
    pool.close()
    assert _exited(second.pid) and pool.warm_count == 0
    pool.warm(1)  # a closed pool starts nothing
    assert pool.warm_count == 0


def test_the_chaos_harness_sees_the_test_run_and_not_the_wait():
    """benchmarks/chaos kills the supervisor during its self-test: a waiting interpreter is
    not one (it has not named itself), a running test is."""
    from benchmarks.chaos import procs

    pool = SelfTestPool()
    running = None
    try:
        pool.warm(1)
        time.sleep(0.5)
        assert not procs.self_test_running(os.getpid())
        code = (
            "import ctypes, time\n"
            f"ctypes.CDLL(None).prctl(15, {SELF_TEST_NAME.encode()!r}, 0, 0, 0)\n"
            "time.sleep(60)\n"
        )
        running = subprocess.Popen([sys.executable, "-c", code])
        deadline = time.monotonic() + 20
        while not procs.self_test_running(os.getpid()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert procs.self_test_running(os.getpid())
    finally:
        pool.close()
        if running is not None:
            running.kill()
            running.wait()
