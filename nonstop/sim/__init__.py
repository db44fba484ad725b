"""Reliability and power simulation of one synchronous training job (no torch).

nonstop simulate --gpus 16384 --days 54              # Llama 3's job, 1,000 trials
nonstop simulate --gpus 100000 --target-ettr 0.9      # what keeps 100k GPUs above 90%
nonstop simulate --gpus 100000 --replica-groups 98    # the same job as replica groups

>>> from nonstop.sim import SimConfig, simulate
>>> simulate(SimConfig(gpus=16_384, trials=100)).to_dict()["ettr_mean"] > 0.85
True
"""

from __future__ import annotations

from nonstop.sim.config import SimConfig
from nonstop.sim.interval import daly_interval_s, waste_fraction, young_interval_s
from nonstop.sim.replica import ReplicaGroups, ReplicaResult, simulate_replica_groups
from nonstop.sim.result import SimResult, simulate

__all__ = [
    "ReplicaGroups",
    "ReplicaResult",
    "SimConfig",
    "SimResult",
    "daly_interval_s",
    "simulate",
    "simulate_replica_groups",
    "waste_fraction",
    "young_interval_s",
]
