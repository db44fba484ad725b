"""Fakes for the small seams of nonstop's code (style rule 5: fakes, not mocks)."""

from __future__ import annotations

from typing import Any

from nonstop.events import Event


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


class Clock:
    """A monotonic clock the test moves by hand (`clock.t += 5.0`): pass it as `clock=`."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def event(rank: int, kind: str, **payload: Any) -> Event:
    """An event from `rank` on host h<rank>, as the supervisor reads it."""
    return Event(
        run_id="r",
        attempt=0,
        rank=rank,
        host=f"h{rank}",
        mono=0.0,
        time=0.0,
        kind=kind,
        payload=dict(payload),
    )
