"""Flight-recorder analysis: which rank never entered the collective the others wait in.

    nonstop diagnose --flight run_dir/flight/attempt-0 [--world-size 16] [--json]

Unlike torchfrtrace it needs no dump from every rank (a dead process never dumps), survives
truncated files and gloo dumps, and scales: dumps are reduced to per-group frontiers in worker
processes (`frsummary.summarize`) and only those small summaries are joined here.

Per process group, collectives are matched by ``collective_seq_id``. The *frontier* is the highest
sequence id any member enqueued. Members that enqueued it and have not completed it are waiting;
members whose last id is lower never entered it; members with no dump are missing. A rank that
is itself waiting in another group is a victim, not a cause, so culprits are the ranks that never
entered and are not blocked anywhere else, plus the missing ones. Ranks that disagree on the
(type, sizes, dtypes) of one sequence id are reported as mismatched collectives (a desync).

Suspect process groups are ranked the way Llama 3's team did (arXiv:2407.21783, 3.3.4): by how
long their members wait for each other, here the median spread of enqueue times per collective,
with the rank that most often arrives last.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from nonstop import taxonomy
from nonstop.diagnose.frdump import WINDOW_HEAD, WINDOW_TAIL, DumpError, load_dump, rank_of
from nonstop.diagnose.frsummary import Partial, PgView, summarize
from nonstop.diagnose.verdict import Culprit, Verdict
from nonstop.errors import UserError

PARALLEL_MIN_FILES = 256  # below this, worker start-up costs more than it saves


def find_dumps(folder: str | Path) -> list[Path]:
    """Files under `folder` whose names end in a rank number (rank-3, nccl_trace_rank_3.json)."""
    root = Path(folder)
    if not root.is_dir():
        raise UserError(f"{root}: no such flight-recorder folder (expected one dump per rank)")
    with os.scandir(root) as it:  # one flat folder (the usual case) without a stat per file
        entries = list(it)
    if any(e.is_dir() for e in entries):
        out = [p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")]
    else:
        out = [Path(e.path) for e in entries if e.is_file() and not e.name.startswith(".")]
    ranked = [(r, p) for p in out if (r := rank_of(p)) is not None]
    return [p for _, p in sorted(ranked, key=lambda rp: rp[0])]


def holds_dumps(folder: str | Path, tries: int = 3) -> bool:
    """Whether `folder` is a folder of flight-recorder dumps: one of its first `tries` files
    named by a rank reads as a dump (pickle or JSON). A plain folder of torch's dumps
    (`TORCH_FR_DUMP_TEMP_FILE=/tmp/fr/rank_`) given as `nonstop diagnose /tmp/fr`."""
    try:
        files = find_dumps(folder)
    except UserError:
        return False
    for f in files[:tries]:
        try:
            load_dump(f)
        except DumpError:
            continue
        return True
    return False


def load_partial(files: list[Path], workers: int | None = None) -> Partial:
    """Summarize dumps, in `workers` processes when there are many (default: CPU count)."""
    names = [str(f) for f in files]
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(names) < PARALLEL_MIN_FILES:
        return summarize(names)
    # Contiguous chunks: neighbouring ranks share group names, so each worker's reference
    # ranks (frsummary) cover many of them. spawn, not fork: the supervisor has threads.
    size = -(-len(names) // (workers * 2))
    chunks = [names[i : i + size] for i in range(0, len(names), size)]
    total = Partial()
    try:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as ex:
            for part in ex.map(summarize, chunks):
                total.merge(part)
    except (BrokenProcessPool, OSError):  # e.g. a __main__ that spawn cannot re-import
        return summarize(names)
    return total


@dataclass
class GroupState:
    """What the dumps say about one process group."""

    name: str
    desc: str
    members: list[int]
    membership_known: bool
    frontier: int
    frontier_op: str
    last_all_completed: int | None
    waiting: list[int] = field(default_factory=list)
    behind: dict[int, int] = field(default_factory=dict)  # rank -> its last sequence id
    missing: list[int] = field(default_factory=list)
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    completion_known: bool = True
    """False: some member's dump records no completions (`last_all_completed` is None)."""
    failed: list[int] = field(default_factory=list)
    """Waiting ranks whose dump records the frontier as completed though a member never
    entered it: it failed there (timed out or raised), which gloo records as retired."""
    frontier_site: str = ""
    """Where a rank at the frontier called it (its innermost frame outside torch), if any."""

    @property
    def state(self) -> str:
        if self.mismatches:
            return "mismatch"
        if self.waiting and (self.behind or self.missing):
            return "hung"
        if self.waiting:
            return "in_flight"
        return "idle"

    def to_dict(self) -> dict[str, Any]:
        return {
            "pg": self.name,
            "desc": self.desc,
            "state": self.state,
            "members": len(self.members),
            "membership_known": self.membership_known,
            "frontier": self.frontier,
            "frontier_op": self.frontier_op,
            "frontier_site": self.frontier_site,
            "last_all_completed": self.last_all_completed,
            "completion_known": self.completion_known,
            "waiting": _cap(self.waiting),
            "failed": _cap(self.failed),
            "never_entered": {str(r): s for r, s in list(self.behind.items())[:64]},
            "missing": _cap(self.missing),
            "mismatches": self.mismatches[:10],
        }


