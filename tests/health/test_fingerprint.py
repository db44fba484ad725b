"""Replica fingerprints and the bit flip that tests them (nonstop.runtime.fingerprint)."""

from __future__ import annotations

import pytest
import torch

from nonstop.runtime.fingerprint import fingerprint, flip_bit, state_sha256


def params(seed=0):
    torch.manual_seed(seed)
    m = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.Linear(8, 4))
    return m, list(m.parameters())


def test_identical_replicas_agree_and_every_single_bit_flip_is_caught():
    _, a = params()
    _, b = params()
    assert fingerprint(a) == fingerprint(b)
    fp, finite = fingerprint(a)
    assert finite
    for bit in range(32):
        _, c = params()
        flip_bit(c, bit=bit, index=3)
        assert fingerprint(c)[0] != fp, bit


def test_order_and_dtype_matter_and_non_finite_values_are_reported():
    _, a = params()
    assert fingerprint(a)[0] != fingerprint(list(reversed(a)))[0]
    half = [p.detach().to(torch.bfloat16) for p in a]
    assert fingerprint(half)[1]
    with torch.no_grad():
        a[1][0] = float("nan")
    assert fingerprint(a)[1] is False
    assert fingerprint([]) == (0, True)


def test_flip_bit_flips_exactly_one_bit_even_the_sign():
    t = torch.tensor([1.0, 2.0])
    assert "bit 31" in flip_bit([t], bit=31)
    assert t.tolist() == [-1.0, 2.0]
    flip_bit([t], bit=31)
    assert t.tolist() == [1.0, 2.0]


def test_state_sha256_compares_runs_bit_for_bit():
    m1, _ = params()
    m2, p2 = params()
    assert state_sha256(m1.state_dict()) == state_sha256(m2.state_dict())
    flip_bit(p2, bit=0)
    assert state_sha256(m1.state_dict()) != state_sha256(m2.state_dict())


@pytest.mark.parametrize(
    "spec", ["bitflip@step=3,rank=1", "nan@step=2,rank=0", "spike@step=5,factor=20"]
)
def test_numeric_fault_specs_parse(spec):
    from nonstop import faults

    f = faults.parse(spec)
    assert f.kind in faults.NUMERIC
    if f.kind == "spike":  # a poisoned batch is poisoned in every attempt that trains on it
        assert f.attempt is None and f.rank is None and f.factor == 20


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("bitflip@rank=1", "needs step"),
        ("spike@step=5,rank=0", "does not use rank"),
        ("spike@step=5,factor=1", "factor > 1"),
        ("bitflip@step=1,bit=64", "0-63"),
    ],
)
def test_bad_numeric_specs_say_why(spec, why):
    from nonstop import faults
    from nonstop.errors import UserError

    with pytest.raises(UserError, match=why):
        faults.parse(spec)


def test_injector_scales_the_loss_of_the_poisoned_batch_and_flips_once():
    from nonstop import faults

    inj = faults.Injector(
        faults.parse_all("nan@step=2,rank=1;spike@step=5;bitflip@step=3,rank=1"), attempt=0, rank=1
    )
    assert inj.loss_scale(1) == 1.0 and inj.loss_scale(2) != inj.loss_scale(2)  # NaN
    assert inj.loss_scale(5, batch=15) == 1.0  # step 5 trains another batch after a skip
    assert inj.loss_scale(9, batch=5) == 1000.0
    f = inj.bitflip_due(3)
    assert f is not None and inj.bitflip_due(3) is f  # due until it took effect
    inj.bitflip_done(f, 3, "bit 12 of element 0: 1.0 -> 1.0001")
    assert inj.bitflip_due(3) is None
    later = faults.Injector(faults.parse_all("nan@step=2,rank=1;spike@step=5"), attempt=1, rank=1)
    assert later.loss_scale(2) == 1.0 and later.loss_scale(5) == 1000.0
