"""torchft's Lighthouse as nonstop starts it (nonstop.supervisor.lighthouse): a real server
process, which must not outlive the process that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.procs import free_port

pytest.importorskip("torchft")


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")  # exited; its new parent has yet to reap it


def test_the_lighthouse_dies_with_the_process_that_started_it(tmp_path: Path) -> None:
    """A SIGKILLed `nonstop run --replica-groups` parent left its Lighthouse serving for an
    hour (the Lighthouse has its own session, so no signal of the parent's reaches it)."""
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from nonstop.supervisor.lighthouse import Lighthouse\n"
        f"lh = Lighthouse(port={free_port()}, log_path=Path({str(tmp_path / 'lh.log')!r}))\n"
        "lh.start()\n"
        "print(lh.proc.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    pid = None
    with subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True
    ) as parent:
        try:
            assert parent.stdout is not None
            pid = int(parent.stdout.readline())
            assert not _gone(pid)
            parent.send_signal(signal.SIGKILL)
            parent.wait(timeout=10)
            deadline = time.monotonic() + 15
            while not _gone(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert _gone(pid), "the Lighthouse outlived the process that started it"
        finally:
            parent.kill()
            if pid is not None and not _gone(pid):
                os.kill(pid, signal.SIGKILL)
