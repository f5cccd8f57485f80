"""An event's dates decide how all its games are rated (docs/RULES.md#which-ratings-a-game-uses):
the start picks the list they use, the end the period that rates them. So a correction of one game
can move a whole event (a ``game edit 50 --date 2026-03-31`` pushed a February Swiss
into March, and 27 published ratings changed). This module works out the event's dates after a
change to its games and describes the move, so that the command can say so and ask first.

The dates follow the games only where they were set by them: an event whose start (or end)
was its first (or last) game's day keeps following its games on that side; a side set from
a file's declared dates (TRF 042/052) or by ``event edit`` stays, unless a game moves
beyond it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError, RatingsError
from ratings.models import Event, Game
from ratings.rules import Period, SystemConfig
from ratings.service.rating.marks import history_error, mark_for_rerate

__all__ = [
    "EventMove",
    "EventMoveError",
    "Span",
    "event_move",
    "games_span",
    "list_date",
    "mark_days",
    "rated_in",
]

Span = tuple[dt.date, dt.date]
"""A first and a last day."""


def mark_days(session: Session, days: set[dt.date]) -> None:
    """Mark the rated periods of these days for a re-rate, oldest first; a day before the
    rating history refuses the change (:class:`PeriodError`) before anything is marked."""
    for day in days:
        problem = history_error(session, day)
        if problem:
            raise PeriodError(problem)
    for day in sorted(days):
        mark_for_rerate(session, day)


def games_span(session: Session, event_id: int) -> Span | None:
    """The first and last day of an event's games (None when it holds none)."""
    first, last = session.execute(
        sa.select(sa.func.min(Game.played_on), sa.func.max(Game.played_on)).where(
            Game.event_id == event_id
        )
    ).one()
    return None if first is None else (first, last)


def follow_games(dates: Span, before: Span | None, after: Span | None) -> Span:
    """An event's dates once its games' span went from ``before`` to ``after``: each side
    that its games set follows them; a side set otherwise stays unless a game lies beyond
    it; no game left keeps the dates."""
    start, end = dates
    if after is None:
        return dates
    new_start = after[0] if before is None or start == before[0] else min(start, after[0])
    new_end = after[1] if before is None or end == before[1] else max(end, after[1])
    return new_start, new_end


def rated_in(config: SystemConfig, start: dt.date, end: dt.date, period: dt.date | None) -> str:
    """Which period rates an event's games, in words: its label (``2026-03``), or, for an
    event longer than 90 days, ``each game's own period``."""
    rated = rules.event_rating_period(config, start, end, period)
    return "each game's own period" if rated is None else rated.label


def list_date(config: SystemConfig, start: dt.date) -> dt.date:
    """The date of the list in force when an event starts (the list its games use)."""
    return Period.containing(start, config.period_months).start


@dataclass(frozen=True, slots=True)
class EventMove:
    """A change of an event's dates, and what it does to the rating of its games."""

    event_id: int
    name: str
    old: Span
    new: Span
    old_period: str
    """Which period rated the games before (:func:`rated_in`)."""
    new_period: str
    old_list: dt.date
    """The date of the list the games used before."""
    new_list: dt.date
    games: int
    """The event's games."""
    old_time_control: str = "standard"
    """The list (standard, rapid, blitz) that rated the games before (``event edit
    --time-control``)."""
    new_time_control: str = "standard"

    @property
    def moves_rating(self) -> bool:
        """Whether the games go to another period, use another list or are rated on another
        time control's list."""
        return (
            self.old_period != self.new_period
            or self.old_list != self.new_list
            or self.old_time_control != self.new_time_control
        )

    def describe(self) -> str:
        """``event 'Feb Swiss' (id 3): 2026-02-01 .. 2026-02-28 -> 2026-02-01 .. 2026-03-31;
        its 32 games rated in period 2026-03, not 2026-02``; the dates once when they stay:
        ``event 'Feb Swiss' (id 3): 2026-02-01 .. 2026-02-28; its 32 games rated on the rapid
        list, not standard``."""
        text = f"event {self.name!r} (id {self.event_id}): {self.old[0]} .. {self.old[1]}"
        if self.new != self.old:
            text += f" -> {self.new[0]} .. {self.new[1]}"
        games = f"its {self.games} game{'s' if self.games != 1 else ''}"
        if self.old_period != self.new_period:
            text += f"; {games} rated in {_period(self.new_period)}, not {self.old_period}"
            games = "they"
        if self.old_list != self.new_list:
            text += f"; {games} use the list of {self.new_list}, not {self.old_list}"
            games = "they"
        if self.old_time_control != self.new_time_control:
            text += (
                f"; {games} rated on the {self.new_time_control} list, not {self.old_time_control}"
            )
        return text


def _period(label: str) -> str:
    return label if label.startswith("each") else f"period {label}"


class EventMoveError(RatingsError):
    """A correction would move an event's dates and was not confirmed."""

    def __init__(self, move: EventMove) -> None:
        super().__init__(f"this moves {move.describe()}; confirm, or give --yes")
        self.move = move


def event_move(
    config: SystemConfig,
    event: Event,
    old: Span,
    games: int,
    old_time_control: str | None = None,
) -> EventMove | None:
    """The move from ``old`` to the event's present dates (and from ``old_time_control``,
    when given, to its present time control); None when neither changed."""
    new = (event.start_date, event.end_date)
    was = event.time_control if old_time_control is None else old_time_control
    if new == old and was == event.time_control:
        return None
    return EventMove(
        event.id,
        event.name,
        old,
        new,
        rated_in(config, old[0], old[1], event.rating_period),
        rated_in(config, new[0], new[1], event.rating_period),
        list_date(config, old[0]),
        list_date(config, new[0]),
        games,
        was,
        event.time_control,
    )
