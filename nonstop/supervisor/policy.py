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
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nonstop import taxonomy
from nonstop.anomalies import EXIT_ROLLBACK
from nonstop.supervisor import rollback

if TYPE_CHECKING:
    from nonstop.diagnose.verdict import VerdictAction

log = logging.getLogger("nonstop.policy")


def _load_seen(path: Path) -> dict[str, list[int]]:
    """The saved memory; a missing or garbage file is an empty one."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict):
        return {}
    return {
        str(k): [int(a) for a in v if isinstance(a, int)]
        for k, v in raw.items()
        if isinstance(v, list)
    }


# Lines that show a rank failed because a peer went away: consequences, not causes.
PEER_ERROR = re.compile(
    r"Connection closed by peer|Connection reset by peer|Broken pipe|"
    r"gloo/transport/tcp/pair\.cc.*(?:Read error|Write error|Connection)|"
    r"ProcessGroupGloo.*(?:peer|connection)|recvBytes|sendBytes|"
    r"TCPStore.*(?:Connection|Broken pipe)|The server socket has failed",
    re.IGNORECASE,
)

# torchft's Manager logs an error it absorbed ("[replica/rank - step N] got exception waiting
# for work ...", "... got exception in all reduce -- skipping remaining: ..."), then its
# traceback: the step is not committed and the group trains on. A peer replica group that
# went away leaves such blocks in every survivor's log; they are not what a later failure of
# this rank echoes (chaos, replica groups: a SIGKILL 200 steps later was called "secondary"
# and a node "localhost" recorded lost in its place).
TORCHFT_SURVIVED = re.compile(r"^\[[^\]\n]* - step \d+\] got exception ")
_EXCEPTION_LINE = re.compile(r"^[\w.]*(?:Error|Exception|Exit|Interrupt)\b")


def without_survived(text: str) -> str:
    """`text` without the errors torchft said it survived: each such line and its traceback,
    up to the traceback's last line (the exception itself)."""
    out: list[str] = []
    skipping = False
    for line in text.splitlines():
        if TORCHFT_SURVIVED.match(line):
            skipping = True
            continue
        if skipping:
            if line.startswith(("Traceback", " ", "\t")) or not line.strip():
                continue
            skipping = False
            if _EXCEPTION_LINE.match(line):
                continue
        out.append(line)
    return "\n".join(out)


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
        return {
            "category": self.category,
            "action": self.action,
            "reason": self.reason,
            "root_cause": self.root_cause,
            "evidence": self.evidence[:20],
            "confidence": self.confidence,
        }


def signal_name(exit_code: int | None) -> str | None:
    if exit_code is None or exit_code >= 0:
        return None
    try:
        return _signal.Signals(-exit_code).name
    except ValueError:
        return f"signal {-exit_code}"


def _triage(info: FailureInfo) -> tuple[str, float, list[str], bool]:
    """(category, confidence, evidence lines, guessed) from what the node kept for the rank, via
    nonstop.diagnose: its log, the node's kernel log (lines of its pid or of the node: Xid, MCE,
    NIC, OOM killer) and the NVML events its telemetry recorded (Xid, double-bit ECC, thermal
    or power-brake throttling)."""
    if info.log_path is None:
        return taxonomy.UNKNOWN, 0.0, [], False
    try:
        from nonstop.diagnose.triage import triage_rank

        v = triage_rank(info.log_path, rank=info.rank, host=info.host)
    except Exception as e:  # a broken triage must not take the supervisor down
        return taxonomy.UNKNOWN, 0.0, [f"triage failed: {type(e).__name__}: {e}"], False
    # a loss spike read from the log's numbers (triage.spike) is weak like a guess: the rank's
    # own exit (an uncaught exception, a fatal signal) outranks a jump logged before it
    weak = v.guessed or "spike" in v.details
    return (
        v.category,
        v.confidence,
        list(v.evidence) or ([v.verdict] if weak else []),
        weak,
    )


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
        return Decision(
            "hang",
            "restart",
            f"hang: {info.hang_reason}",
            signature=f"hang:{info.hang_reason[:40]}",
            confidence=0.6,
        )
    category, confidence, evidence, guessed = _triage(info)
    tail = without_survived(_log_tail(info.log_path))
    peer = bool(PEER_ERROR.search(tail)) or bool(PEER_ERROR.search(info.message))
    exception = _exception_line(tail)
    # the process's own exit (an uncaught exception, a fatal signal) is firmer evidence than the
    # triage fallback's guess from the log's words: it decides first, the guess stands otherwise
    if category == taxonomy.UNKNOWN or guessed:
        child_died = bool(_CHILD_DIED.search(tail))
        if exception and info.exit_code == 1 and not peer and not child_died:
            # an uncaught Python exception
            category, confidence = "user_code_error", 0.4
        elif child_died and exception:  # a guess from the words does not stand either
            category, confidence = taxonomy.UNKNOWN, 0.3
        elif sig in ("SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE"):
            category, confidence = "software_bug", 0.5
        elif sig in ("SIGKILL", "SIGINT", "SIGTERM", "SIGHUP"):
            # the OOM killer, an operator, a launcher or scheduler stopping it: see the logs
            category, confidence = taxonomy.UNKNOWN, 0.3
    why = f"exit {info.exit_code}" + (f" ({sig})" if sig else "")
    if info.message:
        why += f": {info.message.splitlines()[-1][:200] if info.message.strip() else ''}"
    signature = f"{category}|{exception or info.message[:200]}|{sig}"
    # A peer's disappearance shows up as a gloo/store connection error in every survivor: those
    # are consequences unless the log also names something specific to this rank's hardware.
    echo = peer and category in ECHO_CATEGORIES
    action = taxonomy.action_for(category)
    if guessed and action == "exclude_node":  # a guess names a hardware fault, never excludes
        action = "restart"
    return Decision(
        category,
        action,
        why,
        root_cause=not echo,
        signature=signature,
        evidence=evidence,
        confidence=confidence,
    )


