"""Signature rows for the classes the forty-first collection showed missing
(tests/corpus/real/README.md, fortyfirst.jsonl, "After its rows", branch issue-27rows41). Each
row is tested on the forty-first's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take; and Docker's
inspect field `"OOMKilled": false`, which `oom_killed_status` no longer reads as an OOM kill (the
forty-first's b93485d7680c)."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fortyfirst(rid: str) -> str:
    return excerpt("fortyfirst", rid)


FORTYFIRST = [
    # (log text, category, why)
    # -- out_of_memory: the OOM killer in older kernels' wording (`host_oom_kill_process_older`;
    # mm/oom_kill.c oom_kill_process, 2.6.3x to 4.x: "%s: Kill process %d (%s) score %u or
    # sacrifice child", then __oom_kill_process's "Killed process %d (%s) total-vm:...")
    (_fortyfirst("087dc12d79c9"), "out_of_memory", "forty-first 087dc12d79c9 (java)"),
    (_fortyfirst("ee20e91bcecc"), "out_of_memory", "forty-first ee20e91bcecc (quoted in a mail)"),
    (
        "Mar 14 16:55:03 localhost kernel: Out of memory: Kill process 21945 (tidb-server) "
        "score 956 or sacrifice child",
        "out_of_memory",
        "a TiDB troubleshooting page's syslog",
    ),
    (
        "Memory cgroup out of memory: Kill process 18286 (java) score 933 or sacrifice child",
        "out_of_memory",
        "a container's memory cgroup (message 'Memory cgroup out of memory')",
    ),
    (
        "[11686.043647] Killed process 2603 (flasherav) total-vm:1498536kB, anon-rss:721784kB, "
        "file-rss:4228kB",
        "out_of_memory",
        "the killer's next line alone, in dmesg",
    ),
    (
        "Jan  1 00:00:00 localhost kernel: Killed process 17143 (java), UID 1001, "
        "total-vm:7790724kB, anon-rss:4108910kB, file-rss:6822kB, shmem-rss:0kB",
        "out_of_memory",
        "RHEL 7's next line with the UID",
    ),
    (
        "Out of memory (oom_kill_allocating_task): Kill process 4242 (python) score 0 or "
        "sacrifice child",
        "out_of_memory",
        "with vm.oom_kill_allocating_task set",
    ),
    # -- dependency: Singularity/Apptainer cannot mount the image or overlay on the host
    # (`singularity_image_mount_failed`; the starter's "container creation failed: %s")
    (_fortyfirst("d6165635f182"), "dependency", "forty-first d6165635f182 (overlay)"),
    (_fortyfirst("d3354b08fd44"), "dependency", "forty-first d3354b08fd44 (squashfs)"),
    (
        "FATAL:   container creation failed: mount /proc/self/fd/3->/var/lib/singularity/mnt/"
        "session/rootfs error: while mounting image /proc/self/fd/3: failed to find loop "
        "device: could not attach image file to loop device: no loop devices available",
        "dependency",
        "no loop devices (a Singularity troubleshooting note)",
    ),
    (
        "FATAL:   container creation failed: mount /proc/self/fd/7->/var/apptainer/mnt/session/"
        "rootfs error: while mounting image /proc/self/fd/7: failed to mount squashfs "
        "filesystem: invalid argument",
        "dependency",
        "Apptainer's squashfs mount on a kernel without it",
    ),
    # -- dependency: a checkpoint format newer than the installed torch
    # (`torch_checkpoint_format_too_new`; serialization.py of torch 1.4/1.5,
    # caffe2/serialize/inline_container.cc)
    (_fortyfirst("993a8714fc9a"), "dependency", "forty-first 993a8714fc9a (liif's .pth)"),
    (
        "RuntimeError: /file/model/G_953000.pth is a zip archive (did you mean to use "
        "torch.jit.load()?)",
        "dependency",
        "another model's weights saved by torch 1.6",
    ),
    (
        "RuntimeError: version_ <= kMaxSupportedFileFormatVersion INTERNAL ASSERT FAILED at "
        "/pytorch/caffe2/serialize/inline_container.cc:132, please report a bug to PyTorch. "
        "Attempted to read a PyTorch file with version 3, but the maximum supported version for "
        "reading is 2. Your PyTorch installation may be too old.",
        "dependency",
        "the reader's own version check (torch 1.5 on a 1.6 file)",
    ),
    # -- dependency: a kernel module refused for its key (`kernel_module_key_rejected`; kmod's
    # modprobe and insmod, ENOKEY/EKEYREJECTED; the kernel's lockdown)
    (_fortyfirst("7997fc21449a"), "dependency", "forty-first 7997fc21449a (Managed Lustre)"),
    (
        "modprobe: ERROR: could not insert 'vboxdrv': Required key not available",
        "dependency",
        "VirtualBox's driver under Secure Boot (Ubuntu forums)",
    ),
    (
        "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service",
        "dependency",
        "the GPU driver with EKEYREJECTED",
    ),
    (
        "insmod: ERROR: could not insert module hello.ko: Required key not available",
        "dependency",
        "insmod's wording",
    ),
    # -- dependency: gcsfuse refused by the bucket's credentials (`gcsfuse_bucket_credentials`;
    # gcsfuse's OpenBucket, the Cloud Storage FUSE troubleshooting page)
    (_fortyfirst("8919a4472c70"), "dependency", "forty-first 8919a4472c70 (troubleshooting page)"),
    (
        "daemonize.Run: readFromProcess: sub-process: mountWithArgs: mountWithConn: "
        'fs.NewServer: create file system: SetUpBucket: OpenBucket: Bad credentials for bucket "'
        'my-bucket". Check the bucket name and your credentials.',
        "dependency",
        "older gcsfuse's wording",
    ),
    # -- unknown: the hung-task warning for the NFS server's own nfsd threads alone
    # (`nfsd_hung_task`; kernel/hung_task.c check_hung_task), which `hung_task` read as storage
    (
        _fortyfirst("bb0089b75506"),
        "unknown",
        "forty-first bb0089b75506 (after the server's reboot)",
    ),
    (excerpt("twentyfifth", "bbbb5c760fdc"), "unknown", "twenty-fifth bbbb5c760fdc (heavy I/O)"),
    (
        "Feb 11 03:12:44 nfs01 kernel: INFO: task nfsd:4312 blocked for more than 122 seconds.",
        "unknown",
        "a newer kernel's elapsed time, in syslog",
    ),
    # -- storage: a safetensors header that cannot be read (`safetensors_header_unreadable`;
    # safetensors' SafeTensorError variants behind "Error while deserializing header: ")
    (_fortyfirst("1a69c007d038"), "storage", "forty-first 1a69c007d038 (HeaderTooLarge)"),
    (
        _fortyfirst("1edea72110e3"),
        "storage",
        "forty-first 1edea72110e3 (InvalidHeaderDeserialization)",
    ),
    (
        excerpt("thirtyseventh", "a4d969ddd3c2"),
        "storage",
        "thirty-seventh a4d969ddd3c2 (newer wording)",
    ),
    (
        "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooSmall",
        "storage",
        "a file shorter than its 8-byte length prefix (an empty download)",
    ),
    (
        "safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderLength",
        "storage",
        "a length prefix past the file's end",
    ),
    # -- storage: ENOSPC as Go programs print it (`enospc_lowercase`; syscall.Errno's table)
    (_fortyfirst("c865fa71dd0f"), "storage", "forty-first c865fa71dd0f (docker layer)"),
    (_fortyfirst("4ea26a54f7c3"), "storage", "forty-first 4ea26a54f7c3 (devicemapper)"),
    (excerpt("thirtieth", "46c9a7bfe2c5"), "storage", "thirtieth 46c9a7bfe2c5 (Loki's WAL)"),
    (excerpt("thirtythird", "7e7ed1f7c323"), "storage", "thirty-third 7e7ed1f7c323 (BuildKit)"),
    (
        'Warning  Failed  kubelet  Failed to pull image "nvcr.io/nvidia/pytorch:24.05-py3": '
        "failed to extract layer sha256:4b7c01ed0534: write /var/lib/containerd/io.containerd."
        "snapshotter.v1.overlayfs/snapshots/412/fs/usr/lib/libcudnn.so.9: no space left on "
        "device: unknown",
        "storage",
        "containerd's snapshotter through the kubelet",
    ),
    # -- storage: Cloud Storage's per-object rate limit (`gcs_object_rate_limit`; GCS's 429
    # rateLimitExceeded, the request-rate guidelines)
    (_fortyfirst("698369640c9f"), "storage", "forty-first 698369640c9f (Dataproc connector)"),
    (
        "Error 429: The rate of change requests to the object my-bucket/logs/run.info exceeds "
        "the rate limit. Please reduce the rate of create, update, and delete requests.",
        "storage",
        "the Go client's googleapi.Error",
    ),
    (
        "ServiceException: 429 The rate of change requests to the object gs://b/ckpt/latest "
        "exceeds the rate limit. Please reduce the rate of create, update, and delete requests.",
        "storage",
        "gsutil's wording",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    # Docker's inspect of a container not OOM-killed (docker/cli#2665)
    (_fortyfirst("b93485d7680c"), "out_of_memory", "forty-first b93485d7680c (OOMKilled false)"),
    ('"OOMKilled": false,', "out_of_memory", "the field alone, false"),
    ("vm.oom_kill_allocating_task = 0", "out_of_memory", "the sysctl"),
    ("kill process 4242 before restarting the job", "out_of_memory", "kill process in prose"),
    (
        "FATAL:   container creation failed: mount error: can't mount /workspace/nemo-run: no "
        "such file or directory",
        "dependency",
        "a bind path that does not exist (the job's option)",
    ),
    ("torch.jit.load() loads a TorchScript zip archive", "dependency", "the API in prose"),
    ("modprobe: FATAL: Module lustre not found.", "dependency", "no module at all"),
    ("SecureBoot enabled", "dependency", "mokutil's state"),
    ('Unknown bucket "my-bucket": no such file or directory', "dependency", "no such bucket"),
    ("GCS rate limits: about 1 write per second to the same object", "storage", "the limit"),
    (
        "safetensors_rust.SafetensorError: File does not contain tensor lm_head.weight",
        "storage",
        "a tensor missing from a sound file",
    ),
    (
        "NCCL WARN Error: failed to extend /dev/shm/nccl-Kq1fXz to 9637892 bytes: no space left "
        "on device",
        "storage",
        "/dev/shm full stays shared memory's",
    ),
    (
        "INFO: task jbd2/sda1-8:400 blocked for more than 120 seconds.",
        "unknown",
        "another task's hang stays `hung_task`'s",
    ),
    (
        "INFO: task nfsd:2252 blocked for more than 120 seconds.\n"
        "EXT4-fs error (device sdb1): ext4_find_entry:1455: inode #2: comm nfsd: reading "
        "directory lblock 0",
        "unknown",
        "a local disk's error beside it outranks the warning",
    ),
]

test_row = row_test(FORTYFIRST)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FORTYFIRST + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The excerpts the rows now read get their labels' actions: the OOM kills stop and page,
    the set-up failures and the throttled object store restart, none excludes a node."""
    for rid, action in (
        ("087dc12d79c9", "stop_and_page"),
        ("ee20e91bcecc", "stop_and_page"),
        ("d6165635f182", "restart"),
        ("d3354b08fd44", "restart"),
        ("1fa76632c1e5", "restart"),
        ("993a8714fc9a", "restart"),
        ("7997fc21449a", "restart"),
        ("8919a4472c70", "restart"),
        ("698369640c9f", "restart"),
        ("b93485d7680c", "restart"),
    ):
        v = rows_alone(tmp_path, _fortyfirst(rid))
        assert v.action == action, (rid, v.verdict)


def test_an_oom_killed_container_is_still_out_of_memory(tmp_path: Path) -> None:
    """Docker's field when true, and the kubelet's reason, still read as an OOM kill; only
    `"OOMKilled": false` stopped doing so."""
    for text in ('"OOMKilled": true,', "Last State: Terminated  Reason: OOMKilled"):
        v = rows_alone(tmp_path, text)
        assert v.category == "out_of_memory", (text, v.verdict)
