"""Signature rows for the classes the fourteenth collection showed missing
(tests/corpus/real/README.md, fourteenth.jsonl, "After its rows", branch issue-27gen5). Each row is
tested on the fourteenth's excerpt and on other wordings of its class, with the near misses it
must not take."""

from __future__ import annotations

import json
from pathlib import Path

from support.prefilter import near_miss_test, prefilter_test, row_test

_CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "real" / "fourteenth.jsonl"


def _fourteenth(rid: str) -> str:
    with open(_CORPUS) as f:
        for line in f:
            if line.strip() and json.loads(line)["id"] == rid:
                return str(json.loads(line)["excerpt"])
    raise KeyError(rid)


FOURTEENTH = [
    # (log text, category, why)
    # -- the host's OOM killer told in words, not its kernel line
    (_fourteenth("d7644b5ecf26"), "out_of_memory", "fourteenth d7644b5ecf26 (DagnyT/hardnet#19)"),
    ("The dataloader workers were terminated by the Linux OOM-killer.", "out_of_memory", "words"),
    ("It looks like the OOM killer killed rank 3 during evaluation.", "out_of_memory", "words"),
    ("Our job got killed by the kernel's oom_killer after epoch 2.", "out_of_memory", "words"),
    # -- a NaN loss told in words
    (_fourteenth("5efed419f116"), "numerical_nan", "fourteenth 5efed419f116 (Megatron-LLM#33)"),
    (_fourteenth("775665303a88"), "numerical_nan", "fourteenth 775665303a88 (verl#311)"),
    ("After switching to bf16 we get NaN losses from the first step.", "numerical_nan", "words"),
    ("NaN showed up in the second epoch and the run never recovered.", "numerical_nan", "words"),
    # -- a hang told in words
    (_fourteenth("be5abda78e23"), "hang", "fourteenth be5abda78e23 (discuss.pytorch.org)"),
    (_fourteenth("09338624ddd2"), "hang", "fourteenth 09338624ddd2 (nanotron#115)"),
    (_fourteenth("f72d25242a3d"), "hang", "fourteenth f72d25242a3d (marin#7344)"),
    (_fourteenth("9f661293db54"), "hang", "fourteenth 9f661293db54 (transformers#20438)"),
    ("With FSDP on 16 GPUs the job hangs at the first all_gather.", "hang", "words"),
    ("The process just hangs forever after printing the config.", "hang", "words"),
]

NOT = [
    # an OOM killer named, not said to have killed anything
    ("How do I configure the OOM killer score for the trainer?", "out_of_memory", "a question"),
    ("We disabled the oom killer on the login nodes.", "out_of_memory", "a setting"),
    # NaN that is no loss gone bad
    ("Replace nan values in the dataset with zeros before training.", "numerical_nan", "data"),
    ("The nanoGPT loss curve looks fine after 3000 steps.", "numerical_nan", "nanoGPT"),
    # a hang word that tells of no hang
    ("The job hangs up the phone line? No, it finished.", "hang", "hangs up"),
    ("This hangs on whether the checkpoint was saved.", "hang", "an idiom"),
]


test_row = row_test(FOURTEENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FOURTEENTH + NOT)
