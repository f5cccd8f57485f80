"""Unknown game counts, the closing date and late-rated events, the inactive flag and events
longer than 90 days, through the CLI."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from ratings import rules
from tests.support import Club

WARNING = (
    "Warning: {n} rated player{s} without a known count of prior rated games: K 20 unless "
    "junior or 2400 (README, 'Unknown game counts'); 'ratings player list --unknown-games' "
    "lists them, 'ratings player edit PLAYER --games N' or 'ratings import fide-list FILE' "
    "(FIDE's K) settles them\n"
)


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path / "club.db")


# --- unknown prior game counts ---------------------------------------------------------------


def test_an_established_player_with_an_unknown_count_is_not_rated_as_new(club: Club) -> None:
    """An adult born 1970, rated 1900, registered without a game count, got
    K 40. An unknown count is stored as NULL and a rated player then gets K 20."""
    club.player("Adult", "--birthdate", "1970", "--rating", "1900")
    club.player("Rival", "--birthdate", "1970", "--rating", "1900", "--games", "200")
    assert club.rows("SELECT entry_games FROM players ORDER BY id") == [(None,), (200,)]
    club.game("Adult", "Rival", "0-1", "2025-03-10")
    assert club.ok("rate").split("\n", 1)[1] == WARNING.format(n=1, s="")
    entry = club.entry("Adult", "2025-03")
    assert (entry["k_used"], entry["change"], entry["total_games"]) == (20, -10, None)


def test_junior_and_2400_rules_apply_whatever_the_count(club: Club) -> None:
    club.player("Junior", "--birthdate", "2012", "--rating", "1900")
    club.player("Master", "--birthdate", "1970", "--rating", "2450")
    club.player("Rival", "--birthdate", "1970", "--rating", "1900", "--games", "200")
    club.game("Junior", "Rival", "1-0", "2025-03-10")
    club.game("Master", "Rival", "1-0", "2025-03-11")
    club.ok("rate")
    assert club.entry("Junior", "2025-03")["k_used"] == 40
    assert club.entry("Master", "2025-03")["k_used"] == 10


def test_unknown_games_are_listed_and_settled(club: Club) -> None:
    club.player("Adult", "--birthdate", "1970", "--rating", "1900")
    club.player("Newcomer")  # unrated: an unknown count does not matter
    club.player("Known", "--rating", "1800", "--games", "0")
    out = club.ok("player", "list", "--unknown-games")
    assert out.splitlines()[1:] == [
        "    1  Adult                                           1970  1900    "
    ]
    club.ok("player", "edit", "Adult", "--games", "12")
    assert club.ok("player", "list", "--unknown-games").splitlines()[1:] == []
    club.game("Adult", "Known", "1-0", "2025-03-10")
    assert "Warning" not in club.ok("rate")
    assert club.entry("Adult", "2025-03")["k_used"] == 40  # 12 games before the period


def test_rate_without_anything_to_rate_still_warns(club: Club) -> None:
    club.player("Adult", "--rating", "1900")
    club.player("Other", "--rating", "1900")
    assert club.ok("rate") == "Nothing to rate\n" + WARNING.format(n=2, s="s")


def test_a_player_with_k10_for_good_is_not_counted(club: Club) -> None:
    """K 10 once a published rating has reached 2400 (art. 8.3.3), whatever the count: no
    warning and no line in --unknown-games for such a player."""
    club.player("Master", "--rating", "2450")
    club.player("Flagged", "--rating", "2100", "--k10")
    assert club.ok("rate") == "Nothing to rate\n"
    assert club.ok("player", "list", "--unknown-games").splitlines()[1:] == []
    club.player("Adult", "--rating", "1900")
    assert club.ok("player", "list", "--unknown-games").splitlines()[1:] == [
        "    3  Adult                                                 1900    "
    ]


def test_an_event_ending_after_the_closing_date_is_no_span_warning(
    club: Club, tmp_path: Path
) -> None:
    """An event within one month that ends after its list's closing date goes to the next
    list by rule (art. 7.1.3): no warning. One across two months warns."""
    club.player("A", "--rating", "2000", "--games", "100")
    club.player("B", "--rating", "2000", "--games", "100")
    csv = tmp_path / "games.csv"
    csv.write_text(
        "date,white,black,result,event\n2025-01-31,A,B,1-0,Late\n"
        "2025-02-27,A,B,1-0,Across\n2025-03-02,B,A,1-0,Across\n"
    )
    out = club.ok("import", "games", str(csv))
    assert [line for line in out.splitlines() if line.startswith("Warning")] == [
        "Warning: event 'Across' (2025-02-27 .. 2025-03-02) spans periods 2025-02 .. 2025-03: "
        "all its games are rated in 2025-03 against the list in force at its start"
    ]


def test_standing_k_rule() -> None:
    """rules.standing_k: FIDE's K on the very list is authoritative; an unknown count is K 20
    unless a junior, a 2400 player or FIDE's last K of a non-junior was 40."""
    nov = dt.date(2025, 11, 1)
    assert rules.standing_k(1900, None, 1970, False, False, nov) == 20
    assert rules.standing_k(1900, None, 2010, False, False, nov) == 40
    assert rules.standing_k(1900, None, 1970, True, False, nov) == 10
    assert rules.standing_k(1900, None, 1970, False, False, nov, 40, dt.date(2025, 9, 1)) == 40
    # FIDE's 40 of a junior says nothing about the count once the junior has grown up
    assert rules.standing_k(1900, None, 2006, False, False, nov, 40, dt.date(2024, 9, 1)) == 20
    # on its own list FIDE's K wins over a known count too
    assert rules.standing_k(1900, 100, 1970, False, False, nov, 40, nov) == 40
    assert rules.standing_k(1900, 100, 1970, False, False, nov, 40, dt.date(2025, 10, 1)) == 20


