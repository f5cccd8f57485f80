"""An event's rating period: the list FIDE rates it on, when that is a later one than its end
date gives (issue 12, item 3).

FIDE rates an event on the list it was submitted for: in FIDE's published calculations an
event played 21-30 August was rated on the October list, one played 13-15 February on the
April list. ``events.rating_period`` holds the first day of that period; NULL is the default
(the period of the end date after the closing date, art. 7.1.3, or for an event longer than
90 days each game's own period). The rule for a given period is
:func:`ratings.rules.earliest_rating_period`: never earlier than the period holding the end
date. The games still use the lists in force when the event started
(docs/RULES.md#which-ratings-a-game-uses), and the period rates them whole (a league given a period
is rated in it, not game by game).

``import trf|pgn|games --period`` and ``game add --period`` give it to the events they create
(:func:`give_rating_period`), ``event edit --period`` changes it (:func:`change_rating_period`,
a correction that re-rates from the earlier of the old and the new period).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import InvalidInputError, PeriodError
from ratings.models import Event, Game, Import
from ratings.rules import Period, SystemConfig
from ratings.service.common import get_config, mark_for_rerate
from ratings.service.storing import history_error

__all__ = [
    "change_rating_period",
    "check_rating_period",
    "game_rating_period",
    "give_rating_period",
    "import_rating_period",
    "parse_rating_period",
    "rated_from",
]


def parse_rating_period(session: Session, label: str, option: str = "--period") -> Period:
    """A ``YYYY-MM`` label as a period of this database's length.

    :raises InvalidInputError: ``--period: <problem>``.
    """
    try:
        return Period.from_string(label, get_config(session).period_months)
    except rules.RulesError as exc:
        raise InvalidInputError(f"{option}: {exc}") from None


def check_rating_period(config: SystemConfig, name: str, end: dt.date, period: Period) -> None:
    """Refuse a rating period earlier than the one holding the event's end date.

    :raises PeriodError: naming the event and the earliest period it may have.
    """
    earliest = rules.earliest_rating_period(end, config.period_months)
    if period < earliest:
        raise PeriodError(
            f"event {name!r} ends on {end.isoformat()}: it cannot be rated in {period.label}, "
            f"before its end (the earliest is {earliest.label})"
        )


def rated_from(session: Session, config: SystemConfig, event: Event) -> Period:
    """The earliest period that rates the event's games: its rating period, else the period
    of its first game for an event longer than 90 days (each game in its own period), else
    the period of its end date after the closing date (art. 7.1.3)."""
    if event.rating_period is not None:
        return Period(event.rating_period, config.period_months)
    if rules.is_long_event(event.start_date, event.end_date):
        first = session.scalar(
            sa.select(sa.func.min(Game.played_on)).where(Game.event_id == event.id)
        )
        return config.rating_period(first or event.start_date)
    return config.rating_period(event.end_date)


def give_rating_period(session: Session, event_ids: Sequence[int], period: Period) -> None:
    """Rate the events just stored (an import's, or a new game's own event) in ``period``.

    Nothing else needs marking: the import marked the rated period of each end date, which
    is never later than ``period``.

    :raises PeriodError: for a period before an event's end (nothing is kept: roll back).
    """
    config = get_config(session)
    events = session.scalars(sa.select(Event).where(Event.id.in_(list(event_ids)))).all()
    for event in sorted(events, key=lambda e: e.id):
        check_rating_period(config, event.name, event.end_date, period)
        event.rating_period = period.start
    session.flush()


def import_rating_period(
    session: Session, data_hash: str, label: str, *, dry_run: Sequence[tuple[str, dt.date]] = ()
) -> Period:
    """``import trf|pgn|games --period``: rate the events the import of ``data_hash`` created
    in the period ``label`` (or, for a dry run, check it against the ``(name, end)`` of the
    events it would create). Returns the period.

    :raises InvalidInputError: for a label that is not a period of this database.
    :raises PeriodError: for a period before an event's end (roll the import back).
    """
    period = parse_rating_period(session, label)
    if dry_run:
        config = get_config(session)
        for name, end in dry_run:
            check_rating_period(config, name, end, period)
        return period
    ids = session.scalars(
        sa.select(Event.id)
        .join(Import, Import.id == Event.import_id)
        .where(Import.content_hash == data_hash)
    ).all()
    give_rating_period(session, ids, period)
    return period


def game_rating_period(session: Session, game_id: int, label: str) -> Period:
    """``game add --period``: the new game's event is rated in the period ``label``. A new
    event of its own gets it; a stored event must have it already (change a stored event's
    period with ``event edit --period``: it moves all its games).

    :raises InvalidInputError: for a label that is not a period of this database.
    :raises PeriodError: for a period before the event's end, or a stored event rated in
        another period (roll back).
    """
    period = parse_rating_period(session, label)
    event = session.get_one(Event, session.get_one(Game, game_id).event_id)
    games = session.scalar(sa.select(sa.func.count()).where(Game.event_id == event.id))
    if games == 1:
        give_rating_period(session, [event.id], period)
    elif event.rating_period != period.start:
        where = (
            "the period of its end date"
            if event.rating_period is None
            else Period(event.rating_period, period.months).label
        )
        raise PeriodError(
            f"event {event.id} ({event.name}) has other games, rated in {where}; give the "
            f"event the period with 'ratings event edit {event.id} --period {period.label}'"
        )
    else:
        check_rating_period(get_config(session), event.name, event.end_date, period)
    return period


def change_rating_period(session: Session, event: Event, period: Period | None) -> bool:
    """Give a stored event another rating period (None: back to the default); a correction:
    the rated periods from the earlier of the old and the new one are marked for a re-rate.
    Returns whether it changed. (The caller records it in the corrections log.)

    :raises PeriodError: for a period before the event's end, or one before the oldest rated
        period's history.
    """
    config = get_config(session)
    new = None if period is None else period.start
    if new == event.rating_period:
        return False
    if period is not None:
        check_rating_period(config, event.name, event.end_date, period)
    before = rated_from(session, config, event)
    event.rating_period = new
    earlier = min(before, rated_from(session, config, event))
    problem = history_error(session, earlier.start)
    if problem:
        raise PeriodError(problem)
    mark_for_rerate(session, earlier.start)
    session.flush()
    return True
