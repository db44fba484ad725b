"""Signature rows for the classes the forty-fourth collection showed missing
(tests/corpus/real/README.md, fortyfourth.jsonl, "After its rows", branch issue-27rows44). Each
row is tested on the forty-fourth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take. Rows changed
in place for it: `sigbus` (a bare bus error is unknown), `ib_link_down` (InfiniBand's
informational async events are no link failure), `checkpoint_tmp_exists` (the Trainer's staging
rename, OCDBT inside Orbax's temporary folder); new: `nccl_no_socket_interface`,
`ib_async_event_notice`, `jax_barrier_tasks_missing`, `dtensor_dispatch_gap`,
`inductor_size_stride_assert`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortyfourth(rid: str) -> str:
    return excerpt("fortyfourth", rid)


FORTYFOURTH = [
    # (log text, category, why)
    # -- unknown: a bare bus error (`sigbus`; torch/distributed/elastic/multiprocessing/errors/
    # __init__.py "Signal 7 (SIGBUS) received by PID", bash's "Bus error (core dumped)", UCX's
    # "Caught signal 7 (Bus error: ...)"): the bare-kill rule
    (_fortyfourth("b661386a0784"), "unknown", "forty-fourth b661386a0784 (torchrun root cause)"),
    (excerpt("tenth", "1f40b53f3294"), "unknown", "tenth 1f40b53f3294"),
    (excerpt("thirtyfirst", "f17973122bc5"), "unknown", "thirty-first f17973122bc5 (UCX)"),
    (
        "/var/spool/slurmd/job123/slurm_script: line 9: 4242 Bus error (core dumped) python train.py",
        "unknown",
        "bash's report of a child's bus error",
    ),
    (
        "[node1:1387 :0:1656] Caught signal 7 (Bus error: nonexistent physical address)",
        "unknown",
        "UCX's signal handler",
    ),
    # -- unknown: NCCL relaying an informational InfiniBand async event (`ib_async_event_notice`;
    # rdma-core libibverbs ibv_event_type_str, NCCL src/transport/net_ib.cc)
    (_fortyfourth("0450b0800b98"), "unknown", "forty-fourth 0450b0800b98 (client reregistration)"),
    (
        "node2:811:902 [0] NCCL WARN NET/IB : mlx5_0:1 Got async event : port active",
        "unknown",
        "newer NCCL's device:port form, a port coming up",
    ),
    (
        "node2:811:902 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : SM change",
        "unknown",
        "the subnet manager moving",
    ),
    (
        "node2:811:902 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : LID change",
        "unknown",
        "a LID reassigned",
    ),
    # -- network_switch_cable / nic: the failing async events are still read (`ib_link_down`)
    (excerpt("tuning", "94d337b5bd16"), "network_switch_cable", "tuning 94d337b5bd16 (port error)"),
    (excerpt("fourth", "d2e45158bd5c"), "network_switch_cable", "fourth d2e45158bd5c"),
    (
        "node2:811:902 [0] NCCL WARN NET/IB : mlx5_0:1 Got async event : port error",
        "network_switch_cable",
        "newer NCCL's form of a port error",
    ),
    # -- dependency: NCCL finding no interface (`nccl_no_socket_interface`; NCCL src/bootstrap.cc,
    # src/transport/net_socket.cc), above the invalid-usage code it returns
    (_fortyfourth("0ac06ee5d182"), "dependency", "forty-fourth 0ac06ee5d182 (NeMo, invalid usage)"),
    (excerpt("ninth", "e8e62bfe2c28"), "dependency", "ninth e8e62bfe2c28"),
    (
        "node1:1234:1290 [0] NCCL WARN Bootstrap : no socket interface found\n"
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, "
        "internal error, NCCL version 2.10.3",
        "dependency",
        "an older NCCL's internal error after it",
    ),
    (
        "node1:1234:1290 [0] NCCL WARN NET/Socket : no interface found",
        "dependency",
        "the socket transport's wording",
    ),
    (
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
        "NCCLUtils.hpp:317, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version "
        "2.20.5\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
        "Last error:\nBootstrap : no socket interface found",
        "dependency",
        "torch's DistBackendError with NCCL's last error",
    ),
    # -- hang: a JAX coordination barrier with tasks missing (`jax_barrier_tasks_missing`;
    # xla/tsl coordination_service.cc "Barrier timed out. Barrier_id: ", older "Id: ")
    (_fortyfourth("1d5ae05998c8"), "hang", "forty-fourth 1d5ae05998c8 (PjRT_Client_Connect)"),
    (excerpt("thirtyeighth", "49a5cdc3d285"), "hang", "thirty-eighth 49a5cdc3d285"),
    (
        "jax.errors.JaxRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Id: "
        "sync_global_devices_0::0. This usually happens because a task triggered the barrier "
        "too early or too slowly.",
        "hang",
        "the older Id: wording, multihost_utils.sync_global_devices",
    ),
    # the registration barrier at start stays set-up (`jax_coordination_register`)
    (excerpt("nineteenth", "c3134dc35c41"), "dependency", "nineteenth c3134dc35c41"),
    # -- software_bug: a checkpoint library failing on its own staging folder
    # (`checkpoint_tmp_exists`; transformers trainer.py _save_checkpoint's os.rename of
    # tmp-checkpoint-N, tensorstore kvstore/ocdbt DescribeKey inside .orbax-checkpoint-tmp)
    (_fortyfourth("a9093b395c34"), "software_bug", "forty-fourth a9093b395c34 (shared NAS)"),
    (
        "FileExistsError: [Errno 17] File exists: 'output/tmp-checkpoint-500' -> "
        "'output/checkpoint-500'",
        "software_bug",
        "the same rename finding the target made by another node",
    ),
    (
        "OSError: [Errno 39] Directory not empty: '/shared/run/tmp-checkpoint-20' -> "
        "'/shared/run/checkpoint-20'",
        "software_bug",
        "ENOTEMPTY on the rename",
    ),
    (_fortyfourth("64cceee5c026"), "software_bug", "forty-fourth 64cceee5c026 (OCDBT write)"),
    (
        'ValueError: NOT_FOUND: Error reading "manifest.ocdbt" in OCDBT database at local file '
        '"/ckpt/7.orbax-checkpoint-tmp-1712/state/ocdbt.process_3/": Error opening file',
        "software_bug",
        "a read inside the same temporary folder",
    ),
    # -- software_bug: DTensor's dispatcher refusing an op (`dtensor_dispatch_gap`;
    # torch/distributed/tensor/_dispatch.py, _sharding_prop.py)
    (_fortyfourth("72f4d8ffc719"), "software_bug", "forty-fourth 72f4d8ffc719 (FSDP2 grid_sample)"),
    (
        "RuntimeError: aten.mm.default: got mixed torch.Tensor and DTensor, need to convert all "
        "torch.Tensor to DTensor before calling distributed operators!",
        "software_bug",
        "the dispatcher's wording with the op first",
    ),
    (
        "NotImplementedError: Operator aten.is_pinned.default does not have a sharding strategy "
        "registered.",
        "software_bug",
        "no sharding rule for the op (_sharding_prop.py)",
    ),
    (
        "NotImplementedError: Generating sharding strategy via decomposition failed because "
        "aten.roll.default does not have a sharding strategy registered.",
        "software_bug",
        "the decomposition path's wording",
    ),
    # -- software_bug: Inductor's size/stride guard (`inductor_size_stride_assert`;
    # torch/csrc/dynamo/guards.cpp, pytorch test/dynamo/test_misc.py test_assert_size_stride)
    (
        "AssertionError: expected size 2==2, stride 196==56448 at dim=0",
        "software_bug",
        "the guard's message",
    ),
    (
        "AssertionError: expected size 2==5, stride 12==9 at dim=0; expected size 3==6, stride "
        "4==9 at dim=1",
        "software_bug",
        "several dimensions",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "RuntimeError: DataLoader worker (pid 12345) is killed by signal: Bus error. It is "
        "possible that dataloader's workers are out of shared memory. Please try to raise your "
        "shared memory limit.",
        "unknown",
        "the shared-memory bus error stays out_of_memory",
    ),
    (
        "node2:811:902 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.0.0.2<0>",
        "network_switch_cable",
        "NCCL's IB set-up line",
    ),
    (
        "NCCL_SOCKET_IFNAME=eth0 avoids 'no socket interface found' on these nodes",
        "dependency",
        "the advice in prose, without NCCL's prefix",
    ),
    (
        "jax.errors.JaxRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: "
        "Shutdown::123",
        "hang",
        "the shutdown barrier: another task's failure",
    ),
    (
        "OSError: [Errno 28] No space left on device: 'out/tmp-checkpoint-5' -> 'out/checkpoint-5'",
        "software_bug",
        "a full disk on the rename is storage's",
    ),
    (
        'ValueError: RESOURCE_EXHAUSTED: Error writing "d/1f2e" in OCDBT database at local file '
        '"/ckpt/3.orbax-checkpoint-tmp-9/ocdbt.process_0/": No space left on device',
        "software_bug",
        "a full disk under OCDBT",
    ),
    (
        "FileNotFoundError: [Errno 2] No such file or directory: 'outputs/checkpoint-500'",
        "software_bug",
        "a missing checkpoint folder is not the staging rename",
    ),
    (
        "Converting the torch.Tensor to DTensor with Replicate() placements",
        "software_bug",
        "DTensor named in an informational line",
    ),
    (
        "    assert_size_stride(primals_1, (256, 256), (256, 1))",
        "software_bug",
        "Inductor's generated code as TORCH_LOGS=output_code prints it",
    ),
]

test_row = row_test(FORTYFOURTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYFOURTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The forty-fourth's excerpts the rows now read get their labels' actions (restart), where
    the user's-code reading had paged."""
    for rid, category in (
        ("b661386a0784", "unknown"),
        ("0450b0800b98", "unknown"),
        ("0ac06ee5d182", "dependency"),
        ("1d5ae05998c8", "hang"),
        ("a9093b395c34", "software_bug"),
        ("64cceee5c026", "software_bug"),
        ("72f4d8ffc719", "software_bug"),
    ):
        v = rows_alone(tmp_path, _fortyfourth(rid))
        assert (v.category, v.action) == (category, "restart"), (rid, v.verdict)


def test_informational_ib_events_are_read_not_guessed(tmp_path: Path) -> None:
    """The client-reregistration notices had been read as a link down; now a row reads them as
    no failure, so `nonstop triage` answers unknown from the line, with no guess."""
    from nonstop.diagnose import triage_file

    log = tmp_path / "rank.log"
    log.write_text(_fortyfourth("0450b0800b98") + "\n")
    v = triage_file(log, descriptions=True)
    assert (v.category, v.guessed) == ("unknown", False), v.verdict
    assert any("[ib_async_event_notice]" in e for e in v.evidence), v.evidence
