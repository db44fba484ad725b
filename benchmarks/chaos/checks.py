"""What a chaos run must prove: same parameters, no checkpoint lost, every fault accounted for.

`evaluate(schedule, work, record, reference)` returns the result dict of one run:

    identical   the final parameters equal the fault-free reference's, tensor by tensor
                (torch.equal: bit for bit, not within a tolerance)
    lost        committed checkpoints that disappeared while no newer good one existed
                (retention after a newer commit is fine; a checkpoint the harness corrupted is
                expected to be quarantined, not lost)
    injected    faults that really happened: the injector's own records (`failure` events
                with injected=true, written when a fault takes effect: a slow rank at its first
                slowed step, a full disk at its first refused write) plus the harness's record
                of its external faults; never what the schedule merely asked for
    skipped     scheduled faults that did not happen: external ones whose moment never came,
                injector ones the injector never logged
    detected    of those, the ones the ledger shows a detection for
    recovered   of those, the ones followed by the action that fits (restart for failures,
                training on for a full disk) and a run that finished
    missed      injected, not detected (listed with why)
    phantom     root-cause failures in the ledger that no injected fault explains

The ledger is read with sqlite3 directly (read-only), events with plain json, so a bug in
nonstop's readers cannot hide a fault from this check.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.chaos.harness import Record
from benchmarks.chaos.schedule import NUMERIC, Schedule

FAILS = (
    "sigkill",
    "sigstop",
    "exception",
    "kill_mid_write",
    "bitflip",
    "rdzv_loss",
    "kill_in_restart",
)


def compare_params(a: Path, b: Path) -> tuple[bool, str]:
    import torch

    if not a.exists() or not b.exists():
        return False, f"missing {a if not a.exists() else b}"
    x, y = torch.load(a, weights_only=True), torch.load(b, weights_only=True)
    if x.keys() != y.keys():
        return False, f"different tensors: {sorted(set(x) ^ set(y))[:5]}"
    bad = [k for k in x if not torch.equal(x[k], y[k])]
    return not bad, (
        f"{len(bad)} of {len(x)} tensors differ: {bad[:3]}"
        if bad
        else f"{len(x)} tensors bitwise equal"
    )


def injector_record(run_dir: Path) -> list[dict[str, Any]]:
    """The `failure` events with injected=true: attempt, rank, fault kind, spec, time."""
    out = []
    for path in sorted(run_dir.glob("events/attempt-*/rank-*.jsonl")):
        for line in path.read_bytes().splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                e = json.loads(line)
                p = e["payload"]
                if e["kind"] == "failure" and p.get("injected"):
                    out.append(
                        {
                            "attempt": e["attempt"],
                            "rank": e["rank"],
                            "time": e["time"],
                            "fault": p.get("fault"),
                            "spec": p.get("spec"),
                            "step": p.get("step"),
                        }
                    )
    return out


def injected_faults(s: Schedule, run_dir: Path) -> list[dict[str, Any]]:
    """`injector_record` without the schedule's pacing (every rank's slow: not a fault)."""
    pacing = s.injects()[-1]
    return [r for r in injector_record(run_dir) if r["spec"] != pacing]


def fault_items(inj: list[dict[str, Any]], record: Record) -> list[dict[str, Any]]:
    """One item per fault to account for (kind, attempt, rank, source): each injected one
    (`inj`: `injected_faults`), by the schedule's kind name, then each the harness did."""
    items: list[dict[str, Any]] = []
    for r in inj:
        kind = {"crash": "sigkill", "hang": "sigstop", "bitflip": "param_bitflip"}.get(
            r["fault"], r["fault"]
        )
        if kind == "spike" and r["rank"] != 0:
            continue  # one poisoned batch, logged by every rank: counted once
        items.append(
            {
                "kind": kind,
                "attempt": r["attempt"],
                "rank": r["rank"],
                "source": "injector",
                "spec": r["spec"],
            }
        )
    for f in record.faults:
        items.append(
            {"kind": f["kind"], "attempt": f["attempt"], "rank": f["rank"], "source": "harness"}
        )
    return items


