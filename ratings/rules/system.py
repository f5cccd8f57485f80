"""Rating systems (docs/RULES.md#rating-systems) and rating periods
(docs/RULES.md#rating-periods)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from ratings.rules.base import (
    CURVE_UNITS,
    PERIOD_MONTHS,
    TABLE_UNITS,
    ExpectedMethod,
    InvalidKFactorError,
    InvalidPeriodError,
    InvalidRatingError,
    System,
    UnknownSystemError,
    _check_date,
    _check_k,
    _expected_method,
    member_of,
)
from ratings.rules.editions import ListRules, RatingAdjustment, adjustment_for, list_rules_for
from ratings.rules.expected import UNCAPPED, RuleSet, rules_for
from ratings.rules.players import FIDE_K, KTable, PlayerState, k_factor
from ratings.rules.time_control import TimeControl
from ratings.rules.variant import RuleVariant

# --------------------------------------------------------------------------------------------
# Rating systems (docs/RULES.md#rating-systems)
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
    """A database's rating system and its settings (docs/RULES.md#rating-systems; art. 8.2, 8.3.1,
    8.3.3).

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
    closing_days: int = 0
    """A list closes this many days before its date (art. 7.1.3): a result ending later goes
    to the next list (:func:`rating_period_for`). fide 3, club and elo 0 (by end date)."""
    variant: RuleVariant | None = None
    """Rules that are not FIDE's, for a what-if (:mod:`ratings.rules.variant`); None for
    every database's own rules."""

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
        if type(self.closing_days) is not int or not 0 <= self.closing_days <= MAX_CLOSING_DAYS:
            raise InvalidPeriodError(
                f"closing days must be an integer from 0 to {MAX_CLOSING_DAYS}: "
                f"{self.closing_days!r}"
            )

    def rating_period(self, day: date) -> Period:
        """The period whose list a result ending on ``day`` goes to (art. 7.1.3)."""
        return rating_period_for(day, self.period_months, self.closing_days)

    @property
    def uses_cap(self) -> bool:
        """True if the 400-point rule (art. 8.3.1) applies: every system but elo."""
        return self.system is not System.ELO

    @property
    def uses_floor(self) -> bool:
        """True if ratings below the floor (1400 from 1 March 2024, 1000 before) are not
        published (art. 7.1.4, 7.2.1): fide only."""
        return self.system is System.FIDE

    @property
    def uses_initial_ratings(self) -> bool:
        """True if newcomers get a first rating from pooled games (art. 8.2): fide only."""
        return self.system is System.FIDE

    @property
    def uses_700_rule(self) -> bool:
        """True if the 700 rule (art. 8.3.3) reduces K: fide and club, not elo's one fixed K."""
        return self.system is not System.ELO

    @property
    def units_per_point(self) -> int:
        """The exact unit of expected scores and dR: hundredths for the table (8.1.2),
        :data:`CURVE_UNITS` for the curve. Breakdown rows store integers in this unit."""
        return CURVE_UNITS if self.expected is ExpectedMethod.CURVE else TABLE_UNITS

    def rule_set(
        self, event_start: date, time_control: TimeControl | str = TimeControl.STANDARD
    ) -> RuleSet:
        """The rule edition for a game of an event starting on ``event_start`` (art. 8.3.1;
        rapid and blitz: R&B art. 7.3.1)."""
        return rules_for(event_start, time_control) if self.uses_cap else UNCAPPED

    def list_rules(
        self, period_start: date, time_control: TimeControl | str = TimeControl.STANDARD
    ) -> ListRules:
        """The edition of the list rules (art. 7.1.4, 7.2.1, 8.2; the rapid and blitz K) for
        the period starting on ``period_start`` (:func:`ratings.rules.list_rules_for`). The
        floor and first ratings count under fide only (:attr:`uses_floor`,
        :attr:`uses_initial_ratings`), the edition's K wherever no fixed K is set."""
        return list_rules_for(period_start, time_control)

    def list_adjustment(
        self, period: Period, time_control: TimeControl | str = TimeControl.STANDARD
    ) -> RatingAdjustment | None:
        """FIDE's one-time adjustment of the list ``period`` publishes (the standard list of
        1 March 2024, :data:`ratings.rules.RATING_ADJUSTMENTS`), under fide only; None for
        nearly every period."""
        if self.system is not System.FIDE:
            return None
        return adjustment_for(period.start, period.list_date, time_control)

    def variant_for(self, period_start: date) -> RuleVariant | None:
        """The what-if variant in force for the period starting ``period_start`` (None: the
        rules as they are)."""
        variant = self.variant
        return variant if variant is not None and variant.applies(period_start) else None

    def k_table(self, period_start: date) -> KTable:
        """The K values of art. 8.3.3 for the period starting ``period_start``."""
        variant = self.variant_for(period_start)
        return FIDE_K if variant is None else variant.k

    def k_for(self, state: PlayerState, list_date: date) -> int:
        """Base K for a player (art. 8.3.3, or the fixed K), before the 700 rule."""
        return self.k if self.k is not None else k_factor(state, list_date)


