"""Classify a failure into the taxonomy and choose the action.

The evidence is the rank's exit code or signal, its torchelastic error file, the triage of its
log (nonstop.diagnose: the signature table lives there, not here) and, for hangs, the
watchdog's finding. On top of the category's default action the policy applies what a run
needs:

- `stop_and_page` categories (user code error, out of memory) get one retry, because a first
  exception can be transient; the same exception at the same step a second time stops the job
  (never burn restarts on a deterministic bug);
- a failure that only echoes another rank's (gloo "connection closed by peer" and friends, seen
  after a peer died) is secondary: recorded, not counted as an interruption;
- `exclude_node` on a single-node job means stopping with the do-not-requeue exit code, so the
  scheduler replaces the machine.
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal as _signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nonstop import taxonomy
from nonstop.runtime.guards import EXIT_ROLLBACK
from nonstop.supervisor import rollback

log = logging.getLogger("nonstop.policy")


def _load_seen(path: Path) -> dict[str, list[int]]:
    """The saved memory; a missing or garbage file is an empty one."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    return {str(k): [int(a) for a in v if isinstance(a, int)]
            for k, v in raw.items() if isinstance(v, list)}  # fmt: skip


# Lines that show a rank failed because a peer went away: consequences, not causes.
PEER_ERROR = re.compile(
    r"Connection closed by peer|Connection reset by peer|Broken pipe|"
    r"gloo/transport/tcp/pair\.cc.*(?:Read error|Write error|Connection)|"
    r"ProcessGroupGloo.*(?:peer|connection)|recvBytes|sendBytes|"
    r"TCPStore.*(?:Connection|Broken pipe)|The server socket has failed",
    re.IGNORECASE,
)


ECHO_CATEGORIES = frozenset(
    {
        "network_switch_cable",
        "dependency",
        "software_bug",
        "user_code_error",
        "nccl_watchdog_timeout",
        taxonomy.UNKNOWN,
    }
)
RANK_PREFIX = re.compile(r"^\[(?:rank|default)\d+\]:\s?")


@dataclass
class FailureInfo:
    """What the supervisor knows about one failed (or hung) rank."""

    rank: int
    host: str
    exit_code: int | None = None
    message: str = ""
    log_path: Path | None = None
    step: int | None = None
    hang_reason: str | None = None
    injected: str | None = None
    anomalies: list[dict[str, Any]] = field(default_factory=list)
    """The run's numerical-anomaly records (nonstop.runtime.guards), read when the rank exited
    with EXIT_ROLLBACK."""
    attempt: int | None = None
    """The attempt the rank ran in (the policy counts repeats per attempt, not per rank)."""
    progressed: bool | None = None
    """Whether the attempt had made any progress (a step or a completed collective) before it
    failed; None when unknown."""


@dataclass
class Decision:
    category: str
    action: taxonomy.Action
    reason: str
    root_cause: bool = True
    signature: str = ""
    evidence: list[str] = field(default_factory=list)
    confidence: float = 0.0
    hosts: list[str] = field(default_factory=list)
    """The culprit nodes when the decision names them (empty: the failed rank's own)."""

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category, "action": self.action, "reason": self.reason,
                "root_cause": self.root_cause, "evidence": self.evidence[:20],
                "confidence": self.confidence}  # fmt: skip


def signal_name(exit_code: int | None) -> str | None:
    if exit_code is None or exit_code >= 0:
        return None
    try:
        return _signal.Signals(-exit_code).name
    except ValueError:
        return f"signal {-exit_code}"


def _triage(info: FailureInfo) -> tuple[str, float, list[str]]:
    """(category, confidence, evidence lines) from what the node kept for the rank, via
    nonstop.diagnose: its log, the node's kernel log (lines of its pid or of the node: Xid, MCE,
    NIC, OOM killer) and the NVML events its telemetry recorded (Xid, double-bit ECC, thermal
    or power-brake throttling)."""
    if info.log_path is None:
        return taxonomy.UNKNOWN, 0.0, []
    try:
        from nonstop.diagnose.triage import triage_rank

        v = triage_rank(info.log_path, rank=info.rank, host=info.host)
    except Exception as e:  # a broken triage must not take the supervisor down
        return taxonomy.UNKNOWN, 0.0, [f"triage failed: {type(e).__name__}: {e}"]
    return v.category, v.confidence, list(v.evidence)


def _log_tail(path: Path | None, n_bytes: int = 20_000) -> str:
    if path is None or not path.exists():
        return ""
    with open(path, "rb") as f:
        f.seek(max(0, path.stat().st_size - n_bytes))
        return f.read().decode(errors="replace")


