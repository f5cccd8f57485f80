"""Rating periods, strictly in order: the heart of the product (docs/DESIGN.md#the-period-engine).

Over 600 lines: one use case, the loads and stores around one engine call per period.

They share the state carried from period to period (the players' standings).

This module loads and stores; all rating arithmetic is :func:`ratings.rules.rate_period`.
Set-based: a period's games are read with one query, the players' standings stay in memory
from one period to the next, and the engine's list and breakdown rows are written with
executemany (COPY on PostgreSQL). No ORM object is created per game or per player.

Once a previous list is stored, a period reads only the players whose rows can change: those
with games and those :func:`ratings.rules.changes_without_games` names (inactivity, a junior's
K at the new year, ...), picked in SQL. Everyone else's row is the previous one carried, copied
in one ``INSERT ... SELECT``. So the Python work for a period is proportional to its games and
active players, and only that copy to the register (on the world's register, 45,000 of
600,000 players play in a month: bench/RESULTS.md).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.models import ENTRY_COLUMNS, RatingBreakdown, RatingPeriod
from ratings.results import Result
from ratings.rules import Period, SystemConfig
from ratings.service.common import (
    BULK_CHUNK,
    bulk_insert,
    copy_rows,
    date_param,
    datetime_param,
    fetch_all,
    get_config,
    to_date,
    utcnow,
    without_cycle_collection,
)

_WHITE_HALVES = {r.value: r.white_half_points for r in Result if r.is_played}
# list rows carry a date (last_active) to executemany: bound as ISO text, as SQLAlchemy's Date
# type stores it on SQLite (explicit: the sqlite3 module's default date adapter is deprecated)
sqlite3.register_adapter(dt.date, dt.date.isoformat)
_new_tuple = tuple.__new__  # builds a named tuple without its Python-level __new__
_LIST_CACHE = 4
"""Lists in force at earlier event starts kept in memory (events rarely start further back)."""


@dataclass(frozen=True, slots=True)
class ChangedRating:
    """A published rating that a re-rate replaced (old -> new)."""

    period: str
    """The period whose list changed."""
    player_id: int
    """The player."""
    name: str
    """The player's name."""
    old: int | None
    """The rating published before (None: unrated)."""
    new: int | None
    """The rating published now (None: unrated)."""
    time_control: str = "standard"
    """The list: standard, rapid or blitz."""


@dataclass(frozen=True, slots=True)
class RateReport:
    """What :func:`rate` did."""

    rated: tuple[str, ...] = ()
    """Labels of the periods rated for the first time."""
    rerated: tuple[str, ...] = ()
    """Labels of the periods rated again after a correction."""
    games: int = 0
    """Rated games processed (games that counted for at least one player)."""
    changed: tuple[ChangedRating, ...] = ()
    """Published ratings that the re-rate changed."""
    held_back: tuple[str, ...] = ()
    """Labels of the periods with games that were not rated because they have not ended
    (``today`` given, no ``through``): ``rate --through`` rates them on purpose."""


SKIP_QUIET_PLAYERS = True
"""Read only the players whose list rows can change in a period once a previous list is
stored (:meth:`_Rater._players_for`); False reads every registered player every period (the
tests compare the two)."""


@dataclass(frozen=True, slots=True)
class PartialState:
    """What :meth:`_Rater._players_for` answers."""

    standings: dict[int, rules.Standing]
    """The standings of the players whose rows can change, by id."""
    previous_rows: int
    """Rows on the previous list of players still registered."""
    gone: frozenset[int]
    """Players on the previous list merged away since (no row now)."""


def _listed_standing(
    listed: rules.ListEntry,
    birth_year: int | None,
    entry_k10: bool,
    fide_k: int | None,
    fide_k_list: dt.date | None,
    fide_inactive: dt.date | None = None,
) -> rules.Standing:
    """A player's standing from the row on the previous list and the register; a hand-set
    K=10 flag (player edit, or an entry rating of 2400) holds from any list on."""
    return rules.Standing(
        listed.rating_after, listed.total_games, birth_year, bool(listed.k10) or entry_k10,
        bool(listed.reached_2300), (), fide_k, fide_k_list, listed.last_active,
        bool(listed.inactive), fide_inactive,
    )  # fmt: skip


_OTHER_LISTS = (rules.TimeControl.RAPID, rules.TimeControl.BLITZ)
"""The lists rated after the standard one in every period."""


