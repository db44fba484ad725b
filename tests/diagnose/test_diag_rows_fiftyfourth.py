"""Signature rows for the classes the fiftyfourth collection showed missing
(tests/corpus/real/README.md, fiftyfourth.jsonl, "After its rows", branch issue-27rows54). Each
row is tested on the fiftyfourth's excerpts and on other wordings of its class, from the source
or documentation cited beside each, with the near misses it must not take. Rows widened in place
for it: `loss_nan_spelled` (a zero-padded nan; SpeechBrain's, Lightning's and Keras' own guards
on a non-finite loss), `wrong_device` (the parallel wrappers finding the module on another
device), `verbs_wc_local_error` (gloo's ibverbs transport); new: `store_barrier_workers_missing`, `store_barrier_workers_extra`,
`physx_gpu_cuda_error`."""

from __future__ import annotations

import re
from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone

from nonstop.diagnose import signatures


def _fiftyfourth(rid: str) -> str:
    return excerpt("fiftyfourth", rid)


_WAIT = (
    "Waiting in store based barrier to initialize process group for rank: 3, key: "
    "store_based_barrier_key:1 (world_size={}, {}={}, timeout=0:30:00)"
)
_TIMED_OUT = (
    "RuntimeError: Timed out initializing process group in store based barrier on rank 5, for "
    "key: store_based_barrier_key:1 (world_size={}, {}={}, timeout=0:30:00 error=)"
)

