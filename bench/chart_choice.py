"""How long one rating chart takes with each candidate charting library (issue 14).

Usage::

    python bench/chart_choice.py [--charts 30]

A federation site has 20,000 player pages, and a full publish has 3 minutes, so a chart
drawn on the server must cost well under 9 ms. Measured here, per chart of 120 monthly
points: server-side SVG (and PNG) with matplotlib, pygal and vl-convert-python (Vega-Lite),
each when installed, against what a page needs when the browser draws the chart: the
Vega-Lite specification with its data, as JSON (the choice; see README, "Charts"). Only
vl-convert-python is a dependency of ratings; install the others to compare
(``pip install matplotlib pygal``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

try:
    from ratings.site import chart
except ModuleNotFoundError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ratings.site import chart


def _series(rng: random.Random, n: int = 120) -> chart.Series:
    rating, points = 1800, []
    for i in range(n):
        rating += rng.randint(-20, 20)
        day = dt.date(2016 + (i + 1) // 12, (i + 1) % 12 + 1, 1)
        points.append((day, f"{2016 + i // 12}-{i % 12 + 1:02d}", rating))
    return chart.Series("Player, Some", points)


def _candidates() -> dict[str, Callable[[chart.Series], object]]:
    found: dict[str, Callable[[chart.Series], object]] = {
        "vl-convert SVG (server)": lambda s: chart.render_chart(
            chart.rating_chart([s], width=640), "svg"
        ),
        "vl-convert PNG (server)": lambda s: chart.render_chart(
            chart.rating_chart([s], width=640), "png"
        ),
        "Vega-Lite JSON in the page (browser draws)": lambda s: json.dumps(chart.rating_chart([s])),
    }
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure

        def mpl(s: chart.Series, fmt: str) -> bytes:
            figure = Figure(figsize=(7, 3))
            axes = figure.subplots()
            axes.step([p[0] for p in s.points], [p[2] for p in s.points], where="post")
            out = io.BytesIO()
            figure.savefig(out, format=fmt)
            return out.getvalue()

        found["matplotlib SVG (server)"] = lambda s: mpl(s, "svg")
        found["matplotlib PNG (server)"] = lambda s: mpl(s, "png")
    except ImportError:
        pass
    try:
        import pygal

        def pg(s: chart.Series) -> object:
            line = pygal.Line(width=700, height=300, show_dots=False)
            line.x_labels = [p[1] for p in s.points]
            line.add("rating", [p[2] for p in s.points])
            return line.render()

        found["pygal SVG (server)"] = pg
    except ImportError:
        pass
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Print a Markdown table: median milliseconds per chart, and 20,000 charts' worth."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--charts", type=int, default=30)
    ns = parser.parse_args(argv)
    rng = random.Random(1)
    series = [_series(rng) for _ in range(ns.charts)]
    print("| library | per chart (ms, median) | 20,000 player pages (s) |")
    print("|---|---:|---:|")
    for name, draw in _candidates().items():
        draw(series[0])  # warm up (vl-convert starts its JavaScript engine once)
        times = []
        for s in series:
            began = time.perf_counter()
            draw(s)
            times.append(time.perf_counter() - began)
        ms = statistics.median(times) * 1000
        print(f"| {name} | {ms:.2f} | {ms * 20:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
