"""What is stored, with the ids the corrections take: games, events (with
an event's crosstable), imports.

Read-only: every function takes the session first and only reads.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session, aliased

from ratings import rules
from ratings.errors import InvalidInputError
from ratings.models import Bye, Event, Game, Import, Player, RatingPeriod
from ratings.rules import Period, SystemConfig
from ratings.service.corrections.moves import rated_in
from ratings.service.rating.marks import parse_period
from ratings.service.rating.rate import closing_shift, long_events
from ratings.service.reading.crosstable import Crosstable, crosstable
from ratings.service.reading.publish import event_data
from ratings.service.register.events import get_event
from ratings.service.register.lookup import get_player
from ratings.service.shared.config import get_config

__all__ = [
    "EventInfo",
    "EventTable",
    "GameInfo",
    "ImportInfo",
    "event_info",
    "event_table",
    "game_period",
    "list_events",
    "list_games",
    "list_imports",
]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One stored game, with its event and players."""

    id: int
    played_on: dt.date
    event_id: int
    event: str
    round: str | None
    white_id: int
    white: str
    black_id: int
    black: str
    result: str
    """``1-0``, ``0-1``, ``1/2-1/2``, or a forfeit (``+/-``, ``-/+``, ``-/-``)."""
    rated: bool
    """Whether the game goes to rating (played out and not excluded)."""
    period: str
    """The rating period that rates it (``YYYY-MM``): the period its event was given, else
    the period of its event's end date after the closing date, or for an event longer than
    90 days the period of its own date (:func:`game_period`)."""


def game_period(
    config: SystemConfig,
    event: tuple[dt.date, dt.date, dt.date | None],
    played_on: dt.date,
) -> Period:
    """The period that rates a game (what ``rate`` reads; art. 7.1.3, docs/RULES.md): the
    period its event (start, end, rating period) was given; else, for an event longer than
    90 days, the period of the game's own date, and for any other the period of the event's
    end date (after the closing date)."""
    return rules.game_rating_period(config, *event, played_on)


def _rated_in(session: Session, config: SystemConfig, period: Period) -> sa.ColumnElement[bool]:
    """The games that ``period`` rates (:func:`game_period`, as SQL)."""
    shift = closing_shift(config)
    lo, hi = period.start - shift, period.end - shift
    long = sorted(long_events(session, lo))
    not_given = Event.rating_period.is_(None)
    by_end = sa.and_(not_given, Event.end_date >= lo, Event.end_date <= hi)
    if not long:
        return sa.or_(Event.rating_period == period.start, by_end)
    return sa.or_(
        Event.rating_period == period.start,
        sa.and_(by_end, Event.id.not_in(long)),
        sa.and_(not_given, Event.id.in_(long), Game.played_on >= lo, Game.played_on <= hi),
    )


def list_games(
    session: Session,
    *,
    event_ref: str | None = None,
    player_ref: str | None = None,
    period_label: str | None = None,
    played_in: str | None = None,
) -> list[GameInfo]:
    """Stored games by date and id, narrowed to one event (id or exact name), one player's
    games (a PLAYER argument), the games one rating period rates (``period_label``,
    ``YYYY-MM``: :func:`game_period`) and the games played within one period
    (``played_in``).

    :raises InvalidInputError: for an event that is not stored (or a name several share).
    :raises PlayerNotFoundError: for an unknown player.
    """
    config = get_config(session)
    white, black = aliased(Player), aliased(Player)
    query = (
        sa.select(
            Game,
            Event.name,
            white.name,
            black.name,
            Event.start_date,
            Event.end_date,
            Event.rating_period,
        )
        .join(Event, Event.id == Game.event_id)
        .join(white, white.id == Game.white_id)
        .join(black, black.id == Game.black_id)
        .order_by(Game.played_on, Game.id)
    )
    if event_ref is not None:
        query = query.where(Game.event_id == get_event(session, event_ref).id)
    if player_ref is not None:
        pid = get_player(session, player_ref).id
        query = query.where(sa.or_(Game.white_id == pid, Game.black_id == pid))
    if played_in is not None:
        period = parse_period(session, played_in)
        query = query.where(Game.played_on >= period.start, Game.played_on <= period.end)
    if period_label is not None:
        query = query.where(_rated_in(session, config, parse_period(session, period_label)))
    return [
        GameInfo(
            g.id,
            g.played_on,
            g.event_id,
            event,
            g.round,
            g.white_id,
            white_name,
            g.black_id,
            black_name,
            g.result.value,
            g.rateable,
            game_period(config, (start, end, given), g.played_on).label,
        )
        for g, event, white_name, black_name, start, end, given in session.execute(query)
    ]


@dataclass(frozen=True, slots=True)
class EventInfo:
    """One stored event and what it holds."""

    id: int
    name: str
    start_date: dt.date
    """Picks the list its games use (the list in force on this day)."""
    end_date: dt.date
    period: str
    """The rating period that rates its games (``YYYY-MM``; an event longer than 90 days:
    each game's own period)."""
    period_rated: bool
    """Whether that period has been rated (its list published)."""
    time_control: str
    """The list that rates its games: standard, rapid or blitz."""
    games: int
    rated_games: int
    byes: int
    source: str
    """manual, csv, trf or pgn."""
    import_id: int | None
    """The import that added it; None for an event made by ``game add``."""


