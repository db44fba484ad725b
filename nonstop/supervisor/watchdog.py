"""Hang detection from the ranks' event streams: pure logic with an injectable clock.

Progress is a step (instrumented scripts: heartbeat at each step's start, a step event at its
end) or a completed collective (every script: the bootstrap reports the flight recorder's last
completed collective twice a second). The job is stalled when no rank has progressed for:

- before the attempt's first progress: the startup timeout (the configured one, or, once a
  startup was seen, max(STARTUP_FLOOR_S, 3 x the longest startup seen), whichever is less);
  an explicit --hang-timeout longer than that replaces it. The startup seen is this run's
  (every attempt's, the first one cold), else, for a new run, that of the newest earlier runs
  of the same command beside it (`learned_for`); a first-ever run waits the configured 300 s;
- after the first progress, an explicit --hang-timeout, exactly;
- `auto`, instrumented: max(3 x median step time, STEP_FLOOR_S); collectives only (unmodified
  scripts): max(5 x the longest gap seen between completions, COLLECTIVE_FLOOR_S) (NVIDIA's
  rule of 5x the observed maximum); in both, at least PAUSE_FACTOR x the longest pause that
  the run has survived (an evaluation, a rank-0 save, a recompile: a stall that ended in
  progress). The floors are what a real job survives before its first long pause is learned:
  instrumented scripts put their slow phases in sections, unmodified ones cannot;
- `auto` also never calls a rank hung while it is visibly working: alive, no collective of its
  own pending, and its process's CPU time advancing (an evaluation, a save, a compile) or its
  reads and writes (a save to a slow filesystem), up to the section timeout. A rank asleep,
  stopped or waiting in a collective uses no CPU and moves no bytes;
- while any rank is inside a named section (checkpoint, eval, data_load): section_timeout_s;
- while the ranks are inside bounded sections only (`rt.section(name, limit_s=...)`: a call
  with its own timeout, such as torchft's quorum and all-reduce waiting on a peer replica
  group), the running timeout plus the longest such limit, counting only ranks that still
  answer (a rank stopped inside the call is not waiting on it): the call gives up by itself
  first, and its wait is never learned as a pause (a survivor of a peer group's failure kept
  a 10-14 s timeout after it otherwise);
- once a rank has said it is done (lifecycle `finished` or `planned_stop`) or exited: at least
  exit_timeout_s, since its last barrier, process-group teardown and interpreter exit send no
  events and take seconds on a loaded host (a false hang after the last step, seen on 2 cores).

What was learned (startup, step time, longest gap and pause) is kept in the run directory
(`control/timeouts.json`, `Learned`), so that the next attempt and the next run start from it.

When stalled, the culprits are, in order of evidence: ranks that stopped answering at all
(their watcher thread is silent: SIGSTOP, a hard lock), then ranks that never entered the
collective the others wait in, then ranks behind on steps; failing all that, every rank (the
collective itself is stuck: network, store). A rank that exited is never a culprit.

Times are the supervisor's monotonic clock at the moment an event was read, which makes the
logic immune to clock skew between hosts, moved back by how long the event waited to be read
(its wall time against the supervisor's, at most READ_LAG_S: one watcher tick): without that, a
stall was measured from the read, up to a tick late.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from nonstop.events import Event

STEP_FLOOR_S = 5.0
"""`auto`, instrumented scripts: their slow phases are sections, a step is short."""
COLLECTIVE_FLOOR_S = 60.0
"""`auto`, unmodified scripts: nothing marks an evaluation, a rank-0 save or a recompile, so
the first one (before it is learned) must fit under this."""
STARTUP_FLOOR_S = 20.0
"""A learned startup timeout is never shorter: the startups seen vary with the host's load,
and a run's first attempt (cold: no standby has imported anything) is always among them, so
that 3 x the longest covers a cold start; the floor covers a small script's jitter."""
HISTORY_RUNS = 20
"""How many of the newest earlier run directories beside a new run `learned_for` reads."""
STARTUP_FACTOR = 3.0
PAUSE_FACTOR = 3.0
READ_LAG_S = 0.5
"""At most this much of an event's wait to be read (the agent reads every 0.5 s) is taken off
its time: a bound that keeps a skewed host clock from moving progress by more."""
BUSY_WINDOW_S = 10.0
BUSY_CPU_FRACTION = 0.2
"""A rank whose process used at least this fraction of one core over the last BUSY_WINDOW_S
is working, not hung."""
BUSY_RUNNABLE_FRACTION = 0.5
"""... and so is one whose busiest thread wanted a CPU (ran or waited in the run queue) at
least this fraction of that window: on an oversubscribed host a computing rank gets a sliver of
a core but is runnable all the time (bootstrap.RunnableMeter)."""
BUSY_IO_BYTES_PER_S = 1 << 20
"""... and so is one whose process read and wrote at least this many bytes a second over that
window (bootstrap.io_bytes): a synchronous save to a slow filesystem uses little CPU. The
watcher's own heartbeats and a rank's log lines are a few hundred bytes a second."""


