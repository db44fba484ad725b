"""Straggler detection from per-rank busy times: median-based scores, online and offline.

In synchronous data-parallel training every rank's step wall time is the same (all wait for the
slowest in the gradient all-reduce), so scores use each rank's own *busy* time, never step wall
time. The fields, from the step events of nonstop.events:

- ``compute_gpu_s``: forward + backward measured on the GPU with CUDA events
  (nonstop.runtime.gputime), present where CUDA is in use; the primary metric there, since a
  host timer on a GPU sees kernel launches and a slow GPU hides in the collective wait.
- ``compute_s``: forward + backward up to the gradient all-reduce, host wall time; the primary
  metric on CPU.
- ``data_s``: time waiting for the next batch; flags ranks with slow input pipelines.
- section events (``section`` kind, ``phase`` open/close): each named section's duration, for
  sections the user opens around work that excludes collective waits.

Scores follow NVIDIA Resiliency Extension's definition (reference median / this rank's median):
*relative* uses the best rank's median over the window as reference, *individual* the rank's own
best window median so far. A score below ``threshold`` on ``patience`` consecutive checks flags
the rank, provided the gap is at least ``min_share`` (5%) of the best ranks' whole busy time
(so that a 30% swing of a 1 ms data wait is not a straggler); a host is flagged when the median score of its ranks is below threshold. The default
threshold 0.85 (NVRx uses 0.75) catches the 1.3x-slow GPUs (score 0.77) that MegaScale reports
as ~10% slower stragglers on 0.5% of machines, while noise of a few percent scores above 0.93.

    det = StragglerDetector()
    for event in stream: det.feed(event)      # cheap: O(1) per event
    report = det.check()                      # every N steps: O(ranks x window)
    report.flagged_ranks, report.flagged_hosts
    report.stragglers                         # flagged and behind their peers: the ones named

    detect_stragglers(run_dir)                # offline, over a whole attempt
    report.slow_link                          # and the node whose link is slow, if any
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nonstop.events import Event, iter_events
from nonstop.rundir import RunDir

METRICS = ("compute_gpu_s", "compute_s", "data_s")
_OPEN = ("open", "begin", "start", "enter")
_CLOSE = ("close", "end", "stop", "exit")


@dataclass
class RankScore:
    """One rank's scores for one metric at one check."""

    rank: int
    host: str
    metric: str
    median_s: float
    relative: float
    individual: float
    samples: int


@dataclass
class StragglerReport:
    """The result of one check: scores and who is persistently slow."""

    step: int
    scores: list[RankScore] = field(default_factory=list)
    flagged_ranks: dict[int, str] = field(default_factory=dict)
    """rank -> reason, for ranks below threshold on `patience` consecutive checks."""
    flagged_hosts: dict[str, float] = field(default_factory=dict)
    """host -> median relative score of its ranks, for hosts below threshold."""
    behind_peers: set[int] = field(default_factory=set)
    """Ranks slower than the best rank at this check by a gap that matters: a relative score
    below threshold on a metric where the gap is material. A flagged rank outside it is slow
    only against its own past (a whole job slowing together, a busy machine)."""
    slow_link: dict[str, Any] | None = None
    """The node whose link the slow connections between the nodes have in common
    (nonstop.diagnose.peers.slow_link), offline where the agents sampled them; a slow link
    slows every rank's collectives alike and no rank's compute."""

    @property
    def stragglers(self) -> dict[int, str]:
        """rank -> reason for the flagged ranks that are also behind their peers: the ranks the
        running job's agent records as stragglers and `nonstop diagnose` names, one rule for
        both. A rank flagged only against its own past is the whole job slowing together."""
        return {r: why for r, why in self.flagged_ranks.items() if r in self.behind_peers}

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "flagged_ranks": {str(k): v for k, v in self.flagged_ranks.items()},
            "behind_peers": sorted(self.behind_peers),
            "flagged_hosts": self.flagged_hosts,
            "slow_link": self.slow_link,
            "scores": [s.__dict__ for s in self.scores],
        }


