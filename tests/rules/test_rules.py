"""Tests for ratings.rules: FIDE worked examples (by article) and Hypothesis properties."""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import pkgutil
import re
import sys
import tokenize
from dataclasses import FrozenInstanceError
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ratings import rules
from ratings.rules import (
    RULE_SETS,
    UNCAPPED,
    CapRule,
    ExpectedMethod,
    GameResult,
    InitialRating,
    InvalidGameCountError,
    InvalidKFactorError,
    InvalidPeriodError,
    InvalidRatingError,
    InvalidResultError,
    InvalidScoreError,
    Period,
    PlayerState,
    RulesError,
    Standing,
    System,
    UnknownMethodError,
    UnknownSystemError,
    apply_700_rule,
    capped_difference,
    curve_expectation,
    curve_expected,
    divide_half_away,
    dp,
    drop_zero_first_event,
    expected,
    flags_after,
    initial_rating,
    k_factor,
    parse_score,
    performance_400,
    performance_fide,
    performance_own,
    rate_game,
    rate_period,
    round_half_away,
    rules_for,
    system_config,
    table_expectation,
    table_pd,
)
from ratings.rules.expected import _PD, _TABLE_8_1_2

D = Decimal
BEFORE = date(2025, 9, 30)  # last event start under the 2009 edition (cap for everyone)
AFTER = date(2025, 10, 1)  # first event start under the 2025 edition (cap only below 2650)
EDITION_2009 = RULE_SETS[0]
EDITION_2025 = RULE_SETS[1]

PROPERTY = settings(max_examples=60, deadline=None)


def one_game(
    own: int, opp: int, score: str, k: int, day: date = BEFORE, method: Any = "table"
) -> tuple[rules.BreakdownLine, rules.ListEntry]:
    """The engine on a single game (as ``ratings calc change``)."""
    return rate_game(own, opp, int(D(score) * 2), k=k, event_start=day, method=method)


def one_player(
    games: list[tuple[int, int, Decimal]],
    *,
    k: int,
    day: date,
    method: ExpectedMethod | str = "table",
    system: str = "club",
) -> tuple[list[rules.BreakdownLine], rules.ListEntry]:
    """The engine on one player's period: game i is the only game of event i, which started on
    the first day of the i-th month after ``day``'s (so that each game has its own list in
    force, docs/RULES.md#which-ratings-a-game-uses), and every event ends in the month after the
    last start. ``own`` and ``opp`` are the ratings on that list. Tests pass the first day of an
    edition as ``day``,
    so every game is rated under that edition (art. 8.3.1)."""
    config = system_config(system, k=k, expected=method)
    standings = {1: Standing(2000, 100)}
    lists: dict[date, dict[int, int | None]] = {}
    results = []
    start = Period.containing(day)
    for i, (own, opp, score) in enumerate(games):
        standings[i + 2] = Standing(2000, 100)
        lists[start.start] = {1: own, i + 2: opp}
        results.append(GameResult(i + 1, i + 1, start.start, 1, i + 2, int(score * 2)))
        start = start.next()
    out = rate_period(config, start, standings, results, lists=lists)
    mine = [line for line in out.breakdown if line.player_id == 1]
    return mine, out.list_rows[0]


# --------------------------------------------------------------------------------------------
# Rule editions (art. 8.3.1)
# --------------------------------------------------------------------------------------------


def test_rule_sets_are_sorted_and_dated() -> None:
    assert [r.effective_from for r in RULE_SETS] == [date(2009, 7, 1), date(2025, 10, 1)]
    assert EDITION_2009.cap is CapRule.ALL
    assert EDITION_2025.cap is CapRule.BELOW_2650
    assert EDITION_2025.cap_exempt_from == 2650
    assert all(r.cap_difference == 400 for r in RULE_SETS)


@pytest.mark.parametrize(
    ("day", "edition"),
    [
        pytest.param(date(2009, 6, 30), EDITION_2009, id="8.3.1-before-first-edition-uses-first"),
        pytest.param(date(1990, 1, 1), EDITION_2009, id="8.3.1-long-before"),
        pytest.param(date(2009, 7, 1), EDITION_2009, id="8.3.1-2009-07-01"),
        pytest.param(BEFORE, EDITION_2009, id="8.3.1-2025-09-30"),
        pytest.param(AFTER, EDITION_2025, id="8.3.1-2025-10-01"),
        pytest.param(date(2030, 1, 1), EDITION_2025, id="8.3.1-later"),
    ],
)
def test_rules_for(day: date, edition: rules.RuleSet) -> None:
    assert rules_for(day) is edition


