"""`nonstop run` next to torchrun (python -m torch.distributed.run), the same script under
both, rank by rank: what a rank sees and what reaches the console."""

from __future__ import annotations

import os
import signal
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


def _launchers_of(tmp_path: Path, nproc: int, *flags: str) -> dict[str, list[str]]:
    """Both launchers, `nproc` ranks, with torchrun's `flags`."""
    common = [COMMON[0], "--nproc-per-node", str(nproc), *COMMON[3:], *flags]
    return {
        "torchrun": [sys.executable, "-m", "torch.distributed.run", *common],
        "nonstop": [
            *(sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--health-checks", "none"),
            *("--no-self-test", *common, "--run-dir", str(tmp_path / "run")),
        ],
    }


def _rank_lines(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith("[rank")]


@pytest.mark.timeout(240)
def test_a_ranks_traceback_goes_through_sys_excepthook_as_under_torchrun(tmp_path: Path) -> None:
    """A rank's uncaught exception is printed by sys.excepthook: torch's after
    init_process_group (every line `[rank0]: `), or the script's own (rich, a crash reporter).
    nonstop's bootstrap printed it with traceback.print_exception: no prefix, no hook."""
    script = tmp_path / "hook.py"
    script.write_text(
        "import sys, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "def fail():\n"
        "    raise RuntimeError('boom in the script')\n"
        "fail()\n"
    )
    seen = {}
    for name, launcher in _launchers_of(tmp_path, 1).items():
        r = subprocess.run(
            [*launcher, str(script)],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=200,
            check=False,
        )
        assert r.returncode != 0, (name, r.stdout + r.stderr)  # nonstop: 3, a failure at setup
        seen[name] = _rank_lines(r.stdout + r.stderr)
    assert seen["torchrun"][0] == "[rank0]: Traceback (most recent call last):", seen
    assert seen["torchrun"][-1] == "[rank0]: RuntimeError: boom in the script", seen
    assert seen["nonstop"] == seen["torchrun"]


@pytest.mark.timeout(240)
def test_a_ctrl_c_traceback_starts_in_the_script_as_under_torchrun(tmp_path: Path) -> None:
    """SIGINT to the launcher: it sends SIGINT to its ranks, each prints its KeyboardInterrupt
    from the script's own frames and dies of it; the launcher exits 1. nonstop's rank printed
    the warm standby's and the bootstrap's frames (and runpy's) above the script's."""
    script = tmp_path / "ctrlc.py"
    script.write_text(
        "import time, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "print('READY', flush=True)\n"
        "while True:\n"
        "    time.sleep(0.1)\n"
    )
    seen = {}
    for name, launcher in _launchers_of(tmp_path, 1).items():
        with subprocess.Popen(
            [*launcher, str(script)],
            cwd=tmp_path,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ) as p:
            assert p.stdout is not None and p.stderr is not None
            for line in p.stdout:
                if line == "READY\n":
                    break
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=200)
        assert p.returncode == 1, (name, out + err)
        seen[name] = _rank_lines(out + err)
    # where the interrupt lands (the print, the loop) is a race: the frames are compared, not
    # their line numbers (the torchrun side once stopped in line 3's print, not line 5's sleep)
    for name, lines in seen.items():
        assert lines[0] == "[rank0]: Traceback (most recent call last):", (name, seen)
        frames = [ln for ln in lines if ln.startswith("[rank0]:   File ")]
        assert len(frames) == 1, (name, seen)  # the script's alone: no runpy, standby, bootstrap
        assert frames[0].startswith(f'[rank0]:   File "{script}", line '), (name, seen)
        assert frames[0].endswith(", in <module>"), (name, seen)
        assert lines[-1] == "[rank0]: KeyboardInterrupt", (name, seen)


