"""Rating periods, strictly in order: the heart of the product (SPEC 1, 3).

Set-based: a period's games are read with one query, the arithmetic runs on plain integers
(rules' fast paths), and history and breakdown rows are written with executemany. No ORM
object is created per game or per player. The work for one period is proportional to that
period's games plus the number of registered players (one list row each).
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.models import RatingBreakdown, RatingPeriod
from ratings.results import Result
from ratings.rules import ExpectedMethod, Period, PlayerState, SystemConfig
from ratings.service.common import (
    bulk_insert,
    date_param,
    datetime_param,
    fetch_all,
    get_config,
    to_date,
    utcnow,
)

_WHITE_HALVES = {r.value: r.white_half_points for r in Result if r.is_played}
_CURVE_SCALE = 10**rules.CURVE_PLACES


@dataclass(frozen=True, slots=True)
class ChangedRating:
    """A published rating that a re-rate replaced (old -> new)."""

    period: str
    player_id: int
    name: str
    old: int | None
    new: int | None


@dataclass(frozen=True, slots=True)
class RateReport:
    """What ``rate`` did."""

    rated: tuple[str, ...] = ()
    """Labels of the periods rated for the first time."""
    rerated: tuple[str, ...] = ()
    """Labels of the periods rated again after a correction."""
    games: int = 0
    """Rated games processed."""
    changed: tuple[ChangedRating, ...] = ()
    """Published ratings that the re-rate changed."""


@dataclass(slots=True)
class _Player:
    """A player's state on the list in force at the start of the period being rated."""

    rating: int | None
    total_games: int
    k10: bool
    reached_2300: bool
    birth_year: int | None
    pool: list[tuple[dt.date, int, int, int]] = field(default_factory=list)
    """(period start, event id, opponent rating, half points) of games towards a first rating."""


@dataclass(slots=True)
class _Tally:
    """One player's rated games of the period, before K is known."""

    rows: list[tuple[int, int, int, int, int, int]] = field(default_factory=list)
    """(game id, opponent id, own rating, opponent rating, D, expected units)."""
    halves: list[int] = field(default_factory=list)
    sum_dr: int = 0
    sum_expected: int = 0


