"""The live view of `nonstop run` on an unmodified script (issue 20, item 4): it shows the
collectives rank 0 completed (from the bootstrap's flight-recorder heartbeats) and says that
steps and ETTR are not measured, never "step 0, loss -, ETTR so far 0.0%"."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from nonstop.events import Event
from nonstop.ledger import Ledger
from nonstop.supervisor.live import LiveView


def text(view: LiveView) -> str:
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(view._render())
    return out.getvalue()


def event(kind: str, **payload: object) -> Event:
    return Event(
        run_id="r",
        attempt=0,
        rank=0,
        host="h",
        mono=1.0,
        time=1.0,
        kind=kind,
        payload=dict(payload),
    )


def test_unmodified_script_shows_collectives_and_says_not_measured(tmp_path: Path) -> None:
    view = LiveView(tmp_path)
    view.attempt_started(0, 2)
    assert "none yet" in text(view)
    for done in (3, 9, 41):
        view.observe(event("heartbeat", step=-1, source="bootstrap", coll_enq=done, coll_done=done))
    ledger = Ledger.open(tmp_path / "ledger.db")
    ledger.attempt_started(0, time_s=0.0, world_size=2)
    view.refresh_ledger(ledger)  # no steps in the ledger: ETTR is not a number to show
    shown = text(view)
    assert "collectives  42" in shown and "not measured" in shown
    assert "0.0%" not in shown and "step " not in shown


def test_instrumented_script_shows_steps(tmp_path: Path) -> None:
    view = LiveView(tmp_path)
    view.attempt_started(0, 2)
    for s in range(3):
        view.observe(event("step", step=s, start=s, end=s + 1.0, loss=2.5, tokens=10))
    shown = text(view)
    assert "step         3" in shown and "2.5000" in shown and "1.00 steps/s" in shown
