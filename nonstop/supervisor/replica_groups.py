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

Across hosts (groups of nodes), one command per node, as with torchrun; the run directory is
on a filesystem every node shares (as for any multi-node `nonstop run`), the rendezvous
endpoint is one for the whole job and each group meets there under its own id:

    # node 0: group 0, and the job's Lighthouse and rendezvous store
    nonstop run --replica-groups 2 --replica-group 0 --serve-lighthouse \
        --lighthouse node0:29510 --nnodes 1 --rdzv-backend c10d --rdzv-endpoint node0:29400 \
        --rdzv-id job7 --run-dir /shared/runs/job7 -m nonstop.workloads.llama.train \
        --fault-tolerant
    # node 1: group 1; node 2, the same command: group 1's spare (--nnodes 1:1, waits)
    nonstop run --replica-groups 2 --replica-group 1 --lighthouse node0:29510 --nnodes 1:1 \
        --rdzv-backend c10d --rdzv-endpoint node0:29400 --rdzv-id job7 ...

    <run dir>/replica_groups.json                the job (written by the first node; the
                                                 same from every node, else refused)
    <run dir>/replica_groups.<host>.g<i>.jsonl   each node's parent's events (its group's
                                                 starts and exits; the serving node's
                                                 Lighthouse restarts), or .lighthouse.jsonl
    <run dir>/groups/g<i>/                       group i's run directory, shared by its nodes
                                                 (an ordinary multi-node run: rendezvous id
                                                 <rdzv-id>-g<i>)
    <run dir>/groups/g<i>.<host>.log             that node's agent's console
    <run dir>/lighthouse.<host>.log              the serving node's Lighthouse

