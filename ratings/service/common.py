"""Helpers shared by the use cases: settings, player lookup, periods, bulk SQL."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, rules
from ratings.errors import (
    AmbiguousPlayerError,
    InvalidInputError,
    InvalidNameError,
    LimitError,
    PlayerMergedError,
    PlayerNotFoundError,
)
from ratings.gc_pause import without_cycle_collection as without_cycle_collection
from ratings.models import Correction, Event, Game, Player, RatingHistory, RatingPeriod, Settings
from ratings.names import key_of_stored, name_key
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
    """Players matching a PLAYER argument: database id (ASCII digits), ``fide:NNN``, or a
    name, compared by its key (:func:`ratings.names.name_key`: any case, any Unicode normal
    form, any spacing), the one rule every path uses. Merged-away records are left out; a
    FIDE id that a merged-away record holds finds the player it was merged into.

    An id too large for a database integer, and a name with characters no name may hold,
    match nobody.

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
        holder = session.scalar(sa.select(Player).where(Player.fide_id == fide_id))
        live_holder = merged_target(session, holder) if holder is not None else None
        return [live_holder] if live_holder is not None else []
    try:
        key = name_key(text)
    except InvalidNameError:
        return []
    return list(
        session.scalars(sa.select(Player).where(live, Player.name_key == key).order_by(Player.id))
    )


def merged_target(session: Session, player: Player) -> Player:
    """The live player a record stands for: itself, or the player it was merged into
    (following merges of merges)."""
    seen = {player.id}
    while player.merged_into_id is not None:
        player = session.get_one(Player, player.merged_into_id)
        if player.id in seen:  # pragma: no cover (merge refuses cycles)
            raise AssertionError(f"merge cycle at player {player.id}")
        seen.add(player.id)
    return player


def describe(player: Player) -> str:
    """A player for messages that tell people of one name apart:
    ``3 (Öberg, Åsa, FIDE 1234567, born 1990-04-02)``."""
    parts = [player.name]
    if player.fide_id is not None:
        parts.append(f"FIDE {player.fide_id}")
    born = player.birth_date.isoformat() if player.birth_date else player.birth_year
    if born is not None:
        parts.append(f"born {born}")
    return f"{player.id} ({', '.join(parts)})"


SUGGEST_FROM_ALL = 20_000
"""Registers up to this size are matched whole when a name finds nobody; in larger ones
only the players whose names share a word with the one asked for."""


def merged_record(session: Session, ref: str) -> tuple[Player, Player, int | None] | None:
    """When a PLAYER argument names a record merged into another one (its id, or a name that
    only merged records have): (that record, the live player it was merged into, the merge's
    batch in the corrections log); else None."""
    text = ref.strip()
    record: Player | None = None
    if limits.is_ascii_digits(text):
        try:
            record = session.get(Player, limits.database_id(text, "player id"))
        except LimitError:
            return None
    elif not _FIDE_REF.fullmatch(text):
        try:
            key = name_key(text)
        except InvalidNameError:
            return None
        records = list(
            session.scalars(
                sa.select(Player)
                .where(Player.name_key == key, Player.merged_into_id.is_not(None))
                .order_by(Player.id)
            )
        )
        record = records[0] if len(records) == 1 else None
    if record is None or record.merged_into_id is None:
        return None
    batch = session.scalar(
        sa.select(sa.func.max(Correction.batch)).where(
            Correction.action == "player_merge",
            Correction.player_id == record.id,
            Correction.field == "merged_into_id",
        )
    )
    return record, merged_target(session, record), batch


def _merged_message(record: Player, kept: Player, batch: int | None) -> str:
    where = f" (correction {batch})" if batch is not None else ""
    return f"player {record.id} was merged into {kept.id}{where}"


def _matched(session: Session, ref: str) -> tuple[Any, Any] | None:
    """What the matcher (:mod:`ratings.matching`) says about a name that no player's key
    finds: (the match, the identities asked), or None for ids and unusable names."""
    from ratings.matching import Facts
    from ratings.service.identity import load_identities

    text = ref.strip()
    if limits.is_ascii_digits(text) or _FIDE_REF.fullmatch(text):
        return None
    try:
        name_key(text)
    except InvalidNameError:
        return None
    live = Player.merged_into_id.is_(None)
    total = session.scalar(sa.select(sa.func.count()).select_from(Player).where(live)) or 0
    if total > SUGGEST_FROM_ALL:
        # a world-sized register: only the players sharing a word (as typed) with the name
        words = [w for w in key_of_stored(text).replace(",", " ").split() if len(w) >= 3]
        if not words:
            return None
        ids = session.scalars(
            sa.select(Player.id)
            .where(live, sa.or_(*(Player.name_key.contains(w, autoescape=True) for w in words)))
            .limit(SUGGEST_FROM_ALL)
        )
        identities = load_identities(session, ids=list(ids))
    else:
        identities = load_identities(session)
    return identities.match(Facts(text)), identities