class StragglerDetector:
    """Incremental straggler scores. Feed events as they arrive; call `check()` every N steps."""

    def __init__(
        self,
        *,
        window: int = 20,
        min_samples: int = 8,
        threshold: float = 0.85,
        patience: int = 2,
        min_share: float = 0.05,
        metrics: tuple[str, ...] = METRICS,
    ) -> None:
        if not 0 < threshold < 1:
            raise ValueError(f"threshold must be in (0, 1), got {threshold!r}")
        if window < min_samples or min_samples < 3:
            raise ValueError(f"need window >= min_samples >= 3, got {window}, {min_samples}")
        self.window, self.min_samples = window, min_samples
        self.threshold, self.patience, self.metrics = threshold, patience, metrics
        self.min_share = min_share
        self._samples: dict[tuple[int, str], deque[float]] = {}
        self._best: dict[tuple[int, str], float] = {}
        self._open: dict[tuple[int, str], float] = {}
        self._strikes: dict[int, int] = {}
        self.hosts: dict[int, str] = {}
        self.last_step = 0

    def add(self, rank: int, metric: str, seconds: float) -> None:
        """Record one busy-time sample (seconds) of `metric` for `rank`."""
        if seconds is None or not seconds >= 0:  # None, NaN and negatives are dropped
            return
        q = self._samples.get((rank, metric))
        if q is None:
            q = self._samples[(rank, metric)] = deque(maxlen=self.window)
        q.append(float(seconds))

    def feed(self, event: Event) -> None:
        """Take one event (step or section; other kinds are ignored)."""
        p = event.payload
        if event.kind == "step":
            self.feed_step(event.rank, event.host, int(p.get("step", 0)), self.values(p))
        elif event.kind == "section":
            self.feed_section(event.rank, event.host, p.get("name"), p.get("phase"), event.mono)
        else:
            self.hosts[event.rank] = event.host

    def values(self, payload: dict[str, Any]) -> tuple[float | None, ...]:
        """A step payload's busy times in `metrics` order (None where absent)."""
        return tuple(
            payload[m] if isinstance(payload.get(m), int | float) else None for m in self.metrics
        )

    def feed_step(self, rank: int, host: str, step: int, values: tuple[float | None, ...]) -> None:
        """One step event: its step number and busy times (`values`)."""
        self.hosts[rank] = host
        if step > self.last_step:
            self.last_step = step
        for m, v in zip(self.metrics, values):
            if v is not None:
                self.add(rank, m, v)

    def feed_section(self, rank: int, host: str, name: Any, phase: Any, mono: float) -> None:
        """A section event: its name, phase (open or close) and monotonic time."""
        self.hosts[rank] = host
        key = (rank, f"section:{name}")
        if phase in _OPEN:
            self._open[key] = mono
        elif phase in _CLOSE and key in self._open:
            self.add(rank, key[1], mono - self._open.pop(key))

    def feed_all(self, events: Iterable[Event]) -> None:
        for e in events:
            self.feed(e)

    def check(self) -> StragglerReport:
        """Score every rank on every metric and update who is persistently slow."""
        report = StragglerReport(step=self.last_step)
        by_metric: dict[str, dict[int, float]] = {}
        for (rank, metric), q in self._samples.items():
            if len(q) >= self.min_samples:
                by_metric.setdefault(metric, {})[rank] = statistics.median(q)
        slow_now: dict[int, str] = {}
        # A gap must matter against the whole step's busy time: 30% on a 1 ms data wait is noise.
        busy_ref = sum(min(m.values()) for m in by_metric.values())
        for metric, medians in by_metric.items():
            if len(medians) < 2:
                continue
            best = min(medians.values())
            for rank, med in sorted(medians.items()):
                own = self._best.get((rank, metric), med)
                own = self._best[(rank, metric)] = min(own, med)
                s = RankScore(
                    rank=rank,
                    host=self.hosts.get(rank, "?"),
                    metric=metric,
                    median_s=med,
                    relative=_ratio(best, med),
                    individual=_ratio(own, med),
                    samples=len(self._samples[(rank, metric)]),
                )
                report.scores.append(s)
                low = min(s.relative, s.individual)
                material = med - min(best, own) >= self.min_share * busy_ref
                # behind its peers: the gap to the best rank itself must matter (not the gap
                # to the rank's own best past, which `material` also accepts)
                if s.relative < self.threshold and med - best >= self.min_share * busy_ref:
                    report.behind_peers.add(rank)
                if low < self.threshold and material and rank not in slow_now:
                    kind = "relative" if s.relative <= s.individual else "individual"
                    slow_now[rank] = (
                        f"{metric} median {med:.4g}s, {kind} score {low:.2f} < {self.threshold}"
                    )
        for rank in {r for r, _ in self._samples}:
            self._strikes[rank] = self._strikes.get(rank, 0) + 1 if rank in slow_now else 0
            if self._strikes[rank] >= self.patience:
                report.flagged_ranks[rank] = slow_now[rank]
        per_host: dict[str, list[float]] = {}
        for s in report.scores:
            per_host.setdefault(s.host, []).append(s.relative)
        for host, rel in per_host.items():
            med = statistics.median(rel)
            if med < self.threshold and any(
                self.hosts.get(r) == host for r in report.flagged_ranks
            ):
                report.flagged_hosts[host] = round(med, 3)
        return report


def _ratio(ref: float, value: float) -> float:
    return 1.0 if value <= 0 else min(1.0, ref / value)


