"""Rating periods, strictly in order: the heart of the product (docs/DESIGN.md#the-period-engine).

This module is the use case, :func:`rate`: it plans the periods, then for each period and list
loads what the engine needs, calls :func:`ratings.rules.rate_period` and stores its rows. Its
collaborators, each a plain class handed to the rater of one list (:class:`_Rater`):

* :mod:`ratings.service.rating.plan`: which periods a rate works on (:class:`PeriodPlan`);
* :mod:`ratings.service.rating.state`: the players' standings held between periods, and which
  players a period reads (:class:`ListState`);
* :mod:`ratings.service.rating.games`: the games a period rates and the lists they use
  (:class:`GameSelection`);
* :mod:`ratings.service.rating.write`: writing the rows, the carried ones copied in SQL
  (:class:`RowWriter`);

and beside them :mod:`ratings.service.rating.postgres` (PostgreSQL's planner settings and
statistics) and :mod:`ratings.service.rating.supersede` (a re-rate's superseded values).

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.gc_pause import without_cycle_collection
from ratings.models import RatingPeriod
from ratings.rules import Period, SystemConfig
from ratings.service.rating.games import GameSelection, first_event, first_events
from ratings.service.rating.plan import (
    PeriodPlan,
    closing_shift,
    first_game_period,
    latest_game_period,
    long_events,
    periods_to_rate,
)
from ratings.service.rating.postgres import refresh_statistics, stale_statistics
from ratings.service.rating.seals import SealCounts, seal_lists
from ratings.service.rating.state import ListState
from ratings.service.rating.supersede import ChangedRating, replace_list, supersede, withdrawn_since
from ratings.service.rating.write import RowWriter, delete_breakdown
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
    "rerate_pending",
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
    rated_games: int = 0
    """Of :attr:`games`, those of the periods rated for the first time (:attr:`rated`)."""


_OTHER_LISTS = (rules.TimeControl.RAPID, rules.TimeControl.BLITZ)
"""The lists rated after the standard one in every period."""


@dataclass(slots=True)
class _Rater:
    """The rater of one list (standard, rapid or blitz: the games of the events with that
    time control), composed of its collaborators: the standings it holds between periods,
    its game selection and its row writer."""

    state: ListState
    games: GameSelection
    writer: RowWriter
    standard: GameSelection | None = None
    """Rapid and blitz: the standard list's game selection (its list is rated before this
    one in every period), whose lists in force at the events' starts seed the players
    unrated here (R&B art. 7.2.1)."""

    @classmethod
    def start(
        cls,
        session: Session,
        config: SystemConfig,
        first: Period,
        time_control: str = "standard",
        standard: GameSelection | None = None,
    ) -> _Rater:
        """The rater of the list ``time_control`` for a rate whose first period is
        ``first``: the standings on the list before it read, the long events found."""
        state = ListState(session, config, time_control)
        games = GameSelection(session, config, time_control)
        state.load_state(first)
        games.entry_ratings = state.entry_ratings  # read with the standings, or None
        games.find_long_events(first)
        return cls(state, games, RowWriter(session, time_control), standard)

    def rate_period(self, period: Period, period_id: int) -> int:
        """Rate one period through the engine; store its list and breakdown rows. Returns
        the games that counted. A rapid or blitz list with no games that was never
        published before and has no rated player is not written."""
        state, selection = self.state, self.games
        if state.dormant:
            return 0
        games = selection.games_of(period)
        if not state.opens(period, games):
            return 0
        needed = rules.lists_needed(period, games)
        lists = {day: selection.list_at(day) for day in needed}
        seeds = None
        if self.standard is not None:
            seeds = {day: self.standard.list_at(day) for day in needed | {period.start}}
        standings, partial = state.standings_for(period, games)
        config = state.config
        outcome = rules.rate_period(
            config,
            period,
            standings,
            games,
            lists=lists,
            first_events=selection.first_events_of(
                rules.first_events_needed(config, standings, games)
            ),
            list_type=state.time_control,
            seeds=seeds,
        )
        if partial is None:
            rows = self.writer.write(period_id, outcome, state.previous)
        else:
            rows = self.writer.write(
                period_id,
                outcome,
                state.previous,
                listed=partial.previous_rows,
                gone=partial.gone,
            )
        state.rated(period_id, outcome, rows, partial)
        return outcome.games_counted


@dataclass(slots=True)
class _Run:
    """The rating periods' rows of one rate, and what it reports: a period rated for the
    first time gets a new row; a re-rated one keeps its row, and its old lists are read,
    replaced and compared one period at a time (holding every old and new list row at once
    took 1.6 GB at 100k games)."""

    session: Session
    stored: dict[dt.date, RatingPeriod]
    """The rated periods from the first of the plan on, by start date."""
    now: dt.datetime = field(default_factory=utcnow)
    rated: list[str] = field(default_factory=list)
    rerated: list[str] = field(default_factory=list)
    games: int = 0
    rated_games: int = 0
    """Of :attr:`games`, those of the periods rated for the first time."""
    changed: list[ChangedRating] = field(default_factory=list)

    def rate_period(self, period: Period, raters: Sequence[_Rater]) -> None:
        """Rate ``period``'s lists, one rater each, in order."""
        session, now = self.session, self.now
        row = self.stored.get(period.start)
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
            self.rated.append(period.label)
        else:
            self.changed += withdrawn_since(session, row, row.rated_at)
            row.status = "published"
            row.rated_at = now
            self.rerated.append(period.label)
        session.flush()
        for rater in raters:
            tc = rater.state.time_control
            old = replace_list(session, row, tc) if period.start in self.stored else None
            counted = rater.rate_period(period, row.id)
            self.games += counted
            if period.start not in self.stored:
                self.rated_games += counted
            if old:
                self.changed += supersede(session, row, old, now, tc)

    def withdraw_after(self, periods: Sequence[Period]) -> None:
        """Withdraw the lists of the stored periods after the last of ``periods`` (their
        values superseded)."""
        planned = {period.start for period in periods}
        for start, row in sorted(self.stored.items()):
            if start not in planned:
                for listed in rules.TIME_CONTROLS:
                    old = replace_list(self.session, row, listed.value)
                    self.changed += supersede(self.session, row, old, self.now, listed.value)


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
    plan = PeriodPlan.make(session, config, through, today=today, first=first)
    if planned is not None:
        planned(len(plan.periods))
    if not plan.periods:
        seals = seal_lists(session, config=config) if seal else SealCounts()
        return RateReport(held_back=plan.held_back, seals=seals)
    if through is not None and through.months != config.period_months:
        raise PeriodError(f"{through.label} is not a {config.period_months}-month period")
    refresh_statistics(session)  # after a large import
    stored = plan.stored(session)
    delete_breakdown(session, [p.id for p in stored.values()])
    first_period = plan.periods[0]
    standard = _Rater.start(session, config, first_period)
    raters = [
        standard,
        *(
            _Rater.start(session, config, first_period, tc.value, standard.games)
            for tc in _OTHER_LISTS
        ),
    ]
    run = _Run(session, stored)
    for period in plan.periods:
        run.rate_period(period, raters)
        if progress is not None:
            progress(period)
    run.withdraw_after(plan.periods)
    seals = SealCounts()
    if seal:
        session.flush()
        seals = seal_lists(session, since=first_period.start, config=config)
    return RateReport(
        tuple(run.rated), tuple(run.rerated), run.games, tuple(run.changed), plan.held_back, seals,
        run.rated_games,
    )  # fmt: skip


def rerate_pending(session: Session) -> RateReport | None:
    """Re-rate the periods that corrections marked, up to the newest rated one, and say what
    changed (old -> new); None when no period waits for a re-rate.

    It writes in the caller's transaction: roll it back to see the changes without making
    them (``ratings preview``, ``ratings rate --dry-run``).
    """
    waiting = session.scalar(
        sa.select(sa.func.count()).where(RatingPeriod.status == "needs_rerate")
    )
    if not waiting:
        return None
    newest = session.scalar(sa.select(sa.func.max(RatingPeriod.start_date)))
    assert newest is not None  # a marked period is a rated period
    return rate(session, through=Period(newest, get_config(session).period_months))
