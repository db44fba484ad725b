"""`nonstop diagnose RUN_DIR` without --attempt: the whole run, not only its last attempt.

A run that recovered has a failed attempt for each interruption and a healthy last one; a run
that finished needs no action at all. So the verdict reads the ledger's attempts first:

- finished (the last attempt succeeded): "the run finished", each interruption it recovered
  from summarised with its own diagnosis, action `none`;
- still running or stopped after failures: the newest failed attempt's diagnosis, with the
  earlier ones as evidence, and what nonstop run itself decided;
- no ledger (a bare folder of logs): the last attempt, as `--attempt` would.

Weak evidence is never a recommendation: a diagnosis that found nothing (unknown, low
confidence, or only unreadable dumps) says so with action `none` and shows the supervisor's own
decision from the ledger. A ledger that is not one is an error (exit 2), as in `nonstop report`.

    v = diagnose_history("runs/20261129-201500-a1b2c3")
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from nonstop import taxonomy
from nonstop.diagnose import join, peers
from nonstop.diagnose.verdict import Verdict
from nonstop.errors import UserError
from nonstop.rundir import RunDir, open_existing

WEAK_CONFIDENCE = 0.3
"""Below this a diagnosis of `unknown` (or a guessed hardware fault) is no evidence at all: no
action is recommended."""


@dataclass(frozen=True)
class AttemptRow:
    attempt: int
    outcome: str | None
    """succeeded, failed, planned, resized, or None while it runs."""
    actions: tuple[str, ...]
    """What the supervisor did after it, with the node (restart (node0), exclude_node
    (node1), stop_and_page, ...)."""


def read_attempts(ledger: Path) -> list[AttemptRow]:
    """The ledger's attempts, oldest first; [] without a ledger; UserError for a file that is
    not a ledger (garbage, truncated, another database)."""
    if not ledger.exists():
        return []
    try:
        con = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
        with contextlib.closing(con):
            attempts = con.execute("SELECT attempt, outcome FROM attempts ORDER BY attempt")
            rows = attempts.fetchall()
            acts: dict[int, list[str]] = {}
            with contextlib.suppress(sqlite3.Error):  # an older ledger without actions
                for attempt, action, host in con.execute(
                    "SELECT attempt, action, host FROM actions ORDER BY time"
                ):
                    # with the host: a lost node's exclusion and its survivors' restart
                    # are one decision, each node's part in it
                    did = f"{action} ({host})" if host else str(action)
                    acts.setdefault(int(attempt), []).append(did)
    except sqlite3.Error as e:
        raise UserError(f"{ledger}: not a nonstop ledger ({e}); nothing was changed") from None
    return [AttemptRow(int(a), o, tuple(acts.get(int(a), ()))) for a, o in rows]


def read_healed(ledger: Path) -> list[str]:
    """The run's network incidents that healed without a restart (nonstop run held the hang's
    kill while a link was down and the ranks resumed by themselves), one line each; [] without
    a ledger or an older one."""
    if not ledger.exists():
        return []
    out = []
    with contextlib.suppress(sqlite3.Error):
        con = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
        with contextlib.closing(con):
            for attempt, host, evidence in con.execute(
                "SELECT attempt, host, evidence FROM failures WHERE root_cause = 1"
                " AND category = 'network_switch_cable' ORDER BY time"
            ):
                try:
                    ev = json.loads(evidence or "{}")
                except ValueError:
                    continue
                if isinstance(ev, dict) and ev.get("healed"):
                    where = (
                        f"{host}'s link" if ev.get("link_of") else f"the network (seen from {host})"
                    )
                    out.append(
                        f"attempt {attempt}: {where}, the job stalled {ev.get('stalled_s')} s "
                        "and resumed by itself (no restart, 0 steps redone)"
                    )
    return out


def _with_healed(v: Verdict, healed: list[str]) -> Verdict:
    if healed:
        if v.category == taxonomy.UNKNOWN:
            v.category = "network_switch_cable"
        v.verdict += (
            f" {len(healed)} network outage(s) healed by themselves, no restart: "
            + "; ".join(healed)
            + "."
        )
        v.evidence = [*v.evidence, *(f"healed: {h}" for h in healed)]
        v.details = {**v.details, "healed_outages": len(healed)}
    return v


def weak(v: Verdict) -> bool:
    """A verdict that found nothing to act on: unknown, or a guessed hardware fault (named, but
    it restarts: nonstop.diagnose.fallback), on little evidence."""
    hardware_guess = v.guessed and v.action != taxonomy.action_for(v.category)
    return (v.category == taxonomy.UNKNOWN or hardware_guess) and v.confidence < WEAK_CONFIDENCE


def without_recommendation(v: Verdict, why: str) -> Verdict:
    v.action = "none"
    v.verdict += f" {why}"
    return v


def _summary(a: AttemptRow, v: Verdict) -> str:
    who = ", ".join(f"rank {c.rank}" + (f" on {c.host}" if c.host else "") for c in v.culprits[:2])
    did = f"; nonstop run: {', '.join(a.actions)}" if a.actions else ""
    what = "nothing conclusive" if weak(v) else f"{taxonomy.get(v.category).name}"
    return f"attempt {a.attempt}: {what}" + (f" ({who})" if who and not weak(v) else "") + did


def diagnose_history(run_dir: str | Path) -> Verdict:
    """One verdict for the whole run (see the module docstring); network outages that
    healed without a restart are told after it."""
    rd = open_existing(run_dir)
    return _with_healed(_diagnose_history(rd), read_healed(rd.ledger))


def _diagnose_history(rd: RunDir) -> Verdict:
    attempts = read_attempts(rd.ledger)
    if not attempts:
        v = join.diagnose_run(rd.root)
        if weak(v):
            without_recommendation(v, "No action is recommended on this evidence.")
        return v
    failed = [a for a in attempts if a.outcome == "failed"]
    verdicts = {a.attempt: join.diagnose_run(rd.root, a.attempt) for a in failed}
    history = [_summary(a, verdicts[a.attempt]) for a in failed]
    last = attempts[-1]
    if last.outcome == "succeeded":
        if failed:
            text = (
                f"The run finished: attempt {last.attempt} succeeded after "
                f"{len(failed)} interruption(s), each recovered: " + "; ".join(history) + "."
            )
            worst = max(verdicts.values(), key=lambda v: v.confidence)
            v = Verdict(
                verdict=text,
                category=worst.category,
                action="none",
                culprits=worst.culprits,
                confidence=worst.confidence,
            )
        else:
            v = Verdict(
                verdict=f"The run finished: attempt {last.attempt} succeeded with no interruption.",
                action="none",
                confidence=1.0,
            )
        v.evidence = history
        v.details = {"attempts": len(attempts), "failed_attempts": [a.attempt for a in failed]}
        slow = peers.slow_link(
            peers.read_net_samples(rd.root, last.attempt), peers.node_addresses(rd.root)
        )
        if slow is not None:  # nothing failed, but every rank waited on one node's link
            v.verdict += f" It ran slow on a slow link, not on a slow rank: {slow.text()}."
            v.evidence = [*v.evidence, f"slow link: {slow.text()}"]
            v.details["slow_link"] = slow.to_dict()
        return v
    if not failed:
        v = join.diagnose_run(rd.root, last.attempt)
        state = "is running" if last.outcome is None else f"ended {last.outcome}"
        if weak(v):
            v = Verdict(
                verdict=f"No failure so far: attempt {last.attempt} {state}.",
                action="none",
                confidence=0.5,
                details=v.details,
            )
        return v
    newest = failed[-1]
    v = verdicts[newest.attempt]
    if weak(v):
        did = ", ".join(newest.actions) or "no action recorded"
        without_recommendation(
            v, f"No action is recommended on this evidence; nonstop run decided: {did}."
        )
    if last.attempt != newest.attempt:
        state = "is running" if last.outcome is None else f"ended {last.outcome}"
        v.verdict = (
            f"Recovered: attempt {last.attempt} {state} after {len(failed)} "
            f"interruption(s). The newest, attempt {newest.attempt}: {v.verdict}"
        )
        if v.action != "none":
            v.action = "none"  # nonstop run already acted; the run goes on
    v.evidence = history + v.evidence
    v.details = {
        **v.details,
        "attempts": len(attempts),
        "failed_attempts": [a.attempt for a in failed],
    }
    return v
