"""Signature rows for the classes the thirtieth collection showed missing
(tests/corpus/real/README.md, thirtieth.jsonl, "After its rows", branch issue-27rows30). Each
row is tested on the thirtieth's excerpts and on other wordings of its class, from the
documentation or source cited beside each, with the near misses it must not take."""

from __future__ import annotations

from pathlib import Path

from support.prefilter import excerpt, near_miss_test, prefilter_test, row_test, rows_alone


def _thirtieth(rid: str) -> str:
    return excerpt("thirtieth", rid)


THIRTIETH = [
    # (log text, category, why)
    # -- out_of_memory: a runtime's or allocator's own words (`program_oom_words`)
    (_thirtieth("062f3d12698a"), "out_of_memory", "thirtieth 062f3d12698a (Rust's OutOfMemory)"),
    # Go's runtime throws "out of memory" as a fatal error (runtime/malloc.go, mheap.go:
    # throw("out of memory")); Go before 1.11 printed the block size first
    ("fatal error: runtime: out of memory", "out_of_memory", "Go's runtime"),
    (
        "runtime: out of memory: cannot allocate 4194304-byte block (3932160000 in use)",
        "out_of_memory",
        "Go's older runtime",
    ),
    # Rust's default allocation error hook (std::alloc::set_alloc_error_hook: "memory allocation
    # of {} bytes failed", then abort)
    ("memory allocation of 17179869184 bytes failed", "out_of_memory", "Rust's alloc error hook"),
    # V8's fatal heap limit as Node prints it (Node's docs on --max-old-space-size)
    (
        "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
        "out_of_memory",
        "Node's heap limit",
    ),
    (
        "FATAL ERROR: CALL_AND_RETRY_LAST Allocation failed - JavaScript heap out of memory",
        "out_of_memory",
        "Node's older wording",
    ),
    # .NET's System.OutOfMemoryException (its documented default message)
    (
        "Unhandled exception. System.OutOfMemoryException: Insufficient memory to continue the "
        "execution of the program.",
        "out_of_memory",
        ".NET's OutOfMemoryException",
    ),
    # R's allocator (R FAQ / ?Memory: "cannot allocate vector of size", "vector memory exhausted")
    ("Error: cannot allocate vector of size 7.5 Gb", "out_of_memory", "R's allocator"),
    ("Error: vector memory exhausted (limit reached?)", "out_of_memory", "R's vector heap"),
    # PHP's memory_limit (php.ini documentation's fatal error)
    (
        "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate "
        "20480 bytes) in /var/www/index.php on line 12",
        "out_of_memory",
        "PHP's memory_limit",
    ),
    # Erlang's crash dump slogan (the Erlang/OTP crash dump guide)
    (
        'Slogan: eheap_alloc: Cannot allocate 1048 bytes of memory (of type "heap").',
        "out_of_memory",
        "Erlang's heap allocator",
    ),
    # ENOMEM where the call named is an allocation (malloc(3), fork(2): ENOMEM)
    ("bash: fork: Cannot allocate memory", "out_of_memory", "fork's ENOMEM"),
    ("malloc(): Cannot allocate memory", "out_of_memory", "malloc's ENOMEM"),
    # -- out_of_memory: a data store's own memory limit (`datastore_memory_limit`)
    (_thirtieth("40c3a3249598"), "out_of_memory", "thirtieth 40c3a3249598 (InfluxDB's cache)"),
    (_thirtieth("d82d4c8c0ee5"), "out_of_memory", "thirtieth d82d4c8c0ee5 (InfluxDB 0.9's WAL)"),
    (_thirtieth("b6e47b882838"), "out_of_memory", "thirtieth b6e47b882838 (InfluxDB 2)"),
    (_thirtieth("da9a6d3adea4"), "out_of_memory", "thirtieth da9a6d3adea4 (OpenSearch breaker)"),
    (_thirtieth("b772bfd8b910"), "out_of_memory", "thirtieth b772bfd8b910 (ES breaker)"),
    # Elasticsearch's fielddata breaker ("Circuit breaker errors" in its docs)
    (
        "CircuitBreakingException[[fielddata] Data too large, data for [proccessDate] would be "
        "larger than limit of [10307921510/9.5gb]]",
        "out_of_memory",
        "Elasticsearch's fielddata breaker",
    ),
    # ClickHouse's error 241 (MEMORY_LIMIT_EXCEEDED, its settings docs on max_memory_usage)
    (
        "Code: 241. DB::Exception: Memory limit (total) exceeded: would use 28.00 GiB (attempt "
        "to allocate chunk of 4194304 bytes), maximum: 27.94 GiB. (MEMORY_LIMIT_EXCEEDED)",
        "out_of_memory",
        "ClickHouse's server limit",
    ),
    # Redis's maxmemory with a noeviction policy (its docs on key eviction)
    (
        "(error) OOM command not allowed when used memory > 'maxmemory'.",
        "out_of_memory",
        "Redis's maxmemory",
    ),
    # PostgreSQL's out-of-memory report (the DETAIL line of ERROR: out of memory)
    (
        'ERROR:  out of memory\nDETAIL:  Failed on request of size 1048576 in memory context "ExprContext".',
        "out_of_memory",
        "PostgreSQL",
    ),
    # MySQL's error reference: ER_OUT_OF_RESOURCES (1041) and the global EE_OUTOFMEMORY
    (
        "ERROR 1041 (HY000): Out of memory; check if mysqld or some other process uses all "
        "available memory; if not, you may have to use 'ulimit' to allow mysqld to use more memory",
        "out_of_memory",
        "MySQL's 1041",
    ),
    ("mysqld: Out of memory (Needed 16777216 bytes)", "out_of_memory", "MySQL's EE_OUTOFMEMORY"),
    # -- numerical_nan: NaN in a solver's own diagnostics (`solver_nan_diagnostics`)
    (_thirtieth("af56d768fa8b"), "numerical_nan", "thirtieth af56d768fa8b (Oceananigans' CFL)"),
    (_thirtieth("dde353829944"), "numerical_nan", "thirtieth dde353829944 (HiFiLES' residual)"),
    (
        excerpt("twentyseventh", "81bbc4684511"),
        "numerical_nan",
        "twentyseventh 81bbc4684511 (pyqg)",
    ),
    # PETSc's KSPConvergedReason and SNESConvergedReason (its manual pages)
    (
        "Linear solve did not converge due to DIVERGED_NANORINF iterations 0",
        "numerical_nan",
        "PETSc's KSP",
    ),
    (
        "Nonlinear solve did not converge due to DIVERGED_FNORM_NAN iterations 3",
        "numerical_nan",
        "PETSc's SNES",
    ),
    ("Step 1200: dt = nan, residual norm = 3.2e-05", "numerical_nan", "a NaN time step"),
    # -- user_code_error: a time step past the CFL limit (`cfl_limit_exceeded`)
    (_thirtieth("8ac791dfb654"), "user_code_error", "thirtieth 8ac791dfb654 (WRF)"),
    (
        excerpt("twentyseventh", "803e01fc197d"),
        "user_code_error",
        "twentyseventh 803e01fc197d (AMR-Wind)",
    ),
    (
        "d01 2012-06-29_12:00:30            5  points exceeded w_critical_cfl in domain d01 at "
        "time 2012-06-29_12:00:30 hours",
        "user_code_error",
        "WRF 3's wording",
    ),
    # -- nic: a driver's own transmit timeout (`nic_tx_timeout_words`)
    (_thirtieth("94c88093b7d6"), "nic", "thirtieth 94c88093b7d6 (r8152)"),
    # drivers/net/ethernet/broadcom/tg3.c, tg3_tx_timeout
    ("tg3 0000:03:00.0 eth0: transmit timed out, resetting", "nic", "tg3"),
    # drivers/net/ethernet/marvell/sky2.c, sky2_tx_timeout
    ("sky2 0000:02:00.0 eth0: tx timeout", "nic", "sky2"),
    # -- ssd: a RAID controller's degraded logical drive (`raid_controller_degraded`)
    (_thirtieth("e7bf3af8c2bc"), "ssd", "thirtieth e7bf3af8c2bc (megaclisas-status)"),
    # MegaCli -LDInfo -Lall -aALL
    (
        "Virtual Drive: 0 (Target Id: 0)\nRAID Level          : Primary-5, Secondary-0, RAID "
        "Level Qualifier-3\nState               : Degraded",
        "ssd",
        "MegaCli's LDInfo",
    ),
    # storcli /c0/vall show (its VD LIST)
    ("0/0   RAID5 Dgrd  RW     Yes     RWBD  -   ON  2.181 TB", "ssd", "storcli's VD LIST"),
    # HPE ssacli ctrl all show config
    (
        "   logicaldrive 1 (558.7 GB, RAID 1, Interim Recovery Mode)",
        "ssd",
        "HPE ssacli's degraded mirror",
    ),
    # -- storage: Windows's own volume errors (`windows_volume_error`; Microsoft's System Error
    # Codes 1000-1299 and 1300-1699)
    (_thirtieth("4a4e5cb38658"), "storage", "thirtieth 4a4e5cb38658 (ERROR_FILE_INVALID)"),
    (
        "IOException: The request could not be performed because of an I/O device error.",
        "storage",
        "ERROR_IO_DEVICE (1117)",
    ),
    (
        "Error: EIO ... The file or directory is corrupted and unreadable.",
        "storage",
        "ERROR_FILE_CORRUPT (1392)",
    ),
    # -- dependency: a scheduler's node daemon that cannot start (`scheduler_node_daemon_start`)
    (_thirtieth("f2e732315127"), "dependency", "thirtieth f2e732315127 (pbs_mom)"),
    # src/slurmd/slurmd/slurmd.c, _create_msg_socket: fatal("Unable to bind listen port (%u): %m")
    (
        "slurmd: fatal: Unable to bind listen port (6818): Address already in use",
        "dependency",
        "slurmd's port taken",
    ),
]

