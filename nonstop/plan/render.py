"""Terminal rendering of a plan (the dict of ``planner.make_plan``) with rich tables.

Rendering only formats: every number shown is a key of the plan, so the terminal and ``--json``
never disagree.

    >>> human(405e9), human(15.6e12), human(3.79e25)
    ('405B', '15.6T', '3.79e+25')
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

_SUFFIXES = ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K"))


def human(x: float) -> str:
    """Counts with a suffix up to trillions (405B, 15.6T); larger numbers in e-notation."""
    if abs(x) >= 1e15:
        return f"{x:.3g}"
    for scale, suffix in _SUFFIXES:
        if abs(x) >= scale:
            return f"{x / scale:.3g}{suffix}"
    return f"{x:.3g}"


def _flops(x: float) -> str:
    return f"{x:.3g}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _kv_table(title: str, rows: list[tuple[str, str]]) -> Table:
    t = Table(title=title, title_justify="left", show_header=False, box=None, pad_edge=False)
    t.add_column(style="bold")
    t.add_column()
    for k, v in rows:
        t.add_row(k, v)
    return t


def _budget_rows(plan: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    if "law" in plan:
        rows.append(("law", f"{plan['law']}: {plan['law_summary']}"))
    if "params" in plan:
        rows += [
            ("parameters", human(plan["params"])),
            ("tokens", f"{human(plan['tokens'])} ({plan['tokens_per_param']:.1f} per parameter)"),
            ("compute", f"{_flops(plan['flops'])} FLOPs (6ND)"),
        ]
    if "loss" in plan:
        rows.append(("predicted loss", f"{plan['loss']:.4f} nats/token (fit's own data)"))
    if "compute_optimal" in plan:
        opt = plan["compute_optimal"]
        rows.append(
            (
                "compute-optimal",
                f"{human(opt['params'])} on {human(opt['tokens'])} at the same FLOPs "
                f"({opt['tokens_per_param']:.1f} per parameter, {plan['law']})",
            )
        )
    s = plan.get("llama3_sensitivity")
    if s:
        rows.append(
            (
                "llama3 rounding",
                f"the paper says {human(s['paper_params'])} on "
                f"{s['paper_tokens'] / 1e12:.2f}T at 3.8e25; its printed constants give "
                f"{human(s['tokens'])} tokens here; alpha {s['alpha_matching_paper']:.4f} "
                f"instead of 0.53 gives {human(s['tokens_alpha_paper'])}",
            )
        )
    return rows


def _hardware_rows(plan: dict[str, Any]) -> list[tuple[str, str]]:
    c = plan["cluster"]
    rows = [
        (
            "cluster",
            f"{c['gpus']:,} x {c['gpu'].upper()} at {_pct(c['mfu'])} MFU "
            f"({c['achieved_flops_per_gpu'] / 1e12:.0f} of {c['peak_flops_per_gpu'] / 1e12:.0f} "
            "TFLOPs dense BF16)",
        ),
        ("days of compute", f"{plan['days_compute']:.1f}"),
    ]
    if "days_wall" in plan:
        rows += [
            (
                "days wall-clock",
                f"{plan['days_wall']:.1f} (ETTR {plan['ettr']:.3f}, "
                f"p5-p95 {plan['ettr_p5']:.3f}-{plan['ettr_p95']:.3f})",
            ),
            (
                "interruptions",
                f"{plan['expected_interruptions']:.0f} expected "
                f"({plan['unexpected_interruptions']:.0f} unexpected, "
                f"{plan['planned_interruptions']:.0f} planned)",
            ),
            ("GPU-hours", human(plan["gpu_hours"])),
            ("design", plan["design"]["why"]),
            (
                "energy",
                f"{plan['energy_mwh']:,.0f} MWh ({c['tdp_w']:.0f} W/GPU x PUE {c['pue']:.2f}, "
                f"{c['power_mw']:.1f} MW)",
            ),
        ]
    return rows


def _table(title: str, columns: tuple[str, ...], left: tuple[str, ...]) -> Table:
    # One space of padding plus the box's blank separator: two spaces between columns, so that
    # every table fits an 80-column terminal.
    t = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0)
    )
    for col in columns:
        t.add_column(col, justify="left" if col in left else "right")
    return t


def _point_row(label: str, p: dict[str, float]) -> list[str]:
    return [
        label,
        human(p["params"]),
        human(p["tokens"]),
        f"{p['tokens_per_param']:.0f}",
        _flops(p["training_flops"]),
        _flops(p["inference_flops"]),
        _flops(p["total_flops"]),
    ]


def _inference_table(inf: dict[str, Any]) -> Table:
    t = _table(
        f"Both reach loss {inf['target_loss']:.4f}; {human(inf['inference_tokens'])} "
        f"inference tokens; total-cost saving {_pct(inf['saving'])}",
        ("FLOPs by point", "params", "tokens", "tok/param", "train", "infer", "total"),
        left=("FLOPs by point",),
    )
    t.add_row(*_point_row("compute-optimal", inf["compute_optimal"]))
    t.add_row(*_point_row("inference-aware", inf["total_optimal"]))
    return t


def _sweep_table(plan: dict[str, Any]) -> Table:
    t = _table(
        f"Inference demand sweep at loss {plan['loss']:.4f} ({plan['law']})",
        ("infer tokens", "x D*", "params", "tokens", "tok/param", "total FLOPs", "saving"),
        left=(),
    )
    for row in plan["sweep"]:
        best = row["total_optimal"]
        t.add_row(
            human(row["inference_tokens"]),
            f"{row['inference_tokens'] / plan['tokens']:g}",
            human(best["params"]),
            human(best["tokens"]),
            f"{best['tokens_per_param']:.0f}",
            _flops(best["total_flops"]),
            _pct(row["saving"]),
        )
    return t


def _llama3_table(rows: list[dict[str, Any]]) -> Table:
    t = _table(
        "Llama 3 as trained vs the compute optimum of the same FLOPs",
        ("model", "fit", "tok/param", "optimum N on D", "loss gap", "extra C", "pays at I"),
        left=("model", "fit"),
    )
    for r in rows:
        a, o = r["actual"], r["compute_optimal"]
        implied = r["implied_inference_tokens"]
        t.add_row(
            r["name"].removeprefix("Llama 3 "),
            r["fit"],
            f"{a['tokens_per_param']:.0f}",
            f"{human(o['params'])} on {human(o['tokens'])}",
            f"{a['loss'] - o['loss']:+.4f}",
            _pct(r["training_overhead"]),
            human(implied) if implied > 0 else "never",
        )
    return t


def render(plan: dict[str, Any], console: Console) -> None:
    """Print ``plan`` as tables, then its notes and assumptions."""
    rows = _budget_rows(plan)
    if rows:
        console.print(_kv_table("Plan", rows))
    if "inference" in plan:
        console.print(_inference_table(plan["inference"]))
    if "sweep" in plan:
        console.print(_sweep_table(plan))
        pays = plan["pays_from_inference_tokens"]
        when = (
            f"from about {human(pays)} inference tokens "
            f"({pays / plan['tokens']:.2g}x the compute-optimal training tokens)"
            if pays is not None
            else "not within the swept range"
        )
        console.print(
            f"Over-training starts to pay (>= {_pct(plan['pays_saving'])} saving) {when}."
        )
        console.print(_llama3_table(plan["llama3_comparison"]))
        console.print(
            "loss gap: above the compute optimum's loss; extra C: training FLOPs above "
            "the cheapest way to the same loss; pays at I: lifetime inference tokens for which "
            "the model is the cheapest way to its loss (never: it is bigger than that way).",
            highlight=False,
        )
    if "cluster" in plan:
        console.print(_kv_table("Hardware and reliability", _hardware_rows(plan)))
    if "young_interval_s" in plan:
        rows = [
            ("job MTBF", f"{plan['mtbf_s']:,.0f} s ({plan['mtbf_s'] / 3600:.2f} h)"),
            ("blocking save", f"{plan['checkpoint_blocking_s']:g} s"),
            ("Young (1974)", f"{plan['young_interval_s']:,.0f} s"),
            ("Daly (2006)", f"{plan['daly_interval_s']:,.0f} s"),
        ]
        console.print(_kv_table("Checkpoint interval", rows))
    if plan["notes"]:
        console.print(_bullets("Notes", plan["notes"]))
    console.print(_bullets("Assumptions", plan["assumptions"]))


def _bullets(title: str, lines: list[str]) -> Table:
    # A grid, so that wrapped lines hang under their bullet's text.
    t = Table.grid(padding=(0, 1))
    t.title, t.title_justify = title, "left"
    t.add_column(no_wrap=True)
    t.add_column()
    for line in lines:
        t.add_row(" -", line)
    return t
