"""Corrections beyond one game: events edited and voided, and which periods wait for a re-rate
(what a pending re-rate would change is :func:`ratings.service.rating.rate.rerate_pending`);
``unrate`` and ``import undo``: :mod:`ratings.service.corrections.undo`.

Every function takes the session first and never commits. Each correction is written to the
corrections log (:mod:`ratings.service.shared.audit`) in the same transaction, with the
``--reason`` it was given.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, rules
from ratings.errors import InvalidInputError
from ratings.models import (
    Bye,
    Event,
    Game,
    Player,
    RatingPeriod,
)
from ratings.rules import Period
from ratings.service.corrections.logged import bye_lines, event_lines, game_lines, game_text
from ratings.service.corrections.moves import (
    EventMove,
    EventMoveError,
    Span,
    event_move,
    games_span,
    mark_days,
)
from ratings.service.rating.marks import touched_period
from ratings.service.rating.periods import (
    change_rating_period,
    check_rating_period,
    parse_rating_period,
)
from ratings.service.register.events import get_event
from ratings.service.shared import audit
from ratings.service.shared.config import get_config
from ratings.service.shared.dates import check_not_future
from ratings.service.shared.text import clean_text

__all__ = [
    "EventEdit",
    "VoidedEvent",
    "delete_events",
    "edit_event",
    "mark_event",
    "touched",
    "void_event",
    "waiting",
]


def waiting(session: Session) -> set[str]:
    """The labels of the rated periods that wait for a re-rate."""
    return set(
        session.scalars(sa.select(RatingPeriod.label).where(RatingPeriod.status == "needs_rerate"))
    )


def touched(session: Session) -> str | None:
    """The earliest rated period this command marked for a re-rate, already marked before or
    not: what ``This touches rated period P`` names (not the earliest period some earlier
    correction marked, nor a later one when the earliest was marked already).
    :func:`ratings.service.rating.marks.touched_period`."""
    return touched_period(session)


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventEdit:
    """What :func:`edit_event` changed."""

    event_id: int
    name: str
    """The event's name now."""
    changed: tuple[str, ...]
    """The fields changed: name, start_date, end_date, rating_period, time_control,
    norm_exemption."""
    move: EventMove | None
    """The dates' or the time control's move, when they changed."""
    warnings: tuple[str, ...] = ()
    """A rating period beyond the last list art. 9.1 allows, let through by ``late_ok``."""


def mark_event(session: Session, spans: Sequence[Span], first_game: dt.date | None) -> None:
    """Mark the rated periods an event's dates touch: the periods of its end dates, old and
    new (an event longer than 90 days: from its first game's)."""
    days = {end for _, end in spans}
    if first_game is not None and any(rules.is_long_event(*span) for span in spans):
        days.add(first_game)
    mark_days(session, days)