@pytest.mark.timeout(240)
def test_torchruns_omp_num_threads_warning_is_printed_plain(tmp_path: Path) -> None:
    """torchrun with several local ranks and no OMP_NUM_THREADS warns that it sets it to 1, on
    stderr, plain: run.py runs as __main__ there, a logger no torch handler serves. nonstop
    imports run.py, and the same warning took torch's glog prefix on every line
    (`W1205 20:57:08.973000 21592 torch/distributed/run.py:874] ...`)."""
    script = tmp_path / "nothing.py"
    script.write_text("pass\n")
    env = {k: v for k, v in _env().items() if k != "OMP_NUM_THREADS"}
    seen = {}
    for name, launcher in _launchers_of(tmp_path, 2).items():
        r = subprocess.run(
            [*launcher, str(script)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=200,
            check=False,
        )
        assert r.returncode == 0, (name, r.stdout + r.stderr)
        lines = r.stderr.splitlines()
        start = next(i for i, ln in enumerate(lines) if "Setting OMP_NUM_THREADS" in ln)
        seen[name] = lines[start - 2 : start + 2]
    assert seen["torchrun"][0] == "", seen
    assert seen["torchrun"][1].startswith("*****"), seen
    assert seen["nonstop"] == seen["torchrun"]


@pytest.mark.timeout(240)
def test_log_dir_holds_torchruns_files_and_no_dangling_links(tmp_path: Path) -> None:
    """`--log-dir D --redirects 3`, rank 1 raises: torchrun leaves D/<id>/attempt_0/<local
    rank>/{stdout.log,stderr.log}, the traceback in rank 1's stderr.log. nonstop linked
    stdout.log (stderr merged into it) and error.json only: no stderr.log, and an error.json
    link to nothing for every rank that did not fail (a glob of error files found it, and
    reading it failed)."""
    script = tmp_path / "fail.py"
    script.write_text(
        "import sys, time, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "print('OUT', dist.get_rank(), flush=True)\n"
        "if dist.get_rank() == 1:\n"
        "    raise RuntimeError('boom on rank 1')\n"
        "time.sleep(60)\n"
    )
    files = {}
    for name, launcher in _launchers_of(tmp_path, 2, "--redirects", "3").items():
        logs = tmp_path / f"logs-{name}"
        r = subprocess.run(
            [*launcher[:-2], *launcher[-2:], "--log-dir", str(logs), str(script)],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=200,
            check=False,
        )
        assert r.returncode != 0, (name, r.stdout + r.stderr)  # nonstop: 3, a failure at setup
        (job,) = logs.iterdir()
        found = sorted(str(p.relative_to(job)) for p in job.glob("attempt_*/*/*"))
        files[name] = found
        for rel in found:
            assert (job / rel).is_file(), (name, rel)  # a link to nothing is not a file
        assert "RuntimeError: boom on rank 1" in (job / "attempt_0/1/stderr.log").read_text()
        assert "OUT 0" in (job / "attempt_0/0/stdout.log").read_text()
    assert set(files["torchrun"]) <= set(files["nonstop"]), files
    assert "attempt_0/0/error.json" not in files["nonstop"], files


@pytest.mark.timeout(240)
def test_programs_a_rank_starts_get_sigusr1_as_under_torchrun(tmp_path: Path) -> None:
    """nonstop's ranks survive SIGUSR1 and SIGUSR2 (Slurm's --signal warning; the agent plans
    the stop). They ignored them (SIG_IGN), which survives exec: a program the script started
    ignored them too, where under torchrun it has the default action (it dies of them)."""
    script = tmp_path / "usr.py"
    script.write_text(
        "import os, signal, subprocess, sys\n"
        "child = 'import signal as s; print(\"CHILD\", *(s.Handlers(s.getsignal(n)).name'\n"
        "child += ' for n in (s.SIGUSR1, s.SIGUSR2)))'\n"
        "subprocess.run([sys.executable, '-c', child], check=True)\n"
        "if os.environ.get('NONSTOP_RUN_DIR'):  # documented: a rank survives the warning\n"
        "    os.kill(os.getpid(), signal.SIGUSR1)\n"
        "    os.kill(os.getpid(), signal.SIGUSR2)\n"
        "    print('SURVIVED', flush=True)\n"
    )
    seen = {}
    for name, launcher in _launchers_of(tmp_path, 1).items():
        r = subprocess.run(
            [*launcher, str(script)],
            cwd=tmp_path,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=200,
            check=False,
        )
        assert r.returncode == 0, (name, r.stdout + r.stderr)
        seen[name] = [ln for ln in r.stdout.splitlines() if ln.startswith(("CHILD", "SURVIVED"))]
    assert seen["torchrun"] == ["CHILD SIG_DFL SIG_DFL"], seen
    assert seen["nonstop"] == [*seen["torchrun"], "SURVIVED"]
