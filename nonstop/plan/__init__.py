"""Scaling-law planning: model size, tokens, days, energy, reliability and inference-aware sizing.

No torch here (a test checks that ``import nonstop.plan`` does not load it): numpy, scipy and
the simulator only. The command line is ``nonstop plan`` (see ``nonstop.plan.cli``); the same
answers are available from Python:

    >>> from nonstop.plan import PlanRequest, make_plan
    >>> round(make_plan(PlanRequest(compute=5.88e23))["params"] / 1e9)
    70
"""

from __future__ import annotations

from nonstop.plan.hardware import GPUS, Cluster, Gpu, get_gpu
from nonstop.plan.inference import (
    InferencePlan,
    Point,
    implied_inference_tokens,
    optimize_for_compute,
    optimize_for_loss,
)
from nonstop.plan.laws import (
    BESIROGLU_FIT,
    CHINCHILLA_FIT,
    LAWS,
    Law,
    LossFit,
    get_law,
    training_flops,
)
from nonstop.plan.planner import PlanRequest, make_plan

__all__ = [
    "BESIROGLU_FIT",
    "CHINCHILLA_FIT",
    "GPUS",
    "LAWS",
    "Cluster",
    "Gpu",
    "InferencePlan",
    "Law",
    "LossFit",
    "PlanRequest",
    "Point",
    "get_gpu",
    "get_law",
    "implied_inference_tokens",
    "make_plan",
    "optimize_for_compute",
    "optimize_for_loss",
    "training_flops",
]
