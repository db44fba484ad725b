"""Import direction is architecture: every package imports only the layers below it (an AST
scan of every import, lazy ones inside functions included), no package-level cycle, and the
contract, the runtime and the numerics never load torch."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import nonstop.cli


@pytest.mark.parametrize(
    "module",
    [
        "nonstop",
        "nonstop.taxonomy",
        "nonstop.envvars",
        "nonstop.log",
        "nonstop.events",
        "nonstop.rundir",
        "nonstop.anomalies",
        "nonstop.kmsg",
        "nonstop.device",
        "nonstop.ledger",
        "nonstop.faults",
        "nonstop.runtime",
        "nonstop.diagnose",
        "nonstop.report",
        "nonstop.sim",
        "nonstop.plan",
        "nonstop.cli",
    ],
)
def test_module_does_not_import_torch(module):
    code = f"import sys, {module}; sys.exit(1 if 'torch' in sys.modules else 0)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"importing {module} loaded torch\n{r.stderr}"


def test_public_cli_verbs_are_pinned():
    assert list(nonstop.cli.VERBS) == [
        "run",
        "demo",
        "report",
        "diagnose",
        "triage",
        "simulate",
        "plan",
        "drain",
        "restart",
        "ctl",
    ]


def test_cli_help_and_unknown_verb(capsys):
    assert nonstop.cli.main([]) == 0
    assert "verbs:" in capsys.readouterr().out
    assert nonstop.cli.main(["frobnicate"]) == 2
    assert "unknown verb" in capsys.readouterr().err


def test_top_level_section_is_a_no_op_without_a_runtime():
    import nonstop

    with nonstop.section("checkpoint"):
        pass
    assert "section" in nonstop.__all__


# -- the import direction (ARCHITECTURE.md, "Import direction") ---------------------------------

PACKAGE = Path(nonstop.cli.__file__).parent
CONTRACT = frozenset(
    {"taxonomy", "errors", "envvars", "log", "rundir", "events", "anomalies", "kmsg", "device"}
)
BELOW_SUPERVISOR = CONTRACT | {
    "ledger",
    "faults",
    "runtime",
    "sim",
    "plan",
    "diagnose",
    "report",
    "checkpoint",
}
ALLOWED: dict[str, frozenset[str]] = {
    **{name: CONTRACT for name in CONTRACT},  # standard library only; only each other
    "ledger": CONTRACT,
    "faults": CONTRACT,
    "runtime": CONTRACT | {"faults"},
    "sim": CONTRACT | {"ledger"},
    "plan": CONTRACT | {"ledger", "sim"},
    "diagnose": CONTRACT | {"ledger", "runtime"},  # runtime: its NVML loader, lazily
    "report": CONTRACT | {"ledger"},
    "checkpoint": CONTRACT | {"ledger", "sim", "faults", "runtime"},
    "workloads": CONTRACT | {"faults", "runtime", "checkpoint"},
    "supervisor": BELOW_SUPERVISOR,
    "demo": BELOW_SUPERVISOR | {"supervisor"},
    "cli": BELOW_SUPERVISOR | {"supervisor", "demo"},
}
"""Which packages each package of nonstop may import (a module of the top level counts as a
package). The root `nonstop/__init__.py` is the public API over all of them and is not in it;
`from nonstop import __version__` is its metadata, not an import of a layer."""


def _package(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _imported(path: Path) -> list[tuple[str, int]]:
    """Every package of nonstop that `path` imports, anywhere in it (top level, functions,
    TYPE_CHECKING blocks), with the line."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against this file's package
                parts = list(path.relative_to(PACKAGE).parts[:-1])
                parts = parts[: len(parts) - (node.level - 1)]
                names = [".".join(["nonstop", *parts, *([node.module] if node.module else [])])]
            else:
                names = [node.module or ""]
            if names == ["nonstop"]:  # from nonstop import log, faults, __version__
                names = [f"nonstop.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] != "nonstop" or len(parts) < 2:
                continue
            top = parts[1]
            if (PACKAGE / top).is_dir() or (PACKAGE / f"{top}.py").is_file():
                out.append((top, node.lineno))
    return out


def _edges() -> dict[str, dict[str, str]]:
    """package -> {imported package: where (file:line, the first one)}."""
    edges: dict[str, dict[str, str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":
            continue
        src = _package(path)
        for dst, line in _imported(path):
            if dst != src:
                edges.setdefault(src, {}).setdefault(dst, f"{path.relative_to(PACKAGE)}:{line}")
    return edges


def test_every_package_has_a_place_in_the_layers():
    packages = {_package(p) for p in PACKAGE.rglob("*.py") if p != PACKAGE / "__init__.py"}
    assert packages - set(ALLOWED) == set(), "add the new package to ALLOWED and ARCHITECTURE.md"


def test_every_import_points_down_the_layers():
    wrong = [
        f"{src} -> {dst} ({where})"
        for src, targets in sorted(_edges().items())
        for dst, where in sorted(targets.items())
        if dst not in ALLOWED[src]
    ]
    assert wrong == [], "imports against the layering (ARCHITECTURE.md):\n" + "\n".join(wrong)


def test_no_package_level_cycle():
    edges = {src: set(targets) for src, targets in _edges().items()}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            pytest.fail("package-level import cycle: " + " -> ".join(cycle))


def test_the_scan_sees_lazy_imports():
    """A function-level import counts: the scan reads the whole tree, not the module's top."""
    assert "kmsg" in {dst for dst, _ in _imported(PACKAGE / "faults.py")}  # inside _write_xid
