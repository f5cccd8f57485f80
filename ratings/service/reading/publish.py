"""Reading what the published website shows: set-based queries for ``ratings publish`` and
``ratings plot``.

Over 600 lines: the one place that reads the columns the site shows (see below).

A federation holds millions of list and breakdown rows, so nothing here loads one page at a
time: each function runs one query (or one per chunk of ids) and streams plain, frozen rows
that the site builder (:mod:`ratings.site`) groups by player, event or period. Names of
players and events are read once (:func:`register`, :func:`events`) and joined in Python.

Every column is read here and nowhere else in the site code, so a renamed column is an edit
in this module only.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler

from ratings import rules, sealing
from ratings.errors import InvalidInputError, PeriodError
from ratings.models import (
    ENTRY_COLUMNS,
    LIST_COLUMNS,
    PLAYER_COLUMNS,
    Bye,
    Event,
    Game,
    Player,
    RatingBreakdown,
    RatingHistory,
    RatingPeriod,
)
from ratings.results import Result
from ratings.rules import Period, points
from ratings.service.rating import seals
from ratings.service.rating.marks import parse_period
from ratings.service.register.lookup import get_player
from ratings.service.shared.config import get_config
from ratings.service.shared.text import list_name

_RESULTS = {r.value: r for r in Result}

CHUNK = 500
"""Ids per ``IN (...)`` list when only some players or events are read."""


@functools.lru_cache(maxsize=65536)
def _units(value: int | None, units_per_point: int) -> Decimal | None:
    """An audit integer (PD or dR in 1/units_per_point) as the exact decimal it stands for."""
    return None if value is None else points(value, units_per_point)


@functools.lru_cache(maxsize=4096)
def _half_points(halves: int) -> Decimal:
    """A score in half points as the exact decimal."""
    return Decimal(halves) / 2


@functools.lru_cache(maxsize=65536)
def _date(value: dt.date | str) -> dt.date:
    """A date as the driver gives it (ISO text on SQLite)."""
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(value)


def _fetch(session: Session, query: sa.ClauseElement) -> Iterator[Sequence[Any]]:
    """The rows of a Core query as the driver's plain tuples, in batches.

    Bulk reads (millions of list and breakdown rows) skip SQLAlchemy's result processing,
    as :func:`ratings.service.shared.sql.fetch_all` does for rating; the SQL still comes from the
    models' columns. Values come as the driver gives them: dates as ISO text on SQLite (see
    :func:`_date`), booleans as 0/1, enums as their stored strings.
    """
    conn = session.connection()
    compiled = query.compile(dialect=conn.dialect, compile_kwargs={"render_postcompile": True})
    assert isinstance(compiled, SQLCompiler)
    params: Any = compiled.construct_params()
    if compiled.positiontup is not None:
        params = [params[name] for name in compiled.positiontup]
    cursor = conn.connection.cursor()
    try:
        cursor.execute(str(compiled), params)
        while batch := cursor.fetchmany(20_000):
            yield from batch
    finally:
        cursor.close()


# --- periods, players, events ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SitePeriod:
    """A rated period and the list it published."""

    id: int
    label: str
    """``YYYY-MM``."""
    start: dt.date
    end: dt.date
    list_date: dt.date
    status: str
    """``rating_periods.status``: ``published`` or ``needs_rerate`` (a correction is waiting
    for ``ratings rate``)."""
    stamp: str
    """When it was last (re-)rated, ISO text: a new stamp means its rows were rewritten."""
    seal: str | None = None
    """The seal of its list's current version (docs/DESIGN.md#sealed-lists); None: not
    sealed (published before lists were sealed, and not rated since)."""
    seal_version: int | None = None


def periods(session: Session, time_control: str = "standard") -> list[SitePeriod]:
    """Every rated period that published the list ``time_control``, oldest first: every
    rated period for the standard list; for rapid and blitz, those with rows on that list
    (a club that never played blitz has none)."""
    query = sa.select(
        RatingPeriod.id,
        RatingPeriod.label,
        RatingPeriod.start_date,
        RatingPeriod.end_date,
        RatingPeriod.list_date,
        RatingPeriod.status,
        RatingPeriod.rated_at,
    ).order_by(RatingPeriod.start_date)
    if time_control != "standard":
        query = query.where(
            sa.exists().where(
                RatingHistory.period_id == RatingPeriod.id,
                RatingHistory.time_control == time_control,
            )
        )
    rows = session.execute(query)
    current = sealing.current_versions(seals.chain(session, time_control))
    found = []
    for pid, label, start, end, list_date, status, rated_at in rows:
        sealed = current.get((time_control, label))
        if sealed is not None and sealed.kind != "sealed":
            sealed = None
        found.append(
            SitePeriod(
                pid, label, start, end, list_date, status, rated_at.isoformat(),
                None if sealed is None else sealed.seal,
                None if sealed is None else sealed.version,
            )
        )  # fmt: skip
    return found


def seal_chain(session: Session, time_control: str) -> list[sealing.SealRecord]:
    """Every version of the seals of the list ``time_control`` (``seals.json``)."""
    return seals.chain(session, time_control)


@dataclass(frozen=True, slots=True)
class SitePlayer:
    """A player's register entry (merged-away records are left out)."""

    id: int
    name: str
    fide_id: int | None
    federation: str | None
    sex: str | None
    title: str | None
    birth_year: int | None
    k10: bool
    """The K=10 flag set by hand."""
    entry_rating: int | None
    entry_games: int | None
    """None: unknown."""


