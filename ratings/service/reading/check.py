"""``ratings check``: the published lists against a rebuild from the stored inputs
(docs/DESIGN.md#the-rebuild).

:func:`check_lists` rates the database's inputs again from scratch in a scratch database
(:func:`ratings.service.rating.rebuild.rebuild`) and compares what the checked periods published
with what the rebuild gives, field by field: every list row (rating before and after, change,
K used, next K, games, score, list status, flags) and every breakdown row (the ratings each
game used, D, PD, dR, K). A difference is told with the inputs behind it: the game whose
result, players or period the breakdown does not reflect, the previous list a rating before
does not continue, a rating after that is not its rating before plus its change.

Two checks need no rebuild and run beside it, on the published rows alone:

- each row's change is K x the exact sum of dR of its breakdown rows, rounded once (art.
  8.3.4), with one K; a player without such games keeps his rating (no change, no K);
- the chain: a row's rating after is its rating before plus its change, and its rating before
  is the previous list's rating after. Where a rule breaks the chain on purpose (FIDE's
  one-time adjustment of 2024, a first rating), the rebuild breaks it the same way, so a
  break is reported only where the rebuild has none.

Without the rebuild (``--breakdown-only``) only the first half of the chain is checked, the
row against itself: a rating after that is not the rating before plus the change (raised by
the list's one-time adjustment, where it has one). A row with no rating before (a first
rating) or none after (unrated, under the floor) is not checked; a rating before against the
previous list's rating after is left to the rebuild.

The checked database is only read.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import PeriodError
from ratings.models import RatingPeriod
from ratings.rules import Period, RatingAdjustment, TimeControl
from ratings.schema_objects import foreign_sqlite_objects
from ratings.service.rating.rebuild import Rebuilt, rebuild
from ratings.service.reading.list_diff import (
    Counts,
    Difference,
    compare_period,
    differing_periods,
    period_ids,
)
from ratings.service.reading.list_diff import names as all_names
from ratings.service.reading.reports import find_rated_period
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import fetch_all, to_date
from ratings.service.shared.text import list_name

__all__ = ["ChainBreak", "CheckReport", "Difference", "Disagreement", "check_lists"]


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A list row that its own breakdown does not reproduce (or a missing one)."""

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
class ChainBreak:
    """A list row whose rating after is not its rating before plus its change (raised by the
    list's one-time adjustment where it has one): ``check --breakdown-only``."""

    period: str
    time_control: str
    player_id: int
    name: str
    rating_before: int
    change: int
    rating_after: int
    expected: int
    """The rating before plus the change, with the list's one-time adjustment."""

    @property
    def text(self) -> str:
        """``rating 1506 is not 1456 +0``."""
        text = f"rating {self.rating_after} is not {self.rating_before} {self.change:+d}"
        if self.expected != self.rating_before + self.change:
            text += f" raised by FIDE's one-time adjustment of the list ({self.expected})"
        return text


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
    breakdown_rows: int
    differences: tuple[Difference, ...] = ()
    """Every difference from the rebuild, by period, list and name."""
    disagreements: tuple[Disagreement, ...] = ()
    """The rows whose change and K their own breakdown does not give."""
    pending_from: str | None = None
    """The oldest period a correction marked for a re-rate that has not run yet."""
    rebuilt_periods: int = 0
    """Periods the rebuild rated (from the oldest published through the newest checked)."""
    schema: tuple[str, ...] = ()
    """The triggers and views of the database that are not ratings' own (SQLite): one
    planted can change what a rate writes or what a reader sees (:mod:`ratings.schema_objects`)."""

    @property
    def agrees(self) -> bool:
        """The published lists are what their inputs give, and nothing in the schema that
        ratings did not make can change them."""
        return not self.differences and not self.schema

    @property
    def first_difference(self) -> str | None:
        """The oldest period whose lists differ."""
        return min((d.period for d in self.differences), default=None)