def test_rules_for_rejects_non_dates() -> None:
    with pytest.raises(InvalidPeriodError, match=re.escape("a datetime.date: '2025-10-01'")):
        rules_for("2025-10-01")  # type: ignore[arg-type]
    with pytest.raises(InvalidPeriodError, match="datetime"):
        rules_for(datetime(2025, 10, 1))  # noqa: DTZ001 (the value is rejected, zone irrelevant)


def test_rule_set_is_frozen() -> None:
    with pytest.raises(FrozenInstanceError):
        EDITION_2009.cap_difference = 350  # type: ignore[misc]


def test_below_2650_needs_threshold() -> None:
    with pytest.raises(UnknownSystemError, match="cap_exempt_from"):
        rules.RuleSet(date(2030, 1, 1), "x", CapRule.BELOW_2650)


# --------------------------------------------------------------------------------------------
# Table 8.1.2 row edges, for the higher and the lower rated player
# --------------------------------------------------------------------------------------------

ROWS = _TABLE_8_1_2
EDGES = [
    pytest.param(upper, pd, nxt, id=f"8.1.2-D{upper}/{upper + 1}")
    for (upper, pd), nxt in zip(ROWS, [p for _, p in ROWS[1:]] + [100], strict=True)
]


@pytest.mark.parametrize(("upper", "pd", "next_pd"), EDGES)
def test_table_row_edges_higher_player(upper: int, pd: int, next_pd: int) -> None:
    assert table_pd(upper) == pd
    assert table_pd(upper + 1) == next_pd


@pytest.mark.parametrize(("upper", "pd", "next_pd"), EDGES)
def test_table_row_edges_lower_player(upper: int, pd: int, next_pd: int) -> None:
    assert table_pd(-upper) == 100 - pd
    assert table_pd(-(upper + 1)) == 100 - next_pd


@pytest.mark.parametrize(("upper", "pd", "next_pd"), EDGES)
def test_table_row_edges_through_expected(upper: int, pd: int, next_pd: int) -> None:
    """An exempt 2800 (2025 edition) reaches every row, both as higher and lower player."""
    for d, want in ((upper, pd), (upper + 1, next_pd)):
        high = expected(2800, 2800 - d, EDITION_2025)
        assert (high.difference, high.expected) == (d, D(want) / 100)
        if 2800 + d <= 4000:
            low = expected(2800, 2800 + d, EDITION_2025)
            assert (low.difference, low.expected) == (-d, D(100 - want) / 100)


def test_table_extremes() -> None:
    assert table_pd(0) == 50
    assert table_pd(735) == 99
    assert table_pd(736) == 100
    assert table_pd(5000) == 100
    assert table_pd(-5000) == 0
    assert len(_PD) == 736


def test_table_expected_has_two_decimals() -> None:
    assert str(expected(2400, 2000, EDITION_2009).expected) == "0.92"
    assert str(expected(2000, 2000, EDITION_2009).expected) == "0.50"
    assert str(expected(2800, 1800, EDITION_2025).expected) == "1.00"
    assert str(expected(1800, 2800, UNCAPPED).expected) == "0.00"


# --------------------------------------------------------------------------------------------
# Worked examples, single game, FIDE table (docs/RULES.md#single-game-worked-examples)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("own", "opp", "score", "k", "day", "exact", "rounded"),
    [
        pytest.param(2000, 2000, "1", 10, BEFORE, "5.0", 5, id="8.3.4-equal"),
        pytest.param(2004, 2000, "1", 10, BEFORE, "4.9", 5, id="8.1.2-edge-3/4"),
        pytest.param(2206, 2000, "1", 10, BEFORE, "2.4", 2, id="8.1.2-edge-206"),
        pytest.param(2207, 2000, "1", 10, BEFORE, "2.3", 2, id="8.1.2-edge-207"),
        pytest.param(2391, 2000, "1", 10, BEFORE, "0.9", 1, id="8.1.2-edge-391"),
        pytest.param(2392, 2000, "1", 10, BEFORE, "0.8", 1, id="8.1.2-edge-392"),
        pytest.param(1656, 2000, "0", 10, BEFORE, "-1.2", -1, id="8.1.2-edge-344-lower"),
        pytest.param(1655, 2000, "0", 10, BEFORE, "-1.1", -1, id="8.1.2-edge-345-lower"),
        pytest.param(2600, 2100, "1", 10, BEFORE, "0.8", 1, id="8.3.1-capped-higher"),
        pytest.param(1500, 2000, "0.5", 20, BEFORE, "8.4", 8, id="8.3.1-capped-lower-draw"),
        pytest.param(2092, 2000, "1", 15, BEFORE, "5.55", 6, id="8.3.3-k15"),
        pytest.param(1500, 1900, "1", 40, BEFORE, "36.8", 37, id="8.3.4-win-rounded"),
        pytest.param(1500, 1900, "0", 40, BEFORE, "-3.2", -3, id="8.3.4-loss-rounded"),
        pytest.param(1500, 1900, "0.5", 40, BEFORE, "16.8", 17, id="8.3.4-draw-rounded"),
        pytest.param(1500, 2900, "0.5", 40, BEFORE, "16.8", 17, id="8.3.1-capped-1000"),
        pytest.param(1500, 2900, "0.5", 40, AFTER, "16.8", 17, id="8.3.1-2025-lower-capped"),
        pytest.param(2800, 1800, "1", 10, AFTER, "0", 0, id="8.3.1-2025-exempt-over-735"),
        pytest.param(2800, 1800, "1", 10, BEFORE, "0.8", 1, id="8.3.1-2009-2800-capped"),
        pytest.param(2700, 2200, "1", 10, AFTER, "0.4", 0, id="8.3.1-2025-exempt-2700"),
        pytest.param(2700, 2200, "1", 10, BEFORE, "0.8", 1, id="8.3.1-2009-2700-capped"),
    ],
)
def test_worked_examples(
    own: int, opp: int, score: str, k: int, day: date, exact: str, rounded: int
) -> None:
    line, entry = one_game(own, opp, score, k, day)
    assert line.k_dr == D(exact)
    assert entry.change == rounded
    assert line.k_used == entry.k_used == k
    assert entry.rating_after == own + rounded


