"""Signature rows for the classes the fiftysecond collection showed missing
(tests/corpus/real/README.md, fiftysecond.jsonl, "After its rows", branch issue-27rows52). Each
row is tested on the fiftysecond's excerpts and on other wordings of its class, from the source
or documentation cited beside each, with the near misses it must not take. Rows widened in place
for it: `slurm_submit_refused` (an invalid feature or GRES, a site's job_submit filter, LSF's bsub
refusing a resource requirement), `cloud_quota_exhausted` (a zone without the VMs asked for),
`mpi_daemon_lost` (Hydra's closed proxy connection, ORCM's failed daemon), `gpu_library_internal`
(glibc's other heap checks), `hang_words` (a multi-GPU run that keeps freezing, in Chinese);
narrowed: `undefined_symbol` (not a component Open MPI skipped); new: `mpi_launch_command_refused`,
`mpi_init_failed`, `cray_mpich_gtl_missing`, `rdma_memlock_limit`, `mpi_component_skipped`,
`test_harness_timeout`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fiftysecond(rid: str) -> str:
    return excerpt("fiftysecond", rid)


FIFTYSECOND = [
    # (log text, category, why)
    # -- user_code_error: the MPI launcher refusing the launch command
    # (`mpi_launch_command_refused`;
    # MPICH src/pm/hydra utils/args/args.c match_arg and utils/launch/launch.c
    # HYDU_create_process, Open MPI's orterun, PRRTE's prterun)
    (_fiftysecond("33ef1791349e"), "user_code_error", "fiftysecond 33ef1791349e (Hydra option)"),
    (_fiftysecond("fbaf3dc9b076"), "user_code_error", "fiftysecond fbaf3dc9b076 (Hydra execvp)"),
    (_fiftysecond("fe23d587429a"), "user_code_error", "fiftysecond fe23d587429a (recursive)"),
    (
        "[mpiexec@node01] match_arg (lib/utils/args.c:166): unrecognized argument npernode",
        "user_code_error",
        "a newer Hydra's path, an Open MPI option",
    ),
    (
        "[proxy:0:0@node02] HYDU_create_process (lib/utils/launch.c:74): execvp error on file "
        "./train.sh (Permission denied)",
        "user_code_error",
        "a script without its exec bit",
    ),
    (
        "Open MPI does not support recursive calls of mpirun",
        "user_code_error",
        "Open MPI's wording with mpirun",
    ),
    (
        "mpirun does not support recursive calls",
        "user_code_error",
        "PRRTE's wording",
    ),
    # -- dependency: Open MPI's banner for a failed MPI_INIT (`mpi_init_failed`; ompi
    # help-mpi-runtime.txt, orte help-orte-runtime.txt, opal help-opal-runtime.txt)
    (_fiftysecond("46d7f6bdf2a6"), "dependency", "fiftysecond 46d7f6bdf2a6 (MPI_INIT banner)"),
    (
        "It looks like orte_init failed for some reason; your parallel process is",
        "dependency",
        "the runtime's banner",
    ),
    (
        "It looks like opal_init failed for some reason; your parallel process is",
        "dependency",
        "OPAL's banner",
    ),
    # -- dependency: Cray MPICH asked for GPU support without its GTL (`cray_mpich_gtl_missing`;
    # NERSC's and ALCF's documentation, JuliaParallel's HPC examples)
    (_fiftysecond("73446d378f08"), "dependency", "fiftysecond 73446d378f08 (Polaris)"),
    (
        "MPICH ERROR [Rank 0] [job id 14833080.5] [Fri Nov 21 09:21:34 2025] [nid007972] - "
        "Abort(-1) (rank 0 in comm 0): MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL "
        "library is not linked",
        "dependency",
        "with a job id (Perlmutter)",
    ),
    (
        "MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked",
        "dependency",
        "the 'aborting job:' line after it",
    ),
    # -- dependency: the locked-memory limit too small for RDMA (`rdma_memlock_limit`; Intel MPI's
    # DAPL, Open MPI help-mpi-btl-openib.txt init-fail-no-mem)
    (_fiftysecond("3d9d807fdf82"), "dependency", "fiftysecond 3d9d807fdf82 (DAPL)"),
    (
        "[12] DAPL startup: RLIMIT_MEMLOCK too small",
        "dependency",
        "another rank's line alone",
    ),
    (
        "The OpenFabrics (openib) BTL failed to initialize while trying to\n"
        "allocate some locked memory.  This typically can indicate that the\n"
        "memlock limits are set too low.  For most HPC installations, the",
        "dependency",
        "Open MPI's openib BTL",
    ),
    # -- unknown: a component Open MPI skipped (`mpi_component_skipped`; opal/mca/base
    # mca_base_component_repository.c, Open MPI 1.x's component_find)
    (_fiftysecond("08f05d24c408"), "unknown", "fiftysecond 08f05d24c408 (usnic ignored)"),
    (
        "[node3:01234] mca_base_component_repository_open: unable to open mca_btl_openib: "
        "librdmacm.so.1: cannot open shared object file: No such file or directory (ignored)",
        "unknown",
        "openib skipped",
    ),
    (
        "[host:5678] mca: base: component_find: unable to open /usr/lib/openmpi/lib/openmpi/"
        "mca_btl_openib: perhaps a missing symbol, or compiled for a different version of Open "
        "MPI? (ignored)",
        "unknown",
        "Open MPI 1.x's wording",
    ),
    # -- unknown: a daemon or proxy connection lost (`mpi_daemon_lost`, widened; MPICH
    # pm/pmiserv/pmiserv_cb.c control_cb, pmip_cb.c HYD_pmcd_pmip_control_cmd_cb)
    (_fiftysecond("8abeb61e5e97"), "unknown", "fiftysecond 8abeb61e5e97 (control_cb)"),
    (_fiftysecond("0172a38bd1eb"), "unknown", "fiftysecond 0172a38bd1eb (ORCM)"),
    # -- user_code_error: the scheduler refusing the job's request (`slurm_submit_refused`,
    # widened; Slurm slurm_errno.c, job_submit/lua's slurm.ERROR, LSF's bsub)
    (_fiftysecond("6b5a0a96ba97"), "user_code_error", "fiftysecond 6b5a0a96ba97 (feature)"),
    (_fiftysecond("83b440c6c60c"), "user_code_error", "fiftysecond 83b440c6c60c (job_submit)"),
    (_fiftysecond("c254194c83d3"), "user_code_error", "fiftysecond c254194c83d3 (site filter)"),
    (_fiftysecond("3fd9025375bf"), "user_code_error", "fiftysecond 3fd9025375bf (LSF rusage)"),
    (
        "salloc: error: Job submit/allocate failed: Invalid feature specification",
        "user_code_error",
        "salloc's wording",
    ),
    (
        "sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification",
        "user_code_error",
        "a GRES no node has",
    ),
    (
        "srun: error: Unable to allocate resources: Unspecified error",
        "user_code_error",
        "srun's allocation refused by the filter",
    ),
    (
        "Error in rusage section. Job not submitted.",
        "user_code_error",
        "bsub's short wording",
    ),
    (
        "Error with <select[rhel < 8 && cs & x86_64Linux] rusage[mem=50]>: '&' cannot be used in "
        "the resource requirement section. Job not submitted.",
        "user_code_error",
        "bsub refusing the select string",
    ),
    # -- dependency: a zone without the VMs asked for (`cloud_quota_exhausted`, widened; Compute
    # Engine's "Troubleshooting resource availability errors", the EC2 API's error codes)
    (_fiftysecond("bc5b80143ca0"), "dependency", "fiftysecond bc5b80143ca0 (GCE, Hail Batch)"),
    (
        "ERROR: (gcloud.compute.instances.create) Could not fetch resource: - The zone "
        "'projects/proj/zones/us-central1-a' does not have enough resources available to fulfill "
        "the request.  Try a different zone, or try again later.",
        "dependency",
        "gcloud's wording",
    ),
    (
        "code: ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS",
        "dependency",
        "the code with details",
    ),
    (
        "An error occurred (InsufficientInstanceCapacity) when calling the RunInstances operation "
        "(reached max retries: 4): We currently do not have sufficient p4d.24xlarge capacity in "
        "the Availability Zone you requested (us-east-1a).",
        "dependency",
        "EC2's RunInstances",
    ),
    # -- software_bug: glibc's heap checks (`gpu_library_internal`, widened; glibc
    # malloc/malloc.c malloc_printerr)
    (_fiftysecond("4c98e0840ed3"), "software_bug", "fiftysecond 4c98e0840ed3 (jsrun)"),
    (
        "free(): invalid next size (normal)",
        "software_bug",
        "the newer glibc's line",
    ),
    (
        "*** Error in `./a.out': munmap_chunk(): invalid pointer: 0x00007ffd4d5e8c30 ***",
        "software_bug",
        "munmap_chunk",
    ),
    (
        "corrupted double-linked list",
        "software_bug",
        "an unlinked chunk",
    ),
    # -- hang: PyTorch's multi-process test harness killing a stalled test
    # (`test_harness_timeout`; torch/testing/_internal/common_distributed.py)
    (_fiftysecond("d8f96497c9f4"), "hang", "fiftysecond d8f96497c9f4 (EasyBuild, NCCL test)"),
    (
        "Timing out after 100 seconds and killing subprocesses.",
        "hang",
        "_join_processes alone",
    ),
    (
        "RuntimeError: Process 1 timed out after 300.0 seconds",
        "hang",
        "_check_no_test_errors",
    ),
    # -- hang: a multi-GPU run that keeps freezing, said in Chinese (`hang_words`, widened)
    (_fiftysecond("07c73279fd1f"), "hang", "fiftysecond 07c73279fd1f (多卡一直卡死)"),
    (
        "单机单卡正常，多机总是卡住，没有任何报错",
        "hang",
        "multi-node, always stuck",
    ),
    (
        "多GPU运行时突然卡死",
        "hang",
        "multi-GPU, suddenly frozen",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        "[proxy:0:0@node02] match_arg (utils/args/args.c:163): unrecognized argument pmi_args",
        "user_code_error",
        "two MPICH installs mixed (the proxy's)",
    ),
    (
        "[mpiexec@node01] HYDU_create_process (utils/launch/launch.c:75): execvp error on file "
        "/usr/bin/ssh (No such file or directory)",
        "user_code_error",
        "mpiexec's own bootstrap",
    ),
    (
        "train.py: error: unrecognized arguments: --local-rank=1",
        "user_code_error",
        "argparse's (the forty-sixth's fe8b8a05a908, dependency)",
    ),
    (
        "Archetype does not support recursive calls, hence the match instruction",
        "user_code_error",
        "another program's recursion",
    ),
    (
        'If you see "MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not '
        'linked", add `from mpi4py import MPI` first.',
        "dependency",
        "a guide quoting it",
    ),
    (
        "libibverbs: Warning: RLIMIT_MEMLOCK is 65536 bytes.",
        "dependency",
        "libibverbs' warning",
    ),
    (
        "[node3:01234] mca_base_component_repository_open: unable to open mca_btl_openib: "
        "librdmacm.so.1: cannot open shared object file: No such file or directory (ignored)",
        "dependency",
        "a skipped component is no missing library",
    ),
    (
        "Process 0 terminated with exit code 1",
        "hang",
        "a crash, no timeout",
    ),
    (
        "The job timed out after 300 seconds",
        "hang",
        "no harness's process",
    ),
    (
        "多卡卡死 | rank 控制流、工具超时、DDP forward 次数",
        "hang",
        "a table cell naming the problem",
    ),
    (
        "只在 TP rank 0 拉取数据，再广播到其余 TP rank，避免多卡卡死。",
        "hang",
        "avoiding it",
    ),
    (
        "sbatch: error: Batch job submission failed: I/O error writing script/environment to file",
        "user_code_error",
        "the controller's disk (the twenty-sixth's 99dd22b23295, storage)",
    ),
    (
        "srun: error: Unable to create step for job 16413634: Invalid generic resource (gres) "
        "specification",
        "user_code_error",
        "a step from an inherited allocation (the forty-third's ea0b5146b289, dependency)",
    ),
    (
        "Instance was preempted: INTERRUPTED_BY_NO_CAPACITY",
        "dependency",
        "a spot reclaim stays a planned stop (the capacity rule)",
    ),
    (
        "[mpiexec@IT-0089] HYD_pmci_wait_for_completion (./pm/pmiserv/pmiserv_pmci.c:206): error "
        "waiting for event",
        "software_bug",
        "Hydra's wait, no assert",
    ),
]

test_row = row_test(FIFTYSECOND)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYSECOND + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftysecond's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("33ef1791349e", "user_code_error", "stop_and_page"),
        ("fbaf3dc9b076", "user_code_error", "stop_and_page"),
        ("fe23d587429a", "user_code_error", "stop_and_page"),
        ("46d7f6bdf2a6", "dependency", "restart"),
        ("73446d378f08", "dependency", "restart"),
        ("3d9d807fdf82", "dependency", "restart"),
        ("08f05d24c408", "unknown", "restart"),
        ("8abeb61e5e97", "unknown", "restart"),
        ("0172a38bd1eb", "unknown", "restart"),
        ("6b5a0a96ba97", "user_code_error", "stop_and_page"),
        ("83b440c6c60c", "user_code_error", "stop_and_page"),
        ("c254194c83d3", "user_code_error", "stop_and_page"),
        ("3fd9025375bf", "user_code_error", "stop_and_page"),
        ("bc5b80143ca0", "dependency", "restart"),
        ("4c98e0840ed3", "software_bug", "restart"),
        ("d8f96497c9f4", "hang", "restart"),
        ("07c73279fd1f", "hang", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftysecond(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_the_informational_rows_keep_the_fallback_from_guessing(tmp_path: Path) -> None:
    """A log whose only lines are a skipped Open MPI component or a lost Hydra proxy gets
    `unknown` with the fallback too: a row matched, so no guess is made (before, the fallback
    guessed dependency and software_bug)."""
    from nonstop.diagnose import triage_file

    for rid in ("08f05d24c408", "8abeb61e5e97", "0172a38bd1eb"):
        log = tmp_path / f"{rid}.log"
        log.write_text(_fiftysecond(rid) + "\n")
        v = triage_file(log, fallback=True)
        assert (v.category, v.action) == ("unknown", "restart"), (rid, v.verdict)
