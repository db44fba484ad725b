"""`nonstop demo`: a tiny Llama trained on local CPU ranks through injected faults, recovered
live by `nonstop run`, with the goodput table at the end.

    nonstop demo                          # 2 ranks, a crash, a hang and a straggler
    nonstop demo --ranks 4 --steps 400 --run-dir runs/mine
    nonstop demo --no-faults              # a clean run, for comparison

It runs exactly what a user would type:

    nonstop run --nproc-per-node 2 --run-dir runs/<id> --max-restarts 5 \\
        --memory-checkpoint-every 5 \\
        --inject crash@step=150,rank=1,signal=SIGKILL --inject hang@step=325,rank=0,attempt=1 \\
        --inject slow@rank=1,factor=2,from=425,to=508,attempt=* \\
        -m nonstop.workloads.llama.train --steps 500 --checkpoint-every 25

The same workload takes the numerical faults that the runtime's guards catch and roll back
(docs/health.md): a flipped parameter bit on one replica, a NaN loss, a poisoned batch:

    nonstop run --nproc-per-node 3 --inject bitflip@step=12,rank=1 \
        -m nonstop.workloads.llama.train --steps 60        # rank 1 named, bitwise-identical end
    nonstop run --nproc-per-node 2 --inject nan@step=12,rank=1 -m nonstop.workloads.llama.train
    nonstop run --nproc-per-node 2 --inject spike@step=30 -m nonstop.workloads.llama.train
    nonstop report runs/<id>                              # the "Training health" table

With torchft replica groups (docs/run.md, Replica groups), a crash stops one group only:

    nonstop demo --replica-groups 2 --steps 200   # group 1's rank SIGKILLed at step 40
"""

from __future__ import annotations

import argparse
from pathlib import Path

from nonstop import rundir
from nonstop.errors import UserError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nonstop demo", description=__doc__.split("\n")[0])
    p.add_argument("--run-dir", type=Path, default=None, help="default: a new folder in ./runs/")
    p.add_argument("--ranks", type=int, default=2, help="CPU ranks, 2 to 4 (default 2)")
    p.add_argument("--steps", type=int, default=500, help="training steps (default 500)")
    p.add_argument("--no-faults", action="store_true", help="train without injected faults")
    p.add_argument("--quiet", action="store_true", help="no live view")
    p.add_argument(
        "--replica-groups",
        type=int,
        default=0,
        metavar="G",
        help="train as G torchft replica groups of --ranks ranks each instead: one group's "
        "rank is killed and the others train on while it restarts and heals from them "
        "(default 0: the single job with its crash, hang and straggler)",
    )
    return p


def default_faults(steps: int, ranks: int) -> list[str]:
    """A crash, then a hang in the next attempt, then a straggler: at 30%, 65% and 85%."""
    crash, hang, slow = int(steps * 0.30), int(steps * 0.65), int(steps * 0.85)
    return [
        f"crash@step={crash},rank={ranks - 1},signal=SIGKILL",
        f"hang@step={hang},rank=0,attempt=1",
        f"slow@rank={ranks - 1},factor=2,from={slow},to={slow + max(10, steps // 6)},attempt=*",
    ]


def main(argv: list[str]) -> int:
    a = build_parser().parse_args(argv)
    if not 2 <= a.ranks <= 4:
        raise UserError(f"--ranks must be 2 to 4 on one machine, got {a.ranks}")
    if a.steps < 20:
        raise UserError(f"--steps must be at least 20, got {a.steps}")
    root = a.run_dir or rundir.default_root()
    if (root / rundir.LEDGER).exists():
        raise UserError(f"{root} already holds a run; pass a new --run-dir")
    if a.replica_groups:
        return _replica_groups(a, root)
    faults = [] if a.no_faults else default_faults(a.steps, a.ranks)
    # durable checkpoints every 5% of the run, in-memory snapshots every 5 steps: a restart
    # resumes from memory and redoes at most 4 steps
    args = [
        "--nproc-per-node",
        str(a.ranks),
        "--run-dir",
        str(root),
        "--max-restarts",
        "5",
        "--memory-checkpoint-every",
        "5",
    ]
    for f in faults:
        args += ["--inject", f]
    if a.quiet:
        args.append("--quiet")
    every = max(5, a.steps // 20)
    args += [
        "-m",
        "nonstop.workloads.llama.train",
        "--steps",
        str(a.steps),
        "--checkpoint-every",
        str(every),
    ]
    print(
        f"nonstop demo: {a.ranks} CPU ranks, {a.steps} steps, checkpoints every {every} steps "
        "(in memory every 5)"
    )
    for f in faults:
        print(f"  injecting {f}")
    from nonstop.supervisor.cli import main as run_main

    code = run_main(args)
    from nonstop.ledger import summarize_run
    from nonstop.report.terminal import print_summary

    print_summary(summarize_run(root).to_dict())
    print(f"\nnext: nonstop report {root} --html   |   nonstop diagnose {root}")
    return code


def _replica_groups(a: argparse.Namespace, root: Path) -> int:
    """`nonstop demo --replica-groups G`: the Llama on torchft, a SIGKILL in the last group at
    20% of the steps; the report across the groups at the end."""
    if not 2 <= a.replica_groups <= 4:
        raise UserError(f"--replica-groups must be 2 to 4 on one machine, got {a.replica_groups}")
    ranks = 1 if a.ranks == 2 else a.ranks  # --ranks' default is the single job's: 1 per group
    crash = f"crash@step={int(a.steps * 0.2)},group={a.replica_groups - 1},signal=SIGKILL"
    faults = [] if a.no_faults else [crash]
    args = ["--replica-groups", str(a.replica_groups), "--nproc-per-node", str(ranks)]
    args += ["--run-dir", str(root), "--max-restarts", "5"]
    for f in faults:
        args += ["--inject", f]
    if a.quiet:
        args.append("--quiet")
    # steps padded to 0.2 s: a bigger model's step, so a group's restart lasts tens of steps
    args += ["-m", "nonstop.workloads.llama.train", "--fault-tolerant", "--steps", str(a.steps)]
    args += ["--min-step-s", "0.2", "--log-every", str(max(5, a.steps // 20))]
    print(
        f"nonstop demo: {a.replica_groups} torchft replica groups of {ranks} CPU rank(s), "
        f"{a.steps} steps"
    )
    for f in faults:
        print(f"  injecting {f}")
    from nonstop.report import replica_groups
    from nonstop.supervisor.cli import main as run_main

    code = run_main(args)
    replica_groups.print_summary(replica_groups.summarize(root))
    print(f"\nnext: nonstop report {root} --html   |   nonstop report {root}/groups/g0")
    return code
