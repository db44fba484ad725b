"""`nonstop run` shows the ranks' output on the console as torchrun does (issue 20, item 4):
every rank's lines by default, torchrun's "[default<local rank>]:" prefix with --tee,
--local-ranks-filter and --redirects as torchrun applies them, --log-dir in torchrun's layout;
and the per-rank logs stay in the run directory. Each case runs the same two-rank gloo script
under torchrun and under nonstop run and compares the ranks' lines."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = """
import sys
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
r = dist.get_rank()
for i in range(3):
    t = torch.ones(1)
    dist.all_reduce(t)
    print(f"rank {r} step {i} sum {t.item():.0f}", flush=True)
print(f"rank {r} to stderr", file=sys.stderr, flush=True)
dist.destroy_process_group()
"""

BOOM = 'raise RuntimeError("boom at import")\n'


def run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NONSTOP_", "TORCHELASTIC"))}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)


def rank_lines(out: str) -> list[str]:
    """The ranks' own lines, with any prefix (sorted: ranks interleave differently in every
    run). Found by pattern, not line by line: under torchrun the ranks share the console and
    `python -u` writes a print's text and its newline separately, so two ranks' lines can
    share one."""
    return sorted(re.findall(r"(?:\[default\d\]:)?rank \d (?:step \d sum \d|to stderr)", out))


def both(
    tmp_path: Path, flags: list[str], script: str = "train.py", ours_only: tuple[str, ...] = ()
) -> tuple[Any, Any]:
    # --standalone: a free port, no clash with another test's torchrun on 29500
    torchrun = run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc-per-node",
            "2",
            *flags,
            script,
        ],
        tmp_path,
    )
    ours = run(
        [
            sys.executable,
            "-m",
            "nonstop.cli",
            "run",
            "--quiet",
            "--nproc-per-node",
            "2",
            "--max-restarts",
            "0",
            "--run-dir",
            "run",
            *ours_only,
            *flags,
            script,
        ],
        tmp_path,
    )
    return torchrun, ours


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "boom.py").write_text(BOOM)
    return tmp_path


@pytest.mark.slow
def test_default_console_shows_every_rank_like_torchrun(work: Path) -> None:
    torchrun, ours = both(work, [])
    assert torchrun.returncode == ours.returncode == 0, ours.stdout + ours.stderr
    expected = rank_lines(torchrun.stdout + torchrun.stderr)
    assert len(expected) == 8  # 2 ranks x (3 steps + 1 stderr line)
    assert rank_lines(ours.stdout + ours.stderr) == expected
    # and the per-rank logs stay in the run directory
    log = (work / "run" / "logs" / "attempt-0" / "rank-1.log").read_text()
    assert "rank 1 step 2 sum 2" in log and "rank 1 to stderr" in log


@pytest.mark.slow
def test_tee_prefix_and_local_ranks_filter_like_torchrun(work: Path) -> None:
    torchrun, ours = both(
        work, ["--tee", "3", "--local-ranks-filter", "1"], ours_only=("--no-standby",)
    )
    assert torchrun.returncode == ours.returncode == 0, ours.stdout + ours.stderr
    expected = rank_lines(torchrun.stdout + torchrun.stderr)
    assert expected and all(ln.startswith("[default1]:rank 1 ") for ln in expected), expected
    assert rank_lines(ours.stdout + ours.stderr) == expected
    # the filtered rank still has its log
    assert "rank 0 step 2" in (work / "run" / "logs" / "attempt-0" / "rank-0.log").read_text()


@pytest.mark.slow
def test_redirects_keep_output_off_the_console_and_log_dir_has_torchruns_layout(
    work: Path,
) -> None:
    torchrun, ours = both(work, ["--redirects", "3", "--log-dir", "tlogs"])
    assert torchrun.returncode == ours.returncode == 0, ours.stdout + ours.stderr
    assert rank_lines(torchrun.stdout + torchrun.stderr) == []
    assert rank_lines(ours.stdout + ours.stderr) == []
    theirs = sorted(p.relative_to(work / "tlogs") for p in (work / "tlogs").rglob("stdout.log"))
    # torchrun: tlogs/<rdzv id>_<random>/attempt_0/<local rank>/stdout.log; both runs wrote one
    layouts = {(p.parts[1], p.parts[2]) for p in theirs}
    assert layouts == {("attempt_0", "0"), ("attempt_0", "1")} and len(theirs) == 4, theirs
    for p in theirs:
        text = (work / "tlogs" / p).read_text()
        assert f"rank {p.parts[2]} step 2" in text


@pytest.mark.slow
def test_script_that_raises_at_import_shows_its_traceback(work: Path) -> None:
    torchrun, ours = both(work, [], script="boom.py", ours_only=("--no-standby",))
    assert torchrun.returncode != 0 and ours.returncode != 0
    out = ours.stdout + ours.stderr
    assert 'raise RuntimeError("boom at import")' in out  # the rank's own traceback
    assert "RuntimeError: boom at import" in out
    assert "{'message'" not in out and "py_callstack" not in out, out


@pytest.mark.slow
def test_a_run_without_run_dir_says_how_to_resume_and_that_command_resumes(work: Path) -> None:
    first = run(
        [
            sys.executable,
            "-m",
            "nonstop.cli",
            "run",
            "--quiet",
            "--nproc-per-node",
            "2",
            "--no-standby",
            "train.py",
        ],
        work,
    )
    assert first.returncode == 0, first.stdout + first.stderr
    hint = next(ln for ln in first.stdout.splitlines() if "to resume it later: " in ln)
    command = shlex.split(hint.split("to resume it later: ", 1)[1])
    assert command[:4] == ["nonstop", "run", "--run-dir", command[3]]
    again = run([sys.executable, "-m", "nonstop.cli", *command[1:]], work)  # it has --quiet
    assert again.returncode == 0, again.stdout + again.stderr
    assert "to resume it later" not in again.stdout  # it names its run now
    assert (work / command[3] / "logs" / "attempt-1" / "rank-0.log").exists()  # the same run
