"""The chaos harness with the three numerical faults (docs/health.md): a parameter bit flipped
on one replica, a NaN loss on one rank and a poisoned batch, each in its own attempt. Each is
detected by the guards, recorded with its category and rolled back; the run finishes with
parameters bitwise identical to a fault-free reference that skips the same batches.

    .venv/bin/pytest tests/chaos/test_chaos_health.py -m slow
"""

from __future__ import annotations

import pytest

from benchmarks.chaos.checks import evaluate
from benchmarks.chaos.harness import Harness, reference_run
from benchmarks.chaos.schedule import make_schedule

pytestmark = pytest.mark.slow


@pytest.mark.timeout(400)
def test_numerical_faults_are_rolled_back_and_leave_no_trace(tmp_path):
    s = make_schedule(seed=0, kinds=("param_bitflip", "nan", "spike"), gap=(7, 9))
    assert {f.kind for f in s.faults} == {"param_bitflip", "nan", "spike"}
    ref = reference_run(s, tmp_path, timeout_s=150)
    record = Harness(s, tmp_path, timeout_s=250).run()
    r = evaluate(s, tmp_path, record, ref)
    context = {k: r[k] for k in ("schedule", "supervisor_exits", "skipped", "faults")}
    assert r["finished"], context
    assert r["identical"], (r["identical_detail"], context)
    assert r["injected"] == len(s.faults) == 3, context
    assert r["missed"] == [], r["missed"]
    assert r["phantom"] == [], r["phantom"]
    assert r["detected"] == r["recovered"] == r["injected"], context