class _Rater:
    def __init__(self, session: Session, config: SystemConfig) -> None:
        self.session = session
        self.config = config
        self.months = config.period_months
        self.curve = config.expected is ExpectedMethod.CURVE
        self.scale = _CURVE_SCALE if self.curve else 100
        self.start_rating = config.start_rating  # club, elo: newcomers' rating
        self.players: dict[int, _Player] = {}
        self.list_cache: OrderedDict[dt.date, dict[int, int | None]] = OrderedDict()
        self.entry_list: dict[int, int | None] = {}
        self.rule_cache: dict[dt.date, rules.RuleSet] = {}
        self.first_events: dict[int, int | None] = {}
        """Each player's first event, once looked up (games do not change during a rate)."""
        self.current_list: dict[int, int | None] | None = None
        """Ratings at the start of the period being rated (built once per period)."""
        self.pool_periods = max(rules.INITIAL_POOL_MONTHS // self.months, 1)

    # --- state ---------------------------------------------------------------------------

    def load_state(self, start: Period) -> None:
        """The players' state on the list dated ``start`` (the previous period's, or the
        register's entry data when no period before ``start`` was rated)."""
        players = fetch_all(
            self.session,
            "SELECT id, entry_rating, entry_games, k10, birth_year FROM players "
            "WHERE merged_into_id IS NULL ORDER BY id",
        )
        for pid, rating, games, k10, birth_year in players:
            self.entry_list[pid] = rating
            self.players[pid] = _Player(
                rating=rating,
                total_games=games,
                k10=bool(k10) or (rating is not None and rating >= rules.K10_MARK),
                reached_2300=rating is not None and rating >= rules.JUNIOR_MARK,
                birth_year=birth_year,
            )
        previous = self._period_row(start.previous().start)
        if previous is None:
            return
        rows = fetch_all(
            self.session,
            "SELECT player_id, rating_after, total_games, k10, reached_2300 "
            f"FROM rating_history WHERE period_id = {int(previous)}",
        )
        for pid, rating, total, k10, r2300 in rows:
            state = self.players.get(pid)
            if state is None:
                continue
            state.rating = rating
            state.total_games = total
            state.k10 = bool(k10) or state.k10
            state.reached_2300 = bool(r2300)
        if self.config.uses_initial_ratings:
            self._load_pools(start)

    def _load_pools(self, start: Period) -> None:
        """Rebuild the unrated players' pools from the stored breakdown (rows with k NULL)."""
        cutoff = self._pool_cutoff(start)
        unrated = [pid for pid, s in self.players.items() if s.rating is None]
        if not unrated:
            return
        conn = self.session.connection()
        rows = conn.exec_driver_sql(
            "SELECT b.player_id, rp.start_date, g.event_id, b.opponent_rating, b.score "
            "FROM rating_breakdown b JOIN rating_periods rp ON rp.id = b.period_id "
            "JOIN games g ON g.id = b.game_id "
            "WHERE b.k IS NULL AND rp.start_date >= {0} AND rp.start_date < {0} "
            "ORDER BY rp.start_date, b.game_id".format(self._ph()),
            (date_param(self.session, cutoff), date_param(self.session, start.start)),
        ).all()
        pooled = sorted(
            {pid for pid, *_ in rows if pid in self.players and self.players[pid].rating is None}
        )
        last_rated = self._last_rated(pooled, cutoff, start)
        for pid, pstart, event_id, opp, score in rows:
            state = self.players.get(pid)
            if state is None or state.rating is not None:
                continue
            day = to_date(pstart)
            if pid in last_rated and day <= last_rated[pid]:
                continue
            state.pool.append((day, event_id, opp, int(score * 2)))

    def _last_rated(self, pids: list[int], cutoff: dt.date, start: Period) -> dict[int, dt.date]:
        """Start of the newest period in [cutoff, start) whose list rated each of ``pids``:
        their pool games up to it do not count. Older periods cannot matter (pools begin at
        ``cutoff``), so only the window is read, through the (period, player) index: the cost
        does not grow with the history."""
        if not pids:
            return {}
        conn = self.session.connection()
        ph = self._ph()
        window = {
            period_id: to_date(day)
            for period_id, day in conn.exec_driver_sql(
                f"SELECT id, start_date FROM rating_periods WHERE start_date >= {ph} "
                f"AND start_date < {ph}",
                (date_param(self.session, cutoff), date_param(self.session, start.start)),
            ).all()
        }
        found: dict[int, dt.date] = {}
        if not window:
            return found
        periods = ", ".join([ph] * len(window))
        for i in range(0, len(pids), 500):
            chunk = pids[i : i + 500]
            for pid, period_id in conn.exec_driver_sql(
                f"SELECT player_id, period_id FROM rating_history WHERE period_id IN ({periods}) "
                f"AND player_id IN ({', '.join([ph] * len(chunk))}) AND rating_after IS NOT NULL",
                (*window, *chunk),
            ):
                day = window[period_id]
                if found.get(pid, day) <= day:
                    found[pid] = day
        return found

    def _pool_cutoff(self, period: Period) -> dt.date:
        first = period
        for _ in range(self.pool_periods - 1):
            first = first.previous()
        return first.start

    def _ph(self) -> str:
        return "?" if self.session.connection().dialect.paramstyle == "qmark" else "%s"

    def _period_row(self, start: dt.date) -> int | None:
        return self.session.scalar(
            sa.select(RatingPeriod.id).where(RatingPeriod.start_date == start)
        )

    def list_at(self, list_date: dt.date, current: Period) -> dict[int, int | None]:
        """Ratings on the list dated ``list_date`` (SPEC 1.5: the list in force when an
        event started)."""
        if list_date == current.start:
            if self.current_list is None:
                self.current_list = {pid: s.rating for pid, s in self.players.items()}
            return self.current_list
        cached = self.list_cache.get(list_date)
        if cached is not None:
            return cached
        period_id = self.session.scalar(
            sa.select(RatingPeriod.id).where(RatingPeriod.list_date == list_date)
        )
        if period_id is None:
            # before the first rated period: the register's entry ratings are the list
            ratings = dict(self.entry_list)
        else:
            ratings = dict(
                fetch_all(
                    self.session,
                    "SELECT player_id, rating_after FROM rating_history "
                    f"WHERE period_id = {int(period_id)}",
                )
            )
        self.list_cache[list_date] = ratings
        while len(self.list_cache) > 4:
            self.list_cache.popitem(last=False)
        return ratings

    def rule_set(self, event_start: dt.date) -> rules.RuleSet:
        found = self.rule_cache.get(event_start)
        if found is None:
            found = self.rule_cache[event_start] = self.config.rule_set(event_start)
        return found

    # --- one period ----------------------------------------------------------------------

    def rate_period(self, period: Period, period_id: int) -> int:
        """Rate one period; writes its history and breakdown rows. Returns rated games."""
        self.current_list = None
        ph = self._ph()
        games = fetch_all(
            self.session,
            "SELECT g.id, g.white_id, g.black_id, g.result, e.id, e.start_date "
            "FROM games g JOIN events e ON e.id = g.event_id "
            f"WHERE e.end_date >= {ph} AND e.end_date <= {ph} AND g.rated "
            "ORDER BY g.id",
            (date_param(self.session, period.start), date_param(self.session, period.end)),
        )

        fide_pool = self.config.uses_initial_ratings
        start_rating = self.start_rating
        curve = self.curve
        scale = self.scale
        players = self.players
        tallies: dict[int, _Tally] = defaultdict(_Tally)
        pooled: dict[int, list[_PoolGame]] = defaultdict(list)
        event_lists: dict[object, tuple[dict[int, int | None], rules.RuleSet]] = {}
        counted = 0
        for game_id, white, black, result, event_id, event_start in games:
            ctx = event_lists.get(event_start)
            if ctx is None:
                day = to_date(event_start)
                list_date = Period.containing(day, self.months).start
                ctx = (self.list_at(list_date, period), self.rule_set(day))
                event_lists[event_start] = ctx
            ratings, rule_set = ctx
            white_halves = _WHITE_HALVES[result]
            white_state = players.get(white)
            black_state = players.get(black)
            if white_state is None or black_state is None:
                continue  # merged-away records have no games left; nothing to rate
            used = False
            for pid, opp, state, opp_state, halves in (
                (white, black, white_state, black_state, white_halves),
                (black, white, black_state, white_state, 2 - white_halves),
            ):
                opp_used = ratings.get(opp)
                own_now = state.rating
                if start_rating is not None:
                    # club, elo: newcomers play at the start rating from their first game
                    if opp_used is None:
                        opp_used = opp_state.rating or start_rating
                    if own_now is None:
                        own_now = start_rating
                if opp_used is None:
                    continue  # against an unrated opponent: not rated for this player
                if own_now is None:
                    if fide_pool:
                        pooled[pid].append(_PoolGame(game_id, event_id, opp, opp_used, halves))
                        used = True
                    continue
                own_used = ratings.get(pid)
                if own_used is None:
                    # unrated when the event started, rated since: the period's base rating
                    own_used = own_now
                if curve:
                    diff, exp = rules.curve_expectation(own_used, opp_used, rule_set)
                else:
                    diff, exp = rules.table_expectation(own_used, opp_used, rule_set)
                tally = tallies[pid]
                tally.rows.append((game_id, opp, own_used, opp_used, diff, exp))
                tally.halves.append(halves)
                tally.sum_dr += halves * scale // 2 - exp
                tally.sum_expected += exp
                used = True
            counted += used

        history, breakdown = self._close(period, period_id, tallies, pooled)
        bulk_insert(
            self.session,
            "rating_breakdown",
            (
                "period_id", "game_id", "player_id", "opponent_id", "own_rating",
                "opponent_rating", "difference", "score", "expected", "change", "k",
            ),
            breakdown,
        )  # fmt: skip
        bulk_insert(
            self.session,
            "rating_history",
            (
                "period_id", "player_id", "rating_before", "rating_after", "change", "k",
                "games", "total_games", "score", "expected_sum", "k10", "reached_2300",
                "next_k", "state",
            ),
            history,
        )  # fmt: skip
        return counted

    def _close(
        self,
        period: Period,
        period_id: int,
        tallies: dict[int, _Tally],
        pooled: dict[int, list[_PoolGame]],
    ) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        """Turn the period's tallies into list rows and breakdown rows; advance the state."""
        config = self.config
        scale = self.scale
        breakdown: list[tuple[object, ...]] = []
        history: list[tuple[object, ...]] = []
        initial = self._initial_ratings(period, pooled)
        list_date = period.list_date  # a property that computes the date: once per period
        # flags_after is pure and sees few distinct inputs: one call per (k10, 2300, rating)
        flags_of: dict[tuple[bool, bool, int | None], rules.Flags] = {}
        for pid, state in self.players.items():
            before = state.rating
            tally = tallies.get(pid)
            pool = pooled.get(pid)
            k_used: int | None = None
            change = 0
            n = 0
            halves_total = 0
            expected_total = 0
            status = "rated" if before is not None else "unrated"
            after = before
            if tally is not None:
                n = len(tally.rows)
                base = config.k_for(
                    PlayerState(
                        rating=before,
                        games_played=state.total_games,
                        birth_year=state.birth_year,
                        k10=state.k10,
                        reached_2300=state.reached_2300,
                    ),
                    period.start,
                )
                k_used = rules.apply_700_rule(base, n) if config.uses_700_rule else base
                change = rules.divide_half_away(k_used * tally.sum_dr, scale)
                own_base = before if before is not None else self.start_rating
                assert own_base is not None  # unrated players are rated only with a start rating
                after = own_base + change
                if before is None:
                    status = "new"
                halves_total = sum(tally.halves)
                expected_total = tally.sum_expected
                for (game_id, opp, own_used, opp_used, diff, exp), halves in zip(
                    tally.rows, tally.halves, strict=True
                ):
                    breakdown.append(
                        (
                            period_id, game_id, pid, opp, own_used, opp_used, diff,
                            halves / 2, exp / scale, (halves * scale // 2 - exp) / scale, k_used,
                        )
                    )  # fmt: skip
                if config.uses_floor and after < rules.RATING_FLOOR:
                    after = None
                    status = "below_floor"
            elif pool:
                n = len(pool)
                halves_total = sum(g.halves for g in pool)
                for g in pool:
                    breakdown.append(
                        (
                            period_id, g.game_id, pid, g.opponent_id, None, g.opponent_rating,
                            None, g.halves / 2, None, None, None,
                        )
                    )  # fmt: skip
                first = initial.get(pid)
                if first is not None:
                    after = first
                    status = "new"
            total = state.total_games + n
            key = (state.k10, state.reached_2300, after)
            flags = flags_of.get(key)
            if flags is None:
                flags = flags_of[key] = rules.flags_after(*key)
            next_k = None
            if after is not None:
                next_k = config.k_for(
                    PlayerState(
                        rating=after,
                        games_played=total,
                        birth_year=state.birth_year,
                        k10=flags.k10,
                        reached_2300=flags.reached_2300,
                    ),
                    list_date,
                )
            history.append(
                (
                    period_id, pid, before, after, change, k_used, n, total,
                    halves_total / 2, expected_total / scale, flags.k10, flags.reached_2300,
                    next_k, status,
                )
            )  # fmt: skip
            state.rating = after
            state.total_games = total
            state.k10 = flags.k10
            state.reached_2300 = flags.reached_2300
            if after is not None:
                state.pool.clear()
        return history, breakdown

    def _initial_ratings(
        self, period: Period, pooled: dict[int, list[_PoolGame]]
    ) -> dict[int, int]:
        """First ratings published this period (art. 8.2, 7.1.4): for each unrated player
        with new pool games, the pool of the last 26 months; a zero score in the player's
        first event is disregarded; published only at 1400 or more."""
        cutoff = self._pool_cutoff(period)
        found: dict[int, int] = {}
        candidates: list[int] = []
        for pid, games in pooled.items():
            state = self.players[pid]
            state.pool = [g for g in state.pool if g[0] >= cutoff]
            state.pool.extend(
                (period.start, g.event_id, g.opponent_rating, g.halves) for g in games
            )
            if len(state.pool) >= rules.INITIAL_MIN_GAMES:
                candidates.append(pid)
        for pid in candidates:
            pool = self.players[pid].pool
            first_event = self._first_event(pid)
            by_event: dict[int, list[tuple[int, Decimal]]] = {}
            for _, event_id, opp, halves in pool:
                by_event.setdefault(event_id, []).append((opp, Decimal(halves) / 2))
            events = list(by_event.values())
            if first_event in by_event:
                first = by_event.pop(first_event)
                events = [first, *by_event.values()]
            else:
                events = [[], *events]
            result = rules.initial_rating(rules.drop_zero_first_event(events))
            if result is not None and result.published:
                found[pid] = result.rating
        return found

    def _first_event(self, player_id: int) -> int | None:
        """The first event the player ever played a rated game in (by start date)."""
        if player_id in self.first_events:
            return self.first_events[player_id]
        ph = self._ph()
        found: int | None = (
            self.session.connection()
            .exec_driver_sql(
                "SELECT e.id FROM games g JOIN events e ON e.id = g.event_id "
                f"WHERE (g.white_id = {ph} OR g.black_id = {ph}) AND g.rated "
                "ORDER BY e.start_date, e.id LIMIT 1",
                (player_id, player_id),
            )
            .scalar()
        )
        self.first_events[player_id] = found
        return found


@dataclass(frozen=True, slots=True)
class _PoolGame:
    """An unrated player's game against a rated opponent (towards a first rating)."""

    game_id: int
    event_id: int
    opponent_id: int
    opponent_rating: int
    halves: int


# --- the use case --------------------------------------------------------------------------


def latest_game_period(session: Session, months: int) -> Period | None:
    """The period holding the last event end date of any stored rated game."""
    last = (
        session.connection()
        .exec_driver_sql(
            "SELECT max(e.end_date) FROM events e WHERE EXISTS "
            "(SELECT 1 FROM games g WHERE g.event_id = e.id AND g.rated)"
        )
        .scalar()
    )
    return Period.containing(to_date(last), months) if last is not None else None


def first_game_period(session: Session, months: int) -> Period | None:
    """The period holding the first event end date of any stored rated game."""
    first = (
        session.connection()
        .exec_driver_sql(
            "SELECT min(e.end_date) FROM events e WHERE EXISTS "
            "(SELECT 1 FROM games g WHERE g.event_id = e.id AND g.rated)"
        )
        .scalar()
    )
    return Period.containing(to_date(first), months) if first is not None else None


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
        newest = latest_game_period(session, months)
        current = Period.containing(today, months)
        limit = max(newest, current) if newest is not None else current
        if limit < through:
            raise PeriodError(
                f"period {through.label} is after both the current period {current.label} "
                f"and the newest game's period; rate at most through {limit.label}"
            )
    rated = list(session.scalars(sa.select(RatingPeriod).order_by(RatingPeriod.start_date)))
    stale = next((p for p in rated if p.state == "needs_rerate"), None)
    if stale is not None:
        start: Period | None = Period(stale.start_date, months)
    elif rated:
        start = Period(rated[-1].start_date, months).next()
    else:
        start = first_game_period(session, months)
    if start is None:
        return [], None
    end = through or latest_game_period(session, months)
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


def rate(
    session: Session,
    *,
    through: Period | None = None,
    today: dt.date | None = None,
    progress: Callable[[Period], None] | None = None,
) -> RateReport:
    """Rate every period not yet rated, and re-rate from the oldest corrected one, strictly
    in order (SPEC 3). Superseded published values go to ``superseded_ratings``.

    ``through`` is the last period to rate (default: the period of the newest game); with
    ``today`` it may not lie beyond the current period unless games do.
    """
    config = get_config(session)
    periods, _ = periods_to_rate(session, config, through, today=today)
    if not periods:
        return RateReport()
    if through is not None and through.months != config.period_months:
        raise PeriodError(f"{through.label} is not a {config.period_months}-month period")
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
    names: dict[int, str] = {}
    changed: list[ChangedRating] = []

    rater = _Rater(session, config)
    rater.load_state(periods[0])
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
                state="rated",
                rated_at=now,
            )
            session.add(row)
            rated.append(period.label)
        else:
            row.state = "rated"
            row.rated_at = now
            rerated.append(period.label)
        session.flush()
        old = _replace_list(session, row) if period.start in existing else None
        games += rater.rate_period(period, row.id)
        if old is not None:
            names = names or _names(session)
            changed += _supersede(session, row, old, names, now)
        if progress is not None:
            progress(period)
    for start, row in sorted(existing.items()):
        if start not in {period.start for period in periods}:
            names = names or _names(session)
            changed += _supersede(session, row, _replace_list(session, row), names, now)
    return RateReport(tuple(rated), tuple(rerated), games, tuple(changed))


def _replace_list(
    session: Session, period: RatingPeriod
) -> dict[int, tuple[int | None, int, int | None]]:
    """Delete a period's list rows before its re-rate; returns them as player id -> (rating
    after, change, k)."""
    old = {
        pid: (after, change, k)
        for pid, after, change, k in fetch_all(
            session,
            "SELECT player_id, rating_after, change, k FROM rating_history "
            f"WHERE period_id = {int(period.id)}",
        )
    }
    session.connection().exec_driver_sql(
        f"DELETE FROM rating_history WHERE period_id = {int(period.id)}"
    )
    return old


def _names(session: Session) -> dict[int, str]:
    """Every player's name by id (for the report of changed ratings)."""
    return dict(session.connection().exec_driver_sql("SELECT id, name FROM players").all())


def _supersede(
    session: Session,
    period: RatingPeriod,
    old: dict[int, tuple[int | None, int, int | None]],
    names: dict[int, str],
    now: dt.datetime,
) -> list[ChangedRating]:
    """Keep every published value of ``period`` that its re-rate replaced (in name order);
    returns the rating changes."""
    new = {
        pid: (after, change)
        for pid, after, change in fetch_all(
            session,
            "SELECT player_id, rating_after, change FROM rating_history "
            f"WHERE period_id = {int(period.id)}",
        )
    }
    replaced = [
        (pid, values, new.get(pid, (None, 0)))
        for pid, values in old.items()
        if values[:2] != new.get(pid, (None, 0))
    ]
    replaced.sort(key=lambda item: (names.get(item[0], ""), item[0]))
    stamp = datetime_param(session, now)
    bulk_insert(
        session,
        "superseded_ratings",
        (
            "period_id", "player_id", "old_rating", "new_rating", "old_change", "new_change",
            "old_k", "superseded_at",
        ),
        (
            (period.id, pid, old_rating, new_rating, old_change, new_change, old_k, stamp)
            for pid, (old_rating, old_change, old_k), (new_rating, new_change) in replaced
        ),
    )  # fmt: skip
    return [
        ChangedRating(period.label, pid, names.get(pid, "?"), old_rating, new_rating)
        for pid, (old_rating, _, _), (new_rating, _) in replaced
        if old_rating != new_rating
    ]
