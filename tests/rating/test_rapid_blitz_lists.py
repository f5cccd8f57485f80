"""Rapid and blitz lists in one database: events rated on their own list, the R&B
rules through ``ratings rate``, the standard rating seeding an unrated rapid player, and the
standard list never changed by rapid or blitz games."""

from __future__ import annotations

import datetime as dt
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ratings import service
from ratings.cli import App
from ratings.results import Result
from tests.pools import load_pool, random_pool
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    return Club(tmp_path / "club.db")


def _list(club: Club, list_type: str, period: str | None = None) -> dict[str, dict[str, Any]]:
    args = ["list", "--all", "--format", "json", "--list", list_type]
    if period:
        args += ["--period", period]
    return {p["name"]: p for p in json.loads(club.ok(*args))["players"]}


def _card_d(club: Club, name: str, list_type: str) -> list[int]:
    """The D column of a player's card."""
    lines = club.ok("card", name, "--list", list_type).splitlines()
    return [int(line.split()[-5]) for line in lines if line[:4].isdigit()]


def test_a_rapid_event_is_rated_on_the_rapid_list_only(club: Club) -> None:
    club.player("A", "--rating", "2000", "--games", "50", "--rapid-rating", "1900")
    club.player("B", "--rating", "2000", "--games", "50", "--rapid-rating", "1900")
    club.game("A", "B", "1-0", "2025-03-05", "--time-control", "rapid")
    assert "Rated period 2025-03 (1 rated game)" in club.ok("rate")
    standard, rapid = _list(club, "standard"), _list(club, "rapid")
    assert (standard["A"]["rating"], standard["B"]["rating"]) == (2000, 2000)
    assert (rapid["A"]["rating"], rapid["B"]["rating"]) == (1910, 1890)
    assert rapid["A"]["period_games"] == 1
    assert standard["A"]["period_games"] == 0
    assert club.rows("SELECT DISTINCT time_control FROM events") == [("rapid",)]
    assert sorted(club.rows("SELECT DISTINCT time_control FROM rating_history")) == [
        ("rapid",),
        ("standard",),
    ]
    # no blitz game, no blitz rating: no blitz list
    assert club.rows("SELECT count(*) FROM rating_history WHERE time_control = 'blitz'") == [(0,)]
    assert "Register (no blitz list published yet)" in club.ok("list", "--list", "blitz")
    history = json.loads(club.ok("history", "A", "--list", "rapid", "--format", "json"))
    assert [(h["period"], h["rating"]) for h in history["history"]] == [("2025-03", 1910)]
    assert club.rows(
        "SELECT name, rating FROM current_ratings WHERE time_control = 'rapid' ORDER BY name"
    ) == [("A", 1910), ("B", 1890)]


def test_no_rapid_list_for_a_club_that_never_plays_rapid(club: Club) -> None:
    club.player("A", "--rating", "2000", "--games", "50")
    club.player("B", "--rating", "2000", "--games", "50")
    club.game("A", "B", "1-0", "2025-03-05")
    club.ok("rate")
    assert club.rows("SELECT DISTINCT time_control FROM rating_history") == [("standard",)]
    assert club.rows("SELECT count(*) FROM current_ratings") == [(2,)]


def test_400_point_rule_for_everyone_in_rapid_not_in_standard(club: Club) -> None:
    """R&B art. 7.3.1: the 400-point rule has no 2650 exemption; standard's 8.3.1 has."""
    club.player("Top", "--rating", "2700", "--games", "100", "--rapid-rating", "2700",
                "--rapid-games", "100")  # fmt: skip
    club.player("Low", "--rating", "2250", "--games", "100", "--rapid-rating", "2250",
                "--rapid-games", "100")  # fmt: skip
    # the standard 2650 exemption is in force from 1 October 2025 (art. 8.3.1)
    club.game("Top", "Low", "1-0", "2025-10-05", "--time-control", "rapid")
    club.game("Top", "Low", "1-0", "2025-10-06")
    club.ok("rate")
    assert _card_d(club, "Top", "rapid") == [400]
    assert _card_d(club, "Top", "standard") == [450]


@pytest.mark.parametrize(
    ("day", "rated"), [("2024-11-15", True), ("2024-12-05", False), ("2025-01-10", False)]
)
def test_600_point_exclusion_from_december_2024(club: Club, day: str, rated: bool) -> None:
    """R&B art. 7.3.1: from 1 December 2024 a game between players 600 or more apart, one
    above 2600, is not rated; the same game on the standard list is."""
    for name, rating in (("Top", "2700"), ("Low", "2050")):
        lists: tuple[str, ...] = ("--rapid-rating", rating, "--rapid-games", "100")
        lists += ("--blitz-rating", rating, "--blitz-games", "100")
        club.player(name, "--rating", rating, "--games", "100", *lists)
    club.game("Low", "Top", "0-1", day, "--time-control", "rapid")
    club.game("Low", "Top", "0-1", day, "--time-control", "blitz")
    club.game("Low", "Top", "0-1", day)
    club.ok("rate", "--through", day[:7])
    for list_type in ("rapid", "blitz"):
        low = _list(club, list_type)["Low"]
        assert low["period_games"] == (1 if rated else 0)
        assert (low["change"] != 0) is rated  # capped at 400 (PD 0.08): -2 with K 20
    assert _list(club, "standard")["Low"]["period_games"] == 1


