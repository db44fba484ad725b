"""The Prometheus exporter, fed with a run's real events and ledger, scraped over HTTP."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from runbuilder import build_run

from nonstop import rundir
from nonstop.errors import UserError
from nonstop.events import iter_events
from nonstop.ledger import BADPUT, open_run, summarize
from nonstop.report.prometheus import MetricsExporter


def scrape(exporter: MetricsExporter) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(exporter.url, timeout=10) as r:
        assert r.status == 200
        text = r.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for fam in text_string_to_metric_families(text)
        for s in fam.samples
    }


@pytest.fixture
def fed(tmp_path: Path):
    root = build_run(tmp_path / "run")
    events = sorted(
        (e for _, _, p in rundir.RunDir(root).event_files() for e in iter_events(p)),
        key=lambda e: e.time,
    )
    now = [events[-1].time + 2.5]
    exporter = MetricsExporter(
        "127.0.0.1", 0, run_id="synthetic-run", node="node-a", clock=lambda: now[0]
    )
    exporter.start()
    for e in events:
        exporter.observe(e)
    with open_run(root) as ledger:
        exporter.update_from_ledger(ledger)
        summary = summarize(ledger).to_dict()
    yield exporter, events, summary, now
    exporter.stop()


def test_scrape_has_progress_goodput_failures_and_power(fed) -> None:
    exporter, events, summary, _ = fed
    assert exporter.port > 0
    m = scrape(exporter)
    assert m[("nonstop_run_info", (("node", "node-a"), ("run_id", "synthetic-run")))] == 1
    assert m[("nonstop_attempt", ())] == 1
    assert m[("nonstop_step", ())] == 59
    assert m[("nonstop_steps_total", ())] == 25 + 40  # lead rank: attempt 0 failed at step 25
    assert m[("nonstop_throughput_tokens_per_second", ())] == pytest.approx(4096 / 0.5)
    assert m[("nonstop_step_duration_seconds", (("rank", "2"),))] == pytest.approx(0.5)
    assert m[("nonstop_ettr_ratio", ())] == pytest.approx(summary["ettr"])
    for cat in BADPUT:
        assert m[("nonstop_badput_seconds", (("category", cat),))] == pytest.approx(
            summary["badput_s"][cat]
        )
    assert m[("nonstop_failures_total", (("category", "nccl_watchdog_timeout"),))] == 1
    assert ("nonstop_failures_total", (("category", "unknown"),)) not in m  # not a root cause
    assert m[("nonstop_checkpoint_last_blocking_seconds", (("rank", "0"),))] == pytest.approx(0.08)
    assert m[("nonstop_checkpoints_total", ())] == 6
    last_power = [
        e
        for e in events
        if e.kind == "telemetry" and e.rank == 3 and "power_w" in e.payload["metrics"]
    ][-1]
    key = ("nonstop_power_watts", (("rank", "3"), ("source", "nvml")))
    assert m[key] == pytest.approx(last_power.payload["metrics"]["power_w"])
    assert ("nonstop_temperature_celsius", (("rank", "0"), ("source", "nvml"))) in m


def test_heartbeat_age_follows_the_clock(fed) -> None:
    exporter, events, _, now = fed
    last = {r: max(e.time for e in events if e.rank == r and e.attempt == 1) for r in range(4)}
    m = scrape(exporter)
    for r in range(4):
        assert m[("nonstop_heartbeat_age_seconds", (("rank", str(r)),))] == pytest.approx(
            now[0] - last[r]
        )
    now[0] += 30
    assert scrape(exporter)[("nonstop_heartbeat_age_seconds", (("rank", "0"),))] == pytest.approx(
        now[0] - last[0]
    )


def test_own_registry_and_clean_stop(fed) -> None:
    exporter, *_ = fed
    assert REGISTRY.get_sample_value("nonstop_step") is None
    url = exporter.url
    exporter.stop()
    exporter.stop()  # idempotent
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)


def test_busy_port_is_a_user_error() -> None:
    first = MetricsExporter("127.0.0.1", 0)
    first.start()
    try:
        with pytest.raises(UserError, match="metrics-port"):
            MetricsExporter("127.0.0.1", first.port).start()
    finally:
        first.stop()