The serving node's parent hosts the groups' rendezvous store itself (a TCPStore on
--rdzv-endpoint's port; the agents there find the port taken and connect to it), so that no
group's exit, exclusion or end takes another group's rendezvous with it, and it serves both
until the job finished (the `finished` marker) and --exit-timeout passed.
"""

from __future__ import annotations

import json
import os
import re
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
from nonstop.supervisor.lighthouse import Lighthouse, serve_store

_log = log.get("supervisor")

GROUPS_JSON = "replica_groups.json"
EVENTS_JSONL = "replica_groups.jsonl"
FINISHED = "finished"  # written in the run directory by the first group that finishes
GROUP_ID, NUM_GROUPS, LIGHTHOUSE = "REPLICA_GROUP_ID", "NUM_REPLICA_GROUPS", "TORCHFT_LIGHTHOUSE"

# flags the parent owns or that cannot be shared by several groups on one host


_STRIPPED = ("--replica-groups", "--run-dir", "--inject", "--replica-group", "--lighthouse")
_STRIPPED_BARE = ("--serve-lighthouse",)  # flags without a value
_RDZV_ID = ("--rdzv-id", "--rdzv_id")  # across hosts: replaced by <id>-g<i>
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


def across_hosts(args: Any) -> bool:
    """This node runs one group of a job across hosts, or serves its Lighthouse."""
    return getattr(args, "replica_group", None) is not None or bool(
        getattr(args, "serve_lighthouse", False)
    )


def check_request(args: Any) -> None:
    """UserError (one line, exit 2) before anything starts: a group count below 1, several
    nodes without --replica-group, a bad across-hosts combination, a flag the groups cannot
    share, or a script that does not use torchft."""
    g = args.replica_groups
    hosts = across_hosts(args)
    if not g:
        if hosts or getattr(args, "lighthouse", None):
            raise UserError(
                "--replica-group, --lighthouse and --serve-lighthouse are for replica groups "
                "across hosts: add --replica-groups G (the job's number of groups)"
            )
        return
    if g < 1:
        raise UserError(f"--replica-groups must be 1 or more, got {g}")
    if hosts:
        _check_hosts(args)
    elif args.lighthouse:
        raise UserError(
            "--lighthouse names the Lighthouse of groups across hosts: add --replica-group g "
            "(this node's group), or drop it (on one host the Lighthouse is local)"
        )
    elif args.nnodes.split(":")[-1] not in ("1", ""):
        raise UserError(
            "--replica-groups runs every group on this host (--nnodes 1) unless --replica-group "
            "g and --lighthouse HOST:PORT name this node's group across hosts (docs/run.md)"
        )
    refused = (
        {"memory_checkpoint_every": _REFUSED["memory_checkpoint_every"]} if hosts else _REFUSED
    )
    for name, why in refused.items():
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


def _check_hosts(args: Any) -> None:
    """Across hosts: this node's group one of the job's, the Lighthouse's address, a run
    directory every node names alike, and a c10d rendezvous for a group of several nodes."""
    g, r = args.replica_groups, args.replica_group
    if r is not None and not 0 <= r < g:
        raise UserError(f"--replica-group {r} is not one of this job's groups (0-{g - 1})")
    host, _, port = (args.lighthouse or "").rpartition(":")
    if not args.lighthouse:
        raise UserError(
            "--replica-group and --serve-lighthouse need --lighthouse HOST:PORT: the address "
            "every group's Manager reaches (one node serves it with --serve-lighthouse)"
        )
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(f"--lighthouse must be HOST:PORT, got {args.lighthouse!r}")
    if not args.run_dir:
        raise UserError(
            "--replica-group: pass --run-dir, the same path on every node (a shared "
            "filesystem): the groups' run directories and the job's marker live there"
        )
    if args.standalone:
        raise UserError("--replica-group: --standalone is one node's private rendezvous; "
                        "pass --rdzv-endpoint")  # fmt: skip
    elastic = args.nnodes not in ("1", "1:1")
    if (elastic or args.serve_lighthouse) and args.rdzv_endpoint and args.rdzv_backend != "c10d":
        raise UserError(
            f"--replica-group: --rdzv-backend {args.rdzv_backend}: a group's nodes (and its "
            "spares) meet in a c10d rendezvous; pass --rdzv-backend c10d"
        )
    if args.serve_lighthouse:  # what it serves must be reachable at the addresses given
        for flag, value in (
            ("--lighthouse", args.lighthouse),
            ("--rdzv-endpoint", args.rdzv_endpoint),
        ):
            where = (value or "").rpartition(":")[0] or value
            if value and not _is_local(where):
                raise UserError(
                    f"--serve-lighthouse: {flag} {value} is not this node ({where} is none of "
                    "its addresses); serve on the node it names"
                )
    if elastic and not args.rdzv_endpoint:
        raise UserError(
            f"--replica-group with --nnodes {args.nnodes}: the group's nodes meet at "
            "--rdzv-endpoint HOST:PORT (the same on every node of the job)"
        )


def _is_local(host: str) -> bool:
    """`host` resolves to an address of this machine (one a socket can bind)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), None, proto=socket.IPPROTO_TCP)
    except OSError:
        return False
    for family, _, _, _, addr in infos:
        try:
            with socket.socket(family, socket.SOCK_STREAM) as s:
                s.bind((addr[0], 0))
            return True
        except OSError:
            continue
    return False


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


def group_argv(
    argv: list[str], script_args: int, strip: tuple[str, ...] = ()
) -> tuple[list[str], list[str]]:
    """(nonstop's and torchrun's flags without those the parent owns (and `strip`), the
    script and its arguments) from `nonstop run`'s argv."""
    cut = len(argv) - 1 - script_args
    head, tail = argv[:cut], argv[cut:]
    out, skip = [], False
    for a in head:
        if skip:
            skip = False
            continue
        name = a.split("=", 1)[0]
        if name in _STRIPPED_BARE:
            continue
        if name in _STRIPPED or name in strip:
            skip = "=" not in a
            continue
        out.append(a)
    return out, tail


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    log_path: Path | None = None  # its console; default groups/g<i>.log

    @property
    def console(self) -> Path:
        return self.log_path or self.run_dir.with_suffix(".log")