class _Rater:
    """Loads what :func:`ratings.rules.rate_period` needs, period after period, and stores
    what it answers, for one list (standard, rapid or blitz: the games of the events with
    that time control). Holds the players' standings between periods, the lists it read and
    the first events it looked up (games do not change during a rate)."""

    def __init__(
        self,
        session: Session,
        config: SystemConfig,
        time_control: str = "standard",
        standard: _Rater | None = None,
    ) -> None:
        self.session = session
        self.config = config
        self.time_control = rules.time_control(time_control).value
        self.standard = standard
        """Rapid and blitz: the standard list's rater, rated before this one in every period,
        whose lists in force at the events' starts seed the players unrated here (R&B art.
        7.2.1)."""
        self.tc_sql = f"'{self.time_control}'"  # one of three fixed words, never user text
        self.fide_inactive_sql = "fide_inactive_list" if self.time_control == "standard" else "NULL"
        """The register's column of FIDE's inactive flag: the standard list's only (FIDE
        flags inactivity on its standard list)."""
        self.active = self.time_control == "standard"
        """Whether the list is published: standard always; rapid and blitz from the first
        period with games or rated players on, every period after it."""
        self.standings: dict[int, rules.Standing] = {}
        """Players' standings on the list in force, by id: every registered player's after
        :meth:`load_state` read them all; with :attr:`partial`, those read so far (a quiet
        player's standing does not change, :func:`ratings.rules.changes_without_games`)."""
        self.partial = False
        """Whether :attr:`standings` and the previous rows (:attr:`previous`) hold only some of
        the players: each period then reads those whose rows can change (:meth:`_players_for`),
        and the list rows of the others are copied in SQL."""
        self._entry_list: dict[int, int | None] | None = None
        self.list_cache: OrderedDict[dt.date, dict[int, int | None]] = OrderedDict()
        self.first_events: dict[int, int | None] = {}
        self.dates: dict[object, dt.date] = {}
        conn = session.connection()
        self.sqlite = conn.dialect.name == "sqlite"
        self.ph = "?" if conn.dialect.paramstyle == "qmark" else "%s"
        self.shift = closing_shift(config)
        self.dormant = False
        """A rapid or blitz list that cannot be published in this run (:meth:`load_state`)."""
        self.previous: tuple[int, dict[int, rules.ListEntry]] | None = None
        """The id and list rows of the period this rater wrote last in this run (None before
        the first, or after a period it did not write): the rows a player without games
        carries over are copied from it in SQL (:func:`_split_carried`)."""
        self.previous_count: int | None = None
        """How many rows the previous list holds (None: not counted yet)."""
        self.merged: frozenset[int] | None = None
        """Players merged into another record (read once per run, with :attr:`live`)."""
        self.live = 0
        """Registered players not merged away."""
        self.long_events: frozenset[int] = frozenset()
        """Events longer than 90 days that may have games in the periods rated (a league:
        rated game by game, in the period each was played)."""

    # --- loading -------------------------------------------------------------------------

    def load_state(self, start: Period) -> None:
        """The players' standings on the list dated ``start``: the previous period's list, or
        the register's entry data when no period before ``start`` was rated. The previous
        list's rows are kept for the carry test of the first period (:func:`_split_carried`).

        A rapid or blitz list is dormant (nothing loaded, nothing written) when it has no
        event, no player with an entry rating on it and no row in the previous period: it
        cannot be published in this run."""
        tc = self.time_control
        previous = self._period_id(start.previous().start)
        if tc != "standard" and self._dormant(previous):
            self.dormant = True
            return
        if previous is not None and SKIP_QUIET_PLAYERS and self._has_rows(previous):
            # the previous list is stored: read players period by period, as they are needed
            self.partial = True
            self.active = True
            self.previous = (previous, {})
            return
        before: dict[int, rules.ListEntry] = {}
        dates = self.dates
        entry_list = self._entry_list = {}

        def day_of(value: object) -> dt.date | None:
            if value is None:
                return None
            day = dates.get(value)
            if day is None:
                day = dates[value] = to_date(value)
            return day

        if previous is not None:
            last = _HISTORY_COLUMNS.index("last_active")
            for row in fetch_all(
                self.session,
                f"SELECT {', '.join(_HISTORY_COLUMNS)} FROM rating_history "
                f"WHERE period_id = {int(previous)} AND time_control = {self.tc_sql}",
            ):
                values = list(row)
                day = dates.get(values[last])  # inline day_of: one row per registered player
                values[last] = day if day is not None else day_of(values[last])
                before[row[0]] = _new_tuple(rules.ListEntry, values)
        standings: dict[int, rules.Standing] = {}
        entry = ", ".join(column.key for column in ENTRY_COLUMNS[tc])
        entry_k10s: dict[tuple[bool, int | None], bool] = {}  # a few thousand distinct
        for pid, rating, games, k10, fide_k, birth_year, fide_k_list, flagged in fetch_all(
            self.session,
            f"SELECT id, {entry}, birth_year, fide_k_list, {self.fide_inactive_sql} "
            "FROM players WHERE merged_into_id IS NULL ORDER BY id",
        ):
            entry_list[pid] = rating
            k_day = None if fide_k_list is None else day_of(fide_k_list)
            flag_day = None if flagged is None else day_of(flagged)
            listed = before.get(pid)
            if listed is None:
                standings[pid] = rules.Standing.from_entry(
                    rating, games, birth_year, bool(k10), fide_k, k_day, flag_day
                )
            else:
                entry_k10 = entry_k10s.get((bool(k10), rating))
                if entry_k10 is None:
                    entry_k10 = rules.flags_after(bool(k10), False, rating).k10
                    entry_k10s[bool(k10), rating] = entry_k10
                standings[pid] = _listed_standing(
                    listed, birth_year, entry_k10, fide_k, k_day, flag_day
                )
        self.standings = standings
        if not self.active and any(r is not None for r in entry_list.values()):
            self.active = True  # rated players: their list is published every period
        listed_before = bool(before)
        if listed_before:
            assert previous is not None
            self.previous = (previous, before)
        self.active = self.active or listed_before
        # a rapid or blitz list never published before ``start`` has no pooled games
        if self.config.uses_initial_ratings and (listed_before or self.time_control == "standard"):
            self._load_pools(start)

    def _has_rows(self, period_id: int) -> bool:
        """Whether this list has rows in the period ``period_id``."""
        found = (
            self.session.connection()
            .exec_driver_sql(
                f"SELECT 1 FROM rating_history WHERE period_id = {int(period_id)} "
                f"AND time_control = {self.tc_sql} LIMIT 1"
            )
            .first()
        )
        return found is not None

    def _players_for(self, period: Period, games: Sequence[rules.GameResult]) -> PartialState:
        """With :attr:`partial`: the standings of the players whose list row can change in
        ``period`` (those with games, and those :func:`ratings.rules.changes_without_games`
        names, picked in SQL), by id; read from the previous list and the register when not
        held yet, with their previous rows. The rows of everyone else are carried (copied in
        SQL by :func:`_copy_carried`)."""
        assert self.previous is not None
        previous_id, before = self.previous
        conn = self.session.connection()
        if self.previous_count is None:
            self.previous_count = conn.exec_driver_sql(
                f"SELECT count(*) FROM rating_history WHERE period_id = {int(previous_id)} "
                f"AND time_control = {self.tc_sql}"
            ).scalar_one()
        if self.merged is None:
            self.merged = frozenset(
                row[0]
                for row in conn.exec_driver_sql(
                    "SELECT id FROM players WHERE merged_into_id IS NOT NULL"
                )
            )
            self.live = conn.exec_driver_sql(
                "SELECT count(*) FROM players WHERE merged_into_id IS NULL"
            ).scalar_one()
        gone: frozenset[int] = frozenset()
        if self.merged:
            # merged away after the previous list: no row now (as a rate of every player)
            marks = ", ".join(str(int(pid)) for pid in sorted(self.merged))
            gone = frozenset(
                row[0]
                for row in conn.exec_driver_sql(
                    f"SELECT player_id FROM rating_history WHERE period_id = {int(previous_id)} "
                    f"AND time_control = {self.tc_sql} AND player_id IN ({marks})"
                )
            )
        wanted = {g.white_id for g in games} | {g.black_id for g in games}
        wanted |= self._changing(period, previous_id)
        if self.live > self.previous_count - len(gone):
            wanted |= self._unlisted(previous_id)  # registered since the previous list
        self._read_players(sorted(pid for pid in wanted if pid not in before), period)
        standings = self.standings
        chosen = {pid: standings[pid] for pid in sorted(wanted) if pid in standings}
        return PartialState(chosen, self.previous_count - len(gone), gone)

    def _changing(self, period: Period, previous_id: int) -> set[int]:
        """The players without games whose row may differ from a carry of the previous one:
        :func:`ratings.rules.changes_without_games` in SQL, over the previous list."""
        bounds = rules.carry_bounds(self.config, period, self.time_control)
        rating, _games, k10, _fide_k = (c.key for c in ENTRY_COLUMNS[self.time_control])
        ph = self.ph
        params: list[object] = [
            self._date_param(bounds.active_from),
            self._date_param(bounds.fide_k_from),
        ]
        more = ""
        if bounds.every_rated:  # an edition or FIDE's one-time adjustment of the new list
            more = " OR h.rating_after IS NOT NULL"
        if self.time_control == "standard":  # FIDE's inactive flag turns on with this list
            more += (
                " OR (h.rating_after IS NOT NULL AND NOT h.inactive "
                f"AND p.fide_inactive_list > {ph} AND p.fide_inactive_list <= {ph})"
            )
            params += [
                self._date_param(bounds.fide_inactive_after),
                self._date_param(bounds.fide_inactive_through),
            ]
        if bounds.junior_births is not None:
            more += f" OR (h.rating_after IS NOT NULL AND p.birth_year BETWEEN {ph} AND {ph})"
            params += bounds.junior_births
        sql = (
            "SELECT h.player_id FROM rating_history h JOIN players p ON p.id = h.player_id "
            f"WHERE h.period_id = {int(previous_id)} AND h.time_control = {self.tc_sql} "
            "AND p.merged_into_id IS NULL AND ("
            f"h.list_status NOT IN ('{rules.LISTED}', '{rules.UNRATED}') "
            "OR h.last_active IS NULL "
            f"OR h.units_per_point <> {int(bounds.units_per_point)} "
            f"OR (h.rating_after IS NOT NULL AND NOT h.inactive AND h.last_active < {ph}) "
            f"OR (NOT h.k10 AND (p.{k10} OR p.{rating} >= {rules.K10_MARK})) "
            f"OR p.fide_k_list >= {ph}{more})"
        )
        return {row[0] for row in fetch_all(self.session, sql, params)}

    def _unlisted(self, previous_id: int) -> set[int]:
        """Registered players without a row on the previous list."""
        sql = (
            "SELECT p.id FROM players p WHERE p.merged_into_id IS NULL AND NOT EXISTS ("
            "SELECT 1 FROM rating_history h WHERE h.player_id = p.id "
            f"AND h.period_id = {int(previous_id)} AND h.time_control = {self.tc_sql})"
        )
        return {row[0] for row in fetch_all(self.session, sql)}

    def _read_players(self, pids: Sequence[int], period: Period) -> None:
        """Read these players' rows on the previous list into :attr:`previous`, and their
        standings into :attr:`standings` when not held yet (with the pools of unrated ones);
        merged-away players are not read.

        The register and the previous list are read apart, each table by its own key, and
        on PostgreSQL all the players at once. As a join, 500 players a query, the planner
        took a period's list for a few rows when its statistics did not cover that period
        (they never do inside a long rate; and after a month's rate autovacuum waits for a
        tenth of the table to change) and hashed all 600,000 rows of it for each 500
        players: 408 s of a 727 s rate of the world's history (bench/RESULTS.md). Alone,
        the list's query reads at worst that period once."""
        assert self.previous is not None
        previous_id, before = self.previous
        entry = ", ".join(column.key for column in ENTRY_COLUMNS[self.time_control])
        last = _HISTORY_COLUMNS.index("last_active")
        standings = self.standings
        unrated: list[int] = []
        # SQLite takes each id of a list through the index: ID_LIST_SIZE a query
        for marks in _id_lists(pids, None if self.sqlite else max(len(pids), 1)):
            listed_rows: dict[int, rules.ListEntry] = {}
            for row in fetch_all(
                self.session,
                f"SELECT {', '.join(_HISTORY_COLUMNS)} FROM rating_history "
                f"WHERE period_id = {int(previous_id)} AND time_control = {self.tc_sql} "
                f"AND player_id IN ({marks})",
            ):
                values = list(row)
                values[last] = None if values[last] is None else to_date(values[last])
                listed_rows[row[0]] = _new_tuple(rules.ListEntry, values)
            for pid, rating, games, k10, fide_k, birth_year, fide_k_list, flagged in fetch_all(
                self.session,
                f"SELECT id, {entry}, birth_year, fide_k_list, {self.fide_inactive_sql} "
                f"FROM players WHERE merged_into_id IS NULL AND id IN ({marks})",
            ):
                k_day = None if fide_k_list is None else to_date(fide_k_list)
                flag_day = None if flagged is None else to_date(flagged)
                listed = listed_rows.get(pid)
                if listed is not None:
                    before[pid] = listed
                if pid in standings:
                    continue
                if listed is None:
                    standing = rules.Standing.from_entry(
                        rating, games, birth_year, bool(k10), fide_k, k_day, flag_day
                    )
                else:
                    entry_k10 = rules.flags_after(bool(k10), False, rating).k10
                    standing = _listed_standing(
                        listed, birth_year, entry_k10, fide_k, k_day, flag_day
                    )
                standings[pid] = standing
                if standing.rating is None:
                    unrated.append(pid)
        if unrated and self.config.uses_initial_ratings:
            self._load_pools(period, unrated)

    def _dormant(self, previous: int | None) -> bool:
        """Whether this (rapid or blitz) list has no event, no player with an entry rating
        on it and no row in the period before the first one rated."""
        tc, column = self.tc_sql, f"{self.time_control}_entry_rating"
        conn = self.session.connection()
        found = conn.exec_driver_sql(
            f"SELECT 1 FROM events WHERE time_control = {tc} UNION ALL "
            f"SELECT 1 FROM players WHERE {column} IS NOT NULL LIMIT 1"
        ).first()
        if found is None and previous is not None:
            found = conn.exec_driver_sql(
                f"SELECT 1 FROM rating_history WHERE period_id = {int(previous)} "
                f"AND time_control = {tc} LIMIT 1"
            ).first()
        return found is None

    def _load_pools(self, start: Period, pids: Sequence[int] | None = None) -> None:
        """The unrated players' pools (of ``pids``, or of everyone), from the breakdown rows
        that count towards a first rating (art. 7.1.4): the 26-month window, after the last
        list that rated each."""
        if pids is None and all(s.rating is not None for s in self.standings.values()):
            return
        cutoff = rules.pool_window_start(start)
        window = (self._date_param(cutoff), self._date_param(start.start))
        sql = (
            "SELECT b.player_id, rp.start_date, g.event_id, b.opponent_rating, "
            "b.score_half_points FROM rating_breakdown b "
            "JOIN rating_periods rp ON rp.id = b.period_id JOIN games g ON g.id = b.game_id "
            "JOIN events e ON e.id = g.event_id "
            f"WHERE b.counts_for = 'first_rating' AND e.time_control = {self.tc_sql} "
            f"AND rp.start_date >= {self.ph} AND rp.start_date < {self.ph}"
        )
        conn = self.session.connection()
        order = " ORDER BY rp.start_date, b.game_id"  # each player's pool in this order
        if pids is None:
            rows = conn.exec_driver_sql(sql + order, window).all()
        else:
            rows = []
            for marks in _id_lists(pids):
                rows += conn.exec_driver_sql(
                    f"{sql} AND b.player_id IN ({marks}){order}", window
                ).all()
        pooled: dict[int, list[rules.PoolGame]] = {}
        for pid, day, event_id, opponent_rating, halves in rows:
            state = self.standings.get(pid)
            if state is not None and state.rating is None:
                game = rules.PoolGame(to_date(day), event_id, opponent_rating, halves)
                pooled.setdefault(pid, []).append(game)
        last_rated = self._last_rated(sorted(pooled), window)
        for pid, games in pooled.items():
            state = self.standings[pid]
            self.standings[pid] = dataclasses.replace(
                state, pool=rules.pool_after(games, start, last_rated.get(pid))
            )

    def _last_rated(self, pids: list[int], window: tuple[object, object]) -> dict[int, dt.date]:
        """Start of the newest period in the pool window whose list rated each of ``pids``.
        Only the window is read, through the (period, player) index: the cost does not grow
        with the history."""
        if not pids:
            return {}
        conn = self.session.connection()
        ph = self.ph
        periods = {
            period_id: to_date(day)
            for period_id, day in conn.exec_driver_sql(
                f"SELECT id, start_date FROM rating_periods WHERE start_date >= {ph} "
                f"AND start_date < {ph}",
                window,
            ).all()
        }
        found: dict[int, dt.date] = {}
        if not periods:
            return found
        marks = ", ".join([ph] * len(periods))
        for listed in _id_lists(pids):
            for pid, period_id in conn.exec_driver_sql(
                f"SELECT player_id, period_id FROM rating_history WHERE period_id IN ({marks}) "
                f"AND player_id IN ({listed}) AND rating_after IS NOT NULL "
                f"AND time_control = {self.tc_sql}",
                tuple(periods),
            ):
                day = periods[period_id]
                if found.get(pid, day) <= day:
                    found[pid] = day
        return found

    def _date_param(self, day: dt.date) -> object:
        return day.isoformat() if self.sqlite else day

    def _period_id(self, start: dt.date) -> int | None:
        return self.session.scalar(
            sa.select(RatingPeriod.id).where(RatingPeriod.start_date == start)
        )

    @property
    def entry_list(self) -> dict[int, int | None]:
        """Every registered player's entry rating on this list (the list before the first
        rated period, docs/RULES.md#which-ratings-a-game-uses): read by :meth:`load_state`, or when
        first asked."""
        if self._entry_list is None:
            rating = next(c.key for c in ENTRY_COLUMNS[self.time_control])
            self._entry_list = dict(
                fetch_all(
                    self.session,
                    f"SELECT id, {rating} FROM players WHERE merged_into_id IS NULL ORDER BY id",
                )
            )
        return self._entry_list

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

    # --- one period ----------------------------------------------------------------------

    def rate_period(self, period: Period, period_id: int) -> int:
        """Rate one period through the engine; store its list and breakdown rows. Returns
        the games that counted. A rapid or blitz list with no games that was never
        published before and has no rated player is not written."""
        if self.dormant:
            return 0
        games = self.games_of(period)
        if not self.active and not games:
            self.previous = None
            return 0
        self.active = True
        needed = rules.lists_needed(period, games)
        lists = {day: self.list_at(day) for day in needed}
        seeds = None
        standard = self.standard
        if standard is not None:
            seeds = {day: standard.list_at(day) for day in needed | {period.start}}
        partial = None
        standings = self.standings
        if self.partial:
            partial = self._players_for(period, games)
            standings = partial.standings
        outcome = rules.rate_period(
            self.config,
            period,
            standings,
            games,
            lists=lists,
            first_events=self.first_events_of(
                rules.first_events_needed(self.config, standings, games)
            ),
            list_type=self.time_control,
            seeds=seeds,
        )
        gone: frozenset[int] = frozenset()
        if partial is None:
            explicit, carried = _split_carried(outcome.list_rows, self.previous)
        else:
            assert self.previous is not None
            explicit, carried = _split_partial(
                outcome.list_rows, self.previous[1], partial.previous_rows
            )
            gone = partial.gone
        with _keys_checked_by_index(self.session):
            _insert(
                self.session, "rating_breakdown", period_id, _BREAKDOWN_COLUMNS, outcome.breakdown
            )
            _insert(
                self.session,
                "rating_history",
                period_id,
                _HISTORY_COLUMNS,
                explicit,
                time_control=self.time_control,
            )
            if carried:
                assert self.previous is not None  # _split_carried carries only from one
                _copy_carried(
                    self.session, self.previous[0], period_id, self.tc_sql, carried, leave=gone
                )
        self.previous = (period_id, {row.player_id: row for row in outcome.list_rows})
        self.previous_count = len(explicit) + carried
        if partial is None:
            self.standings = outcome.standings
            # from the next period on, read only the players whose rows can change
            self.partial = SKIP_QUIET_PLAYERS
        else:
            self.standings.update(outcome.standings)
        return outcome.games_counted


