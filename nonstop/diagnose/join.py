"""`diagnose_run`: one verdict for one attempt of a run, from everything the run directory holds.

    nonstop diagnose RUN_DIR [--attempt N] [--json]

    from nonstop.diagnose import diagnose_run
    v = diagnose_run("runs/20261129-201500-a1b2c3")        # latest attempt
    v.category, v.action, v.hosts                           # what the supervisor acts on

Sources, each optional: flight-recorder dumps (flight/attempt-N), every file in logs/attempt-N
(rank logs, and host logs such as kernel messages if the supervisor collected them), the ledger's
``failures`` (exit codes, signals) and ``health_checks`` tables, and straggler scores from the
event streams. Candidates from all sources are weighed by specificity (see signatures.py); a
signature on the host or rank that the flight recorder blames gets a bonus, so a watchdog
timeout everywhere plus an Xid 79 on the hung rank's host reads as a faulty GPU on that host.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from nonstop import taxonomy
from nonstop.anomalies import CATEGORY, HEALTH_DIR, read_anomalies
from nonstop.diagnose import flight, gather, peers, stragglers, triage
from nonstop.diagnose.verdict import Culprit, Verdict, merge_culprits
from nonstop.errors import UserError
from nonstop.events import iter_events
from nonstop.rundir import RunDir, open_existing

FLIGHT_BLAME_BONUS = 15  # specificity added to a hit on the host/rank the flight recorder blames
HEALTH_SPECIFICITY = 95
ANOMALY_SPECIFICITY = 97  # every rank's guards agreed on it (nonstop.runtime.guards)
# The flight verdict outranks symptoms (watchdog, store, gloo peer lost: 20-30), not causes.
DEAD_RANK_SPECIFICITY = 31  # above the symptoms a vanished peer causes (gloo/NCCL: 28-30)
FLIGHT_SPECIFICITY = {
    "nccl_watchdog_timeout": 32,
    "user_code_error": 60,
}  # a failed health check is a direct test of the host's hardware

# Health-check name fragment -> category (first match wins; checks are named by the supervisor).
HEALTH_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("ecc", "gpu_hbm3_memory"),
    ("remap", "gpu_hbm3_memory"),
    ("hbm", "gpu_hbm3_memory"),
    ("gsp", "gpu_system_processor"),
    ("thermal", "gpu_thermal_interface_sensor"),
    ("nvlink", "faulty_gpu"),
    ("gpu", "faulty_gpu"),
    ("nvml", "faulty_gpu"),
    ("nic", "nic"),
    ("ib", "nic"),
    ("network", "nic"),
    ("rdma", "nic"),
    ("disk", "ssd"),
    ("nvme", "ssd"),
    ("storage", "storage"),
    ("fs", "storage"),
    ("memory", "system_memory"),
    ("cpu", "cpu"),
    ("power", "power_supply"),
)
COLLECTIVE_FAILED = triage.COLLECTIVE_FAILED  # a rank's collective failed: a peer went away
# The supervisor's own root-cause decision (the ledger's failures with root_cause = 1, what
# `nonstop report` lists): above every peer-went-away symptom (20-30) when it names no category,
# so that diagnose names the rank the ledger and the report name. A failure the supervisor
# recorded as an echo of a peer's (root_cause = 0) is no candidate at all.
ROOT_CAUSE_SPECIFICITY = 31
ECHO_SPECIFICITY = 1
_PASSING = {"pass", "passed", "ok", "healthy", "skip", "skipped"}
_ATTEMPT = re.compile(r"^attempt-(\d+)$")


def attempts_on_disk(rd: RunDir) -> set[int]:
    """The attempts that left a folder of events, logs or flight dumps."""
    found: set[int] = set()
    for sub in ("events", "logs", "flight"):
        base = rd.root / sub
        if base.is_dir():
            found |= {int(m.group(1)) for p in base.iterdir() if (m := _ATTEMPT.match(p.name))}
    return found


def latest_attempt(rd: RunDir) -> int:
    return max(attempts_on_disk(rd) | {0})


def rank_hosts(rd: RunDir, attempt: int) -> dict[int, str]:
    """rank -> host, from the first event of each rank's stream (every record carries host)."""
    out = {}
    for a, rank, path in rd.event_files():
        if a == attempt:
            for e in iter_events(path):
                out[rank] = e.host
                break
    return out