class ReplicaGroups:
    """The parent of G `nonstop run` agents and the Lighthouse; `run()` returns the exit code."""

    def __init__(
        self,
        root: Path,
        groups: list[Group],
        lighthouse: Lighthouse | None,
        *,
        exit_timeout_s: float,
        echo: Callable[[str], None] = print,
        num_groups: int | None = None,
        address: str | None = None,
        events: str = EVENTS_JSONL,
        store_endpoint: str | None = None,
    ) -> None:
        """Across hosts (`num_groups` given): `groups` is this node's one group (or none),
        `lighthouse` the one it serves (or None; `address` where the groups reach it),
        `store_endpoint` the groups' rendezvous store it serves; it watches the job's
        `finished` marker, and serves until it is there."""
        self.root, self.groups, self.lighthouse = root, groups, lighthouse
        self.exit_timeout_s = exit_timeout_s
        self.echo = echo
        self.hosts = num_groups is not None
        self.num_groups = num_groups if num_groups is not None else len(groups)
        assert address is not None or lighthouse is not None
        self.address = address or (lighthouse.address if lighthouse else "")
        self.store_endpoint = store_endpoint
        self._store: Any = None  # the TCPStore served, kept alive here
        self._signal: int | None = None
        self._events = open(root / events, "a")  # noqa: SIM115 (closed in run)

    @property
    def serving(self) -> bool:
        return self.lighthouse is not None or self.store_endpoint is not None

    def event(self, kind: str, **payload: Any) -> None:
        rec = {"time": time.time(), "kind": kind, **payload}
        self._events.write(json.dumps(rec) + "\n")
        self._events.flush()

    def _start_group(self, g: Group) -> None:
        env = dict(os.environ)
        env.update(
            {
                GROUP_ID: str(g.index),
                NUM_GROUPS: str(self.num_groups),
                LIGHTHOUSE: self.address,
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
        with open(g.console, "ab") as f:
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
        if self.lighthouse is not None:
            self.lighthouse.start()
            self.event("lighthouse_started", address=self.lighthouse.address)
        if self.store_endpoint is not None:
            self._store = serve_store(self.store_endpoint)
            self.event("store_started", endpoint=self.store_endpoint)
        if not self.hosts:
            self.echo(
                f"nonstop run: {len(self.groups)} replica groups; torchft Lighthouse at "
                f"{self.address}"
            )
        else:
            mine = ", ".join(f"group {g.index}" for g in self.groups) or "no group"
            served = " (served here)" if self.lighthouse is not None else ""
            self.echo(
                f"nonstop run: {mine} of {self.num_groups} replica groups on this node; torchft "
                f"Lighthouse at {self.address}{served}"
                + (f"; rendezvous store at {self.store_endpoint}" if self._store else "")
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
            if self.lighthouse is not None:
                self.lighthouse.stop()
            self._store = None
            self.event("ended", serving=self.hosts and self.serving)
            self._events.close()
        return self._exit_code()

    def _watch(self) -> None:
        finished_at: float | None = None
        stopped, next_scan = False, 0.0
        while True:
            time.sleep(0.2)
            if (
                self.lighthouse is not None and not self.lighthouse.alive()
            ):  # its state is soft: quorums form again at once
                code = self.lighthouse.proc.poll() if self.lighthouse.proc else None
                self.lighthouse.restarts += 1
                self.echo(
                    f"nonstop run: torchft's Lighthouse exited (code {code}); restarting it "
                    f"on port {self.lighthouse.port} (restart {self.lighthouse.restarts})"
                )
                self.event("lighthouse_restarted", exit_code=code)
                try:
                    self.lighthouse.start()
                except UserError as e:  # its port still held: the next tick tries again
                    _log.warning(f"restarting torchft's Lighthouse: {e}")
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
            now = time.monotonic()
            if finished_at is None and self.hosts and now >= next_scan:
                next_scan = now + 1.0
                if (self.root / FINISHED).exists() and a_group_finished(self.root):
                    finished_at = now  # another node's group finished the job and exited
            running = [g for g in self.groups if g.code is None]
            if not running and (not self.serving or self._signal is not None):
                return
            if finished_at is not None and now - finished_at > self.exit_timeout_s:
                if not running:
                    return  # serving: the job finished a while ago, nobody needs us
                if not stopped:  # the job is done: a group still away stops
                    stopped = True
                    for g in running:
                        if g.proc is not None:
                            self.event("group_stopped", group=g.index, why="the job finished")
                            g.proc.send_signal(signal.SIGTERM)

    def _exit_code(self) -> int:
        from nonstop.supervisor import policy

        codes = [g.code for g in self.groups]
        if not codes:  # serving only
            return policy.EXIT_REQUEUE if self._signal is not None else 0
        if self._signal is not None and all(c in (0, policy.EXIT_REQUEUE) for c in codes):
            return policy.EXIT_REQUEUE if any(c == policy.EXIT_REQUEUE for c in codes) else 0
        if any(c == 0 for c in codes):
            return 0  # the model is trained; a group lost on the way is in the report
        bad = [c for c in codes if c]
        return bad[0] if bad else policy.EXIT_FAILED


def a_group_finished(root: Path) -> bool:
    """Across hosts: some node's group exited 0 (its parent's `group_ended` event), as the
    one-host parent sees its own groups exit: a group's rank writes `finished` before its
    agent has stopped, which can take seconds."""
    for path in root.glob("replica_groups.*.jsonl"):
        try:
            text = path.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if '"group_ended"' not in line:
                continue
            try:
                if json.loads(line).get("exit_code") == 0:
                    return True
            except ValueError:
                continue  # a line being written
    return False


def _write_once(path: Path, info: dict[str, Any], what: str) -> None:
    """`info` into `path` unless a node wrote it first; refused when that one differs in what
    every node must pass alike."""
    if path.exists():
        have = json.loads(path.read_text())
        keys = ("replica_groups", "lighthouse")
        if any(have.get(k) != info[k] for k in keys):
            raise UserError(
                f"{path.parent} holds {what} with {have.get('replica_groups')} groups and the "
                f"Lighthouse at {have.get('lighthouse')}: pass the same --replica-groups and "
                "--lighthouse on every node, or a new --run-dir"
            )
        return
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(info, indent=1))
    os.replace(tmp, path)


def main_hosts(args: Any, argv: list[str]) -> int:
    """One node of `nonstop run --replica-groups G` across hosts: its group's agent
    (--replica-group), the Lighthouse and rendezvous store (--serve-lighthouse), or both."""
    g_count, mine = args.replica_groups, args.replica_group
    per_group = split_faults(list(args.inject), g_count)
    root = Path(args.run_dir)
    if (root / FINISHED).exists():
        raise UserError(f"{root} holds a finished replica-group job: pass a new --run-dir")
    rundir.create(root)
    (root / "groups").mkdir(exist_ok=True)
    host = args.host_name or os.environ.get(rundir.ENV_HOST) or socket.gethostname()
    lh_host, _, lh_port = args.lighthouse.rpartition(":")
    address = f"http://{lh_host}:{lh_port}"
    info = {
        "replica_groups": g_count,
        "across_hosts": True,
        "lighthouse": address,
        "nproc_per_node": args.nproc_per_node,
        "groups": [{"group": i, "run_dir": str(group_dir(root, i))} for i in range(g_count)],
    }
    _write_once(root / GROUPS_JSON, info, "another replica-group job")
    rdzv_id = args.rdzv_id if args.rdzv_id not in (None, "", "none") else root.name
    head, tail = group_argv(argv, len(args.training_script_args), strip=_RDZV_ID)
    groups = []
    if mine is not None:
        d = group_dir(root, mine)
        a = [*head, "--run-dir", str(d), "--quiet", "--rdzv-id", f"{rdzv_id}-g{mine}"]
        for spec in per_group[mine]:
            a += ["--inject", spec]
        log_path = root / "groups" / f"g{mine}.{host}.log"
        groups.append(Group(index=mine, run_dir=d, argv=[*a, *tail], log_path=log_path))
    lighthouse = None
    if args.serve_lighthouse:
        lighthouse = Lighthouse(
            port=int(lh_port),
            host=lh_host,
            bind_host="0.0.0.0",
            log_path=root / f"lighthouse.{host}.log",
        )
    name = f"{host}.g{mine}" if mine is not None else f"{host}.lighthouse"
    log.setup(log.RUN)
    parent = ReplicaGroups(
        root,
        groups,
        lighthouse,
        exit_timeout_s=args.exit_timeout,
        num_groups=g_count,
        address=address,
        events=f"replica_groups.{name}.jsonl",
        store_endpoint=args.rdzv_endpoint if args.serve_lighthouse else None,
    )
    parent.event("node_started", host=host, group=mine, argv=argv, serve=args.serve_lighthouse)
    code = parent.run()
    print(f"nonstop run: this node's part ended (exit {code}); see `nonstop report {root}`")
    return code


def main(args: Any, argv: list[str], cfg_dict: Callable[[Path], dict[str, Any]]) -> int:
    """`nonstop run --replica-groups G ...`; `args` parsed by nonstop run's parser (checked),
    `cfg_dict(root)` this job's resolved SupervisorConfig as config.json records it."""
    check_request(args)
    if across_hosts(args):
        return main_hosts(args, argv)
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