def _system(system: System | str) -> System:
    """Accept a :class:`System` or its value; raise :class:`UnknownSystemError`."""
    return member_of(
        System, system, UnknownSystemError, "unknown rating system (use fide, club or elo)"
    )


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
    closing_days: int | None = None,
) -> SystemConfig:
    """A :class:`SystemConfig` with the defaults of docs/RULES.md#rating-systems filled in for what
    is not overridden.

    fide: FIDE K rules (art. 8.3.3), initial ratings (art. 8.2), table, lists closing 3 days
    before their date (art. 7.1.3); club: start rating 1200, table; elo: K 32, start rating
    1500, curve (club and elo rate by end date: 0 closing days). ``start_rating`` on fide is
    an error.

    :raises RulesError: a subclass naming the bad value.
    """
    sys_ = _system(system)
    return SystemConfig(
        system=sys_,
        k=_SYSTEM_K[sys_] if k is None else k,
        start_rating=_SYSTEM_START[sys_] if start_rating is None else start_rating,
        expected=_SYSTEM_EXPECTED[sys_] if expected is None else _expected_method(expected),
        period_months=1 if period_months is None else period_months,
        closing_days=(FIDE_CLOSING_DAYS if sys_ is System.FIDE else 0)
        if closing_days is None
        else closing_days,
    )


