"""Triage's external searchers (ripgrep, GNU grep), one at a time, for the tests that pin that
each finds exactly the candidate lines the Python scan finds (nonstop.diagnose.triage)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import pytest

from nonstop import envvars
from nonstop.diagnose import triage

SEARCHERS = ["rg", "grep"]


@contextlib.contextmanager
def using(name: str) -> Iterator[triage.Searcher]:
    """NONSTOP_TRIAGE_SEARCH=name for the block. A searcher missing from PATH skips the test,
    and fails it under CI (CI=1: .ci/run installs both)."""
    found = triage._probe(name)
    if found is None:
        why = f"no usable {name} on PATH"
        if os.environ.get("CI") == "1":
            pytest.fail(f"{why} (.ci/run installs it)")
        pytest.skip(why)
    old = os.environ.get(envvars.TRIAGE_SEARCH)
    os.environ[envvars.TRIAGE_SEARCH] = name
    try:
        assert triage._search() == found
        yield found
    finally:
        if old is None:
            os.environ.pop(envvars.TRIAGE_SEARCH, None)
        else:
            os.environ[envvars.TRIAGE_SEARCH] = old
