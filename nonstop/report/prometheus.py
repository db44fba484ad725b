"""Prometheus metrics of a live run: `nonstop run --metrics-port PORT [--metrics-host HOST]`.

The node agent feeds every event it reads to `MetricsExporter.observe()` and, each time it
ingests the ledger, calls `update_from_ledger()`; a scrape sees the latest values. The exporter
has its own CollectorRegistry (never the process-global one) and a collector that builds the
families at scrape time, so heartbeat ages are always current. Names follow Prometheus
conventions: a `nonstop_` prefix, base units (`_seconds`, `_watts`, `_celsius`, `_ratio`) and
`_total` for counters.

    exporter = MetricsExporter("127.0.0.1", 9400)
    exporter.start()                     # serves http://127.0.0.1:9400/metrics
    exporter.observe(event)              # step, heartbeat, checkpoint, telemetry, lifecycle
    exporter.update_from_ledger(ledger)  # ETTR, badput by category, failures by category
    exporter.stop()

    curl -s 127.0.0.1:9400/metrics | grep ^nonstop_
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from nonstop.errors import UserError
from nonstop.events import Event
from nonstop.ledger import BADPUT, Ledger, summarize

# telemetry metric name -> (Prometheus family, help). Only these are exported.
TELEMETRY = {
    "power_w": ("nonstop_power_watts", "Power draw of the sampled device"),
    "temp_c": ("nonstop_temperature_celsius", "Temperature of the sampled device"),
}


class MetricsExporter:
    """Serves a run's metrics over HTTP from a background thread (prometheus-client's server)."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        run_id: str = "",
        node: str = "",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.host, self.port = host, port
        self.run_id, self.node = run_id, node
        self.registry = CollectorRegistry()
        self._clock = clock
        self._lock = threading.Lock()
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._attempt: int | None = None
        self._step: int | None = None
        self._steps_total = 0
        self._tokens_total = 0.0
        self._tokens_per_s: float | None = None
        self._step_s: dict[int, float] = {}
        self._last_seen: dict[int, float] = {}
        self._ckpt_last: dict[int, float] = {}
        self._ckpt_total: dict[int, float] = {}
        self._ckpt_committed = 0
        self._telemetry: dict[tuple[str, int, str], float] = {}
        self._ledger: dict[str, Any] | None = None
        self.registry.register(_Collector(self))

    # -- serving ---------------------------------------------------------------------------

    def start(self) -> None:
        """Listen on host:port (port 0: a free port, then readable from `.port`)."""
        try:
            self._server, self._thread = start_http_server(
                self.port, addr=self.host, registry=self.registry
            )
        except OSError as e:
            raise UserError(
                f"cannot serve metrics on {self.host}:{self.port} ({e.strerror or e}); "
                "pick another --metrics-port or free that one"
            ) from None
        self.port = int(self._server.server_port)

    def stop(self) -> None:
        """Stop serving. Idempotent."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/metrics"

    # -- feeding ---------------------------------------------------------------------------

    def observe(self, event: Event) -> None:
        """Take one event of the ranks' streams; cheap, never raises on odd payloads."""
        p = event.payload
        with self._lock:
            if self._attempt is None or event.attempt > self._attempt:
                self._attempt = event.attempt  # a new attempt: old ranks' state is stale
                self._last_seen.clear()
                self._step_s.clear()
            elif event.attempt < self._attempt:
                return
            self._last_seen[event.rank] = max(self._last_seen.get(event.rank, 0.0), event.time)
            try:
                if event.kind == "step":
                    self._on_step(event.rank, p)
                elif event.kind == "checkpoint":
                    blocking = p.get("blocking_s")
                    if isinstance(blocking, int | float):
                        self._ckpt_last[event.rank] = float(blocking)
                        total = self._ckpt_total.get(event.rank, 0.0) + float(blocking)
                        self._ckpt_total[event.rank] = total
                    if p.get("phase") == "committed" and event.rank == 0:
                        self._ckpt_committed += 1
                elif event.kind == "telemetry":
                    for name, value in dict(p.get("metrics") or {}).items():
                        if name in TELEMETRY and isinstance(value, int | float):
                            key = (name, event.rank, str(p.get("source", "")))
                            self._telemetry[key] = float(value)
            except (TypeError, ValueError):
                pass  # a malformed payload must not stop the agent

    def _on_step(self, rank: int, p: dict[str, Any]) -> None:
        duration = float(p["end"]) - float(p["start"])
        self._step_s[rank] = duration
        if rank != min(self._step_s):
            return  # the lead rank speaks for the step; every rank shows its own duration
        self._step = int(p["step"])
        self._steps_total += 1
        tokens = p.get("tokens")
        if isinstance(tokens, int | float) and duration > 0:
            self._tokens_total += float(tokens)
            self._tokens_per_s = float(tokens) / duration

    def update_from_ledger(self, ledger: Ledger) -> None:
        """Goodput figures and failures from the run's ledger (call after each ingest)."""
        s = summarize(ledger).to_dict()
        by_cat: dict[str, int] = {}
        for fl in s["failures"]:
            cat = fl.get("category") or "unknown"
            by_cat[cat] = by_cat.get(cat, 0) + 1
        with self._lock:
            self._ledger = {**s, "failures_by_category": by_cat}

    # -- scraping --------------------------------------------------------------------------

    def families(self) -> list[Metric]:
        """Every metric family as of now (what a scrape returns)."""
        with self._lock:
            return list(self._families())

    def _families(self) -> Iterator[Metric]:
        info = GaugeMetricFamily(
            "nonstop_run_info", "The run this agent supervises", labels=["run_id", "node"]
        )
        info.add_metric([self.run_id, self.node], 1)
        yield info
        if self._attempt is not None:
            yield GaugeMetricFamily(
                "nonstop_attempt", "Current attempt number", value=self._attempt
            )
        if self._step is not None:
            yield GaugeMetricFamily(
                "nonstop_step", "Last completed training step", value=self._step
            )
        yield CounterMetricFamily(
            "nonstop_steps", "Steps completed (lead rank), all attempts", value=self._steps_total
        )
        yield CounterMetricFamily(
            "nonstop_tokens", "Tokens trained, all attempts", value=self._tokens_total
        )
        if self._tokens_per_s is not None:
            yield GaugeMetricFamily(
                "nonstop_throughput_tokens_per_second",
                "Tokens per second of the last step",
                value=self._tokens_per_s,
            )
        yield _by_rank(
            GaugeMetricFamily,
            "nonstop_step_duration_seconds",
            "Wall time of each rank's last step",
            self._step_s,
        )
        now = self._clock()
        ages = {r: max(0.0, now - t) for r, t in self._last_seen.items()}
        yield _by_rank(
            GaugeMetricFamily,
            "nonstop_heartbeat_age_seconds",
            "Seconds since each rank's last event (heartbeat, step, ...)",
            ages,
        )
        yield _by_rank(
            GaugeMetricFamily,
            "nonstop_checkpoint_last_blocking_seconds",
            "Seconds the last checkpoint save blocked training",
            self._ckpt_last,
        )
        yield _by_rank(
            CounterMetricFamily,
            "nonstop_checkpoint_blocking_seconds",
            "Seconds checkpoint saves blocked training",
            self._ckpt_total,
        )
        yield CounterMetricFamily(
            "nonstop_checkpoints", "Checkpoints committed (rank 0)", value=self._ckpt_committed
        )
        for metric, (name, help_) in TELEMETRY.items():
            fam = GaugeMetricFamily(name, help_, labels=["rank", "source"])
            for (m, rank, source), value in sorted(self._telemetry.items()):
                if m == metric:
                    fam.add_metric([str(rank), source], value)
            yield fam
        if self._ledger is not None:
            yield from self._ledger_families(self._ledger)

    @staticmethod
    def _ledger_families(s: dict[str, Any]) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "nonstop_ettr_ratio",
            "Effective training time ratio (productive / wall time)",
            value=s["ettr"],
        )
        yield GaugeMetricFamily(
            "nonstop_wall_seconds", "Wall time of the run so far", value=s["wall_s"]
        )
        yield GaugeMetricFamily(
            "nonstop_productive_seconds", "Productive time of the run", value=s["productive_s"]
        )
        bad = GaugeMetricFamily("nonstop_badput_seconds", "Badput by category", labels=["category"])
        for cat in BADPUT:
            bad.add_metric([cat], float(s["badput_s"].get(cat, 0.0)))
        yield bad
        fails = CounterMetricFamily(
            "nonstop_failures", "Root-cause failures by taxonomy category", labels=["category"]
        )
        for cat, n in sorted(s["failures_by_category"].items()):
            fails.add_metric([cat], n)
        yield fails


def _by_rank(cls: Any, name: str, help_: str, values: dict[int, float]) -> Metric:
    fam = cls(name, help_, labels=["rank"])
    for rank, value in sorted(values.items()):
        fam.add_metric([str(rank)], value)
    return fam


class _Collector:
    """Builds the families at scrape time (prometheus-client's custom-collector protocol)."""

    def __init__(self, exporter: MetricsExporter) -> None:
        self.exporter = exporter

    def collect(self) -> Iterator[Metric]:
        return iter(self.exporter.families())
