"""Scaling laws: from a compute budget to parameters, tokens and (where a loss fit applies) loss.

Four laws, chosen by name with ``--law``:

- ``chinchilla``: Chinchilla's compute-optimal allocation, about 20 tokens per parameter
  (Hoffmann et al. 2022, arXiv:2203.15556: Chinchilla is 70B parameters on 1.4T tokens; their
  Approaches 1 and 2 give N_opt ~ C^0.50 and C^0.49, Table 2).
- ``chinchilla-fit``: the Approach 3 parametric loss fit L(N, D) = E + A/N^alpha + B/D^beta with
  the constants as printed in the paper (eq. 10): E = 1.69, A = 406.4, B = 410.7, alpha = 0.34,
  beta = 0.28.
- ``besiroglu``: the same functional form refitted on the reconstructed Chinchilla data by
  Besiroglu et al. 2024 (arXiv:2404.10102): E = 1.8172, A = 482.01, B = 2085.43,
  alpha = 0.3478, beta = 0.3658.
- ``llama3``: Meta's token fit D*(C) = 0.29 C^0.53 (The Llama 3 Herd of Models,
  arXiv:2407.21783, section 3.2.1), fitted on IsoFLOP runs from 6e18 to 1e22 FLOPs.

Training compute is C = 6ND throughout (Kaplan et al. 2020, arXiv:2001.08361, section 2.1: about
6 FLOPs per parameter per training token, forward and backward). Losses are in nats per token
on the fits' own data (MassiveText); they rank plans, they do not predict another corpus's loss.

    >>> from nonstop.plan.laws import get_law
    >>> n, d = get_law("chinchilla").compute_optimal(5.88e23)
    >>> round(n / 1e9), round(d / 1e12, 2)
    (70, 1.4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from nonstop.errors import UserError

TRAIN_FLOPS_PER_PARAM_TOKEN: Final = 6.0
"""Training FLOPs per parameter per token, forward plus backward (Kaplan et al. 2020, 2.1)."""

CHINCHILLA_TOKENS_PER_PARAM: Final = 20.0
"""Chinchilla's rule of thumb: 70B parameters on 1.4T tokens (Hoffmann et al. 2022)."""

# The range of the runs the Chinchilla fits were made on (Hoffmann et al. 2022, abstract: "over
# 400 language models ranging from 70 million to over 16 billion parameters on 5 to 500 billion
# tokens"). Besiroglu et al. refit the same runs, so the same range applies.
CHINCHILLA_PARAMS_RANGE: Final = (70e6, 16e9)
CHINCHILLA_TOKENS_RANGE: Final = (5e9, 500e9)


def training_flops(params: float, tokens: float) -> float:
    """Training compute C = 6ND in FLOPs."""
    return TRAIN_FLOPS_PER_PARAM_TOKEN * params * tokens


@dataclass(frozen=True, kw_only=True)
class LossFit:
    """A parametric loss fit L(N, D) = E + A / N^alpha + B / D^beta (Hoffmann et al. 2022)."""

    E: float
    """Irreducible loss (nats per token): the loss of an infinite model on infinite data."""
    A: float
    """Coefficient of the parameter term."""
    B: float
    """Coefficient of the data term."""
    alpha: float
    """Exponent of the parameter count N."""
    beta: float
    """Exponent of the token count D."""
    params_range: tuple[float, float]
    """Smallest and largest model of the runs the fit was made on."""
    tokens_range: tuple[float, float]
    """Fewest and most training tokens of the runs the fit was made on."""

    def __post_init__(self) -> None:
        for field in ("E", "A", "B", "alpha", "beta"):
            value = getattr(self, field)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"LossFit.{field} must be a positive number, got {value!r}")

    def loss(self, params: float, tokens: float) -> float:
        """Predicted loss of a model with ``params`` parameters trained on ``tokens`` tokens."""
        return self.E + self.A / params**self.alpha + self.B / tokens**self.beta

    @property
    def _g(self) -> float:
        # G = (alpha A / (beta B))^(1 / (alpha + beta)), Hoffmann et al. 2022, eq. (4).
        return (self.alpha * self.A / (self.beta * self.B)) ** (1 / (self.alpha + self.beta))

    def compute_optimal(self, flops: float) -> tuple[float, float]:
        """(N_opt, D_opt) minimising the loss at C = 6ND (Hoffmann et al. 2022, eq. 4)."""
        a = self.beta / (self.alpha + self.beta)
        b = self.alpha / (self.alpha + self.beta)
        c6 = flops / TRAIN_FLOPS_PER_PARAM_TOKEN
        return self._g * c6**a, c6**b / self._g

    def optimal_flops_for_loss(self, loss: float) -> float:
        """The least training compute that reaches ``loss``, on the compute-optimal frontier.

        On the frontier both terms scale as (C/6)^-gamma with gamma = alpha beta / (alpha + beta),
        so L(C) = E + K (C/6)^-gamma inverts in closed form.
        """
        self._check_reachable(loss)
        gamma = self.alpha * self.beta / (self.alpha + self.beta)
        k = self.A * self._g ** (-self.alpha) + self.B * self._g**self.beta
        return TRAIN_FLOPS_PER_PARAM_TOKEN * (k / (loss - self.E)) ** (1 / gamma)

    def min_params_for_loss(self, loss: float) -> float:
        """The parameter count below which ``loss`` cannot be reached with any amount of data."""
        self._check_reachable(loss)
        return (self.A / (loss - self.E)) ** (1 / self.alpha)

    def tokens_for_loss(self, params: float, loss: float) -> float:
        """Training tokens a model of ``params`` parameters needs to reach ``loss`` (inf if never)."""
        gap = loss - self.E - self.A / params**self.alpha
        return math.inf if gap <= 0 else (self.B / gap) ** (1 / self.beta)

    def _check_reachable(self, loss: float) -> None:
        if not loss > self.E:
            raise UserError(
                f"target loss {loss:g} is not above this fit's irreducible loss E = {self.E:g}; "
                "choose a higher --target-loss"
            )

    def extrapolation_notes(self, params: float, tokens: float) -> list[str]:
        """One line per dimension in which (params, tokens) lies outside the fitted runs."""
        return _range_notes("parameters", params, self.params_range) + _range_notes(
            "tokens", tokens, self.tokens_range
        )


