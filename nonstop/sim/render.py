"""Readable tables for `nonstop simulate` (rich), from the same dict `--json` prints."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from nonstop import taxonomy

_BADPUT_LABELS = {
    "startup": "first start",
    "checkpoint": "checkpoint blocking",
    "lost_progress": "lost progress (redone work)",
    "detection": "failure detection",
    "manual": "manual intervention",
    "spare_wait": "waiting for a spare node",
    "recovery": "recovery (health checks, restart)",
    "straggler": "straggler slowdown",
    "thermal": "diurnal DVFS",
}


def _h(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def summary_table(d: dict[str, Any]) -> Table:
    t = Table(
        title=f"{d['gpus']:,} GPUs ({d['nodes']:,} nodes), {d['days']:g} days, "
        f"{d['trials']:,} trials",
        show_header=True,
    )
    t.add_column("figure")
    t.add_column("mean", justify="right")
    t.add_column("p5", justify="right")
    t.add_column("p95", justify="right")
    t.add_row("ETTR", _pct(d["ettr_mean"]), _pct(d["ettr_p5"]), _pct(d["ettr_p95"]), style="bold")
    t.add_row(
        "unexpected interruptions",
        f"{d['interruptions_mean']:.1f}",
        f"{d['interruptions_p5']:.0f}",
        f"{d['interruptions_p95']:.0f}",
    )
    t.add_row("planned stops", f"{d['planned_mean']:.1f}", "", "")
    if d["straggler_exclusions_mean"]:
        t.add_row("straggler exclusions", f"{d['straggler_exclusions_mean']:.1f}", "", "")
    t.add_row("job MTBI", _h(d["mtbi_s"]), "", "")
    t.add_row("checkpoint interval used", _h(d["checkpoint_interval_s"]), "", "")
    t.add_row("optimal interval (Daly)", _h(d["optimal_checkpoint_interval_s"]), "", "")
    t.add_row("first-order model ETTR", _pct(d["first_order_ettr"]), "", "")
    return t


def badput_table(d: dict[str, Any]) -> Table:
    wall = d["days"] * 86_400.0
    t = Table(title="Where the time went (mean per trial)")
    t.add_column("badput")
    t.add_column("time", justify="right")
    t.add_column("share of wall", justify="right")
    for k, v in sorted(d["badput_s"].items(), key=lambda kv: -kv[1]):
        if v > 0:
            t.add_row(_BADPUT_LABELS.get(k, k), _h(v), f"{100 * v / wall:.2f}%")
    return t


def category_table(d: dict[str, Any]) -> Table:
    t = Table(title="Interruptions by root cause (mean per trial)")
    t.add_column("category")
    t.add_column("count", justify="right")
    t.add_column("badput", justify="right")
    t.add_column("default action")
    lost = d["badput_by_category_s"]
    for cid, n in sorted(d["by_category"].items(), key=lambda kv: -kv[1]):
        c = taxonomy.get(cid)
        t.add_row(c.name, f"{n:.1f}", _h(lost.get(cid)), c.action)
    if d["planned_mean"]:
        t.add_row("Planned maintenance", f"{d['planned_mean']:.1f}", _h(lost.get("planned")), "")
    return t


def sensitivity_table(rows: list[dict[str, Any]]) -> Table:
    t = Table(title="Sensitivity: ETTR at half and double each knob (others held)")
    for col in ("knob", "value", "x0.5", "ETTR", "x2", "ETTR "):
        t.add_column(col, justify="left" if col == "knob" else "right")
    for r in rows:
        fmt = (lambda v: f"{v:.3g}") if r["unit"] != "s" else _h
        t.add_row(
            f"{r['knob']} ({r['unit']})" if r["unit"] != "s" else r["knob"],
            fmt(r["value"]),
            fmt(r["low_value"]),
            _pct(r["low_ettr"]),
            fmt(r["high_value"]),
            _pct(r["high_ettr"]),
        )
    return t


def target_tables(d: dict[str, Any]) -> list[Table]:
    t = Table(
        title=f"Reaching ETTR {_pct(d['target_ettr'])} (now {_pct(d['ettr'])}): "
        "the largest value of each knob alone"
    )
    t.add_column("knob")
    t.add_column("now", justify="right")
    t.add_column("at most", justify="right")
    for r in d["knobs"]:
        fmt = _h if r["unit"] == "s" else (lambda v: "-" if v is None else f"{v:.3g}")
        need = "unreachable" if r["max"] is None else fmt(r["max"])
        t.add_row(f"{r['knob']}", fmt(r["value"]), need)
    out = [t]
    rec = d["recipe"]
    if rec is not None:
        r = Table(title=f"A recipe that reaches it (ETTR {_pct(rec['ettr'])})")
        r.add_column("setting")
        r.add_column("value", justify="right")
        for key in ("checkpoint_blocking_s", "detection_s", "health_check_s", "restart_s"):
            r.add_row(key.removesuffix("_s").replace("_", " "), _h(rec[key]))
        r.add_row("manual intervention", _h(rec["manual_s"]))
        r.add_row("checkpoint interval (Daly)", _h(rec["checkpoint_interval_s"]))
        rng = rec["interval_range_s"]
        r.add_row("interval range", "-" if rng is None else f"{_h(rng[0])} - {_h(rng[1])}")
        spares = rec["fewest_spares"]
        r.add_row(
            f"spare nodes (repair {_h(rec['node_repair_s'])})",
            "unreachable" if spares is None else str(spares),
        )
        out.append(r)
    return out


def power_tables(d: dict[str, Any]) -> list[Table]:
    t = Table(title="Power")
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_row("training / stalled", f"{d['train_mw']:.1f} / {d['idle_mw']:.1f} MW")
    t.add_row("mean draw", f"{d['mean_mw']:.1f} MW")
    t.add_row("stall swing (all GPUs idle)", f"{d['stall_swing_mw']:.1f} MW")
    t.add_row("step swing (compute vs communication)", f"{d['step_swing_mw']:.1f} MW")
    t.add_row("stops per day", f"{d['stops_per_day']:.1f}")
    t.add_row("checkpoint dips per day", f"{d['checkpoint_dips_per_day']:.0f}")
    t.add_row("energy over the window", f"{d['energy_mwh']:,.0f} MWh")
    t.add_row("of which badput", f"{d['badput_energy_mwh']:,.0f} MWh")
    m = Table(title="Mitigations")
    for col in ("mitigation", "swing", "ramp up", "ramp down", "extra energy"):
        m.add_column(col, justify="left" if col == "mitigation" else "right")
    for name, r in d["mitigations"].items():
        m.add_row(
            name.replace("_", " "),
            f"{r['swing_mw']:.1f} MW",
            f"{r['ramp_up_mw_per_s']:.2f} MW/s",
            f"{r['ramp_down_mw_per_s']:.2f} MW/s",
            f"{r['extra_energy_mwh']:,.0f} MWh ({r['extra_energy_pct']:.1f}%)",
        )
    return [t, m]


def health_table(d: dict[str, Any]) -> Table:
    """Silent data corruption and loss spikes against the fingerprint interval K: the guards'
    overhead, the compute lost to SDC and spike rollbacks, their sum (mean, p95 over trials)
    and the mean SDC detection latency. K = saves: checked only before each checkpoint."""
    c = d["config"]
    t = Table(
        title=f"Training health: {d['sdc_expected']:.1f} SDC and {d['spikes_expected']:.1f} "
        f"loss spikes expected; step {c['step_s']:g} s, checkpoint every "
        f"{_h(c['checkpoint_interval_s'])}; K* = {d['k_star']:.0f}"
    )
    for col in ("K", "guards", "SDC", "spikes", "wasted", "p95", "detection"):
        t.add_column(col, justify="right")

    def pct(x: float) -> str:
        return f"{100 * x:.3f}%"

    rows = [*d["sweep"], d["only_at_checkpoints"]]
    for r in rows:
        k = r["fingerprint_every"]
        mark = " (set)" if k == c["fingerprint_every"] else (" (best)" if k == d["best_k"] else "")
        t.add_row(
            ("saves" if k == 0 else str(k)) + mark,
            pct(r["overhead_fraction"]),
            pct(r["sdc_rollback_fraction"]),
            pct(r["spike_rollback_fraction"]),
            pct(r["wasted_fraction"]),
            pct(r["wasted_p95"]),
            _h(r["detection_latency_s"]),
        )
    return t


_REPLICA_LABELS = {
    "startup": "first start",
    "stall": "job-wide stall (detection, quorum re-forms)",
    "fewer_replicas": "fewer replicas (a group down)",
    "outage": "outage (every group down)",
    "checkpoint": "checkpoint blocking",
    "quorum": "per-step quorum",
    "lost_progress": "lost progress (in-flight steps, outages)",
    "straggler": "straggler slowdown",
    "thermal": "diurnal DVFS",
}


def designs_table(d: dict[str, Any]) -> Table:
    """Whole-job restarts beside replica groups for the same job and failures."""
    g, c = d["replica_groups"], d["designs"]
    wall = d["days"] * 86_400.0
    t = Table(
        title=f"Two designs, same failures: whole-job restarts or {g['replica_groups']} replica "
        f"groups of {g['gpus_per_group']:,.0f} GPUs"
    )
    t.add_column("figure")
    t.add_column("whole job", justify="right")
    t.add_column("replica groups", justify="right")
    t.add_row(
        "ETTR (p5-p95)",
        f"{_pct(d['ettr_mean'])} ({_pct(d['ettr_p5'])}-{_pct(d['ettr_p95'])})",
        f"{_pct(g['ettr_mean'])} ({_pct(g['ettr_p5'])}-{_pct(g['ettr_p95'])})",
        style="bold",
    )
    t.add_row("checkpoint interval", _h(d["checkpoint_interval_s"]), _h(g["checkpoint_interval_s"]))
    t.add_row("outages (every group down)", "-", f"{g['outages_mean']:.2f}")
    t.add_row("time with a group down", "-", _pct(g["fewer_replicas_fraction"]))
    for k, v in sorted(g["badput_s"].items(), key=lambda kv: -kv[1]):
        if v > 0:
            t.add_row(_REPLICA_LABELS.get(k, k), "", f"{100 * v / wall:.2f}%")
    t.caption = c["why"]
    return t


def projection_table(p: dict[str, Any]) -> Table:
    """The run's costs at 16,384 and 100,000 GPUs, both designs."""
    costs, src = p["costs"], p["sources"]
    t = Table(title="Projection with this run's costs and Llama 3's failure rates")
    for col in ("GPUs", "failures/day", "whole job", "replica groups", "groups", "choice"):
        t.add_column(col, justify="left" if col == "choice" else "right")
    for r in p["scales"]:
        t.add_row(
            f"{r['gpus']:,}",
            f"{r['failures_per_day']:.1f}",
            _pct(r["whole_job_ettr"]),
            _pct(r["replica_groups_ettr"]),
            f"{r['replica_groups']} x {r['gpus_per_group']:,.0f}",
            r["design"].replace("_", " "),
        )
    t.caption = "; ".join(
        f"{k.removesuffix('_s').replace('_', ' ')} {_h(v)} ({src[k]})" for k, v in costs.items()
    )
    return t