FIFTYFOURTH = [
    # (log text, category, why)
    # -- numerical_nan: a framework's own guard on a non-finite loss, a zero-padded nan
    # (`loss_nan_spelled`, widened; speechbrain/core.py check_gradients,
    # pytorch_lightning/callbacks/early_stopping.py _evaluate_stopping_criteria,
    # keras/callbacks.py TerminateOnNaN)
    (_fiftyfourth("108d9c49c7da"), "numerical_nan", "fiftyfourth 108d9c49c7da (SpeechBrain)"),
    (_fiftyfourth("a6ca4f086598"), "numerical_nan", "fiftyfourth a6ca4f086598 (0000nan)"),
    (
        "ValueError: Loss is not finite and patience is exhausted. To debug, wrap `fit()` with "
        "autograd's `detect_anomaly()`, e.g.",
        "numerical_nan",
        "SpeechBrain's guard, the line alone",
    ),
    (
        "Monitored metric val_loss = nan is not finite. Previous best value was 0.512. Signaling "
        "Trainer to stop.",
        "numerical_nan",
        "Lightning's EarlyStopping check_finite",
    ),
    (
        "Monitored metric val_acc = -inf is not finite. Previous best value was 0.801. Signaling "
        "Trainer to stop.",
        "numerical_nan",
        "Lightning's EarlyStopping, another metric",
    ),
    (
        "Batch 1203: Invalid loss, terminating training",
        "numerical_nan",
        "Keras' TerminateOnNaN",
    ),
    ("step 120 | loss = 00nan | lr 1e-4", "numerical_nan", "another zero padding"),
    # -- user_code_error: a parallel wrapper given a module on another device (`wrong_device`,
    # widened; torch/nn/parallel/data_parallel.py, torch/nn/parallel/distributed.py)
    (_fiftyfourth("7ea58c87d450"), "user_code_error", "fiftyfourth 7ea58c87d450 (DataParallel)"),
    (
        "RuntimeError: module must have its parameters and buffers on device cuda:0 "
        "(device_ids[0]) but found one of them on device: cpu",
        "user_code_error",
        "DataParallel, the module left on the CPU",
    ),
    (
        "AssertionError: DistributedDataParallel's input module must be on the same type of "
        "devices, but input module parameters locate in {'cpu', 'cuda'}.",
        "user_code_error",
        "DDP, a module split over CPU and GPU",
    ),
    (
        "ValueError: DistributedDataParallel device_ids and output_device arguments only work "
        "with single-device/multiple-device GPU modules or CPU modules, but got device_ids [0], "
        "output_device None, and module parameters {device(type='cpu')}.",
        "user_code_error",
        "DDP given device_ids for a CPU module",
    ),
    # -- hang: fewer workers than the world in the store-based barrier
    # (`store_barrier_workers_missing`; torch/distributed/distributed_c10d.py
    # _store_based_barrier, torch 1.x and 2.x wordings)
    (_fiftyfourth("49d485fd604e"), "hang", "fiftyfourth 49d485fd604e (4 of 8)"),
    (_WAIT.format(8, "worker_count", 7), "hang", "torch 1.x waiting, 7 of 8"),
    (_WAIT.format(16, "num_workers_joined", 9), "hang", "torch 2.x waiting, 9 of 16"),
    (_WAIT.format(1024, "worker_count", 1023), "hang", "as many digits, 1023 of 1024"),
    (_TIMED_OUT.format(2048, "num_workers_joined", 1792), "hang", "torch 2.x timed out"),
    # -- dependency: more workers than the world (`store_barrier_workers_extra`)
    (_fiftyfourth("239e495ab958"), "dependency", "fiftyfourth 239e495ab958 (8 for 4)"),
    (_fiftyfourth("282952844576"), "dependency", "fiftyfourth 282952844576 (9 for 8)"),
    (_WAIT.format(16, "num_workers_joined", 31), "dependency", "torch 2.x, 31 for 16"),
    (_TIMED_OUT.format(2, "worker_count", 4), "dependency", "a leftover rendezvous, 4 for 2"),
    (_TIMED_OUT.format(1023, "worker_count", 1024), "dependency", "1024 for 1023"),
    # -- software_bug: PhysX's GPU pipeline failing a CUDA step (`physx_gpu_cuda_error`;
    # NVIDIA-Omniverse/PhysX issue 246, IsaacLab issue 4668, OmniIsaacGymEnvs issue 11)
    (_fiftyfourth("d080c82ca933"), "software_bug", "fiftyfourth d080c82ca933 (narrowphase)"),
    (
        "code: eINTERNAL_ERROR\nmessage: PhysX Internal CUDA error. Simulation can not continue! "
        "Error code 700!",
        "software_bug",
        "PhysX 5.3's SDK error callback",
    ),
    (
        "2026-02-20T16:41:50Z [167,746ms] [Error] [omni.physx.plugin] PhysX error: PhysX Internal "
        "CUDA error. Simulation cannot continue! Error code 719!",
        "software_bug",
        "Isaac Lab, error 719",
    ),
    (
        "2022-09-19 00:58:31 [21,848ms] [Error] [omni.physx.plugin] PhysX error: GPU "
        "solveSelfConstraints fail to launch kernel!!",
        "software_bug",
        "a kernel launch failing",
    ),
    # -- software_bug: gloo's ibverbs transport failing a work completion on the request itself
    # (`verbs_wc_local_error`, widened; gloo/transport/ibverbs/pair.cc GLOO_ENFORCE_EQ(wc->status,
    # IBV_WC_SUCCESS, ..., ibv_wc_status_str(wc->status)), libibverbs' status strings)
    (_fiftyfourth("4e81b0c6351c"), "software_bug", "fiftyfourth 4e81b0c6351c (status 8)"),
    (
        "[enforce fail at gloo/transport/ibverbs/pair.cc:301] wc->status == IBV_WC_SUCCESS. 4 vs "
        "0. Recv for slot 2: local protection error",
        "software_bug",
        "a receive, status 4",
    ),
    (
        "[enforce fail at gloo/transport/ibverbs/pair.cc:470] wc->status == IBV_WC_SUCCESS. 10 vs "
        "0. Memory region recv for slot 1: remote access error",
        "software_bug",
        "a memory-region receive, status 10",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    ("Patience not yet exhausted, ignoring this batch.", "numerical_nan", "SpeechBrain goes on"),
    ("  --skip-nan            skip NaN batches", "numerical_nan", "an option"),
    ("epoch  train_loss  nan_count", "numerical_nan", "a header with nan in a column name"),
    (
        "Monitored metric val_loss did not improve in the last 3 records. Best score: 0.512. "
        "Signaling Trainer to stop.",
        "numerical_nan",
        "EarlyStopping's ordinary stop",
    ),
    (
        "If you see `Loss is not finite and patience is exhausted`, lower the learning rate.",
        "user_code_error",
        "advice quoting the guard",
    ),
    (_WAIT.format(16, "worker_count", 16), "hang", "every worker counted (last wait)"),
    (_WAIT.format(16, "worker_count", 16), "dependency", "every worker counted (last wait)"),
    (
        "Rank 3: Completed store-based barrier for key:store_based_barrier_key:1 with 8 nodes.",
        "hang",
        "the barrier completed",
    ),
    (_WAIT.format(8, "worker_count", 7), "dependency", "a rank missing is no set-up mistake"),
    (_WAIT.format(4, "worker_count", 8), "hang", "extra workers are no stall"),
    (
        "[Error] [omni.physx.plugin] PhysX error: the application need to increase the "
        "PxgDynamicsMemoryConfig::foundLostPairsCapacity parameter to 3072, otherwise the "
        "simulation will miss interactions",
        "software_bug",
        "PhysX asking for a larger buffer",
    ),
    (
        "[Warning] [omni.physx.plugin] PhysX warning: Synchronizing GPU Narrowphase took 12 ms",
        "software_bug",
        "no failure",
    ),
    (
        "Expected module parameters and buffers on device cuda:0 for DataParallel",
        "user_code_error",
        "no wrapper refusing",
    ),
    (
        "[enforce fail at gloo/transport/ibverbs/pair.cc:340] wc->status == IBV_WC_SUCCESS. 5 vs "
        "0. Send for slot 0: Work Request Flushed Error",
        "software_bug",
        "flushed: a symptom (the ninth's 98a3f13c65d5, unknown)",
    ),
    (
        "[enforce fail at gloo/transport/ibverbs/pair.cc:462] wc->status == IBV_WC_SUCCESS. 12 vs "
        "0. Memory region send for slot 0: transport retry counter exceeded",
        "software_bug",
        "retries exceeded: the link's (`ib_retry`)",
    ),
]

test_row = row_test(FIFTYFOURTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYFOURTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftyfourth's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("108d9c49c7da", "numerical_nan", "restart"),
        ("a6ca4f086598", "numerical_nan", "restart"),
        ("7ea58c87d450", "user_code_error", "stop_and_page"),
        ("49d485fd604e", "hang", "restart"),
        ("239e495ab958", "dependency", "restart"),
        ("d080c82ca933", "software_bug", "restart"),
        ("4e81b0c6351c", "software_bug", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftyfourth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_the_barrier_rows_compare_the_counts_as_numbers() -> None:
    """The two barrier rows compare world_size and the workers counted with a regex built by
    `signatures._count_compare` (a row is a regex): checked against Python's `<` and `>` on
    every pair up to 300 and on the edges of each number length up to six digits, both
    spellings (torch 1.x `worker_count`, 2.x `num_workers_joined`)."""
    fewer = re.compile(r"\(world_size=" + signatures._BARRIER_FEWER + ",")
    more = re.compile(r"\(world_size=" + signatures._BARRIER_MORE + ",")
    edges = [10**n + d for n in range(1, 6) for d in (-1, 0, 1)] + [999_999, 123_456, 654_321]
    values = [*range(300), *edges]
    for key in ("worker_count", "num_workers_joined"):
        for world in values:
            for joined in values if key == "worker_count" else edges:
                line = f"(world_size={world}, {key}={joined}, timeout=0:30:00)"
                assert bool(fewer.search(line)) == (joined < world), line
                assert bool(more.search(line)) == (joined > world), line
