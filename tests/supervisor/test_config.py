"""SupervisorConfig is the supervisor's one configuration channel: built once from the command
line, recorded in config.json as resolved, with its defaults in one place; the workers get
their settings through torch's per-worker environment, never through the supervisor's own."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nonstop import rundir
from nonstop.errors import UserError
from nonstop.supervisor import cli
from nonstop.supervisor.config import SupervisorConfig, default

RD = rundir.RunDir(Path("/tmp/nonstop-test-config-unused"))


@pytest.fixture(autouse=True)
def _no_settings_from_outside(monkeypatch: pytest.MonkeyPatch) -> None:
    """The flags' defaults read these (a scheduler script's or the user's): none here."""
    for name in (
        "NONSTOP_SIGTERM_GRACE_S",
        "NONSTOP_HEALTH",
        "NONSTOP_TELEMETRY_S",
        "NONSTOP_KERNEL_LOG",
        "TORCH_DISABLE_SHARE_RDZV_TCP_STORE",
        "NONSTOP_CLOUD_METADATA_URL",
        "NONSTOP_STOP_CHECK_EVERY",
        "NONSTOP_TICK_S",
    ):
        monkeypatch.delenv(name, raising=False)


def _cfg(*flags: str) -> SupervisorConfig:
    args = cli.build_parser().parse_args([*flags, "train.py"])
    return SupervisorConfig.from_args(args, run_dir=RD, run_id="r1", host="node-a")


def test_defaults_are_the_dataclass_fields():
    cfg = _cfg()
    for f in (
        "startup_timeout_s",
        "section_timeout_s",
        "evidence_timeout_s",
        "network_hold_s",
        "health_timeout_s",
        "grace_period_s",
        "memory_checkpoint_every",
        "replicas",
        "replica_capacity_gb",
        "metrics_host",
        "health_checks",
        "metrics_port",
        "replica_addr",
    ):
        assert getattr(cfg, f) == default(f), f
    assert cfg.hang_timeout_s is None  # auto
    assert (cfg.exclude, cfg.self_test, cfg.standbys, cfg.quiet) == (True, True, True, False)
    assert (cfg.faults, cfg.multi_node, cfg.console_prefix, cfg.numa_binding) == (
        "",
        False,
        False,
        False,
    )


def test_the_flags_help_states_the_fields_defaults():
    parser = cli.build_parser()
    helps = {a.dest: (a.help or "", a.default) for a in parser._actions}
    assert "(default 300)" in helps["startup_timeout"][0]
    assert helps["startup_timeout"][1] == default("startup_timeout_s")
    assert "(default 120)" in helps["grace_period"][0]
    assert helps["grace_period"][1] == default("grace_period_s")
    assert helps["replica_capacity_gb"][1] == default("replica_capacity_gb")
    assert "default disk,memory,gpu,vendor" in helps["health_checks"][0]


FLAGS = [
    (["--hang-timeout", "30"], {"hang_timeout_s": 30.0}),
    (["--hang-timeout", "auto"], {"hang_timeout_s": None}),
    (["--health-checks", "none"], {"health_checks": ()}),
    (["--health-checks", "disk,collective"], {"health_checks": ("disk", "collective")}),
    (["--no-exclude", "--no-self-test"], {"exclude": False, "self_test": False}),
    (
        ["--inject", "crash@step=3,rank=1", "--inject", "hang@step=5"],
        {"faults": "crash@step=3,rank=1;hang@step=5"},
    ),
    (["--nnodes", "1:2"], {"multi_node": True}),
    (["--nnodes", "2"], {"multi_node": True}),
    (["--nnodes", "1"], {"multi_node": False}),
    (["--no-standby", "--quiet"], {"standbys": False, "quiet": True}),
    (["--tee", "3"], {"console_prefix": True}),
    (["--signals-to-handle", "SIGTERM,SIGINT,SIGUSR1"], {"signals_to_forward": "SIGINT"}),
    (
        ["--memory-checkpoint-every", "5", "--replicas", "2"],
        {"memory_checkpoint_every": 5, "replicas": 2},
    ),
    (["--memory-checkpoint-every", "AUTO"], {"memory_checkpoint_every": "auto"}),
    (
        ["--metrics-port", "9100", "--metrics-host", "0.0.0.0"],
        {"metrics_port": 9100, "metrics_host": "0.0.0.0"},
    ),
    (
        ["--startup-timeout", "12", "--grace-period", "7"],
        {"startup_timeout_s": 12.0, "grace_period_s": 7.0},
    ),
    (["--sigterm-grace", "25"], {"sigterm_grace_s": 25.0}),
    (["--guards", "off"], {"guards": "off"}),
    (["--guards", "spike_z=8,window=50"], {"guards": "spike_z=8,window=50"}),
    (["--telemetry-interval", "0"], {"telemetry_interval_s": 0.0}),
    (["--kernel-log", "/var/log/kern.log"], {"kernel_log": "/var/log/kern.log"}),
    (["--nnodes", "1:2"], {"store_per_attempt": True}),
    (["--nnodes", "1"], {"store_per_attempt": False}),
    (["--no-python"], {"store_per_attempt": True}),
    (
        ["--cloud-metadata-url", "http://127.0.0.1:8080/", "--stop-check-every", "4"],
        {"cloud_metadata_url": "http://127.0.0.1:8080", "stop_check_every": 4},
    ),
    (["--watcher-tick", "0.2"], {"watcher_tick_s": 0.2}),
]


