"""Rule editions (art. 8.3.1) and expected scores: table 8.1.2 and the logistic curve."""

from __future__ import annotations

import functools
import sys
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, localcontext

from ratings.rules.base import (
    _HALF,
    _ONE,
    _ZERO,
    CURVE_PLACES,
    CURVE_UNITS,
    TABLE_MAX_DIFFERENCE,
    CapRule,
    ExpectedMethod,
    InvalidRatingError,
    InvalidResultError,
    UnknownSystemError,
    _check_date,
    _check_rating,
    _expected_method,
)
from ratings.rules.time_control import TimeControl
from ratings.rules.time_control import time_control as _time_control

# --------------------------------------------------------------------------------------------
# Rule editions (art. 8.3.1)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One edition of the FIDE rules that matter for the arithmetic (art. 8.3.1).

    Editions are data: :data:`RULE_SETS` lists them by date and :func:`rules_for` picks the one in
    force on an event's start date. Nothing else compares dates.
    """

    effective_from: date
    """First day (event start date) the edition applies to."""
    name: str
    """Short human-readable name, e.g. for audit output."""
    cap: CapRule
    """Who has differences beyond :attr:`cap_difference` counted as the cap (art. 8.3.1)."""
    cap_difference: int = 400
    """The cap on the rating difference D (the 400-point rule)."""
    cap_exempt_from: int | None = None
    """With :attr:`CapRule.BELOW_2650`: players rated this or more use the true difference."""
    not_rated_difference: int | None = None
    """Rapid and blitz from 1 December 2024 (R&B art. 7.3.1): a game between players this
    many points apart or more is not rated when one of them is rated above
    :attr:`not_rated_above` on the relevant list. None: no such rule (standard chess)."""
    not_rated_above: int | None = None
    """See :attr:`not_rated_difference`."""
    capped_below: int = field(init=False, repr=False, compare=False)
    """Derived from :attr:`cap`: a player whose own rating is below this is capped (every
    rating under :attr:`CapRule.ALL`, none under :attr:`CapRule.NONE`); one comparison per
    game in the period engine."""

    def __post_init__(self) -> None:
        if self.cap is CapRule.BELOW_2650 and self.cap_exempt_from is None:
            raise UnknownSystemError(f"rule set {self.name!r} needs cap_exempt_from")
        if (self.not_rated_difference is None) != (self.not_rated_above is None):
            raise UnknownSystemError(
                f"rule set {self.name!r} needs both not_rated_difference and not_rated_above"
            )
        if type(self.cap_difference) is not int or self.cap_difference < 1:
            raise InvalidRatingError(
                f"cap difference must be a positive integer: {self.cap_difference!r}"
            )
        if self.cap is CapRule.ALL:
            below = sys.maxsize
        elif self.cap is CapRule.NONE:
            below = -sys.maxsize  # no rating is below it
        else:
            assert self.cap_exempt_from is not None  # checked above
            below = self.cap_exempt_from
        object.__setattr__(self, "capped_below", below)

    def caps(self, own_rating: int) -> bool:
        """True if this player's difference is capped under this edition (art. 8.3.1).

        Decided by the **own** rating of the player whose change is computed.
        """
        return own_rating < self.capped_below

    def rates(self, white: int, black: int) -> bool:
        """False for a game this edition does not rate at all: rapid and blitz from 1
        December 2024, players 600 or more apart with one of them above 2600 on the relevant
        list (R&B art. 7.3.1). Both ratings are those used for the game."""
        if self.not_rated_difference is None:
            return True
        assert self.not_rated_above is not None  # checked in __post_init__
        return not (
            abs(white - black) >= self.not_rated_difference
            and max(white, black) > self.not_rated_above
        )


RULE_SETS: tuple[RuleSet, ...] = (
    RuleSet(
        effective_from=date(2009, 7, 1),
        name="fide 2009-07, 400-point rule for every player",
        cap=CapRule.ALL,
    ),
    RuleSet(
        effective_from=date(2025, 10, 1),
        name="fide 2025-10, 400-point rule below 2650 only",
        cap=CapRule.BELOW_2650,
        cap_exempt_from=2650,
    ),
)
"""The editions, sorted by :attr:`RuleSet.effective_from` (art. 8.3.1).

