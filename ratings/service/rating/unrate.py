"""``ratings unrate``: withdraw rated periods.

A period rated by mistake (a game dated 2027 instead of 2026 made ``rate`` publish lists up
to 2027-12) is withdrawn with every rated period after it, newest first. The values its list
published go to ``superseded_ratings`` as a re-rate keeps the rows it drops (one line per
row of its lists, ``withdrawn``, the new values none), its list rows,
calculation rows and the period row are deleted, and the corrections log says which periods
went. The games stay: the next ``rate`` rates their periods again once they have ended.

Set-based: a handful of statements per period, no ORM object per row. Takes the session
first and never commits.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import PeriodError
from ratings.models import RatingPeriod
from ratings.service.rating.marks import parse_period
from ratings.service.rating.seals import withdraw_lists
from ratings.service.shared import audit
from ratings.service.shared.sql import datetime_param, utcnow

__all__ = ["Withdrawn", "WithdrawnPeriod", "periods_from", "unrate"]


@dataclass(frozen=True, slots=True)
class WithdrawnPeriod:
    """One rated period withdrawn."""

    label: str
    """``YYYY-MM``."""
    list_date: str
    """The date of the list it had published (ISO)."""
    entries: int
    """Its list rows (one per registered player)."""
    kept: int
    """The rows moved to ``superseded_ratings`` (``withdrawn``): every entry."""


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """What :func:`unrate` withdrew, newest period first."""

    periods: tuple[WithdrawnPeriod, ...]
    seals: int = 0
    """The sealed lists given a ``withdrawn`` version (their seals stay)."""


def periods_from(session: Session, label: str) -> list[RatingPeriod]:
    """The rated periods from ``label`` (``YYYY-MM``) on, newest first.

    :raises PeriodError: when ``label`` is not a rated period.
    """
    start = parse_period(session, label).start
    found = list(
        session.scalars(
            sa.select(RatingPeriod)
            .where(RatingPeriod.start_date >= start)
            .order_by(RatingPeriod.start_date.desc())
        )
    )
    if not found or found[-1].start_date != start:
        bounds = session.execute(
            sa.select(sa.func.min(RatingPeriod.label), sa.func.max(RatingPeriod.label))
        ).one()
        rated = "no period is rated" if bounds[0] is None else f"rated: {bounds[0]} .. {bounds[1]}"
        raise PeriodError(f"period {label} is not rated ({rated}); nothing was withdrawn")
    return found


def unrate(session: Session, label: str, *, reason: str | None = None) -> Withdrawn:
    """Withdraw the rated period ``label`` (``YYYY-MM``) and every rated period after it,
    newest first.

    Each period's published rows are kept in ``superseded_ratings`` as ``withdrawn`` (the
    new values NULL), as a re-rate keeps a row it drops, with the period's label; earlier
    superseded values of the period keep their label and lose the link to the deleted
    period row. The corrections log gets one
    line per period, with ``reason``. Each sealed list of the periods gets a ``withdrawn``
    version naming that line's batch (docs/DESIGN.md#sealed-lists): its seals stay, and the
    next rate of the period seals its lists again as a new version.

    :raises PeriodError: when ``label`` is not a rated period.
    :raises LimitError: for a bad ``reason``.
    """
    audit.check_reason(reason)
    periods = periods_from(session, label)
    conn = session.connection()
    session.flush()
    stamp = datetime_param(session, utcnow())
    ph = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    done: list[WithdrawnPeriod] = []
    for period in periods:
        pid = int(period.id)
        entries = conn.exec_driver_sql(
            f"SELECT count(*) FROM rating_history WHERE period_id = {pid}"
        ).scalar_one()
        # every row of its lists, withdrawn (as rate_superseded.supersede keeps a row a
        # re-rate drops)
        kept = conn.exec_driver_sql(
            "INSERT INTO superseded_ratings (period_id, period, time_control, player_id, "
            "name, kind, old_rating, new_rating, old_change, new_change, old_k_used, "
            f"superseded_at) SELECT NULL, {ph}, h.time_control, h.player_id, p.name, "
            "'withdrawn', h.rating_after, NULL, h.change, NULL, h.k_used, "
            f"{ph} FROM rating_history h JOIN players p ON p.id = h.player_id "
            f"WHERE h.period_id = {pid} ORDER BY h.time_control DESC, p.name, h.player_id",
            (period.label, stamp),
        ).rowcount
        conn.exec_driver_sql(
            f"UPDATE superseded_ratings SET period_id = NULL WHERE period_id = {pid}"
        )
        conn.exec_driver_sql(f"DELETE FROM rating_breakdown WHERE period_id = {pid}")
        conn.exec_driver_sql(f"DELETE FROM rating_history WHERE period_id = {pid}")
        conn.exec_driver_sql(f"DELETE FROM rating_periods WHERE id = {pid}")
        done.append(WithdrawnPeriod(period.label, period.list_date.isoformat(), int(entries), kept))
    session.expire_all()
    audit.record(
        session,
        audit.Action.UNRATE,
        *(
            audit.Change(
                period=w.label,
                field="list",
                old=f"list of {w.list_date}: {w.entries} entries",
                new=None,
            )
            for w in done
        ),
        reason=reason,
    )
    session.flush()
    seals = withdraw_lists(session, (w.label for w in done), "withdrawn by unrate")
    return Withdrawn(tuple(done), seals)