ID_LIST_SIZE = 500
"""Player ids listed in one query's ``IN (...)`` (:func:`_id_lists`)."""


def _id_lists(ids: Sequence[int], size: int | None = None) -> Iterator[str]:
    """``ids`` as SQL lists of integers, ``size`` a list (default :data:`ID_LIST_SIZE`).
    :meth:`_Rater._read_players` lists them all at once on PostgreSQL."""
    step = ID_LIST_SIZE if size is None else size
    for i in range(0, len(ids), step):
        yield ", ".join(str(int(pid)) for pid in ids[i : i + step])


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
    for marks in _id_lists(ids):
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


_BREAKDOWN_COLUMNS = rules.BreakdownLine._fields
_HISTORY_COLUMNS = rules.ListEntry._fields
_new_tuple = tuple.__new__  # a named tuple from a row, without its Python-level __new__


def _insert(
    session: Session,
    table: str,
    period_id: int,
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    *,
    time_control: str | None = None,
) -> None:
    """The engine's rows (named tuples in column order) through executemany, with the
    period's id (and the list's time control) written into the statement, or through COPY
    on PostgreSQL: no ORM object, no SQLAlchemy processing."""
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        head: tuple[object, ...] = (int(period_id),)
        if time_control is not None:
            head += (rules.time_control(time_control).value,)
        names = ("period_id", "time_control")[: len(head)]
        copy_rows(session, table, (*names, *columns), ((*head, *row) for row in rows))
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    fixed, values = "period_id", str(int(period_id))
    if time_control is not None:
        fixed += ", time_control"
        values += f", '{rules.time_control(time_control).value}'"
    sql = (
        f"INSERT INTO {table} ({fixed}, {', '.join(columns)}) "
        f"VALUES ({values}, {', '.join([mark] * len(columns))})"
    )
    # plain tuples: the sqlite3 module binds an exact tuple on its fast path (a named tuple
    # took about 10% longer to insert)
    chunks = map(tuple, rows)
    while batch := list(itertools.islice(chunks, BULK_CHUNK)):
        conn.exec_driver_sql(sql, batch)


