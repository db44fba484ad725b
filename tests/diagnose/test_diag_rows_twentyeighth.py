"""Signature rows for the classes the twenty-eighth collection showed missing
(tests/corpus/real/README.md, twentyeighth.jsonl, "After its rows", branch issue-27rows28). Each
row is tested on the twenty-eighth's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _twentyeighth(rid: str) -> str:
    return excerpt("twentyeighth", rid)


TWENTYEIGHTH = [
    # (log text, category, why)
    # -- out_of_memory: a worker manager's or a pool's memory guard stopping the work
    (_twentyeighth("6960254cf09f"), "out_of_memory", "twentyeighth 6960254cf09f (Dask's nanny)"),
    (
        _twentyeighth("4c1f3b605a6d"),
        "out_of_memory",
        "twentyeighth 4c1f3b605a6d (killed, restarted)",
    ),
    (_twentyeighth("949d925abb35"), "out_of_memory", "twentyeighth 949d925abb35 (wrapped line)"),
    (
        "distributed.nanny.memory - WARNING - Worker tcp://10.0.0.5:40123 (pid=4411) exceeded "
        "80% memory budget. Restarting...",
        "out_of_memory",
        "the newer nanny's wording, another budget",
    ),
    (_twentyeighth("c0b7a3eb72b2"), "out_of_memory", "twentyeighth c0b7a3eb72b2 (HTCondor hold)"),
    (
        "Hold reason: Memory usage exceeded request_memory",
        "out_of_memory",
        "a pool's usual hold reason",
    ),
    # -- out_of_memory: Faiss's GPU resources refusing a cudaMalloc
    (_twentyeighth("4460731638e3"), "out_of_memory", "twentyeighth 4460731638e3 (old Faiss)"),
    (_twentyeighth("95b28373522b"), "out_of_memory", "twentyeighth 95b28373522b (error 2)"),
    (
        "Error: 'err == cudaSuccess' failed: StackDeviceMemory: cudaMalloc error out of memory [2]",
        "out_of_memory",
        "the older StandardGpuResources wording",
    ),
    # -- numerical_nan: a distribution's real-valued parameter is NaN
    (_twentyeighth("9c84c13ad1f7"), "numerical_nan", "twentyeighth 9c84c13ad1f7 (SAC)"),
    (_twentyeighth("6e0ac56cd1a1"), "numerical_nan", "twentyeighth 6e0ac56cd1a1 (PPO-Lag, cut)"),
    (_twentyeighth("5680980bef22"), "numerical_nan", "twentyeighth 5680980bef22 (Parameter)"),
    (
        "ValueError: Expected parameter logits (Tensor of shape (32, 6)) of distribution "
        "Categorical(logits: torch.Size([32, 6])) to satisfy the constraint "
        "IndependentConstraint(Real(), 1), but found invalid values:",
        "numerical_nan",
        "a discrete policy's logits",
    ),
    # -- numerical_nan: clip_grad_norm_'s non-finite total norm
    (_twentyeighth("19db37293445"), "numerical_nan", "twentyeighth 19db37293445 (the warning)"),
    (
        "RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, "
        "so it cannot be clipped. To disable this error and scale the gradients by the non-finite "
        "norm anyway, set `error_if_nonfinite=False`",
        "numerical_nan",
        "the error (error_if_nonfinite)",
    ),
    # -- numerical_nan: OpenMM's check of the positions
    (_twentyeighth("4109b6e582ba"), "numerical_nan", "twentyeighth 4109b6e582ba (Folding@home)"),
    (
        "openmm.OpenMMException: Particle coordinate is NaN.  For more information, see "
        "https://github.com/openmm/openmm/wiki/Frequently-Asked-Questions#nan",
        "numerical_nan",
        "newer OpenMM",
    ),
    # -- storage: a database's or object store's own words for its data volume
    (_twentyeighth("305ad36e2a89"), "storage", "twentyeighth 305ad36e2a89 (CockroachDB write)"),
    (_twentyeighth("ebb57dd01d03"), "storage", "twentyeighth ebb57dd01d03 (CockroachDB sync)"),
    (_twentyeighth("8af991f2d869"), "storage", "twentyeighth 8af991f2d869 (Pebble)"),
    (_twentyeighth("cfbc66a1e558"), "storage", "twentyeighth cfbc66a1e558 (MinIO drive)"),
    (_twentyeighth("f426a6483482"), "storage", "twentyeighth f426a6483482 (MinIO read quorum)"),
    (_twentyeighth("89106df7bbb0"), "storage", "twentyeighth 89106df7bbb0 (MinIO write quorum)"),
    (_twentyeighth("597307678c5d"), "storage", "twentyeighth 597307678c5d (Kafka)"),
    (
        "E230114 10:02:11.000000 1 storage/disk_stall.go:91 disk slowness detected: sync on file "
        "000123.log has been ongoing for 20.1s",
        "storage",
        "Pebble's sync",
    ),
    (
        "ERROR Stopping serving replicas in dir /var/lib/kafka/data (kafka.server.ReplicaManager)",
        "storage",
        "Kafka's replica manager",
    ),
    (
        "API: SYSTEM() Error: disk not found: /export3 (*errors.errorString)",
        "storage",
        "MinIO's older wording",
    ),
    # -- ssd: smartctl's self-test execution status for a test that failed
    (_twentyeighth("84307db6f012"), "ssd", "twentyeighth 84307db6f012 (read element, wrapped)"),
    (
        "Self-test execution status:      ( 100) The previous self-test completed having the "
        "electrical element of the test failed.",
        "ssd",
        "the electrical element, on one line",
    ),
    (
        "the servo (and/or seek) element of the test failed.",
        "ssd",
        "the servo element",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        _twentyeighth("c0d4deb88f28"),
        "out_of_memory",
        "a 0% budget: the site's setting restarts every worker (dependency)",
    ),
    (
        "distributed.worker - WARNING - Memory use is high but worker has no data to store to "
        "disk.  Perhaps some other process is leaking memory?  Process memory: 2.95 GB -- Worker "
        "memory limit: 3.38 GB",
        "out_of_memory",
        "Dask's warning alone (unknown by the twenty-eighth's rule)",
    ),
    (
        "Hold reason: Job in status 2 put on hold by SYSTEM_PERIODIC_HOLD due to runtime",
        "out_of_memory",
        "a hold for another reason",
    ),
    (
        "Failed to cudaMalloc 536870912 bytes on device 0 (error 700 an illegal memory access "
        "was encountered",
        "out_of_memory",
        "Faiss's allocation failing on another error",
    ),
    (
        "ValueError: Expected parameter probs (Tensor of shape (8, 4)) of distribution "
        "Categorical(probs: torch.Size([8, 4])) to satisfy the constraint Simplex(), but found "
        "invalid values:",
        "numerical_nan",
        "probs off the simplex: the caller's input can be",
    ),
    (
        "ValueError: Expected parameter scale (Tensor of shape (64, 2)) of distribution "
        "Normal(loc: torch.Size([64, 2]), scale: torch.Size([64, 2])) to satisfy the constraint "
        "GreaterThan(lower_bound=0.0), but found invalid values:",
        "numerical_nan",
        "a scale not positive",
    ),
    (
        "The previous self-test routine completed without error or no self-test has ever been run.",
        "ssd",
        "a self-test that passed",
    ),
    (
        "The previous self-test was aborted by the host.",
        "ssd",
        "a self-test the host aborted",
    ),
    (
        "Warning: Bad drive not found: /dev/sdz is not a block device, skipping",
        "storage",
        "no object store's error (a person's tool, a path that is no drive)",
    ),
]

test_row = row_test(TWENTYEIGHTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(TWENTYEIGHTH + NOT)


def test_the_datastore_rows_never_exclude(tmp_path: Path) -> None:
    """A database's disk stall is `storage` (restart), the label's action; its collector's
    alternative `ssd` would exclude, and no row reads the volume as a local disk from these
    words."""
    for rid in ("305ad36e2a89", "8af991f2d869", "ebb57dd01d03", "597307678c5d"):
        v = rows_alone(tmp_path, _twentyeighth(rid))
        assert (v.category, v.action) == ("storage", "restart"), (rid, v.verdict)


def test_a_failed_self_test_excludes(tmp_path: Path) -> None:
    """smartctl's self-test status for a read failure (84307db6f012, a sure `ssd`) excludes the
    node even when the overall health says PASSED: the settled SMART self-test rule."""
    v = rows_alone(tmp_path, _twentyeighth("84307db6f012"))
    assert (v.category, v.action) == ("ssd", "exclude_node"), v.verdict
