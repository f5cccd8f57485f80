"""Game selection: the games a period rates (docs/RULES.md#which-period-rates-an-event-art-713),
the lists in force when their events started, and the players' first events (art. 8.2)."""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.models import ENTRY_COLUMNS, RatingPeriod
from ratings.results import Result
from ratings.rules import Period, SystemConfig
from ratings.service.rating.plan import closing_shift, long_events
from ratings.service.rating.state import id_lists
from ratings.service.shared.sql import fetch_all, to_date

__all__ = ["GameSelection", "first_event", "first_events"]


_WHITE_HALVES = {r.value: r.white_half_points for r in Result if r.is_played}
_new_tuple = tuple.__new__  # builds a named tuple without its Python-level __new__
_LIST_CACHE = 4
"""Lists in force at earlier event starts kept in memory (events rarely start further back)."""


class GameSelection:
    """Reads a list's games period by period, and the ratings they are rated against. Holds
    the lists it read and the first events it looked up (games do not change during a
    rate)."""

    def __init__(
        self, session: Session, config: SystemConfig, time_control: str = "standard"
    ) -> None:
        self.session = session
        self.time_control = rules.time_control(time_control).value
        self.tc_sql = f"'{self.time_control}'"  # one of three fixed words, never user text
        conn = session.connection()
        self.sqlite = conn.dialect.name == "sqlite"
        self.ph = "?" if conn.dialect.paramstyle == "qmark" else "%s"
        self.shift = closing_shift(config)
        self.entry_ratings: dict[int, int | None] | None = None
        """The register's entry ratings on this list, when the standings were read with
        them (:attr:`ratings.service.rating.state.ListState.entry_ratings`); else read when
        first asked (:attr:`entry_list`)."""
        self.list_cache: OrderedDict[dt.date, dict[int, int | None]] = OrderedDict()
        self.first_events: dict[int, int | None] = {}
        self.dates: dict[object, dt.date] = {}
        self.long_events: frozenset[int] = frozenset()
        """Events longer than 90 days that may have games in the periods rated (a league:
        rated game by game, in the period each was played)."""

    @property
    def entry_list(self) -> dict[int, int | None]:
        """Every registered player's entry rating on this list (the list before the first
        rated period, docs/RULES.md#which-ratings-a-game-uses): read with the standings
        (:attr:`entry_ratings`), or when first asked."""
        if self.entry_ratings is None:
            rating = next(c.key for c in ENTRY_COLUMNS[self.time_control])
            self.entry_ratings = dict(
                fetch_all(
                    self.session,
                    f"SELECT id, {rating} FROM players WHERE merged_into_id IS NULL ORDER BY id",
                )
            )
        return self.entry_ratings

    def list_at(self, list_date: dt.date) -> dict[int, int | None]:
        """Ratings on the list dated ``list_date``: the one published by the period before,
        or the register's entry ratings before the first rated period
        (docs/RULES.md#which-ratings-a-game-uses)."""
        cached = self.list_cache.get(list_date)
        if cached is not None:
            return cached
        period_id = self.session.scalar(
            sa.select(RatingPeriod.id).where(RatingPeriod.list_date == list_date)
        )
        if period_id is None:
            ratings = self.entry_list
        else:
            ratings = dict(
                fetch_all(
                    self.session,
                    "SELECT player_id, rating_after FROM rating_history "
                    f"WHERE period_id = {int(period_id)} AND time_control = {self.tc_sql}",
                )
            )
        self.list_cache[list_date] = ratings
        while len(self.list_cache) > _LIST_CACHE:
            self.list_cache.popitem(last=False)
        return ratings

    def first_events_of(self, player_ids: Iterable[int]) -> dict[int, int | None]:
        """The first events ever of these players (:func:`first_events`), each looked up once
        in a run (games do not change during a rate)."""
        known = self.first_events
        missing = [pid for pid in player_ids if pid not in known]
        if missing:
            known.update(first_events(self.session, missing, self.time_control))
        return known

    def find_long_events(self, first: Period) -> None:
        """The events longer than 90 days that may have games in ``first`` or later (those
        that end on or after its first day)."""
        self.long_events = long_events(self.session, first.start - self.shift)

    def games_of(self, period: Period) -> list[rules.GameResult]:
        """The period's rateable games (docs/RULES.md#which-period-rates-an-event-art-713): those of
        events whose end date goes to this period's list (after the closing date), those of events
        given this rating period, and the games played in it (after the closing date) of events
        longer than 90 days, each against the list in force when it was played."""
        ph = self.ph
        lo = self._date_param(period.start - self.shift)
        hi = self._date_param(period.end - self.shift)
        select = (
            "SELECT g.id, g.white_id, g.black_id, g.result, e.id, e.start_date "
            "FROM games g JOIN events e ON e.id = g.event_id "
        )
        games = self._games(
            select + f"WHERE e.end_date >= {ph} AND e.end_date <= {ph} AND g.rateable "
            f"AND e.rating_period IS NULL AND e.time_control = {self.tc_sql} ORDER BY g.id",
            (lo, hi),
            self.long_events,
        )
        extra = self._games(
            select + f"WHERE e.rating_period = {ph} AND g.rateable "
            f"AND e.time_control = {self.tc_sql} ORDER BY g.id",
            (self._date_param(period.start),),
        )
        if self.long_events:
            ids = ", ".join(str(int(i)) for i in sorted(self.long_events))
            # the game's own date stands for the event's start: the list in force when it
            # was played, and that day's rule edition
            extra += self._games(
                "SELECT g.id, g.white_id, g.black_id, g.result, e.id, g.played_on "
                "FROM games g JOIN events e ON e.id = g.event_id "
                f"WHERE g.event_id IN ({ids}) AND g.played_on >= {ph} AND g.played_on <= {ph} "
                f"AND g.rateable AND e.rating_period IS NULL AND e.time_control = {self.tc_sql} "
                "ORDER BY g.id",
                (lo, hi),
            )
        if extra:
            games = sorted(games + extra)
        return games

    def _games(
        self, sql: str, params: Sequence[object], skip: frozenset[int] = frozenset()
    ) -> list[rules.GameResult]:
        """Game records from rows (game, white, black, result, event, list day)."""
        dates = self.dates
        games = []
        for game_id, white, black, result, event_id, start in fetch_all(self.session, sql, params):
            if skip and event_id in skip:
                continue
            day = dates.get(start)
            if day is None:
                day = dates[start] = to_date(start)
            games.append(
                _new_tuple(
                    rules.GameResult,
                    (game_id, event_id, day, white, black, _WHITE_HALVES[result]),
                )
            )
        return games

    def _date_param(self, day: dt.date) -> object:
        return day.isoformat() if self.sqlite else day