def check_lists(
    session: Session,
    period_label: str | None = None,
    *,
    time_control: str | None = None,
    every_period: bool = False,
    keep_rebuild: Callable[[Rebuilt], None] | None = None,
    breakdown_only: bool = False,
) -> CheckReport:
    """Check a period's lists against a rebuild from the stored inputs: by default the
    newest rated period (with ``time_control``, the newest that published that list);
    ``every_period``: the whole history.

    :param time_control: standard, rapid or blitz: that list only (default: every list).
    :param keep_rebuild: called with the rebuilt database before it is dropped
        (:func:`ratings.service.rating.rebuild.write_rebuild`: ``check --rebuild-into``).
    :param breakdown_only: no rebuild: each row against its own breakdown only (seconds on
        the world's register, where a rebuild is a rate of the whole history).
    :raises PeriodError: nothing is rated yet, the period is not rated, or it published no
        such list.
    """
    tc = list_name(time_control) if time_control is not None else None
    periods = _periods_checked(session, period_label, tc, every_period)
    config = get_config(session)
    months = config.period_months
    checked = [Period(to_date(p.start_date), months) for p in periods]
    names = all_names(session)
    differences: list[Difference] = []
    disagreements: list[Disagreement] = []
    counted = Counts()
    schema = tuple(_schema_problems(session))
    if breakdown_only:
        published_ids = period_ids(session)
        breaks: list[ChainBreak] = []
        for period in checked:
            pub_id = published_ids[period.start]
            disagreements += _disagreements(session, period.label, pub_id, tc)
            adjustments = {t.value: config.list_adjustment(period, t) for t in TimeControl}
            breaks += _chain_breaks(session, period.label, pub_id, tc, adjustments)
        return CheckReport(
            periods=tuple(p.label for p in checked),
            time_control=tc,
            **_counts(session, [published_ids[p.start] for p in checked], tc),
            differences=tuple(_merge([], [*disagreements, *breaks], names)),
            disagreements=tuple(disagreements),
            pending_from=_pending_from(session, months),
            schema=schema,
        )
    with rebuild(session, through=checked[-1]) as rebuilt:
        scratch = rebuilt.session
        suspects = None
        if rebuilt.source_file is not None and rebuilt.raw is not None:
            # SQLite compares the periods that agree (before the scratch session begins a
            # transaction: the file is attached outside one); Python reads only the others
            starts = [p.start for p in checked]
            suspects = differing_periods(rebuilt.raw, rebuilt.source_file, starts, tc)
        rebuilt_ids = period_ids(scratch)
        published_ids = period_ids(session)
        compared = checked
        if suspects is not None:
            compared = [p for p in checked if p.start in suspects or p.start not in rebuilt_ids]
            counts = _counts(session, [published_ids[p.start] for p in checked], tc)
            counted = Counts()  # the counts above are the report's
        for period in compared:
            pub_id = published_ids[period.start]
            reb_id = rebuilt_ids.get(period.start)
            if reb_id is None:
                differences.append(
                    Difference(period.label, None, None, None, "published, the rebuild rates no "
                               "such period")
                )  # fmt: skip
                continue
            found = compare_period(session, scratch, period, pub_id, reb_id, tc, names, counted)
            differences += found
        differences += _period_differences(session, scratch, checked)
        for period in checked:
            disagreements += _disagreements(session, period.label, published_ids[period.start], tc)
        if keep_rebuild is not None:
            keep_rebuild(rebuilt)
    differences = _merge(differences, disagreements, names)
    if rebuilt.source_file is None:
        counts = {
            "players": len(counted.players), "list_rows": counted.list_rows,
            "games": len(counted.games), "breakdown_rows": counted.breakdown_rows,
        }  # fmt: skip
    return CheckReport(
        periods=tuple(p.label for p in checked),
        time_control=tc,
        **counts,
        differences=tuple(differences),
        disagreements=tuple(disagreements),
        pending_from=_pending_from(session, months),
        rebuilt_periods=len(rebuilt.periods),
        schema=schema,
    )


def _schema_problems(session: Session) -> list[str]:
    """:func:`ratings.schema_objects.foreign_sqlite_objects` of a SQLite database (none
    elsewhere: PostgreSQL keeps its own form of a view's SQL)."""
    if session.connection().dialect.name != "sqlite":
        return []
    rows = fetch_all(
        session, "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view')"
    )
    return foreign_sqlite_objects((str(k), str(n), sql) for k, n, sql in rows)


