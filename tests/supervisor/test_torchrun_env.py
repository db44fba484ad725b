"""torchrun's contract in `nonstop run`: its flags' environment forms (PET_<FLAG>), the
environment a rank sees, the script's file and argv, the error file a scheduler reads, stdin."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(240)
def test_pet_max_restarts_is_heard(tmp_path: Path) -> None:
    """PET_MAX_RESTARTS=0 (torchrun's `--max-restarts 0` from the environment) was overridden
    by nonstop's default of 3: a script that exits 3 ran four times."""
    script = tmp_path / "exit3.py"
    script.write_text("import sys\nsys.exit(3)\n")
    run_dir = tmp_path / "run"
    r = subprocess.run(
        [
            *(sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--standalone"),
            *("--nproc-per-node", "1", "--health-checks", "none", "--no-self-test"),
            *("--run-dir", str(run_dir), str(script)),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "PET_MAX_RESTARTS": "0"},
        capture_output=True,
        text=True,
        timeout=200,
        check=False,
    )
    assert r.returncode == 1, r.stdout + r.stderr
    con = sqlite3.connect(run_dir / "ledger.db")
    try:
        attempts = [a for (a,) in con.execute("SELECT attempt FROM attempts ORDER BY attempt")]
    finally:
        con.close()
    assert attempts == [0], r.stdout


@pytest.mark.timeout(240)
def test_a_script_named_relatively_sees_its_absolute_file_as_under_torchrun(
    tmp_path: Path,
) -> None:
    """torchrun starts `python script.py`, whose `__file__` is absolute (Python 3.9+) while
    `sys.argv[0]` stays as typed; under `nonstop run` runpy gave `script.py`, and a script that
    changed folder (as Hydra does) then found nothing beside itself."""
    (tmp_path / "beside.txt").write_text("found\n")
    (tmp_path / "elsewhere").mkdir()
    script = tmp_path / "script.py"
    script.write_text(
        "import os, sys\n"
        "from pathlib import Path\n"
        "os.chdir('elsewhere')\n"
        "here = Path(__file__).parent\n"
        "print('FILE', __file__, 'ARGV0', sys.argv[0], 'NAME', __name__,\n"
        "      'CODE', sys._getframe().f_code.co_filename, (here / 'beside.txt').read_text().strip(),\n"
        "      'MAIN', sys.modules['__main__'].__file__, flush=True)\n"
    )
    r = subprocess.run(
        [
            *(sys.executable, "-m", "nonstop.cli", "run", "--standalone"),
            *("--nproc-per-node", "1", "--health-checks", "none", "--no-self-test"),
            *("--run-dir", str(tmp_path / "run"), "script.py"),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=200,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "FILE " in ln)
    words = line[line.index("FILE ") :].split()
    assert words == [
        *("FILE", str(script), "ARGV0", "script.py", "NAME", "__main__"),
        *("CODE", str(script), "found", "MAIN", str(script)),
    ], line


@pytest.mark.timeout(240)
def test_the_root_cause_reaches_the_launchers_own_error_file_as_under_torchrun(
    tmp_path: Path,
) -> None:
    """A scheduler that starts torchrun (TorchX) sets TORCHELASTIC_ERROR_FILE for the launcher
    and reads the job's error there: torchrun's `@record` main copies the first failed rank's
    error file to it, with the exit code. `nonstop run` wrote nothing there."""
    script = tmp_path / "rec.py"
    script.write_text(
        "import os, time\n"
        "from torch.distributed.elastic.multiprocessing.errors import record\n"
        "@record\n"
        "def main():\n"
        "    print('RANK_ERROR_FILE', os.environ['TORCHELASTIC_ERROR_FILE'], flush=True)\n"
        "    if os.environ['RANK'] == '1':\n"
        "        raise ValueError('bad shard 42')\n"
        "    time.sleep(2)\n"
        "main()\n"
    )
    outer = tmp_path / "scheduler" / "error.json"
    outer.parent.mkdir()
    r = subprocess.run(
        [
            *(sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--standalone"),
            *("--nproc-per-node", "2", "--max-restarts", "0", "--health-checks", "none"),
            *("--no-self-test", "--run-dir", str(tmp_path / "run"), str(script)),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO), "TORCHELASTIC_ERROR_FILE": str(outer)},
        capture_output=True,
        text=True,
        timeout=200,
        check=False,
    )
    assert r.returncode != 0, r.stdout + r.stderr
    # each rank still writes its own file, never the launcher's
    seen = {ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("RANK_ERROR_FILE")}
    assert len(seen) == 2 and str(outer) not in seen, r.stdout
    assert outer.is_file(), r.stdout + r.stderr
    message = json.loads(outer.read_text())["message"]
    assert message["message"] == "ValueError: bad shard 42", message
    assert "bad shard 42" in message["extraInfo"]["py_callstack"], message
    assert message["errorCode"] == 1, message


@pytest.mark.timeout(240)
def test_a_ranks_breakpoint_reads_the_launchers_stdin_as_under_torchrun(tmp_path: Path) -> None:
    """torchrun's workers inherit its stdin, so `breakpoint()` in a one-rank job reads the
    terminal (here a pipe). A warm standby's stdin was the agent's control pipe, then
    /dev/null: pdb read end-of-file, quit with BdbQuit, and the job failed four times."""
    script = tmp_path / "bp.py"
    script.write_text("x = 41\nbreakpoint()\nprint('AFTER', x, flush=True)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONBREAKPOINT"}
    r = subprocess.run(
        [
            *(sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--standalone"),
            *("--nproc-per-node", "1", "--max-restarts", "0", "--health-checks", "none"),
            *("--no-self-test", "--run-dir", str(tmp_path / "run"), str(script)),
        ],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(REPO)},
        input="x = 99\nc\n",
        capture_output=True,
        text=True,
        timeout=200,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "AFTER 99" in r.stdout, r.stdout + r.stderr
    assert "cold start" not in r.stdout + r.stderr  # the rank was a warm standby's


ENV_DUMP = """\
import json, os, sys
with open(os.path.join(sys.argv[1], f"env-{os.environ['RANK']}.json"), "w") as f:
    json.dump(dict(os.environ), f)
"""

DIFFERS = {"MASTER_PORT", "TORCHELASTIC_ERROR_FILE", "TORCHELASTIC_RUN_ID"}
"""Chosen per run: a free port, a file under the run directory, the run's id."""


@pytest.mark.timeout(300)
def test_every_variable_a_rank_sees_under_torchrun_it_sees_under_nonstop(tmp_path: Path) -> None:
    """Rank by rank, each variable of a torchrun worker's environment, with torchrun's value
    (nonstop adds its own). TORCHELASTIC_SIGNALS_TO_HANDLE was missing: torchrun's
    launch_agent sets it in its own environment, which its workers inherit."""
    script = tmp_path / "env.py"
    script.write_text(ENV_DUMP)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("OMP_NUM_THREADS", None)
    env.pop("TORCHELASTIC_SIGNALS_TO_HANDLE", None)
    common = ("--standalone", "--nproc-per-node", "2", "--max-restarts", "0")
    flags = ("--health-checks", "none", "--no-self-test", "--run-dir", str(tmp_path / "run"))
    seen = {}
    for name, launcher in (
        ("torchrun", (sys.executable, "-m", "torch.distributed.run", *common)),
        ("nonstop", (sys.executable, "-m", "nonstop.cli", "run", "--quiet", *common, *flags)),
    ):
        out = tmp_path / name
        out.mkdir()
        r = subprocess.run(
            [*launcher, str(script), str(out)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert r.returncode == 0, r.stdout + r.stderr
        seen[name] = [json.loads((out / f"env-{rank}.json").read_text()) for rank in (0, 1)]
    for rank, (theirs, ours) in enumerate(zip(seen["torchrun"], seen["nonstop"], strict=True)):
        missing = sorted(set(theirs) - set(ours))
        assert missing == [], f"rank {rank}"
        other = {k: (v, ours[k]) for k, v in theirs.items() if k not in DIFFERS and ours[k] != v}
        assert other == {}, f"rank {rank}"
        assert all(ours[k] for k in DIFFERS), ours


@pytest.mark.parametrize(
    "exc, said",
    [(KeyboardInterrupt(), "KeyboardInterrupt"), (ValueError("bad"), "ValueError: bad")],
)
def test_a_ranks_error_file_says_its_exception_as_python_prints_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exc: BaseException, said: str
) -> None:
    """A bare KeyboardInterrupt was "KeyboardInterrupt: " in the error file, and so in the
    agent's failure line and the ledger."""
    from nonstop import envvars
    from nonstop.supervisor import bootstrap

    path = tmp_path / "error.json"
    monkeypatch.setenv(envvars.TORCH_ERROR_FILE, str(path))
    bootstrap._write_error_file(exc)
    assert json.loads(path.read_text())["message"]["message"] == said
