"""Hang detection from the ranks' event streams: pure logic with an injectable clock.

Progress is a step (instrumented scripts: heartbeat at each step's start, a step event at its
end) or a completed collective (every script: the bootstrap reports the flight recorder's last
completed collective twice a second). The job is stalled when no rank has progressed for:

- instrumented, after `warmup_steps` steps: max(3 x median step time, floor_s), or the
  explicit --hang-timeout;
- collectives only, after warm-up: max(5 x the longest gap seen between completions, floor_s)
  (NVIDIA's rule of 5x the observed maximum), or the explicit --hang-timeout;
- before either has been learned: startup_timeout_s from the attempt's start;
- while any rank is inside a named section (checkpoint, eval, data_load): section_timeout_s;
- once a rank has said it is done (lifecycle `finished` or `planned_stop`): at least
  exit_timeout_s, since its last barrier, process-group teardown and interpreter exit send no
  events and take seconds on a loaded host (a false hang after the last step, seen on 2 cores).

When stalled, the culprits are, in order of evidence: ranks that stopped answering at all
(their watcher thread is silent: SIGSTOP, a hard lock), then ranks that never entered the
collective the others wait in, then ranks behind on steps; failing all that, every rank (the
collective itself is stuck: network, store).

Times are the supervisor's monotonic clock at the moment an event was read, which makes the
logic immune to clock skew between hosts.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nonstop.events import Event


@dataclass
class RankState:
    rank: int
    host: str = ""
    last_alive: float | None = None
    last_progress: float | None = None
    step: int = -1
    coll_enq: int = -1
    coll_done: int = -1
    sections: dict[str, float] = field(default_factory=dict)
    done: bool = False
    """The rank reported lifecycle finished or planned_stop: it is on its way out."""
    last_event_time: float | None = None
    """Wall time written by the rank on its newest event (for the ledger's fault time)."""


@dataclass(frozen=True)
class Hang:
    culprits: list[int]
    reason: str
    stalled_s: float
    timeout_s: float
    basis: str
    """What the timeout was learned from: steps, collectives, startup, section, explicit."""
    last_progress_time: float
    """Wall time of the job's last progress (for the ledger)."""
    ranks: dict[int, dict[str, Any]]


DONE_PHASES = ("finished", "planned_stop")


class Watchdog:
    def __init__(
        self, *, ranks: list[int], hang_timeout_s: float | None = None,
        startup_timeout_s: float = 300.0, section_timeout_s: float = 1800.0,
        exit_timeout_s: float = 60.0, floor_s: float = 5.0, warmup_steps: int = 5,
        silent_after_s: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self.clock = clock
        self.hang_timeout_s = hang_timeout_s
        self.startup_timeout_s = startup_timeout_s
        self.section_timeout_s = section_timeout_s
        self.exit_timeout_s = exit_timeout_s
        self.floor_s = floor_s
        self.warmup_steps = warmup_steps
        self.silent_after_s = silent_after_s
        self.started = clock()
        self.ranks = {r: RankState(r) for r in ranks}
        self.step_durations: list[float] = []
        self.coll_gaps: list[float] = []
        self._job_coll_done = -1
        self._job_coll_time: float | None = None
        self._last_progress_wall: float | None = None

    # -- feeding ---------------------------------------------------------------------------

    def observe(self, event: Event) -> None:
        st = self.ranks.get(event.rank)
        if st is None:
            return
        now = self.clock()
        st.host, st.last_alive, st.last_event_time = event.host, now, event.time
        p = event.payload
        if event.kind == "step":
            self.step_durations.append(float(p["end"]) - float(p["start"]))
            st.step = max(st.step, int(p["step"]))
            self._progress(st, now, event.time)
        elif event.kind == "heartbeat":
            step = int(p.get("step", -1))
            if step > st.step:
                st.step = step
                self._progress(st, now, event.time)
            done = p.get("coll_done")
            if isinstance(done, int):
                st.coll_enq = max(st.coll_enq, int(p.get("coll_enq", done)))
                if done > st.coll_done:
                    st.coll_done = done
                    self._progress(st, now, event.time)
                    self._learn_collective(now)
        elif event.kind == "section":
            if p.get("phase") == "begin":
                st.sections[str(p["name"])] = now
            else:
                st.sections.pop(str(p["name"]), None)
            self._progress(st, now, event.time)
        elif event.kind == "lifecycle" and p.get("phase") in DONE_PHASES:
            st.done = True
            self._progress(st, now, event.time)

    def _progress(self, st: RankState, now: float, wall: float) -> None:
        st.last_progress = now
        self._last_progress_wall = max(self._last_progress_wall or wall, wall)

    def _learn_collective(self, now: float) -> None:
        # a job-level completion: the slowest rank finished a new collective
        done = min(s.coll_done for s in self.ranks.values())
        if done > self._job_coll_done:
            if self._job_coll_time is not None and self._job_coll_done >= 0:
                self.coll_gaps.append(now - self._job_coll_time)
            self._job_coll_done, self._job_coll_time = done, now

    # -- deciding --------------------------------------------------------------------------

    def timeout(self) -> tuple[float, str]:
        """(seconds without progress that make a hang, what that figure is based on)."""
        if any(s.sections for s in self.ranks.values()):
            return self.section_timeout_s, "section"
        if any(s.done for s in self.ranks.values()):
            return max(self._running_timeout()[0], self.exit_timeout_s), "exit"
        return self._running_timeout()

    def _running_timeout(self) -> tuple[float, str]:
        if self.hang_timeout_s is not None:
            learned = len(self.step_durations) >= self.warmup_steps or len(self.coll_gaps) >= 5
            if learned or self.hang_timeout_s >= self.startup_timeout_s:
                return self.hang_timeout_s, "explicit"
            return max(self.hang_timeout_s, self.startup_timeout_s), "startup"
        if len(self.step_durations) >= self.warmup_steps:
            median = statistics.median(self.step_durations[-200:])
            return max(3.0 * median, self.floor_s), "steps"
        if len(self.coll_gaps) >= 5:
            return max(5.0 * max(self.coll_gaps[-200:]), self.floor_s), "collectives"
        return self.startup_timeout_s, "startup"

    def check(self) -> Hang | None:
        now = self.clock()
        states = list(self.ranks.values())
        progressed = [s.last_progress for s in states if s.last_progress is not None]
        last = max(progressed) if progressed else self.started
        stalled = now - last
        timeout, basis = self.timeout()
        if stalled <= timeout:
            return None
        culprits, reason = self._culprits(now)
        return Hang(
            culprits=culprits, reason=reason, stalled_s=stalled, timeout_s=timeout, basis=basis,
            last_progress_time=self._last_progress_wall or time.time() - stalled,
            ranks={s.rank: {"host": s.host, "step": s.step, "coll_enq": s.coll_enq,
                            "coll_done": s.coll_done, "sections": sorted(s.sections),
                            "silent_s": None if s.last_alive is None else now - s.last_alive}
                   for s in states},
        )  # fmt: skip

    def _culprits(self, now: float) -> tuple[list[int], str]:
        states = list(self.ranks.values())
        silent = [s.rank for s in states
                  if s.last_alive is None or now - s.last_alive > self.silent_after_s]  # fmt: skip
        if silent and len(silent) < len(states):
            return silent, "stopped answering (stopped process or a lock held); peers are alive"
        if silent:
            return silent, "no rank answers (the whole node or the supervisor's view is stuck)"
        enq = {s.rank: s.coll_enq for s in states}
        if max(enq.values()) > min(enq.values()):
            top = max(enq.values())
            behind = [r for r, e in enq.items() if e < top]
            waiting = [r for r, e in enq.items() if e == top]
            return behind, (
                f"never entered collective #{top} that ranks {waiting} wait in "
                f"(last entered #{min(enq[r] for r in behind)})"
            )
        steps = {s.rank: s.step for s in states}
        if max(steps.values()) > min(steps.values()):
            top = max(steps.values())
            return [r for r, v in steps.items() if v < top], f"behind: others reached step {top}"
        return sorted(self.ranks), "every rank waits in the same collective (network or store?)"