def _cap(ranks: list[int], n: int = 64) -> list[int]:
    return ranks[:n]


def _op(sig: Any) -> str:
    if not sig:
        return "?"
    name, sizes, dtypes, _ = sig
    if not sizes:
        return str(name)
    # a dump without input_dtypes (an optional key) said "all_reduce [[8]] None"
    return f"{name} {sizes} {dtypes}" if dtypes is not None else f"{name} {sizes}"


def _members(p: Partial, pg: str, world: int) -> tuple[list[int], bool]:
    if pg in p.pg_ranks:
        return sorted(p.pg_ranks[pg]), True
    if p.pg_desc.get(pg) == "default_pg" and world:
        return list(range(world)), True
    return sorted(r for r, views in p.ranks.items() if pg in views), False


def group_states(p: Partial, world: int, errored: frozenset[int] = frozenset()) -> list[GroupState]:
    """Per-group state. `errored`: ranks known (from their logs) to have seen their last
    collective fail; a failed collective is not a completed one, whatever its entry says (gloo
    retires a collective that raised exactly like one that succeeded)."""
    pgs = sorted({pg for views in p.ranks.values() for pg in views}, key=_pg_order)
    out = []
    for pg in pgs:
        members, known = _members(p, pg, world)
        views: dict[int, PgView] = {}
        missing = []
        for r in members:
            rv = p.ranks.get(r)
            if rv is None:
                missing.append(r)
            elif pg in rv:
                views[r] = rv[pg]
            else:  # dumped, but nothing of this group left in its buffer
                views[r] = PgView()
        if not known:  # gloo: no member list; a rank that left no dump at all may be a member
            missing = sorted(set(range(world)) - set(p.ranks))
        frontier = max((v.entered for v in views.values()), default=0)
        # a dump without completion fields: a rank at the frontier waits only where another
        # member never entered it (a collective cannot complete without every member)
        unknown = any(not v.completion_known for v in views.values() if v.entered)
        short = bool(missing) or any(v.entered < frontier for v in views.values())
        front_sig = next((v.last_sig for v in views.values() if v.entered == frontier), None)
        g = GroupState(
            name=pg,
            desc=p.pg_desc.get(pg, ""),
            members=members,
            membership_known=known,
            frontier=frontier,
            frontier_op=_op(front_sig),
            last_all_completed=None
            if unknown
            else min((v.completed for v in views.values()), default=None),
            missing=missing,
            completion_known=not unknown,
            frontier_site=next(
                (v.site for v in views.values() if v.entered == frontier and v.site), ""
            ),
        )
        # No member completes a collective before every member entered it: a rank that
        # records one beyond a dumped member's last as completed saw it fail (gloo retires a
        # collective that raised, its timeout included, as one that succeeded).
        # A rank with nothing of the group whose buffer wrapped may have lost its entries:
        # it tells nothing of how far the group got.
        reach = min(
            (v.entered for r, v in views.items() if v.entered or r not in p.wrapped), default=0
        )
        for r, v in views.items():
            impossible = v.completion_known and v.completed > reach
            failed = (r in errored or impossible) and v.entered == frontier
            pending = v.completed < frontier if v.completion_known else short
            if v.entered == frontier and (pending or failed):
                g.waiting.append(r)
                if impossible and not pending:
                    g.failed.append(r)
            elif v.entered < frontier:
                g.behind[r] = v.entered
        if not g.waiting:  # nobody waits: lagging buffers are just idle ranks, not a hang
            g.behind = {}
        g.mismatches = _mismatches(p, pg)
        out.append(g)
    return out


def _at(g: GroupState) -> str:
    return f" (called at {g.frontier_site})" if g.frontier_site else ""


def _completed_by_all(g: GroupState) -> str:
    if g.last_all_completed is None:
        return "which collectives completed is not in the dumps (no state, retired or pg_status)"
    return f"last completed by all #{g.last_all_completed}"


