"""`ratings publish --list` and `ratings plot --list`: the website and the charts of
the rapid and blitz lists, the standard site left as it was by rapid games, and a folder that
holds one list's site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ratings.site import build, pool
from ratings.site.output import MANIFEST
from tests.publish_helpers import ok, run, site_files


def club(folder: Path) -> Path:
    """A (standard 2000, rapid 1900) and B (the same) play a rapid game in March 2025; A also
    plays C a standard game in March, and C plays D in April. C and D never played rapid and
    have no rapid rating."""
    db = folder / "club.db"
    ok("--db", str(db), "init")
    for name, rating, rapid in (("A", "2000", "1900"), ("B", "2000", "1900")):
        ok("--db", str(db), "player", "add", name, "--rating", rating, "--games", "50",
           "--rapid-rating", rapid)  # fmt: skip
    for name, rating in (("C", "1800"), ("D", "1700")):
        ok("--db", str(db), "player", "add", name, "--rating", rating, "--games", "50")
    ok("--db", str(db), "game", "add", "A", "C", "1-0", "--date", "2025-03-04",
       "--event", "Club Championship")  # fmt: skip
    ok("--db", str(db), "game", "add", "A", "B", "1-0", "--date", "2025-03-05",
       "--event", "Rapid Cup", "--time-control", "rapid")  # fmt: skip
    ok("--db", str(db), "game", "add", "C", "D", "1-0", "--date", "2025-04-05",
       "--event", "April Open")  # fmt: skip
    ok("--db", str(db), "rate")
    return db


def publish(db: Path, site: Path, *extra: str) -> str:
    return ok("publish", str(site), "--db", str(db), *extra)


def pages(site: Path, folder: str) -> set[str]:
    return {p.name for p in (site / folder).iterdir()}


def without_manifest(files: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v for k, v in files.items() if k != MANIFEST}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return club(tmp_path)


def test_the_rapid_site_shows_the_rapid_list(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "rapid"
    out = publish(db, site, "--list", "rapid")
    assert out.startswith(f"Published {site / 'index.html'} (rapid list): 2 list(s), 2 player")
    index = (site / "index.html").read_text("utf-8")
    assert "<title>Rapid rating list · Ratings</title>" in index
    assert "<h1>Rapid rating list 2025-04</h1>" in index
    # A beat B: 1900 + 10 and 1900 - 10 on the rapid list; A's standard rating is not there
    assert ">1910<" in index
    assert ">1890<" in index
    standard_a = json.loads(ok("--db", str(db), "list", "--format", "json"))["players"][0]
    assert (standard_a["name"], standard_a["rating"]) == ("A", 2005)
    assert ">2005<" not in index
    assert ">2000<" not in index
    # C and D never had a rapid rating or game: no page, on no list
    assert pages(site, "players") == {"1.html", "1.json", "2.html", "2.json"}
    assert ">C<" not in index
    assert ">D<" not in index
    player = (site / "players/1.html").read_text("utf-8")
    assert "<dt>Rapid rating</dt><dd>1910</dd>" in player
    assert "<h2>Rapid rating history</h2>" in player
    assert "Rapid Cup" in player
    assert "Club Championship" not in player
    # the downloads: FIDE's rapid layout
    txt = (site / "lists/2025-03.txt").read_text("utf-8")
    assert txt.splitlines()[0].split()[-4:] == ["RGm", "RK", "B-day", "Flag"]
    assert txt == ok("--db", str(db), "list", "--list", "rapid", "--period", "2025-03",
                     "--format", "fide-txt")  # fmt: skip
    csv = (site / "lists/2025-03.csv").read_text("utf-8").splitlines()
    assert [line.split(",")[:6] for line in csv[1:]] == [
        ["A", "", "", "", "", "1910"],
        ["B", "", "", "", "", "1890"],
    ]


def test_the_standard_site_keeps_fides_standard_layout_and_its_own_players(
    db: Path, tmp_path: Path
) -> None:
    site = tmp_path / "standard"
    out = publish(db, site)
    assert "(rapid list)" not in out
    assert "(standard list)" not in out
    assert pages(site, "players") == {f"{n}.{ext}" for n in range(1, 5) for ext in ("html", "json")}
    txt = (site / "lists/2025-03.txt").read_text("utf-8")
    assert txt.splitlines()[0].split()[-4:] == ["Gms", "K", "B-day", "Flag"]
    index = (site / "index.html").read_text("utf-8")
    assert "<h1>Rating list 2025-04</h1>" in index
    assert "Rapid" not in index
    assert ">2005<" in index
    assert ">1910<" not in index
    player = (site / "players/1.html").read_text("utf-8")
    assert "<dt>Rating</dt><dd>2005</dd>" in player
    assert "Club Championship" in player
    assert "Rapid Cup" not in player


def test_a_rapid_event_has_a_page_on_the_rapid_site_only(db: Path, tmp_path: Path) -> None:
    standard, rapid = tmp_path / "standard", tmp_path / "rapid"
    publish(db, standard)
    publish(db, rapid, "--list", "rapid")
    # events 1 (Club Championship) and 3 (April Open) are standard, 2 (Rapid Cup) rapid
    assert pages(standard, "events") == {"1.html", "3.html"}
    assert pages(rapid, "events") == {"2.html"}
    event = (rapid / "events/2.html").read_text("utf-8")
    assert "<title>Rapid Cup (rapid list) · Ratings</title>" in event
    assert 'rated on the rapid list in period <a href="../lists/2025-03.html">2025-03</a>.' in event
    # the crosstable links only to pages the rapid site has
    assert 'href="../players/1.html"' in event
    assert 'href="../players/2.html"' in event


def test_rapid_games_leave_the_standard_site_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    ok("--db", str(db), "init")
    for name in ("A", "B", "C"):
        ok("--db", str(db), "player", "add", name, "--rating", "2000", "--games", "50")
    ok("--db", str(db), "game", "add", "A", "B", "1-0", "--date", "2025-03-04")
    ok("--db", str(db), "game", "add", "B", "C", "1-0", "--date", "2025-04-04")
    ok("--db", str(db), "rate")
    site = tmp_path / "site"
    publish(db, site)
    before = site_files(site)
    # rapid games in both rated periods (re-rated) and in their events' months
    ok("--db", str(db), "game", "add", "A", "C", "0-1", "--date", "2025-03-20",
       "--event", "Spring Rapid", "--time-control", "rapid")  # fmt: skip
    ok("--db", str(db), "game", "add", "C", "B", "1-0", "--date", "2025-04-20",
       "--event", "April Rapid", "--time-control", "rapid")  # fmt: skip
    ok("--db", str(db), "rate")
    assert ok("--db", str(db), "list", "--list", "rapid", "--format", "csv").count("\n") == 4
    out = publish(db, site)
    assert "; 0 file(s) written" in out
    assert without_manifest(site_files(site)) == without_manifest(before)
    fresh = tmp_path / "fresh"
    publish(db, fresh)
    assert without_manifest(site_files(fresh)) == without_manifest(before)


def test_a_rapid_site_published_again_is_the_fresh_one(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site, "--list", "rapid")
    assert "; 0 file(s) written" in publish(db, site, "--list", "rapid")
    # a rapid game in a new month: a new rapid list, and B's and a new player's pages
    ok("--db", str(db), "player", "add", "E", "--rating", "1600")
    ok("--db", str(db), "game", "add", "B", "E", "1-0", "--date", "2025-05-06",
       "--event", "May Rapid", "--time-control", "rapid")  # fmt: skip
    ok("--db", str(db), "rate")
    publish(db, site, "--list", "rapid")
    assert pages(site, "players") == {f"{n}.{ext}" for n in (1, 2, 5) for ext in ("html", "json")}
    assert pages(site, "events") == {"2.html", "4.html"}
    fresh = tmp_path / "fresh"
    publish(db, fresh, "--list", "rapid")
    assert site_files(site) == site_files(fresh)
    manifest = json.loads((site / MANIFEST).read_text("utf-8"))
    assert manifest["list"] == "rapid"


def test_worker_processes_publish_the_rapid_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workers check the periods they read are the ones planned: those of the rapid
    list, which here starts a period after the standard one."""
    db = tmp_path / "club.db"
    ok("--db", str(db), "init")
    for name in ("A", "B", "C"):
        ok("--db", str(db), "player", "add", name, "--rating", "2000", "--games", "50")
    ok("--db", str(db), "game", "add", "A", "B", "1-0", "--date", "2025-02-04")
    ok("--db", str(db), "game", "add", "A", "C", "1-0", "--date", "2025-03-04",
       "--time-control", "rapid")  # fmt: skip
    ok("--db", str(db), "rate")
    serial = tmp_path / "serial"
    publish(db, serial, "--list", "rapid", "--jobs", "1")
    monkeypatch.setattr(pool, "PARALLEL_FROM", 1)
    monkeypatch.setattr(pool, "CHUNK_PAGES", 1)
    parallel = tmp_path / "parallel"
    publish(db, parallel, "--list", "rapid", "--jobs", "2")
    assert site_files(parallel) == site_files(serial)
    assert sorted(pages(parallel, "lists")) == [
        "2025-03-sealed.csv", "2025-03-top.csv", "2025-03-top.html", "2025-03.csv",
        "2025-03.html", "2025-03.json", "2025-03.txt",
    ]  # fmt: skip


