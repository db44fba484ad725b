"""Chaos: the demo workload under seeded fault schedules; achieved ETTR vs Daly's optimum.

    python benchmarks/run.py chaos --quick --json   # 4 faults of different kinds (~1 min)
    python benchmarks/run.py chaos --json           # every fault kind, two seeds (~5 min)

Each run must finish with parameters bitwise equal to a fault-free reference, lose no committed
checkpoint, and have every injected fault in the ledger with its detection and action (see
benchmarks/chaos/checks.py). `ours` is the achieved ETTR; `limit` (= `peer`) is 1 - waste at
Daly's interval for the run's own measured blocking time, restart time and interruption rate.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.chaos.checks import evaluate
from benchmarks.chaos.harness import Harness, reference_run
from benchmarks.chaos.schedule import KINDS, QUICK_KINDS, make_schedule


def run_seed(seed: int, quick: bool, root: Path) -> dict:
    kinds = QUICK_KINDS if quick else KINDS
    s = make_schedule(seed=seed, kinds=kinds, gap=(7, 9) if quick else (9, 13))
    work = root / f"seed-{seed}"
    ref = reference_run(s, work)
    record = Harness(s, work, timeout_s=280 if quick else 540).run()
    return evaluate(s, work, record, ref)


def run(quick: bool) -> dict:
    seeds = [0] if quick else [1, 2]
    root = Path(os.environ.get("NONSTOP_CHAOS_DIR") or tempfile.mkdtemp(prefix="nonstop-chaos-"))
    runs = [run_seed(seed, quick, root) for seed in seeds]
    ettr = [r["ettr"]["ettr"] for r in runs]
    limits = [r["ettr"]["limit"] or 0.0 for r in runs]
    ours = sum(ettr) / len(ettr)
    limit = sum(limits) / len(limits)
    return {
        "name": "chaos",
        "ours": ours,
        "peer": limit,
        "peer_name": "Daly optimum (1 - waste at Daly's interval, same delta, R, MTBI)",
        "ratio": ours / limit if limit else float("nan"),
        "unit": "ETTR",
        "better": "higher",
        "limit": limit,
        "injected": sum(r["injected"] for r in runs),
        "detected": sum(r["detected"] for r in runs),
        "recovered": sum(r["recovered"] for r in runs),
        "lost": sum(r["lost"] for r in runs),
        "identical": all(r["identical"] for r in runs),
        "missed": [m for r in runs for m in r["missed"]],
        "phantom": [p for r in runs for p in r["phantom"]],
        "skipped": [x for r in runs for x in r["skipped"]],
        "finished": all(r["finished"] for r in runs),
        "runs": runs,
        "work_dir": str(root),
    }