@pytest.mark.parametrize(("flags", "want"), FLAGS, ids=[" ".join(f) for f, _ in FLAGS])
def test_from_args(flags, want):
    cfg = _cfg(*flags)
    assert {k: getattr(cfg, k) for k in want} == want


@pytest.mark.parametrize(
    ("flags", "msg"),
    [
        (["--hang-timeout", "soon"], "--hang-timeout must be seconds above 0 or 'auto'"),
        (["--signals-to-handle", "SIGNOPE"], "--signals-to-handle: unknown signal 'SIGNOPE'"),
        (["--guards", "spike_z=-1"], "--guards: spike_z must be a positive number"),
        (["--guards", "often"], "--guards: .*'often' is not one of"),
    ],
)
def test_from_args_refuses_bad_values(flags, msg):
    with pytest.raises(UserError, match=msg):
        _cfg(*flags)


def test_defaults_of_the_ranks_and_schedulers_settings_come_from_their_variables(
    monkeypatch: pytest.MonkeyPatch,
):
    """examples/slurm/nonstop.sbatch exports NONSTOP_SIGTERM_GRACE_S; users set the guards,
    telemetry and a kernel-log file by variable: each is the default of its flag, a flag given
    wins, and what a rank would have ignored (not a number, negative) is the field's default."""
    assert (_cfg().sigterm_grace_s, _cfg().guards, _cfg().kernel_log) == (None, "", "")
    assert _cfg().telemetry_interval_s == default("telemetry_interval_s")
    from nonstop.supervisor.cloud_notices import DEFAULT_BASE

    assert _cfg().cloud_metadata_url == DEFAULT_BASE
    assert (_cfg().stop_check_every, _cfg().watcher_tick_s) == (1, 0.5)
    monkeypatch.setenv("NONSTOP_CLOUD_METADATA_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("NONSTOP_STOP_CHECK_EVERY", "3")
    monkeypatch.setenv("NONSTOP_TICK_S", "0.25")
    cfg = _cfg()
    assert (cfg.cloud_metadata_url, cfg.stop_check_every, cfg.watcher_tick_s) == (
        "http://127.0.0.1:9",
        3,
        0.25,
    )
    monkeypatch.setenv("NONSTOP_STOP_CHECK_EVERY", "often")  # a rank took every step
    assert _cfg().stop_check_every == 1
    monkeypatch.setenv("NONSTOP_SIGTERM_GRACE_S", "28")
    monkeypatch.setenv("NONSTOP_HEALTH", "off")
    monkeypatch.setenv("NONSTOP_TELEMETRY_S", "2")
    monkeypatch.setenv("NONSTOP_KERNEL_LOG", "/shared/kern.log")
    cfg = _cfg()
    assert (cfg.sigterm_grace_s, cfg.guards, cfg.telemetry_interval_s, cfg.kernel_log) == (
        28.0,
        "off",
        2.0,
        "/shared/kern.log",
    )
    cfg = _cfg("--sigterm-grace", "5", "--guards", "", "--telemetry-interval", "1")
    assert (cfg.sigterm_grace_s, cfg.guards, cfg.telemetry_interval_s) == (5.0, "", 1.0)
    monkeypatch.setenv("NONSTOP_SIGTERM_GRACE_S", "0")
    monkeypatch.setenv("NONSTOP_TELEMETRY_S", "often")
    assert _cfg().sigterm_grace_s is None
    assert _cfg().telemetry_interval_s == default("telemetry_interval_s")
    monkeypatch.setenv("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", "0")  # the user's choice wins
    assert _cfg("--nnodes", "1:2").store_per_attempt is False


def test_to_dict_round_trips(tmp_path):
    args = cli.build_parser().parse_args(
        [
            "--hang-timeout",
            "9",
            "--inject",
            "crash@step=1",
            "--sigterm-grace",
            "12",
            "--guards",
            "fingerprint_every=5",
            "--telemetry-interval",
            "0",
            "--kernel-log",
            "/k.log",
            "--nnodes",
            "1:2",
            "x.py",
        ]
    )
    cfg = SupervisorConfig.from_args(
        args, run_dir=rundir.RunDir(tmp_path), run_id="r1", host="node-a"
    )
    assert cfg.store_per_attempt and cfg.sigterm_grace_s == 12.0 and cfg.kernel_log == "/k.log"
    back = SupervisorConfig.from_dict(json.loads(json.dumps(cfg.to_dict(), allow_nan=False)))
    assert back == cfg


SCRIPT = """
import json, os, sys
with open(sys.argv[1], "w") as f:
    json.dump(dict(os.environ), f)
"""

# The supervisor, in a process of its own (torch's agent leaves its log files to the garbage
# collector, which pytest would report at a later test): its os.environ before and after.
SUPERVISOR = """
import json, os, sys
from nonstop.supervisor import cli
before = dict(os.environ)
code = cli.main(sys.argv[2:])
after = dict(os.environ)
with open(sys.argv[1], "w") as f:
    json.dump({"code": code, "before": before, "after": after}, f)
"""


@pytest.mark.parametrize("no_python", [False, True], ids=["bootstrap", "no-python"])
def test_a_run_records_the_resolved_config_and_leaves_the_supervisors_environ_alone(
    tmp_path, no_python
):
    """A real `nonstop run` (one rank that writes its environment and exits): config.json holds
    the resolved settings, the rank got nonstop's variables through torch's per-worker
    environment, and the supervisor's own os.environ is what it was: not even torch's
    settings of the agent (the signals it forwards; with --no-python, a rendezvous store per
    attempt, which rank 0 hosts)."""
    script = tmp_path / "dump_env.py"
    script.write_text(SCRIPT)
    out, sup_out, run = tmp_path / "env.json", tmp_path / "sup.json", tmp_path / "run"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("NONSTOP_", "TORCHELASTIC_", "TORCH_DISABLE_SHARE"))
    }
    env["NONSTOP_HEALTH"] = "off"  # the default of --guards
    env["NONSTOP_SIGTERM_GRACE_S"] = "17"  # the default of --sigterm-grace (the sbatch sets it)
    command = [sys.executable, str(script)] if no_python else [str(script)]
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            SUPERVISOR,
            str(sup_out),
            "--quiet",
            "--no-standby",
            "--nproc-per-node",
            "1",
            "--run-dir",
            str(run),
            "--health-checks",
            "none",
            "--hang-timeout",
            "40",
            # a fault needs the bootstrap, which --no-python leaves out
            *([] if no_python else ["--inject", "crash@step=100000"]),
            "--telemetry-interval",
            "0",
            *(["--no-python"] if no_python else []),
            *command,
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    got = json.loads(sup_out.read_text())
    before, after = got["before"], got["after"]
    assert got["code"] == 0
    assert after == before
    worker = json.loads(out.read_text())
    assert worker["NONSTOP_ATTEMPT"] == "0"
    assert worker["NONSTOP_RUN_DIR"] == str(run.resolve())
    assert worker.get("NONSTOP_FAULTS") == (None if no_python else "crash@step=100000")
    assert worker["NONSTOP_HEALTH"] == "off" and worker["NONSTOP_TELEMETRY_S"] == "0"
    assert worker["NONSTOP_STOP_CHECK_EVERY"] == "1" and worker["NONSTOP_TICK_S"] == "0.5"
    assert worker["RANK"] == "0"
    # the agent's store shared with the workers, or (--no-python) a new one of rank 0's
    assert worker["TORCHELASTIC_USE_AGENT_STORE"] == str(not no_python)
    recorded = json.loads((run / "config.json").read_text())
    sup = recorded["supervisor"]
    assert sup["hang_timeout_s"] == 40.0 and sup["health_checks"] == []
    assert sup["faults"] == ("" if no_python else "crash@step=100000")
    assert sup["standbys"] is False
    assert sup["guards"] == "off" and sup["telemetry_interval_s"] == 0.0
    assert sup["sigterm_grace_s"] == 17.0 and sup["store_per_attempt"] is no_python
    assert sup["signals_to_forward"] == "SIGINT,SIGHUP,SIGQUIT"
    assert sup["run_dir"] == str(run)
    assert recorded["torchrun"]["nproc_per_node"] == 1
    assert SupervisorConfig.from_dict(sup).hang_timeout_s == 40.0
    assert "training_script" not in json.dumps(recorded["torchrun"])  # resolved, not vars(args)