NOT = [
    # (text, the category it must not be read as, why)
    (
        _thirtieth("68b5c472ddbb"),
        "out_of_memory",
        "a bare ENOMEM names no allocation (left alone: unsure with `dependency`)",
    ),
    (
        "mmap failed: Cannot allocate memory",
        "out_of_memory",
        "mmap's ENOMEM: also a map-count limit",
    ),
    (
        excerpt("eighth", "87d9e98db3c3"),
        "out_of_memory",
        "eighth 87d9e98db3c3: ibv_create_cq's ENOMEM is `dependency`",
    ),
    (
        excerpt("twentyfirst", "162eac60a100"),
        "out_of_memory",
        "twentyfirst 162eac60a100: ibv_post_recv's ENOMEM is the fabric's",
    ),
    (
        excerpt("twentyninth", "1adf24f078d2"),
        "out_of_memory",
        "twentyninth 1adf24f078d2: an encoder's ENOMEM (`dependency`, left alone there)",
    ),
    (
        "indices.breaker.total.limit: 70%",
        "out_of_memory",
        "a circuit breaker's setting",
    ),
    (
        'cache-max-memory-size = "1g"',
        "out_of_memory",
        "InfluxDB's setting",
    ),
    (
        "i:  13980, sim time: 11.119 hours, wall time: 42.827 minutes, Δt: 2.875 seconds, CFL: 1.00e+00",
        "numerical_nan",
        "a finite progress line",
    ),
    (
        "Linear solve converged due to CONVERGED_RTOL iterations 12",
        "numerical_nan",
        "PETSc converging",
    ),
    (
        "CFL: 0.976099 (conv: 0.711243 diff: 0 src: 0.508455 )",
        "user_code_error",
        "a CFL number under its limit",
    ),
    (
        "[ 12.3] nwl-dsi 30a00000.mipi_dsi: HS tx timeout",
        "nic",
        "a display controller's tx timeout",
    ),
    (
        "[  5.1] r8152 2-1:1.0 eth0: carrier on",
        "nic",
        "r8152 up",
    ),
    (
        "Cac=CacheCade|Rec=Recovery|OfLn=OffLine|Pdgd=Partially Degraded|Dgrd=Degraded",
        "ssd",
        "storcli's legend, printed with every listing",
    ),
    (
        "State               : Optimal",
        "ssd",
        "MegaCli's healthy logical drive",
    ),
    (
        "c0u0  | RAID-6 |  12731G |   64 KB | RA,WB |  Enabled | Optimal | /dev/sda | None      |None",
        "ssd",
        "megaclisas-status's healthy array",
    ),
    (
        "Successfully opened slurm listen port 6818",
        "dependency",
        "slurmd starting",
    ),
]