@dataclass
class Learned:
    """What the run has taught the watchdog; `control/timeouts.json` in the run directory, so
    that the next attempt, and the next `nonstop run` resuming the directory, start from it."""

    startup_s: float | None = None
    """Longest time from an attempt's start to its first progress."""
    step_s: float | None = None
    """Median step time of the last attempt that had steps."""
    gap_s: float | None = None
    """Longest gap between two of the job's collective completions."""
    pause_s: float | None = None
    """Longest stall outside sections that ended in progress (evaluation, save, recompile)."""

    @classmethod
    def load(cls, path: Path) -> Learned:
        """The saved values; a missing, unreadable or garbage file is an empty memory."""
        try:
            raw = json.loads(path.read_text())
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        out = cls()
        for f in fields(cls):
            v = raw.get(f.name)
            if (
                isinstance(v, int | float)
                and not isinstance(v, bool)
                and math.isfinite(v)
                and v > 0
            ):
                setattr(out, f.name, float(v))
        return out

    def save(self, path: Path) -> None:
        """Atomically, merged with what is there (several agents share one run directory)."""
        merged = Learned.load(path)
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(merged, f.name)
            if f.name == "step_s":
                setattr(merged, f.name, mine if mine is not None else theirs)
            elif mine is not None:
                setattr(merged, f.name, max(mine, theirs or 0.0))
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(merged)))
        os.replace(tmp, path)


def learned_path(run_dir: Path) -> Path:
    return Path(run_dir) / "control" / "timeouts.json"


def _command(run_dir: Path) -> list[str] | None:
    """The training command config.json recorded (`command`), or None."""
    try:
        cmd = json.loads((Path(run_dir) / "config.json").read_text()).get("command")
    except (OSError, ValueError, AttributeError):
        return None
    return [str(x) for x in cmd] if isinstance(cmd, list) and cmd else None


def learned_for(run_dir: Path) -> Learned:
    """What the watchdog starts an attempt from: this run's learned values; while this run has
    seen no startup, the longest startup of the newest HISTORY_RUNS earlier runs of the same
    training command in the same folder (./runs/ by default), so that a new run of a known
    script does not wait the configured 300 s before calling a hung startup."""
    run_dir = Path(run_dir)
    own = Learned.load(learned_path(run_dir))
    if own.startup_s is not None:
        return own
    cmd = _command(run_dir)
    if cmd is None:
        return own
    try:
        siblings = [p for p in run_dir.parent.iterdir() if p.name != run_dir.name]
        dated = []
        for p in siblings:
            try:
                dated.append((learned_path(p).stat().st_mtime, p))
            except OSError:
                continue
    except OSError:
        return own
    seen = [
        s
        for _, p in sorted(dated, reverse=True)[:HISTORY_RUNS]
        if _command(p) == cmd and (s := Learned.load(learned_path(p)).startup_s) is not None
    ]
    if seen:
        own.startup_s = max(seen)
    return own


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
    limits: dict[str, float] = field(default_factory=dict)
    """The open sections that are bounded by the rank's own call (name: its limit, seconds)."""
    done: bool = False
    """The rank reported lifecycle finished or planned_stop, or its process exited."""
    finished: bool = False
    """Its script returned (lifecycle finished): whatever its process does after that is
    teardown, not training."""
    exited: bool = False
    """Its process is gone (the agent says so): never a culprit."""
    last_event_time: float | None = None
    """Wall time written by the rank on its newest event (for the ledger's fault time)."""
    cpu: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=64))
    """(monotonic time, the process's CPU seconds) from the bootstrap's heartbeats."""
    runnable: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=64))
    """(monotonic time, its busiest thread's runnable seconds), where the kernel says."""
    io: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=64))
    """(monotonic time, the bytes its process read and wrote), where the kernel says."""
    step_ended_at: float | None = None
    """When its newest step event says that step ended (the watchdog's clock)."""
    beat_at: float | None = None
    """When its newest watcher heartbeat (the bootstrap's, every tick) was written (the
    watchdog's clock)."""
    quick_stop: bool | None = None
    """Its newest heartbeat said SIGTERM reaches nonstop's handler (True), which exits at once
    when the agent stops the rank, or the script's own (False: it may want torch's 30 s to
    save); None before its first heartbeat (half a second into the attempt)."""

    def busy(self, now: float, since: float | None = None) -> bool:
        """Working on its own: no collective of its own pending, and its CPU time advancing,
        its busiest thread runnable most of the time (a computing rank on a crowded host) or
        its process reading or writing (a save to a slow filesystem), over the last
        BUSY_WINDOW_S or, when `since` (the job's last progress) is later, since then: the
        steps before a stall say nothing about what the rank does in it."""
        if self.coll_enq > self.coll_done:
            return False
        start = now - BUSY_WINDOW_S if since is None else max(now - BUSY_WINDOW_S, since)
        return (
            _grew(self.cpu, now, BUSY_CPU_FRACTION, start)
            or _grew(self.runnable, now, BUSY_RUNNABLE_FRACTION, start)
            or _grew(self.io, now, BUSY_IO_BYTES_PER_S, start)
        )


