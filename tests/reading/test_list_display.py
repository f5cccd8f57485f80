"""What the lists show: ``card`` defaults to the newest period, the
change of an unrated or newly rated player is blank or ``new`` (not ``0``), and one game is
"1 rated game"."""

from __future__ import annotations

import csv
import gc
import io
import json
from pathlib import Path

import pytest

from ratings import rating_lists
from ratings.service.reading import reports
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    """Five rated players; New, unrated, plays them all in January 2025 (a first rating) and
    Late, unrated, plays two games (pooled, no rating yet)."""
    club = Club(tmp_path / "club.db")
    for name, rating in (("A", "1902"), ("B", "1877"), ("C", "1884"), ("D", "2012"),
                         ("E", "1832")):  # fmt: skip
        club.player(name, "--rating", rating, "--games", "100")
    club.player("New")
    club.player("Late")
    for opponent, result in (("A", "1/2-1/2"), ("B", "1/2-1/2"), ("C", "1-0"), ("D", "0-1"),
                             ("E", "1-0")):  # fmt: skip
        club.game("New", opponent, result, "2025-01-10", "--event", "Jan Open")
    club.game("Late", "A", "0-1", "2025-01-11", "--event", "Jan Open")
    club.game("Late", "B", "1-0", "2025-01-12", "--event", "Jan Open")
    return club


def test_a_new_player_shows_new_and_an_unrated_one_blank(club: Club) -> None:
    """Seen: ``0`` in the change column for a player who had no rating before."""
    club.ok("rate")
    lines = club.ok("list", "--all").splitlines()
    assert lines[0] == "Rating list 2025-01 (list dated 2025-02-01)"
    new = next(line for line in lines if " New " in line)
    late = next(line for line in lines if " Late " in line)
    assert new == "   2  New                                         1922   new           5     40"
    assert late == "      Late                                                             2       "
    rows = {
        r["name"]: r
        for r in csv.DictReader(io.StringIO(club.ok("list", "--all", "--format", "csv")))
    }
    assert (rows["New"]["change"], rows["Late"]["change"], rows["A"]["change"]) == ("", "", "0")
    data = json.loads(club.ok("list", "--all", "--format", "json"))
    players = {p["name"]: p for p in data["players"]}
    assert (players["New"]["change"], players["New"]["list_status"]) == (None, "first_rating")
    assert (players["Late"]["change"], players["Late"]["list_status"]) == (None, "unrated")
    assert (players["A"]["change"], players["A"]["list_status"]) == (0, "listed")
    # the schema's names (the rating_lists view's), the same words from schema to screen
    assert club.ok("list", "--format", "csv").splitlines()[0] == (
        "name,fide_id,federation,title,birth_year,rating,change,period_games,total_games,next_k,k10"
    )
    assert players["New"] == {
        "player_id": 6, "name": "New", "fide_id": None, "federation": None, "title": None,
        "birth_year": None, "rating": 1922, "change": None, "period_games": 5,
        "total_games": 5, "next_k": 40, "k10": False, "flag": None,
        "list_status": "first_rating",
    }  # fmt: skip


def test_history_shows_new_for_a_first_rating(club: Club) -> None:
    club.ok("rate")
    assert club.ok("history", "New").splitlines()[1:] == [
        "period   before  after   chg K used period games  list status",
        "2025-01           1922   new                   5  first_rating",
    ]
    # the schema's names (the rating_lists view's), the same words from schema to screen
    assert club.ok("history", "New", "--format", "csv").splitlines() == [
        "period,rating_before,rating,change,k_used,period_games,total_games,score,list_status",
        "2025-01,,1922,,,5,5,3.0,first_rating",
    ]
    assert json.loads(club.ok("history", "New", "--format", "json"))["history"] == [
        {
            "period": "2025-01", "list_date": "2025-02-01", "rating_before": None,
            "rating": 1922, "change": None, "k_used": None, "period_games": 5, "total_games": 5,
            "score": 3.0, "list_status": "first_rating",
        }
    ]  # fmt: skip


def test_card_defaults_to_the_newest_period(club: Club) -> None:
    """Seen: ``card`` required --period, unlike ``performance``."""
    club.game("A", "B", "1-0", "2025-02-03")
    club.ok("rate")
    assert club.ok("card", "A") == club.ok("card", "A", "--period", "2025-02")
    assert club.ok("card", "A").startswith("A (id 1), period 2025-02\n")


def test_card_before_any_rating_says_so(club: Club) -> None:
    assert club.run("card", "A") == (
        1,
        "Error: no period has been rated yet; run 'ratings rate'\n",
    )


def test_one_rated_game_is_singular(tmp_path: Path) -> None:
    club = Club(tmp_path / "one.db")
    club.player("Ann", "--rating", "1800", "--games", "40")
    club.player("Bob", "--rating", "1800", "--games", "40")
    club.game("Ann", "Bob", "1-0", "2025-01-05")
    assert club.ok("rate") == "Rated period 2025-01 (1 rated game)\n"
    club.game("Ann", "Bob", "1-0", "2025-02-05")
    club.game("Ann", "Bob", "1-0", "2025-02-06")
    assert club.ok("rate") == "Rated period 2025-02 (2 rated games)\n"


@pytest.mark.parametrize("rated", [True, False], ids=["a period's list", "the register"])
def test_the_list_is_read_with_the_cycle_collector_paused(
    club: Club, monkeypatch: pytest.MonkeyPatch, rated: bool
) -> None:
    """A world-size list is 600,000 rows that form no cycles: the collector's passes over
    them took a quarter of the read (bench/RESULTS.md). It is paused while the list is read,
    and enabled again after, on both read paths (a SQLite file's published list is read
    without SQLAlchemy, by ratings.rating_lists; the register by the service)."""
    if rated:
        club.ok("rate")
    seen: list[bool] = []
    real = reports.sort_key

    def spy(row: reports.ListRow) -> tuple[int, int, str, int]:
        seen.append(gc.isenabled())
        return real(row)

    monkeypatch.setattr(reports, "sort_key", spy)
    monkeypatch.setattr(rating_lists, "sort_key", spy)
    assert gc.isenabled()
    lines = club.ok("list", "--all").splitlines()
    assert len(lines) == 2 + 7
    assert seen == [False] * 7
    assert gc.isenabled()
