"""Superseded values: a re-rated period's published list rows, read and deleted before its
re-rate, compared with the new ones, and every changed row kept in ``superseded_ratings``
(docs/DESIGN.md#re-rates-and-superseded-values)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ratings import rules
from ratings.models import RatingPeriod
from ratings.service.common import BULK_CHUNK, bulk_insert, datetime_param, fetch_all
from ratings.service.rate_postgres import keys_checked_by_index

__all__ = ["ChangedRating", "replace_list", "supersede"]


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


def replace_list(
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


def supersede(
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
    with keys_checked_by_index(session):  # its period_id's key check too (PostgreSQL)
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
