"""What a node does about a failure, and nonstop run's exit code: the pure resolution functions
of nonstop.supervisor.policy on a table of cases (the end-to-end tests only confirm the
wiring)."""

import signal
from pathlib import Path

import pytest

from nonstop.supervisor import policy
from nonstop.supervisor.policy import (
    EXIT_EXCLUDE,
    EXIT_FAILED,
    EXIT_OK,
    EXIT_PAGE,
    Decision,
    FailureInfo,
    Policy,
    Resolution,
    exit_code,
    mark_collateral,
    pick_root,
    refine,
    resolve,
)

TERM = -int(signal.SIGTERM)
HOST = "node-a"


def _d(action="restart", *, root=True, category="unknown", hosts=(), confidence=0.5, reason="r"):
    return Decision(
        category, action, reason, root_cause=root, confidence=confidence, hosts=list(hosts)
    )


def _info(rank, exit_code):
    return FailureInfo(rank=rank, host=HOST, exit_code=exit_code)


# -- collateral ranks: torch SIGTERMs the rest of the group after one rank failed -----------

KILL = -int(signal.SIGKILL)

COLLATERAL = [
    # (exit codes of ranks 0.., root_cause of their decisions before, root_cause after,
    #  ranks still running when the agent began to stop them)
    ("one crash, the rest SIGTERMed", [1, TERM, TERM], [True, True, True], [True, False, False]),
    # a peer that died before init_process_group: rank 0 waits in the store, in C, ignores
    # SIGTERM and is SIGKILLed; without the stop's record it was a second root cause
    ("SIGKILLed, stopped by us", [KILL, KILL], [True, True], [False, True], {0}),
    ("SIGKILLed, not stopped by us", [KILL, KILL], [True, True], [True, True], set()),
    ("stopped by us: secondary whatever its exit", [1, 1], [True, True], [True, False], {1}),
    ("every failed rank stopped: from outside", [KILL, KILL], [True, True], [True, True], {0, 1}),
    # every rank exits for an agreed rollback; the policy makes the first one read the cause,
    # which may be the one still running at the stop (CI: a rollback with no root cause left)
    ("a rollback exit is its own, stopped or not", [86, 86], [True, False], [True, False], {0}),
    (
        "only an echo failed before the stop: a stopped cause stays",
        [1, KILL],
        [False, True],
        [False, True],
        {1},
    ),
    ("every rank SIGTERMed from outside", [TERM, TERM], [True, True], [True, True]),
    ("two crashes, one SIGTERMed", [1, 139, TERM], [True, True, True], [True, True, False]),
    ("a SIGTERMed echo stays an echo", [1, TERM], [True, False], [True, False]),
    ("a crash that only echoes", [1, TERM], [False, True], [False, False]),
]


@pytest.mark.parametrize(
    ("codes", "before", "after", "stopped"),
    [(*c[1:4], c[4] if len(c) > 4 else set()) for c in COLLATERAL],
    ids=[c[0] for c in COLLATERAL],
)
def test_collateral_ranks_are_secondary(codes, before, after, stopped):
    infos = [_info(r, c) for r, c in enumerate(codes)]
    decisions = [_d(root=b) for b in before]
    out = mark_collateral(infos, decisions, stopped=stopped)
    assert [d.root_cause for d in out] == after
    for d, b, a in zip(out, before, after, strict=True):
        if b and not a:
            assert d.reason.startswith("secondary (stopped by the agent after a peer failed)")
    assert [d.root_cause for d in decisions] == before  # the inputs are not changed


# -- the root to act on, the culprit nodes ----------------------------------------------------

PICKS = [
    # (decisions, index of the one acted on, culprit hosts)
    ("first root cause wins", [_d(root=False), _d(root=True), _d(root=True)], 1, [HOST]),
    ("all secondary: ours only echo, the culprit is elsewhere", [_d(root=False)] * 2, 0, []),
    ("a rollback names the culprit node", [_d(root=True, hosts=["node-b"])], 0, ["node-b"]),
]


@pytest.mark.parametrize(
    ("decisions", "index", "culprits"), [p[1:] for p in PICKS], ids=[p[0] for p in PICKS]
)
def test_pick_root(decisions, index, culprits):
    d, hosts = pick_root(decisions, HOST)
    assert d is decisions[index]
    assert hosts == culprits


# -- action and exit code --------------------------------------------------------------------

# (id, decision action, culprits, resolve keywords, action, exit code, stop restarts, leaving)
RESOLVE = [
    ("restart with restarts left", "restart", [HOST], {}, "restart", None, False, False),
    (
        "restart, none left",
        "restart",
        [HOST],
        {"restarts_left": 0},
        "restart",
        EXIT_FAILED,
        False,
        False,
    ),
    (
        "single node: exclusion stops with 93",
        "exclude_node",
        [HOST],
        {},
        "exclude_node",
        EXIT_EXCLUDE,
        True,
        True,
    ),
    (
        "exclusion of another node: restart without it",
        "exclude_node",
        ["node-b"],
        {},
        "restart",
        None,
        False,
        False,
    ),
    (
        "all secondary (no culprit here): exclusion is a restart",
        "exclude_node",
        [],
        {},
        "restart",
        None,
        False,
        False,
    ),
    (
        "--no-exclude: restart instead",
        "exclude_node",
        [HOST],
        {"exclude": False},
        "restart",
        None,
        False,
        False,
    ),
    (
        "a failed health check excludes this node",
        "restart",
        ["node-b"],
        {"health_failed": ("disk: full",)},
        "exclude_node",
        EXIT_EXCLUDE,
        True,
        True,
    ),
    (
        "a failed health check with --no-exclude restarts",
        "restart",
        [HOST],
        {"health_failed": ("disk: full",), "exclude": False},
        "restart",
        None,
        False,
        False,
    ),
    ("stop_and_page: exit 3", "stop_and_page", [HOST], {}, "stop_and_page", EXIT_PAGE, True, False),
    (
        "stop_and_page with no restarts left is still 3",
        "stop_and_page",
        [HOST],
        {"restarts_left": 0},
        "stop_and_page",
        EXIT_PAGE,
        True,
        False,
    ),
]


