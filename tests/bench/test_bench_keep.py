"""benchmarks/keep.py: generated data kept under NONSTOP_BENCH_DATA_DIR is made once and reused;
a half-made folder (no marker) is made again; unset, it goes to the caller's scratch folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import keep
from nonstop import envvars


def test_kept_data_is_made_once_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(envvars.BENCH_DATA_DIR, str(tmp_path / "data"))
    made: list[Path] = []

    def make(folder: Path) -> None:
        made.append(folder)
        folder.mkdir()
        (folder / "rank-0").write_text("dump")

    first, kept = keep.kept("flight-2-40", make, tmp_path / "scratch")
    again, _ = keep.kept("flight-2-40", make, tmp_path / "scratch")
    assert kept and first == again == tmp_path / "data" / "flight-2-40" and len(made) == 1
    assert sorted(p.name for p in first.iterdir()) == ["rank-0"]  # the marker is beside it
    (tmp_path / "data" / "flight-2-40.complete").unlink()  # as if killed while writing
    keep.kept("flight-2-40", make, tmp_path / "scratch")
    assert len(made) == 2
    keep.link_tree(first, tmp_path / "linked")
    assert (tmp_path / "linked" / "rank-0").stat().st_ino == (first / "rank-0").stat().st_ino


def test_without_a_data_dir_the_scratch_folder_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(envvars.BENCH_DATA_DIR, raising=False)
    folder, kept = keep.kept("x", lambda f: f.mkdir(), tmp_path)
    assert (folder, kept) == (tmp_path / "x", False) and folder.is_dir()
