"""One period's published lists and breakdown against a rebuild's, field by field, with the
inputs behind each difference (``ratings check``; docs/DESIGN.md#the-rebuild)."""

from __future__ import annotations

import datetime as dt
import decimal
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from ratings import rules
from ratings.dbfile import sqlite_uri
from ratings.results import Result
from ratings.rules import Period
from ratings.service.shared.sql import fetch_all, to_date

__all__ = [
    "BREAKDOWN_FIELDS",
    "HISTORY_FIELDS",
    "Counts",
    "Difference",
    "compare_period",
    "differing_periods",
    "names",
    "period_ids",
]

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


def period_ids(session: Session) -> dict[dt.date, int]:
    return {
        to_date(day): int(pid)
        for pid, day in fetch_all(session, "SELECT id, start_date FROM rating_periods")
    }


def names(session: Session) -> dict[int, str]:
    return {int(pid): str(name) for pid, name in fetch_all(session, "SELECT id, name FROM players")}


class Counts:
    """What the comparison read from the checked lists."""

    def __init__(self) -> None:
        self.players: set[int] = set()
        self.games: set[int] = set()
        self.list_rows = 0
        self.breakdown_rows = 0


def differing_periods(
    raw: sqlite3.Connection, source: Path, starts: Sequence[dt.date], tc: str | None
) -> set[dt.date]:
    """The periods (by start) among ``starts`` whose published list or breakdown rows differ
    from the rebuilt ones in any field, found in SQLite's own code: the checked file attached
    read-only to the rebuilt database, each published row looked up by its key (the tables'
    unique indexes) and compared field by field (``IS NOT``: NULL equals NULL), and the rows
    of each period counted on both sides (the keys being unique, equal counts and no row
    without its equal mean equal sets). Only these periods need :func:`compare_period`; on a
    database that agrees, no row is read into Python. ``raw`` (the rebuilt database's
    connection) must be outside a transaction: SQLite detaches only there."""
    days = ", ".join(f"'{day.isoformat()}'" for day in starts)
    h_list = "" if tc is None else f" AND h.time_control = '{tc}'"
    b_list = "" if tc is None else f" AND (e.time_control = '{tc}' OR e.id IS NULL)"
    h_differ = " OR ".join(f"h.{f} IS NOT r.{f}" for f in HISTORY_FIELDS)
    b_differ = " OR ".join(f"b.{f} IS NOT r.{f}" for f in BREAKDOWN_FIELDS)
    unmatched_history = (
        "SELECT DISTINCT p.start_date FROM published.rating_history h "
        "JOIN published.rating_periods p ON p.id = h.period_id "
        "LEFT JOIN main.rating_periods rp ON rp.start_date = p.start_date "
        "LEFT JOIN main.rating_history r ON r.period_id = rp.id "
        "AND r.time_control = h.time_control AND r.player_id = h.player_id "
        f"WHERE p.start_date IN ({days}){h_list} AND (r.id IS NULL OR {h_differ})"
    )
    unmatched_breakdown = (
        "SELECT DISTINCT p.start_date FROM published.rating_breakdown b "
        "JOIN published.rating_periods p ON p.id = b.period_id "
        "LEFT JOIN published.games g ON g.id = b.game_id "
        "LEFT JOIN published.events e ON e.id = g.event_id "
        "LEFT JOIN main.rating_breakdown r ON r.game_id = b.game_id AND r.player_id = b.player_id "
        "LEFT JOIN main.rating_periods rp ON rp.id = r.period_id "
        f"WHERE p.start_date IN ({days}){b_list} "
        f"AND (r.id IS NULL OR rp.start_date IS NOT p.start_date OR {b_differ})"
    )
    counts = {
        "history": (
            "SELECT p.start_date, count(*) FROM {db}.rating_history h "
            "JOIN {db}.rating_periods p ON p.id = h.period_id "
            f"WHERE p.start_date IN ({days}){h_list} GROUP BY p.start_date"
        ),
        "breakdown": (
            "SELECT p.start_date, count(*) FROM {db}.rating_breakdown b "
            "JOIN {db}.rating_periods p ON p.id = b.period_id "
            "LEFT JOIN {db}.games g ON g.id = b.game_id "
            "LEFT JOIN {db}.events e ON e.id = g.event_id "
            f"WHERE p.start_date IN ({days}){b_list} GROUP BY p.start_date"
        ),
    }
    found: set[dt.date] = set()
    raw.execute("ATTACH DATABASE ? AS published", (sqlite_uri(source, mode="ro"),))
    try:
        for query in (unmatched_history, unmatched_breakdown):
            found.update(to_date(day) for (day,) in raw.execute(query).fetchall())
        for sql in counts.values():
            published = dict(raw.execute(sql.format(db="published")).fetchall())
            rebuilt = dict(raw.execute(sql.format(db="main")).fetchall())
            found.update(
                to_date(day)
                for day in published.keys() | rebuilt.keys()
                if published.get(day) != rebuilt.get(day)
            )
    finally:
        raw.execute("DETACH DATABASE published")
    return found


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


