"""What a partial failure cost: a `nonstop run --replica-groups G` job read from its groups.

Each group is its own run directory with its own ledger (groups/g<i>, written by its own
agent), so each group's wall time splits into productive time and badput as for any run. This
module adds the job's view across them:

- replica_groups: G; replica_seconds: G x the job's wall time, every group's every second;
- replica_productive_s: the seconds of committed steps, summed over the groups;
  replica_seconds_lost: the rest (a group's startup, its failure, detection, restart and
  heal, and whatever it lost to steps torchft did not commit), split per group and by the
  group's own badput categories, plus the time the group was not running at all;
- ettr (whole-job): the share of the wall time in which at least one group committed a step
  (the job trained), beside replica_ettr = replica_productive_s / replica_seconds;
- steps_with_fewer_replicas: committed steps that fewer than G groups took part in;
- the correctness checks: no committed step taken twice by a group (steps_committed_twice),
  none missing from the job (steps_missing), every group's final parameters equal
  (fingerprints_equal, from each group's `finished` state_sha256).

A job whose groups were all lost resumes from a durable checkpoint (a group's `resumed`
lifecycle event: its step S loaded from storage). The steps from S on that any group committed
before that resume are the work lost beyond the checkpoint: they are `steps_rolled_back`
(distinct step numbers; per group, its records), neither committed nor productive, so that
taking them again after the resume is not "committed twice", and `steps_missing` counts the
steps the surviving lineage lacks.

Across hosts (`--replica-group`), the run directory is the one every node shares: each
group's run directory holds all its nodes' ranks (a spare that took a node's place is the
next attempt there), and each node's parent writes its own `replica_groups.<host>.*.jsonl`;
they are read together, in time order.

The steps come from the groups' event streams (the `step` events of the demo workload's
`--fault-tolerant` mode record `committed` and `replicas`; a script that records neither
counts every step as committed by all groups).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nonstop import rundir
from nonstop.events.reader import iter_events

GROUPS_JSON = "replica_groups.json"  # nonstop.supervisor.replica_groups.GROUPS_JSON
EVENTS_JSONL = "replica_groups.jsonl"


@dataclass(frozen=True)
class Step:
    group: int
    attempt: int
    step: int
    start: float
    end: float
    committed: bool
    replicas: int | None
    loss: float | None
    host: str = ""


def is_replica_run(root: str | Path) -> bool:
    return (Path(root) / GROUPS_JSON).is_file()


def group_steps(group: int, group_dir: Path) -> tuple[list[Step], dict[str, Any]]:
    """A group's steps (rank 0's: every rank of a group takes the same steps) and its
    lifecycle facts: healed steps, final fingerprint."""
    steps: list[Step] = []
    facts: dict[str, Any] = {
        "healed_at": [],
        "resumed_at": [],
        "state_sha256": None,
        "final_step": None,
    }
    for attempt, rank, path in rundir.RunDir(group_dir).event_files():
        if rank != 0:
            continue
        for e in iter_events(path):
            p = e.payload
            if e.kind == "step":
                steps.append(
                    Step(
                        group,
                        attempt,
                        int(p["step"]),
                        float(p.get("start", e.time)),
                        float(p.get("end", e.time)),
                        bool(p.get("committed", True)),
                        p.get("replicas"),
                        p.get("loss"),
                        e.host,
                    )
                )
            elif e.kind == "lifecycle" and p.get("phase") == "healed":
                facts["healed_at"].append({"attempt": attempt, "step": int(p["step"]) + 1})
            elif e.kind == "lifecycle" and p.get("phase") == "resumed":
                facts["resumed_at"].append(
                    {"attempt": attempt, "step": int(p["step"]) + 1, "time": e.time}
                )
            elif e.kind == "lifecycle" and p.get("phase") == "finished":
                facts["state_sha256"] = p.get("state_sha256")
                facts["final_step"] = p.get("step")
    steps.sort(key=lambda s: s.start)
    return steps, facts


def parent_events(root: Path) -> list[dict[str, Any]]:
    """The parents' events in time order: the one parent's on one host, every node's across
    hosts (replica_groups.<host>.<role>.jsonl)."""
    events = []
    for path in [root / EVENTS_JSONL, *sorted(root.glob("replica_groups.*.jsonl"))]:
        if not path.is_file():
            continue
        for line in path.read_text().splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue  # a torn last line of a killed parent
    return sorted(events, key=lambda e: float(e.get("time", 0.0)))


def _union_s(intervals: list[tuple[float, float]]) -> float:
    total, end = 0.0, float("-inf")
    for a, b in sorted(intervals):
        if b <= end:
            continue
        total += b - max(a, end)
        end = b
    return total


def summarize(root: str | Path) -> dict[str, Any]:
    """The job's replica-group accounting (the module docstring), one JSON-able dict."""
    from nonstop.ledger import summarize_run

    root = Path(root)
    info = json.loads((root / GROUPS_JSON).read_text())
    g_count = int(info["replica_groups"])
    events = parent_events(root)
    starts = [e["time"] for e in events if e.get("kind") == "group_started"]
    # the node that served the Lighthouse waits --exit-timeout after the end: not the job's
    ends = [
        e["time"]
        for e in events
        if e.get("kind") == "group_ended" or (e.get("kind") == "ended" and not e.get("serving"))
    ]
    read = [group_steps(g, root / "groups" / f"g{g}") for g in range(g_count)]
    resumes = [(r["time"], r["step"]) for _, facts in read for r in facts["resumed_at"]]

    def rolled_back(s: Step) -> bool:  # committed, then lost to a resume from an older step
        return s.committed and any(s.step >= at and s.end <= t for t, at in resumes)

    all_steps: list[Step] = []
    groups = []
    lost_steps: set[int] = set()
    for g, (steps, facts) in enumerate(read):
        d = root / "groups" / f"g{g}"
        back = [s for s in steps if rolled_back(s)]
        lost_steps.update(s.step for s in back)
        steps = [s for s in steps if not rolled_back(s)]
        all_steps += steps
        committed = [s for s in steps if s.committed]
        seen: dict[int, int] = {}
        for s in committed:
            seen[s.step] = seen.get(s.step, 0) + 1
        try:
            ledger = summarize_run(d).to_dict() if (d / rundir.LEDGER).exists() else {}
        except Exception:  # a group's unreadable ledger: its steps still count
            ledger = {}
        ended = [e for e in events if e.get("kind") == "group_ended" and e.get("group") == g]
        groups.append(
            {
                "group": g,
                "run_dir": str(d),
                "exit_code": ended[-1]["exit_code"] if ended else None,
                # across hosts: every node's agent's exit (an excluded node's 93, its spare's)
                "exit_codes": [e["exit_code"] for e in ended],
                "hosts": sorted({s.host for s in steps if s.host}),
                "attempts": ledger.get("attempts", len({s.attempt for s in steps})),
                "failures": len(ledger.get("failures") or []),
                "group_ettr": ledger.get("ettr"),
                "steps_committed": len(committed),
                "steps_not_committed": len(steps) - len(committed),
                "steps_committed_twice": sum(1 for n in seen.values() if n > 1),
                "steps_rolled_back": len(back),
                "productive_s": sum(s.end - s.start for s in committed),
                "badput_s": ledger.get("badput_s", {}),
                "healed_at": facts["healed_at"],
                "resumed_at": [
                    {"attempt": r["attempt"], "step": r["step"]} for r in facts["resumed_at"]
                ],
                "final_step": facts["final_step"],
                "state_sha256": facts["state_sha256"],
            }
        )
    t0 = min(starts) if starts else min((s.start for s in all_steps), default=0.0)
    t1 = max(ends) if ends else max((s.end for s in all_steps), default=t0)
    wall = max(0.0, t1 - t0)
    committed = [s for s in all_steps if s.committed]
    by_step: dict[int, int] = {}
    for s in committed:  # the replicas a committed step had: as its groups recorded them
        n = s.replicas if s.replicas is not None else g_count
        by_step[s.step] = max(by_step.get(s.step, 0), n)
    top = max(by_step, default=-1)
    replica_seconds = g_count * wall
    productive = sum(g["productive_s"] for g in groups)
    for row in groups:
        row["lost_s"] = max(0.0, wall - row["productive_s"])
    shas = {g["state_sha256"] for g in groups if g["state_sha256"]}
    finished = [g for g in groups if g["state_sha256"]]
    return {
        "run_dir": str(root),
        "replica_groups": g_count,
        "wall_s": wall,
        "ettr": _union_s([(s.start, s.end) for s in committed]) / wall if wall else None,
        "replica_seconds": replica_seconds,
        "replica_productive_s": productive,
        "replica_seconds_lost": max(0.0, replica_seconds - productive),
        "replica_ettr": productive / replica_seconds if replica_seconds else None,
        "steps_committed": len(by_step),
        "steps_with_fewer_replicas": sum(1 for n in by_step.values() if n < g_count),
        "steps_missing": sum(1 for s in range(top + 1) if s not in by_step),
        "steps_committed_twice": sum(g["steps_committed_twice"] for g in groups),
        "steps_rolled_back": len(lost_steps),
        "resumed_from_checkpoint": sorted({at for _, at in resumes}),
        "fingerprints_equal": (len(shas) == 1 and len(finished) == g_count) if finished else None,
        "lighthouse_restarts": sum(1 for e in events if e.get("kind") == "lighthouse_restarted"),
        "groups": groups,
    }


