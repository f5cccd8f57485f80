"""The top lists in Chromium at 1280 and 375 px: the top lists beside each list
(``lists/YYYY-MM-top.html``) on the demo and on the generated site with a 195-character name
(tests/site/test_pages_browser.py builds both): linked from the list, every category's table
readable (no column pushed off screen, no sideways scrolling), the rows those of the CSV
beside it, which the page links, and every link leads to a page of the site."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from tests.conftest import table_rows
from tests.site.test_browser import browser, shots
from tests.site.test_pages_browser import LONG, page, sites, width

pytestmark = pytest.mark.slow

__all__ = ["browser", "page", "sites", "width"]  # the fixtures, shared


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return dict(box)


def _csv(path: Path) -> dict[str, list[tuple[str, str]]]:
    """The CSV's rows by category: (name, rating)."""
    rows: dict[str, list[tuple[str, str]]] = {}
    for row in csv.DictReader(io.StringIO(path.read_text("utf-8"))):
        rows.setdefault(row["category"], []).append((row["name"], row["rating"]))
    return rows


@pytest.mark.parametrize("name", ["demo", "long"])
def test_the_top_lists_read_at_1280_and_375_px(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str, tmp_path: Path
) -> None:
    db, site = sites[name]
    ((newest,),) = table_rows(db, "SELECT max(label) FROM rating_periods")
    # linked from the newest list
    page.goto((site / "index.html").as_uri())
    page.locator(f"a[href$='lists/{newest}-top.html']").first.click()
    page.wait_for_url(f"**/lists/{newest}-top.html")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    # the CSV beside it, linked
    link = page.locator(f"a[href$='{newest}-top.csv']")
    assert link.count() == 1
    target = Path(unquote(urlparse(link.evaluate("a => a.href")).path))
    assert target == site / "lists" / f"{newest}-top.csv"
    expected = _csv(target)
    # every category's table: the CSV's rows, each cell on screen, nothing to scroll to
    sections = page.locator("section[id]")
    assert sections.count() == len(expected)
    assert sections.evaluate_all("ss => ss.map(s => s.id)") == list(expected)
    for section in sections.all():
        key = section.get_attribute("id")
        assert key is not None
        section.scroll_into_view_if_needed()
        wrap = section.locator(".table-wrap")
        assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth"), key
        rows = section.locator("table.top tbody tr")
        got = [
            (row.locator("th").inner_text(), row.locator("td").last.inner_text())
            for row in rows.all()
        ]
        if key == "improvers":  # Gain is the last column: compare the rating after
            got = [(n, row.locator("td").nth(4).inner_text()) for (n, _), row in
                   zip(got, rows.all(), strict=True)]  # fmt: skip
        assert got == expected[key], key
        for row in rows.all():
            for cell in row.locator("th, td").all():
                if not cell.is_visible():  # a column a phone leaves out (the CSV has it),
                    # or the birth years, which this site does not publish (empty)
                    assert width == 375 or cell.text_content() == "", (key, cell.inner_text())
                    continue
                box = _box(cell)
                assert box["x"] >= 0, (key, cell.inner_text())
                assert box["x"] + box["width"] <= width + 0.5, (key, cell.inner_text())
        # the category's entry in the list of top lists leads to it
        assert page.locator(f"nav.top-lists a[href='#{key}']").count() == 1
    # every link leads to a file of the site
    hrefs = page.locator("main a[href], nav a[href]").evaluate_all("as => as.map(a => a.href)")
    for href in hrefs:
        url = urlparse(href)
        assert url.scheme == "file", href
        path = Path(unquote(url.path))
        assert path.is_file(), href
        if url.fragment:
            assert f'id="{url.fragment}"' in path.read_text("utf-8"), href
    if name == "long":
        senior = page.locator("section[id='50plus'] table.top tbody tr").first
        assert senior.locator("th").inner_text() == LONG
        lines = senior.locator("th a").evaluate("a => a.getClientRects().length")
        assert lines >= 2  # wrapped
    else:
        page.evaluate("window.scrollTo(0, 0)")  # the README shows the page's start
        page.screenshot(path=str(shots(tmp_path) / f"top-{width}px.png"))
    # a player's name opens the player's page
    first = page.locator("table.top tbody th a").first
    player = first.inner_text()
    first.click()
    page.wait_for_url("**/players/*.html")
    assert page.locator("h1").inner_text().endswith(player)
