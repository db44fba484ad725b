"""What the supervisor does after an agreed anomaly (nonstop.supervisor.rollback, policy)."""

from __future__ import annotations

from nonstop.runtime.guards import EXIT_ROLLBACK
from nonstop.supervisor import rollback
from nonstop.supervisor.policy import FailureInfo, Policy


def sdc(attempt, step, ranks, hosts=("n0", "n1", "n2"), majority=True):
    return {
        "kind": "sdc",
        "attempt": attempt,
        "step": step,
        "ranks": ranks,
        "hosts": list(hosts),
        "majority": majority,
        "last_good_step": step - 5,
        "detail": "fingerprints differ",
    }


def test_sdc_first_reruns_then_excludes_the_same_node():
    first = rollback.decide([sdc(0, 14, [1])], 0)
    assert (first["category"], first["action"]) == ("silent_data_corruption", "restart")
    assert "rank 1 on n1 suspect" in first["reason"]
    again = rollback.decide([sdc(0, 14, [1]), sdc(1, 30, [1])], 1)
    assert (again["action"], again["hosts"]) == ("exclude_node", ["n1"])
    other = rollback.decide([sdc(0, 14, [1]), sdc(1, 30, [2])], 1)
    assert other["action"] == "restart"  # another node this time: suspect, not convicted


def test_a_tie_that_repeats_across_nodes_pages():
    two = ("n0", "n1")
    d = rollback.decide([sdc(0, 9, [0, 1], two, False), sdc(1, 19, [0, 1], two, False)], 1)
    assert d["action"] == "stop_and_page" and "no majority" in d["reason"]
    one_node = ("n0", "n0")
    d = rollback.decide(
        [sdc(0, 9, [0, 1], one_node, False), sdc(1, 19, [0, 1], one_node, False)], 1
    )
    assert (d["action"], d["hosts"]) == ("exclude_node", ["n0"])


def test_nan_recurring_after_the_rollback_pages_with_the_evidence():
    nan = [{"kind": "nan", "attempt": 0, "step": 20, "ranks": [1], "detail": "non-finite loss"}]
    assert rollback.decide(nan, 0)["action"] == "restart"
    again = [*nan, {"kind": "nan", "attempt": 1, "step": 20, "ranks": [1], "detail": "again"}]
    d = rollback.decide(again, 1)
    assert (d["category"], d["action"]) == ("numerical_nan", "stop_and_page")
    assert len(d["evidence"]) == 2 and "anomaly-1-20.json" in d["evidence"][0]
    far = [*nan, {"kind": "nan", "attempt": 1, "step": 900, "ranks": [0], "detail": "later"}]
    assert rollback.decide(far, 1)["action"] == "restart"


def test_spikes_skip_until_skipping_does_not_help():
    spikes = [{"kind": "spike", "attempt": a, "step": 40 + a, "skip_batches": 10} for a in range(3)]
    d = rollback.decide(spikes[:1], 0)
    assert d["action"] == "restart" and "skipping batches of steps 40..49" in d["reason"]
    assert rollback.decide(spikes, 2)["action"] == "stop_and_page"


def test_no_record_restarts_and_says_so():
    d = rollback.decide([], 3)
    assert (d["category"], d["action"]) == ("unknown", "restart") and "no record" in d["reason"]


def test_policy_counts_one_root_cause_per_anomaly_not_per_rank():
    records = [sdc(0, 14, [1])]
    p = Policy()
    ds = [
        p.decide(
            FailureInfo(rank=r, host="n0", exit_code=EXIT_ROLLBACK, attempt=0, anomalies=records)
        )
        for r in range(3)
    ]
    assert [d.root_cause for d in ds] == [True, False, False]
    assert {d.category for d in ds} == {"silent_data_corruption"} and ds[0].confidence == 1.0
