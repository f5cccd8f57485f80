"""``rate`` and the periods it rates: a period that has not ended is rated only
when ``--through`` names it; ``rate --dry-run`` and ``preview`` show what ``rate``
would change, old -> new, and write nothing.

Seen: today 2026-11-30, a game dated 2027-12-01 (a year typo) made ``rate`` publish 21
periods up to 2027-12.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

import ratings.clock
from ratings import service
from ratings.results import Result
from ratings.rules import Period
from tests.support import Club, run

TODAY = dt.date(2026, 11, 30)


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    club.player("Ann", "--rating", "1850", "--games", "40")
    club.player("Bob", "--rating", "1700", "--games", "40")
    return club


@pytest.fixture
def players(session: Session) -> None:
    service.add_player(session, "Ann", rating=1850, games=40)
    service.add_player(session, "Bob", rating=1700, games=40)


def test_rate_does_not_rate_a_period_that_has_not_ended(club: Club) -> None:
    """The report's case: a game dated a year ahead (allowed here on purpose) made ``rate``
    publish every period up to it."""
    club.game("Ann", "Bob", "1-0", "2026-10-05")
    club.game("Bob", "Ann", "1-0", "2026-11-20")  # November has not ended on the 30th
    club.game("Ann", "Bob", "1/2-1/2", "2027-12-01", "--allow-future")
    result = run(club, "rate")
    assert (result.exit_code, result.stdout) == (0, "Rated period 2026-10 (1 rated game)\n")
    assert result.stderr == (
        "Not rated: periods 2026-11 .. 2027-12 have not ended (today is 2026-11-30); "
        "'ratings rate --through 2027-12' rates them now\n"
    )
    assert club.rows("SELECT label FROM rating_periods") == [("2026-10",)]
    # --through names a period that has not ended: rated on purpose
    assert club.ok("rate", "--through", "2026-11") == "Rated period 2026-11 (1 rated game)\n"
    assert club.rows("SELECT label FROM rating_periods ORDER BY label") == [
        ("2026-10",),
        ("2026-11",),
    ]


def test_rate_with_nothing_ended_says_why(club: Club) -> None:
    club.game("Ann", "Bob", "1-0", "2026-11-20")
    result = run(club, "rate")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        "Nothing to rate\n",
        "Not rated: period 2026-11 has not ended (today is 2026-11-30); "
        "'ratings rate --through 2026-11' rates it now\n",
    )


def test_rate_holds_back_periods_that_have_not_ended(session: Session, players: None) -> None:
    service.add_game(session, "Ann", "Bob", Result.WHITE_WIN, dt.date(2026, 10, 5))
    service.add_game(session, "Ann", "Bob", Result.WHITE_WIN, dt.date(2026, 11, 20))
    report = service.rate(session, today=TODAY)
    assert report.rated == ("2026-10",)
    assert report.held_back == ("2026-11",)
    # the next day November has ended
    report = service.rate(session, today=dt.date(2026, 12, 1))
    assert (report.rated, report.held_back) == (("2026-11",), ())
    # without today (a library call), every period with games is rated, as before
    service.add_game(session, "Ann", "Bob", Result.WHITE_WIN, dt.date(2027, 1, 5))
    assert service.rate(session).rated == ("2026-12", "2027-01")
    assert service.rate(session, through=Period.from_string("2027-01", 1)).rated == ()


def test_the_rated_line_counts_the_games_of_the_periods_it_names(club: Club) -> None:
    """Seen: a `rate` that re-rated ten periods after a correction and rated 2026-01, with one
    game, said `Rated period 2026-01 (593 rated games)`: every game the run rated again."""
    club.game("Ann", "Bob", "1-0", "2026-08-05")
    club.game("Bob", "Ann", "1-0", "2026-08-20")
    club.ok("rate", "--through", "2026-08")
    club.ok("game", "edit", "1", "--result", "1/2-1/2", "--yes")
    club.game("Ann", "Bob", "1/2-1/2", "2026-09-10")
    out = club.ok("rate", "--through", "2026-09")
    assert out.splitlines()[0].startswith("Re-rated period 2026-08 after corrections")
    assert out.splitlines()[-1] == "Rated period 2026-09 (1 rated game)"
