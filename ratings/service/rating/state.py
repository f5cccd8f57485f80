"""The players' standings a rate holds for one list between periods: read in full from the
previous list and the register at the start, or, once a previous list is stored, only those
of the players whose rows can change in a period (:func:`ratings.rules.changes_without_games`
in SQL), with the pools of the unrated ones (art. 7.1.4)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.models import ENTRY_COLUMNS, RatingPeriod
from ratings.rules import Period, SystemConfig
from ratings.service.rating.write import HISTORY_COLUMNS
from ratings.service.shared.sql import fetch_all, to_date

__all__ = ["ID_LIST_SIZE", "SKIP_QUIET_PLAYERS", "ListState", "PartialState", "id_lists"]

_new_tuple = tuple.__new__  # builds a named tuple without its Python-level __new__


SKIP_QUIET_PLAYERS = True
"""Read only the players whose list rows can change in a period once a previous list is
stored (:meth:`ListState._players_for`); False reads every registered player every period (the
tests compare the two)."""


@dataclass(frozen=True, slots=True)
class PartialState:
    """What :meth:`ListState._players_for` answers."""

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


ID_LIST_SIZE = 500
"""Player ids listed in one query's ``IN (...)`` (:func:`id_lists`)."""


def id_lists(ids: Sequence[int], size: int | None = None) -> Iterator[str]:
    """``ids`` as SQL lists of integers, ``size`` a list (default :data:`ID_LIST_SIZE`).
    :meth:`ListState._read_players` lists them all at once on PostgreSQL."""
    step = ID_LIST_SIZE if size is None else size
    for i in range(0, len(ids), step):
        yield ", ".join(str(int(pid)) for pid in ids[i : i + step])


