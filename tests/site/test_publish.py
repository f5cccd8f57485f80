"""`ratings publish`: the site's pages, links, downloads, escaping and accessibility."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from ratings.io.fide_txt import parse_fide_txt
from tests.conftest import PG_URL, new_database, table_rows
from tests.publish_helpers import OUR_FILE, Page, copy_demo, demo, ok, run, site_files
from tests.support import Club


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo database, built once for the module."""
    return demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def demo_site(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's site, published once for the module."""
    site = tmp_path_factory.mktemp("published") / "site"
    out = ok("publish", str(site), "--db", str(demo_db))
    assert out == (
        f"Published {site / 'index.html'}: 12 list(s), 40 player page(s), 15 event page(s) "
        "rendered; 195 file(s) written, 0 unchanged, 0 deleted (195 in the site)\n"
    )
    return site


def test_publish_writes_every_page(demo_site: Path) -> None:
    names = set(site_files(demo_site))
    assert {"index.html", "players/1.html", "events/1.html", "lists/2025-12.csv"} <= names
    assert len([n for n in names if n.startswith("players/")]) == 80  # page and JSON
    assert len([n for n in names if n.startswith("events/")]) == 15
    assert len([n for n in names if n.startswith("lists/")]) == 84  # 7 files a list
    assert {"assets/vega.js", "assets/vega-license.txt", "assets/chart.js"} <= names
    assert all(OUR_FILE.fullmatch(n) for n in names), names


def test_every_link_resolves(demo_site: Path) -> None:
    pages = {
        p.relative_to(demo_site).as_posix(): Page(p.read_text("utf-8"))
        for p in demo_site.rglob("*.html")
    }
    checked = 0
    for name, page in pages.items():
        for link in page.links:
            assert "://" not in link, (name, link)  # nothing from the network
            target, _, fragment = link.partition("#")
            target = target.partition("?")[0]  # a query (the calculator's) names no file
            resolved = (demo_site / name).parent / target if target else demo_site / name
            resolved = resolved.resolve()
            assert resolved.is_file(), (name, link)
            assert resolved.is_relative_to(demo_site.resolve()), (name, link)
            if fragment:
                key = resolved.relative_to(demo_site.resolve()).as_posix()
                assert fragment in pages[key].ids, (name, link)
            checked += 1
    assert checked > 2000


def test_pages_declare_language_and_header_scopes(demo_site: Path) -> None:
    for path in demo_site.rglob("*.html"):
        text = path.read_text("utf-8")
        page = Page(text)
        assert page.html_attrs.get("lang") == "en", path
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
        assert page.th, path
        for th in page.th:
            assert th.get("scope") in ("col", "row"), (path, th)


def test_index_is_the_newest_list(demo_site: Path, demo_db: Path) -> None:
    page = Page((demo_site / "index.html").read_text("utf-8"))
    text = " ".join(page.text)
    assert "Rating list 2025-12" in text
    rows = table_rows(
        demo_db,
        "SELECT p.name, h.rating_after FROM rating_history h JOIN players p ON p.id = h.player_id"
        " JOIN rating_periods r ON r.id = h.period_id WHERE r.label = '2025-12'"
        " AND h.rating_after IS NOT NULL ORDER BY h.rating_after DESC, lower(p.name), p.id",
    )
    body = (demo_site / "index.html").read_text("utf-8")
    found = re.findall(r'<th scope="row"><a href="players/\d+\.html">([^<]+)</a></th>', body)
    assert found == [name for name, _ in rows]
    for label in ("2025-01", "2025-11"):
        assert f'href="lists/{label}.html"' in body
    # the schema's words: the period's games, the next period's K
    assert _headers(body, "list") == [
        "Rank", "Name", "Title", "Fed", "Born", "Rating", "Change", "Period games", "Next K",
        "Flags",
    ]  # fmt: skip


def _headers(page: str, table: str) -> list[str]:
    """The column headers of the page's table of class ``table``, as text."""
    head = re.search(rf'<table class="[^"]*\b{table}\b[^"]*">.*?<thead>(.*?)</thead>', page, re.S)
    assert head is not None
    cells = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', head.group(1))
    return [re.sub(r"<[^>]+>", "", cell) for cell in cells]


def test_downloads_match_the_list(demo_site: Path) -> None:
    rows = list(csv.reader(io.StringIO((demo_site / "lists/2025-12.csv").read_text("utf-8"))))
    assert rows[0] == [
        "name", "fide_id", "federation", "title", "birth_year", "rating", "change",
        "period_games", "total_games", "next_k", "k10", "flags", "player_id", "seal",
    ]  # fmt: skip
    assert len(rows) == 1 + 39
    assert {r[-1] for r in rows[1:]} == {json.loads(
        (demo_site / "lists/2025-12.json").read_text("utf-8"))["seal"]}  # fmt: skip
    txt = parse_fide_txt((demo_site / "lists/2025-12.txt").read_text("utf-8"))
    assert [r.name for r in txt] == [r[0] for r in rows[1:]]
    assert [r.rating for r in txt] == [int(r[5]) for r in rows[1:]]


def test_player_page_has_chart_table_and_cards(demo_site: Path) -> None:
    text = (demo_site / "players/1.html").read_text("utf-8")
    page = Page(text)
    assert "Toreley, Dina" in page.text
    (spec,) = [body for attrs, body in page.scripts if attrs.get("type") == "application/json"]
    data = json.loads(spec)
    line, dots = data["layer"]
    assert line["mark"]["interpolate"] == "step-after"
    assert dots["data"]["values"][-1] == {
        "list": 11, "period": "2025-12", "rating": 1491, "change": "-4"
    }  # fmt: skip
    assert '<a href="#p2025-12">2025-12</a>' in text
    assert 'id="p2025-12"' in text
    # the card: every game with Ro, D, PD, result, dR, K, and the totals
    assert "<td>1903</td><td>-400</td><td>0.08</td><td>0</td><td>-0.08</td><td>20</td>" in text
    assert "Change -4: rating 1495 → 1491." in text
    assert '<tr class="gap"><th scope="row">2025-06</th>' in text
    assert _headers(text, "history") == [
        "Period", "Rating before", "Rating after", "Change", "K used", "Period games", "Score",
        "List status",
    ]  # fmt: skip
    assert _headers(text, "card") == [
        "Date", "Event", "Rd", "Opponent", "Col", "Ro", "D", "PD", "Result", "dR", "K used",
        "K\N{MULTIPLICATION SIGN}dR",
    ]  # fmt: skip
    assert "<dt>Total games</dt>" in text
    assert "<dt>Next K</dt>" in text
    assert "Rating 1495, K used 20: " in text


def test_event_page_has_a_crosstable(demo_site: Path) -> None:
    text = (demo_site / "events/1.html").read_text("utf-8")
    assert "<h1>Ashford Championship 2025 #1</h1>" in text
    assert re.search(r'<td title="[^"]+">\d+[wb][10½]</td>', text)
    assert 'rated in period <a href="../lists/2025-01.html">2025-01</a>' in text
    k_dr_sum = "K\N{MULTIPLICATION SIGN}\N{GREEK CAPITAL LETTER SIGMA}dR"  # not "Change"
    heads = ["Score", "BH-C1", "BH", "SB", "Perf.", k_dr_sum, "Games"]  # a Swiss's tie-breaks
    assert _headers(text, "crosstable")[-7:] == heads
    # each player's games one tap away, the opponents named (not only in a tooltip)
    assert re.search(
        r'<details class="games"><summary>Games</summary><ol><li>1: [wb] [10½] '
        r'<a href="../players/\d+.html">[^<]+</a> \([A-Z]{3}, \d{4}\)</li><li>2: ',
        text,
    )


def test_a_second_publish_writes_nothing(demo_db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(demo_db))
    before = {p: p.stat().st_mtime_ns for p in site.rglob("*")}
    out = ok("publish", str(site), "--db", str(demo_db))
    assert out.endswith("0 file(s) written, 14 unchanged, 0 deleted (195 in the site)\n")
    after = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.name != ".ratings-site.json"}
    assert all(before[p] == t for p, t in after.items())