def suggestions(session: Session, ref: str) -> list[Player]:
    """Registered players a failed lookup by name may have meant, best first (the matcher's
    candidates: the same name folded, an alias, initials, missing words, typos); none for
    ids."""
    found = _matched(session, ref)
    if found is None:
        return []
    match, _ = found
    ids = [c.player_id for c in match.candidates[:3]]
    if not ids:
        return []
    players = {p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(ids)))}
    return [players[pid] for pid in ids if pid in players]


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
    """The name of the event of its own that a game without one gets
    (docs/RULES.md#which-ratings-a-game-uses):
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
    """The one player a PLAYER argument names (:func:`find_players`); a name no player's key
    finds is one player when the matcher is certain (:mod:`ratings.matching`: an alias, or
    the one player whose name folds alike, ``Novak, Jiri`` for ``Novák, Jiří``).

    :raises PlayerMergedError: for a record merged into another one (``player 42 was merged
        into 10 (correction 7)``): reading commands show the player kept
        (:func:`get_player_to_read`), writing commands refuse.
    :raises PlayerNotFoundError: when none matches, suggesting the matcher's candidates
        (``no player 'Elrad, Carl'; did you mean Elard, Carl (id 1)?``).
    :raises AmbiguousPlayerError: when several do, listing them with what tells them apart.
    """
    found = find_players(session, ref)
    if len(found) > 1:
        candidates = ", ".join(describe(p) for p in found)
        raise AmbiguousPlayerError(
            f"{ref!r} matches {len(found)} players: {candidates}; use the id"
        )
    if found:
        return found[0]
    merged = merged_record(session, ref)
    if merged is not None:
        record, kept, batch = merged
        raise PlayerMergedError(
            f"{_merged_message(record, kept, batch)}; give player {kept.id}",
            record.id,
            kept.id,
            batch,
        )
    matched = _matched(session, ref)
    if matched is not None and matched[0].certain is not None:
        return session.get_one(Player, matched[0].certain.player_id)
    ids = [] if matched is None else [c.player_id for c in matched[0].candidates[:3]]
    hint = ""
    if ids:
        assert matched is not None
        names = matched[1].names
        hint = "; did you mean " + " or ".join(f"{names[i]} (id {i})" for i in ids) + "?"
    raise PlayerNotFoundError(f"no player {ref!r}{hint}")


def get_player_to_read(session: Session, ref: str) -> tuple[Player, str | None]:
    """:func:`get_player` for reading commands: a merged record's id or name gives the
    player it was merged into, with the note to show
    (``player 42 was merged into 10 (correction 7): showing 10``)."""
    try:
        return get_player(session, ref), None
    except PlayerMergedError as exc:
        kept = session.get_one(Player, exc.kept_id)
        where = f" (correction {exc.batch})" if exc.batch is not None else ""
        note = f"player {exc.merged_id} was merged into {kept.id}{where}: showing {kept.id}"
        return kept, note


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


def joining_list(session: Session) -> dt.date | None:
    """``players.listed_from`` of a player registered now: the first day of the period after
    the newest rated one, whose list is the first to show the player without a game (a
    published list does not gain players registered after it, docs/DESIGN.md#who-is-on-a-list);
    None before any period is rated (on every list)."""
    newest = session.scalar(sa.select(sa.func.max(RatingPeriod.start_date)))
    if newest is None:
        return None
    return Period(to_date(newest), get_config(session).period_months).next().start


_TOUCHED = "ratings.touched_periods"
"""``Session.info`` key: the rated periods this unit of work marked (:func:`mark_period`)."""


def mark_period(session: Session, period: RatingPeriod) -> RatingPeriod:
    """Mark a rated period for a re-rate, and note that this unit of work touched it (already
    marked or not): :func:`touched_period` names the earliest."""
    period.status = "needs_rerate"
    session.info.setdefault(_TOUCHED, {})[period.start_date] = period.label
    return period


def touched_period(session: Session) -> str | None:
    """The earliest rated period that this unit of work (one command) marked for a re-rate,
    whether or not an earlier correction had marked it already: what ``This touches rated
    period P`` names (issue 28, item 2). None when it marked none."""
    touched: dict[dt.date, str] = session.info.get(_TOUCHED, {})
    return touched[min(touched)] if touched else None


def mark_for_rerate(session: Session, day: dt.date) -> RatingPeriod | None:
    """A correction touches the period that rates a result of ``day`` (an event's end, a
    league game's day): mark that rated period (or, for a day before every rated period,
    nothing: see :func:`check_not_before_history`). The closing date applies (art. 7.1.3:
    a day after it goes to the next period).

    Returns the marked period, or None when ``day`` is after every rated period.
    """
    start = get_config(session).rating_period(day).start
    period = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == start))
    return None if period is None else mark_period(session, period)


def mark_all_for_rerate(session: Session) -> RatingPeriod | None:
    """Re-rate from the oldest rated period (a change to every period's inputs)."""
    period = session.scalar(sa.select(RatingPeriod).order_by(RatingPeriod.start_date).limit(1))
    return None if period is None else mark_period(session, period)


def mark_from_first_listing(
    session: Session, player_ids: Sequence[int], time_controls: Sequence[str] | None = None
) -> RatingPeriod | None:
    """A correction to these players' register entries (entry data, birth data) touches the
    periods that list them or rate a game of theirs: mark the first such rated period. None
    when no rated period has them.

    The first period that lists a player on *any* list, even for the entry data of one list
    (``time_controls``: the lists whose games count): a rapid rating given to a player
    starts the rapid list, and his rows on it, from the first period that lists him at all,
    which may be before the rapid list's first period (found by the one-answer state
    machine: the rapid list of a period with no rapid game appeared only in a rebuild)."""
    days: list[dt.date] = []
    games = Event.time_control.in_(list(time_controls)) if time_controls else sa.true()
    config = get_config(session)
    for i in range(0, len(player_ids), 500):
        chunk = list(player_ids[i : i + 500])
        found = session.scalar(
            sa.select(sa.func.min(RatingPeriod.start_date))
            .join(RatingHistory, RatingHistory.period_id == RatingPeriod.id)
            .where(RatingHistory.player_id.in_(chunk))
        )
        if found is not None:
            days.append(to_date(found))
        for start, end, given, first in session.execute(
            sa.select(
                Event.start_date, Event.end_date, Event.rating_period, sa.func.min(Game.played_on)
            )
            .join(Game, Game.event_id == Event.id)
            .where(sa.or_(Game.white_id.in_(chunk), Game.black_id.in_(chunk)), games)
            .group_by(Event.id, Event.start_date, Event.end_date, Event.rating_period)
        ):
            given_day = None if given is None else to_date(given)
            days.append(
                rules.game_rating_period(
                    config, to_date(start), to_date(end), given_day, to_date(first)
                ).start
            )
    for day in sorted(set(days)):
        period = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == day))
        if period is not None:
            return mark_period(session, period)
    return None