def register(
    session: Session, time_control: str = "standard", *, through: dt.date | None = None
) -> dict[int, SitePlayer]:
    """Every live player by id, with the entry data of the list ``time_control``.

    The standard list's site shows every player. A rapid or blitz site leaves out the players
    who never had a rating or a game on that list: only those with an entry rating on it, a
    rating or a rated game on one of its lists, or a game or bye in one of its events (that
    end on or before ``through``, when given) are kept.
    """
    entry_rating, entry_games, k10, _ = ENTRY_COLUMNS[time_control]
    query = sa.select(*PLAYER_COLUMNS, k10, entry_rating, entry_games).where(
        Player.merged_into_id.is_(None)
    )
    if time_control != "standard":
        on_list = sa.select(RatingHistory.player_id).where(
            RatingHistory.time_control == time_control,
            sa.or_(RatingHistory.rating_after.is_not(None), RatingHistory.period_games > 0),
        )
        its_events = sa.select(Event.id).where(Event.time_control == time_control)
        if through is not None:
            its_events = its_events.where(Event.end_date <= through)
        white = sa.select(Game.white_id).where(Game.event_id.in_(its_events))
        black = sa.select(Game.black_id).where(Game.event_id.in_(its_events))
        bye = sa.select(Bye.player_id).where(Bye.event_id.in_(its_events))
        query = query.where(
            sa.or_(
                entry_rating.is_not(None),
                Player.id.in_(on_list),
                Player.id.in_(white),
                Player.id.in_(black),
                Player.id.in_(bye),
            )
        )
    rows = session.execute(query)
    return {
        pid: SitePlayer(pid, name, fide, fed, sex, title, born, bool(k10), entry, games)
        for pid, name, fide, fed, sex, title, born, k10, entry, games in rows
    }


@dataclass(frozen=True, slots=True)
class SiteEvent:
    """An event that has games or byes, and is rated by a published period."""

    id: int
    name: str
    start_date: dt.date
    end_date: dt.date
    norm_exemption: str | None = None
    """Title norms on the event's page depend on it (docs/TITLES.md)."""
    rated_from: dt.date | None = None
    """The first day of the period whose list rates its games
    (:func:`ratings.rules.event_rating_period`: after the closing date, or the period it was
    given); for an event longer than 90 days, that of its first game. None: not known (a
    record made by hand, for a test)."""
    rated_to: dt.date | None = None
    """The same for its last game: another period only for an event longer than 90 days,
    each of whose games is rated in the period it was played."""
    tiebreaks: str | None = None
    """The tie-breaks its file named (``events.tiebreaks``); None: its system's."""


