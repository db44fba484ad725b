"""The verdicts of the node health checks (nonstop.supervisor.health) and what they mean for
the node: checks chosen by name, each result passed, failed, skipped or error, and only
`failed` (a check that found a problem, or did not finish in time) is evidence against the
node; the agent excludes a node when any result of its checks `.failed`. No processes: fake
checks and a fake NVML (tests/support/fake_nvml.py), real directories.
"""

from __future__ import annotations

import json
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


class LostGpuNvml(GpuNvml):
    """A node whose GPU 1 fell off the bus: NVML counts one fewer, or its handle or readings
    fail (NVML_ERROR_GPU_IS_LOST), or nvmlInit itself fails."""

    def __init__(self, count: int = 2, lost: set[str] | None = None) -> None:
        super().__init__(count=count)
        self.lost = lost or set()

    def nvmlDeviceGetCount(self) -> int:
        if "count" in self.lost:
            raise NVMLError(15)
        return self.count

    def nvmlDeviceGetHandleByIndex(self, i: int) -> Any:
        if "handle" in self.lost and i == 1:
            raise NVMLError(15)
        return super().nvmlDeviceGetHandleByIndex(i)

    def nvmlDeviceGetTemperature(self, h: Any, sensor: int) -> int:
        if "temp" in self.lost and h.index == 1:
            raise NVMLError(15)
        return super().nvmlDeviceGetTemperature(h, sensor)


def checked(record: Any, nv: Any = None) -> CheckResult:
    (r,) = run_checks(["gpu"], HealthConfig(paths=(), gpu_record=record), nvml=nv)
    return r


def test_the_first_pass_is_the_nodes_record_and_a_lost_gpu_then_fails(tmp_path):
    """8 GPUs per node: a GPU that vanishes after the record fails the check (the node is
    excluded), whichever way NVML shows it; on the old code every one of these passed,
    skipped or was `error`, and none excluded."""
    record = health.gpu_record_path(tmp_path / "control", "node-a")
    assert checked(record, LostGpuNvml(count=2)).status == "passed"
    assert json.loads(record.read_text()) == {"count": 2, "ecc_uncorrected": {"0": 0, "1": 0}}
    fewer = checked(record, LostGpuNvml(count=1))
    assert fewer.failed and "1 GPUs visible, the node had 2: a GPU is lost" in fewer.detail
    for lost, phrase in (
        ("handle", "GPU 1: unreadable (NVML error 15): fallen off the bus?"),
        ("temp", "GPU 1: unreadable (NVML error 15)"),
        ("count", "NVML cannot count the GPUs (NVML error 15); had 2"),
    ):
        r = checked(record, LostGpuNvml(count=2, lost={lost}))
        assert r.failed and phrase in r.detail, (lost, r)
    assert json.loads(record.read_text())["count"] == 2  # a failing check never lowers it


def test_nvml_that_no_longer_starts_fails_where_the_node_had_gpus(tmp_path, monkeypatch):
    def lost() -> Any:
        raise NVMLError(15)  # nvmlInit: NVML_ERROR_GPU_IS_LOST

    monkeypatch.setattr(health, "_load_nvml", lost)
    record = health.gpu_record_path(tmp_path, "node-a")
    assert checked(record).status == "skipped"  # never had a GPU: nothing lost
    record.write_text(json.dumps({"count": 8, "ecc_uncorrected": {}}))
    r = checked(record)
    assert r.failed and "NVML does not start (NVMLError: NVML error 15)" in r.detail, r
    assert "node that had 8 GPUs" in r.detail


def test_ecc_is_compared_with_the_record_and_remapping_always_fails(tmp_path):
    """An uncorrectable error already counted at the record (volatile until the driver
    reloads) is not new evidence; one more is."""
    record = health.gpu_record_path(tmp_path, "node-a")
    record.write_text(json.dumps({"count": 2, "ecc_uncorrected": {"0": 1, "1": 0}}))
    nv = LostGpuNvml(count=2)
    nv.ecc = {0: 0, 1: 1}  # corrected, uncorrected: GPU 0 at its record, GPU 1 one above
    r = checked(record, nv)
    assert r.failed and r.detail == "GPU 1: 1 uncorrectable ECC errors (was 0)", r
    nv.remapped = (0, 1, 1, 0)
    assert "GPU 0: row remapping pending" in checked(record, nv).detail
    nv = LostGpuNvml(count=2)
    nv.broken = {"ecc"}  # an ECC read that fails for another reason than NOT_SUPPORTED
    assert "GPU 0: ECC unreadable (NVML error 999)" in checked(record, nv).detail


class OldDriverNvml(LostGpuNvml):
    """A driver older than nvmlDeviceGetCurrentClocksEventReasons and row remapping: the calls
    exist in nvidia-ml-py but answer FUNCTION_NOT_FOUND."""

    def nvmlDeviceGetCurrentClocksEventReasons(self, h: Any) -> int:
        raise NVMLError(13)

    def nvmlDeviceGetRemappedRows(self, h: Any) -> tuple[int, int, int, int]:
        raise NVMLError(13)


def test_a_driver_without_a_call_is_no_evidence_and_the_older_throttle_call_is_read(tmp_path):
    record = health.gpu_record_path(tmp_path, "node-a")
    nv = OldDriverNvml(count=2)
    assert checked(record, nv).status == "passed"
    nv.throttle = 0x40  # read through nvmlDeviceGetCurrentClocksThrottleReasons
    assert "throttled (hw_thermal)" in checked(record, nv).detail


def test_no_record_kept_without_a_path_and_a_torn_record_compares_with_nothing(tmp_path):
    assert checked(None, LostGpuNvml(count=1)).status == "passed"
    record = tmp_path / "gpus-node-a.json"
    record.write_text("{torn")
    assert checked(record, LostGpuNvml(count=1)).status == "passed"
    assert json.loads(record.read_text())["count"] == 1


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
