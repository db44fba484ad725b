"""Real clients (tests/clients/*.py) under torchrun and under `nonstop run`: the same script,
the same flags, the same fault, compared on exit code, final loss and the ranks' console lines.

torchrun runs with --standalone (a free port: no clash with other tests) and, where it must
restart, torch's own workaround for its 2.13 restart bug (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1:
without it the restarted process group reads the dead attempt's addresses)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from support.procs import clean_env, kill_tree

CLIENTS = Path(__file__).resolve().parents[1] / "clients"
FINAL = re.compile(r"final loss ([-\d.]+|nan)")
OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "TOKENIZERS_PARALLELISM": "false",
    "PYTHONWARNINGS": "ignore",
}


@dataclass
class Ran:
    code: int | None
    """None: still running when its time was up (then killed)."""
    out: str
    wall_s: float

    @property
    def final_loss(self) -> float | None:
        found = FINAL.findall(self.out)
        return float(found[-1]) if found else None

    @property
    def completed(self) -> bool:
        """It exited 0, or its training completed ("final loss" printed) and a rank aborted in
        its interpreter's teardown afterwards: torch 2.13's intermittent "terminate called
        without an active exception" in a script that never destroys its process group. Only
        for the torchrun peer, which calls that a failure (`nonstop run` calls it complete and
        exits 0, tests/supervisor/test_run_exit_crash.py); said on the test's output."""
        if self.code == 0:
            return True
        teardown = "terminate called without an active exception" in self.out
        if self.code is not None and teardown and self.final_loss is not None:
            print("\nnote: torchrun failed a completed run on torch's teardown abort (SIGABRT)")
            return True
        return False

    def lines(self, pattern: str) -> list[str]:
        """Every match of `pattern` in the output, sorted (ranks interleave differently). Not
        line by line: under torchrun the ranks share the console, and `python -u` writes a
        print's text and its newline separately, so two ranks' lines can share one."""
        return sorted(m.group(0) for m in re.finditer(pattern, self.out))


def _env(fault: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = clean_env(OFFLINE)
    env.pop("CLIENT_FAULT", None)
    if fault:
        env["CLIENT_FAULT"] = fault
    return env | (extra or {})


def _run(
    cmd: list[str],
    cwd: Path,
    env: dict[str, str],
    timeout_s: float,
    stuck: tuple[str, float] | None = None,
) -> Ran:
    """Run to the end, or until `timeout_s`; with `stuck=(marker, s)`, stop it `s` seconds after
    `marker` appeared in its output if it is still running then (a hang left alone)."""
    t0 = time.monotonic()
    log = cwd / f"console-{time.monotonic_ns()}.txt"
    with open(log, "w") as f:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdout=f,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        seen_at = None
        code: int | None = None
        while time.monotonic() - t0 < timeout_s:
            code = proc.poll()
            if code is not None:
                break
            if stuck is not None:
                if seen_at is None and stuck[0] in log.read_text(errors="replace"):
                    seen_at = time.monotonic()
                if seen_at is not None and time.monotonic() - seen_at > stuck[1]:
                    break
            time.sleep(0.2)
        if code is None:
            kill_tree(proc.pid)
            proc.wait()
    return Ran(code, log.read_text(errors="replace"), time.monotonic() - t0)


def torchrun(
    script: str,
    args: list[str],
    cwd: Path,
    *,
    fault: str = "",
    restarts: int = 0,
    timeout_s: float = 300,
    stuck: tuple[str, float] | None = None,
    env: dict[str, str] | None = None,
) -> Ran:
    """tests/clients/`script` under torchrun, 2 processes (`env`: more variables)."""
    env = _env(fault, env)
    if restarts:
        env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] = "1"
    cmd = [
        sys.executable,
        "-m",
        "torch.distributed.run",
        "--standalone",
        "--nproc-per-node",
        "2",
        "--max-restarts",
        str(restarts),
        str(CLIENTS / script),
        *args,
    ]
    return _run(cmd, cwd, env, timeout_s, stuck)


def nonstop(
    script: str,
    args: list[str],
    cwd: Path,
    *,
    fault: str = "",
    flags: tuple = (),
    timeout_s: float = 300,
    env: dict[str, str] | None = None,
) -> Ran:
    """tests/clients/`script` under `nonstop run`, 2 processes, run directory `cwd/run`
    (`env`: more variables)."""
    cmd = [
        sys.executable,
        "-m",
        "nonstop.cli",
        "run",
        "--quiet",
        "--nproc-per-node",
        "2",
        "--run-dir",
        str(cwd / "run"),
        *flags,
        str(CLIENTS / script),
        *args,
    ]
    return _run(cmd, cwd, _env(fault, env), timeout_s)


def crash_then_hang(
    script: str, args: Callable[[Path], list[str]], tmp_path: Path, *, resumed: str
) -> tuple[Ran, Ran]:
    """A client's two faults, rank 1 at step 12 of 20, under both launchers: torchrun restarted
    once after the crash (SIGKILL); one `nonstop run` that takes the crash, then a hang
    (SIGSTOP) at the same step of its restarted attempt. Checks that both completed, resumed
    (`resumed`: the client's line saying so) and reached step 20, that nonstop run detected the
    hang, and that it ends with the loss torchrun reaches after the crash. `args(folder)`: the
    script's arguments for a run in that folder. Returns (torchrun's run, nonstop run's)."""
    crashed = torchrun(script, args(tmp_path / "tc"), tmp_path / "tc", fault="crash@12", restarts=1)
    ours = nonstop(
        script,
        args(tmp_path / "nc"),
        tmp_path / "nc",
        fault="crash@12,hang@12@1",
        flags=("--hang-timeout", "10"),
    )
    assert crashed.completed and ours.code == 0, (crashed.out + ours.out)[-3000:]
    for r in (crashed, ours):
        assert "client fault: crash at step 12 on rank 1" in r.out, r.out[-3000:]
        assert resumed in r.out and "at step 20" in r.out, r.out[-3000:]
    assert "client fault: hang at step 12 on rank 1" in ours.out, ours.out[-3000:]
    assert "hang detected" in ours.out and "attempt 1 failed" in ours.out, ours.out[-3000:]
    assert ours.final_loss == crashed.final_loss, (ours.final_loss, crashed.final_loss)
    return crashed, ours
