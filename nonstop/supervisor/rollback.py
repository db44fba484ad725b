"""The supervisor's decision after the ranks' guards agreed on a numerical anomaly.

The ranks (nonstop.runtime.guards) detect NaN/Inf, loss spikes and replicas whose parameter
fingerprints disagree; every rank records it (rank 0 writes run_dir/health/anomaly-A-S.json)
and exits with EXIT_ROLLBACK. The restart is the rollback: the next attempt loads the newest
checkpoint taken before the anomaly (the guards verify the replicas before every save, so no
checkpoint of corrupted parameters exists; nonstop.checkpoint refuses one as a second line of
defence) and, after a spike, skips the batches the record names. What this module decides is
whether restarting is still the right thing, from every anomaly record of the run:

    silent_data_corruption  first time: restart (re-run), the named replica's node is suspect;
                            the same node named again: exclude_node; a tie (2 replicas) that
                            repeats across nodes: stop_and_page (no majority to say which).
                            A tie the re-run's replay attributed (nonstop.runtime.sdc_replay)
                            names its corrupted rank like a majority; an undetermined one
                            never gets a node excluded
    numerical_nan           restart; a NaN again within NAN_RECUR_STEPS steps of an earlier
                            one, after its rollback: stop_and_page with the evidence
    loss_spike              restart and skip; SPIKE_LIMIT spikes within SPIKE_RECUR_STEPS
                            steps of each other: stop_and_page (skipping does not help)

Pure functions of the records, so a supervisor started again decides the same. Standard
library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from nonstop.anomalies import CATEGORY, HEALTH_DIR

NAN_RECUR_STEPS: Final = 100
SPIKE_RECUR_STEPS: Final = 100
SPIKE_LIMIT: Final = 3


def decide(anomalies: Sequence[Mapping[str, Any]], attempt: int) -> dict[str, Any]:
    """{category, action, reason, evidence, hosts} for `attempt`'s anomaly, given every record
    of the run (oldest first). No record for the attempt: category unknown, restart."""
    mine = [a for a in anomalies if int(a.get("attempt", -1)) == attempt]
    if not mine:
        return {
            "category": "unknown",
            "action": "restart",
            "hosts": [],
            "evidence": [],
            "reason": f"the ranks exited for a rollback but left no record under "
            f"{HEALTH_DIR}/ (restarting from the newest checkpoint)",
        }
    cur = max(mine, key=lambda a: int(a["step"]))
    earlier = [a for a in anomalies if int(a.get("attempt", -1)) < attempt]
    kind, step = str(cur["kind"]), int(cur["step"])
    hosts = list(cur.get("hosts") or [])
    named = [int(r) for r in cur.get("ranks") or []]
    where = ", ".join(f"rank {r} on {_host(hosts, r)}" for r in named)
    evidence = [f"{HEALTH_DIR}/anomaly-{attempt}-{step}.json: {cur.get('detail', '')}"]
    evidence += [
        f"attempt {a['attempt']} step {a['step']}: {a.get('detail', '')}"
        for a in earlier
        if a.get("kind") == kind
    ][-5:]
    out: dict[str, Any] = {
        "category": CATEGORY.get(kind, "unknown"),
        "action": "restart",
        "hosts": [],
        "evidence": evidence,
    }
    if kind == "sdc":
        suspects = sorted({_host(hosts, r) for r in named})
        before = [a for a in earlier if a.get("kind") == "sdc"]
        seen = {h for a in before for h in _suspect_hosts(a)}
        sure = {h for a in before if _convicting(a) for h in _suspect_hosts(a)}
        again = sorted(set(suspects) & seen)
        if again and not _convicting(cur):
            out["action"] = "stop_and_page"
            out["reason"] = (
                f"replica fingerprints disagree again at step {step} ({where}) and "
                f"no majority says which of {', '.join(suspects)} is wrong"
            )
        elif set(suspects) & sure:
            out["action"] = "exclude_node"
            out["hosts"] = sorted(set(suspects) & sure)
            out["reason"] = (
                f"silent data corruption again on {', '.join(out['hosts'])} ({where}, "
                f"step {step}): excluding the node"
            )
        elif again:  # named before only by a tie nobody could attribute: suspect, not convicted
            out["reason"] = (
                f"replica parameters disagree at step {step}: {where} suspect; "
                f"{', '.join(again)} was named before only by an undetermined tie, and no node "
                f"is excluded on an undetermined verdict; re-running from the newest verified "
                f"checkpoint"
            )
        else:
            good = cur.get("last_good_step")
            since = f"; replicas last agreed at step {good}" if good is not None else ""
            tie = "" if cur.get("majority", True) else " (a tie: no majority among the replicas)"
            out["reason"] = (
                f"replica parameters disagree at step {step}: {where} suspect{tie}"
                f"{since}; re-running from the newest verified checkpoint, the "
                f"node is excluded if it happens again"
            )
    elif kind == "nan":
        prev = [
            a
            for a in earlier
            if a.get("kind") == "nan" and abs(int(a["step"]) - step) <= NAN_RECUR_STEPS
        ]
        if prev:
            out["action"] = "stop_and_page"
            out["reason"] = (
                f"NaN/Inf again at step {step} ({where or 'every rank'}) after the "
                f"rollback from step {prev[-1]['step']}: not transient; a human "
                f"must look (learning rate, data, model)"
            )
        else:
            out["reason"] = (
                f"{cur.get('detail', 'NaN/Inf')}; rolling back to the newest "
                f"checkpoint before step {step}"
            )
    elif kind == "spike":
        near = [
            a
            for a in earlier
            if a.get("kind") == "spike" and abs(int(a["step"]) - step) <= SPIKE_RECUR_STEPS
        ]
        if len(near) + 1 >= SPIKE_LIMIT:
            out["action"] = "stop_and_page"
            out["reason"] = (
                f"loss spike {len(near) + 1} times within {SPIKE_RECUR_STEPS} steps "
                f"(now at step {step}): skipping batches does not help"
            )
        else:
            n = int(cur.get("skip_batches", 0))
            skip = f", skipping batches of steps {step}..{step + n - 1}" if n else ""
            out["reason"] = (
                f"{cur.get('detail', 'loss spike')}; rolling back to the newest "
                f"checkpoint before step {step}{skip}"
            )
    return out


def _suspect_hosts(a: Mapping[str, Any]) -> set[str]:
    hosts = list(a.get("hosts") or [])
    return {_host(hosts, int(r)) for r in a.get("ranks") or []}


def _convicting(a: Mapping[str, Any]) -> bool:
    """Whether an sdc record says which node is wrong: a strict majority of replicas, a tie
    the re-run's replay attributed (nonstop.runtime.sdc_replay), or a tie whose named ranks
    all sit on one node. An undetermined tie across nodes convicts nobody."""
    if a.get("majority", True):
        return True
    if (a.get("attribution") or {}).get("verdict") == "replay":
        return True
    return len(_suspect_hosts(a)) == 1


def _host(hosts: Sequence[str], rank: int) -> str:
    return str(hosts[rank]) if 0 <= rank < len(hosts) else f"rank {rank}'s node"