class ListState:
    """What a rate holds for one list (standard, rapid or blitz) between periods, and how it
    reads it: the players' standings, whether the list is published, the previous period's
    rows and the players waiting for their first list. The rater
    (:mod:`ratings.service.rating.rate`) asks it for a period's standings
    (:meth:`standings_for`) and hands it the period's outcome (:meth:`rated`)."""

    def __init__(
        self, session: Session, config: SystemConfig, time_control: str = "standard"
    ) -> None:
        self.session = session
        self.config = config
        self.time_control = rules.time_control(time_control).value
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
        self.entry_ratings: dict[int, int | None] | None = None
        """Every registered player's entry rating on this list, when :meth:`load_state` read
        the register in full (the game selection's list before the first rated period)."""
        self.dates: dict[object, dt.date] = {}
        conn = session.connection()
        self.sqlite = conn.dialect.name == "sqlite"
        self.ph = "?" if conn.dialect.paramstyle == "qmark" else "%s"
        self.dormant = False
        """A rapid or blitz list that cannot be published in this run (:meth:`load_state`)."""
        self.previous: tuple[int, dict[int, rules.ListEntry]] | None = None
        """The id and list rows of the period this list was written for last in this run
        (None before the first, or after a period it was not written for): the rows a player
        without games carries over are copied from it in SQL
        (:func:`ratings.service.rating.write.split_carried`)."""
        self.previous_count: int | None = None
        """How many rows the previous list holds (None: not counted yet)."""
        self.merged: frozenset[int] | None = None
        """Players merged into another record (read once per run, with :attr:`live`)."""
        self.live = 0
        """Registered players not merged away."""
        self.waiting: dict[int, dt.date] = {}
        """Registered players on no list yet whose first list without a game comes after
        the period rated (``players.listed_from``; docs/DESIGN.md#who-is-on-a-list), by id:
        each joins that list, or the list of a period with a game of theirs before it."""
        self.held: dict[int, rules.Standing] = {}
        """The standings of :attr:`waiting` players read with every player (full reads)."""

    # --- one period ----------------------------------------------------------------------

    def opens(self, period: Period, games: Sequence[rules.GameResult]) -> bool:
        """Whether the list of ``period`` is written: a rapid or blitz list with no games
        that was never published before and has no rated player is not (nor carried from)."""
        if not self.active and not games and not self._rated_joining(period):
            self.previous = None
            return False
        self.active = True
        return True

    def standings_for(
        self, period: Period, games: Sequence[rules.GameResult]
    ) -> tuple[dict[int, rules.Standing], PartialState | None]:
        """The standings the engine rates ``period`` from, with the players who join the list
        in it; with :attr:`partial`, only those of the players whose rows can change, and
        what the row writer needs to carry the others (:meth:`_players_for`)."""
        if self.partial:
            partial = self._players_for(period, games)
            return partial.standings, partial
        standings = self.standings
        if self.held or self.waiting:
            joining = self._joining(period, games)
            standings = {**standings, **{pid: self.held.pop(pid) for pid in sorted(joining)}}
        return standings, None

    def rated(
        self,
        period_id: int,
        outcome: rules.PeriodOutcome,
        rows: int,
        partial: PartialState | None,
    ) -> None:
        """Hold what the engine answered for the period ``period_id``, whose list has
        ``rows`` rows now written: the standings and rows the next period starts from."""
        self.previous = (period_id, {row.player_id: row for row in outcome.list_rows})
        self.previous_count = rows
        if partial is None:
            self.standings = outcome.standings
            # from the next period on, read only the players whose rows can change
            self.partial = SKIP_QUIET_PLAYERS
        else:
            self.standings.update(outcome.standings)

    # --- loading -------------------------------------------------------------------------

    def load_state(self, start: Period) -> None:
        """The players' standings on the list dated ``start``: the previous period's list, or
        the register's entry data when no period before ``start`` was rated. The previous
        list's rows are kept for the carry test of the first period
        (:func:`ratings.service.rating.write.split_carried`).

        A rapid or blitz list is dormant (nothing loaded, nothing written) when it has no
        event, no player with an entry rating on it and no row in the previous period: it
        cannot be published in this run."""
        tc = self.time_control
        previous = self._period_id(start.previous().start)
        if tc != "standard" and self._dormant(previous):
            self.dormant = True
            return
        self.waiting = self._waiting_players(start, previous)
        if previous is not None and SKIP_QUIET_PLAYERS and self._has_rows(previous):
            # the previous list is stored: read players period by period, as they are needed
            self.partial = True
            self.active = True
            self.previous = (previous, {})
            return
        before: dict[int, rules.ListEntry] = {}
        dates = self.dates
        entry_list: dict[int, int | None] = {}
        self.entry_ratings = entry_list

        def day_of(value: object) -> dt.date | None:
            if value is None:
                return None
            day = dates.get(value)
            if day is None:
                day = dates[value] = to_date(value)
            return day

        if previous is not None:
            last = HISTORY_COLUMNS.index("last_active")
            for row in fetch_all(
                self.session,
                f"SELECT {', '.join(HISTORY_COLUMNS)} FROM rating_history "
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
        waiting = self.waiting
        self.held = {pid: standings.pop(pid) for pid in waiting if pid in standings}
        self.standings = standings
        if not self.active and any(
            r is not None for pid, r in entry_list.items() if pid not in waiting
        ):
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

    def _waiting_players(self, start: Period, previous: int | None) -> dict[int, dt.date]:
        """The registered players not on the list before ``start`` whose first list comes
        after ``start`` (``players.listed_from``, through its index: a few players, none
        when the register was complete before the first list)."""
        on_previous = ""
        if previous is not None:
            on_previous = (
                " AND NOT EXISTS (SELECT 1 FROM rating_history h WHERE h.player_id = p.id "
                f"AND h.period_id = {int(previous)} AND h.time_control = {self.tc_sql})"
            )
        return {
            pid: to_date(day)
            for pid, day in fetch_all(
                self.session,
                "SELECT p.id, p.listed_from FROM players p WHERE p.listed_from > "
                f"{self.ph} AND p.merged_into_id IS NULL{on_previous}",
                (self._date_param(start.start),),
            )
        }

    def _joining(self, period: Period, games: Sequence[rules.GameResult]) -> set[int]:
        """The :attr:`waiting` players who join the list of ``period``: its first list
        without a game, or a game in it; the others wait on."""
        if not self.waiting:
            return set()
        playing = {g.white_id for g in games} | {g.black_id for g in games}
        joining = {
            pid for pid, day in self.waiting.items() if day <= period.start or pid in playing
        }
        for pid in joining:
            del self.waiting[pid]
        return joining

    def _rated_joining(self, period: Period) -> bool:
        """Whether a player rated on this list joins it with ``period`` (registered after the
        lists began, ``players.listed_from``): from that period on the list is published, as
        it is for a player registered before them."""
        return any(
            day <= period.start and (held := self.held.get(pid)) is not None
            and held.rating is not None
            for pid, day in self.waiting.items()
        )  # fmt: skip

    def _players_for(self, period: Period, games: Sequence[rules.GameResult]) -> PartialState:
        """With :attr:`partial`: the standings of the players whose list row can change in
        ``period`` (those with games, and those :func:`ratings.rules.changes_without_games`
        names, picked in SQL), by id; read from the previous list and the register when not
        held yet, with their previous rows. The rows of everyone else are carried (copied in
        SQL by :func:`~ratings.service.rating.write.copy_carried`)."""
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
        self._joining(period, games)
        if self.live - (self.previous_count - len(gone)) > len(self.waiting):
            # registered since the previous list, their list come
            wanted |= self._unlisted(previous_id, period)
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

    def _unlisted(self, previous_id: int, period: Period) -> set[int]:
        """Registered players without a row on the previous list whose first list is that
        of ``period`` or an earlier one (``players.listed_from``)."""
        sql = (
            "SELECT p.id FROM players p WHERE p.merged_into_id IS NULL "
            f"AND (p.listed_from IS NULL OR p.listed_from <= {self.ph}) AND NOT EXISTS ("
            "SELECT 1 FROM rating_history h WHERE h.player_id = p.id "
            f"AND h.period_id = {int(previous_id)} AND h.time_control = {self.tc_sql})"
        )
        return {row[0] for row in fetch_all(self.session, sql, (self._date_param(period.start),))}

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
        last = HISTORY_COLUMNS.index("last_active")
        standings = self.standings
        unrated: list[int] = []
        # SQLite takes each id of a list through the index: ID_LIST_SIZE a query
        for marks in id_lists(pids, None if self.sqlite else max(len(pids), 1)):
            listed_rows: dict[int, rules.ListEntry] = {}
            for row in fetch_all(
                self.session,
                f"SELECT {', '.join(HISTORY_COLUMNS)} FROM rating_history "
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
            for marks in id_lists(pids):
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
        for listed in id_lists(pids):
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