def bitflip_quarantined(run_dir: Path, record: Record, attempt: int) -> bool:
    """Whether the checkpoint the harness flipped a bit in during `attempt` was set aside as
    corrupt (step-N.corrupt) by the load that refused it."""
    step = next(
        f["checkpoint"] for f in record.faults if f["kind"] == "bitflip" and f["attempt"] == attempt
    )
    return (run_dir / "checkpoints" / f"step-{step}.corrupt").exists()


def lost_checkpoints(record: Record) -> tuple[int, list[str]]:
    """Committed checkpoints that vanished while no newer good one was there to replace them."""
    problems: list[str] = []
    flips = list(record.corrupted)
    prev: set[int] = set()
    ever = False
    for t, steps in record.commits:
        now = set(steps)
        ever = ever or bool(now)
        if ever and not now:
            problems.append(f"no committed checkpoint at all at {t:.3f}")
        for gone in sorted(prev - now):
            flipped = any(s == gone and tf <= t for s, tf in flips)
            if flipped:  # quarantined after our bit flip: expected, once per flip
                flips = [(s, tf) for s, tf in flips if s != gone]
                continue
            if not any(n > gone for n in now):
                problems.append(f"step-{gone} disappeared at {t:.3f} with only {sorted(now)}")
        prev = now
    return len(problems), problems


