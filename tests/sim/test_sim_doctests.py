"""The examples in the sim modules' docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["interval", "config", "result", "calibrate", "replica", "project"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"nonstop.sim.{name}")
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0
