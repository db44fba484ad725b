"""Import direction is architecture: the contract and the numerics never load torch."""

import subprocess
import sys

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
        "nonstop.ledger",
        "nonstop.runtime",
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
