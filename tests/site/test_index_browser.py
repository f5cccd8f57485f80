"""The search box, the players and events pages in Chromium, at 1280 and
375 px, from ``file://``: accents folded as the matcher folds them (the script's folding is
compared with :func:`ratings.matching.fold` name by name), results that link the player's
page, nothing fetched from the network, no console error, and the players page reached
without JavaScript. Screenshots as tests/site/test_browser.py takes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ratings.matching import fold
from tests.publish_helpers import demo, ok
from tests.site.test_browser import browser, shots, watch
from tests.site.test_index import EDGE_NAMES, edge_db
from tests.site.test_phone_browser import axe_violations

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


def _filtered(page: Any, query: str) -> list[str]:
    """The names the table's filter leaves shown for ``query``."""
    box = page.locator("p.filter input")
    box.fill(query)
    page.wait_for_function(
        "q => document.querySelector('p.filter [role=status]').dataset.query === q", arg=query
    )
    names: list[str] = page.locator("table.filterable tbody tr:not([hidden]) th").all_inner_texts()
    return names


def test_the_filter_folds_as_the_search_box(browser: Any, edge_site: Path) -> None:
    """The players' and the lists' filter: accents and case folded as the search box folds
    them (every word typed starts a word of the name), a title or federation only as a
    whole word."""
    page = browser.new_page()
    problems = watch(page)
    page.goto((edge_site / "players.html").as_uri())
    assert _filtered(page, "jiri") == ["Novák, Jiří"]
    assert _filtered(page, "oberg") == ["Öberg, Åsa"]
    assert _filtered(page, "OEBERG") == ["Öberg, Åsa"]
    assert _filtered(page, "mueller") == ["Müller, Jan"]
    assert _filtered(page, "müller JAN") == ["Müller, Jan"]
    assert _filtered(page, "script alert") == ["<script>alert(1)</script>"]
    assert _filtered(page, "qqqq") == []
    assert page.locator("p.filter [role=status]").inner_text() == "0 of 6 players"
    assert len(_filtered(page, "")) == 6
    page.goto((edge_site / "index.html").as_uri())
    assert _filtered(page, "oberg") == ["Öberg, Åsa"]
    assert problems == []
    page.close()


def test_a_title_is_a_whole_word(browser: Any, demo_site: Path) -> None:
    page = browser.new_page()
    page.goto((demo_site / "players.html").as_uri())
    assert _filtered(page, "IM") == ["Elard, Carl", "Isstein, Felix"]  # not "Danelez, Wim"
    assert _filtered(page, "wim") == ["Danelez, Wim", "Ostarova, Wim"]
    assert _filtered(page, "im elard") == ["Elard, Carl"]
    assert len(_filtered(page, "ned")) == 36  # of 40: one each of ENG, FRA, GER, IND
    assert len(_filtered(page, "ind")) == 1
    page.goto((demo_site / "index.html").as_uri())
    assert _filtered(page, "im") == ["Elard, Carl", "Isstein, Felix"]  # by rank
    page.close()


def test_players_html_q_filters(browser: Any, edge_site: Path, demo_site: Path) -> None:
    """The search box without a result to open (or without JavaScript) goes to
    players.html?q=...: the page opens filtered."""
    page = browser.new_page()
    page.goto((edge_site / "players.html").as_uri() + "?q=mueller")
    page.wait_for_function("document.querySelector('p.filter [role=status]').dataset.query")
    assert page.locator("p.filter input").input_value() == "mueller"
    shown = page.locator("table.players tbody tr:not([hidden]) th").all_inner_texts()
    assert shown == ["Müller, Jan"]
    page.goto((demo_site / "index.html").as_uri())
    page.fill("#site-search", "zzzz")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/players.html?q=zzzz")
    page.wait_for_function("document.querySelector('p.filter [role=status]').dataset.query")
    assert page.locator("table.players tbody tr:not([hidden])").count() == 0
    page.close()


def test_a_rapid_site_finds_every_player(browser: Any, edge_site: Path) -> None:
    """The rapid site's own players are found on its pages, the others on the standard
    site's: the box finds every player of the register from any sub-site."""
    page = browser.new_page()
    page.goto((edge_site / "rapid/index.html").as_uri())
    assert _results(page, "jiri") == ["Novák, Jiří"]  # on the rapid list too
    assert _results(page, "mueller") == ["Müller, Jan"]  # standard only
    assert _results(page, "lonely") == ["Lonely, Kid"]
    page.locator("#search-results a").first.click()
    page.wait_for_load_state()
    assert page.url == (edge_site / "players/6.html").as_uri()
    page.goto((edge_site / "rapid/index.html").as_uri())
    _results(page, "oberg")
    page.locator("#search-results a").first.click()
    page.wait_for_load_state()
    assert page.url == (edge_site / "rapid/players/1.html").as_uri()
    page.close()


def test_the_search_box_is_a_combobox(browser: Any, demo_site: Path) -> None:
    """ARIA's combobox pattern: the box says whether its list is open, the arrow keys move
    through the results (the box keeps the focus), Enter opens the one chosen, Escape
    closes the list."""
    page = browser.new_page()
    problems = watch(page)
    page.goto((demo_site / "players/3.html").as_uri())
    box = page.locator("#site-search")
    assert box.get_attribute("role") == "combobox"
    assert box.get_attribute("aria-expanded") == "false"
    names = _results(page, "a")
    assert len(names) > 2
    assert box.get_attribute("aria-expanded") == "true"
    listbox = page.locator("#" + str(box.get_attribute("aria-controls")))
    assert listbox.get_attribute("role") == "listbox"
    options = listbox.locator("[role=option]")
    assert options.all_inner_texts() == names
    assert axe_violations(page) == []  # the list open

    def active() -> str:
        chosen = box.get_attribute("aria-activedescendant")
        if not chosen:
            return ""
        selected = page.locator(f"#{chosen}")
        assert selected.get_attribute("aria-selected") == "true"
        return str(selected.inner_text())

    assert active() == ""
    box.press("ArrowDown")
    assert active() == names[0]
    box.press("ArrowDown")
    assert active() == names[1]
    box.press("ArrowUp")
    assert active() == names[0]
    box.press("ArrowUp")  # wraps to the last
    assert active() == names[-1]
    assert page.evaluate("document.activeElement.id") == "site-search"
    box.press("Escape")
    assert box.get_attribute("aria-expanded") == "false"
    assert page.locator("#search-results").is_hidden()
    assert active() == ""
    box.press("ArrowDown")  # opens the list again, on the first
    assert box.get_attribute("aria-expanded") == "true"
    assert active() == names[0]
    box.press("ArrowDown")
    href = page.locator(f"#{box.get_attribute('aria-activedescendant')}").get_attribute("href")
    box.press("Enter")
    page.wait_for_load_state()
    assert page.url.endswith(str(href).lstrip("."))
    assert problems == []
    page.close()
