"""The accounting of a --replica-groups job from its groups' event streams (no processes: the
end-to-end run is tests/supervisor/test_replica_groups.py)."""

import json

import pytest

from nonstop.events.schema import Event
from nonstop.report import replica_groups as rg
from nonstop.report.cli import main as report_main
from nonstop.rundir import RunDir


def ev(run_id, attempt, t, kind, payload):
    return Event(run_id=run_id, attempt=attempt, rank=0, host="h", mono=t, time=t, kind=kind,
                 payload=payload)  # fmt: skip


def write_group(root, g, attempts):
    """attempts: {attempt: [(step, start, end, committed, replicas, loss), ...]}, then the
    group's final fingerprint as a `finished` lifecycle event in its last attempt."""
    rd = RunDir(root / "groups" / f"g{g}")
    for attempt, steps in attempts.items():
        path = rd.events(attempt, 0)
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = []
        for step, start, end, committed, replicas, loss in steps:
            payload = {"step": step, "start": start, "end": end, "committed": committed,
                       "replicas": replicas, "loss": loss}  # fmt: skip
            lines.append(ev(f"g{g}", attempt, end, "step", payload))
        path.write_text("".join(e.to_json() + "\n" for e in lines))
    return rd


def finish(rd, attempt, sha, healed=None):
    path = rd.events(attempt, 0)
    extra = []
    if healed is not None:
        extra.append(ev("g", attempt, 0, "lifecycle", {"phase": "healed", "step": healed - 1}))
    extra.append(ev("g", attempt, 0, "lifecycle", {"phase": "finished", "state_sha256": sha}))
    with path.open("a") as f:
        f.write("".join(e.to_json() + "\n" for e in extra))


@pytest.fixture
def job(tmp_path):
    root = tmp_path / "job"
    (root / "groups").mkdir(parents=True)
    (root / rg.GROUPS_JSON).write_text(json.dumps({"replica_groups": 2}))
    events = [
        {"time": 0.0, "kind": "group_started", "group": 0},
        {"time": 0.0, "kind": "group_started", "group": 1},
        {"time": 20.0, "kind": "lighthouse_restarted", "exit_code": -9},
        {"time": 30.0, "kind": "ended"},
    ]
    (root / rg.EVENTS_JSONL).write_text("".join(json.dumps(e) + "\n" for e in events))
    # group 0: steps 0-9, one second each from t=10, alone (1 replica) for steps 3-5, and step
    # 3 failed once (the peer died in its all-reduce) and was taken again
    s0 = [(s, 10.0 + s, 11.0 + s, True, 1 if 3 <= s <= 5 else 2, 5.0 - 0.1 * s) for s in range(10)]
    s0.insert(3, (3, 12.5, 13.0, False, 2, 4.7))
    finish(write_group(root, 0, {0: s0}), 0, "abc")
    # group 1: steps 0-2, killed; back in attempt 1 healed at step 6
    g1 = write_group(root, 1, {0: [(s, 10.0 + s, 11.0 + s, True, 2, 5.0) for s in range(3)],
                               1: [(s, 10.0 + s, 11.0 + s, True, 2, 5.0) for s in range(6, 10)]})  # fmt: skip
    finish(g1, 1, "abc", healed=6)
    return root


def test_replica_accounting(job):
    s = rg.summarize(job)
    assert s["replica_groups"] == 2 and s["wall_s"] == 30.0
    assert s["steps_committed"] == 10 and s["steps_missing"] == 0
    assert s["steps_with_fewer_replicas"] == 3  # steps 3, 4, 5
    assert s["steps_committed_twice"] == 0  # the failed try of step 3 was not a commit
    assert s["fingerprints_equal"] is True
    assert s["lighthouse_restarts"] == 1
    a, b = s["groups"]
    assert (a["steps_committed"], a["steps_not_committed"]) == (10, 1)
    assert b["steps_committed"] == 7 and b["healed_at"] == [{"attempt": 1, "step": 6}]
    assert s["replica_productive_s"] == pytest.approx(17.0)
    assert s["replica_seconds_lost"] == pytest.approx(60.0 - 17.0)
    assert (a["lost_s"], b["lost_s"]) == (pytest.approx(20.0), pytest.approx(23.0))
    assert s["ettr"] == pytest.approx(10 / 30)  # some group committed a step 10 s of 30


