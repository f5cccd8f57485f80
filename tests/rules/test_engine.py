"""The period engine (``ratings.rules.engine``), tested directly: golden periods worked by hand
from the regulations and the examples of docs/RULES.md, and a Hypothesis differential property
against the slow reference of ``tests/rating_reference.py``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import rules
from ratings.rules import (
    BreakdownLine,
    GameResult,
    ListEntry,
    Period,
    PoolGame,
    Standing,
    SystemConfig,
    rate_period,
    system_config,
)
from tests import rating_reference as ref

D = Decimal
FIDE = system_config("fide")
JAN, FEB, MAR = (Period(dt.date(2025, m, 1)) for m in (1, 2, 3))


def row(outcome: rules.PeriodOutcome, pid: int) -> ListEntry:
    (found,) = [r for r in outcome.list_rows if r.player_id == pid]
    return found


def lines(outcome: rules.PeriodOutcome, pid: int) -> list[BreakdownLine]:
    return [line for line in outcome.breakdown if line.player_id == pid]


# --------------------------------------------------------------------------------------------
# Golden periods
# --------------------------------------------------------------------------------------------


def test_several_events_under_different_lists() -> None:
    """One player-period, two events (docs/RULES.md#which-ratings-a-game-uses): the January event
    uses the list of 1 January for both players, the February one the list of 1 February; the base
    of the new rating is the February list. Worked from table 8.1.2: 2000 v 1900, D 100, PD .64, a
    win +.36; 2010 v 2150, D -140, PD .31, a draw +.19; 2010 v 2010, PD .50, a loss -.50. K 20 (art.
    8.3.3, 100 games, no junior): 20 x .05 = +1."""
    standings = {
        1: Standing(2010, 100, 1980),
        2: Standing(1890, 100, 1980),
        3: Standing(2150, 100, 1980),
        4: Standing(2010, 100, 1980),
    }
    jan_list = {1: 2000, 2: 1900, 3: 2140, 4: 2000}
    games = [
        GameResult(1, 10, dt.date(2025, 1, 30), 1, 2, 2),  # Jan 30 - Feb 2 weekender
        GameResult(2, 11, dt.date(2025, 2, 10), 3, 1, 1),  # February event
        GameResult(3, 11, dt.date(2025, 2, 10), 1, 4, 0),
    ]
    assert rules.lists_needed(FEB, games) == {JAN.start}
    out = rate_period(FIDE, FEB, standings, games, lists={JAN.start: jan_list})
    mine = lines(out, 1)
    assert [(x.own_rating, x.opponent_rating, x.difference, x.pd_units, x.dr_units)
            for x in mine] == [(2000, 1900, 100, 64, 36), (2010, 2150, -140, 31, 19),
                               (2010, 2010, 0, 50, -50)]  # fmt: skip
    entry = row(out, 1)
    assert (entry.rating_before, entry.k_used, entry.change, entry.rating_after) == (
        2010, 20, 1, 2011,
    )  # fmt: skip
    assert (entry.period_games, entry.score_half_points, entry.pd_sum_units) == (3, 3, 145)
    assert entry.units_per_point == 100
    assert {x.k_used for x in mine} == {20}
    # the opponent of the January game used the January list too: 1900 v 2000, a loss
    assert lines(out, 2)[0][3:9] == (1900, 2000, -100, 0, 36, -36)


def test_a_2650_player_is_not_capped_from_october_2025() -> None:
    """docs/RULES.md#the-400-point-rule-art-831: a 2813 beats a 2400: the 2813 sees D 413 -> .93,
    the 2400 D capped at 400 -> .08; not zero-sum. K 10 for both (2400+, art. 8.3.3)."""
    oct_ = Period(dt.date(2025, 10, 1))
    standings = {1: Standing(2813, 500), 2: Standing(2400, 500)}
    out = rate_period(FIDE, oct_, standings, [GameResult(1, 1, oct_.start, 1, 2, 2)])
    (high,), (low,) = lines(out, 1), lines(out, 2)
    assert (high.difference, high.pd, high.dr) == (413, D("0.93"), D("0.07"))
    assert (low.difference, low.pd, low.dr) == (-400, D("0.08"), D("-0.08"))
    assert (row(out, 1).change, row(out, 2).change) == (1, -1)  # +0.7 -> 1, -0.8 -> -1
    sep = Period(dt.date(2025, 9, 1))
    out = rate_period(FIDE, sep, standings, [GameResult(1, 1, sep.start, 1, 2, 2)])
    assert lines(out, 1)[0].difference == 400  # the 2009 edition caps everyone


def test_the_700_rule() -> None:
    """Art. 8.3.3: 19 games at K 40 (fewer than 30 games before): 40 x 19 > 700, K 36."""
    standings = {1: Standing(1800, 0), 2: Standing(1800, 100)}
    games = [GameResult(i, 1, MAR.start, 1, 2, 1) for i in range(1, 19)]
    games.append(GameResult(19, 1, MAR.start, 1, 2, 2))
    out = rate_period(FIDE, MAR, standings, games)
    assert (row(out, 1).k_used, row(out, 1).change, row(out, 1).rating_after) == (36, 18, 1818)
    assert {line.k_used for line in lines(out, 1)} == {36}
    assert row(out, 2).k_used == 20  # 20 x 19 = 380: no reduction


def test_minus_2_50_rounds_to_minus_3() -> None:
    """Art. 8.3.4: K x sum(dR) = 10 x (+.50 - .75) = -2.50 -> -3 (the demo's case that summed to
    -2.4999...)."""
    standings = {1: Standing(2000, 100, k10=True), 2: Standing(2000, 100), 3: Standing(1810, 100)}
    games = [GameResult(1, 1, MAR.start, 1, 2, 2), GameResult(2, 1, MAR.start, 1, 3, 0)]
    out = rate_period(FIDE, MAR, standings, games)
    assert [x.dr_units for x in lines(out, 1)] == [50, -75]
    assert (row(out, 1).k_used, row(out, 1).change) == (10, -3)


def test_first_rating_spec_example() -> None:
    """docs/RULES.md#first-rating-art-82: 1902 1/2, 1877 1/2, 1884 1, 2012 0, 1832 1 -> Ra 1872.43,
    p .57, dp 50 -> 1922; the rated opponents do not move (a game against an unrated player)."""
    opponents = [1902, 1877, 1884, 2012, 1832]
    standings = {1: Standing(None, 0)} | {i + 2: Standing(r, 100) for i, r in enumerate(opponents)}
    halves = [1, 1, 2, 0, 2]
    games = [GameResult(i + 1, 7, MAR.start, 1, i + 2, h) for i, h in enumerate(halves)]
    assert rules.first_events_needed(FIDE, standings, games) == {1}
    out = rate_period(FIDE, MAR, standings, games, first_events={1: 7})
    entry = row(out, 1)
    assert (entry.rating_after, entry.list_status, entry.period_games) == (1922, "first_rating", 5)
    assert {x.counts_for for x in lines(out, 1)} == {"first_rating"}
    assert [x.k_used for x in lines(out, 1)] == [None] * 5
    assert all(row(out, i).change == 0 for i in range(2, 7))
    assert out.standings[1].pool == ()


def test_a_zero_first_event_is_disregarded_and_the_pool_spans_periods() -> None:
    """Art. 8.2: the first event (two losses) is left out; three draws in February and two
    in March complete the pool: five draws against 1800 -> 1800."""
    standings = {1: Standing(None, 0), 2: Standing(1800, 100)}
    pool = (
        PoolGame(JAN.start, 1, 1800, 0),
        PoolGame(JAN.start, 1, 1800, 0),
        *(PoolGame(FEB.start, 2, 1800, 1) for _ in range(3)),
    )
    standings[1] = Standing(None, 5, pool=pool)
    games = [GameResult(10 + i, 3, MAR.start, 1, 2, 1) for i in range(2)]
    out = rate_period(FIDE, MAR, standings, games, first_events={1: 1})
    assert (row(out, 1).rating_after, row(out, 1).list_status) == (1800, "first_rating")
    # had the player played earlier elsewhere, the two losses would count: two losses and
    # five draws against 1800, Ra 1800, p = (2.5 + 1) / 9 = 39%, dp -80 -> 1720
    out = rate_period(FIDE, MAR, standings, games, first_events={1: 99})
    assert row(out, 1).rating_after == 1720


def test_below_the_floor_and_next_k() -> None:
    """Art. 7.1.4: a rating below 1400 is not published; next K comes from the new list.
    1402 v 1800: D -398, PD .08; two losses at K 20: 20 x -.16 = -3.2 -> -3, 1399."""
    standings = {1: Standing(1402, 100), 2: Standing(1800, 100)}
    games = [GameResult(1, 1, MAR.start, 1, 2, 0), GameResult(2, 1, MAR.start, 2, 1, 2)]
    out = rate_period(FIDE, MAR, standings, games)
    low = row(out, 1)
    assert (low.rating_after, low.list_status, low.next_k, low.change) == (
        None, "below_floor", None, -3,
    )  # fmt: skip
    assert out.standings[1].rating is None
    assert row(out, 2).next_k == 20


def test_missing_inputs_are_named() -> None:
    standings = {1: Standing(2000, 100), 2: Standing(2000, 100)}
    with pytest.raises(rules.MissingInputError, match="no list dated 2025-01-01"):
        rate_period(FIDE, FEB, standings, [GameResult(1, 1, JAN.start, 1, 2, 2)])
    standings = {1: Standing(None, 0, pool=(PoolGame(MAR.start, 1, 1800, 1),) * 4),
                 2: Standing(1800, 100)}  # fmt: skip
    with pytest.raises(rules.MissingInputError, match="player 1: the first event"):
        rate_period(FIDE, MAR, standings, [GameResult(1, 2, MAR.start, 1, 2, 1)])


# --------------------------------------------------------------------------------------------
# Differential: the engine, period by period, against the reference
# --------------------------------------------------------------------------------------------


def drive(
    config: SystemConfig,
    players: Sequence[ref.Player],
    games: Sequence[ref.Game],
    breakdown: dict[dt.date, list[BreakdownLine]] | None = None,
) -> dict[dt.date, dict[int, ListEntry]]:
    """Every period from the first game's to the last, through the engine alone: what the
    service does around it, with the database replaced by dictionaries; ``breakdown``, if
    given, gets every period's breakdown lines."""
    months = config.period_months
    start = {e: min(g.played_on for g in games if g.event == e) for e in {g.event for g in games}}
    end = {e: max(g.played_on for g in games if g.event == e) for e in start}
    first_event: dict[int, int] = {}
    for g in sorted(games, key=lambda g: (start[g.event], g.event)):
        for pid in (g.white, g.black):
            first_event.setdefault(pid, g.event)
    standings = {
        p.pid: Standing.from_entry(p.rating, p.games, p.birth_year, p.k10) for p in players
    }
    entry_list = {p.pid: p.rating for p in players}
    lists: dict[dt.date, dict[int, int | None]] = {}
    period = Period.containing(min(end.values()), months)
    last = Period.containing(max(end.values()), months)
    published: dict[dt.date, dict[int, ListEntry]] = {}
    while period <= last:
        results = [
            GameResult(g.gid, g.event, start[g.event], g.white, g.black, int(g.white_score * 2))
            for g in sorted(games, key=lambda g: g.gid)
            if period.contains(end[g.event])
        ]
        given_lists = {d: lists.get(d, entry_list) for d in rules.lists_needed(period, results)}
        needed = rules.first_events_needed(config, standings, results)
        outcome = rate_period(
            config,
            period,
            standings,
            results,
            lists=given_lists,
            first_events={pid: first_event.get(pid) for pid in needed},
        )
        lists[period.list_date] = {r.player_id: r.rating_after for r in outcome.list_rows}
        published[period.start] = {r.player_id: r for r in outcome.list_rows}
        if breakdown is not None:
            breakdown[period.start] = outcome.breakdown
        standings = outcome.standings
        period = period.next()
    return published


SYSTEMS = {
    "fide": (system_config("fide"), ref.System("fide")),
    "fide-2-months": (system_config("fide", period_months=2), ref.System("fide", months=2)),
    "club": (system_config("club"), ref.System("club", start_rating=1200)),
    "elo": (system_config("elo"), ref.System("elo", k=32, start_rating=1500, curve=True)),
    "fide-curve": (system_config("fide", expected="curve"), ref.System("fide", curve=True)),
}


MARKS = [2299, 2399, 2649]
"""Ratings just below the junior mark, the K 10 mark and the 2025 cap exemption."""


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[ref.Player], list[ref.Game]]:
    """2 to 8 players (some unrated, some near 2300, 2400 and 2650, some juniors) and up to
    40 games in up to 8 events over up to 6 months around the 1 October 2025 edition (some
    events up to 18 months later)."""
    n = draw(st.integers(2, 8))
    players = [
        ref.Player(
            pid,
            draw(
                st.one_of(st.none(), st.integers(1300, 2900), st.sampled_from([2299, 2399, 2649]))
            ),
            draw(st.sampled_from([0, 5, 29, 30, 200])),
            draw(st.sampled_from([None, 1960, 2008, 2012])),
            draw(st.booleans()) and draw(st.booleans()),
        )
        for pid in range(1, n + 1)
    ]
    first = dt.date(2025, 7, 1)
    games: list[ref.Game] = []
    for event in range(1, draw(st.integers(1, 8)) + 1):
        # most events within five months of the 2025 edition; some up to 18 months on, so
        # that a year without games (art. 7.2.2's inactivity) and a new year's K occur
        later = draw(st.sampled_from([150, 150, 540]))
        day = first + dt.timedelta(days=draw(st.integers(0, later)))
        for _ in range(draw(st.integers(1, 6))):
            white = draw(st.integers(1, n))
            black = draw(st.integers(1, n).filter(white.__ne__))  # anyone but white
            played = day + dt.timedelta(days=draw(st.integers(0, 40)))
            score = draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1)]))
            games.append(ref.Game(len(games) + 1, event, played, white, black, score))
    return players, games