def test_2813_v_2400_is_not_zero_sum_from_2025() -> None:
    """docs/RULES.md#the-400-point-rule-art-831: the 2813 sees D=413 -> .93, the 2400 sees D capped
    at 400 -> .08."""
    high = expected(2813, 2400, EDITION_2025)
    low = expected(2400, 2813, EDITION_2025)
    assert (high.difference, high.expected) == (413, D("0.93"))
    assert (low.difference, low.expected) == (-400, D("0.08"))
    assert high.expected + low.expected != 1


@pytest.mark.parametrize(
    ("own", "day", "difference", "pd"),
    [
        pytest.param(2649, BEFORE, 400, 92, id="8.3.1-2649-2025-09-30"),
        pytest.param(2649, AFTER, 400, 92, id="8.3.1-2649-2025-10-01"),
        pytest.param(2650, BEFORE, 400, 92, id="8.3.1-2650-2025-09-30"),
        pytest.param(2650, AFTER, 450, 94, id="8.3.1-2650-2025-10-01-exempt"),
    ],
)
def test_exemption_boundaries(own: int, day: date, difference: int, pd: int) -> None:
    assert table_expectation(own, own - 450, rules_for(day)) == (difference, pd)
    got = expected(own, own - 450, rules_for(day))
    assert (got.difference, got.expected) == (difference, D(pd) / 100)


def test_exemption_is_by_own_rating_for_the_lower_player() -> None:
    """The lower rated player stays capped even against an exempt opponent (art. 8.3.1)."""
    assert table_expectation(2100, 2650, EDITION_2025) == (-400, 8)
    assert table_expectation(2650, 2100, EDITION_2025) == (550, 97)


def test_curve_seed_example() -> None:
    """docs/RULES.md#rating-systems: 1600 beats 1400, K 32, curve -> E .76, +8 and -8 (zero-sum)."""
    win, win_entry = one_game(1600, 1400, "1", 32, method="curve")
    loss, loss_entry = one_game(1400, 1600, "0", 32, method=ExpectedMethod.CURVE)
    assert win.pd is not None
    assert win.pd.quantize(D("0.0001")) == D("0.7597")
    assert (win_entry.change, loss_entry.change) == (8, -8)
    assert (win_entry.rating_after, loss_entry.rating_after) == (1608, 1392)
    assert win.k_dr is not None
    assert loss.k_dr is not None
    assert win.k_dr + loss.k_dr == 0


@pytest.mark.parametrize(
    ("gap", "value"),
    [(0, "0.50"), (50, "0.57"), (100, "0.64"), (200, "0.76"), (400, "0.91"), (800, "0.99")],
)
def test_curve_reference_values(gap: int, value: str) -> None:
    got = curve_expected(gap)
    assert got.quantize(D("0.01")) == D(value)
    assert curve_expected(-gap) == 1 - got


def test_curve_in_fide_keeps_the_cap() -> None:
    got = expected(2600, 2100, EDITION_2009, ExpectedMethod.CURVE)
    assert (got.difference, got.expected) == (400, D("0.909090909"))  # 10/11 to nine places
    assert expected(2600, 2100, UNCAPPED, "curve").difference == 500
    assert curve_expected(3000) == D("0.999999968")
    assert curve_expected(4001) == curve_expected(4000) == 1


