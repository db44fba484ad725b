"""Checkpoint-interval formulas against their published forms (facts.md, "Checkpoint interval")."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from scipy.optimize import minimize_scalar

from nonstop.sim import daly_interval_s, waste_fraction, young_interval_s


def test_young_is_sqrt_two_delta_m() -> None:
    assert young_interval_s(30.0, 10_000.0) == pytest.approx(math.sqrt(2 * 30 * 10_000))


def test_daly_eq37_by_hand() -> None:
    d, m = 60.0, 3600.0
    x = d / (2 * m)
    expected = math.sqrt(2 * d * m) * (1 + math.sqrt(x) / 3 + x / 9) - d
    assert daly_interval_s(d, m) == pytest.approx(expected)


def test_daly_tends_to_young_when_saving_is_cheap() -> None:
    m = 10_000.0
    assert daly_interval_s(0.01, m) / young_interval_s(0.01, m) == pytest.approx(1.0, abs=2e-3)


def test_daly_is_m_when_blocking_exceeds_two_m() -> None:
    assert daly_interval_s(500.0, 200.0) == 200.0


def test_young_minimises_the_first_order_waste() -> None:
    d, m, r = 20.0, 20_000.0, 300.0
    best = minimize_scalar(lambda t: waste_fraction(t, d, m, r), bounds=(1, m), method="bounded")
    assert best.x == pytest.approx(young_interval_s(d, m), rel=1e-3)


def test_waste_fraction_terms() -> None:
    assert waste_fraction(600.0, 6.0, 60_000.0, 300.0) == pytest.approx(0.01 + 600 / 60_000)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: young_interval_s(-1.0, 10.0), "blocking_s"),
        (lambda: daly_interval_s(1.0, 0.0), "mtbi_s"),
        (lambda: waste_fraction(0.0, 1.0, 10.0, 1.0), "interval_s"),
        (lambda: waste_fraction(1.0, 1.0, 10.0, math.nan), "restart_s"),
    ],
)
def test_bad_values_name_the_argument(call: Callable[[], float], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call()