def _period_rows(session: Session) -> dict[dt.date, tuple[str, dt.date, dt.date]]:
    """Each rated period by start: its label, end date and list date."""
    return {
        to_date(start): (str(label), to_date(end), to_date(listed))
        for start, label, end, listed in fetch_all(
            session, "SELECT start_date, label, end_date, list_date FROM rating_periods"
        )
    }


def _period_differences(
    session: Session, scratch: Session, checked: Sequence[Period]
) -> list[Difference]:
    """The periods themselves: one the rebuild rates inside the checked span that the database
    does not publish (a period deleted from the middle of its history), and a label, end or
    list date that is not the one the settings give."""
    published, rebuilt = _period_rows(session), _period_rows(scratch)
    first, last = checked[0].start, checked[-1].start
    found = [
        Difference(label, None, None, None, "the rebuild rates this period; the database "
                   "publishes no list for it")
        for start, (label, _, _) in sorted(rebuilt.items())
        if first <= start <= last and start not in published
    ]  # fmt: skip
    for period in checked:
        ours, theirs = published.get(period.start), rebuilt.get(period.start)
        if ours is None or theirs is None:
            continue
        for field, stored, given in zip(("label", "end date", "list date"), ours, theirs,
                                        strict=True):  # fmt: skip
            if stored != given:
                found.append(
                    Difference(period.label, None, None, None,
                               f"published with the {field} {stored}, the settings give {given}")
                )  # fmt: skip
    return found


def _counts(session: Session, ids: Sequence[int], tc: str | None) -> dict[str, int]:
    """Players, list rows, breakdown rows and games of the lists checked (published rows)."""
    where = f"period_id IN ({', '.join(str(int(i)) for i in ids)})"
    h_list = "" if tc is None else f" AND time_control = '{tc}'"
    b_list = "" if tc is None else f" AND e.time_control = '{tc}'"
    players, rows = session.execute(
        sa.text(f"SELECT count(DISTINCT player_id), count(*) FROM rating_history WHERE {where}"
                f"{h_list}")
    ).one()  # fmt: skip
    lines, games = session.execute(
        sa.text(
            "SELECT count(*), count(DISTINCT b.game_id) FROM rating_breakdown b "
            "LEFT JOIN games g ON g.id = b.game_id LEFT JOIN events e ON e.id = g.event_id "
            f"WHERE b.{where}{b_list}"
        )
    ).one()
    return {
        "players": int(players), "list_rows": int(rows), "breakdown_rows": int(lines),
        "games": int(games),
    }  # fmt: skip


def _periods_checked(
    session: Session, label: str | None, tc: str | None, every_period: bool
) -> list[RatingPeriod]:
    if every_period:
        if label is not None:
            raise PeriodError("give a period or every period, not both")
        query = sa.select(RatingPeriod).order_by(RatingPeriod.start_date)
        periods = list(session.scalars(query))
        if not periods:
            raise _nothing_rated()
        if tc is not None:
            periods = [p for p in periods if _publishes(session, p.id, tc)]
            if not periods:
                raise PeriodError(f"nothing to check: no period published a {tc} list")
        return periods
    found = find_rated_period(session, label, tc or "standard")
    if found is None:
        if tc is None or tc == "standard" or not _any_rated(session):
            raise _nothing_rated()
        raise PeriodError(f"nothing to check: no period published a {tc} list")
    return [found]


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


def _pending_from(session: Session, months: int) -> str | None:
    day = session.scalar(
        sa.select(sa.func.min(RatingPeriod.start_date)).where(RatingPeriod.status == "needs_rerate")
    )
    return None if day is None else Period(to_date(day), months).label


def _merge(
    differences: list[Difference],
    disagreements: Sequence[Disagreement | ChainBreak],
    names: Mapping[int, str],
) -> list[Difference]:
    """The rebuild's differences with the rows their own breakdown does not reproduce and
    the rows that break the chain (each told as a reason of the row's difference, or as one
    of their own), by period, list and name."""
    by_row = {(d.period, d.time_control, d.player_id): i for i, d in enumerate(differences)}
    out = list(differences)
    for d in disagreements:
        reason = d.text if isinstance(d, ChainBreak) else _disagreement_text(d)
        key = (d.period, d.time_control, d.player_id)
        i = by_row.get(key)
        if i is None:
            by_row[key] = len(out)
            out.append(Difference(d.period, d.time_control, d.player_id, d.name, reason))
        else:
            old = out[i]
            out[i] = Difference(old.period, old.time_control, old.player_id, old.name, old.what,
                                (*old.why, reason))  # fmt: skip
    return sorted(
        out, key=lambda d: (d.period, d.time_control or "", d.name or "", d.player_id or 0)
    )