@pytest.mark.parametrize(
    ("given", "culprits", "kw", "action", "code", "stops", "leaves"),
    [r[1:] for r in RESOLVE],
    ids=[r[0] for r in RESOLVE],
)
def test_resolve(given, culprits, kw, action, code, stops, leaves):
    d = _d(given, category="gpu_hbm3_memory", reason="boom")
    r = resolve(d, culprits=culprits, host=HOST, **kw)
    assert isinstance(r, Resolution)
    assert (r.action, r.exit_code, r.stop_restarts, r.leaving) == (action, code, stops, leaves)
    assert bool(r.message) == (code is not None)
    if kw.get("health_failed") and kw.get("exclude", True):
        assert r.decision.action == "exclude_node"
        assert r.decision.reason == "boom; health check failed: disk: full"
        assert d.action == given and d.reason == "boom"  # the input is not changed
    if code == EXIT_EXCLUDE:
        assert r.message.startswith(f"excluding node {HOST}: ")
    if code == EXIT_PAGE:
        assert r.message == "stopped: boom [gpu_hbm3_memory]; a human must look"


def test_rollback_decision_resolves_on_the_named_node(tmp_path):
    """A rollback the guards agreed on names the culprit node (an SDC repeat): the node named
    is excluded, the others restart without it."""
    d = Decision("silent_data_corruption", "exclude_node", "repeat SDC", hosts=["node-b"])
    d_root, culprits = pick_root([d], HOST)
    assert resolve(d_root, culprits=culprits, host="node-b").exit_code == EXIT_EXCLUDE
    assert resolve(d_root, culprits=culprits, host=HOST).action == "restart"


def test_the_same_exception_twice_stops_and_pages(tmp_path):
    """Policy.decide retries a first user-code exception, then stops at the second in another
    attempt at the same step: resolve turns that into exit 3."""
    log = tmp_path / "rank-0.log"
    log.write_text("Traceback (most recent call last):\nValueError: bad batch\n")
    p = Policy(path=tmp_path / "policy.json")
    codes = []
    for attempt in (0, 1):
        info = FailureInfo(
            rank=0, host=HOST, exit_code=1, log_path=log, step=7, attempt=attempt, progressed=True
        )
        d, culprits = pick_root(mark_collateral([info], [p.decide(info)]), HOST)
        codes.append((d.action, resolve(d, culprits=culprits, host=HOST).exit_code))
    assert codes == [("restart", None), ("stop_and_page", EXIT_PAGE)]
    # the memory outlives the supervisor: a third attempt read back from the file stops too
    info = FailureInfo(
        rank=0, host=HOST, exit_code=1, log_path=log, step=7, attempt=2, progressed=True
    )
    assert Policy(path=Path(tmp_path / "policy.json")).decide(info).action == "stop_and_page"


REFINE = [
    # (id, verdict category, confidence, verdict hosts, category after, culprits after)
    ("a confident verdict overrides", "nvlink", 0.9, ["node-b"], "nvlink", ["node-b"]),
    ("a confident verdict without hosts keeps ours", "nvlink", 0.9, [], "nvlink", [HOST]),
    ("not above 0.8: kept", "nvlink", 0.8, ["node-b"], "unknown", [HOST]),
    ("unknown never overrides", "unknown", 0.99, ["node-b"], "unknown", [HOST]),
]


@pytest.mark.parametrize(
    ("category", "conf", "hosts", "after", "culprits"),
    [r[1:] for r in REFINE],
    ids=[r[0] for r in REFINE],
)
def test_refine(category, conf, hosts, after, culprits):
    d = _d("restart", confidence=0.3)
    out, got = refine(
        d,
        [HOST],
        category=category,
        action="exclude_node",
        confidence=conf,
        verdict="v",
        hosts=hosts,
    )
    assert (out.category, got) == (after, culprits)
    assert out.evidence[-1] == "diagnose: v"
    assert d.evidence == []  # the input is not changed


def test_refine_a_verdict_that_recommends_nothing_keeps_ours():
    # a Verdict's action may be `none` (nonstop.diagnose.verdict.VerdictAction); a failure's
    # decision must keep an action the supervisor can take
    d = _d("restart", confidence=0.3)
    out, got = refine(
        d, [HOST], category="nvlink", action="none", confidence=0.9, verdict="v", hosts=["b"]
    )
    assert (out.category, out.action, got) == (d.category, "restart", [HOST])


@pytest.mark.parametrize(
    ("decided", "failed", "code"),
    [
        (None, False, EXIT_OK),
        (None, True, EXIT_FAILED),
        (EXIT_EXCLUDE, False, EXIT_EXCLUDE),
        (EXIT_PAGE, True, EXIT_PAGE),
        (policy.EXIT_REQUEUE, False, 75),
        (policy.EXIT_DRAINED, True, 0),
    ],
)
def test_exit_code(decided, failed, code):
    assert exit_code(decided, failed=failed) == code
