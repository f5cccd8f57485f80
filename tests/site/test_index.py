"""The way in to everyone: players.html, events.html, the search index and
its folding, next/previous list links, the merged records' pages, a site of every list
(``publish DIR --list all``) whose player pages link each other, and the incremental
publish keeping them current. The search box itself runs in tests/site/test_index_browser.py."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from ratings.matching import fold
from ratings.site.render_index import search_index
from ratings.site.search import fold_table, query_words
from tests.publish_helpers import Page, demo, ok, site_files
from tests.site.test_publish_incremental import assert_same_as_fresh

SCRIPT = "<script>alert(1)</script>"
OBRIEN = "O\N{RIGHT SINGLE QUOTATION MARK}Brien, Seán"
WIDE = "\uff26\uff35\uff2c\uff2c\u3000\uff37\uff29\uff24\uff34\uff28"  # FULL WIDTH
LONG = "Longname-" + "x" * 170 + ", Wilhelmina Q"
EDGE_NAMES = (
    "Öberg, Åsa", "Müller, Jan", "Novák, Jiří", "Straße, Ülle", OBRIEN,
    "van der Berg, Jan", "Łukasz, Żółw", SCRIPT, '=HYPERLINK("x")', LONG,
)  # fmt: skip


def _publish(db: Path, site: Path, *args: str) -> str:
    return ok("publish", str(site), "--db", str(db), *args)


def _index(site: Path) -> dict[str, object]:
    text = (site / "assets/players-index.js").read_text("utf-8")
    body = text.split("window.ratingsIndex = ", 1)[1].rstrip().rstrip(";")
    found = json.loads(body)
    assert isinstance(found, dict)
    return found


def _links(site: Path) -> dict[str, set[str]]:
    """Every HTML page of ``site`` (sub-sites included) -> the site files it links to
    (relative to ``site``); each link must resolve inside the site."""
    root = site.resolve()
    found: dict[str, set[str]] = {}
    for path in sorted(site.rglob("*.html")):
        name = path.relative_to(site).as_posix()
        targets = set()
        for link in Page(path.read_text("utf-8")).links:
            assert "://" not in link, (name, link)
            target = link.partition("#")[0].partition("?")[0]  # the calculator's query
            if not target:
                continue
            resolved = (path.parent / target).resolve()
            assert resolved.is_file(), (name, link)
            assert resolved.is_relative_to(root), (name, link)
            targets.add(resolved.relative_to(root).as_posix())
        found[name] = targets
    return found


def assert_no_orphans(site: Path) -> None:
    """Every published page is linked from another page (the home page excepted)."""
    links = _links(site)
    linked = {t for name, targets in links.items() for t in targets if t != name}
    orphans = sorted(name for name in links if name != "index.html" and name not in linked)
    assert orphans == []


# --- the demo ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def demo_site(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("published") / "site"
    _publish(demo_db, site, "--show-birth-year")
    return site


def _register(db: Path) -> list[dict[str, object]]:
    rows = json.loads(
        ok("--db", str(db), "sql", "SELECT id, name FROM players WHERE merged_into_id IS NULL "
           "ORDER BY id", "--format", "json")
    )  # fmt: skip
    assert isinstance(rows, list)
    return rows


def test_players_page_lists_and_links_every_player(demo_db: Path, demo_site: Path) -> None:
    text = (demo_site / "players.html").read_text("utf-8")
    register = _register(demo_db)
    assert len(register) == 40
    for row in register:
        assert f'<a href="players/{row["id"]}.html">{row["name"]}</a>' in text
    assert f"Every player on this site, rated or not ({len(register)} players)" in text
    # Elard's row: the rating of the newest list, 2025-12
    newest = json.loads(
        ok("--db", str(demo_db), "list", "--format", "json")
    )["players"]  # fmt: skip
    elard = next(p for p in newest if p["name"] == "Elard, Carl")
    assert re.search(
        r'<a href="players/10.html">Elard, Carl</a></th><td>IM</td><td>NED</td><td>1976</td>'
        rf"<td>{elard['rating']}</td></tr>",
        text,
    )


def test_events_page_lists_every_event(demo_db: Path, demo_site: Path) -> None:
    text = (demo_site / "events.html").read_text("utf-8")
    events = json.loads(
        ok("--db", str(demo_db), "sql",
           "SELECT e.id, e.name, (SELECT count(*) FROM games g WHERE g.event_id = e.id) AS n "
           "FROM events e ORDER BY e.id", "--format", "json")
    )  # fmt: skip
    assert len(events) == 15
    assert sum(e["n"] for e in events) == 720
    rows = re.findall(
        r'<tr><th scope="row"><a href="events/(\d+).html">([^<]*)</a></th><td data-sort="[^"]+">'
        r"(<time>[^<]*</time>(?: to <time>[^<]*</time>)?)</td>"
        r'<td><a href="lists/(\d{4}-\d\d).html">\4</a></td><td>standard</td><td>(\d+)</td>'
        r"<td>(\d+)</td></tr>",
        text,
    )
    assert len(rows) == 15
    by_id = {int(r[0]): r for r in rows}
    for e in events:
        row = by_id[e["id"]]
        assert row[1] == e["name"]
        assert int(row[5]) == e["n"]
        crosstable = (demo_site / f"events/{e['id']}.html").read_text("utf-8")
        assert f": {row[4]} players, {e['n']} games" in crosstable
        assert f'in period <a href="../lists/{row[3]}.html">{row[3]}</a>.' in crosstable
    # newest first
    assert [r[3] for r in rows] == sorted((r[3] for r in rows), reverse=True)


def test_every_page_links_players_events_and_the_search_box(demo_site: Path) -> None:
    for path in demo_site.rglob("*.html"):
        text = path.read_text("utf-8")
        root = "../" if path.parent != demo_site else ""
        assert f'<a href="{root}players.html">Players</a>' in text, path
        assert f'<a href="{root}events.html">Events</a>' in text, path
        assert (
            f'<form class="search" role="search" action="{root}players.html" '
            f'data-root="{root}"><label for="site-search">Find a player</label>'
        ) in text, path
        assert f'<script src="{root}assets/search.js" defer></script>' in text, path


def test_no_page_of_the_demo_is_linked_from_nowhere(demo_site: Path) -> None:
    assert_no_orphans(demo_site)


def test_lists_link_the_previous_and_the_next_list(demo_site: Path) -> None:
    labels = [f"2025-{m:02d}" for m in range(1, 13)]
    for i, label in enumerate(labels):
        text = (demo_site / f"lists/{label}.html").read_text("utf-8")
        previous = f'Previous list: <a href="../lists/{labels[i - 1]}.html" rel="prev">'
        assert (previous in text) == (i > 0), label
        if i + 1 < len(labels):
            following = f'Next list: <a href="../lists/{labels[i + 1]}.html" rel="next">'
            assert following in text, label
        else:
            assert "Next list" not in text, label
    assert "Next list" not in (demo_site / "index.html").read_text("utf-8")


def test_the_search_index_holds_every_player_folded(demo_db: Path, demo_site: Path) -> None:
    index = _index(demo_site)
    players = index["players"]
    assert isinstance(players, list)
    names = {row["id"]: row["name"] for row in _register(demo_db)}
    assert {p[0]: p[1] for p in players} == names
    for _pid, name, forms in players:
        assert forms == "|".join(" ".join(f) for f in fold(name).forms)


# --- the folding of the search box ---------------------------------------------------------


_TABLE = fold_table(EDGE_NAMES)


def _finds(query: str, names: tuple[str, ...] = EDGE_NAMES) -> list[str]:
    """search.js's matching, in Python: every word of the query starts a word of one of
    the name's folded forms."""
    wanted = query_words(query, _TABLE)
    return [
        n for n in names
        if wanted and any(all(any(h.startswith(w) for h in form) for w in wanted)
                          for form in fold(n).forms)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("oberg", ["Öberg, Åsa"]),
        ("Öberg", ["Öberg, Åsa"]),
        ("OEBERG", ["Öberg, Åsa"]),
        ("muller", ["Müller, Jan"]),
        ("mueller", ["Müller, Jan"]),
        ("MÜLLER jan", ["Müller, Jan"]),
        ("jiri", ["Novák, Jiří"]),
        ("jiř", ["Novák, Jiří"]),
        ("strasse", ["Straße, Ülle"]),
        ("obrien", [OBRIEN]),
        ("o'brien sean", [OBRIEN]),
        ("vanderberg", ["van der Berg, Jan"]),
        ("zolw", ["Łukasz, Żółw"]),
        ("script", [SCRIPT]),
        ("", []),
        ("   ", []),
    ],
)
def test_a_query_folds_as_the_matcher_folds(query: str, found: list[str]) -> None:
    assert _finds(query) == found


