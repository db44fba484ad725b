"""Inference-aware planning: when a smaller model trained on more tokens costs less overall.

A model that will serve I inference tokens over its life costs about 6ND FLOPs to train and 2NI
to serve (Kaplan et al. 2020, arXiv:2001.08361, section 2.1: a forward pass is about 2N FLOPs
per token, training about 6N). At a fixed target loss, a parametric fit L(N, D) gives the tokens
D(N) any model size N needs, in closed form; the cheapest (N, D) is then a one-dimensional
minimisation of 6 N D(N) + 2 N I over log N (the method of Sardana et al. 2023, "Beyond
Chinchilla-Optimal", arXiv:2401.00448). With I = 0 it is the Chinchilla compute-optimal point;
with I > 0 the optimum lies at smaller N, because the training term is smallest at the
compute-optimal size and the inference term grows with N.

    >>> from nonstop.plan.laws import CHINCHILLA_FIT
    >>> plan = optimize_for_compute(CHINCHILLA_FIT, flops=1e23, inference_tokens=0.0)
    >>> abs(plan.total_optimal.params / plan.compute_optimal.params - 1) < 1e-4
    True
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Final

import numpy as np
from scipy import optimize

from nonstop.errors import UserError
from nonstop.plan.laws import TRAIN_FLOPS_PER_PARAM_TOKEN, LossFit, training_flops

INFERENCE_FLOPS_PER_PARAM_TOKEN: Final = 2.0
"""Inference FLOPs per parameter per token: one forward pass (Kaplan et al. 2020, 2.1)."""

PAYS_SAVING: Final = 0.01
"""A saving of total FLOPs at which we say over-training "starts to pay" (1%)."""

SWEEP_RATIOS: Final = (0.0, 0.01, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
"""Default inference demands of the sweep, as multiples of the compute-optimal training tokens."""

# Llama 3 models as trained (arXiv:2407.21783: 405B on 15.6T tokens; 8B and 70B on about 15T).
LLAMA3_MODELS: Final = (
    ("Llama 3 405B", 405e9, 15.6e12),
    ("Llama 3 70B", 70e9, 15e12),
    ("Llama 3 8B", 8e9, 15e12),
)


@dataclass(frozen=True, kw_only=True)
class Point:
    """One (parameters, tokens) choice with its loss and lifetime cost."""

    params: float
    tokens: float
    loss: float
    training_flops: float
    inference_flops: float

    @property
    def total_flops(self) -> float:
        """Training plus lifetime inference FLOPs."""
        return self.training_flops + self.inference_flops

    @property
    def tokens_per_param(self) -> float:
        """Training tokens per parameter (Chinchilla's rule of thumb is about 20)."""
        return self.tokens / self.params

    def to_dict(self) -> dict[str, float]:
        """Plain numbers for JSON, including the derived totals."""
        return asdict(self) | {
            "total_flops": self.total_flops,
            "tokens_per_param": self.tokens_per_param,
        }


def point(fit: LossFit, params: float, tokens: float, inference_tokens: float) -> Point:
    """The loss and cost of training ``params`` on ``tokens`` and serving ``inference_tokens``."""
    return Point(
        params=params,
        tokens=tokens,
        loss=fit.loss(params, tokens),
        training_flops=training_flops(params, tokens),
        inference_flops=INFERENCE_FLOPS_PER_PARAM_TOKEN * params * inference_tokens,
    )


@dataclass(frozen=True, kw_only=True)
class InferencePlan:
    """The compute-optimal and the total-cost-optimal point at one target loss and demand."""

    inference_tokens: float
    """Lifetime inference tokens the model will serve."""
    target_loss: float
    """The loss both points reach."""
    compute_optimal: Point
    """The cheapest point to train (Chinchilla-optimal) at ``target_loss``."""
    total_optimal: Point
    """The cheapest point to train and serve at ``target_loss``."""

    @property
    def saving(self) -> float:
        """Fraction of total FLOPs saved by the total-cost optimum (>= 0)."""
        return 1.0 - self.total_optimal.total_flops / self.compute_optimal.total_flops

    def to_dict(self) -> dict[str, object]:
        """Plain numbers for JSON."""
        return {
            "inference_tokens": self.inference_tokens,
            "target_loss": self.target_loss,
            "compute_optimal": self.compute_optimal.to_dict(),
            "total_optimal": self.total_optimal.to_dict(),
            "saving": self.saving,
        }


def _check_demand(inference_tokens: float) -> None:
    if not (math.isfinite(inference_tokens) and inference_tokens >= 0):
        raise UserError(
            f"inference tokens must be a number >= 0, got {inference_tokens!r} "
            "(e.g. --inference-tokens 1e13)"
        )


def optimize_for_loss(fit: LossFit, target_loss: float, inference_tokens: float) -> InferencePlan:
    """The (N, D) that reaches ``target_loss`` at the least training-plus-inference FLOPs."""
    _check_demand(inference_tokens)
    ref_params, ref_tokens = fit.compute_optimal(fit.optimal_flops_for_loss(target_loss))
    reference = point(fit, ref_params, ref_tokens, inference_tokens)
    n_min = fit.min_params_for_loss(target_loss)

    def log_cost(log_n: float) -> float:
        n = math.exp(log_n)
        d = fit.tokens_for_loss(n, target_loss)
        if not math.isfinite(d):
            return math.inf
        return math.log(
            TRAIN_FLOPS_PER_PARAM_TOKEN * n * d
            + INFERENCE_FLOPS_PER_PARAM_TOKEN * n * inference_tokens
        )

    # The optimum lies in (n_min, ref_params]: a coarse grid brackets it, Brent refines it.
    # The upper bound is 2x the reference so that the I = 0 optimum is interior.
    lo, hi = math.log(n_min) + 1e-9, math.log(ref_params * 2.0)
    grid = np.linspace(lo, hi, 65)
    costs = [log_cost(x) for x in grid]
    i = int(np.argmin(costs))
    bracket = (grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)])
    res = optimize.minimize_scalar(
        log_cost, bounds=bracket, method="bounded", options={"xatol": 1e-10}
    )
    log_n = float(res.x) if res.fun <= costs[i] else float(grid[i])
    n = math.exp(log_n)
    best = point(fit, n, fit.tokens_for_loss(n, target_loss), inference_tokens)
    # The reference is always a candidate: never return a point costlier than it.
    if best.total_flops > reference.total_flops:
        best = reference
    return InferencePlan(
        inference_tokens=inference_tokens,
        target_loss=target_loss,
        compute_optimal=reference,
        total_optimal=best,
    )


