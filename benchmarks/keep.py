"""Generated benchmark data kept across runs (NONSTOP_BENCH_DATA_DIR).

    NONSTOP_BENCH_DATA_DIR=/tmp/nonstop-bench-data python benchmarks/run.py rundir-scale
    NONSTOP_BENCH_DATA_DIR=/tmp/nonstop-bench-data python benchmarks/run.py flight-recorder
    rm -rf /tmp/nonstop-bench-data                      # done: 8.7 GB of dumps at 16,384 ranks

Unset (the default), each benchmark generates its data in a temporary directory and deletes it.
Set, a generated folder is kept under that directory by name and reused by the next run that
asks for the same name (the 16,384-rank dumps take minutes to write; flight-recorder and
rundir-scale write the same ones and share them). A folder counts as kept only once its
generation finished (a `NAME.complete` marker beside it, not in it: torchfrtrace reads every
file of a dump folder); a half-written one is generated again.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from nonstop import envvars


def data_dir() -> Path | None:
    """The directory kept data live in, or None when nothing is kept."""
    d = os.environ.get(envvars.BENCH_DATA_DIR, "").strip()
    return Path(d) if d else None


def kept(name: str, make: Callable[[Path], object], scratch: Path) -> tuple[Path, bool]:
    """(folder, is_kept): `name` under the data directory, made by `make(folder)` unless a
    finished one is there; without a data directory, `scratch / name` made afresh (the caller
    deletes it)."""
    base = data_dir()
    if base is None:
        folder = scratch / name
        make(folder)
        return folder, False
    folder, done = base / name, base / f"{name}.complete"
    if done.exists():
        return folder, True
    shutil.rmtree(folder, ignore_errors=True)
    base.mkdir(parents=True, exist_ok=True)
    make(folder)
    done.write_text("")
    return folder, True


def link_tree(src: Path, dst: Path) -> None:
    """dst as a copy of src's files by hard links (a copy where links fail)."""
    dst.mkdir(parents=True, exist_ok=True)
    for f in src.iterdir():
        if f.is_file():
            try:
                os.link(f, dst / f.name)
            except OSError:
                shutil.copy2(f, dst / f.name)
