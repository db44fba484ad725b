"""Log triage over the corpus in tests/corpus/logs (README there says what each file is)."""

import json
from pathlib import Path

import pytest
from support.searchers import SEARCHERS, using

from nonstop import envvars, taxonomy
from nonstop.cli import main as nonstop_main
from nonstop.diagnose import signatures, triage, triage_file, triage_files
from nonstop.errors import UserError

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs"

# file -> (category, host, rank, gpu) the triage must find
EXPECTED = {
    "xid79_then_watchdog.log": ("faulty_gpu", "node-b", None, 2),  # rank 10 only timed out
    "xid48_double_bit_ecc.log": ("gpu_hbm3_memory", "gpu-node-017", None, 3),
    "xid94_contained_ecc.log": ("gpu_sram_memory", "h100-a12", None, None),
    "xid95_uncontained_ecc.log": ("gpu_sram_memory", "h100-a13", None, None),
    "xid119_gsp_timeout.log": ("gpu_system_processor", "node-c", None, None),
    "xid120_gsp_error.log": ("gpu_system_processor", "node-c", None, None),
    "xid74_nvlink.log": ("faulty_gpu", "node-d", None, 1),
    "xid63_row_remap.log": ("gpu_hbm3_memory", "node-e", None, None),
    "xid13_graphics_exception.log": ("software_bug", "node-f", None, None),
    "xid_other_codes.log": ("gpu_hbm3_memory", "node-g", None, None),
    "nccl_watchdog_timeout.log": ("nccl_watchdog_timeout", None, 3, None),
    "nccl_ib_retry.log": ("network_switch_cable", "node-h", 13, 5),
    "ib_link_down.log": ("network_switch_cable", "node-p", None, 3),  # NCCL on GPU 3 saw it
    "nic_fatal.log": ("nic", "node-q", None, None),
    "cuda_illegal_memory_access.log": ("software_bug", None, 6, None),
    "cuda_uncorrectable_ecc.log": ("gpu_hbm3_memory", None, 2, None),
    "cuda_oom.log": ("out_of_memory", None, 0, 0),
    "host_oom_killer.log": ("out_of_memory", "node-i", None, None),
    "gloo_connection_reset.log": ("unknown", None, 1, None),
    "gloo_connect_full_mesh.log": ("dependency", None, 0, None),
    "store_timeout.log": ("dependency", None, 4, None),
    "no_space.log": ("storage", None, 0, None),
    "stale_nfs.log": ("storage", "node-j", 7, None),
    "io_error.log": ("storage", None, 3, None),
    "nvme_error.log": ("ssd", "node-k", None, None),
    "kernel_panic.log": ("server_chassis", "node-l", None, None),
    "mce.log": ("cpu", "node-m", None, None),
    "edac_memory.log": ("system_memory", "node-n", None, None),
    "segfault.log": ("software_bug", "node-o", None, None),
    "sigbus.log": ("out_of_memory", None, None, None),  # /dev/shm ran out: a restart repeats it
    "user_traceback.log": ("user_code_error", None, 0, None),
    "nan_loss.log": ("numerical_nan", None, 0, None),
    "clean.log": ("unknown", None, None, None),
}


def test_every_corpus_file_is_expected_and_documented() -> None:
    files = {p.name for p in CORPUS.glob("*.log")}
    assert files == set(EXPECTED)
    readme = (CORPUS / "README.md").read_text()
    assert all(f in readme for f in files)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file(name: str) -> None:
    category, host, rank, gpu = EXPECTED[name]
    v = triage_file(CORPUS / name)
    j = triage.file_json(v)
    assert (j["category"], *j["culprit"].values()) == (category, host, rank, gpu), j
    assert j["action"] == taxonomy.action_for(category)
    if name != "clean.log":
        assert j["evidence"] and all(e["line"] >= 1 for e in j["evidence"])
        first = j["evidence"][0]
        lines = (CORPUS / name).read_text().splitlines()
        assert lines[first["line"] - 1].startswith(first["text"][:60])


def test_every_required_xid_has_a_row_with_a_taxonomy_category() -> None:
    for code in (13, 31, 43, 45, 48, 61, 62, 63, 64, 68, 74, 79, 92, 94, 95, 119, 120, 140):
        assert code in signatures.XIDS
    for s in signatures.SIGNATURES:
        assert s.category in taxonomy.IDS, s.id
        assert 0 < s.confidence <= 1 and 0 < s.specificity <= 100