def losses(root: str | Path) -> dict[int, float]:
    """The loss of every committed step (the first group's that recorded it): the curve to
    compare with a fault-free run's."""
    root = Path(root)
    g_count = int(json.loads((root / GROUPS_JSON).read_text())["replica_groups"])
    out: dict[int, float] = {}
    for g in range(g_count):
        mine: dict[int, float] = {}  # its latest: a step taken again after a resume wins
        for s in sorted(group_steps(g, root / "groups" / f"g{g}")[0], key=lambda s: s.end):
            if s.committed and s.loss is not None:
                mine[s.step] = s.loss
        for step, loss in mine.items():
            out.setdefault(step, loss)
    return out


def _exits(g: dict[str, Any]) -> str:
    """The group's exit; across hosts every node's agent's (an excluded node's 93, then its
    spare's)."""
    codes = g.get("exit_codes") or []
    return ", ".join(map(str, codes)) if len(codes) > 1 else str(g["exit_code"])


def print_summary(summary: dict[str, Any]) -> None:
    """The terminal view: the job's line, then one row per group."""
    from rich.console import Console
    from rich.table import Table

    def pct(v: float | None) -> str:
        return "-" if v is None else f"{100 * v:.1f}%"

    s = summary
    con = Console()
    con.print(
        f"[bold]{s['run_dir']}[/]: {s['replica_groups']} replica groups, {s['wall_s']:.1f} s "
        f"wall; whole-job ETTR {pct(s['ettr'])} (a step committed by any group), replica ETTR "
        f"{pct(s['replica_ettr'])}; {s['steps_committed']} steps committed, "
        f"{s['steps_with_fewer_replicas']} with fewer replicas; replica-seconds lost "
        f"{s['replica_seconds_lost']:.1f} of {s['replica_seconds']:.1f}"
    )
    checks = (
        f"steps missing {s['steps_missing']}, committed twice {s['steps_committed_twice']}, "
        f"final fingerprints "
        + {True: "equal", False: "DIFFER", None: "not recorded"}[s["fingerprints_equal"]]
    )
    if s["lighthouse_restarts"]:
        checks += f"; Lighthouse restarted {s['lighthouse_restarts']}x"
    if s.get("resumed_from_checkpoint"):
        at = ", ".join(map(str, s["resumed_from_checkpoint"]))
        checks += (
            f"; resumed from the durable checkpoint of step {at} "
            f"({s['steps_rolled_back']} committed steps rolled back and taken again)"
        )
    con.print(checks)
    t = Table(title="Replica groups")
    for col in ("group", "hosts", "exit", "attempts", "committed", "not committed",
                "productive s", "lost s", "healed at step", "fingerprint"):  # fmt: skip
        t.add_column(col)
    for g in s["groups"]:
        t.add_row(
            str(g["group"]),
            ", ".join(g.get("hosts") or []) or "-",
            _exits(g),
            str(g["attempts"]),
            str(g["steps_committed"]),
            str(g["steps_not_committed"]),
            f"{g['productive_s']:.1f}",
            f"{g['lost_s']:.1f}",
            ", ".join(str(h["step"]) for h in g["healed_at"]) or "-",
            (g["state_sha256"] or "-")[:12],
        )
    con.print(t)
    con.print("each group's own report: " + ", ".join(f"nonstop report {g['run_dir']}"
                                                       for g in s["groups"]))  # fmt: skip


