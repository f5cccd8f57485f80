"""Dates in the future: game dates after today are refused on every input
path unless ``--allow-future`` (``rate`` and ``unrate``: tests/rating/test_rate_periods.py).

Seen: today 2026-11-30, ``game add ... --date 2027-12-01`` (a year typo) was accepted and
``rate`` published 21 periods up to 2027-12; a CSV game dated 2062-01-12 made ``rate``
publish 433 periods.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

import ratings.clock
from ratings import service
from ratings.errors import FutureDateError, InputFileError
from ratings.results import Result
from tests.support import Club

TODAY = dt.date(2026, 11, 30)
DATA = Path(__file__).parents[1] / "data"


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    club.player("Ann", "--rating", "1850", "--games", "40")
    club.player("Bob", "--rating", "1700", "--games", "40")
    return club


def test_game_add_refuses_a_date_after_today(club: Club) -> None:
    code, out = club.run("game", "add", "Ann", "Bob", "1-0", "--date", "2027-12-01")
    assert (code, out) == (
        1,
        "Error: the date 2027-12-01 is after today (2026-11-30); check it, or give "
        "--allow-future\n",
    )
    assert club.rows("SELECT count(*) FROM games") == [(0,)]
    # today itself is fine; a game not yet played needs the option
    club.game("Ann", "Bob", "1-0", "2026-11-30")
    club.game("Ann", "Bob", "1-0", "2027-12-01", "--allow-future")
    assert club.rows("SELECT count(*) FROM games") == [(2,)]


def test_game_edit_refuses_a_date_after_today(club: Club) -> None:
    club.game("Ann", "Bob", "1-0", "2026-10-05")
    code, out = club.run("game", "edit", "1", "--date", "2062-01-12")
    assert (code, out) == (
        1,
        "Error: the date 2062-01-12 is after today (2026-11-30); check it, or give "
        "--allow-future\n",
    )
    club.ok("game", "edit", "1", "--date", "2026-10-06")
    assert club.rows("SELECT played_on FROM games") == [("2026-10-06",)]


def test_import_games_refuses_rows_dated_after_today(club: Club, tmp_path: Path) -> None:
    csv = tmp_path / "games.csv"
    csv.write_text(
        "date,white,black,result,event\n"
        "2026-11-02,Ann,Bob,1-0,Nov Cup\n"
        "2062-01-12,Bob,Ann,1/2-1/2,Nov Cup\n"
        "2026-12-01,Ann,Bob,0-1,\n",
        encoding="utf-8",
    )
    code, out = club.run("import", "games", str(csv))
    assert code == 1
    assert out.splitlines() == [
        f"Error: {csv}:3: date: 2062-01-12 is after today (2026-11-30); check it, or give "
        "--allow-future",
        f"Error: {csv}:4: date: 2026-12-01 is after today (2026-11-30); check it, or give "
        "--allow-future",
        "Error: 2 problems found; nothing was imported",
    ]
    assert club.rows("SELECT count(*) FROM games") == [(0,)]
    club.ok("import", "games", str(csv), "--allow-future")
    assert club.rows("SELECT count(*) FROM games") == [(3,)]


def test_import_trf_refuses_a_tournament_after_today(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    trf = DATA / "trf" / "held_swiss_9.trf"  # 042 2024-08-01, no round dates
    monkeypatch.setattr(ratings.clock, "today", lambda: dt.date(2024, 7, 31))
    code, out = club.run("import", "trf", str(trf))
    assert (code, out) == (
        1,
        f"Error: {trf}:2: start date: 2024-08-01 is after today (2024-07-31); check it, or "
        "give --allow-future\n",
    )
    club.ok("import", "trf", str(trf), "--allow-future")


def test_import_pgn_refuses_games_after_today(club: Club, tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        '[Event "Cup"]\n[Date "2026.11.29"]\n[White "Ann"]\n[Black "Bob"]\n[Result "1-0"]\n\n'
        "1-0\n\n"
        '[Event "Cup"]\n[Date "2027.11.29"]\n[White "Bob"]\n[Black "Ann"]\n[Result "0-1"]\n\n'
        "0-1\n",
        encoding="utf-8",
    )
    code, out = club.run("import", "pgn", str(pgn))
    assert (code, out) == (
        1,
        f"Error: {pgn}:9: Date: 2027-11-29 is after today (2026-11-30); check it, or give "
        "--allow-future\n",
    )
    club.ok("import", "pgn", str(pgn), "--allow-future")


# --- the service functions -------------------------------------------------------------------


@pytest.fixture
def players(session: Session) -> None:
    service.add_player(session, "Ann", rating=1850, games=40)
    service.add_player(session, "Bob", rating=1700, games=40)


def test_add_game_takes_today_as_a_parameter(session: Session, players: None) -> None:
    with pytest.raises(FutureDateError, match=r"the date 2026-12-01 is after today \(2026-11-30\)"):
        service.add_game(session, "Ann", "Bob", Result.WHITE_WIN, TODAY.replace(month=12, day=1),
                         today=TODAY)  # fmt: skip
    service.add_game(session, "Ann", "Bob", Result.WHITE_WIN, TODAY, today=TODAY)
    # no today: no check (a library caller that decides itself)
    service.add_game(session, "Ann", "Bob", Result.WHITE_WIN, dt.date(2030, 1, 1))


def test_import_games_takes_today(session: Session, players: None) -> None:
    from ratings.io.csv import read_games_csv

    data = b"date,white,black,result\n2026-12-01,Ann,Bob,1-0\n"
    rows = read_games_csv(data, "g.csv")
    with pytest.raises(InputFileError, match=r"g\.csv:2: date: 2026-12-01 is after today"):
        service.import_games(session, rows, "g.csv", "hash", today=TODAY)