def events(
    session: Session, *, through: dt.date, time_control: str = "standard"
) -> dict[int, SiteEvent]:
    """Every event rated on the list ``time_control`` whose (first) rating period ends on or
    before ``through`` (the last rated period's end) and holds at least one game or bye, by
    id; with the periods that rate it (the rate's own rule, :func:`event_periods`)."""
    has_games = sa.exists().where(Game.event_id == Event.id)
    has_byes = sa.exists().where(Bye.event_id == Event.id)
    config = get_config(session)
    # the closing date moves an end date at most into the next period: read one more
    latest = Period.containing(through, config.period_months).next().end
    found_rows = session.execute(
        sa.select(
            Event.id, Event.name, Event.start_date, Event.end_date, Event.norm_exemption,
            Event.rating_period, Event.tiebreaks,
        ).where(
            sa.or_(Event.end_date <= latest, Event.rating_period <= through),
            Event.time_control == time_control,
            sa.or_(has_games, has_byes),
        )
    )  # fmt: skip
    rows = list(found_rows)
    spans = event_periods(session, [(r[0], r[2], r[3], r[5]) for r in rows])
    found = {}
    for event_id, name, start, end, exemption, _, codes in rows:
        first, last = spans[event_id]
        if first.end <= through:
            found[event_id] = SiteEvent(
                event_id, name, start, end, exemption, first.start, last.start, codes
            )
    return found


def event_periods(
    session: Session, events: Sequence[tuple[int, dt.date, dt.date, dt.date | None]]
) -> dict[int, tuple[Period, Period]]:
    """The first and last periods that rate each event's games (id, start, end, the period
    given), by :func:`ratings.rules.game_rating_period`: one for most events; for one longer
    than 90 days, those of its first and last games (read here)."""
    config = get_config(session)
    found: dict[int, tuple[Period, Period]] = {}
    long = []
    for event_id, start, end, given in events:
        period = rules.event_rating_period(config, start, end, given)
        if period is None:
            long.append(event_id)
        else:
            found[event_id] = (period, period)
    for chunk in _chunks(long, CHUNK):
        days = session.execute(
            sa.select(Game.event_id, sa.func.min(Game.played_on), sa.func.max(Game.played_on))
            .where(Game.event_id.in_(chunk))
            .group_by(Game.event_id)
        )
        for event_id, first, last in days:
            found[event_id] = (config.rating_period(first), config.rating_period(last))
    for event_id, start, end, _ in events:  # only byes: the days of the event itself
        if event_id not in found:
            found[event_id] = (config.rating_period(start), config.rating_period(end))
    return found


# --- lists ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SiteListRow:
    """One player's row on one period's list, as the site's list pages show it (the register
    columns come from :class:`SitePlayer`)."""

    player_id: int
    rating: int | None
    change: int
    """Whole points (art. 8.3.4)."""
    period_games: int
    """Rated games in this period."""
    total_games: int
    """Rated games completed through this period, entry games included."""
    next_k: int | None
    """K for the next period (before the 700 rule)."""
    k10: bool
    list_status: str
    """listed | first_rating | unrated | below_floor."""


