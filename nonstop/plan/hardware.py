"""GPUs and clusters: from training FLOPs to days of compute, GPU-hours and energy.

Peak throughput is dense BF16 tensor-core FLOP/s (no 2:4 sparsity) from the vendor datasheets,
and TDP is the board's maximum power in its SXM form:

| GPU  | dense BF16 | TDP    | source |
|------|-----------:|-------:|--------|
| a100 |  312 TFLOPs|  400 W | NVIDIA A100 Tensor Core GPU datasheet (SXM 80GB; 624 with sparsity) |
| h100 |  989 TFLOPs|  700 W | NVIDIA H100 datasheet (SXM5; 1,979 with sparsity); Llama 3 used 700 W H100s (arXiv:2407.21783, 3.3.1) |
| h200 |  989 TFLOPs|  700 W | NVIDIA H200 datasheet (SXM; same GH100 compute as H100, 141 GB HBM3e) |
| b200 | 2250 TFLOPs| 1000 W | NVIDIA HGX B200 datasheet (36 PFLOPs sparse FP16/BF16 per 8 GPUs = 4.5 sparse, 2.25 dense each; TDP configurable up to 1,000 W) |

Days of compute = FLOPs / (GPUs x peak x MFU). MFU (model FLOPs utilisation) defaults to 0.40:
Llama 3 405B reached 38-43% BF16 MFU on 8K-16K H100s (arXiv:2407.21783, Table 4).

Energy counts the GPUs' TDP for every wall-clock hour, times the data centre's PUE. That is an
upper bound for the GPUs (they draw less while idle) and a lower bound for the job (host CPUs,
NICs and switches are not counted). The default PUE 1.08 is Meta's reported fleet average for
2023 (Meta 2024 Sustainability Report).

    >>> from nonstop.plan.hardware import Cluster
    >>> round(Cluster(gpus=16_384, gpu="h100", mfu=400 / 989).compute_days(3.79e25), 1)
    66.9
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from nonstop.errors import UserError

SECONDS_PER_DAY: Final = 86_400.0

DEFAULT_MFU: Final = 0.40
"""Llama 3 405B's BF16 MFU was 38-43% (arXiv:2407.21783, Table 4)."""

DEFAULT_PUE: Final = 1.08
"""Meta's fleet power usage effectiveness for 2023 (Meta 2024 Sustainability Report)."""


@dataclass(frozen=True, kw_only=True)
class Gpu:
    """One GPU model's datasheet numbers."""

    name: str
    """The ``--gpu`` name."""
    peak_bf16_flops: float
    """Dense BF16 tensor-core peak in FLOP/s (no sparsity)."""
    tdp_w: float
    """Maximum board power in watts."""
    source: str
    """Where the numbers come from."""


GPUS: Final[dict[str, Gpu]] = {
    "a100": Gpu(
        name="a100",
        peak_bf16_flops=312e12,
        tdp_w=400.0,
        source="NVIDIA A100 datasheet, SXM 80GB: 312 TFLOPs dense BF16, 400 W",
    ),
    "h100": Gpu(
        name="h100",
        peak_bf16_flops=989e12,
        tdp_w=700.0,
        source="NVIDIA H100 datasheet, SXM5: 989 TFLOPs dense BF16, 700 W",
    ),
    "h200": Gpu(
        name="h200",
        peak_bf16_flops=989e12,
        tdp_w=700.0,
        source="NVIDIA H200 datasheet, SXM: 989 TFLOPs dense BF16, up to 700 W",
    ),
    "b200": Gpu(
        name="b200",
        peak_bf16_flops=2250e12,
        tdp_w=1000.0,
        source="NVIDIA HGX B200 datasheet: 2.25 PFLOPs dense BF16 per GPU, up to 1,000 W",
    ),
}


def get_gpu(name: str) -> Gpu:
    """The GPU called ``name`` (case-insensitive); a UserError naming the known ones otherwise."""
    try:
        return GPUS[name.lower()]
    except KeyError:
        raise UserError(f"unknown GPU type {name!r}; choose one of: {', '.join(GPUS)}") from None


@dataclass(frozen=True, kw_only=True)
class Cluster:
    """The hardware a plan runs on."""

    gpus: int
    """Number of GPUs training together."""
    gpu: str = "h100"
    """GPU type, a key of ``GPUS``."""
    mfu: float = DEFAULT_MFU
    """Model FLOPs utilisation: achieved training FLOP/s over the dense BF16 peak, in (0, 1]."""
    pue: float = DEFAULT_PUE
    """Power usage effectiveness of the data centre: facility power over IT power, >= 1."""
    tdp_w: float | None = None
    """Power per GPU in watts; None takes the datasheet TDP of ``gpu``."""

    def __post_init__(self) -> None:
        if isinstance(self.gpus, bool) or not isinstance(self.gpus, int) or self.gpus <= 0:
            raise UserError(f"gpus must be a positive whole number, got {self.gpus!r}")
        get_gpu(self.gpu)
        if not (math.isfinite(self.mfu) and 0 < self.mfu <= 1):
            raise UserError(f"mfu must be in (0, 1] (0.40 is typical), got {self.mfu!r}")
        if not (math.isfinite(self.pue) and self.pue >= 1):
            raise UserError(f"pue must be a number >= 1 (facility over IT power), got {self.pue!r}")
        if self.tdp_w is not None and not (math.isfinite(self.tdp_w) and self.tdp_w > 0):
            raise UserError(f"tdp must be a positive number of watts, got {self.tdp_w!r}")

    @property
    def spec(self) -> Gpu:
        """The datasheet of this cluster's GPU type."""
        return get_gpu(self.gpu)

    @property
    def power_w(self) -> float:
        """Power per GPU in watts: the override, or the datasheet TDP."""
        return self.spec.tdp_w if self.tdp_w is None else self.tdp_w

    @property
    def achieved_flops_per_gpu(self) -> float:
        """Sustained training FLOP/s per GPU: peak times MFU."""
        return self.spec.peak_bf16_flops * self.mfu

    def compute_seconds(self, flops: float) -> float:
        """Seconds of uninterrupted training to spend ``flops``."""
        return flops / (self.gpus * self.achieved_flops_per_gpu)

    def compute_days(self, flops: float) -> float:
        """Days of uninterrupted training to spend ``flops``."""
        return self.compute_seconds(flops) / SECONDS_PER_DAY

    def gpu_hours(self, days: float) -> float:
        """GPU-hours of holding the whole cluster for ``days``."""
        return self.gpus * days * 24.0

    def energy_mwh(self, days: float) -> float:
        """Facility energy in MWh of the cluster at TDP for ``days``, times PUE."""
        return self.gpu_hours(days) * self.power_w * self.pue / 1e6

    def power_mw(self) -> float:
        """Facility power in MW of the cluster at TDP, times PUE."""
        return self.gpus * self.power_w * self.pue / 1e6
