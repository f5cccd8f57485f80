"""The list, player and event pages in Chromium at 1280 and 375 px (tests/site/test_browser.py's
browser):
long names wrap and no column is pushed off screen, the list reads at 375 px without sideways
scrolling and the cards stack, the list's headings stay on screen, Rating and Change sort
largest first with blanks last, the chart reads without JavaScript and runs to the newest
list, and a player page's first view loads under 100 KB (Vega only on demand). On the demo
and on a generated site of 160 players, one of them with a 195-character name."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from tests.conftest import table_rows
from tests.publish_helpers import demo, ok
from tests.site.test_browser import browser, shots, watch

pytestmark = pytest.mark.slow

__all__ = ["browser"]  # the fixture, shared

# 195 characters: a 64-letter word that cannot break at a space, then words
LONG = (
    "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftsch, "
    + " ".join(["Maximiliana-Konstantina Bartholomea von Habsburg-Lothringen"] * 3)
)[:195]
WIDTHS = (1280, 375)


def _generated(folder: Path) -> tuple[Path, Path]:
    """160 rated players in two months of games (a 9-round Swiss-like event each month),
    the top-rated one with the 195-character name (a senior); and a newcomer, first rated on
    the second list (9 games with rated players in a second event that month)."""
    assert len(LONG) == 195
    folder.mkdir()
    rng = random.Random(30)
    players = folder / "players.csv"
    lines = ["name,birthdate,fide_id,rating,games,k10,sex,federation,title"]
    for i in range(160):
        name = LONG if i == 0 else f"Player {i:03d}, Test"
        rating = 2300 if i == 0 else rng.randint(1400, 2250)
        born = "1960" if i == 0 else "1990"  # the long name heads the seniors' top lists
        lines.append(f'"{name}",{born}-01-01,{90_000_000 + i},{rating},50,false,m,NED,')
    lines.append(f'"Newcomer, Nina",2010-01-01,{90_000_000 + 160},,0,false,f,NED,')
    players.write_text("\n".join(lines) + "\n", "utf-8")
    games = folder / "games.csv"
    rows = ["date,white,black,result,event,round"]
    for month in (1, 2):
        for rnd in range(1, 10):
            order = list(range(160))
            rng.shuffle(order)
            for a, b in zip(order[::2], order[1::2], strict=True):
                result = rng.choice(("1-0", "0-1", "1/2-1/2"))
                day = f"2025-{month:02d}-{rnd + 1:02d}"
                rows.append(f"{day},{90_000_000 + a},{90_000_000 + b},{result},Open {month},{rnd}")
    for rnd, result in enumerate(("1-0", "0-1", "1/2-1/2") * 3, start=1):
        rows.append(f"2025-02-{rnd + 10:02d},{90_000_160},{90_000_000 + 100 + rnd},{result},"
                    f"Newcomers,{rnd}")  # fmt: skip
    games.write_text("\n".join(rows) + "\n", "utf-8")
    db = folder / "long.db"
    ok("--db", str(db), "init")
    ok("--db", str(db), "import", "players", str(players))
    ok("--db", str(db), "import", "games", str(games))
    ok("--db", str(db), "rate")
    site = folder / "site"
    ok("publish", str(site), "--db", str(db), "--title", "Long Names Club")
    return db, site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    folder = tmp_path_factory.mktemp("pages-browser")
    db = demo(folder)
    ok("publish", str(folder / "demo"), "--db", str(db), "--title", "Demo Chess Club")
    return {"demo": (db, folder / "demo"), "long": _generated(folder / "long")}


@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def width(request: pytest.FixtureRequest) -> int:
    width: int = request.param
    return width


@pytest.fixture
def page(browser: Any, width: int) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": width, "height": 800})
    opened = context.new_page()
    opened.problems = watch(opened)
    yield opened
    assert opened.problems == []
    context.close()


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return dict(box)


def _no_sideways_scroll(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("name", ["demo", "long"])
def test_the_list_holds_its_columns(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str, tmp_path: Path
) -> None:
    db, site = sites[name]
    page.goto((site / "index.html").as_uri())
    _no_sideways_scroll(page, width)
    wrap = page.locator(".table-wrap:has(table.list)")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")  # nothing to scroll to
    rows = page.locator("table.list tbody tr")
    first = rows.filter(has_text=LONG[:40]) if name == "long" else rows.first
    name_cell = _box(first.locator("th"))
    assert name_cell["x"] >= 0
    # every column shown is on screen, in the long name's row
    for cell in first.locator("td").all():
        if cell.is_visible():
            box = _box(cell)
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= width + 0.5, cell.inner_text()
    if width == 1280:
        assert first.locator("td").nth(8).is_visible()  # Flags, the last column
    if name == "long":
        assert first.locator("th").inner_text() == LONG
        other = _box(rows.filter(has_not_text=LONG[:40]).first.locator("th"))
        assert name_cell["height"] > 2 * other["height"]  # wrapped onto several lines
        folder = shots(tmp_path) if width == 1280 else tmp_path  # the README shows it
        page.screenshot(path=str(folder / "list-long-name.png"))
    # the headings stay on screen down a long list
    count = rows.count()
    if count > 100:
        page.mouse.wheel(0, 3000)
        page.wait_for_function("window.scrollY > 2000")
        head = _box(page.locator("table.list thead th").first)
        assert -1 <= head["y"] <= 1, head
    assert count == len(table_rows(db, _NEWEST_LIST))


_NEWEST_LIST = (
    "SELECT h.player_id FROM rating_history h WHERE h.rating_after IS NOT NULL AND h.period_id ="
    " (SELECT max(id) FROM rating_periods) AND h.time_control = 'standard'"
)


def _column(page: Any, n: int) -> list[str]:
    texts: list[str] = page.locator(f"table.list tbody tr td:nth-child({n})").all_inner_texts()
    return texts


@pytest.mark.parametrize("name", ["demo", "long"])
def test_rating_and_change_sort_largest_first_blanks_last(
    page: Any, sites: dict[str, tuple[Path, Path]], name: str
) -> None:
    _, site = sites[name]
    page.goto((site / "index.html").as_uri())
    for column, n in (("Rating", 6), ("Change", 7)):
        button = page.locator("table.list thead th", has_text=column).locator("button")
        for click, largest_first in ((1, True), (2, False)):
            button.click()
            values = _column(page, n)
            numbers = [int(v) for v in values if v not in ("", "new")]
            assert numbers == sorted(numbers, reverse=largest_first), (column, click)
            blanks = [i for i, v in enumerate(values) if v == ""]
            assert blanks == list(range(len(values) - len(blanks), len(values))), (column, click)
            if column == "Change" and name == "demo":
                assert blanks  # unchanged players exist, and sort last both ways


def _first_view(page: Any, url: str) -> tuple[int, list[str]]:
    """Bytes the first view of ``url`` loads (each file:// resource's size) and the files."""
    loaded: list[str] = []
    page.on("request", lambda r: loaded.append(r.url))
    page.goto(url)
    page.wait_for_load_state("load")
    paths = [Path(unquote(urlparse(u).path)) for u in loaded]
    assert all(u.startswith("file://") for u in loaded), loaded
    return sum(p.stat().st_size for p in paths), [p.name for p in paths]


@pytest.mark.parametrize("name", ["demo", "long"])
def test_the_player_page_is_light_and_charts_without_javascript(
    browser: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str, tmp_path: Path
) -> None:
    db, site = sites[name]
    newest = str(table_rows(db, "SELECT max(label) FROM rating_periods")[0][0])
    pid = 1
    heaviest = max((site / "players").glob("*.html"), key=lambda p: p.stat().st_size)
    for js in (True, False):
        context = browser.new_context(
            viewport={"width": width, "height": 800}, java_script_enabled=js
        )
        page = context.new_page()
        problems = watch(page)
        weight, files = _first_view(page, (site / "players" / f"{pid}.html").as_uri())
        assert weight < 100_000, (weight, files)
        assert "vega.js" not in files
        _no_sideways_scroll(page, width)
        plot = _box(page.locator(".rchart-plot"))
        line = _box(page.locator(".rchart-line"))
        carry = _box(page.locator(".rchart-plot .rchart-carry"))
        assert plot["width"] > 250
        assert plot["height"] > 150
        assert abs(line["x"] - plot["x"]) < 2  # the history starts at the left ...
        # ... and the carry ends at the right edge
        assert abs(carry["x"] + carry["width"] - (plot["x"] + plot["width"])) < 2
        label = page.locator(".rchart-x .rchart-newest")
        content = label.evaluate("e => getComputedStyle(e, '::after').content")
        assert content == f'"{newest}"'  # the line runs to the newest list, labelled so
        step = _box(page.locator(".rchart-step"))
        assert step["width"] > 0.5 * line["width"] or step["height"] > 0
        if js:
            if (name, width) == ("demo", 375):  # the README shows it
                page.screenshot(path=str(shots(tmp_path) / "player-375px.png"))
                card = page.locator("section.card").first
                card.screenshot(path=str(shots(tmp_path) / "card-375px.png"))
            # the interactive chart, on demand
            page.locator("button.chart-more").click()
            page.wait_for_selector("#chart[data-drawn=true] svg", timeout=15_000)
            assert not page.locator(".rchart").is_visible()
        else:
            assert page.locator("button.chart-more").count() == 0
        weight, files = _first_view(page, heaviest.as_uri())
        assert weight < 100_000 or heaviest.stat().st_size > 90_000, (weight, files)
        assert problems == []
        context.close()


def test_the_cards_stack_at_375_px(browser: Any, sites: dict[str, tuple[Path, Path]]) -> None:
    _, site = sites["demo"]
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto((site / "players" / "15.html").as_uri())
    _no_sideways_scroll(page, 375)
    for card in page.locator("table.card").all():
        box = _box(card)
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 375
        assert card.evaluate("e => e.parentNode.scrollWidth <= e.parentNode.clientWidth")
    ro = page.locator("table.card tbody td:nth-child(6)").first
    assert ro.evaluate("e => getComputedStyle(e, '::before').content") == '"Ro "'
    first = page.locator("p.card-first").first
    assert first.inner_text().startswith("First rating (art. 8.2): ")
    context.close()


def test_a_crosstable_keeps_its_columns_at_1280_px(
    browser: Any, sites: dict[str, tuple[Path, Path]]
) -> None:
    db, site = sites["long"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    ((event,),) = table_rows(db, "SELECT min(id) FROM events")
    page.goto((site / "events" / f"{event}.html").as_uri())
    _no_sideways_scroll(page, 1280)
    row = page.locator("table.crosstable tbody tr", has_text=LONG[:40])
    last = _box(row.locator("td").last)
    assert last["x"] + last["width"] <= 1280
    assert page.locator(".table-wrap:has(table.crosstable)").evaluate(
        "e => e.scrollWidth <= e.clientWidth"
    )
    context.close()


def _spec(site: Path, pid: int) -> dict[str, Any]:
    """The interactive chart's specification in a player's page."""
    text = (site / "players" / f"{pid}.html").read_text("utf-8")
    (body,) = re.findall(r'<script type="application/json" class="chart-spec"[^>]*>(.*?)</script>',
                         text, re.S)  # fmt: skip
    spec: dict[str, Any] = json.loads(body)
    return spec


def _charted(site: Path) -> list[int]:
    """Player 1, the player whose last change is the oldest, one whose line breaks (a fall
    below the floor) and one with a single rating, those of them the site has."""
    specs: dict[int, dict[str, Any]] = {}
    for path in (site / "players").glob("*.html"):
        if 'class="chart-spec"' in path.read_text("utf-8"):
            specs[int(path.stem)] = _spec(site, int(path.stem))

    def params(pid: int) -> dict[str, Any]:
        return {p["name"]: p["value"] for p in specs[pid]["params"]}

    def segments(pid: int) -> int:
        return len({d["segment"] for d in specs[pid]["layer"][0]["data"]["values"]})

    chosen = [1, min(specs, key=lambda pid: (params(pid)["newest"], pid))]
    chosen += [pid for pid in sorted(specs) if segments(pid) > 1][:1]
    chosen += [pid for pid in sorted(specs) if len(specs[pid]["layer"][1]["data"]["values"]) == 1][
        :1
    ]
    return list(dict.fromkeys(chosen))


_X_LABELS = """() => {
  const axis = Array.from(document.querySelectorAll('#chart g.role-axis'))
    .find(g => (g.getAttribute('aria-label') || '').startsWith('X-axis'));
  return Array.from(axis.querySelectorAll('.role-axis-label text')).map(t => t.textContent);
}"""
_RIGHT = """() => {
  const right = e => e.getBoundingClientRect().right;
  const lines = Array.from(document.querySelectorAll('#chart g.mark-line path')).map(right);
  const domain = document.querySelector('#chart g.role-axis-domain line');
  return [Math.max(...lines), right(domain)];
}"""


@pytest.mark.parametrize("name", ["demo", "long"])
def test_the_interactive_chart_runs_to_the_newest_list_by_period(
    page: Any, width: int, sites: dict[str, tuple[Path, Path]], name: str, tmp_path: Path
) -> None:
    db, site = sites[name]
    labels = [str(label) for (label,) in table_rows(db, "SELECT label FROM rating_periods")]
    newest = max(labels)
    places = {label: i for i, label in enumerate(sorted(labels))}
    places[f"before {min(labels)}"] = -1
    chosen = _charted(site)
    assert len(chosen) >= (3 if name == "demo" else 2), chosen
    for pid in chosen:
        spec = _spec(site, pid)
        page.goto((site / "players" / f"{pid}.html").as_uri())
        svg_dots = page.locator(".rchart-dots").get_attribute("d").count("h0")
        page.locator("button.chart-more").click()
        page.wait_for_selector("#chart[data-drawn=true] svg", timeout=15_000)
        _no_sideways_scroll(page, width)
        # the axis is labelled by period, in order, the newest list last
        ticks = page.evaluate(_X_LABELS)
        assert ticks[-1] == newest, (pid, ticks)
        assert [places[t] for t in ticks] == sorted({places[t] for t in ticks}), (pid, ticks)
        # a dot on each list's rating: the dots of the chart without JavaScript, and the
        # table's ratings
        dots = page.locator("#chart g.mark-symbol path").evaluate_all(
            "ps => ps.map(p => p.getAttribute('aria-label'))"
        )
        assert len(dots) == svg_dots, pid
        rows = {
            row.locator("th").inner_text(): row.locator("td").all_inner_texts()
            for row in page.locator("table.history tbody tr:not(.gap)").all()
        }
        for dot in dots:  # "period: rating (change)", the change as the table's
            period, rating = dot.rsplit(": ", 1)
            rating, _, change = rating.partition(" (")
            if period.startswith("before "):  # the rating before the oldest row shown
                assert rows[min(rows)][0] == rating, (pid, dot)
                assert change == "", (pid, dot)
            else:
                assert rows[period][1] == rating, (pid, dot)
                assert change.rstrip(")") == rows[period][2], (pid, dot)
        # the x axis is read out in periods (Vega's own text gives the numbers it is drawn on)
        axis = page.locator("#chart g[aria-roledescription=axis]").first
        assert axis.get_attribute("aria-label") == (
            f"X-axis titled 'Period': the periods from {ticks[0]} to the newest list, {newest}"
        )
        # a dot's tooltip gives the period, the rating and the change
        page.locator("#chart g.mark-symbol path").last.hover()
        tooltip = page.locator("#vg-tooltip-element")
        tooltip.wait_for()
        assert "Change" in tooltip.inner_text()
        # the line holds the last rating on to the newest list (its right edge), unless
        # the last point is a fall below the floor
        line_right, axis_right = page.evaluate(_RIGHT)
        carried = any(d.get("carry") for d in spec["layer"][0]["data"]["values"])
        if carried:
            assert abs(line_right - axis_right) < 1.5, (pid, line_right, axis_right)
        else:
            assert line_right < axis_right - 5, pid
        if name == "demo" and width == 1280 and pid == chosen[1]:  # the README shows it
            page.locator("figure.chart").screenshot(
                path=str(shots(tmp_path) / "player-chart-interactive.png")
            )


_SHOWN_X_LABELS = """() => Array.from(
    document.querySelectorAll('.rchart-ticks > span, .rchart-x .rchart-newest'))
  .filter(e => e.getClientRects().length && getComputedStyle(e).opacity !== '0'
               && getComputedStyle(e).visibility !== 'hidden')
  .map(e => e.classList.contains('rchart-newest')
            ? JSON.parse(getComputedStyle(e, '::after').content) : e.textContent)
  .filter(t => t)"""


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_a_newcomer_s_chart_names_the_newest_list_once(
    browser: Any, width: int, sites: dict[str, tuple[Path, Path]], js: bool
) -> None:
    """A player first rated on the newest list: one dot, and the list's label under the axis
    once (it was twice: the tick under the dot and the newest list's label at the right).
    Next month, with the page not rewritten (only ``assets/newest.css`` changes), the dot's
    tick shows again beside the newer list's label."""
    db, site = sites["long"]
    ((pid,),) = table_rows(db, "SELECT id FROM players WHERE name = 'Newcomer, Nina'")
    newest = str(table_rows(db, "SELECT max(label) FROM rating_periods")[0][0])
    context = browser.new_context(viewport={"width": width, "height": 800}, java_script_enabled=js)
    page = context.new_page()
    page.goto((site / "players" / f"{pid}.html").as_uri())
    assert page.locator(".rchart-dots").get_attribute("d").count("h0") == 1
    assert page.evaluate(_SHOWN_X_LABELS) == [newest]
    # the next list, as the next publish's assets/newest.css says it
    last = int(
        page.locator(".rchart").evaluate("e => getComputedStyle(e).getPropertyValue('--last')")
    )
    page.evaluate(
        "n => { const s = document.documentElement.style; s.setProperty('--newest', n);"
        " s.setProperty('--newest-label', '\"2025-03\"'); }",
        str(last + 1),
    )
    assert page.evaluate(_SHOWN_X_LABELS) == [newest, "2025-03"]
    context.close()