test_row = row_test(THIRTIETH)


test_near_miss = near_miss_test(NOT)


test_the_prefilter_hides_no_row_from_these_lines = prefilter_test(THIRTIETH + NOT)


def test_the_memory_guards_page(tmp_path: Path) -> None:
    """A program's or a store's own out-of-memory report pages (out_of_memory, stop_and_page)
    where first sight restarted: the Solana validator, InfluxDB, the circuit breakers."""
    for rid in (
        "062f3d12698a",
        "40c3a3249598",
        "d82d4c8c0ee5",
        "b6e47b882838",
        "da9a6d3adea4",
        "b772bfd8b910",
    ):
        v = rows_alone(tmp_path, _thirtieth(rid))
        assert (v.category, v.action) == ("out_of_memory", "stop_and_page"), (rid, v.verdict)


def test_the_degraded_array_and_the_usb_nic_exclude(tmp_path: Path) -> None:
    """The MegaRAID array running without a member (e7bf3af8c2bc, `ssd`) and the r8152
    adapter's transmit timeouts (94c88093b7d6, `nic`) exclude the node, as their labels do."""
    for rid, category in (("e7bf3af8c2bc", "ssd"), ("94c88093b7d6", "nic")):
        v = rows_alone(tmp_path, _thirtieth(rid))
        assert (v.category, v.action) == (category, "exclude_node"), (rid, v.verdict)


def test_the_left_alone_stores_are_not_excluded(tmp_path: Path) -> None:
    """The corrupted stores left alone (LevelDB's and RocksDB's checksum mismatches, labelled
    `silent_data_corruption` but unsure with `storage` and `software_bug`; LevelDB's bad block
    type, bolt's freelist, MDBX_PANIC) name no device in a machine's record: no row excludes."""
    for rid in (
        "5ad25004c664",
        "213833184780",
        "ab24bc93d267",
        "1af1b46935c6",
        "6f0a4e84e6ab",
        "cc8cd5bd8407",
    ):
        v = rows_alone(tmp_path, _thirtieth(rid))
        assert v.action != "exclude_node", (rid, v.verdict)