def list_events(session: Session, event_id: int | None = None) -> list[EventInfo]:
    """Every stored event (or the one of ``event_id``), oldest first (by start date, then
    id)."""
    config = get_config(session)
    only = () if event_id is None else (Game.event_id == event_id,)
    games = dict(
        session.execute(
            sa.select(Game.event_id, sa.func.count()).where(*only).group_by(Game.event_id)
        ).all()
    )
    rated = dict(
        session.execute(
            sa.select(Game.event_id, sa.func.count())
            .where(Game.rateable, *only)
            .group_by(Game.event_id)
        ).all()
    )
    by = () if event_id is None else (Bye.event_id == event_id,)
    byes = dict(
        session.execute(
            sa.select(Bye.event_id, sa.func.count()).where(*by).group_by(Bye.event_id)
        ).all()
    )
    published = set(session.scalars(sa.select(RatingPeriod.label)))
    found = []
    which = () if event_id is None else (Event.id == event_id,)
    for e in session.scalars(sa.select(Event).where(*which).order_by(Event.start_date, Event.id)):
        label = rated_in(config, e.start_date, e.end_date, e.rating_period)
        found.append(
            EventInfo(
                e.id,
                e.name,
                e.start_date,
                e.end_date,
                label,
                label in published,
                e.time_control,
                games.get(e.id, 0),
                rated.get(e.id, 0),
                byes.get(e.id, 0),
                e.source,
                e.import_id,
            )
        )
    return found


def event_info(session: Session, ref: str) -> EventInfo:
    """One event (id or exact name) and what it holds.

    :raises InvalidInputError: for an event that is not stored (or a name several share).
    """
    (info,) = list_events(session, get_event(session, ref).id)
    return info


@dataclass(frozen=True, slots=True)
class EventTable:
    """An event and its crosstable (``ratings event show``)."""

    event: EventInfo
    table: Crosstable
    names: dict[int, str]
    """The name of every player in the table, by id."""


def event_table(session: Session, ref: str) -> EventTable:
    """One event (id or exact name) and its crosstable, as the website's event page shows it
    (:func:`ratings.service.reading.crosstable.crosstable`).

    :raises InvalidInputError: for an event that is not stored (or a name several share).
    """
    info = event_info(session, ref)
    found = list(event_data(session, [info.id]))
    if not found:
        raise InvalidInputError(f"event {info.id} ({info.name}) holds no games or byes")
    ids = {g.white_id for g in found[0].games} | {g.black_id for g in found[0].games}
    ids |= {b.player_id for b in found[0].byes}
    names = dict(session.execute(sa.select(Player.id, Player.name).where(Player.id.in_(ids))).all())
    codes = session.scalar(sa.select(Event.tiebreaks).where(Event.id == info.id))
    table = crosstable(found[0], lambda pid: names.get(pid, "").lower(), info.start_date, codes)
    return EventTable(info, table, names)


@dataclass(frozen=True, slots=True)
class ImportInfo:
    """One imported file and what it added."""

    id: int
    kind: str
    """players_csv, games_csv, trf or pgn."""
    file_name: str
    imported_at: dt.datetime
    """UTC."""
    rows: int
    """The rows (games, byes or players) the file held."""
    events: int
    games: int
    byes: int
    first_event: str | None
    """The name of its first event, if it added any."""
    undone_by: int | None = None
    """The corrections batch of the ``import undo`` that undid it (``imports.undone_by``;
    its events, games and byes are gone: 0); None for an import in force."""


def list_imports(session: Session) -> list[ImportInfo]:
    """Every import, oldest first, with the events, games and byes it added (an undone
    import too: :attr:`ImportInfo.undone_by`): the games it stored, not those added by hand
    to its events later."""
    events: dict[int, list[tuple[int, str]]] = {}
    for event_id, import_id, name in session.execute(
        sa.select(Event.id, Event.import_id, Event.name)
        .where(Event.import_id.is_not(None))
        .order_by(Event.id)
    ):
        if import_id is not None:
            events.setdefault(import_id, []).append((event_id, name))
    # the games each import stored: a game added by hand to an imported event is not its
    games = dict(
        session.execute(
            sa.select(Game.import_id, sa.func.count())
            .where(Game.import_id.is_not(None))
            .group_by(Game.import_id)
        ).all()
    )
    byes = dict(
        session.execute(
            sa.select(Event.import_id, sa.func.count())
            .join(Bye, Bye.event_id == Event.id)
            .where(Event.import_id.is_not(None))
            .group_by(Event.import_id)
        ).all()
    )
    return [
        ImportInfo(
            i.id,
            i.kind,
            i.file_name,
            i.imported_at,
            i.rows,
            len(events.get(i.id, [])),
            games.get(i.id, 0),
            byes.get(i.id, 0),
            events[i.id][0][1] if events.get(i.id) else None,
            i.undone_by,
        )
        for i in session.scalars(sa.select(Import).order_by(Import.id))
    ]
