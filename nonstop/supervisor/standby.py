"""Warm standby workers: processes that have already paid for the interpreter, `import torch`
and the training script's imports, waiting for a rank assignment.

A cold restart starts a new interpreter per rank and imports torch again (one to two seconds
on a loaded host, more with a large script). `nonstop run` keeps one standby per local rank
ready; at the next start of the workers (a restart, a node joining, the first start when the
standbys were ready before the rendezvous finished) torchrun's own code computes each rank's
environment as always, and instead of spawning a process it hands that environment to a
standby, which then runs the bootstrap exactly as a cold worker would. The training script's
contract is torchrun's: the same environment variables, argv and log files.

    agent                                   standby (python -m nonstop.supervisor.standby ...)
      spawn, stdin/stdout pipes   ------->    import torch, nonstop's runtime, the script's
                                  <-------    top-level imports; then "ready"
      hand-over (one JSON line)   ------->    environment, stdout/stderr files, argv
                                              -> bootstrap.main(argv), as a cold worker

A standby that cannot pre-import the script says "cold: <why>" and exits; the agent then
spawns cold and the ledger's `attempts.restart_path` records which path each attempt took.
So does one whose imports initialized CUDA: that context is on the standby's device (GPU 0)
and was made under the agent's CUDA_VISIBLE_DEVICES, before any rank's environment exists,
so every rank handed over would carry a context, and its memory, on GPU 0 (docs/gpu.md).
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from torch.distributed.elastic.multiprocessing.api import SubprocessContext

from nonstop import envvars, log

_log = log.get("standby")
READY = "ready"
# Besides the script's own top-level imports: what every nonstop worker loads before the
# script runs. Nothing else: a standby imports what a cold worker imports, in the same order
# relative to the process group. Pre-importing what torch loads lazily on first use (DDP's
# constructor pulls torch._dynamo, ~0.9 s; DCP ~0.5 s) saved that much per restart but made
# the DDP tutorial deadlock at exit in 7 of 15 warm runs (0 of 15 without): with torch._dynamo
# imported before init_process_group, a gloo thread freeing its work's thread-local state
# waited for the GIL that ~ProcessGroupGloo held (issue 20). A module that is not installed
# is skipped.
ALWAYS = ("torch", "torch.distributed", "nonstop.runtime", "nonstop.supervisor.bootstrap")


# -- the standby process -------------------------------------------------------------------


def script_imports(argv: list[str]) -> list[str]:
    """The modules a training command imports at its top level (ast; nothing is executed)."""
    as_module = bool(argv) and argv[0] == "-m"
    target = argv[1] if as_module else argv[0]
    if as_module:
        spec = importlib.util.find_spec(target)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            raise ImportError(f"cannot find the source of module {target}")
        path, package = Path(spec.origin), target.rpartition(".")[0]
    else:
        path, package = Path(target), ""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = "." * node.level + (node.module or "")
            names.append(importlib.util.resolve_name(base, package) if node.level else base)
    return names


# What torchrun (and nonstop run) set per worker: a standby does not have them while it
# imports, so a module that reads one at import would keep a wrong value forever.
RANK_ENV = envvars.PER_WORKER
# What a restart most likely gives a local rank again: its place in the job, not what changes
# with every attempt (the restart count, the attempt, the store's port, the error file). A
# script that reads these at import (Lightning and torchmetrics read RANK and LOCAL_RANK) can be
# pre-imported with the values of the attempt it replaces; the agent verifies them at the
# hand-over and discards a standby whose values differ.
PREDICTABLE = frozenset(
    {
        envvars.RANK,
        envvars.LOCAL_RANK,
        envvars.WORLD_SIZE,
        envvars.LOCAL_WORLD_SIZE,
        "GROUP_RANK",
        "GROUP_WORLD_SIZE",
        "ROLE_RANK",
        "ROLE_WORLD_SIZE",
        "ROLE_NAME",
        "MASTER_ADDR",
        "TORCHELASTIC_RUN_ID",
        "TORCHELASTIC_MAX_RESTARTS",
        "TORCHELASTIC_USE_AGENT_STORE",
        "TORCH_NCCL_ASYNC_ERROR_HANDLING",
        envvars.RUN_DIR,
        envvars.RUN_ID,
        envvars.HOST,
    }
)
UNPREDICTED = "unpredicted:"  # a standby's last word: it read a variable no attempt gave yet


_ENV_PLUMBING = frozenset({"os", "_collections_abc", "collections.abc", "collections"})


class RankEnvRead(Exception):
    """A module read a per-rank variable while a standby imported it."""


@contextlib.contextmanager
def _watch_rank_env(
    predicted: frozenset[str] = frozenset(), seen: dict[str, str] | None = None
) -> Iterator[list[str]]:
    """Record (and refuse) reads of per-rank variables through os.environ / os.getenv while
    the standby imports: `os.environ.get("RANK", "0")` at import would silently give every
    rank 0. The caller falls back to a cold start, where the variables exist.

    A `predicted` variable (set in the environment to the value the rank will most likely
    get) may be read: the read goes into `seen` (name -> value read), for the agent to verify
    at the hand-over against the rank's real environment."""
    reads: list[str] = []
    cls = type(os.environ)
    original = cls.__getitem__

    def getitem(self: Any, key: Any) -> Any:
        if self is os.environ and key in RANK_ENV:
            if key in predicted and seen is not None:
                value = original(self, key)
                seen[key] = value
                return value
            caller = sys._getframe(1)
            while caller is not None and caller.f_globals.get("__name__") in _ENV_PLUMBING:
                caller = caller.f_back  # type: ignore[assignment]
            where = caller.f_globals.get("__name__", "?") if caller is not None else "?"
            reads.append(f"{where} reads ${key} at import")
            raise RankEnvRead(reads[-1])
        return original(self, key)

    cls.__getitem__ = getitem  # type: ignore[method-assign]
    try:
        yield reads
    finally:
        cls.__getitem__ = original  # type: ignore[method-assign]


