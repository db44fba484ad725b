"""The guards' decision (nonstop.runtime.guards): pure functions of every rank's row."""

from __future__ import annotations

import math

import pytest

from nonstop.runtime import guards as g


def rows(*losses, grad=None, fps=None):
    out = []
    for i, loss in enumerate(losses):
        fp = None if fps is None else fps[i]
        out.append(g.make_row(loss=loss, grad_norm=grad, fingerprint=fp))
    return out


def warm(guards, n=30, loss=3.0, jitter=0.05):
    for s in range(n):
        assert guards.decide(s, rows(loss + jitter * ((s * 7) % 5 - 2), loss)) is None


def test_config_spec_parses_validates_and_turns_off():
    c = g.GuardConfig.from_spec("spike_z=8, fingerprint-every=100,skip_batches=0")
    assert (c.spike_z, c.fingerprint_every, c.skip_batches) == (8.0, 100, 0)
    assert not g.GuardConfig.from_spec("off").enabled
    assert g.GuardConfig.from_spec("") == g.GuardConfig()
    for bad, field in [
        ("window=0", "window"),
        ("spike_z=-1", "spike_z"),
        ("nope=1", "nope"),
        ("spike_ratio=0.5", "spike_ratio"),
        ("window=abc", "window"),
        ("min_history=50,window=10", "min_history"),
    ]:
        with pytest.raises(ValueError, match=field):
            g.GuardConfig.from_spec(bad)


def test_nan_on_one_rank_is_named_from_step_zero():
    guards = g.Guards(g.GuardConfig())
    a = guards.decide(0, rows(2.0, math.nan, 2.0))
    assert a is not None and (a.kind, a.ranks, a.category) == ("nan", [1], "numerical_nan")
    # a NaN loss spreads through DDP's all-reduce to every gradient: the loss's rank is named
    a = guards.decide(
        1, [g.make_row(loss=1.0, grad_norm=math.inf), g.make_row(loss=math.inf, grad_norm=math.inf)]
    )
    assert a.ranks == [1] and "loss" in a.detail


def test_spike_needs_history_and_a_robust_outlier():
    guards = g.Guards(g.GuardConfig(min_history=20))
    assert guards.decide(0, rows(100.0, 100.0)) is None  # no baseline yet: not called
    guards = g.Guards(g.GuardConfig(min_history=20))
    warm(guards)
    a = guards.decide(30, rows(50.0, 50.0))
    assert a is not None and a.kind == "spike" and a.baseline == pytest.approx(3.0, abs=0.1)
    assert a.score > 6
    # the spike did not enter the baseline: the next normal step is fine
    assert guards.decide(31, rows(3.0, 3.0)) is None


def test_falling_loss_and_ordinary_noise_are_not_spikes():
    guards = g.Guards(g.GuardConfig(min_history=10))
    for s in range(200):
        loss = 6.0 * math.exp(-s / 50) + 2.0 + 0.05 * math.sin(s * 1.7)
        assert guards.decide(s, rows(loss, loss)) is None, s


def test_flat_loss_needs_the_ratio_too():
    guards = g.Guards(g.GuardConfig(min_history=5))
    for s in range(10):
        guards.decide(s, rows(2.0, 2.0))
    # MAD is 0: any rise is infinitely many MADs, but 2x is within spike_ratio 3 of 2.0
    # (a healthy small-batch loss went 2.03x its median after a drain)
    assert guards.decide(10, rows(4.1, 4.1)) is None
    assert guards.decide(11, rows(6.5, 6.5)).kind == "spike"


def test_gradient_norm_spikes_are_off_by_default():
    """Healthy training has them (a fault-free demo run was rolled back three times and paged
    when they counted); non-finite gradients are still caught."""
    guards = g.Guards(g.GuardConfig(min_history=10))
    for s in range(20):
        guards.decide(s, rows(3.0, 3.0, grad=1.0 + 0.01 * (s % 3)))
    assert guards.decide(20, rows(3.0, 3.0, grad=40.0)) is None
    assert guards.decide(21, rows(3.0, 3.0, grad=float("inf"))).kind == "nan"


