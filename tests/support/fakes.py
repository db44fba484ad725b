"""Fakes for the small seams of nonstop's code (style rule 5: fakes, not mocks)."""

from __future__ import annotations

from typing import Any


class Recorder:
    """The one method of Runtime that the telemetry sampler uses (`emit`), recording events
    in memory instead of writing them."""

    enabled = True

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def emit(self, kind: str, /, **payload: Any) -> None:
        self.events.append((kind, payload))

    def nvml_events(self) -> list[dict[str, Any]]:
        """The telemetry records that carry an NVML event (Xid, ECC, throttling)."""
        return [p for k, p in self.events if k == "telemetry" and p.get("event")]

    def by_source(self, source: str) -> list[dict[str, float]]:
        """The metrics of the telemetry records from one source (nvml, host)."""
        return [p["metrics"] for k, p in self.events if k == "telemetry" and p["source"] == source]
