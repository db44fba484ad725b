"""`nonstop simulate`: Monte Carlo reliability and power of one synchronous training job.

    nonstop simulate                                   # Llama 3: 16,384 GPUs, 54 days
    nonstop simulate --gpus 100000 --days 365 --json
    nonstop simulate --gpus 100000 --target-ettr 0.9   # what keeps 100k GPUs above 90%
    nonstop simulate --sensitivity                     # ETTR at half and double each knob
    nonstop simulate --power                           # MW swings, ramps, mitigations
    nonstop simulate --from-run runs/RUN_DIR           # rates and costs measured in a run
    nonstop simulate --detection 60 --detection nccl_watchdog_timeout=600
    nonstop simulate --gpus 100000 --replica-groups 98  # + replica groups (torchft/HSDP)
    nonstop simulate --reproduce ft-hsdp               # Meta's FT-HSDP, 44% -> 80%

Bad input raises UserError (one line, exit 2); argparse exits 2 on unknown options.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from nonstop import taxonomy
from nonstop.errors import UserError
from nonstop.sim import render
from nonstop.sim.calibrate import observed_fields
from nonstop.sim.config import SimConfig
from nonstop.sim.engine import auto_interval_s
from nonstop.sim.health import HealthConfig, simulate_health
from nonstop.sim.power import PowerConfig, power_summary
from nonstop.sim.project import compare, default_groups, projection
from nonstop.sim.replica import ReplicaGroups, simulate_replica_groups
from nonstop.sim.reproduce import ft_hsdp
from nonstop.sim.result import MAX_EVENTS_PER_TRIAL, expected_events, simulate
from nonstop.sim.search import sensitivity, target_search

Progress = Callable[[int, int], None]


def _seconds_or_auto(text: str) -> float | None:
    if text == "auto":
        return None
    return float(text)


def _per_category(values: list[str], flag: str) -> tuple[float | None, dict[str, float]]:
    """`--flag 60 --flag cat=600` -> (60, {cat: 600}); the last plain value wins."""
    default: float | None = None
    per: dict[str, float] = {}
    for v in values:
        key, eq, num = v.partition("=")
        try:
            if eq:
                if key not in taxonomy.IDS:
                    raise UserError(
                        f"{flag} {v}: unknown category {key!r}; one of: {', '.join(taxonomy.IDS)}"
                    )
                per[key] = float(num)
            else:
                default = float(v)
        except ValueError:
            raise UserError(f"{flag} {v}: expected a number or CATEGORY=NUMBER") from None
    return default, per


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="nonstop simulate",
        description="Monte Carlo simulation of one synchronous training job: interruptions, "
        "ETTR, badput, checkpoint interval, power.",
    )
    a = p.add_argument
    a("--gpus", type=int, default=taxonomy.SNAPSHOT_GPUS, help="GPUs in the job (16384)")
    a("--gpus-per-node", type=int, default=8, help="GPUs per node (8)")
    a("--days", type=float, default=float(taxonomy.SNAPSHOT_DAYS), help="window in days (54)")
    a("--trials", type=int, default=1000, help="Monte Carlo trials (1000)")
    a("--seed", type=int, default=0, help="random seed (0)")
    g = p.add_argument_group("failures")
    g.add_argument(
        "--failure-rate",
        type=float,
        metavar="PER_NODE_DAY",
        help="unexpected interruptions per node-day, Llama 3 mix (default: Llama 3)",
    )
    g.add_argument(
        "--from-run", metavar="RUN_DIR", help="use rates and costs measured in a run's ledger"
    )
    g.add_argument(
        "--weibull-shape",
        type=float,
        metavar="K",
        help="Weibull inter-arrival times with shape K, 0.1-10 (default exponential)",
    )
    g.add_argument("--no-planned", action="store_true", help="no planned maintenance stops")
    g = p.add_argument_group("job behaviour (seconds)")
    g.add_argument(
        "--checkpoint-interval",
        type=_seconds_or_auto,
        default=None,
        metavar="S|auto",
        help="compute between checkpoints (auto: Daly's optimum)",
    )
    g.add_argument("--checkpoint-blocking", type=float, metavar="S", help="stall per save (10)")
    g.add_argument(
        "--detection",
        action="append",
        default=[],
        metavar="S|CAT=S",
        help="detection latency, repeatable per category (60)",
    )
    g.add_argument("--restart", type=float, metavar="S", help="restart after a stop (300)")
    g.add_argument("--health-check", type=float, metavar="S", help="health checks (60)")
    g.add_argument(
        "--manual-prob",
        action="append",
        default=[],
        metavar="P|CAT=P",
        help="chance a failure needs a human (3/419), repeatable per category",
    )
    g.add_argument("--manual", type=float, metavar="S", help="manual intervention (14400)")
    g.add_argument("--spares", type=int, metavar="N", help="hot spare nodes (unlimited)")
    g.add_argument(
        "--node-repair",
        type=float,
        metavar="S",
        help="time before an excluded node is a spare again (259200)",
    )
    g.add_argument(
        "--no-exclusion",
        action="store_true",
        help="do not exclude nodes on hardware faults (retry, then a human)",
    )
    g.add_argument(
        "--straggler-rate",
        type=float,
        metavar="PER_NODE_DAY",
        help="straggler onsets per node-day (0)",
    )
    g.add_argument("--straggler-slowdown", type=float, metavar="F", help="extra step time (0.1)")
    g.add_argument(
        "--straggler-detection",
        type=float,
        metavar="S",
        help="time to detect and exclude a straggler (600)",
    )
    g.add_argument(
        "--diurnal-dvfs",
        type=float,
        metavar="A",
        help="diurnal throughput swing from DVFS, e.g. 0.015 (0)",
    )
    g = p.add_argument_group(
        "replica groups (torchft / HSDP: a failure stops one group, the others train on)"
    )
    g.add_argument(
        "--replica-groups",
        type=int,
        metavar="G",
        help="also simulate the job as G replica groups and compare the two designs",
    )
    g.add_argument(
        "--heal-s",
        type=float,
        metavar="S",
        help="a restarted group's heal from a live peer (60)",
    )
    g.add_argument(
        "--reconfigure-s",
        type=float,
        metavar="S",
        help="job-wide stall after detection while the quorum re-forms (10)",
    )
    g.add_argument(
        "--quorum-ms", type=float, metavar="MS", help="per-step quorum and commit cost (10)"
    )
    g.add_argument(
        "--group-restart",
        type=float,
        metavar="S",
        help="a group's restart before its heal (default: --restart)",
    )
    g.add_argument(
        "--spare-groups",
        type=int,
        metavar="N",
        help="hot spare groups that take a failed group's place after its heal (0)",
    )
    g.add_argument(
        "--reproduce",
        choices=["ft-hsdp"],
        help="reproduce a published result from its stated inputs (Meta's FT-HSDP)",
    )
    g = p.add_argument_group("analyses")
    g.add_argument("--sensitivity", action="store_true", help="ETTR at half and double each knob")
    g.add_argument(
        "--target-ettr",
        type=float,
        metavar="E",
        help="search each knob's value that keeps mean ETTR >= E",
    )
    g.add_argument("--power", action="store_true", help="power draw, swings, ramps, mitigations")
    g.add_argument("--gpu-compute-w", type=float, default=650.0, metavar="W")
    g.add_argument("--gpu-comm-w", type=float, default=350.0, metavar="W")
    g.add_argument("--gpu-idle-w", type=float, default=100.0, metavar="W")
    g.add_argument("--power-floor-w", type=float, default=450.0, metavar="W")
    g.add_argument(
        "--ramp", type=float, default=60.0, metavar="S", help="staggered restart ramp length (60)"
    )
    g = p.add_argument_group("training health: silent data corruption and loss spikes (--health)")
    g.add_argument(
        "--health",
        action="store_true",
        help="detection latency, rollback cost and the fingerprint interval trade-off",
    )
    g.add_argument(
        "--step-time",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds per optimizer step, for --health and the replica groups' quorum (5)",
    )
    g.add_argument(
        "--sdc-rate",
        type=float,
        default=None,
        metavar="R",
        help="silent data corruptions per node-day (Llama 3: 6 in 54 days, 2,048 nodes)",
    )
    g.add_argument(
        "--spike-rate", type=float, default=0.0, metavar="R", help="loss spikes per job-day (0)"
    )
    g.add_argument(
        "--fingerprint-every",
        type=int,
        default=10,
        metavar="K",
        help="steps between replica fingerprint checks; 0 = before checkpoints only (10)",
    )
    g.add_argument(
        "--fingerprint-cost",
        type=float,
        default=0.01,
        metavar="S",
        help="seconds per fingerprint (0.01; benchmarks/bench_guards.py measures it)",
    )
    g.add_argument(
        "--guard-cost",
        type=float,
        default=0.0005,
        metavar="S",
        help="seconds per step of the guards' all-reduce (0.0005)",
    )
    a("--json", action="store_true", help="print one JSON object")
    return p


def health_config(ns: argparse.Namespace, config: SimConfig) -> HealthConfig:
    """The --health analysis for the simulated job: its size, window, checkpoint interval and
    restart time, with the health flags; UserError naming a bad value."""
    extra = {} if ns.sdc_rate is None else {"sdc_per_node_day": ns.sdc_rate}
    try:
        return HealthConfig(
            gpus=config.gpus,
            gpus_per_node=config.gpus_per_node,
            days=config.days,
            step_s=ns.step_time,
            spikes_per_day=ns.spike_rate,
            fingerprint_every=ns.fingerprint_every,
            fingerprint_s=ns.fingerprint_cost,
            guard_s=ns.guard_cost,
            checkpoint_interval_s=auto_interval_s(config),
            restart_s=config.restart_s,
            trials=min(config.trials, 2000),
            seed=config.seed,
            **extra,
        )
    except ValueError as e:
        raise UserError(f"--health: {e}") from None


def config_from_args(
    ns: argparse.Namespace,
    calibrated: dict[str, Any] | None = None,
    sources: dict[str, Any] | None = None,
) -> SimConfig:
    """Defaults, then what a run measured (--from-run), then explicit flags. With --from-run,
    `calibrated` (when given) receives how far the measured failure rate can be trusted, and
    `sources` (when given) where each field came from ("measured", "flag") and, under
    "heal", the run's heal time and its source."""
    if ns.from_run is not None and ns.failure_rate is not None:
        raise UserError("--failure-rate and --from-run both set the failure rates; give one")
    if ns.gpus <= 0:
        raise UserError(f"--gpus must be a positive number of GPUs, got {ns.gpus}")
    fields: dict[str, Any] = {}
    if ns.from_run is not None:
        measured, trust, heal = observed_fields(ns.from_run)
        fields.update(measured)
        if calibrated is not None:
            calibrated.update(trust)
        if sources is not None:
            sources.update(dict.fromkeys(measured, f"measured in {ns.from_run}"))
            sources["heal"] = heal
    detection, detection_per = _per_category(ns.detection, "--detection")
    manual_p, manual_per = _per_category(ns.manual_prob, "--manual-prob")
    flags = {
        "failure_rate_per_node_day": ns.failure_rate,
        "weibull_shape": ns.weibull_shape,
        "checkpoint_interval_s": ns.checkpoint_interval,
        "checkpoint_blocking_s": ns.checkpoint_blocking,
        "detection_s": detection,
        "restart_s": ns.restart,
        "health_check_s": ns.health_check,
        "manual_prob": manual_p,
        "manual_s": ns.manual,
        "spare_nodes": ns.spares,
        "node_repair_s": ns.node_repair,
        "straggler_rate_per_node_day": ns.straggler_rate,
        "straggler_slowdown": ns.straggler_slowdown,
        "straggler_detection_s": ns.straggler_detection,
        "diurnal_dvfs": ns.diurnal_dvfs,
    }
    given = {k: v for k, v in flags.items() if v is not None}
    fields.update(given)
    if sources is not None:
        sources.update(dict.fromkeys(given, "flag"))
        if detection_per:
            sources["detection_s"] = "flag"
    try:
        return SimConfig(
            gpus=ns.gpus,
            gpus_per_node=ns.gpus_per_node,
            days=ns.days,
            trials=ns.trials,
            seed=ns.seed,
            planned=not ns.no_planned,
            exclude_nodes=not ns.no_exclusion,
            detection_by_category_s=detection_per,
            manual_prob_by_category=manual_per,
            **fields,
        )
    except ValueError as e:
        raise UserError(str(e).replace("SimConfig.", "")) from None


