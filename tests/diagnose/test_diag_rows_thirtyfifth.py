"""Signature rows for the classes the thirty-fifth collection showed missing
(tests/corpus/real/README.md, thirtyfifth.jsonl, "After its rows", branch issue-27rows35). Each
row is tested on the thirty-fifth's excerpt and on other wordings of its class, from the source
or documentation cited beside each, with the near misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtyfifth(rid: str) -> str:
    return excerpt("thirtyfifth", rid)


THIRTYFIFTH = [
    # (log text, category, why)
    # -- user_code_error: NCCL's ncclInvalidArgument (`nccl_invalid_argument`; ncclGetErrorString's
    # "invalid argument", torch's NCCLUtils getNcclErrorDetailStr)
    (_thirtyfifth("e24e7c602095"), "user_code_error", "thirty-fifth e24e7c602095 (torch 1.x)"),
    (
        "torch.distributed.DistBackendError: NCCL error in: "
        "../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, invalid argument, NCCL version 2.14.3",
        "user_code_error",
        "torch 2.x's DistBackendError",
    ),
    (
        "ncclInvalidArgument: Invalid value for an argument.\nLast error:\n"
        "Invalid config blocking attribute value -2147483648",
        "user_code_error",
        "torch's detail line with NCCL's last error",
    ),
    (
        "RuntimeError: NCCL Error 4: invalid argument",
        "user_code_error",
        "older torch's numbered wording (ncclInvalidArgument = 4)",
    ),
    # -- user_code_error: TensorFlow configured after its runtime started
    # (`tf_runtime_configured_late`; tensorflow/python/eager/context.py)
    (_thirtyfifth("4eac39922d9e"), "user_code_error", "thirty-fifth 4eac39922d9e (collective ops)"),
    (
        "RuntimeError: Physical devices cannot be modified after being initialized",
        "user_code_error",
        "set_memory_growth after the GPUs were initialised",
    ),
    (
        "RuntimeError: Virtual devices cannot be modified after being initialized",
        "user_code_error",
        "set_logical_device_configuration too late",
    ),
    (
        "RuntimeError: Intra op parallelism cannot be modified after initialization.",
        "user_code_error",
        "tf.config.threading set too late",
    ),
    # -- software_bug: cuda-gdb's address exceptions (`cuda_gdb_address_exception`; the CUDA-GDB
    # manual's exception table)
    (_thirtyfifth("6086fdc14aa9"), "software_bug", "thirty-fifth 6086fdc14aa9 (flash-attention)"),
    (
        'Thread 1 "python" received signal CUDA_EXCEPTION_14, Warp Illegal Address.\n'
        "[Switching focus to CUDA kernel 0, grid 1, block (0,0,0), thread (0,0,0), device 0, sm 0, "
        "warp 0, lane 0]",
        "software_bug",
        "cuda-gdb stopping on a warp's illegal address",
    ),
    (
        "Program received signal CUDA_EXCEPTION_5, Warp Out-of-range Address.",
        "software_bug",
        "an out-of-range address",
    ),
    # -- dependency: env:// rendezvous without the master's address (`env_rendezvous_master_unset`;
    # torch/distributed/rendezvous.py _env_error)
    (_thirtyfifth("416ded4827ad"), "dependency", "thirty-fifth 416ded4827ad (MASTER_ADDR)"),
    (
        "ValueError: Error initializing torch.distributed using env:// rendezvous: environment "
        "variable MASTER_PORT expected, but not set",
        "dependency",
        "the port",
    ),
    (
        '  File "/usr/lib/python3/site-packages/torch/distributed/rendezvous.py", line 250, in '
        "_get_env_or_raise\n    raise _env_error(env_var)\nValueError: Error initializing "
        "torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but "
        "not set",
        "dependency",
        "with the raising frame",
    ),
    # -- dependency: a host name that does not resolve in musl's and busybox's words
    # (`host_name_not_resolved`; musl gai_strerror EAI_NONAME, busybox and bind nslookup)
    (_thirtyfifth("6a01d33b697b"), "dependency", "thirty-fifth 6a01d33b697b (busybox nslookup)"),
    (
        "socket.gaierror: [Errno -2] Name does not resolve",
        "dependency",
        "Python on Alpine (musl's getaddrinfo)",
    ),
    (
        "** server can't find job-master-0.job.default.svc.cluster.local: NXDOMAIN",
        "dependency",
        "bind's (and newer busybox's) nslookup",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        "NCCL WARN Call to ibv_modify_qp failed with error Invalid argument",
        "user_code_error",
        "errno's EINVAL inside an NCCL warning",
    ),
    (
        "socketStartConnect: Connect to 10.0.0.2<43211> failed : Invalid argument",
        "user_code_error",
        "a failed system call's EINVAL",
    ),
    (
        "# Memory growth must be set before GPUs have been initialized",
        "user_code_error",
        "TensorFlow's guide's advice, no error",
    ),
    (
        "handle CUDA_EXCEPTION_14 nostop noprint",
        "software_bug",
        "a cuda-gdb command naming the signal",
    ),
    (
        "'CUDA_EXCEPTION_5', 'CUDA_EXCEPTION_6', 'CUDA_EXCEPTION_7'",
        "software_bug",
        "a list of cuda-gdb's signal names",
    ),
    (
        "ValueError: Error initializing torch.distributed using env:// rendezvous: environment "
        "variable RANK expected, but not set",
        "dependency",
        "RANK missing stays the script's exception",
    ),
    (
        "[W socket.cpp:601] [c10d] The IPv6 network addresses of (node1, 29500) cannot be "
        "retrieved (gai error: -2 - Name does not resolve).",
        "dependency",
        "torch's socket warning, IPv4 may still resolve",
    ),
    (
        "Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\n"
        "Name:      job-master-0\nAddress 1: 10.244.1.7",
        "dependency",
        "nslookup resolving the name",
    ),
]

test_row = row_test(THIRTYFIFTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTYFIFTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: the launch and set-up mistakes
    page, the kernel's bad access, the unset master address and the unresolved name restart."""
    for rid, action in (
        ("e24e7c602095", "stop_and_page"),
        ("4eac39922d9e", "stop_and_page"),
        ("6086fdc14aa9", "restart"),
        ("416ded4827ad", "restart"),
        ("6a01d33b697b", "restart"),
        ("bbd4faa1ffa3", "restart"),
    ):
        v = rows_alone(tmp_path, _thirtyfifth(rid))
        assert v.action == action, (rid, v.verdict)


