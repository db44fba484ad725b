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
