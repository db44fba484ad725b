"""NVIDIA's Xid catalog as a data table: every code -> mnemonic, NVIDIA's immediate action, and
the nonstop.taxonomy category, precedence and confidence triage gives it.

Source: NVIDIA, "Analyzing Xid Errors with the Xid Catalog" (Ampere and newer GPUs),
https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html (Table 1, columns Code,
Mnemonic, Resolution Bucket (Immediate Action)); read 2026-12-01, codes 1-161. Unused codes are
listed with the catalog's CONTACT_SUPPORT bucket. Where the catalog's immediate action is a GPU
reset or a node reboot the node cannot do that itself while the job runs, so nonstop excludes
it; RESTART_APP codes are application-level faults (restart); IGNORE codes are informational.

    >>> from nonstop.diagnose.xids import CATALOG, classify
    >>> CATALOG[79].mnemonic, classify(79).category
    ('ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS', 'faulty_gpu')

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class XidEntry:
    code: int
    mnemonic: str
    bucket: str
    """NVIDIA's Resolution Bucket (Immediate Action)."""


@dataclass(frozen=True)
class XidClass:
    category: str
    specificity: int
    confidence: float
    meaning: str


# (code, mnemonic, immediate action), as the catalog lists them.
_TABLE: Final[tuple[tuple[int, str, str], ...]] = (
    (1, "ROBUST_CHANNEL_FIFO_ERROR_FIFO_METHOD", "CONTACT_SUPPORT"),
    (2, "ROBUST_CHANNEL_FIFO_ERROR_SW_METHOD", "CONTACT_SUPPORT"),
    (3, "ROBUST_CHANNEL_FIFO_ERROR_UNK_METHOD", "CONTACT_SUPPORT"),
    (4, "ROBUST_CHANNEL_FIFO_ERROR_CHANNEL_BUSY", "CONTACT_SUPPORT"),
    (5, "ROBUST_CHANNEL_FIFO_ERROR_RUNOUT_OVERFLOW", "CONTACT_SUPPORT"),
    (6, "ROBUST_CHANNEL_FIFO_ERROR_PARSE_ERR", "CONTACT_SUPPORT"),
    (7, "ROBUST_CHANNEL_FIFO_ERROR_PTE_ERR", "CONTACT_SUPPORT"),
    (8, "ROBUST_CHANNEL_FIFO_ERROR_IDLE_TIMEOUT", "RESTART_APP"),
    (9, "ROBUST_CHANNEL_GR_ERROR_INSTANCE", "CONTACT_SUPPORT"),
    (10, "ROBUST_CHANNEL_GR_ERROR_SINGLE_STEP", "CONTACT_SUPPORT"),
    (11, "ROBUST_CHANNEL_GR_ERROR_MISSING_HW", "RESTART_APP"),
    (12, "ROBUST_CHANNEL_GR_ERROR_SW_METHOD", "CONTACT_SUPPORT"),
    (13, "ROBUST_CHANNEL_GR_EXCEPTION", "RESTART_APP"),
    (14, "ROBUST_CHANNEL_FAKE_ERROR", "IGNORE"),
    (15, "ROBUST_CHANNEL_SCANLINE_TIMEOUT", "CONTACT_SUPPORT"),
    (16, "ROBUST_CHANNEL_VBLANK_CALLBACK_TIMEOUT", "CONTACT_SUPPORT"),
    (17, "ROBUST_CHANNEL_PARAMETER_ERROR", "CONTACT_SUPPORT"),
    (18, "ROBUST_CHANNEL_BUS_MASTER_TIMEOUT_ERROR", "CONTACT_SUPPORT"),
    (19, "ROBUST_CHANNEL_DISP_MISSED_NOTIFIER", "CONTACT_SUPPORT"),
    (20, "ROBUST_CHANNEL_MPEG_ERROR_SW_METHOD", "CONTACT_SUPPORT"),
    (21, "ROBUST_CHANNEL_ME_ERROR_SW_METHOD", "CONTACT_SUPPORT"),
    (22, "ROBUST_CHANNEL_VP_ERROR_SW_METHOD", "CONTACT_SUPPORT"),
    (23, "ROBUST_CHANNEL_RC_LOGGING_ENABLED", "CONTACT_SUPPORT"),
    (24, "ROBUST_CHANNEL_GR_SEMAPHORE_TIMEOUT", "CONTACT_SUPPORT"),
    (25, "ROBUST_CHANNEL_GR_ILLEGAL_NOTIFY", "RESTART_APP"),
    (26, "ROBUST_CHANNEL_FIFO_ERROR_FBISTATE_TIMEOUT", "CONTACT_SUPPORT"),
    (27, "ROBUST_CHANNEL_VP_ERROR", "CONTACT_SUPPORT"),
    (28, "ROBUST_CHANNEL_VP2_ERROR", "CONTACT_SUPPORT"),
    (29, "ROBUST_CHANNEL_BSP_ERROR", "CONTACT_SUPPORT"),
    (30, "ROBUST_CHANNEL_BAD_ADDR_ACCESS", "CONTACT_SUPPORT"),
    (31, "ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT", "RESTART_APP"),
    (32, "ROBUST_CHANNEL_PBDMA_ERROR", "RESTART_APP"),
    (33, "ROBUST_CHANNEL_SEC_ERROR", "CONTACT_SUPPORT"),
    (34, "ROBUST_CHANNEL_MSVLD_ERROR", "CONTACT_SUPPORT"),
    (35, "ROBUST_CHANNEL_MSPDEC_ERROR", "CONTACT_SUPPORT"),
    (36, "ROBUST_CHANNEL_MSPPP_ERROR", "CONTACT_SUPPORT"),
    (37, "ROBUST_CHANNEL_FECS_ERR_UNIMP_FIRMWARE_METHOD", "IGNORE"),
    (38, "ROBUST_CHANNEL_FECS_ERR_WATCHDOG_TIMEOUT", "IGNORE"),
    (39, "ROBUST_CHANNEL_CE0_ERROR", "RESTART_APP"),
    (40, "ROBUST_CHANNEL_CE1_ERROR", "RESTART_APP"),
    (41, "ROBUST_CHANNEL_CE2_ERROR", "RESTART_APP"),
    (42, "ROBUST_CHANNEL_VIC_ERROR", "CONTACT_SUPPORT"),
    (43, "ROBUST_CHANNEL_RESETCHANNEL_VERIF_ERROR", "IGNORE"),
    (44, "ROBUST_CHANNEL_GR_FAULT_DURING_CTXSW", "IGNORE"),
    (45, "ROBUST_CHANNEL_PREEMPTIVE_REMOVAL", "WORKFLOW_XID_45"),
    (46, "ROBUST_CHANNEL_GPU_TIMEOUT_ERROR", "RESET_GPU"),
    (47, "ROBUST_CHANNEL_NVENC0_ERROR", "CONTACT_SUPPORT"),
    (48, "ROBUST_CHANNEL_GPU_ECC_DBE", "WORKFLOW_XID_48"),
    (49, "SILENT_RUNNING_CONSTANT_LEVEL_SET_BY_REGISTRY", "CONTACT_SUPPORT"),
    (50, "SILENT_RUNNING_LEVEL_TRANSITION_DUE_TO_RC_ERROR", "CONTACT_SUPPORT"),
    (51, "SILENT_RUNNING_STRESS_TEST_FAILURE", "CONTACT_SUPPORT"),
    (52, "SILENT_RUNNING_LEVEL_TRANS_DUE_TO_TEMP_RISE", "CONTACT_SUPPORT"),
    (53, "SILENT_RUNNING_TEMP_REDUCED_CLOCKING", "CONTACT_SUPPORT"),
    (54, "SILENT_RUNNING_PWR_REDUCED_CLOCKING", "CHECK_MECHANICALS"),
    (55, "SILENT_RUNNING_TEMPERATURE_READ_ERROR", "CONTACT_SUPPORT"),
    (56, "DISPLAY_CHANNEL_EXCEPTION", "CONTACT_SUPPORT"),
    (57, "FB_LINK_TRAINING_FAILURE_ERROR", "CONTACT_SUPPORT"),
    (58, "FB_MEMORY_ERROR", "CONTACT_SUPPORT"),
    (59, "PMU_ERROR", "CONTACT_SUPPORT"),
    (60, "ROBUST_CHANNEL_SEC2_ERROR", "RESTART_APP"),
    (61, "PMU_BREAKPOINT", "CONTACT_SUPPORT"),
    (62, "PMU_HALT_ERROR", "RESET_GPU"),
    (63, "INFOROM_DRAM_RETIREMENT_EVENT", "IGNORE"),
    (64, "INFOROM_DRAM_RETIREMENT_FAILURE", "RESET_GPU"),
    (65, "ROBUST_CHANNEL_NVENC1_ERROR", "CONTACT_SUPPORT"),
    (66, "ROBUST_CHANNEL_FECS_ERR_REG_ACCESS_VIOLATION", "IGNORE"),
    (67, "ROBUST_CHANNEL_FECS_ERR_VERIF_VIOLATION", "IGNORE"),
    (68, "ROBUST_CHANNEL_NVDEC0_ERROR", "RESTART_APP"),
    (69, "ROBUST_CHANNEL_GR_CLASS_ERROR", "RESTART_APP"),
    (70, "ROBUST_CHANNEL_CE3_ERROR", "RESTART_APP"),
    (71, "ROBUST_CHANNEL_CE4_ERROR", "RESTART_APP"),
    (72, "ROBUST_CHANNEL_CE5_ERROR", "RESTART_APP"),
    (73, "ROBUST_CHANNEL_NVENC2_ERROR", "CONTACT_SUPPORT"),
    (74, "NVLINK_ERROR", "WORKFLOW_NVLINK_ERR"),
    (75, "ROBUST_CHANNEL_CE6_ERROR", "RESTART_APP"),
    (76, "ROBUST_CHANNEL_CE7_ERROR", "RESTART_APP"),
    (77, "ROBUST_CHANNEL_CE8_ERROR", "RESTART_APP"),
    (78, "VGPU_START_ERROR", "UPDATE_SWFW"),
    (79, "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS", "RESTART_BM"),
    (80, "PBDMA_PUSHBUFFER_CRC_MISMATCH", "RESTART_APP"),
    (81, "ROBUST_CHANNEL_VGA_SUBSYSTEM_ERROR", "CONTACT_SUPPORT"),
    (82, "ROBUST_CHANNEL_NVJPG0_ERROR", "RESTART_APP"),
    (83, "ROBUST_CHANNEL_NVDEC1_ERROR", "RESTART_APP"),
    (84, "ROBUST_CHANNEL_NVDEC2_ERROR", "RESTART_APP"),
    (85, "ROBUST_CHANNEL_CE9_ERROR", "RESTART_APP"),
    (86, "ROBUST_CHANNEL_OFA0_ERROR", "RESTART_APP"),
    (87, "NVTELEMETRY_DRIVER_REPORT", "CONTACT_SUPPORT"),
    (88, "ROBUST_CHANNEL_NVDEC3_ERROR", "RESTART_APP"),
    (89, "ROBUST_CHANNEL_NVDEC4_ERROR", "RESTART_APP"),
    (90, "LTC_ERROR", "CONTACT_SUPPORT"),
    (91, "RESERVED_XID", "CONTACT_SUPPORT"),
    (92, "EXCESSIVE_SBE_INTERRUPTS", "IGNORE"),
    (93, "INFOROM_ERASE_LIMIT_EXCEEDED", "IGNORE"),
    (94, "ROBUST_CHANNEL_CONTAINED_ERROR", "RESTART_APP"),
    (95, "ROBUST_CHANNEL_UNCONTAINED_ERROR", "RESET_GPU"),
    (96, "ROBUST_CHANNEL_NVDEC5_ERROR", "RESTART_APP"),
    (97, "ROBUST_CHANNEL_NVDEC6_ERROR", "RESTART_APP"),
    (98, "ROBUST_CHANNEL_NVDEC7_ERROR", "RESTART_APP"),
    (99, "ROBUST_CHANNEL_NVJPG1_ERROR", "RESTART_APP"),
    (100, "ROBUST_CHANNEL_NVJPG2_ERROR", "RESTART_APP"),
    (101, "ROBUST_CHANNEL_NVJPG3_ERROR", "RESTART_APP"),
    (102, "ROBUST_CHANNEL_NVJPG4_ERROR", "RESTART_APP"),
    (103, "ROBUST_CHANNEL_NVJPG5_ERROR", "RESTART_APP"),
    (104, "ROBUST_CHANNEL_NVJPG6_ERROR", "RESTART_APP"),
    (105, "ROBUST_CHANNEL_NVJPG7_ERROR", "RESTART_APP"),
    (106, "SMBPBI_TEST_MESSAGE", "IGNORE"),
    (107, "SMBPBI_TEST_MESSAGE_SILENT", "IGNORE"),
    (108, "DESTINATION_FLA_TRANSLATION_ERROR", "CONTACT_SUPPORT"),
    (109, "ROBUST_CHANNEL_CTXSW_TIMEOUT_ERROR", "RESET_GPU"),
    (110, "SEC_FAULT_ERROR", "RESET_GPU"),
    (111, "BUNDLE_ERROR_EVENT", "CONTACT_SUPPORT"),
    (112, "DISP_SUPERVISOR_ERROR", "CONTACT_SUPPORT"),
    (113, "DP_LT_FAILURE", "CONTACT_SUPPORT"),
    (114, "HEAD_RG_UNDERFLOW", "CONTACT_SUPPORT"),
    (115, "CORE_CHANNEL_REGS", "CONTACT_SUPPORT"),
    (116, "WINDOW_CHANNEL_REGS", "CONTACT_SUPPORT"),
    (117, "CURSOR_CHANNEL_REGS", "CONTACT_SUPPORT"),
    (118, "HEAD_REGS", "CONTACT_SUPPORT"),
    (119, "GSP_RPC_TIMEOUT", "RESET_GPU"),
    (120, "GSP_ERROR", "RESET_GPU"),
    (121, "C2C_ERROR", "IGNORE"),
    (122, "SPI_PMU_RPC_READ_FAIL", "CONTACT_SUPPORT"),
    (123, "SPI_PMU_RPC_WRITE_FAIL", "CONTACT_SUPPORT"),
    (124, "SPI_PMU_RPC_ERASE_FAIL", "CONTACT_SUPPORT"),
    (125, "INFOROM_FS_ERROR", "CONTACT_SUPPORT"),
    (126, "ROBUST_CHANNEL_CE10_ERROR", "RESTART_APP"),
    (127, "ROBUST_CHANNEL_CE11_ERROR", "RESTART_APP"),
    (128, "ROBUST_CHANNEL_CE12_ERROR", "RESTART_APP"),
    (129, "ROBUST_CHANNEL_CE13_ERROR", "RESTART_APP"),
    (130, "ROBUST_CHANNEL_CE14_ERROR", "RESTART_APP"),
    (131, "ROBUST_CHANNEL_CE15_ERROR", "RESTART_APP"),
    (132, "ROBUST_CHANNEL_CE16_ERROR", "RESTART_APP"),
    (133, "ROBUST_CHANNEL_CE17_ERROR", "RESTART_APP"),
    (134, "ROBUST_CHANNEL_CE18_ERROR", "RESTART_APP"),
    (135, "ROBUST_CHANNEL_CE19_ERROR", "RESTART_APP"),
    (136, "ALI_TRAINING_FAIL", "RESET_GPU"),
    (137, "NVLINK_FLA_PRIV_ERR", "IGNORE"),
    (138, "ROBUST_CHANNEL_DLA_ERROR", "CONTACT_SUPPORT"),
    (139, "ROBUST_CHANNEL_OFA1_ERROR", "RESTART_APP"),
    (140, "UNRECOVERABLE_ECC_ERROR_ESCAPE", "RESET_GPU"),
    (141, "ROBUST_CHANNEL_FAST_PATH_ERROR", "IGNORE"),
    (142, "ROBUST_CHANNEL_NVENC3_ERROR", "CONTACT_SUPPORT"),
    (143, "GPU_INIT_ERROR", "RESET_GPU"),
    (144, "NVLINK_SAW_ERROR", "WORKFLOW_NVLINK5_ERR"),
    (145, "NVLINK_RLW_ERROR", "WORKFLOW_NVLINK5_ERR"),
    (146, "NVLINK_TLW_ERROR", "WORKFLOW_NVLINK5_ERR"),
    (147, "NVLINK_TREX_ERROR", "WORKFLOW_NVLINK5_ERR"),
    (148, "NVLINK_NVLPW_CTRL_ERROR", "WORKFLOW_NVLINK5_ERR"),
    (149, "NVLINK_NETIR_ERROR", "WORKFLOW_NVLINK5_ERR"),
    (150, "NVLINK_MSE_ERROR", "WORKFLOW_NVLINK5_ERR"),
    (151, "ROBUST_CHANNEL_KEY_ROTATION_ERROR", "RESTART_VM"),
    (152, "ROBUST_CHANNEL_DLA_SMMU_ERROR", "IGNORE"),
    (153, "ROBUST_CHANNEL_DLA_TIMEOUT", "IGNORE"),
    (154, "GPU_RECOVERY_ACTION_CHANGED", "WORKFLOW_XID_154"),
    (155, "NVLINK_SW_DEFINED_ERROR", "RESET_GPU"),
    (156, "RESOURCE_RETIREMENT_EVENT", "RESET_GPU"),
    (157, "RESOURCE_RETIREMENT_FAILURE", "IGNORE"),
    (158, "GPU_FATAL_TIMEOUT", "RESET_GPU"),
    (159, "ROBUST_CHANNEL_CHI_NON_DATA_ERROR", "CHECK_UVM"),
    (160, "CHANNEL_RETIREMENT_EVENT", "RESTART_BM"),
    (161, "CHANNEL_RETIREMENT_FAILURE", "IGNORE"),
)

