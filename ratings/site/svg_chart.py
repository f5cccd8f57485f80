"""The player page's rating chart without JavaScript: an SVG step line made at publish time,
inside a little HTML frame that carries it on to the newest list.

A player's page is rendered again only when something on it changes (:mod:`ratings.site.plan`),
not every month, yet the chart must run to the newest list. So the chart is in two parts, laid
out side by side by the style sheet: the player's history (the SVG, drawn in the page, one unit
per list from the first point to the last change) and the carry to the newest list (a flat
line, as wide as the lists since the last change). The number of the newest list and its label
come from ``assets/newest.css`` (:func:`newest_css`), a few bytes written by every publish; so
a new month rewrites one small file, not every page. Lists are counted by their place in the
site's periods (``--last`` on the page, ``--newest`` in that file), which an incremental publish
keeps (it starts again from scratch when an older period's label changes).

The x axis is labelled by period, as the period table is; the y axis by round ratings. The
interactive chart (Vega, ``assets/vega.js``) is an enhancement, loaded on demand.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup, escape

__all__ = ["MIN_SPAN", "NEWEST", "history_chart", "newest_css", "y_scale"]

NEWEST = "assets/newest.css"

_STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
_PERIOD_STEPS = (1, 2, 3, 4, 6, 12, 24, 36, 60, 120, 240)


def newest_css(index: int, label: str) -> bytes:
    """``assets/newest.css``: the newest list's place and its label, for every chart.

    ``label`` is a period label (``YYYY-MM`` or a custom one): quoted as a CSS string."""
    text = label.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    text = "".join(ch if ch.isprintable() and ch != "<" else " " for ch in text)
    return (
        "/* ratings publish: the newest list, which every player's chart runs to */\n"
        f':root {{ --newest: {int(index)}; --newest-label: "{text}"; }}\n'
    ).encode()


MIN_SPAN = 100
"""The least span of ratings a chart's y axis shows: a change of 27 points is a small step
on it, not a fall across the whole plot (as it was on bounds fitted to the ratings)."""


def y_scale(ratings: Sequence[int]) -> tuple[int, int, int]:
    """(low, high, step): round bounds around the ratings, at most 6 gaps, spanning at
    least :data:`MIN_SPAN` points around their middle (never below 0). The interactive chart
    (:mod:`ratings.site.chart`) uses the same axis."""
    low, high = min(ratings), max(ratings)
    span = max(high - low, MIN_SPAN)
    step = next((s for s in _STEPS if span / s <= 5), _STEPS[-1])
    middle2 = low + high  # twice the middle: integers only
    lo = max(0, ((middle2 - span) // 2) // step * step)
    lo = min(lo, (low // step) * step)
    hi = max(-((-high) // step) * step, lo + -((-span) // step) * step)
    return lo, hi, step


def _pct(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def history_chart(
    points: Sequence[tuple[int, int | None]],
    labels: Sequence[str],
    name: str,
    first_rating: bool,
) -> Markup:
    """The chart of ``points`` (list index, rating from that list on, None: unrated from that
    list on, which breaks the line), oldest first, the first one rated.

    ``labels``: the site's period labels by list index. ``first_rating``: the first point is
    the player's first rating (no rating before it).
    """
    first, last = points[0][0], points[-1][0]
    units = last - first + 1
    rated = [r for _, r in points if r is not None]
    lo, hi, step = y_scale(rated)

    def y(rating: int) -> float:
        return 100 - (rating - lo) * 100 / (hi - lo)

    line: list[str] = []
    dots: list[str] = []
    held = False  # a rating holds at this point of the line
    for i, rating in points:
        x = f"{i - first + 0.5:g}"
        if rating is None:  # unrated from this list: the line stops
            if held:
                line.append(f"H{x}")
            held = False
            continue
        at = _pct(y(rating))
        line.append(f"H{x}V{at}" if held else f"M{x} {at}")
        dots.append(f"M{x} {at}h0")
        held = True
    if held:
        line.append(f"H{units}")
    grid = "".join(
        f'<span class="rchart-grid" style="bottom:{_pct((v - lo) * 100 / (hi - lo))}%">'
        f"<span>{v}</span></span>"
        for v in range(lo, hi + 1, step)
    )
    # period ticks: every n-th list from the first, not too near the right end (where the
    # newest list's label is when the player's last change is the newest list)
    shown = range(max(first, 0), last + 1)
    every = next((s for s in _PERIOD_STEPS if len(shown) / s <= 4), _PERIOD_STEPS[-1])
    ticks: list[str] = []
    for i in shown[::every]:
        where = (i - first + 0.5) * 100 / units
        if where <= 72 or not ticks:
            # a tick under the last change gives way to the newest list's label while the
            # two are the same list (the style sheet compares --last with --newest)
            at_last = ' class="rchart-at-last"' if i == last else ""
            ticks.append(f'<span{at_last} style="left:{_pct(where)}%">{escape(labels[i])}</span>')
    last_rating = points[-1][1]
    carry = f'<span style="top:{_pct(y(last_rating))}%"></span>' if last_rating is not None else ""
    start = labels[first] if first >= 0 else f"before {labels[0]}"
    summary = escape(
        f"Chart of {name}'s rating on every list: "
        f"{'first rating ' if first_rating else ''}{points[0][1]} on the {start} list"
        + (f", {last_rating} from the {labels[last]} list" if last_rating is not None else "")
        * (len(points) > 1)
        + (
            ", unchanged from then to the newest list"
            if last_rating is not None
            else f", unrated from the {labels[last]} list on"
        )
        + "; the table below gives every value"
    )
    return Markup(
        f'<div class="rchart" style="--last:{int(last)}" role="img" aria-label="{summary}">'
        f'<div class="rchart-plot">{grid}'
        f'<svg class="rchart-line" viewBox="0 0 {units} 100" preserveAspectRatio="none" '
        f'style="flex-grow:{units}" aria-hidden="true" focusable="false">'
        f'<path class="rchart-step" d="{"".join(line)}"/>'
        f'<path class="rchart-dots" d="{"".join(dots)}"/></svg>'
        f'<span class="rchart-carry">{carry}</span>'
        "</div>"
        f'<div class="rchart-x"><span class="rchart-ticks" style="flex-grow:{units}">'
        f"{''.join(ticks)}</span>"
        '<span class="rchart-carry"></span><span class="rchart-newest"></span></div>'
        "</div>"
    )