# --------------------------------------------------------------------------------------------
# Rounding (art. 8.3.4)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "want"),
    [
        pytest.param(value, want, id=f"8.3.4-{value}")
        for value, want in [
            ("-2.50", -3),
            ("92.48", 92),
            ("2.5", 3),
            ("-2.49", -2),
            ("0.5", 1),
            ("-0.5", -1),
            ("0", 0),
        ]
    ],
)
def test_round_half_away(value: str, want: int) -> None:
    assert round_half_away(D(value)) == want


@pytest.mark.parametrize(
    ("hundredths", "k", "want"),
    [
        pytest.param(h, k, want, id=f"8.3.4-{h}x{k}")
        for h, k, want in [
            (-25, 10, -3),
            (9248, 1, 92),
            (925, 10, 93),
            (25, 10, 3),
            (-24, 10, -2),
            (92, 15, 14),
            (0, 40, 0),
        ]
    ],
)
def test_period_change_in_hundredths(hundredths: int, k: int, want: int) -> None:
    assert divide_half_away(k * hundredths, 100) == want
    assert divide_half_away(k * hundredths, 100) == round_half_away(k * D(hundredths) / 100)


def _rules_sources() -> dict[str, str]:
    """The source of every module of the rules package."""
    names = ["ratings.rules"] + [
        f"ratings.rules.{m.name}" for m in pkgutil.iter_modules(rules.__path__)
    ]
    return {name: inspect.getsource(importlib.import_module(name)) for name in names}


def test_rules_never_uses_builtin_round() -> None:
    """Python's round() rounds halves to even (round(2.5) == 2); art. 8.3.4 rounds away."""
    for source in _rules_sources().values():
        names = [
            tok.string
            for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type == tokenize.NAME
        ]
        assert "round" not in names
        assert "round(" not in source  # the CI grep over ratings/


def test_rules_imports_only_the_standard_library() -> None:
    """The layer rule: ``rules`` works in a REPL with no database (docs/DESIGN.md#layers)."""
    for name, source in _rules_sources().items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                assert module.startswith("ratings.rules") or top in sys.stdlib_module_names, (
                    f"{name} imports {module}"
                )


def test_rounding_is_once_per_period() -> None:
    """Two +0.4 games give +1 (0.8 rounded once), not 0 + 0 (art. 8.3.4)."""
    lines, entry = one_player([(2700, 2200, D(1)), (2700, 2200, D(1))], k=10, day=AFTER)
    assert [line.k_dr for line in lines] == [D("0.4"), D("0.4")]
    assert entry.change == 1


# --------------------------------------------------------------------------------------------
# K-factor and the 700 rule (art. 8.3.3)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "want"),
    [
        pytest.param(k, n, want, id=f"8.3.3-K{k}-n{n}")
        for k, n, want in [
            (40, 18, 38),
            (40, 17, 40),
            (20, 35, 20),
            (20, 36, 19),
            (20, 39, 17),
            (10, 71, 9),
            (10, 70, 10),
            (40, 0, 40),
        ]
    ],
)
def test_700_rule(k: int, n: int, want: int) -> None:
    assert apply_700_rule(k, n) == want


def test_700_rule_inside_rate_period() -> None:
    games = [(2000, 2000, D("0.5"))] * 18
    lines, entry = one_player(games, k=40, day=AFTER)
    assert entry.k_used == 38
    assert {line.k_used for line in lines} == {38}
    _, elo = one_player(games, k=40, day=AFTER, system="elo")  # one fixed K, no 700 rule
    assert elo.k_used == 40


BORN_2008 = PlayerState(rating=1800, games_played=100, birth_year=2008)