def list_rows(
    session: Session, period_ids: Collection[int], time_control: str = "standard"
) -> Iterator[tuple[int, list[SiteListRow]]]:
    """The rated players' rows on the lists ``time_control`` of ``period_ids``:
    ``(period id, entries)`` one period at a time, in no particular order within a period."""
    for chunk in _chunks(sorted(period_ids), 8):
        rows = _fetch(
            session,
            sa.select(RatingHistory.period_id, RatingHistory.player_id, *LIST_COLUMNS)
            .where(
                RatingHistory.period_id.in_(chunk),
                RatingHistory.time_control == time_control,
                RatingHistory.rating_after.is_not(None),
            )
            .order_by(RatingHistory.period_id),
        )
        for period_id, group in itertools.groupby(rows, key=lambda r: r[0]):
            yield (
                period_id,
                [SiteListRow(r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), r[8]) for r in group],
            )


def rating_gains(
    session: Session, period_id: int, base_period_id: int, time_control: str = "standard"
) -> Iterator[tuple[int, int, int]]:
    """``(player id, rating, base rating)`` of the players rated on both the list
    ``time_control`` of ``period_id`` and that of ``base_period_id`` whose rating rose
    between them, the largest gain first (the improvers, :mod:`ratings.site.top_lists`);
    read lazily, so that a caller that stops early reads only what it needs."""
    now = RatingHistory.__table__.alias("now")
    base = RatingHistory.__table__.alias("base")
    gain = now.c.rating_after - base.c.rating_after
    yield from (
        (r[0], r[1], r[2])
        for r in _fetch(
            session,
            sa.select(now.c.player_id, now.c.rating_after, base.c.rating_after)
            .join(
                base,
                sa.and_(
                    base.c.player_id == now.c.player_id,
                    base.c.period_id == base_period_id,
                    base.c.time_control == time_control,
                ),
            )
            .where(
                now.c.period_id == period_id,
                now.c.time_control == time_control,
                now.c.rating_after.is_not(None),
                base.c.rating_after.is_not(None),
                gain > 0,
            )
            .order_by(gain.desc()),
        )
    )


def active_players(session: Session, time_control: str = "standard") -> dict[int, set[int]]:
    """Period id -> the players with rated games on the list ``time_control`` in it (for the
    list's inactivity flag)."""
    found: dict[int, set[int]] = {}
    rows = session.execute(
        sa.select(RatingHistory.period_id, RatingHistory.player_id).where(
            RatingHistory.period_games > 0, RatingHistory.time_control == time_control
        )
    )
    for period_id, player_id in rows:
        found.setdefault(period_id, set()).add(player_id)
    return found


# --- a player's history and cards -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PeriodRow:
    """A player's entry on one period's list, as their page shows it."""

    period_id: int
    rating_before: int | None
    rating_after: int | None
    change: int
    """Whole points (art. 8.3.4)."""
    k_used: int | None
    """K used (after the 700 rule); None when no game was rated."""
    period_games: int
    total_games: int | None
    score: Decimal
    pd_sum: Decimal
    next_k: int | None
    k10: bool
    list_status: str


_HISTORY_COLUMNS = (
    RatingHistory.player_id,
    RatingHistory.period_id,
    RatingHistory.rating_before,
    RatingHistory.rating_after,
    RatingHistory.change,
    RatingHistory.k_used,
    RatingHistory.period_games,
    RatingHistory.total_games,
    RatingHistory.score_half_points,
    RatingHistory.pd_sum_units,
    RatingHistory.next_k,
    RatingHistory.k10,
    RatingHistory.list_status,
    RatingHistory.units_per_point,
)


def _period_row(row: Sequence[Any]) -> PeriodRow:
    return PeriodRow(
        row[1], row[2], row[3], row[4], row[5], row[6], row[7],
        _half_points(row[8]), _units(row[9], row[13]) or Decimal(0), row[10], bool(row[11]),
        row[12],
    )  # fmt: skip


