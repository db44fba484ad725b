"""bench_replica_groups' window, read from synthetic group streams: from the injected failure
until the killed group's first committed step after its restart, and the rank-seconds in that
window not spent in a committed step (the runs themselves: tests/supervisor/test_replica_groups)."""

import pytest

from benchmarks import bench_replica_groups as b
from nonstop.events.schema import Event
from nonstop.rundir import RunDir


def write(root, g, attempt, events):
    path = RunDir(root / "groups" / f"g{g}").events(attempt, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        for t, kind, payload in events:
            e = Event(run_id=f"g{g}", attempt=attempt, rank=0, host="h", mono=t, time=t,
                      kind=kind, payload=payload)  # fmt: skip
            f.write(e.to_json() + "\n")


def step(s, start, end, committed=True):
    return (end, "step", {"step": s, "start": start, "end": end, "committed": committed})


def test_window_from_the_fault_to_the_healed_groups_first_commit(tmp_path):
    # group 1 dies at t=10 (its failure event), comes back and commits its first step 14-15;
    # group 0 loses the step 10-11 (not committed), then commits 11-12, 12-13, 13-14, 14-15
    write(
        tmp_path,
        1,
        0,
        [step(0, 9, 10), (10.0, "failure", {"message": "crash@step=1", "injected": True})],
    )
    write(tmp_path, 1, 1, [step(5, 14, 15)])
    write(tmp_path, 0, 0, [step(0, 9, 10), step(1, 10, 11, committed=False),
                           *(step(s, 9 + s, 10 + s) for s in range(2, 6))])  # fmt: skip
    w = b._group_window(tmp_path, 2)
    assert w["back_s"] == pytest.approx(5.0)  # until the end of 14-15
    # group 0: 5 s of window, 4 of them committed -> 1; group 1: 5 s, its 14-15 step -> 4
    assert w["lost_rank_s"] == pytest.approx(5.0)