def _pg_order(pg: str) -> tuple[int, str]:
    return (int(pg), "") if pg.isdigit() else (1 << 30, pg)


def _mismatches(p: Partial, pg: str, limit: int = 10) -> list[dict[str, Any]]:
    out = []
    keys = sorted(
        (k for k, vs in p.variants.items() if k[0] == pg and len(vs) > 1), key=lambda k: k[1]
    )
    for _, seq in keys[:limit]:
        vs = sorted(p.variants[(pg, seq)], key=lambda v: -v[1])
        # Workers count only where they saw a disagreement; the majority is every rank whose
        # buffer covers this collective, less the ranks recorded as differing.
        covering = sum(
            1
            for views in p.ranks.values()
            if (v := views.get(pg)) is not None and v.first <= seq <= v.entered
        )
        others = sum(v[1] for v in vs[1:])
        out.append(
            {
                "seq": seq,
                "expected": _op(vs[0][0]),
                "ranks_expected": max(vs[0][1], covering - others),
                "others": [{"op": _op(v[0]), "count": v[1], "ranks": v[2]} for v in vs[1:]],
            }
        )
    return out


def suspect_groups(p: Partial, top: int = 5) -> list[dict[str, Any]]:
    """Process groups ranked by the median spread of their members' enqueue times."""
    spreads: dict[str, list[int]] = {}
    late: dict[str, Counter[int]] = {}
    for (pg, _seq), (lo, hi, who) in p.arrival.items():
        spreads.setdefault(pg, []).append(hi - lo)
        late.setdefault(pg, Counter())[who] += 1
    rows: list[dict[str, Any]] = []
    for pg, s in spreads.items():
        if len(s) < 2:
            continue
        rank, n = late[pg].most_common(1)[0]
        rows.append(
            {
                "pg": pg,
                "desc": p.pg_desc.get(pg, ""),
                "median_wait_ms": statistics.median(s) / 1e6,
                "collectives": len(s),
                "most_often_last": rank,
                "last_share": n / len(s),
            }
        )
    rows.sort(key=lambda r: -float(r["median_wait_ms"]))
    return rows[:top]


def analyze(
    folder: str | Path,
    *,
    hosts: dict[int, str] | None = None,
    world_size: int | None = None,
    workers: int | None = None,
    errored: frozenset[int] = frozenset(),
) -> Verdict:
    """Analyze one folder of per-rank dumps and return a Verdict (details carry the groups).
    `errored`: ranks whose logs show their last collective failed (not completed)."""
    files = find_dumps(folder)
    if not files:
        raise UserError(f"{folder}: no flight-recorder dumps (files named ...<rank>) found")
    p = load_partial(files, workers)
    if not p.files and p.problems:  # "every group is idle" would be read into nothing
        f, why = p.problems[0]
        raise UserError(
            f"{folder}: none of its {len(p.problems)} flight-recorder dump(s) could be read "
            f"(first: {why if why.startswith(f) else f'{f}: {why}'}); there is nothing to analyze"
        )
    return verdict_from(
        p, hosts=hosts or {}, world_size=world_size, source=str(folder), errored=errored
    )


