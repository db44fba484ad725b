"""nonstop.faults without processes: specs that could never fire are refused, and a fault is
logged as injected only when it really takes effect (main-thread delivery by a real signal)."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time

import pytest

from nonstop import envvars, faults
from nonstop.errors import UserError


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("exception@step=3,signal=SIGKILL", "does not use signal="),
        ("hang@step=3,factor=2", "does not use factor="),
        ("slow@step=3,factor=2", "does not use step="),
        ("crash@step=3,after=2", "not both"),
        ("crash@step=-1", "0 or more"),
        ("crash@step=1,rank=-2", "0 or more"),
        ("crash@step=1,attempt=-1", "0 or more"),
        ("crash@after=-3", ">= 0"),
        ("crash@step=1,code=300", "0-255"),
        ("crash@step=1,signal=SIGSTOP", "does not end a process"),
        ("crash@step=1,signal=_DFL", "unknown signal"),  # SIG_DFL is no signal
        ("crash@step=1,step=2", "twice"),
        ("slow@after=2,to=9,factor=2", "for=SECONDS"),
        ("slow@from=5,to=5,factor=2", "must be after"),
        ("diskfull@step=5,to=3", "must be after"),
        ("diskfull@after=5,to=9", "for=SECONDS"),
        ("diskfull@step=5,for=3", "goes with after="),
        ("crash@step=1,xid=0", "Xid"),
    ],
)
def test_specs_that_could_never_fire_are_refused(spec, why):
    with pytest.raises(UserError, match=why):
        faults.parse(spec)


def test_run_time_checks_need_the_job():
    assert faults.check_run("crash@step=1,rank=3", nproc_per_node="2", nnodes="1:2")
    with pytest.raises(UserError, match=r"ranks 0-1"):
        faults.check_run("crash@step=1,rank=2", nproc_per_node="2", nnodes="1")
    with pytest.raises(UserError, match="needs a peer"):
        faults.check_run("hang@step=1,how=collective", nproc_per_node="1", nnodes="1")
    with pytest.raises(UserError, match="--no-python"):
        faults.check_run("crash@after=1", nproc_per_node="2", nnodes="1", no_python=True)
    assert faults.check_run("crash@step=1,rank=9", nproc_per_node="auto", nnodes="1")


def test_nonstop_run_refuses_a_fault_that_cannot_fire_with_one_line_and_exit_2(tmp_path):
    script = tmp_path / "never_runs.py"
    script.write_text("raise SystemExit('the run must not start')\n")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "nonstop.cli",
            "run",
            "--nproc-per-node",
            "2",
            "--run-dir",
            str(tmp_path / "run"),
            "--inject",
            "crash@step=4,rank=2",
            str(script),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip().count("\n") == 0 and "rank=2 is not in this job" in r.stderr
    assert "Traceback" not in r.stderr


class Log:
    def __init__(self) -> None:
        self.records: list[tuple[str, str]] = []

    def __call__(self, f: faults.Fault, msg: str) -> None:
        self.records.append((f.spec, msg))


def injector(*specs: str) -> tuple[faults.Injector, Log]:
    log = Log()
    return faults.Injector(faults.parse_all(list(specs)), attempt=0, rank=0, report=log), log


def test_time_keyed_exception_is_raised_in_the_main_thread_by_a_signal():
    inj, log = injector("exception@after=2,rank=0")
    old = signal.getsignal(faults.main_thread_signal())
    try:
        faults.install_main_thread_delivery(inj)
        assert inj.in_main_thread is not None
        inj.on_tick(1.0)  # too early
        assert log.records == []
        with pytest.raises(RuntimeError, match="injected exception after 2 s"):
            inj.on_tick(2.5)  # the handler runs at the next bytecode: here, in the main thread
            for _ in range(100):
                time.sleep(0.01)
        assert [s for s, _ in log.records] == ["exception@after=2,rank=0"]
        inj.on_tick(3.0)  # once
        assert len(log.records) == 1
    finally:
        signal.signal(faults.main_thread_signal(), old)


def test_time_keyed_slow_pauses_the_main_thread(monkeypatch):
    inj, log = injector("slow@after=1,for=10,rank=0,factor=3")
    pauses: list[float] = []
    monkeypatch.setattr(faults.time, "sleep", pauses.append)  # the clock, not the fault
    clock = iter([100.0, 100.0, 100.5, 101.5])  # each pause: its start, its end
    monkeypatch.setattr(faults.time, "monotonic", lambda: next(clock))
    inj.in_main_thread = lambda fn: fn()  # what the signal handler does, synchronously here
    inj.on_tick(0.5)
    assert pauses == [] and log.records == []
    inj.on_tick(1.0)  # the first pause starts the window
    inj.on_tick(1.5)  # ran 0.5 s since: pause 2 x 0.5 s
    assert pauses == [0.0, 1.0]
    assert len(log.records) == 1
    inj.on_tick(11.5)  # for=10 is over
    assert pauses == [0.0, 1.0]


def test_a_disk_nobody_writes_to_is_not_logged_as_injected():
    inj, log = injector("diskfull@step=3,rank=0", "crash@step=99,rank=0")
    inj.on_step(3)
    assert inj.disk_full and log.records == []  # armed, but nothing refused a write
    reasons = dict((f.kind, why) for f, why in inj.unfired())
    assert "Checkpointer" in reasons["diskfull"]
    assert reasons["crash"] == "step 99 was not reached"


def test_step_keyed_faults_on_a_script_without_steps_say_why_at_exit(capsys):
    inj, _ = injector("crash@step=5,rank=0", "slow@rank=0,factor=2")
    events: list[tuple[str, dict]] = []
    inj.report_unfired(lambda kind, **p: events.append((kind, p)))
    assert [p["spec"] for _, p in events] == ["crash@step=5,rank=0", "slow@rank=0,factor=2"]
    assert all("reports no steps" in p["reason"] for _, p in events)
    assert "never fired on rank 0" in capsys.readouterr().err
    inj.report_unfired(lambda kind, **p: events.append((kind, p)))
    assert len(events) == 2  # once


def test_a_full_disk_is_logged_at_the_first_refused_write(tmp_path):
    from nonstop.checkpoint.storage import storage_for_faults

    class Events:
        pass

    ev = Events()
    ev.faults, log = injector("diskfull@step=2,rank=0,to=4")  # type: ignore[attr-defined]
    storage = storage_for_faults(tmp_path, ev)
    assert storage is not None
    with storage.open_write("a") as f:
        f.write(b"fine")
    ev.faults.on_step(2)  # type: ignore[attr-defined]
    assert log.records == []
    with pytest.raises(OSError) as e, storage.open_write("b") as f:
        f.write(b"refused")
    assert e.value.errno == errno.ENOSPC
    assert [s for s, _ in log.records] == ["diskfull@step=2,rank=0,to=4"]
    ev.faults.on_step(4)  # type: ignore[attr-defined]  # healed
    with storage.open_write("c") as f:
        f.write(b"fine again")
    assert storage_for_faults(tmp_path, Events()) is None


def test_slow_applies_to_a_step_without_a_compute_phase(tmp_path, monkeypatch):
    import nonstop.runtime as ns

    monkeypatch.setenv(faults.ENV_FAULTS, "slow@rank=0,factor=3,from=1,to=2")
    rt = ns.Runtime(run_dir=tmp_path, run_id="t", attempt=0, rank=0, world_size=1, host="h")
    pauses: list[float] = []
    real_sleep = time.sleep

    def sleep(s: float) -> None:  # the step's pause; the writer's waits sleep for real
        if sys._getframe(1).f_code.co_name == "__exit__":
            pauses.append(s)
        else:
            real_sleep(s)

    monkeypatch.setattr(ns.time, "sleep", sleep)
    for step in range(3):
        with rt.step(step):
            pass
    rt.close()
    assert len(pauses) == 1 and pauses[0] >= 0  # step 1 only, (factor - 1) x its duration
    assert rt.faults.fired == {"slow@rank=0,factor=3,from=1,to=2"}


# -- issue 26: recorded only once it took effect, on scripts that do not cooperate ---------------

_XID_CHILD = """
import os, sys
from nonstop import faults
from nonstop import kmsg
# a rank that is not root: /dev/kmsg refuses its write (and the host's kernel log stays clean)
kmsg.write_kmsg = lambda text, path=kmsg.KMSG: False
path = os.environ.get("NONSTOP_KERNEL_LOG")
def report(f, msg):  # the injector's record: was the Xid line already written?
    there = bool(path) and os.path.exists(path) and "Xid" in open(path).read()
    print(f"RECORD {f.spec} | {msg} | line written: {there}", flush=True)
