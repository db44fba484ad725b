"""Naming the corrupted replica of a two-replica tie by replay (nonstop.anomalies.attribute,
nonstop.runtime.sdc_replay.pending, nonstop.supervisor.rollback): the decision table."""

from __future__ import annotations

import pytest

from nonstop.anomalies import attribute, held_fingerprints, read_anomalies, write_anomaly
from nonstop.runtime import guards as g
from nonstop.runtime.sdc_replay import pending
from nonstop.supervisor import rollback

A, B, C, D, E = "a" * 16, "b" * 16, "c" * 16, "d" * 16, "e" * 16


def both(fp):
    return {0: fp, 1: fp}


# held: {step: {rank: fp}} as the ranks held them; replayed: what the re-run computed
CASES = [
    # flipped on rank 1 after step 12; the replicas agreed at 9 (A), rank 0 reproduces 14 (C)
    ("flipped on rank 1", {9: both(A), 14: {0: C, 1: D}}, {9: both(A), 14: both(C)}, [1]),
    ("flipped on rank 0", {9: both(A), 14: {0: D, 1: C}}, {9: both(A), 14: both(C)}, [0]),
    # the corrupted weight fed the shared gradient before the check: both differ at 14 ...
    ("both differ", {9: both(A), 14: {0: D, 1: E}}, {9: both(A), 14: both(C)}, []),
    # ... but a per-step history (history=on) shows the first step, where only rank 1 departs
    (
        "history: the first departure",
        {9: both(A), 12: {0: B, 1: D}, 13: {0: E, 1: A}, 14: {0: D, 1: E}},
        {9: both(A), 12: both(B), 13: both(C), 14: both(C)},
        [1],
    ),
    # the replay reproduces nothing, not even the agreed step: not deterministic
    ("replay nondeterministic", {9: both(A), 14: {0: C, 1: D}}, {9: both(B), 14: both(C)}, []),
    # nothing before the corruption to compare (no agreement on record, no checkpoint before)
    ("no reproduced step", {14: {0: C, 1: D}}, {14: both(C)}, []),
    ("neither differs", {9: both(A), 14: {0: C, 1: D}}, {9: both(A), 14: {0: C, 1: D}}, []),
    ("replay's replicas disagree", {9: both(A), 14: {0: C, 1: D}}, {9: {0: A, 1: B}}, []),
    ("nothing replayed", {9: both(A), 14: {0: C, 1: D}}, {}, []),
    ("a rank missing from the replay", {9: both(A), 14: {0: C, 1: D}}, {9: {0: A}}, []),
]