def _rows(session: Session, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
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


def compare_period(
    session: Session,
    scratch: Session,
    period: Period,
    pub_id: int,
    reb_id: int,
    tc: str | None,
    names: Mapping[int, str],
    counted: Counts,
) -> list[Difference]:
    """The differences of one period's lists and breakdown rows.

    Both sides are read in the same order and compared whole first: a period that agrees
    (nearly every one) costs two reads and one comparison of row lists, no per-row work."""
    pub_history = _rows(session, _HISTORY, (pub_id,))
    reb_history = _rows(scratch, _HISTORY, (reb_id,))
    pub_breakdown = _rows(session, _BREAKDOWN, (pub_id,))
    reb_breakdown = _rows(scratch, _BREAKDOWN, (reb_id,))
    if tc is not None:
        pub_history = [row for row in pub_history if row[0] == tc]
        reb_history = [row for row in reb_history if row[0] == tc]
        pub_breakdown = [row for row in pub_breakdown if row[-1] in (tc, None)]
        reb_breakdown = [row for row in reb_breakdown if row[-1] in (tc, None)]
    counted.list_rows += len(pub_history)
    counted.players.update(int(str(row[1])) for row in pub_history)
    counted.breakdown_rows += len(pub_breakdown)
    counted.games.update(int(str(row[0])) for row in pub_breakdown)
    if pub_history == reb_history and pub_breakdown == reb_breakdown:
        return []
    published = _by_list(pub_history, tc)
    rebuilt = _by_list(reb_history, tc)
    pub_lines = _breakdown(pub_breakdown, tc)
    reb_lines = _breakdown(reb_breakdown, tc)
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
                why += explain.count(list_tc, pid, pub_row, reb_row)
            found.append(Difference(period.label, list_tc, pid, names.get(pid, "?"), what, why))
    for (line_tc, pid), keys in sorted(lines_of.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        # breakdown rows that differ on a list whose rows agree (or a list not compared)
        found.append(
            Difference(
                period.label, line_tc, pid, names.get(pid, "?"), "the breakdown differs",
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
    if pub[1] != reb[1]:  # the rating says it: the other fields follow from it
        return f"published {_value(pub[1])}, the games give {_value(reb[1])}"
    parts = [
        f"{_LABELS[name]} published {_value(p, name)}, the games give {_value(r, name)}"
        for name, p, r in zip(HISTORY_FIELDS, pub, reb, strict=True)
        if p != r
    ]
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
        self._counted: dict[int, dict[tuple[str, int], int]] = {}

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

    def count(
        self, tc: str, pid: int, pub: tuple[object, ...], reb: tuple[object, ...]
    ) -> tuple[str, ...]:
        """Where the published row counts other games than its breakdown holds, while the
        rebuilt row counts its own (a game deleted with its breakdown rows leaves the
        count)."""
        at = HISTORY_FIELDS.index("period_games")
        published = self._counts(self.pub_lines).get((tc, pid), 0)
        rebuilt = self._counts(self.reb_lines).get((tc, pid), 0)
        if pub[at] == published or reb[at] != rebuilt:
            return ()
        return (f"the list counts {pub[at]} game(s), the breakdown {published}",)

    def _counts(
        self, lines: Mapping[tuple[int, int], Mapping[str, object]]
    ) -> dict[tuple[str, int], int]:
        """Breakdown rows by list and player (counted once a period)."""
        found = self._counted.get(id(lines))
        if found is None:
            found = {}
            for (_, player), line in lines.items():
                key = (str(line.get("time_control")), player)
                found[key] = found.get(key, 0) + 1
            self._counted[id(lines)] = found
        return found

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
