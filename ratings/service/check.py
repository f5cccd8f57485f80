"""``ratings check``: the published lists against a rebuild from the stored inputs
(docs/DESIGN.md#the-rebuild).

:func:`check_lists` rates the database's inputs again from scratch in a scratch database
(:func:`ratings.service.rebuild.rebuild`) and compares what the checked periods published
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

The checked database is only read.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import PeriodError
from ratings.models import RatingPeriod
from ratings.results import Result
from ratings.rules import Period
from ratings.service.common import fetch_all, get_config, list_name, to_date
from ratings.service.rebuild import Rebuilt, rebuild
from ratings.service.reports import find_rated_period

__all__ = ["CheckReport", "Difference", "Disagreement", "check_lists"]

HISTORY_FIELDS = rules.ListEntry._fields[1:]
"""The fields of a list row compared (``rating_history`` without its keys), in the order a
difference names them."""
BREAKDOWN_FIELDS = rules.BreakdownLine._fields[2:]
"""The fields of a breakdown row compared (``rating_breakdown`` without its keys)."""

_LABELS = {
    "rating_before": "rating before",
    "rating_after": "rating",
    "change": "change",
    "k_used": "K",
    "period_games": "games",
    "total_games": "total games",
    "score_half_points": "score",
    "pd_sum_units": "sum of PD",
    "units_per_point": "unit",
    "k10": "K=10 flag",
    "reached_2300": "2300 mark",
    "next_k": "next K",
    "list_status": "list status",
    "inactive": "inactive flag",
    "last_active": "last active",
    "opponent_id": "opponent",
    "own_rating": "own rating",
    "opponent_rating": "opponent rating",
    "difference": "D",
    "pd_units": "PD",
    "dr_units": "dR",
    "counts_for": "counts for",
}


@dataclass(frozen=True, slots=True)
class Difference:
    """One way the published lists differ from what their inputs give: a list row (with its
    breakdown rows), a player's breakdown rows alone, or a whole list or period."""

    period: str
    time_control: str | None
    """The list; None: the period itself (published on one side only)."""
    player_id: int | None
    """None: a whole list or period."""
    name: str | None
    what: str
    """What differs: ``published 1541, the games give 1491``."""
    why: tuple[str, ...] = ()
    """The inputs behind it: ``game 705 result 1-0 in the games table, scored 0 in the
    breakdown``."""

    @property
    def line(self) -> str:
        """``2025-12 Toreley, Dina (id 1): published 1541, ...; game 705 ...``."""
        where = self.period
        if self.time_control not in (None, "standard"):
            where += f" {self.time_control} list"
        if self.player_id is not None:
            where += f" {self.name} (id {self.player_id})"
        return f"{where}: {'; '.join((self.what, *self.why))}"


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

    @property
    def agrees(self) -> bool:
        """The published lists are what their inputs give."""
        return not self.differences

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
) -> CheckReport:
    """Check a period's lists against a rebuild from the stored inputs: by default the
    newest rated period (with ``time_control``, the newest that published that list);
    ``every_period``: the whole history.

    :param time_control: standard, rapid or blitz: that list only (default: every list).
    :param keep_rebuild: called with the rebuilt database before it is dropped
        (:func:`ratings.service.rebuild.write_rebuild`: ``check --rebuild-into``).
    :raises PeriodError: nothing is rated yet, the period is not rated, or it published no
        such list.
    """
    tc = list_name(time_control) if time_control is not None else None
    periods = _periods_checked(session, period_label, tc, every_period)
    months = get_config(session).period_months
    checked = [Period(to_date(p.start_date), months) for p in periods]
    names = _names(session)
    differences: list[Difference] = []
    disagreements: list[Disagreement] = []
    counted = _Counts()
    with rebuild(session, through=checked[-1]) as rebuilt:
        scratch = rebuilt.session
        rebuilt_ids = _period_ids(scratch)
        published_ids = _period_ids(session)
        for period in checked:
            pub_id = published_ids[period.start]
            reb_id = rebuilt_ids.get(period.start)
            if reb_id is None:
                differences.append(
                    Difference(period.label, None, None, None, "published, the rebuild rates no "
                               "such period")
                )  # fmt: skip
                continue
            found = _compare_period(session, scratch, period, pub_id, reb_id, tc, names, counted)
            differences += found
            disagreements += _disagreements(session, period.label, pub_id, tc)
        if keep_rebuild is not None:
            keep_rebuild(rebuilt)
    differences = _merge(differences, disagreements, names)
    return CheckReport(
        periods=tuple(p.label for p in checked),
        time_control=tc,
        players=len(counted.players),
        list_rows=counted.list_rows,
        games=len(counted.games),
        breakdown_rows=counted.breakdown_rows,
        differences=tuple(differences),
        disagreements=tuple(disagreements),
        pending_from=_pending_from(session, months),
        rebuilt_periods=len(rebuilt.periods),
    )


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


