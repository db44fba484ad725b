"""One network root cause per attempt, on the host whose link failed, in the shared ledger.

Agents on different nodes share the run directory's ledger, and a network fault is seen from
every node at once: a cable pulled on node1 stops node0's, node2's and node3's ranks in the
same collective, each agent finds node1 unreachable, and node1's own agent may see its
carrier go down (or, stopped by the others' restart, see nothing). Every one of them files
what it saw through `file`, which, in one write transaction:

- records the first filing of the attempt as its root cause, on the host whose link failed
  (`link_of`; the fabric's or an undetermined one on the reporter's own host), with the hosts
  that reported it (`reported_by`) in its evidence;
- merges every later filing into it: the reporter is added to `reported_by`, and the
  reporter's own ranks are recorded as secondary ("secondary (the network, recorded by H)");
- except when the later filing is the failed link's own host, which saw its carrier go down
  (`direct`): its record is the stronger evidence and decides the node's exclusion, so it
  becomes the root cause, with the reporters so far, and the earlier one turns secondary.

A network incident that healed by itself (the agents held the hang's kill while the link
was down and the ranks resumed once it was back: nonstop.supervisor.netwait) is filed the same
way, with `healed` in its evidence and action none: it merges only with the same incident's
other filings (healed, within HEALED_MERGE_S), never with a failure of the attempt, and it is
no failure of the link for the exclusion rule or for a peer's filing.

`link_flap_attempts` counts the earlier attempts whose root cause was a host's link, whoever
filed it: the run's memory of that link, which the exclusion rule (policy.link_down) counts.

Standard library and the ledger only; the FailureHandler (failures.py) calls it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from nonstop.ledger import Ledger
from nonstop.ledger.timeline import evidence_of

NETWORK = "network_switch_cable"
HEALED_MERGE_S = 60.0
"""Healed filings whose times (the job's last progress as each node saw it) are this close are
one incident."""


@dataclass(frozen=True)
class Row:
    """One failure row as `Ledger.add_failure` takes it (the keywords, less attempt)."""

    time_s: float
    action: str
    rank: int | None
    host: str
    message: str
    evidence: dict[str, Any] = field(default_factory=dict)
    exit_code: int | None = None
    signal: str | None = None


@dataclass(frozen=True)
class Filed:
    """What `file` did: whether this filing is the attempt's network root cause now, and
    else the host whose root cause it was merged into."""

    root: bool
    into: str | None = None


def file(
    ledger: Ledger,
    *,
    attempt: int,
    reporter: str,
    link_of: str | None,
    direct: bool,
    root: Row,
    own: Row | None = None,
) -> Filed:
    """File one node's view of the attempt's network failure (the module's docstring).

    `root` is the root-cause row this reporter would record (on `link_of`'s host, or its own
    when `link_of` is None); `own` is the reporter's own ranks' row when that is another
    (a peer's link named: the reporter's hang or echo, recorded secondary either way)."""
    healed = bool(root.evidence.get("healed"))
    with ledger.transaction() as conn:
        found = next(
            (
                (row_id, host, text)
                for row_id, host, text, t in conn.execute(
                    "SELECT id, host, evidence, time FROM failures WHERE attempt = ?"
                    " AND root_cause = 1 AND category = ? ORDER BY id",
                    (attempt, NETWORK),
                )
                if bool(evidence_of(text).get("healed")) == healed
                and (not healed or abs(float(t) - root.time_s) <= HEALED_MERGE_S)
            ),
            None,
        )
        if found is None:
            _add(ledger, attempt, root, root=True, link_of=link_of, direct=direct, by=[reporter])
            if own is not None:
                _add(ledger, attempt, _secondary(own, root.host, here=True), root=False)
            return Filed(root=True)
        row_id, host, text = found[0], found[1], found[2]
        ev = evidence_of(text)
        by = [str(h) for h in ev.get("reported_by") or [host]]
        if reporter not in by:
            by.append(reporter)
        takes_over = direct and link_of is not None and not ev.get("direct")
        if takes_over:  # the link's own host saw its carrier go: its record decides
            conn.execute(
                "UPDATE failures SET root_cause = 0, action = 'none',"
                " message = 'secondary (' || ? || '''s own link, recorded there): ' || message"
                " WHERE id = ?",
                (link_of, row_id),
            )
            _add(ledger, attempt, root, root=True, link_of=link_of, direct=True, by=by)
            return Filed(root=True)
        ev["reported_by"] = by
        conn.execute(
            "UPDATE failures SET evidence = ?, message = message || ? WHERE id = ?",
            (json.dumps(ev), f"; also seen from {reporter}", row_id),
        )
        mine = root if own is None else own
        _add(ledger, attempt, _secondary(mine, host), root=False)
        return Filed(root=False, into=host)


def _secondary(row: Row, host: str, *, here: bool = False) -> Row:
    where = "recorded here" if here else f"recorded by {host}"
    return Row(
        time_s=row.time_s,
        action="none",
        rank=row.rank,
        host=row.host,
        message=f"secondary (the network, {where}): {row.message}",
        evidence=row.evidence,
        exit_code=row.exit_code,
        signal=row.signal,
    )


def _add(
    ledger: Ledger,
    attempt: int,
    row: Row,
    *,
    root: bool,
    link_of: str | None = None,
    direct: bool = False,
    by: list[str] | None = None,
) -> None:
    evidence = dict(row.evidence)
    if root:
        evidence.update(link_of=link_of, direct=direct, reported_by=list(by or []))
    ledger.add_failure(
        attempt=attempt,
        time_s=row.time_s,
        category=NETWORK,
        action=row.action if root else "none",
        rank=row.rank,
        host=row.host,
        exit_code=row.exit_code,
        signal=row.signal,
        message=row.message[:2000],
        evidence=evidence,
        root_cause=root,
    )


def failed_roots(ledger: Ledger, attempt: int) -> list[str]:
    """The hosts of the attempt's network root causes that failed it (not healed)."""
    rows = ledger.rows(
        "SELECT host, evidence FROM failures WHERE attempt = ? AND root_cause = 1 AND category = ?",
        (attempt, NETWORK),
    )
    return [str(h) for h, text in rows if not evidence_of(text).get("healed")]


def link_flap_attempts(ledger: Ledger, host: str, *, before: int) -> set[int]:
    """The attempts before `before` whose network root cause was `host`'s link, whoever
    filed it (its own agent, from its carrier, or its peers, that could not reach it); an
    outage that healed by itself is not counted."""
    rows = ledger.rows(
        "SELECT attempt, evidence FROM failures WHERE root_cause = 1 AND category = ?"
        " AND host = ? AND attempt < ?",
        (NETWORK, host, before),
    )
    return {
        int(a)
        for a, text in rows
        if evidence_of(text).get("link_of") == host and not evidence_of(text).get("healed")
    }


def unclaimed_healed(ledger: Ledger, attempt: int, host: str) -> list[tuple[float, dict[str, Any]]]:
    """(time, evidence) of the attempt's healed incidents that `host`'s peers filed and could
    not place (no link named) or placed on `host`'s link, its own agent not (not `direct`)."""
    rows = ledger.rows(
        "SELECT time, evidence FROM failures WHERE attempt = ? AND root_cause = 1 AND category = ?",
        (attempt, NETWORK),
    )
    out = []
    for t, text in rows:
        ev = evidence_of(text)
        if ev.get("healed") and not ev.get("direct") and ev.get("link_of") in (None, host):
            out.append((float(t), ev))
    return out


def healed(ledger: Ledger) -> list[dict[str, Any]]:
    """The run's network incidents that healed without a restart, oldest first: attempt,
    time, host, stalled_s, outage_s, held_s, message."""
    rows = ledger.rows(
        "SELECT attempt, time, host, evidence, message FROM failures WHERE root_cause = 1"
        " AND category = ? ORDER BY time",
        (NETWORK,),
    )
    out = []
    for attempt, t, host, text, message in rows:
        ev = evidence_of(text)
        if ev.get("healed"):
            out.append(
                {
                    "attempt": int(attempt),
                    "time": float(t),
                    "host": host,
                    "stalled_s": ev.get("stalled_s"),
                    "outage_s": ev.get("outage_s"),
                    "held_s": ev.get("held_s"),
                    "message": message,
                }
            )
    return out


def filed_by_peers(ledger: Ledger, host: str, attempt: int) -> tuple[str, list[str]] | None:
    """(action, reporters) of the attempt's network root cause when its peers filed it as
    `host`'s link and `host` itself has not (not `direct`); else None."""
    rows = ledger.rows(
        "SELECT action, evidence FROM failures WHERE attempt = ? AND root_cause = 1"
        " AND category = ? AND host = ?",
        (attempt, NETWORK, host),
    )
    for action, text in rows:
        ev = evidence_of(text)
        if ev.get("link_of") == host and not ev.get("direct") and not ev.get("healed"):
            return str(action), [str(h) for h in ev.get("reported_by") or []]
    return None


def confirm(ledger: Ledger, *, attempt: int, host: str, action: str, words: str) -> None:
    """`host`'s own agent takes its peers' filing of its link as its own: the root cause's
    action becomes its decision (it alone counts its link's flaps and excludes itself), it
    joins the reporters and the root cause is marked `direct` (nobody takes it over)."""
    with ledger.transaction() as conn:
        rows = conn.execute(
            "SELECT id, evidence FROM failures WHERE attempt = ? AND root_cause = 1"
            " AND category = ? AND host = ?",
            (attempt, NETWORK, host),
        ).fetchall()
        for row_id, text in rows:
            ev = evidence_of(text)
            if ev.get("link_of") != host or ev.get("healed"):
                continue
            by = [str(h) for h in ev.get("reported_by") or []]
            ev.update(direct=True, reported_by=[*by, host] if host not in by else by)
            conn.execute(
                "UPDATE failures SET action = ?, evidence = ?, message = message || ? WHERE id = ?",
                (action, json.dumps(ev), f"; {host}: {words}", row_id),
            )


@dataclass(frozen=True)
class StoreCause:
    """What a lost rendezvous store says of its host (store_host_cause's answer)."""

    category: str
    host: str
    """The host the root cause goes on."""
    words: str
    link_of: str | None = None


def store_host_cause(
    store_host: str,
    endpoint: str,
    *,
    me: str,
    answers: bool,
    own_flap: str | None,
    reached: int,
    others: int,
    lost_node: str,
) -> StoreCause:
    """The cause of a lost store whose host `store_host` is a node of the job, from what
    this node can see: whether the host's kernel `answers` a TCP connect (accepted or
    refused), this node's own carrier (`own_flap`: its words when it went down), and how
    many of the job's `others` peer nodes (neither this one nor the store's host) it
    `reached`. A host that answers but serves no store lost its processes (the node lost
    whole: `lost_node`); a host that does not answer is cut off by the network, or
    powered off, which nothing here tells apart, so the network's category, with words
    that say so."""
    at = f"it hosted the rendezvous store at {endpoint}"
    if answers:
        return StoreCause(
            lost_node,
            store_host,
            f"node {store_host} lost ({at}): its kernel answers a TCP connect but its "
            "agent, and with it the store, is gone",
        )
    if own_flap:
        return StoreCause(
            NETWORK, me, f"{own_flap}: the store's host {store_host} ({at}) cut off", me
        )
    if others and not reached:
        return StoreCause(
            NETWORK,
            me,
            f"the network: this node's link is up but it reached none of its peer nodes, "
            f"the store's host {store_host} ({at}) included",
        )
    if others:
        return StoreCause(
            NETWORK,
            store_host,
            f"{store_host}'s link: the store's host ({at}) does not answer a TCP connect "
            f"while this node reached {reached} of its {others} other peer nodes (its cable, "
            "port or NIC; or the host itself, powered off: from here no telling which)",
            store_host,
        )
    return StoreCause(
        NETWORK,
        store_host,
        f"{store_host} cut off ({at}): it does not answer a TCP connect (its link, the "
        "switch, or the host powered off: with no other peer node, no telling which)",
    )