def verdict_from(
    p: Partial,
    *,
    hosts: dict[int, str],
    world_size: int | None,
    source: str,
    errored: frozenset[int] = frozenset(),
) -> Verdict:
    known = set(p.files) | set(hosts) | {r for rs in p.pg_ranks.values() for r in rs}
    world = world_size or (max(known) + 1 if known else 0)
    groups = group_states(p, world, errored)
    blocked = {r for g in groups for r in g.waiting}
    never_dumped = sorted(set(range(world)) - set(p.files))

    culprits: dict[int, Culprit] = {}

    def blame(rank: int, why: str) -> None:
        c = culprits.setdefault(rank, Culprit(rank=rank, host=hosts.get(rank)))
        c.evidence.append(why)

    hung = [g for g in groups if g.state == "hung"]
    stuck = [g for g in groups if g.state == "in_flight"]
    # A rank that never entered here but waits in another group is a victim of that group's
    # hang; blame victims only when no group offers a rank that is free (the chain's end).
    free = [(g, r) for g in hung for r in g.behind if r not in blocked]
    victims = [(g, r) for g in hung for r in g.behind]
    for h, r in free or victims:
        blame(
            r,
            f"flight {source}: never entered pg {h.name} ({h.desc}) collective "
            f"#{h.frontier} {h.frontier_op} (its last was #{h.behind[r]}); "
            f"{len(h.waiting)} rank(s) wait in it",
        )
    for g in hung:
        for r in g.missing:
            blame(
                r,
                f"flight {source}: no dump from rank {r} (dead or never dumped) while "
                f"pg {g.name} waits in #{g.frontier}",
            )
    # A rank that left no dump while every peer's last collective is the group's frontier: the
    # peers got that far together and stopped there (done, failed or waiting), so the missing
    # rank is the prime suspect: it died or hung at that point.
    dead = [
        (g, r)
        for g in groups
        if g.frontier and not g.behind and g not in hung
        for r in g.missing
        if r not in culprits
    ]
    for g, r in dead:
        blame(
            r,
            f"flight {source}: no dump from rank {r} while every dumped peer's last "
            f"collective in pg {g.name} ({g.desc or '?'}) is #{g.frontier} "
            f"{g.frontier_op}: the prime suspect (it died or hung there)",
        )
    mism = [g for g in groups if g.mismatches]
    for g in mism:
        m = g.mismatches[0]
        for o in m["others"]:
            for r in o["ranks"]:
                blame(
                    r,
                    f"flight {source}: pg {g.name} collective #{m['seq']} is {o['op']} "
                    f"here but {m['expected']} on {m['ranks_expected']} rank(s)",
                )

    evidence = [
        f"{len(p.files)} dump(s) read from {source}, format version(s) "
        f"{', '.join(sorted(p.versions)) or '?'}"
    ]
    if never_dumped:
        evidence.append(f"no dump from {len(never_dumped)} rank(s): {_short(never_dumped)}")
    if p.truncated:
        evidence.append(f"truncated dump(s) salvaged: ranks {_short(sorted(p.truncated))}")
    if p.windowed:
        evidence.append(
            f"{p.windowed} large dump(s) read in part: their first {WINDOW_HEAD} and last "
            f"{WINDOW_TAIL} entries, which hold every group's frontier (mismatched collectives "
            f"are looked for there only)"
        )
    evidence += [f"unreadable: {f}: {why}" for f, why in p.problems[:10]]
    failed_rec = sorted({r for r, _, _ in p.recorder_errors})
    evidence += [
        f"rank {r}: flight recorder {name} failed ({why}): its collectives are not in the dump"
        for r, name, why in p.recorder_errors[:10]
    ]
    for g in groups:
        evidence.append(
            f"pg {g.name} ({g.desc or '?'}): {g.state}, frontier #{g.frontier} "
            f"{g.frontier_op}{_at(g)}, {_completed_by_all(g)}"
        )

    if mism:
        category, conf = "user_code_error", 0.8
        g, m = mism[0], mism[0].mismatches[0]
        text = (
            f"Mismatched collectives (desync) in pg {g.name} ({g.desc}) at #{m['seq']}: "
            f"{m['ranks_expected']} rank(s) call {m['expected']}, others "
            + "; ".join(f"{o['op']} on ranks {_short(o['ranks'])}" for o in m["others"])
            + ". Ranks issue different collectives: a program bug that a restart repeats."
        )
    elif hung:
        category, conf = "nccl_watchdog_timeout", 0.7
        g = next((g for g in hung if any(r in culprits for r in [*g.behind, *g.missing])), hung[0])
        names = ", ".join(_who(r, hosts) for r in culprits) or "none found"
        text = (
            f"Hang in pg {g.name} ({g.desc}): {len(g.waiting)} rank(s) wait in collective "
            f"#{g.frontier} {g.frontier_op}{_at(g)} that {names} never entered. "
            + (
                f"On rank(s) {_short(g.failed)} it already failed (timed out or raised: their "
                "dumps record it retired, as gloo does a collective that raised). "
                if g.failed
                else ""
            )
            + (
                f"The last collective every rank completed is #{g.last_all_completed}. "
                if g.last_all_completed is not None
                else "The dumps do not say which collectives completed. "
            )
            + "Look at the culprit's host "
            "and log for the root cause; restart without it if it repeats."
        )
    elif stuck:
        category, conf = "nccl_watchdog_timeout", 0.4
        g = stuck[0]
        text = (
            f"Every dumped member of pg {g.name} ({g.desc}) waits in collective "
            f"#{g.frontier} {g.frontier_op}{_at(g)}, none completed it: either it was in "
            "flight when dumped, or a member without a dump or the transport holds it"
            + (
                ""
                if world_size or hosts
                else " (give --world-size or the run directory to name missing ranks)"
            )
            + "."
            + (
                ""
                if g.membership_known
                else " The dumps do not name this group's members (gloo's pg_config is empty): "
                "the members are taken to be the ranks that recorded a collective in it, so a "
                "member that never entered any of them is not seen."
            )
        )
    elif dead:
        category, conf = taxonomy.UNKNOWN, 0.5
        g = dead[0][0]
        names = ", ".join(_who(r, hosts) for r in dict.fromkeys(r for _, r in dead))
        failed = sorted(r for r in g.waiting if r in errored)
        text = (
            f"{names} left no dump while every dumped peer stopped at collective "
            f"#{g.frontier} {g.frontier_op} of pg {g.name} ({g.desc or '?'})"
            + (f", which failed on rank(s) {_short(failed)}" if failed else "")
            + ": the prime suspect died or hung there. Its own log and its host's kernel "
            "log say why."
        )
    elif not p.files and p.problems:
        category, conf = taxonomy.UNKNOWN, 0.1
        text = (
            f"No flight-recorder dump could be read ({len(p.problems)} unreadable, see the "
            "evidence): they tell nothing of any group."
        )
    elif never_dumped and set(never_dumped) <= _unreadable_ranks(p.problems):
        # they did dump: a dump that cannot be read says nothing of the rank that wrote it
        category, conf = taxonomy.UNKNOWN, 0.2
        text = (
            f"No dump could be read from {len(never_dumped)} rank(s) ({_short(never_dumped)}): "
            "their dumps are unreadable (see the evidence), so the flight recorder tells "
            "nothing of them."
        )
    elif never_dumped:
        category, conf = taxonomy.UNKNOWN, 0.3
        text = (
            f"No hang visible in the dumps, but {len(never_dumped)} rank(s) left no dump "
            f"({_short(never_dumped)}): they may have died before dumping."
        )
    else:
        category, conf = taxonomy.UNKNOWN, 0.2
        text = "No hang or mismatch in the flight-recorder dumps: every group is idle."
        if blind := [g.name for g in groups if not g.completion_known]:
            text = (
                "No mismatch in the flight-recorder dumps and no rank behind another, but they "
                f"do not record which collectives completed (pg {', '.join(blind[:8])}: no "
                "state, retired or pg_status), so a collective every rank entered and none "
                "finished cannot be told from an idle group."
            )
    if p.files and not (mism or hung or stuck):
        text += _blind_spots(p, world, world_known=bool(world_size or hosts))
    if failed_rec and not (mism or hung):
        # an empty or idle dump is no evidence of health when NCCL's recorder did not dump
        recorders = sorted({name for _, name, _ in p.recorder_errors})
        text += (
            f" But the flight recorder {', '.join(recorders)} failed on rank(s) "
            f"{_short(failed_rec)}: the collectives it records are not in these dumps "
            "(_dump_nccl_trace: NCCL's), so a hang there cannot be seen; read the ranks' logs."
        )
        conf = min(conf, 0.2)
    details = {
        "ranks_dumped": len(p.files),
        "world_size": world,
        "missing_dumps": _cap(never_dumped),
        "recorder_errors": [list(e) for e in p.recorder_errors[:16]],
        "groups": [g.to_dict() for g in groups],
        "suspect_groups": suspect_groups(p),
    }
    return Verdict(
        verdict=text,
        category=category,
        action=taxonomy.action_for(category),
        culprits=list(culprits.values()),
        evidence=evidence,
        confidence=conf,
        details=details,
    )