def edit_event(
    session: Session,
    ref: str,
    *,
    name: str | None = None,
    start: dt.date | None = None,
    end: dt.date | None = None,
    today: dt.date | None = None,
    allow_move: bool = True,
    reason: str | None = None,
    period: str | None = None,
    time_control: str | None = None,
    late_ok: bool = False,
    norm_exemption: str | None = None,
) -> EventEdit:
    """Correct an event's name, dates, period or time control. New dates
    must hold every game of the event; they decide the list its games use (start) and the
    period that rates them (end), so they mark the rated periods they touch, old and new.

    ``period`` (``YYYY-MM``; ``""``: back to the default) is the period whose list rates the
    event when it was submitted for a later list (see
    :func:`ratings.service.rating.periods.change_rating_period`): not before the period of
    its end date, and under fide not beyond the third list after its end (art. 9.1) unless
    ``late_ok``; the rated periods from the earlier of the old and the new one are marked.

    ``time_control`` (standard, rapid or blitz) is the list that rates its games:
    a change moves them from one list to the other, so it marks the rated periods of the
    event (each period is re-rated on every list, the one they leave and the one they join)
    and, like new dates, is a move (``allow_move``).

    ``norm_exemption`` (``national-championship``, ``national-team-championship``,
    ``zonal``, ``qualifying-swiss`` or ``none``) is the event's exemption from the federation
    rules of title norms (FIDE Title Regulations 1.4.3a-d, docs/TITLES.md); no rating
    depends on it, so it marks nothing.

    :param today: a date after it is refused (None: no check).
    :param allow_move: False: a change of the dates raises
        :class:`~ratings.service.corrections.moves.EventMoveError` (roll back then).
    :raises InvalidInputError: for an unknown event, a blank name, dates in the wrong order,
        or dates that leave a game outside.
    :raises InvalidTimeControlError: for a time control other than the three.
    """
    audit.check_reason(reason)
    new_tc = None if time_control is None else rules.time_control(time_control).value
    exemption = None
    if norm_exemption is not None:
        from ratings.service.titles.norms import norm_exemption as stored_exemption

        exemption = stored_exemption(norm_exemption)
    event = get_event(session, ref)
    new_name = event.name if name is None else _event_name(name)
    new_period = parse_rating_period(session, period) if period else None
    old: Span = (event.start_date, event.end_date)
    new: Span = (start or old[0], end or old[1])
    span = _check_dates(session, event, new, start, end, today)
    changes = []
    if new_name != event.name:
        changes.append(audit.Change(event_id=event.id, field="name", old=event.name, new=new_name))
        event.name = new_name
    move = None
    if new != old or (new_tc is not None and new_tc != event.time_control):
        move, moved = _move_event(session, event, old, new, new_tc, span, allow_move=allow_move)
        changes += moved
    old_period = event.rating_period
    if period is not None and change_rating_period(session, event, new_period, late_ok=late_ok):
        changes.append(
            audit.Change(
                event_id=event.id, field="rating_period", old=old_period, new=event.rating_period
            )
        )
    if norm_exemption is not None and exemption != event.norm_exemption:
        changes.append(
            audit.Change(
                event_id=event.id, field="norm_exemption", old=event.norm_exemption, new=exemption
            )
        )
        event.norm_exemption = exemption
    warning = _period_warning(session, event, old_period, old[1], late_ok=late_ok)
    session.flush()
    if changes:
        audit.record(session, audit.Action.EVENT_EDIT, *changes, reason=reason)
    return EventEdit(
        event.id,
        event.name,
        tuple(c.field or "" for c in changes),
        move,
        () if warning is None else (warning,),
    )


def _event_name(name: str) -> str:
    """An event's new name (``--name``), as stored."""
    cleaned = clean_text(name, limits.MAX_EVENT_LENGTH, "--name")
    if cleaned is None:
        raise InvalidInputError("--name: an event needs a name")
    return cleaned


def _check_dates(
    session: Session,
    event: Event,
    new: Span,
    start: dt.date | None,
    end: dt.date | None,
    today: dt.date | None,
) -> Span | None:
    """Refuse new dates (``start``, ``end``: the ones given) in the wrong order, after
    ``today`` or leaving a game of the event outside; returns its games' span (None: no
    game)."""
    if new[1] < new[0]:
        raise InvalidInputError(f"the end {new[1]} is before the start {new[0]}")
    for day, option in ((start, "--start"), (end, "--end")):
        if day is not None:
            check_not_future(day, today, option)
    span = games_span(session, event.id)
    if span is not None and (span[0] < new[0] or new[1] < span[1]):
        outside = session.scalars(
            sa.select(Game)
            .where(Game.event_id == event.id)
            .where(sa.or_(Game.played_on < new[0], Game.played_on > new[1]))
            .order_by(Game.played_on, Game.id)
        ).all()
        first = outside[0]
        raise InvalidInputError(
            f"{len(outside)} game{'s' if len(outside) != 1 else ''} of event {event.id} "
            f"({event.name}) would lie outside {new[0]} .. {new[1]}, first game {first.id} "
            f"on {first.played_on}; move {'it' if len(outside) == 1 else 'them'} first "
            f"('ratings game edit {first.id} --date YYYY-MM-DD')"
        )
    return span


