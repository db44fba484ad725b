"""Chaos in replica-group mode: seeded faults across the torchft groups of one job.

    python benchmarks/run.py chaos-replica-groups --quick --json   # seed 0: 2 faults
    python benchmarks/run.py chaos-replica-groups --json           # seeds 1-6: 4 kinds each

For each seed, one fault-free reference run (`nonstop run --replica-groups 2`, the demo Llama's
`--fault-tolerant` mode, same model, data and steps), then the same job under the seed's
schedule (benchmarks/chaos/replica_groups.py): a SIGKILLed rank, a Python exception and a
SIGSTOPped rank (a hang) in seeded groups through nonstop's injector, and torchft's Lighthouse
SIGKILLed by the harness. The checks (benchmarks/chaos/rg_checks.py): the job finished, no
committed step lost or taken twice by any group, every group ends with the same parameters,
every restart healed from a live group, the loss curve within 5% of the reference's, and every
injected fault is a root cause in its own group's ledger (no phantom).

There is no other system to run the same schedule against (bench_replica_groups compares
torchft's own launcher on one SIGKILL): the peer is the fault-free run. `ours` is the faulty
runs' mean loss over their last 20% of committed steps, `peer` the reference's, `ratio` ours /
peer (1.0: the faults cost no model quality; LOSS_TOLERANCE the bound the checks hold), and
`passed` says whether every check held on every seed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.chaos.harness import seeded_runs
from benchmarks.chaos.replica_groups import (
    KINDS,
    QUICK_KINDS,
    RGHarness,
    make_schedule,
    reference_run,
)
from benchmarks.chaos.rg_checks import LOSS_TOLERANCE, evaluate
from benchmarks.stats import summarize

QUICK_SEEDS = [0]
FULL_SEEDS = [1, 2, 3, 4, 5, 6]
"""Six seeds in the full run (~2.5 min each on 2 shared cores, ~15 min in all; every fault
kind in every seed); `NONSTOP_CHAOS_SEEDS` (comma-separated) runs others."""


def run_seed(seed: int, quick: bool, root: Path) -> dict[str, Any]:
    s = make_schedule(seed=seed, kinds=QUICK_KINDS if quick else KINDS)
    print(s.describe(), file=sys.stderr, flush=True)
    work = root / f"seed-{seed}"
    t0 = time.monotonic()
    ref = reference_run(s, work)
    ref_wall = time.monotonic() - t0
    record = RGHarness(s, work, timeout_s=300 if quick else 600).run()
    out = evaluate(s, work / "run", record, ref)
    out["reference"]["harness_wall_s"] = round(ref_wall, 2)
    return out


def combine(runs: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    scored = [r for r in runs if r["loss"].get("relative_gap") is not None]
    out = summarize(
        [r["loss"]["run"] for r in scored] or [float("nan")],
        [r["loss"]["reference"] for r in scored] or None,
        name="chaos-replica-groups",
        unit="mean loss, last 20% of committed steps",
        better="lower",
        peer_name="the same job without faults (fault-free reference run)",
        paired=True,
    )
    checks = sorted({k for r in runs for k in r["checks"]})
    out.update(
        passed=all(r["passed"] for r in runs),
        checks={k: all(r["checks"].get(k, False) for r in runs) for k in checks},
        failed_checks={
            str(r["seed"]): [k for k, v in r["checks"].items() if not v]
            for r in runs
            if not r["passed"]
        },
        loss_tolerance=LOSS_TOLERANCE,
        max_loss_gap=max((r["loss"]["relative_gap"] for r in scored), default=None),
        injected=sum(r["injected"] for r in runs),
        detected=sum(r["detected"] for r in runs),
        recovered=sum(r["recovered"] for r in runs),
        skipped=[x for r in runs for x in r["skipped"]],
        phantom=[p for r in runs for p in r["phantom"]],
        lighthouse_collateral=[c for r in runs for c in r["lighthouse_collateral"]],
        steps_with_fewer_replicas=[r["report"]["steps_with_fewer_replicas"] for r in runs],
        seeds=[r["seed"] for r in runs],
        runs=runs,
        **extra,
    )
    return out


def run(quick: bool) -> dict[str, Any]:
    runs, extra = seeded_runs(run_seed, quick, QUICK_SEEDS, FULL_SEEDS, prefix="nonstop-chaos-rg-")
    return combine(runs, **extra)
