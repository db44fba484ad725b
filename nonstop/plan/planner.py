"""One planning request in, one plain dictionary out: what `nonstop plan` computes.

A ``PlanRequest`` holds the user's flags, typed and checked for contradictions; ``make_plan``
answers it with a dict whose keys are the JSON contract of ``nonstop plan --json`` (each key
present where it applies):

- budget: ``law``, ``params``, ``tokens``, ``tokens_per_param``, ``flops``, ``loss``;
- hardware (with ``--gpus``): ``cluster``, ``days_compute``, ``days_wall``,
  ``expected_interruptions``, ``ettr``, ``gpu_hours``, ``energy_mwh``,
  ``optimal_checkpoint_interval_s``, ``design`` (whole-job restarts or replica groups, and
  ``why`` in one line);
- intervals (with ``--mtbf``/``--checkpoint-blocking``): ``young_interval_s``,
  ``daly_interval_s``;
- inference (with ``--inference-tokens``/``--target-loss``): ``inference``;
- sweep (with ``--sweep``): ``sweep``, ``pays_from_inference_tokens``, ``llama3_comparison``;
- always: ``notes`` (caveats) and ``assumptions`` (with sources).

    >>> from nonstop.plan.planner import PlanRequest, make_plan
    >>> plan = make_plan(PlanRequest(params=405e9, tokens=15.6e12))
    >>> f"{plan['flops']:.3g}"
    '3.79e+25'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from nonstop.errors import UserError
from nonstop.plan import inference, reliability
from nonstop.plan.hardware import Cluster
from nonstop.plan.laws import (
    LAWS,
    LLAMA3_PAPER_FLOPS,
    get_law,
    get_loss_fit,
    llama3_sensitivity,
    training_flops,
)

DEFAULT_LAW: Final = "chinchilla"
DEFAULT_FIT_LAW: Final = "chinchilla-fit"
"""The law of modes that need a loss fit (inference-aware planning, the sweep)."""

# What each answer assumes, printed with it (and in docs/plan.md), by topic.
ASSUMPTIONS: Final[dict[str, str]] = {
    "flops": "training costs 6 FLOPs per parameter per token (C = 6ND), inference 2 (a forward "
    "pass); Kaplan et al. 2020, arXiv:2001.08361, section 2.1",
    "fit": "the loss fits were made on runs of 70M-16B parameters and 5B-500B tokens (Hoffmann "
    "et al. 2022, arXiv:2203.15556); beyond that they extrapolate, and their losses are nats "
    "on the fits' own data (MassiveText), not on yours",
    "inference": "the inference-aware optimum minimises 6ND + 2NI at a fixed loss (Sardana et "
    "al. 2023, arXiv:2401.00448); I counts every token served over the model's life",
    "hardware": "days of compute = FLOPs / (GPUs x dense BF16 peak x MFU); energy = GPUs x TDP "
    "x wall hours x PUE: the GPUs only (no hosts or network), at TDP throughout",
    "reliability": "interruptions, ETTR and wall-clock days come from nonstop's simulator "
    "(nonstop.sim), calibrated on Llama 3's 54-day snapshot unless --mtbf is given",
    "interval": "Young (1974) tau = sqrt(2 delta M); Daly (2006, FGCS 22(3), eq. 37), "
    "M = the job's mean time between interruptions, delta = blocking save time",
    "design": "whole-job restarts against replica groups (torchft/HSDP: a failure stops one "
    "group, the others train on) on the same simulated failures; groups of about 1,024 GPUs "
    "unless --replica-groups, healing from a live peer in 60 s, the quorum re-forming in 10 s, "
    "10 ms of quorum per 5 s step (nonstop.sim.replica's defaults); replica groups are chosen "
    "when they gain at least 0.5 ETTR points (docs/simulate.md)",
}


@dataclass(frozen=True, kw_only=True)
class PlanRequest:
    """The flags of one `nonstop plan`, validated; None means "not given"."""

    compute: float | None = None
    """Training compute budget in FLOPs."""
    params: float | None = None
    """Model parameters."""
    tokens: float | None = None
    """Training tokens."""
    law: str | None = None
    """Scaling law name; None picks chinchilla, or chinchilla-fit where a loss fit is needed."""
    cluster: Cluster | None = None
    """The hardware; None skips days, energy and reliability."""
    mtbf_s: float | None = None
    """The job's mean time between interruptions in seconds."""
    checkpoint_blocking_s: float | None = None
    """Seconds training is blocked by each checkpoint save."""
    inference_tokens: float | None = None
    """Lifetime inference tokens the model will serve (inference-aware planning)."""
    target_loss: float | None = None
    """A target loss instead of a compute budget (inference-aware planning)."""
    sweep: bool = False
    """Sweep the inference demand and compare Llama 3 with the compute-optimal points."""
    replica_groups: int | None = None
    """Replica groups to weigh against whole-job restarts; None = about 1,024 GPUs each."""
    trials: int = reliability.DEFAULT_TRIALS
    """Monte Carlo trials per simulation."""
    seed: int = 0
    """Random seed of the simulation."""

    def __post_init__(self) -> None:
        for name in ("compute", "params", "tokens", "target_loss"):
            value = getattr(self, name)
            if value is not None and not (math.isfinite(value) and value > 0):
                flag = name.replace("_", "-")
                raise UserError(f"--{flag} must be a positive number, got {value!r}")
        if self.law is not None:
            get_law(self.law)
        if self.replica_groups is not None:
            if self.cluster is None:
                raise UserError("--replica-groups needs --gpus (and a budget)")
            if self.replica_groups < 2:
                raise UserError(f"--replica-groups must be 2 or more, got {self.replica_groups}")
        if self.trials <= 0:
            raise UserError(f"--trials must be a positive whole number, got {self.trials!r}")
        if self.seed < 0:
            raise UserError(f"--seed must be a whole number >= 0, got {self.seed!r}")
        given = [n for n in ("compute", "params", "tokens") if getattr(self, n) is not None]
        if len(given) == 3:
            raise UserError(
                "--compute, --params and --tokens together over-determine the plan "
                "(compute = 6 x params x tokens); give two of them, or --compute alone"
            )
        if given in (["params"], ["tokens"]):
            raise UserError(f"--{given[0]} needs --compute or the other of --params/--tokens")
        if self.inference_mode or self.sweep:
            self._check_fit_modes()
        if self.cluster is not None and not (given or self.inference_mode or self.sweep):
            raise UserError("--gpus needs a budget: --compute, or --params and --tokens")
        if self.mtbf_s is not None and not (math.isfinite(self.mtbf_s) and self.mtbf_s > 0):
            raise UserError(f"--mtbf must be a positive number of seconds, got {self.mtbf_s!r}")
        blocking = self.checkpoint_blocking_s
        if blocking is not None and not (math.isfinite(blocking) and blocking >= 0):
            raise UserError(f"--checkpoint-blocking must be seconds >= 0, got {blocking!r}")
        if self.mtbf_s is not None and blocking is None and self.cluster is None:
            raise UserError("--mtbf needs --checkpoint-blocking (or --gpus to simulate the job)")
        if self.checkpoint_blocking_s is not None and self.mtbf_s is None and self.cluster is None:
            raise UserError("--checkpoint-blocking needs --mtbf, or --gpus to simulate failures")
        if not (given or self.inference_mode or self.sweep or self.mtbf_s is not None):
            raise UserError(
                "nothing to plan: give --compute, or --params and --tokens, "
                "or --mtbf with --checkpoint-blocking (see nonstop plan --help)"
            )

    @property
    def inference_mode(self) -> bool:
        """True when the user asked for inference-aware planning."""
        return self.inference_tokens is not None or self.target_loss is not None

    def _check_fit_modes(self) -> None:
        what = "--sweep" if self.sweep else "--inference-tokens/--target-loss"
        get_loss_fit(self.resolved_law)
        if self.params is not None or self.tokens is not None:
            raise UserError(f"{what} chooses parameters and tokens; drop --params/--tokens")
        if self.compute is not None and self.target_loss is not None:
            raise UserError("--compute and --target-loss both fix the loss; give one of them")
        if self.sweep and self.inference_tokens is not None:
            raise UserError("--sweep varies the inference demand; drop --inference-tokens")
        if not self.sweep and self.compute is None and self.target_loss is None:
            raise UserError("--inference-tokens needs --compute or --target-loss")
        if self.inference_tokens is not None and not (
            math.isfinite(self.inference_tokens) and self.inference_tokens >= 0
        ):
            raise UserError(
                f"--inference-tokens must be a number >= 0, got {self.inference_tokens!r}"
            )

    @property
    def resolved_law(self) -> str:
        """The law in effect: the user's, or the default of this mode."""
        if self.law is not None:
            return self.law
        return DEFAULT_FIT_LAW if (self.inference_mode or self.sweep) else DEFAULT_LAW