def test_r_finds_r_with_a_hacek() -> None:
    assert "Novák, Jiří" in _finds("novak jir")
    assert query_words("ř", _TABLE) == ["r"]
    assert query_words("Ř", _TABLE) == ["r"]


NAMES = (
    *EDGE_NAMES, "Ødegaard, Øystein", "Şahin, İlkay", "Nguyễn Thị Minh Khai", "Ǆokić, Ǉuba",
    "Ελευθερίου, Νίκος", "Иванов, Пётр", WIDE, "Dvořáková-Kühn, Zoë",
    "d'Artagnan, Charles", "Æsir, Þór", "Mac Donald, Ian", "Quiñones, Iñaki",
)  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_the_table_folds_a_name_as_fold_does(name: str) -> None:
    """The documented equivalence: the query folding of search.js (the table, character by
    character, then the matcher's word rule) gives fold()'s words for every name."""
    table = fold_table(NAMES)
    assert query_words(name, table) == list(fold(name).words)
    # a name's own folded forms find it
    for form in fold(name).forms:
        assert name in _finds(" ".join(form), NAMES)


def test_the_index_cannot_end_a_script_or_break_a_line() -> None:
    from ratings.service.reading.publish import SitePlayer

    hostile = "</script><!--\u2028\u2029&amp;"
    text = search_index({1: SitePlayer(1, hostile, None, None, None, None, None, False, None,
                                       None)})  # fmt: skip
    assert text.isascii()
    script = text.split("*/", 1)[1]
    assert "<" not in script
    assert ">" not in script
    assert "&" not in text
    body = text.split("window.ratingsIndex = ", 1)[1].rstrip().rstrip(";")
    assert json.loads(body)["players"] == [[1, hostile, "amp script"]]