def test_different_fingerprints_and_a_step_taken_twice_are_reported(job):
    g1 = RunDir(job / "groups" / "g1")
    finish(write_group(job, 1, {0: [(s, 10.0 + s, 11.0 + s, True, 2, 5.0) for s in (0, 1, 1)]}),
           0, "xyz")  # fmt: skip
    for d in g1.root.glob("events/attempt-1"):
        for f in d.iterdir():
            f.unlink()
    s = rg.summarize(job)
    assert s["fingerprints_equal"] is False
    assert s["steps_committed_twice"] == 1


def test_report_cli_terminal_json_and_html(job, capsys):
    assert report_main([str(job), "--json", "--html", str(job / "r.html")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["steps_with_fewer_replicas"] == 3 and "replica_seconds_lost" in out
    assert "steps_with_fewer_replicas" in (job / "r.html").read_text()
    assert report_main([str(job)]) == 0
    text = capsys.readouterr().out
    assert "whole-job ETTR 33.3%" in text and "final fingerprints equal" in text


def test_loss_gap_against_a_reference(job, tmp_path):
    assert rg.loss_gap(job, job)["relative_gap"] == 0.0


def test_across_hosts_every_nodes_events_are_read_in_time_order(job):
    """Across hosts each node's parent writes its own events; the serving node's `ended`
    (after --exit-timeout) is not the job's end."""
    (job / rg.EVENTS_JSONL).unlink()
    nodes = {
        "node0.g0": [{"time": 0.0, "kind": "group_started", "group": 0},
                     {"time": 20.0, "kind": "lighthouse_restarted", "exit_code": -9},
                     {"time": 29.0, "kind": "group_ended", "group": 0, "exit_code": 0},
                     {"time": 45.0, "kind": "ended", "serving": True}],
        "node1.g1": [{"time": 0.0, "kind": "group_started", "group": 1},
                     {"time": 12.0, "kind": "group_ended", "group": 1, "exit_code": 93},
                     {"time": 12.1, "kind": "ended", "serving": False}],
        "node2.g1": [{"time": 1.0, "kind": "group_started", "group": 1},
                     {"time": 30.0, "kind": "group_ended", "group": 1, "exit_code": 0}],
    }  # fmt: skip
    for name, events in nodes.items():
        path = job / f"replica_groups.{name}.jsonl"
        path.write_text("".join(json.dumps(e) + "\n" for e in events) + '{"torn')
    s = rg.summarize(job)
    assert s["wall_s"] == 30.0 and s["lighthouse_restarts"] == 1
    a, b = s["groups"]
    assert (a["exit_codes"], b["exit_codes"]) == ([0], [93, 0]) and b["exit_code"] == 0
    assert a["hosts"] == ["h"]


def test_a_resume_from_a_durable_checkpoint_rolls_back_what_followed_it(tmp_path):
    """Both groups committed steps 0-7 and died; group 0 resumed from the checkpoint of step 5
    (attempt 1) and group 1 healed from it at step 6: steps 5-7 of attempt 0 are rolled back
    (lost with the groups), not committed twice, and the job misses no step."""
    root = tmp_path / "job"
    (root / "groups").mkdir(parents=True)
    (root / rg.GROUPS_JSON).write_text(json.dumps({"replica_groups": 2}))
    first = [(s, 10.0 + s, 11.0 + s, True, 2, 5.0) for s in range(8)]
    after = [(s, 30.0 + s, 31.0 + s, True, 2 if s >= 6 else 1, 4.0) for s in range(5, 10)]
    g0 = write_group(root, 0, {0: first, 1: after})
    resumed = ev("g0", 1, 29.0, "lifecycle", {"phase": "resumed", "step": 4, "source": "storage"})
    with g0.events(1, 0).open("a") as f:
        f.write(resumed.to_json() + "\n")
    finish(g0, 1, "abc")
    g1 = write_group(root, 1, {0: first, 1: [s for s in after if s[0] >= 6]})
    finish(g1, 1, "abc", healed=6)
    s = rg.summarize(root)
    assert s["resumed_from_checkpoint"] == [5] and s["steps_rolled_back"] == 3
    assert s["steps_committed_twice"] == 0 and s["steps_missing"] == 0
    assert s["steps_committed"] == 10 and s["fingerprints_equal"] is True
    a, b = s["groups"]
    assert a["resumed_at"] == [{"attempt": 1, "step": 5}] and a["steps_committed"] == 10
    assert (a["steps_rolled_back"], b["steps_rolled_back"]) == (3, 3)
    assert b["steps_committed"] == 5 + 4  # 0-4, then 6-9 after its heal
    assert s["replica_productive_s"] == pytest.approx(10 + 9)  # rolled-back time is lost
    assert rg.losses(root)[6] == 4.0  # the step as taken again
