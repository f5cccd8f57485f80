"""Errors, constants, exact rounding and input checks, and the enums of the rating rules."""

from __future__ import annotations

import enum
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TypeVar

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
"""Lowest published rating (art. 7.1.4, 8.2) under today's edition (from 1 March 2024; 1000
before): :data:`ratings.rules.LIST_RULES` dates it."""
INITIAL_MIN_GAMES = 5
"""Games against rated opponents needed for a first rating (art. 7.1.4)."""
INITIAL_MAX = 2200
"""Highest first rating (art. 8.2.3) under today's edition (from 1 March 2024; no maximum
before): :data:`ratings.rules.LIST_RULES` dates it."""
INITIAL_POOL_MONTHS = 26
"""The games for a first rating are pooled over at most 26 months (art. 7.1.4)."""
INACTIVE_MONTHS = 12
"""A rated player with no rated game in this many months up to a list is inactive on it
(FIDE's ``i`` flag, art. 7.2.2)."""
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
CURVE_PLACES = 9
"""Decimal places kept for a curve expected score: each game's E is computed to 28
significant digits and kept in units of 10^-9, so that a period's sum of these units is exact
and the change is rounded once (art. 8.3.4), as for the table. With four places (as E was
once kept) a few ratings moved by one point; at nine, a change can move only if K x sum(dR)
lies within n x K x 5e-10 of a half point."""
TABLE_UNITS = 100
"""Units per point of the table method: PD and dR are exact hundredths (table 8.1.2)."""
CURVE_UNITS: int = 10**CURVE_PLACES
"""Units per point of the curve method: E and dR in units of 10^-9 (:data:`CURVE_PLACES`)."""
PERIOD_MONTHS = (1, 2, 3, 4, 6, 12)
"""Allowed lengths of a rating period in months (they divide a year, so January starts one)."""

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


def points(units: int, units_per_point: int) -> Decimal:
    """An exact decimal from an integer in 1/``units_per_point`` (a power of ten), with as many
    places as the unit has: ``points(8, 100)`` is ``0.08``, ``points(100, 100)`` is ``1.00``."""
    places = len(str(units_per_point)) - 1
    if type(units) is not int or units_per_point != 10**places:
        raise InvalidScoreError(f"units must be an integer in a power of ten: {units!r}")
    return Decimal(units).scaleb(-places)


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
    """The rating system a database uses (docs/RULES.md#rating-systems)."""

    FIDE = "fide"
    """FIDE regulations throughout, with initial ratings (art. 8.2) and the 1400 floor."""
    CLUB = "club"
    """FIDE expected scores, cap and K; newcomers enter at a start rating; no floor."""
    ELO = "elo"
    """The classic curve, one fixed K, a start rating, no cap, no floor."""


def _expected_method(method: ExpectedMethod | str) -> ExpectedMethod:
    """Accept an :class:`ExpectedMethod` or its value; raise :class:`UnknownMethodError`."""
    return member_of(
        ExpectedMethod,
        method,
        UnknownMethodError,
        "unknown expected-score method (use table or curve)",
    )


_E = TypeVar("_E", bound=enum.Enum)


def member_of(kind: type[_E], value: _E | str, error: type[RulesError], unknown: str) -> _E:
    """Accept a member of the enum ``kind`` or its value; raise ``error`` with the message
    ``unknown: value`` for anything else."""
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        raise error(f"{unknown}: {value!r}") from None
