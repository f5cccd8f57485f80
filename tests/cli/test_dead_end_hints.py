"""Errors that say what to do next: each of these ended with a hint that
led nowhere, or with none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.publish_helpers import copy_demo, demo
from tests.support import Club


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo club: periods 2025-01 .. 2025-12 rated."""
    return demo(tmp_path_factory.mktemp("demo"))


class Demo(Club):
    """The CLI on a copy of the demo (:class:`Club` without its ``init``)."""

    def __init__(self, db: Path) -> None:
        self.db = str(db)


@pytest.fixture
def club(template: Path, tmp_path: Path) -> Club:
    return Demo(copy_demo(template, tmp_path))


@pytest.mark.parametrize(
    ("command", "period"),
    [(["list"], "2024-06"), (["list"], "2027-06"), (["card", "Elard, Carl"], "2024-06")],
)
def test_a_period_not_rated_names_the_rated_ones(
    club: Club, command: list[str], period: str
) -> None:
    """Seen: ``list --period`` before the first period said ``run 'ratings rate'``, which
    rates nothing there."""
    assert club.run(*command, "--period", period) == (
        1,
        f"Error: period {period} has not been rated; the rated periods are 2025-01 .. 2025-12\n",
    )


def test_with_nothing_rated_rate_is_the_hint(tmp_path: Path) -> None:
    club = Club(tmp_path / "new.db")
    assert club.run("list", "--period", "2025-01") == (
        1,
        "Error: period 2025-01 has not been rated; run 'ratings rate'\n",
    )


def test_a_missing_database_names_the_ways_to_name_one(club: Club, tmp_path: Path) -> None:
    club.db = str(tmp_path / "nope.db")
    assert club.run("list") == (
        1,
        f"Error: no database at '{tmp_path / 'nope.db'}'; create one with 'ratings init', or "
        "name an existing one with --db PATH (or RATINGS_DB)\n",
    )


def test_performance_names_the_nearest_periods_with_games(club: Club) -> None:
    """Seen: ``performance`` on a period without games named no period that has them."""
    (quiet,) = club.rows(  # a period in which Elard played nothing, between two he played in
        "SELECT period FROM rating_lists WHERE name = 'Elard, Carl' AND period_games = 0 "
        "AND period = '2025-02'"
    )
    assert quiet == ("2025-02",)
    assert club.run("performance", "Elard, Carl", "--period", "2025-02") == (
        1,
        "Error: Elard, Carl has no rated games in period 2025-02; the nearest periods with "
        "some are 2025-01 and 2025-03\n",
    )


def test_performance_of_a_player_without_any_rated_game(club: Club) -> None:
    club.ok("player", "add", "Newman, Nia", "--rating", "1500")
    assert club.run("performance", "Newman, Nia", "--period", "2025-05") == (
        1,
        "Error: Newman, Nia has no rated games in period 2025-05, nor in any other rated period\n",
    )


def test_a_voided_game_says_so(club: Club) -> None:
    """Seen: ``game void 19`` twice said ``no game with id 19``."""
    club.ok("game", "void", "19", "--yes")
    (batch,) = club.rows("SELECT DISTINCT batch FROM corrections WHERE game_id = 19")
    for command in (["game", "void", "19", "--yes"], ["game", "edit", "19", "--result", "0-1"]):
        code, out = club.run(*command)
        assert code == 1
        assert out.startswith(f"Error: game 19 was voided (batch {batch[0]} in 'ratings log', "), (
            out
        )
        assert out.endswith(" UTC); there is nothing left to correct\n")
    assert club.run("game", "void", "9999", "--yes") == (1, "Error: no game with id 9999\n")


def test_a_game_voided_with_its_event_says_so(club: Club) -> None:
    ((event_id,),) = club.rows("SELECT event_id FROM games WHERE id = 19")
    club.ok("event", "void", str(event_id), "--yes")
    code, out = club.run("game", "void", "19", "--yes")
    assert code == 1
    assert out.startswith("Error: game 19 was removed with its event ('event void'; batch ")


def test_an_old_game_names_the_way_forward(club: Club, tmp_path: Path) -> None:
    """Seen: a file before the oldest rated period had no way forward."""
    csv = tmp_path / "old.csv"
    csv.write_text('date,white,black,result\n2024-05-03,"Elard, Carl","Isstein, Felix",1-0\n')
    hint = (
        "2024-05-03 is rated in period 2024-05, before the oldest rated period 2025-01; the "
        "rating history it needs does not exist: withdraw the rated lists first ('ratings "
        "unrate --from 2025-01'), then 'ratings rate' rates again from 2024-05"
    )
    code, out = club.run("import", "games", str(csv))
    assert code == 1
    assert out.splitlines()[0] == f"Error: {csv}:2: date: {hint}"
    assert club.run(
        "game", "add", "Elard, Carl", "Isstein, Felix", "1-0", "--date", "2024-05-03"
    ) == (1, f"Error: {hint}\n")
    # the way forward works
    club.ok("unrate", "--from", "2025-01", "--yes")
    club.ok("import", "games", str(csv))
    assert club.ok("rate").startswith("Rated 20 periods 2024-05 .. 2025-12")
