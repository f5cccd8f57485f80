"""Pure FIDE rating arithmetic (FIDE Rating Regulations, standard chess).

Everything here is a function of its arguments: no database, no I/O, no clock, no randomness.
"Today" and "the current period" are parameters. Rule editions are data (:data:`RULE_SETS`),
looked up by the event's start date with :func:`rules_for`.

Articles cited (2024/2025 regulations): 7.1.4 (initial ratings pooled over 26 months), 8.1.1
(table p -> dp), 8.1.2 (table D -> PD), 8.2 (first rating Ru), 8.3.1 (the 400-point rule),
8.3.3 (the K-factor and the 700 rule), 8.3.4 (rounding of the rating change).

Exactness: the table method works in integer hundredths (or :class:`~decimal.Decimal`), never in
binary floats, and every rounding is named (half away from zero); Python's built-in rounding
function rounds halves to even and is never used.
"""

from __future__ import annotations

import enum
import functools
import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from typing import NamedTuple

__all__ = [
    "CURVE_PLACES",
    "INITIAL_MAX",
    "INITIAL_MIN_GAMES",
    "INITIAL_POOL_MONTHS",
    "JUNIOR_MARK",
    "JUNIOR_MAX_AGE",
    "K10_MARK",
    "K_MAX",
    "K_PRODUCT_LIMIT",
    "NEW_PLAYER_GAMES",
    "PERIOD_MONTHS",
    "RATING_FLOOR",
    "RULE_SETS",
    "START_RATING_MAX",
    "TABLE_MAX_DIFFERENCE",
    "UNCAPPED",
    "CapRule",
    "Expectation",
    "ExpectedMethod",
    "Flags",
    "GameBreakdown",
    "GameScore",
    "InitialRating",
    "InvalidGameCountError",
    "InvalidKFactorError",
    "InvalidPeriodError",
    "InvalidRatingError",
    "InvalidResultError",
    "InvalidScoreError",
    "Period",
    "PeriodChange",
    "PlayerState",
    "RuleSet",
    "RulesError",
    "System",
    "SystemConfig",
    "UnknownMethodError",
    "UnknownSystemError",
    "apply_700_rule",
    "capped_difference",
    "curve_expectation",
    "curve_expected",
    "divide_half_away",
    "dp",
    "drop_zero_first_event",
    "expected",
    "flags_after",
    "initial_rating",
    "k_factor",
    "parse_score",
    "performance_400",
    "performance_fide",
    "performance_own",
    "period_change_hundredths",
    "rate_period",
    "round_half_away",
    "rules_for",
    "system_config",
    "table_expectation",
    "table_pd",
]


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class RulesError(ValueError):
    """Bad input to the rating arithmetic; the message is lowercase and names the bad value."""


class InvalidRatingError(RulesError):
    """A rating is not a non-negative integer, or is out of the allowed range."""


class InvalidScoreError(RulesError):
    """A score is not a multiple of 0.5 within 0 .. number of games (or a bad percentage)."""


class InvalidResultError(RulesError):
    """A single game's result is not 1, 0.5 (1/2, =, ½) or 0."""


class UnknownMethodError(RulesError):
    """An expected-score or performance method name is unknown."""


class UnknownSystemError(RulesError):
    """A rating system name is unknown, or a setting does not fit the system."""


class InvalidPeriodError(RulesError):
    """A rating period label, length or date is not acceptable."""


class InvalidKFactorError(RulesError):
    """A K-factor is not an integer from 1 to 100."""


class InvalidGameCountError(RulesError):
    """A number of games is not a non-negative integer."""


# --------------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------------

RATING_FLOOR = 1400
"""Lowest published rating (art. 7.1.4, 8.2): a lower first rating is not published."""
INITIAL_MIN_GAMES = 5
"""Games against rated opponents needed for a first rating (art. 7.1.4)."""
INITIAL_MAX = 2200
"""Highest first rating (art. 8.2)."""
INITIAL_POOL_MONTHS = 26
"""The games for a first rating are pooled over at most 26 months (art. 7.1.4)."""
K10_MARK = 2400
"""A published rating at or above this makes K = 10 for good (art. 8.3.3)."""
JUNIOR_MARK = 2300
"""A junior whose published rating reached this loses the junior K = 40 (art. 8.3.3)."""
JUNIOR_MAX_AGE = 18
"""Juniors keep K = 40 until the end of the year of their 18th birthday (art. 8.3.3)."""
NEW_PLAYER_GAMES = 30
"""Players with fewer rated games than this have K = 40 (art. 8.3.3)."""
K_PRODUCT_LIMIT = 700
"""The 700 rule: K x games in a period may not exceed 700 (art. 8.3.3)."""
K_MAX = 100
"""Largest K accepted anywhere (FIDE's largest is 40; club overrides may go higher)."""
TABLE_MAX_DIFFERENCE = 735
"""Largest difference with its own row in table 8.1.2; above it PD is 1.00 / 0.00."""
CURVE_PLACES = 4
"""Decimal places kept for curve expected scores (so that period sums are exact decimals)."""
PERIOD_MONTHS = (1, 2, 3, 4, 6, 12)
"""Allowed lengths of a rating period in months (they divide a year, so January starts one)."""

