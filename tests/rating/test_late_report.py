"""An event reported too late (art. 9.1 of the FIDE Rating Regulations): an
event that is not reported by the third list after it ends is not rated. A ``--period``
beyond that list is refused unless ``--late-ok``, which rates it with a warning; ``game
add``, ``import games|trf|pgn`` and ``event edit`` alike. Under ``club`` and ``elo`` there
is no such limit.

Seen: ``--period`` accepted an event 7 lists after its end without a word."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from ratings import rules
from ratings.rules import Period
from tests.support import Club, run, trf_file, trf_game

REFUSED = (
    "Error: event '{name}' ends on 2026-02-12: period 2026-05 publishes the 4th list after "
    "its end, and an event not reported by the 3rd (period 2026-04) is not rated (art. 9.1); "
    "--late-ok rates it all the same\n"
)
WARNING = (
    "Warning: event '{name}' ends on 2026-02-12 and is rated in 2026-05, on the 4th list "
    "after its end: art. 9.1 rates an event reported by the 3rd (period 2026-04) at the latest"
)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    club.player("Ashe, Ann", "--rating", "2000", "--games", "100")
    club.player("Birk, Bo", "--rating", "1900", "--games", "100")
    return club


@pytest.mark.parametrize(
    ("end", "months", "latest"),
    [
        (dt.date(2026, 2, 12), 1, "2026-04"),  # lists of 1 March, 1 April, 1 May
        (dt.date(2026, 2, 28), 1, "2026-04"),  # the last day: the 1 March list is the first
        (dt.date(2026, 12, 31), 1, "2027-02"),
        (dt.date(2026, 2, 12), 3, "2026-07"),  # quarters: lists of 1 April, 1 July, 1 October
    ],
)
def test_the_latest_period_art_9_1_allows(end: dt.date, months: int, latest: str) -> None:
    assert rules.latest_rating_period(end, months) == Period.from_string(latest, months)
    assert rules.lists_after_end(end, Period.from_string(latest, months)) == 3


def test_game_add(club: Club) -> None:
    game = ["Ashe, Ann", "Birk, Bo", "1-0", "--date", "2026-02-12", "--event", "Late Cup"]
    before = club.state()
    code, out = club.run("game", "add", *game, "--period", "2026-05")
    assert (code, out) == (1, REFUSED.format(name="Late Cup"))
    assert club.state() == before
    club.ok("game", "add", *game, "--period", "2026-04")  # the 3rd list: in time, no word
    result = run(
        club, "game", "add", *game[:4], "2026-02-11", "--event", "Later Cup",
        "--period", "2026-05", "--late-ok",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Added game ")  # (an id PostgreSQL may have skipped)
    assert (
        result.stderr == WARNING.replace("2026-02-12", "2026-02-11").format(name="Later Cup") + "\n"
    )
    assert club.rows("SELECT name, rating_period FROM events ORDER BY id") == [
        ("Late Cup", "2026-04-01"),
        ("Later Cup", "2026-05-01"),
    ]


def _files(tmp_path: Path) -> dict[str, Path]:
    games = tmp_path / "late.csv"
    games.write_text(
        'date,white,black,result,event\n2026-02-12,"Ashe, Ann","Birk, Bo",1-0,Late Cup\n',
        "utf-8",
    )
    trf = tmp_path / "late.trf"
    trf.write_bytes(
        trf_file(
            ["Ashe, Ann", "Birk, Bo"],
            [trf_game(1, 1, 2)],
            name="Late Cup",
            start=dt.date(2026, 2, 11),
            end=dt.date(2026, 2, 12),
        )
    )
    pgn = tmp_path / "late.pgn"
    pgn.write_text(
        '[Event "Late Cup"]\n[Date "2026.02.12"]\n[White "Ashe, Ann"]\n[Black "Birk, Bo"]\n'
        '[Result "1-0"]\n\n1-0\n',
        "utf-8",
    )
    return {"games": games, "trf": trf, "pgn": pgn}


@pytest.mark.parametrize("kind", ["games", "trf", "pgn"])
def test_imports(club: Club, tmp_path: Path, kind: str) -> None:
    file = str(_files(tmp_path)[kind])
    before = club.state()
    assert club.run("import", kind, file, "--period", "2026-05") == (
        1,
        REFUSED.format(name="Late Cup"),
    )
    assert club.state() == before
    if kind != "games":  # a dry run checks the period too
        assert club.run("import", kind, file, "--period", "2026-05", "--dry-run") == (
            1,
            REFUSED.format(name="Late Cup"),
        )
    result = run(club, "import", kind, file, "--period", "2026-05", "--late-ok")
    assert result.exit_code == 0, result.output
    assert WARNING.format(name="Late Cup") in result.stderr.splitlines()
    assert club.rows("SELECT rating_period FROM events") == [("2026-05-01",)]


def test_event_edit(club: Club) -> None:
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-02-12", "--event", "Late Cup")
    before = club.state()
    assert club.run("event", "edit", "Late Cup", "--period", "2026-05") == (
        1,
        REFUSED.format(name="Late Cup"),
    )
    assert club.state() == before
    result = run(club, "event", "edit", "Late Cup", "--period", "2026-05", "--late-ok")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "Changed rating_period of event 1 (Late Cup)\n"
        "  event 1 (Late Cup): rating_period (none) -> 2026-05\n"
    )
    assert result.stderr == WARNING.format(name="Late Cup") + "\n"
    # a later edit of something else keeps the period it was given
    club.ok("event", "edit", "Late Cup", "--name", "Late Cup 2026")
    assert club.rows("SELECT name, rating_period FROM events") == [("Late Cup 2026", "2026-05-01")]


def test_no_limit_under_club_and_elo(tmp_path: Path) -> None:
    for system in ("club", "elo"):
        club = Club(tmp_path / f"{system}.db", "--system", system)
        club.player("Ashe, Ann", "--rating", "2000")
        club.player("Birk, Bo", "--rating", "1900")
        club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-02-12", "--period", "2026-09")
        assert club.rows("SELECT rating_period FROM events") == [("2026-09-01",)]


def test_help_names_the_option(club: Club) -> None:
    for command in (["game", "add"], ["import", "games"], ["import", "trf"], ["import", "pgn"],
                    ["event", "edit"]):  # fmt: skip
        text = " ".join(club.ok(*command, "--help").split())
        assert "--late-ok Rate an event given a --period beyond the 3rd list after its end" in (
            text
        ), command
