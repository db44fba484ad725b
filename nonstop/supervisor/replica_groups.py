"""`nonstop run --replica-groups G`: G replica groups on torchft, each its own `nonstop run`.

A failure in one group stops and restarts that group only; the others train on with fewer
replicas, and the group that comes back heals from a live one through torchft (its Manager
sends the model, the optimizer and the step), not from storage. The layout:

    nonstop run --replica-groups 2 --nproc-per-node 1 \\
        -m nonstop.workloads.llama.train --fault-tolerant --steps 200

    <run dir>/config.json              this job's settings (SupervisorConfig.replica_groups)
    <run dir>/replica_groups.json      the groups, their run directories, the Lighthouse
    <run dir>/replica_groups.jsonl     this supervisor's events (group exits, Lighthouse restarts)
    <run dir>/groups/g<i>/             group i's own run directory: ledger, events, logs
    <run dir>/groups/g<i>.log          group i's supervisor console

Each group is one ordinary `nonstop run` agent with its own private rendezvous and its own
attempts, so detection, evidence, classification, health checks, exclusion and the ledger are
nonstop's, per group. This module is the small parent above them: it checks the request
before anything starts (the script must use torchft), starts torchft's Lighthouse (its Rust
LighthouseServer, loaded without torch; else its `torchft_lighthouse` entry point) and restarts it on the same
port if it dies, starts the groups with the environment torchft's own launcher gives them
(REPLICA_GROUP_ID, NUM_REPLICA_GROUPS, TORCHFT_LIGHTHOUSE; MASTER_ADDR/PORT come from each
group's agent), forwards the scheduler's signals (a planned stop of every group), and routes
`--inject ...,group=N` to group N. The report reads the groups' ledgers together
(nonstop.report.replica_groups).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from nonstop import envvars, log, rundir
from nonstop.errors import UserError

_log = log.get("supervisor")

GROUPS_JSON = "replica_groups.json"
EVENTS_JSONL = "replica_groups.jsonl"
FINISHED = "finished"  # written in the run directory by the first group that finishes
GROUP_ID, NUM_GROUPS, LIGHTHOUSE = "REPLICA_GROUP_ID", "NUM_REPLICA_GROUPS", "TORCHFT_LIGHTHOUSE"

# flags the parent owns or that cannot be shared by several groups on one host
_STRIPPED = ("--replica-groups", "--run-dir", "--inject")
_REFUSED = {
    "rdzv_endpoint": "--rdzv-endpoint: each replica group gets its own private rendezvous",
    "rdzv_fallback_endpoints": "--rdzv-fallback-endpoints: each group's rendezvous is local",
    "metrics_port": "--metrics-port: one port cannot serve several groups' agents",
    "memory_checkpoint_every": "--memory-checkpoint-every: a replica group heals from a live "
    "peer group (torchft), not from memory snapshots",
}
# scripts that use torchft only with a flag (the demo's Llama)
_NEEDS_FLAG = {"nonstop.workloads.llama.train": "--fault-tolerant"}
_USES_TORCHFT = re.compile(r"^\s*(from\s+torchft[\s.]|import\s+torchft\b)", re.M)


def group_dir(root: Path, group: int) -> Path:
    return root / "groups" / f"g{group}"


def check_request(args: Any) -> None:
    """UserError (one line, exit 2) before anything starts: a group count below 1, several
    nodes, a flag the groups cannot share, or a script that does not use torchft."""
    g = args.replica_groups
    if g < 1:
        raise UserError(f"--replica-groups must be 1 or more, got {g}")
    if args.nnodes.split(":")[-1] not in ("1", ""):
        raise UserError(
            "--replica-groups runs every group on this host (--nnodes 1); groups of nodes are "
            "not supported yet"
        )
    for name, why in _REFUSED.items():
        if getattr(args, name, None):
            raise UserError(f"{why} (not with --replica-groups)")
    if args.no_python:
        raise UserError("--replica-groups needs a Python training script (drop --no-python)")
    script, rest = args.training_script, list(args.training_script_args)
    flag = _NEEDS_FLAG.get(script if args.module else "")
    if flag is not None:
        if flag not in rest:
            raise UserError(
                f"--replica-groups: -m {script} uses torchft only with {flag}; add it after the "
                "module name"
            )
        return
    from nonstop.faults import _script_source

    source = _script_source(script, args.module)
    if source is not None and not _USES_TORCHFT.search(source):
        raise UserError(
            f"--replica-groups: {script} does not use torchft (no `import torchft`); each group "
            "must train through torchft's Manager to heal from a live peer"
        )


def split_faults(specs: list[str], groups: int) -> list[list[str]]:
    """Each group's --inject specs: `group=N` sends a spec to group N only (without the key);
    a spec without it goes to every group."""
    out: list[list[str]] = [[] for _ in range(groups)]
    for spec in specs:
        kind, _, params = spec.partition("@")
        keep, target = [], None
        for kv in params.split(",") if params else []:
            k, _, v = kv.partition("=")
            if k.strip() == "group":
                if not v.strip().isdigit() or int(v) >= groups:
                    raise UserError(
                        f"fault {spec!r}: group={v} is not one of this job's groups "
                        f"(0-{groups - 1})"
                    )
                target = int(v)
            else:
                keep.append(kv)
        plain = kind + ("@" + ",".join(keep) if keep else "")
        for g in range(groups) if target is None else (target,):
            out[g].append(plain)
    return out


def group_argv(argv: list[str], script_args: int) -> tuple[list[str], list[str]]:
    """(nonstop's and torchrun's flags without those the parent owns, the script and its
    arguments) from `nonstop run`'s argv."""
    cut = len(argv) - 1 - script_args
    head, tail = argv[:cut], argv[cut:]
    out, skip = [], False
    for a in head:
        if skip:
            skip = False
            continue
        name = a.split("=", 1)[0]
        if name in _STRIPPED:
            skip = "=" not in a
            continue
        out.append(a)
    return out, tail


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _torchft_extension() -> str | None:
    """The path of torchft's compiled extension (its Lighthouse), found without importing
    torchft; None when torchft is not installed."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("torchft")
    except (ImportError, ValueError):
        return None
    for d in (spec.submodule_search_locations or []) if spec else []:
        for p in sorted(Path(d).glob("_torchft*.so")):
            return str(p)
    return None


@dataclass
class Lighthouse:
    """torchft's Lighthouse as a child process on a fixed port (so a restart keeps its address
    for every group's Manager)."""

    port: int
    join_timeout_ms: int = 1000
    heartbeat_timeout_ms: int = 5000
    log_path: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = 0

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        opts = [
            "--min_replicas",
            "1",
            "--join_timeout_ms",
            str(self.join_timeout_ms),
            "--quorum_tick_ms",
            "100",
            "--heartbeat_timeout_ms",
            str(self.heartbeat_timeout_ms),
        ]
        lib = _torchft_extension()
        if lib is None:  # torchft's own entry point (it imports torch first: seconds)
            binary = Path(sys.executable).parent / "torchft_lighthouse"
            found = str(binary) if binary.exists() else shutil.which("torchft_lighthouse")
            if not found:
                raise UserError("--replica-groups needs torchft (pip install torchft==0.2.0)")
            return [found, "--bind", f"127.0.0.1:{self.port}", *opts]
        # torchft's Rust LighthouseServer loaded alone, without torchft's package and torch:
        # it serves in half a second, so a restart is over before the groups' quorums time out
        code = (
            "import importlib.util as u, sys, time; "
            f"s = u.spec_from_file_location('torchft._torchft', {lib!r}); "
            "m = u.module_from_spec(s); s.loader.exec_module(m); "
            f"h = m.LighthouseServer(bind='127.0.0.1:{self.port}', min_replicas=1, "
            f"join_timeout_ms={self.join_timeout_ms}, quorum_tick_ms=100, "
            f"heartbeat_timeout_ms={self.heartbeat_timeout_ms}); "
            "print('lighthouse at', h.address(), flush=True); time.sleep(1e9)"
        )
        return [sys.executable, "-c", code]

    def start(self) -> None:
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(
                self.command(), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        finally:
            if out is not subprocess.DEVNULL:
                out.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # serving once its port accepts a connection
            if self.proc.poll() is not None:
                raise UserError(f"torchft's Lighthouse exited at start (see {self.log_path})")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise UserError(f"torchft's Lighthouse did not listen on port {self.port} in 30 s")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@dataclass
class Group:
    index: int
    run_dir: Path
    argv: list[str]
    proc: subprocess.Popen[bytes] | None = None
    code: int | None = None
    started: float = 0.0
    ended: float | None = None
    pump: threading.Thread | None = None
    extra_env: dict[str, str] = field(default_factory=dict)


class ReplicaGroups:
    """The parent of G `nonstop run` agents and the Lighthouse; `run()` returns the exit code."""

    def __init__(
        self,
        root: Path,
        groups: list[Group],
        lighthouse: Lighthouse,
        *,
        exit_timeout_s: float,
        echo: Callable[[str], None] = print,
    ) -> None:
        self.root, self.groups, self.lighthouse = root, groups, lighthouse
        self.exit_timeout_s = exit_timeout_s
        self.echo = echo
        self._signal: int | None = None
        self._events = open(root / EVENTS_JSONL, "a")  # noqa: SIM115 (closed in run)

    def event(self, kind: str, **payload: Any) -> None:
        rec = {"time": time.time(), "kind": kind, **payload}
        self._events.write(json.dumps(rec) + "\n")
        self._events.flush()

    def _start_group(self, g: Group) -> None:
        env = dict(os.environ)
        env.update(
            {
                GROUP_ID: str(g.index),
                NUM_GROUPS: str(len(self.groups)),
                LIGHTHOUSE: self.lighthouse.address,
                envvars.REPLICA_GROUPS_DIR: str(self.root),
                # a new store per attempt: torchft's Manager keeps its own keys in the group's
                # store, which the next attempt must not read back
                envvars.TORCH_DISABLE_SHARE_RDZV_TCP_STORE: "1",
                # a quorum that failed because the Lighthouse was restarting is asked again;
                # torchft sleeps quorum_timeout / (retries + 1) before each retry: 60 s / 61,
                # under a second (with 10 it was 5.5 s, over a group's 5 s hang timeout: a
                # killed Lighthouse got every group called hung and restarted from step 0)
                "TORCHFT_QUORUM_RETRIES": os.environ.get("TORCHFT_QUORUM_RETRIES", "60"),
                # torchft's Rust side logs every quorum and commit at INFO otherwise
                "RUST_LOG": os.environ.get("RUST_LOG", "warn"),
                **g.extra_env,
            }
        )
        cmd = [sys.executable, "-m", "nonstop.cli", "run", *g.argv]
        g.started = time.time()
        g.proc = subprocess.Popen(
            cmd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the terminal's Ctrl-C reaches the groups through us
        )
        g.pump = threading.Thread(
            target=self._pump, args=(g, g.proc.stdout), daemon=True, name=f"group-{g.index}"
        )
        g.pump.start()
        self.event("group_started", group=g.index, pid=g.proc.pid, run_dir=str(g.run_dir))

    def _pump(self, g: Group, stream: IO[bytes] | None) -> None:
        """The group's console into groups/g<i>.log; its status lines also here, prefixed."""
        if stream is None:
            return
        with open(g.run_dir.with_suffix(".log"), "ab") as f:
            for raw in stream:
                f.write(raw)
                f.flush()
                line = raw.decode(errors="replace").rstrip()
                if line.startswith("nonstop run:") or "[train]" in line:
                    self.echo(f"[group {g.index}] {line}")

    def on_signal(self, signum: int, frame: Any) -> None:
        self._signal = signum
        for g in self.groups:
            if g.proc is not None and g.proc.poll() is None:
                with log.swallowed(_log, f"forwarding signal {signum} to group {g.index}"):
                    g.proc.send_signal(signum)

    def run(self) -> int:
        self.lighthouse.start()
        self.event("lighthouse_started", address=self.lighthouse.address)
        self.echo(
            f"nonstop run: {len(self.groups)} replica groups; torchft Lighthouse at "
            f"{self.lighthouse.address}"
        )
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1, signal.SIGUSR2):
            signal.signal(sig, self.on_signal)
        try:
            for g in self.groups:
                self._start_group(g)
            self._watch()
        finally:
            for g in self.groups:  # never leave a group behind (an exception above)
                if g.proc is not None and g.proc.poll() is None:
                    g.proc.kill()
                    g.proc.wait()
            self.lighthouse.stop()
            self.event("ended")
            self._events.close()
        return self._exit_code()

    def _watch(self) -> None:
        finished_at: float | None = None
        while any(g.code is None for g in self.groups):
            time.sleep(0.2)
            if not self.lighthouse.alive():  # its state is soft: quorums form again at once
                code = self.lighthouse.proc.poll() if self.lighthouse.proc else None
                self.lighthouse.restarts += 1
                self.echo(
                    f"nonstop run: torchft's Lighthouse exited (code {code}); restarting it "
                    f"on port {self.lighthouse.port} (restart {self.lighthouse.restarts})"
                )
                self.event("lighthouse_restarted", exit_code=code)
                self.lighthouse.start()
            for g in self.groups:
                if g.code is None and g.proc is not None and g.proc.poll() is not None:
                    g.code, g.ended = g.proc.returncode, time.time()
                    if g.pump is not None:
                        g.pump.join(timeout=5)
                    self.event("group_ended", group=g.index, exit_code=g.code)
                    others = [o.index for o in self.groups if o.code is None]
                    if g.code == 0:
                        finished_at = finished_at or time.monotonic()
                    elif others:
                        self.echo(
                            f"nonstop run: replica group {g.index} stopped (exit {g.code}); "
                            f"groups {', '.join(map(str, others))} train on"
                        )
            if finished_at is not None and time.monotonic() - finished_at > self.exit_timeout_s:
                for g in self.groups:  # the job is done: a group still away stops
                    if g.code is None and g.proc is not None:
                        self.event("group_stopped", group=g.index, why="the job finished")
                        g.proc.send_signal(signal.SIGTERM)
                finished_at = float("inf")

    def _exit_code(self) -> int:
        from nonstop.supervisor import policy

        codes = [g.code for g in self.groups]
        if self._signal is not None and all(c in (0, policy.EXIT_REQUEUE) for c in codes):
            return policy.EXIT_REQUEUE if any(c == policy.EXIT_REQUEUE for c in codes) else 0
        if any(c == 0 for c in codes):
            return 0  # the model is trained; a group lost on the way is in the report
        bad = [c for c in codes if c]
        return bad[0] if bad else policy.EXIT_FAILED