def history_rows(
    session: Session, player_ids: Collection[int] | None = None, time_control: str = "standard"
) -> Iterator[tuple[int, list[PeriodRow]]]:
    """``(player id, rows)`` per player in ascending id order, every period's entry on the
    list ``time_control`` (in no particular order: sort by the period's start).
    ``player_ids`` None: every player."""
    for chunk in _id_chunks(player_ids):
        rows = _fetch(
            session,
            sa.select(*_HISTORY_COLUMNS)
            .where(
                *_where(RatingHistory.player_id, chunk),
                RatingHistory.time_control == time_control,
            )
            .order_by(RatingHistory.player_id),
        )
        for player_id, group in itertools.groupby(rows, key=lambda r: r[0]):
            yield player_id, [_period_row(row) for row in group]


def period_rows(
    session: Session, period_ids: Collection[int], time_control: str = "standard"
) -> Iterator[tuple[int, PeriodRow]]:
    """``(player id, row)`` for every entry on the lists ``time_control`` of ``period_ids``."""
    for chunk in _chunks(sorted(period_ids), 8):
        rows = _fetch(
            session,
            sa.select(*_HISTORY_COLUMNS).where(
                RatingHistory.period_id.in_(chunk), RatingHistory.time_control == time_control
            ),
        )
        for row in rows:
            yield row[0], _period_row(row)


@dataclass(frozen=True, slots=True)
class CardGame:
    """One rated game on a player's calculation card (FIDE's calculation page)."""

    period_id: int
    game_id: int
    event_id: int
    played_on: dt.date
    round: str | None
    white: bool
    """The player had White."""
    opponent_id: int
    own_rating: int | None
    """Ro of the player: None for an unrated player's game towards a first rating."""
    opponent_rating: int
    difference: int | None
    """D used, after the 400-point rule (art. 8.3.1)."""
    score: Decimal
    pd: Decimal | None
    """PD (table 8.1.2) or the curve's expectation."""
    dr: Decimal | None
    """dR = score - PD."""
    k_used: int | None
    """K used (after the 700 rule); None for a game pooled towards a first rating."""
    counts_for: str = "change"
    """``change`` or ``first_rating`` (pooled towards a first rating, art. 8.2)."""


def card_games(
    session: Session, player_ids: Collection[int] | None = None, time_control: str = "standard"
) -> Iterator[tuple[int, list[CardGame]]]:
    """``(player id, games)`` per player in ascending id order: every rated game of theirs in
    the events of the list ``time_control``, with its breakdown (unsorted). ``player_ids``
    None: every player."""
    b, g = RatingBreakdown, Game
    for chunk in _id_chunks(player_ids):
        rows = _fetch(
            session,
            sa.select(
                b.player_id,
                b.period_id,
                b.game_id,
                g.event_id,
                g.played_on,
                g.round,
                g.white_id == b.player_id,
                b.opponent_id,
                b.own_rating,
                b.opponent_rating,
                b.difference,
                b.score_half_points,
                b.pd_units,
                b.dr_units,
                b.k_used,
                b.units_per_point,
                b.counts_for,
            )
            .join(g, g.id == b.game_id)
            .join(Event, Event.id == g.event_id)
            .where(*_where(b.player_id, chunk), Event.time_control == time_control)
            .order_by(b.player_id),
        )
        for player_id, group in itertools.groupby(rows, key=lambda r: r[0]):
            yield (
                player_id,
                [
                    CardGame(
                        r[1],
                        r[2],
                        r[3],
                        _date(r[4]),
                        r[5],
                        bool(r[6]),
                        r[7],
                        r[8],
                        r[9],
                        r[10],
                        _half_points(r[11]),
                        _units(r[12], r[15]),
                        _units(r[13], r[15]),
                        r[14],
                        r[16],
                    )
                    for r in group
                ],
            )


def _of_list(query: sa.Select[Any], time_control: str) -> sa.Select[Any]:
    """``query`` on breakdown rows, kept to the games of the list ``time_control``."""
    return (
        query.join(Game, Game.id == RatingBreakdown.game_id)
        .join(Event, Event.id == Game.event_id)
        .where(Event.time_control == time_control)
    )


