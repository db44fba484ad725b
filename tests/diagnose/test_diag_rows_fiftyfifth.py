"""Signature rows for the classes the fiftyfifth collection showed missing
(tests/corpus/real/README.md, fiftyfifth.jsonl, "After its rows", branch issue-27rows55). Each
row is tested on the fiftyfifth's excerpts and on other wordings of its class, from the source
or documentation cited beside each, with the near misses it must not take. Rows widened in place
for it: `stale_nfs` (a placeholder host), `shared_fs_more` (the CIFS client unable to connect,
the CephFS client refused by its MDS), `credentials_env` (object-store and OAuth tokens expired
or refused outside boto), `object_store_more` (Azure ML's stream access throttled), `cuda_oom`
(nvJPEG's allocator, DALI's CUDA allocation), `cuda_library` (nvJPEG's internal error),
`shm_exhausted` (a shared tensor's unnamed map failing ENOMEM); narrowed: `local_fs_error` (not
ext4's inode-table-needs-zeroing check at mount); new: `path_permission_denied`."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _fiftyfifth(rid: str) -> str:
    return excerpt("fiftyfifth", rid)


FIFTYFIFTH = [
    # (log text, category, why)
    # -- storage: an NFS server not responding, its host a placeholder (`stale_nfs`; SUSE KB
    # 000019722; the kernel's fs/nfs "nfs: server %s not responding, still trying")
    (_fiftyfifth("1d030d7a525a"), "storage", "fiftyfifth 1d030d7a525a (SUSE KB placeholder)"),
    (
        "kernel: nfs: server <server-name> not responding, timed out",
        "storage",
        "a placeholder, timed out",
    ),
    (
        "Jan  3 02:11:40 gpu12 kernel: nfs: server nas01 not responding, still trying",
        "storage",
        "a host named (the row as it was)",
    ),
    # -- storage: the CIFS client unable to reach its server (`shared_fs_more`; fs/cifs/
    # connect.c cifs_get_tcp_session "Error connecting to socket. Aborting operation.", cifs_mount
    # "cifs_mount failed w/return code = %d"; newer kernels print "CIFS: VFS:")
    (_fiftyfifth("f1dd93a23800"), "storage", "fiftyfifth f1dd93a23800 (-115)"),
    (
        "[   99.883109] CIFS: VFS: Error connecting to socket. Aborting operation.",
        "storage",
        "the newer prefix",
    ),
    (
        "[   16.876072] CIFS VFS: cifs_mount failed w/return code = -113",
        "storage",
        "no route to the server (EHOSTUNREACH)",
    ),
    # -- storage: the CephFS kernel client refused back by its MDS, dropping unwritten data
    # (`shared_fs_more`; fs/ceph/mds_client.c "mds%d reconnect denied", "mds%d rejected
    # session"; fs/ceph/caps.c "dropping dirty%s %s state for %p %lld")
    (_fiftyfifth("b0eafe28daf8"), "storage", "fiftyfifth b0eafe28daf8 (ceph docs, in a diff)"),
    ("kernel: ceph: mds0 reconnect denied", "storage", "reconnect denied alone"),
    ("kernel: ceph: mds1 rejected session", "storage", "the MDS rejecting the session"),
    (
        "kernel: ceph: dropping dirty Fw state for 00000000a5c1d5b7 1099511627776",
        "storage",
        "dirty data dropped",
    ),
    # -- dependency: object-store and OAuth credentials expired or refused (`credentials_env`;
    # AWS SDK for Java's AmazonS3Exception text; S3's error-code list "ExpiredToken: The provided
    # token has expired."; RFC 6749 5.2 invalid_grant; golang.org/x/oauth2 token.go; Google
    # JSON API's 401 "Invalid Credentials")
    (_fiftyfifth("09537815cf9e"), "dependency", "fiftyfifth 09537815cf9e (Java SDK)"),
    (_fiftyfifth("2aea7799e450"), "dependency", "fiftyfifth 2aea7799e450 (gcsfs 401)"),
    (_fiftyfifth("b7e09e38dc27"), "dependency", "fiftyfifth b7e09e38dc27 (invalid_grant)"),
    (_fiftyfifth("60de1fd2c25e"), "dependency", "fiftyfifth 60de1fd2c25e (oauth2, gcsfuse)"),
    (
        "<Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message>"
        "<RequestId>4442587FB7D0A2F9</RequestId></Error>",
        "dependency",
        "S3's XML error body",
    ),
    (
        "google.auth.exceptions.RefreshError: ('invalid_grant: Token has been expired or "
        "revoked.', {'error': 'invalid_grant'})",
        "dependency",
        "google-auth's refresh",
    ),
    (
        "error: oauth2: cannot fetch token: 400 Bad Request Response: "
        '{"error": "invalid_grant", "error_description": "Invalid JWT Signature."}',
        "dependency",
        "golang.org/x/oauth2's token fetch",
    ),
    (
        'ERROR: Get "https://storage.googleapis.com/storage/v1/b/bkt/o": oauth2: token '
        "expired and refresh token is not set",
        "dependency",
        "another Go client on GCS",
    ),
    # -- storage: Azure ML's dataset stream throttled (`object_store_more`; azureml-dataprep's
    # error code ScriptExecution.StreamAccess.Throttling)
    (_fiftyfifth("ef2701be15de"), "storage", "fiftyfifth ef2701be15de (Azure ML)"),
    (
        "azureml.dataprep.api.errorhandlers.ExecutionError: Error Code: "
        "ScriptExecution.StreamAccess.Throttling",
        "storage",
        "dataprep's ExecutionError",
    ),
    (
        "Error Message: ScriptExecutionException was caused by StreamAccessException. "
        "StreamAccessException was caused by ThrottlingException.",
        "storage",
        "the exception chain on one line",
    ),
    # -- out_of_memory: nvJPEG's allocator and DALI's CUDA allocation (`cuda_oom`; nvjpeg.h
    # NVJPEG_STATUS_ALLOCATOR_FAILURE = 5; DALI's CUDABadAlloc "CUDA allocation failed")
    (_fiftyfifth("9e009c3b8036"), "out_of_memory", "fiftyfifth 9e009c3b8036 (nvJPEG allocator)"),
    (_fiftyfifth("d6b33081e4bf"), "out_of_memory", "fiftyfifth d6b33081e4bf (DALI, thread 3)"),
    (
        "RuntimeError: nvjpegDecodeJpegDevice failed: NVJPEG_STATUS_ALLOCATOR_FAILURE",
        "out_of_memory",
        "nvJPEG's status by name, another caller",
    ),
    (
        "RuntimeError: Critical error in pipeline: Error in thread 1: [/opt/dali/dali/operators/"
        'decoder/nvjpeg/nvjpeg_decoder_decoupled_api.h:612] NVJPEG error "5" : '
        "NVJPEG_STATUS_ALLOCATOR_FAILURE",
        "out_of_memory",
        "DALI's number, a later release",
    ),
    (
        "std::bad_alloc: CUDA allocation failed",
        "out_of_memory",
        "DALI's CUDABadAlloc as a C++ exception",
    ),
    # -- software_bug: nvJPEG's internal error (`cuda_library`; nvjpeg.h
    # NVJPEG_STATUS_INTERNAL_ERROR = 8)
    (_fiftyfifth("88476984dd68"), "software_bug", "fiftyfifth 88476984dd68 (DALI, error 8)"),
    (
        "RuntimeError: nvjpegDecode failed: NVJPEG_STATUS_INTERNAL_ERROR",
        "software_bug",
        "nvJPEG's status by name",
    ),
    (
        "RuntimeError: Critical error in pipeline: Error in thread 0: [/opt/dali/dali/operators/"
        'decoder/nvjpeg/nvjpeg_decoder_decoupled_api.h:355] NVJPEG error "8" : '
        "NVJPEG_STATUS_INTERNAL_ERROR",
        "software_bug",
        "DALI's number and name",
    ),
    # -- out_of_memory: a shared tensor's map failing ENOMEM under the file_descriptor strategy
    # (`shm_exhausted`; aten/src/ATen/MapAllocator.cpp, unknown_filename "filename not
    # specified")
    (_fiftyfifth("7a3ec1ad4aa2"), "out_of_memory", "fiftyfifth 7a3ec1ad4aa2 (latentwalk)"),
    (
        "RuntimeError: unable to mmap 1048576 bytes from file <filename not specified>: Cannot "
        "allocate memory (12)",
        "out_of_memory",
        "another size",
    ),
    (
        "RuntimeError: unable to mmap 262144 bytes from file </torch_2817_3954219881_1>: Cannot "
        "allocate memory (12)",
        "out_of_memory",
        "a named segment (the row as it was)",
    ),
    # -- dependency: a path the job needs refused by permissions (`path_permission_denied`;
    # CPython Objects/exceptions.c OSError_str "[Errno %S] %S: %R")
    (_fiftyfifth("741f0ae36eb0"), "dependency", "fiftyfifth 741f0ae36eb0 (Determined)"),
    (
        "PermissionError: [Errno 13] Permission denied: '/checkpoints/run7/model_0004.pt'",
        "dependency",
        "torch.save into a directory the user cannot write",
    ),
    (
        'IOError: [Errno 13] Permission denied: "/mnt/shared/logs/events.out.tfevents"',
        "dependency",
        "Python 2's IOError, double quotes",
    ),
]

NOT = [
    # (log text, category it must not get, why)
    (
        _fiftyfifth("49c5adb59cbe"),
        "ssd",
        "fiftyfifth 49c5adb59cbe: an image built wrong, no I/O (software_bug, unsure)",
    ),
    (
        "EXT4-fs error (device mmcblk0p9): ext4_has_uninit_itable:3021: comm mount: Inode table "
        "for bg 3 marked as needing zeroing",
        "ssd",
        "the same check on an eMMC partition",
    ),
    ("[  0.000] nfs: server nas01 OK", "storage", "the server back"),
    ("kernel: ceph: mds0 reconnect success", "storage", "a reconnect that succeeded"),
    ("kernel: ceph: mds0 reconnect start", "storage", "a reconnect starting"),
    (
        "kernel: ceph: mds0 closed our session",
        "storage",
        "the session closed alone: a reconnect success may follow",
    ),
    (
        "[   93.741341] CIFS: VFS: cifs_mount failed w/return code = -13",
        "storage",
        "a refused login (EACCES), not an unreachable server",
    ),
    (
        "[   93.741341] CIFS: VFS: cifs_mount failed w/return code = -22",
        "storage",
        "a bad mount option (EINVAL)",
    ),
    (
        "INFO: refreshed token, expires in 3599 seconds (refresh token is set)",
        "dependency",
        "a token refreshed",
    ),
    (
        '{"message": "Valid Credentials", "code": 200}',
        "dependency",
        "no refusal",
    ),
    (
        "Error Code: ScriptExecution.StreamAccess.NotFound",
        "storage",
        "a path that does not exist is the script's",
    ),
    (
        "nvJPEG: using NVJPEG_BACKEND_HYBRID for images smaller than 512x512",
        "out_of_memory",
        "nvJPEG informational",
    ),
    (
        'RuntimeError: Critical error in pipeline: NVJPEG error "3" : NVJPEG_STATUS_BAD_JPEG',
        "out_of_memory",
        "a bad JPEG, not memory",
    ),
    (
        'RuntimeError: Critical error in pipeline: NVJPEG error "3" : NVJPEG_STATUS_BAD_JPEG',
        "software_bug",
        "a bad JPEG, not the library",
    ),
    (
        "RuntimeError: unable to mmap 4 bytes from file <filename not specified>: Invalid "
        "argument (22)",
        "out_of_memory",
        "EINVAL, not memory",
    ),
    (
        "user@gpu-3: Permission denied (publickey).",
        "user_code_error",
        "ssh's refusal stays the launch's (dependency), not this row's",
    ),
    (
        "chmod 600 to avoid Permission denied errors",
        "dependency",
        "advice, no errno",
    ),
]

test_row = row_test(FIFTYFIFTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(FIFTYFIFTH + NOT)


def test_the_new_rows_answer_their_labels_actions(tmp_path: Path) -> None:
    """The fiftyfifth's excerpts the rows now read get their labels' actions (none excludes a
    node)."""
    for rid, category, action in (
        ("1d030d7a525a", "storage", "restart"),
        ("f1dd93a23800", "storage", "restart"),
        ("b0eafe28daf8", "storage", "restart"),
        ("09537815cf9e", "dependency", "restart"),
        ("2aea7799e450", "dependency", "restart"),
        ("b7e09e38dc27", "dependency", "restart"),
        ("60de1fd2c25e", "dependency", "restart"),
        ("ef2701be15de", "storage", "restart"),
        ("9e009c3b8036", "out_of_memory", "stop_and_page"),
        ("d6b33081e4bf", "out_of_memory", "stop_and_page"),
        ("88476984dd68", "software_bug", "restart"),
        ("7a3ec1ad4aa2", "out_of_memory", "stop_and_page"),
        ("741f0ae36eb0", "dependency", "restart"),
    ):
        v = rows_alone(tmp_path, _fiftyfifth(rid))
        assert (v.category, v.action) == (category, action), (rid, v.verdict)


def test_an_ext4_image_flagged_for_zeroing_excludes_no_node(tmp_path: Path) -> None:
    """The fiftyfifth's one wrong `exclude_node` (49c5adb59cbe, EXT4's "Inode table for bg 0
    marked as needing zeroing" at mount) no longer excludes a node, while a real EXT4 error on
    the same kind of device still does."""
    v = rows_alone(tmp_path, _fiftyfifth("49c5adb59cbe"))
    assert v.action != "exclude_node", v.verdict
    real = rows_alone(
        tmp_path,
        "EXT4-fs error (device sda45): ext4_find_entry:1455: inode #2: comm ls: reading "
        "directory lblock 0",
    )
    assert (real.category, real.action) == ("ssd", "exclude_node"), real.verdict
