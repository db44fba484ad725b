"""The verdicts of the node health checks (nonstop.supervisor.health) and what they mean for
the node: checks chosen by name, each result passed, failed, skipped or error, and only
`failed` (a check that found a problem, or did not finish in time) is evidence against the
node; the agent excludes a node when any result of its checks `.failed`. No processes: fake
checks and a fake NVML (tests/support/fake_nvml.py), real directories.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from support.fake_nvml import FakeNvml, NVMLError

from nonstop.supervisor import health
from nonstop.supervisor.health import CheckResult, HealthConfig, run_checks


def returns(status: str, detail: str = "") -> Any:
    def check(cfg: HealthConfig, **_: object) -> CheckResult:
        return CheckResult("fake", status, detail or status)

    return check


def raises(cfg: HealthConfig, **_: object) -> CheckResult:
    raise RuntimeError("the check's own bug")


RELEASE = threading.Event()


def hangs(cfg: HealthConfig, **_: object) -> CheckResult:
    RELEASE.wait(30)  # a stat() on a dead mount; released at the end of the test
    return CheckResult("hangs", "passed", "too late")


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, check in {
        "ok": returns("passed"),
        "bad": returns("failed", "2 GB free"),
        "na": returns("skipped", "no GPU"),
        "raises": raises,
        "hangs": hangs,
    }.items():
        monkeypatch.setitem(health.CHECKS, name, check)
    RELEASE.clear()
    yield
    RELEASE.set()


# The names asked for -> each result's status, and whether the node counts as unhealthy.
VERDICTS = {
    "all passed: healthy": (["ok", "ok"], ["passed", "passed"], False),
    "one failed: unhealthy": (["ok", "bad"], ["passed", "failed"], True),
    "skipped is no evidence": (["na", "ok"], ["skipped", "passed"], False),
    "a check that raises is nonstop's error, not the node's": (
        ["raises", "ok"],
        ["error", "passed"],
        False,
    ),
    "an unknown name is an error, not the node's": (["warp-drive"], ["error"], False),
    "a check that does not finish failed": (["hangs", "ok"], ["failed", "passed"], True),
    "an error does not hide a failure": (["raises", "bad"], ["error", "failed"], True),
    "nothing asked: healthy": ([], [], False),
}


@pytest.mark.parametrize(
    ("names", "statuses", "unhealthy"), list(VERDICTS.values()), ids=list(VERDICTS)
)
def test_verdicts(tmp_path, fakes, names, statuses, unhealthy):
    results = run_checks(names, HealthConfig(paths=(tmp_path,), timeout_s=0.3))
    assert [r.status for r in results] == statuses, results
    assert any(r.failed for r in results) is unhealthy
    assert all(r.duration_s >= 0 for r in results)


def test_results_keep_the_order_asked_and_name_the_timed_out_check(tmp_path, fakes):
    results = run_checks(["bad", "hangs", "ok"], HealthConfig(paths=(tmp_path,), timeout_s=0.3))
    assert [r.status for r in results] == ["failed", "failed", "passed"]
    assert results[1].name == "hangs" and "did not finish within 0.3 s" in results[1].detail
    assert results[0].detail == "2 GB free"


def test_the_error_detail_names_the_exception(tmp_path, fakes):
    (r,) = run_checks(["raises"], HealthConfig(paths=(tmp_path,)))
    assert r.detail == "the check raised RuntimeError: the check's own bug"


class GpuNvml(FakeNvml):
    """FakeNvml plus what the GPU health check reads (the older throttle-reasons names)."""

    nvmlClocksThrottleReasonHwSlowdown = 0x8
    nvmlClocksThrottleReasonHwThermalSlowdown = 0x40
    nvmlClocksThrottleReasonHwPowerBrakeSlowdown = 0x80

    def nvmlDeviceGetCurrentClocksThrottleReasons(self, h: Any) -> int:
        self._call("throttle")
        return self.throttle


def gpu(**attrs: Any) -> CheckResult:
    nv = GpuNvml(count=2)
    for k, v in attrs.items():
        setattr(nv, k, v)
    return health.check_gpu(HealthConfig(paths=(), max_temperature_c=90.0), nvml=nv)


# FakeNvml's attributes -> the GPU check's status and a phrase of its detail.
GPU = {
    "healthy GPUs pass (a software power cap is not a fault)": ({}, "passed", "2 GPUs"),
    "uncorrectable ECC errors": ({"ecc": {0: 3, 1: 2}}, "failed", "2 uncorrectable ECC errors"),
    "row remapping failed": ({"remapped": (0, 1, 0, 1)}, "failed", "row remapping failed"),
    "row remapping pending": ({"remapped": (0, 1, 1, 0)}, "failed", "row remapping pending"),
    "too hot": ({"temp_c": 95}, "failed", "95 C"),
    "at the limit is not too hot": ({"temp_c": 90}, "passed", "2 GPUs"),
    "hardware slowdown": ({"throttle": 0x8}, "failed", "throttled (hw_slowdown)"),
    "thermal slowdown": ({"throttle": 0x40 | 0x4}, "failed", "hw_thermal"),
    "power brake": ({"throttle": 0x80}, "failed", "hw_power_brake"),
    "ECC not supported is no evidence": ({"unsupported": {"ecc"}}, "passed", "2 GPUs"),
    "row remapping not supported is no evidence": (
        {"unsupported": {"remapped"}},
        "passed",
        "2 GPUs",
    ),
}


@pytest.mark.parametrize(("attrs", "status", "phrase"), list(GPU.values()), ids=list(GPU))
def test_gpu_check(attrs, status, phrase):
    r = gpu(**attrs)
    assert (r.name, r.status) == ("gpu", status), r
    assert phrase in r.detail, r.detail


def test_every_gpu_with_a_problem_is_named():
    r = gpu(temp_c=99)
    assert r.detail == "GPU 0: 99 C; GPU 1: 99 C"


def test_no_nvml_skips_with_the_reason(monkeypatch):
    def no_driver() -> Any:
        raise NVMLError(9)  # NVML_ERROR_DRIVER_NOT_LOADED

    monkeypatch.setattr(health, "_load_nvml", no_driver)
    r = health.check_gpu(HealthConfig(paths=()))
    assert r.status == "skipped" and "no NVIDIA GPU or driver (NVMLError)" in r.detail


def test_an_nvml_call_that_breaks_mid_check_is_an_error_not_a_failure(tmp_path):
    """The temperature read raises: the check's own error (run_checks makes it `error`), so a
    flaky driver call never excludes a node on its own."""
    nv = GpuNvml()
    nv.broken = {"temp"}
    (r,) = run_checks(["gpu"], HealthConfig(paths=(tmp_path,)), nvml=nv)
    assert r.status == "error" and not r.failed and "NVMLError" in r.detail, r


def test_a_missing_directory_is_created_and_passes(tmp_path):
    """A fresh run's checkpoint directory does not exist yet: not a problem of the node."""
    r = health.check_disk(HealthConfig(paths=(tmp_path / "a" / "b",), min_free_gb=0))
    assert r.status == "passed" and (tmp_path / "a" / "b").is_dir(), r


def test_not_enough_free_space_names_the_path(tmp_path):
    (r,) = run_checks(["disk"], HealthConfig(paths=(tmp_path,), min_free_gb=1e12))
    assert r.failed and str(tmp_path) in r.detail and "GB free <" in r.detail, r


def test_a_run_directory_that_cannot_be_created_is_a_failed_disk_not_an_error(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    (r,) = run_checks(["disk"], HealthConfig(paths=(blocked / "run",), min_free_gb=0))
    assert r.status == "failed", r
