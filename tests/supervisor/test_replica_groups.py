"""nonstop run --replica-groups: torchft replica groups, one nonstop agent per group.

The end-to-end test kills a rank of group 1 with SIGKILL: group 0 is never stopped (it trains
on alone until group 1 is back: no step at all when the restart beats the Lighthouse's
heartbeat timeout), group 1 is restarted by its own agent and heals from group 0 through
torchft (not from storage), and the two end with the same parameters; the ledgers and the
report say so.
"""

import json

import pytest
from support import TINY, nonstop_cli, nonstop_run, rows

from nonstop.errors import UserError
from nonstop.supervisor import replica_groups as rg
from nonstop.supervisor.cli import main as run_main

FT = ["-m", "nonstop.workloads.llama.train", "--fault-tolerant", *TINY]


def test_faults_route_to_their_group():
    assert rg.split_faults(["crash@step=3,group=1,signal=SIGKILL", "slow@rank=0"], 2) == [
        ["slow@rank=0"],
        ["crash@step=3,signal=SIGKILL", "slow@rank=0"],
    ]
    with pytest.raises(UserError, match="group=2 is not one of this job's groups"):
        rg.split_faults(["crash@step=3,group=2"], 2)


def test_group_argv_keeps_the_script_and_its_arguments():
    argv = ["--replica-groups", "2", "--run-dir=x", "--inject", "crash@step=1", "--nproc-per-node",
            "1", "-m", "pkg.train", "--run-dir", "kept", "--inject", "kept"]  # fmt: skip
    head, tail = rg.group_argv(argv, script_args=4)
    assert head == ["--nproc-per-node", "1", "-m"]
    assert tail == ["pkg.train", "--run-dir", "kept", "--inject", "kept"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-m", "nonstop.workloads.llama.train"], "uses torchft only with --fault-tolerant"),
        (["--nnodes", "2", *FT], "runs every group on this host"),
        (["--memory-checkpoint-every", "5", *FT], "heals from a live peer group"),
        (["--inject", "crash@step=3,group=5", *FT], "group=5 is not one of this job's groups"),
    ],
)
def test_refused_before_anything_starts(tmp_path, args, message):
    run = tmp_path / "run"
    with pytest.raises(UserError, match=message):
        run_main(["--replica-groups", "2", "--run-dir", str(run), *args])
    assert not run.exists()


HOSTS = ["--replica-group", "1", "--lighthouse", "node0:29510"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--replica-group", "2", "--lighthouse", "n:1", *FT], "--replica-group 2 is not one"),
        (["--replica-group", "1", *FT], "need --lighthouse HOST:PORT"),
        (["--replica-group", "1", "--lighthouse", "node0", *FT], "must be HOST:PORT"),
        (["--lighthouse", "node0:29510", *FT], "add --replica-group g"),
        (["--nnodes", "1:2", *HOSTS, *FT], "meet at --rdzv-endpoint"),
        (["--nnodes", "1:2", "--rdzv-endpoint", "n:1", *HOSTS, *FT], "--rdzv-backend c10d"),
        (["--memory-checkpoint-every", "5", *HOSTS, *FT], "heals from a live peer group"),
        (["--serve-lighthouse", "--lighthouse", "192.0.2.1:29510", *FT], "is not this node"),
        (
            [
                "--serve-lighthouse",
                "--lighthouse",
                "127.0.0.1:29510",
                "--rdzv-backend",
                "c10d",
                "--rdzv-endpoint",
                "192.0.2.1:29400",
                *FT,
            ],
            "--rdzv-endpoint 192.0.2.1:29400 is not",
        ),
    ],
)
def test_across_hosts_refused_before_anything_starts(tmp_path, args, message):
    run = tmp_path / "run"
    with pytest.raises(UserError, match=message):
        run_main(["--replica-groups", "2", "--run-dir", str(run), *args])
    assert not run.exists()


def test_across_hosts_flags_need_replica_groups(tmp_path):
    with pytest.raises(UserError, match="add --replica-groups G"):
        run_main(["--replica-group", "0", "--lighthouse", "n:1", *FT])
    with pytest.raises(UserError, match="--run-dir, the same path on every node"):
        run_main(["--replica-groups", "2", *HOSTS, *FT])


def test_a_node_joins_only_the_job_its_run_directory_holds(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / rg.GROUPS_JSON).write_text(
        json.dumps({"replica_groups": 3, "lighthouse": "http://node0:29510"})
    )
    with pytest.raises(UserError, match="holds another replica-group job with 3 groups"):
        run_main(["--replica-groups", "2", "--run-dir", str(run), *HOSTS, *FT])
    (run / rg.GROUPS_JSON).unlink()
    (run / rg.FINISHED).touch()
    with pytest.raises(UserError, match="holds a finished replica-group job"):
        run_main(["--replica-groups", "2", "--run-dir", str(run), *HOSTS, *FT])