@contextmanager
def _planner_setting_off(session: Session, setting: str) -> Iterator[None]:
    """PostgreSQL: the statements inside with the planner's ``setting`` (``enable_...``)
    off, then RESET, which puts back the session's own setting (after an error the
    transaction is rolled back, and a SET LOCAL with it). Nothing on SQLite."""
    conn = session.connection()
    if conn.dialect.name != "postgresql":
        yield
        return
    conn.exec_driver_sql(f"SET LOCAL {setting} = off")
    yield
    conn.exec_driver_sql(f"RESET {setting}")


def _keys_checked_by_index(session: Session) -> AbstractContextManager[None]:
    """PostgreSQL: a period's bulk writes with sequential scans off, for the foreign-key
    checks they fire, one a row written. Once ``rating_periods`` (a few pages) has
    statistics, as autovacuum soon gives it, the planner checks ``period_id`` by scanning
    the whole table, every period's row compared for every list and breakdown row (4.3
    million in a re-rate of 1M games): a quarter of the re-rate (bench/RESULTS.md). Only
    the writes run so: the rate's reads plan better with the session's setting."""
    return _planner_setting_off(session, "enable_seqscan")


def _split_carried(
    rows: Sequence[rules.ListEntry], previous: tuple[int, dict[int, rules.ListEntry]] | None
) -> tuple[Sequence[rules.ListEntry], int]:
    """The rows to insert one by one, and how many rows are plain carries of the previous
    period's: a player without games whose row is the previous row with the rating after as
    the rating before and nothing counted (:data:`_CARRY_SELECT`), every other value equal.
    Most players, most periods; :func:`_copy_carried` writes those in one INSERT ... SELECT,
    twice as fast as binding them (bench/RESULTS.md, issue 13). When a player on the previous
    list is missing from this one, nothing is carried (the copy takes every player not
    inserted)."""
    if previous is None:
        return rows, 0
    before = previous[1]
    explicit: list[rules.ListEntry] = []
    on_both = 0
    for row in rows:
        old = before.get(row.player_id)
        if old is not None:
            on_both += 1
            if rules.is_carried(row, old):
                continue
        explicit.append(row)
    if on_both != len(before):
        return rows, 0
    return explicit, len(rows) - len(explicit)