# --- an edge-case site: unrated juniors, a merge, hostile names, every list --------------


@pytest.fixture(scope="module")
def edge_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("edge") / "edge.db"

    def run(*args: str) -> None:
        ok("--db", str(db), *args)

    run("init")
    run("player", "add", "Öberg, Åsa", "--rating", "2100", "--games", "60", "--sex", "f",
        "--rapid-rating", "2050", "--rapid-games", "40")  # fmt: skip
    run("player", "add", "Müller, Jan", "--rating", "1900", "--games", "60")
    run("player", "add", "Novák, Jiří", "--birthdate", "2015")  # an unrated junior
    run("player", "add", SCRIPT, "--rating", "1700", "--games", "30")
    run("player", "add", LONG, "--rating", "1600", "--games", "30")
    run("player", "add", "Lonely, Kid", "--birthdate", "2016")  # no game, no rating
    run("player", "add", "Muller, J.", "--rating", "1900", "--games", "60")  # a duplicate
    run("game", "add", "Öberg, Åsa", "Müller, Jan", "1-0", "--date", "2025-03-04",
        "--event", "Spring <Open>")  # fmt: skip
    run("game", "add", "Novák, Jiří", SCRIPT, "0-1", "--date", "2025-03-05",
        "--event", "Spring <Open>")  # fmt: skip
    run("game", "add", LONG, "Muller, J.", "1/2-1/2", "--date", "2025-04-04")
    run("game", "add", "Öberg, Åsa", "Novák, Jiří", "1-0", "--date", "2025-04-10",
        "--event", "April Rapid", "--time-control", "rapid")  # fmt: skip
    run("rate")
    run("player", "merge", "2", "7", "--yes")
    run("rate")
    return db


