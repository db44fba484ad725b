"""Signature rows for the classes the twenty-fourth collection showed missing
(tests/corpus/real/README.md, twentyfourth.jsonl, "After its rows", branch issue-27rows24). Each
row is tested on the twenty-fourth's excerpts and on other wordings of its class, with the near
misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _twentyfourth(rid: str) -> str:
    return excerpt("twentyfourth", rid)


# None of these rows excludes a node: each answers a category that restarts.
TWENTYFOURTH = [
    # (log text, category, why)
    # -- storage: the object store's own 5xx in Google's Go client
    (_twentyfourth("395777af8f60"), "storage", "twentyfourth 395777af8f60 (googleapi 503)"),
    (
        "error: googleapi: Error 500: We encountered an internal error. Please try again., "
        "backendError",
        "storage",
        "googleapi 500",
    ),
    (
        "googleapi: Error 429: The rate of change requests is too high, rateLimitExceeded",
        "storage",
        "429",
    ),
    # -- storage: the NFS server's RPC services gone
    (_twentyfourth("c914b6d90df6"), "storage", "twentyfourth c914b6d90df6 (showmount)"),
    ("clnt_create: RPC: Program not registered", "storage", "the client's line alone"),
    (
        "mount.nfs: requested NFS version or transport protocol is not supported; "
        "mount.nfs: rpc.statd is not running but is required for remote locking. "
        "RPC: Program not registered",
        "storage",
        "mount.nfs",
    ),
    # -- dependency: NCCL 2.0's connect failure at init, above the system error it causes
    (_twentyfourth("ef3d062a2c5a"), "dependency", "twentyfourth ef3d062a2c5a (NCCL 2.0)"),
    (
        "node3 [1] include/socket.h:190 WARN Call to connect failed : No route to host",
        "dependency",
        "no route",
    ),
    # -- unknown: APEI's record of an error the firmware corrected
    (_twentyfourth("b9f9c846ddaa"), "unknown", "twentyfourth b9f9c846ddaa (APEI corrected)"),
    (
        "[ 812.004412] {3}[Hardware Error]: event severity: corrected",
        "unknown",
        "the severity line alone",
    ),
    # -- software_bug: the kernel's WARN_ON inside a GPU driver
    (_twentyfourth("31b3c51afdbd"), "software_bug", "twentyfourth 31b3c51afdbd (amdgpu_dm)"),
    (
        "[  300.123456] WARNING: CPU: 3 PID: 1204 at drivers/gpu/drm/i915/intel_pm.c:3812 "
        "skl_ddb_allocation+0x2a/0x40 [i915]",
        "software_bug",
        "i915",
    ),
    (
        "WARNING: CPU: 0 PID: 77 at drivers/gpu/drm/nouveau/nvkm/subdev/mmu/vmm.c:1290 "
        "nvkm_vmm_put+0x1c/0x30 [nouveau]",
        "software_bug",
        "nouveau",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    ("googleapi: Error 404: No such object: bucket/part-0001, notFound", "storage", "a 404"),
    ("googleapi: Error 403: Forbidden, forbidden", "storage", "forbidden: the job's credentials"),
    (
        "if you see RPC: Program not registered, start rpcbind first",
        "storage",
        "supposed, no client",
    ),
    (
        "node3 [1] include/socket.h:190 INFO Call to connect failed : Connection refused, retrying",
        "dependency",
        "INFO, not WARN",
    ),
    (
        "WARNING: CPU: 12 PID: 0 at net/sched/sch_generic.c:447 dev_watchdog+0x24c/0x250",
        "software_bug",
        "NETDEV WATCHDOG: a network driver, not a GPU driver",
    ),
    ("the amdgpu driver printed a WARNING at drivers/gpu/drm/amd", "software_bug", "in a sentence"),
]

test_row = row_test(TWENTYFOURTH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(TWENTYFOURTH + NOT)


def test_the_twentyfourth_s_rows_exclude_no_node(tmp_path: Path) -> None:
    """None of the rows excludes a node: they restart."""
    for text, _category, why in TWENTYFOURTH:
        assert rows_alone(tmp_path, text).action == "restart", why


def test_an_apei_record_not_corrected_is_not_read_as_corrected(tmp_path: Path) -> None:
    """A fatal or recoverable APEI record is not the corrected row's (unknown is also what no
    row gives, so the row's own meaning is checked)."""
    assert (
        "Corrected hardware errors" in rows_alone(tmp_path, _twentyfourth("b9f9c846ddaa")).verdict
    )
    for severity in ("fatal", "recoverable"):
        text = f"{{1}}[Hardware Error]: event severity: {severity}"
        assert "Corrected hardware errors" not in rows_alone(tmp_path, text).verdict, severity


def test_the_amdgpu_warning_gives_way_to_a_lost_gpu(tmp_path: Path) -> None:
    """The driver-warning row is low: a GPU the driver reports lost in the same log decides."""
    text = _twentyfourth("31b3c51afdbd") + "\namdgpu 0000:03:00.0: amdgpu: GPU reset failed\n"
    assert rows_alone(tmp_path, text).category == "faulty_gpu"


def test_the_amdgpu_init_failure_is_still_read_as_a_lost_gpu(tmp_path: Path) -> None:
    """The twenty-fourth's wrong exclusion at first sight, left alone (corpus README): amdgpu
    failing its ring test and IP init on a coreboot port (24e8d131a69b), labelled software_bug,
    unsure with faulty_gpu, which differs in action; `gpu_lost_words` reads amdgpu's "Fatal
    error during GPU init" as a lost GPU, as a card that cannot initialise on a server is."""
    v = rows_alone(tmp_path, _twentyfourth("24e8d131a69b"))
    assert (v.category, v.action) == ("faulty_gpu", "exclude_node"), v.verdict
