"""Rapid and blitz in the pure rules (with PGN's ``TimeControl`` tag): the time-control
classes of the FIDE Rapid and Blitz Rating Regulations (art. 1.1), their rule editions (art.
7.3.1: the 400-point rule for everyone, the 600-point exclusion from 1 December 2024) and the
standard rating that seeds an unrated player (art. 7.2.1), through ``rules.rate_period``."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings import rules
from ratings.rules import (
    GameResult,
    InvalidTimeControlError,
    ListEntry,
    Period,
    Standing,
    TimeControl,
    rate_period,
    system_config,
)

FIDE = system_config("fide")
RAPID, BLITZ, STANDARD = TimeControl.RAPID, TimeControl.BLITZ, TimeControl.STANDARD


def row(outcome: rules.PeriodOutcome, pid: int) -> ListEntry:
    (found,) = [r for r in outcome.list_rows if r.player_id == pid]
    return found


# --- time controls (R&B art. 1.1) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [
        (0, None),
        (180, None),  # 3 minutes: blitz needs more (1.1.2)
        (181, BLITZ),
        (600, BLITZ),  # "not more than 10 minutes"
        (601, RAPID),  # rapid: "more than 10 minutes" (1.1.1)
        (3599, RAPID),
        (3600, STANDARD),  # rapid: "less than 60 minutes"
        (10800, STANDARD),
    ],
)
def test_classify_at_every_boundary(seconds: int, expected: TimeControl | None) -> None:
    assert rules.classify(seconds) is expected


@pytest.mark.parametrize(
    ("tag", "seconds", "expected"),
    [
        ("180+2", 300, BLITZ),  # 3 minutes + 2 s: 180 + 60 x 2
        ("300", 300, BLITZ),
        ("600", 600, BLITZ),
        ("600+1", 660, RAPID),
        ("900+10", 1500, RAPID),
        ("3000+10", 3600, STANDARD),  # 50 minutes + 10 s: exactly 60
        ("5400+30", 7200, STANDARD),
        ("40/5400+30:1800+30", 9000, STANDARD),  # 40 moves: 5400 + 40 x 30; then 1800 + 20 x 30
        ("40/7200:3600", 10800, STANDARD),
        ("40/7200:20/3600:900+30", 10800, STANDARD),  # the third period starts after move 60
        ("180+0.5", 210, BLITZ),
        (" 600+5 ", 900, RAPID),
    ],
)
def test_pgn_time_control_tags(tag: str, seconds: int, expected: TimeControl) -> None:
    assert rules.seconds_for_60_moves(tag) == seconds
    assert rules.pgn_time_control(tag) is expected


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ("?", "time control unknown: '?'"),
        ("", "time control unknown: ''"),
        ("-", "no time control (-): '-'"),
        ("40/5400", "the periods cover 40 moves, not the 60 FIDE counts: '40/5400'"),
        ("0/60", "a period of 0 moves: '0/60'"),
        ("90 min", "not a PGN time control: '90 min'"),
        ("5400+", "not a PGN time control: '5400+'"),
        ("*40/60", "not a PGN time control: '*40/60'"),
        ("\u0666\u0660\u0660", "not a PGN time control: '\u0666\u0660\u0660'"),  # Arabic-Indic
        (
            "180",
            "180 seconds for 60 moves: rated on no FIDE list (blitz needs more than 3 "
            "minutes, R&B art. 1.1.2): '180'",
        ),
        (
            "*120",
            "120 seconds for 60 moves: rated on no FIDE list (blitz needs more than 3 "
            "minutes, R&B art. 1.1.2): '*120'",
        ),
    ],
)
def test_pgn_time_control_refusals(tag: str, message: str) -> None:
    with pytest.raises(InvalidTimeControlError) as caught:
        rules.pgn_time_control(tag)
    assert str(caught.value) == message


def test_time_control_names() -> None:
    assert [t.value for t in rules.TIME_CONTROLS] == ["standard", "rapid", "blitz"]
    assert rules.time_control(" Rapid ") is RAPID
    assert rules.time_control(BLITZ) is BLITZ
    for bad in ("bullet", "", "r\u0430pid"):  # the last with a Cyrillic a
        with pytest.raises(InvalidTimeControlError, match="use standard, rapid or blitz"):
            rules.time_control(bad)


# --- rule editions (R&B art. 7.3.1) ---------------------------------------------------------


def test_rapid_and_blitz_editions() -> None:
    before = rules.rules_for(dt.date(2024, 11, 30), RAPID)
    after = rules.rules_for(dt.date(2024, 12, 1), BLITZ)
    assert before.not_rated_difference is None
    assert before.rates(2700, 2000)
    assert (after.not_rated_difference, after.not_rated_above) == (600, 2600)
    # the 2650 exemption of standard chess (from 1 Oct 2025) is not in the R&B regulations
    assert rules.rules_for(dt.date(2026, 1, 1), STANDARD).caps(2700) is False
    assert rules.rules_for(dt.date(2026, 1, 1), RAPID).caps(2700) is True
    assert rules.rules_for(dt.date(2026, 1, 1), RAPID) is after
    # standard chess has no exclusion
    assert rules.rules_for(dt.date(2026, 1, 1)).rates(2700, 2000)


@pytest.mark.parametrize(
    ("white", "black", "rated"),
    [
        (2601, 2001, False),  # 600 apart, one above 2600
        (2001, 2601, False),  # either colour
        (2600, 1990, True),  # 610 apart, but nobody *above* 2600
        (2700, 2101, True),  # 599 apart
        (2700, 2000, False),
    ],
)
def test_the_600_point_exclusion(white: int, black: int, rated: bool) -> None:
    assert rules.rules_for(dt.date(2025, 1, 1), RAPID).rates(white, black) is rated


# --- the engine -----------------------------------------------------------------------------


def _pair(
    own: int, opp: int, start: dt.date, list_type: TimeControl, halves: int = 2
) -> rules.PeriodOutcome:
    standings = {1: Standing(own, 500), 2: Standing(opp, 500)}
    return rate_period(
        FIDE,
        Period(start.replace(day=1)),
        standings,
        [GameResult(1, 1, start, 1, 2, halves)],
        list_type=list_type,
    )


def test_a_2700_rapid_player_is_capped_at_400() -> None:
    """2700 v 2250 on 5 November 2025: standard uses the true 450 for a 2650+ player (8.3.1,
    from 1 Oct 2025: PD .94); rapid and blitz cap it at 400 (R&B 7.3.1: PD .92). A win, K 10:
    +0.6 -> +1 in standard, +0.8 -> +1 in rapid; a draw -4.4 -> -4 and -4.2 -> -4; a loss
    9.4 and 9.2 -> -9. The lines show it."""
    day = dt.date(2025, 11, 5)
    standard = _pair(2700, 2250, day, STANDARD)
    rapid = _pair(2700, 2250, day, RAPID)
    blitz = _pair(2700, 2250, day, BLITZ)
    assert [(b.difference, b.pd_units) for b in standard.breakdown if b.player_id == 1] == [
        (450, 94)
    ]
    for outcome in (rapid, blitz):
        assert [(b.difference, b.pd_units) for b in outcome.breakdown if b.player_id == 1] == [
            (400, 92)
        ]
        # the lower rated player is capped in both, as before
        assert [(b.difference, b.pd_units) for b in outcome.breakdown if b.player_id == 2] == [
            (-400, 8)
        ]
    # K 20 for 2250 (no 2400 yet): a loss is -0.08 x 20 = -1.6 -> -2
    assert row(rapid, 2).change == -2


@pytest.mark.parametrize("list_type", [RAPID, BLITZ])
def test_the_600_point_rule_from_1_december_2024(list_type: TimeControl) -> None:
    """2650 v 2000 (650 apart, one above 2600): rated in an event that starts on 30 November
    2024, not rated, for either player, in one that starts on 1 December 2024; standard
    chess rates both."""
    nov = _pair(2650, 2000, dt.date(2024, 11, 30), list_type, halves=0)
    dec = _pair(2650, 2000, dt.date(2024, 12, 1), list_type, halves=0)
    std = _pair(2650, 2000, dt.date(2024, 12, 1), STANDARD, halves=0)
    assert nov.games_counted == 1
    assert len(nov.breakdown) == 2
    assert row(nov, 1).change == -9  # K 10 x (0 - .92) = -9.2
    assert dec.games_counted == 0
    assert dec.breakdown == []
    assert [(r.change, r.period_games, r.rating_after) for r in dec.list_rows] == [
        (0, 0, 2650),
        (0, 0, 2000),
    ]
    assert std.games_counted == 1


def test_a_standard_rating_seeds_an_unrated_rapid_player() -> None:
    """R&B 7.2.1: player 3, unrated on the rapid list, rated 1900 on the standard list when
    the event starts, plays at 1900 and "is considered to be rated": no pooling, the opponents'
    games against them count, and the new rapid rating is 1900 + the change (K 40: new to the
    list, 8.3.3)."""
    period = Period(dt.date(2025, 3, 1))
    standings = {
        1: Standing(2000, 100, 1980),
        2: Standing(1800, 100, 1980),
        3: Standing(None, 0, 1980),
        4: Standing(None, 0, 1980),  # unrated on both lists: pooled as usual
    }
    start = dt.date(2025, 3, 8)
    games = [
        GameResult(1, 1, start, 3, 1, 2),  # 1900 beats 2000: D -100, PD .36, +.64
        GameResult(2, 1, start, 2, 3, 1),  # 1900 draws 1800: D 100, PD .64, -.14
        GameResult(3, 1, start, 4, 1, 0),
    ]
    standard_list = {1: 2100, 2: 1850, 3: 1900}
    outcome = rate_period(
        FIDE, period, standings, games, list_type=RAPID, seeds={period.start: standard_list}
    )
    seeded = row(outcome, 3)
    assert (seeded.rating_before, seeded.rating_after, seeded.k_used) == (None, 1920, 40)
    assert seeded.change == 20  # 40 x (.64 - .14) = 20
    assert seeded.list_status == rules.FIRST_RATING
    assert [(b.own_rating, b.opponent_rating, b.counts_for) for b in outcome.breakdown
            if b.player_id == 3] == [(1900, 2000, "change"), (1900, 1800, "change")]  # fmt: skip
    # the opponents rated against the seed; their own rapid ratings, not the standard ones
    assert [(b.own_rating, b.opponent_rating) for b in outcome.breakdown if b.player_id == 1] == [
        (2000, 1900)
    ]
    assert row(outcome, 4).list_status == rules.UNRATED  # pooled, one game: no rating yet
    # without the seed, player 3 is pooled and the opponents' games do not count
    plain = rate_period(FIDE, period, standings, games, list_type=RAPID)
    assert row(plain, 3).rating_after is None
    assert [b.player_id for b in plain.breakdown if b.counts_for == "change"] == []


def test_seeds_are_for_rapid_and_blitz_only_and_must_be_given() -> None:
    period = Period(dt.date(2025, 3, 1))
    standings = {1: Standing(2000, 100), 2: Standing(None, 0)}
    games = [GameResult(1, 1, dt.date(2025, 2, 20), 1, 2, 2)]  # the February list's event
    with pytest.raises(InvalidTimeControlError, match=r"R&B art\. 7\.2\.1"):
        rate_period(FIDE, period, standings, games, seeds={period.start: {}})
    with pytest.raises(rules.MissingInputError, match="no standard list dated 2025-02-01"):
        rate_period(
            FIDE,
            period,
            standings,
            games,
            lists={dt.date(2025, 2, 1): {1: 2000}},
            list_type=BLITZ,
            seeds={period.start: {}},
        )