@pytest.mark.parametrize(
    ("held", "replayed", "named"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_attribution_names_a_rank_only_when_the_replay_decides(held, replayed, named):
    v = attribute(held, replayed)
    assert v["ranks"] == named
    assert v["verdict"] == ("replay" if named else "undetermined")
    assert v["reason"]


def test_the_decisive_step_and_the_reason_are_given():
    v = attribute({9: both(A), 14: {0: C, 1: D}}, {9: both(A), 14: both(C)})
    assert (v["step"], v["verdict"]) == (14, "replay") and "reproduced step 9" in v["reason"]
    v = attribute({9: both(A), 14: {0: D, 1: E}}, {9: both(A), 14: both(C)})
    assert "every rank" in v["reason"] and v["step"] == 14


def tie(attempt=0, step=14, **extra):
    return {
        "kind": "sdc",
        "attempt": attempt,
        "step": step,
        "ranks": [0, 1],
        "majority": False,
        "world_size": 2,
        "hosts": ["n0", "n1"],
        "last_good_step": 9,
        "last_good_fingerprint": A,
        "fingerprints": {"0": C, "1": D},
        "detail": "tie",
        **extra,
    }


def test_held_fingerprints_come_from_the_agreement_the_mismatch_and_the_history():
    assert held_fingerprints(tie()) == {9: both(A), 14: {0: C, 1: D}}
    rec = tie(held={"12": {"0": B, "1": E}})
    assert held_fingerprints(rec) == {9: both(A), 12: {0: B, 1: E}, 14: {0: C, 1: D}}
    assert held_fingerprints(tie(last_good_step=None)) == {14: {0: C, 1: D}}


def test_only_an_unattributed_tie_of_an_earlier_attempt_is_replayed(tmp_path):
    write_anomaly(tmp_path, tie())
    assert pending(tmp_path, 1, 2)["step"] == 14
    assert pending(tmp_path, 0, 2) is None  # its own attempt: nothing replayed yet
    assert pending(tmp_path, 1, 3) is None  # another world size: ranks do not correspond
    write_anomaly(tmp_path, {**tie(), "attribution": {"verdict": "undetermined"}})
    assert pending(tmp_path, 1, 2) is None  # decided once
    other = tmp_path / "other"
    write_anomaly(other, {**tie(), "majority": True, "ranks": [1]})
    assert pending(other, 1, 2) is None  # a majority named it already
    write_anomaly(other, tie(attempt=1, step=30))
    write_anomaly(other, {"kind": "nan", "attempt": 2, "step": 40, "ranks": [0]})
    assert pending(other, 3, 2) is None  # only the run's newest anomaly
    assert [a["attempt"] for a in read_anomalies(other)] == [0, 1, 2]


def test_the_guards_record_the_agreed_fingerprint_for_the_replay():
    guards = g.Guards(g.GuardConfig())
    fp = [g.make_row(loss=1.0, fingerprint=0xABC), g.make_row(loss=1.0, fingerprint=0xABC)]
    assert guards.decide(9, fp) is None
    bad = [g.make_row(loss=1.0, fingerprint=0xABC), g.make_row(loss=1.0, fingerprint=0xABD)]
    a = guards.decide(14, bad)
    assert (a.ranks, a.majority, a.last_good_step) == ([0, 1], False, 9)
    assert a.last_good_fingerprint == f"{0xABC:016x}"
    assert g.GuardConfig.from_spec("history=on").history


def attributed(attempt, step, culprit, hosts=("n0", "n1")):
    return {
        **tie(attempt, step, hosts=list(hosts)),
        "ranks": [culprit],
        "tie_ranks": [0, 1],
        "attribution": {"verdict": "replay", "ranks": [culprit]},
    }


def test_an_attributed_tie_convicts_an_undetermined_one_never_excludes():
    maj = {**tie(1, 30), "majority": True, "ranks": [1]}  # rank 1 on n1 named by a majority
    d = rollback.decide([attributed(0, 14, 1), maj], 1)
    assert (d["action"], d["hosts"]) == ("exclude_node", ["n1"])
    d = rollback.decide([attributed(0, 14, 0), maj], 1)
    assert d["action"] == "restart"  # the replay named n0 before: n1 is only suspect now
    undetermined = {**tie(), "attribution": {"verdict": "undetermined", "ranks": []}}
    d = rollback.decide([undetermined, maj], 1)
    assert d["action"] == "restart" and "undetermined" in d["reason"]
    # a tie again across nodes: no majority now, whatever the replay said before
    d = rollback.decide([attributed(0, 14, 1), tie(1, 30)], 1)
    assert d["action"] == "stop_and_page"


def _replayed(tmp_path, agents_rows, named, writers=(0, 1)):
    """A run directory whose ledger holds the agent's failure rows of attempt 0 (rank,
    category, action, root_cause) and whose ranks `writers` then report in attempt 1 that the
    replay named rank `named`; the ledger after ingesting it."""
    from nonstop.events import EventWriter
    from nonstop.ledger import open_run
    from nonstop.rundir import create

    rd = create(tmp_path / "run")
    rd.write_config({"run_id": "t"})
    with open_run(rd.root) as led:
        for rank, category, action, root in agents_rows:
            led.add_failure(
                attempt=0,
                time_s=1.0,
                category=category,
                action=action,
                rank=rank,
                host=f"n{rank}",
                root_cause=root,
            )
    for rank in writers:  # every rank reaches the verdict; rank 0's is the ledger's
        w = EventWriter(
            rd.events(1, rank),
            run_id="t",
            attempt=1,
            rank=rank,
            host=f"n{rank}",
            install_sigterm=False,
        )
        w.emit(
            "lifecycle",
            phase="sdc_attributed",
            step=14,
            anomaly_attempt=0,
            verdict="replay",
            ranks=[named],
            hosts=[f"n{named}"],
            reason=f"the replay names rank {named} on n{named}: ...",
        )
        w.close()
    return open_run(rd.root)


def test_the_ledger_moves_the_root_cause_to_the_rank_the_replay_named(tmp_path):
    sdc = "silent_data_corruption"  # the agent's rows: the first rank it read is the root
    with _replayed(tmp_path, [(0, sdc, "restart", True), (1, sdc, "none", False)], 1) as led:
        roots = led.rows("SELECT rank, action FROM failures WHERE attempt = 0 AND root_cause = 1")
        echoes = led.rows("SELECT rank, action FROM failures WHERE attempt = 0 AND root_cause = 0")
        acts = led.rows("SELECT attempt, host, reason FROM actions WHERE action = 'attribute_sdc'")
    assert [tuple(r) for r in roots] == [(1, "restart")]
    assert [tuple(r) for r in echoes] == [(0, "none")]
    ((attempt, host, reason),) = [tuple(r) for r in acts]
    assert (attempt, host) == (1, "n1") and "names rank 1" in reason


def test_a_named_rank_the_agent_stopped_before_its_own_exit_becomes_the_root(tmp_path):
    """On a loaded host the agent reads rank 1's exit with the guards' code first and stops rank
    0 before rank 0 exits with it (its row: a secondary, category unknown, action none); the
    replay then names rank 0: its row becomes the root cause, silent data corruption, with the
    action decided, and rank 1's becomes the echo (a CI run, 2026-12-04)."""
    sdc = "silent_data_corruption"
    rows = [(0, "unknown", "none", False), (1, sdc, "restart", True)]
    with _replayed(tmp_path, rows, 0, writers=(0,)) as led:
        got = led.rows(
            "SELECT rank, category, action, root_cause FROM failures WHERE attempt = 0 ORDER BY rank"
        )
    assert [tuple(r) for r in got] == [(0, sdc, "restart", 1), (1, sdc, "none", 0)]


def test_a_secondary_of_a_rank_the_replay_did_not_name_stays_a_secondary(tmp_path):
    """The named rank's own row is already the root: the other rank's secondary row (stopped by
    the agent) keeps its category; only a named rank's row is re-read."""
    rows = [(0, "unknown", "none", False), (1, "silent_data_corruption", "restart", True)]
    with _replayed(tmp_path, rows, 1, writers=(0,)) as led:
        got = led.rows(
            "SELECT rank, category, action, root_cause FROM failures WHERE attempt = 0 ORDER BY rank"
        )
    assert [tuple(r) for r in got] == [
        (0, "unknown", "none", 0),
        (1, "silent_data_corruption", "restart", 1),
    ]
