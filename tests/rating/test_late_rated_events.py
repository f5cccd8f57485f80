"""Events rated on a later list than their end date gives: the closing date
of art. 7.1.3 by default under fide, and the period FIDE rated an event in given by hand
(``import trf|pgn|games --period``, ``game add --period``, ``event edit --period``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.imports.test_trf import TRF
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")  # fide: lists close 3 days before their date
    club.player("Ashe, Ann", "--rating", "2000", "--games", "100", "--birthdate", "1980")
    club.player("Birk, Bo", "--rating", "1900", "--games", "100", "--birthdate", "1980")
    club.player("Cole, Cy", "--rating", "1800", "--games", "100", "--birthdate", "1980")
    return club


def games_csv(path: Path, *rows: str) -> Path:
    path.write_text("date,white,black,result,event\n" + "".join(r + "\n" for r in rows))
    return path


def test_fide_s_late_rated_events(tmp_path: Path, club: Club) -> None:
    """FIDE's published calculations: an event played 21-30 August rated on the October
    list (the September period: it ended after the 1 September list closed, art. 7.1.3), and
    one played 13-15 February rated on the April list (the March period: submitted late,
    given by hand). Each game uses the list in force when its event started; the base of
    the new rating is the list at the start of the period that rates it."""
    august = games_csv(
        tmp_path / "august.csv",
        '2025-08-21,"Ashe, Ann","Birk, Bo",1-0,Summer Open',
        '2025-08-30,"Cole, Cy","Ashe, Ann",0-1,Summer Open',
    )
    club.ok("import", "games", str(august))
    february = games_csv(
        tmp_path / "february.csv",
        '2026-02-13,"Ashe, Ann","Birk, Bo",1/2-1/2,Winter Cup',
        '2026-02-15,"Birk, Bo","Ashe, Ann",0-1,Winter Cup',
    )
    club.ok("import", "games", str(february), "--period", "2026-03")
    # a game of her own in February: rated in February, before the Winter Cup
    club.game("Ashe, Ann", "Cole, Cy", "0-1", "2026-02-05")
    club.ok("rate")
    # no list before the October one: nothing is rated in August
    assert club.rows("SELECT min(label) FROM rating_periods") == [("2025-09",)]
    rated = {p: club.entry("Ashe, Ann", p) for p in ("2025-09", "2026-02", "2026-03")}
    assert rated["2025-09"]["period_games"] == 2  # the October list
    assert rated["2026-02"]["period_games"] == 1
    assert rated["2026-03"]["period_games"] == 2  # the April list
    # the Winter Cup's games use the 1 February list (her rating before the loss of 5
    # February), the change goes onto the 1 March list
    february_list = rated["2026-02"]["rating_before"]
    own = club.rows(
        "SELECT DISTINCT own_rating FROM rating_calculations "
        "WHERE name = 'Ashe, Ann' AND period = '2026-03'"
    )
    assert own == [(february_list,)]
    assert rated["2026-03"]["rating_before"] == rated["2026-02"]["rating"] != february_list
    assert rated["2026-03"]["rating"] == rated["2026-02"]["rating"] + rated["2026-03"]["change"]
    assert club.rows("SELECT name, rating_period FROM events ORDER BY id")[:2] == [
        ("Summer Open", None),  # the closing date does it: no period needed
        ("Winter Cup", "2026-03-01"),
    ]


def test_a_period_before_the_end_is_refused(tmp_path: Path, club: Club) -> None:
    february = games_csv(
        tmp_path / "february.csv",
        '2026-02-13,"Ashe, Ann","Birk, Bo",1/2-1/2,Winter Cup',
        '2026-02-27,"Birk, Bo","Ashe, Ann",0-1,Winter Cup',
    )
    before = club.state()
    assert club.run("import", "games", str(february), "--period", "2026-01") == (
        1,
        "Error: event 'Winter Cup' ends on 2026-02-27: it cannot be rated in 2026-01, before "
        "its end (the earliest is 2026-02)\n",
    )
    assert club.state() == before
    assert club.run("import", "games", str(february), "--period", "26-01")[1] == (
        "Error: --period: period must be written yyyy-mm: '26-01'\n"
    )
    # the period of its end date is allowed, though the closing date (art. 7.1.3) would
    # send it to the next list: official FIDE events "may be rated on the list even if they
    # end on the last day before the list date"
    club.ok("import", "games", str(february), "--period", "2026-02")
    club.ok("rate")
    assert club.entry("Ashe, Ann", "2026-02")["period_games"] == 2


def test_trf_and_pgn_imports_take_a_period(tmp_path: Path, club: Club) -> None:
    path = TRF / "held_swiss_9.trf"  # 2024-08-01
    code, out = club.run("import", "trf", str(path), "--period", "2024-07", "--dry-run")
    assert (code, out.splitlines()[-1]) == (
        1,
        "Error: event 'FIDE C.07 2023 Tie-Break Exercises' ends on 2024-08-01: it cannot be "
        "rated in 2024-07, before its end (the earliest is 2024-08)",
    )
    club.ok("import", "trf", str(path), "--period", "2024-10", "--dry-run")
    assert club.rows("SELECT count(*) FROM events") == [(0,)]
    club.ok("import", "trf", str(path), "--period", "2024-10")
    assert club.rows("SELECT rating_period FROM events") == [("2024-10-01",)]
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        '[Event "Blitz"]\n[Date "2026.01.31"]\n[White "Ashe, Ann"]\n[Black "Cole, Cy"]\n'
        '[Result "1-0"]\n\n1-0\n'
    )
    club.ok("import", "pgn", str(pgn), "--period", "2026-03")
    assert club.rows("SELECT name, rating_period FROM events ORDER BY id")[1:] == [
        ("Blitz", "2026-03-01")
    ]


def test_game_add_period(club: Club) -> None:
    club.game("Ashe, Ann", "Birk, Bo", "1-0", "2026-01-10", "--event", "Match", "--period",
              "2026-02")  # fmt: skip
    assert club.rows("SELECT name, rating_period FROM events") == [("Match", "2026-02-01")]
    # a second game of the match with the same period joins it; another period is refused
    club.game("Birk, Bo", "Ashe, Ann", "1-0", "2026-01-11", "--event", "Match", "--period",
              "2026-02")  # fmt: skip
    before = club.state()
    assert club.run("game", "add", "Birk, Bo", "Ashe, Ann", "1-0", "--date", "2026-01-12",
                    "--event", "Match", "--period", "2026-03") == (
        1,
        "Error: event 1 (Match) has other games, rated in 2026-02; give the event the period "
        "with 'ratings event edit 1 --period 2026-03'\n",
    )  # fmt: skip
    assert club.state() == before
    club.ok("rate")
    assert club.rows("SELECT label FROM rating_periods") == [("2026-02",)]
    assert club.entry("Ashe, Ann", "2026-02")["period_games"] == 2


def test_a_league_imported_into_rated_periods_marks_its_first_period(
    tmp_path: Path, club: Club
) -> None:
    club.game("Ashe, Ann", "Cole, Cy", "1-0", "2025-09-05")
    club.game("Ashe, Ann", "Cole, Cy", "1-0", "2026-03-05")
    club.ok("rate")
    league = games_csv(
        tmp_path / "league.csv",
        '2025-09-20,"Ashe, Ann","Birk, Bo",1-0,League',
        '2026-03-10,"Birk, Bo","Ashe, Ann",1/2-1/2,League',
    )
    out = club.ok("import", "games", str(league))
    assert "This touches rated period 2025-09: 'ratings rate' re-rates from there\n" in out
    club.ok("rate")
    assert club.entry("Birk, Bo", "2025-09")["period_games"] == 1
