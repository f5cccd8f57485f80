"""A new player's card shows the whole first-rating calculation (art. 7.1.4,
8.2): the pooled games of earlier periods, the two hypothetical 1800 draws, a dropped
zero-score first event, Ra, p, dp, Ru and the 2200 cap or the 1400 floor."""

from __future__ import annotations

from decimal import Decimal as D
from pathlib import Path

import pytest

from ratings import rules
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    for name, rating in (("A", 1902), ("B", 1877), ("C", 1884), ("D", 2012), ("E", 1832)):
        club.player(name, "--rating", str(rating), "--games", "100")
    club.player("New")
    return club


def test_explain_first_rating_is_spec_1_7s_example() -> None:
    """docs/RULES.md#first-rating-art-82: 1902 1/2, 1877 1/2, 1884 1, 2012 0, 1832 1 -> Ra 1872.43,
    p .57, dp 50, 1922; a zero-score first event before them is disregarded."""
    pool = [(1902, D("0.5")), (1877, D("0.5")), (1884, D(1)), (2012, D(0)), (1832, D(1))]
    work = rules.explain_first_rating([[(1950, D(0)), (1990, D(0))], pool])
    assert work.dropped == ((1950, D(0)), (1990, D(0)))
    assert work.games == tuple(pool)
    assert (work.rating_sum, work.points, work.divisor) == (13107, D(4), 7)
    assert work.result == rules.InitialRating(D("1872.43"), 57, 50, 1922, True)
    assert (work.capped, work.below_floor) == (False, False)
    # the engine's own functions agree
    assert rules.initial_rating(rules.drop_zero_first_event([[], pool])) == work.result


def test_cap_and_floor_are_explained() -> None:
    capped = rules.explain_first_rating([[(2500, D(1))] * 9])
    assert (capped.uncapped, capped.result and capped.result.rating, capped.capped) == (
        2756, 2200, True,
    )  # fmt: skip
    low = rules.explain_first_rating([[], [(1400, D(0))] * 5])
    assert low.below_floor
    assert low.result is not None
    assert low.result.rating < 1400
    short = rules.explain_first_rating([[(1800, D(1))] * 3])
    assert short.result is None


def test_card_of_a_first_rating_shows_the_whole_calculation(club: Club) -> None:
    # the first event ever: two losses (a zero score, disregarded), in January
    club.game("New", "D", "0-1", "2025-01-10", "--event", "Winter Open")
    club.game("New", "E", "0-1", "2025-01-11", "--event", "Winter Open")
    # February: two games pooled, no rating yet (4 games in the pool, 2 counted)
    club.game("New", "A", "1/2-1/2", "2025-02-05", "--event", "Feb Cup")
    club.game("New", "B", "1/2-1/2", "2025-02-06", "--event", "Feb Cup")
    # March: three more; the pool then counts the 5 games of the example of
    # docs/RULES.md#first-rating-art-82
    club.game("New", "C", "1-0", "2025-03-05", "--event", "Mar Cup")
    club.game("New", "D", "0-1", "2025-03-06", "--event", "Mar Cup")
    club.game("New", "E", "1-0", "2025-03-07", "--event", "Mar Cup")
    club.ok("rate")
    out = club.ok("card", "New", "--period", "2025-03")
    assert out.endswith(
        "Pooled games of earlier periods (art. 7.1.4):\n"
        "2025-01-10 D                           2012         0\n"
        "2025-01-11 E                           1832         0\n"
        "2025-02-05 A                           1902         ½\n"
        "2025-02-06 B                           1877         ½\n"
        "First rating (art. 8.2):\n"
        "  first event 'Winter Open': zero score, its 2 game(s) disregarded\n"
        "  5 game(s) against rated opponents + 2 hypothetical draws against 1800\n"
        "  Ra = 13107 / 7 = 1872.43\n"
        "  p = 4 / 7 = 57%, dp = +50\n"
        "  Ru = Ra + dp = 1922\n"
        "New rating: 1922 (first_rating)\n"
    ), out
    # February's card: the pool is not large enough yet
    february = club.ok("card", "New", "--period", "2025-02")
    assert february.endswith(
        "First rating (art. 8.2):\n"
        "  first event 'Winter Open': zero score, its 2 game(s) disregarded\n"
        "  2 game(s) against rated opponents + 2 hypothetical draws against 1800\n"
        "  5 games are needed: no rating yet\n"
        "New rating: unrated (unrated)\n"
    ), february


def test_card_shows_the_2200_cap(club: Club) -> None:
    for i in range(5):
        club.player(f"GM{i}", "--rating", "2600", "--games", "100")
        club.game("New", f"GM{i}", "1-0", f"2025-01-{10 + i}", "--event", "Open")
    club.ok("rate")
    out = club.ok("card", "New", "--period", "2025-01")
    assert "  Ra = 16600 / 7 = 2371.43\n  p = 6 / 7 = 86%, dp = +309\n" in out
    assert out.endswith("  Ru = Ra + dp = 2680, capped at 2200\nNew rating: 2200 (first_rating)\n")


def test_card_shows_the_1400_floor(club: Club) -> None:
    for i in range(5):
        club.player(f"Low{i}", "--rating", "1400", "--games", "100")
        result = "0-1" if i else "1/2-1/2"  # not a zero score: nothing is disregarded
        club.game("New", f"Low{i}", result, f"2025-01-{10 + i}", "--event", "Open")
    club.ok("rate")
    out = club.ok("card", "New", "--period", "2025-01")
    assert "disregarded" not in out
    assert out.endswith(
        "  Ra = 10600 / 7 = 1514.29\n"
        "  p = 1.5 / 7 = 21%, dp = -230\n"
        "  Ru = Ra + dp = 1284\n"
        "  1284 is below 1400: not published\n"
        "New rating: unrated (unrated)\n"
    ), out
