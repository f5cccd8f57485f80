"""Rating-history charts: one Vega-Lite specification, drawn in two places.

The website embeds the specification (with its data) in each player's page, and the browser
draws it with Vega, Vega-Lite and Vega-Embed, bundled into one script
(``assets/vega.js``) by ``vl-convert-python``: no network, works from ``file://``.
``ratings plot`` renders its several-player charts (:func:`rating_chart`) to PNG or SVG
in-process with ``vl-convert-python`` (no browser). Why Vega-Lite: see the README ("Charts").

A player's page draws :func:`history_chart`: the same points as the chart made at publish time
(:mod:`ratings.site.svg_chart`), on an axis of the site's periods, running to the newest list.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import vl_convert

from ratings.site.cells import signed
from ratings.site.svg_chart import y_scale

__all__ = [
    "Series",
    "bundle_version",
    "history_chart",
    "history_points",
    "rating_chart",
    "render_chart",
    "vega_bundle",
]

_CONFIG: dict[str, Any] = {
    "font": "sans-serif",
    "axis": {"labelFontSize": 11, "titleFontSize": 12},
}


@dataclass(frozen=True, slots=True)
class Series:
    """One player's line: ``(list date, period label, rating)`` points, oldest first."""

    name: str
    points: Sequence[tuple[dt.date, str, int]]


def rating_chart(
    series: Sequence[Series],
    *,
    title: str | None = None,
    width: int | None = None,
    height: int = 260,
) -> dict[str, Any]:
    """A Vega-Lite specification of rating-history lines (a step line per player: a rating
    holds from its list until the next one).

    ``width`` None: as wide as the page's container (the website); a number of pixels for
    files. Several series get a colour legend.
    """
    values = [
        {"player": s.name, "list": day.isoformat(), "period": label, "rating": rating}
        for s in series
        for day, label, rating in s.points
    ]
    names = ", ".join(s.name for s in series)
    encoding: dict[str, Any] = {
        "x": {
            "field": "list",
            "type": "temporal",
            # lists are dated the first of a month; UTC, as ISO dates are read: no day shift
            "timeUnit": "utcyearmonth",
            "title": "List",
            "axis": {"labelOverlap": True},
        },
        "y": {
            "field": "rating",
            "type": "quantitative",
            "title": "Rating",
            "scale": {"zero": False},
        },
        "tooltip": [
            {"field": "player", "type": "nominal", "title": "Player"},
            {"field": "period", "type": "nominal", "title": "Period"},
            {"field": "rating", "type": "quantitative", "title": "Rating"},
        ],
    }
    if len(series) > 1:
        encoding["color"] = {
            "field": "player",
            "type": "nominal",
            "title": "Player",
            "sort": [s.name for s in series],
        }
    spec: dict[str, Any] = {
        "description": f"Rating history: {names}",
        "height": height,
        "width": "container" if width is None else width,
        "autosize": {"type": "fit-x", "contains": "padding"} if width is None else "pad",
        "data": {"values": values},
        "mark": {"type": "line", "interpolate": "step-after", "point": True},
        "encoding": encoding,
        "config": _CONFIG,
    }
    if title is not None:
        spec["title"] = title
    return spec


def history_points(
    before: int | None, rows: Sequence[tuple[int, int | None]]
) -> list[tuple[int, int | None]]:
    """A player page's chart points, the rule :mod:`ratings.site.svg_chart` is drawn by:
    ``(list index, rating from that list on, None: unrated from that list on)``, oldest first.

    ``before``: the rating before the first row shown (drawn on the list before it), None for
    a first rating. ``rows``: the rows the history table shows, ``(list index, rating after)``.
    An unrated row counts only after a rated one (a fall below the floor breaks the line);
    empty when nothing was ever rated.
    """
    points: list[tuple[int, int | None]] = []
    if before is not None and rows:
        points.append((rows[0][0] - 1, before))
    for i, rating in rows:
        if rating is not None or (points and points[-1][1] is not None):
            points.append((i, rating))
    return points


_PERIOD_STEPS = (1, 2, 3, 4, 6, 12, 24, 36, 60, 120, 240)


def _ticks(first: int, newest: int) -> list[int]:
    """The lists labelled on the x axis: every n-th from the first (at most five), and the
    newest, without one too near it for both labels to show (``assets/chart.js`` has the
    same rule, for a newer list)."""
    span = newest - first + 1
    every = next((s for s in _PERIOD_STEPS if span / s <= 4), _PERIOD_STEPS[-1])
    ticks = [i for i in range(first, newest + 1, every) if newest - i >= max(every, span / 5)]
    return [*ticks, newest]