# --------------------------------------------------------------------------------------------
# Rating periods (docs/RULES.md#rating-periods)
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
    """A rating period: a run of ``months`` calendar months starting on ``start``
    (docs/RULES.md#rating-periods).

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


# --------------------------------------------------------------------------------------------
# Which period rates an event (art. 7.1.3, the duration of tournaments)
# --------------------------------------------------------------------------------------------

FIDE_CLOSING_DAYS = 3
"""Art. 7.1.3: a list closes 3 days before its date; tournaments ending on or before that day
may be rated on it. The default of a ``fide`` database (``ratings init --closing-days``)."""
LONG_EVENT_DAYS = 90
"""The longest a tournament may last (the regulations' article on the duration of
tournaments: at most 90 days; leagues, and events the QC Chairman approves, may last longer).
An event longer than this is rated game by game, in the period each game was played."""


def is_long_event(start: date, end: date) -> bool:
    """True if an event from ``start`` to ``end`` lasts more than 90 days (a league): its games
    are rated in the period in which each was played, each against the list in force then,
    rather than all in the period of the end date against the list at the start."""
    return (_check_date(end) - _check_date(start)).days > LONG_EVENT_DAYS


def rating_period_for(day: date, months: int = 1, closing_days: int = 0) -> Period:
    """The period whose list a result ending on ``day`` goes to (art. 7.1.3).

    A list dated L closes ``closing_days`` days before L: a result ending on or before
    L - ``closing_days`` is rated on it, a later one on the next list. With 3 days (FIDE's)
    an event ending on 29 October goes to the 1 November list (the October period), one
    ending on 30 October to the December list (November). With 0 (clubs that rate by end
    date) it is the period that holds ``day``.
    """
    _check_date(day)
    return Period.containing(day + closing_shift(closing_days), months)


def closing_shift(closing_days: int) -> timedelta:
    """How far the closing date moves a result (art. 7.1.3): a result ending on day d goes to
    the list of the period holding d + this (:func:`rating_period_for`); the rate selects a
    period's games by end dates moved back by it. Said once, for both.

    :raises InvalidPeriodError: closing days out of 0 .. :data:`MAX_CLOSING_DAYS`.
    """
    if type(closing_days) is not int or not 0 <= closing_days <= MAX_CLOSING_DAYS:
        raise InvalidPeriodError(
            f"closing days must be an integer from 0 to {MAX_CLOSING_DAYS}: {closing_days!r}"
        )
    return timedelta(days=max(closing_days - 1, 0))


def event_rating_period(
    config: SystemConfig, start: date, end: date, given: date | None
) -> Period | None:
    """The period whose list rates an event's games, all of them (art. 7.1.3,
    docs/RULES.md#which-period-rates-an-event-art-713): the period it was given
    (``events.rating_period``, a late report); else the period of its end date after the
    closing date; None for an event longer than 90 days, whose games are each rated in the
    period of their own date (:func:`game_rating_period`).

    The one definition: the rate's game selection, the corrections, the CLI's event list and
    the website all follow it (the rate's SQL twin is checked against it by
    ``tests/rating/test_period_policy.py``)."""
    if given is not None:
        return Period(given, config.period_months)
    if is_long_event(start, end):
        return None
    return config.rating_period(end)


def game_rating_period(
    config: SystemConfig, start: date, end: date, given: date | None, played_on: date
) -> Period:
    """The period whose list rates a game played on ``played_on`` in an event from ``start``
    to ``end`` (given the period ``given``, or None): :func:`event_rating_period`, or for an
    event longer than 90 days the period of the game's own date, after the closing date."""
    period = event_rating_period(config, start, end, given)
    return period if period is not None else config.rating_period(played_on)


def earliest_rating_period(end: date, months: int = 1) -> Period:
    """The earliest period whose list may rate an event that ends on ``end``: the period
    holding that day (art. 7.1.3: a list closes 3 days before its date, but official FIDE
    events "may be rated on the list even if they end on the last day before the list
    date"). An event submitted late is rated on a later list (FIDE rated events played
    21-30 August on the October list); an earlier one is never possible. The list in force
    for its games stays the one at the event's start (docs/RULES.md#which-ratings-a-game-uses)."""
    return Period.containing(end, months)


LATE_REPORT_LISTS = 3
"""An event not reported by this list after it ends is not rated (art. 9.1): the first list
after its end is the one the period holding its end date publishes."""


def lists_after_end(end: date, period: Period) -> int:
    """Which list after an event's end ``period`` publishes: 1 for the period holding the
    end date (its list is the first dated after the end), 2 for the next, ...; 0 or less for
    a period before it."""
    first = earliest_rating_period(end, period.months).start
    months = (period.start.year - first.year) * 12 + period.start.month - first.month
    return months // period.months + 1


def latest_rating_period(end: date, months: int = 1) -> Period:
    """The latest period whose list may rate an event that ends on ``end``: the one that
    publishes the third list after its end (art. 9.1, :data:`LATE_REPORT_LISTS`)."""
    period = earliest_rating_period(end, months)
    for _ in range(LATE_REPORT_LISTS - 1):
        period = period.next()
    return period


MAX_CLOSING_DAYS = 27
"""Most closing days accepted: less than the shortest month, so a list never closes before
its period starts."""
