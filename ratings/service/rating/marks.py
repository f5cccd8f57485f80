"""Period marks: which rated period a day, a player or a correction touches, marked
for a re-rate (``rating_periods.status``), and the periods' lookups.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.models import (
    Event,
    Game,
    Player,
    RatingHistory,
    RatingPeriod,
)
from ratings.rules import Period
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import to_date


def history_error(session: Session, day: dt.date) -> str | None:
    """Why a result of ``day`` (an event's end, a league game's day, the first day of a
    period given) cannot be stored or corrected, or None if it can.

    It goes to the period whose list rates a result of that day, after the closing date
    (art. 7.1.3, :func:`ratings.rules.rating_period_for`; an event ending on 29 September is
    rated in October with FIDE's 3 days): a period older than the oldest rated period would
    need lists that were never made.
    """
    oldest = first_rated_start(session)
    if oldest is None:
        return None
    period = get_config(session).rating_period(day)
    if period.start < oldest:
        oldest_label = f"{oldest:%Y-%m}"
        return (
            f"{day.isoformat()} is rated in period {period.label}, before the oldest rated period "
            f"{oldest_label}; the rating history it needs does not exist: withdraw the rated "
            f"lists first ('ratings unrate --from {oldest_label}'), then 'ratings rate' rates "
            f"again from {period.label}"
        )
    return None


def period_of(session: Session, day: dt.date) -> Period:
    """The period of this database's length that holds ``day``."""
    return Period.containing(day, get_config(session).period_months)


def parse_period(session: Session, label: str) -> Period:
    """A ``YYYY-MM`` label as a period of this database's length."""
    return Period.from_string(label, get_config(session).period_months)


def rated_periods(session: Session) -> list[RatingPeriod]:
    """Every rated period, oldest first."""
    return list(session.scalars(sa.select(RatingPeriod).order_by(RatingPeriod.start_date)))


def first_rated_start(session: Session) -> dt.date | None:
    """Start of the oldest rated period, if any."""
    return session.scalar(sa.select(sa.func.min(RatingPeriod.start_date)))


def joining_list(session: Session) -> dt.date | None:
    """``players.listed_from`` of a player registered now: the first day of the period after
    the newest rated one, whose list is the first to show the player without a game (a
    published list does not gain players registered after it, docs/DESIGN.md#who-is-on-a-list);
    None before any period is rated (on every list)."""
    newest = session.scalar(sa.select(sa.func.max(RatingPeriod.start_date)))
    if newest is None:
        return None
    return Period(to_date(newest), get_config(session).period_months).next().start


_TOUCHED = "ratings.touched_periods"
"""``Session.info`` key: the rated periods this unit of work marked (:func:`mark_period`)."""


def mark_period(session: Session, period: RatingPeriod) -> RatingPeriod:
    """Mark a rated period for a re-rate, and note that this unit of work touched it (already
    marked or not): :func:`touched_period` names the earliest."""
    period.status = "needs_rerate"
    session.info.setdefault(_TOUCHED, {})[period.start_date] = period.label
    return period


def touched_period(session: Session) -> str | None:
    """The earliest rated period that this unit of work (one command) marked for a re-rate,
    whether or not an earlier correction had marked it already: what ``This touches rated
    period P`` names. None when it marked none."""
    touched: dict[dt.date, str] = session.info.get(_TOUCHED, {})
    return touched[min(touched)] if touched else None


def mark_for_rerate(session: Session, day: dt.date) -> RatingPeriod | None:
    """A correction touches the period that rates a result of ``day`` (an event's end, a
    league game's day): mark that rated period (or, for a day before every rated period,
    nothing: see :func:`check_not_before_history`). The closing date applies (art. 7.1.3:
    a day after it goes to the next period).

    Returns the marked period, or None when ``day`` is after every rated period.
    """
    start = get_config(session).rating_period(day).start
    period = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == start))
    return None if period is None else mark_period(session, period)


def mark_all_for_rerate(session: Session) -> RatingPeriod | None:
    """Re-rate from the oldest rated period (a change to every period's inputs)."""
    period = session.scalar(sa.select(RatingPeriod).order_by(RatingPeriod.start_date).limit(1))
    return None if period is None else mark_period(session, period)


def mark_from_first_listing(
    session: Session, player_ids: Sequence[int], time_controls: Sequence[str] | None = None
) -> RatingPeriod | None:
    """A correction to these players' register entries (entry data, birth data) touches the
    periods that list them or rate a game of theirs: mark the first such rated period. None
    when no rated period has them.

    The first period that lists a player on *any* list, even for the entry data of one list
    (``time_controls``: the lists whose games count): a rapid rating given to a player
    starts the rapid list, and his rows on it, from the first period that lists him at all,
    which may be before the rapid list's first period (found by the one-answer state
    machine: the rapid list of a period with no rapid game appeared only in a rebuild)."""
    days: list[dt.date] = []
    games = Event.time_control.in_(list(time_controls)) if time_controls else sa.true()
    config = get_config(session)
    for i in range(0, len(player_ids), 500):
        chunk = list(player_ids[i : i + 500])
        found = session.scalar(
            sa.select(sa.func.min(RatingPeriod.start_date))
            .join(RatingHistory, RatingHistory.period_id == RatingPeriod.id)
            .where(RatingHistory.player_id.in_(chunk))
        )
        if found is not None:
            days.append(to_date(found))
        for start, end, given, first in session.execute(
            sa.select(
                Event.start_date, Event.end_date, Event.rating_period, sa.func.min(Game.played_on)
            )
            .join(Game, Game.event_id == Event.id)
            .where(sa.or_(Game.white_id.in_(chunk), Game.black_id.in_(chunk)), games)
            .group_by(Event.id, Event.start_date, Event.end_date, Event.rating_period)
        ):
            given_day = None if given is None else to_date(given)
            days.append(
                rules.game_rating_period(
                    config, to_date(start), to_date(end), given_day, to_date(first)
                ).start
            )
    for day in sorted(set(days)):
        period = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == day))
        if period is not None:
            return mark_period(session, period)
    return None


def mark_joining(session: Session, player: Player) -> RatingPeriod | None:
    """A player who (re)joins the lists without a game (``players.listed_from``, a merge
    undone): mark the first rated period whose list takes the player (None: no such
    rated period)."""
    query = sa.select(RatingPeriod).order_by(RatingPeriod.start_date).limit(1)
    if player.listed_from is not None:
        query = query.where(RatingPeriod.start_date >= player.listed_from)
    period = session.scalar(query)
    return None if period is None else mark_period(session, period)
