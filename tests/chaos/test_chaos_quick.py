"""The quick chaos schedule end to end: 2 CPU ranks, 4 faults of different kinds (a SIGKILLed
rank, a full disk, a bit flip in a committed checkpoint, a SIGKILLed supervisor started again).

    .venv/bin/pytest tests/chaos -m slow
"""

from __future__ import annotations

import pytest

from benchmarks.chaos.checks import evaluate
from benchmarks.chaos.harness import Harness, reference_run
from benchmarks.chaos.schedule import QUICK_KINDS, make_schedule

pytestmark = pytest.mark.slow


@pytest.mark.timeout(300)
def test_quick_chaos_schedule_loses_nothing(tmp_path):
    s = make_schedule(seed=0, kinds=QUICK_KINDS, gap=(7, 9))
    assert len({f.kind for f in s.faults}) == 4 and s.steps <= 60
    ref = reference_run(s, tmp_path, timeout_s=120)
    record = Harness(s, tmp_path, timeout_s=200).run()
    r = evaluate(s, tmp_path, record, ref)
    context = {k: r[k] for k in ("schedule", "supervisor_exits", "skipped", "faults")}
    assert r["finished"], context
    assert r["identical"], (r["identical_detail"], context)
    assert r["lost"] == 0, r["lost_detail"]
    assert r["skipped"] == [], context  # every fault of the schedule really happened
    assert r["injected"] == len(s.faults), context
    assert r["missed"] == [], r["missed"]
    assert r["phantom"] == [], r["phantom"]
    assert r["detected"] == r["recovered"] == r["injected"], context
    assert r["orphans"] == 0 and r["requeues"] == 0
