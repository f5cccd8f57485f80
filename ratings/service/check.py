"""``ratings check``: a period's published lists against their breakdown (issue 28, item 4).

The README cookbook's one-period check, as a use case. Each list row of the period must
agree with the breakdown rows of that list's games (a game's list is its event's
``time_control``) that count for the player's change:

- the change is K x the exact sum of dR, rounded once, half away from zero (art. 8.3.4), in
  integer arithmetic on both backends;
- K is the K of those breakdown rows, one K for all of them (art. 8.3.3);
- a player without such games keeps his rating (the carried rows): no change and no K;
- a player with such games has a row on that list.

The SQL is set-based: one statement a period, through the period's indexes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import PeriodError
from ratings.models import RatingPeriod
from ratings.service.common import list_name
from ratings.service.reports import find_rated_period

__all__ = ["CheckReport", "Disagreement", "check_lists"]


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A list row that its breakdown does not reproduce (or a missing one)."""

    period: str
    time_control: str
    player_id: int
    name: str
    published_change: int | None
    """The row's ``change``; None: the player has no row on this list."""
    published_k_used: int | None
    """The row's ``k_used``."""
    change_games: int
    """The player's games on this list that count for his change (breakdown rows with
    ``counts_for = 'change'``; an unrated player's pooled games are not among them)."""
    recomputed_change: int | None
    """K x sum(dR), rounded; None: no such games (the row should be carried unchanged)."""
    recomputed_k_used: int | None
    """The lowest K of those games (None: no games)."""
    recomputed_k_used_max: int | None
    """The highest K of those games: it differs from the lowest only when they disagree."""


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What a check read and what it found."""

    periods: tuple[str, ...]
    """The periods checked, oldest first."""
    time_control: str | None
    """The list checked; None: every list."""
    players: int
    """Players with a row on the lists checked."""
    list_rows: int
    games: int
    """Games with breakdown rows (rated for someone) on the lists checked."""
    disagreements: tuple[Disagreement, ...]

    @property
    def agrees(self) -> bool:
        """Every row agrees with the breakdown."""
        return not self.disagreements


_WRONG = """
WITH sums AS (
  SELECT e.time_control, b.player_id, COUNT(*) AS games, MIN(b.k_used) AS k,
         MAX(b.k_used) AS k_max, MIN(b.k_used) * SUM(b.dr_units) AS k_sum_dr,
         MAX(b.units_per_point) AS unit
  FROM rating_breakdown b
  JOIN games g ON g.id = b.game_id
  JOIN events e ON e.id = g.event_id
  WHERE b.period_id = :period_id AND b.counts_for = 'change' {breakdown_list}
  GROUP BY e.time_control, b.player_id
), recomputed AS (
  SELECT time_control, player_id, games, k, k_max,
         CASE WHEN k_sum_dr < 0 THEN -((unit - 2 * k_sum_dr) / (2 * unit))
              ELSE (2 * k_sum_dr + unit) / (2 * unit) END AS change
  FROM sums
), wrong AS (
  SELECT h.time_control, h.player_id, h.change AS published_change,
         h.k_used AS published_k, COALESCE(r.games, 0) AS games, r.change, r.k, r.k_max
  FROM rating_history h
  LEFT JOIN recomputed r ON r.time_control = h.time_control AND r.player_id = h.player_id
  WHERE h.period_id = :period_id {history_list}
    AND (h.change <> COALESCE(r.change, 0) OR COALESCE(h.k_used, 0) <> COALESCE(r.k, 0)
         OR r.k <> r.k_max)
  UNION ALL
  SELECT r.time_control, r.player_id, NULL, NULL, r.games, r.change, r.k, r.k_max
  FROM recomputed r
  WHERE NOT EXISTS (SELECT 1 FROM rating_history h
                    WHERE h.period_id = :period_id AND h.time_control = r.time_control
                      AND h.player_id = r.player_id)
)
SELECT w.time_control, w.player_id, p.name, w.published_change, w.published_k, w.games,
       w.change, w.k, w.k_max
