"""Naming the corrupted replica of a two-replica tie by replaying the steps it covers.

With two data-parallel replicas a fingerprint mismatch says that they differ, not which one is
wrong. The rollback already re-trains the steps since the newest verified checkpoint, and the
demo workload's data and RNG resume exactly, so the re-run *is* the replay: in the next attempt
every rank fingerprints its parameters at each step whose held fingerprint the anomaly record
carries (the loaded state counts as the step before the first one trained), and at the anomaly's
step the ranks exchange what they computed (one `all_gather_object`) and every rank runs
`nonstop.anomalies.attribute` on the same numbers. Rank 0 writes the verdict into the anomaly
record (`attribution`; on a verdict `ranks` becomes the corrupted rank, the tie kept as
`tie_ranks`) and emits a `sdc_attributed` lifecycle event, which the ledger keeps as an
`attribute_sdc` action. An undetermined verdict names nobody (docs/health.md).

Cost: one fingerprint per step of the window (the steps from the last agreement to the anomaly,
at most `fingerprint_every` + 1, or a checkpoint interval with `fingerprint_every=0`) and one
small collective, in steps the rollback trains anyway; nothing while no tie is pending.
Used by nonstop.runtime.guards.Health; torch only inside the functions.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from nonstop import log
from nonstop.anomalies import attribute, held_fingerprints, read_anomalies, write_anomaly

_log = log.get("runtime")


def pending(run_dir: Path | str, attempt: int, world_size: int) -> dict[str, Any] | None:
    """The anomaly record this attempt's re-run can attribute: the run's newest anomaly, if it
    is an unattributed tie of replica fingerprints from an earlier attempt of the same world
    size with fingerprints to compare; else None."""
    records = read_anomalies(run_dir)
    if not records:
        return None
    rec = records[-1]
    if (
        rec.get("kind") != "sdc"
        or rec.get("majority", True)
        or "attribution" in rec
        or int(rec.get("attempt", attempt)) >= attempt
        or int(rec.get("world_size", -1)) != int(world_size)
        or not held_fingerprints(rec)
    ):
        return None
    return rec


class Replay:
    """One rank's side of the replay of a pending tie (`pending`)."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        self.record = dict(record)
        self.held = held_fingerprints(record)
        self.last = max(self.held)
        self.mine: dict[int, str] = {}
        self.started = False

    def before_step(self, step: int, params: list[Any]) -> None:
        """At the first step this process trains: the loaded state is the previous step's."""
        if self.started:
            return
        self.started = True
        if step - 1 in self.held:
            self._take(step - 1, params)

    def after_step(self, step: int, params: list[Any]) -> bool:
        """Fingerprint the state after `step` if it is held; True once the window is done."""
        self.started = True
        if step in self.held:
            self._take(step, params)
        return step >= self.last

    def _take(self, step: int, params: list[Any]) -> None:
        from nonstop.runtime.fingerprint import fingerprint

        fp, _ = fingerprint(params)
        self.mine[step] = f"{fp:016x}"

    def conclude(self, rt: Any, group: Any) -> dict[str, Any]:
        """Every rank together: exchange the replayed fingerprints, decide, record (rank 0)."""
        replayed: dict[int, dict[int, str]] = {}
        for r, mine in enumerate(_gather(self.mine, group)):
            for step, fp in (mine or {}).items():
                replayed.setdefault(int(step), {})[r] = str(fp)
        verdict = attribute(self.held, replayed)
        rec = self.record
        verdict["attempt"], verdict["anomaly_step"] = int(rec["attempt"]), int(rec["step"])
        verdict["replayed_in_attempt"] = rt.attempt
        hosts = list(rec.get("hosts") or [])
        where = ", ".join(
            f"rank {r} on {hosts[r] if 0 <= r < len(hosts) else '?'}" for r in verdict["ranks"]
        )
        culprit = f"the replay names {where}" if verdict["ranks"] else "undetermined"
        _log.warning(
            "replica tie of attempt %s at step %s: %s (%s)",
            rec["attempt"],
            rec["step"],
            culprit,
            verdict["reason"],
        )
        if rt.rank == 0 and rt.run_dir is not None:
            updated = {**rec, "attribution": verdict}
            if verdict["ranks"]:
                updated["tie_ranks"] = list(rec.get("ranks") or [])
                updated["ranks"] = list(verdict["ranks"])
                updated["detail"] = f"{rec.get('detail', '')}; {culprit}"
            try:
                write_anomaly(rt.run_dir, updated)
            except OSError as e:
                _log.warning("could not record the replay's verdict: %s", e)
            rt.lifecycle(
                "sdc_attributed",
                step=int(rec["step"]),
                anomaly_attempt=int(rec["attempt"]),
                verdict=verdict["verdict"],
                ranks=list(verdict["ranks"]),
                hosts=[hosts[r] for r in verdict["ranks"] if 0 <= r < len(hosts)],
                reason=f"{culprit}: {verdict['reason']}",
            )
        return verdict


def _gather(mine: dict[int, str], group: Any) -> list[dict[int, str]]:
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()) or dist.get_world_size(group) == 1:
        return [mine]
    out: list[Any] = [None] * dist.get_world_size(group)
    dist.all_gather_object(out, mine, group=group)
    return [o or {} for o in out]


def gather_held(rt: Any, history: list[tuple[int, Any]]) -> tuple[list[str], dict[str, Any]]:
    """At an agreed anomaly, every rank together: every rank's host, and every rank's held
    fingerprint of each step in `history` ((step, per-tensor word sums on the device), kept
    with `history=on`), as {step: {rank: hex}} for the steps every rank has (one
    all_gather_object: every rank is here together)."""
    mine: dict[int, str] = {}
    if history:
        from nonstop.runtime.fingerprint import mix

        mine = {
            step: f"{mix(sums.cpu().tolist()):016x}" for step, sums in history if sums is not None
        }
    everyone: list[Any] = [(rt.host, mine)]
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1:
            everyone = [None] * dist.get_world_size()
            dist.all_gather_object(everyone, (rt.host, mine))
    except Exception as e:  # the record matters more than the host names
        _log.warning("could not gather hosts: %r", e)
        everyone = [(rt.host, {})] * max(1, int(rt.world_size))
    hosts = [str(h) for h, _ in everyone]
    steps = set.intersection(*(set(m) for _, m in everyone))
    held = {str(s): {str(r): m[s] for r, (_, m) in enumerate(everyone)} for s in sorted(steps)}
    return hosts, held
