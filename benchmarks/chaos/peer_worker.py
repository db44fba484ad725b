"""The chaos peer's rank: the demo workload under plain torchrun, as a torchrun user runs it.

    torchrun ... -m benchmarks.chaos.peer_worker --steps 60 --checkpoint-every 5 ...

Two things only, both plumbing of the comparison, neither a help to torchrun:

- the attempt number nonstop.runtime writes (events, the injector's attempt= keys) continues
  across relaunches of torchrun: $BENCH_ATTEMPT_OFFSET (attempts before this torchrun) plus
  torchrun's TORCHELASTIC_RESTART_COUNT, as a scheduler's requeue count would;
- torchrun's strongest hang detection, as benchmarks/bench_hang_detection.py arms it:
  init_process_group(timeout=$BENCH_PG_TIMEOUT_S) (the demo script hard-codes 5 minutes; the
  peer gets STEP_FLOOR_S, 5 s) and every step inside
  `torch.distributed.elastic.timer.expires(after=$BENCH_TIMER_S)` served by torchrun's
  FileTimerServer (TORCHELASTIC_ENABLE_FILE_TIMER=1, TORCHELASTIC_TIMER_FILE): the demo's
  steps are nonstop.runtime's `rt.step` blocks, so the timer wraps that block, as a torchrun
  user wraps their step.
"""

from __future__ import annotations

import os
import runpy
import sys
from datetime import timedelta

MODULE = "nonstop.workloads.llama.train"


def _time_every_step(timer_s: float, timer_file: str) -> None:
    """Every `rt.step` block inside torch's elastic timer: the agent's FileTimerServer
    SIGKILLs a rank whose step outlives `timer_s`."""
    from typing import Any

    from torch.distributed.elastic import timer

    from nonstop.runtime import StepTimer

    timer.configure(timer.FileTimerClient(timer_file))
    enter, leave = StepTimer.__enter__, StepTimer.__exit__

    def __enter__(self: StepTimer) -> StepTimer:
        self._bench_timer = timer.expires(after=timer_s)  # type: ignore[attr-defined]
        self._bench_timer.__enter__()  # type: ignore[attr-defined]
        return enter(self)

    def __exit__(self: StepTimer, *exc: Any) -> Any:
        try:
            return leave(self, *exc)
        finally:
            self._bench_timer.__exit__(*exc)  # type: ignore[attr-defined]

    StepTimer.__enter__ = __enter__  # type: ignore[method-assign]
    StepTimer.__exit__ = __exit__  # type: ignore[method-assign]


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
    timer_s = float(os.environ.get("BENCH_TIMER_S", "0"))
    timer_file = os.environ.get("TORCHELASTIC_TIMER_FILE")
    if timer_s > 0 and timer_file:
        _time_every_step(timer_s, timer_file)
    sys.argv = [MODULE, *sys.argv[1:]]
    runpy.run_module(MODULE, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
