"""The published site in Chromium where the other browser tests left a width or a site out
(tests/site/test_pages_browser.py builds the demo and the generated site with a
195-character name): the calculators against the CLI, the way in (players, events, the search
box, "next list"), crosstables, first-rating cards and the JSON beside the pages, each at
1280 and 375 px on both sites."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from ratings.matching import fold
from tests.conftest import table_rows
from tests.site.test_browser import browser
from tests.site.test_calc import change_cases, compare, expected_cases, performance_cases
from tests.site.test_pages_browser import LONG, page, sites, width

pytestmark = pytest.mark.slow

__all__ = ["browser", "page", "sites", "width"]  # the fixtures, shared

SITES = ["demo", "long"]
CASES = 40  # of each kind, at each width on each site (tests/site/test_calc.py: 500 at 1280)


def _no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _file(href: str) -> Path:
    url = urlparse(href)
    assert url.scheme == "file", href
    return Path(unquote(url.path))


@pytest.mark.parametrize("name", SITES)
def test_item_1_the_calculators_give_the_cli_numbers(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str
) -> None:
    _, site = sites[name]
    page.goto((site / "index.html").as_uri())
    page.locator("a[href$='calculators.html']").first.click()
    page.wait_for_selector("html.calc-ready")
    _no_sideways_scroll(page, width)
    seed = 10 * (width == 375) + 100 * (name == "long")  # other cases on each page
    compare(page, "expected", expected_cases(seed)[:CASES])
    compare(page, "change", change_cases(False, seed + 1)[:CASES])
    compare(page, "change", change_cases(True, seed + 2)[:CASES])
    compare(page, "performance", performance_cases(seed + 3)[:CASES])
    won = page.evaluate("ratingsCalc.change(1600, 1400, 1, {k: 32})")
    assert won["table"]["new_rating"] == 1608  # the seeds: 1600 beats 1400 at K 32


@pytest.mark.parametrize("name", SITES)
def test_item_2_a_way_in_to_everyone(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str
) -> None:
    db, site = sites[name]
    page.goto((site / "index.html").as_uri())
    page.locator("nav a", has_text="Players").click()
    page.wait_for_url("**/players.html")
    _no_sideways_scroll(page, width)
    ((players,),) = table_rows(db, "SELECT count(*) FROM players WHERE merged_into_id IS NULL")
    assert page.locator("table.players tbody tr").count() == players
    page.locator("nav a", has_text="Events").click()
    page.wait_for_url("**/events.html")
    _no_sideways_scroll(page, width)
    ((events,),) = table_rows(db, "SELECT count(*) FROM events")
    assert page.locator("table.events tbody tr").count() == events
    # the search box finds a player by a folded word of the name, and opens the page
    ((target,),) = table_rows(db, "SELECT name FROM players ORDER BY id LIMIT 1")
    word = max(fold(str(target)).words, key=len)
    page.fill("#site-search", word[:6])
    result = page.locator(".search-results a", has_text=str(target)[:30]).first
    result.wait_for()
    box = result.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width + 0.5
    result.click()
    page.wait_for_url("**/players/*.html")
    assert page.locator("h1").inner_text().endswith(str(target))
    # the oldest list links the next one
    ((oldest,),) = table_rows(db, "SELECT min(label) FROM rating_periods")
    page.goto((site / "lists" / f"{oldest}.html").as_uri())
    _no_sideways_scroll(page, width)
    page.locator("a[rel=next]").click()
    page.wait_for_url("**/lists/*.html")
    assert oldest not in page.url


@pytest.mark.parametrize("name", SITES)
def test_item_4_a_crosstable_reads(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str
) -> None:
    db, site = sites[name]
    ((event,),) = table_rows(db, "SELECT min(id) FROM events")
    page.goto((site / "events" / f"{event}.html").as_uri())
    _no_sideways_scroll(page, width)  # at 375 px the table scrolls in its wrapper, not the page
    rows = page.locator("table.crosstable tbody tr")
    assert rows.count() >= 2
    names = rows.locator("th a").all_inner_texts()  # the federation follows the name
    if name == "long":
        assert LONG in names
    if width == 1280:
        wrap = page.locator(".table-wrap:has(table.crosstable)")
        assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")


def _first_rating_page(db: Path) -> int:
    """A player whose first rating is on the site (rated, no rating before)."""
    rows = table_rows(
        db,
        "SELECT player_id FROM rating_history WHERE rating_before IS NULL"
        " AND rating_after IS NOT NULL AND time_control = 'standard' ORDER BY player_id LIMIT 1",
    )
    assert rows, "no first rating on this site"
    return int(str(rows[0][0]))


@pytest.mark.parametrize("name", SITES)
def test_item_6_a_first_ratings_card_explains_it(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str
) -> None:
    db, site = sites[name]
    pid = _first_rating_page(db)
    page.goto((site / "players" / f"{pid}.html").as_uri())
    _no_sideways_scroll(page, width)
    first = page.locator("p.card-first").first
    text = first.inner_text()
    assert text.startswith("First rating (art. 8.2): "), text
    box = first.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width + 0.5
    statuses = page.locator("table.history tbody tr td:last-child").all_inner_texts()
    assert "first rating" in statuses


@pytest.mark.parametrize("name", SITES)
def test_item_7_the_json_beside_the_pages(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str
) -> None:
    _, site = sites[name]
    page.goto((site / "index.html").as_uri())
    link = page.locator("a[href$='.json']").first
    assert link.is_visible()
    data = json.loads(_file(link.evaluate("a => a.href")).read_text("utf-8"))
    assert (data["schema_version"], data["kind"]) == (1, "list")
    names = page.locator("table.list tbody th a").all_inner_texts()
    column = data["columns"].index("name")
    assert [row[column] for row in data["players"]] == names
    # a player's page links the player's history and games
    page.locator("table.list tbody th a").first.click()
    page.wait_for_url("**/players/*.html")
    _no_sideways_scroll(page, width)
    link = page.locator("a[href$='.json']").first
    assert link.is_visible()
    player = json.loads(_file(link.evaluate("a => a.href")).read_text("utf-8"))
    assert player["kind"] == "player"
    assert page.locator("h1").inner_text().endswith(player["player"]["name"])
    periods = page.locator("table.history tbody tr:not(.gap) th").all_inner_texts()
    assert set(periods) <= {h["period"] for h in player["history"]}