@pytest.mark.parametrize(
    ("state", "list_date", "want"),
    [
        pytest.param(BORN_2008, date(2026, 12, 1), 40, id="8.3.3-junior-last-list-of-year-18"),
        pytest.param(BORN_2008, date(2027, 1, 1), 20, id="8.3.3-junior-ends-year-19"),
        pytest.param(
            PlayerState(2350, 100, 2010, reached_2300=True),
            date(2025, 1, 1),
            20,
            id="8.3.3-junior-reached-2300",
        ),
        pytest.param(
            PlayerState(2290, 100, 2010, reached_2300=False),
            date(2025, 1, 1),
            40,
            id="8.3.3-junior-below-2300",
        ),
        pytest.param(
            PlayerState(2310, 100, 2010), date(2025, 1, 1), 20, id="8.3.3-junior-rated-2300-now"
        ),
        pytest.param(
            PlayerState(2350, 5, 2010, k10=True), date(2025, 1, 1), 10, id="8.3.3-k10-over-junior"
        ),
        pytest.param(
            PlayerState(2380, 500, 1980, k10=True, reached_2300=True),
            date(2025, 1, 1),
            10,
            id="8.3.3-k10-permanent-after-drop",
        ),
        pytest.param(PlayerState(2400, 500, 1980), date(2025, 1, 1), 10, id="8.3.3-2400-now"),
        pytest.param(PlayerState(1800, 29, 1980), date(2025, 1, 1), 40, id="8.3.3-29-games"),
        pytest.param(PlayerState(1800, 30, 1980), date(2025, 1, 1), 20, id="8.3.3-30-games"),
        pytest.param(PlayerState(None, 0, None), date(2025, 1, 1), 40, id="8.3.3-unrated-new"),
        pytest.param(PlayerState(1800, 30, None), date(2025, 1, 1), 20, id="8.3.3-no-birth-year"),
    ],
)
def test_k_factor(state: PlayerState, list_date: date, want: int) -> None:
    assert k_factor(state, list_date) == want


def test_flags_after_are_permanent() -> None:
    assert flags_after(False, False, 2400) == (True, True)
    assert flags_after(False, False, 2300) == (False, True)
    assert flags_after(False, False, 2299) == (False, False)
    assert flags_after(True, True, 2100) == (True, True)
    flags = flags_after(False, True, None)
    assert (flags.k10, flags.reached_2300) == (False, True)
    # a 2400 player who drops keeps K 10 on the next list
    after_drop = PlayerState(2390, 300, 1990, *flags_after(False, False, 2405))
    assert k_factor(after_drop, date(2026, 1, 1)) == 10


# --------------------------------------------------------------------------------------------
# Initial ratings (art. 8.2, 7.1.4) and performance (table 8.1.1)
# --------------------------------------------------------------------------------------------

SPEC_POOL = [(1902, D("0.5")), (1877, D("0.5")), (1884, D(1)), (2012, D(0)), (1832, D(1))]


def test_initial_rating_spec_example() -> None:
    assert initial_rating(SPEC_POOL) == InitialRating(
        ra=D("1872.43"), p=57, dp=50, rating=1922, published=True
    )


def test_initial_rating_needs_five_games() -> None:
    assert initial_rating(SPEC_POOL[:4]) is None
    assert rules.INITIAL_MIN_GAMES == 5
    assert rules.INITIAL_POOL_MONTHS == 26


def test_initial_rating_capped_at_2200() -> None:
    got = initial_rating([(2500, D(1))] * 9)
    assert got is not None
    assert (got.p, got.dp, got.rating, got.published) == (91, 383, 2200, True)


def test_initial_rating_below_floor_not_published() -> None:
    got = initial_rating([(1400, D(0))] * 5)
    assert got is not None
    # Ra = (7000 + 3600) / 7 = 1514.29; p = 1/7 = 14% -> -309; Ru = 1205
    assert (got.ra, got.p, got.dp, got.rating, got.published) == (
        D("1514.29"),
        14,
        -309,
        1205,
        False,
    )


def test_drop_zero_first_event() -> None:
    first = [(1900, D(0)), (1950, D(0))]
    later = [SPEC_POOL[:3], SPEC_POOL[3:]]
    assert drop_zero_first_event([first, *later]) == SPEC_POOL
    scored = [(1900, D("0.5"))]
    assert drop_zero_first_event([scored, *later]) == scored + SPEC_POOL
    assert drop_zero_first_event([]) == []


@pytest.mark.parametrize(
    ("opponents", "score", "want"),
    [
        pytest.param([1500], "1", 2300, id="8.1.1-one-win"),
        pytest.param([1500], "0", 700, id="8.1.1-one-loss"),
        pytest.param([1500, 1700], "1", 1600, id="8.1.1-win-loss"),
        pytest.param([1500, 1500], "1.5", 1693, id="8.1.1-win-draw"),
        pytest.param([1500, 1501], "1", 1501, id="8.1.1-ra-rounded-half-up"),
    ],
)
def test_performance_fide(opponents: list[int], score: str, want: int) -> None:
    assert performance_fide(opponents, D(score)) == want


def test_performance_own_and_400() -> None:
    assert performance_own(1720, [1500, 1500], D("1.5")) == 1720 + 193
    assert performance_400([1500, 1500], D("1.5")) == 1700
    assert performance_400([1500], 0) == 1100
    assert performance_400([1500, 1501, 1501], D(2)) == 1634  # 4502/3 + 133.33 = 1634.0
    assert performance_400([1500, 1501], D("0.5")) == 1301  # 1500.5 - 200 = 1300.5 -> 1301


