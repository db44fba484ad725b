"""`nonstop plan`: scaling-law planning from a compute budget to size, tokens, days and energy.

    nonstop plan --compute 3.8e25 --law llama3             # compute-optimal size and tokens
    nonstop plan --params 405B --tokens 15.6T --gpus 16384 --gpu h100 --mfu 0.4044
    nonstop plan --mtbf 11124 --checkpoint-blocking 30     # Young and Daly intervals
    nonstop plan --compute 1e24 --inference-tokens 2e13    # train smaller, on more tokens?
    nonstop plan --sweep                                   # where over-training pays; Llama 3
    nonstop plan --compute 1e26 --gpus 100000              # + whole-job restarts or replica groups
    nonstop plan ... --json                                # one JSON object for scripts

Counts take K, M, B, T suffixes (405B, 15.6T) or e-notation (3.8e25). Mistakes in the flags are
a one-line ``UserError`` (exit 2), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from typing import NoReturn

from rich.console import Console

from nonstop.errors import UserError
from nonstop.plan.hardware import DEFAULT_MFU, DEFAULT_PUE, GPUS, Cluster, get_gpu
from nonstop.plan.laws import LAWS, get_law
from nonstop.plan.planner import PlanRequest, make_plan
from nonstop.plan.reliability import DEFAULT_TRIALS
from nonstop.plan.render import render

_SCALE = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
_NUMBER = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([kmbgt]?)\s*$", re.I)


def parse_count(text: str) -> float:
    """A count such as ``405B``, ``15.6T``, ``3.8e25`` or ``16384``."""
    m = _NUMBER.match(text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number (examples: 3.8e25, 405B, 15.6T)"
        )
    value = float(m.group(1)) * _SCALE[m.group(2).lower()]
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def parse_whole(text: str) -> int:
    """A whole count such as ``16384`` or ``16K``."""
    value = parse_count(text)
    if value != int(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(value)


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are UserErrors: one line from the CLI, exit 2."""

    def error(self, message: str) -> NoReturn:
        raise UserError(f"{message} (see nonstop plan --help)")


def build_parser() -> argparse.ArgumentParser:
    """The `nonstop plan` argument parser."""
    p = _Parser(
        prog="nonstop plan",
        description="Scaling-law planning: model size and tokens for a compute budget; days, "
        "GPU-hours, energy, interruptions and ETTR on a cluster; checkpoint intervals; "
        "inference-aware sizing.",
        epilog="Counts take K/M/B/T suffixes: --params 405B --tokens 15.6T. "
        "Sources and assumptions: docs/plan.md.",
    )
    budget = p.add_argument_group("budget")
    budget.add_argument(
        "--compute",
        type=parse_count,
        metavar="FLOPS",
        help="training compute budget in FLOPs, e.g. 3.8e25",
    )
    budget.add_argument("--params", type=parse_count, metavar="N", help="model parameters")
    budget.add_argument("--tokens", type=parse_count, metavar="D", help="training tokens")
    budget.add_argument(
        "--law",
        metavar="LAW",
        help=f"scaling law: {', '.join(LAWS)} "
        "(default chinchilla; chinchilla-fit where a loss fit is needed)",
    )
    hw = p.add_argument_group("hardware (needs a budget)")
    hw.add_argument("--gpus", type=parse_whole, metavar="N", help="GPUs training together")
    hw.add_argument("--gpu", metavar="TYPE", help=f"GPU type: {', '.join(GPUS)} (default h100)")
    hw.add_argument("--mfu", type=float, help=f"model FLOPs utilisation (default {DEFAULT_MFU})")
    hw.add_argument("--pue", type=float, help=f"data-centre PUE (default {DEFAULT_PUE})")
    hw.add_argument(
        "--tdp",
        type=float,
        metavar="WATTS",
        help="power per GPU in watts (default: the GPU's datasheet TDP)",
    )
    hw.add_argument(
        "--replica-groups",
        type=parse_whole,
        metavar="G",
        help="replica groups to weigh against whole-job restarts (default: ~1,024 GPUs each)",
    )
    hw.add_argument(
        "--trials",
        type=parse_whole,
        default=DEFAULT_TRIALS,
        help=f"simulation trials (default {DEFAULT_TRIALS})",
    )
    hw.add_argument("--seed", type=parse_whole, default=0, help="simulation seed (default 0)")
    ck = p.add_argument_group("checkpoint interval")
    ck.add_argument(
        "--mtbf",
        type=float,
        metavar="SECONDS",
        help="the job's mean time between unexpected interruptions, seconds (with --gpus it "
        "replaces the simulator's Llama 3 calibration)",
    )
    ck.add_argument(
        "--checkpoint-blocking",
        type=float,
        metavar="SECONDS",
        help="seconds training is blocked by each checkpoint save",
    )
    inf = p.add_argument_group("inference-aware planning (loss-fit laws)")
    inf.add_argument(
        "--inference-tokens",
        type=parse_count,
        metavar="I",
        help="lifetime inference tokens the model will serve",
    )
    inf.add_argument(
        "--target-loss",
        type=float,
        metavar="L",
        help="plan for this loss instead of a compute budget",
    )
    inf.add_argument(
        "--sweep",
        action="store_true",
        help="sweep inference demand; compare Llama 3 with the compute optimum "
        "(budget defaults to Llama 3 405B's 3.8e25 FLOPs)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def request_from_args(a: argparse.Namespace) -> PlanRequest:
    """Check the parsed flags and build the PlanRequest."""
    if a.law is not None:
        get_law(a.law)
    cluster = None
    hw_flags = {"--gpu": a.gpu, "--mfu": a.mfu, "--pue": a.pue, "--tdp": a.tdp}
    if a.gpus is not None:
        if a.gpus <= 0:
            raise UserError(f"--gpus must be a positive whole number, got {a.gpus}")
        gpu = get_gpu(a.gpu).name if a.gpu is not None else "h100"
        mfu = DEFAULT_MFU if a.mfu is None else a.mfu
        if not (math.isfinite(mfu) and 0 < mfu <= 1):
            raise UserError(f"--mfu must be in (0, 1], e.g. 0.40 for 40%, got {mfu}")
        cluster = Cluster(
            gpus=a.gpus,
            gpu=gpu,
            mfu=mfu,
            pue=DEFAULT_PUE if a.pue is None else a.pue,
            tdp_w=a.tdp,
        )
    else:
        stray = [flag for flag, value in hw_flags.items() if value is not None]
        if stray:
            raise UserError(f"{', '.join(stray)} needs --gpus")
    return PlanRequest(
        compute=a.compute,
        params=a.params,
        tokens=a.tokens,
        law=a.law,
        cluster=cluster,
        mtbf_s=a.mtbf,
        checkpoint_blocking_s=a.checkpoint_blocking,
        inference_tokens=a.inference_tokens,
        target_loss=a.target_loss,
        sweep=a.sweep,
        replica_groups=a.replica_groups,
        trials=a.trials,
        seed=a.seed,
    )


def main(argv: list[str]) -> int:
    """Entry point of `nonstop plan`; returns the exit code."""
    args = build_parser().parse_args(argv)
    plan = make_plan(request_from_args(args))
    if args.json:
        print(json.dumps(plan, indent=2, sort_keys=True))
    else:
        render(plan, Console(highlight=False))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except UserError as e:
        print(f"nonstop plan: error: {e}", file=sys.stderr)
        sys.exit(e.exit_code)