def players_in_periods(
    session: Session, period_ids: Collection[int], time_control: str = "standard"
) -> set[int]:
    """Players with a rated game (a breakdown row) on the list ``time_control`` in any of
    ``period_ids``."""
    return _card_holders(session, RatingBreakdown.period_id, period_ids, time_control)


def opponents_of(
    session: Session, player_ids: Collection[int], time_control: str = "standard"
) -> set[int]:
    """Players whose cards on the list ``time_control`` name one of ``player_ids`` as an
    opponent."""
    return _card_holders(session, RatingBreakdown.opponent_id, player_ids, time_control)


def _card_holders(
    session: Session, column: Any, ids: Collection[int], time_control: str
) -> set[int]:
    """Players with a breakdown row on the list ``time_control`` whose ``column`` is one of
    ``ids``."""
    return _ids_found(
        session,
        ids,
        lambda chunk: _of_list(
            sa.select(RatingBreakdown.player_id).where(column.in_(chunk)), time_control
        ),
    )


def players_of_events(session: Session, event_ids: Collection[int]) -> set[int]:
    """Players with a rated game in one of ``event_ids`` (their cards name the event)."""
    return _ids_found(
        session,
        event_ids,
        lambda chunk: (
            sa.select(RatingBreakdown.player_id)
            .join(Game, Game.id == RatingBreakdown.game_id)
            .where(Game.event_id.in_(chunk))
        ),
    )


def events_of_players(session: Session, player_ids: Collection[int]) -> set[int]:
    """Events in which one of ``player_ids`` played a game or had a bye."""
    return _ids_found(
        session,
        player_ids,
        lambda chunk: sa.select(Game.event_id).where(
            sa.or_(Game.white_id.in_(chunk), Game.black_id.in_(chunk))
        ),
        lambda chunk: sa.select(Bye.event_id).where(Bye.player_id.in_(chunk)),
    )


def _ids_found(
    session: Session,
    ids: Collection[int],
    *queries: Callable[[Sequence[int]], sa.Select[Any]],
) -> set[int]:
    """The distinct ids every query finds for ``ids``, asked a chunk of them at a time (an
    ``IN (...)`` list stays within the database's limit on parameters)."""
    found: set[int] = set()
    for chunk in _chunks(sorted(ids), CHUNK):
        for query in queries:
            found.update(session.scalars(query(chunk).distinct()))
    return found


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventGame:
    """One game of an event (rated or not: forfeits are stored too)."""

    id: int
    round: str | None
    played_on: dt.date
    white_id: int
    black_id: int
    result: Result
    rated: bool


@dataclass(frozen=True, slots=True)
class EventBye:
    """A round without an opponent (TRF codes H F U Z + -)."""

    round: str
    player_id: int
    code: str


@dataclass(frozen=True, slots=True)
class EventRating:
    """How one rated game counted for one of its players."""

    game_id: int
    player_id: int
    own_rating: int | None
    opponent_rating: int
    score: Decimal
    dr: Decimal | None
    k_used: int | None


@dataclass(frozen=True, slots=True)
class EventData:
    """Everything an event's crosstable needs."""

    event_id: int
    games: list[EventGame]
    byes: list[EventBye]
    ratings: list[EventRating]