def _blind_spots(p: Partial, world: int, *, world_known: bool) -> str:
    """What these dumps cannot show, said where they show no hang: gloo's dumps name no group
    members (an empty pg_config), so without the world size a rank numbered above every dump
    that left none is not seen (a dead last rank read as "every group is idle"); and gloo's
    recorder records no send or recv, so a rank blocked in one looks idle."""
    out = ""
    if not world_known and not any(
        d == "default_pg" for pg, d in p.pg_desc.items() if pg in p.pg_ranks
    ):
        out += (
            f" The dumps do not say how many ranks the job had (no group members in "
            f"pg_config): {world} are assumed, so a rank numbered {world} or above that left "
            "no dump is not seen (give --world-size)."
        )
    if "gloo" in p.backends:
        out += (
            " gloo's flight recorder does not record point-to-point ops (send, recv, isend, "
            "irecv): a rank blocked in one looks idle here."
        )
    return out


def _unreadable_ranks(problems: list[tuple[str, str]]) -> set[int]:
    """The ranks whose dump file is there but could not be read (by the file's name)."""
    return {r for f, _ in problems if (r := rank_of(Path(f))) is not None}


def _who(rank: int, hosts: dict[int, str]) -> str:
    return f"rank {rank}" + (f" on {hosts[rank]}" if rank in hosts else "")


def _short(ranks: list[int], n: int = 8) -> str:
    s = ", ".join(map(str, ranks[:n]))
    return s + (f" and {len(ranks) - n} more" if len(ranks) > n else "")