_CURVE_ONE: int = 10**CURVE_PLACES
_ONE = Decimal(1)
_HALF = Decimal("0.5")
_ZERO = Decimal(0)
_SCORES: dict[Decimal | int, Decimal] = {_ZERO: _ZERO, _HALF: _HALF, _ONE: _ONE}  # canonical


# --------------------------------------------------------------------------------------------
# Rounding and validation helpers
# --------------------------------------------------------------------------------------------


def round_half_away(x: Decimal | int) -> int:
    """Round to a whole number, halves away from zero (art. 8.3.4): -2.5 -> -3, 2.5 -> 3.

    ``Decimal.quantize`` with ``ROUND_HALF_UP`` rounds halves away from zero for negative
    numbers too. Python's built-in rounding function rounds halves to even: wrong here.
    """
    if isinstance(x, int):
        return x
    if not isinstance(x, Decimal) or not x.is_finite():
        raise InvalidScoreError(f"value to round must be a finite decimal: {x!r}")
    return int(x.quantize(_ONE, rounding=ROUND_HALF_UP))


def divide_half_away(num: int, den: int) -> int:
    """``num / den`` rounded to an integer, halves away from zero, in integer arithmetic
    (art. 8.3.4: the period change is rounded once, -2.50 -> -3, +92.48 -> +92)."""
    sign = -1 if (num < 0) != (den < 0) else 1
    num, den = abs(num), abs(den)
    return sign * ((2 * num + den) // (2 * den))


_div_half_away = divide_half_away


def _check_rating(value: object, what: str = "rating") -> int:
    """Return ``value`` if it is a non-negative int (not a bool), else raise."""
    if type(value) is not int or value < 0:
        raise InvalidRatingError(f"{what} must be a non-negative integer: {value!r}")
    return value


def _check_k(k: object) -> int:
    """Return ``k`` if it is an int from 1 to :data:`K_MAX`, else raise."""
    if type(k) is not int or not 1 <= k <= K_MAX:
        raise InvalidKFactorError(f"k must be an integer from 1 to {K_MAX}: {k!r}")
    return k


def _check_count(n: object, what: str = "number of games") -> int:
    """Return ``n`` if it is a non-negative int, else raise."""
    if type(n) is not int or n < 0:
        raise InvalidGameCountError(f"{what} must be a non-negative integer: {n!r}")
    return n


def _check_game_score(score: object) -> Decimal:
    """Return a single game's score (1, 0.5 or 0) as a Decimal, else raise."""
    bad = InvalidResultError(f"game score must be 1, 0.5 or 0: {score!r}")
    if isinstance(score, bool) or not isinstance(score, Decimal | int):
        raise bad
    try:
        return _SCORES[score]  # 1, Decimal("1.0") -> Decimal(1)
    except (KeyError, TypeError):  # TypeError: a signalling NaN cannot be hashed
        raise bad from None


def _score_half_points(score: object, n: int) -> int:
    """A total score (multiple of 0.5, 0 .. n) as integer half points, else raise."""
    bad = InvalidScoreError(f"score must be a multiple of 0.5 from 0 to {n}: {score!r}")
    if isinstance(score, bool) or not isinstance(score, Decimal | int):
        raise bad
    try:
        doubled = Decimal(score) * 2
        if not doubled.is_finite() or doubled != doubled.to_integral_value():
            raise bad
    except InvalidOperation:
        raise bad from None
    halves = int(doubled)
    if not 0 <= halves <= 2 * n:
        raise bad
    return halves


def _check_date(day: object) -> date:
    """Return ``day`` if it is a ``date`` (and not a ``datetime``), else raise."""
    if not isinstance(day, date) or isinstance(day, datetime):
        raise InvalidPeriodError(f"date must be a datetime.date: {day!r}")
    return day


# --------------------------------------------------------------------------------------------
# Enums
# --------------------------------------------------------------------------------------------


class ExpectedMethod(enum.Enum):
    """How the expected score is found: FIDE table 8.1.2, or the logistic curve."""

    TABLE = "table"
    """FIDE table 8.1.2, two decimals (the FIDE method)."""
    CURVE = "curve"
    """E = 1 / (1 + 10^((R_opp - R_own)/400)), kept to :data:`CURVE_PLACES` decimals."""


class CapRule(enum.Enum):
    """Who has rating differences above the cap counted as the cap (art. 8.3.1)."""

    NONE = "none"
    """No cap (the classic Elo system)."""
    ALL = "all"
    """Every player, every game (1 Jul 2009 - 30 Sep 2025)."""
    BELOW_2650 = "below_2650"
    """Only players whose own rating is below ``RuleSet.cap_exempt_from`` (from 1 Oct 2025)."""


class System(enum.Enum):
    """The rating system a database uses (SPEC section 2)."""

    FIDE = "fide"
    """FIDE regulations throughout, with initial ratings (art. 8.2) and the 1400 floor."""
    CLUB = "club"
    """FIDE expected scores, cap and K; newcomers enter at a start rating; no floor."""
    ELO = "elo"
    """The classic curve, one fixed K, a start rating, no cap, no floor."""


def _expected_method(method: ExpectedMethod | str) -> ExpectedMethod:
    """Accept an :class:`ExpectedMethod` or its value; raise :class:`UnknownMethodError`."""
    if isinstance(method, ExpectedMethod):
        return method
    try:
        return ExpectedMethod(method)
    except ValueError:
        raise UnknownMethodError(
            f"unknown expected-score method (use table or curve): {method!r}"
        ) from None


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

    def __post_init__(self) -> None:
        if self.cap is CapRule.BELOW_2650 and self.cap_exempt_from is None:
            raise UnknownSystemError(f"rule set {self.name!r} needs cap_exempt_from")
        if type(self.cap_difference) is not int or self.cap_difference < 1:
            raise InvalidRatingError(
                f"cap difference must be a positive integer: {self.cap_difference!r}"
            )

    def caps(self, own_rating: int) -> bool:
        """True if this player's difference is capped under this edition (art. 8.3.1).

        Decided by the **own** rating of the player whose change is computed.
        """
        if self.cap is CapRule.ALL:
            return True
        if self.cap is CapRule.NONE:
            return False
        assert self.cap_exempt_from is not None  # checked in __post_init__
        return own_rating < self.cap_exempt_from


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

The 2022 - Feb 2024 "once per event" variant of the cap is not modelled: as SPEC 1.2 allows,
every game from July 2009 to September 2025 is capped.
"""

UNCAPPED = RuleSet(effective_from=date.min, name="no 400-point rule", cap=CapRule.NONE)
"""The rule set of the ``elo`` system: true differences for everyone. Not part of RULE_SETS."""

_RULE_DATES = tuple(r.effective_from for r in RULE_SETS)


def rules_for(day: date) -> RuleSet:
    """The edition of the FIDE rules in force on ``day``, the event's start date (art. 8.3.1).

    Dates before the first edition (1 July 2009) use the first edition: this module does not
    model the older rules (the 350-point cap), and a database rarely holds games that old.
    """
    index = bisect_right(_RULE_DATES, _check_date(day)) - 1
    return RULE_SETS[max(index, 0)]


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


@functools.lru_cache(maxsize=4096)
def _curve_units(absdiff: int) -> int:
    """Curve expected score of the higher rated player, in units of 10^-CURVE_PLACES."""
    # beyond 2000 points 1/(1+10^-5) already rounds to 1.0000; keeps the cache small
    if absdiff > 2000:
        return _CURVE_ONE
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
        units = _CURVE_ONE - units
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
    if rule_set.caps(own):
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
    return diff, units if diff >= 0 else _CURVE_ONE - units


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
}


def parse_score(text: str) -> Decimal:
    """Parse one game's score S for dR = S - PD (art. 8.3.4).

    Accepts ``1``, ``0.5`` (also ``1/2``, ``=``, ``½``) and ``0``.

    :raises InvalidResultError: anything else.
    """
    key = text.strip() if isinstance(text, str) else None
    if key is None or key not in _SCORE_TEXT:
        raise InvalidResultError(f"unknown result (use 1, 0.5, 1/2, = or 0): {text!r}")
    return _SCORE_TEXT[key]


# --------------------------------------------------------------------------------------------
# K-factor (art. 8.3.3)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerState:
    """What art. 8.3.3 needs to know about a player, as on the list in force at the period start."""

    rating: int | None
    """Published rating on that list, or None if unrated."""
    games_played: int
    """Rated games completed before the period (entry games and first-rating pool included)."""
    birth_year: int | None
    """Year of birth; None never makes a junior."""
    k10: bool = False
    """Permanent flag: a published rating was ever >= 2400 (or set by hand)."""
    reached_2300: bool = False
    """A published rating was ever >= 2300 (ends the junior K)."""

    def __post_init__(self) -> None:
        if self.rating is not None:
            _check_rating(self.rating)
        _check_count(self.games_played, "games played")
        if self.birth_year is not None and type(self.birth_year) is not int:
            raise InvalidRatingError(f"birth year must be an integer: {self.birth_year!r}")


def k_factor(state: PlayerState, list_date: date) -> int:
    """The K-factor of art. 8.3.3 for a player, before the 700 rule.

    ``list_date`` is the date of the list in force at the period start (the period's first day).
    Precedence: 10 if a published rating was ever >= 2400 (permanent); else 40 for a junior
    (``list_date.year - birth_year <= 18``) whose published rating never reached 2300; else 40
    with fewer than 30 rated games before the period; else 20.
    """
    _check_date(list_date)
    rating = state.rating
    if state.k10 or (rating is not None and rating >= K10_MARK):
        return 10
    reached_2300 = state.reached_2300 or (rating is not None and rating >= JUNIOR_MARK)
    if (
        state.birth_year is not None
        and list_date.year - state.birth_year <= JUNIOR_MAX_AGE
        and not reached_2300
    ):
        return 40
    if state.games_played < NEW_PLAYER_GAMES:
        return 40
    return 20


def apply_700_rule(k: int, n: int) -> int:
    """The 700 rule of art. 8.3.3: if K x n > 700, K becomes floor(700 / n).

    ``n`` is the player's number of rated games in the period.
    """
    _check_k(k)
    _check_count(n)
    if k * n > K_PRODUCT_LIMIT:
        return K_PRODUCT_LIMIT // n
    return k


class Flags(NamedTuple):
    """The permanent flags of art. 8.3.3 after a list is published."""

    k10: bool
    """A published rating was ever >= 2400."""
    reached_2300: bool
    """A published rating was ever >= 2300."""


def flags_after(k10: bool, reached_2300: bool, published_rating: int | None) -> Flags:
    """The art. 8.3.3 flags after ``published_rating`` appears on a list (None: not published).

    Flags are never cleared: K stays 10 after a drop below 2400.
    """
    if published_rating is not None:
        _check_rating(published_rating)
        k10 = k10 or published_rating >= K10_MARK
        reached_2300 = reached_2300 or published_rating >= JUNIOR_MARK
    return Flags(bool(k10), bool(reached_2300))


# --------------------------------------------------------------------------------------------
# Rating change for a period (art. 8.3.1, 8.3.3, 8.3.4)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameScore:
    """One rated game from one player's side, with the ratings it uses (art. 8.3)."""

    own_rating: int
    """The player's rating on the list in force when the event started."""
    opponent_rating: int
    """The opponent's rating on the list in force when the event started."""
    score: Decimal
    """The player's score S: 1, 0.5 or 0."""
    event_start: date
    """The event's start date; picks the rule edition (:func:`rules_for`)."""

    def __post_init__(self) -> None:
        _check_rating(self.own_rating)
        _check_rating(self.opponent_rating, "opponent rating")
        # store the score as a Decimal even when given as an int (frozen: bypass __setattr__)
        object.__setattr__(self, "score", _check_game_score(self.score))
        _check_date(self.event_start)


@dataclass(frozen=True, slots=True)
class GameBreakdown:
    """One game's line of the audit FIDE prints on its calculation pages (art. 8.3)."""

    own_rating: int
    """Own rating used."""
    opponent_rating: int
    """Opponent rating used."""
    difference: int
    """Signed difference D used, after the 400-point rule (art. 8.3.1)."""
    expected: Decimal
    """PD (table 8.1.2) or the curve value."""
    change: Decimal
    """dR = S - PD."""
    k: int
    """K used, after the 700 rule (art. 8.3.3)."""
    weighted: Decimal
    """K x dR."""
    score: Decimal
    """S: 1, 0.5 or 0."""


@dataclass(frozen=True, slots=True)
class PeriodChange:
    """A player's rating change over one period (art. 8.3.4)."""

    k: int
    """K used for every game, after the 700 rule."""
    games: tuple[GameBreakdown, ...]
    """Per-game breakdown, in the order given."""
    score: Decimal
    """Sum of S."""
    expected_sum: Decimal
    """Sum of PD."""
    change_exact: Decimal
    """K x sum(dR), unrounded."""
    change: int
    """``change_exact`` rounded once, half away from zero (art. 8.3.4)."""

    @property
    def n(self) -> int:
        """Number of rated games in the period."""
        return len(self.games)


def rate_period(
    games: Sequence[GameScore],
    *,
    k: int,
    method: ExpectedMethod | str = ExpectedMethod.TABLE,
    capped: bool = True,
    limit_700: bool = True,
) -> PeriodChange:
    """A player's rating change over one period (art. 8.3.1, 8.3.3, 8.3.4).

    ``k`` is the base K (:func:`k_factor`, or a system's fixed K); the 700 rule (art. 8.3.3) is
    applied here with n = ``len(games)`` unless ``limit_700`` is false. Each game uses the rule
    edition in force at its event's start (:func:`rules_for`) unless ``capped`` is false (the
    ``elo`` system: no 400-point rule). change = K x sum(S - PD), rounded once, half away from
    zero (art. 8.3.4).
    """
    _check_k(k)
    how = _expected_method(method)
    k_used = apply_700_rule(k, len(games)) if limit_700 else k
    rows: list[GameBreakdown] = []
    score_sum = _ZERO
    expected_sum = _ZERO
    for game in games:
        if not isinstance(game, GameScore):
            raise InvalidResultError(f"games must be GameScore objects: {game!r}")
        rule_set = rules_for(game.event_start) if capped else UNCAPPED
        exp = expected(game.own_rating, game.opponent_rating, rule_set, how)
        d_r = game.score - exp.expected
        rows.append(
            GameBreakdown(
                own_rating=game.own_rating,
                opponent_rating=game.opponent_rating,
                difference=exp.difference,
                expected=exp.expected,
                change=d_r,
                k=k_used,
                weighted=k_used * d_r,
                score=game.score,
            )
        )
        score_sum += game.score
        expected_sum += exp.expected
    change_exact = k_used * (score_sum - expected_sum)
    return PeriodChange(
        k=k_used,
        games=tuple(rows),
        score=score_sum,
        expected_sum=expected_sum,
        change_exact=change_exact,
        change=round_half_away(change_exact),
    )


def period_change_hundredths(sum_dr_hundredths: int, k: int) -> int:
    """Fast integer path of art. 8.3.4: K x sum(dR) / 100, rounded half away from zero.

    ``sum_dr_hundredths`` is sum(S - PD) in hundredths (S in hundredths: 100, 50, 0); ``k`` is
    the K already reduced by the 700 rule.
    """
    if type(sum_dr_hundredths) is not int:
        raise InvalidScoreError(f"sum of dr must be an integer: {sum_dr_hundredths!r}")
    return _div_half_away(_check_k(k) * sum_dr_hundredths, 100)


# --------------------------------------------------------------------------------------------
# Initial ratings and performance (table 8.1.1, art. 8.2, 7.1.4)
# --------------------------------------------------------------------------------------------

_TABLE_8_1_1 = (
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309,
    -296, -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29,
    -21, -14, -7, 0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133,
    141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322,
    336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip
"""Table 8.1.1: dp for p = 0 .. 100 percent."""
assert len(_TABLE_8_1_1) == 101


def dp(p_percent: int) -> int:
    """Rating difference dp for a percentage score p (table 8.1.1); p is 0 .. 100."""
    if type(p_percent) is not int or not 0 <= p_percent <= 100:
        raise InvalidScoreError(f"percentage must be an integer from 0 to 100: {p_percent!r}")
    return _TABLE_8_1_1[p_percent]


@dataclass(frozen=True, slots=True)
class InitialRating:
    """A first rating Ru (art. 8.2, 7.1.4)."""

    ra: Decimal
    """Ra = (sum of rated opponents' ratings + 2 x 1800) / (n + 2), shown to 2 decimals."""
    p: int
    """p = (W + 1) / (n + 2) as a whole percent (0.5 up)."""
    dp: int
    """dp(p) from table 8.1.1."""
    rating: int
    """Ru = Ra + dp rounded to a whole number (0.5 up), at most 2200."""
    published: bool
    """True if Ru >= 1400 (:data:`RATING_FLOOR`)."""


def _checked_pool(games: Iterable[tuple[int, Decimal]]) -> list[tuple[int, Decimal]]:
    """Validate (opponent rating, score) pairs."""
    checked: list[tuple[int, Decimal]] = []
    for game in games:
        if not isinstance(game, tuple) or len(game) != 2:
            raise InvalidResultError(f"a game must be (opponent rating, score): {game!r}")
        opp, score = game
        checked.append((_check_rating(opp, "opponent rating"), _check_game_score(score)))
    return checked


def initial_rating(games: Sequence[tuple[int, Decimal]]) -> InitialRating | None:
    """A first rating from pooled games against rated opponents (art. 8.2, 7.1.4).

    ``games`` are (opponent rating, score) pairs pooled over at most 26 months
    (:data:`INITIAL_POOL_MONTHS`), with a zero-score first event already dropped
    (:func:`drop_zero_first_event`). Two fictitious draws against 1800 are added:
    Ra = (sum + 2 x 1800) / (n + 2), p = (W + 1) / (n + 2) to a whole percent (0.5 up),
    Ru = Ra + dp(p) rounded once (0.5 up, from the exact Ra), at most 2200; published only if
    Ru >= 1400. Returns None with fewer than 5 games.
    """
    pool = _checked_pool(games)
    n = len(pool)
    if n < INITIAL_MIN_GAMES:
        return None
    total = sum(opp for opp, _ in pool) + 2 * 1800
    halves = int(sum((s for _, s in pool), _ZERO) * 2)
    p = _div_half_away(100 * (halves + 2), 2 * (n + 2))
    d = dp(p)
    ru = min(_div_half_away(total + d * (n + 2), n + 2), INITIAL_MAX)
    ra = (Decimal(total) / (n + 2)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return InitialRating(ra=ra, p=p, dp=d, rating=ru, published=ru >= RATING_FLOOR)


def drop_zero_first_event(
    events: Sequence[Sequence[tuple[int, Decimal]]],
) -> list[tuple[int, Decimal]]:
    """The pool games for :func:`initial_rating`, flattened (art. 8.2).

    ``events`` hold (opponent rating, score) pairs per event, ``events[0]`` being the player's
    first event ever. A zero score in that first event is disregarded: its games are dropped.
    """
    if not events:
        return []
    first = _checked_pool(events[0])
    rest = [game for event in events[1:] for game in _checked_pool(event)]
    if all(score == _ZERO for _, score in first):
        return rest
    return first + rest


def _performance_inputs(opponent_ratings: Sequence[int], score: Decimal | int) -> tuple[int, int]:
    """Validate; return (sum of opponent ratings, score in half points)."""
    ratings = list(opponent_ratings)
    if not ratings:
        raise InvalidScoreError(f"a performance needs at least one opponent: {ratings!r}")
    for r in ratings:
        _check_rating(r, "opponent rating")
    return sum(ratings), _score_half_points(score, len(ratings))


def performance_fide(opponent_ratings: Sequence[int], score: Decimal | int) -> int:
    """FIDE performance rating Rp = Ra + dp(p) (table 8.1.1).

    Ra is the average opponent rating rounded to a whole number (0.5 up) and p the percentage
    score rounded to a whole percent (0.5 up); 100% gives Ra + 800, 0% gives Ra - 800.
    """
    total, halves = _performance_inputs(opponent_ratings, score)
    n = len(opponent_ratings)
    ra = _div_half_away(total, n)
    return ra + dp(_div_half_away(100 * halves, 2 * n))


def performance_own(own_rating: int, opponent_ratings: Sequence[int], score: Decimal | int) -> int:
    """Performance on the player's own rating: R_own + dp(p) (table 8.1.1)."""
    _check_rating(own_rating)
    _, halves = _performance_inputs(opponent_ratings, score)
    n = len(opponent_ratings)
    return own_rating + dp(_div_half_away(100 * halves, 2 * n))


def performance_400(opponent_ratings: Sequence[int], score: Decimal | int) -> int:
    """The "algorithm of 400": Ra + 400 x (W - L) / n, rounded once, half away from zero.

    Not a FIDE article: a linear stand-in for table 8.1.1 used by tournament software (SPEC 1.8).
    Ra is the exact average here; W - L = 2 x score - n.
    """
    total, halves = _performance_inputs(opponent_ratings, score)
    n = len(opponent_ratings)
    return _div_half_away(total + 400 * (halves - n), n)


# --------------------------------------------------------------------------------------------
# Rating systems (SPEC section 2)
# --------------------------------------------------------------------------------------------

_SYSTEM_K = {System.FIDE: None, System.CLUB: None, System.ELO: 32}
_SYSTEM_START = {System.FIDE: None, System.CLUB: 1200, System.ELO: 1500}
_SYSTEM_EXPECTED = {
    System.FIDE: ExpectedMethod.TABLE,
    System.CLUB: ExpectedMethod.TABLE,
    System.ELO: ExpectedMethod.CURVE,
}
START_RATING_MAX = 3000
"""Largest start rating accepted for the club and elo systems."""


@dataclass(frozen=True, slots=True)
class SystemConfig:
    """A database's rating system and its settings (SPEC 2; art. 8.2, 8.3.1, 8.3.3).

    Build it with :func:`system_config`, which fills the defaults.
    """

    system: System
    """fide, club or elo."""
    k: int | None
    """Fixed K that replaces the K of art. 8.3.3 (elo default 32); None: the FIDE K rules."""
    start_rating: int | None
    """Rating newcomers enter at (club 1200, elo 1500); None for fide (art. 8.2 instead)."""
    expected: ExpectedMethod
    """Expected-score method (elo: curve; otherwise table 8.1.2)."""
    period_months: int = 1
    """Length of a rating period: 1, 2, 3, 4, 6 or 12 months."""

    def __post_init__(self) -> None:
        # accept the enums' values too, and store the enums (frozen: bypass __setattr__)
        object.__setattr__(self, "system", _system(self.system))
        object.__setattr__(self, "expected", _expected_method(self.expected))
        if self.k is not None:
            _check_k(self.k)
        elif self.system is System.ELO:
            raise InvalidKFactorError(f"the elo system needs a fixed k: {self.k!r}")
        if self.system is System.FIDE:
            if self.start_rating is not None:
                raise UnknownSystemError(
                    "the fide system computes initial ratings (art. 8.2); "
                    f"a start rating is not allowed: {self.start_rating!r}"
                )
        elif type(self.start_rating) is not int or not 0 <= self.start_rating <= START_RATING_MAX:
            raise InvalidRatingError(
                f"start rating must be an integer from 0 to {START_RATING_MAX}: "
                f"{self.start_rating!r}"
            )
        _check_period_months(self.period_months)

    @property
    def uses_cap(self) -> bool:
        """True if the 400-point rule (art. 8.3.1) applies: every system but elo."""
        return self.system is not System.ELO

    @property
    def uses_floor(self) -> bool:
        """True if ratings below 1400 are not published (art. 7.1.4): fide only."""
        return self.system is System.FIDE

    @property
    def uses_initial_ratings(self) -> bool:
        """True if newcomers get a first rating from pooled games (art. 8.2): fide only."""
        return self.system is System.FIDE

    @property
    def uses_700_rule(self) -> bool:
        """True if the 700 rule (art. 8.3.3) reduces K: fide and club, not elo's one fixed K."""
        return self.system is not System.ELO

    def rule_set(self, event_start: date) -> RuleSet:
        """The rule edition for a game of an event starting on ``event_start`` (art. 8.3.1)."""
        return rules_for(event_start) if self.uses_cap else UNCAPPED

    def k_for(self, state: PlayerState, list_date: date) -> int:
        """Base K for a player (art. 8.3.3, or the fixed K), before the 700 rule."""
        return self.k if self.k is not None else k_factor(state, list_date)


def _system(system: System | str) -> System:
    """Accept a :class:`System` or its value; raise :class:`UnknownSystemError`."""
    if isinstance(system, System):
        return system
    try:
        return System(system)
    except ValueError:
        raise UnknownSystemError(
            f"unknown rating system (use fide, club or elo): {system!r}"
        ) from None


def _check_period_months(months: object) -> int:
    """Return ``months`` if it is an allowed period length, else raise."""
    if type(months) is not int or months not in PERIOD_MONTHS:
        raise InvalidPeriodError(f"period months must be one of 1, 2, 3, 4, 6, 12: {months!r}")
    return months


def system_config(
    system: str | System,
    *,
    k: int | None = None,
    start_rating: int | None = None,
    expected: ExpectedMethod | str | None = None,
    period_months: int | None = None,
) -> SystemConfig:
    """A :class:`SystemConfig` with SPEC 2's defaults filled in for what is not overridden.

    fide: FIDE K rules (art. 8.3.3), initial ratings (art. 8.2), table; club: start rating 1200,
    table; elo: K 32, start rating 1500, curve. ``start_rating`` on fide is an error.

    :raises RulesError: a subclass naming the bad value.
    """
    sys_ = _system(system)
    return SystemConfig(
        system=sys_,
        k=_SYSTEM_K[sys_] if k is None else k,
        start_rating=_SYSTEM_START[sys_] if start_rating is None else start_rating,
        expected=_SYSTEM_EXPECTED[sys_] if expected is None else _expected_method(expected),
        period_months=1 if period_months is None else period_months,
    )


# --------------------------------------------------------------------------------------------
# Rating periods (SPEC 3)
# --------------------------------------------------------------------------------------------

_LABEL = re.compile(r"([0-9]{4})-([0-9]{2})")  # ASCII digits: \d matches any digit


def _add_months(day: date, months: int) -> date:
    """The first day of the month ``months`` after ``day``'s month."""
    index = day.year * 12 + day.month - 1 + months
    try:
        return date(index // 12, index % 12 + 1, 1)
    except ValueError:
        raise InvalidPeriodError(f"period out of the supported years: {day!r}") from None


@dataclass(frozen=True, slots=True, order=True)
class Period:
    """A rating period: a run of ``months`` calendar months starting on ``start`` (SPEC 3).

    Periods are aligned so that January always starts one. The period publishes the list dated
    the first day after it (:attr:`list_date`); the list in force at its start is dated
    :attr:`start`, and that list's state decides K (art. 8.3.3).
    """

    start: date
    """First day of the period (always the 1st of a month)."""
    months: int = 1
    """Length in months: 1, 2, 3, 4, 6 or 12."""

    def __post_init__(self) -> None:
        _check_period_months(self.months)
        start = _check_date(self.start)
        if start.day != 1 or (start.month - 1) % self.months:
            raise InvalidPeriodError(
                f"not the first day of a {self.months}-month period "
                f"(periods start in months {_starts(self.months)}): {start.isoformat()!r}"
            )

    @classmethod
    def from_string(cls, label: str, months: int = 1) -> Period:
        """Parse a label ``YYYY-MM``; the month must start a ``months``-month period."""
        _check_period_months(months)
        match = _LABEL.fullmatch(label.strip()) if isinstance(label, str) else None
        if match is None or not 1 <= int(match[2]) <= 12 or int(match[1]) < 1:
            raise InvalidPeriodError(f"period must be written yyyy-mm: {label!r}")
        month = int(match[2])
        if (month - 1) % months:
            raise InvalidPeriodError(
                f"not the first month of a {months}-month period "
                f"(periods start in months {_starts(months)}): {label!r}"
            )
        return cls(date(int(match[1]), month, 1), months)

    @classmethod
    def containing(cls, day: date, months: int = 1) -> Period:
        """The ``months``-month period that holds ``day``."""
        _check_date(day)
        _check_period_months(months)
        first_month = (day.month - 1) // months * months + 1
        return cls(date(day.year, first_month, 1), months)

    @property
    def label(self) -> str:
        """``YYYY-MM`` of the first month."""
        return f"{self.start.year:04d}-{self.start.month:02d}"

    @property
    def list_date(self) -> date:
        """Date of the list this period publishes: the first day after it."""
        return _add_months(self.start, self.months)

    @property
    def end(self) -> date:
        """Last day of the period."""
        return self.list_date - timedelta(days=1)

    def next(self) -> Period:
        """The period after this one."""
        return Period(self.list_date, self.months)

    def previous(self) -> Period:
        """The period before this one."""
        return Period(_add_months(self.start, -self.months), self.months)

    def contains(self, day: date) -> bool:
        """True if ``day`` falls in this period."""
        return self.start <= _check_date(day) <= self.end

    def __str__(self) -> str:
        return self.label


def _starts(months: int) -> str:
    """The start months of ``months``-month periods, e.g. ``01, 04, 07, 10``."""
    return ", ".join(f"{m:02d}" for m in range(1, 13, months))
