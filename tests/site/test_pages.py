"""The published list, player and event pages in the generated HTML (the browser checks
are in tests/site/test_pages_browser.py): the chart drawn at publish time that runs to the
newest list without JavaScript, a player page's first view without the Vega bundle, the first
rating's card (Ra, the score, dp and the two 1800 draws, art. 8.2.2), the standard rating that
seeds a rapid first rating (R&B art. 7.2.1), unrated stretches and first ratings labelled."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ratings.site import svg_chart
from tests.conftest import table_rows
from tests.publish_helpers import demo, ok

FIRST_VIEW = ("assets/site.css", "assets/newest.css", "assets/chart.js")


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("pages")
    db = demo(folder)
    ok("publish", str(folder / "site"), "--db", str(db), "--title", "Demo Chess Club")
    return db, folder / "site"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" )", ")").strip()


# --- the chart ---------------------------------------------------------------------------------


def test_the_chart_is_a_step_line_to_the_right_edge() -> None:
    labels = [f"2025-{m:02d}" for m in range(1, 13)]
    chart = svg_chart.history_chart([(1, 1500), (3, 1520), (4, 1490)], labels, "A", True)
    # one unit per list from the first point to the last: 4 units; the line ends at the edge
    assert 'viewBox="0 0 4 100"' in chart
    # the rating axis at least 100 points high (svg_chart.MIN_SPAN): 1440 to 1540
    assert 'd="M0.5 40H2.5V20H3.5V50H4"' in chart
    assert 'd="M0.5 40h0M2.5 20h0M3.5 50h0"' in chart  # a dot on each list's rating
    assert 'style="--last:4"' in chart  # the carry to --newest (assets/newest.css) follows
    assert re.findall(r"<span>(\d+)</span>", chart) == [str(r) for r in range(1440, 1541, 20)]
    assert '<span style="left:12.5%">2025-02</span>' in chart  # the x axis by period
    assert "first rating 1500 on the 2025-02 list, 1490 from the 2025-05 list" in chart


def test_a_first_rating_alone_is_a_dot_on_a_scale_not_an_empty_box() -> None:
    chart = svg_chart.history_chart([(0, 1922)], ["2025-03"], "New", True)
    assert 'd="M0.5 38h0"' in chart  # the dot on a scale around it
    assert re.findall(r"<span>(\d+)</span>", chart) == [str(r) for r in range(1860, 1961, 20)]
    assert "first rating 1922 on the 2025-03 list" in chart
    # its list's tick gives way to the newest list's label while it is the newest
    # (site.css; tests/site/test_pages_browser.py), not a tick of a longer history
    assert '<span class="rchart-at-last" style="left:50%">2025-03</span>' in chart
    labels = [f"2025-{m:02d}" for m in range(1, 13)]
    longer = svg_chart.history_chart([(0, 1500), (1, 1510)], labels, "A", False)
    assert "rchart-at-last" not in longer


def test_an_unrated_stretch_breaks_the_line_and_ends_the_carry() -> None:
    labels = [f"2025-{m:02d}" for m in range(1, 13)]
    # rated 1300, below the floor from the third list (unrated), a first rating on the sixth
    back = svg_chart.history_chart([(0, 1300), (2, None), (5, 1500)], labels, "B", False)
    assert 'd="M0.5 100H2.5M5.5 0H6"' in back  # no line across the unrated lists
    assert 'd="M0.5 100h0M5.5 0h0"' in back
    assert '<span class="rchart-carry"><span style="top:0%"></span></span>' in back
    gone = svg_chart.history_chart([(0, 1300), (2, None)], labels, "C", False)
    assert 'd="M0.5 40H2.5"' in gone
    assert '<span class="rchart-carry"></span></div>' in gone  # no line to the newest list
    assert "1300 on the 2025-01 list, unrated from the 2025-03 list" in gone


def test_a_player_below_the_floor_has_no_line_while_unrated(
    demo_site: tuple[Path, Path],
) -> None:
    db, site = demo_site
    # player 5: 1229 before 2025-01, below the floor on it, unrated, a first rating in April
    assert table_rows(
        db,
        "SELECT r.label, h.rating_before, h.rating_after, h.list_status FROM rating_history h"
        " JOIN rating_periods r ON r.id = h.period_id WHERE h.player_id = 5 ORDER BY 1 LIMIT 4",
    ) == [
        ("2025-01", 1229, None, "below_floor"),
        ("2025-02", None, None, "unrated"),
        ("2025-03", None, None, "unrated"),
        ("2025-04", None, 1625, "first_rating"),
    ]
    page = (site / "players" / "5.html").read_text("utf-8")
    (step,) = re.findall(r'<path class="rchart-step" d="([^"]+)"/>', page)
    assert re.fullmatch(r"M0\.5 [\d.]+H1\.5M4\.5 [\d.]+(H\d+(\.5)?V[\d.]+)*H13", step), step


def test_a_hostile_name_and_label_stay_text() -> None:
    chart = svg_chart.history_chart([(0, 1500)], ["<b>"], '"><script>x()</script>', True)
    assert "<script>" not in chart
    assert "&lt;b&gt;" in chart
    css = svg_chart.newest_css(7, 'x"; } body { display: none } </style>\\').decode()
    assert css.endswith(
        ':root { --newest: 7; --newest-label: "x\\"; } body { display: none }  /style>\\\\"; }\n'
    )


def test_the_player_page_draws_its_chart_without_the_vega_bundle(
    demo_site: tuple[Path, Path],
) -> None:
    _, site = demo_site
    page = (site / "players" / "1.html").read_text("utf-8")
    assert '<div class="rchart" style="--last:11"' in page
    assert 'src="../assets/vega.js"' not in page  # loaded on demand by chart.js only
    assert 'data-vega="../assets/vega.js"' in page
    assert (site / "assets" / "vega.js").stat().st_size > 500_000  # still there, on demand
    assert (site / "assets" / "newest.css").read_text() == (
        "/* ratings publish: the newest list, which every player's chart runs to */\n"
        ':root { --newest: 11; --newest-label: "2025-12"; }\n'
    )
    weight = len(page.encode()) + sum((site / a).stat().st_size for a in FIRST_VIEW)
    assert weight < 100_000, weight


def test_every_player_page_is_light_on_first_view(demo_site: tuple[Path, Path]) -> None:
    _, site = demo_site
    assets = sum((site / a).stat().st_size for a in FIRST_VIEW)
    heaviest = max(p.stat().st_size for p in (site / "players").glob("*.html"))
    assert heaviest + assets < 100_000


def test_a_quiet_player_s_chart_carries_on_to_the_newest_list(
    demo_site: tuple[Path, Path],
) -> None:
    db, site = demo_site
    # a player whose rating last changed before the newest list (2025-12, index 11)
    assert table_rows(
        db,
        "SELECT max(r.label) FROM rating_history h JOIN rating_periods r ON r.id = h.period_id"
        " WHERE h.player_id = 19 AND h.period_games > 0",
    ) == [("2025-06",)]
    page = (site / "players" / "19.html").read_text("utf-8")
    assert '<div class="rchart" style="--last:5"' in page


# --- the cards ---------------------------------------------------------------------------------


def test_a_first_rating_card_gives_ra_the_score_dp_and_the_two_draws(
    demo_site: tuple[Path, Path],
) -> None:
    db, site = demo_site
    page = (site / "players" / "15.html").read_text("utf-8")
    april, january = re.findall(r'<p class="card-first">(.*?)</p>', page)
    assert text(january) == (
        "First rating (art. 8.2): 3 games against rated opponents and 2 hypothetical draws "
        "against opponents rated 1800 (art. 8.2.2): 5 games are needed, no rating yet."
    )
    assert text(april) == (
        "First rating (art. 8.2): 6 games against rated opponents, 3 of them in earlier "
        "periods (their cards are below) and 2 hypothetical draws against opponents rated "
        "1800 (art. 8.2.2). Ra = 13727 / 8 = 1715.88; score 1.5 of 8 = 19%, dp -251; "
        "Ru = Ra + dp = 1465."
    )
    card = ok("--db", str(db), "card", "15", "--period", "2025-04")
    assert "  Ra = 13727 / 8 = 1715.88\n  p = 1.5 / 8 = 19%, dp = -251\n" in card
    assert "Ru = Ra + dp = 1465\nNew rating: 1465 (first_rating)\n" in card


def test_every_first_rating_card_agrees_with_the_cli(demo_site: tuple[Path, Path]) -> None:
    """Every card with games towards a first rating: the page's Ra, score and p are the
    CLI's, or both say that more games are needed."""
    db, site = demo_site
    rows = table_rows(
        db,
        "SELECT DISTINCT b.player_id, r.label FROM rating_breakdown b JOIN rating_periods r"
        " ON r.id = b.period_id WHERE b.counts_for = 'first_rating' ORDER BY 1, 2",
    )
    assert len(rows) >= 20
    needed = 0
    for pid, label in rows:
        page = (site / "players" / f"{pid}.html").read_text("utf-8")
        section = page[page.index(f'id="p{label}"') :]
        section = section[: section.index("</section>")]
        card = ok("--db", str(db), "card", str(pid), "--period", str(label))
        found = re.search(r"Ra = (\d+) / (\d+) = ([\d.]+); score ([\d.]+) of \d+ = (\d+)%", section)
        if found is None:
            assert "5 games are needed, no rating yet." in section, (pid, label)
            assert "  5 games are needed: no rating yet\n" in card
            needed += 1
            continue
        assert f"  Ra = {found[1]} / {found[2]} = {found[3]}\n" in card
        assert f"  p = {found[4]} / {found[2]} = {found[5]}%" in card
    assert 0 < needed < len(rows)


