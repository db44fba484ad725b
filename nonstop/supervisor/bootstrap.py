"""The worker bootstrap: every rank `nonstop run` starts goes through here, then runs the user's
script unchanged (as `python -m` or a path, with its own argv).

What it adds to a script that never imports nonstop:

- a watcher thread that reports, twice a second, the rank's liveness and its collective
  progress read from PyTorch's flight recorder (last enqueued and last completed collective
  per process group; gloo records into the generic recorder, which never dumps by itself);
- dump on demand: when the supervisor drops a request file in run_dir/control/, the thread
  writes the flight-recorder trace (PyTorch's own pickle format) to flight/attempt-N/rank-R and
  every thread's Python stack to logs/attempt-N/rank-R.stacks.txt. The thread runs while the
  main thread waits inside a collective (those release the GIL);
- time-keyed fault injection for uninstrumented scripts, and faulthandler for hard crashes;
- the rank dies with its supervisor (PR_SET_PDEATHSIG), so a killed supervisor leaves no
  orphans training on; stderr is merged into the rank's log; an uncaught exception is written
  to torchelastic's error file, as `@record` would.

    python -m nonstop.supervisor.bootstrap [-m] SCRIPT [ARGS...]
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import faulthandler
import gc
import importlib.machinery
import io
import json
import logging
import os
import pickle
import runpy
import signal
import sys
import threading
import time
import traceback
import types
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, NoReturn

from nonstop import envvars, log, rundir
from nonstop.faults import install_main_thread_delivery
from nonstop.runtime import Runtime
from nonstop.runtime.flushing import flush_open_files
from nonstop.supervisor.live_settings import LiveSettings

ENV_MERGE_STDERR = envvars.MERGE_STDERR
_log = log.get("bootstrap")
FR_ENTRIES = "2000"


def dump_request_path(run_dir: Path, attempt: int) -> Path:
    return rundir.RunDir(run_dir).control / f"dump-attempt-{attempt}"


def _die_with_parent() -> None:
    with log.swallowed(_log, "PR_SET_PDEATHSIG (this rank would outlive a killed supervisor)"):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent is already gone
            os._exit(1)


# nonstop.diagnose.frdump.RECORDER_ERRORS, spelled here: every rank loads this module, and the
# diagnose package is not for ranks to import (tests/diagnose/test_diag_nccl_recorder.py ties them)
RECORDER_ERRORS = "nonstop_recorder_errors"
_warned: dict[
    str, str
] = {}  # recorder -> the error last warned about (the watcher asks every tick)


def _recorder_dumps(c10d: Any, *args: Any) -> tuple[list[bytes], dict[str, str]]:
    """The pickled traces of every flight recorder this torch has: the generic one (gloo and
    other backends) and NCCL's CUDA-event recorder (`_dump_nccl_trace`, CUDA builds), which is
    where NCCL's collectives are; and {recorder: why} for each that failed this time (no
    process group yet; on NCCL, a recorder that broke: never to be hidden behind the other's
    dump, which may be empty)."""
    blobs, errors = [], {}
    for name in ("_dump_fr_trace", "_dump_nccl_trace"):
        fn = getattr(c10d, name, None)
        if fn is None:
            continue
        try:
            blobs.append(fn(*args))
        except Exception as e:  # this recorder has nothing (yet): the other one may
            errors[name] = f"{type(e).__name__}: {e}"
    for name, why in errors.items():
        if blobs and _warned.get(name) != why:
            _log.warning("flight recorder %s failed (%s): its collectives are left out", name, why)
        _warned[name] = why
    for name in [n for n in _warned if n not in errors]:
        del _warned[name]  # it works again: its next failure is news
    return blobs, errors


def _torch_before_shared_fr_size(version: str | None = None) -> bool:
    """True for torch before 2.8, whose NCCL recorder reads only TORCH_NCCL_TRACE_BUFFER_SIZE
    (2.8 made the recorder vendor neutral, pytorch/pytorch#152563: TORCH_FR_BUFFER_SIZE, the old
    name a deprecated alias; nvidia-resiliency-ext#163 draws the same line). Reads the
    installed version's metadata; never imports torch."""
    if version is None:
        try:
            from importlib.metadata import version as _v

            version = _v("torch")
        except Exception as e:  # no metadata: take the current torch
            _log.debug("torch's version unknown (%r): the current flight-recorder variable", e)
            return False
    try:
        major, minor = (int(x) for x in version.split("+")[0].split(".")[:2])
    except ValueError:
        return False
    return (major, minor) < (2, 8)


def collective_progress() -> dict[str, list[int]] | None:
    """{pg id: [last enqueued, last completed]} from the flight recorders (generic and, on CUDA
    builds, NCCL's), or None when torch.distributed is not in use (yet). Never imports torch."""
    dist = sys.modules.get("torch.distributed")
    # the module may be half-imported by the main thread: look before touching
    is_init = getattr(dist, "is_initialized", None) if dist is not None else None
    if is_init is None or not is_init():
        return None
    c10d = sys.modules.get("torch._C._distributed_c10d")
    if c10d is None:
        return None
    blobs, _errors = _recorder_dumps(c10d, False, False, True)
    if not blobs:
        return None
    progress: dict[str, list[int]] = {}
    for blob in blobs:
        for pg, st in pickle.loads(blob).get("pg_status", {}).items():
            enq = int(st.get("last_enqueued_collective", -1))
            done = int(st.get("last_completed_collective", -1))
            old = progress.get(str(pg), [-1, -1])
            progress[str(pg)] = [max(old[0], enq), max(old[1], done)]
    return progress


def _last_progress(rt: Runtime) -> None:
    """The collectives this rank completed, said once more as it fails: a script that trained
    between two of the watcher's ticks (half a second) and raised was taken to have made no
    progress, and its failure read as one at import or in setup, which is not retried. A rank
    that never joined a process group says nothing here."""
    with log.swallowed(_log, "reporting the rank's progress as it failed"):
        progress = collective_progress()
        if progress:
            rt.emit(
                "heartbeat",
                step=rt.current_step,
                source="last_words",
                pgs=progress,
                coll_enq=max(v[0] for v in progress.values()),
                coll_done=max(v[1] for v in progress.values()),
            )


def merge_traces(blobs: list[bytes], errors: dict[str, str] | None = None) -> bytes:
    """One dump in PyTorch's format from several recorders' pickled traces: entries, pg_config
    and pg_status of all (the analysis matches collectives by process group and sequence id),
    and under RECORDER_ERRORS the recorders that failed (`nonstop diagnose` reports them)."""
    if len(blobs) == 1 and not errors:
        return blobs[0]
    traces = [pickle.loads(b) for b in blobs]
    out = dict(traces[0])
    out["entries"] = [e for t in traces for e in t.get("entries", [])]
    for key in ("pg_config", "pg_status"):
        merged: dict[Any, Any] = {}
        for t in traces:
            merged.update(t.get(key) or {})
        out[key] = merged
    if errors:
        out[RECORDER_ERRORS] = dict(errors)
    return pickle.dumps(out)


def write_dumps(rt: Runtime) -> list[str]:
    """Flight-recorder trace, then Python stacks, of this rank; each written atomically. The
    stacks file comes last: the supervisor takes it as the sign that this rank has answered.

    The trace is written first without C++ stack traces (milliseconds); with `fr_stacks` the
    symbolized one (seconds on a loaded CPU, longer than the agent's 3 s evidence wait:
    docs/benchmarks.md, "Figures behind the code") replaces it after the answer, if the rank
    still lives."""
    assert rt.run_dir is not None
    rd = rundir.RunDir(rt.run_dir)
    written = []
    c10d = sys.modules.get("torch._C._distributed_c10d")
    out = rd.flight(rt.attempt, rt.rank)
    if _write_trace(c10d, out, False):
        written.append(str(out))
    stacks = rd.log(rt.attempt, rt.rank).with_suffix(".stacks.txt")
    stacks.parent.mkdir(parents=True, exist_ok=True)
    tmp_stacks = stacks.with_name(stacks.name + ".tmp")
    with open(tmp_stacks, "w") as f:
        f.write(f"# Python stacks of rank {rt.rank} (pid {os.getpid()}) at {time.time():.3f}\n")
        f.flush()
        faulthandler.dump_traceback(file=f, all_threads=True)
    os.replace(tmp_stacks, stacks)
    written.append(str(stacks))
    if rt.fr_stacks and written[0] == str(out):
        _write_trace(c10d, out, True)
    return written


def _write_trace(c10d: Any, out: Path, with_stacks: bool) -> bool:
    """Every recorder's trace merged into one dump at `out` (atomically); False if none."""
    blobs, errors = ([], {}) if c10d is None else _recorder_dumps(c10d, True, with_stacks, False)
    if not blobs:
        if errors:
            _log.warning("no flight-recorder dump: %s", errors)
        return False
    if errors:  # e.g. NCCL's failed while the generic one dumped (perhaps nothing at all)
        _log.warning("flight recorder: %s; the dump holds the others only", errors)
    try:
        blob = merge_traces(blobs, errors)  # generic recorder + NCCL's, one file per rank
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_bytes(blob)
        os.replace(tmp, out)
        return True
    except Exception as e:  # no process group (yet): the stacks still help
        _log.warning("no flight-recorder dump: %r", e)
        return False


def thread_schedstats(exclude_tid: int | None = None) -> dict[int, tuple[int, int]] | None:
    """{thread id: (ns on a CPU, ns runnable but waiting for one)} of this process's threads
    but `exclude_tid`, from /proc/self/task/*/schedstat; None where the kernel keeps none."""
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return None
    out: dict[int, tuple[int, int]] = {}
    for tid in tids:
        if exclude_tid is not None and tid == str(exclude_tid):
            continue
        try:
            with open(f"/proc/self/task/{tid}/schedstat", "rb") as f:
                run, wait = f.read().split()[:2]
            out[int(tid)] = (int(run), int(wait))
        except (OSError, ValueError):
            continue  # the thread ended between the listing and the read
    return out or None


def io_bytes() -> int | None:
    """Bytes this process has read and written through system calls (/proc/self/io's rchar +
    wchar: files, pipes and sockets, page cache or not), or None where the kernel does not
    say. A rank writing a checkpoint to a slow filesystem or reading its data shows it grow
    while its CPU time barely moves."""
    try:
        with open("/proc/self/io", "rb") as f:
            fields = dict(line.split(b":", 1) for line in f.read().splitlines() if b":" in line)
        return int(fields[b"rchar"]) + int(fields[b"wchar"])
    except (OSError, KeyError, ValueError):
        return None


class RunnableMeter:
    """How much of the time this process's busiest thread wanted a CPU: on it, or waiting in
    the run queue for one.

    On an oversubscribed host a rank that computes gets a fraction of a core, and its CPU time
    alone looks like a rank that sleeps (at load 17 on 2 cores, 18% of a core: the watchdog
    called an evaluation a hang). A computing thread is runnable all the time, whatever share
    it gets; a hung rank's threads are not (blocked in a lock, a sleep, a socket), although
    their wake-ups queue on a crowded CPU too (gloo's I/O loop: ~15% of the time at 7 runnable
    per core), which is why this is the busiest thread's figure, not the sum of all.

    `sample()` returns a cumulative count of seconds, to be differenced over a window like CPU
    time: each call adds the largest per-thread increase of (on CPU + waiting) since the last."""

    def __init__(self, exclude_tid: int | None = None) -> None:
        self.exclude_tid = exclude_tid
        self.total_s = 0.0
        self._last: dict[int, tuple[int, int]] | None = None

    def sample(self) -> float | None:
        now = thread_schedstats(self.exclude_tid)
        if now is None:
            return None
        if self._last is not None:
            grown = [
                (run + wait) - sum(self._last[tid])
                for tid, (run, wait) in now.items()
                if tid in self._last
            ]
            self.total_s += max([0, *grown]) / 1e9
        self._last = now
        return self.total_s


REQUEST_POLL_S: Final = 0.1
"""How often the watcher looks for the agent's dump request, between its ticks."""


class Watcher(threading.Thread):
    """Liveness, collective progress, dump requests and time-keyed faults, off the main thread."""

    def __init__(self, rt: Runtime) -> None:
        super().__init__(name="nonstop-watcher", daemon=True)
        self.runnable: RunnableMeter | None = None
        self.rt = rt
        self.t0 = time.monotonic()
        self.req = dump_request_path(rt.run_dir, rt.attempt) if rt.run_dir else None
        self.handled_mtime = 0.0
        # read here, not at import: a warm standby imports this module long before it knows
        # its environment
        self.tick_s = float(os.environ.get(envvars.TICK_S, "0.5"))
        self.settings = LiveSettings(rt.run_dir) if rt.run_dir else None

    def run(self) -> None:
        # the dump request is looked for every REQUEST_POLL_S (one stat), the rest every tick:
        # the agent waits for the answer before it stops a hung rank, and a whole tick of that
        # wait was most of the half second nonstop's hang detection lost to ft_launcher's
        poll = min(REQUEST_POLL_S, self.tick_s)
        next_tick = time.monotonic() + self.tick_s
        while True:
            time.sleep(poll)
            try:
                self.answer_dump_request()
                if time.monotonic() >= next_tick:
                    next_tick = time.monotonic() + self.tick_s
                    self.tick()
            except Exception as e:  # monitoring never kills training
                _log.warning("watcher: %r", e, exc_info=_log.isEnabledFor(logging.DEBUG))

    def answer_dump_request(self) -> None:
        """The agent's request for this rank's flight-recorder trace and stacks, once per
        request (its mtime)."""
        if self.req is None or not self.req.exists():
            return
        mtime = self.req.stat().st_mtime
        if mtime > self.handled_mtime:
            self.handled_mtime = mtime
            files = write_dumps(self.rt)
            self.rt.emit("lifecycle", phase="dumped", files=files)

    def tick(self) -> None:
        progress = collective_progress()
        # the process's CPU seconds (every thread): the watchdog tells a rank that computes
        # (an evaluation, a save) from one that sleeps or waits
        payload: dict[str, Any] = {
            "step": self.rt.current_step,
            "source": "bootstrap",
            "cpu_s": round(time.process_time(), 3),
        }
        if self.runnable is None:  # here: the thread's id exists once it runs
            self.runnable = RunnableMeter(exclude_tid=threading.get_native_id())
        runnable = self.runnable.sample()
        if runnable is not None:
            payload["runnable_s"] = round(runnable, 3)
        io = io_bytes()  # a rank busy with I/O (a save, a read) is working too
        if io is not None:
            payload["io_bytes"] = io
        # whether SIGTERM still reaches nonstop's handler (the script installed none of its
        # own): then the rank dies at once when its agent stops it, and the agent need not
        # give it torch's 30 s before SIGKILL (failures.FailureHandler.before_stop)
        payload["sigterm"] = (
            "nonstop" if isinstance(signal.getsignal(signal.SIGTERM), SigtermHandler) else "other"
        )
        if progress:
            payload["pgs"] = progress
            payload["coll_enq"] = max(v[0] for v in progress.values())
            payload["coll_done"] = max(v[1] for v in progress.values())
        self.rt.emit("heartbeat", **payload)
        self.answer_dump_request()
        if self.rt.faults:
            self.rt.faults.on_tick(time.monotonic() - self.t0)
        if self.settings is not None:
            self.apply_settings()
        if self.rt.stop_at is None and self.rt.run_dir is not None:
            from nonstop.supervisor.planned_stop import read_stop

            plan = read_stop(self.rt.run_dir, self.rt.attempt)
            if plan is not None:
                self.rt.stop_at = plan.step
                self.rt.emit("lifecycle", phase="stop_planned", step=plan.step, kind=plan.kind)

    def apply_settings(self) -> None:
        """`nonstop ctl RUN set ...`: this rank's share (phase timing, flight-recorder stacks,
        telemetry interval), announced with a `reconfigured` lifecycle event."""
        assert self.settings is not None
        got = self.settings.poll()
        if got is None:
            return
        version, changed = got
        if "phase_timing" in changed:
            self.rt.phase_timing = bool(changed["phase_timing"])
        if "fr_stacks" in changed:
            self.rt.fr_stacks = bool(changed["fr_stacks"])
        if "telemetry_s" in changed and self.rt.telemetry is not None:
            self.rt.telemetry.interval_s = float(changed["telemetry_s"])
        self.rt.emit("lifecycle", phase="reconfigured", version=version, settings=dict(changed))


class SigtermHandler:
    """SIGTERM on a rank. Slurm sends it to every process of the job at a time limit or a
    preemption, SIGKILL `KillWait` seconds later; torch's agent sends it to stop its own ranks.

    - The agent's own teardown (it marks it first: control.teardown_path), or a script that
      never called `planned_stop_due` and so cannot be asked to checkpoint: flush the events and
      die of SIGTERM, as without nonstop.
    - Otherwise the scheduler's warning: note a planned stop (as the watcher does on reading
      the agent's plan) and go on; at the next `planned_stop_due` every rank agrees, saves the
      checkpoint and exits, while its writers still run. The agent, signalled too, waits for
      that within its grace period."""

    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    def __call__(self, signum: int, frame: Any) -> None:
        from nonstop.supervisor.planned_stop import teardown_path

        rt = self.rt
        assert rt.run_dir is not None
        if rt.stop_checks and not teardown_path(rt.run_dir, rt.host, rt.attempt).exists():
            if rt.stop_at is None:
                rt.stop_at = rt.current_step
                rt.emit("lifecycle", phase="stop_signal", signal="SIGTERM", step=rt.current_step)
            return
        if rt.writer is not None:
            rt.writer.close(timeout_s=2.0)
        flush_open_files()  # what the script wrote and never closed outlives the rank
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)