def test_an_unrated_rapid_player_plays_at_the_standard_rating(club: Club) -> None:
    """R&B art. 7.2.1: unrated in rapid, rated on the standard list in force when the event
    started: plays at that rating and is rated after one game."""
    club.player("Std", "--rating", "2000", "--games", "50")
    club.player("Opp", "--rating", "2250", "--games", "100", "--rapid-rating", "2250",
                "--rapid-games", "100")  # fmt: skip
    club.game("Std", "Opp", "1-0", "2025-03-07", "--time-control", "rapid")
    club.ok("rate")
    rapid = _list(club, "rapid")
    assert rapid["Std"]["list_status"] == "first_rating"
    assert rapid["Std"]["rating"] == 2000 + 32  # D -250: PD 0.19, K 40 x 0.81 = 32.4
    assert _card_d(club, "Opp", "rapid") == [250]
    assert _list(club, "standard")["Std"]["rating"] == 2000


def test_rerate_unrate_and_superseded_values_per_list(club: Club) -> None:
    club.player("A", "--rating", "2000", "--games", "50", "--rapid-rating", "1900")
    club.player("B", "--rating", "2000", "--games", "50", "--rapid-rating", "1900")
    club.game("A", "B", "1-0", "2025-03-05", "--time-control", "rapid")
    club.game("A", "B", "1-0", "2025-03-06")
    club.ok("rate")
    club.ok("player", "edit", "A", "--rapid-rating", "1950")
    out = club.ok("rate", "--dry-run")
    assert "A (id 1): 1910 -> 1959 (rapid list)" in out
    assert "2 published ratings would change" in out
    rapid = club.ok("rate", "--dry-run", "--list", "rapid")
    assert "2 published ratings on the rapid list would change" in rapid
    assert "A (id 1): 1910 -> 1959 (rapid list)" in rapid
    standard = club.ok("rate", "--dry-run", "--list", "standard")
    assert "0 published ratings on the standard list would change" in standard
    assert "->" not in standard
    assert club.run("rate", "--list", "rapid") == (
        1,
        "Error: --list goes with --dry-run only: rate rates every list\n",
    )
    club.ok("rate")
    assert _list(club, "rapid")["A"]["rating"] == 1959
    assert _list(club, "standard")["A"]["rating"] == 2010
    assert club.rows(
        "SELECT time_control, player_id, old_rating, new_rating FROM superseded_ratings ORDER BY id"
    ) == [("rapid", 1, 1910, 1959), ("rapid", 2, 1890, 1891)]
    club.ok("unrate", "--from", "2025-03", "--yes")
    assert club.rows(
        "SELECT time_control, count(*) FROM superseded_ratings WHERE new_rating IS NULL "
        "GROUP BY time_control ORDER BY time_control"
    ) == [("rapid", 2), ("standard", 2)]


def test_time_control_inputs(club: Club, tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text(
        "name,rating,games,rapid_rating,rapid_games,blitz_rating,blitz_games\n"
        "A,2000,50,1900,20,1800,\n"
        "B,2000,50,,,1850,30\n"
    )
    club.ok("import", "players", str(players))
    assert club.rows(
        "SELECT name, rapid_entry_rating, rapid_entry_games, blitz_entry_rating, "
        "blitz_entry_games FROM players ORDER BY name"
    ) == [("A", 1900, 20, 1800, None), ("B", None, None, 1850, 30)]
    games = tmp_path / "games.csv"
    games.write_text(
        "date,white,black,result,event,time_control\n"
        "2025-03-01,A,B,1-0,Blitz night,blitz\n"
        "2025-03-01,B,A,1-0,Blitz night,\n"
        "2025-03-02,A,B,1/2-1/2,,\n"
    )
    club.ok("import", "games", str(games), "--time-control", "rapid")
    assert club.rows("SELECT name, time_control FROM events ORDER BY id") == [
        ("Blitz night", "blitz"),
        ("A - B, 2025-03-02", "rapid"),
    ]
    code, out = club.run("game", "add", "A", "B", "1-0", "--date", "2025-03-03",
                         "--event", "Blitz night", "--time-control", "rapid")  # fmt: skip
    assert (code, out.splitlines()[-1]) == (
        1,
        "Error: event 'Blitz night' is rated on the blitz list, not rapid",
    )
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "date,white,black,result,event,time_control\n"
        "2025-03-04,A,B,1-0,Mixed,blitz\n"
        "2025-03-04,B,A,1-0,Mixed,rapid\n"
    )
    code, out = club.run("import", "games", str(bad))
    assert code == 1
    assert "event 'Mixed' is blitz on line 2, rapid here" in out