The 2022 - Feb 2024 "once per event" variant of the cap is not modelled: every game from July
2009 to September 2025 is capped (docs/RULES.md#where-this-project-and-the-regulations-differ).
"""

RAPID_BLITZ_RULE_SETS: tuple[RuleSet, ...] = (
    RuleSet(
        effective_from=date(2009, 7, 1),
        name="fide rapid and blitz, 400-point rule for every player",
        cap=CapRule.ALL,
    ),
    RuleSet(
        effective_from=date(2024, 12, 1),
        name="fide rapid and blitz 2024-12, 400-point rule for every player; 600 points apart "
        "with a player above 2600 not rated",
        cap=CapRule.ALL,
        not_rated_difference=600,
        not_rated_above=2600,
    ),
)
"""The rapid and blitz editions (FIDE Rapid and Blitz Rating Regulations, art. 7.3.1), by
date. Their 400-point rule has no 2650 exemption: "A difference in rating of more than 400
points shall be counted for rating purposes as though it were a difference of 400 points."
From 1 December 2024: "Games played between players with a rating difference of 600 points or
more shall not be rated if at least one of the players is rated above 2600 on the relevant
list." Tables, K (7.3.3) and rounding (7.3.4) are those of standard chess.

Older rapid and blitz rules (before the 2024 edition) are not modelled: every game from the
first edition on is capped at 400, as for standard chess
(docs/RULES.md#the-400-point-rule-art-831)."""

UNCAPPED = RuleSet(effective_from=date.min, name="no 400-point rule", cap=CapRule.NONE)
"""The rule set of the ``elo`` system: true differences for everyone. Not part of RULE_SETS."""

_RULE_DATES = tuple(r.effective_from for r in RULE_SETS)
_RAPID_BLITZ_DATES = tuple(r.effective_from for r in RAPID_BLITZ_RULE_SETS)


def rules_for(day: date, time_control: TimeControl | str = TimeControl.STANDARD) -> RuleSet:
    """The edition of the FIDE rules in force on ``day``, the event's start date (art. 8.3.1),
    for the list of ``time_control`` (rapid and blitz: R&B art. 7.3.1).

    Dates before the first edition (1 July 2009) use the first edition: this module does not
    model the older rules (the 350-point cap), and a database rarely holds games that old.
    """
    day = _check_date(day)
    if _time_control(time_control) is TimeControl.STANDARD:
        editions, dates = RULE_SETS, _RULE_DATES
    else:
        editions, dates = RAPID_BLITZ_RULE_SETS, _RAPID_BLITZ_DATES
    index = bisect_right(dates, day) - 1
    return editions[max(index, 0)]


# --------------------------------------------------------------------------------------------
# Expected scores (table 8.1.2, art. 8.3.1)
# --------------------------------------------------------------------------------------------

_TABLE_8_1_2 = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66), (129, 67),
    (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74), (197, 75),
    (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82), (278, 83),
    (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90), (391, 91),
    (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98), (735, 99),
)  # fmt: skip
"""Table 8.1.2: (upper bound of the row of D, PD of the higher rated player in hundredths)."""


def _build_pd_table() -> tuple[int, ...]:
    """PD in hundredths for D = 0 .. 735 (table 8.1.2), indexed by D."""
    values: list[int] = []
    for upper, pd_hundredths in _TABLE_8_1_2:
        values.extend([pd_hundredths] * (upper + 1 - len(values)))
    assert len(values) == TABLE_MAX_DIFFERENCE + 1
    return tuple(values)


_PD = _build_pd_table()
_PD_DECIMAL = tuple(Decimal(h).scaleb(-2) for h in range(101))  # 0.00 .. 1.00


def table_pd(diff: int) -> int:
    """Expected score in hundredths for a rating difference ``own - opp`` (table 8.1.2).

    Any sign; no cap is applied here (see :func:`expected`). The lower rated player gets
    ``100 - PD(|D|)``; above 735 the table gives 100 / 0.
    """
    if diff >= 0:
        return _PD[diff] if diff <= TABLE_MAX_DIFFERENCE else 100
    return 100 - (_PD[-diff] if -diff <= TABLE_MAX_DIFFERENCE else 100)


def expected_units(diff: int, curve: bool) -> int:
    """The expected score of a player whose difference used (after art. 8.3.1) is ``diff``,
    in the method's exact units: table 8.1.2 in hundredths, or the curve in units of
    10^-:data:`CURVE_PLACES` (the one rule the period engine and :func:`expected` follow)."""
    return expected_units_by(curve)(diff)


def expected_units_by(curve: bool) -> Callable[[int], int]:
    """:func:`expected_units` for one method, chosen once (the period engine's per-game call)."""
    return _curve_pd_units if curve else table_pd


def _curve_pd_units(diff: int) -> int:
    """The curve's expected score for ``own - opp`` = ``diff`` in 10^-CURVE_PLACES units."""
    return _curve_units(diff) if diff >= 0 else CURVE_UNITS - _curve_units(-diff)


@functools.lru_cache(maxsize=4096)
def _curve_units(absdiff: int) -> int:
    """Curve expected score of the higher rated player, in units of 10^-CURVE_PLACES."""
    # beyond 4000 points 1/(1+10^-10) already rounds to 1 at nine places; keeps the cache small
    if absdiff > 4000:
        return CURVE_UNITS
    with localcontext() as ctx:
        ctx.prec = 28
        power = Decimal(10) ** (Decimal(-absdiff) / 400)
        value = _ONE / (_ONE + power)
        return int(value.scaleb(CURVE_PLACES).quantize(_ONE, rounding=ROUND_HALF_UP))