# an exception that reports a child process killed by a signal (torch's DataLoader: "worker
# (pid N) is killed by signal: Killed", "exited unexpectedly"; torch.multiprocessing.spawn:
# "process 1 terminated with signal SIGKILL"): the script's exception is that death's
# consequence, and the death (most often the host's OOM killer) is no bug of the script. Read
# as user_code_error, a killed DataLoader worker stopped the job after one retry, and a
# killed mp.spawn child before any progress stopped it at once.
_CHILD_DIED = re.compile(
    r"is killed by signal: |\bworker \(pid\(s\) [\d, ]+\) exited unexpectedly|"
    r"terminated with signal SIG(?:KILL|SEGV|BUS|ILL)\b"
)


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
            d.reason += (
                "; raised before the job made any progress (no step reported, no collective "
                "completed: at import or in setup): a restart would run the same code, so it "
                "is not retried"
            )
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

    def link_flaps(self, host: str, attempt: int | None, earlier: Iterable[int] = ()) -> int:
        """Count one more attempt in which `host`'s own link went down; the attempts so far.
        `earlier`: attempts the run's ledger holds as that link's failure (its peers filed
        them while this agent recorded nothing: netroot.link_flap_attempts), counted too."""
        key = f"link_down|{host}"
        known = self.seen.setdefault(key, [])
        known += sorted(set(earlier) - set(known))
        return self._count(key, attempt)

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
        return Decision(
            r["category"],
            r["action"],
            r["reason"],
            root_cause=first,
            signature=f"rollback|{r['category']}",
            evidence=r["evidence"],
            confidence=1.0,
            hosts=r["hosts"],
        )


# A node whose own link went down in this many attempts is excluded: a bad cable, port or NIC
# rather than a one-off (a first flap only restarts; the fabric usually heals or reroutes).
LINK_FLAPS_TO_EXCLUDE = 2
_SECONDARY = re.compile(r"^secondary \([^)]*\): ")


def link_down(d: Decision, flap: str, flaps: int) -> Decision:
    """A failure or hang of this node's ranks while its own link went down (`flap`: the
    kernel's words for it): the network's, whatever the ranks said; excluded on a repeat."""
    reason = f"{flap}; the ranks: {_SECONDARY.sub('', d.reason)}"
    action: taxonomy.Action = "restart"
    if flaps >= LINK_FLAPS_TO_EXCLUDE:
        action = "exclude_node"
        reason += f"; this node's link went down in {flaps} attempts: a bad cable, port or NIC"
    return _network(d, action, 0.9, reason, flap)


def peers_unreachable(d: Decision, unreachable: list[str], total: int) -> Decision:
    """A hang or an echo of this node's ranks while this node, its own link up, could reach
    none of its peers (`unreachable` of `total`): the fabric between them (a switch), not the
    ranks and not this node: restart once it is back, never exclude."""
    if d.root_cause and d.category not in ("hang", "nccl_watchdog_timeout", "unknown"):
        return d  # the ranks' own cause is more specific than the network's silence
    if len(unreachable) == total and total >= 2:
        what = f"the fabric: this node's link is up but it reached none of its {total} peer nodes"
    else:  # one peer: its link, its host or the switch; from here no telling which
        what = (
            f"peer node(s) {', '.join(unreachable)} unreachable from here "
            f"({len(unreachable)} of {total}; this node's link up)"
        )
    return _network(d, "restart", 0.8, f"{what}; the ranks: {_SECONDARY.sub('', d.reason)}", what)