# --- the closing date (art. 7.1.3) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("closing", "end", "period"),
    [
        (3, "2025-10-29", "2025-10"),
        (3, "2025-10-30", "2025-11"),  # the example reported: the December list
        (3, "2025-02-26", "2025-02"),
        (3, "2025-02-27", "2025-03"),
        (0, "2025-10-31", "2025-10"),
        (1, "2025-10-31", "2025-10"),
    ],
)
def test_rating_period_for_the_closing_date(closing: int, end: str, period: str) -> None:
    assert rules.rating_period_for(dt.date.fromisoformat(end), 1, closing).label == period


def test_fide_database_applies_the_closing_date(club: Club) -> None:
    """Under fide an event ending on 30 October went to November's list; a
    list closes 3 days before its date (art. 7.1.3), so it goes to December's."""
    assert club.rows("SELECT closing_days FROM settings") == [(3,)]
    club.player("A", "--rating", "2000", "--games", "100")
    club.player("B", "--rating", "2000", "--games", "100")
    club.game("A", "B", "1-0", "2025-10-30", "--event", "Late October")
    club.ok("rate")
    assert club.rows("SELECT label FROM rating_periods") == [("2025-11",)]
    assert club.entry("A", "2025-11")["change"] == 10


def test_a_club_rates_by_end_date(tmp_path: Path) -> None:
    club = Club(tmp_path / "c.db", "--system", "club")
    assert club.rows("SELECT closing_days FROM settings") == [(0,)]
    club.player("A", "--rating", "2000", "--games", "100")
    club.player("B", "--rating", "2000", "--games", "100")
    club.game("A", "B", "1-0", "2025-10-30")
    club.ok("rate")
    assert club.rows("SELECT label FROM rating_periods") == [("2025-10",)]


# --- the inactive flag -----------------------------------------------------------------------


