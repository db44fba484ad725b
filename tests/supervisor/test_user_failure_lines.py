"""What a user sees of their own failure (issue 26): a traceback that starts at their frames,
not at nonstop's bootstrap and `<frozen runpy>`, and, for a bare `os._exit(3)`, a failure line
that says what is known instead of torch's "To enable traceback see" link."""

from __future__ import annotations

import subprocess
import sys

from torch.distributed.elastic.multiprocessing.errors import ProcessFailure

from nonstop.report.unmeasured import failure_detail
from nonstop.supervisor import evidence


def test_a_users_traceback_starts_at_the_users_frames(tmp_path):
    script = tmp_path / "bad_shard.py"
    script.write_text("def load():\n    raise ValueError('bad data shard')\n\n\nload()\n")
    r = subprocess.run(
        [sys.executable, "-m", "nonstop.supervisor.bootstrap", str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert r.returncode == 1, r.stderr
    frames = [line.strip() for line in r.stderr.splitlines() if line.strip().startswith("File ")]
    assert frames == [
        f'File "{script}", line 5, in <module>',
        f'File "{script}", line 2, in load',
    ], r.stderr
    assert "bootstrap.py" not in r.stderr and "runpy" not in r.stderr
    assert r.stderr.rstrip().endswith("ValueError: bad data shard")


def test_a_bare_exit_is_not_told_with_torchs_boilerplate(tmp_path):
    log = tmp_path / "rank-0.log"
    log.write_text("")  # os._exit(3) before printing anything
    failure = ProcessFailure(local_rank=0, pid=1, exitcode=3, error_file=str(tmp_path / "none"))
    assert failure.message.startswith(evidence.TORCH_BOILERPLATE)  # what torch gives us
    message = evidence.failure_message(failure, log)
    assert message == evidence.NO_OUTPUT
    log.write_text("about to exit 3\n")
    assert evidence.failure_message(failure, log) == "last output: about to exit 3"


def test_the_report_does_not_show_the_boilerplate_of_an_older_ledger():
    old = {"message": f"exit 3: {evidence.TORCH_BOILERPLATE}: https://pytorch.org/docs/"}
    assert failure_detail(old, []) == f"exit 3: {evidence.NO_OUTPUT}"