def peer_link_down(d: Decision, link: str, reached: int, total: int, flaps: int) -> Decision:
    """A hang or an echo of this node's ranks while this node, its own link up, reached
    every peer node but `link` (`reached` of `total`, at least one: the switch works): the
    failing link is `link`'s, the host every failing connection has in common. The root
    cause is that node's (the record goes on its host), the network's; excluded when its link
    failed in LINK_FLAPS_TO_EXCLUDE attempts (`flaps`, this one included)."""
    if d.root_cause and d.category not in ("hang", "nccl_watchdog_timeout", "unknown"):
        return d  # the ranks' own cause is more specific than the network's silence
    what = (
        f"{link}'s link: unreachable from here, while this node's link is up and it reached "
        f"{reached} of its {total} peer nodes (its cable, port or NIC; or the host itself, "
        "silent: from here no telling which)"
    )
    action: taxonomy.Action = "restart"
    if flaps >= LINK_FLAPS_TO_EXCLUDE:
        action = "exclude_node"
        what += f"; {link}'s link failed in {flaps} attempts: a bad cable, port or NIC"
    reason = f"{what}; the ranks here: {_SECONDARY.sub('', d.reason)}"
    return _network(d, action, 0.85, reason, what, hosts=[link])


def _network(
    d: Decision, action: taxonomy.Action, confidence: float, reason: str, evidence: str, **more: Any
) -> Decision:
    """`d` as the network's root cause: the ranks' own words kept in `reason`, `evidence`
    added to theirs."""
    return replace(
        d,
        category="network_switch_cable",
        action=action,
        root_cause=True,
        confidence=max(d.confidence, confidence),
        reason=reason,
        evidence=[*d.evidence, evidence],
        **more,
    )


# -- what this node does about a failure: pure functions of what was decided ----------------

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_PAGE = 3  # stopped on a deterministic failure: a human must look
EXIT_REQUEUE = 75  # EX_TEMPFAIL: planned stop after a checkpoint; requeue the job
EXIT_EXCLUDE = 93  # this node is bad: do not requeue the job on it (as nvidia-resiliency-ext)
EXIT_DRAINED = 0  # this node was drained by an operator: the job goes on without it

_SIGTERM = -int(_signal.SIGTERM)


def mark_collateral(
    infos: list[FailureInfo],
    decisions: list[Decision],
    stopped: set[int] | frozenset[int] = frozenset(),
) -> list[Decision]:
    """torch's process context stops the rest of the group once one worker fails: those ranks
    are collateral, not causes. They are the ranks still running when the agent began to stop
    them (`stopped`, global ranks: whatever their exit status, SIGTERM or the SIGKILL after a
    rank stuck in C code ignored it), and ranks that died of SIGTERM (unless every rank did:
    from outside). Returns the decisions with the collateral ones made secondary (new
    objects; the others as given)."""
    termed = (
        {i.rank for i in infos if i.exit_code == _SIGTERM}
        if any(i.exit_code != _SIGTERM for i in infos)
        else set()
    )
    ranks = {i.rank for i in infos}
    # a rank exiting for an agreed rollback decided to exit itself, even if the stop came first
    ours = {i.rank for i in infos if i.exit_code != EXIT_ROLLBACK} & set(stopped)
    out = _secondary(infos, decisions, termed | ours if ranks - set(stopped) else termed)
    if any(d.root_cause for d in decisions) and not any(d.root_cause for d in out):
        # only echoes failed before the stop: the cause may be among the stopped, as before
        out = _secondary(infos, decisions, termed)
    return out


def _secondary(
    infos: list[FailureInfo], decisions: list[Decision], collateral: set[int]
) -> list[Decision]:
    out = []
    for info, d in zip(infos, decisions, strict=True):
        if info.rank in collateral and d.root_cause:
            d = replace(
                d,
                root_cause=False,
                evidence=list(d.evidence),
                hosts=list(d.hosts),
                reason=f"secondary (stopped by the agent after a peer failed): {d.reason}",
            )
        out.append(d)
    return out


