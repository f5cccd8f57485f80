"""Every kind of page of the demo and of the long-name site in Chromium at 1280 and 375 px:
no table wider than the window or scrolling in its wrapper, captions whole, the sort state
shown, and no accessibility rule broken (axe-core, from the ``axe-playwright-python``
package of the dev extra; nothing fetched)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.site.test_browser import browser
from tests.site.test_pages_browser import page, sites, width

pytestmark = pytest.mark.slow

__all__ = ["browser", "page", "sites", "width"]  # the fixtures, shared

SITES = ["demo", "long"]


def page_kinds(site: Path) -> dict[str, Path]:
    """One page of each kind: the biggest where a kind has several (the most rows)."""

    def biggest(folder: str, pattern: str) -> Path:
        return max((site / folder).glob(pattern), key=lambda p: p.stat().st_size)

    return {
        "index": site / "index.html",
        "list": min((site / "lists").glob("????-??.html")),
        "top": biggest("lists", "*-top.html"),
        "players": site / "players.html",
        "events": site / "events.html",
        "event": biggest("events", "*.html"),
        "player": biggest("players", "*.html"),
        "calculators": site / "calculators.html",
    }


# every table's width and whether its wrapper scrolls; every caption's right edge
_TABLES = """() => Array.from(document.querySelectorAll('table')).map(t => {
  const wrap = t.closest('.table-wrap');
  const caption = t.caption ? t.caption.getBoundingClientRect() : null;
  return {
    table: t.className,
    width: Math.max(t.getBoundingClientRect().width, t.scrollWidth),
    scrolls: wrap ? wrap.scrollWidth > wrap.clientWidth : false,
    caption: caption ? [caption.left, caption.right] : null,
  };
})"""


def axe_violations(page: Any) -> list[tuple[str, int]]:
    """axe-core's violations on the page, by rule and number of nodes. ``preload: false``:
    axe would fetch the page's style sheets, which a page opened from file:// refuses."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options={"preload": False, "resultTypes": ["violations"]})
    return [(v["id"], len(v["nodes"])) for v in found.response["violations"]]


@pytest.mark.parametrize("name", SITES)
def test_every_page_kind_fits_the_window_and_passes_axe(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str
) -> None:
    _, site = sites[name]
    for kind, path in page_kinds(site).items():
        page.goto(path.as_uri())
        if kind == "calculators":
            page.wait_for_selector("html.calc-ready")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, kind
        tables = page.evaluate(_TABLES)
        assert tables, kind
        for t in tables:
            assert t["width"] <= width, (kind, t)
            assert not t["scrolls"], (kind, t)
            if t["caption"] is not None:
                left, right = t["caption"]
                assert left >= 0, (kind, t)
                assert right <= width + 0.5, (kind, t)
        assert axe_violations(page) == [], (kind, width)


def test_the_sort_state_is_shown_at_375_px(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]]
) -> None:
    """The order a table starts in is named (aria-sort), and the sorted column's arrow shows
    at both widths (at 375 px only that one: the others' arrows go to save room)."""
    _, site = sites["demo"]

    def arrows(table: str) -> list[str]:
        shown: list[str] = page.locator(f"table.{table} thead th button").evaluate_all(
            "bs => bs.map(b => getComputedStyle(b, '::after').content)"
        )
        return shown

    page.goto((site / "events.html").as_uri())
    dates = page.locator("table.events thead th", has_text="Dates")
    assert dates.get_attribute("aria-sort") == "descending"
    shown = arrows("events")
    assert shown[1] == '" ↓"'
    assert set(shown[:1] + shown[2:]) == ({"none"} if width == 375 else {'" ↕"'})
    dates.locator("button").click()  # the other way
    assert dates.get_attribute("aria-sort") == "ascending"
    assert arrows("events")[1] == '" ↑"'
    starts = page.locator("table.events tbody td:nth-child(2)").evaluate_all(
        "cs => cs.map(c => c.getAttribute('data-sort'))"
    )
    assert starts == sorted(starts)

    page.goto((site / "index.html").as_uri())
    assert page.locator("table.list thead th").first.get_attribute("aria-sort") == "ascending"
    page.locator("table.list thead th", has_text="Rating").locator("button").click()
    assert arrows("list")[5] == '" ↓"'
    assert page.locator("table.list thead th").first.get_attribute("aria-sort") is None


def test_a_phone_reads_the_cards(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]]
) -> None:
    """At 375 px the history and the crosstable are cards: each value labelled, the rounds
    one tap away in the games list with the opponents named; at 1280 px the columns."""
    _, site = sites["demo"]
    page.goto((site / "players" / "1.html").as_uri())
    row = page.locator("table.history tbody tr:not(.gap)").first
    labels = row.locator("td").evaluate_all(
        "cs => cs.map(c => getComputedStyle(c, '::before').content)"
    )
    if width == 375:
        assert labels[:2] == ['"Rating "', '"→ "']
    else:
        assert set(labels) == {"none"}
    page.goto((site / "events" / "1.html").as_uri())
    first = page.locator("table.crosstable tbody tr").first
    rounds = first.locator("td[title]")
    assert rounds.first.is_visible() == (width == 1280)
    games = first.locator("details.games")
    assert games.locator("li").first.is_visible() is False
    games.locator("summary").click()
    opponent = games.locator("li a").first
    assert opponent.is_visible()
    assert opponent.inner_text() == rounds.first.get_attribute("title")
    box = opponent.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= width