def curve_expected(diff: int) -> Decimal:
    """Curve expected score for ``own - opp`` = ``diff``, to :data:`CURVE_PLACES` decimals.

    E = 1 / (1 + 10^(-diff/400)), the logistic curve behind table 8.1.2. The lower rated player
    gets exactly 1 - E of the higher (computed from |diff|, then complemented), so the two
    values of a game always sum to 1. No cap here.
    """
    if type(diff) is not int:
        raise InvalidRatingError(f"rating difference must be an integer: {diff!r}")
    units = _curve_units(abs(diff))
    if diff < 0:
        units = CURVE_UNITS - units
    return Decimal(units).scaleb(-CURVE_PLACES)


@dataclass(frozen=True, slots=True)
class Expectation:
    """A player's expected score in one game (table 8.1.2 or the curve, after art. 8.3.1)."""

    difference: int
    """Signed ``own - opp`` difference actually used, after the cap for this player."""
    expected: Decimal
    """Expected score: 2 decimals for the table, :data:`CURVE_PLACES` for the curve."""


def _capped_difference(own: int, opp: int, rule_set: RuleSet) -> int:
    """``own - opp``, limited to +-cap if this player is capped under ``rule_set`` (8.3.1)."""
    diff = own - opp
    if own < rule_set.capped_below:  # RuleSet.caps, without a call per game
        cap = rule_set.cap_difference
        if diff > cap:
            return cap
        if diff < -cap:
            return -cap
    return diff


def expected(
    own: int,
    opp: int,
    rule_set: RuleSet,
    method: ExpectedMethod | str = ExpectedMethod.TABLE,
) -> Expectation:
    """Expected score of the player rated ``own`` against ``opp`` (table 8.1.2, art. 8.3.1).

    The 400-point rule of ``rule_set`` is applied first, judged by ``own`` (from 1 Oct 2025 a
    player rated 2650+ uses the true difference); then PD comes from table 8.1.2, or from the
    curve when ``method`` is ``curve`` (the cap still applies to the curve; pass
    :data:`UNCAPPED` for the classic Elo system).

    :raises InvalidRatingError: a rating is not a non-negative integer.
    :raises UnknownMethodError: ``method`` is not table or curve.
    """
    _check_rating(own)
    _check_rating(opp, "opponent rating")
    how = _expected_method(method)
    diff = _capped_difference(own, opp, rule_set)
    if how is ExpectedMethod.TABLE:
        return Expectation(diff, _PD_DECIMAL[table_pd(diff)])
    return Expectation(diff, curve_expected(diff))


def capped_difference(own: int, opp: int, rule_set: RuleSet) -> int:
    """The signed difference D = own - opp a player uses after the 400-point rule (art. 8.3.1).

    Judged by ``own``: under the 2025 edition a player rated 2650+ keeps the true difference.
    """
    if type(own) is not int or own < 0:
        _check_rating(own)
    if type(opp) is not int or opp < 0:
        _check_rating(opp, "opponent rating")
    return _capped_difference(own, opp, rule_set)


def table_expectation(own: int, opp: int, rule_set: RuleSet) -> tuple[int, int]:
    """Fast integer path: ``(difference used, PD in hundredths)`` (table 8.1.2, art. 8.3.1).

    The same numbers as :func:`expected` with the table method, without building objects.
    """
    diff = capped_difference(own, opp, rule_set)
    return diff, table_pd(diff)


def curve_expectation(own: int, opp: int, rule_set: RuleSet) -> tuple[int, int]:
    """Fast integer path for the curve: ``(difference used, E in 10^-4 units)`` (art. 8.3.1).

    The same numbers as :func:`expected` with the curve method (E = units / 10**CURVE_PLACES);
    pass :data:`UNCAPPED` for the elo system.
    """
    diff = capped_difference(own, opp, rule_set)
    units = _curve_units(diff if diff >= 0 else -diff)
    return diff, units if diff >= 0 else CURVE_UNITS - units


# --------------------------------------------------------------------------------------------
# Scores
# --------------------------------------------------------------------------------------------

_SCORE_TEXT = {
    "1": _ONE,
    "1.0": _ONE,
    "0": _ZERO,
    "0.0": _ZERO,
    "0.5": _HALF,
    ".5": _HALF,
    "1/2": _HALF,
    "=": _HALF,
    "½": _HALF,
    # a game's result as every other command takes it, the first player's side first
    "1-0": _ONE,
    "0-1": _ZERO,
    "1/2-1/2": _HALF,
    "½-½": _HALF,
}


def parse_score(text: str) -> Decimal:
    """Parse one game's score S for dR = S - PD (art. 8.3.4).

    Accepts ``1``, ``0.5`` (also ``1/2``, ``=``, ``½``) and ``0``, and a game's result
    seen from the player whose score it is (``1-0``, ``1/2-1/2`` or ``½-½``, ``0-1``). A
    forfeit (``+/-``) is no score: forfeits are not rated (docs/RULES.md#what-is-rated).

    :raises InvalidResultError: anything else.
    """
    key = text.strip().replace(" ", "") if isinstance(text, str) else None
    if key is None or key not in _SCORE_TEXT:
        raise InvalidResultError(
            f"unknown result (use 1, 0.5, 1/2, = or 0, or 1-0, 1/2-1/2, 0-1): {text!r}"
        )
    return _SCORE_TEXT[key]
