"""Hold a hang's kill while a link of the job is down: the network may give the job back.

A cable pulled for 20 s stops every rank in its collective, and the watchdog calls a hang
after a few seconds. But gloo's (and NCCL's) TCP connections outlive a short outage: once the
link is back, TCP retransmits and the waiting collective completes by itself, with nothing
lost. Killing the ranks then costs a restart and the steps since the last checkpoint for
nothing (torchrun, which never notices, came back sooner in benchmarks/bench_multinode.py).

So when the watchdog finds a hang while the evidence says a link of the job is down (this
node's own carrier down, or peer nodes that do not answer a TCP connect), the agent holds the
kill (FailureHandler.on_hang) and asks `NetworkHold.update` every tick:

- the link still down: hold, for at most `cap_s` since the hold began (--network-hold; at
  most SILENT_PEER_CAP_S when only peers are silent and this node's own link never changed:
  a peer host that lost its power looks the same, and must not cost the whole cap);
- the link back (or it was already back when the hang was found: a carrier change counted
  during the attempt, the link up again, or peers that did not answer a probe made while this
  node waited for the culprit's node to act, FailureHandler._watch_outage): the ranks get a grace to make progress by
  themselves, the outage so far plus GRACE_FLOOR_S. TCP doubles its retransmission timeout
  while a link is down, so a connection that outlived an outage of T seconds retries within
  about T seconds of the link's return, and the ranks then need a step's time. The outage
  counts from the job's last progress (`before_s`: the stall the watchdog saw before it called
  the hang), not from the hold: counted from the hold, a 10 s switch outage got a 10 s grace
  and TCP's next retry could come after it (tests/cluster's switch test restarted under load);
- the ranks progressed (the watchdog saw a step or a collective complete): healed, the
  incident is recorded and nothing restarts;
- the cap or the grace ran out: restart, as without the hold.

Pure logic with an injectable clock (tests/supervisor/test_netwait.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

HOLD, HEALED, RESTART = "hold", "healed", "restart"
GRACE_FLOOR_S = 10.0
"""The wait for the ranks beyond the outage's length once the link is back: TCP's first
retransmissions after a short outage, and a step on a loaded host."""
SILENT_PEER_CAP_S = 30.0
"""The longest hold while only peers are silent and this node's own link never changed. From
here a cable pulled at the far end and a peer host that lost its power look the same (nothing
answers, no carrier change of our own); a held dead host costs the whole hold before the
restart without it (benchmarks/bench_multinode.py, host_silent). 30 s covers the flaps that
heal by themselves (a port flap, a reseated cable: the 20 s cable pull of tests/cluster heals
inside it); the far node, if alive, sees its own carrier go and holds up to the full cap."""


def cap_for(outage: Outage, cap_s: float) -> float:
    """The hold's cap for this outage: `cap_s` (--network-hold) when this node's own link
    changed, else at most SILENT_PEER_CAP_S."""
    return cap_s if outage.kind == "own" else min(cap_s, SILENT_PEER_CAP_S)


@dataclass(frozen=True)
class Outage:
    """What says a link of the job is down, as the agent found it."""

    kind: str
    """own (this node's carrier), peer (one peer node unreachable while others answer) or
    fabric (no peer node answers, or several do not)."""
    words: str
    """The evidence in words, for the ledger."""
    down: bool = True
    """The link is down now (False: it went down during the attempt and is back already)."""
    unreachable: tuple[str, ...] = ()
    """The peer nodes that did not answer (peer, fabric)."""
    total: int = 0
    """The peer nodes asked."""


@dataclass
class NetworkHold:
    """One held hang (the module's docstring). `begin` when the hang is found; `update` every
    tick with whether the link is still down and whether the ranks progressed."""

    outage: Outage
    cap_s: float
    clock: Callable[[], float] = time.monotonic
    before_s: float = 0.0
    """Seconds the job had already stalled when the hold began (the hang's stall): the outage
    began about then, and TCP's retries after it follow its whole length."""
    started: float = field(init=False)
    back_at: float | None = field(init=False, default=None)
    """When the link was first seen back (None while down)."""
    ended: float | None = field(init=False, default=None)
    why: str = field(init=False, default="")
    """Why the hold ended, in words (empty while it holds)."""

    def __post_init__(self) -> None:
        self.started = self.clock()
        if not self.outage.down:
            self.back_at = self.started

    def outage_s(self) -> float:
        """Seconds the link was seen down while held (until now while down)."""
        end = self.back_at if self.back_at is not None else self.clock()
        return max(0.0, end - self.started)

    def held_s(self) -> float:
        return (self.ended if self.ended is not None else self.clock()) - self.started

    def grace_s(self) -> float:
        return GRACE_FLOOR_S + self.before_s + self.outage_s()

    def update(self, *, down: bool, progressed: bool) -> str:
        """HOLD, HEALED or RESTART (then `why` says why)."""
        now = self.clock()
        if progressed:
            if self.back_at is None:
                self.back_at = now
            return self._end(HEALED, "the ranks made progress by themselves")
        if down:
            self.back_at = None  # down (again): the outage goes on
            if now - self.started >= self.cap_s:
                why = f"the link stayed down {now - self.started:.0f} s (cap {self.cap_s:g} s)"
                return self._end(RESTART, why)
            return HOLD
        if self.back_at is None:
            self.back_at = now
        grace = self.grace_s()
        if now - self.back_at >= grace:
            why = f"the link was back but the ranks made no progress within {grace:.0f} s"
            return self._end(RESTART, why)
        return HOLD

    def _end(self, verdict: str, why: str) -> str:
        self.ended, self.why = self.clock(), why
        return verdict
