"""Sealing the published lists (docs/DESIGN.md#sealed-lists): the seals ``rate`` writes, the
withdrawals ``unrate`` adds, and the chain as the database holds it.

Each list a rate publishes gets a seal (:mod:`ratings.sealing`): the SHA-256 of its canonical
rows, of the inputs it rated and of the seal of the list before it. The seals are append-only
(``list_seals``; triggers refuse UPDATE and DELETE): a list rated again with another outcome
(its rows, its inputs or the list before it sealed again) gets a new version that names the
version it replaces and the corrections logged since; a list no longer published gets a
``withdrawn`` version. A list that comes out the same keeps its seal.

Set-based: the rows, the games and the register are read with a few raw queries for all the
periods sealed at once, the register once per list; no ORM object per row or game.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules, sealing
from ratings.models import ListSeal
from ratings.rules import Period, SystemConfig
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import fetch_all, to_date, utcnow

__all__ = [
    "SealCounts",
    "chain",
    "current_log_position",
    "list_inputs",
    "list_rows",
    "record_of",
    "seal_lists",
    "seal_rows",
    "withdraw_lists",
]

_LISTS = tuple(tc.value for tc in rules.TIME_CONTROLS)


@dataclass(frozen=True, slots=True)
class SealCounts:
    """What a seal step wrote."""

    sealed: int = 0
    """Lists sealed for the first time."""
    resealed: int = 0
    """Lists given a new version (rated again with another outcome, or published again)."""
    withdrawn: int = 0
    """Lists given a ``withdrawn`` version."""
    kept: int = 0
    """Lists rated again that came out the same: their seal stays."""


# --- reading ---------------------------------------------------------------------------------


def record_of(row: ListSeal) -> sealing.SealRecord:
    """A seal's row as the plain record the chain's checks read."""
    inputs = None
    if row.kind == "sealed":
        inputs = {
            "games": row.games_digest or "",
            "byes": row.byes_digest or "",
            "register": row.register_digest or "",
            "settings": row.settings_digest or "",
        }  # a CHECK holds every digest of a sealed list
    return sealing.SealRecord(
        period=row.period,
        list_date=to_date(row.list_date),
        time_control=row.time_control,
        version=row.version,
        kind=row.kind,
        seal=row.seal,
        previous_seal=row.previous_seal,
        rows_digest=row.rows_digest,
        rows=row.rows,
        inputs_digest=row.inputs_digest,
        inputs=inputs,
        replaces=row.replaces,
        reason=row.reason,
        correction_batch=row.correction_batch,
        created=row.created.isoformat(timespec="seconds"),
    )


def seal_rows(session: Session, time_control: str | None = None) -> list[ListSeal]:
    """The seals' rows (of ``time_control``'s lists), in the order they were written."""
    query = sa.select(ListSeal).order_by(ListSeal.id)
    if time_control is not None:
        query = query.where(ListSeal.time_control == time_control)
    return list(session.scalars(query))


def chain(session: Session, time_control: str | None = None) -> list[sealing.SealRecord]:
    """Every version of every list's seal (of ``time_control``'s lists), in the order they
    were written."""
    return [record_of(row) for row in seal_rows(session, time_control)]


def current_log_position(session: Session) -> int:
    """The highest ``corrections.id`` (0: the log is empty)."""
    return int(session.scalar(sa.text("SELECT coalesce(max(id), 0) FROM corrections")) or 0)


# --- the canonical tables --------------------------------------------------------------------


_ROW_LINE = {
    "sqlite": (
        "player_id || ',' || rating_after || ',' || CASE WHEN list_status = 'first_rating' "
        "THEN '' ELSE change END || ',' || period_games || ',' || coalesce(total_games, '') "
        "|| ',' || coalesce(next_k, '') || ',' || CASE WHEN k10 THEN 'true' ELSE 'false' END "
        "|| ',' || list_status || char(10)"
    ),
    "postgresql": (
        "player_id::text || ',' || rating_after::text || ',' || CASE WHEN list_status = "
        "'first_rating' THEN '' ELSE change::text END || ',' || period_games::text || ',' || "
        "coalesce(total_games::text, '') || ',' || coalesce(next_k::text, '') || ',' || "
        "CASE WHEN k10 THEN 'true' ELSE 'false' END || ',' || list_status || chr(10)"
    ),
}
"""One line of :func:`ratings.sealing.rows_text`, made in SQL (the seal step reads every list
of a rate: formatting 20,000 rows a period in Python was most of its time).
``tests/rating/test_seals.py::test_the_sql_rows_are_the_canonical_rows`` holds the two to one
text."""

_LIST_SQL = {
    # SQLite never flattens an ordered subquery into an aggregate (its rule 16), so
    # group_concat takes the rows in the subquery's order
    "sqlite": (
        "SELECT group_concat(line, ''), count(line), group_concat(player_id, ',') FROM "
        "(SELECT player_id, CASE WHEN rating_after IS NULL THEN NULL ELSE {line} END AS line "
        "FROM rating_history WHERE period_id = {period_id} AND time_control = '{tc}' "
        "ORDER BY player_id)"
    ),
    "postgresql": (
        "SELECT string_agg(line, '' ORDER BY player_id), count(line), "
        "string_agg(player_id::text, ',' ORDER BY player_id) FROM "
        "(SELECT player_id, CASE WHEN rating_after IS NULL THEN NULL ELSE {line} END AS line "
        "FROM rating_history WHERE period_id = {period_id} AND time_control = '{tc}') AS h"
    ),
}


def list_rows(session: Session, period_id: int, time_control: str) -> tuple[str, int, list[str]]:
    """A stored list's canonical rows (:func:`ratings.sealing.rows_text`), its rated rows and
    every player with a row on it, as text ids (the register's part of its inputs)."""
    dialect = session.connection().dialect.name
    ((text, count, ids),) = fetch_all(
        session,
        _LIST_SQL[dialect].format(
            line=_ROW_LINE[dialect], period_id=int(period_id), tc=_checked(time_control)
        ),
    )
    if ids is None:
        return sealing.rows_text(()), 0, []
    return f"{sealing.ROWS_HEADER}\n{text or ''}", int(count), str(ids).split(",")


def _checked(time_control: str) -> str:
    if time_control not in _LISTS:
        raise ValueError(f"unknown list: {time_control!r}")
    return time_control


class _Inputs:
    """The inputs of the lists of some periods, read once: the settings, the events and which
    period rates each, the register's lines per list."""

    def __init__(self, session: Session, config: SystemConfig) -> None:
        self.session = session
        self.config = config
        (settings,) = fetch_all(
            session,
            "SELECT system, k_factor, start_rating, expected_method, period_months, "
            "closing_days FROM settings",
        )
        self.settings = sealing.digest(
            sealing.table_text(sealing.SETTINGS_HEADER, [sealing.row_line(settings)])
        )
        self.register: dict[str, dict[str, str]] = {}
        # event id -> (list, period start or None for a league rated game by game, end day)
        self.events: dict[int, tuple[str, dt.date | None, dt.date]] = {}
        for eid, start, end, given, tc in fetch_all(
            session, "SELECT id, start_date, end_date, rating_period, time_control FROM events"
        ):
            period = rules.event_rating_period(
                config, to_date(start), to_date(end), None if given is None else to_date(given)
            )
            self.events[eid] = (tc, None if period is None else period.start, to_date(end))

    def register_lines(self, time_control: str) -> dict[str, str]:
        """Each player's line of the register's table for the list ``time_control``, by the
        player's id as text (as :func:`list_rows` gives them)."""
        found = self.register.get(time_control)
        if found is None:
            prefix = "" if time_control == "standard" else f"{time_control}_"
            inactive = "fide_inactive_list" if time_control == "standard" else "NULL"
            rows = fetch_all(
                self.session,
                f"SELECT id, birth_year, {prefix}entry_rating, {prefix}entry_games, "
                f"{prefix}k10, {prefix}fide_k, fide_k_list, {inactive}, listed_from, "
                "merged_into_id FROM players",
            )
            found = {
                str(row[0]): sealing.row_line(
                    (*row[:4], bool(row[4]), row[5], *map(_iso, row[6:9]), row[9])
                )
                for row in rows
            }
            self.register[time_control] = found
        return found

    def games(
        self, wanted: Mapping[dt.date, Period]
    ) -> tuple[dict[tuple[dt.date, str], list[str]], dict[tuple[dt.date, str], list[str]]]:
        """The games' and the byes' lines of the periods ``wanted`` (by start), by (period
        start, list), in id order."""
        games: dict[tuple[dt.date, str], list[str]] = {}
        byes: dict[tuple[dt.date, str], list[str]] = {}
        ids = sorted(
            eid for eid, (_, start, _) in self.events.items() if start is None or start in wanted
        )
        for chunk in _chunks(ids):
            listed = ", ".join(str(i) for i in chunk)
            for row in fetch_all(
                self.session,
                "SELECT g.id, g.event_id, e.start_date, e.end_date, e.rating_period, "
                "g.played_on, g.white_id, g.black_id, g.result, g.rateable FROM games g "
                f"JOIN events e ON e.id = g.event_id WHERE g.event_id IN ({listed})",
            ):
                gid, eid, e_start, e_end, given, played, white, black, result, rateable = row
                tc, start, _ = self.events[eid]
                if start is None:
                    start = self.config.rating_period(to_date(played)).start
                if start in wanted:
                    # sealing.row_line's values, written directly (250,000 games a rate
                    # from scratch): integers, ISO dates, a result holds no comma
                    games.setdefault((start, tc), []).append(
                        f"{gid},{eid},{_iso(e_start)},{_iso(e_end)},{_iso(given)},"
                        f"{_iso(played)},{white},{black},{result},"
                        f"{'true' if rateable is True or rateable == 1 else 'false'}"
                    )
            for bye_id, eid, pid, code in fetch_all(
                self.session,
                f"SELECT id, event_id, player_id, code FROM byes WHERE event_id IN ({listed})",
            ):
                tc, start, end = self.events[eid]
                # a league's byes have no date: they go with the period of its end date
                start = start or self.config.rating_period(end).start
                if start in wanted:
                    byes.setdefault((start, tc), []).append(
                        sealing.row_line((bye_id, eid, pid, code))
                    )
        for lines in (*games.values(), *byes.values()):
            lines.sort(key=lambda line: int(line.split(",", 1)[0]))
        return games, byes


def _iso(value: object) -> str:
    """A date read through raw SQL, as the canonical form writes it: ISO text (SQLite stores
    it so), nothing for NULL."""
    if value is None:
        return ""
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _chunks(ids: Sequence[int], size: int = 500) -> Iterator[Sequence[int]]:
    for i in range(0, len(ids), size):
        yield ids[i : i + size]


def list_inputs(
    session: Session, periods: Sequence[Period], *, config: SystemConfig | None = None
) -> Iterator[tuple[Period, str, dict[str, str], str, int]]:
    """For each stored list of ``periods`` (oldest first, standard then rapid then blitz):
    the period, the list, the digests of its inputs' parts, its canonical rows and their
    count. A list with no row is skipped."""
    config = config or get_config(session)
    inputs = _Inputs(session, config)
    wanted = {p.start: p for p in periods}
    games, byes = inputs.games(wanted)
    ids = _period_ids(session)
    empty = sealing.digest(sealing.table_text(sealing.GAMES_HEADER, []))
    no_byes = sealing.digest(sealing.table_text(sealing.BYES_HEADER, []))
    for period in periods:
        period_id = ids.get(period.start)
        if period_id is None:
            continue
        for tc in _LISTS:
            text, count, players = list_rows(session, period_id, tc)
            if not players:
                continue
            lines = inputs.register_lines(tc)
            key = (period.start, tc)
            parts = {
                "games": _table(sealing.GAMES_HEADER, games.get(key), empty),
                "byes": _table(sealing.BYES_HEADER, byes.get(key), no_byes),
                "register": sealing.digest(
                    sealing.table_text(sealing.REGISTER_HEADER, map(lines.__getitem__, players))
                ),
                "settings": inputs.settings,
            }
            yield period, tc, parts, text, count


def _table(header: str, lines: list[str] | None, empty: str) -> str:
    return empty if not lines else sealing.digest(sealing.table_text(header, lines))


def _period_ids(session: Session) -> dict[dt.date, int]:
    return {
        to_date(start): int(pid)
        for pid, start in fetch_all(session, "SELECT id, start_date FROM rating_periods")
    }


# --- writing ---------------------------------------------------------------------------------


class _Chain:
    """The seals as stored, and the new versions a seal step adds, in order."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.current = {(r.time_control, r.period): r for r in seal_rows(session)}
        self.log_position = current_log_position(session)
        self.now = utcnow()
        self.new: list[dict[str, object]] = []
        self._since: dict[int, tuple[int | None, str]] = {}

    def behind(self, position: int) -> tuple[int | None, str]:
        """The newest correction batch logged after ``position``, and the corrections told."""
        found = self._since.get(position)
        if found is None:
            rows = fetch_all(
                self.session,
                "SELECT batch, min(action) FROM corrections WHERE id > "
                f"{int(position)} GROUP BY batch ORDER BY batch",
            )
            if not rows:
                found = (None, "")
            else:
                told = ", ".join(f"batch {batch} ({action})" for batch, action in rows[-5:])
                more = f"{len(rows) - 5} earlier and " if len(rows) > 5 else ""
                word = "correction" if len(rows) == 1 else "corrections"
                found = (int(rows[-1][0]), f"after {word} {more}{told}")
            self._since[position] = found
        return found

    def add(self, values: dict[str, object]) -> None:
        values.update(log_position=self.log_position, created=self.now)
        self.new.append(values)

    def write(self) -> None:
        if self.new:
            self.session.execute(sa.insert(ListSeal), self.new)


def seal_lists(
    session: Session,
    *,
    since: dt.date | None = None,
    config: SystemConfig | None = None,
    cause: str | None = None,
) -> SealCounts:
    """Seal the stored lists from the period starting ``since`` (the first a rate rated; None:
    none) on, and every earlier list that has no seal (published before lists were sealed):
    a list with no seal gets version 1; a list whose rows, inputs or previous list's seal
    differ from its current version's gets a new version; a sealed list no longer stored
    gets a ``withdrawn`` version; the rest keep theirs. ``cause``: what changed the lists, when
    it was not a rate (``import undo``), for the new versions' reason."""
    config = config or get_config(session)
    months = config.period_months
    stored = [
        (Period(to_date(start), months), str(label), to_date(list_date))
        for start, label, list_date in fetch_all(
            session, "SELECT start_date, label, list_date FROM rating_periods ORDER BY start_date"
        )
    ]
    state = _Chain(session)
    first = _first_to_seal(session, state, stored, since)
    if first is None:
        return SealCounts()
    todo = [p for p, _, _ in stored if p.start >= first]
    last: dict[str, str | None] = {tc: None for tc in _LISTS}
    for (tc, label), r in sorted(state.current.items(), key=lambda item: item[0][1]):
        if r.kind == "sealed" and label < todo[0].label:
            last[tc] = r.seal
    counts = {"sealed": 0, "resealed": 0, "withdrawn": 0, "kept": 0}
    written: set[tuple[str, str]] = set()
    for period, tc, parts, text, count in list_inputs(session, todo, config=config):
        written.add((tc, period.label))
        kind = _seal_one(state, period, tc, parts, text, count, last, since, cause)
        counts[kind] += 1
    for stored_period, label, list_date in stored:
        if stored_period.start >= first:
            for tc in _LISTS:
                old = state.current.get((tc, label))
                if (tc, label) not in written and old is not None and old.kind == "sealed":
                    why = cause or "the re-rate publishes no such list"
                    _withdraw(state, old, list_date, why)
                    counts["withdrawn"] += 1
    state.write()
    return SealCounts(**counts)


def _first_to_seal(
    session: Session,
    state: _Chain,
    stored: Sequence[tuple[Period, str, dt.date]],
    since: dt.date | None,
) -> dt.date | None:
    """The first period to seal: ``since``, or an earlier one with a stored list and no
    current seal."""
    ids = _period_ids(session)
    for period, label, _ in stored:
        if since is not None and period.start >= since:
            break
        for tc in _LISTS:
            r = state.current.get((tc, label))
            if r is not None and r.kind == "sealed":
                continue
            if fetch_all(
                session,
                f"SELECT 1 FROM rating_history WHERE period_id = {ids[period.start]} "
                f"AND time_control = '{tc}' LIMIT 1",
            ):
                return period.start
    return since


def _seal_one(
    state: _Chain,
    period: Period,
    tc: str,
    parts: dict[str, str],
    text: str,
    count: int,
    last: dict[str, str | None],
    since: dt.date | None,
    cause: str | None = None,
) -> str:
    rows_digest = sealing.digest(text)
    inputs_digest = sealing.digest(sealing.inputs_text(tc, period.label, period.list_date, parts))
    previous = last[tc]
    old = state.current.get((tc, period.label))
    if (
        old is not None
        and old.kind == "sealed"
        and (old.rows_digest, old.inputs_digest, old.previous_seal)
        == (rows_digest, inputs_digest, previous)
    ):
        last[tc] = old.seal
        return "kept"
    version = 1 if old is None else old.version + 1
    seal = sealing.digest(
        sealing.seal_text(
            tc, period.label, period.list_date, version, rows_digest, inputs_digest, previous
        )
    )
    batch: int | None = None
    if old is None:
        rated_now = since is not None and period.start >= since
        reason = None if rated_now else "published before lists were sealed"
        kind = "sealed"
    else:
        batch, behind = state.behind(old.log_position)
        behind = behind or f"no correction logged since version {old.version}"
        if old.kind == "withdrawn":
            reason = f"published again after version {old.version} withdrew it; {behind}"
        else:
            changed = [
                name
                for name, differs in (
                    ("its rows", old.rows_digest != rows_digest),
                    ("its inputs", old.inputs_digest != inputs_digest),
                    ("the previous list's seal", old.previous_seal != previous),
                )
                if differs
            ]
            reason = f"{cause or 'rated again'}: {' and '.join(changed)} changed; {behind}"
        kind = "resealed"
    state.add(
        {
            "period": period.label, "list_date": period.list_date, "time_control": tc,
            "version": version, "kind": "sealed", "seal": seal, "previous_seal": previous,
            "rows_digest": rows_digest, "rows": count, "inputs_digest": inputs_digest,
            "games_digest": parts["games"], "byes_digest": parts["byes"],
            "register_digest": parts["register"], "settings_digest": parts["settings"],
            "replaces": None if old is None else old.version, "reason": reason,
            "correction_batch": batch,
        }
    )  # fmt: skip
    last[tc] = seal
    return kind


def _withdraw(state: _Chain, old: ListSeal, list_date: dt.date, why: str) -> None:
    batch, behind = state.behind(old.log_position)
    behind = behind or f"no correction logged since version {old.version}"
    version = old.version + 1
    state.add(
        {
            "period": old.period, "list_date": list_date, "time_control": old.time_control,
            "version": version, "kind": "withdrawn",
            "seal": sealing.digest(
                sealing.withdrawal_text(old.time_control, old.period, list_date, version, old.seal)
            ),
            "previous_seal": None, "rows_digest": None, "rows": None, "inputs_digest": None,
            "games_digest": None, "byes_digest": None, "register_digest": None,
            "settings_digest": None, "replaces": old.version, "reason": f"{why}; {behind}",
            "correction_batch": batch,
        }
    )  # fmt: skip


def withdraw_lists(session: Session, labels: Iterable[str], why: str) -> int:
    """Add a ``withdrawn`` version to every sealed list of the periods ``labels`` (``ratings
    unrate``, after its line in the corrections log); returns how many."""
    state = _Chain(session)
    wanted = set(labels)
    done = 0
    for (_, label), old in sorted(state.current.items()):
        if label in wanted and old.kind == "sealed":
            _withdraw(state, old, to_date(old.list_date), why)
            done += 1
    state.write()
    return done
