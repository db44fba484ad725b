"""`nonstop diagnose DUMP_FOLDER` on flight-recorder dumps that nonstop did not produce.

Plain torch under real torchrun (`fr_foreign_worker.py`: gloo on CPU, 3 ranks, no nonstop in
the ranks), dumps written the way users get them: `TORCH_FR_DUMP_TEMP_FILE=.../rank_` and
`_dump_fr_trace` / `_dump_fr_trace_json` from a thread, a SIGALRM or a SIGTERM handler. The peer
is torch's own analyzer, `python -m torch.distributed.flight_recorder.fr_trace DIR -p rank_`,
which fails on every gloo dump (`KeyError` in build_collectives: gloo's pg_config names no
members); given copies with the members filled in, it names the culprits compared below.

    pytest tests/diagnose/test_flight_foreign.py -p no:cacheprovider -q
"""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

WORKER = Path(__file__).with_name("fr_foreign_worker.py")
ROOT = Path(__file__).resolve().parents[2]
MEMBERS = {"0": ("default_pg", [0, 1, 2]), "1": ("undefined", [0, 1])}  # the worker's groups


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _torchrun(out: Path, scenario: str) -> Path:
    """Run the scenario under torchrun; its dumps land in out/pickle and out/json."""
    out.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "TORCH_FR_BUFFER_SIZE": "2000",
        "TORCH_FR_DUMP_TEMP_FILE": str(out / "pickle" / "rank_"),
        "FR_JSON_PREFIX": str(out / "json" / "rank_"),
    }
    env.pop("PYTHONPATH", None)  # plain torch: nothing of nonstop in the ranks
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "3"]
    cmd += ["--master-addr", "127.0.0.1", "--master-port", str(_port()), str(WORKER), scenario]
    got = subprocess.run(cmd, env=env, cwd=out, capture_output=True, text=True, timeout=120)
    assert (out / "pickle").is_dir(), got.stdout + got.stderr
    return out


def _diagnose(folder: Path, *args: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "nonstop.cli", "diagnose", str(folder), "--json", *args]
    got = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    return dict(json.loads(got.stdout))


