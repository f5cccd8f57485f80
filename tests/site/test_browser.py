"""The published demo site in a real browser: headless Chromium from the distribution
(``apt-get install chromium``; never a browser downloaded at run time), driven by Playwright.

Opens ``index.html`` from ``file://``: the list's rows match the database, a click on a
name opens that player's page, the chart is drawn, the console shows no error, the list
reads at 375 px and without JavaScript. Screenshots go to the test's folder, or to
``docs/screenshots/`` (for the README) with ``RATINGS_SCREENSHOTS=docs``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import table_rows
from tests.publish_helpers import demo, ok

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("RATINGS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# as root Chromium needs --no-sandbox; the rest keeps it off the (closed) network
ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-extensions",
]  # fmt: skip


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).is_file():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
        if os.environ.get("RATINGS_REQUIRE_BROWSER") == "1":  # .ci/run, once it installed one
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as p:
        # Playwright gives the browser a fresh, temporary profile (--user-data-dir)
        launched = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("browser")
    db = demo(folder)
    ok("publish", str(folder / "site"), "--db", str(db), "--title", "Demo Chess Club")
    return db, folder / "site"


def shots(tmp_path: Path) -> Path:
    if os.environ.get("RATINGS_SCREENSHOTS") == "docs":
        folder = ROOT / "docs" / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return tmp_path


def watch(page: Any) -> list[str]:
    """Console errors and warnings, and uncaught exceptions, of a page."""
    problems: list[str] = []

    def console(message: Any) -> None:
        if message.type in ("error", "warning"):
            problems.append(f"{message.type}: {message.text}")

    page.on("console", console)
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    return problems


def test_the_demo_site_in_chromium(browser: Any, site: tuple[Path, Path], tmp_path: Path) -> None:
    db, root = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = watch(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((root / "index.html").as_uri())
    assert page.title() == "Rating list · Demo Chess Club"

    # the list's rows are the database's newest list, in order
    names = page.locator("table.list tbody th a").all_inner_texts()
    ratings = page.locator("table.list tbody tr td:nth-child(6)").all_inner_texts()
    expected = table_rows(
        db,
        "SELECT p.name, h.rating_after FROM rating_history h JOIN players p ON p.id = h.player_id"
        " JOIN rating_periods r ON r.id = h.period_id WHERE r.label = '2025-12'"
        " AND h.rating_after IS NOT NULL ORDER BY h.rating_after DESC, lower(p.name), p.id",
    )
    assert list(zip(names, map(int, ratings), strict=True)) == expected
    page.screenshot(path=str(shots(tmp_path) / "index.png"))

    # progressive JavaScript: sorting (Rating: the largest first, then the other way) and
    # filtering
    button = page.locator("table.list thead th", has_text="Rating").locator("button")
    button.click()
    descending = page.locator("table.list tbody tr td:nth-child(6)").all_inner_texts()
    assert list(map(int, descending)) == sorted((int(str(r)) for _, r in expected), reverse=True)
    button.click()
    ascending = page.locator("table.list tbody tr td:nth-child(6)").all_inner_texts()
    assert list(map(int, ascending)) == sorted(int(str(r)) for _, r in expected)
    page.fill("input[type=search]", str(expected[0][0])[:5])
    page.wait_for_function("document.querySelector('[role=status]').textContent !== ''")
    visible = page.locator("table.list tbody tr:not([hidden])").count()
    assert 1 <= visible < len(expected)
    page.fill("input[type=search]", "")

    # a click on a name opens that player's page, with the chart drawn
    first = expected[0][0]
    page.locator("table.list tbody th a", has_text=str(first)).first.click()
    page.wait_for_url("**/players/*.html")
    assert page.locator("h1").inner_text().endswith(str(first))
    # the chart drawn at publish time, on screen before any script
    box = page.locator(".rchart-plot").bounding_box()
    assert box is not None
    assert box["width"] > 300
    assert box["height"] > 150
    assert page.locator("table.history tbody tr").count() >= 1
    assert page.locator("section.card").count() >= 1
    page.screenshot(path=str(shots(tmp_path) / "player.png"), full_page=False)
    # the interactive chart, loaded on demand
    page.locator("button.chart-more").click()
    page.wait_for_selector("#chart[data-drawn=true] svg", timeout=15_000)
    box = page.locator("#chart svg").bounding_box()
    assert box is not None
    assert box["width"] > 300
    assert box["height"] > 150
    assert page.locator("#chart svg path").count() > 3  # axes, grid and the rating line

    # an event page from a card
    page.locator("section.card a[href^='../events/']").first.click()
    page.wait_for_url("**/events/*.html")
    assert page.locator("table.crosstable tbody tr").count() >= 2

    assert problems == []
    assert all(url.startswith("file://") for url in requests), requests
    page.close()


def test_the_list_reads_at_375_px_and_without_javascript(
    browser: Any, site: tuple[Path, Path], tmp_path: Path
) -> None:
    _, root = site
    page = browser.new_page(viewport={"width": 375, "height": 812})
    problems = watch(page)
    page.goto((root / "index.html").as_uri())
    # the page itself does not scroll sideways, and name and rating are on screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    for column in ("th a", "td:nth-child(6)"):
        cell = page.locator(f"table.list tbody tr:first-child {column}").bounding_box()
        assert cell is not None
        assert cell["x"] >= 0
        assert cell["x"] + cell["width"] <= 375
    page.screenshot(path=str(shots(tmp_path) / "index-375px.png"))
    assert problems == []
    page.close()

    no_js = browser.new_context(java_script_enabled=False)
    page = no_js.new_page()
    page.goto((root / "players" / "1.html").as_uri())
    assert page.locator("table.history tbody tr").count() >= 1  # the chart's text equivalent
    assert page.locator("section.card").count() >= 1
    page.goto((root / "index.html").as_uri())
    assert page.locator("table.list tbody tr").count() == 39
    no_js.close()