FROM wrong w
JOIN players p ON p.id = w.player_id
ORDER BY w.time_control, p.name, w.player_id
"""
"""The rows of one period that disagree (the README's one-period recipe, with the count of
games and the rows missing from a list)."""


def check_lists(
    session: Session,
    period_label: str | None = None,
    *,
    time_control: str | None = None,
    every_period: bool = False,
) -> CheckReport:
    """Check a period's lists against their breakdown: by default the newest rated period
    (with ``time_control``, the newest that published that list); ``every_period``: the
    whole history.

    :param time_control: standard, rapid or blitz: that list only (default: every list).
    :raises PeriodError: nothing is rated yet, the period is not rated, or it published no
        such list.
    """
    tc = list_name(time_control) if time_control is not None else None
    if every_period:
        if period_label is not None:
            raise PeriodError("give a period or every period, not both")
        query = sa.select(RatingPeriod).order_by(RatingPeriod.start_date)
        periods = list(session.scalars(query))
        if not periods:
            raise _nothing_rated()
        if tc is not None:
            periods = [p for p in periods if _publishes(session, p.id, tc)]
            if not periods:
                raise PeriodError(f"nothing to check: no period published a {tc} list")
    else:
        found = find_rated_period(session, period_label, tc or "standard")
        if found is None:
            if tc is None or tc == "standard" or not _any_rated(session):
                raise _nothing_rated()
            raise PeriodError(f"nothing to check: no period published a {tc} list")
        periods = [found]
    wrong: list[Disagreement] = []
    for period in periods:
        wrong += _disagreements(session, period, tc)
    players, rows, games = _counts(session, None if every_period else periods[0].id, tc)
    return CheckReport(
        periods=tuple(p.label for p in periods),
        time_control=tc,
        players=players,
        list_rows=rows,
        games=games,
        disagreements=tuple(wrong),
    )


def _nothing_rated() -> PeriodError:
    return PeriodError("nothing to check: no period has been rated yet; run 'ratings rate'")


def _any_rated(session: Session) -> bool:
    return session.scalar(sa.select(sa.func.count()).select_from(RatingPeriod)) != 0


def _publishes(session: Session, period_id: int, tc: str) -> bool:
    found = session.execute(
        sa.text(
            "SELECT 1 FROM rating_history WHERE period_id = :period_id AND time_control = :tc "
            "LIMIT 1"
        ),
        {"period_id": period_id, "tc": tc},
    ).first()
    return found is not None


def _disagreements(session: Session, period: RatingPeriod, tc: str | None) -> list[Disagreement]:
    sql = _WRONG.format(
        breakdown_list="" if tc is None else "AND e.time_control = :tc",
        history_list="" if tc is None else "AND h.time_control = :tc",
    )
    params: dict[str, object] = {"period_id": period.id}
    if tc is not None:
        params["tc"] = tc
    rows: Sequence[tuple[object, ...]] = [
        tuple(row) for row in session.execute(sa.text(sql), params)
    ]
    return [
        Disagreement(
            period.label,
            str(time_control),
            int(str(player_id)),
            str(name),
            _int(published_change),
            _int(published_k),
            int(str(games)),
            _int(change),
            _int(k),
            _int(k_max),
        )
        for time_control, player_id, name, published_change, published_k, games, change, k, k_max
        in rows
    ]  # fmt: skip


def _int(value: object) -> int | None:
    """A count or a rating from SQL (PostgreSQL's sums of bigints come back as Decimal)."""
    return None if value is None else int(str(value))


def _counts(session: Session, period_id: int | None, tc: str | None) -> tuple[int, int, int]:
    """Players and list rows on the lists checked, and the games rated on them."""
    where_h = []
    where_b = []
    params: dict[str, object] = {}
    if period_id is not None:
        where_h.append("h.period_id = :period_id")
        where_b.append("b.period_id = :period_id")
        params["period_id"] = period_id
    join = ""
    if tc is not None:
        where_h.append("h.time_control = :tc")
        where_b.append("e.time_control = :tc")
        join = "JOIN games g ON g.id = b.game_id JOIN events e ON e.id = g.event_id "
        params["tc"] = tc
    h_filter = f"WHERE {' AND '.join(where_h)}" if where_h else ""
    b_filter = f"WHERE {' AND '.join(where_b)}" if where_b else ""
    players, rows = session.execute(
        sa.text(f"SELECT COUNT(DISTINCT h.player_id), COUNT(*) FROM rating_history h {h_filter}"),
        params,
    ).one()
    games = session.execute(
        sa.text(f"SELECT COUNT(DISTINCT b.game_id) FROM rating_breakdown b {join}{b_filter}"),
        params,
    ).scalar_one()
    return int(players), int(rows), int(games)
