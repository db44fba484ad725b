"""Fuzzing the files other processes read from run_dir/control/ (docs/security.md): a stop
plan, operator requests, live settings. Anyone who can write there can write anything; the
readers must answer None, skip it, or keep the defaults, never raise, and what they return
must be well typed (an agent acts on it)."""

from __future__ import annotations

import json
import math

from hypothesis import example, given, settings
from hypothesis import strategies as st
from support.bounded import bounded

from nonstop.errors import UserError
from nonstop.supervisor import live_settings as ctl
from nonstop.supervisor import planned_stop as control

SETTINGS = settings(max_examples=150, deadline=None)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
plan_fields = ["attempt", "step", "kind", "host", "reason", "request_id", "time", "extra"]
plan_like = st.dictionaries(st.sampled_from(plan_fields), json_values, max_size=8) | (
    st.fixed_dictionaries(
        {f: json_values | st.sampled_from(["drain", 1, "x"]) for f in plan_fields[:-1]}
    )  # every field there, any type
)
content = (
    st.binary(max_size=200)
    | json_values.map(lambda v: json.dumps(v).encode())
    | plan_like.map(lambda v: json.dumps(v).encode())
    | st.just(b'{"version": 1e999, "settings": {}}')
)


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / "control" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@SETTINGS
@given(data=content)
@example(
    data=b'{"attempt":null,"step":null,"kind":null,"host":null,"reason":null,'
    b'"request_id":null,"time":null}'
)  # taken as a plan before
def test_a_stop_plan_file_is_none_or_a_well_typed_plan(tmp_path_factory, data):
    run = tmp_path_factory.mktemp("run")
    write(run, "stop-attempt-0.json", data)
    with bounded(5):
        plan = control.read_stop(run, 0)
    if plan is not None:
        assert isinstance(plan.attempt, int) and isinstance(plan.step, int)
        assert plan.kind in control.KINDS
        assert plan.host is None or isinstance(plan.host, str)
        assert isinstance(plan.reason, str) and isinstance(plan.request_id, str)
        assert isinstance(plan.time, int | float) and not isinstance(plan.time, bool)
        assert math.isfinite(plan.time)


request_like = st.dictionaries(
    st.sampled_from(["id", "kind", "host", "reason", "time"]),
    json_values | st.sampled_from(["drain", "restart"]),
    max_size=5,
)


@SETTINGS
@given(files=st.lists(content | request_like.map(lambda v: json.dumps(v).encode()), max_size=4))
@example(files=[b"null"])  # crashed the agent's poll (AttributeError)
@example(files=[b'{"id": [1], "kind": "drain"}'])  # an unhashable id
def test_operator_requests_are_skipped_or_well_typed(tmp_path_factory, files):
    run = tmp_path_factory.mktemp("run")
    for i, data in enumerate(files):
        write(run, f"request-{i}.json", data)
    with bounded(5):
        got = control.pending_requests(run, {"done-id"})
    for body in got:
        assert isinstance(body, dict) and body["kind"] in ("drain", "restart")
        assert isinstance(body["id"], str) and body["id"] != "done-id"
        assert body.get("host") is None or isinstance(body["host"], str)


settings_like = st.fixed_dictionaries(
    {
        "version": json_values,
        "settings": st.dictionaries(st.sampled_from([*ctl.KEYS, "other"]), json_values, max_size=5),
    }
)


@SETTINGS
@given(data=content | settings_like.map(lambda v: json.dumps(v).encode()))
@example(data=b'{"version": 1e999, "settings": {}}')  # OverflowError
@example(data=b'{"version": 1, "settings": [1]}')  # AttributeError
@example(data=b'{"version": 1, "settings": {"telemetry_s": "fast"}}')  # passed to the ranks
def test_live_settings_file_gives_defaults_or_values_the_parsers_accept(tmp_path_factory, data):
    run = tmp_path_factory.mktemp("run")
    write(run, "settings.json", data)
    with bounded(5):
        version, got = ctl.read_settings(run)
        live = ctl.LiveSettings(run).poll()
    assert isinstance(version, int)
    for key, value in got.items():
        assert key in ctl.KEYS
        text = "auto" if value is None else str(value)
        assert ctl.KEYS[key][0](text) == value, (key, value)  # what `nonstop ctl set` writes
    assert live is None or live[0] == version


@SETTINGS
@given(
    text=st.text(max_size=30)
    | st.builds(
        lambda k, v: f"{k}={v}",
        st.sampled_from([*ctl.KEYS, "nope", ""]),
        st.text(max_size=10)
        | st.sampled_from(["nan", "inf", "-1", "0", "1e999", "auto", "on", "off", "5", "1e7"]),
    )
)
def test_ctl_assignments_parse_or_user_error(text):
    try:
        with bounded(5):
            key, value = ctl.parse_assignment(text)
    except UserError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert key in ctl.KEYS
    if isinstance(value, float):
        assert math.isfinite(value) and value > 0