def test_dp_table() -> None:
    assert dp(0) == -800
    assert dp(50) == 0
    assert dp(57) == 50
    assert dp(75) == 193
    assert dp(100) == 800
    assert all(dp(p) == -dp(100 - p) for p in range(101))
    assert all(dp(p) < dp(p + 1) for p in range(100))


# --------------------------------------------------------------------------------------------
# Systems (docs/RULES.md#rating-systems)
# --------------------------------------------------------------------------------------------


def test_system_defaults() -> None:
    fide = system_config("fide")
    assert (fide.k, fide.start_rating, fide.expected, fide.period_months) == (
        None,
        None,
        ExpectedMethod.TABLE,
        1,
    )
    assert (fide.uses_cap, fide.uses_floor, fide.uses_initial_ratings) == (True, True, True)
    club = system_config(System.CLUB)
    assert (club.k, club.start_rating, club.expected) == (None, 1200, ExpectedMethod.TABLE)
    assert (club.uses_cap, club.uses_floor, club.uses_initial_ratings) == (True, False, False)
    elo = system_config("elo")
    assert (elo.k, elo.start_rating, elo.expected) == (32, 1500, ExpectedMethod.CURVE)
    assert (elo.uses_cap, elo.uses_floor, elo.uses_initial_ratings) == (False, False, False)
    assert elo.rule_set(AFTER) is UNCAPPED
    assert fide.rule_set(AFTER) is EDITION_2025
    assert elo.k_for(BORN_2008, date(2026, 1, 1)) == 32
    assert fide.k_for(BORN_2008, date(2026, 1, 1)) == 40