def print_reproduction(r: dict[str, Any], console: Console | None = None) -> None:
    """`nonstop simulate --reproduce ft-hsdp`: published against simulated, and the inputs."""
    con = console or Console()
    t = Table(title=f"Reproducing {r['source']}")
    t.add_column("ETTR")
    t.add_column("published", justify="right")
    t.add_column("simulated", justify="right")
    given, sim = r["given"], r["simulated"]
    t.add_row(
        f"whole job (stall {_h(given['whole_job_stall_s'])})",
        _pct(given["whole_job_ettr"]),
        _pct(sim["whole_job_ettr"]),
    )
    t.add_row(
        f"FT-HSDP (stall {_h(given['replica_stall_s'])})",
        _pct(given["replica_ettr"]),
        _pct(sim["replica_ettr"]),
    )
    con.print(t)
    b = r["bounds"]
    con.print(
        f"job MTBF derived from 44% at 10 min: {_h(r['derived']['job_mtbf_s'])} "
        f"({r['derived']['failures_per_day']:.0f} failures a day); the stall alone gives "
        f"{_pct(b['restart'])} (linear {_pct(b['linear'])}, queued {_pct(b['queued'])})"
    )
    assumed = ", ".join(f"{k} {v}" for k, v in r["assumed"].items() if k != "failure_model")
    con.print(f"assumed: {assumed}; {r['assumed']['failure_model']}")
    verdict = "within" if r["within_tolerance"] else "OUTSIDE"
    con.print(f"{verdict} the stated tolerance of {100 * r['tolerance']:.0f} ETTR points")


def print_all(d: dict[str, Any], console: Console | None = None) -> None:
    """Print every table the dict has data for."""
    con = console or Console()
    if "calibration" in d:
        c = d["calibration"]
        lo, hi = c["rate_95"]
        con.print(
            f"Failure rate measured in the run: {c['failures']} in {c['node_days'] * 24:.3g} "
            f"node-hours = {c['rate_per_node_day']:.3g} per node-day (95%: {lo:.3g} to {hi:.3g})"
        )
    if "skipped" in d:  # --from-run on a run whose own rate cannot be simulated at --gpus
        con.print(d["skipped"])
        con.print(projection_table(d["projection"]))
        return
    con.print(summary_table(d))
    con.print(badput_table(d))
    if d["by_category"]:
        con.print(category_table(d))
    if "sensitivity" in d:
        con.print(sensitivity_table(d["sensitivity"]))
    if "target" in d:
        for table in target_tables(d["target"]):
            con.print(table)
    if "power" in d:
        for table in power_tables(d["power"]):
            con.print(table)
    if "health" in d:
        con.print(health_table(d["health"]))
    if "designs" in d:
        con.print(designs_table(d))
    if "projection" in d:
        con.print(projection_table(d["projection"]))