def _preimport(argv: list[str], predicted: dict[str, str] | None = None) -> dict[str, str]:
    """Import what the worker will import; raises (the standby then says `cold`) when the
    script cannot be imported here, or when any module reads a per-rank variable at import
    that is not `predicted`. Returns the predicted variables that were read, with the values
    read: the rank this standby may become must have the same."""
    os.environ.setdefault(envvars.TORCH_FR_BUFFER_SIZE, "2000")  # as the bootstrap sets it
    if argv and argv[0] != "-m":
        sys.path.insert(0, str(Path(argv[0]).resolve().parent))
    predicted = predicted or {}
    os.environ.update(predicted)  # replaced wholesale by the rank's environment at hand-over
    seen: dict[str, str] = {}
    with _watch_rank_env(frozenset(predicted), seen) as reads:
        try:
            for name in (*ALWAYS, *script_imports(argv)):
                importlib.import_module(name)
        except RankEnvRead:
            raise
        except BaseException:
            if reads:  # a module caught our refusal and failed later: report the read
                raise RankEnvRead(reads[0]) from None
            raise
    if reads:  # the module caught the refusal itself (`try: os.environ[...]` except ...)
        raise RankEnvRead(reads[0])
    _refuse_initialized_cuda()
    return seen


class CudaInitialized(Exception):
    """The script's imports initialized CUDA in the standby."""


def _refuse_initialized_cuda() -> None:
    torch = sys.modules.get("torch")
    cuda = getattr(torch, "cuda", None)
    try:
        initialized = cuda is not None and cuda.is_initialized()
    except Exception as e:  # a torch without the call: nothing initialized through it
        _log.debug("torch.cuda.is_initialized() unavailable (%r)", e)
        return
    if initialized:
        raise CudaInitialized(
            "the script's imports initialized CUDA: a warm rank would keep the standby's "
            "context on GPU 0, made before its own environment (CUDA_VISIBLE_DEVICES, "
            "LOCAL_RANK) existed; this script starts cold"
        )


def _take_over(msg: dict[str, Any]) -> list[str]:
    """Become the worker torchrun would have spawned: its environment and log files."""
    os.environ.clear()
    os.environ.update(msg["env"])
    for fd, path in ((1, msg.get("stdout")), (2, msg.get("stderr"))):
        if path:
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(f, fd)
            os.close(f)
    # the agent's stdin, which a cold worker inherits: a rank's `breakpoint()` reads the
    # terminal (or the pipe) under torchrun; the standby's own stdin was the agent's pipe
    stdin = msg.get("stdin_fd")
    if isinstance(stdin, int):
        os.dup2(stdin, 0)
        os.close(stdin)
    else:
        # the agent started with fd 0 closed (`<&-`, some schedulers' daemons), and so does a
        # cold worker, which inherits it: Python gives such a process `sys.stdin = None` and
        # a script's `sys.stdin is None` check, or an open() taking fd 0, sees that as it
        # would under torchrun (the standby had /dev/null there: an empty, readable stdin)
        with contextlib.suppress(OSError):
            os.close(0)
        sys.stdin = None
        sys.__stdin__ = None  # type: ignore[misc]
    _apply_thread_settings()
    return [str(a) for a in msg["args"]]