def scope_agent_store_by_attempt() -> None:
    """torch 2.13 under torchrun's shared rendezvous store: the workers of every attempt write
    their process group's keys (gloo and NCCL peer addresses) under the same names, since torch
    assumes a new store per retry; a restart then reads the dead attempt's addresses and fails
    ("Gloo connectFullMesh failed"). Scoping the workers' keys by nonstop's attempt number keeps
    the shared store, where the process group starts in milliseconds, instead of a new store
    per attempt (TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1), which costs every restart a store's
    start-up (docs/benchmarks.md, "Figures behind the code")."""
    if os.environ.get(envvars.TORCH_USE_AGENT_STORE) != "True":
        return
    import importlib

    from torch.distributed import PrefixStore

    # not `import torch.distributed.rendezvous as ...`: torch.distributed.rendezvous is also
    # the name of a function, which that statement would bind
    rdzv: Any = importlib.import_module("torch.distributed.rendezvous")

    create = getattr(rdzv, "_create_c10d_store", None)
    if create is None or getattr(create, "nonstop_scoped", False):
        return
    prefix = f"/nonstop/attempt_{os.environ.get(rundir.ENV_ATTEMPT, '0')}"

    def scoped(*args: Any, **kwargs: Any) -> Any:
        return PrefixStore(prefix, create(*args, **kwargs))

    scoped.nonstop_scoped = True  # type: ignore[attr-defined]
    rdzv._create_c10d_store = scoped


