"""One player's register entry and standing, as ``ratings player show`` prints it: the current
rating on each list with the next K, the progress of an unrated player towards a first
rating, and the aliases.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.models import Player
from ratings.service.reading.cards import card, first_rating_work
from ratings.service.reading.reports import find_rated_period
from ratings.service.register.lookup import count_games
from ratings.service.shared.config import get_config


@dataclass(frozen=True, slots=True)
class CurrentRating:
    """A player's place on one list now: the newest list that holds the player, or the
    register's entry values before any list was published (a row of ``current_ratings``;
    not :class:`ratings.rules.Standing`, the engine's input)."""

    time_control: str
    rating: int | None
    next_k: int | None
    """K for the next period (before the 700 rule); None before the first list."""
    total_games: int | None
    """Rated games completed (entry games included); None: unknown."""
    period: str | None
    """The rated period whose list it is; None: the register's entry values."""


@dataclass(frozen=True, slots=True)
class FirstRatingProgress:
    """An unrated player's way to a first rating (art. 7.1.4): the games against rated
    opponents pooled so far (after the newest rated period) out of the 5 it takes."""

    games: int
    needed: int
    since: dt.date | None
    """The first pooled game's date; None when there is none."""


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """What ``player show`` prints."""

    player: Player
    games_stored: int
    current_ratings: tuple[CurrentRating, ...]
    """One per list that has the player, standard first."""
    progress: FirstRatingProgress | None
    """Only for an unrated player of a ``fide`` database."""
    aliases: tuple[tuple[str, str, int | None], ...]
    """(alias, source, import id)."""


def player_summary(session: Session, player: Player) -> PlayerSummary:
    """A player's register entry, current rating on each list with the next K and the rated
    games, the progress of an unrated player towards a first rating, and the aliases."""
    from ratings.models import PlayerAlias

    current = tuple(
        CurrentRating(tc, rating, next_k, total, period)
        for tc, rating, next_k, total, period in session.execute(
            sa.text(
                "SELECT time_control, rating, next_k, total_games, period FROM current_ratings "
                "WHERE player_id = :pid ORDER BY CASE time_control WHEN 'standard' THEN 0 "
                "WHEN 'rapid' THEN 1 ELSE 2 END"
            ),
            {"pid": player.id},
        )
    )
    progress = None
    standard = next((s for s in current if s.time_control == "standard"), None)
    config = get_config(session)
    if config.start_rating is None and (standard is None or standard.rating is None):
        progress = _progress(session, player)
    aliases = tuple(
        (name, source, import_id)
        for name, source, import_id in session.execute(
            sa.select(PlayerAlias.name, PlayerAlias.source, PlayerAlias.import_id)
            .where(PlayerAlias.player_id == player.id)
            .order_by(PlayerAlias.id)
        )
    )
    return PlayerSummary(player, count_games(session, player.id), current, progress, aliases)


def _progress(session: Session, player: Player) -> FirstRatingProgress:
    """The pool of an unrated player at the newest rated period that lists the player (as
    its card computes it), or nothing pooled."""
    newest = find_rated_period(session, None)
    needed = rules.INITIAL_MIN_GAMES
    if newest is None:
        return FirstRatingProgress(0, needed, None)
    try:
        found = card(session, str(player.id), newest.label)
    except PeriodError:  # not on the newest list (registered since)
        return FirstRatingProgress(0, needed, None)
    pooled, work, _ = first_rating_work(session, player.id, newest, found.lines)
    lines = [*pooled, *(x for x in found.lines if x.counts_for == rules.FOR_FIRST_RATING)]
    since = min((x.played_on for x in lines), default=None)
    return FirstRatingProgress(len(work.games), needed, since)