def _apply_thread_settings() -> None:
    """torch sized its intra-op pool from the standby's environment when it was imported; a
    cold worker sizes it from the rank's (torchrun sets OMP_NUM_THREADS=1 for several local
    ranks). A pool larger than the rank's share of the cores oversubscribes them."""
    torch = sys.modules.get("torch")
    value = os.environ.get(envvars.OMP_NUM_THREADS, "")
    if torch is None or not value.isdigit() or int(value) < 1:
        return
    if torch.get_num_threads() != int(value):
        torch.set_num_threads(int(value))


def standby_main(argv: list[str]) -> int:
    from nonstop.supervisor import bootstrap

    bootstrap._die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the agent stops us; a ^C is the agent's
    bootstrap.survive_warnings()  # Slurm's warning, forwarded to every task: an idle standby
    # must not die of it
    first = sys.stdin.readline()  # the prediction: {} when the agent has none yet
    try:
        predicted = {str(k): str(v) for k, v in json.loads(first or "{}").items()}
    except (ValueError, AttributeError) as e:
        print(f"cold: unreadable prediction from the agent ({e})", flush=True)
        return 0
    try:
        seen = _preimport(argv, predicted)
    except RankEnvRead as e:
        name = str(e).rsplit("$", 1)[-1].split()[0]
        if name in PREDICTABLE and name not in predicted:  # predictable once a rank has run
            print(f"{UNPREDICTED} {e}", flush=True)
            return 0
        print(f"cold: {e} (a standby imports before the rank's environment exists)", flush=True)
        return 0
    except CudaInitialized as e:
        print(f"cold: {e}", flush=True)
        return 0
    except BaseException as e:  # any failure means: start this script cold
        print(f"cold: pre-importing failed: {type(e).__name__}: {e}", flush=True)
        return 0
    print(f"{READY} {json.dumps(seen)}", flush=True)
    line = sys.stdin.readline()
    if not line.strip():  # the agent closed the pipe: not needed
        return 0
    worker_args = _take_over(json.loads(line))
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return bootstrap.main(worker_args[worker_args.index("nonstop.supervisor.bootstrap") + 1 :])


# -- the agent's side ----------------------------------------------------------------------


