"""What a replica-group chaos run must prove (issue 29: correctness without bitwise identity).

`evaluate(schedule, run_dir, record, reference_dir)` returns one run's result; `checks` holds
one boolean per claim and `passed` is their conjunction:

    finished            the job's `nonstop run` exited 0 and every group finished training
    no_step_lost        every step 0..steps-1 was committed by some group (steps_missing 0,
                        steps_committed == steps), from the groups' own step events
    no_step_twice       no group committed a step twice (steps_committed_twice 0)
    fingerprints_equal  every group ended with the same parameters (state_sha256)
    healed_from_peer    every group attempt after a restart that trained came back through
                        torchft's heal (a `healed` lifecycle event), and no group read a
                        checkpoint from storage (they write durable ones, which only a job
                        that lost every group at once reads)
    loss_within         the mean loss of the last 20% of the committed steps within
                        LOSS_TOLERANCE of the fault-free reference's (`loss_gap`)
    loss_exact_until_fewer_replicas  the loss of every committed step bitwise the reference's
                        until the first step committed with fewer replicas (`exact_until`)
    ledger_is_injector  every fault the injector logged as fired is a root-cause failure in
                        its own group's ledger, at its attempt and rank, of its category (an
                        exception user_code_error, a hang hang), with a detection (exit or
                        hang) and the action restart; no scheduled injector fault unfired;
                        no root-cause failure that no fault explains (a phantom)
    lighthouse_restarted  each Lighthouse the harness SIGKILLed was started again by the parent
                        (a `lighthouse_restarted` event after the kill, as many as kills)

A failure in a group within LIGHTHOUSE_WINDOW_S of a Lighthouse kill is not a phantom: a group
whose quorum cannot reach the Lighthouse within its hang timeout is called hung and restarted
(docs/run.md); those are listed as `lighthouse_collateral`, with their category, and counted.
The ledgers are read with sqlite3 (read-only) and the events with plain json
(benchmarks.chaos.checks), the report's figures with nonstop.report.replica_groups.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Final

from benchmarks.chaos.checks import injector_record
from benchmarks.chaos.replica_groups import RGRecord, RGSchedule

LOSS_TOLERANCE: Final = 0.05
"""The loss curve's tolerance: the mean loss over the last 20% of the committed steps within 5%
of the fault-free run's (docs/chaos.md says why 5%)."""
LIGHTHOUSE_WINDOW_S: Final = 12.0
"""A group failure this soon after a Lighthouse kill is the kill's collateral, not a phantom:
the Lighthouse's restart (under a second) plus a group's hang timeout (5-9 s, learned) and its
evidence. Since the quorum retries every second none has happened; the window is kept so that
one would be listed, not mistaken for a phantom (30 s hid a misattributed SIGKILL 16 s after a
kill, chaos seed 2)."""
KIND_OF: Final = {"crash": "sigkill", "hang": "sigstop", "exception": "exception"}
CATEGORY: Final = {"exception": "user_code_error", "sigstop": "hang"}
"""The root cause's category each kind must get (a SIGKILL's is whatever the evidence says:
unknown, an OOM kill, ...)."""


def _ledger_rows(group_dir: Path) -> dict[str, list[dict[str, Any]]]:
    path = group_dir / "ledger.db"
    if not path.exists():
        return {"failures": [], "detections": [], "actions": []}
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    conn.row_factory = sqlite3.Row
    try:
        return {
            "failures": [
                dict(r)
                for r in conn.execute(
                    "SELECT attempt, time, rank, category, action, signal, message FROM failures "
                    "WHERE root_cause = 1 ORDER BY time"
                )
            ],
            "detections": [
                dict(r) for r in conn.execute("SELECT attempt, kind, rank FROM detections")
            ],
            "actions": [
                dict(r)
                for r in conn.execute(
                    "SELECT attempt, action FROM actions WHERE action != 'skip_batches' "
                    "ORDER BY time, id"
                )
            ],
        }
    finally:
        conn.close()