def _load_other_lists(app: App, seed: int, players: int, months: int) -> int:
    """Rapid and blitz events among the same players (entry ratings for some): returns the
    number of games."""
    rng = random.Random(seed)
    _, games = random_pool(seed + 100, players=players, months=months, first=dt.date(2024, 9, 1))
    with app.session() as session:
        for pid in range(1, players + 1):
            if rng.random() < 0.5:
                service.edit_player(
                    session,
                    f"P{pid}",
                    rapid_rating=rng.randint(1200, 2700),
                    rapid_games=rng.randint(0, 60),
                )
        for g in games:
            result = {Fraction(1): Result.WHITE_WIN, Fraction(0): Result.BLACK_WIN}.get(
                g.white_score, Result.DRAW
            )
            service.add_game(
                session,
                f"P{g.white}",
                f"P{g.black}",
                result,
                g.played_on,
                event_name=f"{'R' if g.event % 3 else 'B'}{g.event}",
                time_control="rapid" if g.event % 3 else "blitz",
            )
    return len(games)


STANDARD_LISTS = (
    "SELECT p.label, h.player_id, h.rating_before, h.rating_after, h.change, h.k_used, "
    "h.period_games, h.total_games, h.score_half_points, h.pd_sum_units, h.k10, "
    "h.reached_2300, h.next_k, h.list_status, h.inactive, h.last_active FROM rating_history h "
    "JOIN rating_periods p ON p.id = h.period_id WHERE h.time_control = 'standard' "
    "ORDER BY p.label, h.player_id"
)
STANDARD_BREAKDOWN = (
    "SELECT p.label, b.game_id, b.player_id, b.own_rating, b.opponent_rating, b.difference, "
    "b.score_half_points, b.pd_units, b.k_used, b.counts_for FROM rating_breakdown b "
    "JOIN rating_periods p ON p.id = b.period_id JOIN games g ON g.id = b.game_id "
    "JOIN events e ON e.id = g.event_id WHERE e.time_control = 'standard' "
    "ORDER BY b.game_id, b.player_id"
)


@pytest.mark.parametrize("seed", [1, 7])
def test_rapid_and_blitz_games_never_change_a_standard_list(tmp_path: Path, seed: int) -> None:
    """The property the lists rest on: a random 40-player pool of standard games over 8 months,
    rated alone and rated with a random pool of rapid and blitz events among the same
    players added: every standard list row and breakdown line is the same."""
    players, games = random_pool(seed, players=40, months=8, first=dt.date(2024, 9, 1))
    stores = []
    for name, with_others in (("standard.db", False), ("all.db", True)):
        club = Club(tmp_path / name)
        app = App(club.db)
        with app.session() as session:
            load_pool(session, players, games)
        if with_others:
            assert _load_other_lists(app, seed, 40, 8) > 0
        with app.session() as session:
            service.rate(session)
        app.close()
        stores.append(club)
    alone, together = stores
    assert alone.rows(STANDARD_LISTS) == together.rows(STANDARD_LISTS)
    assert alone.rows(STANDARD_BREAKDOWN) == together.rows(STANDARD_BREAKDOWN)
    lists = together.rows("SELECT DISTINCT time_control FROM rating_history ORDER BY 1")
    assert lists == [("blitz",), ("rapid",), ("standard",)]
    # a re-rate from the start writes the same lists again
    before = together.rows("SELECT * FROM rating_lists ORDER BY period, time_control, player_id")
    app = App(together.db)
    with app.session() as session:
        service.rating.marks.mark_all_for_rerate(session)
        service.rate(session)
    app.close()
    after = together.rows("SELECT * FROM rating_lists ORDER BY period, time_control, player_id")
    assert after == before


def test_merge_takes_and_unmerge_gives_back_the_rapid_and_blitz_entry_data(club: Club) -> None:
    club.player("Kept", "--rating", "2000")
    club.player("Dup", "--fide-id", "123", "--rapid-rating", "1800", "--rapid-games", "12",
                "--blitz-games", "3")  # fmt: skip
    query = (
        "SELECT id, rapid_entry_rating, rapid_entry_games, blitz_entry_games FROM players "
        "ORDER BY id"
    )
    club.ok("player", "merge", "Kept", "Dup", "--yes")
    assert club.rows(query) == [(1, 1800, 12, 3), (2, 1800, 12, 3)]
    club.ok("player", "unmerge", "Dup", "--yes")
    assert club.rows(query) == [(1, None, None, None), (2, 1800, 12, 3)]