CATALOG: Final[dict[int, XidEntry]] = {c: XidEntry(c, m, b) for c, m, b in _TABLE}

# What each immediate-action bucket means for a training job: (category, specificity, confidence).
BUCKETS: Final[dict[str, tuple[str, int, float]]] = {
    "RESTART_BM": ("faulty_gpu", 100, 0.97),  # the GPU is unreachable until a power cycle
    "RESET_GPU": ("faulty_gpu", 85, 0.8),
    "WORKFLOW_XID_48": ("gpu_hbm3_memory", 92, 0.95),
    "WORKFLOW_NVLINK_ERR": ("faulty_gpu", 88, 0.85),
    "WORKFLOW_NVLINK5_ERR": ("faulty_gpu", 80, 0.75),
    "CHECK_MECHANICALS": ("power_supply", 70, 0.6),
    "RESTART_APP": ("software_bug", 45, 0.5),  # an application-level fault: the GPU is fine
    "CHECK_UVM": ("software_bug", 45, 0.45),
    "RESTART_VM": ("software_bug", 50, 0.45),
    "UPDATE_SWFW": ("dependency", 60, 0.5),
    "CONTACT_SUPPORT": ("faulty_gpu", 55, 0.45),  # unexpected from the driver: weak evidence
    "IGNORE": ("unknown", 15, 0.2),  # informational
    "WORKFLOW_XID_45": ("unknown", 20, 0.2),  # cleanup after an earlier error (see that one)
    "WORKFLOW_XID_154": ("unknown", 20, 0.2),  # refined from the line's new recovery action
}

