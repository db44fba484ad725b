"""Real clients under torchrun and under `nonstop run`: the same script, the same flags, the
same fault, compared on exit code, final loss and the ranks' console lines.

torchrun runs with --standalone (a free port: no clash with other tests) and, where it must
restart, torch's own workaround for its 2.13 restart bug (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1:
without it the restarted process group reads the dead attempt's addresses)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
FINAL = re.compile(r"final loss ([-\d.]+|nan)")


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

    def lines(self, pattern: str) -> list[str]:
        """Every match of `pattern` in the output, sorted (ranks interleave differently). Not
        line by line: under torchrun the ranks share the console, and `python -u` writes a
        print's text and its newline separately, so two ranks' lines can share one."""
        return sorted(m.group(0) for m in re.finditer(pattern, self.out))


def _env(fault: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NONSTOP_", "TORCHELASTIC"))}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false", PYTHONWARNINGS="ignore")  # fmt: skip
    env.pop("CLIENT_FAULT", None)
    if fault:
        env["CLIENT_FAULT"] = fault
    return env


def _run(cmd: list[str], cwd: Path, env: dict[str, str], timeout_s: float) -> Ran:
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=timeout_s)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        # a hung job: stop the launcher and every rank (torch starts each in a session of its
        # own, and torchrun's ranks outlive their launcher), then collect
        import psutil

        procs = [psutil.Process(proc.pid)]
        with contextlib.suppress(psutil.Error):
            procs += procs[0].children(recursive=True)
        for p in procs:
            for sig in (signal.SIGCONT, signal.SIGKILL):
                with contextlib.suppress(psutil.Error):
                    p.send_signal(sig)
        out, _ = proc.communicate()
        code = None
    return Ran(code, out, time.monotonic() - t0)


def torchrun(script: str, args: list[str], cwd: Path, *, fault: str = "", restarts: int = 0,
             timeout_s: float = 300) -> Ran:  # fmt: skip
    env = _env(fault)
    if restarts:
        env["TORCH_DISABLE_SHARE_RDZV_TCP_STORE"] = "1"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
           "2", "--max-restarts", str(restarts), str(HERE / script), *args]  # fmt: skip
    return _run(cmd, cwd, env, timeout_s)


def nonstop(script: str, args: list[str], cwd: Path, *, fault: str = "", flags: tuple = (),
            timeout_s: float = 300) -> Ran:  # fmt: skip
    cmd = [sys.executable, "-m", "nonstop.cli", "run", "--quiet", "--nproc-per-node", "2",
           "--run-dir", str(cwd / "run"), *flags, str(HERE / script), *args]  # fmt: skip
    return _run(cmd, cwd, _env(fault), timeout_s)
