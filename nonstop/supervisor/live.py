"""The live terminal view of `nonstop run` (rich): step, throughput, ETTR so far, last failure.

Fed by the agent from rank 0's events and the ledger; `--quiet` (or a non-terminal stdout)
turns it off for batch jobs. A script without nonstop.runtime reports no steps: the view then
shows rank 0's completed collectives (the bootstrap's flight-recorder heartbeats) and says that
steps and ETTR are not measured, rather than "step 0" and "0.0%".
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from nonstop import log
from nonstop.events import Event


class LiveView:
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.attempt, self.world = 0, 0
        self.step, self.loss, self.tokens = -1, None, 0
        self.recent: deque[tuple[float, int, int]] = deque(maxlen=20)  # (end, step, tokens)
        self.ettr: float | None = None
        self.collectives = -1  # rank 0's completed collectives, from the bootstrap's heartbeats
        self.steps_seen = False
        self.last_failure = "none"
        self.live = Live(self._render(), refresh_per_second=2, transient=False)

    def start(self) -> None:
        self.live.start()

    def stop(self) -> None:
        self.live.update(self._render())
        self.live.stop()

    def attempt_started(self, attempt: int, world: int) -> None:
        self.attempt, self.world = attempt, world
        self.recent.clear()
        self.live.update(self._render())

    def observe(self, event: Event) -> None:
        p = event.payload
        if event.kind == "heartbeat" and "coll_done" in p:
            done = int(p["coll_done"]) + 1
            if done != self.collectives:
                self.collectives = done
                self.live.update(self._render())
            return
        if event.kind != "step":
            return
        self.steps_seen = True
        self.step = int(p["step"])
        self.loss = p.get("loss")
        self.recent.append((float(p["end"]), self.step, int(p.get("tokens") or 0)))
        self.live.update(self._render())

    def refresh_ledger(self, ledger: Any) -> None:
        from nonstop.ledger import summarize

        try:
            g = summarize(ledger).goodput
        except Exception as e:  # the live view never costs the run
            log.get("live").debug("live view: no goodput yet (%r)", e)
            return
        self.ettr = g.ettr if g.steps_total else None  # no steps: productive time unmeasured
        self.live.update(self._render())

    def failure(self, attempt: int, decision: Any, action: str) -> None:
        self.last_failure = f"attempt {attempt}: {decision.category} -> {action}"
        self.live.update(self._render())

    def _render(self) -> Group:
        t = Table.grid(padding=(0, 2))
        rate = tput = "-"
        if len(self.recent) >= 2:
            (t0, s0, _), (t1, s1, _) = self.recent[0], self.recent[-1]
            if t1 > t0:
                rate = f"{(s1 - s0) / (t1 - t0):.2f} steps/s"
                toks = sum(x[2] for x in list(self.recent)[1:])
                tput = f"{toks / (t1 - t0):,.0f} tokens/s"
        loss = f"{self.loss:.4f}" if isinstance(self.loss, float) else "-"
        t.add_row("attempt", str(self.attempt), "world", str(self.world))
        if self.steps_seen:
            ettr = f"{self.ettr:.1%}" if self.ettr is not None else "-"
            t.add_row("step", str(self.step + 1), "loss", loss)
            t.add_row("speed", rate, "throughput", tput)
        else:  # an unmodified script: what the flight recorder shows, and what is not known
            done = str(self.collectives) if self.collectives >= 0 else "none yet"
            t.add_row("collectives", done, "steps", "not measured (no nonstop.runtime)")
            ettr = "not measured"
        t.add_row("ETTR so far", ettr, "last failure", self.last_failure)
        return Group(
            Text(f"nonstop run  {self.run_dir}  {time.strftime('%H:%M:%S')}", style="bold"), t
        )