def design_from_args(ns: argparse.Namespace) -> ReplicaGroups | None:
    """The replica-group design of --replica-groups and its cost flags; None without it.
    The cost flags alone are refused unless --from-run projects them."""
    costs = {
        "--heal-s": ns.heal_s,
        "--reconfigure-s": ns.reconfigure_s,
        "--quorum-ms": ns.quorum_ms,
        "--group-restart": ns.group_restart,
        "--spare-groups": ns.spare_groups,
    }
    given = {k: v for k, v in costs.items() if v is not None}
    if ns.replica_groups is None and ns.from_run is None:
        if given:
            raise UserError(f"{', '.join(given)} needs --replica-groups G (or --from-run)")
        return None
    fields: dict[str, Any] = {"step_s": ns.step_time}
    if ns.heal_s is not None:
        fields["heal_s"] = ns.heal_s
    if ns.reconfigure_s is not None:
        fields["reconfigure_s"] = ns.reconfigure_s
    if ns.quorum_ms is not None:
        fields["quorum_s"] = ns.quorum_ms / 1000.0
    if ns.group_restart is not None:
        fields["group_restart_s"] = ns.group_restart
    if ns.spare_groups is not None:
        fields["spare_groups"] = ns.spare_groups
    groups = ns.replica_groups
    if groups is None:  # --from-run with cost flags: the projection sizes the groups
        groups = default_groups(ns.gpus, ns.gpus_per_node)
    try:
        return ReplicaGroups(groups=groups, **fields)
    except ValueError as e:
        msg = str(e).replace("ReplicaGroups.groups", "--replica-groups")
        raise UserError(msg.replace("ReplicaGroups.", "")) from None


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[str], Progress] | None]:
    """A rich progress bar on stderr, only for a terminal and never with --json."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress as Bar

    with Bar(console=Console(stderr=True), transient=True) as bar:

        def task(label: str) -> Progress:
            tid = bar.add_task(label, total=None)

            def update(done: int, total: int) -> None:
                bar.update(tid, completed=done, total=total or None)

            return update

        yield task


def _project(
    ns: argparse.Namespace,
    config: SimConfig,
    sources: dict[str, Any],
    design: ReplicaGroups | None,
) -> dict[str, Any]:
    """--from-run's projection of the run's costs to 16,384 and 100,000 GPUs, both designs."""
    heal = sources.pop("heal", (None, "default"))
    if ns.heal_s is not None:
        heal = (ns.heal_s, "flag")
    return projection(
        config,
        sources=sources,
        heal=heal,
        design=design,
        scale_groups=ns.replica_groups is not None,
    )


def _projection_only(
    ns: argparse.Namespace,
    config: SimConfig,
    sources: dict[str, Any],
    design: ReplicaGroups | None,
    calibrated: dict[str, Any],
) -> dict[str, Any]:
    """What --from-run can still say when the run's own rate cannot be simulated at --gpus."""
    skipped = (
        f"not simulating the run's own failure rate on {config.gpus:,} GPUs (about "
        f"{expected_events(config):.3g} interruptions a trial over {config.days:g} days); "
        "its costs are projected with Llama 3's rates below"
    )
    out: dict[str, Any] = {"gpus": config.gpus, "days": config.days, "skipped": skipped}
    out["projection"] = _project(ns, config, sources, design)
    if calibrated:
        out["calibration"] = calibrated
    return out