def test_a_run_directory_resumes_only_the_replica_group_job_it_holds(tmp_path):
    run = tmp_path / "run"
    assert rg._resumable(run, 2) is False  # a new one
    run.mkdir()
    (run / "ledger.db").touch()
    with pytest.raises(UserError, match="holds an ordinary run"):
        run_main(["--replica-groups", "2", "--run-dir", str(run), *FT])
    (run / rg.GROUPS_JSON).write_text(json.dumps({"replica_groups": 3}))
    with pytest.raises(UserError, match="resume it with --replica-groups 3"):
        run_main(["--replica-groups", "2", "--run-dir", str(run), *FT])
    assert rg._resumable(run, 3) is True  # the same command again: a requeue
    (run / rg.FINISHED).touch()
    with pytest.raises(UserError, match="holds a finished replica-group job"):
        run_main(["--replica-groups", "3", "--run-dir", str(run), *FT])


def test_across_hosts_each_group_gets_its_own_rendezvous_id():
    argv = ["--replica-groups", "2", "--replica-group", "1", "--serve-lighthouse",
            "--lighthouse", "h:1", "--rdzv-id", "job", "--rdzv-endpoint", "h:2", "-m", "t"]  # fmt: skip
    head, tail = rg.group_argv(argv, script_args=0, strip=("--rdzv-id", "--rdzv_id"))
    assert head == ["--rdzv-endpoint", "h:2", "-m"] and tail == ["t"]


def test_a_script_without_torchft_is_refused_in_one_line(tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import torch.distributed as dist\ndist.init_process_group('gloo')\n")
    r = nonstop_run(["--replica-groups", "2", "--run-dir", str(tmp_path / "run"), str(script)])
    assert r.returncode == 2
    errors = [ln for ln in r.stderr.splitlines() if "error" in ln]
    assert errors == [
        f"nonstop run: error: --replica-groups: {script} does not use torchft (no `import "
        "torchft`); each group must train through torchft's Manager to heal from a live peer"
    ], r.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_killed_group_restarts_alone_and_heals_from_the_live_one(run_dir):
    steps = 100
    r = nonstop_run(
        [
            "--replica-groups",
            "2",
            "--nproc-per-node",
            "1",
            "--run-dir",
            str(run_dir),
            "--inject",
            "crash@step=5,group=1,signal=SIGKILL",
            *FT,
            "--steps",
            str(steps),
            # steps long enough that group 0 is still training when group 1 is back
            "--min-step-s",
            "0.2",
        ],
        timeout=220,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "replica group" in r.stdout
    g0, g1 = run_dir / "groups" / "g0", run_dir / "groups" / "g1"
    # group 0: one attempt, never stopped; group 1: its SIGKILL, restarted by its own agent
    assert rows(g0, "SELECT COUNT(*) FROM attempts")[0][0] == 1
    assert rows(g0, "SELECT COUNT(*) FROM failures")[0][0] == 0
    assert rows(g1, "SELECT attempt, action, signal FROM failures WHERE root_cause = 1") == [
        (0, "restart", "SIGKILL")
    ]
    assert rows(g1, "SELECT COUNT(*) FROM attempts")[0][0] == 2
    rep = nonstop_cli("report", str(run_dir), "--json")
    assert rep.returncode == 0, rep.stderr
    s = json.loads(rep.stdout)
    assert s["replica_groups"] == 2
    assert s["steps_committed"] == steps and s["steps_missing"] == 0
    assert s["steps_committed_twice"] == 0
    assert s["fingerprints_equal"] is True  # group 1 healed to group 0's parameters
    a, b = s["groups"]
    (healed,) = b["healed_at"]
    assert healed["attempt"] == 1 and 5 <= healed["step"] < steps  # from a live peer, mid-run
    # group 0 trained alone exactly the steps group 1 missed: none when group 1 is back
    # (2 s here, cold) before the Lighthouse gives up on it, some on a slower host
    assert s["steps_with_fewer_replicas"] == healed["step"] - 5
    assert a["steps_committed"] == steps  # group 0 committed every step
    # group 1: steps 0-4, then from where it healed: nothing twice, nothing from storage
    assert b["steps_committed"] == 5 + steps - healed["step"]
    assert b["resumed_at"] == [] and s["resumed_from_checkpoint"] == []
    assert rows(g1, "SELECT COUNT(*) FROM checkpoints WHERE phase = 'loaded'")[0][0] == 0
    # durable checkpoints (--checkpoint-every auto): one writer per step, group 0, the lowest
    # replica, which never left; group 1 never wrote one
    assert not any((g1 / "checkpoints").glob("step-*"))
    assert s["replica_seconds_lost"] > b["lost_s"] > a["lost_s"] > 0
    assert 0 < s["replica_ettr"] <= s["ettr"] <= 1


def test_across_hosts_the_job_ends_when_some_nodes_group_exited_0(tmp_path):
    (tmp_path / "replica_groups.node1.g1.jsonl").write_text(
        '{"time": 1, "kind": "group_ended", "group": 1, "exit_code": 93}\n{"tim'
    )
    assert not rg.a_group_finished(tmp_path)
    (tmp_path / "replica_groups.node2.g1.jsonl").write_text(
        '{"time": 2, "kind": "group_ended", "group": 1, "exit_code": 0}\n'
    )
    assert rg.a_group_finished(tmp_path)