def test_publish_never_writes_the_database(demo_db: Path, tmp_path: Path) -> None:
    db = copy_demo(demo_db, tmp_path)
    before = db.read_bytes()
    ok("publish", str(tmp_path / "site"), "--db", str(db))
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.db", "site"]


def test_nothing_rated_yet(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    ok("--db", str(db), "init")
    result = run("--db", str(db), "publish", str(tmp_path / "site"))
    assert result.exit_code == 1
    assert result.output == (
        "Error: nothing to publish: no period has been rated yet; run 'ratings rate'\n"
    )


# --- hostile names ----------------------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"
QUOTE = '"><img src=x onerror=alert(2)>'
CLOSE = "</script><script>alert(3)</script>"
FORMULA = '=HYPERLINK("http://x.example/?a","y")'
DOTS = "../../outside"


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Club, Path]:
    club = Club(tmp_path / "club.db")
    for name, rating in ((SCRIPT, "1800"), (QUOTE, "1700"), (FORMULA, "1600"), (DOTS, "1500")):
        club.player(name, "--rating", rating)
    club.game(SCRIPT, QUOTE, "1-0", "2026-01-05", "--event", CLOSE, "--round", "1")
    club.game(FORMULA, DOTS, "1/2-1/2", "2026-01-05", "--event", CLOSE, "--round", "1")
    club.game(QUOTE, FORMULA, "0-1", "2026-01-06", "--event", CLOSE, "--round", "2")
    club.game(DOTS, SCRIPT, "0-1", "2026-01-06", "--event", CLOSE, "--round", "2")
    club.ok("rate")
    site = tmp_path / "site"
    club.ok("publish", str(site))
    return club, site