inj = faults.Injector(faults.parse_all("crash@step=1,rank=0,xid=79"), attempt=0, rank=0,
                      report=report)
inj.on_step(1)
"""


def _xid_child(kernel_log: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != envvars.KERNEL_LOG}
    if kernel_log is not None:
        env[envvars.KERNEL_LOG] = kernel_log
    return subprocess.run(
        [sys.executable, "-c", _XID_CHILD], capture_output=True, text=True, timeout=60, env=env
    )


def test_an_xid_left_nowhere_is_not_recorded(tmp_path):
    r = _xid_child(None)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Xid 79 left nowhere" in r.stderr
    record = [line for line in r.stdout.splitlines() if line.startswith("RECORD")]
    assert len(record) == 1 and "xid" not in record[0].lower(), record
    assert record[0].startswith("RECORD crash@step=1,rank=0 |")


def test_an_xid_is_recorded_after_its_line_is_written(tmp_path):
    r = _xid_child(str(tmp_path / "kernel.log"))
    assert r.returncode == 1, r.stdout + r.stderr
    record = [line for line in r.stdout.splitlines() if line.startswith("RECORD")]
    assert record == [
        "RECORD crash@step=1,rank=0,xid=79 | injected crash at step 1 on rank 0 "
        "(crash@step=1,rank=0,xid=79) | line written: True"
    ], r.stdout + r.stderr


def test_a_bitflip_with_nothing_to_flip_is_not_recorded():
    torch = pytest.importorskip("torch")
    from nonstop.runtime.fingerprint import flip_bit

    inj, log = injector("bitflip@step=3,rank=0")
    inj.on_step(3)
    f = inj.bitflip_due(3)
    assert f is not None
    counts = [torch.zeros(4, dtype=torch.int64)]  # a script whose watched tensors are integers
    inj.bitflip_done(f, 3, flip_bit(counts, bit=12))
    assert log.records == [] and counts[0].eq(0).all()
    assert dict((g.kind, why) for g, why in inj.unfired())["bitflip"].startswith(
        "no floating-point parameter"
    )
    weights = [torch.ones(4)]
    inj.bitflip_done(f, 3, flip_bit(weights, bit=12))
    assert [s for s, _ in log.records] == ["bitflip@step=3,rank=0"]
    assert "injected bitflip after step 3 (bit 12 of element 0: 1.0 ->" in log.records[0][1]
    assert inj.bitflip_due(3) is None  # once


def test_a_bitflip_in_a_script_that_watches_nothing_says_so():
    inj, log = injector("bitflip@step=3,rank=0")
    for step in range(6):  # steps reported, but rt.health.watch(model) never called
        inj.on_step(step)
    assert log.records == []
    assert "watches no parameters" in dict((f.kind, w) for f, w in inj.unfired())["bitflip"]


def test_loss_faults_are_recorded_when_applied_not_when_asked():
    inj, log = injector("nan@step=2,rank=0", "spike@step=4,factor=10")
    assert inj.loss_scale(4) == 10.0 and log.records == []  # a question is no injection
    for step in range(6):
        inj.on_step(step)
    assert log.records == []
    reasons = dict((f.kind, why) for f, why in inj.unfired())
    assert "never applies it" in reasons["nan"] and "never applies it" in reasons["spike"]
    assert inj.scale_loss(3.0, 1) == 3.0 and log.records == []
    loss = inj.scale_loss(3.0, 2)
    assert loss != loss  # NaN, applied here
    assert inj.scale_loss(3.0, 9, batch=4) == 30.0
    assert [s for s, _ in log.records] == ["nan@step=2,rank=0", "spike@step=4,factor=10"]


def test_a_loss_fault_for_a_script_that_never_applies_it_is_refused_before_the_run(tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("import torch\nloss = torch.ones(1)\n")
    with pytest.raises(UserError, match=r"never applies it .*scale_loss"):
        faults.check_run("nan@step=3,rank=0", nproc_per_node="1", nnodes="1", script=str(script))
    with pytest.raises(UserError, match="never applies it"):
        faults.check_run("spike@step=3", nproc_per_node="1", nnodes="1", script=str(script))
    assert faults.check_run("crash@step=3", nproc_per_node="1", nnodes="1", script=str(script))
    # the demo workload applies it (found without importing it: -m)
    assert faults.check_run(
        "nan@step=3,rank=0",
        nproc_per_node="1",
        nnodes="1",
        script="nonstop.workloads.llama.train",
        module=True,
    )
    r = subprocess.run(
        [
            *(sys.executable, "-m", "nonstop.cli", "run", "--nproc-per-node", "1"),
            *("--run-dir", str(tmp_path / "run"), "--inject", "spike@step=3", str(script)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip().count("\n") == 0 and "never applies it" in r.stderr
    assert not (tmp_path / "run").exists()
