"""Reading the rating lists: a rated period's list, the list the next period would publish
(``ratings list``, ``ratings preview``), and finding a rated period by its label.

A player's own record (history, card, performance) is :mod:`ratings.service.reading.cards`;
the register entry ``player show`` prints, :mod:`ratings.service.reading.summary`.
"""

from __future__ import annotations

from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.gc_pause import without_cycle_collection
from ratings.models import (
    ENTRY_COLUMNS,
    LIST_COLUMNS,
    PLAYER_COLUMNS,
    Player,
    RatingHistory,
    RatingPeriod,
)
from ratings.rating_lists import LIST_CSV_COLUMNS as LIST_CSV_COLUMNS
from ratings.rating_lists import ListRow as ListRow
from ratings.rating_lists import RatingList as RatingList
from ratings.rating_lists import sort_key as sort_key
from ratings.rules import Period
from ratings.service.rating.marks import parse_period
from ratings.service.rating.plan import first_game_period
from ratings.service.shared.config import get_config
from ratings.service.shared.text import list_name

_Values = tuple[Any, ...]  # a selected row spread into ListRow's fields (mypy miscounts Row)


def find_rated_period(
    session: Session, label: str | None, time_control: str = "standard"
) -> RatingPeriod | None:
    """The rated period ``label`` (default: the newest); for rapid and blitz, the newest
    that published that list, and ``label`` must have published it."""
    if label is None:
        query = sa.select(RatingPeriod).order_by(RatingPeriod.start_date.desc()).limit(1)
        if time_control != "standard":
            query = query.where(_publishes(time_control))
        return session.scalar(query)
    period = parse_period(session, label)
    found = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == period.start))
    if found is None:
        raise PeriodError(f"period {period.label} has not been rated; {_rated_span(session)}")
    if time_control != "standard" and not session.scalar(
        sa.select(sa.literal(True)).where(_publishes(time_control), RatingPeriod.id == found.id)
    ):
        raise PeriodError(f"period {period.label} published no {time_control} list")
    return found


def _rated_span(session: Session) -> str:
    """Which periods are rated, for a message about one that is not: ``the rated periods
    are 2025-01 .. 2025-12``, or the hint to rate when none is."""
    first, last = session.execute(
        sa.select(sa.func.min(RatingPeriod.start_date), sa.func.max(RatingPeriod.start_date))
    ).one()
    if first is None:
        return "run 'ratings rate'"
    months = get_config(session).period_months
    first_label, last_label = Period(first, months).label, Period(last, months).label
    if first_label == last_label:
        return f"the rated period is {first_label}"
    return f"the rated periods are {first_label} .. {last_label}"


def _publishes(time_control: str) -> sa.ColumnElement[bool]:
    """The period published the list ``time_control`` (it has rows on it)."""
    return (
        sa.select(RatingHistory.id)
        .where(
            RatingHistory.period_id == RatingPeriod.id,
            RatingHistory.time_control == time_control,
        )
        .exists()
    )


@without_cycle_collection  # 600,000 rows at FIDE's size, no cycles: the collector's passes
# over them took a quarter of the time (4.1 -> 3.2 s, bench/RESULTS.md)
def rating_list(
    session: Session,
    period_label: str | None = None,
    *,
    include_unrated: bool = False,
    time_control: str = "standard",
) -> RatingList:
    """The list ``time_control`` (standard, rapid or blitz) a period published (default:
    the newest that published it). Before any was, the register with its entry ratings."""
    time_control = list_name(time_control)
    period = find_rated_period(session, period_label, time_control)
    if period is None:
        return _register_list(session, include_unrated, time_control)
    # columns, not (Player, RatingHistory) objects: at 600,000 players the ORM objects took
    # 34 of 57 s under cProfile; selected in ListRow's field order, each row is its arguments
    query = (
        sa.select(
            *PLAYER_COLUMNS,
            *LIST_COLUMNS,
            RatingHistory.inactive,
        )
        .join(RatingHistory, RatingHistory.player_id == Player.id)
        .where(RatingHistory.period_id == period.id, RatingHistory.time_control == time_control)
    )
    if not include_unrated:
        query = query.where(RatingHistory.rating_after.is_not(None))
    rows = [ListRow(*cast(_Values, row)) for row in session.execute(query)]
    rows.sort(key=sort_key)
    pending = session.scalar(
        sa.select(RatingPeriod.label)
        .where(RatingPeriod.status == "needs_rerate")
        .order_by(RatingPeriod.start_date)
        .limit(1)
    )
    return RatingList(period.label, period.list_date, tuple(rows), pending)


def _register_list(
    session: Session, include_unrated: bool, time_control: str = "standard"
) -> RatingList:
    config = get_config(session)
    first = first_game_period(session, config)
    rating_column, games_column, k10_column, _ = ENTRY_COLUMNS[time_control]
    query = sa.select(*PLAYER_COLUMNS, rating_column, games_column, k10_column).where(
        Player.merged_into_id.is_(None)
    )
    if not include_unrated:
        query = query.where(rating_column.is_not(None))
    rows = []
    for row in session.execute(query):
        *player, rating, total_games, k10 = cast(_Values, row)
        standing = rules.Standing.from_entry(rating, total_games, row.birth_year, k10)
        next_k = rules.next_k(config, standing, first.start, time_control) if first else None
        list_status = "unrated" if rating is None else "listed"
        values = (*player, rating, 0, 0, total_games, next_k, standing.k10, list_status)
        rows.append(ListRow(*values))
    rows.sort(key=sort_key)
    return RatingList(None, None, tuple(rows))


def preview(
    session: Session, *, include_unrated: bool = False, time_control: str = "standard"
) -> RatingList:
    """The list ``time_control`` the next period would publish; nothing is written (the
    work is rolled back to a savepoint)."""
    time_control = list_name(time_control)
    config = get_config(session)
    last = session.scalar(sa.select(sa.func.max(RatingPeriod.start_date)))
    if last is None:
        target = first_game_period(session, config)
        if target is None:
            raise PeriodError("nothing to preview: no rated games are recorded")
    else:
        target = Period(last, config.period_months).next()
    # the rater, loaded here: the card, the history and the player's page read this module
    # and never rate (tests/test_startup.py)
    from ratings.service.rating.rate import rate

    savepoint = session.begin_nested()
    try:
        rate(session, through=target, seal=False)  # rolled back: no chain to extend
        result = rating_list(
            session, target.label, include_unrated=include_unrated, time_control=time_control
        )
    finally:
        savepoint.rollback()
    return result
