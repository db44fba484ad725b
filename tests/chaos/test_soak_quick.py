"""The soak benchmark's quick mode as a smoke test: each injector kind once in one run, nothing
lost, the ledger equal to the injector's log, the supervisor sampled throughout.

    .venv/bin/pytest tests/chaos/test_soak_quick.py -m slow
"""

from __future__ import annotations

import pytest

from benchmarks import bench_soak
from benchmarks.chaos.schedule import INJECTED

pytestmark = pytest.mark.slow


@pytest.mark.timeout(900)
def test_quick_soak_loses_nothing_and_samples_the_agent(tmp_path):
    r = bench_soak.run(quick=True, work=tmp_path)
    context = {k: r[k] for k in ("skipped", "missed", "phantom", "ledger", "agent")}
    assert r["finished"] and r["identical"] and r["lost"] == 0, context
    assert set(r["injected_kinds"]) == set(INJECTED), context  # every kind really fired
    assert r["injected"] == r["detected"] == r["recovered"] == r["scheduled"], context
    assert r["skipped"] == [] and r["ledger_equals_injector"], context
    assert r["pacing_records"] >= 2 * (r["scheduled"] - 1)  # the pacing is logged, not counted
    agent = r["agent"]
    assert agent["samples"] >= 10 and agent["fds_max"] > 0 and agent["rss_first_mb"] > 0
    assert r["orphans"] == 0 and r["requeues"] == 0