def pick_root(decisions: list[Decision], host: str) -> tuple[Decision, list[str]]:
    """The decision to act on (the first root cause, else the first echo) and the culprit
    nodes: the root cause's own (a rollback names them), else this node; none when only our
    ranks echoed a peer's failure (the culprit is elsewhere, never us)."""
    assert decisions, "a failure without a decision"
    roots = [d for d in decisions if d.root_cause]
    culprits = (roots[0].hosts or [host]) if roots else []
    return (roots or decisions)[0], culprits


def refine(
    d: Decision,
    culprits: list[str],
    *,
    category: str,
    action: VerdictAction,
    confidence: float,
    verdict: str,
    hosts: list[str],
) -> tuple[Decision, list[str]]:
    """Merge the whole-attempt diagnosis (nonstop.diagnose.diagnose_run's verdict) into the
    decision: a more confident (> max(own, 0.8)), specific verdict overrides the per-rank
    classification and may name the culprit on another node. A verdict that recommends
    nothing (action `none`) overrides nothing: a failure always takes an action."""
    d = replace(d, evidence=[*d.evidence, f"diagnose: {verdict[:300]}"], hosts=list(d.hosts))
    if category != taxonomy.UNKNOWN and action != "none" and confidence > max(d.confidence, 0.8):
        d = replace(
            d,
            category=category,
            action=action,
            confidence=confidence,
            reason=d.reason + f"; diagnose: {verdict[:200]}",
        )
        return d, hosts or culprits
    return d, culprits


@dataclass(frozen=True)
class Resolution:
    """What this node does about a failure (resolve's answer)."""

    decision: Decision
    """The decision as acted on (a failed health check turns it into exclude_node)."""
    action: str
    """What this node does and records: restart, exclude_node or stop_and_page."""
    exit_code: int | None
    """`nonstop run`'s exit code once torch stops; None while torch may still restart."""
    message: str
    """The last line `nonstop run` prints (empty while it goes on)."""
    stop_restarts: bool
    """torch must make no more restarts (this node stops now)."""
    leaving: bool
    """This node leaves a job that goes on (the rendezvous stays open for the others)."""


def resolve(
    d: Decision,
    *,
    culprits: list[str],
    host: str,
    exclude: bool = True,
    health_failed: tuple[str, ...] = (),
    restarts_left: int = 1,
) -> Resolution:
    """The action and exit code of one failure on node `host`, from the decision, the culprit
    nodes, whether exclusion is allowed (--no-exclude), the details of the health checks that
    failed between attempts and the restarts torch has left.

    A failed health check (when exclusion is allowed) excludes this node. exclude_node applies
    only to a culprit node: elsewhere it is a restart without the bad node. On a single node
    the culprit is this one, so exclusion stops here with EXIT_EXCLUDE, telling the scheduler
    to replace the machine rather than requeue on it."""
    if health_failed and exclude:
        d = replace(
            d,
            action="exclude_node",
            evidence=list(d.evidence),
            hosts=list(d.hosts),
            reason=d.reason + "; health check failed: " + "; ".join(health_failed),
        )
        culprits = [host]
    action = d.action
    if action == "exclude_node" and (not exclude or host not in culprits):
        action = "restart"  # the bad node is another one: it leaves, we restart without it
        if exclude and culprits:
            d = replace(
                d,
                evidence=list(d.evidence),
                hosts=list(d.hosts),
                reason=f"{d.reason}; {host} restarts without {', '.join(culprits)}",
            )
    if action == "stop_and_page":
        return Resolution(
            decision=d,
            action=action,
            exit_code=EXIT_PAGE,
            stop_restarts=True,
            leaving=False,
            message=f"stopped: {d.reason} [{d.category}]; a human must look",
        )
    if action == "exclude_node":
        return Resolution(
            decision=d,
            action=action,
            exit_code=EXIT_EXCLUDE,
            stop_restarts=True,
            leaving=True,
            message=f"excluding node {host}: {d.reason} [{d.category}]; "
            f"exit {EXIT_EXCLUDE} tells the scheduler not to requeue here",
        )
    if restarts_left <= 0:
        return Resolution(
            decision=d,
            action=action,
            exit_code=EXIT_FAILED,
            stop_restarts=False,
            leaving=False,
            message=f"no restarts left (--max-restarts): {d.reason}",
        )
    return Resolution(
        decision=d, action=action, exit_code=None, message="", stop_restarts=False, leaving=False
    )


def exit_code(decided: int | None, *, failed: bool) -> int:
    """`nonstop run`'s exit code: the one the agent decided (resolve, a planned stop), else
    torch's outcome: EXIT_FAILED when the workers failed, EXIT_OK when they finished."""
    if decided is not None:
        return decided
    return EXIT_FAILED if failed else EXIT_OK
