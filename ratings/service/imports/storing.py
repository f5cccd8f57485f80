"""Storing an import: what every import (players, games, TRF, PGN, a FIDE list) shares.

A file's identity (its SHA-256, refused twice), the ``imports`` row, the history check for a
day, the events of an import inserted in bulk, the rated periods an import touches marked
for re-rating, and a file's rows checked one by one (:func:`line_errors`). The import use
cases (:mod:`ratings.service.imports`) build on these.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, rules
from ratings.errors import DuplicateImportError, InputFileError
from ratings.io.notes import FileWarning
from ratings.models import Event, Import
from ratings.rules import Period, is_long_event
from ratings.service.imports.report import Matching
from ratings.service.rating.marks import first_rated_start, mark_for_rerate
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import bulk_insert, date_param, utcnow


def content_hash(data: bytes) -> str:
    """SHA-256 of a file's bytes, the identity used to refuse re-imports."""
    return hashlib.sha256(data).hexdigest()


def earlier_import(session: Session, data_hash: str, file_name: str) -> Import | None:
    """The import in force of the same bytes, if any (an undone one does not count); a path
    longer than the ``imports`` table records (:data:`ratings.limits.MAX_FILE_NAME_LENGTH`)
    is refused."""
    if len(file_name) > limits.MAX_FILE_NAME_LENGTH:
        raise InputFileError(
            file_name,
            None,
            f"the file's path is longer than {limits.MAX_FILE_NAME_LENGTH} characters "
            f"({len(file_name)}); import it from a shorter path",
        )
    return session.scalar(
        sa.select(Import).where(Import.content_hash == data_hash, Import.undone_by.is_(None))
    )


def check_not_imported(session: Session, data_hash: str, file_name: str) -> None:
    """Refuse a file whose exact bytes were imported before (an import in force: an undone
    one may be imported again), or whose path is longer than
    the ``imports`` table records (:data:`ratings.limits.MAX_FILE_NAME_LENGTH`)."""
    earlier = earlier_import(session, data_hash, file_name)
    if earlier is not None:
        raise DuplicateImportError(
            f"{file_name}: this file was already imported on "
            f"{earlier.imported_at:%Y-%m-%d %H:%M} UTC (as {earlier.file_name}, import "
            f"{earlier.id}); nothing was imported"
        )


def record_import(session: Session, kind: str, file_name: str, data_hash: str, rows: int) -> int:
    """Store the import's identity; returns its id."""
    item = Import(
        kind=kind, file_name=file_name, content_hash=data_hash, imported_at=utcnow(), rows=rows
    )
    session.add(item)
    session.flush()
    return item.id


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import stored."""

    file_name: str
    players_created: int = 0
    events_created: int = 0
    games: int = 0
    rated_games: int = 0
    unrated_games: int = 0
    byes: int = 0
    skipped: int = 0
    marked_period: str | None = None
    """The oldest rated period the import touched (re-rated by the next ``ratings rate``)."""
    players_updated: int = 0
    """``import players --update``: registered players whose data the file changed."""
    players_unchanged: int = 0
    """``import players --update``: registered players the file matched, nothing changed."""
    changes: tuple[PlayerChange, ...] = ()
    """``import players --update``: every field changed, in file order."""
    warnings: tuple[FileWarning, ...] = ()
    """``import games``: what the import noticed but did not refuse the file for."""
    matching: Matching = field(default_factory=Matching)
    """Who the import took for whom (:mod:`ratings.service.imports.pipeline`)."""
    dry_run: bool = False
    """Nothing is kept: the caller rolls back."""
    same_as_import: int | None = None
    """``import players --update`` of bytes imported before: that import's id (nothing is
    recorded again; with nothing to change, nothing is written)."""


@dataclass(frozen=True, slots=True)
class PlayerChange:
    """One field of a registered player that ``import players --update`` changed."""

    line: int
    """The file's line."""
    player_id: int
    name: str
    """The player's name after the change."""
    field: str
    old: object
    new: object
    """The value now (kept: the sheet's value, not applied)."""
    corrected: int | None = None
    """The batch of the correction that gave the register ``old`` after the sheet was made
    (the sheet holds the value it replaced), if any."""
    kept: bool = False
    """The register's corrected value stayed (the default; ``--take-sheet`` applies the
    sheet's)."""