def main(argv: list[str]) -> int:
    ns = build_parser().parse_args(argv)
    if ns.reproduce is not None:
        rep = ft_hsdp(trials=ns.trials, seed=ns.seed)
        if ns.json:
            print(json.dumps(rep))
        else:
            render.print_reproduction(rep)
        return 0
    calibrated: dict[str, Any] = {}
    sources: dict[str, Any] = {}
    config = config_from_args(ns, calibrated, sources)
    design = design_from_args(ns)
    if calibrated.get("warning"):
        print(f"nonstop simulate: warning: {calibrated['warning']}", file=sys.stderr)
    try:
        power = PowerConfig(
            compute_w=ns.gpu_compute_w,
            comm_w=ns.gpu_comm_w,
            idle_w=ns.gpu_idle_w,
            floor_w=ns.power_floor_w,
            ramp_s=ns.ramp,
        )
    except ValueError as e:
        raise UserError(str(e).replace("PowerConfig.", "")) from None
    if ns.target_ettr is not None and not 0 < ns.target_ettr < 1:
        raise UserError(f"--target-ettr must be between 0 and 1, got {ns.target_ettr}")

    if ns.from_run is not None and expected_events(config) > MAX_EVENTS_PER_TRIAL:
        # A short run's own rate (two failures in minutes) at --gpus is millions of
        # interruptions a trial: nothing to simulate there, but its costs still project.
        out = _projection_only(ns, config, sources, design, calibrated)
        print(f"nonstop simulate: {out['skipped']}", file=sys.stderr)
        if ns.json:
            print(json.dumps(out))
        else:
            render.print_all(out)
        return 0
    show = not ns.json and sys.stderr.isatty()
    with _progress(show) as task:
        result = simulate(config, task("simulating") if task else None)
        out = result.to_dict()
        if ns.sensitivity:
            out["sensitivity"] = sensitivity(config, task("sensitivity") if task else None)
        if ns.target_ettr is not None:
            out["target"] = target_search(
                config, ns.target_ettr, task("target search") if task else None
            )
        if ns.power:
            out["power"] = power_summary(result, power)
        if ns.health:
            out["health"] = simulate_health(health_config(ns, config))
        if design is not None and ns.replica_groups is not None:
            groups = simulate_replica_groups(
                config, design, task("replica groups") if task else None
            ).to_dict()
            out["replica_groups"] = groups
            out["designs"] = compare(config, design, out, groups)
        if ns.from_run is not None:
            out["projection"] = _project(ns, config, sources, design)
    if calibrated:
        out["calibration"] = calibrated
    if ns.json:
        print(json.dumps(out))
    else:
        render.print_all(out)
    return 0