def make_plan(req: PlanRequest) -> dict[str, Any]:
    """Answer ``req``: see the module docstring for the keys."""
    out: dict[str, Any] = {}
    notes: list[str] = []
    law = LAWS[req.resolved_law]
    if req.compute is not None or req.params is not None or req.inference_mode or req.sweep:
        out["law"] = law.name
        out["law_summary"] = law.summary
    if req.inference_mode:
        _inference(req, out, notes)
    elif req.sweep:
        _sweep(req, out, notes)
    elif req.compute is not None or req.params is not None or req.tokens is not None:
        _budget(req, out, notes)
    if req.cluster is not None and "flops" in out:
        _hardware(req, req.cluster, out)
    if req.mtbf_s is not None and req.checkpoint_blocking_s is not None and "cluster" not in out:
        out.update(
            reliability.checkpoint_intervals(
                blocking_s=req.checkpoint_blocking_s, mtbi_s=req.mtbf_s
            )
        )
        out["optimal_checkpoint_interval_s"] = out["daly_interval_s"]
        out["mtbf_s"] = req.mtbf_s
        out["checkpoint_blocking_s"] = req.checkpoint_blocking_s
    out["notes"] = notes
    out["assumptions"] = _assumptions(req, law.fit is not None)
    return out


def _assumptions(req: PlanRequest, has_fit: bool) -> list[str]:
    budget = req.compute is not None or req.params is not None or req.inference_mode or req.sweep
    topics = [
        ("flops", budget),
        ("fit", budget and has_fit),
        ("inference", req.inference_mode or req.sweep),
        ("hardware", req.cluster is not None),
        ("reliability", req.cluster is not None),
        ("interval", req.mtbf_s is not None or req.cluster is not None),
        ("design", req.cluster is not None),
    ]
    return [ASSUMPTIONS[topic] for topic, applies in topics if applies]