def _write_error_file(exc: BaseException) -> None:
    path = os.environ.get(envvars.TORCH_ERROR_FILE)
    if not path or os.path.exists(path):
        return
    data = {
        "message": {
            # as Python prints it: "KeyboardInterrupt", not "KeyboardInterrupt: "
            "message": f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__,
            "extraInfo": {
                "py_callstack": "".join(traceback.format_exception(exc)),
                "timestamp": str(int(time.time())),
            },
        }
    }
    with contextlib.suppress(OSError):  # atomic: the agent may read it at any moment
        tmp = Path(path + ".tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)


WARNING_SIGNALS = (signal.SIGUSR1, signal.SIGUSR2)


def survive_warnings() -> None:
    """Slurm's --signal warning reaches every process of the step: the agent plans the stop,
    the rank must not die of it. Caught by a handler that does nothing, not ignored: an
    ignored signal stays ignored across exec, so every program the script starts
    (subprocess, a compiler, a data tool) would ignore it too, where under torchrun it gets
    the default action; a caught one is reset at exec. Interrupted system calls restart
    (siginterrupt False: SA_RESTART), as they would had the signal been ignored."""
    for sig in WARNING_SIGNALS:
        signal.signal(sig, _warning_seen)
        signal.siginterrupt(sig, False)


def _warning_seen(signum: int, frame: Any) -> None:
    """The agent, signalled too, plans the stop; the rank learns it from the plan."""


def main(argv: list[str]) -> int:
    if os.environ.get(ENV_MERGE_STDERR) == "1":
        os.dup2(1, 2)  # one log per rank: stderr goes where stdout goes
    _die_with_parent()
    survive_warnings()
    faulthandler.enable(all_threads=True)
    # turn the flight recorders on: the generic one, and NCCL's, which torch older than the
    # shared variable reads from TORCH_NCCL_TRACE_BUFFER_SIZE (newer torch reads both names for
    # both recorders and warns on every rank that the old one is deprecated: not set there)
    os.environ.setdefault(envvars.TORCH_FR_BUFFER_SIZE, FR_ENTRIES)
    if _torch_before_shared_fr_size():
        os.environ.setdefault(
            envvars.TORCH_NCCL_TRACE_BUFFER_SIZE, os.environ[envvars.TORCH_FR_BUFFER_SIZE]
        )
    if not argv:
        print(
            "usage: python -m nonstop.supervisor.bootstrap [-m] SCRIPT [ARGS...]", file=sys.stderr
        )
        return 2
    as_module = argv[0] == "-m"
    if as_module:
        argv = argv[1:]
    import nonstop.runtime as ns

    rt = ns.init()  # attempt_start: the restart phases count what follows as imports and pg
    if rt.enabled:  # a rank of `nonstop run`: its lines say where they come from
        log.setup(log.RANK, host=rt.host, attempt=rt.attempt, rank=rt.rank)
    scope_agent_store_by_attempt()
    sampler = None
    if rt.enabled:
        signal.signal(signal.SIGTERM, SigtermHandler(rt))  # in place of the event writer's
        # time-keyed faults that must run in the main thread reach it through a signal handler
        install_main_thread_delivery(rt.faults)
        Watcher(rt).start()
        from nonstop.runtime.telemetry import maybe_start_telemetry

        sampler = maybe_start_telemetry(rt)  # NONSTOP_TELEMETRY_S, local rank 0 on CPU
        rt.telemetry = sampler
    sys.argv = list(argv)
    try:
        if as_module:
            runpy.run_module(argv[0], run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, str(Path(argv[0]).resolve().parent))
            run_script(argv[0])
    except SystemExit as e:
        if e.code in (None, 0):
            _finished(rt)
        _stop(sampler, rt)
        raise
    except BaseException as e:
        _from_user_frames(e)  # the traceback recorded and printed starts in the script
        if rt.enabled:
            _last_progress(rt)
        rt.failure(e)
        _stop(sampler, rt)
        _write_error_file(e)
        if isinstance(e, KeyboardInterrupt):
            # Python's own exit for it (the teardown, then death by SIGINT, as a torchrun
            # rank dies); the frames it gains on the way out are ours again: dropped where
            # the traceback is printed
            _print_from_user_frames()
            raise
        _exit_after_exception(e)
    _finished(rt)
    _stop(sampler, rt)
    return 0


def run_script(path: str) -> None:
    """Run the script at `path` as `python path` does: as `__main__`, its `__file__` and its
    code's file name absolute (Python 3.9 and later; torchrun starts `python path`), while
    `sys.argv[0]` stays as the user typed it. runpy.run_path gives either a relative `__file__`
    (a script that changes folder, as Hydra does, then found nothing beside itself) or, given
    the absolute path, an absolute `sys.argv[0]`. A folder or a zip archive with a __main__.py
    goes to runpy.run_path, as before."""
    full = os.path.abspath(path)
    if not os.path.isfile(full) or zipfile.is_zipfile(full):
        runpy.run_path(path, run_name="__main__")
        return
    with io.open_code(full) as f:
        code = compile(f.read(), full, "exec", dont_inherit=True)
    main = types.ModuleType("__main__")
    main.__dict__.update(
        __file__=full,
        __cached__=None,
        __loader__=importlib.machinery.SourceFileLoader("__main__", full),
        __spec__=None,
        __package__=None,
        __builtins__=builtins,
    )
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    finally:  # as runpy's temporary module: the bootstrap's own __main__ afterwards
        if saved is not None:
            sys.modules["__main__"] = saved


ATEXIT_TIMEOUT_S = 10.0


def _from_user_frames(exc: BaseException) -> None:
    """Drop the frames above the user's own from `exc`'s traceback: this bootstrap's and
    runpy's (`<frozen runpy>`), which run every script and say nothing about its failure. A
    failure inside them (no user frame at all) keeps its whole traceback."""
    tb = exc.__traceback__
    while tb is not None and _ours(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    if tb is not None:
        exc.__traceback__ = tb


def _print_from_user_frames() -> None:
    """The traceback that Python prints for an exception that leaves the process starts at
    the user's frames, as for any other exception: the excepthook in place then (torch's,
    which prefixes `[rankN]:`, or Python's) gets it without the bootstrap's and runpy's."""
    hook = sys.excepthook

    def from_user_frames(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
        exc.__traceback__ = tb
        _from_user_frames(exc)
        hook(kind, exc, exc.__traceback__)

    sys.excepthook = from_user_frames


def _ours(filename: str) -> bool:
    if filename == "<frozen runpy>":
        return True
    with contextlib.suppress(OSError, ValueError):
        here = os.path.realpath(filename)
        # the warm standby's module runs the bootstrap in a rank that was a standby
        standby = os.path.join(os.path.dirname(__file__), "standby.py")
        ours = (__file__, standby, runpy.__file__)
        return here in {os.path.realpath(f) for f in ours}
    return False


def _exit_after_exception(exc: BaseException) -> None:
    """Exit 1 as Python would after an uncaught exception (the traceback by sys.excepthook, the atexit
    handlers run, bounded), but without the interpreter's teardown: freeing a live DDP model
    and its gloo process group there can deadlock (a gloo thread waits for the GIL that
    ~ProcessGroupGloo holds), and the failed rank then looked like a hang and was restarted
    as one (issue 14's soak, test_repeated_exception_stops_without_a_restart_loop)."""
    import atexit

    # through sys.excepthook, as Python prints it: torch's (init_process_group's `[rankN]:`
    # prefix on every line), or the script's own (rich, loguru, a crash reporter)
    try:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    except Exception:  # as Python does when the hook itself fails: the original, plainly
        with log.swallowed(_log, "printing the traceback", expected=(OSError, ValueError)):
            traceback.print_exception(exc)
    _flush_std()
    # a user's handlers (loggers flushing, say) still run; one that hangs does not keep us
    t = threading.Thread(target=atexit._run_exitfuncs, name="nonstop-atexit", daemon=True)
    t.start()
    t.join(ATEXIT_TIMEOUT_S)
    flush_open_files()  # the script's own log, never closed: its last lines say why
    _flush_std()
    os._exit(1)


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        # a closed or broken stream (OSError; ValueError: I/O on a closed file) is expected
        with log.swallowed(
            _log, "flushing stdout/stderr before exiting", expected=(OSError, ValueError)
        ):
            stream.flush()


def _finished(rt: Runtime) -> None:
    """The script returned: say so (unless it did, through nonstop.runtime), so that the
    watchdog allows the interpreter's exit its time instead of calling it a hang."""
    if "finished" not in rt.phases_seen:
        rt.lifecycle("finished", step=rt.current_step, source="bootstrap")


def _stop(sampler: Any, rt: Runtime) -> None:
    if sampler is not None:
        sampler.stop()
    rt.close()


def run_then_exit(main_fn: Callable[[list[str]], int], argv: list[str]) -> NoReturn:
    """A rank's process: `main_fn(argv)`, then Python's ordinary exit (also when the script
    ended in sys.exit), after one garbage collection that frees what the script left (its
    globals, in a cycle with its functions: a file it never closed is flushed there) and a
    freeze of what is still alive (gc.freeze): the exit's own collections then no longer walk
    torch's objects, which cost 1.2-1.7 s of CPU per rank on a quiet host (more on a busy
    one) between the script's end and the process's, while the agent waited to see the
    attempt succeed; the one collection here costs about 0.2 s. Nothing else changes: atexit
    handlers run, modules are torn down and what they hold is freed as before; only a cycle
    that becomes garbage in the teardown itself keeps its finalizer unrun, which Python never
    promises at exit."""
    try:
        sys.exit(main_fn(argv))
    finally:
        gc.collect()
        gc.freeze()


if __name__ == "__main__":
    run_then_exit(main, sys.argv[1:])