def first_event(session: Session, player_id: int, time_control: str = "standard") -> int | None:
    """The first event of ``time_control`` a player ever played a rateable game in (by start
    date, then id): the one whose zero score art. 8.2 disregards, on that list."""
    return first_events(session, [player_id], time_control)[player_id]


def first_events(
    session: Session, player_ids: Iterable[int], time_control: str = "standard"
) -> dict[int, int | None]:
    """:func:`first_event` of each of ``player_ids`` (None: no rateable game on that list),
    500 players a query.

    The players' events are read through the white and black indexes and the earliest is
    picked here: with ``ORDER BY start_date LIMIT 1`` PostgreSQL walked every event by start
    date into the games of each, 18 ms a player on the 1,000,000-game benchmark (131 s of a
    317 s rate, bench/RESULTS.md). One query a player still cost 2.4 ms each, 102 s of a
    727 s rate on the world's register on PostgreSQL, where about 3,000 unrated players a
    month reach five games."""
    conn = session.connection()
    ph = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    ids = sorted(set(player_ids))
    found: dict[int, tuple[dt.date, int] | None] = dict.fromkeys(ids)
    for marks in id_lists(ids):
        rows = conn.exec_driver_sql(
            "SELECT s.player_id, e.start_date, e.id FROM ("
            "SELECT g.white_id AS player_id, g.event_id FROM games g "
            f"WHERE g.white_id IN ({marks}) AND g.rateable UNION "
            "SELECT g.black_id, g.event_id FROM games g "
            f"WHERE g.black_id IN ({marks}) AND g.rateable"
            f") s JOIN events e ON e.id = s.event_id WHERE e.time_control = {ph}",
            (rules.time_control(time_control).value,),
        ).all()
        for pid, day, event_id in rows:
            key = (to_date(day), event_id)
            best = found[pid]
            if best is None or key < best:
                found[pid] = key
    return {pid: None if key is None else key[1] for pid, key in found.items()}