def test_system_overrides() -> None:
    cfg = system_config("club", k=24, start_rating=1000, expected="curve", period_months=3)
    assert (cfg.k, cfg.start_rating, cfg.expected, cfg.period_months) == (
        24,
        1000,
        ExpectedMethod.CURVE,
        3,
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"system": "uscf"}, UnknownSystemError, "unknown rating system (use fide, club or elo): "),
        ({"system": "fide", "start_rating": 1200}, UnknownSystemError, "not allowed: 1200"),
        ({"system": "club", "k": 0}, InvalidKFactorError, "k must be an integer from 1 to 100: 0"),
        ({"system": "elo", "k": 101}, InvalidKFactorError, "from 1 to 100: 101"),
        ({"system": "club", "start_rating": 3001}, InvalidRatingError, "0 to 3000: 3001"),
        ({"system": "elo", "start_rating": -1}, InvalidRatingError, "0 to 3000: -1"),
        ({"system": "fide", "expected": "logistic"}, UnknownMethodError, "'logistic'"),
        ({"system": "fide", "period_months": 5}, InvalidPeriodError, "12: 5"),
    ],
)
def test_system_config_rejects(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as info:
        system_config(**kwargs)  # type: ignore[arg-type]
    assert message in str(info.value)
    assert str(info.value) == str(info.value).lower()


# --------------------------------------------------------------------------------------------
# Periods (docs/RULES.md#rating-periods)
# --------------------------------------------------------------------------------------------


def test_period_monthly() -> None:
    p = Period.from_string("2025-12")
    assert (p.start, p.end, p.list_date, p.label) == (
        date(2025, 12, 1),
        date(2025, 12, 31),
        date(2026, 1, 1),
        "2025-12",
    )
    assert p.next() == Period(date(2026, 1, 1))
    assert p.previous().label == "2025-11"
    assert Period.from_string("2024-02").end == date(2024, 2, 29)
    assert str(p) == "2025-12"
    assert p.contains(date(2025, 12, 31))
    assert not p.contains(date(2026, 1, 1))


def test_period_longer() -> None:
    q = Period.from_string("2025-04", 3)
    assert (q.end, q.list_date, q.next().label, q.previous().label) == (
        date(2025, 6, 30),
        date(2025, 7, 1),
        "2025-07",
        "2025-01",
    )
    assert Period.containing(date(2025, 12, 31), 12) == Period(date(2025, 1, 1), 12)
    assert Period.containing(date(2025, 8, 15), 6).label == "2025-07"
    assert Period.containing(date(2025, 8, 15), 4).label == "2025-05"
    assert Period.from_string("2025-01", 12).previous().label == "2024-01"
    assert sorted([q.next(), q, q.previous()]) == [q.previous(), q, q.next()]


@pytest.mark.parametrize(
    ("label", "months", "message"),
    [
        ("2025-02", 3, "not the first month of a 3-month period (periods start in months 01, "
         "04, 07, 10): '2025-02'"),
        ("2025-13", 1, "period must be written yyyy-mm: '2025-13'"),
        ("2025-1", 1, "period must be written yyyy-mm: '2025-1'"),
        ("25-01", 1, "'25-01'"),
        ("\u0662\u0660\u0662\u0666-01", 1, "period must be written yyyy-mm"),  # Arabic-Indic
        ("2025-01", 5, "period months must be one of 1, 2, 3, 4, 6, 12: 5"),
    ],
)  # fmt: skip
def test_period_rejects(label: str, months: int, message: str) -> None:
    with pytest.raises(InvalidPeriodError) as info:
        Period.from_string(label, months)
    assert message in str(info.value)


def test_period_rejects_unaligned_start() -> None:
    with pytest.raises(InvalidPeriodError, match="'2025-02-01'"):
        Period(date(2025, 2, 1), 12)
    with pytest.raises(InvalidPeriodError, match="'2025-01-15'"):
        Period(date(2025, 1, 15))


# --------------------------------------------------------------------------------------------
# Scores and bad input
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [("1", "1"), ("0.5", "0.5"), ("1/2", "0.5"), ("=", "0.5"), ("½", "0.5"), ("0", "0"),
     ("1-0", "1"), ("0-1", "0"), ("1/2-1/2", "0.5"), ("½-½", "0.5")],  # one set of result words
)  # fmt: skip
def test_parse_score(text: str, want: str) -> None:
    assert parse_score(text) == D(want)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: parse_score("+/-"), InvalidResultError, "1/2-1/2, 0-1): '+/-'"),
        (lambda: parse_score("2"), InvalidResultError, "'2'"),
        (lambda: expected(-5, 2000, EDITION_2009), InvalidRatingError,
         "rating must be a non-negative integer: -5"),
        # a float and a text below on purpose: the checks under test refuse them at run time
        (lambda: expected(2000, 1999.0, EDITION_2009), InvalidRatingError,  # type: ignore[arg-type]
         "opponent rating must be a non-negative integer: 1999.0"),
        (lambda: expected(True, 2000, EDITION_2009), InvalidRatingError, "integer: True"),
        (lambda: table_expectation("2000", 2000, EDITION_2009), InvalidRatingError, "'2000'"),  # type: ignore[arg-type]
        (lambda: expected(2000, 2000, EDITION_2009, "elo"), UnknownMethodError,
         "unknown expected-score method (use table or curve): 'elo'"),
        (lambda: system_config("club", expected="glicko"), UnknownMethodError, "'glicko'"),
        (lambda: rate_game(2000, 2000, 4, k=20, event_start=BEFORE), InvalidResultError,
         "half points must be 2, 1 or 0: 4"),
        (lambda: rate_game(2000, -1, 2, k=20, event_start=BEFORE), InvalidRatingError,
         "rating must be"),
        (lambda: Standing(2000, -3), InvalidGameCountError,
         "total games must be a non-negative integer: -3"),
        (lambda: performance_fide([1500], D(2)), InvalidScoreError,
         "score must be a multiple of 0.5 from 0 to 1: Decimal('2')"),
        (lambda: performance_fide([1500, 1600], D(-1)), InvalidScoreError, "-1"),
        (lambda: performance_own(1500, [1500], D("0.3")), InvalidScoreError, "0.3"),
        (lambda: performance_400([], D(0)), InvalidScoreError,
         "a performance needs at least one opponent: []"),
        (lambda: performance_fide([1500, -3], D(1)), InvalidRatingError, "-3"),
        (lambda: dp(101), InvalidScoreError, "percentage must be an integer from 0 to 100: 101"),
        (lambda: apply_700_rule(0, 5), InvalidKFactorError, "k must be"),
        (lambda: apply_700_rule(20, -1), InvalidGameCountError, "-1"),
        (lambda: rate_game(2000, 2000, 2, k=0, event_start=BEFORE), InvalidKFactorError, ": 0"),
        (lambda: PlayerState(1800, -2, None), InvalidGameCountError,
         "games played must be a non-negative integer: -2"),
        (lambda: initial_rating([(1800, D(3))] * 5), InvalidResultError, "Decimal('3')"),
        (lambda: round_half_away(D("NaN")), InvalidScoreError, "Decimal('NaN')"),
    ],
)  # fmt: skip
def test_bad_input(call: object, error: type[RulesError], message: str) -> None:
    with pytest.raises(error) as info:
        call()  # type: ignore[operator]
    assert isinstance(info.value, RulesError)
    assert isinstance(info.value, ValueError)
    assert message in str(info.value)
    assert str(info.value)[:1].islower() or str(info.value)[:1] in "'\"("


# --------------------------------------------------------------------------------------------
# Hypothesis properties, each scoped to the edition where it holds
# --------------------------------------------------------------------------------------------

