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
