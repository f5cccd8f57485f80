"""Helpers shared by the use cases: settings, player lookup, periods, bulk SQL."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import (
    AmbiguousPlayerError,
    InvalidInputError,
    LimitError,
    PlayerNotFoundError,
)
from ratings.models import Player, RatingPeriod, Settings
from ratings.rules import Period, SystemConfig, system_config


def create_settings(session: Session, config: SystemConfig) -> Settings:
    """Store the rating system chosen at ``ratings init``."""
    settings = Settings(
        id=1,
        system=config.system.value,
        k_factor=config.k,
        start_rating=config.start_rating,
        expected_method=config.expected.value,
        period_months=config.period_months,
        closing_days=config.closing_days,
    )
    session.add(settings)
    session.flush()
    return settings


def get_config(session: Session) -> SystemConfig:
    """The database's rating system."""
    row = session.get(Settings, 1)
    if row is None:
        raise InvalidInputError("this database has no settings row; was it made by 'ratings init'?")
    return system_config(
        row.system,
        k=row.k_factor if row.system != "fide" or row.k_factor is not None else None,
        start_rating=row.start_rating,
        expected=row.expected_method,
        period_months=row.period_months,
        closing_days=row.closing_days,
    )


def utcnow() -> dt.datetime:
    """Now, as naive UTC (the schema's convention for timestamps)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


_FIDE_REF = re.compile(r"fide:(.*)", re.IGNORECASE | re.DOTALL)


def find_players(session: Session, ref: str) -> list[Player]:
    """Players matching a PLAYER argument: database id (ASCII digits), ``fide:NNN``, or exact
    name (case-insensitive). Merged-away records are left out.

    An id too large for a database integer matches nobody.

    :raises LimitError: for ``fide:`` followed by anything but a FIDE id
        (:func:`ratings.limits.fide_id`).
    """
    text = ref.strip()
    live = Player.merged_into_id.is_(None)
    if limits.is_ascii_digits(text):
        try:
            player = session.get(Player, limits.database_id(text, "player id"))
        except LimitError:
            return []  # too large for a database integer: no such player
        return [player] if player is not None and player.merged_into_id is None else []
    match = _FIDE_REF.fullmatch(text)
    if match:
        try:
            fide_id = limits.fide_id(match[1])
        except LimitError as exc:
            raise LimitError(f"player {ref!r}: {exc}") from None
        return list(session.scalars(sa.select(Player).where(live, Player.fide_id == fide_id)))
    return list(
        session.scalars(
            sa.select(Player)
            .where(live, sa.func.lower(Player.name) == text.lower())
            .order_by(Player.id)
        )
    )


def clean_text(value: str | None, limit: int, field: str) -> str | None:
    """Free text to store: surrounding blanks removed, blank is None, at most ``limit``
    characters and no control character (:mod:`ratings.limits`).

    :raises LimitError: ``field: problem``.
    """
    if value is None or not value.strip():
        return None
    try:
        return limits.check_text(value.strip(), limit)
    except LimitError as exc:
        raise LimitError(f"{field}: {exc}") from None


def game_label(white: str, black: str, day: dt.date) -> str:
    """The name of the event of its own that a game without one gets (SPEC 1.5):
    ``White - Black, YYYY-MM-DD``, with long names shortened (``...``) so that it fits
    :data:`ratings.limits.MAX_EVENT_LENGTH`. A label we build, not text the user gave: the
    names themselves are stored in full with the players."""
    tail = f", {day.isoformat()}"
    label = f"{white} - {black}{tail}"
    if len(label) <= limits.MAX_EVENT_LENGTH:
        return label
    room = (limits.MAX_EVENT_LENGTH - len(tail) - len(" - ")) // 2

    def cut(name: str) -> str:
        return name if len(name) <= room else name[: room - 3] + "..."

    return f"{cut(white)} - {cut(black)}{tail}"


def get_player(session: Session, ref: str) -> Player:
    """The one player a PLAYER argument names; raises if none or several match."""
    found = find_players(session, ref)
    if not found:
        raise PlayerNotFoundError(f"no player {ref!r}")
    if len(found) > 1:
        candidates = ", ".join(f"{p.id} ({p.name})" for p in found)
        raise AmbiguousPlayerError(
            f"{ref!r} matches {len(found)} players: {candidates}; use the id"
        )
    return found[0]


def period_of(session: Session, day: dt.date) -> Period:
    """The period of this database's length that holds ``day``."""
    return Period.containing(day, get_config(session).period_months)


def parse_period(session: Session, label: str) -> Period:
    """A ``YYYY-MM`` label as a period of this database's length."""
    return Period.from_string(label, get_config(session).period_months)


def rated_periods(session: Session) -> list[RatingPeriod]:
    """Every rated period, oldest first."""
    return list(session.scalars(sa.select(RatingPeriod).order_by(RatingPeriod.start_date)))


def first_rated_start(session: Session) -> dt.date | None:
    """Start of the oldest rated period, if any."""
    return session.scalar(sa.select(sa.func.min(RatingPeriod.start_date)))


def mark_for_rerate(session: Session, day: dt.date) -> RatingPeriod | None:
    """A correction touches the period holding ``day``: mark that rated period (or, for a
    day before every rated period, nothing: see :func:`check_not_before_history`).

    Returns the marked period, or None when ``day`` is after every rated period.
    """
    start = period_of(session, day).start
    period = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == start))
    if period is not None:
        period.status = "needs_rerate"
    return period


def mark_all_for_rerate(session: Session) -> RatingPeriod | None:
    """A correction to the register (entry data): re-rate from the oldest rated period."""
    period = session.scalar(sa.select(RatingPeriod).order_by(RatingPeriod.start_date).limit(1))
    if period is not None:
        period.status = "needs_rerate"
    return period


BULK_CHUNK = 50_000
"""Rows per executemany in :func:`bulk_insert`."""


def bulk_insert(
    session: Session, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """INSERT many rows through the driver's executemany: no ORM objects, no per-row
    SQLAlchemy processing (bulk paths: import, rate). Dates must be passed as ISO strings
    for SQLite (the format SQLAlchemy's Date type uses there)."""
    conn = session.connection()
    placeholder = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) "
        f"VALUES ({', '.join([placeholder] * len(columns))})"
    )
    # in chunks: a million rows are never all built at once
    chunks = iter(rows)
    while batch := list(itertools.islice(chunks, BULK_CHUNK)):
        conn.exec_driver_sql(sql, batch)


def fetch_all(session: Session, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    """The rows of a raw SELECT as the driver's plain tuples (bulk reads: rate).

    It runs on the session's own DBAPI connection, in its transaction; skipping SQLAlchemy's
    Row objects halves the cost of reading a 20,000-row list.
    """
    cursor = session.connection().connection.cursor()
    try:
        cursor.execute(sql, params)
        return list(cursor.fetchall())
    finally:
        cursor.close()


def date_param(session: Session, day: dt.date) -> Any:
    """A date as the driver wants it in raw SQL: ISO text for SQLite, a date elsewhere."""
    return day.isoformat() if session.connection().dialect.name == "sqlite" else day


def datetime_param(session: Session, value: dt.datetime) -> Any:
    """A naive datetime as the driver wants it in raw SQL: on SQLite the text SQLAlchemy's
    DateTime type stores (always six digits of microseconds), elsewhere the datetime."""
    if session.connection().dialect.name == "sqlite":
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    return value


def to_date(value: Any) -> dt.date:
    """A date read back through raw SQL (ISO text on SQLite)."""
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))
