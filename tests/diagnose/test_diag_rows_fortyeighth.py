"""Signature rows for the classes the forty-eighth collection showed missing
(tests/corpus/real/README.md, fortyeighth.jsonl, "After its rows", branch issue-27rows48). Each
row is tested on the forty-eighth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take. Rows widened
in place for it: `tfrecord_record_corrupt` (TF1's Coordinator wording), `hdf5_lock_unsupported`
(HDF5 1.12's "file locking disabled", TensorStore's lock refused), `download_failed` (the
datasets library's streaming retries), `nan_loss` (BasicSR's loss names, a model's outputs
printed all NaN), `segfault_own_report` (a torch process's "Segfault encountered" banner); new:
`data_file_corrupt`, `checkpoint_library_internal`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortyeighth(rid: str) -> str:
    return excerpt("fortyeighth", rid)


FORTYEIGHTH = [
    # (log text, category, why)
    # -- storage: a data file or archive that does not read back whole (`data_file_corrupt`;
    # CPython Lib/tarfile.py and Lib/_compression.py, zstd lib/common/error_private.c as
    # python-zstandard and programs/fileio.c quote it, Arrow cpp/src/arrow/util/
    # compression_snappy.cc and compression_lz4.cc, HDF5 H5Fsuper.c, H5B.c, H5FDsec2.c)
    (_fortyeighth("ec37f4b23158"), "storage", "forty-eighth ec37f4b23158 (WebDataset tar)"),
    (_fortyeighth("d43947092e46"), "storage", "forty-eighth d43947092e46 (zstd frame)"),
    (_fortyeighth("85527e8b4bac"), "storage", "forty-eighth 85527e8b4bac (zstd corruption)"),
    (_fortyeighth("998d1bfe844f"), "storage", "forty-eighth 998d1bfe844f (parquet snappy)"),
    (_fortyeighth("18c34ae70d8e"), "storage", "forty-eighth 18c34ae70d8e (HDF5 truncated)"),
    (_fortyeighth("29558b3a9148"), "storage", "forty-eighth 29558b3a9148 (HDF5 B-tree)"),
    (_fortyeighth("eaa1ef2b4525"), "storage", "forty-eighth eaa1ef2b4525 (HDF5 read failed)"),
    (excerpt("twelfth", "73f083655891"), "storage", "twelfth 73f083655891 (HDF5 truncated)"),
    (
        "tarfile.ReadError: unexpected end of data",
        "storage",
        "tarfile's own wording, unquoted",
    ),
    (
        "EOFError: Compressed file ended before the end-of-stream marker was reached",
        "storage",
        "gzip/bz2/lzma: a compressed shard cut short",
    ),
    (
        "zstd: /data/shard-00017.jsonl.zst : Decoding error (36) : Unknown frame descriptor",
        "storage",
        "the zstd CLI's wording",
    ),
    (
        "pyarrow.lib.ArrowIOError: Corrupt Lz4 compressed data.",
        "storage",
        "Arrow's lz4 codec",
    ),
    (
        "OSError: Unable to read data (file read failed: time = Tue Dec  5 10:00:00 2026, "
        "filename = '/data/train.h5', file descriptor = 7, errno = 5, error message = "
        "'Input/output error', buf = 0x55d0, total read size = 4096, bytes this sub-read = "
        "4096, bytes actually read = 18446744073709551615, offset = 0)",
        "storage",
        "HDF5's sec2 driver: a read the file system failed",
    ),
    # -- storage: TensorFlow's record reader (`tfrecord_record_corrupt`, widened: TF1's
    # Coordinator quoting the exception class)
    (_fortyeighth("38e241baf041"), "storage", "forty-eighth 38e241baf041 (Coordinator)"),
    (excerpt("fortyfirst", "16040931059c"), "storage", "forty-first 16040931059c (Data loss)"),
    (
        "INFO:tensorflow:Error reported to Coordinator: <class 'tensorflow.python.framework."
        "errors_impl.DataLossError'>, corrupted record at 4096",
        "storage",
        "the Coordinator's wording of a corrupted record",
    ),
    # -- storage: a file lock the filesystem does not give (`hdf5_lock_unsupported`, widened;
    # HDF5 H5FDsec2.c, TensorStore kvstore/file/file_key_value_store.cc)
    (_fortyeighth("316758dec005"), "storage", "forty-eighth 316758dec005 (HDF5 1.12)"),
    (_fortyeighth("2b7a889eb9de"), "storage", "forty-eighth 2b7a889eb9de (TensorStore)"),
    (excerpt("twentythird", "c8a1b0700b1b"), "storage", "twenty-third c8a1b0700b1b (ENOLCK)"),
    (
        "OSError: Unable to create file (file locking disabled on this file system (use "
        "HDF5_USE_FILE_LOCKING environment variable to override), errno = 95, error message = "
        "'Operation not supported')",
        "storage",
        "HDF5 1.12 on EOPNOTSUPP",
    ),
    (
        'ValueError: FAILED_PRECONDITION: Error writing local file "/scratch/run/ckpt/'
        '_CHECKPOINT_METADATA": Failed to acquire lock on file: /scratch/run/ckpt/'
        "_CHECKPOINT_METADATA.__lock [OS error: No locks available]",
        "storage",
        "TensorStore on NFS without lockd (ENOLCK)",
    ),
    # -- dependency: the datasets library's streaming reads losing the hub (`download_failed`,
    # widened; datasets src/datasets/utils/file_utils.py)
    (_fortyeighth("a45464bc4d2c"), "dependency", "forty-eighth a45464bc4d2c (retrying)"),
    (
        "Got disconnected from remote data host. Retrying in 5sec [20/20]",
        "dependency",
        "the last retry, without the logger's prefix",
    ),
    (
        "ConnectionError: Server Disconnected",
        "dependency",
        "the retries given up",
    ),
    # -- numerical_nan: BasicSR's losses and a model's outputs printed all NaN (`nan_loss`,
    # widened; basicsr/utils/logger.py, basicsr/models/sr_model.py and esrgan_model.py)
    (_fortyeighth("24096a8aad0a"), "numerical_nan", "forty-eighth 24096a8aad0a (l_pix: inf)"),
    (_fortyeighth("9ef18e0d155f"), "numerical_nan", "forty-eighth 9ef18e0d155f (pred_* nan)"),
    (
        "2023-01-02 10:00:00,000 INFO: [ESRGA..][epoch:  3, iter:  12,000, lr:(1.000e-04,)] "
        "[eta: 2 days, 1:00:00, time (data): 0.300 (0.001)] l_g_pix: nan l_g_percep: nan "
        "l_g_gan: nan l_d_real: 6.9315e-01 l_d_fake: 6.9315e-01",
        "numerical_nan",
        "ESRGAN's generator losses",
    ),
    (
        "logits = tensor([[nan, nan, nan, nan]], device='cuda:0', grad_fn=<AddmmBackward0>)",
        "numerical_nan",
        "torch's print of a model's outputs",
    ),
    (excerpt("twentyeighth", "9c84c13ad1f7"), "numerical_nan", "twenty-eighth 9c84c13ad1f7"),
    # -- software_bug: a checkpoint library failing its own steps (`checkpoint_library_internal`;
    # megatron-core dist_checkpointing core.py and strategies, Fast-LLM
    # fast_llm/engine/checkpoint/safe_load.py, FTI src/checkpoint.c)
    (_fortyeighth("5841e938411d"), "software_bug", "forty-eighth 5841e938411d (megatron)"),
    (_fortyeighth("080fe4d465f9"), "software_bug", "forty-eighth 080fe4d465f9 (Fast-LLM)"),
    (_fortyeighth("933768b0b4d3"), "software_bug", "forty-eighth 933768b0b4d3 (FTI)"),
    (
        "megatron.core.dist_checkpointing.core.CheckpointingException: Cannot apply async_save "
        "to non-async base strategy TorchDistSaveShardedStrategy()",
        "software_bug",
        "megatron's fully-parallel wrapper",
    ),
    (
        "megatron.core.dist_checkpointing.core.CheckpointingException: Cannot find default "
        "strategy for: ('save_sharded', 'torch_dist', 1)",
        "software_bug",
        "megatron's strategy registry",
    ),
    (
        "2026-01-05 18:17:47,243 [Rank 000] 128 values missing out of 128 for padding in "
        "stage 3, shard weights (locally 0 out of 0)",
        "software_bug",
        "Fast-LLM's padding wording",
    ),
    (
        "[ FTI Warning 000000 ] : Error postprocessing checkpoint. Discarding current "
        "checkpoint...",
        "software_bug",
        "older FTI's post-checkpoint failure",
    ),
    # -- software_bug: a torch process's own fatal-signal report of a segfault
    # (`segfault_own_report`, widened; the header as vLLM, TensorRT-LLM and SGLang workers log it)
    (_fortyeighth("8b751697319c"), "software_bug", "forty-eighth 8b751697319c (crc32 in zip)"),
    (
        "!!!!!!! Segfault encountered !!!!!!!\n"
        '  File "plugin/net.cc", line 216, in ncclNetPluginInit',
        "software_bug",
        "a vLLM worker crashing in NCCL's network plugin",
    ),
    (
        "Model init total -- 12.69s\n!!!!!!! Segfault encountered !!!!!!!\n"
        '  File "<unknown>", line 0, in nvmlSystemGetConfComputeSettings',
        "software_bug",
        "a TensorRT-LLM worker crashing in NVML",
    ),
    # a storage error inside the same checkpoint library stands (tuning c23f3c36abf1)
    (excerpt("tuning", "c23f3c36abf1"), "storage", "tuning c23f3c36abf1 (dist_checkpointing EIO)"),
]

NOT = [
    # (log text, category it must not get, why)
    (
        _fortyeighth("44b26d87f634"),
        "storage",
        "a bare 'Corrupted block detected' with no reader named (labelled from its thread)",
    ),
    (
        "OSError: Unable to open file (file signature not found)",
        "storage",
        "not an HDF5 file: the caller's path",
    ),
    (
        "tarfile.ReadError: file could not be opened successfully",
        "storage",
        "not a tar archive",
    ),
    (
        '    recoverable_tokens = ("readerror", "unexpected end of data", "timed out")',
        "storage",
        "a retry list naming the words",
    ),
    (
        "Unknown frame descriptor",
        "storage",
        "zstd's words with no reader named",
    ),
    (
        "org.apache.kafka.common.KafkaException: Failed to acquire lock on file .lock in "
        "/var/kafka-logs. A Kafka instance in another process or thread is using this directory.",
        "storage",
        "a lock held by another process",
    ),
    (
        "BlockingIOError: [Errno 11] Unable to open file (unable to lock file, errno = 11, "
        "error message = 'Resource temporarily unavailable')",
        "storage",
        "HDF5's lock held by another handle (the twenty-third's 28ef84d90840)",
    ),
    (
        "# Got disconnected from remote data host. The client retries on its own.",
        "dependency",
        "a note about the message, no retry",
    ),
    (
        "2023-06-16 22:22:49,036 INFO: [debug..][epoch: 0, iter: 154] l_pix: -2.7506e+01",
        "numerical_nan",
        "a finite BasicSR loss",
    ),
    (
        "X_train = [[nan nan nan 1.0 2.0]]",
        "numerical_nan",
        "an input array with missing values",
    ),
    (
        "pred_src_src = [[[[0.12 0.53 nan]]]...]",
        "numerical_nan",
        "one NaN among an output's values",
    ),
    (
        "megatron.core.dist_checkpointing.core.CheckpointingException: Checkpoint directory "
        "/ckpt/iter_0001000 does not exist",
        "software_bug",
        "megatron's missing-directory check: the caller's path",
    ),
    (
        "megatron.core.dist_checkpointing.core.CheckpointingException: /ckpt is not a "
        "distributed checkpoint",
        "software_bug",
        "a legacy checkpoint passed to the sharded loader",
    ),
    (
        "There are 6 values missing out of 18",
        "software_bug",
        "a data-cleaning notebook's count",
    ),
    (
        "Segfault encountered while parsing the config; see the FAQ",
        "software_bug",
        "the words without the handler's banner",
    ),
    (
        "mv: cannot rename 'a' to 'b': Permission denied",
        "software_bug",
        "a shell's rename",
    ),
]

test_row = row_test(FORTYEIGHTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYEIGHTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The forty-eighth's excerpts the rows now read get their labels' actions (restart for
    each: none excludes a node)."""
    for rid, category in (
        ("ec37f4b23158", "storage"),
        ("d43947092e46", "storage"),
        ("998d1bfe844f", "storage"),
        ("38e241baf041", "storage"),
        ("2b7a889eb9de", "storage"),
        ("a45464bc4d2c", "dependency"),
        ("24096a8aad0a", "numerical_nan"),
        ("5841e938411d", "software_bug"),
        ("080fe4d465f9", "software_bug"),
        ("933768b0b4d3", "software_bug"),
    ):
        v = rows_alone(tmp_path, _fortyeighth(rid))
        assert (v.category, v.action) == (category, "restart"), (rid, v.verdict)
