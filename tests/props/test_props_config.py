"""Property tests: typed configuration and fault specs accept good values and refuse bad ones
with a ValueError/UserError that names the field, never another exception."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.bounded import bounded

from nonstop import faults
from nonstop.checkpoint.config import CheckpointConfig, mtbi_from_env, parse_interval
from nonstop.errors import UserError

SETTINGS = settings(max_examples=100, deadline=None)
anything = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats()
    | st.text(max_size=8)
    | st.lists(st.integers(), max_size=2)
)
FIELDS = [f.name for f in dataclasses.fields(CheckpointConfig)]


@SETTINGS
@given(kwargs=st.dictionaries(st.sampled_from(FIELDS), anything, max_size=4))
def test_checkpoint_config_valid_or_value_error_naming_the_field(kwargs):
    try:
        cfg = CheckpointConfig(**kwargs)
    except ValueError as e:
        assert any(name in str(e) for name in kwargs), (kwargs, e)
        return
    assert cfg.mode in ("steps", "seconds", "auto")
    assert cfg.keep_last >= 1


@SETTINGS
@given(text=st.text(max_size=16) | st.from_regex(r"\s*\d{1,6}(\.\d{1,3})?\s*(steps?|[smh])?\s*"))
def test_parse_interval_valid_or_value_error(text):
    try:
        kw = parse_interval(text)
    except ValueError as e:
        assert repr(text) in str(e)
        return
    cfg = None
    try:
        cfg = CheckpointConfig(**kw)
    except ValueError as e:  # "0" or "0s" parse, then the config refuses them by name
        assert "every_" in str(e)
    if cfg is not None and kw["every_s"] is not None:
        assert math.isfinite(kw["every_s"]) and kw["every_s"] > 0


@SETTINGS
@given(raw=st.text(max_size=12))
def test_mtbi_from_env(raw):
    try:
        v = mtbi_from_env({"NONSTOP_MTBI_S": raw})
    except ValueError as e:
        assert "NONSTOP_MTBI_S" in str(e)
        return
    assert math.isfinite(v) and v > 0


spec_parts = st.sampled_from(["crash", "hang", "slow", "exception", "diskfull", "boom", ""])
keys = st.sampled_from(
    [
        "rank",
        "step",
        "attempt",
        "after",
        "signal",
        "code",
        "xid",
        "how",
        "factor",
        "from",
        "to",
        "nope",
    ]
)
values = st.sampled_from(
    [
        "1",
        "-1",
        "0",
        "*",
        "1.5",
        "inf",
        "nan",
        "SIGKILL",
        "kill",
        "sleep",
        "",
        "x",
        "1e999",
        "99999999999999999999",
    ]
)


@SETTINGS
@given(
    kind=spec_parts, items=st.lists(st.tuples(keys, values), max_size=5), noise=st.text(max_size=6)
)
def test_fault_specs_parse_or_user_error(kind, items, noise):
    spec = kind + "@" + ",".join(f"{k}={v}" for k, v in items) + noise
    try:
        with bounded(5):
            f = faults.parse(spec)
    except UserError as e:
        assert "fault" in str(e)
        return
    assert f.kind in faults.KINDS
    assert f.step is not None or f.after_s is not None or f.kind == "slow"


@SETTINGS
@given(text=st.text(max_size=40))
def test_fault_specs_any_text(text):
    try:
        faults.parse_all(text)
    except UserError:
        pass


@pytest.mark.parametrize("spec", ["slow@factor=nan", "slow@factor=inf", "crash@after=nan"])
def test_non_finite_numbers_are_refused(spec):
    with pytest.raises(UserError):
        faults.parse(spec)