# Codes whose meaning the bucket alone does not carry (the catalog's descriptions).
OVERRIDES: Final[dict[int, tuple[str, int, float, str]]] = {
    13: (
        "software_bug",
        45,
        0.5,
        "Graphics Engine Exception: usually an out-of-range access in a kernel",
    ),
    31: (
        "software_bug",
        45,
        0.5,
        "GPU memory page fault: usually an illegal address in an application kernel",
    ),
    43: ("software_bug", 40, 0.5, "GPU stopped processing: an application fault reset the channel"),
    52: ("gpu_thermal_interface_sensor", 70, 0.6, "Level transition due to a temperature rise"),
    53: ("gpu_thermal_interface_sensor", 70, 0.6, "Clocks reduced for temperature"),
    55: ("gpu_thermal_interface_sensor", 65, 0.5, "Temperature sensor read error"),
    58: ("gpu_hbm3_memory", 75, 0.6, "Framebuffer memory error"),
    61: ("faulty_gpu", 80, 0.7, "Internal micro-controller breakpoint/warning (PMU)"),
    62: ("faulty_gpu", 88, 0.85, "Internal micro-controller halt (PMU): reset the GPU"),
    63: ("gpu_hbm3_memory", 40, 0.4, "ECC page retirement or row-remapping recording event"),
    64: ("gpu_hbm3_memory", 90, 0.9, "ECC page retirement or row-remapper recording failure"),
    92: ("gpu_hbm3_memory", 50, 0.4, "High single-bit ECC error rate"),
    94: ("gpu_sram_memory", 90, 0.85, "Contained ECC error: the faulting application was stopped"),
    95: (
        "gpu_sram_memory",
        93,
        0.9,
        "Uncontained ECC error: every application on the GPU is affected",
    ),
    119: (
        "gpu_system_processor",
        95,
        0.9,
        "GSP RPC timeout: the GPU System Processor stopped answering",
    ),
    120: ("gpu_system_processor", 95, 0.9, "GSP error: the GPU System Processor reported a fault"),
    140: (
        "gpu_hbm3_memory",
        92,
        0.9,
        "Unrecovered ECC error: an uncorrectable error the GPU could not contain",
    ),
    143: ("faulty_gpu", 90, 0.85, "GPU initialization failure"),
    156: ("gpu_hbm3_memory", 80, 0.7, "Resource retirement event: reset the GPU"),
}


def _describe(mnemonic: str) -> str:
    return mnemonic.replace("ROBUST_CHANNEL_", "").replace("_", " ").lower()


def classify(code: int) -> XidClass:
    """Category, precedence, confidence and meaning of an Xid code (unlisted: weak unknown)."""
    if code in OVERRIDES:
        return XidClass(*OVERRIDES[code])
    entry = CATALOG.get(code)
    if entry is None:
        return XidClass("unknown", 40, 0.3, "an Xid not in NVIDIA's catalog as nonstop has it")
    cat, spec, conf = BUCKETS[entry.bucket]
    return XidClass(cat, spec, conf, f"{_describe(entry.mnemonic)} (NVIDIA: {entry.bucket})")


def recovery_action(text: str) -> str | None:
    """Xid 154's new recovery action ('GPU Reset Required', 'Node Reboot Required', 'None')."""
    i = text.rfind(" to 0x")
    if i < 0:
        return None
    j, k = text.find("(", i), text.find(")", i)
    return text[j + 1 : k] if 0 <= j < k else None