def test_hostile_names_show_as_text(hostile: tuple[Club, Path]) -> None:
    _, site = hostile
    for path in site.rglob("*.html"):
        text = path.read_text("utf-8")
        assert "<script>alert" not in text, path
        assert "<img" not in text, path
        assert "onerror=alert" not in text or "&#34;&gt;&lt;img" in text
        page = Page(text)
        for attrs, body in page.scripts:  # only our own scripts and the JSON chart data
            ours = str(attrs.get("src", "")).endswith(("assets/vega.js", "assets/chart.js",
                                                     "assets/site.js"))  # fmt: skip
            assert ours or attrs.get("type") == "application/json"
            assert "</script" not in body.lower()
    index = (site / "index.html").read_text("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "&#34;&gt;&lt;img src=x onerror=alert(2)&gt;" in index
    player = Page((site / "players/1.html").read_text("utf-8"))
    assert SCRIPT in " ".join(player.text)  # read back as the very name
    (spec,) = [b for a, b in player.scripts if a.get("type") == "application/json"]
    assert "\\u003c/script\\u003e" in spec
    assert json.loads(spec)["description"] == f"Rating history: {SCRIPT}"
    event = (site / "events/1.html").read_text("utf-8")
    assert "<h1>&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt;</h1>" in event
    assert 'title="&#34;&gt;&lt;img src=x onerror=alert(2)&gt;"' in event  # in an attribute


def test_hostile_names_cannot_steer_paths_or_run_in_a_spreadsheet(
    hostile: tuple[Club, Path], tmp_path: Path
) -> None:
    _, site = hostile
    assert all(OUR_FILE.fullmatch(n) for n in site_files(site))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db", "site"]
    rows = list(csv.reader(io.StringIO((site / "lists/2026-01.csv").read_text("utf-8"))))
    names = {r[0] for r in rows[1:]}
    assert "'" + FORMULA in names
    assert FORMULA not in names
    assert DOTS in names  # plain text: nothing to neutralise


# --- the folder -------------------------------------------------------------------------------


def test_dir_may_be_a_symlink(demo_db: Path, tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    ok("publish", str(link), "--db", str(demo_db))
    assert link.is_symlink()
    assert (real / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def test_a_symlinked_subfolder_is_refused(demo_db: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(demo_db))
    for p in (site / "players").iterdir():
        p.unlink()
    (site / "players").rmdir()
    (site / "players").symlink_to(elsewhere, target_is_directory=True)
    result = run("publish", str(site), "--db", str(demo_db))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: '{site / 'players'}' is not a folder (a symlink or a file); publish writes "
        "only inside the folder it is given: move it away\n"
    )
    assert list(elsewhere.iterdir()) == []


def test_a_folder_with_other_things_needs_force(demo_db: Path, tmp_path: Path) -> None:
    site = tmp_path / "docs"
    site.mkdir()
    (site / "notes.txt").write_text("mine")
    (site / "index.html").write_text("my own page")
    result = run("publish", str(site), "--db", str(demo_db))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: '{site}' is not empty and holds no ratings site (.ratings-site.json is "
        "missing); choose an empty or new folder, or use --force to publish into it "
        "(nothing of what is there is deleted)\n"
    )
    assert sorted(p.name for p in site.iterdir()) == ["index.html", "notes.txt"]
    ok("publish", str(site), "--force", "--db", str(demo_db))
    assert (site / "notes.txt").read_text() == "mine"
    assert "Rating list" in (site / "index.html").read_text()
    ok("publish", str(site), "--db", str(demo_db))  # now it is a site; its other files stay
    assert (site / "notes.txt").read_text() == "mine"


def test_the_database_inside_the_folder_is_never_replaced(demo_db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    db = site / "index.html"  # a database that happens to have a page's name
    db.write_bytes(demo_db.read_bytes())
    before = db.read_bytes()
    result = run("publish", str(site), "--force", "--db", str(db))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: '{site / 'index.html'}' is the database or its journal, and publish would "
        "write a page of that name; publish elsewhere\n"
    )
    assert db.read_bytes() == before
    assert sorted(p.name for p in site.iterdir()) == ["index.html"]  # nothing written


def test_dir_that_is_a_file_or_has_no_parent(demo_db: Path, tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    assert run("publish", str(file), "--db", str(demo_db)).output == (
        f"Error: '{file}' is not a folder\n"
    )
    missing = tmp_path / "no" / "site"
    assert run("publish", str(missing), "--db", str(demo_db)).output == (
        f"Error: folder does not exist: '{missing.parent}'\n"
    )


def test_a_tampered_manifest_cannot_delete_other_files(demo_db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(demo_db))
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    (site / "players" / "keep.html").write_text("keep me too")
    manifest = json.loads((site / ".ratings-site.json").read_text())
    manifest["files"]["../victim.txt"] = ["0" * 64, 1]
    manifest["files"]["players/../../victim.txt"] = ["0" * 64, 1]
    manifest["files"]["players/keep.html"] = ["0" * 64, 1]
    (site / ".ratings-site.json").write_text(json.dumps(manifest))
    ok("publish", str(site), "--db", str(demo_db))
    assert victim.read_text() == "keep me"
    assert (site / "players" / "keep.html").read_text() == "keep me too"


def test_temporary_files_of_killed_publishes_are_removed(demo_db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(demo_db))
    dead = site / "players" / ".1.html.ratings-tmp-999999999-abcd"
    dead.write_text("half a page")
    ok("publish", str(site), "--db", str(demo_db))
    assert not dead.exists()


def test_one_publish_at_a_time(demo_db: Path, tmp_path: Path) -> None:
    import fcntl
    import os

    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(demo_db))
    fd = os.open(site, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        result = run("publish", str(site), "--db", str(demo_db))
    finally:
        os.close(fd)
    assert result.exit_code == 1
    assert result.output == (
        f"Error: another 'ratings publish' is writing '{site}'; try again when it is done\n"
    )


def test_publish_options(demo_db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(demo_db), "--title", "Ashford <Chess> Club")
    assert "<title>Rating list · Ashford &lt;Chess&gt; Club</title>" in (
        site / "index.html"
    ).read_text("utf-8")
    result = run("publish", str(site), "--db", str(demo_db), "--title", " ")
    assert (result.exit_code, result.output) == (1, "Error: --title: must not be blank\n")
    assert run("publish", str(site), "--jobs", "0").exit_code == 2
    # the global --db works as well as the command's own
    assert ok("--db", str(demo_db), "publish", str(site)).startswith("Published")


@pytest.mark.postgres
@pytest.mark.slow  # two publishes, one from PostgreSQL: seconds; .ci/run has a server
@pytest.mark.skipif(PG_URL is None, reason="needs RATINGS_TEST_PG_URL")
def test_the_same_site_from_postgresql(tmp_path: Path) -> None:
    from importlib import resources

    data = resources.files("ratings") / "data"
    players, games = tmp_path / "demo_players.csv", tmp_path / "demo_games.csv"
    players.write_bytes((data / "demo_players.csv").read_bytes())
    games.write_bytes((data / "demo_games.csv").read_bytes())
    sites = {}
    for name, db in (("sqlite", str(tmp_path / "demo.db")), ("postgres", new_database())):
        ok("--db", db, "init")  # both the same way: the demo's club, imported and rated
        ok("--db", db, "import", "players", str(players))
        ok("--db", db, "import", "games", str(games))
        ok("--db", db, "rate")
        ok("--db", db, "publish", str(tmp_path / name))
        sites[name] = site_files(tmp_path / name)
        del sites[name][".ratings-site.json"]  # it holds when each period was rated
        # and the chain when each list was sealed: its seals must be the same
        chain = json.loads(sites[name]["seals.json"])
        sites[name]["seals.json"] = json.dumps(
            [{k: v for k, v in seal.items() if k != "created"} for seal in chain["seals"]]
        ).encode()
    assert sites["postgres"] == sites["sqlite"]


def test_the_caption_of_a_line_that_stops(demo_db: Path, demo_site: Path) -> None:
    """A player unrated from a list on (below the floor): the caption says where the line
    stops, not that it runs on to the newest list; a player still rated, that it runs on."""
    ((pid, label),) = table_rows(
        demo_db,
        "SELECT h.player_id, r.label FROM rating_history h JOIN rating_periods r"
        " ON r.id = h.period_id WHERE h.time_control = 'standard' AND h.rating_after IS NULL"
        " AND h.list_status = 'below_floor' ORDER BY r.label DESC LIMIT 1",
    )
    stops = (demo_site / f"players/{pid}.html").read_text("utf-8")
    (caption,) = re.findall(r"<figcaption>(.*?)</figcaption>", stops)
    assert caption.endswith(f", and the line stops at {label}: no rating from that list on.")
    assert "newest" not in caption
    assert f"unrated from the {label} list on; the table below" in stops
    runs = (demo_site / "players/1.html").read_text("utf-8")
    assert "the line runs on to the newest list" in runs