def test_root_cause_in_one_file_wins_over_symptoms_in_others() -> None:
    per, joint = triage_files(
        [
            CORPUS / "nccl_watchdog_timeout.log",
            CORPUS / "gloo_connection_reset.log",
            CORPUS / "xid79_then_watchdog.log",
        ]
    )
    assert [v.category for v in per] == ["nccl_watchdog_timeout", "unknown", "faulty_gpu"]
    assert joint.category == "faulty_gpu" and joint.action == "exclude_node"
    assert joint.hosts == ["node-b"] and joint.culprits[0].gpu == 2


@pytest.mark.parametrize("chunk", [17, 64, 4096])
def test_streaming_chunks_give_identical_hits(tmp_path: Path, chunk: int) -> None:
    big = tmp_path / "big.log"
    body = b"".join((CORPUS / n).read_bytes() for n in sorted(EXPECTED))
    filler = b"[rank0] step 10 loss 2.5 lr 3e-4 tokens/s 81234\n" * 50
    big.write_bytes(filler + body + filler + b"no newline at the end: OutOfMemoryError")
    ref = triage.scan(big)
    got = triage.scan(big, chunk_bytes=chunk)
    assert [(h.signature, h.line, h.text) for h in got.hits] == [
        (h.signature, h.line, h.text) for h in ref.hits
    ]
    assert got.lines == ref.lines == big.read_bytes().count(b"\n") + 1
    assert ref.hits[-1].signature == "cuda_oom" and ref.hits[-1].line == ref.lines


def test_cli_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    rc = nonstop_main(
        ["triage", str(CORPUS / "xid48_double_bit_ecc.log"), str(CORPUS / "clean.log"), "--json"]
    )
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    first = out["files"][0]
    assert set(first) >= {"category", "action", "culprit", "evidence", "confidence"}
    assert first["culprit"] == {"host": "gpu-node-017", "rank": None, "gpu": 3}
    assert out["overall"]["category"] == "gpu_hbm3_memory"
    assert nonstop_main(["triage", str(CORPUS / "mce.log")]) == 0
    assert "cpu -> exclude_node" in capsys.readouterr().out
    assert nonstop_main(["triage", "/nonexistent.log"]) == 2
    assert "no such log file" in capsys.readouterr().err


def test_prefilter_loses_no_line_any_signature_matches() -> None:
    """Every corpus line that some row's full regex matches is found through the needles."""
    for path in sorted(CORPUS.glob("*.log")):
        lines = path.read_bytes().split(b"\n")
        direct = {
            (i + 1, sid)
            for i, ln in enumerate(lines)
            for sid, pat in signatures.COMPILED
            if pat.search(ln)
        }
        via = {
            (h.line, "xid" if h.signature.startswith("xid_") else h.signature)
            for h in triage.scan(path).hits
        }
        assert via == direct, path.name


def test_needle_trie_matches_exactly_the_needles() -> None:
    rx = signatures.literal_trie({"cuda error", "cuda", "nccl", "nvrm: xid"})
    assert rx.pattern.count(b"|") < 4
    assert [m.group() for m in rx.finditer(b"x cuda error; nccl nvrm: xid nvrm")] == [
        b"cuda",
        b"nccl",
        b"nvrm: xid",
    ]


def test_word_end_needles_skip_words_that_only_start_with_them() -> None:
    """`inf` and `nan` (nan_loss) are candidates only as words: every NCCL INFO line was one."""
    rx = signatures.literal_trie({"inf", "infiniband", "nan"}, frozenset({"inf", "nan"}))
    text = b"nccl info; loss inf; nan, nanosecond infiniband -inf information"
    assert [m.group() for m in rx.finditer(text)] == [b"inf", b"nan", b"infiniband", b"inf"]
    assert signatures.covers("inf", "loss -inf", signatures.WORD_END)
    assert not signatures.covers("inf", "info", signatures.WORD_END)
    assert signatures.covers("inf", "info")  # without word_end, any occurrence


def _corpus_lines() -> list[bytes]:
    lines = [ln for p in sorted(CORPUS.glob("*.log")) for ln in p.read_bytes().lower().splitlines()]
    for p in sorted((CORPUS.parent / "real").glob("*.jsonl")):
        for row in p.read_text().splitlines():
            lines.extend(json.loads(row)["excerpt"].encode().lower().splitlines())
    return lines