def _ledger(run_dir: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{run_dir / 'ledger.db'}?mode=ro", uri=True, timeout=30)
    conn.row_factory = sqlite3.Row
    return conn


def supervisor_actions(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """The supervisor's actions (restart, exclude, ...) in time order: its responses to an
    attempt's failure. The workers' own `skip_batches` (recorded at the start of the attempt
    after a loss spike's rollback) is left out: it answered the previous attempt's spike, and
    read first it was taken for the response to this attempt's fault (a SIGSTOP counted as
    unrecovered, chaos seed 6)."""
    rows = conn.execute(
        "SELECT attempt, action FROM actions WHERE action != 'skip_batches' ORDER BY time, id"
    )
    return [{"attempt": a, "action": act} for a, act in rows]


def account_faults(s: Schedule, run_dir: Path, record: Record, finished: bool) -> dict[str, Any]:
    """Match every injected fault to the ledger's failures, detections and actions."""
    conn = _ledger(run_dir)
    try:
        failures = [
            dict(r)
            for r in conn.execute(
                "SELECT attempt, rank, category, action, message FROM failures WHERE root_cause = 1"
            )
        ]
        detections = [dict(r) for r in conn.execute("SELECT attempt, kind, rank FROM detections")]
        actions = supervisor_actions(conn)
        ckpts = [
            dict(r)
            for r in conn.execute("SELECT attempt, rank, step, phase, error FROM checkpoints")
        ]
    finally:
        conn.close()
    inj = injected_faults(s, run_dir)
    items = fault_items(inj, record)
    # what really fired is what the injector logged; a scheduled fault it never logged did
    # not happen, whatever the schedule asked for
    unfired = [
        {**f.to_dict(), "why": "the injector never logged it as fired"}
        for f in s.faults
        if f.spec() is not None
        and not any(r["spec"] == f.spec() and r["attempt"] == f.attempt for r in inj)
    ]
    fired_slow = [it for it in items if it["kind"] == "slow"]
    explained: set[int] = set()
    for it in items:
        a, r, k = it["attempt"], it["rank"], it["kind"]
        acts = [x["action"] for x in actions if x["attempt"] == a]
        if k in FAILS:
            match = [i for i, f in enumerate(failures) if f["attempt"] == a and f["rank"] == r]
            det = [
                d
                for d in detections
                if d["attempt"] == a and d["rank"] == r and d["kind"] in ("exit", "hang")
            ]
            explained.update(match)
            it["detected"] = bool(match and det)
            it["action"] = acts[0] if acts else (failures[match[0]]["action"] if match else None)
            it["recovered"] = it["detected"] and it["action"] == "restart" and finished
            if k == "rdzv_loss" and not match:
                # the agent records the lost store itself (a `store_lost` detection and a
                # `dependency` failure on no rank) and reconnects; an older nonstop died of it
                # and was closed by the next `nonstop run`: recovered only through a requeue
                lost = [
                    i
                    for i, f in enumerate(failures)
                    if f["attempt"] == a and "rendezvous store" in (f["message"] or "")
                ]
                if lost:
                    explained.update(lost)
                    it["detected"] = any(
                        d["attempt"] == a and d["kind"] == "store_lost" for d in detections
                    )
                    it["action"] = failures[lost[0]]["action"]
                    it["recovered"] = it["detected"] and it["action"] == "restart" and finished
                else:
                    match = [
                        i
                        for i, f in enumerate(failures)
                        if f["attempt"] == a and "supervisor stopped" in (f["message"] or "")
                    ]
                    explained.update(match)
                    it["detected"] = bool(match)
                    it["action"] = "requeue" if record.requeues else None
                    it["recovered"] = bool(match) and finished and not record.requeues
            if k == "bitflip":  # the next attempt must have refused it and fallen back
                quarantined = bitflip_quarantined(run_dir, record, a)
                it["quarantined"] = quarantined
                it["detected"] = it["detected"] and quarantined
                it["recovered"] = it["recovered"] and quarantined
        elif k in NUMERIC:  # the guards' rollback (docs/health.md): one root cause per anomaly
            match = [
                i
                for i, f in enumerate(failures)
                if f["attempt"] == a and f["category"] == NUMERIC[k]
            ]
            explained.update(match)
            recorded = list((run_dir / "health").glob(f"anomaly-{a}-*.json"))
            it["detected"] = bool(match and recorded)
            it["action"] = failures[match[0]]["action"] if match else None
            it["recovered"] = it["detected"] and it["action"] == "restart" and finished
        elif k == "supervisor_kill":
            match = [
                i
                for i, f in enumerate(failures)
                if f["attempt"] == a and "supervisor stopped" in (f["message"] or "")
            ]
            explained.update(match)
            det = [d for d in detections if d["attempt"] == a and d["kind"] == "supervisor_restart"]
            it["detected"] = bool(match and det)
            it["action"] = acts[0] if acts else (failures[match[0]]["action"] if match else None)
            it["recovered"] = it["detected"] and finished
        elif k == "kill_in_health_check":
            # the supervisor died while recovering from attempt a's failure: the next supervisor
            # must notice that the recovery never finished (no action was recorded for it)
            det = [d for d in detections if d["attempt"] == a and d["kind"] == "supervisor_restart"]
            it["detected"] = bool(det)
            it["action"] = acts[0] if acts else None
            it["recovered"] = finished and it["action"] == "restart"
        elif k == "diskfull":
            failed = [
                c
                for c in ckpts
                if c["attempt"] == a and c["phase"] == "failed" and "No space" in (c["error"] or "")
            ]
            later = [
                c
                for c in ckpts
                if c["attempt"] == a
                and c["phase"] == "committed"
                and failed
                and c["step"] > min(x["step"] for x in failed)
            ]
            it["detected"] = bool(failed)
            it["action"] = "train_on" if later else None
            it["recovered"] = bool(failed and later)
        elif k == "slow":
            det = [
                d
                for d in detections
                if d["attempt"] == a and d["rank"] == r and d["kind"] == "straggler"
            ]
            it["detected"] = bool(det)
            it["action"] = "none (a straggler is flagged, not restarted)"
            it["recovered"] = it["detected"] and finished
    phantom = [f for i, f in enumerate(failures) if i not in explained]
    stray = [
        d
        for d in detections
        if d["kind"] == "straggler"
        and not any(f["attempt"] == d["attempt"] and f["rank"] == d["rank"] for f in fired_slow)
    ]
    return {
        "items": items,
        "injected": len(items),
        "detected": sum(bool(i.get("detected")) for i in items),
        "recovered": sum(bool(i.get("recovered")) for i in items),
        "missed": [i for i in items if not i.get("detected")],
        "phantom": phantom,
        "stray_detections": stray,
        "injector_records": len(inj),
        "unfired": unfired,
    }


def ettr_vs_daly(run_dir: Path) -> dict[str, Any]:
    """Achieved ETTR and 1 - waste at Daly's interval for the run's own delta, R and MTBI."""
    from nonstop.ledger import summarize_run
    from nonstop.sim.interval import daly_interval_s, waste_fraction

    summary = summarize_run(run_dir).to_dict()
    conn = _ledger(run_dir)
    try:
        (blocking,) = conn.execute(
            "SELECT AVG(blocking_s) FROM checkpoints WHERE phase = 'committed'"
        ).fetchone()
        (n,) = conn.execute("SELECT COUNT(*) FROM failures WHERE root_cause = 1").fetchone()
    finally:
        conn.close()
    bad = summary["badput_s"]
    wall = float(summary["wall_s"])
    out: dict[str, Any] = {
        "ettr": summary["ettr"],
        "wall_s": wall,
        "badput_s": bad,
        "interruptions": n,
        "attempts": summary["attempts"],
    }
    if not n or wall <= 0:
        out["limit"] = None
        return out
    delta = float(blocking or 0.0)
    mtbi = wall / n
    restart = (bad["detection"] + bad["recovery"]) / n
    tau = max(daly_interval_s(delta, mtbi), 1e-3)
    out.update(
        blocking_s=delta,
        mtbi_s=mtbi,
        restart_s=restart,
        daly_interval_s=tau,
        limit=max(0.0, 1.0 - waste_fraction(tau, delta, mtbi, restart)),
    )
    # the waste model has no start-up term: the same comparison without the first start-up
    out["ettr_after_startup"] = summary["productive_s"] / max(1e-9, wall - bad["startup"])
    return out


def side_result(
    s: Schedule,
    work: Path,
    record: Record,
    reference: Path,
    account: Callable[[Schedule, Path, Record, bool], dict[str, Any]],
) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """What either side's result starts with: finished, parameters against the reference's,
    checkpoints lost, and the faults as `account(s, run_dir, record, finished)` counts them.
    Returns (the run directory, that accounting, the result so far)."""
    run_dir = work / "run"
    finished = bool(record.supervisor_exits) and record.supervisor_exits[-1] == 0
    identical, why = compare_params(reference, work / "final.pt")
    lost, lost_why = lost_checkpoints(record)
    faults = account(s, run_dir, record, finished)
    return (
        run_dir,
        faults,
        {
            "seed": s.seed,
            "steps": s.steps,
            "finished": finished,
            "identical": identical,
            "identical_detail": why,
            "lost": lost,
            "lost_detail": lost_why,
            "injected": faults["injected"],
            "detected": faults["detected"],
            "recovered": faults["recovered"],
            "missed": faults["missed"],
        },
    )


def evaluate(s: Schedule, work: Path, record: Record, reference: Path) -> dict[str, Any]:
    run_dir, faults, out = side_result(s, work, record, reference, account_faults)
    out.update(
        phantom=faults["phantom"],
        stray_detections=faults["stray_detections"],
        faults=faults["items"],
        skipped=record.skipped + faults["unfired"],
        requeues=record.requeues,
        orphans=record.orphans,
        supervisor_exits=record.supervisor_exits,
        commits_seen=sorted({x for _, st in record.commits for x in st}),
        ettr=ettr_vs_daly(run_dir),
        schedule=s.describe(),
    )
    return out