def history_chart(
    name: str,
    points: Sequence[tuple[int, int | None]],
    labels: Sequence[str],
    first_rating: bool = False,
) -> dict[str, Any]:
    """The Vega-Lite specification of one player's rating history on a player's page.

    ``points``: :func:`history_points` (the first one rated). ``labels``: the site's period
    labels by list index. ``first_rating``: the first point is the player's first rating.
    The line holds each rating until the next point and the last rating on to the newest
    list; an unrated point breaks it (a fall below the floor), as on the chart without
    JavaScript; a dot marks each list's rating. A dot's tooltip and its text for a screen
    reader give the period, the rating and the change from the rating before (``new`` for a
    first rating, as the period table); ``assets/chart.js`` names the x axis's periods for a
    screen reader (Vega says the numbers it is drawn on).

    Like the chart without JavaScript, the specification holds nothing newer than the
    player's last point, so that a new month does not rewrite every player's page
    (:mod:`ratings.site.plan`): it ends the carry at that list, and ``assets/chart.js`` moves
    it on to the newest list, which ``assets/newest.css`` names.

    The x axis is the list's place among the site's periods, labelled with the period label
    the table shows (a quantitative axis, not a temporal one: a period label may be any text,
    not a month, and the lists keep their even spacing; not an ordinal one: the page is not
    rendered again every month, and ``assets/chart.js`` moves the end of the line on to the
    newest list, whose label alone ``assets/newest.css`` gives, without knowing the labels in
    between). The params ``newest``, ``labels`` (every list's label from ``first``, the first
    point's list, to the last point's) and ``ticks`` are what it changes.
    """
    first, last = points[0][0], points[-1][0]
    newest = last  # until assets/chart.js says which list is the newest

    def label(i: int) -> str:
        return labels[i] if i >= 0 else f"before {labels[0]}"

    dots: list[dict[str, Any]] = []
    line: list[dict[str, Any]] = []
    segment, held = 0, None
    for n, (i, rating) in enumerate(points):
        if rating is None:  # unrated from this list: the line holds to it, then stops
            if held is not None:
                line.append({"list": i, "rating": held, "segment": segment})
            segment, held = segment + 1, None
            continue
        line.append({"list": i, "rating": rating, "segment": segment})
        # the change from the rating held before: the period table's Change of that list
        change = (
            signed(rating - held) if held is not None else ("new" if n > 0 or first_rating else "")
        )
        dots.append({"list": i, "period": label(i), "rating": rating, "change": change})
        held = rating
    if held is not None:  # on to the newest list: its right edge (chart.js moves it)
        line.append({"list": newest + 0.5, "rating": held, "segment": segment, "carry": True})
    lo, hi, step = y_scale([r for _, r in points if r is not None])
    ticks = _ticks(first, newest)
    x_scale = {"domainMin": first - 0.5, "domainMax": {"expr": "newest + 0.5"}, "nice": False,
               "zero": False}  # fmt: skip
    x = {"field": "list", "type": "quantitative", "title": "Period", "scale": x_scale,
         "axis": {"values": {"expr": "ticks"}, "labelExpr": "labels[datum.value - first]",
                  "labelOverlap": "greedy", "grid": False}}  # fmt: skip
    y = {"field": "rating", "type": "quantitative", "title": "Rating",
         "scale": {"domain": [lo, hi], "zero": False, "nice": False},
         "axis": {"values": list(range(lo, hi + 1, step)), "format": "d"}}  # fmt: skip
    return {
        "description": f"Rating history: {name}",
        "height": 260,
        "width": "container",
        "autosize": {"type": "fit-x", "contains": "padding"},
        "params": [
            {"name": "newest", "value": newest},
            {"name": "ticks", "value": ticks},
            {"name": "first", "value": first},
            {"name": "labels", "value": [label(i) for i in range(first, newest + 1)]},
        ],
        "layer": [
            {
                "data": {"values": line},
                "transform": [
                    {"calculate": "datum.carry ? newest + 0.5 : datum.list", "as": "list"}
                ],
                "mark": {"type": "line", "interpolate": "step-after", "aria": False},
                "encoding": {"x": x, "y": y, "detail": {"field": "segment"}},
            },
            {
                "data": {"values": dots},
                "transform": [  # what a screen reader says of a dot
                    {
                        "calculate": "datum.period + ': ' + datum.rating"
                        " + (datum.change ? ' (' + datum.change + ')' : '')",
                        "as": "text",
                    }
                ],
                "mark": {"type": "point", "filled": True, "size": 40},
                "encoding": {
                    "x": x,
                    "y": y,
                    "description": {"field": "text"},  # what a screen reader says
                    "tooltip": [
                        {"field": "period", "type": "nominal", "title": "Period"},
                        {
                            "field": "rating",
                            "type": "quantitative",
                            "title": "Rating",
                            "format": "d",
                        },
                        {"field": "change", "type": "nominal", "title": "Change"},
                    ],
                },
            },
        ],
        "config": _CONFIG,
    }


def render_chart(spec: dict[str, Any], fmt: str) -> bytes:
    """The chart as a PNG (twice the pixels, for sharp screens) or an SVG file's bytes.

    :raises ValueError: for a format other than ``png`` or ``svg``.
    """
    if fmt == "png":
        return bytes(vl_convert.vegalite_to_png(spec, scale=2, allowed_base_urls=[]))
    if fmt == "svg":
        return str(vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])).encode("utf-8")
    raise ValueError(f"unknown chart format {fmt!r} (expected png or svg)")


@functools.cache  # made once a process: a second publish in one process (tests) reuses it
def vega_bundle() -> str:
    """Vega, Vega-Lite and Vega-Embed as one classic script that defines ``vegaEmbed``."""
    return str(vl_convert.javascript_bundle("window.vegaEmbed = vegaEmbed;"))


def bundle_version() -> str:
    """What :func:`vega_bundle` depends on: the installed vl-convert-python's version."""
    return metadata.version("vl-convert-python")


def bundle_license() -> str:
    """vl-convert-python's license text, shipped beside the bundle."""
    dist = metadata.distribution("vl-convert-python")
    for name in ("licenses/LICENSE", "LICENSE", "license_files/LICENSE"):
        text = dist.read_text(name)
        if text:
            return text
    return ""
