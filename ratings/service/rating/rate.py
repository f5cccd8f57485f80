"""Rating periods, strictly in order: the heart of the product (docs/DESIGN.md#the-period-engine).

This module is the use case, :func:`rate`: it plans the periods, then for each period and list
loads what the engine needs, calls :func:`ratings.rules.rate_period` and stores its rows. The
parts:

* :mod:`ratings.service.rating.plan`: which periods a rate works on;
* :mod:`ratings.service.rating.state`: the players' standings held between periods, and which
  players a period reads;
* :mod:`ratings.service.rating.games`: the games a period rates and the lists they use;
* :mod:`ratings.service.rating.carry`: writing the rows, the carried ones copied in SQL;
* :mod:`ratings.service.rating.postgres`: PostgreSQL's planner settings and statistics;
* :mod:`ratings.service.rating.supersede`: a re-rate's superseded values.

It loads and stores; all rating arithmetic is :func:`ratings.rules.rate_period`. Set-based: a
period's games are read with one query, the players' standings stay in memory from one period
to the next, and the engine's list and breakdown rows are written with executemany (COPY on
PostgreSQL). No ORM object is created per game or per player.

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
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.gc_pause import without_cycle_collection
from ratings.models import RatingBreakdown, RatingPeriod
from ratings.rules import Period
from ratings.service.rating import state as rate_state
from ratings.service.rating.carry import (
    BREAKDOWN_COLUMNS,
    HISTORY_COLUMNS,
    copy_carried,
    insert_rows,
    split_carried,
    split_partial,
)
from ratings.service.rating.games import GameSelection, first_event, first_events
from ratings.service.rating.plan import (
    closing_shift,
    first_game_period,
    latest_game_period,
    long_events,
    periods_to_rate,
)
from ratings.service.rating.postgres import (
    keys_checked_by_index,
    refresh_statistics,
    stale_statistics,
)
from ratings.service.rating.seals import SealCounts, seal_lists
from ratings.service.rating.supersede import ChangedRating, replace_list, supersede, withdrawn_since
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import utcnow

__all__ = [
    "ChangedRating",
    "RateReport",
    "closing_shift",
    "first_event",
    "first_events",
    "first_game_period",
    "latest_game_period",
    "long_events",
    "periods_to_rate",
    "rate",
    "refresh_statistics",
    "stale_statistics",
]


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
    """Published ratings that the re-rate changed, and rows it added to or withdrew from
    published lists (:attr:`ChangedRating.kind`)."""
    held_back: tuple[str, ...] = ()
    """Labels of the periods with games that were not rated because they have not ended
    (``today`` given, no ``through``): ``rate --through`` rates them on purpose."""
    seals: SealCounts = SealCounts()  # noqa: RUF009 (frozen: one shared empty count is safe)
    """The lists sealed, sealed again and withdrawn (docs/DESIGN.md#sealed-lists)."""


_OTHER_LISTS = (rules.TimeControl.RAPID, rules.TimeControl.BLITZ)
"""The lists rated after the standard one in every period."""


class _Rater(GameSelection):
    """Loads what :func:`ratings.rules.rate_period` needs, period after period, and stores
    what it answers, for one list (standard, rapid or blitz: the games of the events with
    that time control). Holds the players' standings between periods, the lists it read and
    the first events it looked up (games do not change during a rate)."""

    # --- one period ----------------------------------------------------------------------

    def rate_period(self, period: Period, period_id: int) -> int:
        """Rate one period through the engine; store its list and breakdown rows. Returns
        the games that counted. A rapid or blitz list with no games that was never
        published before and has no rated player is not written."""
        if self.dormant:
            return 0
        games = self.games_of(period)
        if not self.active and not games and not self._rated_joining(period):
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
        elif self.held or self.waiting:
            joining = self._joining(period, games)
            standings = {**standings, **{pid: self.held.pop(pid) for pid in sorted(joining)}}
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
            explicit, carried = split_carried(outcome.list_rows, self.previous)
        else:
            assert self.previous is not None
            explicit, carried = split_partial(
                outcome.list_rows, self.previous[1], partial.previous_rows
            )
            gone = partial.gone
        with keys_checked_by_index(self.session):
            insert_rows(
                self.session, "rating_breakdown", period_id, BREAKDOWN_COLUMNS, outcome.breakdown
            )
            insert_rows(
                self.session,
                "rating_history",
                period_id,
                HISTORY_COLUMNS,
                explicit,
                time_control=self.time_control,
            )
            if carried:
                assert self.previous is not None  # split_carried carries only from one
                copy_carried(
                    self.session, self.previous[0], period_id, self.tc_sql, carried, leave=gone
                )
        self.previous = (period_id, {row.player_id: row for row in outcome.list_rows})
        self.previous_count = len(explicit) + carried
        if partial is None:
            self.standings = outcome.standings
            # from the next period on, read only the players whose rows can change
            self.partial = rate_state.SKIP_QUIET_PLAYERS
        else:
            self.standings.update(outcome.standings)
        return outcome.games_counted


@without_cycle_collection
def rate(
    session: Session,
    *,
    through: Period | None = None,
    today: dt.date | None = None,
    progress: Callable[[Period], None] | None = None,
    planned: Callable[[int], None] | None = None,
    first: Period | None = None,
    seal: bool = True,
    variant: rules.RuleVariant | None = None,
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
    :param first: while nothing is rated yet, the first period to rate (default: the oldest
        game's); :func:`ratings.service.rating.rebuild.rebuild` rates the checked database's span.
    :param seal: seal the lists rated, and any published before lists were sealed
        (:func:`ratings.service.rating.seals.seal_lists`); a scratch database's rate (the rebuild,
        what-if) has no chain to keep.
    :param variant: rules that are not FIDE's (``ratings whatif``'s scratch database only).
    """
    config = get_config(session)
    if variant is not None:
        config = dataclasses.replace(config, variant=variant)
    periods, _ = periods_to_rate(session, config, through, today=today, first=first)
    held_back: tuple[str, ...] = ()
    if through is None and today is not None:
        every, _ = periods_to_rate(session, config, None)
        kept = set(periods)
        held_back = tuple(p.label for p in every if p not in kept)
    if planned is not None:
        planned(len(periods))
    if not periods:
        seals = seal_lists(session, config=config) if seal else SealCounts()
        return RateReport(held_back=held_back, seals=seals)
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
            changed += withdrawn_since(session, row, row.rated_at)
            row.status = "published"
            row.rated_at = now
            rerated.append(period.label)
        session.flush()
        for rater in raters:
            tc = rater.time_control
            old = replace_list(session, row, tc) if period.start in existing else None
            games += rater.rate_period(period, row.id)
            if old:
                changed += supersede(session, row, old, now, tc)
        if progress is not None:
            progress(period)
    for start, row in sorted(existing.items()):
        if start not in {period.start for period in periods}:
            for listed in rules.TIME_CONTROLS:
                old = replace_list(session, row, listed.value)
                changed += supersede(session, row, old, now, listed.value)
    seals = SealCounts()
    if seal:
        session.flush()
        seals = seal_lists(session, since=periods[0].start, config=config)
    return RateReport(tuple(rated), tuple(rerated), games, tuple(changed), held_back, seals)
