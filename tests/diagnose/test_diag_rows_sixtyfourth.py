"""Signature rows for the classes the sixtyfourth collection showed missing
(tests/corpus/real/README.md, sixtyfourth.jsonl, "After its rows", branch issue-27rows64):
containers and managed training services around GPU jobs. Each row is tested on the
sixtyfourth's excerpts and on other wordings of its class, from the source or documentation cited
beside each, with the near misses it must not take. Rows widened in place for it:
`gpu_stack_env` (CUDA's error 101 by its enum name, nccl-tests' and GPUassert's 'invalid device
ordinal'), `rdma_memlock_limit` (UCX's "Please set max locked memory (ulimit -l)"), `ib_retry`
(mscclpp's "a work item failed: status 12"), `node_health_check_failed` (SageMaker's "Repairing
training cluster due to hardware failure"), `autoscale_preemption` (Kubernetes'
EvictionByEvictionAPI); new: `nccl_topo_lookup_failed`, `nvidia_device_node_denied`,
`cloud_accelerator_machine_type`, `json_schema_additional_properties`,
`enroot_registry_auth_refused`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import (
    assert_both_ways,
    excerpt,
    near_miss_test,
    prefilter_test,
    row_test,
    rows_alone,
)


def _sixtyfourth(rid: str) -> str:
    return excerpt("sixtyfourth", rid)


SIXTYFOURTH = [
    # (log text, category, why)
    # -- software_bug: NCCL's topology lookup finding no node it expects (`nccl_topo_lookup_failed`;
    # NVIDIA/nccl src/graph/topo.h ncclTopoIdToNetDev, ncclTopoIdToIndex, ncclTopoRankToIndex,
    # ncclTopoDevToRank)
    (_sixtyfourth("f2812b55606b"), "software_bug", "sixtyfourth f2812b55606b (NeMo containers)"),
    (excerpt("thirteenth", "0c5adf9ad485"), "software_bug", "thirteenth 0c5adf9ad485"),
    # ... and NCCL's "Could not find real path of /sys/..." on its line stays `nccl_topology_detect`'s
    (excerpt("sixtieth", "b78fd69559a2"), "dependency", "sixtieth b78fd69559a2 (real path)"),
    (excerpt("fortyfourth", "8e51ede35cc2"), "dependency", "fortyfourth 8e51ede35cc2 (real path)"),
    (
        "node1:1234:1290 [0] graph/topo.h:160 NCCL WARN Could not find GPU with id 1b000",
        "software_bug",
        "older ncclTopoIdToIndex, a GPU",
    ),
    (
        "node1:1234:1290 [3] NCCL WARN ncclTopoRankToIndex could not find rank 7",
        "software_bug",
        "ncclTopoRankToIndex",
    ),
    (
        "node1:1234:1290 [3] NCCL WARN ncclTopoDevToRank could not find rank for nvml dev 2 in "
        "systemId 0",
        "software_bug",
        "ncclTopoDevToRank",
    ),
    # -- dependency: strace showing the NVIDIA device nodes refused (`nvidia_device_node_denied`;
    # strace(1)'s output format, nvidia-container-toolkit's NVML "Unknown Error" after the
    # device cgroup rules are lost)
    (_sixtyfourth("28adf7d416ab"), "dependency", "sixtyfourth 28adf7d416ab (EPERM, kubelet)"),
    (
        'openat(AT_FDCWD, "/dev/nvidia0", O_RDWR|O_CLOEXEC) = -1 EPERM (Operation not permitted)',
        "dependency",
        "openat, a GPU's node",
    ),
    (
        '[pid 48213] openat(AT_FDCWD, "/dev/nvidia-uvm", O_RDWR|O_CLOEXEC) = -1 EACCES '
        "(Permission denied)",
        "dependency",
        "strace -f, the UVM node, EACCES",
    ),
    # -- user_code_error: the cloud refusing the accelerator for a machine type
    # (`cloud_accelerator_machine_type`; Vertex AI's and Compute Engine's API error)
    (_sixtyfourth("d4b8096066bd"), "user_code_error", "sixtyfourth d4b8096066bd (Vertex AI)"),
    (
        'google.api_core.exceptions.InvalidArgument: 400 Accelerator "NVIDIA_TESLA_T4" is not '
        'supported for machine type "a2-highgpu-1g".',
        "user_code_error",
        "the Python client's exception",
    ),
    (
        "wandb: ERROR GPU 'NVIDIA_L4' is not supported for machine type 'n1-standard-4'",
        "user_code_error",
        "a launcher quoting the API",
    ),
    (
        "ERROR: (gcloud.compute.instances.create) Accelerator type 'nvidia-tesla-a100' is not "
        "supported for machine type n1-standard-8.",
        "user_code_error",
        "Compute Engine's accelerator type",
    ),
    # -- user_code_error: jsonschema's additionalProperties error on a job's configuration
    # (`json_schema_additional_properties`; python-jsonschema _keywords.py additionalProperties)
    (_sixtyfourth("1891222f1406"), "user_code_error", "sixtyfourth 1891222f1406 (SageMaker)"),
    (
        "jsonschema.exceptions.ValidationError: Additional properties are not allowed "
        "('learning_rat' was unexpected)",
        "user_code_error",
        "jsonschema 3/4, one key",
    ),
    (
        "Additional properties are not allowed ('epochs', 'lr' were unexpected)",
        "user_code_error",
        "two keys",
    ),
    # -- dependency: enroot's registry request refused (`enroot_registry_auth_refused`; NVIDIA/enroot
    # src/common.sh common::curl, src/docker.sh's realm and manifest requests)
    (_sixtyfourth("b566be7cb9c5"), "dependency", "sixtyfourth b566be7cb9c5 (NGC, 401)"),
    (excerpt("fiftysecond", "fe0591878f92"), "dependency", "fiftysecond fe0591878f92 (manifest)"),
    (
        "slurmstepd: error: pyxis:     [ERROR] URL https://gitlab.example.com/jwt/auth returned "
        "error code: 401",
        "dependency",
        "a GitLab registry's token realm under pyxis",
    ),
    (
        "[ERROR] URL https://nvcr.io/v2/nvidia/pytorch/manifests/24.01-py3 returned error code: "
        "403 Forbidden",
        "dependency",
        "403",
    ),
    # -- dependency: UCX's locked-memory hint (`rdma_memlock_limit`, widened; openucx/ucx
    # src/uct/ib/base/ib_log.c / ib_md.c)
    (_sixtyfourth("c937b56f50fd"), "dependency", "sixtyfourth c937b56f50fd (8192 kB in Docker)"),
    (
        "[1765653660.705652] [magi175:640743:0] ib_md.c:287 UCX ERROR ibv_reg_mr(address=0x15213b9"
        "56010, length=65536, access=0xf) failed: Cannot allocate memory : Please set max locked "
        "memory (ulimit -l) to 'unlimited' (current: 524288 kbytes)",
        "dependency",
        "ibv_reg_mr",
    ),
    (
        "[1744644100.553280] [024ac696037d:188662:0]        ib_iface.c:1230 UCX  ERROR mlx5_0: "
        "ibv_create_srq() failed: Cannot allocate memory : Please set max locked memory "
        "(ulimit -l) to 'unlimited' (current: 8192 kbytes)",
        "dependency",
        "ibv_create_srq",
    ),
    (
        "UCX  ERROR ibv_create_cq(cqe=4096) failed: Cannot allocate memory. Please set max locked "
        "memory (ulimit -l) to 'unlimited' (current: 64 kbytes)",
        "dependency",
        "older UCX's '. Please set'",
    ),
    # -- network_switch_cable: mscclpp's IbError on a retry status (`ib_retry`, widened;
    # microsoft/mscclpp IBConnection's "a work item failed: status " + wc->status)
    (_sixtyfourth("1da69cebbeb7"), "network_switch_cable", "sixtyfourth 1da69cebbeb7 (status 12)"),
    (
        "  what():  a work item failed: status 13 (Ib failure: Permission denied)",
        "network_switch_cable",
        "13, RNR retries",
    ),
    (
        "NET/IB : Got completion from peer 10.0.0.2<1234> with error 12",
        "network_switch_cable",
        "NCCL's",
    ),
    # -- host_maintenance: SageMaker repairing the cluster (`node_health_check_failed`, widened;
    # the SageMaker developer guide's "Cluster repairs for GPU errors")
    (_sixtyfourth("070bc488ee5b"), "host_maintenance", "sixtyfourth 070bc488ee5b"),
    (
        "2024-05-02T10:11:12Z  TrainingJobStatus: InProgress  SecondaryStatus: Starting  "
        "StatusMessage: Repairing training cluster due to hardware failure",
        "host_maintenance",
        "as describe-training-job prints it",
    ),
    (
        "[2024-02-16T19:30:06.335] update_node: node gpu-st-p5-3 reason set to: "
        "[clustermgtd] health check failed",
        "host_maintenance",
        "ParallelCluster's, as before",
    ),
    # -- planned_stop: a pod evicted through the Eviction API (`autoscale_preemption`, widened;
    # kubernetes pkg/registry/core/pod/storage/eviction.go)
    (_sixtyfourth("3c74cf531d1b"), "planned_stop", "sixtyfourth 3c74cf531d1b (Karpenter)"),
    (
        "  Type: DisruptionTarget  Status: True  Reason: EvictionByEvictionAPI",
        "planned_stop",
        "kubectl describe's condition",
    ),
    ("    message: 'Eviction API: evicting'", "planned_stop", "the condition's message in YAML"),
    # -- dependency: CUDA's error 101 by its enum name and in nccl-tests' and GPUassert's words
    # (`gpu_stack_env`, widened; CUDA runtime/driver API error enums, nccl-tests src/common.h)
    (_sixtyfourth("8fbf7b254426"), "dependency", "sixtyfourth 8fbf7b254426 (MLX under gVisor)"),
    (excerpt("fortythird", "4e2709d1fbea"), "dependency", "fortythird 4e2709d1fbea (nccl-tests)"),
    (
        excerpt("twentyfourth", "8a01d4151582"),
        "dependency",
        "twentyfourth 8a01d4151582 (GPUassert)",
    ),
    (
        "host1: Test CUDA failure common.cu:1036 'invalid device ordinal'",
        "dependency",
        "newer nccl-tests' CUDACHECK",
    ),
    (
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CUDA_ERROR_INVALID_DEVICE: invalid device "
        "ordinal",
        "dependency",
        "the driver API's name",
    ),
    (
        "CUDA Runtime Error: cudaErrorInvalidDevice(101)",
        "dependency",
        "a wrapper printing the enum",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    ("ERROR: Could not find User with id 3", "software_bug", "an application's lookup"),
    ("NCCL INFO Could not find any NET device, using socket", "software_bug", "not a WARN lookup"),
    ('open("/dev/nvidiactl", O_RDWR|O_CLOEXEC) = 3', "dependency", "the open granted"),
    (
        'openat(AT_FDCWD, "/dev/nvidia-caps/nvidia-cap1", O_RDONLY) = -1 ENOENT (No such file or '
        "directory)",
        "dependency",
        "a MIG caps node probed and absent",
    ),
    (
        'open("/dev/infiniband/uverbs0", O_RDWR) = -1 EPERM (Operation not permitted)',
        "dependency",
        "not an NVIDIA node",
    ),
    (
        "interactive mode is not supported for machine type Supercomputer",
        "user_code_error",
        "another feature for a machine type",
    ),
    ('"additionalProperties": false,', "user_code_error", "a schema's text"),
    (
        "Additional properties are not allowed unless the schema says so.",
        "user_code_error",
        "prose, no quoted key",
    ),
    (
        "[ERROR] URL https://registry-1.docker.io/v2/library/foo/manifests/latest returned error "
        "code: 404 Not Found",
        "dependency",
        "404: the image's name",
    ),
    ("telegram API returned error code: 401", "dependency", "another tool, no URL"),
    (
        "libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes. This will severely limit memory "
        "registrations.",
        "dependency",
        "libibverbs' warning, the run may go on",
    ),
    (
        "  what():  a work item failed: status 4 (Ib failure: Interrupted system call)",
        "network_switch_cable",
        "status 4, the request's own",
    ),
    (
        "Cluster repairs will not initiate unless your training job fails.",
        "host_maintenance",
        "the guide's prose",
    ),
    (
        "  Warning  Evicted  kubelet  The node was low on resource: memory.",
        "planned_stop",
        "the kubelet's pressure eviction",
    ),
    (
        "[ERROR] DEVICE [mindspore/ccsrc/runtime/device/gpu/cuda_driver.cc:245] SetDevice] "
        "SetDevice for id:7 failed, ret[101], invalid device ordinal.",
        "dependency",
        "MindSpore's device_id (fiftieth 547779f21dfb)",
    ),
    (
        "host9:100:200 [2] include/alloc.h:125 NCCL WARN Cuda failure 'invalid device ordinal'",
        "dependency",
        "NCCL's own CUDA call failing (software_bug, tests/diagnose/test_diag_rows.py)",
    ),
]

test_row = row_test(SIXTYFOURTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(SIXTYFOURTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The sixtyfourth's excerpts the rows now read get their labels' actions, rows alone and as
    shipped; the one that excludes a node is SageMaker's repair of a node that failed its GPU
    health check (the health-check rule)."""
    for rid, category, action in (
        ("f2812b55606b", "software_bug", "restart"),
        ("28adf7d416ab", "dependency", "restart"),
        ("d4b8096066bd", "user_code_error", "stop_and_page"),
        ("1891222f1406", "user_code_error", "stop_and_page"),
        ("b566be7cb9c5", "dependency", "restart"),
        ("c937b56f50fd", "dependency", "restart"),
        ("1da69cebbeb7", "network_switch_cable", "restart"),
        ("070bc488ee5b", "host_maintenance", "exclude_node"),
        ("3c74cf531d1b", "planned_stop", "restart"),
        ("8fbf7b254426", "dependency", "restart"),
    ):
        v = rows_alone(tmp_path, _sixtyfourth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)
        assert_both_ways(tmp_path / "rank.log", category, action)