def test_a_first_rating_is_labelled_new_not_change_0(demo_site: tuple[Path, Path]) -> None:
    _, site = demo_site
    page = (site / "players" / "15.html").read_text("utf-8")
    (row,) = re.findall(r'<tr><th scope="row"><a href="#p2025-04">.*?</tr>', page)
    assert text(row) == "2025-04 1465 new 3 0 first rating"
    april = (site / "lists" / "2025-04.html").read_text("utf-8")
    (line,) = re.findall(
        r'<tr><td>\d+</td><th scope="row"><a href="\.\./players/15\.html">.*?</tr>', april
    )
    assert "<td>new</td>" in line
    assert "<td>0</td><td>3</td>" not in line


def test_a_run_of_unrated_lists_is_one_stretch(demo_site: tuple[Path, Path]) -> None:
    _, site = demo_site
    page = (site / "players" / "15.html").read_text("utf-8")
    assert (
        '<tr class="gap"><th scope="row">2025-02 \N{EN DASH} 2025-03</th>'
        '<td colspan="7">no rated games; still unrated</td></tr>'
    ) in page


def _club(folder: Path) -> Path:
    db = folder / "club.db"
    ok("--db", str(db), "init")
    for name, rating in (("A", "1900"), ("B", "1880"), ("C", "1860"), ("D", "2010"), ("E", "1830")):
        ok("--db", str(db), "player", "add", name, "--rating", rating, "--games", "100")
    ok("--db", str(db), "player", "add", "Std", "--rating", "2000", "--games", "50")
    ok("--db", str(db), "player", "add", "Opp", "--rating", "2250", "--games", "100",
       "--rapid-rating", "2250", "--rapid-games", "100")  # fmt: skip
    ok("--db", str(db), "player", "add", "New")
    # New plays two games in January and nothing after: unrated on every later list
    ok("--db", str(db), "game", "add", "New", "A", "1-0", "--date", "2025-01-10")
    ok("--db", str(db), "game", "add", "New", "B", "0-1", "--date", "2025-01-11")
    # Std is unrated in rapid: played at the standard rating (R&B art. 7.2.1)
    ok("--db", str(db), "game", "add", "Std", "Opp", "1-0", "--date", "2025-03-07",
       "--time-control", "rapid")  # fmt: skip
    ok("--db", str(db), "game", "add", "C", "D", "1-0", "--date", "2025-04-05")
    ok("--db", str(db), "rate", "--through", "2025-04")
    return db