def _period_ids(session: Session) -> dict[dt.date, int]:
    return {
        to_date(day): int(pid)
        for pid, day in fetch_all(session, "SELECT id, start_date FROM rating_periods")
    }


def _pending_from(session: Session, months: int) -> str | None:
    day = session.scalar(
        sa.select(sa.func.min(RatingPeriod.start_date)).where(
            RatingPeriod.status == "needs_rerate"
        )
    )
    return None if day is None else Period(to_date(day), months).label


def _names(session: Session) -> dict[int, str]:
    return {int(pid): str(name) for pid, name in fetch_all(session, "SELECT id, name FROM players")}


class _Counts:
    """What the comparison read from the checked lists."""

    def __init__(self) -> None:
        self.players: set[int] = set()
        self.games: set[int] = set()
        self.list_rows = 0
        self.breakdown_rows = 0


def _plain(value: object) -> object:
    """A value as both backends compare equal: dates as ISO text, booleans and PostgreSQL's
    big sums as int."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    if isinstance(value, decimal.Decimal):
        return int(value)
    return value


def _rows(
    session: Session, sql: str, params: Sequence[object] = ()
) -> list[tuple[object, ...]]:
    sqlite = session.connection().dialect.name == "sqlite"
    rows = fetch_all(session, sql if sqlite else sql.replace("?", "%s"), params)
    if sqlite:
        return [tuple(row) for row in rows]
    return [tuple(_plain(v) for v in row) for row in rows]


_HISTORY = (
    f"SELECT time_control, player_id, {', '.join(HISTORY_FIELDS)} FROM rating_history "
    "WHERE period_id = ? ORDER BY time_control, player_id"
)
_BREAKDOWN = (
    "SELECT b.game_id, b.player_id, "
    f"{', '.join('b.' + f for f in BREAKDOWN_FIELDS)}, e.time_control FROM rating_breakdown b "
    "LEFT JOIN games g ON g.id = b.game_id LEFT JOIN events e ON e.id = g.event_id "
    "WHERE b.period_id = ? ORDER BY b.game_id, b.player_id"
)


def _compare_period(
    session: Session,
    scratch: Session,
    period: Period,
    pub_id: int,
    reb_id: int,
    tc: str | None,
    names: Mapping[int, str],
    counted: _Counts,
) -> list[Difference]:
    """The differences of one period's lists and breakdown rows."""
    published = _by_list(_rows(session, _HISTORY, (pub_id,)), tc)
    rebuilt = _by_list(_rows(scratch, _HISTORY, (reb_id,)), tc)
    pub_lines = _breakdown(_rows(session, _BREAKDOWN, (pub_id,)), tc)
    reb_lines = _breakdown(_rows(scratch, _BREAKDOWN, (reb_id,)), tc)
    for rows in published.values():
        counted.list_rows += len(rows)
        counted.players.update(rows)
    counted.breakdown_rows += len(pub_lines)
    counted.games.update(game for game, _ in pub_lines)
    found: list[Difference] = []
    # the breakdown rows that differ, by (list, player)
    lines_of: dict[tuple[str | None, int], list[tuple[int, int]]] = {}
    for key in sorted(pub_lines.keys() | reb_lines.keys()):
        pub, reb = pub_lines.get(key), reb_lines.get(key)
        if pub != reb:
            line_tc = (pub or reb or {}).get("time_control")
            lines_of.setdefault((_str_or_none(line_tc), key[1]), []).append(key)
    explain = _Explainer(session, scratch, period, pub_lines, reb_lines, names)
    for list_tc in sorted(published.keys() | rebuilt.keys()):
        pub_rows, reb_rows = published.get(list_tc, {}), rebuilt.get(list_tc, {})
        if not pub_rows or not reb_rows:
            found.append(_whole_list(period.label, list_tc, pub_rows, reb_rows))
            continue
        for pid in sorted(pub_rows.keys() | reb_rows.keys()):
            pub_row, reb_row = pub_rows.get(pid), reb_rows.get(pid)
            keys = lines_of.pop((list_tc, pid), [])
            if pub_row == reb_row and not keys:
                continue
            what = _row_what(pub_row, reb_row)
            why = explain.games(keys, pid)
            if pub_row is not None and reb_row is not None:
                why = explain.chain(list_tc, pid, pub_row, reb_row) + why
            found.append(Difference(period.label, list_tc, pid, names.get(pid, "?"), what, why))
    for (list_tc, pid), keys in sorted(lines_of.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        # breakdown rows that differ on a list whose rows agree (or a list not compared)
        found.append(
            Difference(
                period.label, list_tc, pid, names.get(pid, "?"), "the breakdown differs",
                explain.games(keys, pid),
            )
        )  # fmt: skip
    return found


def _str_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _by_list(
    rows: Iterable[tuple[object, ...]], tc: str | None
) -> dict[str, dict[int, tuple[object, ...]]]:
    lists: dict[str, dict[int, tuple[object, ...]]] = {}
    for row in rows:
        list_tc = str(row[0])
        if tc is None or list_tc == tc:
            lists.setdefault(list_tc, {})[int(str(row[1]))] = row[2:]
    return lists


def _breakdown(
    rows: Iterable[tuple[object, ...]], tc: str | None
) -> dict[tuple[int, int], dict[str, object]]:
    lines: dict[tuple[int, int], dict[str, object]] = {}
    for row in rows:
        line_tc = row[-1]
        if tc is not None and line_tc is not None and line_tc != tc:
            continue
        values = dict(zip(BREAKDOWN_FIELDS, row[2:-1], strict=True))
        values["time_control"] = line_tc
        lines[int(str(row[0])), int(str(row[1]))] = values
    return lines


def _whole_list(
    label: str, tc: str, pub: Mapping[int, object], reb: Mapping[int, object]
) -> Difference:
    if not reb:
        what = f"published a {tc} list of {_rows_text(len(pub))}; the inputs give no {tc} list"
    else:
        what = f"published no {tc} list; the inputs give one of {_rows_text(len(reb))}"
    return Difference(label, tc, None, None, what)


def _rows_text(n: int) -> str:
    return "1 row" if n == 1 else f"{n} rows"


def _row_what(pub: tuple[object, ...] | None, reb: tuple[object, ...] | None) -> str:
    """``published 1541, the games give 1491`` (the rating first), or the other fields."""
    if pub is None:
        return "not on the published list; the inputs give a row"
    if reb is None:
        return "on the published list; the inputs give no row"
    parts = []
    for name, p, r in zip(HISTORY_FIELDS, pub, reb, strict=True):
        if p == r:
            continue
        if name == "rating_after":
            parts.insert(0, f"published {_value(p)}, the games give {_value(r)}")
        else:
            parts.append(f"{_LABELS[name]} published {_value(p, name)}, the games give "
                         f"{_value(r, name)}")  # fmt: skip
    return ", ".join(parts) if parts else "the breakdown differs"


def _value(value: object, name: str = "") -> str:
    if value is None:
        return "unrated" if name in ("", "rating_before") else "none"
    if name == "change" and isinstance(value, int):
        return f"{value:+d}"
    if name in ("k10", "reached_2300", "inactive"):
        return "on" if value else "off"
    if name == "score_half_points" and isinstance(value, int):
        return _score(value)
    return str(value)


def _score(halves: int) -> str:
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return "1/2" if whole == 0 else f"{whole} 1/2"


class _Explainer:
    """The inputs behind a difference: the games a breakdown row stands for, and the
    chain of a list row."""

    def __init__(
        self,
        session: Session,
        scratch: Session,
        period: Period,
        pub_lines: Mapping[tuple[int, int], Mapping[str, object]],
        reb_lines: Mapping[tuple[int, int], Mapping[str, object]],
        names: Mapping[int, str],
    ) -> None:
        self.session = session
        self.scratch = scratch
        self.period = period
        self.pub_lines = pub_lines
        self.reb_lines = reb_lines
        self.names = names

    def games(self, keys: Sequence[tuple[int, int]], pid: int) -> tuple[str, ...]:
        return tuple(self._game(key, pid) for key in keys)

    def _game(self, key: tuple[int, int], pid: int) -> str:
        game_id = key[0]
        pub, reb = self.pub_lines.get(key), self.reb_lines.get(key)
        game = _rows(
            self.session,
            "SELECT g.white_id, g.black_id, g.result, g.rateable, g.played_on, e.name "
            "FROM games g JOIN events e ON e.id = g.event_id WHERE g.id = ?",
            (game_id,),
        )
        if reb is None:
            assert pub is not None
            if not game:
                return f"game {game_id} is counted in the breakdown and is not in the games table"
            white, black, result, rateable, _, _ = game[0]
            if pid not in (white, black):
                return (
                    f"game {game_id} is counted for them in the breakdown; the games table "
                    f"has {self._name(white)} v {self._name(black)}"
                )
            if not rateable or not Result(result).is_played:
                return f"game {game_id} is counted in the breakdown; the games table has it " \
                    f"{result}, not rated"  # fmt: skip
            elsewhere = self._rated_in(self.scratch, game_id, pid)
            if elsewhere is not None:
                return f"game {game_id} is counted in the breakdown; its event is rated in " \
                    f"period {elsewhere}"  # fmt: skip
            return f"game {game_id} is counted in the breakdown; the inputs rate it for nobody"
        if pub is None:
            white, black, result, _, played_on, event = game[0]
            where = f"game {game_id} ({played_on}, {event}, {result} v " \
                f"{self._name(black if pid == white else white)})"  # fmt: skip
            elsewhere = self._rated_in(self.session, game_id, pid)
            if elsewhere is not None:
                return f"{where} is rated in this period; the breakdown counts it in {elsewhere}"
            return f"{where} is in the games table and not in the breakdown"
        parts = []
        for name in BREAKDOWN_FIELDS:
            p, r = pub.get(name), reb.get(name)
            if p == r:
                continue
            if name == "score_half_points" and game:
                result = str(game[0][2])
                parts.append(f"game {game_id} result {result} in the games table, scored "
                             f"{_value(p, name)} in the breakdown")  # fmt: skip
            elif name == "opponent_id":
                parts.append(f"game {game_id}: the breakdown's opponent is "
                             f"{self._name(p)}, the games table's {self._name(r)}")  # fmt: skip
            elif name in ("own_rating", "opponent_rating"):
                parts.append(f"game {game_id}: {_LABELS[name]} {_value(p)} in the breakdown, "
                             f"the list in force gives {_value(r)}")  # fmt: skip
            else:
                parts.append(f"game {game_id}: {_LABELS[name]} {_value(p)} in the breakdown, "
                             f"the games give {_value(r)}")  # fmt: skip
        # a score that follows from another difference is not told twice
        return "; ".join(parts[:1] if parts and "result" in parts[0] else parts)

    def _rated_in(self, session: Session, game_id: int, pid: int) -> str | None:
        found = _rows(
            session,
            "SELECT rp.start_date FROM rating_breakdown b JOIN rating_periods rp "
            "ON rp.id = b.period_id WHERE b.game_id = ? AND b.player_id = ?",
            (game_id, pid),
        )
        if not found:
            return None
        return Period(to_date(found[0][0]), self.period.months).label

    def _name(self, pid: object) -> str:
        if pid is None:
            return "nobody"
        return f"{self.names.get(int(str(pid)), '?')} (id {pid})"

    def chain(
        self, tc: str, pid: int, pub: tuple[object, ...], reb: tuple[object, ...]
    ) -> tuple[str, ...]:
        """Where the published row breaks the chain that the rebuilt row keeps."""
        before, after, change = pub[0], pub[1], pub[2]
        out = []
        if before != reb[0]:
            previous = self.period.previous()
            prior = _rows(
                self.session,
                "SELECT h.rating_after FROM rating_history h JOIN rating_periods rp "
                "ON rp.id = h.period_id WHERE rp.start_date = ? AND h.time_control = ? "
                "AND h.player_id = ?",
                (_date_param(self.session, previous.start), tc, pid),
            )
            if prior and prior[0][0] != before:
                out.append(f"rating before {_value(before)} is not the {previous.label} "
                           f"list's {_value(prior[0][0])}")  # fmt: skip
        if (
            isinstance(before, int)
            and isinstance(after, int)
            and isinstance(change, int)
            and before + change != after
            and reb[0] is not None
            and reb[1] is not None
            and reb[0] + reb[2] == reb[1]  # type: ignore[operator]  # ints: the rebuilt row's
        ):
            out.append(f"rating {after} is not {before} {change:+d}")
        return tuple(out)


def _date_param(session: Session, day: dt.date) -> object:
    return day.isoformat() if session.connection().dialect.name == "sqlite" else day


def _merge(
    differences: list[Difference],
    disagreements: Sequence[Disagreement],
    names: Mapping[int, str],
) -> list[Difference]:
    """The rebuild's differences with the rows their own breakdown does not reproduce (told
    as a reason of the row's difference, or as one of their own), by period, list and
    name."""
    by_row = {(d.period, d.time_control, d.player_id): i for i, d in enumerate(differences)}
    out = list(differences)
    for d in disagreements:
        reason = _disagreement_text(d)
        i = by_row.get((d.period, d.time_control, d.player_id))
        if i is None:
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
        return f"change {d.published_change:+d} and K {d.published_k_used} with no game " \
            "behind them in the breakdown"  # fmt: skip
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
