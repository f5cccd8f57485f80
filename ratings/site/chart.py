"""Rating-history charts: one Vega-Lite specification, drawn in two places.

The website embeds the specification (with its data) in each player's page, and the browser
draws it with Vega, Vega-Lite and Vega-Embed, bundled into one script
(``assets/vega.js``) by ``vl-convert-python``: no network, works from ``file://``.
``ratings plot`` renders the same specification to PNG or SVG in-process with
``vl-convert-python`` (no browser). Why Vega-Lite: see the README ("Charts").
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import vl_convert

__all__ = ["Series", "bundle_version", "rating_chart", "render_chart", "vega_bundle"]


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
        "config": {"font": "sans-serif", "axis": {"labelFontSize": 11, "titleFontSize": 12}},
    }
    if title is not None:
        spec["title"] = title
    return spec


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