def _set_point(out: dict[str, Any], params: float, tokens: float) -> None:
    out["params"] = params
    out["tokens"] = tokens
    out["tokens_per_param"] = tokens / params
    out["flops"] = training_flops(params, tokens)


def _budget(req: PlanRequest, out: dict[str, Any], notes: list[str]) -> None:
    law = LAWS[req.resolved_law]
    if req.params is not None and req.tokens is not None:
        params, tokens = req.params, req.tokens
    elif req.compute is not None and req.params is not None:
        params, tokens = req.params, req.compute / (6.0 * req.params)
    elif req.compute is not None and req.tokens is not None:
        params, tokens = req.compute / (6.0 * req.tokens), req.tokens
    else:
        assert req.compute is not None
        params, tokens = law.compute_optimal(req.compute)
        out["mode"] = "compute-optimal"
        notes.extend(law.notes(req.compute, params, tokens))
        if law.name == "llama3":
            out["llama3_sensitivity"] = llama3_sensitivity(req.compute)
    out.setdefault("mode", "given")
    _set_point(out, params, tokens)
    if out["mode"] == "given":
        opt_n, opt_d = law.compute_optimal(out["flops"])
        out["compute_optimal"] = {
            "params": opt_n,
            "tokens": opt_d,
            "tokens_per_param": opt_d / opt_n,
        }
    if law.fit is not None:
        out["loss"] = law.fit.loss(params, tokens)


