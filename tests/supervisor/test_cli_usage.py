"""`nonstop run` usage errors: one line on stderr, exit 2, nothing started and no run directory
left behind (issue 20, items 4 and 5). In-process: each fails before a rank would start."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from nonstop.cli import main

SCRIPT = "train.py"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / SCRIPT).write_text("print('never runs')\n")
    return tmp_path


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(["run", "--quiet", *argv])
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("nonstop run: error: ")
    return lines[0]


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--nproc-per-node", "0"], "at least 1"),
        (["--memory-checkpoint-every", "sometimes"], "a number of steps (0: off) or 'auto'"),
        (["--memory-checkpoint-every", "-3"], "got '-3'"),
        (["--nproc-per-node", "-1"], "at least 1"),
        (["--nproc-per-node", "abc"], "'abc'"),
        (["--nnodes", "0"], "--nnodes"),
        (["--nnodes", "3:2"], "--nnodes"),
        (["--nnodes", "x"], "--nnodes"),
        (["--max-restarts", "-1"], "--max-restarts"),
        (["--local-ranks-filter", "a,b"], "--local-ranks-filter"),
        (["--tee", "9"], "--tee"),
        (["--redirects", "x"], "--redirects"),
        (["--logs-specs", "mine"], "--logs-specs"),
        (["--duplicate-stderr-filters", "oops"], "--duplicate-stderr-filters"),
        (["--signals-to-handle", "SIGNOPE"], "SIGNOPE"),
        (["--rdzv-conf", "=x"], "rendezvous configuration"),
        (["--exit-timeout", "0"], "--exit-timeout must be seconds above 0, got 0"),
        (["--startup-timeout", "-5"], "--startup-timeout must be seconds above 0, got -5"),
        (["--section-timeout", "nan"], "--section-timeout must be seconds above 0"),
        (["--health-timeout", "inf"], "--health-timeout"),
        (["--evidence-timeout", "-1"], "--evidence-timeout must be seconds 0 or more"),
        (["--network-hold", "-1"], "--network-hold must be seconds 0 or more"),
        (["--grace-period", "-0.5"], "--grace-period must be seconds 0 or more"),
        (["--sigterm-grace", "0"], "--sigterm-grace must be seconds above 0, got 0"),
        (["--telemetry-interval", "-1"], "--telemetry-interval must be seconds 0 or more"),
        (["--guards", "window=0"], "--guards: window must be >= 1"),
        (["--stop-check-every", "0"], "--stop-check-every must be 1 or more, got 0"),
        (["--watcher-tick", "0"], "--watcher-tick must be seconds above 0, got 0"),
        (["--guards", "often"], "--guards: NONSTOP_HEALTH: 'often' is not one of"),
    ],
)
def test_bad_flag_is_one_line_exit_2_and_leaves_no_run_dir(
    here: Path, capsys: pytest.CaptureFixture[str], flags: list[str], words: str
) -> None:
    line = usage_error(capsys, *flags, SCRIPT)
    assert words in line
    assert not (here / "runs").exists()


def test_a_bad_background_nice_is_one_line_exit_2_before_any_rank(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ranks read it; refused by each rank, it cost a restart per attempt."""
    monkeypatch.setenv("NONSTOP_BACKGROUND_NICE", "abc")
    line = usage_error(capsys, "--memory-checkpoint-every", "1", SCRIPT)
    assert "NONSTOP_BACKGROUND_NICE='abc'" in line
    assert not (here / "runs").exists()


def test_missing_script_module_or_program(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "no such file" in usage_error(capsys, "nothere.py")
    (here / "adir").mkdir()
    assert "is not a file" in usage_error(capsys, "adir")
    assert "no module named 'nosuchmod'" in usage_error(capsys, "-m", "nosuchmod.train")
    assert "no such program" in usage_error(capsys, "--no-python", "no-such-binary-xyz")
    assert not (here / "runs").exists()


def test_run_dir_that_cannot_be_created(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # missing parent that cannot be made (/proc refuses new entries, even to root)
    assert "cannot create it" in usage_error(capsys, "--run-dir", "/proc/nonstop/x", SCRIPT)
    # a parent that is a file
    assert "Not a directory" in usage_error(capsys, "--run-dir", f"{SCRIPT}/sub", SCRIPT)
    # a run directory that is a file
    (here / "afile").write_text("")
    assert "cannot create it" in usage_error(capsys, "--run-dir", "afile", SCRIPT)
    assert not (here / "runs").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_run_dir_without_permission(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = here / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert "Permission denied" in usage_error(capsys, "--run-dir", "locked/run", SCRIPT)
        assert not (locked / "run").exists()
    finally:
        locked.chmod(stat.S_IRWXU)


def test_permission_denied_as_root_too(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """/sys refuses new directories even to root: the PermissionError path."""
    line = usage_error(capsys, "--run-dir", "/sys/kernel/nonstop-run", SCRIPT)
    assert "Operation not permitted" in line or "Permission denied" in line


def test_log_dir_that_is_a_file(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "logs.txt").write_text("")
    assert "--log-dir" in usage_error(capsys, "--log-dir", "logs.txt", SCRIPT)
    assert not (here / "runs").exists()


def test_signals_to_handle_forwards_all_but_the_planned_stop_signals() -> None:
    from nonstop.supervisor.config import signals_to_forward

    # torchrun's default list: SIGTERM is nonstop's planned stop, the rest are forwarded
    assert signals_to_forward("SIGTERM,SIGINT,SIGHUP,SIGQUIT") == "SIGINT,SIGHUP,SIGQUIT"
    assert signals_to_forward("SIGINT,SIGUSR1,SIGUSR2,SIGPIPE") == "SIGINT,SIGPIPE"


# nonstop's own flags of `nonstop run` (torchrun's are torch's parser): the public CLI, pinned
NONSTOP_FLAGS = [
    "--run-dir",
    "--hang-timeout",
    "--startup-timeout",
    "--section-timeout",
    "--exit-timeout",
    "--health-checks",
    "--no-self-test",
    "--health-timeout",
    "--no-exclude",
    "--network-hold",
    "--evidence-timeout",
    "--inject",
    "--grace-period",
    "--sigterm-grace",
    "--guards",
    "--telemetry-interval",
    "--kernel-log",
    "--cloud-notices",
    "--cloud-metadata-url",
    "--stop-check-every",
    "--watcher-tick",
    "--host-name",
    "--metrics-port",
    "--metrics-host",
    "--memory-checkpoint-every",
    "--replicas",
    "--replica-addr",
    "--rdzv-fallback-endpoints",
    "--replica-capacity-gb",
    "--no-standby",
    "--replica-groups",
    "--replica-group",
    "--lighthouse",
    "--serve-lighthouse",
    "--quiet",
]


def test_run_help_lists_nonstops_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """`nonstop run --help`: the nonstop group holds exactly these flags, each with its help;
    a setting that changes behaviour has one (SupervisorConfig, docs/run.md)."""
    from nonstop.supervisor.cli import build_parser

    (group,) = [g for g in build_parser()._action_groups if g.title == "nonstop"]
    assert [a.option_strings[0] for a in group._group_actions] == NONSTOP_FLAGS
    assert all(a.help for a in group._group_actions)
    with pytest.raises(SystemExit) as done:
        main(["run", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for flag in NONSTOP_FLAGS:
        assert flag in out, flag
