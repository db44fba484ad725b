"""A script that raises before it trains: one attempt, a page, and the truth in the ledger."""

from __future__ import annotations

import pytest
from support import nonstop_run, rows

pytestmark = pytest.mark.slow


def test_a_script_that_raises_at_import_is_not_retried(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import os\nraise RuntimeError('boom at import')\n")
    run_dir = tmp_path / "run"
    r = nonstop_run(
        [
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(run_dir),
            "--health-checks",
            "none",
            "--max-restarts",
            "3",
            str(script),
        ]
    )
    assert r.returncode == 3, r.stdout + r.stderr  # EXIT_PAGE: a human must look
    assert rows(run_dir, "SELECT COUNT(*) FROM attempts")[0][0] == 1, r.stdout
    actions = rows(run_dir, "SELECT action FROM actions WHERE attempt = 0")
    assert actions == [("stop_and_page",)], actions
    roots = rows(run_dir, "SELECT action, message FROM failures WHERE root_cause = 1")
    assert roots and all(a == "stop_and_page" for a, _ in roots), roots
    assert "before the job made any progress" in roots[0][1]