@settings(max_examples=300, deadline=None)
@given(pool=pools(), system=st.sampled_from(sorted(SYSTEMS)))
def test_engine_matches_the_reference(
    pool: tuple[list[ref.Player], list[ref.Game]], system: str
) -> None:
    """Every field of every list row and of every breakdown line, period by period."""
    players, games = pool
    config, reference = SYSTEMS[system]
    our_lines: dict[dt.date, list[BreakdownLine]] = {}
    their_lines: dict[dt.date, list[ref.Line]] = {}
    ours = drive(config, players, games, our_lines)
    theirs = ref.rate_history(reference, players, games, breakdown=their_lines)
    assert sorted(ours) == sorted(theirs)
    for period, entries in theirs.items():
        assert sorted(ours[period]) == sorted(entries), period
        for pid, want in entries.items():
            got = ours[period][pid]
            assert tuple(got) == (
                pid, want.rating_before, want.rating, want.change, want.k, want.games,
                want.total_games, want.score_half_points, want.pd_sum_units,
                want.units_per_point, want.k10, want.reached_2300, want.next_k, want.status,
                want.inactive, want.last_active,
            ), (period, pid)  # fmt: skip
        assert len(ListEntry._fields) == 16  # a new field needs its reference value above
        assert sorted(tuple(line) for line in our_lines[period]) == sorted(their_lines[period]), (
            period
        )


def test_next_k_from_a_standing() -> None:
    """Art. 8.3.3 on the list's date (a junior until the end of the year of the 18th
    birthday), the fixed K of a system that has one, and None for an unrated player."""
    junior = Standing(2000, 100, 2008)
    assert rules.next_k(FIDE, junior, dt.date(2026, 12, 1)) == 40
    assert rules.next_k(FIDE, junior, dt.date(2027, 1, 1)) == 20
    assert rules.next_k(FIDE, Standing(2405, 100), MAR.start) == 10
    assert rules.next_k(system_config("elo"), Standing(2405, 100), MAR.start) == 32
    assert rules.next_k(FIDE, Standing(None, 0), MAR.start) is None


def test_average_rating_rounds_half_up() -> None:
    """docs/RULES.md#performance-ratings: Ra is the average opponent rating rounded to a whole
    number, 0.5 up."""
    assert rules.average_rating([1500, 1700]) == 1600
    assert rules.average_rating([1500, 1501]) == 1501
    assert rules.average_rating([1500, 1700, 1500]) == 1567
