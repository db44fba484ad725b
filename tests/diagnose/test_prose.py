"""The description reader (nonstop.diagnose.prose): a failure told in sentences, with no log
line, is read by `nonstop triage` where no row matched, said to be a guess from a description,
and never read in a run's rank logs, never over a row, never excluding a node (an operator's
stated conclusion, nonstop.diagnose.advice, may: tests/diagnose/test_advice.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from nonstop.diagnose import advice, prose, triage
from nonstop.diagnose.cli import triage_main

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
sys.path.insert(0, str(ROOT / "benchmarks"))

import build_triage_fallback  # noqa: E402

SPLITS = sorted(p.stem for p in (CORPUS / "real").glob("*.jsonl"))


def _excerpts() -> dict[str, dict[str, str]]:
    out = {}
    for split in SPLITS:
        for line in (CORPUS / "real" / f"{split}.jsonl").read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                out[r["id"]] = r
    return out


EXCERPTS = _excerpts()
# the thirteenth collection's first-sight misses that were a reporter's sentences (README there):
# loss spikes, hangs, an OOM, thermal shutdowns, a preemption's lost save, told in words
THIRTEENTH_PROSE = [
    "a81ec02f5fb9",
    "b728b472ea82",
    "210fc29c06ed",
    "59a950871251",
    "3237f19542bc",
    "e65dcf847375",
    "ae626c4f8f66",
    "c4f11f5a57a2",
    "8fc3b695f36d",
    "3ae1d6b0c7cf",
    "e2966375db64",
    "f027f96feb35",
    "442bbff94194",
    "bcc9a31b91d0",
]


def _file(tmp_path: Path, text: str, name: str = "report.txt") -> Path:
    p = tmp_path / name
    p.write_text(text + "\n")
    return p


def test_a_reporters_sentences_are_a_description() -> None:
    for i in THIRTEENTH_PROSE:
        assert prose.is_description(EXCERPTS[i]["excerpt"]), i


@pytest.mark.parametrize(
    "line",
    [
        "2024-04-12 23:39:41.656900: E external/xla/xla/pjrt/distributed/client.cc:96] boom",
        "[rank3]: RuntimeError: it hangs when we start and then it was killed",
        'File "/x/train.py", line 12, in <module> when it was run we got this',
        "I1115 16:00:39.451247 140641718562816 trainer.py:501] Training: step 198",
        "kernel:[  840.275175] Kernel panic - not syncing: we had it when it was hot",
        "nvme nvme0: I/O 14 QID 2 timeout, aborting, it was after we got this",
        "{'loss': 1.46, 'grad_norm': 14.98} it was fine when we got this after a while",
        "nonstop[host vm attempt 0 rank 0] nonstop.checkpoint: it was when we had no checkpoint",
        "[train] step 10/200 loss 4.0483 467 ms/step when it was fine and we had this",
        "Fan1A | 7560 RPM | ok, when it was hot we got this after a while",
    ],
)
def test_a_line_that_looks_like_a_log_makes_the_text_a_log(line: str) -> None:
    assert not prose.is_description(line)
    text = "We train on 4 nodes and it hangs after a while, I have no idea why.\n"
    assert prose.is_description(text)
    assert not prose.is_description(text + line)


def test_the_repositorys_logs_and_tool_reports_are_never_descriptions() -> None:
    files = sorted((CORPUS / "logs").glob("*.log")) + sorted((CORPUS / "vendor").glob("*.txt"))
    assert len(files) > 30
    for f in files:
        assert not prose.is_description(f.read_bytes()), f
    # a run's rank logs as `nonstop run` writes them (lines of the llama workload's rank 0)
    rank_log = (
        "/work/nonstop/workloads/llama/train.py:145: FutureWarning: `broadcast_buffers` is "
        "deprecated. Use `forward_sync_buffers` instead.\n"
        "  ddp = DDP(model, broadcast_buffers=False) if world > 1 else model\n"
        "nonstop[host vm attempt 0 rank 0] nonstop.checkpoint: no good checkpoint: starting "
        "from step 0\n[train] 0.80 M params, world 2, steps 0..200\n"
        "[train] step 10/200 loss 4.0483 467 ms/step\n"
    )
    assert not prose.is_description(rank_log)
    assert not prose.is_description("rank 0 step 0 sum 2\nrank 0 to stderr\n")
    assert not prose.is_description("Resuming training from snapshot at epoch 2\n")
    assert not prose.is_description("hanging\n") and not prose.is_description("")
    # a long text is a log, whatever its lines
    long = "We train on 4 nodes and it hangs after a while, I have no idea why.\n" * 40
    assert not prose.is_description(long)


def test_the_shipped_reader_equals_a_fresh_build() -> None:
    data = build_triage_fallback.training()
    fresh = prose.dumps(build_triage_fallback.prose_table(*data))
    assert prose.TABLE.read_text() == fresh, "run benchmarks/build_triage_fallback.py"
    head = json.loads(fresh)
    assert "sixteenth" in head["about"] and 0.0 < head["threshold"] < 1.0


def test_triage_reads_a_description_and_says_so(tmp_path: Path, capsys) -> None:
    """A loss spike told in words (the thirteenth's b728b472ea82, a RoBERTa run's loss rising
    at epoch 15): no row, no failure marker for the fallback; the reader names it."""
    report = _file(tmp_path, EXCERPTS["b728b472ea82"]["excerpt"])
    assert triage.triage_file(report).category == "unknown"  # rows and fallback: nothing
    v = triage.triage_file(report, descriptions=True)
    assert (v.category, v.action, v.guessed) == ("loss_spike", "restart", True)
    assert v.verdict.startswith("Guess from a description: Loss Spike")
    assert v.details["guess"]["from"] == "description"
    assert triage.file_json(v)["guessed_from"] == "description"
    assert triage_main([str(report)]) == 0
    assert "loss_spike -> restart (guess from a description, p " in capsys.readouterr().out
    assert triage_main([str(report), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["files"][0]["guessed_from"] == "description"
    assert out["overall"]["details"]["guess"]["from"] == "description"


def test_a_description_that_says_little_stays_unknown(tmp_path: Path) -> None:
    report = _file(
        tmp_path,
        "It stopped working yesterday and I have no idea why, it was fine when we left it.",
    )
    assert prose.is_description(report.read_text())
    v = triage.triage_file(report, descriptions=True)
    assert (v.category, v.guessed) == ("unknown", False)


def test_a_row_decides_over_a_description(tmp_path: Path) -> None:
    """The ninth's 0f8e3d0b2d64 is a reporter's sentences quoting an ECC error: the row
    decides, as without the reader."""
    report = _file(tmp_path, EXCERPTS["0f8e3d0b2d64"]["excerpt"])
    assert prose.is_description(report.read_text())
    v, rows = triage.triage_file(report, descriptions=True), triage.triage_file(report)
    assert not v.guessed and v.to_dict() == rows.to_dict()


def test_a_runs_rank_log_is_never_read_as_a_description(tmp_path: Path) -> None:
    """triage_rank (the supervisor's policy, the ledger, `nonstop diagnose` of a run) never
    asks the reader, even of a rank log that is a description."""
    log = tmp_path / "run" / "logs" / "attempt-0" / "rank-0.log"
    log.parent.mkdir(parents=True)
    log.write_text(EXCERPTS["b728b472ea82"]["excerpt"] + "\n")
    v = triage.triage_rank(log, rank=0, host="node-a")
    assert (v.category, v.guessed) == ("unknown", False)


def test_no_excerpt_is_excluded_and_no_log_changes(tmp_path: Path) -> None:
    """Over every collection: a log excerpt's verdict is the same with the reader as without it
    (it only reads descriptions), and no reading takes a node out (exclude_node); only an
    operator's stated conclusion (nonstop.diagnose.advice) does, and on no excerpt whose label
    keeps the node."""
    read = 0
    for r in EXCERPTS.values():
        path = _file(tmp_path, r["excerpt"], f"{r['id']}.log")
        old, new = triage.triage_file(path), triage.triage_file(path, descriptions=True)
        if new.details.get("guess", {}).get("from") == "operator":
            assert advice.conclusion(r["excerpt"]) is not None
            assert old.category == "unknown" or old.guessed  # no row matched it
            assert new.action == r["action"], r["id"]  # no wrong exclusion in the corpus
        elif new.details.get("guess", {}).get("from") == "description":
            read += 1
            assert prose.is_description(r["excerpt"]) and new.action != "exclude_node"
            # it reads before the fallback, never over a row: no row matched the excerpt
            assert old.category == "unknown" or old.details["guess"]["from"] == "log"
        else:
            assert (new.category, new.action) == (old.category, old.action), r["id"]
    assert read > 0


def test_a_description_with_a_failure_word_is_read_before_the_fallback(tmp_path: Path) -> None:
    """A user's overheating told in words: its "shuts ... down" is a failure marker, and the
    fallback, which learned from log lines, read it as a loss spike (p 0.38, trained on thirteen
    collections). The reader reads a description first and names the thermal fault as weak
    evidence, without excluding the node."""
    report = _file(
        tmp_path,
        "After about two hours of training the GPU temperature climbs past 105 C and the "
        "machine shuts itself down.",
    )
    assert prose.is_description(report.read_text())
    v = triage.triage_file(report, descriptions=True)
    assert (v.category, v.action, v.guessed) == ("gpu_thermal_interface_sensor", "restart", True)
    assert v.details["guess"]["from"] == "description"
    assert v.verdict.startswith("Guess from a description: weak evidence of gpu thermal")
    assert "not enough to exclude the node" in v.verdict


GPU_HOT = "gpu_thermal_interface_sensor"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        (
            "We noticed that the card overheats after a few epochs and then the node reboots.",
            GPU_HOT,
        ),
        ("When we run the big model the GPUs hit 95°C and then the job slows to a crawl.", GPU_HOT),
        ("It keeps running but the temps were around 92 C on every GPU and it was slow.", GPU_HOT),
        (
            "The GPU seems to get thermally throttled after a while and the steps slow down.",
            GPU_HOT,
        ),
        # a host shut down for heat is its cooling, as the corpus labels such reports
        (
            "The box seems to go into thermal shutdown when all eight cards are busy.",
            "server_chassis",
        ),
        (
            "After an hour it shuts itself down because of the heat, we had to open it.",
            "server_chassis",
        ),
    ],
)
def test_heat_told_in_other_words_is_read_as_thermal(
    tmp_path: Path, text: str, category: str
) -> None:
    assert prose.told(text) == category
    v = triage.triage_file(_file(tmp_path, text), descriptions=True)
    assert (v.category, v.action) == (category, "restart")


@pytest.mark.parametrize(
    "text",
    [
        "We ran it at 90 C for a while",  # no GPU said in the sentence
        "I checked the GPU temperature and it was fine, it only got to 70 C.",
        "The loss spikes to 95 at step 12k and never recovers, it was fine before.",
        "I set the batch to 128 and the GPU got 99 percent of the way through the epoch.",
    ],
)
def test_numbers_that_are_no_temperature_are_not_told(text: str) -> None:
    assert prose.told(text) is None


def test_a_vague_description_stays_unknown(tmp_path: Path) -> None:
    """The reader guesses nothing from words that name no failure. "Training hangs after ..."
    was this test's text until the seventeenth collection: a hang told in words, the rows read
    it now (hang_words, tests/diagnose/test_diag_rows_seventeenth.py)."""
    report = _file(tmp_path, "Something goes wrong after the reducer buckets are rebuilt ...")
    assert triage.triage_file(report, descriptions=True).category == "unknown"
    report = _file(tmp_path, "Training hangs after the reducer buckets are rebuilt ...")
    assert triage.triage_file(report, descriptions=True).category == "hang"


def test_a_log_excerpt_with_a_failure_marker_is_unchanged(tmp_path: Path) -> None:
    """A log with a marker and a temperature: not a description, so the fallback reads it as
    before and the reader's words (prose.TOLD) are never asked."""
    log = _file(
        tmp_path,
        "2024-05-02 10:11:12 ERROR worker 3 exited: GPU temperature 105 C, node shut down\n"
        "2024-05-02 10:11:13 INFO restarting worker 3",
    )
    assert not prose.is_description(log.read_text())
    old, new = triage.triage_file(log), triage.triage_file(log, descriptions=True)
    assert new.to_dict() == old.to_dict()
    assert new.details.get("guess", {}).get("from") != "description"


def test_the_shipped_threshold_is_above_every_complaint_that_names_nothing() -> None:
    """The reader's build puts its threshold above what prose.NULL_COMPLAINTS reach under the
    parameters it chose, so the shipped table says `unknown` to each of them."""
    m = prose.model()
    readings = [m.guess(text)[1] for text in prose.NULL_COMPLAINTS]
    assert max(readings) < m.threshold
    assert m.threshold >= prose.THRESHOLD_FLOOR