def _split_partial(
    rows: Sequence[rules.ListEntry], before: Mapping[int, rules.ListEntry], listed: int
) -> tuple[list[rules.ListEntry], int]:
    """:func:`_split_carried` for the rows of some players only (:meth:`_Rater._players_for`):
    the rows to insert, and how many rows to copy from the previous list, of the ``listed``
    players on it still registered: every one but those inserted."""
    explicit: list[rules.ListEntry] = []
    replaced = 0
    for row in rows:
        old = before.get(row.player_id)
        if old is None:
            explicit.append(row)  # not on the previous list
            continue
        if not rules.is_carried(row, old):
            explicit.append(row)
            replaced += 1
    return explicit, listed - replaced


_CARRY_SELECT = {
    field: value if isinstance(value, str) else "NULL" if value is None else str(int(value))
    for field, value in rules.CARRIED.items()
}
"""How a carried row's columns come from the previous row, in SQL (the others are copied as
they are): :data:`ratings.rules.CARRIED`, the one definition, as column names and literals."""


def _copy_carried(
    session: Session,
    previous_id: int,
    period_id: int,
    tc_sql: str,
    expected: int,
    *,
    leave: frozenset[int] = frozenset(),
) -> None:
    """Copy the carried rows of the previous period into ``period_id``: every player of the
    previous list who has no row yet in this one (but those in ``leave``: merged away)."""
    columns = ", ".join(_HISTORY_COLUMNS)
    select = ", ".join(_CARRY_SELECT.get(c, f"p.{c}") for c in _HISTORY_COLUMNS)
    conn = session.connection()
    # PostgreSQL plans the anti-join from statistics that a rate outruns (the new period's
    # rows are never in them): it expected one row a side and took a nested loop that read
    # the whole new period for every old row, 17-25 s a period at 20,000 players
    # (bench/RESULTS.md). Without nested loops it hashes one side: linear whatever the
    # statistics say.
    left = ""
    if leave:
        left = f" AND p.player_id NOT IN ({', '.join(str(int(pid)) for pid in sorted(leave))})"
    with _planner_setting_off(session, "enable_nestloop"):
        done = conn.exec_driver_sql(
            f"INSERT INTO rating_history (period_id, time_control, {columns}) "
            f"SELECT {int(period_id)}, p.time_control, {select} FROM rating_history p "
            f"WHERE p.period_id = {int(previous_id)} AND p.time_control = {tc_sql} "
            "AND NOT EXISTS (SELECT 1 FROM rating_history c "
            f"WHERE c.period_id = {int(period_id)} AND c.time_control = {tc_sql} "
            "AND c.player_id = p.player_id)" + left
        )
    if done.rowcount != expected:  # the previous rows in the database are not the engine's
        raise RuntimeError(
            f"rating_history: {done.rowcount} rows carried over into period {period_id}, "
            f"{expected} expected"
        )


