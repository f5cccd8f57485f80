"""Which periods a rate works on: the closing date's shift, the long events, the periods of the
stored games, and the run of periods the next ``rate`` rates or re-rates (:class:`PeriodPlan`,
docs/RULES.md#which-period-rates-an-event-art-713)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.models import RatingPeriod
from ratings.rules import Period, SystemConfig
from ratings.service.rating.marks import mark_period
from ratings.service.shared.sql import date_param, to_date

__all__ = [
    "PeriodPlan",
    "closing_shift",
    "first_game_period",
    "latest_game_period",
    "long_events",
    "mark_rerate_from",
    "periods_to_rate",
]


def closing_shift(config: SystemConfig) -> dt.timedelta:
    """How far the closing date moves results (art. 7.1.3): a result ending on day d goes to
    the list of the period holding d + this (:func:`ratings.rules.rating_period_for`)."""
    return rules.closing_shift(config.closing_days)


def long_events(session: Session, ending_from: dt.date) -> frozenset[int]:
    """Ids of the events longer than 90 days (leagues) that end on or after ``ending_from``
    (the regulations' article on the duration of tournaments; :func:`rules.is_long_event`)."""
    conn = session.connection()
    ph = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    if conn.dialect.name == "sqlite":
        days = "julianday(end_date) - julianday(start_date)"
    else:
        days = "end_date - start_date"
    rows = conn.exec_driver_sql(
        f"SELECT id FROM events WHERE end_date >= {ph} AND {days} > {rules.LONG_EVENT_DAYS}",
        (date_param(session, ending_from),),
    ).all()
    return frozenset(row[0] for row in rows)


def _game_periods(session: Session, config: SystemConfig, newest: bool) -> list[Period]:
    """The newest (or oldest) periods that rate stored games: by the end dates of events
    rated as one (after the closing date), the rating periods events were given, and the
    play dates of events longer than 90 days."""
    conn = session.connection()
    pick = "max" if newest else "min"
    has_games = "EXISTS (SELECT 1 FROM games g WHERE g.event_id = e.id AND g.rateable)"
    by_end, by_period = conn.exec_driver_sql(
        f"SELECT {pick}(CASE WHEN e.rating_period IS NULL THEN e.end_date END), "
        f"{pick}(e.rating_period) FROM events e WHERE {has_games}"
    ).one()
    found = []
    if by_end is not None:
        found.append(config.rating_period(to_date(by_end)))
    if by_period is not None:
        found.append(Period(to_date(by_period), config.period_months))
    if not newest:
        long = long_events(session, dt.date.min)
        if long:
            ids = ", ".join(str(int(i)) for i in sorted(long))
            # a league given a rating period is rated whole in it (counted above)
            day = conn.exec_driver_sql(
                "SELECT min(g.played_on) FROM games g JOIN events e ON e.id = g.event_id "
                f"WHERE g.rateable AND g.event_id IN ({ids}) AND e.rating_period IS NULL"
            ).scalar()
            if day is not None:
                found.append(config.rating_period(to_date(day)))
    return found


def latest_game_period(session: Session, config: SystemConfig) -> Period | None:
    """The newest period that rates a stored rated game
    (docs/RULES.md#which-period-rates-an-event-art-713)."""
    found = _game_periods(session, config, newest=True)
    return max(found) if found else None


def first_game_period(session: Session, config: SystemConfig) -> Period | None:
    """The oldest period that rates a stored rated game
    (docs/RULES.md#which-period-rates-an-event-art-713)."""
    found = _game_periods(session, config, newest=False)
    return min(found) if found else None


def periods_to_rate(
    session: Session,
    config: SystemConfig,
    through: Period | None,
    *,
    today: dt.date | None = None,
    first: Period | None = None,
) -> tuple[list[Period], Period | None]:
    """The periods the next ``rate`` works on, in order, and the first of them that is a
    re-rate (None when nothing is re-rated).

    ``first``: while nothing is rated, the first period to rate instead of the oldest game's
    (a rebuild rates the span the checked database published, games or not).

    With ``today``, a ``through`` later than both the newest game's period and the current
    period is refused: it would publish empty lists for periods that have not happened.
    """
    months = config.period_months
    if through is not None and today is not None:
        newest = latest_game_period(session, config)
        current = Period.containing(today, months)
        limit = max(newest, current) if newest is not None else current
        if limit < through:
            raise PeriodError(
                f"period {through.label} is after both the current period {current.label} "
                f"and the newest game's period; rate at most through {limit.label}"
            )
    rated = list(session.scalars(sa.select(RatingPeriod).order_by(RatingPeriod.start_date)))
    stale = next((p for p in rated if p.status == "needs_rerate"), None)
    if stale is not None:
        start: Period | None = Period(stale.start_date, months)
    elif rated:
        start = Period(rated[-1].start_date, months).next()
    else:
        start = first if first is not None else first_game_period(session, config)
    if start is None:
        return [], None
    held_back_from = None
    if through is None and today is not None:
        # a period that has not ended is rated only when --through names it: its games
        # may still be coming, and a mistyped year would publish a run of empty lists up
        # to it
        held_back_from = Period.containing(today, months)
    end = through or latest_game_period(session, config)
    if held_back_from is not None and end is not None and held_back_from <= end:
        end = held_back_from.previous()
    if rated:
        last_rated = Period(rated[-1].start_date, months)
        if stale is not None and (end is None or end < last_rated):
            end = last_rated  # a re-rate always reaches the newest published list
    if end is None or end < start:
        return [], None
    periods = [start]
    while periods[-1] < end:
        periods.append(periods[-1].next())
    return periods, (Period(stale.start_date, months) if stale is not None else None)


def mark_rerate_from(session: Session, period: Period) -> RatingPeriod:
    """Mark the rated ``period`` for a re-rate (``ratings rate --mark-from``): the next rate
    rates its lists and every later one again from the stored inputs, as after a correction.
    The fix for lists edited by hand that ``ratings check`` names.

    :raises PeriodError: the period is not rated.
    """
    row = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == period.start))
    if row is None:
        raise PeriodError(f"period {period.label} has not been rated: there is nothing to re-rate")
    return mark_period(session, row)


@dataclass(frozen=True, slots=True)
class PeriodPlan:
    """The periods a ``rate`` works on, in order (:func:`periods_to_rate`), and the labels of
    the periods with games it leaves for later."""

    periods: tuple[Period, ...]
    held_back: tuple[str, ...] = ()
    """Periods with games that have not ended (``today`` given, no ``through``)."""

    @classmethod
    def make(
        cls,
        session: Session,
        config: SystemConfig,
        through: Period | None,
        *,
        today: dt.date | None = None,
        first: Period | None = None,
    ) -> PeriodPlan:
        """The plan of the next ``rate`` (the parameters are :func:`periods_to_rate`'s)."""
        periods, _ = periods_to_rate(session, config, through, today=today, first=first)
        held_back: tuple[str, ...] = ()
        if through is None and today is not None:
            every, _ = periods_to_rate(session, config, None)
            kept = set(periods)
            held_back = tuple(p.label for p in every if p not in kept)
        return cls(tuple(periods), held_back)

    def stored(self, session: Session) -> dict[dt.date, RatingPeriod]:
        """The rated periods from the first of the plan on, by start date: those the plan
        re-rates, and any published after its last (their lists are withdrawn)."""
        return {
            p.start_date: p
            for p in session.scalars(
                sa.select(RatingPeriod).where(RatingPeriod.start_date >= self.periods[0].start)
            )
        }
