"""Recording results by hand: single games added, corrected and voided."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, rules
from ratings.errors import InvalidInputError, NothingChangedError, PeriodError
from ratings.models import Correction, Event, Game, Player, RatingBreakdown
from ratings.results import Result
from ratings.rules import is_long_event
from ratings.service.corrections.logged import game_lines, game_text
from ratings.service.corrections.moves import (
    EventMoveError,
    Span,
    event_move,
    follow_games,
    games_span,
    mark_days,
)
from ratings.service.rating.marks import history_error
from ratings.service.rating.periods import check_given_period
from ratings.service.register.lookup import get_player
from ratings.service.shared import audit
from ratings.service.shared.config import get_config
from ratings.service.shared.dates import check_not_future
from ratings.service.shared.text import clean_text, game_label

# --- single games -------------------------------------------------------------------------


def _event_for(
    session: Session, name: str | None, day: dt.date, label: str, time_control: str | None
) -> Event:
    if name:
        event = session.scalar(
            sa.select(Event).where(Event.name == name).order_by(Event.id.desc()).limit(1)
        )
        if event is not None:
            if time_control is not None and event.time_control != time_control:
                raise InvalidInputError(
                    f"event {name!r} is rated on the {event.time_control} list, not {time_control}"
                )
            return event
    event = Event(
        name=name or label,
        start_date=day,
        end_date=day,
        source="manual",
        time_control=time_control or "standard",
    )
    session.add(event)
    session.flush()
    return event


@dataclass(frozen=True, slots=True)
class _EventDates:
    """An event as a change to its games found it: its dates and its games' first and last
    day."""

    event: Event
    old: Span
    """The event's dates."""
    before: Span | None
    """Its games' first and last day (None: no game)."""

    @classmethod
    def before_change(cls, session: Session, event: Event) -> _EventDates:
        return cls(event, (event.start_date, event.end_date), games_span(session, event.id))


def _refresh_event(
    session: Session,
    dates: _EventDates,
    *,
    allow_move: bool,
    confirm_any: bool,
    game_days: Sequence[dt.date] = (),
) -> None:
    """After a change to an event's games: set its dates from them (the sides they set follow
    them, :func:`ratings.service.corrections.moves.follow_games`); mark the rated periods whose
    lists the
    change touches; refuse a change that reaches before the rating history.

    :param dates: the event's dates and its games' span before the change.
    :param allow_move: False: a change of the event's dates raises
        :class:`~ratings.service.corrections.moves.EventMoveError` (any change with ``confirm_any``,
        else one that sends its games to another period or list), with the session's work
        to be rolled back.
    :param game_days: the changed game's days, old and new (an event longer than 90 days
        rates each game in the period it was played).
    """
    session.flush()
    event, old, before = dates.event, dates.old, dates.before
    event.start_date, event.end_date = follow_games(old, before, games_span(session, event.id))
    check_given_period(get_config(session), event)
    if not allow_move and (event.start_date, event.end_date) != old:
        count = session.scalar(sa.select(sa.func.count()).where(Game.event_id == event.id))
        move = event_move(get_config(session), event, old, count or 0)
        if move is not None and (confirm_any or move.moves_rating):
            raise EventMoveError(move)
    days = {event.end_date, old[1]}
    longs = [is_long_event(*span) for span in (old, (event.start_date, event.end_date))]
    if any(longs):
        days.update(game_days)
    if longs[0] != longs[1]:  # every game changes period: from the first game's on
        days.add(min(old[0], event.start_date))
    if event.rating_period is not None:  # rated whole in the period it was given
        days = {event.rating_period}
    mark_days(session, days)
    session.flush()