def test_a_peer_death_under_jax_names_no_cause(tmp_path: Path) -> None:
    """JAX stopping a task because another one died is a peer's failure (`jax_peer_task_died`,
    unknown): the thirty-fifth's bbd4faa1ffa3 and the client's missing-heartbeat wording
    (xla/pjrt/distributed/client.h), where the statistical fallback had guessed host maintenance;
    the coordinator's own heartbeat timeout for a task still names the node
    (`coordinator_heartbeat_lost`)."""
    from nonstop.diagnose import triage_file

    for text in (
        _thirtyfifth("bbd4faa1ffa3"),
        "F0926 17:26:32.075587  157988 client.h:77] Terminating process because the coordinator "
        "detected missing heartbeats. This most likely indicates that another task died; see the "
        "other task logs for more details. Status: UNAVAILABLE",
    ):
        log = tmp_path / "rank.log"
        log.write_text(text + "\n")
        v = triage_file(log)  # with the fallback: a row's hit keeps it from guessing
        assert (v.category, v.action) == ("unknown", "restart"), v.verdict
    v = rows_alone(
        tmp_path,
        "E0101 coordination_service.cc:954] /job:jax_worker/replica:0/task:37 has been set to "
        "ERROR in coordination service: UNAVAILABLE: Task /job:jax_worker/replica:0/task:37 "
        "heartbeat timeout. This indicates that the remote task has failed, got preempted, or "
        "crashed unexpectedly.\n"
        "F0101 client.h:80] Terminating process because the JAX distributed service detected "
        "fatal errors. This most likely indicates that another task died; see the other task logs "
        "for more details.",
    )
    assert v.category == "host_maintenance", v.verdict
