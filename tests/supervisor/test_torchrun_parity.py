"""`nonstop run` next to torchrun (python -m torch.distributed.run), the same script under
both, rank by rank: what a rank sees and what reaches the console."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

COMMON = ("--standalone", "--nproc-per-node", "1", "--max-restarts", "0")


def _launchers(tmp_path: Path) -> dict[str, list[str]]:
    nonstop_flags = ("--quiet", "--health-checks", "none", "--no-self-test")
    return {
        "torchrun": [sys.executable, "-m", "torch.distributed.run", *COMMON],
        "nonstop": [
            *(sys.executable, "-m", "nonstop.cli", "run", *nonstop_flags, *COMMON),
            *("--run-dir", str(tmp_path / "run")),
        ],
    }


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


@pytest.mark.timeout(240)
def test_a_rank_started_without_stdin_has_none_as_under_torchrun(tmp_path: Path) -> None:
    """A launcher started with fd 0 closed (`<&-`): torchrun's rank inherits no stdin and
    Python gives it `sys.stdin = None`; nonstop's warm standby put /dev/null there, an empty
    readable stdin (`''` from read())."""
    script = tmp_path / "stdin.py"
    script.write_text(
        "import sys\n"
        "print('STDIN', sys.stdin is None, sys.__stdin__ is None, flush=True)\n"
        "if sys.stdin is not None:\n"
        "    print('READ', repr(sys.stdin.read()), flush=True)\n"
    )
    seen = {}
    for name, launcher in _launchers(tmp_path).items():
        r = subprocess.run(
            ["sh", "-c", 'exec "$@" <&-', "sh", *launcher, str(script)],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=200,
            check=False,
        )
        assert r.returncode == 0, (name, r.stdout + r.stderr)
        seen[name] = [ln for ln in r.stdout.splitlines() if ln.startswith(("STDIN", "READ"))]
    assert seen["torchrun"] == ["STDIN True True"], seen
    assert seen["nonstop"] == seen["torchrun"]


@pytest.mark.timeout(240)
def test_a_ranks_bytes_that_are_not_utf8_reach_the_console_as_written(tmp_path: Path) -> None:
    """torchrun's rank writes to the inherited stdout itself, so its bytes arrive unchanged;
    nonstop copies the rank's log to the console with torch's TailLog, which decoded it with
    errors="replace": \\xff and a lone \\x80 became U+FFFD (\\xef\\xbf\\xbd)."""
    script = tmp_path / "bytes.py"
    script.write_bytes(
        b"import sys\n"
        b"sys.stdout.buffer.write(b'RAW latin-1 caf\\xe9 \\xff\\xfe utf-8 caf\\xc3\\xa9 \\x80!\\n')\n"
        b"sys.stdout.flush()\n"
    )
    seen = {}
    for name, launcher in _launchers(tmp_path).items():
        r = subprocess.run(
            [*launcher, str(script)],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            timeout=200,
            check=False,
        )
        assert r.returncode == 0, (name, r.stdout + r.stderr)
        seen[name] = [ln for ln in r.stdout.splitlines() if ln.startswith(b"RAW")]
    assert seen["torchrun"] == [b"RAW latin-1 caf\xe9 \xff\xfe utf-8 caf\xc3\xa9 \x80!"], seen
    assert seen["nonstop"] == seen["torchrun"]


HEAD = """\
import sys
sys.stdout.write("first\\nsecond\\nthird\\n")  # one write: all in the pipe before it closes
sys.stdout.flush()
"""


def _first_line_then_close(cmd: list[str], cwd: Path) -> tuple[int, bytes, bytes]:
    """`cmd | head -1`: read the first line of its stdout, close the pipe, wait."""
    with subprocess.Popen(
        cmd, cwd=cwd, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as p:
        assert p.stdout is not None and p.stderr is not None
        first = p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read()
        return p.wait(timeout=200), first, err


@pytest.mark.timeout(240)
def test_a_console_closed_after_its_first_line_ends_the_run_as_under_torchrun(
    tmp_path: Path,
) -> None:
    """`torchrun script.py | head -1` where the rank's output is in the pipe before head leaves:
    exit 0, nothing on stderr but torchrun's own. nonstop copies the rank's lines one by one
    after that, and its tailer died with a BrokenPipeError traceback, and its own last line
    made the exit 141 (or 120)."""
    script = tmp_path / "head.py"
    script.write_text(HEAD)
    for name, launcher in _launchers(tmp_path).items():
        rc, first, err = _first_line_then_close([*launcher, str(script)], tmp_path)
        assert (name, rc) == (name, 0), err.decode(errors="replace")
        assert first == b"first\n", (name, first)
        assert b"Traceback" not in err and b"BrokenPipe" not in err, (name, err)


@pytest.mark.timeout(240)
def test_a_console_closed_while_the_rank_writes_leaves_the_rank_training(tmp_path: Path) -> None:
    """nonstop's side of the same (docs/run.md, "Console and worker output"): the rank writes to
    its log, not the console, so it never sees the broken pipe that kills a torchrun rank
    (BrokenPipeError, exit 1); it finishes, its every line is in its log, the run exits 0 and
    stderr holds no traceback."""
    script = tmp_path / "slow.py"
    script.write_text(
        "import time\n"
        "print('first', flush=True)\n"
        "time.sleep(1.5)\n"
        "for i in range(2000):\n"
        "    print('line', i, flush=True)\n"
        "print('LAST', flush=True)\n"
    )
    rc, first, err = _first_line_then_close(
        [*_launchers(tmp_path)["nonstop"], str(script)], tmp_path
    )
    assert rc == 0, err.decode(errors="replace")
    assert first == b"first\n", first
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err
    log = (tmp_path / "run" / "logs" / "attempt-0" / "rank-0.log").read_text()
    assert log.endswith("LAST\n"), log[-200:]