def add_game(
    session: Session,
    white_ref: str,
    black_ref: str,
    result: Result,
    played_on: dt.date,
    *,
    event_name: str | None = None,
    round: str | None = None,
    today: dt.date | None = None,
    allow_move: bool = True,
    time_control: str | None = None,
) -> Game:
    """Record one game. Without an event it is an event of its own
    (docs/RULES.md#which-ratings-a-game-uses); with the name of a stored event it joins it (the
    event's dates grow to include the game).

    :param time_control: the list of the event it creates: standard (None: the default),
        rapid or blitz; for a stored event, it must be the event's.

    :param today: refuse a date after it (None: no check; the CLI passes today unless
        ``--allow-future``).
    :param allow_move: False: refuse (:class:`~ratings.service.corrections.moves.EventMoveError`) a
    game
        that sends its stored event to another rating period or list; roll back then.
    :raises LimitError: for an event name or round beyond :mod:`ratings.limits`.
    :raises FutureDateError: for a date after ``today``.
    """
    check_not_future(played_on, today)
    event_name = clean_text(event_name, limits.MAX_EVENT_LENGTH, "event")
    round = clean_text(round, limits.MAX_ROUND_LENGTH, "round")
    white = get_player(session, white_ref)
    black = get_player(session, black_ref)
    if white.id == black.id:
        raise InvalidInputError(f"a player cannot play themself: {white.name} (id {white.id})")
    problem = history_error(session, played_on)
    if problem:
        raise PeriodError(problem)
    label = game_label(white.name, black.name, played_on)
    if time_control is not None:
        time_control = rules.time_control(time_control).value
    event = _event_for(session, event_name, played_on, label, time_control)
    dates = _EventDates.before_change(session, event)
    game = Game(
        event_id=event.id,
        round=round,
        played_on=played_on,
        white_id=white.id,
        black_id=black.id,
        result=result,
        rateable=result.is_played,
    )
    session.add(game)
    _refresh_event(
        session,
        dates,
        allow_move=allow_move,
        confirm_any=False,
        game_days=(played_on,),
    )
    return game


def get_game(session: Session, game_id: int) -> Game:
    """A stored game by id."""
    game = session.get(Game, game_id) if 0 < game_id < 2**63 else None  # SQLite's INTEGER
    if game is None:
        raise InvalidInputError(_removed(session, game_id) or f"no game with id {game_id}")
    return game


def describe_game(session: Session, game_id: int) -> str:
    """One stored game as a void names it: ``game 17: 2026-01-14 round 3, Ann (id 1) - Bob
    (id 2) 1-0``.

    :raises InvalidInputError: for an unknown game (a removed one: by which correction)."""
    game = get_game(session, game_id)
    white = session.get_one(Player, game.white_id)
    black = session.get_one(Player, game.black_id)
    return game_text(
        game.id,
        game.played_on,
        game.round,
        (white.id, white.name),
        (black.id, black.name),
        game.result.value,
    )


_REMOVED_BY = {
    "game_void": "voided",
    "event_void": "removed with its event ('event void'; ",
    "import_undo": "removed with its import ('import undo'; ",
}
"""How a correction that removes games says it (``corrections.action``)."""


def _removed(session: Session, game_id: int) -> str | None:
    """Why there is no game ``game_id`` when a correction removed it (ids are never reused):
    which one, and when, as ``ratings log`` shows it; None for an id never used."""
    found = session.execute(
        sa.select(Correction.batch, Correction.action, Correction.recorded_at)
        .where(Correction.game_id == game_id, Correction.action.in_(list(_REMOVED_BY)))
        .order_by(Correction.id.desc())
        .limit(1)
    ).first()
    if found is None:
        return None
    batch, action, when = found
    how = _REMOVED_BY[action]
    opened = "" if how.endswith("; ") else " ("
    return (
        f"game {game_id} was {how}{opened}batch {batch} in 'ratings log', "
        f"{when:%Y-%m-%d %H:%M} UTC); there is nothing left to correct"
    )