editions = st.sampled_from(RULE_SETS)
ratings_ = st.integers(min_value=1000, max_value=3000)
scores = st.sampled_from([D(0), D("0.5"), D(1)])
methods = st.sampled_from(list(ExpectedMethod))


@PROPERTY
@given(edition=editions, own=ratings_, opp=ratings_, method=methods, score=scores)
def test_complementary_when_cap_treats_both_alike(
    edition: rules.RuleSet, own: int, opp: int, method: ExpectedMethod, score: Decimal
) -> None:
    """PD(D) + PD(-D) = 1 and the game is zero-sum, only when both players are capped alike:
    always before Oct 2025, only for pairs both below 2650 (or both above) after it."""
    assume(edition.caps(own) == edition.caps(opp))
    mine = expected(own, opp, edition, method)
    theirs = expected(opp, own, edition, method)
    assert mine.expected + theirs.expected == 1
    assert mine.difference == -theirs.difference
    day = edition.effective_from
    a, _ = rate_game(own, opp, int(score * 2), k=20, event_start=day, method=method)
    b, _ = rate_game(opp, own, 2 - int(score * 2), k=20, event_start=day, method=method)
    assert a.k_dr is not None
    assert b.k_dr is not None
    assert a.k_dr + b.k_dr == 0


@PROPERTY
@given(edition=editions, own=ratings_, opp=ratings_, method=methods)
def test_beyond_400_scores_like_400_where_capped(
    edition: rules.RuleSet, own: int, opp: int, method: ExpectedMethod
) -> None:
    assume(edition.caps(own))
    assume(abs(own - opp) > 400)
    sign = 1 if own > opp else -1
    got = expected(own, opp, edition, method)
    like = expected(own, own - sign * 400, edition, method)
    assert got == like
    assert got.difference == sign * 400


@PROPERTY
@given(
    edition=editions,
    games=st.lists(st.tuples(ratings_, ratings_, scores), min_size=1, max_size=12),
    k=st.sampled_from([10, 20, 40]),
    method=methods,
)
def test_change_sign_follows_score_minus_expected(
    edition: rules.RuleSet,
    games: list[tuple[int, int, Decimal]],
    k: int,
    method: ExpectedMethod,
) -> None:
    lines, entry = one_player(games, k=k, day=edition.effective_from, method=method)
    diff = sum((s for _, _, s in games), D(0)) - sum((line.pd or 0 for line in lines), D(0))
    exact = sum((line.k_dr or 0 for line in lines), D(0))
    assert (exact > 0) == (diff > 0)
    assert (exact < 0) == (diff < 0)
    assert entry.change == 0 or (entry.change > 0) == (diff > 0)
    assert exact == k * diff
    assert entry.change == round_half_away(exact)


@PROPERTY
@given(
    edition=editions,
    games=st.lists(st.tuples(ratings_, ratings_, scores), min_size=1, max_size=12),
    index=st.integers(min_value=0),
    method=methods,
)
def test_change_monotonic_in_score(
    edition: rules.RuleSet,
    games: list[tuple[int, int, Decimal]],
    index: int,
    method: ExpectedMethod,
) -> None:
    i = index % len(games)
    assume(games[i][2] < 1)
    better = list(games)
    better[i] = (games[i][0], games[i][1], games[i][2] + D("0.5"))

    def rate(gs: list[tuple[int, int, Decimal]]) -> tuple[Decimal, int]:
        lines, entry = one_player(gs, k=20, day=edition.effective_from, method=method)
        return sum((line.k_dr or D(0) for line in lines), D(0)), entry.change

    assert rate(better)[0] > rate(games)[0]
    assert rate(better)[1] >= rate(games)[1]


@PROPERTY
@given(edition=st.sampled_from([*RULE_SETS, UNCAPPED]), own=ratings_, opp=ratings_)
def test_fast_paths_match_expected(edition: rules.RuleSet, own: int, opp: int) -> None:
    d, pd = table_expectation(own, opp, edition)
    slow = expected(own, opp, edition)
    assert (d, D(pd) / 100) == (slow.difference, slow.expected)
    d, units = curve_expectation(own, opp, edition)
    slow = expected(own, opp, edition, ExpectedMethod.CURVE)
    assert (d, D(units).scaleb(-rules.CURVE_PLACES)) == (slow.difference, slow.expected)
    assert capped_difference(own, opp, edition) == d


@PROPERTY
@given(halves=st.integers(min_value=-400, max_value=400), k=st.integers(1, 100))
def test_period_change_in_integers_matches_decimal(halves: int, k: int) -> None:
    assert divide_half_away(k * halves, 100) == round_half_away(k * D(halves) / 100)
