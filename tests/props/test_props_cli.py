"""Property tests: random argv for the read-only verbs returns an exit code (or argparse's
SystemExit(2)), never another exception and never a hang."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.bounded import bounded

from nonstop import cli

SETTINGS = settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
numbers = st.sampled_from(
    ["0", "-1", "1", "2", "1e9", "1e999", "nan", "inf", "-inf", "0.5", "x", "", "3:4", "1e-300"]
)
FLAGS = {
    "simulate": [
        "--gpus",
        "--gpus-per-node",
        "--days",
        "--seed",
        "--failure-rate",
        "--weibull-shape",
        "--checkpoint-interval",
        "--checkpoint-blocking",
        "--detection",
        "--restart",
        "--health-check",
        "--manual-prob",
        "--manual",
        "--spares",
        "--node-repair",
        "--straggler-rate",
        "--straggler-slowdown",
        "--straggler-detection",
        "--diurnal-dvfs",
        "--target-ettr",
        "--replica-groups",
        "--heal-s",
        "--reconfigure-s",
        "--quorum-ms",
        "--group-restart",
        "--spare-groups",
        "--json",
        "--power",
        "--no-planned",
        "--no-exclusion",
    ],
    "plan": [
        "--compute",
        "--params",
        "--tokens",
        "--gpus",
        "--gpu",
        "--mfu",
        "--pue",
        "--seed",
        "--replica-groups",
        "--json",
        "--days",
    ],
    "report": ["--json", "--html"],
    "diagnose": ["--attempt", "--world-size", "--workers", "--json", "--flight"],
    "triage": ["--json"],
}


def run(argv):
    with bounded(30):
        try:
            code = cli.main(argv)
        except SystemExit as e:  # argparse: usage errors are 2, --help is 0
            assert e.code in (0, 2), (argv, e.code)
            return
    assert isinstance(code, int), (argv, code)


@st.composite
def argv_for(draw: st.DrawFn, verb: str, path: str) -> list[str]:
    out = [verb]
    if verb in ("report", "diagnose", "triage"):
        out.append(draw(st.sampled_from([path, path + "/nope", "", "-"])))
    for flag in draw(st.lists(st.sampled_from(FLAGS[verb]), max_size=4)):
        out.append(flag)
        if flag not in ("--json", "--power", "--no-planned", "--no-exclusion"):
            out.append(draw(numbers | st.text(max_size=6)))
    return out


@pytest.mark.parametrize("verb", ["simulate", "plan", "report", "diagnose", "triage"])
@SETTINGS
@given(data=st.data())
def test_random_argv_returns_an_exit_code(tmp_path, capsys, verb, data):
    argv = data.draw(argv_for(verb, str(tmp_path)))
    if verb == "simulate":
        argv += ["--trials", data.draw(st.sampled_from(["1", "2", "0", "-3", "x"]))]
    run(argv)
    capsys.readouterr()


@settings(SETTINGS, max_examples=50)
@given(argv=st.lists(st.text(max_size=10), max_size=5))
def test_any_argv_to_the_dispatcher(capsys, argv):
    if argv and argv[0] in ("run", "demo"):  # these start processes: not for random input
        argv = argv[1:]
    run(argv)
    capsys.readouterr()
