"""Corrections re-rate from the first touched period, report what changed, keep the old
values, and end exactly where a rebuild from the corrected data ends
(docs/DESIGN.md#re-rates-and-superseded-values)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.support import Club, run

PLAYERS = [
    ("Ann", "--rating", "1850", "--games", "40", "--birthdate", "1990"),
    ("Bob", "--rating", "1700", "--games", "10", "--birthdate", "1985"),
    ("Cat", "--rating", "2050", "--games", "100", "--birthdate", "1970"),
    ("Dan", "--rating", "1600", "--games", "100", "--birthdate", "2012"),
    ("Eve",),
    ("Fay", "--rating", "2405", "--games", "300"),
]
GAMES = [
    ("Ann", "Bob", "1-0", "2025-01-05", "Jan Open"),
    ("Cat", "Dan", "1/2-1/2", "2025-01-06", "Jan Open"),
    ("Eve", "Ann", "0-1", "2025-01-07", "Jan Open"),
    ("Fay", "Cat", "1-0", "2025-01-08", "Jan Open"),
    ("Bob", "Eve", "1/2-1/2", "2025-02-02", "Feb Open"),
    ("Dan", "Fay", "0-1", "2025-02-03", "Feb Open"),
    ("Eve", "Cat", "1/2-1/2", "2025-02-04", "Feb Open"),
    ("Ann", "Dan", "1-0", "2025-03-01", "Mar Open"),
    ("Eve", "Fay", "0-1", "2025-03-02", "Mar Open"),
    ("Eve", "Bob", "1-0", "2025-03-03", "Mar Open"),
    ("Eve", "Dan", "1-0", "2025-03-04", "Mar Open"),
]


def build(path: Path, games: Sequence[tuple[str, ...]], *, fix_birthdate: bool) -> Club:
    club = Club(path)
    for name, *args in PLAYERS:
        if fix_birthdate and name == "Bob":
            args = [a if a != "1985" else "2010" for a in args]
        club.player(name, *args)
    for white, black, result, date, event in games:
        club.game(white, black, result, date, "--event", event)
    return club


def snapshot(club: Club) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    history = club.rows(
        "SELECT p.label, h.player_id, h.rating_before, h.rating_after, h.change, h.k_used, "
        "h.period_games, h.total_games, h.score_half_points, h.pd_sum_units, h.units_per_point, "
        "h.k10, h.reached_2300, h.next_k, h.list_status "
        "FROM rating_history h JOIN rating_periods p ON p.id = h.period_id "
        "ORDER BY p.label, h.player_id",
    )
    breakdown = club.rows(
        "SELECT p.label, b.player_id, b.opponent_id, b.own_rating, b.opponent_rating, "
        "b.difference, b.score_half_points, b.pd_units, b.dr_units, b.units_per_point, "
        "b.k_used, b.counts_for "
        "FROM rating_breakdown b JOIN rating_periods p ON p.id = b.period_id "
        "ORDER BY 1, 2, 3, 4, 5, 6, 7",
    )
    return history, breakdown


def test_corrections_equal_a_rebuild(tmp_path: Path) -> None:
    club = build(tmp_path / "corrected.db", GAMES, fix_birthdate=False)
    club.ok("rate")
    before = snapshot(club)

    club.ok("game", "edit", "1", "--result", "0-1")  # January: Ann lost to Bob after all
    club.ok("game", "void", "6")  # February: Dan - Fay never took place
    club.game("Cat", "Ann", "1/2-1/2", "2025-02-05", "--event", "Feb Open")
    result = run(club, "list")
    assert result.stderr == (
        "Warning: corrections touched period 2025-01; run 'ratings rate' to re-rate before "
        "publishing\n"
    )
    out = club.ok("player", "edit", "Bob", "--birthdate", "2010")  # a junior: K 40
    assert out == (
        "Changed birth_year of Bob (id 2)\n  player 2 (Bob): birth_year 1985 -> 2010\n"
        "This touches rated period 2025-01: 'ratings rate' re-rates from there\n"
    )
    out = club.ok("rate")
    lines = out.splitlines()
    assert lines[0].startswith("Re-rated 3 periods 2025-01 .. 2025-03 after corrections; ")
    # Bob 1700 v Ann 1850 (D -150, PD .30), K 40: a loss -12, a win +28
    assert "  2025-01  Bob (id 2): 1688 -> 1728" in lines
    assert snapshot(club) != before

    corrected = [g for i, g in enumerate(GAMES, 1) if i != 6]
    corrected[0] = ("Ann", "Bob", "0-1", "2025-01-05", "Jan Open")
    corrected.insert(6, ("Cat", "Ann", "1/2-1/2", "2025-02-05", "Feb Open"))
    rebuilt = build(tmp_path / "rebuilt.db", corrected, fix_birthdate=True)
    rebuilt.ok("rate")
    assert snapshot(club) == snapshot(rebuilt)

    superseded = club.rows(
        "SELECT p.label, s.player_id, s.old_rating, s.new_rating FROM superseded_ratings s "
        "JOIN rating_periods p ON p.id = s.period_id WHERE s.player_id = 2 ORDER BY p.label",
    )
    assert superseded[0] == ("2025-01", 2, 1688, 1728)
    assert all(old != new for _, _, old, new in superseded)
    # a second rate has nothing left to do
    assert club.ok("rate") == "Nothing to rate\n"


def test_rerate_is_deterministic(tmp_path: Path) -> None:
    club = build(tmp_path / "a.db", GAMES, fix_birthdate=False)
    club.ok("rate")
    first = snapshot(club)
    club.ok("player", "edit", "Ann", "--games", "40")  # unchanged value: nothing marked
    assert club.ok("rate") == "Nothing to rate\n"
    club.ok("player", "edit", "Ann", "--k10")
    club.ok("player", "edit", "Ann", "--no-k10")
    club.ok("rate")
    assert snapshot(club) == first


@pytest.mark.parametrize(
    "args",
    [
        ("game", "add", "Ann", "Bob", "1-0", "--date", "2024-12-28"),
        ("game", "edit", "1", "--date", "2024-12-28", "--yes"),
    ],
)
def test_a_game_before_the_rating_history_is_refused(tmp_path: Path, args: tuple[str]) -> None:
    """With FIDE's 3 closing days, 28 December is the last day the December list rates
    (a game of 31 December is rated on the February list: see below)."""
    club = build(tmp_path / "a.db", GAMES, fix_birthdate=False)
    club.ok("rate")
    before = club.state()
    assert club.run(*args) == (
        1,
        "Error: 2024-12-28 is rated in period 2024-12, before the oldest rated period 2025-01; "
        "the rating history it needs does not exist: withdraw the rated lists first "
        "('ratings unrate --from 2025-01'), then 'ratings rate' rates again from 2024-12\n",
    )
    assert club.state() == before


def test_a_game_the_closing_date_moves_into_the_history_is_accepted(tmp_path: Path) -> None:
    """A game of 31 December is rated in January after FIDE's closing date (art. 7.1.3):
    inside the rated history, not before it."""
    club = build(tmp_path / "a.db", GAMES, fix_birthdate=False)
    club.ok("rate")
    out = club.ok("game", "add", "Ann", "Bob", "1-0", "--date", "2024-12-31")
    assert out.startswith("Added game")
    assert "'ratings rate' re-rates from there" in out


def test_merge_moves_games_and_rerates(tmp_path: Path) -> None:
    club = build(tmp_path / "a.db", GAMES, fix_birthdate=False)
    club.player("Eve Twin")
    club.game("Eve Twin", "Ann", "0-1", "2025-03-05", "--event", "Mar Open")
    club.ok("rate")
    assert club.ok("player", "merge", "Eve", "Eve Twin", "--yes") == (
        "Merged Eve Twin (id 7) into Eve (id 5): 1 game and 0 byes moved; "
        "'ratings player unmerge 7' undoes it\n"
        "  player 7 (Eve Twin): merged_into_id (none) -> 5\n"
        "This touches rated period 2025-01: 'ratings rate' re-rates from there\n"
    )
    out = club.ok("rate")
    assert out.startswith("Re-rated 3 periods 2025-01 .. 2025-03 after corrections")
    # a merged record's name shows the player kept, and says so
    code, out = club.run("player", "show", "Eve Twin")
    assert code == 0
    assert out.startswith(
        "player 7 was merged into 5 (correction 1): showing 5\n"
        "id:            5\nname:          Eve\n"
    )
    assert club.entry("Eve", "2025-03")["period_games"] >= 1