def classify(info: FailureInfo) -> Decision:
    """Category and default action of one failure, before run-level policy."""
    sig = signal_name(info.exit_code)
    if info.hang_reason is not None:
        # nonstop's watchdog saw no progress: a hang, whatever the backend (gloo has no NCCL
        # watchdog); the flight recorder or a log signature may name a better cause later
        return Decision("hang", "restart", f"hang: {info.hang_reason}",
                        signature=f"hang:{info.hang_reason[:40]}", confidence=0.6)  # fmt: skip
    category, confidence, evidence = _triage(info)
    tail = _log_tail(info.log_path)
    peer = bool(PEER_ERROR.search(tail)) or bool(PEER_ERROR.search(info.message))
    exception = _exception_line(tail)
    if category == taxonomy.UNKNOWN:
        if exception and info.exit_code == 1 and not peer:  # an uncaught Python exception
            category, confidence = "user_code_error", 0.4
        elif sig in ("SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE"):
            category, confidence = "software_bug", 0.5
        elif sig == "SIGKILL":
            category, confidence = taxonomy.UNKNOWN, 0.3  # OOM killer or an operator; see logs
    why = f"exit {info.exit_code}" + (f" ({sig})" if sig else "")
    if info.message:
        why += f": {info.message.splitlines()[-1][:200] if info.message.strip() else ''}"
    signature = f"{category}|{exception or info.message[:200]}|{sig}"
    # A peer's disappearance shows up as a gloo/store connection error in every survivor: those
    # are consequences unless the log also names something specific to this rank's hardware.
    echo = peer and category in ECHO_CATEGORIES
    return Decision(category, taxonomy.action_for(category), why, root_cause=not echo,
                    signature=signature, evidence=evidence, confidence=confidence)  # fmt: skip


def _exception_line(text: str) -> str:
    """The last 'SomeError: message' line of a Python traceback, if any."""
    for line in reversed(text.splitlines()):
        line = RANK_PREFIX.sub("", line.strip())  # torch prefixes tracebacks with [rankN]:
        m = re.match(r"^([A-Za-z_][\w.]*(?:Error|Exception|Interrupt)): (.*)$", line)
        if m:
            return f"{m.group(1)}: {m.group(2)[:200]}"
    return ""


# Exceptions raised before an attempt made any progress (at import, in setup) in these
# categories are the script's, and deterministic: a restart imports the same code again.
STARTUP_DETERMINISTIC = frozenset({"user_code_error", "dependency"})


@dataclass
class Policy:
    """Run-level memory: which deterministic-looking failures were already seen, and in which
    attempts. With a `path` (control/policy.json in the run directory) the memory survives a
    restart of the supervisor itself: `nonstop run` resuming the directory reads it back."""

    path: Path | None = None
    seen: dict[str, list[int]] = field(default_factory=dict)
    """Failure key -> the attempts it happened in (one entry per attempt, whatever the number
    of ranks that failed the same way)."""

    def __post_init__(self) -> None:
        if self.path is not None and not self.seen:
            self.seen = _load_seen(self.path)

    def _count(self, key: str, attempt: int | None) -> int:
        attempts = self.seen.setdefault(key, [])
        mark = attempt if attempt is not None else (max(attempts, default=-1) + 1)
        if mark not in attempts:
            attempts.append(mark)
            self._save()
        return len(attempts)

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.seen))
            os.replace(tmp, self.path)
        except OSError as e:  # the memory is a convenience; a full disk must not stop the job
            log.warning("could not keep the policy's memory in %s: %s", self.path, e)

    def decide(self, info: FailureInfo) -> Decision:
        if info.exit_code == EXIT_ROLLBACK:
            return self._rollback(info)
        d = classify(info)
        if not d.root_cause:
            d.reason = f"secondary (a peer failed first): {d.reason}"
            return d
        key = f"{d.signature}|step={info.step}"
        count = self._count(key, info.attempt)
        if info.progressed is False and d.category in STARTUP_DETERMINISTIC:
            d.action = "stop_and_page"
            d.reason += ("; raised before the job made any progress (at import or in setup): "
                         "a restart would run the same code, so it is not retried")  # fmt: skip
        elif d.action == "stop_and_page" and count == 1:
            d.action = "restart"
            d.reason += "; retrying once: the job stops if it happens again at this step"
        elif count >= 2 and (
            d.category in ("user_code_error", "software_bug", "out_of_memory")
            or "Error: " in d.signature
            or "Exception: " in d.signature
        ):
            d.action = "stop_and_page"
            where = f"at step {info.step}" if info.step is not None and info.step >= 0 else ""
            d.reason += f"; the same failure {where} in {count} attempts: deterministic"
        return d

    def _rollback(self, info: FailureInfo) -> Decision:
        """A rank exited for a rollback: the anomaly its guards agreed on (rollback.py). Every
        rank of the job exits so; the first one read is the root cause, the others echo it."""
        attempt = info.attempt
        if attempt is None:
            attempt = max((int(a.get("attempt", -1)) for a in info.anomalies), default=-1)
        r = rollback.decide(info.anomalies, attempt)
        key = f"rollback|attempt={attempt}"
        first = key not in self.seen
        self.seen.setdefault(key, []).append(info.rank)
        return Decision(r["category"], r["action"], r["reason"], root_cause=first,
                        signature=f"rollback|{r['category']}", evidence=r["evidence"],
                        confidence=1.0, hosts=r["hosts"])  # fmt: skip
