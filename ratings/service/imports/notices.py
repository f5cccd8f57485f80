"""What imports and ``rate`` remind the administrator of."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.models import Event, Import, Player, RatingHistory
from ratings.rules import Period, SystemConfig

__all__ = [
    "count_unknown_games",
    "event_span_warnings",
    "imported_events",
    "unknown_games_players",
]


def _unknown_games() -> sa.ColumnElement[bool]:
    """A rated player (an entry rating) whose count of rated games before registration is
    unknown, whose K FIDE has not published, and whose K the count can still decide: their
    K follows the rule for an unknown count (:func:`ratings.rules.standing_k`: 20 unless a
    junior or a 2400 player). A player whose published rating has reached 2400 (the entry
    rating, a list here, or the K=10 flag set by hand) has K 10 for good (art. 8.3.3),
    whatever the count, and is left out."""
    reached_2400 = (
        sa.select(RatingHistory.id)
        .where(
            RatingHistory.player_id == Player.id,
            RatingHistory.k10,
            RatingHistory.time_control == "standard",
        )
        .exists()
    )
    return sa.and_(
        Player.merged_into_id.is_(None),
        Player.entry_rating.is_not(None),
        Player.entry_rating < rules.K10_MARK,
        sa.not_(Player.k10),
        Player.entry_games.is_(None),
        Player.fide_k.is_(None),
        sa.not_(reached_2400),
    )


def count_unknown_games(session: Session) -> int:
    """How many registered rated players have an unknown count of prior rated games."""
    return int(
        session.scalar(sa.select(sa.func.count()).select_from(Player).where(_unknown_games())) or 0
    )


def unknown_games_players(session: Session) -> list[Player]:
    """The registered rated players whose count of prior rated games is unknown, by name
    (``ratings player list --unknown-games``)."""
    return list(
        session.scalars(
            sa.select(Player)
            .where(_unknown_games())
            .order_by(sa.func.lower(Player.name), Player.id)
        )
    )


def event_span_warnings(
    config: SystemConfig,
    events: Iterable[tuple[str, dt.date, dt.date] | tuple[str, dt.date, dt.date, dt.date | None]],
) -> list[str]:
    """Warnings for imported events that span more than one rating period: one longer than
    90 days (a league) is rated game by game, in the period each was played, against the
    list in force then (the regulations' article on the duration of tournaments); a shorter
    one is rated as a whole in the period of its end date, against the list in force at its
    start (docs/RULES.md#which-period-rates-an-event-art-713). An event within one period that ends
    after the closing date of its list is no warning: that is the rule (it goes to the next list).

    An event may carry a fourth value, the rating period it was given (``--period``): it is
    rated whole in that period, whatever its length."""
    found = []
    for name, start, end, *given in events:
        first = Period.containing(start, config.period_months)
        last = Period.containing(end, config.period_months)
        if first == last:
            continue
        period = given[0] if given else None
        span = f"event '{name}' ({start.isoformat()} .. {end.isoformat()}) spans periods"
        span += f" {first.label} .. {last.label}"
        if period is not None:
            label = Period(period, config.period_months).label
            found.append(
                f"{span}: all its games are rated in {label} (as given) against the list in "
                "force at its start"
            )
        elif rules.is_long_event(start, end):
            found.append(
                f"{span} and lasts more than 90 days: its games are rated in the period each "
                "was played, against the list in force then"
            )
        else:
            rated = config.rating_period(end).label
            found.append(
                f"{span}: all its games are rated in {rated} against the list in force at its start"
            )
    return found


def imported_events(
    session: Session, content_hash: str
) -> list[tuple[str, dt.date, dt.date, dt.date | None]]:
    """The events an import (by the hash of its file) created: name, start, end and the
    rating period given (None: the default)."""
    return [
        (name, start, end, period)
        for name, start, end, period in session.execute(
            sa.select(Event.name, Event.start_date, Event.end_date, Event.rating_period)
            .join(Import, Import.id == Event.import_id)
            .where(Import.content_hash == content_hash)
            .order_by(Event.id)
        )
    ]
