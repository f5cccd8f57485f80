"""Superseded values: a re-rated period's published list rows, read and deleted before its
re-rate, compared with the new ones, and every changed, added or withdrawn row kept in
``superseded_ratings`` (docs/DESIGN.md#re-rates-and-superseded-values)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.models import SUPERSEDED_KINDS, RatingPeriod, SupersededRating
from ratings.service.rating.postgres import keys_checked_by_index
from ratings.service.shared.sql import BULK_CHUNK, bulk_insert, datetime_param, fetch_all, utcnow

__all__ = [
    "ADDED",
    "CHANGED",
    "WITHDRAWN",
    "ChangedRating",
    "replace_list",
    "supersede",
    "withdraw_players",
    "withdrawn_since",
]


@dataclass(frozen=True, slots=True)
class ChangedRating:
    """A published rating that a re-rate replaced (old -> new), or a row it added to or
    withdrew from a published list (:attr:`kind`)."""

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
    kind: str = "changed"
    """``changed`` (a rating), ``added`` (a row the published list did not have: ``old``
    None) or ``withdrawn`` (a row it no longer has: ``new`` None); as
    ``superseded_ratings.kind``."""


CHANGED, ADDED, WITHDRAWN = SUPERSEDED_KINDS
"""``superseded_ratings.kind``: a published row changed, added to a list, withdrawn."""


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
    """Keep every published row of ``period``'s list ``time_control`` that its re-rate
    changed (rating or change), withdrew (a player merged away) or added (a player rated
    there for the first time: a game of a player registered since), in name order; returns
    the ratings that changed and the rows withdrawn and added."""
    tc = rules.time_control(time_control).value
    new = {
        pid: (after, change)
        for pid, after, change in fetch_all(
            session,
            "SELECT player_id, rating_after, change FROM rating_history "
            f"WHERE period_id = {int(period.id)} AND time_control = '{tc}'",
        )
    }
    Old = tuple[int | None, int | None, int | None]  # rating after, change, K used
    rows: list[tuple[int, str, Old, tuple[int | None, int | None]]] = []
    for pid, values in old.items():
        now_values = new.get(pid)
        if now_values is None:
            rows.append((pid, WITHDRAWN, values, (None, None)))
        elif values[:2] != now_values:
            rows.append((pid, CHANGED, values, now_values))
    if len(new) > len(old) - sum(1 for _, kind, _, _ in rows if kind == WITHDRAWN):
        none: Old = (None, None, None)
        rows += [(pid, ADDED, none, v) for pid, v in new.items() if pid not in old]
    names = _names(session, [pid for pid, _, _, _ in rows])
    rows.sort(key=lambda item: (names.get(item[0], ""), item[0]))
    stamp = datetime_param(session, now)
    with keys_checked_by_index(session):  # its period_id's key check too (PostgreSQL)
        bulk_insert(
            session,
            "superseded_ratings",
            (
                "period_id", "period", "time_control", "player_id", "name", "kind", "old_rating",
                "new_rating", "old_change", "new_change", "old_k_used", "superseded_at",
            ),
            (
                (period.id, period.label, tc, pid, names.get(pid, "?"), kind, old_rating,
                 new_rating, old_change, new_change, old_k, stamp)
                for pid, kind, (old_rating, old_change, old_k), (new_rating, new_change) in rows
            ),
        )  # fmt: skip
    return [
        ChangedRating(
            period.label, pid, names.get(pid, "?"), old_values[0], new_values[0], tc, kind
        )
        for pid, kind, old_values, new_values in rows
        if kind != CHANGED or old_values[0] != new_values[0]
    ]


def withdrawn_since(
    session: Session, period: RatingPeriod, since: dt.datetime
) -> list[ChangedRating]:
    """The rows of ``period``'s lists that a correction withdrew since the period was rated
    (``import undo`` removes players with their published rows, kept as ``withdrawn``): the
    re-rate reports them with its own changes."""
    found = session.execute(
        sa.select(
            SupersededRating.player_id,
            SupersededRating.name,
            SupersededRating.old_rating,
            SupersededRating.time_control,
        )
        .where(
            SupersededRating.period_id == period.id,
            SupersededRating.kind == WITHDRAWN,
            SupersededRating.superseded_at > since,
        )
        .order_by(SupersededRating.name, SupersededRating.player_id)
    )
    return [
        ChangedRating(period.label, pid, name, rating, None, tc, WITHDRAWN)
        for pid, name, rating, tc in found
    ]


def withdraw_players(session: Session, removed: Sequence[int]) -> None:
    """Delete the players ``import undo`` removes; their published rows stay on record in
    ``superseded_ratings``, withdrawn (as a re-rate keeps a row it drops), and
    :func:`withdrawn_since` gives them to the next re-rate's report."""
    conn = session.connection()
    stamp = datetime_param(session, utcnow())
    ph = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    for i in range(0, len(removed), 500):
        marks = ", ".join(str(int(p)) for p in removed[i : i + 500])
        conn.exec_driver_sql(
            "INSERT INTO superseded_ratings (period_id, period, time_control, player_id, name, "
            "kind, old_rating, new_rating, old_change, new_change, old_k_used, superseded_at) "
            "SELECT h.period_id, rp.label, h.time_control, h.player_id, p.name, 'withdrawn', "
            f"h.rating_after, NULL, h.change, NULL, h.k_used, {ph} FROM rating_history h "
            "JOIN rating_periods rp ON rp.id = h.period_id JOIN players p ON p.id = h.player_id "
            f"WHERE h.player_id IN ({marks}) ORDER BY rp.start_date, h.time_control DESC, "
            "p.name, h.player_id",
            (stamp,),
        )
        conn.exec_driver_sql(f"DELETE FROM rating_history WHERE player_id IN ({marks})")
        conn.exec_driver_sql(f"DELETE FROM players WHERE id IN ({marks})")