def insert_events(
    session: Session,
    events: Sequence[tuple[str, dt.date, dt.date]],
    source: str,
    import_id: int,
) -> list[int]:
    """Insert (name, start, end) events of one import; returns their ids, in order."""
    bulk_insert(
        session,
        "events",
        ("name", "start_date", "end_date", "source", "import_id"),
        (
            (name, date_param(session, start), date_param(session, end), source, import_id)
            for name, start, end in events
        ),
    )
    ids = list(
        session.scalars(sa.select(Event.id).where(Event.import_id == import_id).order_by(Event.id))
    )
    if len(ids) != len(events):  # pragma: no cover (the import's events are all new)
        raise AssertionError(f"expected {len(events)} events of import {import_id}: {len(ids)}")
    return ids


GAME_COLUMNS = (
    "event_id",
    "round",
    "played_on",
    "white_id",
    "black_id",
    "result",
    "rateable",
    "import_id",
)
"""The ``games`` columns an import writes, in the order of :func:`insert_games`' rows."""


def insert_games(session: Session, rows: Iterable[Sequence[object]]) -> None:
    """Insert an import's games in bulk, each row in the order of :data:`GAME_COLUMNS`
    (``rows`` may be a generator: they are taken in chunks)."""
    bulk_insert(session, "games", GAME_COLUMNS, rows)


def insert_event(
    session: Session, name: str, start: dt.date, end: dt.date, source: str, import_id: int
) -> int:
    """Insert one event of an import; returns its id."""
    result = session.execute(
        sa.insert(Event).returning(Event.id),
        [
            {
                "name": name,
                "start_date": start,
                "end_date": end,
                "source": source,
                "import_id": import_id,
            }
        ],
    )
    return int(result.scalar_one())


def set_time_control(session: Session, lists: Mapping[int, str]) -> None:
    """Give events (id -> standard, rapid or blitz) their list; standard is the default
    every event is inserted with, so only the others are written."""
    rows = [
        (rules.time_control(tc).value, event_id)
        for event_id, tc in lists.items()
        if rules.time_control(tc) is not rules.TimeControl.STANDARD
    ]
    if rows:
        conn = session.connection()
        mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
        conn.exec_driver_sql(f"UPDATE events SET time_control = {mark} WHERE id = {mark}", rows)


def first_rated_day(start: dt.date, end: dt.date) -> dt.date:
    """The day whose period is the first to rate an event's games: its end date, or for an
    event longer than 90 days (rated game by game, in the period each was played) its start."""
    return start if is_long_event(start, end) else end


def mark_touched(session: Session, ends: Sequence[dt.date]) -> str | None:
    """Mark the oldest rated period among the periods of these days (events' end dates, or
    :func:`first_rated_day`); a day before the rating history (a league's first games)
    marks the oldest rated period."""
    oldest = first_rated_start(session)
    if not ends or oldest is None:
        return None
    config = get_config(session)
    starts = sorted({max(Period.containing(day, config.period_months).start, oldest)
                     for day in ends})  # fmt: skip
    for start in starts:
        period = mark_for_rerate(session, start)
        if period is not None:
            return period.label
    return None


class _OnLine(Protocol):
    @property
    def line(self) -> int: ...


_Row = TypeVar("_Row", bound=_OnLine)


def line_errors(
    file_name: str, rows: Iterable[_Row], problem_of: Callable[[_Row], str | None], field: str
) -> list[InputFileError]:
    """An error for each row ``problem_of`` finds a problem with (None: none), on the row's
    line and in its ``field``."""
    found: list[InputFileError] = []
    for row in rows:
        problem = problem_of(row)
        if problem:
            found.append(InputFileError(file_name, row.line, problem, field))
    return found