def _move_event(
    session: Session,
    event: Event,
    old: Span,
    new: Span,
    new_tc: str | None,
    span: Span | None,
    *,
    allow_move: bool,
) -> tuple[EventMove | None, list[audit.Change]]:
    """Give the event its new dates and time control (None: the same), marking the rated
    periods they touch, old and new; returns the move (None: no rated period changes) and
    the changes to log.

    :raises EventMoveError: for a move when not ``allow_move``.
    """
    old_tc = event.time_control
    games = session.scalar(sa.select(sa.func.count()).where(Game.event_id == event.id))
    event.start_date, event.end_date = new
    event.time_control = new_tc or old_tc
    move = event_move(get_config(session), event, old, games or 0, old_tc)
    if not allow_move and move is not None:
        raise EventMoveError(move)
    changes = [
        audit.Change(event_id=event.id, field=f, old=a, new=b)
        for f, a, b in (
            ("start_date", old[0], new[0]),
            ("end_date", old[1], new[1]),
            ("time_control", old_tc, event.time_control),
        )
        if a != b
    ]
    mark_event(session, [old, new], span[0] if span else None)
    return move, changes


def _period_warning(
    session: Session, event: Event, old_period: dt.date | None, old_end: dt.date, *, late_ok: bool
) -> str | None:
    """What an event's new end date says of the period it was given (None: nothing)."""
    if event.rating_period is None:  # new dates must not end after its period
        return None
    config = get_config(session)
    given = Period(event.rating_period, config.period_months)
    # a period given before (with --late-ok) stands while the end date does not move
    as_given = event.rating_period == old_period and event.end_date == old_end
    warning = check_rating_period(
        config, event.name, event.end_date, given, late_ok=late_ok or as_given
    )
    return None if as_given and not late_ok else warning


@dataclass(frozen=True, slots=True)
class VoidedEvent:
    """What :func:`void_event` removed."""

    event_id: int
    name: str
    games: int
    byes: int
    lines: tuple[str, ...] = ()
    """What it removed, one line a row: the event, each game, each bye."""


def void_event(session: Session, ref: str, *, reason: str | None = None) -> VoidedEvent:
    """Remove an event recorded in error, with its games, byes and their calculations;
    the rated period it touched is marked for a re-rate. Every removed row goes to the
    corrections log, with ``reason``.

    :raises InvalidInputError: for an unknown event (or a name several share).
    :raises PeriodError: when its period lies before the rating history.
    """
    audit.check_reason(reason)
    event = get_event(session, ref)
    games = list(
        session.scalars(sa.select(Game).where(Game.event_id == event.id).order_by(Game.id))
    )
    byes = list(session.scalars(sa.select(Bye).where(Bye.event_id == event.id).order_by(Bye.id)))
    span = games_span(session, event.id)
    lines = event_lines(event)
    for game in games:
        lines += game_lines(game)
    for bye in byes:
        lines += bye_lines(bye)
    ids = {g.white_id for g in games} | {g.black_id for g in games} | {b.player_id for b in byes}
    names: dict[int, str] = {
        pid: name
        for pid, name in session.execute(
            sa.select(Player.id, Player.name).where(Player.id.in_(sorted(ids)))
        )
    }
    removed = [f"event {event.id} {event.name} ({event.start_date} .. {event.end_date})"]
    removed += [
        game_text(g.id, g.played_on, g.round, (g.white_id, names[g.white_id]),
                  (g.black_id, names[g.black_id]), g.result.value)
        for g in games
    ]  # fmt: skip
    removed += [
        f"bye: round {b.round}, {names[b.player_id]} (id {b.player_id}) {b.code}" for b in byes
    ]
    voided = VoidedEvent(event.id, event.name, len(games), len(byes), tuple(removed))
    mark_event(session, [(event.start_date, event.end_date)], span[0] if span else None)
    delete_events(session, [event.id])
    audit.record(session, audit.Action.EVENT_VOID, *lines, reason=reason)
    return voided


def delete_events(session: Session, event_ids: Sequence[int]) -> None:
    """Delete events with their games' calculations, their games and byes."""
    conn = session.connection()
    session.flush()
    for i in range(0, len(event_ids), 500):
        marks = ", ".join(str(int(e)) for e in event_ids[i : i + 500])
        conn.exec_driver_sql(
            "DELETE FROM rating_breakdown WHERE game_id IN "
            f"(SELECT id FROM games WHERE event_id IN ({marks}))"
        )
        conn.exec_driver_sql(f"DELETE FROM games WHERE event_id IN ({marks})")
        conn.exec_driver_sql(f"DELETE FROM byes WHERE event_id IN ({marks})")
        conn.exec_driver_sql(f"DELETE FROM events WHERE id IN ({marks})")
    session.expire_all()