def test_a_folder_holds_the_site_of_one_list(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish(db, site)
    before = site_files(site)
    for extra in ((), ("--force",)):
        result = run("publish", str(site), "--db", str(db), "--list", "rapid", *extra)
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr == (
            f"Error: '{site}' holds the website of the standard list; publish the rapid list "
            "into another folder (or delete this one first); nothing was written\n"
        )
        assert site_files(site) == before
    # and the other way round
    rapid = tmp_path / "rapid"
    publish(db, rapid, "--list", "rapid")
    result = run("publish", str(rapid), "--db", str(db), "--list", "standard")
    assert result.exit_code == 1  # (without --list: the folder's own list)
    assert "holds the website of the rapid list; publish the standard list" in result.stderr
    # the list is part of what every page depends on
    assert build._build_key("T", "S", "rapid") != build._build_key("T", "S", "standard")
    assert build._build_key("T", "S") == build._build_key("T", "S", "standard")


def test_a_half_written_site_of_another_list_is_completed(db: Path, tmp_path: Path) -> None:
    """A publish killed before it finished leaves a manifest that says so and names no list:
    the next publish, of any list, completes the folder (the files that manifest does not
    list are not known to be ours: they stay)."""
    site = tmp_path / "site"
    publish(db, site)
    manifest = site / MANIFEST
    manifest.write_text(json.dumps({"generator": "ratings", "format": 1, "complete": False}))
    publish(db, site, "--list", "rapid")
    fresh = tmp_path / "fresh"
    publish(db, fresh, "--list", "rapid")
    published = site_files(site)
    assert {k: published[k] for k in site_files(fresh)} == site_files(fresh)
    assert json.loads(manifest.read_text("utf-8"))["list"] == "rapid"


def test_no_blitz_list_no_blitz_site(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "blitz"
    result = run("publish", str(site), "--db", str(db), "--list", "blitz")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: there is no blitz list to publish: no rated period published one (no blitz "
        "game or blitz rating yet); nothing was written\n"
    )
    assert not site.exists()


def test_an_unknown_list_is_a_usage_error(db: Path, tmp_path: Path) -> None:
    result = run("publish", str(tmp_path / "x"), "--db", str(db), "--list", "bullet")
    assert result.exit_code == 2
    assert "'bullet' is not one of 'standard', 'rapid', 'blitz'" in result.stderr
    assert not (tmp_path / "x").exists()


def test_plot_the_rapid_list(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "rapid.svg"
    result = run("--db", str(db), "plot", "A", "B", "--list", "rapid", "-o", str(out))
    assert (result.exit_code, result.stderr) == (0, f"Wrote {out}: 2 player(s)\n")
    svg = out.read_text("utf-8")
    assert "1910" in svg
    assert "1890" in svg
    assert "2005" not in svg
    standard = tmp_path / "standard.svg"
    ok("--db", str(db), "plot", "A", "B", "-o", str(standard))
    assert "2005" in standard.read_text("utf-8")
    # C has a standard rating, none on the rapid list
    result = run("--db", str(db), "plot", "A", "C", "--list", "rapid", "-o", str(out), "--force")
    assert result.exit_code == 0
    assert "Warning: C has no published rapid rating in these periods\n" in result.stderr
    result = run("--db", str(db), "plot", "C", "--list", "rapid", "-o", str(tmp_path / "c.svg"))
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: no published rapid rating to plot for C in the periods asked for\n",
    )
    result = run("--db", str(db), "plot", "A", "--list", "blitz", "-o", str(tmp_path / "b.svg"))
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: no published blitz rating to plot for A in the periods asked for\n",
    )
    assert not (tmp_path / "c.svg").exists()
    assert not (tmp_path / "b.svg").exists()
