"""The chaos peer's rank: the demo workload under plain torchrun, as a torchrun user runs it.

    torchrun ... -m benchmarks.chaos.peer_worker --steps 60 --checkpoint-every 5 ...

Two things only, both plumbing of the comparison, neither a help to torchrun:

- the attempt number nonstop.runtime writes (events, the injector's attempt= keys) continues
  across relaunches of torchrun: $BENCH_ATTEMPT_OFFSET (attempts before this torchrun) plus
  torchrun's TORCHELASTIC_RESTART_COUNT, as a scheduler's requeue count would;
- init_process_group(timeout=$BENCH_PG_TIMEOUT_S): the demo script hard-codes 5 minutes; the
  peer gets nonstop's floor for unmodified scripts (COLLECTIVE_FLOOR_S, 60 s), the only hang
  detection a torchrun job has.
"""

from __future__ import annotations

import os
import runpy
import sys
from datetime import timedelta

MODULE = "nonstop.workloads.llama.train"


def main() -> None:
    offset = int(os.environ.get("BENCH_ATTEMPT_OFFSET", "0"))
    restarts = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", "0"))
    os.environ["NONSTOP_ATTEMPT"] = str(offset + restarts)
    timeout_s = os.environ.get("BENCH_PG_TIMEOUT_S")
    if timeout_s:
        import torch.distributed as dist

        init = dist.init_process_group

        def init_process_group(*args: object, **kwargs: object) -> object:
            kwargs["timeout"] = timedelta(seconds=float(timeout_s))
            return init(*args, **kwargs)  # type: ignore[arg-type]

        dist.init_process_group = init_process_group  # type: ignore[assignment]
    sys.argv = [MODULE, *sys.argv[1:]]
    runpy.run_module(MODULE, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
