"""diagnose_run over a whole run directory: flight dumps, logs, ledger and event streams joined."""

import json
import sqlite3
from pathlib import Path

import pytest

from nonstop.cli import main as nonstop_main
from nonstop.diagnose import Verdict, diagnose_run
from nonstop.diagnose.synth import write_job
from nonstop.events import EventWriter
from nonstop.rundir import RunDir, create

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs"


def make_run(root: Path, *, ranks: int = 4, attempt: int = 0) -> RunDir:
    rd = create(root)
    rd.write_config({"world_size": ranks})
    for r in range(ranks):
        w = EventWriter(
            rd.events(attempt, r),
            run_id="v",
            attempt=attempt,
            rank=r,
            host=f"node-{r // 2}",
            install_sigterm=False,
        )
        for step in range(3):
            w.emit("step", step=step, start=float(step), end=step + 1.0, compute_s=0.5)
        w.close()
        rd.log(attempt, r).parent.mkdir(parents=True, exist_ok=True)
        rd.log(attempt, r).write_text(f"[rank{r}] step 2 loss 2.0\n")
    return rd


def ledger(rd: RunDir, failures: list[tuple], checks: list[tuple]) -> None:
    con = sqlite3.connect(rd.ledger)
    con.execute(
        "CREATE TABLE failures (attempt, time, rank, host, category, action, exit_code,"
        " signal, message)"
    )
    con.execute("CREATE TABLE health_checks (attempt, host, name, status, detail)")
    con.executemany("INSERT INTO failures VALUES (?,?,?,?,?,?,?,?,?)", failures)
    con.executemany("INSERT INTO health_checks VALUES (?,?,?,?,?)", checks)
    con.commit()
    con.close()


def test_xid_on_the_hung_ranks_host_beats_the_watchdog_everywhere(tmp_path: Path) -> None:
    rd = make_run(tmp_path)
    write_job(rd.flight_dir(0), 4, 40, hang_rank=3)
    for r in (0, 1, 2):
        rd.log(0, r).write_text((CORPUS / "nccl_watchdog_timeout.log").read_text())
    kern = (CORPUS / "xid79_then_watchdog.log").read_text().replace("node-b", "node-1")
    (rd.log(0, 0).parent / "host-node-1.kern.log").write_text(kern)
    v = diagnose_run(tmp_path)
    assert isinstance(v, Verdict)
    d = v.to_dict()
    assert set(d) >= {"verdict", "category", "action", "culprits", "evidence", "confidence"}
    assert (v.category, v.action, v.hosts) == ("faulty_gpu", "exclude_node", ["node-1"])
    c = v.culprits[0]
    assert (c.host, c.gpu) == ("node-1", 2)
    assert 3 in {c.rank for c in v.culprits}  # the flight recorder's culprit, same host
    assert "flight recorder blames the same" in v.verdict
    assert any(e.startswith("flight recorder:") for e in v.evidence)


def test_hang_without_signatures_is_the_flight_verdict(tmp_path: Path) -> None:
    rd = make_run(tmp_path)
    write_job(rd.flight_dir(0), 4, 40, hang_rank=2)
    rd.log(0, 0).write_text((CORPUS / "nccl_watchdog_timeout.log").read_text())
    v = diagnose_run(tmp_path)
    assert v.category == "nccl_watchdog_timeout"
    assert [(c.rank, c.host) for c in v.culprits] == [(2, "node-1")]
    assert any(e.startswith("symptom:") and "nccl_watchdog" in e for e in v.evidence)


def test_ledger_health_check_and_exit_codes(tmp_path: Path) -> None:
    rd = make_run(tmp_path, attempt=1)
    ledger(
        rd,
        failures=[
            (1, 100.0, 1, "node-0", "unknown", "restart", -9, 9, "killed"),
            (0, 50.0, 3, "node-1", "user_code_error", "stop_and_page", 1, None, "old"),
        ],
        checks=[
            (1, "node-0", "gpu_ecc", "fail", "GPU 1: 2 uncorrectable ECC errors"),
            (1, "node-1", "gpu_ecc", "pass", ""),
        ],
    )
    v = diagnose_run(tmp_path)  # latest attempt: 1; the attempt-0 row is ignored
    assert (v.category, v.action, v.hosts) == ("gpu_hbm3_memory", "exclude_node", ["node-0"])
    assert v.details["ledger"] == {"failures": 1, "health_checks": 2}
    assert "gpu_ecc" in v.verdict or any("gpu_ecc" in e for e in v.evidence)


def test_missing_ledger_tables_and_nothing_found(tmp_path: Path) -> None:
    rd = make_run(tmp_path)
    sqlite3.connect(rd.ledger).close()  # an empty ledger: no tables yet
    v = diagnose_run(tmp_path)
    assert v.category == "unknown" and v.culprits == [] and "Nothing conclusive" in v.verdict


def test_cli_diagnose_run_dir_and_flight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rd = make_run(tmp_path)
    write_job(rd.flight_dir(0), 4, 40, hang_rank=1)
    assert nonstop_main(["diagnose", str(tmp_path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["category"] == "nccl_watchdog_timeout" and d["culprits"][0]["rank"] == 1
    assert d["culprits"][0]["host"] == "node-0"
    assert nonstop_main(["diagnose", "--flight", str(rd.flight_dir(0))]) == 0
    out = capsys.readouterr().out
    assert "rank 1 on node-0 never entered" in out and "action: restart" in out
    assert nonstop_main(["diagnose", str(tmp_path / "nope")]) == 2
    assert "no such run directory" in capsys.readouterr().err
    assert nonstop_main(["diagnose"]) == 2


GLOO_PEER_GONE = (
    "RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:537] "
    "Read error [127.0.0.1]:15795: Connection reset by peer. This is typically caused by a "
    "remote worker hanging or bugs in the application.\n"
)


@pytest.mark.parametrize("first", ["killed", "echo"])
def test_a_rank_that_died_of_its_peer_is_never_the_culprit(tmp_path: Path, first: str) -> None:
    """Rank 1 SIGKILLed (the ledger's root cause), rank 0 died of it with gloo's "Connection
    reset by peer": diagnose names rank 1, as the ledger and `nonstop report` do, whichever
    failure the supervisor recorded first (issue 27)."""
    from nonstop.ledger import Ledger

    rd = make_run(tmp_path, ranks=2)
    rd.log(0, 0).write_text("[rank0] Epoch 1 | loss 1.7\n" + GLOO_PEER_GONE)
    rd.log(0, 0).with_name("rank-0.error.json").write_text(
        json.dumps({"message": {"message": GLOO_PEER_GONE.strip()}})
    )
    killed = dict(rank=1, exit_code=-9, signal="SIGKILL", message="Signal 9 (SIGKILL)")
    echo = dict(rank=0, exit_code=1, message="secondary (a peer failed first): " + GLOO_PEER_GONE)
    led = Ledger.open(rd.ledger)
    rows = [(killed, True), (echo, False)] if first == "killed" else [(echo, False), (killed, True)]
    for i, (row, root) in enumerate(rows):
        led.add_failure(
            attempt=0,
            time_s=100.0 + i,
            category="unknown",
            action="restart" if root else "none",
            host="node-0",
            root_cause=root,
            **row,  # type: ignore[arg-type]
        )
    led.close()
    v = diagnose_run(tmp_path)
    assert [c.rank for c in v.culprits] == [1], v.to_dict()
    assert "SIGKILL" in v.verdict
    assert any("Connection reset by peer" in e for e in v.evidence)  # kept as evidence