_PLANNED_TABLES = ("players", "events", "games", "rating_history", "rating_breakdown")
"""The tables a rate reads that an import or a rate can grow many times over."""


def stale_statistics(reltuples: float, has_rows: bool, changed: int) -> bool:
    """Whether PostgreSQL's statistics of a table are too old to plan with: none gathered
    yet (``reltuples`` -1) on a table with rows, or more rows inserted, updated or deleted
    since (``changed``) than half the rows they counted."""
    if reltuples < 0:
        return has_rows
    return changed > reltuples / 2


def refresh_statistics(session: Session) -> None:
    """PostgreSQL: ANALYZE the tables of :data:`_PLANNED_TABLES` whose statistics are stale
    (:func:`stale_statistics`), in the session's transaction (which sees its own rows).
    Autovacuum analyzes only some time after a commit: a rate that
    follows a large import planned its reads of ``games`` with no statistics at all.
    (Inside a rate, planning the reads of the lists it writes does not depend on them:
    :meth:`_Rater._read_players`.) Nothing is done on SQLite, whose planner works from the
    indexes it has."""
    conn = session.connection()
    if conn.dialect.name != "postgresql":
        return
    names = ", ".join(f"'{name}'" for name in _PLANNED_TABLES)
    stale = [
        name
        for name, reltuples, has_rows, changed in conn.exec_driver_sql(
            "SELECT t.name, c.reltuples, pg_relation_size(c.oid) > 0, "
            "pg_stat_get_mod_since_analyze(c.oid) + pg_stat_get_xact_tuples_inserted(c.oid) "
            "+ pg_stat_get_xact_tuples_updated(c.oid) + pg_stat_get_xact_tuples_deleted(c.oid) "
            f"FROM unnest(ARRAY[{names}]) AS t(name) JOIN pg_class c "
            "ON c.oid = to_regclass(t.name)"
        )
        if stale_statistics(reltuples, has_rows, changed)
    ]
    for name in stale:
        conn.exec_driver_sql(f"ANALYZE {name}")  # a name of _PLANNED_TABLES


