"""``game list --period P``: the games the period P rates, with a column
for it; ``--played-in P`` the games played in P (what ``--period`` meant before).

Seen: an event played in September and rated on a later list (``--period 2026-10``) was
listed under ``--period 2026-09``, where it is not rated, and not under 2026-10."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")  # fide: a list closes 3 days before its date
    for name in ("Ann", "Bob", "Cat"):
        club.player(name, "--rating", "1800", "--games", "40")
    club.game("Ann", "Bob", "1-0", "2026-09-05", "--event", "Sep Open")
    club.game("Bob", "Cat", "1-0", "2026-09-12", "--event", "Late Cup", "--period", "2026-10")
    club.game("Cat", "Ann", "0-1", "2026-09-30", "--event", "Month End")  # after the closing
    club.game("Ann", "Cat", "1-0", "2026-06-02", "--event", "League")  # longer than 90 days:
    club.game("Cat", "Bob", "1-0", "2026-09-20", "--event", "League", "--yes")  # each its own
    return club


DAYS = {1: "2026-09-05", 2: "2026-09-12", 3: "2026-09-30", 4: "2026-06-02", 5: "2026-09-20"}
"""The fixture's games by the order they were added (their dates tell them apart: on
PostgreSQL an id can be skipped, as the league's second game is first tried and rolled
back)."""


def ids(club: Club, *args: str) -> list[int]:
    """The games listed, as their numbers in :data:`DAYS`."""
    number = {day: n for n, day in DAYS.items()}
    listed = json.loads(club.ok("game", "list", *args, "--format", "json"))
    return [number[g["played_on"]] for g in listed]


def test_period_means_the_period_that_rates_the_game(club: Club) -> None:
    assert ids(club, "--period", "2026-09") == [1, 5]
    assert ids(club, "--period", "2026-10") == [2, 3]
    assert ids(club, "--period", "2026-06") == [4]
    assert ids(club, "--period", "2026-08") == []


def test_played_in_keeps_the_old_meaning(club: Club) -> None:
    assert ids(club, "--played-in", "2026-09") == [1, 2, 5, 3]
    assert ids(club, "--played-in", "2026-09", "--period", "2026-10") == [2, 3]
    assert ids(club, "--played-in", "2026-06", "--player", "Bob") == []


def test_the_list_shows_the_period_of_each_game(club: Club) -> None:
    ((league,),) = club.rows("SELECT id FROM games WHERE played_on = '2026-09-20'")
    assert club.ok("game", "list", "--player", "Bob") == (
        "id  played_on   period   event_id  event     round  white  black  result  rated\n"
        "--  ----------  -------  --------  --------  -----  -----  -----  ------  -----\n"
        " 1  2026-09-05  2026-09         1  Sep Open         Ann    Bob    1-0     yes\n"
        " 2  2026-09-12  2026-10         2  Late Cup         Bob    Cat    1-0     yes\n"
        f" {league}  2026-09-20  2026-09         4  League           Cat    Bob    1-0     yes\n"
    )
    assert club.ok("game", "list", "--player", "Bob", "--format", "csv").splitlines()[:2] == [
        "id,played_on,period,event_id,event,round,white,black,result,rated",
        "1,2026-09-05,2026-09,1,Sep Open,,Ann,Bob,1-0,true",
    ]


def test_a_corrected_period_moves_the_game(club: Club) -> None:
    club.ok("event", "edit", "Late Cup", "--period", "", "--yes")
    assert ids(club, "--period", "2026-09") == [1, 2, 5]
    club.ok("event", "edit", "Sep Open", "--period", "2026-11", "--yes")
    assert ids(club, "--period", "2026-11") == [1]


def test_help_says_which_period(club: Club) -> None:
    text = " ".join(club.ok("game", "list", "--help").split())
    assert "--period YYYY-MM The games the rating period rates" in text
    assert "--played-in YYYY-MM The games played in one period" in text
