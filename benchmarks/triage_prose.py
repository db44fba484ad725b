"""Descriptions (a reporter's sentences, no log line) in the corpus, and the description reader
measured leaving one collection out.

    python benchmarks/triage_prose.py          # counts, today's scores, leave-one-collection-out
    python benchmarks/triage_prose.py --json

For each later collection k (fresh ... fortyfourth), as benchmarks/triage_first_sight.py does: the
rows' verdicts of k's first sight (first_sight.json), the fallback trained without k where no
row matched and a line has a failure marker (`before`), and then the description reader trained
without k where no row matched and the excerpt is a description (`after`). Only descriptions
can change, and a short text no row matched that states an operator's hardware conclusion
(nonstop.diagnose.advice: "drain this node, one GPU is not working", answered before the reader
as `nonstop triage` does; written by hand, not trained, so in sample: its class was written after
reading these collections); every other log excerpt's verdict is the same before and after by
construction, and the script checks it. Two orderings are measured: "replace" (shipped: the reader reads a description
first, the fallback only where it abstains) and "fill" (the reader only where the fallback gave
nothing, as shipped before issue-27gen5); `--fill` prints fill's details.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_triage_accuracy
import build_triage_fallback
import triage_first_sight

from nonstop import taxonomy
from nonstop.diagnose import advice, fallback, prose

SPLITS = ("tuning", "heldout", *triage_first_sight.COLLECTIONS)


def today() -> dict[str, Any]:
    """Each split's description count and today's triage on its descriptions and on the rest."""
    out: dict[str, Any] = {}
    for split in SPLITS:
        got = bench_triage_accuracy.classify(bench_triage_accuracy.load(split))
        row: dict[str, Any] = {}
        for part, keep in (("descriptions", True), ("logs", False)):
            sel = [(r, v) for r, v in got if prose.is_description(r["excerpt"]) == keep]
            row[part] = {
                "n": len(sel),
                "category": sum(v.category == r["category"] for r, v in sel),
                "action": sum(v.action == r["action"] for r, v in sel),
            }
        out[split] = row
    return out


@cache
def _models(k: str) -> tuple[fallback.Model, fallback.Model]:
    """The fallback and the description reader trained without collection `k`."""
    train = [s for s in build_triage_fallback.TRAINING if s != k]
    records, groups, asked = build_triage_fallback.training(train)
    m_fb = fallback.Model(build_triage_fallback.table(records, groups, asked))
    return m_fb, fallback.Model(prose.build(records, groups, asked))


def loco(variant: str = "replace") -> dict[str, Any]:
    """Leave one collection out, before and after the description reader. `variant`: "replace"
    (shipped: the reader answers every description no row matched, the fallback only where it
    abstains) or "fill" (the reader answers where the fallback gave nothing)."""
    seen = triage_first_sight.first_sight()
    out: dict[str, Any] = {"collections": {}}
    keys = ("n", "cat0", "act0", "cat1", "act1", "dn", "dcat0", "dact0", "dcat1", "dact1")
    pooled = dict.fromkeys(keys, 0)
    pooled["reads"], pooled["reads_right"], pooled["wrong_exclude_node"] = 0, 0, 0
    pooled["advised"], pooled["advised_right"], pooled["advised_action_right"] = 0, 0, 0
    pooled["advised_wrong_exclude_node"] = 0
    # every reading of a hardware category (whose default is exclude_node) on a description no
    # row matched, with its label: what a rule letting the reader exclude a node would meet
    hardware: list[str] = []
    excluded = 0  # descriptions labelled exclude_node
    for k in triage_first_sight.COLLECTIONS:
        m_fb, m_desc = _models(k)
        recs = triage_first_sight.load(k)
        mk = triage_first_sight.marked(recs)
        row = dict.fromkeys(keys, 0) | {"reads": 0, "reads_right": 0, "read": []}
        row |= {"advised": 0, "advised_right": 0, "advised_action_right": 0}
        row |= {"advised_wrong_exclude_node": 0, "advice": []}
        for r in recs:
            cat, act, _conf, matched = seen[k][r["id"]]
            answered = False
            if not matched and mk[r["id"]]:
                g, p = m_fb.guess(r["excerpt"])
                if not m_fb.abstains(g, p):
                    cat = m_fb.decide(g, p)
                    act = fallback.action(cat)
                    answered = True
            desc = prose.is_description(r["excerpt"])
            cat1, act1 = cat, act
            # an operator's stated conclusion in a short text no row matched: before the reader
            short = len(r["excerpt"].splitlines()) <= prose.MAX_LINES
            said = advice.conclusion(r["excerpt"]) if short and not matched else None
            if said is not None:
                cat1, act1 = said.category, taxonomy.action_for(said.category)
                row["advised"] += 1
                row["advised_right"] += cat1 == r["category"]
                row["advised_action_right"] += act1 == r["action"]
                row["advised_wrong_exclude_node"] += act1 == "exclude_node" != r["action"]
                row["advice"].append(
                    f"{r['id']} {r['category']} ({r['action']}) -> {cat1} ({act1}): "
                    f"{said.verb} ... {said.part}"
                )
            if desc and not matched:
                g, p = prose.read(m_desc, r["excerpt"])
                if taxonomy.action_for(g) == "exclude_node":
                    hardware.append(f"{r['id']} {r['category']} ({r['action']}): {g} {p:.2f}")
            if said is None and desc and not matched and (variant == "replace" or not answered):
                g, p = prose.read(m_desc, r["excerpt"])
                if not m_desc.abstains(g, p):
                    cat1 = m_desc.decide(g, p)
                    act1 = fallback.action(cat1)
                    row["reads"] += 1
                    row["reads_right"] += cat1 == r["category"]
                    row["read"].append(f"{r['id']} {r['category']} -> {cat1} ({g} {p:.2f})")
            # a log's verdict never changes but for an operator's stated conclusion
            assert desc or said is not None or (cat1, act1) == (cat, act)
            pooled["wrong_exclude_node"] += act1 == "exclude_node" != r["action"]
            row["n"] += 1
            row["cat0"] += cat == r["category"]
            row["act0"] += act == r["action"]
            row["cat1"] += cat1 == r["category"]
            row["act1"] += act1 == r["action"]
            if desc:
                excluded += r["action"] == "exclude_node"
                row["dn"] += 1
                row["dcat0"] += cat == r["category"]
                row["dact0"] += act == r["action"]
                row["dcat1"] += cat1 == r["category"]
                row["dact1"] += act1 == r["action"]
        for key in pooled:
            if key != "wrong_exclude_node":
                pooled[key] += row[key]
        out["collections"][k] = row
    out["pooled"] = pooled
    out["hardware_readings"] = hardware
    out["exclude_node_descriptions"] = excluded
    return out


def _pct(a: int, n: int) -> str:
    return f"{a / n:.1%}" if n else "-"


def main(argv: list[str]) -> int:
    variant = "fill" if "--fill" in argv else "replace"
    other = "replace" if variant == "fill" else "fill"
    got = {"today": today(), "loco": loco(variant), "variant": variant}
    got["other"] = {"variant": other, "pooled": loco(other)["pooled"]}
    if "--json" in argv:
        print(json.dumps(got, indent=1))
        return 0
    for split, row in got["today"].items():
        d, lg = row["descriptions"], row["logs"]
        print(
            f"{split:10s} descriptions {d['n']:3d}: {_pct(d['category'], d['n'])} / "
            f"{_pct(d['action'], d['n'])}   logs {lg['n']:3d}: {_pct(lg['category'], lg['n'])} "
            f"/ {_pct(lg['action'], lg['n'])}"
        )
    print(f"leave one collection out ({variant}): before -> after, descriptions | all")
    for k, c in [*got["loco"]["collections"].items(), ("pooled", got["loco"]["pooled"])]:
        print(
            f"{k:10s} desc {c['dn']:3d}: {_pct(c['dcat0'], c['dn'])} / {_pct(c['dact0'], c['dn'])}"
            f" -> {_pct(c['dcat1'], c['dn'])} / {_pct(c['dact1'], c['dn'])} | all {c['n']:4d}: "
            f"{_pct(c['cat0'], c['n'])} / {_pct(c['act0'], c['n'])} -> {_pct(c['cat1'], c['n'])}"
            f" / {_pct(c['act1'], c['n'])}  ({c['reads']} reads, {c['reads_right']} right)"
        )
        for line in c.get("read", []):
            print("    " + line)
        if not c["advised"]:
            continue
        print(
            f"{'':10s} operator's conclusions (advice) {c['advised']}: {c['advised_right']} "
            f"categories, {c['advised_action_right']} actions right, wrong exclude_node "
            f"{c['advised_wrong_exclude_node']}"
        )
        for line in c.get("advice", []):
            print("    advice " + line)
    lo, o = got["loco"], got["other"]["pooled"]
    print(
        f"{other}: pooled desc {o['dn']}: {_pct(o['dcat1'], o['dn'])} / {_pct(o['dact1'], o['dn'])}"
        f" | all {o['n']}: {_pct(o['cat1'], o['n'])} / {_pct(o['act1'], o['n'])}  ({o['reads']} "
        f"reads, {o['reads_right']} right, wrong exclude_node {o['wrong_exclude_node']})"
    )
    print(f"wrong exclude_node after: {lo['pooled']['wrong_exclude_node']}")
    print(
        f"descriptions labelled exclude_node: {lo['exclude_node_descriptions']}; the reader's "
        f"hardware readings of descriptions no row matched (label: reading p):"
    )
    for line in lo["hardware_readings"]:
        print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