def _fr_trace(folder: Path, tmp: Path) -> str:
    """torch's analyzer on the pickle dumps: first as they are (it fails on gloo's), then on
    copies whose pg_config names the groups' members; its output on those."""
    cmd = [sys.executable, "-m", "torch.distributed.flight_recorder.fr_trace"]
    raw = subprocess.run([*cmd, str(folder), "-p", "rank_"], capture_output=True, text=True)
    assert raw.returncode != 0 and "KeyError" in raw.stderr, raw.stdout + raw.stderr
    fixed = tmp / "fr-members"
    fixed.mkdir()
    for f in folder.iterdir():
        dump = pickle.loads(f.read_bytes())
        dump["pg_config"] = {
            pg: {"name": pg, "desc": desc, "ranks": json.dumps(ranks)}
            for pg, (desc, ranks) in MEMBERS.items()
        }
        (fixed / f.name).write_bytes(pickle.dumps(dump))
    got = subprocess.run(
        [*cmd, str(fixed), "-p", "rank_", "--allow-incomplete-ranks"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    shutil.rmtree(fixed)
    return got.stdout + got.stderr


def _culprits(v: dict) -> list[int]:
    return sorted(c["rank"] for c in v["culprits"])


def _group(v: dict, pg: str) -> dict:
    return next(g for g in v["details"]["groups"] if g["pg"] == pg)


@pytest.fixture(scope="module")
def sleep_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _torchrun(tmp_path_factory.mktemp("sleep"), "sleep")


@pytest.mark.timeout(180)
def test_sleeping_rank_from_a_plain_dump_folder_pickle_and_json(sleep_run: Path) -> None:
    """Rank 2 sleeps instead of entering the all_reduce ranks 0 and 1 wait in. The folder is
    given as is (`nonstop diagnose DIR`): before, 'not a nonstop run directory' (exit 2)."""
    for sub in ("pickle", "json"):
        v = _diagnose(sleep_run / sub)
        assert _culprits(v) == [2], v["verdict"]
        assert v["category"] == "nccl_watchdog_timeout" and v["action"] == "restart"
        pg0 = _group(v, "0")
        assert pg0["state"] == "hung" and pg0["waiting"] == [0, 1]
        assert pg0["frontier_op"] == "gloo:all_reduce [[8]] ['Double']"
        assert pg0["never_entered"] == {"2": pg0["frontier"] - 1}
        assert _group(v, "1")["state"] == "idle"
        # where the waiters called it: the worker's own line (torch's JSON dumps hold no frames)
        site = pg0["frontier_site"]
        assert (site.split(":")[0] == str(WORKER)) if sub == "pickle" else site == "", site
        flag = _diagnose(Path(), "--flight", str(sleep_run / sub))  # the same as --flight
        assert (flag["verdict"], flag["culprits"]) == (v["verdict"], v["culprits"])


@pytest.mark.timeout(180)
def test_sleeping_rank_agrees_with_fr_trace(sleep_run: Path, tmp_path: Path) -> None:
    peer = _fr_trace(sleep_run / "pickle", tmp_path)
    assert "missing ranks: {2}" in peer and "collective: gloo:all_reduce" in peer, peer
    v = _diagnose(sleep_run / "pickle")
    assert _culprits(v) == [2]
    # fr_trace prints the collective's stack ("<module> at FILE:LINE"); nonstop says the
    # program's own frame of it, in the verdict (before: no word of where)
    called = re.search(r"<module> at (\S+:\d+)", peer)
    assert called and called.group(1) + " (<module>)" == _group(v, "0")["frontier_site"], peer
    assert f"(called at {called.group(1)} (<module>))" in v["verdict"]


@pytest.mark.timeout(180)
def test_desync_all_gather_against_all_reduce(tmp_path: Path) -> None:
    run = _torchrun(tmp_path / "run", "desync")
    for sub in ("pickle", "json"):
        v = _diagnose(run / sub)
        assert _culprits(v) == [1], v["verdict"]
        assert v["category"] == "user_code_error" and v["action"] == "stop_and_page"
        m = _group(v, "0")["mismatches"][0]
        assert m["expected"].startswith("gloo:all_reduce")
        assert m["others"][0]["op"].startswith("gloo:all_gather") and m["ranks_expected"] == 2
    peer = _fr_trace(run / "pickle", tmp_path)
    assert "Culprit rank 1" in peer and "COLLECTIVE_TYPE_MISMATCH" in peer, peer


@pytest.mark.timeout(180)
def test_subgroup_hang_while_the_default_group_is_fine(tmp_path: Path) -> None:
    """Rank 0 waits in new_group([0, 1])'s all_reduce that rank 1 never enters; every rank
    completed the default group's collectives."""
    run = _torchrun(tmp_path / "run", "subgroup")
    v = _diagnose(run / "pickle")
    assert _culprits(v) == [1], v["verdict"]
    sub, default = _group(v, "1"), _group(v, "0")
    assert sub["state"] == "hung" and sub["waiting"] == [0] and "1" in sub["never_entered"]
    assert default["state"] == "idle" and default["last_all_completed"] == default["frontier"]
    peer = _fr_trace(run / "pickle", tmp_path)
    assert "missing ranks: {1}" in peer and "group info: 1" in peer, peer


@pytest.mark.timeout(180)
def test_dead_rank_leaves_no_dump(tmp_path: Path) -> None:
    """The last rank exits before the all_reduce; torchrun SIGTERMs the others, which dump
    from their handler. With the world size it is named; without, the dumps (gloo's name no
    members) cannot show it, and the verdict says so instead of only 'every group is idle'."""
    run = _torchrun(tmp_path / "run", "dead")
    assert sorted(f.name for f in (run / "pickle").iterdir()) == ["rank_0", "rank_1"]
    v = _diagnose(run / "pickle", "--world-size", "3")
    # the survivors are SIGTERMed as they reach the all_reduce: where one of them had not yet
    # entered it when it dumped (a race under load, seen in CI), the verdict is the hang's,
    # still naming rank 2 as the one that never entered
    said = ("left no dump", "rank 2 never entered")
    assert _culprits(v) == [2] and any(w in v["verdict"] for w in said), v["verdict"]
    blind = _diagnose(run / "pickle")
    assert blind["culprits"] == [], blind["verdict"]
    if blind["action"] == "none":  # both survivors dumped at the same collective
        assert "give --world-size" in blind["verdict"] and "2 are assumed" in blind["verdict"]
    else:  # one had not entered it yet (the race above): a hang between the two, no culprit
        assert blind["action"] == "restart", blind


@pytest.mark.timeout(180)
def test_unposted_recv_is_not_in_gloo_dumps_and_the_verdict_says_so(tmp_path: Path) -> None:
    """Rank 0 sends to rank 1, which never posts the receive: gloo's recorder holds no send or
    recv entry, so the groups look idle; the verdict says that a p2p wait cannot be seen."""
    run = _torchrun(tmp_path / "run", "p2p")
    dump = pickle.loads((run / "pickle" / "rank_0").read_bytes())
    assert not any(e["is_p2p"] for e in dump["entries"])  # the premise: nothing recorded
    v = _diagnose(run / "pickle", "--world-size", "3")
    assert v["culprits"] == [] and v["action"] == "none"
    assert "does not record point-to-point ops" in v["verdict"], v["verdict"]


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_wrapped_ring_buffer(tmp_path: Path) -> None:
    """2,500 all_reduces through a 2,000-entry buffer, then the sleep hang: the pickle dumps
    are read in part (their first and last entries), the JSON ones in full."""
    run = _torchrun(tmp_path / "run", "wrap")
    for sub in ("pickle", "json"):
        v = _diagnose(run / sub)
        assert _culprits(v) == [2], v["verdict"]
        pg0 = _group(v, "0")
        assert pg0["frontier"] == 2502 and pg0["never_entered"] == {"2": 2501}
        assert pg0["last_all_completed"] == 2501
    assert any("read in part" in e for e in _diagnose(run / "pickle")["evidence"])


@pytest.mark.timeout(180)
def test_waiters_that_dump_after_gloo_timed_out(tmp_path: Path) -> None:
    """The usual flow: the process group's timeout fires, the waiters' all_reduce raises and
    they dump. gloo records the collective that raised as retired (pg_status says completed),
    so every group looked idle and no rank was named; a collective no member can complete
    before every member entered it, so it failed on ranks 0 and 1, and rank 2 is the culprit."""
    run = _torchrun(tmp_path / "run", "timeout")
    dump = pickle.loads((run / "pickle" / "rank_0").read_bytes())
    assert dump["entries"][-1]["retired"] is True  # the premise: retired though it raised
    for sub in ("pickle", "json"):
        v = _diagnose(run / sub)
        assert _culprits(v) == [2], v["verdict"]
        assert v["category"] == "nccl_watchdog_timeout"
        pg0 = _group(v, "0")
        assert pg0["state"] == "hung" and pg0["failed"] == [0, 1] == pg0["waiting"]
        assert "already failed" in v["verdict"]
    peer = _fr_trace(run / "pickle", tmp_path)  # fr_trace named rank 2 where nonstop did not
    assert "missing ranks: {2}" in peer, peer


@pytest.mark.timeout(180)
def test_subgroup_first_collective_never_entered_says_what_gloo_dumps_cannot_show(
    tmp_path: Path,
) -> None:
    """Rank 1 never enters new_group([0, 1])'s first collective. gloo's dumps name no members
    and rank 1 recorded nothing in the group, so no rank can be named; the verdict says why
    (before: 'give --world-size', which was given) and fr_trace, told the members, names it."""
    run = _torchrun(tmp_path / "run", "subgroup_first")
    v = _diagnose(run / "pickle", "--world-size", "3")
    assert v["culprits"] == [] and _group(v, "1")["state"] == "in_flight", v["verdict"]
    assert "give --world-size" not in v["verdict"]
    assert "do not name this group's members" in v["verdict"]
    peer = _fr_trace(run / "pickle", tmp_path)
    assert "missing ranks: {1}" in peer, peer