def account_faults(s: RGSchedule, run_dir: Path, record: RGRecord) -> dict[str, Any]:
    """Match every fired fault to its group's ledger; the phantoms and the Lighthouse's part."""
    kills = [f["time"] for f in record.faults if f["kind"] == "lighthouse_kill"]
    items: list[dict[str, Any]] = []
    phantom: list[dict[str, Any]] = []
    collateral: list[dict[str, Any]] = []
    fired_specs: set[str] = set()
    for g in range(s.groups):
        gdir = run_dir / "groups" / f"g{g}"
        rows = _ledger_rows(gdir)
        failures, detections, actions = rows["failures"], rows["detections"], rows["actions"]
        explained: set[int] = set()
        for r in injector_record(gdir):
            fired_specs.add(f"{g}:{r['spec']}:{r['attempt']}")
            a, rank = r["attempt"], r["rank"]
            match = [i for i, f in enumerate(failures) if f["attempt"] == a and f["rank"] == rank]
            det = [
                d
                for d in detections
                if d["attempt"] == a and d["rank"] == rank and d["kind"] in ("exit", "hang")
            ]
            acts = [x["action"] for x in actions if x["attempt"] == a]
            explained.update(match)
            action = acts[0] if acts else (failures[match[0]]["action"] if match else None)
            kind = KIND_OF.get(r["fault"], r["fault"])
            category = failures[match[0]]["category"] if match else None
            items.append(
                {
                    "kind": kind,
                    "group": g,
                    "attempt": a,
                    "rank": rank,
                    "step": r["step"],
                    "spec": r["spec"],
                    "recorded": bool(match),
                    "category": category,
                    "category_as_expected": category == CATEGORY.get(kind, category),
                    "detected": bool(match and det),
                    "action": action,
                    "recovered": bool(match and det) and action == "restart",
                }
            )
        for i, f in enumerate(failures):
            if i in explained:
                continue
            row = {"group": g, **f}
            if any(0 <= f["time"] - t <= LIGHTHOUSE_WINDOW_S for t in kills):
                collateral.append(row)
            else:
                phantom.append(row)
    unfired = [
        {**f.to_dict(), "why": "the injector never logged it as fired"}
        for f in s.faults
        if f.spec() is not None and f"{f.group}:{f.group_spec()}:{f.attempt}" not in fired_specs
    ]
    return {
        "items": items,
        "phantom": phantom,
        "lighthouse_collateral": collateral,
        "unfired": unfired,
    }


def lighthouse_restarts(run_dir: Path, record: RGRecord) -> dict[str, Any]:
    """The parent's `lighthouse_restarted` events against the harness's kills."""
    events = []
    path = run_dir / "replica_groups.jsonl"
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
    restarts = [e["time"] for e in events if e.get("kind") == "lighthouse_restarted"]
    kills = sorted(f["time"] for f in record.faults if f["kind"] == "lighthouse_kill")
    answered = [
        min((t - k for t in restarts if t >= k), default=None) for k in kills
    ]  # seconds from each kill to the parent's restart
    return {
        "kills": len(kills),
        "restarts": len(restarts),
        "restart_after_s": [None if x is None else round(x, 3) for x in answered],
        "ok": len(restarts) == len(kills) and all(x is not None for x in answered),
    }


def healed_from_peer(summary: dict[str, Any]) -> dict[str, Any]:
    """Every attempt after a group's first that trained began with a heal from a live group."""
    from nonstop.report.replica_groups import group_steps

    problems = []
    for g in summary["groups"]:
        gdir = Path(g["run_dir"])
        healed = {h["attempt"] for h in g["healed_at"]}
        steps, _facts = group_steps(g["group"], gdir)
        trained = {st.attempt for st in steps if st.attempt > 0}
        for a in sorted(trained - healed):
            problems.append(f"group {g['group']} attempt {a} trained without healing from a peer")
        for r in g.get("resumed_at") or []:  # writing durable checkpoints is expected
            problems.append(
                f"group {g['group']} attempt {r['attempt']} read the checkpoint of step "
                f"{r['step']} from storage (no live group to heal from)"
            )
    return {"ok": not problems, "problems": problems}


def loss_scale(reference: Path, tail: float = 0.2) -> dict[str, float | None]:
    """What the tolerance is measured against, from the reference's own curve: `noise_rel`,
    the standard error of its tail mean relative to it (two equally good runs differ by about
    this), and `set_back_rel`, how much higher the mean loss was over the window of the same
    length just before the tail (what a run set back by a fifth of its training would show)."""
    import statistics

    from nonstop.report.replica_groups import losses

    curve = losses(reference)
    steps = sorted(curve)
    n = int(len(steps) * tail)
    if n < 2 or len(steps) < 2 * n:
        return {"noise_rel": None, "set_back_rel": None}
    last = [curve[s] for s in steps[-n:]]
    before = [curve[s] for s in steps[-2 * n : -n]]
    mean = statistics.fmean(last)
    return {
        "noise_rel": statistics.stdev(last) / n**0.5 / mean,
        "set_back_rel": (statistics.fmean(before) - mean) / mean,
    }


