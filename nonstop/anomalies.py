"""The numerical anomaly records in a run directory (part of the contract: standard library
only). The ranks' guards (nonstop.runtime.guards) write one record per agreed detection; the
supervisor's rollback, the checkpointer (no resume from a checkpoint taken after one), diagnose
and the report read them. Kept here, below all of those, so that none imports another's layer.

    run_dir/health/anomaly-<attempt>-<step>.json   {"kind": "nan", "attempt": 0, "step": 12, ...}
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

EXIT_ROLLBACK: Final = 86
"""Exit code of every rank after an agreed anomaly: roll back (nonstop's own; not sysexits)."""
HEALTH_DIR: Final = "health"
"""run_dir/health/anomaly-<attempt>-<step>.json: one record per detection (rank 0 writes it)."""
KINDS: Final = ("nan", "sdc", "spike")
CATEGORY: Final[dict[str, str]] = {
    "nan": "numerical_nan",
    "spike": "loss_spike",
    "sdc": "silent_data_corruption",
}
"""The taxonomy's category of each kind of anomaly."""


def anomaly_path(run_dir: Path, attempt: int, step: int) -> Path:
    return Path(run_dir) / HEALTH_DIR / f"anomaly-{attempt}-{step}.json"


def write_anomaly(run_dir: Path, record: Mapping[str, Any]) -> Path:
    """Write one record atomically (temporary file, rename)."""
    path = anomaly_path(run_dir, int(record["attempt"]), int(record["step"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(dict(record), indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)
    return path


def read_anomalies(run_dir: Path | str) -> list[dict[str, Any]]:
    """Every anomaly record of the run, oldest first; unreadable files are skipped."""
    folder = Path(run_dir) / HEALTH_DIR
    out = []
    for p in sorted(folder.glob("anomaly-*.json")) if folder.is_dir() else []:
        try:
            d = json.loads(p.read_text())
            if isinstance(d, dict) and d.get("kind") in KINDS:
                out.append(d)
        except (OSError, ValueError):
            continue
    return sorted(out, key=lambda d: (int(d.get("attempt", 0)), int(d.get("step", 0))))


# -- naming the corrupted replica of a tie by replay (docs/health.md) ---------------------------

Fingerprints = Mapping[int, Mapping[int, str]]
"""{step: {rank: fingerprint (hex)}}: the state each rank held, or computed again, after a step."""


def held_fingerprints(record: Mapping[str, Any]) -> dict[int, dict[int, str]]:
    """{step: {rank: hex}} the ranks held when they agreed on an sdc anomaly: the step at which
    the replicas last agreed (every rank the agreed fingerprint) and the anomaly's own step
    (each rank its own), plus whatever per-step history the record carries (`held`)."""
    out: dict[int, dict[int, str]] = {}
    for step, by_rank in (record.get("held") or {}).items():
        out[int(step)] = {int(r): str(fp) for r, fp in by_rank.items()}
    fps = {int(r): str(fp) for r, fp in (record.get("fingerprints") or {}).items()}
    good, agreed = record.get("last_good_step"), record.get("last_good_fingerprint")
    if good is not None and agreed and fps:
        out.setdefault(int(good), dict.fromkeys(fps, str(agreed)))
    if fps:
        out[int(record["step"])] = fps
    return out


def attribute(held: Fingerprints, replayed: Fingerprints) -> dict[str, Any]:
    """Which replica's held state was corrupted, from a deterministic replay of the same steps.

    `held`: what each rank held after each step before the anomaly ({step: {rank: hex}});
    `replayed`: what each rank computed when it trained the same steps again from a verified
    checkpoint. Walking the steps both know, in order: the first step at which some rank's held
    state differs from its replay names that rank, provided an earlier step was reproduced
    exactly by every rank (the replay is deterministic) and not every rank differs there.
    Anything else is undetermined, never a guess: {verdict: "replay" | "undetermined",
    ranks: the corrupted ranks ([] when undetermined), step: where it was decided, reason}."""

    def undetermined(why: str, step: int | None = None) -> dict[str, Any]:
        return {"verdict": "undetermined", "ranks": [], "step": step, "reason": why}

    steps = sorted(
        s for s in held if s in replayed and held[s] and set(held[s]) <= set(replayed[s])
    )
    if not steps:
        return undetermined("the replay reached no step whose held fingerprints are on record")
    reproduced: int | None = None
    for s in steps:
        again = {replayed[s][r] for r in held[s]}
        if len(again) > 1:  # the replicas disagree in the replay too: no clean reference
            return undetermined(
                f"the replay's own replicas disagree at step {s} (the corruption recurred)", s
            )
        differ = sorted(r for r in held[s] if held[s][r] != replayed[s][r])
        if not differ:
            reproduced = s
            continue
        if reproduced is None:
            return undetermined(
                f"every replayed step differs from what the ranks held (from step {s} on): the "
                f"replay is not shown to be deterministic, or no checkpoint precedes the "
                f"corruption",
                s,
            )
        if len(differ) == len(held[s]):
            return undetermined(
                f"every rank's held state differs from the replay at step {s} (reproduced "
                f"at step {reproduced}): the corruption reached every replica within one step",
                s,
            )
        names = ", ".join(map(str, differ))
        return {
            "verdict": "replay",
            "ranks": differ,
            "step": s,
            "reason": f"rank(s) {names} held a state at step {s} that the deterministic replay "
            f"does not reproduce; the other replica(s) reproduced it (and every rank reproduced "
            f"step {reproduced})",
        }
    return undetermined(
        f"the replay reproduced every rank's held state up to step {steps[-1]} (neither differs)",
        steps[-1],
    )