CHINCHILLA_FIT: Final = LossFit(
    E=1.69,
    A=406.4,
    B=410.7,
    alpha=0.34,
    beta=0.28,
    params_range=CHINCHILLA_PARAMS_RANGE,
    tokens_range=CHINCHILLA_TOKENS_RANGE,
)
"""Hoffmann et al. 2022, Approach 3, eq. (10), as printed (unrounded: E 1.6934, alpha 0.3392,
beta 0.2849)."""

BESIROGLU_FIT: Final = LossFit(
    E=1.8172,
    A=482.01,
    B=2085.43,
    alpha=0.3478,
    beta=0.3658,
    params_range=CHINCHILLA_PARAMS_RANGE,
    tokens_range=CHINCHILLA_TOKENS_RANGE,
)
"""Besiroglu et al. 2024 (arXiv:2404.10102), the replication of Approach 3."""

# Llama 3's token fit, section 3.2.1 of arXiv:2407.21783.
LLAMA3_A: Final = 0.29
LLAMA3_ALPHA: Final = 0.53
LLAMA3_FLOPS_RANGE: Final = (6e18, 1e22)
"""The IsoFLOP budgets Meta fitted on."""
LLAMA3_PAPER_FLOPS: Final = 3.8e25
LLAMA3_PAPER_PARAMS: Final = 402e9
LLAMA3_PAPER_TOKENS: Final = 16.55e12
"""The paper's own extrapolation at 3.8e25 FLOPs: 402B parameters on 16.55T tokens."""


def _range_notes(what: str, value: float, bounds: tuple[float, float]) -> list[str]:
    low, high = bounds
    if value > high:
        return [
            f"{value:.3g} {what} is {_times(value / high)} beyond the fitted range's top ({high:.3g})"
        ]
    if value < low:
        return [f"{value:.3g} {what} is {_times(low / value)} below the fitted range ({low:.3g})"]
    return []


def _times(ratio: float) -> str:
    return f"{ratio:.3g}x" if ratio < 1000 else f"{ratio:,.0f}x"