def _grew(samples: deque[tuple[float, float]], now: float, fraction: float, start: float) -> bool:
    """A cumulative count of seconds grew by at least `fraction` of the wall time between
    the samples from `start` to `now` (which must cover at least half of that time)."""
    recent = [(t, c) for t, c in samples if start <= t <= now]
    if len(recent) < 2 or recent[-1][0] - recent[0][0] < (now - start) / 2:
        return False
    (t0, c0), (t1, c1) = recent[0], recent[-1]
    return (c1 - c0) >= fraction * (t1 - t0)


@dataclass(frozen=True)
class Hang:
    culprits: list[int]
    reason: str
    stalled_s: float
    timeout_s: float
    basis: str
    """What the timeout was learned from: steps, collectives, pause, startup, section, exit,
    explicit."""
    last_progress_time: float
    """Wall time of the job's last progress (for the ledger)."""
    ranks: dict[int, dict[str, Any]]


DONE_PHASES = ("finished", "planned_stop")


class Watchdog:
    def __init__(
        self,
        *,
        ranks: list[int],
        hang_timeout_s: float | None = None,
        startup_timeout_s: float = 300.0,
        section_timeout_s: float = 1800.0,
        exit_timeout_s: float = 60.0,
        floor_s: float = STEP_FLOOR_S,
        collective_floor_s: float = COLLECTIVE_FLOOR_S,
        warmup_steps: int = 5,
        silent_after_s: float = 3.0,
        learned: Learned | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        # the events' wait to be read is measured on the wall clock: only with the real clocks
        self._wall: Callable[[], float] | None = time.time if clock is time.monotonic else None
        self.hang_timeout_s = hang_timeout_s
        self.startup_timeout_s = startup_timeout_s
        self.section_timeout_s = section_timeout_s
        self.exit_timeout_s = exit_timeout_s
        self.floor_s = floor_s
        self.collective_floor_s = collective_floor_s
        self.warmup_steps = warmup_steps
        self.silent_after_s = silent_after_s
        self.learned = learned if learned is not None else Learned()
        self.started = clock()
        self.ranks = {r: RankState(r) for r in ranks}
        self.step_durations: list[float] = []
        self.coll_gaps: list[float] = []
        self._job_coll_done = -1
        self._job_coll_time: float | None = None
        self._last_progress_wall: float | None = None
        self._last_progress: float | None = None
        """Monotonic time of the job's newest progress (None: none yet in this attempt)."""

    # -- feeding ---------------------------------------------------------------------------

    def observe(self, event: Event) -> None:
        st = self.ranks.get(event.rank)
        if st is None:
            return
        now = self.clock()
        st.host, st.last_alive, st.last_event_time = event.host, now, event.time
        if self._wall is not None:  # when it happened, not when it was read (READ_LAG_S)
            now -= min(max(0.0, self._wall() - event.time), READ_LAG_S)
        p = event.payload
        if event.kind == "step":
            self.step_durations.append(float(p["end"]) - float(p["start"]))
            st.step = max(st.step, int(p["step"]))
            st.step_ended_at = now
            self._progress(st, now, event.time)
        elif event.kind == "heartbeat":
            # a heartbeat says what changed since the previous one, not when: news that a step
            # which ended in between explains (the next step begun, that step's collectives
            # completed: a peer that hangs completes none after it) is dated at that step's
            # end, not up to a tick later, which made every hang's detection that much late
            before = st.beat_at
            if p.get("source") == "bootstrap":  # the watcher's, every tick (not rt.step's own)
                st.beat_at = now
            ended = st.step_ended_at
            since_step = (
                ended if ended is not None and before is not None and ended > before else None
            )
            if "sigterm" in p:  # the bootstrap's; a script's rt.heartbeat() does not say
                st.quick_stop = p["sigterm"] == "nonstop"
            for key, samples in (
                ("cpu_s", st.cpu),
                ("runnable_s", st.runnable),
                ("io_bytes", st.io),
            ):
                v = p.get(key)
                if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
                    samples.append((now, float(v)))
            step = int(p.get("step", -1))
            if step > st.step:
                began = since_step if since_step is not None and step == st.step + 1 else now
                st.step = step
                self._progress(st, began, event.time - (now - began))
            done = p.get("coll_done")
            if isinstance(done, int):
                st.coll_enq = max(st.coll_enq, int(p.get("coll_enq", done)))
                if done > st.coll_done:
                    st.coll_done = done
                    at = since_step if since_step is not None else now
                    self._progress(st, at, event.time - (now - at))
                    self._learn_collective(at)
        elif event.kind == "section":
            name = str(p["name"])
            if p.get("phase") == "begin":
                st.sections[name] = now
                st.limits.pop(name, None)  # an unreadable limit leaves an open section
                limit = p.get("limit_s")
                if (
                    isinstance(limit, int | float)
                    and not isinstance(limit, bool)
                    and math.isfinite(limit)
                    and limit >= 0
                ):
                    st.limits[name] = float(limit)
            else:
                st.sections.pop(name, None)
                st.limits.pop(name, None)
            self._progress(st, now, event.time, pause=False)
        elif event.kind == "lifecycle" and p.get("phase") in DONE_PHASES:
            st.done = True
            st.finished = st.finished or p.get("phase") == "finished"
            self._progress(st, now, event.time, pause=False)

    def exited(self, rank: int) -> None:
        """The agent saw this rank's process end (with any code)."""
        st = self.ranks.get(rank)
        if st is not None and not st.exited:
            st.exited = st.done = True

    def _progress(self, st: RankState, now: float, wall: float, pause: bool = True) -> None:
        # `wall` is dated back with `now`: the ledger's latency (detection - last progress, in
        # wall time) must agree with the stall the monotonic clock decided on
        last = self._last_progress
        if last is None:  # the attempt's first progress: its startup time
            startup = now - self.started
            self.learned.startup_s = max(self.learned.startup_s or 0.0, startup)
        elif pause and not self._in_section() and not any(s.done for s in self.ranks.values()):
            gap = now - last
            if gap > (self.learned.pause_s or 0.0):
                self.learned.pause_s = gap
        st.last_progress = now if st.last_progress is None else max(st.last_progress, now)
        self._last_progress = now if last is None else max(last, now)
        self._last_progress_wall = max(self._last_progress_wall or wall, wall)

    def _in_section(self) -> bool:
        return any(s.sections for s in self.ranks.values())

    def _in_open_section(self) -> bool:
        """A rank is inside a section with no limit of its own (checkpoint, eval)."""
        return any(len(s.sections) > len(s.limits) for s in self.ranks.values())

    def _bounded_allowance(self, now: float) -> float | None:
        """The longest limit of the bounded sections that answering ranks are inside."""
        limits = [
            limit
            for s in self.ranks.values()
            if s.limits and s.last_alive is not None and now - s.last_alive <= self.silent_after_s
            for limit in s.limits.values()
        ]
        return max(limits) if limits else None

    def _learn_collective(self, now: float) -> None:
        # a job-level completion: the slowest rank finished a new collective
        done = min(s.coll_done for s in self.ranks.values() if not s.exited)
        if done > self._job_coll_done:
            if self._job_coll_time is not None and self._job_coll_done >= 0:
                gap = max(0.0, now - self._job_coll_time)  # dated back: never negative
                self.coll_gaps.append(gap)
                self.learned.gap_s = max(self.learned.gap_s or 0.0, gap)
            later = now if self._job_coll_time is None else max(now, self._job_coll_time)
            self._job_coll_done, self._job_coll_time = done, later

    @property
    def progressed(self) -> bool:
        """Whether any rank made progress in this attempt (a step or a collective)."""
        return self._last_progress is not None

    @property
    def last_progress(self) -> float | None:
        """The watchdog clock's time of the job's newest progress (None: none this attempt)."""
        return self._last_progress

    def snapshot(self) -> Learned:
        """What this attempt taught (for the run directory)."""
        if len(self.step_durations) >= self.warmup_steps:
            self.learned.step_s = statistics.median(self.step_durations[-200:])
        return self.learned

    # -- deciding --------------------------------------------------------------------------

    def timeout(self) -> tuple[float, str]:
        """(seconds without progress that make a hang, what that figure is based on)."""
        if self._in_open_section():
            return self.section_timeout_s, "section"
        if any(s.done for s in self.ranks.values()):
            return max(self._running_timeout()[0], self.exit_timeout_s), "exit"
        running = self._running_timeout()
        allowance = self._bounded_allowance(self.clock())
        if allowance is not None:
            return running[0] + allowance, "bounded"
        return running

    def startup_timeout(self) -> float:
        learned = self.learned.startup_s
        if learned is None:
            return self.startup_timeout_s
        return min(self.startup_timeout_s, max(STARTUP_FLOOR_S, STARTUP_FACTOR * learned))

    def _running_timeout(self) -> tuple[float, str]:
        startup = self.startup_timeout()
        if self._last_progress is None:  # nothing yet in this attempt: it is starting
            if self.hang_timeout_s is not None and self.hang_timeout_s >= startup:
                return self.hang_timeout_s, "explicit"
            return startup, "startup"
        if self.hang_timeout_s is not None:  # after the first progress the user's figure holds
            return self.hang_timeout_s, "explicit"
        timeout, basis = startup, "startup"
        if len(self.step_durations) >= self.warmup_steps:
            median = statistics.median(self.step_durations[-200:])
            timeout, basis = max(3.0 * median, self.floor_s), "steps"
        elif self.learned.step_s is not None and self.step_durations:
            timeout, basis = max(3.0 * self.learned.step_s, self.floor_s), "steps"
        elif len(self.coll_gaps) >= 5 or self.learned.gap_s is not None:
            gap = max([*self.coll_gaps[-200:], self.learned.gap_s or 0.0])
            timeout, basis = max(5.0 * gap, self.collective_floor_s), "collectives"
        pause = self.learned.pause_s
        if basis != "startup" and pause is not None and PAUSE_FACTOR * pause > timeout:
            timeout, basis = PAUSE_FACTOR * pause, "pause"
        return timeout, basis

    def check(self) -> Hang | None:
        now = self.clock()
        states = list(self.ranks.values())
        last = self._last_progress if self._last_progress is not None else self.started
        stalled = now - last
        timeout, basis = self.timeout()
        if stalled <= timeout:
            return None
        culprits, reason = self._culprits(now)
        if (
            self.hang_timeout_s is None
            and basis not in ("section", "exit", "bounded")
            and stalled < self.section_timeout_s
            and culprits
            and all(self.ranks[r].busy(now, since=last) for r in culprits)
        ):
            return None  # `auto`: the ranks holding the job up are computing, not hung
        return Hang(
            culprits=culprits,
            reason=reason,
            stalled_s=stalled,
            timeout_s=timeout,
            basis=basis,
            last_progress_time=self._last_progress_wall or time.time() - stalled,
            ranks={
                s.rank: {
                    "host": s.host,
                    "step": s.step,
                    "coll_enq": s.coll_enq,
                    "coll_done": s.coll_done,
                    "sections": sorted(s.sections),
                    "exited": s.exited,
                    "silent_s": None if s.last_alive is None else now - s.last_alive,
                }
                for s in states
            },
        )

    def _culprits(self, now: float) -> tuple[list[int], str]:
        states = [s for s in self.ranks.values() if not s.exited]
        if not states:
            return [], "every rank exited"
        silent = [
            s.rank
            for s in states
            if s.last_alive is None or now - s.last_alive > self.silent_after_s
        ]
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
        return sorted(s.rank for s in states), (
            "every rank waits in the same collective (network or store?)"
        )
