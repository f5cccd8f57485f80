"""The player page's interactive chart (ratings/site/chart.py: history_chart): the points of
the chart without JavaScript, on an axis of period labels, on to the newest list; drawn here
by vl-convert-python, as Vega draws it in the page (tests/site/test_pages_browser.py draws it
in Chromium, carried on by assets/chart.js)."""

from __future__ import annotations

import re
from typing import Any

import vl_convert

from ratings.site import chart, svg_chart

LABELS = [f"2025-{m:02d}" for m in range(1, 13)]


def _drawn(spec: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The SVG's texts and its line paths, the plot 440 by 260 pixels."""
    spec = {**spec, "width": 440, "autosize": "pad"}
    svg = str(vl_convert.vegalite_to_svg(spec, allowed_base_urls=[]))
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    lines = re.findall(r'<path[^>]*d="(M[^"]*L[^"]*)"', svg)
    return texts, lines


def _params(spec: dict[str, Any]) -> dict[str, Any]:
    return {p["name"]: p["value"] for p in spec["params"]}


def _carry_on(spec: dict[str, Any], newest: int, label: str, ticks: list[int]) -> None:
    """What assets/chart.js does with assets/newest.css's newest list."""
    for p in spec["params"]:
        if p["name"] == "newest":
            p["value"] = newest
        elif p["name"] == "labels":  # from the first list on; None: not known to the page
            first = _params(spec)["first"]
            p["value"] += [None] * (newest - first - len(p["value"])) + [label]
        elif p["name"] == "ticks":
            p["value"] = ticks


def test_the_points_are_the_svg_charts() -> None:
    # a rating before the first row shown is drawn on the list before it
    assert chart.history_points(1400, [(3, 1410), (5, 1420)]) == [(2, 1400), (3, 1410), (5, 1420)]
    # unrated rows count only after a rated one: the fall below the floor, then back
    rows = [(0, None), (1, 1300), (2, None), (3, None), (5, 1500)]
    assert chart.history_points(None, rows) == [(1, 1300), (2, None), (5, 1500)]
    assert chart.history_points(None, [(0, None)]) == []
    assert chart.history_points(1500, []) == []


def test_the_axis_is_the_periods_and_the_line_holds_to_the_last_list() -> None:
    spec = chart.history_chart("A", [(1, 1500), (3, 1520), (7, 1490)], LABELS)
    texts, lines = _drawn(spec)
    period = texts.index("Period")
    assert texts[:period] == ["2025-02", "2025-04", "2025-06", "2025-08"]
    # at least 100 points high (svg_chart.MIN_SPAN): a change of 30 is not the whole plot
    assert texts[period + 1 :] == [*(str(r) for r in range(1440, 1541, 20)), "Rating"]
    (line,) = lines  # steps, to the right edge: the last list's, until the page script runs
    assert line == "M31.429,104L157.143,104L157.143,52L408.571,52L408.571,130L440,130L440,130"
    assert spec["layer"][1]["data"]["values"] == [
        {"list": 1, "period": "2025-02", "rating": 1500, "change": ""},
        {"list": 3, "period": "2025-04", "rating": 1520, "change": "+20"},
        {"list": 7, "period": "2025-08", "rating": 1490, "change": "-30"},
    ]  # a dot, with the period, the rating and the change, on each list where it changed
    # nothing in the page depends on the newest list: a new month does not rewrite it
    assert chart.history_chart("A", [(1, 1500), (3, 1520), (7, 1490)], LABELS[:9]) == spec


def test_the_page_script_carries_the_line_on_to_the_newest_list() -> None:
    spec = chart.history_chart("A", [(8, 1500)], LABELS)
    assert _params(spec) == {
        "newest": 8,
        "ticks": [8],
        "first": 8,
        "labels": ["2025-09"],
    }
    # a newer list (assets/newest.css): the axis labels every other list from the first
    # that the page knows, and the newest; the line holds 1500 to its right edge
    _carry_on(spec, 14, "2026-03", [8, 14])
    texts, lines = _drawn(spec)
    assert texts[:2] == ["2025-09", "2026-03"]
    assert lines == ["M31.429,104L440,104L440,104"]


def test_a_first_rating_is_a_dot_on_a_scale_with_room_around_it() -> None:
    new = chart.history_chart("New", [(11, 1922)], LABELS, True)
    texts, lines = _drawn(new)
    assert texts == ["2025-12", "Period", *(str(r) for r in range(1860, 1961, 20)), "Rating"]
    assert lines == ["M220,98.8L440,98.8L440,98.8"]  # from the dot, in the middle, to the edge
    assert new["layer"][1]["data"]["values"][0]["change"] == "new"  # as the period table
    texts, _ = _drawn(chart.history_chart("Old", [(-1, 1400), (0, 1410)], LABELS))
    assert texts[0] == "before 2025-01"


def test_a_fall_below_the_floor_breaks_the_line() -> None:
    back = chart.history_chart("B", [(0, 1300), (2, None), (5, 1500)], LABELS)
    _carry_on(back, 11, "2025-12", [0, 3, 6, 11])
    _, lines = _drawn(back)
    assert len(lines) == 2  # to the unrated list, and from the new rating to the newest list
    assert lines[1].endswith("L440,0")
    gone = chart.history_chart("C", [(0, 1300), (2, None)], LABELS)
    assert gone["layer"][0]["data"]["values"] == [
        {"list": 0, "rating": 1300, "segment": 0},
        {"list": 2, "rating": 1300, "segment": 0},
    ]  # no carry on to the newest list
    _carry_on(gone, 11, "2025-12", [0, 3, 6, 11])
    _, lines = _drawn(gone)
    assert len(lines) == 1
    assert not lines[0].endswith("L440,260")


def test_a_small_change_is_a_small_step_on_both_charts() -> None:
    """A fall of 27 points filled 90 % of the plot (the axis fitted 1470 to 1500); on an axis
    at least 100 points high it is a step of a quarter of it."""
    assert svg_chart.y_scale([1500, 1473]) == (1420, 1520, 20)
    assert svg_chart.y_scale([1600]) == (1540, 1640, 20)
    assert svg_chart.y_scale([2000, 2600]) == (2000, 2600, 200)  # wide enough as it is
    assert svg_chart.y_scale([30, 10]) == (0, 100, 20)  # never below 0
    svg = svg_chart.history_chart([(0, 1500), (1, 1473)], LABELS, "A", False)
    heights = [float(v) for v in re.findall(r"V([0-9.]+)", svg)]
    (start,) = [float(v) for v in re.findall(r'rchart-step" d="M0.5 ([0-9.]+)', svg)]
    assert heights == [47]  # from 20 % below the top to 47 %: 27 points of 100
    assert start == 20
    spec = chart.history_chart("A", [(0, 1500), (1, 1473)], LABELS)
    y = spec["layer"][0]["encoding"]["y"]["scale"]["domain"]
    assert y == [1420, 1520]


def test_a_player_unrated_since_is_not_carried_on() -> None:
    """The line of a player whose last point is unrated stops there, and the text read out
    says so (it said "unchanged from then to the newest list")."""
    svg = svg_chart.history_chart([(0, 1300), (2, None)], LABELS, "C", False)
    label = re.findall(r'aria-label="([^"]*)"', svg)[0]
    assert label == (
        "Chart of C&#39;s rating on every list: 1300 on the 2025-01 list, unrated from the"
        " 2025-03 list on; the table below gives every value"
    )
    assert '<span class="rchart-carry"></span></div>' in svg  # no carried line
