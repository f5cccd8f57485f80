"""Corrections of an event's rating period (``event edit --period``) and
of events longer than 90 days: the rated periods they touch are re-rated from the
earliest, through the correcting commands (``event edit``, ``game edit``, ``game add
--yes``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rating.test_late_rated_events import games_csv
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")  # fide: lists close 3 days before their date
    club.player("Ashe, Ann", "--rating", "2000", "--games", "100", "--birthdate", "1980")
    club.player("Birk, Bo", "--rating", "1900", "--games", "100", "--birthdate", "1980")
    club.player("Cole, Cy", "--rating", "1800", "--games", "100", "--birthdate", "1980")
    return club


def test_event_edit_period_is_a_correction(tmp_path: Path, club: Club) -> None:
    february = games_csv(
        tmp_path / "february.csv",
        '2026-02-13,"Ashe, Ann","Birk, Bo",1-0,Winter Cup',
        '2026-02-15,"Birk, Bo","Ashe, Ann",0-1,Winter Cup',
    )
    club.ok("import", "games", str(february))
    club.game("Ashe, Ann", "Cole, Cy", "1-0", "2026-03-05")
    club.ok("rate")
    assert club.entry("Ashe, Ann", "2026-02")["period_games"] == 2
    # FIDE rated the Winter Cup on the April list: the March period
    out = club.ok("event", "edit", "Winter Cup", "--period", "2026-03", "--reason", "FIDE's list")
    assert out.splitlines()[0] == "Changed rating_period of event 1 (Winter Cup)"
    assert club.rows("SELECT label, status FROM rating_periods ORDER BY label") == [
        ("2026-02", "needs_rerate"),  # the earlier of the two periods
        ("2026-03", "published"),
    ]
    assert club.rows(
        "SELECT action, event_id, field, old_value, new_value, reason FROM corrections"
    ) == [("event_edit", 1, "rating_period", None, "2026-03-01", "FIDE's list")]
    club.ok("rate")
    assert club.entry("Ashe, Ann", "2026-02")["period_games"] == 0
    assert club.entry("Ashe, Ann", "2026-03")["period_games"] == 3
    # never before its end
    assert club.run("event", "edit", "Winter Cup", "--period", "2026-01") == (
        1,
        "Error: event 'Winter Cup' ends on 2026-02-15: it cannot be rated in 2026-01, before "
        "its end (the earliest is 2026-02)\n",
    )
    # nor can its end move past its period
    assert club.run("event", "edit", "Winter Cup", "--end", "2026-04-02", "--yes") == (
        1,
        "Error: event 'Winter Cup' ends on 2026-04-02: it cannot be rated in 2026-03, before "
        "its end (the earliest is 2026-04)\n",
    )
    # back to the default: February again, from February on
    club.ok("event", "edit", "Winter Cup", "--period", "")
    assert club.rows("SELECT rating_period FROM events WHERE id = 1") == [(None,)]
    club.ok("rate")
    assert club.entry("Ashe, Ann", "2026-02")["period_games"] == 2


def test_a_league_correction_marks_the_period_the_game_was_played_in(
    tmp_path: Path, club: Club
) -> None:
    """A game of an event longer than 90 days is rated in the period it was played: its
    correction re-rates from there, not from the period of the league's end."""
    league = games_csv(
        tmp_path / "league.csv",
        '2025-09-20,"Ashe, Ann","Birk, Bo",1-0,League',
        '2026-03-10,"Birk, Bo","Ashe, Ann",1/2-1/2,League',
    )
    club.ok("import", "games", str(league))
    club.ok("rate")
    first = club.rows("SELECT min(id) FROM games")[0][0]
    club.ok("game", "edit", str(first), "--result", "0-1")
    assert club.rows("SELECT min(label) FROM rating_periods WHERE status = 'needs_rerate'") == [
        ("2025-09",)
    ]


def test_an_event_that_grows_past_90_days_re_rates_from_its_first_game(
    tmp_path: Path, club: Club
) -> None:
    """Rated whole in November while 75 days long; a game on 20 December makes it a league,
    rated game by game: its September game moves to September, so the re-rate starts there."""
    club.game("Ashe, Ann", "Cole, Cy", "1-0", "2025-09-05")
    league = games_csv(
        tmp_path / "league.csv",
        '2025-09-01,"Ashe, Ann","Birk, Bo",1-0,League',
        '2025-11-15,"Birk, Bo","Ashe, Ann",1/2-1/2,League',
    )
    club.ok("import", "games", str(league))
    club.game("Cole, Cy", "Birk, Bo", "1-0", "2025-12-05")
    club.ok("rate")
    assert club.entry("Birk, Bo", "2025-09")["period_games"] == 0
    club.game("Cole, Cy", "Birk, Bo", "0-1", "2025-12-20", "--event", "League", "--yes")
    assert club.rows("SELECT min(label) FROM rating_periods WHERE status = 'needs_rerate'") == [
        ("2025-09",)
    ]
    club.ok("rate")
    assert club.entry("Birk, Bo", "2025-09")["period_games"] == 1
