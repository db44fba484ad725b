"""The run directory: the one layout every nonstop tool reads and writes (docs/run-directory.md).

    run_dir/
      config.json                     resolved configuration of the run
      ledger.db                       SQLite ledger (nonstop.ledger)
      events/attempt-N/rank-R.jsonl   per-rank event streams (nonstop.events)
      logs/attempt-N/rank-R.log       per-rank stdout+stderr
      flight/attempt-N/rank-R         flight-recorder dumps, PyTorch's own format
      checkpoints/step-N/             DCP checkpoint + commit marker with checksums
      control/                        operator requests (drain, restart)
      report.html

Workers learn where to write from environment variables set by the launcher (`ENV_*`).
Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from nonstop import envvars
from nonstop.errors import UserError

ENV_RUN_DIR: Final = envvars.RUN_DIR
ENV_RUN_ID: Final = envvars.RUN_ID
ENV_HOST: Final = envvars.HOST  # overrides the hostname: several "nodes" on one machine
ENV_ATTEMPT: Final = envvars.ATTEMPT  # the run's attempt number, across supervisor restarts
ENV_TORCH_ATTEMPT: Final = envvars.TORCH_ATTEMPT  # torchrun's counter (fallback)

CONFIG: Final = "config.json"
LEDGER: Final = "ledger.db"

_EVENT_FILE = re.compile(r"^rank-(\d+)\.jsonl$")
_ATTEMPT_DIR = re.compile(r"^attempt-(\d+)$")


def new_run_id() -> str:
    """A run id that sorts by time and never collides: 20261129-201500-a1b2c3."""
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)


@dataclass(frozen=True)
class RunDir:
    """Paths inside one run directory. Creating the object touches nothing on disk."""

    root: Path

    @property
    def config(self) -> Path:
        return self.root / CONFIG

    @property
    def ledger(self) -> Path:
        return self.root / LEDGER

    @property
    def checkpoints(self) -> Path:
        return self.root / "checkpoints"

    @property
    def control(self) -> Path:
        return self.root / "control"

    @property
    def report_html(self) -> Path:
        return self.root / "report.html"

    def events(self, attempt: int, rank: int) -> Path:
        return self.root / "events" / f"attempt-{attempt}" / f"rank-{rank}.jsonl"

    def log(self, attempt: int, rank: int) -> Path:
        return self.root / "logs" / f"attempt-{attempt}" / f"rank-{rank}.log"

    def flight_dir(self, attempt: int) -> Path:
        return self.root / "flight" / f"attempt-{attempt}"

    def flight(self, attempt: int, rank: int) -> Path:
        return self.flight_dir(attempt) / f"rank-{rank}"

    def checkpoint(self, step: int) -> Path:
        return self.checkpoints / f"step-{step}"

    def event_files(self, attempt: int | None = None) -> list[tuple[int, int, Path]]:
        """(attempt, rank, path) of every event stream (of one attempt if given), ordered by
        attempt then rank."""
        out = []
        base = self.root / "events"
        if not base.is_dir():
            return []
        for adir in base.iterdir():
            am = _ATTEMPT_DIR.match(adir.name)
            if not am or (attempt is not None and int(am.group(1)) != attempt):
                continue
            if not adir.is_dir():
                continue
            for f in adir.iterdir():
                fm = _EVENT_FILE.match(f.name)
                if fm:
                    out.append((int(am.group(1)), int(fm.group(1)), f))
        return sorted(out)

    def read_config(self) -> dict[str, Any]:
        try:
            data = json.loads(self.config.read_text())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as e:
            raise UserError(f"{self.config} is not readable JSON: {e}") from None
        if not isinstance(data, dict):
            raise UserError(f"{self.config} holds a {type(data).__name__}, not an object")
        return data

    def write_config(self, config: dict[str, Any]) -> None:
        """Write config.json atomically (write a temporary file, then rename)."""
        self.root.mkdir(parents=True, exist_ok=True)
        # a name of our own: the agents of a multi-node job may write at the same moment
        tmp = self.config.with_name(f".{CONFIG}.{os.getpid()}.{secrets.token_hex(3)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # not world-readable
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(config, indent=2, sort_keys=True, default=str) + "\n")
        os.replace(tmp, self.config)


MODE: Final = 0o700
"""A run directory and its subfolders are the owner's only: they hold the replica servers'
tokens, the control files that steer the job, and pickles and logs of the job's state
(docs/security.md)."""


def create(root: str | os.PathLike[str]) -> RunDir:
    """Make (or reuse) a run directory and its standard subfolders, owner-only (MODE). An
    existing run directory keeps the mode its owner gave it (a team may open it on purpose)."""
    rd = RunDir(Path(root))
    new = not rd.root.exists()
    rd.root.mkdir(parents=True, exist_ok=True, mode=MODE)
    if new:
        os.chmod(rd.root, MODE)  # mkdir's mode is filtered by the umask: say it exactly
    for sub in ("events", "logs", "flight", "checkpoints", "control"):
        path = rd.root / sub
        if not path.exists():
            path.mkdir(mode=MODE, exist_ok=True)
            os.chmod(path, MODE)
    return rd


def open_existing(root: str | os.PathLike[str]) -> RunDir:
    """A RunDir for a directory that must already be one; UserError otherwise."""
    path = Path(root)
    if not path.exists():
        raise UserError(f"{path}: no such run directory")
    if not path.is_dir():
        raise UserError(f"{path} is a file, not a run directory")
    rd = RunDir(path)
    if not (rd.config.exists() or rd.ledger.exists() or (path / "events").is_dir()):
        raise UserError(
            f"{path} is not a nonstop run directory (no {CONFIG}, {LEDGER} or events/); "
            "pass the folder that `nonstop run` or `nonstop demo` created, or, for logs "
            f"another launcher wrote (torchrun --log-dir, a scheduler), `nonstop triage {path}`"
        )
    return rd


def default_root(base: str | os.PathLike[str] = "runs") -> Path:
    """A new directory under ./runs/ named by time: never reuses (and so never mixes) runs."""
    return Path(base) / new_run_id()