def test_inactive_after_twelve_months_without_a_rated_game(tmp_path: Path) -> None:
    """FIDE marks a player inactive after 12 months with no rated game; the
    next rated game reactivates. Shown in list --format fide-txt, list and current_ratings."""
    club = Club(tmp_path / "c.db", "--closing-days", "0")
    club.player("Idle", "--rating", "2000", "--games", "100", "--sex", "f")
    club.player("Busy", "--rating", "2000", "--games", "100")
    club.player("Other", "--rating", "2000", "--games", "100")
    club.game("Idle", "Other", "1/2-1/2", "2025-01-10")
    for month in range(1, 14):
        day = f"{2025 + (month > 12)}-{(month - 1) % 12 + 1:02d}-15"
        club.game("Busy", "Other", "1/2-1/2", day)
    club.ok("rate")
    flags = {
        (period, name): flag
        for period, name, flag in club.rows(
            "SELECT period, name, flag FROM rating_lists WHERE name <> 'Other'"
        )
    }
    assert flags[("2025-12", "Idle")] == "w"  # a game in the 12 months to 1 Jan 2026
    assert flags[("2026-01", "Idle")] == "wi"  # none in Feb 2025 .. Jan 2026
    assert flags[("2026-01", "Busy")] is None
    assert club.rows("SELECT name, flag FROM current_ratings ORDER BY name") == [
        ("Busy", None), ("Idle", "wi"), ("Other", None),
    ]  # fmt: skip
    txt = club.ok("list", "--format", "fide-txt").splitlines()
    idle = next(line for line in txt if "Idle" in line)
    assert idle.rstrip().endswith("wi")
    table = club.ok("list")
    assert "Idle" in table
    assert next(line for line in table.splitlines() if "Idle" in line).rstrip().endswith("wi")
    # the next rated game reactivates
    club.game("Idle", "Other", "1/2-1/2", "2026-02-10")
    club.ok("rate")
    assert club.rows(
        "SELECT flag FROM rating_lists WHERE period = '2026-02' AND name = 'Idle'"
    ) == [("w",)]


# --- events longer than 90 days --------------------------------------------------------------


def test_a_league_is_rated_in_the_periods_its_games_were_played(tmp_path: Path) -> None:
    """A league played from September to March had all its games rated in
    March against the September list. An event longer than 90 days is rated game by game, in
    the period each was played, against the list in force then."""
    club = Club(tmp_path / "c.db", "--closing-days", "0")
    club.player("A", "--rating", "2000", "--games", "100")
    club.player("B", "--rating", "2000", "--games", "100")
    club.player("C", "--rating", "1600", "--games", "100")
    league = tmp_path / "league.csv"
    league.write_text(
        "date,white,black,result,event\n2010-09-20,A,B,1-0,League\n2011-03-10,B,A,1/2-1/2,League\n"
    )
    club.ok("import", "games", str(league))
    club.game("A", "C", "1-0", "2010-10-05")  # A rises in October, outside the league
    club.ok("rate")
    september = club.entry("A", "2010-09")
    assert (september["period_games"], september["change"]) == (1, 10)
    march = club.rows(
        "SELECT own_rating, opponent_rating FROM rating_calculations "
        "WHERE period = '2011-03' AND name = 'A'"
    )
    # against the list in force in March (A 2010 + 10 + 2 = 2012... as rated), not September's
    a_feb = club.entry("A", "2011-02")["rating"]
    b_feb = club.entry("B", "2011-02")["rating"]
    assert march == [(a_feb, b_feb)]
    assert a_feb != 2000


def test_league_warning_on_import(tmp_path: Path) -> None:
    club = Club(tmp_path / "c.db")
    club.player("A", "--rating", "2000", "--games", "100")
    club.player("B", "--rating", "2000", "--games", "100")
    csv = tmp_path / "league.csv"
    csv.write_text(
        "date,white,black,result,event\n2010-09-20,A,B,1-0,League\n2011-03-10,B,A,1/2-1/2,League\n"
    )
    out = club.ok("import", "games", str(csv))
    assert (
        "Warning: event 'League' (2010-09-20 .. 2011-03-10) spans periods 2010-09 .. 2011-03 "
        "and lasts more than 90 days: its games are rated in the period each was played, "
        "against the list in force then\n"
    ) in out


def json_list(club: Club) -> dict[str, object]:
    return dict(json.loads(club.ok("list", "--format", "json")))
