"""nonstop.log: one handler, the prefix, the supervisor's exact `nonstop run:` lines, and
swallowed exceptions logged (at DEBUG with the traceback; WARNING when unexpected)."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from nonstop import envvars, log


@pytest.fixture(autouse=True)
def _restore(monkeypatch):
    monkeypatch.delenv(envvars.LOG_LEVEL, raising=False)
    monkeypatch.delenv(envvars.LOG_PREFIX, raising=False)
    yield
    log.reset()


def ours() -> list[logging.Handler]:
    return [h for h in logging.getLogger("nonstop").handlers if h.get_name() == "nonstop"]


def test_get_names_a_child_of_nonstop():
    assert log.get("faults") is logging.getLogger("nonstop.faults")


def test_the_supervisor_s_lines_are_today_s_format_on_stdout(capsys):
    log.setup(log.RUN, host="n1", attempt=2)
    log.get("agent").info("hang detected after %.1f s", 5.0)
    out, err = capsys.readouterr()
    assert out == "nonstop run: hang detected after 5.0 s\n" and err == ""


def test_a_rank_s_lines_carry_what_is_known_on_stderr(capsys):
    log.setup(log.RANK, host="n1", attempt=3, rank=1)
    log.get("faults").warning("crash never fired")
    log.setup(log.RANK, rank=0)  # only the rank known: only the rank shown
    log.get("bootstrap").warning("no dump")
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "nonstop[host n1 attempt 3 rank 1] nonstop.faults: crash never fired",
        "nonstop[rank 0] nonstop.bootstrap: no dump",
    ]


def test_prefix_follows_the_variable_and_debug(capsys, monkeypatch):
    monkeypatch.setenv(envvars.LOG_PREFIX, "1")
    log.setup(log.RUN, host="n1", attempt=1)
    log.get("agent").info("a")
    monkeypatch.setenv(envvars.LOG_PREFIX, "0")
    log.setup(log.RANK, host="n1", attempt=1, rank=0)
    log.get("faults").info("b")
    monkeypatch.delenv(envvars.LOG_PREFIX)
    log.setup(log.RUN, host="n1", level="DEBUG")
    log.set_context(attempt=4)  # a new attempt
    log.get("agent").debug("c")
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "nonstop[host n1 attempt 1] nonstop run: a",
        "nonstop[host n1 attempt 4] nonstop run: c",
    ]
    assert err == "nonstop.faults: b\n"


def test_set_context_refuses_an_unknown_field():
    with pytest.raises(ValueError, match="step"):
        log.set_context(step=3)


def test_setup_is_idempotent(capsys):
    for _ in range(3):
        log.setup(log.RANK, rank=0)
    assert len(ours()) == 1 and not logging.getLogger("nonstop").propagate
    log.get("x").warning("once")
    assert capsys.readouterr().err.count("once") == 1


def test_level_from_the_environment(monkeypatch, capsys):
    monkeypatch.setenv(envvars.LOG_LEVEL, "warning")
    log.setup(log.RUN)
    log.get("agent").info("hidden")
    log.get("agent").warning("shown")
    assert capsys.readouterr().out == "nonstop run: shown\n"
    assert log.level_from_env({envvars.LOG_LEVEL: "nonsense"}) == logging.INFO
    assert log.level_from_env({envvars.LOG_LEVEL: "10"}) == logging.DEBUG
    with pytest.raises(ValueError, match="nonsense"):
        log.setup(log.RUN, level="nonsense")


def test_swallowed_logs_at_debug_with_the_traceback(capsys):
    log.setup(log.RANK, rank=0, level=logging.DEBUG)
    with log.swallowed(log.get("bootstrap"), "reading the flight recorder"):
        raise ValueError("no process group")
    err = capsys.readouterr().err
    assert "nonstop.bootstrap: reading the flight recorder: ValueError('no process group')" in err
    assert (
        "Traceback (most recent call last)" in err and 'raise ValueError("no process group")' in err
    )


def test_swallowed_is_silent_at_info_unless_unexpected(capsys):
    log.setup(log.RANK, rank=0)
    with log.swallowed(log.get("standby"), "closing stdin", expected=OSError):
        raise OSError("closed")
    assert capsys.readouterr().err == ""
    with log.swallowed(log.get("standby"), "closing stdin", expected=OSError):
        raise KeyError("bug")
    err = capsys.readouterr().err
    assert err == "nonstop[rank 0] nonstop.standby: closing stdin: KeyError('bug') (ignored)\n"


def test_swallowed_expects_nothing_by_default(capsys):
    """A site that names no expected kind says every failure at WARNING (issue 26: the old
    default, any Exception, hid them all at DEBUG)."""
    log.setup(log.RANK, rank=0)
    with log.swallowed(log.get("agent"), "recording the spawn phase (lost)"):
        raise RuntimeError("database is locked")
    err = capsys.readouterr().err
    assert "recording the spawn phase (lost): RuntimeError('database is locked')" in err


def test_swallowed_never_swallows_base_exceptions():
    with pytest.raises(KeyboardInterrupt), log.swallowed(log.get("x"), "x"):
        raise KeyboardInterrupt


def test_before_setup_records_reach_stderr_and_propagate(caplog, capsys):
    with caplog.at_level(logging.WARNING, logger="nonstop.checkpoint"):
        log.get("checkpoint").warning("skipping step 3")
    assert "skipping step 3" in caplog.text
    assert capsys.readouterr().err == "nonstop.checkpoint: skipping step 3\n"


def test_log_is_standard_library_only():
    code = (
        "import sys, nonstop.log; bad = [m for m in sys.modules if m.startswith('nonstop.')"
        " and m not in ('nonstop.log', 'nonstop.envvars')]; sys.exit(1 if bad or 'torch' in"
        " sys.modules else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