def optimize_for_compute(fit: LossFit, flops: float, inference_tokens: float) -> InferencePlan:
    """As ``optimize_for_loss``, at the loss of the compute-optimal model of ``flops``."""
    if not (math.isfinite(flops) and flops > 0):
        raise UserError(f"compute must be a positive number of FLOPs, got {flops!r}")
    return optimize_for_loss(fit, fit.loss(*fit.compute_optimal(flops)), inference_tokens)


def implied_inference_tokens(fit: LossFit, params: float, tokens: float) -> float:
    """The lifetime inference demand for which (params, tokens) is the cheapest way to its loss.

    Setting d/dN [6 N D(N) + 2 N I] = 0 along the iso-loss curve, where
    dD/dN = -(alpha A N^-alpha) D / (beta B D^-beta N), gives
    I = 3 D (alpha A N^-alpha / (beta B D^-beta) - 1). Zero at the compute-optimal point;
    negative for a model larger than compute-optimal (no demand makes it the cheapest).
    """
    ratio = (fit.alpha * fit.A * params**-fit.alpha) / (fit.beta * fit.B * tokens**-fit.beta)
    return 3.0 * tokens * (ratio - 1.0)


def sweep(
    fit: LossFit, flops: float, ratios: tuple[float, ...] = SWEEP_RATIOS
) -> list[InferencePlan]:
    """Total-cost optima at the loss of the ``flops`` compute-optimal model, one per demand.

    Demands are ``ratios`` times the compute-optimal model's training tokens.
    """
    _, d_opt = fit.compute_optimal(flops)
    return [optimize_for_compute(fit, flops, r * d_opt) for r in ratios]


def pays_from(fit: LossFit, flops: float, saving: float = PAYS_SAVING) -> float | None:
    """The least inference demand at which over-training saves ``saving`` of total FLOPs.

    Found by root-finding on log I; None if even 10,000x the training tokens saves less.
    """
    _, d_opt = fit.compute_optimal(flops)

    def gap(log_ratio: float) -> float:
        return optimize_for_compute(fit, flops, d_opt * 10.0**log_ratio).saving - saving

    lo, hi = -6.0, 4.0
    if gap(hi) < 0:
        return None
    if gap(lo) >= 0:
        return d_opt * 10.0**lo
    root = optimize.brentq(gap, lo, hi, xtol=1e-6)
    return float(d_opt * 10.0**root)


@dataclass(frozen=True, kw_only=True)
class Comparison:
    """How far a trained model sits from the compute-optimal point of its budget, under a fit."""

    name: str
    fit_name: str
    actual: Point
    """The model as trained (no inference cost)."""
    optimal: Point
    """The compute-optimal point of the same training FLOPs."""
    flops_for_same_loss: float
    """The least compute that reaches the model's loss (on the compute-optimal frontier)."""
    implied_inference_tokens: float
    """The demand for which the model is the total-cost optimum of its loss (<= 0: none)."""

    @property
    def training_overhead(self) -> float:
        """Extra training FLOPs over the compute-optimal way to the same loss."""
        return self.actual.training_flops / self.flops_for_same_loss - 1.0

    def to_dict(self) -> dict[str, object]:
        """Plain numbers for JSON."""
        return {
            "name": self.name,
            "fit": self.fit_name,
            "actual": self.actual.to_dict(),
            "compute_optimal": self.optimal.to_dict(),
            "params_ratio": self.actual.params / self.optimal.params,
            "tokens_ratio": self.actual.tokens / self.optimal.tokens,
            "flops_for_same_loss": self.flops_for_same_loss,
            "training_overhead": self.training_overhead,
            "implied_inference_tokens": self.implied_inference_tokens,
        }


def compare(fit: LossFit, fit_name: str, name: str, params: float, tokens: float) -> Comparison:
    """Compare a trained (params, tokens) with the compute-optimal point under ``fit``."""
    flops = training_flops(params, tokens)
    opt_n, opt_d = fit.compute_optimal(flops)
    actual = point(fit, params, tokens, 0.0)
    return Comparison(
        name=name,
        fit_name=fit_name,
        actual=actual,
        optimal=point(fit, opt_n, opt_d, 0.0),
        flops_for_same_loss=fit.optimal_flops_for_loss(actual.loss),
        implied_inference_tokens=implied_inference_tokens(fit, params, tokens),
    )


def compare_llama3(fits: dict[str, LossFit]) -> list[Comparison]:
    """Llama 3 405B, 70B and 8B against the compute-optimal point of their budgets, per fit."""
    return [
        compare(fit, fit_name, name, n, d)
        for fit_name, fit in fits.items()
        for name, n, d in LLAMA3_MODELS
    ]
