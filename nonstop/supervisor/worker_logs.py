"""Where the ranks' output goes: the run directory's logs, and torchrun's console and layout.

torch's LogsSpecs decides where each worker's stdout and stderr go; RunDirLogs puts them under
run_dir/logs/attempt-N/ and keeps torchrun's console behaviour (--redirects, --tee,
--local-ranks-filter, --log-dir).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from threading import Event
from typing import TextIO

from torch.distributed.elastic.multiprocessing.api import LogsDest, LogsSpecs, Std, to_map

from nonstop import log, rundir


class RunDirLogs(LogsSpecs):
    """Worker logs at run_dir/logs/attempt-N/rank-R.log (stdout and stderr merged by the
    bootstrap), error files beside them, and every rank's output on the console as torchrun
    shows it: torch's own TailLog copies each log to the console, for the local ranks that
    torchrun would show (not redirected with -r unless teed with -t; in --local-ranks-filter
    when given). With --log-dir, torchrun's layout there too: links
    LOG_DIR/<rdzv-id>_*/attempt_N/<local rank>/{stdout.log,stderr.log,error.json} to these
    files (error.json once the rank wrote it)."""

    def __init__(
        self,
        run_dir: rundir.RunDir,
        *,
        redirects: Std | dict[int, Std] = Std.NONE,
        tee: Std | dict[int, Std] = Std.NONE,
        local_ranks_filter: set[int] | None = None,
        log_dir: str | None = None,
    ) -> None:
        super().__init__(
            log_dir=str(run_dir.root / "logs"),
            redirects=redirects,
            tee=tee,
            local_ranks_filter=local_ranks_filter,
        )
        self.run_dir = run_dir
        self.redirects, self.tee, self.local_ranks_filter = redirects, tee, local_ranks_filter
        self.attempt = 0
        self.torchrun_log_dir = log_dir
        self._job_dir: str | None = None
        self._pending_errors: list[tuple[Path, Path]] = []
        """(--log-dir's error.json, the rank's error file) until the rank writes that file."""

    @property
    def root_log_dir(self) -> str:
        return str(self.run_dir.root / "logs")

    def on_console(self, local_rank: int, n: int) -> bool:
        """What torchrun prints for this rank: its stream unless redirected without a tee,
        and only for the ranks in --local-ranks-filter when one is given."""
        out = not (to_map(self.redirects, n)[local_rank] & Std.OUT) or bool(
            to_map(self.tee, n)[local_rank] & Std.OUT
        )
        chosen = not self.local_ranks_filter or local_rank in self.local_ranks_filter
        return out and chosen

    def reify(self, envs: dict[int, dict[str, str]]) -> LogsDest:
        dest = LogsDest()
        attempt_dir = self.run_dir.log(self.attempt, 0).parent
        for local_rank, env in envs.items():
            path = self.run_dir.log(self.attempt, int(env["RANK"]))
            path.parent.mkdir(parents=True, exist_ok=True)
            dest.stdouts[local_rank] = str(path)
            dest.stderrs[local_rank] = str(path.with_suffix(".stderr.log"))
            if self.on_console(local_rank, len(envs)):
                dest.tee_stdouts[local_rank] = str(path)
            err = path.with_suffix(".error.json")
            with contextlib.suppress(FileNotFoundError):
                err.unlink()
            dest.error_files[local_rank] = str(err)
            env["TORCHELASTIC_ERROR_FILE"] = str(err)
            if self.torchrun_log_dir:
                self._link_torchrun_layout(env, local_rank, path, err)
        # torch writes --duplicate-stdout-filters matches of the teed ranks here
        dest.filtered_stdout = str(attempt_dir / "filtered_stdout.log")
        dest.filtered_stderr = os.devnull
        return dest

    def _link_torchrun_layout(
        self, env: dict[str, str], local_rank: int, log: Path, err: Path
    ) -> None:
        """torchrun's --log-dir layout (DefaultLogsSpecs), as links to the run directory's
        files; attempt_N counts nonstop's attempts, which is torchrun's restart count on one
        node."""
        import tempfile

        assert self.torchrun_log_dir is not None
        if self._job_dir is None:
            os.makedirs(self.torchrun_log_dir, exist_ok=True)
            prefix = f"{env.get('TORCHELASTIC_RUN_ID', 'run')}_"
            self._job_dir = tempfile.mkdtemp(prefix=prefix, dir=self.torchrun_log_dir)
        d = Path(self._job_dir) / f"attempt_{self.attempt}" / str(local_rank)
        d.mkdir(parents=True, exist_ok=True)
        # stderr is merged into stdout (one log per rank, in order): both names are that log,
        # so what a torchrun user reads in stderr.log (the traceback) is there
        for name, target in (("stdout.log", log), ("stderr.log", log)):
            _link(d / name, target)
        # error.json only once the rank wrote it, as torchrun's appears only for a failed
        # rank: a link to nothing would be listed by a glob of error files, and unreadable
        with contextlib.suppress(FileNotFoundError):
            (d / "error.json").unlink()
        self._pending_errors.append((d / "error.json", err))

    def link_error_files(self) -> None:
        """--log-dir's error.json for each rank whose error file now exists (the agent calls
        this as it monitors the ranks: a rank writes its file before it exits)."""
        if not self._pending_errors:
            return
        pending = []
        for link, target in self._pending_errors:
            if target.exists():
                _link(link, target)
            else:
                pending.append((link, target))
        self._pending_errors = pending


def _link(link: Path, target: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    link.symlink_to(target.resolve())


def tail_logfile(
    header: str,
    file: str,
    dst: TextIO,
    finished: Event,
    interval_sec: float,
    log_line_filter: Callable[[str], bool] | None = None,
) -> None:
    """torch's TailLog reader (`tail_log.tail_logfile`, same arguments and loop) with two
    differences a console user sees, both towards torchrun's own console, where a rank that is
    neither redirected nor teed writes to the inherited stdout itself:

    - an unprefixed rank's bytes reach the console as the rank wrote them: torch decoded every
      log with errors="replace", so output that is not UTF-8 (a Latin-1 file name, a binary
      dump) came out as U+FFFD; here it is decoded with surrogateescape and written to the
      agent's stdout, which re-encodes those bytes unchanged (nonstop.cli sets its errors so).
      Prefixed (--tee) lines and the filter file keep torch's replacement, as under torchrun;
    - a console whose reader went away (`nonstop run ... | head -1`) is let go: torch's
      tailers each died with a BrokenPipeError traceback on stderr."""
    while not os.path.exists(file):
        if finished.is_set():
            return
        time.sleep(interval_sec)
    exact = not header and getattr(dst, "errors", None) == "surrogateescape"
    encoding = getattr(dst, "encoding", None) if exact else None
    with open(file, encoding=encoding, errors="surrogateescape" if exact else "replace") as fp:
        while True:
            line = fp.readline()
            if line:
                if log_line_filter and log_line_filter(line):
                    try:
                        dst.write(f"{header}{line}")
                    except BrokenPipeError:
                        log.console_closed(dst)
                        return
            elif finished.is_set():
                break
            else:
                time.sleep(interval_sec)


def exact_console() -> None:
    """The agent's consoles are copied by tail_logfile above (torch_compat.tail_logs_through);
    the supervisor's own stdout keeps a rank's bytes (cli's _names_as_bytes does the same for
    file names)."""
    from nonstop.supervisor import torch_compat

    torch_compat.tail_logs_through(tail_logfile)
    if sys.stdout is not None and getattr(sys.stdout, "errors", None) == "strict":
        with contextlib.suppress(AttributeError, ValueError):
            sys.stdout.reconfigure(errors="surrogateescape")  # type: ignore[union-attr]