@pytest.mark.parametrize("name", ["PREFILTER", "MARKER"])
def test_the_tries_plain_search_answers_as_the_compiled_trie(name) -> None:
    """LazyTrie searches its first lines with bytes.find, not the compiled trie (a tenth of a
    second to build, a sixth of `nonstop triage` over 4,096 small logs): the same matches, in
    the same order, on every line of the corpora and on the hard cases (a word-end needle
    followed by a letter, at the end, overlapping words)."""
    built = getattr(signatures, name)
    edge = [
        b"loss inf",
        b"info nan",
        b"nanosecond infiniband -inf",
        b"nan",
        b"inf_",
        b"x-nan-",
        b"cuda error: cuda error",
        b"nccl watchdog thread terminated with exception",
        b"link down",
        b"downloaded",
        b"hang",
        b"changed",
        b"deadline dead",
        b"lost",
    ]
    lines = [*edge, *_corpus_lines()]
    fresh = signatures.LazyTrie(set(built._words), built._word_end, plain_lines=3 * len(lines))
    rx = built.compiled()
    plain = 0
    for i, ln in enumerate(lines):
        if i == len(edge):
            assert fresh._compiled is None  # the plain search answered so far
        want = [(m.start(), m.group()) for m in rx.finditer(ln)]
        got = [(m.start(), m.group()) for m in fresh.finditer(ln)]
        assert got == want, ln
        assert bool(fresh.search(ln)) == bool(want), ln
        plain += len(ln) <= fresh.PLAIN_MAX_BYTES
    assert plain > 2000


@pytest.mark.parametrize("searcher", SEARCHERS)
def test_grep_prefilter_gives_the_python_scan_on_every_corpus_log(searcher) -> None:
    """The fast path for big files (ripgrep or GNU grep finds the candidate lines) loses and
    adds nothing."""
    for path in sorted(CORPUS.glob("*.log")):
        py = triage.scan(path, grep=False)
        with using(searcher):
            gr = triage.scan(path, grep=True)
        assert [(h.signature, h.line, h.text) for h in gr.hits] == [
            (h.signature, h.line, h.text) for h in py.hits
        ], path.name
        assert (gr.counts, gr.pci_map, gr.lines, gr.bytes) == (
            py.counts,
            py.pci_map,
            py.lines,
            py.bytes,
        )


@pytest.mark.parametrize("searcher", SEARCHERS)
def test_one_grep_for_many_files_gives_each_file_its_python_scan(
    tmp_path, monkeypatch, searcher
) -> None:
    """scan_all: one searcher process per batch of files, each file's hits, counts and lines
    its own."""
    paths = sorted(CORPUS.glob("*.log"))
    odd = tmp_path / "name with: colon.log"  # grep's separators must not confuse the parse
    odd.write_bytes(b"INFO all good\nloss inf at step 3\nno newline at the end")
    paths.append(odd)
    monkeypatch.setattr(triage, "GREP_ARG_BYTES", 200)  # several batches
    want = [triage.scan(p, grep=False) for p in paths]
    with using(searcher):
        got = triage.scan_all(paths, grep=True)
    assert [s.file for s in got] == [str(p) for p in paths]
    for g, w in zip(got, want, strict=True):
        assert [(h.signature, h.line, h.text) for h in g.hits] == [
            (h.signature, h.line, h.text) for h in w.hits
        ], g.file
        assert (g.counts, g.pci_map, g.lines, g.bytes, g.marked) == (
            w.counts,
            w.pci_map,
            w.lines,
            w.bytes,
            w.marked,
        )
    assert [h.signature for h in got[-1].hits] == ["nan_loss"]


def test_batches_keep_the_order_and_cut_at_the_argument_budget() -> None:
    files = [Path(f"/logs/rank-{i}.log") for i in range(10)]  # 17 or 18 bytes each + a NUL
    got = triage._batches(files, 40)
    assert [p for b in got for p in b] == files
    assert all(sum(len(str(p)) + 1 for p in b) <= 40 for b in got)
    assert [len(b) for b in got] == [2, 2, 2, 2, 2]
    assert triage._batches(files, 1 << 20) == [files]
    assert triage._batches([Path("/" + "x" * 99)], 10) == [[Path("/" + "x" * 99)]]  # never empty


def test_scan_all_names_an_unreadable_file(tmp_path) -> None:
    ok = tmp_path / "a.log"
    ok.write_text("fine\n")
    with pytest.raises(UserError, match=r"missing\.log"):
        triage.scan_all([ok, tmp_path / "missing.log"])


