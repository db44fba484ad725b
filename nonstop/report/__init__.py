"""Where the time went: terminal tables (rich), JSON, the HTML page, TensorBoard and Prometheus.

data.py        the report model read from a run's ledger, and the chart series
compare.py     the JSON summary (`--json`) and two runs side by side
terminal.py    rich tables: headline, goodput, failures, comparison
svg.py         small SVG chart primitives;  charts.py  the page's charts
html.py        the self-contained page (static/report.html + static/report.js inlined)
tb_export.py   TensorBoard scalars (needs the optional `tensorboard` package)
prometheus.py  the live metrics endpoint of `nonstop run --metrics-port`
cli.py         `nonstop report RUN_DIR [RUN_B] [--json] [--html [OUT]] [--tensorboard DIR]`
"""