def html(summary: dict[str, Any]) -> str:
    """A self-contained page with the same figures."""
    from html import escape

    s = summary
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{escape(str(v))}</td>"
            for v in (
                g["group"],
                ", ".join(g.get("hosts") or []) or "-",
                _exits(g),
                g["attempts"],
                g["steps_committed"],
                g["steps_not_committed"],
                f"{g['productive_s']:.1f}",
                f"{g['lost_s']:.1f}",
                ", ".join(str(h["step"]) for h in g["healed_at"]) or "-",
                (g["state_sha256"] or "-")[:12],
            )
        )
        + "</tr>"
        for g in s["groups"]
    )
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "group",
            "hosts",
            "exit",
            "attempts",
            "committed",
            "not committed",
            "productive s",
            "lost s",
            "healed at step",
            "fingerprint",
        )
    )
    figures = "".join(
        f"<tr><th>{escape(k)}</th><td>{escape(str(v))}</td></tr>"
        for k, v in s.items()
        if k != "groups"
    )
    return (
        "<!doctype html><meta charset=utf-8><title>nonstop report: replica groups</title>"
        "<style>body{font:14px system-ui;margin:2em}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}</style>"
        f"<h1>nonstop report: {escape(s['run_dir'])}</h1>"
        f"<table>{figures}</table><h2>Replica groups</h2><table><tr>{head}</tr>{rows}</table>"
    )


def loss_gap(run: str | Path, reference: str | Path, tail: float = 0.2) -> dict[str, float]:
    """How far a run's loss curve is from a reference run's (a fault-free one, same settings):
    the mean loss over the last `tail` of the committed steps in each, and their relative gap.
    A run with fewer replicas for some steps is not bitwise the fault-free one; this is the
    tolerance docs/run.md states for it."""
    a, b = losses(run), losses(reference)
    common = sorted(set(a) & set(b))
    if not common:
        raise ValueError("the two runs share no committed step")
    last = common[int(len(common) * (1 - tail)) :]
    ma = sum(a[s] for s in last) / len(last)
    mb = sum(b[s] for s in last) / len(last)
    return {"steps": len(last), "run": ma, "reference": mb, "relative_gap": abs(ma - mb) / mb}