class Standby:
    """One waiting process; a reader thread learns whether it became ready, and which of the
    predicted variables its imports read (`seen`: what a rank must match to take it)."""

    def __init__(
        self, argv: list[str], log: Path, predicted: dict[str, str] | None = None, slot: int = 0
    ) -> None:
        log.parent.mkdir(parents=True, exist_ok=True)
        self._log: IO[str] = open(log, "a")  # noqa: SIM115 - closed in close()
        # a copy of the agent's stdin under its own number, for the rank to take over (None:
        # the agent started without one, so fd 0 may since be any file of its own)
        self._stdin_fd: int | None = None
        if sys.__stdin__ is not None:
            with contextlib.suppress(OSError):
                self._stdin_fd = os.dup(0)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-u", "-m", "nonstop.supervisor.standby", *argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                text=True,
                start_new_session=True,  # as torchrun's workers: the agent kills the group
                pass_fds=() if self._stdin_fd is None else (self._stdin_fd,),
            )
        finally:
            if self._stdin_fd is not None:
                os.close(self._stdin_fd)  # the standby holds it under the same number
        self.slot = slot  # the local rank it was predicted for
        self.predicted = dict(predicted or {})
        self.seen: dict[str, str] = {}
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):  # a standby dead at birth: its reader says so
            self.proc.stdin.write(json.dumps(self.predicted) + "\n")
            self.proc.stdin.flush()
        self.started = time.monotonic()
        self.state = "starting"  # starting, ready, cold (with why), unpredicted (why), gone
        self.why = ""
        threading.Thread(target=self._read, name="nonstop-standby", daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        with self.proc.stdout as out:
            line = out.readline().strip()
            word, _, rest = line.partition(" ")
            if word == READY:
                try:
                    self.seen = {str(k): str(v) for k, v in json.loads(rest or "{}").items()}
                    self.state = "ready"
                except (ValueError, AttributeError):
                    self.state, self.why = "cold", f"unreadable ready line {line!r}"
            elif word == UNPREDICTED:
                self.state, self.why = "unpredicted", rest
            else:
                self.state = "cold"
                self.why = line.removeprefix("cold: ") or "exited while starting"
            for _ in out:  # until the standby exits or takes over (its fd 1 becomes a log)
                pass

    def mismatch(self, env: dict[str, str]) -> str:
        """Why a rank with environment `env` cannot take this standby ('' when it can): a
        variable its imports read has another value in the rank's environment."""
        for name, value in sorted(self.seen.items()):
            if env.get(name) != value:
                return f"imported with ${name}={value}, the rank has {env.get(name)!r}"
        return ""

    def hand_over(
        self, env: dict[str, str], args: tuple, stdout: str | None, stderr: str | None
    ) -> None:
        assert self.proc.stdin is not None
        msg = {
            "env": env,
            "args": [str(a) for a in args],
            "stdout": stdout,
            "stderr": stderr,
            "stdin_fd": self._stdin_fd,
        }
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.close()
        self._log.close()

    def close(self) -> None:
        """Stop a standby that is no longer wanted (or already gone) and release its files."""
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with log.swallowed(_log, "waiting for a killed standby (it may be left unreaped)"):
            self.proc.wait(timeout=5)
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        self._log.close()


def first_prediction(slot: int, size: int, single_node: bool) -> dict[str, str]:
    """What local rank `slot` gets in a first attempt, as far as the command says: its local
    rank and the node's rank count; on a job of one node, its global place too."""
    guess = {envvars.LOCAL_RANK: str(slot), envvars.LOCAL_WORLD_SIZE: str(size)}
    if single_node:
        guess |= {
            envvars.RANK: str(slot),
            envvars.WORLD_SIZE: str(size),
            "GROUP_RANK": "0",
            "GROUP_WORLD_SIZE": "1",
            "ROLE_RANK": str(slot),
            "ROLE_WORLD_SIZE": str(size),
        }
    return guess


class StandbyPool:
    """`size` standbys for one training command on this node, one predicted for each local
    rank: each imports with the rank environment the last attempt gave that local rank (before
    any attempt: `first_prediction`), and `take` hands a rank only a standby whose imports read
    the same values."""

    def __init__(
        self, worker_args: list[str], size: int, log_dir: Path, single_node: bool = False
    ) -> None:
        self.argv = worker_args[worker_args.index("nonstop.supervisor.bootstrap") + 1 :]
        self.size, self.log_dir = size, log_dir
        self.waiting: list[Standby] = []
        self.disabled = ""  # why standbys are off for this command (it cannot be pre-imported)
        self.unpredicted = ""  # why none are started until an attempt gives the predictions
        self.predictions = {r: first_prediction(r, size, single_node) for r in range(size)}
        self.discarded: list[str] = []  # why standbys were dropped at a hand-over (said once)
        self._spawned = 0

    def fill(self) -> None:
        """Spawn standbys up to `size` (from the main thread: PR_SET_PDEATHSIG follows the
        thread that spawned the process), each for the local rank with the fewest waiting."""
        self._reap()
        while not self.disabled and not self.unpredicted and len(self.waiting) < self.size:
            log = self.log_dir / f"standby-{self._spawned}.log"
            self._spawned += 1
            held = [s.slot for s in self.waiting]
            slot = min(range(self.size), key=lambda r: (held.count(r), r))
            self.waiting.append(Standby(self.argv, log, self.predictions.get(slot), slot))

    def predict(self, envs: list[dict[str, str]]) -> None:
        """The environments an attempt gave its local ranks: the next standbys import with
        them, and waiting ones whose imports read other values are dropped now."""
        self.predictions = {
            r: {k: v for k, v in env.items() if k in PREDICTABLE} for r, env in enumerate(envs)
        }
        self.unpredicted = ""
        stale = [
            s
            for s in self.waiting
            if s.state == "ready" and s.mismatch(self.predictions.get(s.slot, {}))
        ]
        for s in stale:
            s.close()
        self.waiting = [s for s in self.waiting if s not in stale]

    def _reap(self) -> None:
        """Learn from standbys that exited: one that could not pre-import the script turns
        standbys off for this command (else every refill would fail the same way); one that
        read a variable no attempt has given yet stops refills until an attempt gives it; the
        others (killed, crashed) are dropped, to be replaced. An exited one whose last word is
        not read yet stays until it is."""
        for s in self.waiting:
            if s.state == "cold" and not self.disabled:
                self.disabled = f"the script cannot be pre-imported ({s.why})"
            if s.state == "unpredicted" and not self.unpredicted:
                self.unpredicted = f"the script reads the rank's environment at import ({s.why})"
        gone = [s for s in self.waiting if s.proc.poll() is not None and s.state != "starting"]
        for s in gone:
            s.close()
        self.waiting = [s for s in self.waiting if s not in gone]

    @property
    def importing(self) -> bool:
        """Some standby is still starting (importing: it competes with the ranks for CPU)."""
        return any(s.state == "starting" and s.proc.poll() is None for s in self.waiting)

    @property
    def short(self) -> bool:
        return not self.disabled and not self.unpredicted and len(self.waiting) < self.size

    def _match(self, envs: list[dict[str, str]], ready: list[Standby]) -> list[Standby] | None:
        """One ready standby per rank whose imports read what that rank gets (its own
        local rank's first), or None."""
        taken: list[Standby] = []
        for r, env in enumerate(envs):
            fits = [s for s in ready if s not in taken and not s.mismatch(env)]
            if not fits:
                return None
            fits.sort(key=lambda s: s.slot != r)
            taken.append(fits[0])
        return taken

    def take(
        self, n: int, wait_s: float = 0.0, envs: list[dict[str, str]] | None = None
    ) -> tuple[list[Standby] | None, str]:
        """n ready standbys (in local-rank order, each fit for that rank's environment
        `envs[r]`), or None and why not. Waits up to `wait_s` for ones still importing (less
        than a cold start costs). Standbys that fit no rank of this attempt are dropped."""
        deadline = time.monotonic() + wait_s
        envs = envs if envs is not None else [{} for _ in range(n)]
        while True:
            self._reap()
            if self.disabled:
                return None, self.disabled
            alive = [s for s in self.waiting if s.proc.poll() is None]
            ready = [s for s in alive if s.state == "ready"]
            taken = self._match(envs, ready) if len(ready) >= n else None
            if taken is not None:
                self.waiting = [s for s in self.waiting if s not in taken]
                return taken, ""
            starting = [s for s in alive if s.state == "starting"]
            if not starting or len(alive) < n or time.monotonic() >= deadline:
                return None, self._why_not(n, envs, ready)
            time.sleep(0.02)

    def _why_not(self, n: int, envs: list[dict[str, str]], ready: list[Standby]) -> str:
        unfit = [s for s in ready if all(s.mismatch(env) for env in envs)]
        for s in unfit:  # imported for another place in the job: of no use to this one
            self.discarded.append(f"standby for local rank {s.slot} {s.mismatch(envs[0])}")
            s.close()
        self.waiting = [s for s in self.waiting if s not in unfit]
        if unfit:
            return f"{len(unfit)} standbys discarded ({self.discarded[-1]})"
        if self.unpredicted and len(ready) < n:
            return self.unpredicted
        return f"{len(ready)} of {n} standbys ready"

    def close(self) -> None:
        for s in self.waiting:
            s.close()
        self.waiting = []


class _Adopted:
    """What SubprocessContext expects of a worker handler, for a standby that took over."""

    def __init__(self, standby: Standby, local_rank: int) -> None:
        self.proc, self.local_rank_id = standby.proc, local_rank

    def close(self, death_sig: signal.Signals | None = None) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, death_sig or signal.SIGTERM)


class StandbyContext(SubprocessContext):
    """torchrun's process context, whose processes were standbys instead of new ones."""

    def __init__(self, standbys: list[Standby], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._standbys = standbys

    def _start(self) -> None:
        base = os.environ.copy()
        for local_rank, standby in enumerate(self._standbys):
            env = {**base, **self.envs[local_rank]}
            standby.hand_over(
                env,
                self.args[local_rank],
                self.stdouts[local_rank] or None,
                self.stderrs[local_rank] or None,
            )
        adopted: dict[int, Any] = {r: _Adopted(s, r) for r, s in enumerate(self._standbys)}
        self.subprocess_handlers = adopted  # what SubprocessContext polls and closes


if __name__ == "__main__":
    from nonstop.supervisor.bootstrap import run_then_exit

    run_then_exit(standby_main, sys.argv[1:])
