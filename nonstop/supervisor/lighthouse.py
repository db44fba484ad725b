"""The services of a replica-group job that outlive every group: torchft's Lighthouse (every
group's Manager asks it for a quorum at each step) and, across hosts, the groups' c10d
rendezvous store. `nonstop run --replica-groups G` (nonstop.supervisor.replica_groups) runs
them; one host: the Lighthouse on 127.0.0.1; across hosts: on the node given
--serve-lighthouse, with the store on --rdzv-endpoint's port.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nonstop.errors import UserError


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
    host: str = "127.0.0.1"  # the address the groups reach it at
    bind_host: str = "127.0.0.1"  # across hosts: 0.0.0.0
    join_timeout_ms: int = 1000
    heartbeat_timeout_ms: int = 5000
    log_path: Path | None = None
    proc: subprocess.Popen[bytes] | None = None
    restarts: int = 0

    @property
    def address(self) -> str:
        return f"http://{self.host}:{self.port}"

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
            return [found, "--bind", f"{self.bind_host}:{self.port}", *opts]
        # torchft's Rust LighthouseServer loaded alone, without torchft's package and torch:
        # it serves in half a second, so a restart is over before the groups' quorums time out
        code = (
            "import importlib.util as u, sys, time; "
            f"s = u.spec_from_file_location('torchft._torchft', {lib!r}); "
            "m = u.module_from_spec(s); s.loader.exec_module(m); "
            f"h = m.LighthouseServer(bind='{self.bind_host}:{self.port}', min_replicas=1, "
            f"join_timeout_ms={self.join_timeout_ms}, quorum_tick_ms=100, "
            f"heartbeat_timeout_ms={self.heartbeat_timeout_ms}); "
            "print('lighthouse at', h.address(), flush=True); import os; p = os.getppid()\n"
            # it dies with the process that started it (a SIGKILLed parent left it serving for
            # an hour; its own session keeps it out of the parent's signals otherwise)
            "while os.getppid() == p: time.sleep(0.5)"
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
                raise UserError(
                    f"torchft's Lighthouse exited at start: is port {self.port} free? (see "
                    f"{self.log_path})"
                )
            try:
                local = "127.0.0.1" if self.bind_host == "0.0.0.0" else self.bind_host
                socket.create_connection((local, self.port), timeout=1).close()
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


def serve_store(endpoint: str) -> Any:
    """A TCPStore server on `endpoint`'s port for the groups' c10d rendezvous (torch's agent on
    this host finds the port taken and connects as a client, as it does when another agent
    of its rendezvous hosts it)."""
    from datetime import timedelta

    from torch.distributed import TCPStore

    host, _, port = endpoint.rpartition(":")
    try:
        return TCPStore(
            host or "0.0.0.0",
            int(port or 29400),
            is_master=True,
            wait_for_workers=False,
            timeout=timedelta(seconds=60),
        )
    except (RuntimeError, ValueError) as e:
        raise UserError(
            f"--serve-lighthouse: cannot serve the groups' rendezvous store on {endpoint} "
            f"(is the port free, and is {host} this node?): {e}"
        ) from None