def event_data(session: Session, event_ids: Collection[int] | None = None) -> Iterator[EventData]:
    """The games, byes and breakdown rows of events (events with games in ascending id
    order, then those with byes only). ``event_ids`` None: every event."""
    g, b = Game, RatingBreakdown
    for chunk in _id_chunks(event_ids):
        games = _fetch(
            session,
            sa.select(
                g.event_id, g.id, g.round, g.played_on, g.white_id, g.black_id, g.result, g.rateable
            )
            .where(*_where(g.event_id, chunk))
            .order_by(g.event_id),
        )
        ratings = _fetch(
            session,
            sa.select(
                g.event_id,
                b.game_id,
                b.player_id,
                b.own_rating,
                b.opponent_rating,
                b.score_half_points,
                b.dr_units,
                b.k_used,
                b.units_per_point,
                b.counts_for,
            )
            .join(g, g.id == b.game_id)
            .where(*_where(g.event_id, chunk))
            .order_by(g.event_id),
        )
        byes: dict[int, list[EventBye]] = {}
        for event_id, round_, player_id, code in session.execute(
            sa.select(Bye.event_id, Bye.round, Bye.player_id, Bye.code).where(
                *_where(Bye.event_id, chunk)
            )
        ):
            byes.setdefault(event_id, []).append(EventBye(round_, player_id, code))
        rating_groups = itertools.groupby(ratings, key=lambda r: r[0])
        pending = next(rating_groups, None)
        for event_id, group in itertools.groupby(games, key=lambda r: r[0]):
            event_games = [
                EventGame(r[1], r[2], _date(r[3]), r[4], r[5], _RESULTS[r[6]], bool(r[7]))
                for r in group
            ]
            event_ratings: list[EventRating] = []
            while pending is not None and pending[0] <= event_id:
                if pending[0] == event_id:
                    event_ratings = [
                        EventRating(
                            r[1], r[2], r[3], r[4], _half_points(r[5]), _units(r[6], r[8]), r[7]
                        )
                        for r in pending[1]
                    ]
                pending = next(rating_groups, None)
            yield EventData(event_id, event_games, byes.pop(event_id, []), event_ratings)
        for event_id in sorted(byes):  # events that hold only byes
            yield EventData(event_id, [], byes[event_id], [])


# --- plot -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating on one published list."""

    period: str
    list_date: dt.date
    rating: int


@dataclass(frozen=True, slots=True)
class PlayerSeries:
    """A player's ratings on the lists asked for."""

    player_id: int
    name: str
    points: list[RatingPoint]


def rating_series(
    session: Session,
    player_refs: Sequence[str],
    *,
    first: str | None = None,
    last: str | None = None,
    time_control: str = "standard",
) -> list[PlayerSeries]:
    """Each player's rating on every list ``time_control`` from period ``first`` to ``last``
    (inclusive; None: open), for ``ratings plot``. Lists on which the player is unrated are
    left out.

    :raises PlayerNotFoundError, AmbiguousPlayerError: for a PLAYER that names no one or
        several players.
    :raises PeriodError: when nothing has been rated, or the range holds no rated period.
    """
    players = [get_player(session, ref) for ref in player_refs]
    seen: set[int] = set()
    for p in players:
        if p.id in seen:
            raise InvalidInputError(f"player {p.name!r} (id {p.id}) is named twice")
        seen.add(p.id)
    query = sa.select(RatingPeriod.id)
    if first is not None:
        query = query.where(RatingPeriod.start_date >= parse_period(session, first).start)
    if last is not None:
        query = query.where(RatingPeriod.start_date <= parse_period(session, last).start)
    if (
        first is not None
        and last is not None
        and parse_period(session, first).start > parse_period(session, last).start
    ):
        raise InvalidInputError(f"the period range {first}..{last} runs backwards")
    if session.scalar(sa.select(sa.func.count()).select_from(query.subquery())) == 0:
        if session.scalar(sa.select(sa.func.count()).select_from(RatingPeriod)) == 0:
            raise PeriodError("no period has been rated yet; run 'ratings rate'")
        raise PeriodError(f"no rated period in {first or ''}..{last or ''}")
    get_config(session)  # a database made by `ratings init`
    rows = session.execute(
        sa.select(
            RatingHistory.player_id,
            RatingPeriod.label,
            RatingPeriod.list_date,
            RatingHistory.rating_after,
        )
        .join(RatingPeriod, RatingPeriod.id == RatingHistory.period_id)
        .where(
            RatingHistory.player_id.in_([p.id for p in players]),
            RatingHistory.period_id.in_(query.scalar_subquery()),
            RatingHistory.time_control == list_name(time_control),
            RatingHistory.rating_after.is_not(None),
        )
        .order_by(RatingPeriod.start_date)
    )
    points: dict[int, list[RatingPoint]] = {p.id: [] for p in players}
    for player_id, label, list_date, rating in rows:
        if rating is not None:
            points[player_id].append(RatingPoint(label, list_date, rating))
    return [PlayerSeries(p.id, p.name, points[p.id]) for p in players]