# --- the use case --------------------------------------------------------------------------


def closing_shift(config: SystemConfig) -> dt.timedelta:
    """How far the closing date moves results (art. 7.1.3): a result ending on day d goes to
    the list of the period holding d + this (:func:`ratings.rules.rating_period_for`)."""
    return dt.timedelta(days=max(config.closing_days - 1, 0))


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
            day = conn.exec_driver_sql(
                f"SELECT min(played_on) FROM games WHERE rateable AND event_id IN ({ids})"
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
) -> tuple[list[Period], Period | None]:
    """The periods the next ``rate`` works on, in order, and the first of them that is a
    re-rate (None when nothing is re-rated).

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
        start = first_game_period(session, config)
    if start is None:
        return [], None
    held_back_from = None
    if through is None and today is not None:
        # a period that has not ended is rated only when --through names it (issue 11,
        # item 6): its games may still be coming, and a mistyped year would publish a run
        # of empty lists up to it
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


@without_cycle_collection
def rate(
    session: Session,
    *,
    through: Period | None = None,
    today: dt.date | None = None,
    progress: Callable[[Period], None] | None = None,
    planned: Callable[[int], None] | None = None,
) -> RateReport:
    """Rate every period not yet rated, and re-rate from the oldest corrected one, strictly
    in order (docs/DESIGN.md#re-rates-and-superseded-values). Superseded published values go to
    ``superseded_ratings``.

    ``through`` is the last period to rate (default: the period of the newest game); with
    ``today`` it may not lie beyond the current period unless games do, and without it the
    periods that have not ended by ``today`` are left for later (``held_back`` in the
    report), except those a re-rate must reach.

    :param planned: called once, before any work, with the number of periods to rate (a
        progress bar's length); then ``progress`` after each period rated.
    """
    config = get_config(session)
    periods, _ = periods_to_rate(session, config, through, today=today)
    held_back: tuple[str, ...] = ()
    if through is None and today is not None:
        every, _ = periods_to_rate(session, config, None)
        kept = set(periods)
        held_back = tuple(p.label for p in every if p not in kept)
    if planned is not None:
        planned(len(periods))
    if not periods:
        return RateReport(held_back=held_back)
    if through is not None and through.months != config.period_months:
        raise PeriodError(f"{through.label} is not a {config.period_months}-month period")
    refresh_statistics(session)  # after a large import
    existing = {
        p.start_date: p
        for p in session.scalars(
            sa.select(RatingPeriod).where(RatingPeriod.start_date >= periods[0].start)
        )
    }
    if existing:
        ids = [p.id for p in existing.values()]
        session.execute(sa.delete(RatingBreakdown).where(RatingBreakdown.period_id.in_(ids)))
    # a re-rated period's old list is read, replaced and compared one period at a time:
    # holding every old and new list row at once took 1.6 GB at 100k games
    changed: list[ChangedRating] = []

    standard = _Rater(session, config)
    raters = [standard, *(_Rater(session, config, tc.value, standard) for tc in _OTHER_LISTS)]
    for rater in raters:
        rater.load_state(periods[0])
        rater.find_long_events(periods[0])
    now = utcnow()
    rated: list[str] = []
    rerated: list[str] = []
    games = 0
    for period in periods:
        row = existing.get(period.start)
        if row is None:
            row = RatingPeriod(
                label=period.label,
                start_date=period.start,
                end_date=period.end,
                list_date=period.list_date,
                status="published",
                rated_at=now,
            )
            session.add(row)
            rated.append(period.label)
        else:
            row.status = "published"
            row.rated_at = now
            rerated.append(period.label)
        session.flush()
        for rater in raters:
            tc = rater.time_control
            old = _replace_list(session, row, tc) if period.start in existing else None
            games += rater.rate_period(period, row.id)
            if old:
                changed += _supersede(session, row, old, now, tc)
        if progress is not None:
            progress(period)
    for start, row in sorted(existing.items()):
        if start not in {period.start for period in periods}:
            for listed in rules.TIME_CONTROLS:
                old = _replace_list(session, row, listed.value)
                changed += _supersede(session, row, old, now, listed.value)
    return RateReport(tuple(rated), tuple(rerated), games, tuple(changed), held_back)


def _replace_list(
    session: Session, period: RatingPeriod, time_control: str
) -> dict[int, tuple[int | None, int, int | None]]:
    """Delete a period's list rows of one time control before its re-rate; returns them as
    player id -> (rating after, change, K used)."""
    where = (
        f"WHERE period_id = {int(period.id)} "
        f"AND time_control = '{rules.time_control(time_control).value}'"
    )
    old = {
        pid: (after, change, k)
        for pid, after, change, k in fetch_all(
            session,
            f"SELECT player_id, rating_after, change, k_used FROM rating_history {where}",
        )
    }
    if old:
        session.connection().exec_driver_sql(f"DELETE FROM rating_history {where}")
    return old


def _names(session: Session, player_ids: Sequence[int]) -> dict[int, str]:
    """The names of these players by id (for the report of changed ratings)."""
    names: dict[int, str] = {}
    for start in range(0, len(player_ids), BULK_CHUNK):
        chunk = ", ".join(str(int(pid)) for pid in player_ids[start : start + BULK_CHUNK])
        names.update(fetch_all(session, f"SELECT id, name FROM players WHERE id IN ({chunk})"))
    return names


def _supersede(
    session: Session,
    period: RatingPeriod,
    old: dict[int, tuple[int | None, int, int | None]],
    now: dt.datetime,
    time_control: str,
) -> list[ChangedRating]:
    """Keep every published value of ``period``'s list ``time_control`` that its re-rate
    replaced (in name order); returns the rating changes."""
    tc = rules.time_control(time_control).value
    new = {
        pid: (after, change)
        for pid, after, change in fetch_all(
            session,
            "SELECT player_id, rating_after, change FROM rating_history "
            f"WHERE period_id = {int(period.id)} AND time_control = '{tc}'",
        )
    }
    replaced = [
        (pid, values, new.get(pid, (None, 0)))
        for pid, values in old.items()
        if values[:2] != new.get(pid, (None, 0))
    ]
    names = _names(session, [pid for pid, _, _ in replaced])
    replaced.sort(key=lambda item: (names.get(item[0], ""), item[0]))
    stamp = datetime_param(session, now)
    with _keys_checked_by_index(session):  # its period_id's key check too (PostgreSQL)
        bulk_insert(
            session,
            "superseded_ratings",
            (
                "period_id", "period", "time_control", "player_id", "old_rating", "new_rating",
                "old_change", "new_change", "old_k_used", "superseded_at",
            ),
            (
                (period.id, period.label, tc, pid, old_rating, new_rating, old_change,
                 new_change, old_k, stamp)
                for pid, (old_rating, old_change, old_k), (new_rating, new_change) in replaced
            ),
        )  # fmt: skip
    return [
        ChangedRating(period.label, pid, names.get(pid, "?"), old_rating, new_rating, tc)
        for pid, (old_rating, _, _), (new_rating, _) in replaced
        if old_rating != new_rating
    ]
