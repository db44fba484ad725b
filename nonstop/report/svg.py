"""Small server-side SVG charts for the HTML report: no JavaScript library, no network.

Each function returns one `<svg>` string sized by its viewBox (the page scales it to the column
width). Elements that carry a `data-tip` attribute get a tooltip from report.js; everything else
is static, so the charts also print and survive a browser with scripts off.

Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape

FONT = 12
INK = "#2b2f36"
GRID = "#e6e8eb"
MUTED = "#7b8494"


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def tip(text: str) -> str:
    return f' data-tip="{esc(text)}"'


def f(v: float) -> str:
    """A coordinate with one decimal: keeps the page small."""
    return f"{v:.1f}".rstrip("0").rstrip(".") if math.isfinite(v) else "0"


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About n round tick values covering [lo, hi] (1, 2, 5 x 10^k steps)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(1, n)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def num(v: float) -> str:
    """Short tick label: 0.25, 12, 1.5k, 3M."""
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:.3g}M"
    if a >= 1e4:
        return f"{v / 1e3:.3g}k"
    return f"{v:.4g}"


def time_unit(span_s: float) -> tuple[str, float]:
    """(unit name, seconds per unit) for an axis spanning span_s seconds."""
    if span_s >= 3 * 3600:
        return "h", 3600.0
    if span_s >= 180:
        return "min", 60.0
    return "s", 1.0


@dataclass
class Frame:
    """Maps data coordinates into a plot area of a width x height viewBox."""

    width: float
    height: float
    x0: float
    x1: float
    y0: float
    y1: float
    left: float = 56
    right: float = 16
    top: float = 14
    bottom: float = 34

    def x(self, v: float) -> float:
        span = (self.x1 - self.x0) or 1.0
        return self.left + (v - self.x0) / span * (self.width - self.left - self.right)

    def y(self, v: float) -> float:
        span = (self.y1 - self.y0) or 1.0
        return self.height - self.bottom - (v - self.y0) / span * self.plot_h

    @property
    def plot_h(self) -> float:
        return self.height - self.top - self.bottom

    @property
    def plot_w(self) -> float:
        return self.width - self.left - self.right


def svg(width: float, height: float, body: str, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {f(width)} {f(height)}" '
        f'role="img" aria-label="{esc(label)}" font-size="{FONT}" fill="{INK}">{body}</svg>'
    )


def empty(width: float, height: float, message: str) -> str:
    body = (
        f'<rect x="0.5" y="0.5" width="{f(width - 1)}" height="{f(height - 1)}" fill="#fafbfc" '
        f'stroke="{GRID}"/><text x="{f(width / 2)}" y="{f(height / 2)}" text-anchor="middle" '
        f'fill="{MUTED}">{esc(message)}</text>'
    )
    return svg(width, height, body, message)


def x_axis(fr: Frame, ticks: Sequence[float], fmt: Callable[[float], str], label: str) -> str:
    out = []
    base = fr.height - fr.bottom
    for t in ticks:
        if fr.x0 - 1e-9 <= t <= fr.x1 + 1e-9:
            x = f(fr.x(t))
            out.append(
                f'<line x1="{x}" x2="{x}" y1="{f(fr.top)}" y2="{f(base)}" stroke="{GRID}"/>'
                f'<text x="{x}" y="{f(base + 15)}" text-anchor="middle">{esc(fmt(t))}</text>'
            )
    out.append(
        f'<text x="{f(fr.left + fr.plot_w / 2)}" y="{f(fr.height - 3)}" '
        f'text-anchor="middle" fill="{MUTED}">{esc(label)}</text>'
    )
    return "".join(out)


def y_axis(
    fr: Frame,
    ticks: Sequence[float],
    label: str,
    *,
    right: bool = False,
    color: str = MUTED,
    fmt: Callable[[float], str] = num,
) -> str:
    out = []
    x = fr.width - fr.right + 5 if right else fr.left - 5
    anchor = "start" if right else "end"
    for t in ticks:
        if fr.y0 - 1e-9 <= t <= fr.y1 + 1e-9:
            y = f(fr.y(t))
            if not right:
                out.append(
                    f'<line x1="{f(fr.left)}" x2="{f(fr.width - fr.right)}" y1="{y}" '
                    f'y2="{y}" stroke="{GRID}"/>'
                )
            out.append(
                f'<text x="{f(x)}" y="{y}" dy="4" text-anchor="{anchor}" '
                f'fill="{color}">{esc(fmt(t))}</text>'
            )
    lx = fr.width - 10 if right else 12
    ly = fr.top + fr.plot_h / 2
    out.append(
        f'<text transform="translate({f(lx)},{f(ly)}) rotate({90 if right else -90})" '
        f'text-anchor="middle" fill="{color}">{esc(label)}</text>'
    )
    return "".join(out)


@dataclass
class Series:
    name: str
    color: str
    points: list[tuple[float, float]]
    dash: bool = False
    width: float = 1.6
    right: bool = False
    """Drawn against the right-hand axis."""


@dataclass
class Band:
    """A shaded vertical span (an attempt's recovery, a failure window) behind the lines."""

    x0: float
    x1: float
    color: str
    tip: str = ""


@dataclass
class LineChart:
    series: list[Series]
    x_label: str
    y_label: str
    y2_label: str = ""
    x_range: tuple[float, float] | None = None
    x_fmt: Callable[[float], str] = num
    x_ticks: Callable[[float, float], list[float]] | None = None
    bands: list[Band] = field(default_factory=list)
    width: float = 620
    height: float = 250
    y_zero: bool = True

    def render(self, label: str) -> str:
        left = [s for s in self.series if not s.right and s.points]
        right = [s for s in self.series if s.right and s.points]
        if not left and not right:
            return empty(self.width, self.height, f"no data: {label}")
        xs = [p[0] for s in left + right for p in s.points]
        x0, x1 = self.x_range or (min(xs), max(xs))
        ticks = self.x_ticks(x0, x1) if self.x_ticks else nice_ticks(x0, x1, 8)
        fr = _frame(self, left, x0, x1)
        body = [
            f'<rect x="{f(fr.x(b.x0))}" y="{f(fr.top)}" width="{f(max(1.0, fr.x(b.x1) - fr.x(b.x0)))}" '
            f'height="{f(fr.plot_h)}" fill="{b.color}" opacity="0.16"'
            f"{tip(b.tip) if b.tip else ''}/>"
            for b in self.bands
        ]
        body.append(x_axis(fr, ticks, self.x_fmt, self.x_label))
        body.append(y_axis(fr, nice_ticks(fr.y0, fr.y1), self.y_label))
        body += [_polyline(fr, s) for s in left]
        if right:
            fr2 = _frame(self, right, x0, x1)
            body.append(
                y_axis(
                    fr2, nice_ticks(fr2.y0, fr2.y1), self.y2_label, right=True, color=right[0].color
                )
            )
            body += [_polyline(fr2, s) for s in right]
        body.append(legend(self.series, fr.left + 4, 4))
        return svg(self.width, self.height, "".join(body), label)


def _frame(ch: LineChart, series: list[Series], x0: float, x1: float) -> Frame:
    ys = [p[1] for s in series for p in s.points if math.isfinite(p[1])] or [0.0, 1.0]
    lo, hi = (min(0.0, *ys) if ch.y_zero else min(ys)), max(ys)
    if hi <= lo:
        hi = lo + (abs(lo) or 1.0)
    pad = (hi - lo) * 0.05
    right = 64 if any(s.right for s in ch.series if s.points) else 16
    return Frame(
        ch.width,
        ch.height,
        x0,
        x1 if x1 > x0 else x0 + 1,
        lo if ch.y_zero and lo == 0 else lo - pad,
        hi + pad,
        right=right,
        top=26,
    )


def _polyline(fr: Frame, s: Series) -> str:
    pts = " ".join(f"{f(fr.x(x))},{f(fr.y(y))}" for x, y in s.points if math.isfinite(y))
    dash = ' stroke-dasharray="5 3"' if s.dash else ""
    return (
        f'<polyline points="{pts}" fill="none" stroke="{s.color}" stroke-width="{s.width}"'
        f' stroke-linejoin="round"{dash}{tip(s.name)}/>'
    )


def legend(series: Sequence[Series], x: float, y: float) -> str:
    out, cx = [], x
    for s in series:
        if not s.points:
            continue
        out.append(
            f'<rect x="{f(cx)}" y="{f(y + 4)}" width="14" height="4" fill="{s.color}"/>'
            f'<text x="{f(cx + 18)}" y="{f(y + 11)}">{esc(s.name)}</text>'
        )
        cx += 30 + 6.6 * len(s.name)
    return "".join(out)


def hbars(
    rows: Sequence[tuple[str, float, str, str]], *, width: float = 620, unit: str = "", label: str
) -> str:
    """Horizontal bars: (label, value, color, tooltip) per row, longest label on the left."""
    if not rows:
        return empty(width, 80, f"none: {label}")
    row_h, left = 24, min(260.0, 16 + 6.8 * max(len(r[0]) for r in rows))
    height = row_h * len(rows) + 12
    top = max(r[1] for r in rows) or 1.0
    body = []
    for i, (name, value, color, tooltip) in enumerate(rows):
        y = 6 + i * row_h
        w = (width - left - 70) * value / top
        body.append(
            f'<text x="{f(left - 8)}" y="{f(y + 15)}" text-anchor="end">{esc(name)}</text>'
            f'<rect x="{f(left)}" y="{f(y + 3)}" width="{f(max(w, 1))}" height="16" '
            f'fill="{color}"{tip(tooltip)}/><text x="{f(left + w + 6)}" y="{f(y + 15)}">'
            f"{esc(num(value))}{esc(unit)}</text>"
        )
    return svg(width, height, "".join(body), label)


def color_scale(ratio: float) -> str:
    """1.0 (typical) pale to 2.0+ (twice as slow) deep red, below 1.0 pale blue."""
    if ratio < 1.0:
        t = min(1.0, (1.0 - ratio) / 0.5)
        r, g, b = _mix((247, 248, 250), (160, 196, 236), t)
    else:
        t = min(1.0, (ratio - 1.0) / 1.0)
        r, g, b = _mix((247, 248, 250), (201, 42, 42), t**0.7)
    return f"#{r:02x}{g:02x}{b:02x}"


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    r, g, bl = (round(x + (y - x) * t) for x, y in zip(a, b))
    return r, g, bl
