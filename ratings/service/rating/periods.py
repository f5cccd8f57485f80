"""An event's rating period: the list FIDE rates it on, when that is a later one than its end
date gives.

FIDE rates an event on the list it was submitted for: in FIDE's published calculations an
event played 21-30 August was rated on the October list, one played 13-15 February on the
April list. ``events.rating_period`` holds the first day of that period; NULL is the default
(the period of the end date after the closing date, art. 7.1.3, or for an event longer than
90 days each game's own period). The rule for a given period is
:func:`ratings.rules.earliest_rating_period`: never earlier than the period holding the end
date. The games still use the lists in force when the event started
(docs/RULES.md#which-ratings-a-game-uses), and the period rates them whole (a league given a period
is rated in it, not game by game).

Under fide the period may be at most the one publishing the third list after the end (art.
9.1: an event not reported by then is not rated, :func:`ratings.rules.latest_rating_period`);
a later one needs ``late_ok`` (``--late-ok``) and gives a warning.

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
from ratings.service.rating.marks import history_error, mark_for_rerate
from ratings.service.shared.config import get_config

__all__ = [
    "LateReportError",
    "change_rating_period",
    "check_given_period",
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


class LateReportError(PeriodError):
    """A rating period beyond the last list art. 9.1 allows for an event (``--late-ok``)."""


def _ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``22nd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def check_rating_period(
    config: SystemConfig, name: str, end: dt.date, period: Period, *, late_ok: bool = False
) -> str | None:
    """Refuse a rating period earlier than the one holding the event's end date, and under
    ``fide`` one beyond the third list after its end (art. 9.1: an event not reported by
    then is not rated) unless ``late_ok``; that one returns its warning (else None).

    :raises PeriodError: naming the event and the earliest period it may have.
    :raises LateReportError: naming the latest, and ``--late-ok``.
    """
    earliest = rules.earliest_rating_period(end, config.period_months)
    if period < earliest:
        raise PeriodError(
            f"event {name!r} ends on {end.isoformat()}: it cannot be rated in {period.label}, "
            f"before its end (the earliest is {earliest.label})"
        )
    # the reporting deadline is FIDE's: a club's own systems rate what their officer enters
    if config.system is not rules.System.FIDE:
        return None
    latest = rules.latest_rating_period(end, config.period_months)
    if period <= latest:
        return None
    nth = _ordinal(rules.lists_after_end(end, period))
    last = _ordinal(rules.LATE_REPORT_LISTS)
    if not late_ok:
        raise LateReportError(
            f"event {name!r} ends on {end.isoformat()}: period {period.label} publishes the "
            f"{nth} list after its end, and an event not reported by the {last} (period "
            f"{latest.label}) is not rated (art. 9.1); --late-ok rates it all the same"
        )
    return (
        f"event {name!r} ends on {end.isoformat()} and is rated in {period.label}, on the {nth} "
        f"list after its end: art. 9.1 rates an event reported by the {last} (period "
        f"{latest.label}) at the latest"
    )


def check_given_period(config: SystemConfig, event: Event) -> None:
    """Refuse an event that would end after the period it was given (a game moved or added
    past it, its end date moved): its games would be rated before the event ended, against a
    list that does not exist yet when that period is rated from scratch.

    :raises PeriodError: naming the event, its end and its period, and the way out.
    """
    if event.rating_period is None:
        return
    given = Period(event.rating_period, config.period_months)
    earliest = rules.earliest_rating_period(event.end_date, config.period_months)
    if given < earliest:
        raise PeriodError(
            f"event {event.name!r} would end on {event.end_date.isoformat()}, after the period "
            f"it is rated in ({given.label}): give it a later period first ('ratings event "
            f"edit {event.id} --period {earliest.label}'), or keep its games within {given.label}"
        )


def rated_from(session: Session, config: SystemConfig, event: Event) -> Period:
    """The earliest period that rates the event's games: its rating period, else the period
    of its first game for an event longer than 90 days (each game in its own period), else
    the period of its end date after the closing date (art. 7.1.3)."""
    period = rules.event_rating_period(
        config, event.start_date, event.end_date, event.rating_period
    )
    if period is not None:
        return period
    first = session.scalar(sa.select(sa.func.min(Game.played_on)).where(Game.event_id == event.id))
    return config.rating_period(first or event.start_date)


def give_rating_period(
    session: Session, event_ids: Sequence[int], period: Period, *, late_ok: bool = False
) -> list[str]:
    """Rate the events just stored (an import's, or a new game's own event) in ``period``;
    returns the warnings of the events that ``late_ok`` let through (art. 9.1).

    Nothing else needs marking: the import marked the rated period of each end date, which
    is never later than ``period``.

    :raises PeriodError: for a period before an event's end, or (:class:`LateReportError`)
        beyond the third list after it without ``late_ok`` (nothing is kept: roll back).
    """
    config = get_config(session)
    events = session.scalars(sa.select(Event).where(Event.id.in_(list(event_ids)))).all()
    warnings = []
    for event in sorted(events, key=lambda e: e.id):
        warning = check_rating_period(config, event.name, event.end_date, period, late_ok=late_ok)
        if warning is not None:
            warnings.append(warning)
        event.rating_period = period.start
    session.flush()
    return warnings


def import_rating_period(
    session: Session,
    data_hash: str,
    label: str,
    *,
    dry_run: Sequence[tuple[str, dt.date]] = (),
    late_ok: bool = False,
) -> list[str]:
    """``import trf|pgn|games --period``: rate the events the import of ``data_hash`` created
    in the period ``label`` (or, for a dry run, check it against the ``(name, end)`` of the
    events it would create). Returns the warnings of the events ``late_ok`` let through.

    :raises InvalidInputError: for a label that is not a period of this database.
    :raises PeriodError: for a period before an event's end, or beyond the third list after
        it without ``late_ok`` (roll the import back).
    """
    period = parse_rating_period(session, label)
    if dry_run:
        config = get_config(session)
        found = [
            check_rating_period(config, name, end, period, late_ok=late_ok) for name, end in dry_run
        ]
        return [warning for warning in found if warning is not None]
    ids = session.scalars(
        sa.select(Event.id)
        .join(Import, Import.id == Event.import_id)
        .where(Import.content_hash == data_hash)
    ).all()
    return give_rating_period(session, ids, period, late_ok=late_ok)


def game_rating_period(
    session: Session, game_id: int, label: str, *, late_ok: bool = False
) -> list[str]:
    """``game add --period``: the new game's event is rated in the period ``label``. A new
    event of its own gets it; a stored event must have it already (change a stored event's
    period with ``event edit --period``: it moves all its games). Returns the warning, if
    ``late_ok`` let a late one through.

    :raises InvalidInputError: for a label that is not a period of this database.
    :raises PeriodError: for a period before the event's end, beyond the third list after
        it without ``late_ok``, or a stored event rated in another period (roll back).
    """
    period = parse_rating_period(session, label)
    event = session.get_one(Event, session.get_one(Game, game_id).event_id)
    games = session.scalar(sa.select(sa.func.count()).where(Game.event_id == event.id))
    if games == 1:
        return give_rating_period(session, [event.id], period, late_ok=late_ok)
    if event.rating_period != period.start:
        where = (
            "the period of its end date"
            if event.rating_period is None
            else Period(event.rating_period, period.months).label
        )
        raise PeriodError(
            f"event {event.id} ({event.name}) has other games, rated in {where}; give the "
            f"event the period with 'ratings event edit {event.id} --period {period.label}'"
        )
    warning = check_rating_period(
        get_config(session), event.name, event.end_date, period, late_ok=late_ok
    )
    return [] if warning is None else [warning]


def change_rating_period(
    session: Session, event: Event, period: Period | None, *, late_ok: bool = False
) -> bool:
    """Give a stored event another rating period (None: back to the default); a correction:
    the rated periods from the earlier of the old and the new one are marked for a re-rate.
    Returns whether it changed. (The caller records it in the corrections log.)

    :raises PeriodError: for a period before the event's end, beyond the third list after it
        without ``late_ok`` (art. 9.1), or one before the oldest rated period's history.
    """
    config = get_config(session)
    new = None if period is None else period.start
    if new == event.rating_period:
        return False
    if period is not None:
        check_rating_period(config, event.name, event.end_date, period, late_ok=late_ok)
    before = rated_from(session, config, event)
    event.rating_period = new
    earlier = min(before, rated_from(session, config, event))
    problem = history_error(session, earlier.start)
    if problem:
        raise PeriodError(problem)
    mark_for_rerate(session, earlier.start)
    session.flush()
    return True
