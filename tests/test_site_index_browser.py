"""The search box, the players and events pages in Chromium (issue 30, item 2), at 1280 and
375 px, from ``file://``: accents folded as the matcher folds them (the script's folding is
compared with :func:`ratings.matching.fold` name by name), results that link the player's
page, nothing fetched from the network, no console error, and the players page reached
without JavaScript. Screenshots as tests/test_browser.py takes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ratings.matching import fold
from tests.publish_helpers import demo, ok
from tests.test_browser import browser, shots, watch
from tests.test_site_index import EDGE_NAMES, edge_db

pytestmark = pytest.mark.slow
__all__ = ["browser", "edge_db"]  # the fixtures, imported


@pytest.fixture(scope="module")
def edge_site(edge_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("edge-browser") / "site"
    ok("publish", str(site), "--db", str(edge_db), "--list", "all", "--title", "Edge Club")
    return site


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo-browser")
    db = demo(folder)
    ok("publish", str(folder / "site"), "--db", str(db), "--title", "Demo Chess Club")
    return folder / "site"


def _results(page: Any, query: str) -> list[str]:
    page.fill("#site-search", query)
    page.wait_for_function(
        "q => window.ratingsIndex && document.querySelector('#site-search').value === q"
        " && !document.querySelector('#search-results').hidden",
        arg=query,
    )
    page.wait_for_timeout(150)  # the input handler waits 80 ms before it searches
    texts: list[str] = page.locator("#search-results a").all_inner_texts()
    return texts


@pytest.mark.parametrize("width", [1280, 375])
def test_the_search_box_finds_any_player_with_accents_folded(
    browser: Any, edge_site: Path, tmp_path: Path, width: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 800})
    problems = watch(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((edge_site / "lists/2025-03.html").as_uri())
    assert "Öberg, Åsa" in _results(page, "oberg")
    assert _results(page, "OEBERG") == ["Öberg, Åsa"]
    assert _results(page, "muller") == ["Müller, Jan"]
    assert _results(page, "mueller") == ["Müller, Jan"]
    assert _results(page, "Müller") == ["Müller, Jan"]
    assert _results(page, "novak jir") == ["Novák, Jiří"]
    assert _results(page, "jiri") == ["Novák, Jiří"]  # "r" finds "ř"
    assert _results(page, "jiř") == ["Novák, Jiří"]
    assert _results(page, "lonely") == ["Lonely, Kid"]  # registered, never played
    assert _results(page, "script alert") == ["<script>alert(1)</script>"]  # as text
    assert page.locator("#search-results li script").count() == 0
    assert page.locator("#search-results [role=status]").inner_text() == "1 player found"
    page.fill("#site-search", "qqqq")
    page.wait_for_function("document.querySelector('#search-results [role=status]')"
                           ".textContent === 'No player found'")  # fmt: skip

    # the results box stays on the screen
    _results(page, "a")
    box = page.locator("#search-results").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= width + 0.5
    page.screenshot(path=str(shots(tmp_path) / f"search-{width}px.png"))

    # a result opens the player's page; Enter opens the first
    _results(page, "oberg")
    page.locator("#search-results a", has_text="Öberg, Åsa").click()
    page.wait_for_load_state()
    assert page.url.endswith("/players/1.html")
    assert page.locator("h1").inner_text() == "Öberg, Åsa"
    _results(page, "mueller")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/players/2.html")

    # the rapid site's own search, one folder down
    page.goto((edge_site / "rapid/players/1.html").as_uri())
    assert _results(page, "oberg") == ["Öberg, Åsa"]
    page.locator("#search-results a").first.click()
    page.wait_for_url("**/rapid/players/1.html")
    assert all(url.startswith("file://") for url in requests), requests
    assert problems == []
    page.close()


def test_the_script_folds_every_name_as_the_matcher(browser: Any, edge_site: Path) -> None:
    page = browser.new_page()
    page.goto((edge_site / "players.html").as_uri())
    _results(page, "a")
    names = [*EDGE_NAMES, "Dvořáková-Kühn, Zoë", "Quiñones, Iñaki", "Æsir, Þór", "ǅemal"]
    got = page.evaluate("names => names.map(n => window.ratingsSearch.words(n))", names)
    assert got == [list(fold(n).words) for n in names]
    page.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_players_and_events_pages(
    browser: Any, demo_site: Path, tmp_path: Path, width: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems = watch(page)
    page.goto((demo_site / "index.html").as_uri())
    page.locator("nav a", has_text="Players").click()
    page.wait_for_url("**/players.html")
    rows = page.locator("table.players tbody tr")
    assert rows.count() == 40
    # the page reads without sideways scrolling of the page itself
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    name = "players.png" if width == 1280 else "players-375px.png"
    page.screenshot(path=str(shots(tmp_path) / name))
    page.locator("nav a", has_text="Events").click()
    page.wait_for_url("**/events.html")
    assert page.locator("table.events tbody tr").count() == 15
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("table.events tbody th a").first.click()
    page.wait_for_url("**/events/*.html")
    assert page.locator("table.crosstable").count() == 1
    assert problems == []
    page.close()


def test_without_javascript_the_box_opens_the_players_page(browser: Any, edge_site: Path) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((edge_site / "players/3.html").as_uri())
    page.fill("#site-search", "oberg")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/players.html?q=oberg")
    assert page.locator("h1").inner_text() == "Players"
    assert page.locator("table.players a", has_text="Öberg, Åsa").count() == 1
    context.close()


def test_the_index_is_loaded_only_when_searching(browser: Any, edge_site: Path) -> None:
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((edge_site / "players/1.html").as_uri())
    page.wait_for_load_state("load")
    assert not any(u.endswith("players-index.js") for u in requests)
    page.focus("#site-search")
    page.wait_for_function("window.ratingsIndex !== undefined")
    assert [u for u in requests if u.endswith("players-index.js")] == [
        (edge_site / "assets/players-index.js").as_uri()
    ]
    assert json.dumps(page.evaluate("window.ratingsIndex.players.length")) == "6"
    page.close()