def exact_until(run_dir: Path, reference: Path, groups: int) -> dict[str, Any]:
    """The first committed step whose loss differs from the reference's, and the first one
    committed with fewer than every group: the curve must be the fault-free one, bit for bit,
    until the replicas first drop (the groups train on the same batches at the same steps, and
    a failed step is not committed), so the first can never come before the second."""
    from nonstop.report.replica_groups import group_steps, losses

    a, b = losses(run_dir), losses(reference)
    diff = min((st for st in a if st in b and a[st] != b[st]), default=None)
    fewer = min(
        (
            st.step
            for g in range(groups)
            for st in group_steps(g, run_dir / "groups" / f"g{g}")[0]
            if st.committed and st.replicas is not None and st.replicas < groups
        ),
        default=None,
    )
    ok = diff is None or (fewer is not None and diff >= fewer)
    return {"first_different_step": diff, "first_step_with_fewer_replicas": fewer, "ok": ok}


def evaluate(s: RGSchedule, run_dir: Path, record: RGRecord, reference: Path) -> dict[str, Any]:
    from nonstop.report.replica_groups import loss_gap, summarize

    summary = summarize(run_dir)
    ref = summarize(reference)
    faults = account_faults(s, run_dir, record)
    lh = lighthouse_restarts(run_dir, record)
    heal = healed_from_peer(summary)
    try:
        gap: dict[str, Any] = loss_gap(run_dir, reference)
    except ValueError as e:
        gap = {"relative_gap": None, "why": str(e)}
    gap.update(loss_scale(reference))
    gap.update(exact_until(run_dir, reference, s.groups))
    items = faults["items"]
    fired_external = len(record.faults)
    checks = {
        "finished": record.exit_code == 0
        and all(g["exit_code"] == 0 and g["state_sha256"] for g in summary["groups"]),
        "no_step_lost": summary["steps_missing"] == 0 and summary["steps_committed"] == s.steps,
        "no_step_twice": summary["steps_committed_twice"] == 0,
        "fingerprints_equal": summary["fingerprints_equal"] is True,
        "healed_from_peer": heal["ok"],
        "loss_within": gap["relative_gap"] is not None and gap["relative_gap"] <= LOSS_TOLERANCE,
        "loss_exact_until_fewer_replicas": gap["ok"],
        "ledger_is_injector": bool(items)
        and all(i["recovered"] and i["category_as_expected"] for i in items)
        and not faults["unfired"]
        and not faults["phantom"],
        "lighthouse_restarted": lh["ok"],
    }
    return {
        "seed": s.seed,
        "steps": s.steps,
        "groups": s.groups,
        "passed": all(checks.values()),
        "checks": checks,
        "injected": len(items) + fired_external,
        "detected": sum(i["detected"] for i in items)
        + sum(x is not None for x in lh["restart_after_s"]),
        "recovered": sum(i["recovered"] for i in items) + (fired_external if lh["ok"] else 0),
        "faults": items + record.faults,
        "skipped": record.skipped + faults["unfired"],
        "phantom": faults["phantom"],
        "lighthouse_collateral": faults["lighthouse_collateral"],
        "lighthouse": lh,
        "healed": heal,
        "loss": {**gap, "tolerance": LOSS_TOLERANCE},
        "report": {k: v for k, v in summary.items() if k != "groups"},
        "per_group": [
            {
                k: g[k]
                for k in (
                    "group",
                    "exit_code",
                    "attempts",
                    "failures",
                    "steps_committed",
                    "steps_committed_twice",
                    "healed_at",
                    "state_sha256",
                )
            }
            for g in summary["groups"]
        ],
        "reference": {
            "steps_committed": ref["steps_committed"],
            "steps_with_fewer_replicas": ref["steps_with_fewer_replicas"],
            "fingerprints_equal": ref["fingerprints_equal"],
            "wall_s": ref["wall_s"],
        },
        "exit_code": record.exit_code,
        "wall_s": round(record.wall_s, 2),
        "schedule": s.describe(),
    }
