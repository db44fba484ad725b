"""`nonstop run --memory-checkpoint-every auto`: the ranks measure, agree on one interval, and
a crash restarts from the newest snapshot at that interval (nonstop.checkpoint.cadence).

Two CPU ranks train the demo's tiny Llama; rank 1 crashes at step 40, after the ranks chose
(the first choice at call FIRST, then one every REVIEW calls).
"""

import pytest
from support import TINY, nonstop_run, rank_events, rows

from nonstop.checkpoint.cadence import FIRST, MAX_EVERY

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

STEPS, CRASH = 60, 40
ENV = {"NONSTOP_HEALTH": "off"}  # a tiny model's gradient norms spike for real


def test_auto_cadence_is_agreed_by_every_rank_and_a_crash_loads_its_newest_snapshot(tmp_path):
    run_dir = tmp_path / "run"
    out = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--memory-checkpoint-every",
            "auto",
            "--inject",
            f"crash@step={CRASH},rank=1",
            "-m",
            "nonstop.workloads.llama.train",
            *TINY,
            "--steps",
            str(STEPS),
            "--checkpoint-every",
            "1000",
        ],
        timeout=240,
        env=ENV,
    )
    assert out.returncode == 0, out.stdout + out.stderr

    def chosen(rank: int, attempt: int) -> list[dict]:
        """The rank's choices of the interval, first and changed ones, in order."""
        return [
            e.payload
            for e in rank_events(run_dir, rank, attempt)
            if e.kind == "checkpoint" and e.payload.get("phase") == "cadence"
        ]

    def in_force(choices: list[dict], step: int) -> int:
        return [c["every"] for c in choices if c["step"] <= step][-1]

    first = [chosen(r, 0) for r in (0, 1)]
    assert first[0] and first[0] == first[1], first  # one collective: the same choices
    assert first[0][0]["step"] == FIRST < CRASH, first[0]
    assert all(1 <= c["every"] <= MAX_EVERY for c in first[0]), first[0]
    snapshots = rows(
        run_dir,
        "SELECT rank, step FROM checkpoints WHERE attempt = 0 AND phase = 'replicated'"
        " ORDER BY rank, step",
    )
    for rank in (0, 1):
        later = [s for r, s in snapshots if r == rank and s >= FIRST]
        assert later and all(s % in_force(first[0], s) == 0 for s in later), (first[0], later)
    loads = rows(run_dir, "SELECT rank, step, path FROM checkpoints WHERE phase = 'loaded'")
    assert len(loads) == 2 and all(p.startswith("memory:") for _, _, p in loads), loads
    (step,) = {s for _, s, _ in loads}
    # the newest snapshot both ranks held when rank 1 died: a multiple of the interval, at most
    # about one interval back (the crash's own step may not have been snapshotted yet)
    every = in_force(first[0], step)
    assert step % every == 0 and CRASH - 2 * every <= step <= CRASH, (step, first[0])
    again = chosen(0, 1)
    assert again and again[0]["choice"] == 1  # the restarted attempt measures anew
    assert rows(run_dir, "SELECT MAX(step) FROM steps")[0][0] == STEPS - 1