def _disagreement_text(d: Disagreement) -> str:
    if d.published_change is None:
        return f"no row on the list, and {d.change_games} game(s) count for a change of " \
            f"{d.recomputed_change:+d}"  # fmt: skip
    if d.recomputed_change is None:
        parts = [f"change {d.published_change:+d}"] if d.published_change else []
        if d.published_k_used is not None:
            parts.append(f"K {d.published_k_used}")
        return f"{' and '.join(parts)} with no game behind {'them' if len(parts) > 1 else 'it'} " \
            "in the breakdown"  # fmt: skip
    k = str(d.recomputed_k_used)
    if d.recomputed_k_used != d.recomputed_k_used_max:
        k = f"{d.recomputed_k_used}..{d.recomputed_k_used_max}"
    return (
        f"change {d.published_change:+d} with K {d.published_k_used} is not K x the sum of dR "
        f"of its breakdown ({d.recomputed_change:+d} with K {k})"
    )


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
"""The rows of one period whose change and K their own breakdown does not give (the
README's one-period recipe, with the count of games and the rows missing from a list)."""


def _disagreements(
    session: Session, label: str, period_id: int, tc: str | None
) -> list[Disagreement]:
    sql = _WRONG.format(
        breakdown_list="" if tc is None else "AND e.time_control = :tc",
        history_list="" if tc is None else "AND h.time_control = :tc",
    )
    params: dict[str, object] = {"period_id": period_id}
    if tc is not None:
        params["tc"] = tc
    rows: Sequence[tuple[object, ...]] = [
        tuple(row) for row in session.execute(sa.text(sql), params)
    ]
    return [
        Disagreement(
            label,
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


_CHAIN_ROWS = """
SELECT h.time_control, h.player_id, p.name, h.rating_before, h.change, h.rating_after
FROM rating_history h
JOIN players p ON p.id = h.player_id
WHERE h.period_id = :period_id {history_list}
  AND h.rating_before IS NOT NULL AND h.rating_after IS NOT NULL
  AND (h.rating_after <> h.rating_before + h.change {adjusted})
ORDER BY h.time_control, p.name, h.player_id
"""
"""The rows of one period whose rating after is not their rating before plus their change,
and every row of a list with a one-time adjustment (``{adjusted}``), which
:meth:`ratings.rules.RatingAdjustment.apply` then judges: the rule stays the rules'."""


def _chain_breaks(
    session: Session,
    label: str,
    period_id: int,
    tc: str | None,
    adjustments: Mapping[str, RatingAdjustment | None],
) -> list[ChainBreak]:
    """The rows of one period whose rating after is not their rating before plus their
    change, raised by the list's one-time adjustment where it has one (one query a period; a
    row without a rating before or after is not checked)."""
    adjusted = sorted(t for t, adjustment in adjustments.items() if adjustment is not None)
    sql = _CHAIN_ROWS.format(
        history_list="" if tc is None else "AND h.time_control = :tc",
        adjusted="".join(f" OR h.time_control = '{TimeControl(t).value}'" for t in adjusted),
    )
    params: dict[str, object] = {"period_id": period_id}
    if tc is not None:
        params["tc"] = tc
    found = []
    for time_control, player_id, name, before, change, after in session.execute(
        sa.text(sql), params
    ):
        adjustment = adjustments.get(str(time_control))
        total = int(str(before)) + int(str(change))
        expected = total if adjustment is None else adjustment.apply(total)
        if int(str(after)) != expected:
            found.append(
                ChainBreak(label, str(time_control), int(str(player_id)), str(name),
                           int(str(before)), int(str(change)), int(str(after)), expected)
            )  # fmt: skip
    return found
