"""The one table of environment variables (nonstop/envvars.py): every NONSTOP_* name in the
repository is declared there, the package names them through its constants, and
docs/environment.md is the table's rendering."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from nonstop import envvars

REPO = Path(__file__).resolve().parents[1]
NAME = re.compile(r"\bNONSTOP_[A-Z][A-Z0-9_]*[A-Z0-9]\b")
SEARCHED = ("nonstop", "benchmarks", "examples", "docs", "tests")
SUFFIXES = {".py", ".md", ".sbatch", ".yaml", ".yml", ".sh", ".toml", ".txt"}
# Files still naming variables by string literal: none left (issue 15's supervisor split).
PENDING_LITERALS: set[str] = set()


def undeclared(root: Path, dirs: tuple[str, ...] = SEARCHED) -> dict[str, list[str]]:
    """{NONSTOP_ name not in the table: [files naming it]} under root/dirs."""
    found: dict[str, list[str]] = {}
    for d in dirs:
        for path in sorted((root / d).rglob("*")):
            if (
                path.suffix not in SUFFIXES
                or not path.is_file()
                or path.name == Path(__file__).name
            ):
                continue
            for name in set(NAME.findall(text(path))):
                if name not in envvars.BY_NAME:
                    found.setdefault(name, []).append(str(path.relative_to(root)))
    return found


def text(path: Path) -> str:
    """What may name a variable: a Python file's strings and comments (an identifier such as
    NONSTOP_FLAGS is not a variable), any other file whole."""
    source = path.read_text(errors="replace")
    if path.suffix != ".py":
        return source
    kinds = (tokenize.STRING, tokenize.COMMENT)
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return "\n".join(t.string for t in tokens if t.type in kinds)


def literals(path: Path) -> list[str]:
    """String constants in a module that are exactly a NONSTOP_ variable's name (a docstring
    that mentions one is fine; code reads them through envvars' constants)."""
    tree = ast.parse(path.read_text())
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and NAME.fullmatch(n.value)
    ]


def test_every_nonstop_variable_in_the_repository_is_declared():
    assert undeclared(REPO) == {}, (
        "declare it in nonstop/envvars.py's TABLE, then: python -m nonstop.envvars > "
        "docs/environment.md"
    )


def test_an_undeclared_variable_is_caught(tmp_path):
    (tmp_path / "nonstop").mkdir()
    bogus = "NONSTOP_" + "NOT_DECLARED_ANYWHERE"
    (tmp_path / "nonstop" / "x.py").write_text(f'os.environ.get("{bogus}")\n')
    (tmp_path / "nonstop" / "y.py").write_text('os.environ.get("NONSTOP_RUN_DIR")\n')
    assert undeclared(tmp_path, ("nonstop",)) == {bogus: ["nonstop/x.py"]}
    assert literals(tmp_path / "nonstop" / "x.py") == [bogus]


def test_the_package_reads_variables_through_the_table():
    offenders = {}
    for path in sorted((REPO / "nonstop").rglob("*.py")):
        rel = str(path.relative_to(REPO))
        if rel == "nonstop/envvars.py" or rel in PENDING_LITERALS:
            continue
        if found := literals(path):
            offenders[rel] = found
    assert offenders == {}, "use nonstop.envvars' constants, not string literals"


def test_every_nonstop_variable_has_a_constant():
    constants = {v for k, v in vars(envvars).items() if k.isupper() and isinstance(v, str)}
    for var in envvars.TABLE:
        assert var.meaning and var.set_by and var.read_by and var.default, var
        if var.name.startswith("NONSTOP_"):
            assert var.name in constants, f"{var.name} has no constant in nonstop/envvars.py"


def test_standby_refuses_exactly_the_per_worker_variables():
    from nonstop.supervisor.standby import RANK_ENV

    assert RANK_ENV == envvars.PER_WORKER
    assert {"RANK", "LOCAL_RANK", "WORLD_SIZE", envvars.RUN_DIR, envvars.ATTEMPT} <= RANK_ENV


def test_docs_page_is_the_tables_rendering():
    page = (REPO / "docs" / "environment.md").read_text()
    assert page == envvars.markdown(), "regenerate: python -m nonstop.envvars > docs/environment.md"
