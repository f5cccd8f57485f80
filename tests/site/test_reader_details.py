"""What readers of the published site notice (the small things): the previous and next lists
with a space between them and the next list's date, a favicon and a meta description on
every page, the 700 rule's K rounded down, and the birth years (and a player page's sex)
published only with ``publish --show-birth-year`` (the top lists' age categories shown
either way)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from tests.publish_helpers import demo, ok


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo(tmp_path_factory.mktemp("details"))


@pytest.fixture(scope="module")
def hidden(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("hidden") / "site"
    ok("publish", str(site), "--db", str(demo_db))
    return site


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_the_lists_name_the_previous_and_next_list_apart(hidden: Path) -> None:
    middle = _text((hidden / "lists/2025-05.html").read_text("utf-8"))
    assert "Previous list: 2025-04. Next list: 2025-06." in middle
    newest = _text((hidden / "lists/2025-12.html").read_text("utf-8"))
    # the list of period 2025-12 is dated 2026-01-01; the next period's, 2026-02-01
    assert "Previous list: 2025-11. The next list is due on 2026-02-01." in newest
    index = _text((hidden / "index.html").read_text("utf-8"))
    assert "The next list is due on 2026-02-01." in index


def test_every_page_has_a_favicon_and_a_description(hidden: Path) -> None:
    pages = sorted(hidden.rglob("*.html"))
    assert len(pages) > 50
    for page in pages:
        html = page.read_text("utf-8")
        assert '<link rel="icon" href="data:image/svg+xml,' in html, page
        (description,) = re.findall(r'<meta name="description" content="([^"]*)">', html)
        assert "Ratings" in description, page
        assert description.count("·") == 1, page
    player = (hidden / "players/1.html").read_text("utf-8")
    assert re.search(
        r'<meta name="description" content="[^"]+ · Ratings: ratings under the', player
    )


def test_the_700_rule_note_says_rounded_down(hidden: Path) -> None:
    html = _text((hidden / "calculators.html").read_text("utf-8"))
    assert "K is 700 divided by the games, rounded down (the 700 rule)" in html


def _born_cells(html: str, column: int) -> list[str]:
    rows = re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>", 1)[1], re.S)
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)[column] for r in rows]


def _years(demo_db: Path) -> dict[str, int]:
    rows = json.loads(ok("--db", str(demo_db), "sql", "SELECT name, birth_year FROM players",
                         "--format", "json"))  # fmt: skip
    return {r["name"]: r["birth_year"] for r in rows if r["birth_year"]}


def test_birth_years_are_published_only_when_asked(
    demo_db: Path, hidden: Path, tmp_path: Path
) -> None:
    years = _years(demo_db)
    assert len(years) > 30
    # by default: on no page and in no download; the age categories stay
    player = (hidden / "players/1.html").read_text("utf-8")
    assert "<dt>Born</dt>" not in player
    assert "<dt>Sex</dt>" not in player
    assert set(_born_cells((hidden / "index.html").read_text("utf-8"), 4)) == {""}
    assert 'class="sortable filterable list no-born"' in (hidden / "index.html").read_text()
    assert set(_born_cells((hidden / "players.html").read_text("utf-8"), 3)) == {""}
    rows = list(csv.DictReader(io.StringIO((hidden / "lists/2025-12.csv").read_text("utf-8"))))
    assert {r["birth_year"] for r in rows} == {""}
    listed = json.loads((hidden / "lists/2025-12.json").read_text("utf-8"))
    at = listed["columns"].index("birth_year")
    assert {row[at] for row in listed["players"]} == {None}
    assert (
        json.loads((hidden / "players/1.json").read_text("utf-8"))["player"]["birth_year"] is None
    )
    top = (hidden / "lists/2025-12-top.html").read_text("utf-8")
    assert '<section id="u20">' in top
    assert '<section id="50plus">' in top
    for name, year in years.items():
        assert f"<td>{year}</td>" not in top, name
    txt = (hidden / "lists/2025-12.txt").read_text("utf-8")
    assert not any(
        str(year) in line for line in txt.splitlines()[1:] for year in set(years.values())
    )

    # --show-birth-year: everywhere; kept for the next publish until --hide-birth-year
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(demo_db), "--show-birth-year")
    for _ in range(2):
        player = (site / "players/1.html").read_text("utf-8")
        assert "<dt>Born</dt>" in player
        assert "<dt>Sex</dt>" in player
        shown = json.loads((site / "players/1.json").read_text("utf-8"))["player"]
        assert shown["birth_year"] == years[shown["name"]]
        assert "no-born" not in (site / "index.html").read_text("utf-8")
        ok("publish", str(site), "--db", str(demo_db))
    ok("publish", str(site), "--db", str(demo_db), "--hide-birth-year")
    assert "<dt>Born</dt>" not in (site / "players/1.html").read_text("utf-8")
    manifest = json.loads((site / ".ratings-site.json").read_text("utf-8"))
    assert "birth_years" not in manifest["settings"]


def test_an_event_page_links_its_period_s_list(hidden: Path) -> None:
    html = (hidden / "events/1.html").read_text("utf-8")
    (period,) = re.findall(r'in period <a href="\.\./lists/([0-9]{4}-[0-9]{2})\.html">\1</a>', html)
    assert (hidden / "lists" / f"{period}.html").is_file()