def _inference(req: PlanRequest, out: dict[str, Any], notes: list[str]) -> None:
    fit = get_loss_fit(req.resolved_law)
    demand = req.inference_tokens or 0.0
    if req.target_loss is not None:
        plan = inference.optimize_for_loss(fit, req.target_loss, demand)
    else:
        assert req.compute is not None
        plan = inference.optimize_for_compute(fit, req.compute, demand)
    best = plan.total_optimal
    out["mode"] = "inference-aware"
    _set_point(out, best.params, best.tokens)
    out["loss"] = best.loss
    out["inference"] = plan.to_dict()
    notes.extend(fit.extrapolation_notes(best.params, best.tokens))


def _sweep(req: PlanRequest, out: dict[str, Any], notes: list[str]) -> None:
    fit = get_loss_fit(req.resolved_law)
    if req.target_loss is not None:
        flops = fit.optimal_flops_for_loss(req.target_loss)
    else:
        flops = req.compute if req.compute is not None else LLAMA3_PAPER_FLOPS
    params, tokens = fit.compute_optimal(flops)
    out["mode"] = "sweep"
    _set_point(out, params, tokens)
    out["loss"] = fit.loss(params, tokens)
    out["sweep"] = [p.to_dict() for p in inference.sweep(fit, flops)]
    out["pays_from_inference_tokens"] = inference.pays_from(fit, flops)
    out["pays_saving"] = inference.PAYS_SAVING
    fits = {name: get_loss_fit(name) for name in ("chinchilla-fit", "besiroglu")}
    out["llama3_comparison"] = [c.to_dict() for c in inference.compare_llama3(fits)]
    notes.extend(fit.extrapolation_notes(params, tokens))


def _hardware(req: PlanRequest, cluster: Cluster, out: dict[str, Any]) -> None:
    days = cluster.compute_days(out["flops"])
    out["cluster"] = {
        "gpus": cluster.gpus,
        "gpu": cluster.gpu,
        "mfu": cluster.mfu,
        "peak_flops_per_gpu": cluster.spec.peak_bf16_flops,
        "achieved_flops_per_gpu": cluster.achieved_flops_per_gpu,
        "tdp_w": cluster.power_w,
        "pue": cluster.pue,
        "power_mw": cluster.power_mw(),
        "source": cluster.spec.source,
    }
    out["days_compute"] = days
    rel = reliability.simulate_wall_clock(
        gpus=cluster.gpus,
        compute_days=days,
        trials=req.trials,
        seed=req.seed,
        checkpoint_blocking_s=req.checkpoint_blocking_s,
        mtbf_s=req.mtbf_s,
    )
    out.update(rel.to_dict())
    out["design"] = reliability.choose_design(
        gpus=cluster.gpus,
        days=rel.days_wall,
        trials=req.trials,
        seed=req.seed,
        checkpoint_blocking_s=req.checkpoint_blocking_s,
        mtbf_s=req.mtbf_s,
        replica_groups=req.replica_groups,
    )
    groups_ettr = out["design"]["replica_groups_ettr"]
    # days_wall above is the whole-job design's; the replica groups' own, to compare
    out["design"]["replica_groups_days_wall"] = days / groups_ettr if groups_ettr else None
    out["gpu_hours"] = cluster.gpu_hours(rel.days_wall)
    out["energy_mwh"] = cluster.energy_mwh(rel.days_wall)
