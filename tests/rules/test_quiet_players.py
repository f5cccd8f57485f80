"""Quiet players: a rate reads only the players whose list row can change in a period (issue
16, the world's month). ``rules.changes_without_games`` says which rows may differ from a
plain carry of the previous one; a False must be a promise the engine keeps. Checked here by
a Hypothesis property on the pure engine; ``tests/rating/test_rate_quiet.py`` checks the database
path against a rate that reads every player."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import rules
from ratings.rules import GameResult, ListEntry, Period, Standing

FIDE = rules.system_config("fide")
CLUB = rules.system_config("club")
QUARTERLY = rules.system_config("fide", period_months=3)
HALF_YEARLY = rules.system_config("club", period_months=6)
OPPONENT = 999_999
Scenario = tuple[rules.SystemConfig, Period, Standing, bool, int, int, bool]
"""System, period, the player's standing a period before, whether the player plays then, the
result (white's half points), the opponent's rating, the register's K=10 flag."""


def _carry(row: ListEntry) -> ListEntry:
    """The previous row carried (rules.CARRIED, what ``service.rate`` copies in SQL); the
    rate's positional test ``rules.is_carried`` agrees with it on every row checked here."""
    carried = rules.carried(row)
    assert rules.is_carried(carried, row)
    return carried


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    config = draw(st.sampled_from((FIDE, CLUB, QUARTERLY, HALF_YEARLY)))
    months = config.period_months
    year = draw(st.integers(2010, 2030))
    # the last period of a year (its list is the new year's), or any
    month = draw(st.one_of(st.just(13 - months), st.sampled_from(range(1, 13, months))))
    period = Period(dt.date(year, month, 1), months)
    rating = draw(st.one_of(st.none(), st.integers(1400, 2700)))
    games = draw(st.one_of(st.none(), st.integers(0, 60))) if rating is not None else 0
    # juniors turning 19 on the new year's list, and anyone
    birth = draw(
        st.one_of(st.none(), st.integers(year - 20, year - 16), st.integers(year - 40, year - 8))
    )
    # None (never listed) or the start of a period 1 to 14 periods back: inactivity comes
    # 12 months after it
    last_active = draw(
        st.one_of(
            st.none(),
            st.integers(1, 14).map(lambda back: _months(period.start, -back * months)),
        )
    )
    fide_k_list = draw(
        st.one_of(
            st.none(),
            st.integers(-3, 3).map(lambda n: _months(period.start, n)),
        )
    )
    fide_k = None if fide_k_list is None else draw(st.sampled_from((10, 20, 40)))
    # FIDE's inactive flag: a list around the period's, or none
    fide_inactive = draw(
        st.one_of(st.none(), st.integers(-3, 3).map(lambda n: _months(period.start, n)))
    )
    pool = ()
    standing = Standing(
        rating, games, birth, draw(st.booleans()), draw(st.booleans()), pool, fide_k,
        fide_k_list, last_active, rating is not None and draw(st.booleans()), fide_inactive,
    )  # fmt: skip
    plays = draw(st.booleans())
    result = draw(st.integers(0, 2))
    opponent = draw(st.integers(1400, 2700))
    entry_k10 = draw(st.booleans())
    return config, period, standing, plays, result, opponent, entry_k10


def _months(day: dt.date, n: int) -> dt.date:
    index = day.month - 1 + n
    return dt.date(day.year + index // 12, index % 12 + 1, 1)


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_a_quiet_row_is_the_carry_of_the_previous_one(scenario: Scenario) -> None:
    """Rate a player through one period (with or without a game), then through the next
    without one, from the standing a rate builds out of the stored row and the register. Where
    ``changes_without_games`` answers False, the second row is the first one carried. (The
    loop's 300 scenarios; the slow pass draws 5,000 more.)"""
    _check_quiet_scenario(scenario)


@pytest.mark.slow  # 5,000 scenarios: about 15 seconds
@settings(max_examples=5000, deadline=None)
@given(scenarios())
def test_a_quiet_row_is_the_carry_of_the_previous_one_long(scenario: Scenario) -> None:
    """:func:`test_a_quiet_row_is_the_carry_of_the_previous_one`, longer."""
    _check_quiet_scenario(scenario)


def _check_quiet_scenario(scenario: Scenario) -> None:
    config, period, standing, plays, result, opponent, entry_k10 = scenario
    games = []
    if plays:
        games = [GameResult(1, 1, period.previous().start, 1, OPPONENT, result)]
    assert _quiet_row_is_carried(config, period, standing, games, entry_k10, opponent)


def _quiet_row_is_carried(
    config: rules.SystemConfig,
    period: Period,
    standing: Standing,
    games: list[GameResult],
    entry_k10: bool,
    opponent: int = 2000,
) -> bool:
    """Rate ``standing`` through the period before ``period`` (with ``games``), then through
    ``period`` without a game; False when changes_without_games promised a carry that the
    engine did not give."""
    first = period.previous()
    before = rules.rate_period(
        config, first, {1: standing, OPPONENT: Standing(opponent, 100)}, games
    )
    previous = before.list_rows[0]
    # the standing service.rate builds from the stored row and the register (load_state)
    again = Standing(
        previous.rating_after, previous.total_games, standing.birth_year,
        bool(previous.k10) or entry_k10, bool(previous.reached_2300), before.standings[1].pool,
        standing.fide_k, standing.fide_k_list, previous.last_active, bool(previous.inactive),
        standing.fide_inactive,
    )  # fmt: skip
    after = rules.rate_period(config, period, {1: again}, []).list_rows[0]
    bounds = rules.carry_bounds(config, period)
    if rules.changes_without_games(
        bounds, previous, standing.birth_year, entry_k10, standing.fide_k_list,
        standing.fide_inactive,
    ):  # fmt: skip
        return True
    return after == _carry(previous)


def test_a_quiet_row_is_the_carry_on_a_grid_of_edge_cases() -> None:
    """The same promise on every combination of the values at each condition's edge (the
    property above draws from wider ranges but rarely hits an edge): November, December and
    January; juniors turning 19; last active 11 to 13 months back; FIDE's K dated around the
    lists; K=10 set by hand."""
    broken = []
    for month, rating, games, age, flags, back, fide, plays, entry_k10 in itertools.product(
        ((2024, 11), (2024, 12), (2025, 1)),
        (None, 1400, 1800, 2450),  # 1400: a loss puts the player below the floor
        (None, 50),
        (None, 17, 18, 19, 30),
        ((False, False), (False, True), (True, True)),
        (None, 1, 11, 12, 13),
        (None, (40, -3), (40, -1), (40, 0), (40, 1), (20, 0)),
        (None, 2, 0),  # no game, a win, a loss
        (False, True),
    ):
        period = Period(dt.date(*month, 1))
        birth = None if age is None else period.start.year - age
        last_active = None if back is None else _months(period.start, -back)
        fide_k, fide_k_list = (
            (None, None) if fide is None else (fide[0], _months(period.start, fide[1]))
        )
        standing = Standing(
            rating, games if rating is not None else 0, birth, *flags, (), fide_k, fide_k_list,
            last_active,
        )  # fmt: skip
        played = []
        if plays is not None:
            played = [GameResult(1, 1, period.previous().start, 1, OPPONENT, plays)]
        if not _quiet_row_is_carried(FIDE, period, standing, played, entry_k10):
            broken.append((month, standing, plays, entry_k10))
    assert broken == []


def test_each_condition_is_needed() -> None:
    """Each condition of changes_without_games catches a row that does change (a predicate
    that answered True for everyone would pass the property above)."""
    january = Period(dt.date(2025, 1, 1))

    def rows(
        period: Period, standing: Standing, entry_k10: bool = False
    ) -> tuple[ListEntry, ListEntry]:
        previous = rules.rate_period(FIDE, period.previous(), {1: standing}, []).list_rows[0]
        again = Standing(
            previous.rating_after, previous.total_games, standing.birth_year,
            bool(previous.k10) or entry_k10, bool(previous.reached_2300), (), standing.fide_k,
            standing.fide_k_list, previous.last_active,
        )  # fmt: skip
        return previous, rules.rate_period(FIDE, period, {1: again}, []).list_rows[0]

    december = dt.date(2024, 12, 1)
    cases = {
        "turns inactive": (january, Standing(1800, 50, last_active=dt.date(2024, 1, 1)), False),
        "junior K ends with the year": (
            Period(december),
            Standing(1800, 50, birth_year=2006, last_active=dt.date(2024, 11, 1)),
            False,
        ),
        "K=10 set by hand": (january, Standing(1800, 50, last_active=december), True),
        "FIDE's K on the new list": (
            january,
            Standing(1800, None, fide_k=40, fide_k_list=dt.date(2025, 2, 1), last_active=december),
            False,
        ),
    }
    for name, (period, standing, entry_k10) in cases.items():
        previous, after = rows(period, standing, entry_k10)
        assert after != _carry(previous), name
        bounds = rules.carry_bounds(FIDE, period)
        assert rules.changes_without_games(
            bounds, previous, standing.birth_year, entry_k10, standing.fide_k_list
        ), name
    quiet = Standing(1800, 50, birth_year=1990, last_active=december)
    previous, after = rows(january, quiet)
    assert after == _carry(previous)
    bounds = rules.carry_bounds(FIDE, january)
    assert not rules.changes_without_games(bounds, previous, 1990, False, None)


def test_junior_years_are_asked_only_across_a_new_year() -> None:
    assert rules.carry_bounds(FIDE, Period(dt.date(2025, 5, 1))).junior_births is None
    assert rules.carry_bounds(FIDE, Period(dt.date(2024, 12, 1))).junior_births == (2005, 2007)


def test_a_row_in_another_unit_is_never_carried() -> None:
    """The condition on the unit: a list row written in hundredths (FIDE's table) is not a
    plain carry once the system counts in the curve's units (a settings change between two
    periods): the new row is in the new unit, and changes_without_games says so."""
    curve = rules.system_config("fide", expected="curve")
    january = Period(dt.date(2025, 1, 1))
    december = dt.date(2024, 12, 1)
    standing = Standing(1800, 50, birth_year=1990, last_active=december)
    previous = rules.rate_period(FIDE, january.previous(), {1: standing}, []).list_rows[0]
    again = Standing(
        previous.rating_after, previous.total_games, 1990, False, False, (), None, None,
        previous.last_active,
    )  # fmt: skip
    for config, changes in ((FIDE, False), (curve, True)):
        after = rules.rate_period(config, january, {1: again}, []).list_rows[0]
        assert (after != _carry(previous)) is changes
        assert after.units_per_point == config.units_per_point
        bounds = rules.carry_bounds(config, january)
        assert rules.changes_without_games(bounds, previous, 1990, False, None) is changes