def mark_joining(session: Session, player: Player) -> RatingPeriod | None:
    """A player who (re)joins the lists without a game (``players.listed_from``, a merge
    undone): mark the first rated period whose list takes the player (None: no such
    rated period)."""
    query = sa.select(RatingPeriod).order_by(RatingPeriod.start_date).limit(1)
    if player.listed_from is not None:
        query = query.where(RatingPeriod.start_date >= player.listed_from)
    period = session.scalar(query)
    return None if period is None else mark_period(session, period)


BULK_CHUNK = 50_000
"""Rows per executemany in :func:`bulk_insert`."""


def list_name(time_control: str) -> str:
    """The checked value of a ``--list`` option: standard, rapid or blitz.

    :raises InvalidInputError: any other word."""
    try:
        return rules.time_control(time_control).value
    except rules.InvalidTimeControlError:
        raise InvalidInputError(
            f"unknown list: {time_control!r} (use standard, rapid or blitz)"
        ) from None


def bulk_insert(
    session: Session, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """INSERT many rows through the driver's executemany (SQLite) or COPY (PostgreSQL,
    :func:`copy_rows`): no ORM objects, no per-row SQLAlchemy processing (bulk paths:
    import, rate). Dates must be passed as ISO strings for SQLite (the format SQLAlchemy's
    Date type uses there)."""
    conn = session.connection()
    if conn.dialect.name == "postgresql":
        copy_rows(session, table, columns, rows)
        return
    placeholder = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (
        f"INSERT INTO {table} ({', '.join(columns)}) "
        f"VALUES ({', '.join([placeholder] * len(columns))})"
    )
    # in chunks: a million rows are never all built at once
    chunks = iter(rows)
    while batch := list(itertools.islice(chunks, BULK_CHUNK)):
        conn.exec_driver_sql(sql, batch)


def copy_rows(
    session: Session, table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> None:
    """PostgreSQL: many rows through ``COPY ... FROM STDIN`` on the session's connection, in
    its transaction (rating 24 periods of 20,000 players took 17.2 s instead of 23.8 s with
    executemany's pipeline, one run each). The rows stream: none is held beyond the one
    being written. A driver error comes out as SQLAlchemy's, as from any other statement
    (the CLI turns an ``OperationalError`` into ``Error: ...``)."""
    import psycopg  # PostgreSQL only

    conn = session.connection()
    raw = conn.connection.dbapi_connection
    assert isinstance(raw, psycopg.Connection)
    sql = f"COPY {table} ({', '.join(columns)}) FROM STDIN"
    try:
        with raw.cursor() as cursor, cursor.copy(sql) as copy:
            for row in rows:
                copy.write_row(row)
    except psycopg.Error as exc:
        raise sa.exc.DBAPIError.instance(sql, None, exc, psycopg.Error) from None


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


def claim_players(session: Session, import_id: int, player_ids: Iterable[int]) -> None:
    """Record that import ``import_id`` registered ``player_ids`` (``players.import_id``),
    so that ``ratings import undo`` can remove them with it."""
    ids = [int(p) for p in player_ids]
    conn = session.connection()
    for i in range(0, len(ids), 500):
        marks = ", ".join(str(p) for p in ids[i : i + 500])
        conn.exec_driver_sql(
            f"UPDATE players SET import_id = {int(import_id)} WHERE id IN ({marks})"
        )