def rank_groups(
    report: StragglerReport, groups: dict[str, list[int]], top: int = 5
) -> list[dict[str, Any]]:
    """Rank process groups by their slowest member's relative score (the one everyone waits on)."""
    worst: dict[int, float] = {}
    for s in report.scores:
        worst[s.rank] = min(worst.get(s.rank, 1.0), s.relative)
    rows: list[dict[str, Any]] = []
    for name, ranks in groups.items():
        scored = [(worst[r], r) for r in ranks if r in worst]
        if scored:
            score, rank = min(scored)
            rows.append(
                {"pg": name, "slowest_rank": rank, "score": round(score, 3), "members": len(ranks)}
            )
    return sorted(rows, key=lambda r: r["score"])[:top]


_FED = frozenset({"step", "section"})  # the kinds StragglerDetector.feed takes


@dataclass
class Streams:
    """What the offline replay needs from event streams, reduced where they are read (a worker
    process can read a share of the ranks; `merge` joins shares in rank order)."""

    hosts: dict[int, str] = field(default_factory=dict)
    """rank -> host of its stream's first event."""
    steps: dict[int, list[tuple[int, str, tuple[float | None, ...]]]] = field(default_factory=dict)
    """step -> [(rank, host, busy times in the detector's `metrics` order)] in stream order."""
    sections: list[tuple[int, str, Any, Any, float]] = field(default_factory=list)
    """(rank, host, name, phase, mono) of every section event."""

    def merge(self, o: Streams) -> None:
        self.hosts.update(o.hosts)
        for step, rows in o.steps.items():
            self.steps.setdefault(step, []).extend(rows)
        self.sections += o.sections


def read_streams(paths: list[tuple[int, str]], metrics: tuple[str, ...] = METRICS) -> Streams:
    """Read (rank, path) event streams into a Streams: each stream's first event (its host)
    and its step and section events, of which only the fields the detector takes are kept."""
    out = Streams()
    values = StragglerDetector(metrics=metrics).values
    hosts: dict[str, str] = {}  # one str object per host: a 16k-rank result pickles small
    for rank, path in paths:
        first = next(iter_events(path), None)
        if first is not None:
            out.hosts[rank] = hosts.setdefault(first.host, first.host)
        for e in iter_events(path, kinds=_FED):
            p = e.payload
            host = hosts.setdefault(e.host, e.host)
            if e.kind == "step":
                step = int(p["step"])
                out.steps.setdefault(step, []).append((e.rank, host, values(p)))
            else:
                out.sections.append((e.rank, host, p.get("name"), p.get("phase"), e.mono))
    return out


def replay(
    streams: Streams, *, check_every: int = 10, **kwargs: Any
) -> tuple[StragglerDetector, StragglerReport]:
    """Feed an attempt's streams through a detector, merged by step so that checks happen
    every `check_every` steps as they would online; the detector and its last check."""
    det = StragglerDetector(**kwargs)
    for rank, host, name, phase, mono in sorted(streams.sections, key=lambda s: (s[0], s[4])):
        det.feed_section(rank, host, name, phase, mono)
    report = StragglerReport(step=0)
    feed = det.feed_step
    for i, step in enumerate(sorted(streams.steps), start=1):
        for rank, host, values in streams.steps[step]:
            feed(rank, host, step, values)
        if i % check_every == 0:
            report = det.check()
    if streams.steps and len(streams.steps) % check_every:
        report = det.check()
    return det, report


def attempt_streams(rd: RunDir, attempt: int | None) -> tuple[int, list[tuple[int, str]]]:
    """(attempt, [(rank, path)]) of one attempt's event streams (default: the latest)."""
    if attempt is None:
        attempt = max((a for a, _, _ in rd.event_files()), default=0)
    return attempt, [(rank, str(path)) for a, rank, path in rd.event_files(attempt)]


def with_slow_link(report: StragglerReport, rd: RunDir, attempt: int) -> StragglerReport:
    """The report with the slow link the agents' network samples name, if any."""
    from nonstop.diagnose import peers

    link = peers.slow_link(peers.read_net_samples(rd.root, attempt), peers.node_addresses(rd.root))
    report.slow_link = link.to_dict() if link is not None else None
    return report


def detect_stragglers(
    run_dir: str | Path, attempt: int | None = None, *, check_every: int = 10, **kwargs: Any
) -> StragglerReport:
    """Offline: replay one attempt's event streams (default: the latest) through the detector.

    Events are merged by step so that checks happen every `check_every` steps as they would
    online; the last check's report is returned.
    """
    rd = RunDir(Path(run_dir))
    attempt, paths = attempt_streams(rd, attempt)
    metrics = kwargs.get("metrics", METRICS)
    _, report = replay(read_streams(paths, metrics), check_every=check_every, **kwargs)
    return with_slow_link(report, rd, attempt)
