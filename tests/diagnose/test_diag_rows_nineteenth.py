"""Signature rows for the classes the nineteenth collection showed missing
(tests/corpus/real/README.md, nineteenth.jsonl, "After its rows", branch issue-27rows19). Each
row is tested on the nineteenth's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _nineteenth(rid: str) -> str:
    return excerpt("nineteenth", rid)


NINETEENTH = [
    # (log text, category, why)
    # -- Ceph's slow or blocked requests
    (_nineteenth("713e34482700"), "storage", "nineteenth 713e34482700 (requests are blocked)"),
    (_nineteenth("3612d43efbb3"), "storage", "nineteenth 3612d43efbb3 (MDS slow requests)"),
    (
        "HEALTH_WARN 3 slow ops, oldest one blocked for 61 sec; 2 osds have slow requests",
        "storage",
        "osds",
    ),
    ("12 ops are blocked > 65.536 sec on osd.4", "storage", "ops on an osd"),
    # -- HTCondor's and Habana's memory limits
    (_nineteenth("1b964bc6e2a8"), "out_of_memory", "nineteenth 1b964bc6e2a8 (HTCondor hold)"),
    (
        "Hold reason: Error from slot1@node07: Job has gone over memory limit of 4096 megabytes.",
        "out_of_memory",
        "vanilla universe",
    ),
    (_nineteenth("ea5babd2d8e6"), "out_of_memory", "nineteenth ea5babd2d8e6 (SYNHELPER)"),
    ("synapse: Allocation of size ::2147483648 failed!", "out_of_memory", "another allocation"),
    # -- TensorFlow's collective executor past its deadline
    (
        _nineteenth("f070761e9ad9"),
        "nccl_watchdog_timeout",
        "nineteenth f070761e9ad9 (StartAbort DEADLINE_EXCEEDED)",
    ),
    (
        "E tensorflow/core/common_runtime/base_collective_executor.cc:249] "
        "BaseCollectiveExecutor::StartAbort DEADLINE_EXCEEDED: Collective ops is aborted by: ...",
        "nccl_watchdog_timeout",
        "another detail",
    ),
    # -- CUDA's launch failure by its number
    (_nineteenth("cb6d4291665a"), "software_bug", "nineteenth cb6d4291665a (CUDA error(719))"),
    ("RuntimeError: CUDA error 719 at step 4000", "software_bug", "error 719"),
    ("cudaErrorLaunchFailure: unspecified launch failure", "software_bug", "by name"),
    # -- slurmd's node shape against its hardware
    (_nineteenth("66e68ee3b5d2"), "dependency", "nineteenth 66e68ee3b5d2 (node configuration)"),
    (
        "slurmd: error: Node configuration differs from hardware: CPUs=64:128(hw) Boards=1:1(hw)",
        "dependency",
        "slurmd's prefix",
    ),
    # -- a hang told by the GPU's utilisation, in Chinese and in Japanese
    (_nineteenth("137c280f9e4f"), "hang", "nineteenth 137c280f9e4f (gpu-util down to 0%)"),
    (_nineteenth("bd3ada5592ef"), "hang", "nineteenth bd3ada5592ef (不再继续)"),
    (_nineteenth("9adbf435ae60"), "hang", "nineteenth 9adbf435ae60 (不跑了, 死在那里)"),
    (_nineteenth("2ba09ec559fa"), "hang", "nineteenth 2ba09ec559fa (で止まる)"),
    (excerpt("fourteenth", "51cc8b3181c0"), "hang", "fourteenth 51cc8b3181c0 (没有动静)"),
    ("After epoch 3 the GPU utilization dropped to 0% and nothing was printed", "hang", "dropped"),
    ("训练到第5个epoch程序卡在那里，没有报错", "hang", "卡在那里"),
    ("分布式学習が途中で固まってしまいます", "hang", "固まって"),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("HEALTH_OK 0 slow requests", "storage", "a count of 0"),
    ("The docs say requests are blocked when an OSD is down.", "storage", "no count"),
    ("The job stayed well under its memory limit of 4096 megabytes.", "out_of_memory", "under"),
    (
        excerpt("thirteenth", "c8f2c8d3620f"),
        "nccl_watchdog_timeout",
        "thirteenth c8f2c8d3620f (a gRPC call's deadline: dependency)",
    ),
    ("CUDA error 7190 reported by the toy driver", "software_bug", "another number"),
    ("Node configuration matches hardware", "dependency", "matches"),
    ("训练loss不再下降", "hang", "a loss that stops falling"),
    ("学習率を0.1で止める設定", "hang", "a learning rate setting"),
    ("GPU utilization is 95% and steady", "hang", "busy"),
    ("GPU-Util 0% before training starts, then 98%", "hang", "0% before it starts"),
]

test_row = row_test(NINETEENTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(NINETEENTH + NOT)


def test_the_nineteenth_s_rows_exclude_no_node(tmp_path: Path) -> None:
    """None of the new rows excludes a node: restart or stop_and_page, whatever the words."""
    for text, _category, why in NINETEENTH:
        assert rows_alone(tmp_path, text).action != "exclude_node", why