def test_gradient_norm_spike_has_its_own_threshold():
    guards = g.Guards(g.GuardConfig(min_history=10, grad_z=10, grad_spikes=True))
    for s in range(20):
        guards.decide(s, rows(3.0, 3.0, grad=1.0 + 0.01 * (s % 3)))
    assert guards.decide(20, rows(3.0, 3.0, grad=1.05)) is None
    a = guards.decide(21, rows(3.0, 3.0, grad=40.0))
    assert a.kind == "spike" and "gradient norm" in a.detail


def test_fingerprints_name_the_minority_and_remember_the_last_agreement():
    guards = g.Guards(g.GuardConfig())
    assert guards.decide(9, rows(3, 3, 3, fps=[7, 7, 7])) is None
    assert guards.last_agreed_step == 9
    a = guards.decide(19, rows(3, 3, 3, fps=[7, 2**63 + 5, 7]))
    assert (a.kind, a.ranks, a.majority, a.last_good_step) == ("sdc", [1], True, 9)
    assert a.fingerprints[1] == f"{2**63 + 5:016x}"


def test_two_replicas_that_differ_are_a_tie():
    a = g.Guards(g.GuardConfig()).decide(4, rows(3, 3, fps=[1, 2]))
    assert (a.ranks, a.majority) == ([0, 1], False)
    assert "no majority" in a.detail


@pytest.mark.parametrize("x", [0, 1, 2**16 - 1, 2**40 + 3, 2**64 - 1])
def test_64_bit_fingerprints_survive_the_float64_sum(x):
    assert g.join64(g.split64(x)) == x
    assert all(c == int(c) and c < 2**16 for c in g.split64(x))


def test_anomaly_records_and_the_skip_plan(tmp_path):
    assert g.read_anomalies(tmp_path) == [] and g.skip_plan(tmp_path) == {}
    g.write_anomaly(tmp_path, {"kind": "spike", "attempt": 1, "step": 40, "skip_batches": 5})
    g.write_anomaly(tmp_path, {"kind": "nan", "attempt": 0, "step": 12})
    (tmp_path / g.HEALTH_DIR / "anomaly-9-9.json").write_text("{torn")
    got = g.read_anomalies(tmp_path)
    assert [(a["attempt"], a["kind"]) for a in got] == [(0, "nan"), (1, "spike")]
    assert g.skip_plan(tmp_path) == {40: 5}
    assert g.skip_plan(tmp_path, "40:2,7:3") == {40: 5, 7: 3}
    with pytest.raises(ValueError, match="STEP:BATCHES"):
        g.skip_plan(tmp_path, "x:1")


def test_a_step_before_a_save_is_checked_by_the_saves_verify_in_one_collective(tmp_path):
    """Once two saves show their cadence, the step before a save defers its check to the
    save's `verify`: one gather per step instead of two, with the fingerprint of the very
    parameters saved. A save that does not come after all: the deferred check runs when the
    next step begins, on the parameters it is about, and deferring stops until two saves show
    a cadence again."""
    import torch

    from nonstop.runtime.fingerprint import fingerprint

    class Rt:
        run_dir, faults, attempt, world_size, rank = tmp_path, None, 0, 1, 0

    h = g.Health(Rt(), g.GuardConfig(fingerprint_every=0))
    p = torch.zeros(8)
    h.watch([p])
    gathers = []
    inner = h._gather
    h._gather = lambda row: gathers.append(row) or inner(row)

    def step(s, *, save):
        h.before_step(s)
        p.add_(1.0)  # the optimizer step
        h.after_step(s, {"loss": 1.0})
        n = len(gathers)
        fp = h.verify(s + 1) if save else None
        return n, fp

    per_step = []
    for s in range(5):
        before = len(gathers)
        _, fp = step(s, save=True)
        assert fp == f"{fingerprint([p])[0]:016x}"  # what is saved: this step's parameters
        per_step.append(len(gathers) - before)
    assert per_step == [2, 2, 1, 1, 1]
    before = len(gathers)
    deferred, _ = step(5, save=False)  # no save of step 6: the check waits for step 6's start
    assert deferred == before and h.last_fingerprint != f"{fingerprint([p])[0]:016x}"
    held = f"{fingerprint([p])[0]:016x}"
    h.before_step(6)
    assert len(gathers) == before + 1 and h.last_fingerprint == held
    assert h.guards.last_agreed_step == 5
    p.add_(1.0)
    h.after_step(6, {"loss": 1.0})  # no cadence any more: checked at once
    assert len(gathers) == before + 2
