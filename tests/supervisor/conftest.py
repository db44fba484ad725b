"""Fixtures of the supervisor tests (real `nonstop run` processes on CPU/gloo); their helpers
are in tests/support (`from support import nonstop_run, rows, TINY`)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return tmp_path / "run"