# --- the site's way in: every player, every event, merged records ---------------------------


def merged_players(session: Session) -> dict[int, tuple[int, str]]:
    """Every merged-away record: its id -> (the id of the live record it ended in, its own
    name). A chain of merges (A into B, B into C) points to the end of the chain."""
    rows = session.execute(sa.select(Player.id, Player.name, Player.merged_into_id))
    into: dict[int, int | None] = {}
    names: dict[int, str] = {}
    for pid, name, target in rows:
        into[pid] = target
        names[pid] = name
    found: dict[int, tuple[int, str]] = {}
    for pid, target in into.items():
        if target is None:
            continue
        seen = {pid}
        while target is not None and into.get(target) is not None and target not in seen:
            seen.add(target)
            target = into[target]
        if target is not None and into.get(target) is None:
            found[pid] = (target, names[pid])
    return found


def newest_ratings(session: Session, time_control: str) -> dict[int, int]:
    """The ratings of the newest list ``time_control`` published (player id -> rating);
    empty when none published it."""
    published = periods(session, time_control)
    if not published:
        return {}
    rows = session.execute(
        sa.select(RatingHistory.player_id, RatingHistory.rating_after).where(
            RatingHistory.period_id == published[-1].id,
            RatingHistory.time_control == time_control,
            RatingHistory.rating_after.is_not(None),
        )
    )
    return {pid: rating for pid, rating in rows if rating is not None}


@dataclass(frozen=True, slots=True)
class EventCount:
    """How many players and games an event holds."""

    players: int
    games: int


def event_counts(session: Session, event_ids: Collection[int]) -> dict[int, EventCount]:
    """The players (with a game or a bye) and games of each event (event id -> counts),
    counted by the database (one query each)."""
    wanted = sorted(set(event_ids))
    games: dict[int, int] = {}
    players: dict[int, int] = {}
    for chunk in _chunks(wanted, CHUNK):
        for event_id, count in session.execute(
            sa.select(Game.event_id, sa.func.count())
            .where(Game.event_id.in_(chunk))
            .group_by(Game.event_id)
        ):
            games[event_id] = count
        sides = sa.union(
            sa.select(Game.event_id.label("event_id"), Game.white_id.label("player_id")).where(
                Game.event_id.in_(chunk)
            ),
            sa.select(Game.event_id, Game.black_id).where(Game.event_id.in_(chunk)),
            sa.select(Bye.event_id, Bye.player_id).where(Bye.event_id.in_(chunk)),
        ).subquery()
        for event_id, count in session.execute(
            sa.select(sides.c.event_id, sa.func.count()).group_by(sides.c.event_id)
        ):
            players[event_id] = count
    return {eid: EventCount(players.get(eid, 0), games.get(eid, 0)) for eid in wanted}


# --- helpers --------------------------------------------------------------------------------


def _chunks(values: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _id_chunks(ids: Collection[int] | None) -> Iterator[Sequence[int] | None]:
    """``ids`` in ascending chunks for ``IN (...)`` lists; None (no filter) once for None."""
    if ids is None:
        yield None
        return
    yield from _chunks(sorted(ids), CHUNK)


def _where(column: Any, chunk: Sequence[int] | None) -> tuple[sa.ColumnElement[bool], ...]:
    return () if chunk is None else (column.in_(chunk),)