def main(args: Any, argv: list[str], cfg_dict: Callable[[Path], dict[str, Any]]) -> int:
    """`nonstop run --replica-groups G ...`; `args` parsed by nonstop run's parser (checked),
    `cfg_dict(root)` this job's resolved SupervisorConfig as config.json records it."""
    check_request(args)
    per_group = split_faults(list(args.inject), args.replica_groups)
    root = Path(args.run_dir) if args.run_dir else rundir.default_root()
    if (root / GROUPS_JSON).exists() or (root / rundir.LEDGER).exists():
        raise UserError(
            f"{root} already holds a run; resuming replica groups is not supported yet: pass a "
            "new --run-dir"
        )
    rd = rundir.create(root)
    (root / "groups").mkdir(exist_ok=True)
    head, tail = group_argv(argv, len(args.training_script_args))
    groups = []
    for i in range(args.replica_groups):
        d = group_dir(root, i)
        a = [*head, "--run-dir", str(d), "--quiet"]
        for spec in per_group[i]:
            a += ["--inject", spec]
        groups.append(Group(index=i, run_dir=d, argv=[*a, *tail]))
    lighthouse = Lighthouse(port=_free_port(), log_path=root / "lighthouse.log")
    rd.write_config(
        {
            "run_id": root.name,
            "argv": argv,
            "started": time.time(),
            "supervisor": cfg_dict(root),
        }
    )
    (root / GROUPS_JSON).write_text(
        json.dumps(
            {
                "replica_groups": args.replica_groups,
                "nproc_per_node": args.nproc_per_node,
                "lighthouse": lighthouse.address,
                "groups": [{"group": g.index, "run_dir": str(g.run_dir)} for g in groups],
            },
            indent=1,
        )
    )
    log.setup(log.RUN)
    parent = ReplicaGroups(root, groups, lighthouse, exit_timeout_s=args.exit_timeout)
    code = parent.run()
    if code == 0:
        print(f"nonstop run: finished; see `nonstop report {root}`")
    else:
        print(f"nonstop run: failed (exit {code}); see `nonstop report {root}`")
    return code