@pytest.fixture(scope="module")
def edge_site(edge_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("edge-site") / "site"
    out = _publish(edge_db, site, "--list", "all", "--show-birth-year")
    assert out.startswith(f"Published {site / 'index.html'} (every list): ")
    return site


def test_a_sub_site_s_search_finds_every_player(edge_db: Path, edge_site: Path) -> None:
    """The rapid site's index holds its own players and, with the way to their page on the
    standard site, every other player of the register."""
    rapid = _index(edge_site / "rapid")["players"]
    assert isinstance(rapid, list)
    names = {row["id"]: row["name"] for row in _register(edge_db)}
    assert {p[0]: p[1] for p in rapid} == names
    own = {int(p.stem) for p in (edge_site / "rapid/players").glob("*.html")}
    for player in rapid:
        pid, name = player[:2]
        assert player[3:] == ([] if pid in own else ["../"]), name
        assert (edge_site / "rapid" / "".join(player[3:]) / f"players/{pid}.html").is_file()
    assert sorted(p[0] for p in rapid if len(p) == 4) == [2, 4, 5, 6]


def test_the_edge_site_has_no_orphan_and_every_link_resolves(edge_site: Path) -> None:
    assert (edge_site / "rapid/index.html").is_file()
    assert_no_orphans(edge_site)


def test_unrated_players_are_on_the_players_page(edge_site: Path) -> None:
    text = (edge_site / "players.html").read_text("utf-8")
    assert '<a href="players/3.html">Novák, Jiří</a></th><td></td><td></td><td>2015</td>' in text
    assert '<a href="players/6.html">Lonely, Kid</a>' in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert SCRIPT not in text
    # the columns of the lists the site holds: standard and rapid (no blitz was played)
    assert '<th scope="col">Standard</th><th scope="col">Rapid</th></tr>' in text
    assert "Blitz" not in text
    # Öberg is on both lists
    assert re.search(r'players/1.html">Öberg, Åsa</a></th><td></td><td></td><td></td>'
                     r"<td>\d{4}</td><td>\d{4}</td></tr>", text)  # fmt: skip


def test_a_merged_record_keeps_a_page_that_points_to_the_kept_one(edge_site: Path) -> None:
    page = (edge_site / "players/7.html").read_text("utf-8")
    assert "<h1>Muller, J.</h1>" in page
    assert 'This record (#7) was merged into <a href="2.html">Müller, Jan</a>' in page
    players = (edge_site / "players.html").read_text("utf-8")
    assert (
        '<li><a href="players/7.html">Muller, J. (#7)</a>: merged into '
        '<a href="players/2.html">Müller, Jan</a></li>'
    ) in players
    assert "Muller, J." not in (edge_site / "assets/players-index.js").read_text("utf-8")
    # the rapid site: Müller never played rapid, so no page there for either record
    assert not (edge_site / "rapid/players/7.html").exists()


def test_player_pages_link_the_same_player_on_the_other_lists(
    edge_db: Path, edge_site: Path
) -> None:
    rapid = json.loads(ok("--db", str(edge_db), "list", "--list", "rapid", "--format", "json"))
    standard = json.loads(ok("--db", str(edge_db), "list", "--format", "json"))
    rating = {p["name"]: p["rating"] for p in rapid["players"]}["Öberg, Åsa"]
    own = {p["name"]: p["rating"] for p in standard["players"]}["Öberg, Åsa"]
    page = (edge_site / "players/1.html").read_text("utf-8")
    assert (
        f'<dt>Rapid rating</dt><dd>{rating} (<a href="../rapid/players/1.html">rapid page</a>)'
    ) in page
    back = (edge_site / "rapid/players/1.html").read_text("utf-8")
    assert (
        f'<dt>Standard rating</dt><dd>{own} (<a href="../../players/1.html">standard page</a>)'
    ) in back
    # a player with no rapid page gets no rapid link
    assert "rapid page" not in (edge_site / "players/2.html").read_text("utf-8")
    # the navigation reaches the other list's site
    assert '<a href="rapid/index.html">Rapid list</a>' in (edge_site / "index.html").read_text(
        "utf-8"
    )
    assert '<a href="../../index.html">Standard list</a>' in back


def test_a_site_of_every_list_is_republished_as_one(edge_db: Path, edge_site: Path) -> None:
    out = _publish(edge_db, edge_site)  # the folder remembers --list all
    assert " (every list): 0 list(s), 0 player page(s), 0 event page(s) rendered; 0 file(s)" in out
    settings = json.loads((edge_site / ".ratings-site.json").read_text("utf-8"))["settings"]
    assert settings == {"title": "Ratings", "lists": "all", "birth_years": True}
    rapid = json.loads((edge_site / "rapid/.ratings-site.json").read_text("utf-8"))
    assert (rapid["list"], rapid["settings"]) == (
        "rapid",
        {"title": "Ratings", "birth_years": True},
    )


def test_the_rapid_folder_of_a_site_of_every_list_publishes_alone(
    edge_db: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    _publish(edge_db, site, "--list", "all")
    out = _publish(edge_db, site / "rapid")  # its own list, without the links
    assert out.startswith(f"Published {site / 'rapid/index.html'} (rapid list): ")
    assert "standard page" not in (site / "rapid/players/1.html").read_text("utf-8")
    _publish(edge_db, site)  # every list again: the links are back
    assert "standard page" in (site / "rapid/players/1.html").read_text("utf-8")
    assert_no_orphans(site)


# --- the incremental publish keeps the new pages current -----------------------------------


def test_a_new_player_a_merge_and_a_new_event_rebuild_the_index_pages(
    demo_db: Path, tmp_path: Path
) -> None:
    db = tmp_path / "demo.db"
    shutil.copyfile(demo_db, db)
    site = tmp_path / "site"
    _publish(db, site)

    # a new player, registered only: on the players page and in the search index
    before = site_files(site)
    ok("--db", str(db), "player", "add", "Ångström, Anders", "--birthdate", "2014")
    _publish(db, site)
    after = site_files(site)
    changed = {k for k in after if before.get(k) != after[k]} - {".ratings-site.json"}
    assert changed == {
        "players.html", "assets/players-index.js", "players/41.html", "players/41.json"
    }  # fmt: skip
    assert '<a href="players/41.html">Ångström, Anders</a>' in after["players.html"].decode()
    assert "angstrom" in after["assets/players-index.js"].decode()
    assert_same_as_fresh(db, site, tmp_path)

    # a new event in a new month: the events page and the previous list's "next list"
    ok("--db", str(db), "game", "add", "Ångström, Anders", "Elard, Carl", "0-1",
       "--date", "2026-01-10", "--event", "Winter Cup")  # fmt: skip
    ok("--db", str(db), "rate")
    _publish(db, site)
    events = (site / "events.html").read_text("utf-8")
    assert (
        '<a href="events/16.html">Winter Cup</a></th><td data-sort="2026-01-10">'
        "<time>2026-01-10</time></td>"
    ) in events
    assert 'Next list: <a href="../lists/2026-01.html"' in (site / "lists/2025-12.html").read_text(
        "utf-8"
    )
    assert_same_as_fresh(db, site, tmp_path)

    # a merge: the merged page, the players page, the index
    ok("--db", str(db), "player", "merge", "1", "41", "--yes", "--force")
    ok("--db", str(db), "rate")
    _publish(db, site)
    assert "was merged into" in (site / "players/41.html").read_text("utf-8")
    assert "Ångström" not in (site / "assets/players-index.js").read_text("utf-8")
    assert 'href="players/41.html">Ångström, Anders (#41)</a>: merged into' in (
        site / "players.html"
    ).read_text("utf-8")
    assert_same_as_fresh(db, site, tmp_path)
    assert_no_orphans(site)


def test_a_new_rapid_player_rebuilds_the_standard_page_that_links_it(
    edge_db: Path, tmp_path: Path
) -> None:
    db = tmp_path / "edge.db"
    shutil.copyfile(edge_db, db)
    site = tmp_path / "site"
    _publish(db, site, "--list", "all")
    assert "rapid page" not in (site / "players/4.html").read_text("utf-8")
    ok("--db", str(db), "game", "add", SCRIPT, "Öberg, Åsa", "0-1", "--date", "2025-04-20",
       "--event", "April Rapid", "--time-control", "rapid")  # fmt: skip
    ok("--db", str(db), "rate")
    _publish(db, site)
    assert '<a href="../rapid/players/4.html">rapid page</a>' in (
        site / "players/4.html"
    ).read_text("utf-8")
    fresh = tmp_path / "fresh"
    _publish(db, fresh, "--list", "all")
    assert {k: v for k, v in site_files(site).items() if "ratings-site" not in k} == {
        k: v for k, v in site_files(fresh).items() if "ratings-site" not in k
    }
    assert_no_orphans(site)