def edit_game(
    session: Session,
    game_id: int,
    *,
    result: Result | None = None,
    played_on: dt.date | None = None,
    round: str | None = None,
    rated: bool | None = None,
    today: dt.date | None = None,
    allow_move: bool = True,
    reason: str | None = None,
) -> Game:
    """Correct a stored game; the rated periods it touches are marked for re-rating.

    ``round=""`` clears the round. A new date after ``today`` is refused (None: no check).
    An edit that leaves every value as it is raises
    :class:`~ratings.errors.NothingChangedError` (nothing marked or logged).
    With ``allow_move`` False a new date that changes the event's dates is refused
    (:class:`~ratings.service.corrections.moves.EventMoveError`; roll back then). Every field
    changed
    (and the event's dates, when they move) goes to the corrections log with ``reason``.
    """
    audit.check_reason(reason)
    if played_on is not None:
        check_not_future(played_on, today)
    new_round = clean_text(round, limits.MAX_ROUND_LENGTH, "round")
    game = get_game(session, game_id)
    event = session.get_one(Event, game.event_id)
    dates = _EventDates.before_change(session, event)
    old_day = game.played_on
    # a game's date moves its event: ask when other games follow it (any change of the
    # dates), or when its own event goes to another period or list
    others = session.scalar(
        sa.select(sa.func.count()).where(Game.event_id == event.id, Game.id != game.id)
    )
    was = {f: getattr(game, f) for f in ("result", "rateable", "played_on", "round")}
    if result is not None:
        game.result = result
        game.rateable = result.is_played if rated is None else rated
    if rated is not None:
        if rated and not game.result.is_played:
            raise InvalidInputError(f"a forfeit ({game.result.value}) cannot be rated")
        game.rateable = rated
    if played_on is not None:
        problem = history_error(session, played_on)
        if problem:
            raise PeriodError(problem)
        game.played_on = played_on
    if round is not None:
        game.round = new_round
    if all(getattr(game, f) == value for f, value in was.items()):
        # nothing to write, log or re-rate (seen: a no-op edit marked its period)
        raise NothingChangedError(f"game {game.id} unchanged: it already has these values")
    _refresh_event(
        session,
        dates,
        allow_move=allow_move,
        confirm_any=bool(others),
        game_days=(old_day, game.played_on),
    )
    changes = [
        audit.Change(game_id=game.id, event_id=event.id, field=f, old=value, new=getattr(game, f))
        for f, value in was.items()
        if getattr(game, f) != value
    ]
    changes += _date_lines(event, dates.old)
    if changes:
        audit.record(session, audit.Action.GAME_EDIT, *changes, reason=reason)
    return game


def _date_lines(event: Event, old: tuple[dt.date, dt.date]) -> list[audit.Change]:
    """The corrections log's lines for an event's dates that moved."""
    return [
        audit.Change(event_id=event.id, field=f, old=value, new=getattr(event, f))
        for f, value in zip(("start_date", "end_date"), old, strict=True)
        if getattr(event, f) != value
    ]


def void_game(
    session: Session, game_id: int, *, allow_move: bool = True, reason: str | None = None
) -> Game:
    """Remove a game recorded in error; its rated period is marked for re-rating.

    Its breakdown rows go with it; the published values they produced stay in
    ``superseded_ratings`` after the re-rate. With ``allow_move`` False a void that changes
    the event's dates is refused (:class:`~ratings.service.corrections.moves.EventMoveError`; roll
    back
    then). The game's every column goes to the corrections log, with ``reason``.
    """
    audit.check_reason(reason)
    game = get_game(session, game_id)
    event = session.get_one(Event, game.event_id)
    dates = _EventDates.before_change(session, event)
    removed = game_lines(game)
    old_end = event.end_date
    problem = history_error(session, old_end)
    if problem:
        raise PeriodError(problem)
    session.execute(sa.delete(RatingBreakdown).where(RatingBreakdown.game_id == game.id))
    session.delete(game)
    _refresh_event(
        session,
        dates,
        allow_move=allow_move,
        confirm_any=True,
        game_days=(game.played_on,),
    )
    audit.record(
        session,
        audit.Action.GAME_VOID,
        *removed,
        *_date_lines(event, dates.old),
        reason=reason,
    )
    return game
