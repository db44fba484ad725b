"""Fuzzing the fault spec grammar (nonstop.faults) and the injector's state machine: a spec is
a Fault or a one-line UserError, `nonstop run`'s check likewise, and no sequence of steps and
ticks makes the injector raise (kinds that end the process are left out: they would end this
one)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from support.bounded import bounded

from nonstop import faults
from nonstop.errors import UserError

SETTINGS = settings(max_examples=200, deadline=None)
KEYS = [
    "rank",
    "step",
    "attempt",
    "after",
    "for",
    "signal",
    "code",
    "xid",
    "how",
    "factor",
    "from",
    "to",
    "nope",
    "",
]
VALUES = st.sampled_from(
    [
        "0",
        "1",
        "3",
        "-1",
        "*",
        "0.5",
        "2",
        "1e999",
        "nan",
        "SIGKILL",
        "segv",
        "SIGSTOP",
        "_DFL",
        "sleep",
        "collective",
        "",
        " 7 ",
        "٣",
        "99999999999999999999",
        "256",
    ]
) | st.text(max_size=6)
specs = st.builds(
    lambda kind, items, sep: kind + sep + ",".join(f"{k}={v}" for k, v in items),
    st.sampled_from([*faults.KINDS, "boom", "", " crash"]),
    st.lists(st.tuples(st.sampled_from(KEYS), VALUES), max_size=6),
    st.sampled_from(["@", "@ ", "", "@@"]),
)


@SETTINGS
@given(spec=specs | st.text(max_size=40))
def test_a_spec_is_a_fault_or_a_one_line_user_error(spec):
    try:
        with bounded(5):
            f = faults.parse(spec)
    except UserError as e:
        assert str(e).startswith("fault ") and "\n" not in str(e)
        return
    assert f.kind in faults.KINDS
    assert (f.step is None) != (f.after_s is None) or (f.kind == "slow" and f.step is None)
    assert 0 <= f.code <= 255 and (f.rank is None or f.rank >= 0)
    if f.signal is not None:
        assert f.signal not in ("SIGSTOP", "SIGCONT", "SIGTSTP")


@SETTINGS
@given(
    specs=st.lists(specs, max_size=4),
    nproc=st.sampled_from(["1", "2", "auto", "x", "0"]),
    nnodes=st.sampled_from(["1", "1:2", "2", ":", "a:b"]),
    no_python=st.booleans(),
)
def test_nonstop_run_s_check_is_a_list_or_a_user_error(specs, nproc, nnodes, no_python):
    try:
        with bounded(5):
            got = faults.check_run(specs, nproc_per_node=nproc, nnodes=nnodes, no_python=no_python)
    except UserError as e:
        assert "\n" not in str(e)
        return
    assert all(isinstance(f, faults.Fault) for f in got)
    assert not (got and no_python)


harmless = st.builds(
    lambda kind, when, n, extra: f"{kind}@{when}={n}{extra}",
    st.sampled_from(["slow", "diskfull"]),
    st.sampled_from(["after", "step"]),
    st.integers(0, 6),
    st.sampled_from(["", ",factor=2", ",for=2", ",to=9", ",rank=0", ",attempt=*"]),
)
events = st.lists(
    st.tuples(st.sampled_from(["step", "tick", "refused"]), st.integers(0, 12)), max_size=30
)


@SETTINGS
@given(specs=st.lists(harmless, max_size=4), events=events, storage=st.booleans())
def test_the_injector_never_raises_and_logs_each_fault_once(specs, events, storage):
    parsed = []
    for s in specs:
        try:
            parsed.append(faults.parse(s))
        except UserError:
            pass
    log: list[str] = []
    inj = faults.Injector(parsed, attempt=0, rank=0, report=lambda f, m: log.append(f.spec))
    inj.in_main_thread = lambda fn: None  # queued, never run: the pauses do not sleep here
    if storage:
        inj.on_disk_full = lambda full: None
    with bounded(5):
        for what, n in events:
            if what == "step":
                inj.on_step(n)
                inj.slow_factor(n)
            elif what == "tick":
                inj.on_tick(float(n))
            else:
                inj.disk_refused()
        unfired = inj.unfired()
    assert len(log) == len(set(log))  # once each
    assert {f.spec for f, _ in unfired}.isdisjoint(log)
    assert all(isinstance(why, str) and why for _, why in unfired)