def read_ledger(
    rd: RunDir, attempt: int, problems: list[str] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Rows of `failures` and `health_checks` for this attempt; empty if absent (read-only).
    A ledger that cannot be read (garbage, truncated by a crash) reads as empty too, and what
    was wrong is appended to `problems`."""
    out: dict[str, list[dict[str, Any]]] = {"failures": [], "health_checks": []}
    if not rd.ledger.exists():
        return out
    try:
        con = sqlite3.connect(f"file:{rd.ledger}?mode=ro", uri=True)
    except sqlite3.Error as e:
        if problems is not None:
            problems.append(str(e))
        return out
    with contextlib.closing(con):
        con.row_factory = sqlite3.Row
        for table in out:
            try:
                rows = con.execute(f"SELECT * FROM {table}").fetchall()  # fixed table names
            except sqlite3.Error as e:  # not a database, malformed; or no such table (yet)
                if "no such table" in str(e):
                    continue  # the ledger is optional
                if problems is not None:
                    problems.append(str(e))
                break
            out[table] = [dict(r) for r in rows if dict(r).get("attempt", attempt) == attempt]
    return out


def _health_hits(rows: list[dict[str, Any]]) -> list[triage.Hit]:
    hits = []
    for i, r in enumerate(rows, start=1):
        if str(r.get("status", "")).lower() in _PASSING:
            continue
        name = str(r.get("name", "?"))
        cat = next((c for frag, c in HEALTH_CATEGORIES if frag in name.lower()), "faulty_gpu")
        # a check that names its finding's category (the vendor check: "... [ssd]") is read so
        named = [c for c in re.findall(r"\[([a-z0-9_]+)\]", str(r.get("detail") or ""))]
        cat = next((c for c in named if c in taxonomy.IDS), cat)
        text = f"health check {name} on {r.get('host')}: {r.get('status')} {r.get('detail') or ''}"
        hits.append(
            triage.Hit(
                f"health_{name}",
                cat,
                HEALTH_SPECIFICITY,
                0.9,
                f"health check {name} failed",
                "ledger:health_checks",
                i,
                text.strip(),
                host=r.get("host"),
            )
        )
    return hits


def _anomaly_hits(rd: RunDir, attempt: int) -> list[triage.Hit]:
    """The numerical anomaly the ranks' guards agreed on in this attempt (NaN/Inf, a loss
    spike, replicas whose fingerprints disagree): one hit per named rank."""
    hits = []
    for a in read_anomalies(rd.root):
        if int(a.get("attempt", -1)) != attempt:
            continue
        hosts = list(a.get("hosts") or [])
        where = f"{HEALTH_DIR}/anomaly-{attempt}-{a['step']}.json"
        for r in a.get("ranks") or [None]:
            host = hosts[r] if r is not None and 0 <= r < len(hosts) else None
            hits.append(
                triage.Hit(
                    f"guard_{a['kind']}",
                    CATEGORY[a["kind"]],
                    ANOMALY_SPECIFICITY,
                    0.95,
                    "the ranks' numerical guards agreed",
                    where,
                    1,
                    str(a.get("detail", "")),
                    host=host,
                    rank=r,
                )
            )
    return hits


def root_ranks(rows: list[dict[str, Any]]) -> frozenset[int]:
    """The ranks the supervisor recorded as the root cause of an unplanned failure (a ledger
    without the root_cause column counts every failure as one, as it was written)."""
    return frozenset(
        int(r["rank"])
        for r in rows
        if r.get("rank") is not None and r.get("root_cause", 1) and not r.get("planned")
    )


def _failure_hits(rows: list[dict[str, Any]]) -> list[triage.Hit]:
    hits = []
    for i, r in enumerate(sorted(rows, key=lambda r: r.get("time") or 0), start=1):
        cat = r.get("category") if r.get("category") in taxonomy.IDS else taxonomy.UNKNOWN
        text = (
            f"rank {r.get('rank')} on {r.get('host')}: exit code {r.get('exit_code')}, "
            f"signal {r.get('signal')}: {r.get('message') or ''}"
        ).strip()
        # the supervisor's own reading: its root cause outranks the symptoms it caused in peers
        root = bool(r.get("root_cause", 1))
        spec = (
            (30 if cat != taxonomy.UNKNOWN else ROOT_CAUSE_SPECIFICITY)
            if root
            else ECHO_SPECIFICITY
        )
        sig = f": it died of {r['signal']}" if r.get("signal") else ""
        meaning = (
            f"nonstop run recorded this rank's failure as the root cause{sig}"
            if root
            else "nonstop run recorded this failure as an echo of a peer's"
        )
        hits.append(
            triage.Hit(
                f"exit_{cat}",
                str(cat),
                spec,
                0.5,
                meaning,
                "ledger:failures",
                i,
                text,
                host=r.get("host"),
                rank=r.get("rank"),
            )
        )
    return hits


def _peer_gone_as_symptoms(hits: list[triage.Hit], roots: frozenset[int]) -> list[triage.Hit]:
    """A rank whose log says its peer went away (gloo's "Connection closed by peer", NCCL's
    remote error or watchdog) is never the culprit while a peer's own failure is on record as
    the root cause: those lines stay as evidence, below every candidate."""
    return [
        replace(h, specificity=ECHO_SPECIFICITY)
        if h.signature in COLLECTIVE_FAILED
        and h.rank is not None
        and h.rank not in roots
        and roots - {h.rank}
        else h
        for h in hits
    ]


def diagnose_run(
    run_dir: str | Path, attempt: int | None = None, *, workers: int | None = None
) -> Verdict:
    """One verdict for `attempt` (default: the latest) of the run in `run_dir`. `workers`:
    processes that read the per-rank files (default: one per core; nonstop.diagnose.gather)."""
    rd = open_existing(run_dir)
    attempt = latest_attempt(rd) if attempt is None else attempt
    got = gather.read_attempt(rd, attempt, workers=workers)
    hosts = got.hosts
    evidence: list[str] = []
    details: dict[str, Any] = {"attempt": attempt}

    hits: list[triage.Hit] = []
    pci_map: dict[str, int] = {}
    files = got.logs
    for path, s in zip(files, got.scans, strict=True):
        pci_map.update(s.pci_map)
        m = gather.RANK_LOG.match(path.name)
        rank = int(m.group(1)) if m else None
        for h in s.hits:
            if h.rank is None:
                h.rank = rank
            if h.host is None and rank is not None:
                h.host = hosts.get(rank)
            hits.append(h)

    # ranks whose log shows their last collective failed (a peer vanished): the flight
    # analysis must not read that collective as completed
    errored = frozenset(
        h.rank for h in hits if h.rank is not None and h.signature in COLLECTIVE_FAILED
    )
    fv: Verdict | None = None
    if got.flight is not None:
        try:
            world = rd.read_config().get("world_size")
        except UserError as e:  # half-written or damaged: the world size from the hosts
            world = None
            evidence.append(f"{e}: the world size is taken from the ranks' event streams")
        world = world if isinstance(world, int) else (max(hosts) + 1 if hosts else None)
        fv = flight.verdict_from(
            got.flight,
            hosts=hosts,
            world_size=world,
            source=str(rd.flight_dir(attempt)),
            errored=errored,
        )
        details["flight"] = fv.to_dict()
        evidence.append(f"flight recorder: {fv.verdict}")
    blamed_hosts = {c.host for c in (fv.culprits if fv else []) if c.host}
    blamed_ranks = {c.rank for c in (fv.culprits if fv else []) if c.rank is not None}

    problems: list[str] = []
    ledger = read_ledger(rd, attempt, problems)
    hits = _peer_gone_as_symptoms(hits, root_ranks(ledger["failures"]))
    hits += _health_hits(ledger["health_checks"]) + _failure_hits(ledger["failures"])
    hits += _anomaly_hits(rd, attempt)
    details["ledger"] = {k: len(v) for k, v in ledger.items()}
    if problems:  # said, not silent: without the ledger's root cause a victim may be named
        details["ledger_error"] = problems[0]
        evidence.append(
            f"{rd.ledger}: unreadable ({problems[0]}): the recorded failures, root causes and "
            f"health checks were left out"
        )

    weighted = [
        replace(h, specificity=h.specificity + FLIGHT_BLAME_BONUS)
        if (h.host and h.host in blamed_hosts) or (h.rank is not None and h.rank in blamed_ranks)
        else h
        for h in hits
    ]
    _, report = stragglers.replay(got.streams)
    report = stragglers.with_slow_link(report, rd, attempt)
    # the stragglers named: flagged and behind their peers, the rule the running job's agent
    # records them by (a rank flagged only against its own past is the job slowing together)
    named = report.stragglers
    details["stragglers"] = {
        "flagged_ranks": report.flagged_ranks,
        "behind_peers": sorted(report.behind_peers),
        "flagged_hosts": report.flagged_hosts,
        "slow_link": report.slow_link,
    }
    for r, why in named.items():
        evidence.append(f"straggler: rank {r} on {hosts.get(r, '?')}: {why}")
    if report.slow_link:
        evidence.append(f"slow link: {report.slow_link['text']}")

    best = max(weighted, key=lambda h: (h.specificity, -h.line), default=None)
    flight_spec = FLIGHT_SPECIFICITY.get(fv.category, 0) if fv is not None else 0
    if fv is not None and fv.category == taxonomy.UNKNOWN and fv.culprits:
        flight_spec = DEAD_RANK_SPECIFICITY  # a named dead rank outranks its peers' symptoms
    if fv is not None and flight_spec and (best is None or best.specificity < flight_spec):
        # the flight recorder's verdict; its evidence and details are under details["flight"]
        v = replace(fv, evidence=[], details={}, guessed=False)
        if best is not None:
            evidence.append(f"symptom: {best.file}:{best.line}: [{best.signature}] {best.text}")
    elif best is not None:
        v = triage.decide(weighted, pci_map=pci_map)
        top = v.culprits[0]
        if best.host in blamed_hosts or best.rank in blamed_ranks:
            v.confidence = min(0.99, v.confidence + 0.05)
            v.verdict += " The flight recorder blames the same rank/host."
        same = [c for c in (fv.culprits if fv else []) if c.host == top.host or c.rank == top.rank]
        v.culprits = merge_culprits(v.culprits + same)
    elif report.slow_link:  # before the compute scores: a link slows every rank's wait
        slow = report.slow_link
        v = Verdict(
            verdict=f"No failure signature; a slow link, not a slow rank: {slow['text']}. "
            "Every rank waits in the collectives it carries: the slowdown is the link's, "
            "not a rank's compute. "
            "Check the node's cable, port and NIC."
            + (
                " Compute scores flagged too: "
                + "; ".join(f"rank {r} on {hosts.get(r, '?')}" for r in named)
                + " (look again once the link is fixed)."
                if named
                else ""
            ),
            category="network_switch_cable",
            action="exclude_node",
            confidence=0.5,
            culprits=[Culprit(host=str(slow["host"]), evidence=[str(slow["text"])])],
        )
    elif named:
        v = Verdict(
            verdict="No failure signature; persistent straggler(s): "
            + "; ".join(f"rank {r} on {hosts.get(r, '?')}" for r in named)
            + ". Exclude the slow host if it keeps the whole job waiting.",
            action="exclude_node",
            confidence=0.5,
            culprits=[
                Culprit(rank=r, host=hosts.get(r), evidence=[why]) for r, why in named.items()
            ],
        )
    else:
        v = Verdict(
            verdict=f"Nothing conclusive for attempt {attempt}: no failure signature, "
            "no hang and no straggler found.",
            confidence=0.1,
        )
    link = _failing_link(rd, got.link_peers, hosts)
    if link is not None:
        details["link"] = link.to_dict()
        evidence.append(f"failing connections: {link.text()}")
        if v.category in (taxonomy.UNKNOWN, "network_switch_cable", "nccl_watchdog_timeout"):
            v.verdict += f" The failing connections have one host in common: {link.text()}."
    v.evidence = v.evidence + evidence
    v.details = {**details, "triage": v.details.get("evidence_lines", [])}
    return v


def _failing_link(
    rd: RunDir, found: list[tuple[int, list[str]]], hosts: dict[int, str]
) -> peers.LinkVerdict | None:
    """The host every rank's failing connections name (nonstop.diagnose.peers), from the
    peers named in the tail of each rank's log (gather.read_logs); addresses named through
    the agents' nodes/<host>.json."""
    by_address = peers.node_addresses(rd.root)
    return peers.common_peer_of(
        ((hosts.get(rank, "?"), ips) for rank, ips in found),
        by_address,
        own={h: a for a, h in by_address.items()},
    )
