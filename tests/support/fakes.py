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


class AgentOps:
    """A stand-in for the node agent's side of its parts (nonstop.supervisor.context.AgentOps):
    the ranks' exit codes and global ranks as the test sets them, torch's restart count, and
    every call recorded (`calls`: method name, arguments). `ingest` runs the real ingest of
    the run directory's event files into the ledger when given both."""

    def __init__(
        self,
        codes: dict[int, int | None] | None = None,
        global_ranks: dict[int, int] | None = None,
        *,
        restarts: int = 3,
        local_world_size: int = 1,
        run_dir: Any = None,
        ledger: Any = None,
    ) -> None:
        self.codes, self.ranks = codes, global_ranks or {}
        self.restarts, self.world = restarts, local_world_size
        self.run_dir, self.ledger = run_dir, ledger
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]

    def poll_events(self) -> None:
        self.calls.append(("poll_events", ()))

    def record_phase(self, phase: str, t0: float) -> None:
        self.calls.append(("record_phase", (phase,)))

    def ingest(self, force: bool = False) -> None:
        self.calls.append(("ingest", (force,)))
        if self.run_dir is not None and self.ledger is not None:
            from nonstop.ledger import ingest_run

            ingest_run(self.run_dir, self.ledger)

    def stop_workers(self, worker_group: Any) -> None:
        self.calls.append(("stop_workers", (worker_group,)))

    def restart_workers(self, worker_group: Any) -> None:
        self.calls.append(("restart_workers", (worker_group,)))

    def exit_codes(self) -> dict[int, int | None] | None:
        return self.codes

    def global_ranks(self) -> dict[int, int]:
        return self.ranks

    def restarts_left(self) -> int:
        return self.restarts

    def no_more_restarts(self) -> None:
        self.calls.append(("no_more_restarts", ()))
        self.restarts = 0

    def local_world_size(self) -> int:
        return self.world
