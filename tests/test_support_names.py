"""The test helpers' package keeps its exports reachable: a submodule of `support` named like
one of its exports replaces that export on the package once any test imports the submodule
(a `support/rows.py` once shadowed `rows()` and every later test that called it failed)."""

from __future__ import annotations

import pkgutil

import support


def test_no_support_submodule_shadows_an_export() -> None:
    modules = {m.name for m in pkgutil.iter_modules(support.__path__)}
    assert modules and set(support.__all__)
    assert not modules & set(support.__all__), sorted(modules & set(support.__all__))