@pytest.mark.parametrize("searcher", SEARCHERS)
def test_many_files_in_one_call_get_the_verdicts_of_the_python_scan(
    tmp_path, monkeypatch, searcher
) -> None:
    """triage_files through one searcher for all the files (the failure markers found in the
    same pass) gives each file the verdict of the Python scan, file by file with the fallback
    reading each marked tail: rows, guesses and abstentions alike."""
    paths = sorted(CORPUS.glob("*.log"))
    guessable = tmp_path / "ib.log"  # no row knows it; the fallback's words do
    guessable.write_text("CA 'mlx5_2'\n\tPort 1:\n\t\tState: Down\n\t\tPhysical state: LinkUp\n")
    paths.append(guessable)
    step = "[rank{r}] step {s} loss 2.{s:04d} lr 3.0e-04 grad_norm 0.{r}{s} tokens/s 7{s}\n"
    for r in range(3):  # clean rank logs, their lines differing in their numbers
        p = tmp_path / f"rank-{r}.log"
        p.write_text("".join(step.format(r=r, s=s) for s in range(40000 // len(step))))
        paths.append(p)
    monkeypatch.setattr(triage, "GREP_MIN_BYTES", 0)  # the searcher however small the files
    with using(searcher):
        per, joint = triage.triage_files(paths)
        marked = [s.marked for s in triage.scan_all(paths)]
    monkeypatch.setenv(envvars.TRIAGE_SEARCH, "python")
    want, want_joint = triage.triage_files(paths)
    assert marked == [s.marked for s in triage.scan_all(paths)]
    assert marked[len(paths) - 4] and not any(marked[-3:])  # `State: Down`; clean step lines
    assert [v.to_dict() for v in per] == [v.to_dict() for v in want]
    assert joint.to_dict() == want_joint.to_dict()
    assert per[len(paths) - 4].guessed  # the guess came through the one-call path
    assert all(v.category == "unknown" and not v.guessed for v in per[-3:])
    assert [(v.details["lines"], v.details["bytes"]) for v in per] == [
        (v.details["lines"], v.details["bytes"]) for v in want
    ]


def test_a_finite_grad_norm_is_no_candidate_line() -> None:
    """nan_grad's needles are `nan` and `inf` ending a word: every wording of the row has one,
    and the step lines that print a grad norm are no longer all classified one by one."""
    assert not signatures.PREFILTER.search(b"{'loss': 2.31, 'grad_norm': 0.53, 'epoch': 0.4}")
    for line in (b"{'loss': 2.31, 'grad_norm': nan}", b"found inf in grad norm", b"GRAD NORM=NaN"):
        assert "nan_grad" in {sid for sid, _ in triage._classify(line)}, line


def test_the_line_count_reads_any_size_with_a_reused_buffer(tmp_path) -> None:
    """_count: bytes and lines as the Python scan counts them, whether a file fits the buffer,
    fills it exactly or spans several reads; an empty file, a last line without a newline."""
    bodies = [b"", b"\n", b"a", b"a\nb", b"a\nb\n", b"x" * 63 + b"\n", b"line\n" * 40 + b"end"]
    paths = []
    for i, body in enumerate(bodies):
        p = tmp_path / f"f{i}.log"
        p.write_bytes(body)
        paths.append(p)
    for chunk in (4, 64, 1 << 20):
        got = triage._count(paths, chunk)
        assert got == [(s.bytes, s.lines) for s in (triage.scan(p, grep=False) for p in paths)]
    assert triage._count([*paths, tmp_path / "missing.log"], 64) is None


def test_nonstops_own_lines_are_no_evidence_for_the_fallback(tmp_path: Path) -> None:
    """An injected crash announces itself in nonstop's own prefixed line; with only that and a
    library's FutureWarning in the log, nothing is guessed (the statistical fallback had read
    these words as a hang). The same log with the user's own failure line still reaches it."""
    own = (
        "/x/train.py:145: FutureWarning: `broadcast_buffers` is deprecated. Use "
        "`forward_sync_buffers` instead.\n"
        "  ddp = DDP(model, broadcast_buffers=False) if world > 1 else model\n"
        "nonstop[host vm attempt 0 rank 1] nonstop.faults: injected crash at step 10 on rank 1 "
        "(crash@step=10,rank=1)\n"
    )
    log = tmp_path / "rank-1.log"
    log.write_text(own)
    v = triage_file(log)
    assert v.category == taxonomy.UNKNOWN and not v.guessed, v.verdict
    assert triage._OWN_LINE.sub(b"", own.encode()).count(b"\n") == 2
    log.write_text(own + "Traceback (most recent call last):\nMyError: the run stalled\n")
    assert triage._OWN_LINE.sub(b"", log.read_bytes()).count(b"Traceback") == 1