@dataclass(frozen=True, kw_only=True)
class Law:
    """A named way to turn a compute budget into (parameters, tokens)."""

    name: str
    """The ``--law`` name."""
    summary: str
    """One line for humans, with the source."""
    fit: LossFit | None
    """The parametric loss fit, for laws that have one (those predict a loss)."""

    def compute_optimal(self, flops: float) -> tuple[float, float]:
        """(params, tokens) this law recommends for ``flops`` of training compute (C = 6ND)."""
        if not (math.isfinite(flops) and flops > 0):
            raise UserError(f"compute must be a positive number of FLOPs, got {flops!r}")
        if self.fit is not None:
            return self.fit.compute_optimal(flops)
        if self.name == "chinchilla":
            params = math.sqrt(flops / (TRAIN_FLOPS_PER_PARAM_TOKEN * CHINCHILLA_TOKENS_PER_PARAM))
            return params, CHINCHILLA_TOKENS_PER_PARAM * params
        assert self.name == "llama3", self.name
        tokens = llama3_tokens(flops)
        return flops / (TRAIN_FLOPS_PER_PARAM_TOKEN * tokens), tokens

    def notes(self, flops: float, params: float, tokens: float) -> list[str]:
        """Caveats the user should read with this law's answer: extrapolation, rounding."""
        if self.fit is not None:
            return self.fit.extrapolation_notes(params, tokens)
        if self.name == "chinchilla":
            return _range_notes("parameters", params, CHINCHILLA_PARAMS_RANGE) + _range_notes(
                "tokens", tokens, CHINCHILLA_TOKENS_RANGE
            )
        notes = _range_notes("FLOPs", flops, LLAMA3_FLOPS_RANGE)
        s = llama3_sensitivity(flops)
        notes.append(
            f"rounding sensitivity: the printed constants (A 0.29, alpha 0.53) give "
            f"{s['tokens_alpha_low'] / 1e12:.3g}T to {s['tokens_alpha_high'] / 1e12:.3g}T tokens "
            f"for alpha 0.525 to 0.535; the paper's 16.55T at 3.8e25 FLOPs needs alpha "
            f"{s['alpha_matching_paper']:.4f}, which here gives {s['tokens_alpha_paper'] / 1e12:.3g}T"
        )
        return notes


def llama3_tokens(flops: float, *, a: float = LLAMA3_A, alpha: float = LLAMA3_ALPHA) -> float:
    """Llama 3's compute-optimal training tokens D*(C) = A C^alpha (arXiv:2407.21783, 3.2.1)."""
    return a * flops**alpha


def llama3_sensitivity(flops: float) -> dict[str, float]:
    """How much Llama 3's token fit moves with the rounding of its printed exponent.

    The printed (0.29, 0.53) give about 10.5T tokens at 3.8e25 FLOPs while the paper states
    16.55T; an exponent of about 0.5378 reproduces the paper (facts.md, "Llama 3's own fit").
    """
    alpha_paper = math.log(LLAMA3_PAPER_TOKENS / LLAMA3_A) / math.log(LLAMA3_PAPER_FLOPS)
    return {
        "tokens": llama3_tokens(flops),
        "tokens_alpha_low": llama3_tokens(flops, alpha=LLAMA3_ALPHA - 0.005),
        "tokens_alpha_high": llama3_tokens(flops, alpha=LLAMA3_ALPHA + 0.005),
        "alpha_matching_paper": alpha_paper,
        "tokens_alpha_paper": llama3_tokens(flops, alpha=alpha_paper),
        "paper_params": LLAMA3_PAPER_PARAMS,
        "paper_tokens": LLAMA3_PAPER_TOKENS,
        "paper_flops_6nd": training_flops(LLAMA3_PAPER_PARAMS, LLAMA3_PAPER_TOKENS),
    }


LAWS: Final[dict[str, Law]] = {
    "chinchilla": Law(
        name="chinchilla",
        summary="Chinchilla's compute-optimal allocation, 20 tokens per parameter "
        "(Hoffmann et al. 2022)",
        fit=None,
    ),
    "chinchilla-fit": Law(
        name="chinchilla-fit",
        summary="Chinchilla Approach 3 loss fit (Hoffmann et al. 2022, eq. 10)",
        fit=CHINCHILLA_FIT,
    ),
    "besiroglu": Law(
        name="besiroglu",
        summary="Besiroglu et al. 2024 replication of Approach 3 (arXiv:2404.10102)",
        fit=BESIROGLU_FIT,
    ),
    "llama3": Law(
        name="llama3",
        summary="Llama 3 token fit D* = 0.29 C^0.53 (arXiv:2407.21783, section 3.2.1)",
        fit=None,
    ),
}
LOSS_FIT_LAWS: Final = tuple(name for name, law in LAWS.items() if law.fit is not None)


def get_law(name: str) -> Law:
    """The law called ``name``; a UserError naming the valid laws otherwise."""
    try:
        return LAWS[name]
    except KeyError:
        raise UserError(f"unknown law {name!r}; choose one of: {', '.join(LAWS)}") from None


def get_loss_fit(name: str) -> LossFit:
    """The loss fit of law ``name``; a UserError if that law has no loss fit."""
    fit = get_law(name).fit
    if fit is None:
        raise UserError(
            f"law {name!r} has no loss fit; this needs one of: {', '.join(LOSS_FIT_LAWS)}"
        )
    return fit
