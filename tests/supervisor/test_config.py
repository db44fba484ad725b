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


def _cfg(*flags: str) -> SupervisorConfig:
    args = cli.build_parser().parse_args([*flags, "train.py"])
    return SupervisorConfig.from_args(args, run_dir=RD, run_id="r1", host="node-a")


def test_defaults_are_the_dataclass_fields():
    cfg = _cfg()
    for f in (
        "startup_timeout_s",
        "section_timeout_s",
        "evidence_timeout_s",
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
    (
        ["--metrics-port", "9100", "--metrics-host", "0.0.0.0"],
        {"metrics_port": 9100, "metrics_host": "0.0.0.0"},
    ),
    (
        ["--startup-timeout", "12", "--grace-period", "7"],
        {"startup_timeout_s": 12.0, "grace_period_s": 7.0},
    ),
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
    ],
)
def test_from_args_refuses_bad_values(flags, msg):
    with pytest.raises(UserError, match=msg):
        _cfg(*flags)


def test_to_dict_round_trips(tmp_path):
    args = cli.build_parser().parse_args(
        ["--hang-timeout", "9", "--inject", "crash@step=1", "x.py"]
    )
    cfg = SupervisorConfig.from_args(
        args, run_dir=rundir.RunDir(tmp_path), run_id="r1", host="node-a"
    )
    back = SupervisorConfig.from_dict(json.loads(json.dumps(cfg.to_dict())))
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


def test_a_run_records_the_resolved_config_and_leaves_the_supervisors_environ_alone(tmp_path):
    """A real `nonstop run` (one rank that writes its environment and exits): config.json holds
    the resolved settings, the rank got nonstop's variables through torch's per-worker
    environment, and the supervisor's own os.environ has none of them."""
    script = tmp_path / "dump_env.py"
    script.write_text(SCRIPT)
    out, sup_out, run = tmp_path / "env.json", tmp_path / "sup.json", tmp_path / "run"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NONSTOP_")}
    env["NONSTOP_HEALTH"] = "off"
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
            "--inject",
            "crash@step=100000",
            str(script),
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
    # torch's own setting of this process (torch's launch_agent sets it for torchrun too): not
    # a setting for the workers
    after.pop("TORCHELASTIC_SIGNALS_TO_HANDLE", None)
    before.pop("TORCHELASTIC_SIGNALS_TO_HANDLE", None)
    assert got["code"] == 0
    assert after == before
    worker = json.loads(out.read_text())
    assert worker["NONSTOP_ATTEMPT"] == "0"
    assert worker["NONSTOP_RUN_DIR"] == str(run.resolve())
    assert worker["NONSTOP_FAULTS"] == "crash@step=100000"
    assert worker["RANK"] == "0"
    recorded = json.loads((run / "config.json").read_text())
    sup = recorded["supervisor"]
    assert sup["hang_timeout_s"] == 40.0 and sup["health_checks"] == []
    assert sup["faults"] == "crash@step=100000" and sup["standbys"] is False
    assert sup["run_dir"] == str(run)
    assert recorded["torchrun"]["nproc_per_node"] == 1
    assert SupervisorConfig.from_dict(sup).hang_timeout_s == 40.0
    assert "training_script" not in json.dumps(recorded["torchrun"])  # resolved, not vars(args)
