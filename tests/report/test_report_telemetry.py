"""The telemetry sampler: NVML (through a fake), the psutil host fallback, survival, Xid events,
the environment switch, and the stream reaching the ledger and the report."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
from support.fake_nvml import FakeNvml
from support.fakes import Recorder

from nonstop import rundir
from nonstop.report import data as rd
from nonstop.runtime import Runtime
from nonstop.runtime.telemetry import TelemetrySampler, maybe_start_telemetry


def _wait_for(cond: Any, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


def test_nvml_sample_has_every_metric_in_si_units() -> None:
    rt, nvml = Recorder(), FakeNvml()
    s = TelemetrySampler(rt, 5.0, nvml, device=1, host=False)
    s._setup_nvml()
    s.sample_once()
    [m] = rt.by_source("nvml")
    assert m["gpu"] == 1
    assert m["power_w"] == pytest.approx(612.0)
    assert m["energy_j"] == pytest.approx(9000.0)
    assert (m["temp_c"], m["sm_clock_mhz"], m["mem_clock_mhz"]) == (71, 1980, 2619)
    assert m["throttle_reasons"] == 4
    assert (m["gpu_util_pct"], m["mem_util_pct"]) == (97, 41)
    assert m["mem_used_bytes"] == 60 * 2**30
    assert (m["ecc_corrected"], m["ecc_uncorrected"]) == (3, 0)
    assert m["remapped_rows_correctable"] == 2 and m["remap_failure"] == 0
    assert rt.by_source("cpu") == []
    assert nvml.registered and nvml.registered[0][1] == nvml.nvmlEventTypeXidCriticalError


def test_unsupported_metric_is_skipped_and_never_asked_again() -> None:
    rt, nvml = Recorder(), FakeNvml()
    nvml.unsupported = {"ecc", "remapped"}
    s = TelemetrySampler(rt, 5.0, nvml, host=False)
    s._setup_nvml()
    s.sample_once()
    s.sample_once()
    assert all("ecc_corrected" not in m and "power_w" in m for m in rt.by_source("nvml"))
    assert nvml.calls.count("ecc") == 2  # corrected + uncorrected, first sample only
    assert s.errors == 0


def test_a_failing_sample_is_logged_once_and_survived(caplog: pytest.LogCaptureFixture) -> None:
    rt, nvml = Recorder(), FakeNvml()
    nvml.broken = {"power"}
    s = TelemetrySampler(rt, 5.0, nvml, host=True)
    s._setup_nvml()
    with caplog.at_level(logging.WARNING, logger="nonstop.runtime.telemetry"):
        for _ in range(3):
            s.sample_once()
    assert s.errors == 3
    assert len([r for r in caplog.records if "nvml sample failed" in r.message]) == 1
    assert len(rt.by_source("cpu")) == 3  # the host sample goes on
    nvml.broken.clear()
    s.sample_once()
    assert rt.by_source("nvml")[-1]["power_w"] == pytest.approx(612.0)


def test_thread_samples_reports_xid_and_stops() -> None:
    rt, nvml = Recorder(), FakeNvml()
    nvml.xids.extend([79, 48])
    s = TelemetrySampler(rt, 0.05, nvml, device=0, host=False)
    s.start()
    _wait_for(lambda: len(rt.by_source("nvml")) >= 4)
    s.stop()
    assert not s.is_alive()
    xids = [p for k, p in rt.events if p.get("event") == "xid"]
    assert [p["metrics"]["xid"] for p in xids] == [79.0, 48.0]
    assert nvml.freed == 1
    n = len(rt.events)
    time.sleep(0.15)
    assert len(rt.events) == n  # nothing after stop()


def test_no_xid_support_falls_back_to_plain_waits() -> None:
    rt, nvml = Recorder(), FakeNvml()
    nvml.unsupported = {"register"}
    s = TelemetrySampler(rt, 0.02, nvml, host=False)
    s.start()
    _wait_for(lambda: len(rt.by_source("nvml")) >= 3)
    s.stop()
    assert "wait" not in nvml.calls and s.errors == 0


def test_cpu_fallback_reads_the_host() -> None:
    rt = Recorder()
    s = TelemetrySampler(rt, 5.0, None)
    s.sample_once()
    [m] = rt.by_source("cpu")
    assert 0 <= m["cpu_util_pct"] <= 100 * 1024
    assert 0 < m["mem_used_pct"] < 100 and m["mem_used_bytes"] > 0
    assert all(isinstance(v, float) for v in m.values())


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan")])
def test_interval_must_be_positive(bad: float) -> None:
    with pytest.raises(ValueError, match="interval_s"):
        TelemetrySampler(Recorder(), bad)


def test_maybe_start_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("LOCAL_RANK", "0")
    monkeypatch.setenv("NONSTOP_TELEMETRY_S", "0")
    assert maybe_start_telemetry(Recorder(), nvml=FakeNvml()) is None
    disabled = Recorder()
    disabled.enabled = False
    monkeypatch.setenv("NONSTOP_TELEMETRY_S", "1")
    assert maybe_start_telemetry(disabled, nvml=FakeNvml()) is None

    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1,0")
    s = maybe_start_telemetry(Recorder(), nvml=FakeNvml())
    assert s is not None
    s.stop()
    assert (s.device, s.host, s.interval_s) == (0, False, 1.0)  # rank 1 -> physical GPU 0

    monkeypatch.setenv("NONSTOP_TELEMETRY_S", "often")
    monkeypatch.setenv("LOCAL_RANK", "0")
    with caplog.at_level(logging.WARNING, logger="nonstop.runtime.telemetry"):
        s = maybe_start_telemetry(Recorder(), nvml=FakeNvml())
    assert s is not None
    s.stop()
    assert s.interval_s == 5.0 and "NONSTOP_TELEMETRY_S" in caplog.text


def test_cpu_only_rank_other_than_local_zero_does_not_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("nonstop.runtime.telemetry.load_nvml", lambda: None)
    monkeypatch.setenv("NONSTOP_TELEMETRY_S", "1")
    monkeypatch.setenv("LOCAL_RANK", "1")
    assert maybe_start_telemetry(Recorder()) is None
    monkeypatch.setenv("LOCAL_RANK", "0")
    s = maybe_start_telemetry(Recorder())
    assert s is not None and s.nvml is None and s.host
    s.stop()


def test_samples_reach_the_ledger_and_the_report(tmp_path: Path) -> None:
    root = tmp_path / "run"
    rundir.create(root)
    rt = Runtime(run_dir=root, run_id="telemetry", attempt=0, rank=0, world_size=1, host="h0")
    s = TelemetrySampler(rt, 5.0, FakeNvml(), host=True)
    s._setup_nvml()
    s.sample_once()
    rt.emit("step", step=0, start=time.time() - 0.1, end=time.time(), tokens=10)
    rt.close()
    data = rd.load(root)
    sources = sorted(src for _, _, _, src, _ in data.telemetry)
    assert sources == ["cpu", "nvml"]
    series = rd.telemetry_series(data, "power_w")
    assert list(series) == ["h0 r0 nvml"]
    assert series["h0 r0 nvml"][0][1] == pytest.approx(612.0)