def test_a_rapid_first_rating_names_the_standard_rating_used(tmp_path: Path) -> None:
    db = _club(tmp_path)
    site = tmp_path / "rapid"
    ok("publish", str(site), "--db", str(db), "--list", "rapid")
    ((std,),) = table_rows(db, "SELECT id FROM players WHERE name = 'Std'")
    page = (site / "players" / f"{std}.html").read_text("utf-8")
    assert (
        "<caption>Unrated on this list: standard rating 2000 used (R&amp;B art. 7.2.1), "
        "K used 40: 1 game</caption>"
    ) in page
    assert "Change +32: standard rating 2000 → first rapid rating 2032." in page
    assert "Rating , K" not in page


def test_the_unrated_stretch_runs_to_the_newest_list_month_by_month(tmp_path: Path) -> None:
    db = _club(tmp_path)
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(db))
    ((new,),) = table_rows(db, "SELECT id FROM players WHERE name = 'New'")
    page = site / "players" / f"{new}.html"
    gap = (
        '<tr class="gap"><th scope="row">2025-02 \N{EN DASH} {}</th>'
        '<td colspan="7">no rated games; still unrated</td></tr>'
    )
    assert gap.format("2025-04") in page.read_text("utf-8")
    ok("--db", str(db), "rate", "--through", "2025-06")
    out = ok("publish", str(site), "--db", str(db))
    assert "(incremental)" in out or "rendered" in out
    assert gap.format("2025-06") in page.read_text("utf-8")
    assert (
        (site / "assets" / "newest.css")
        .read_text()
        .endswith(':root { --newest: 5; --newest-label: "2025-06"; }\n')
    )
