"""The examples in nonstop.plan's docstrings run and give what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["__init__", "laws", "hardware", "inference", "planner", "reliability", "render"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(
        "nonstop.plan" if name == "__init__" else f"nonstop.plan.{name}"
    )
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{module.__name__} has no examples"
    assert result.failed == 0
