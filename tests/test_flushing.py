"""nonstop.runtime.flushing: what a process wrote and never closed reaches the disk before an
`os._exit`, which flushes nothing by itself; a file that cannot be flushed is passed over."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent("""
    import os, sys
    from nonstop.runtime.flushing import flush_open_files
    out = sys.argv[1]
    text = open(out + ".txt", "w")            # text, buffered
    data = open(out + ".bin", "wb")           # binary, buffered
    both = open(out + ".rw", "w+b")           # read-write
    gone = open(out + ".closed", "w"); gone.close()
    ro = open(__file__)                       # read-only: nothing to flush
    text.write("a line never closed\\n"); data.write(b"\\x00\\x01"); both.write(b"rw")
    n = flush_open_files() if sys.argv[2] == "flush" else 0
    print(n, flush=True)
    os._exit(0)
""")


@pytest.mark.parametrize("mode", ["flush", "none"])
def test_unclosed_files_survive_os_exit_only_when_flushed(tmp_path: Path, mode: str) -> None:
    script = tmp_path / "w.py"
    script.write_text(SCRIPT)
    out = tmp_path / "out"
    r = subprocess.run(
        [sys.executable, str(script), str(out), mode], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    sizes = [Path(f"{out}{ext}").stat().st_size for ext in (".txt", ".bin", ".rw")]
    if mode == "flush":
        assert sizes == [len("a line never closed\n"), 2, 2]
        assert int(r.stdout) >= 3  # the three, and stdout itself
    else:  # what the flush is for: os._exit loses all three
        assert sizes == [0, 0, 0]


def test_a_call_during_a_pass_waits_for_it_and_a_later_call_scans_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The agent's SIGTERM arriving while an uncaught exception's exit flushes: the handler's
    call joins the pass under way (one scan of every object, not two); once it has ended, a
    new call scans again (what was written since is flushed too)."""
    import threading

    from nonstop.runtime import flushing

    started, release, passes = threading.Event(), threading.Event(), []

    def slow_pass() -> int:
        passes.append(1)
        started.set()
        release.wait(10)
        return len(passes)

    monkeypatch.setattr(flushing, "_flush_all", slow_pass)
    monkeypatch.setattr(flushing, "_pass", None)
    got: list[int | None] = []
    first = threading.Thread(target=lambda: got.append(flushing.flush_open_files()))
    first.start()
    assert started.wait(10)
    second = threading.Thread(target=lambda: got.append(flushing.flush_open_files()))
    second.start()
    release.set()
    first.join(10)
    second.join(10)
    assert got == [1, 1] and len(passes) == 1
    assert flushing.flush_open_files() == 2 and len(passes) == 2


SIGTERM_DURING_PASS = textwrap.dedent("""
    import os, signal, sys, threading, time
    from nonstop.runtime import flushing
    passes = []
    def slow_pass():
        passes.append(1)
        time.sleep(0.5)
        return 7
    flushing._flush_all = slow_pass
    def on_term(signum, frame):  # as bootstrap.SigtermHandler: flush, then leave
        n = flushing.flush_open_files(timeout_s=5)
        print(n, len(passes), flush=True)
        os._exit(0)
    signal.signal(signal.SIGTERM, on_term)
    threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGTERM)).start()
    flushing.flush_open_files(timeout_s=5)   # the uncaught exception's exit, interrupted
    print("not interrupted", flush=True)
""")


def test_sigterm_during_a_pass_joins_it_and_the_rank_exits(tmp_path: Path) -> None:
    """The agent's SIGTERM lands while the rank's exception exit is flushing: the handler's
    own flush joins the pass under way and the rank leaves at once (no second scan, and no
    wait for torch's SIGKILL)."""
    script = tmp_path / "t.py"
    script.write_text(SIGTERM_DURING_PASS)
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["7", "1"]
