"""Recording results: single games, corrections, and bulk imports of players and games."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import (
    DuplicateImportError,
    InputFileError,
    InputFileErrors,
    InvalidInputError,
    PeriodError,
)
from ratings.io.csv import GameRow
from ratings.models import Event, Game, Import, Player, RatingBreakdown
from ratings.names import closest, key_of_stored
from ratings.results import Result
from ratings.rules import Period, is_long_event
from ratings.service import audit
from ratings.service.common import (
    bulk_insert,
    clean_text,
    date_param,
    first_rated_start,
    game_label,
    get_config,
    get_player,
    mark_for_rerate,
    period_of,
    utcnow,
)
from ratings.service.dates import check_not_future, future_problem
from ratings.service.logged import game_lines
from ratings.service.moves import EventMoveError, event_move, follow_games, games_span


def content_hash(data: bytes) -> str:
    """SHA-256 of a file's bytes, the identity used to refuse re-imports."""
    return hashlib.sha256(data).hexdigest()


def check_not_imported(session: Session, data_hash: str, file_name: str) -> None:
    """Refuse a file whose exact bytes were imported before, or whose path is longer than
    the ``imports`` table records (:data:`ratings.limits.MAX_FILE_NAME_LENGTH`)."""
    if len(file_name) > limits.MAX_FILE_NAME_LENGTH:
        raise InputFileError(
            file_name,
            None,
            f"the file's path is longer than {limits.MAX_FILE_NAME_LENGTH} characters "
            f"({len(file_name)}); import it from a shorter path",
        )
    earlier = session.scalar(sa.select(Import).where(Import.content_hash == data_hash))
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


def history_error(session: Session, day: dt.date) -> str | None:
    """Why a game rated in the period of ``day`` cannot be stored, or None if it can.

    A period older than the oldest rated period would need lists that were never made.
    """
    oldest = first_rated_start(session)
    if oldest is None:
        return None
    period = period_of(session, day)
    if period.start < oldest:
        oldest_label = f"{oldest:%Y-%m}"
        return (
            f"{day.isoformat()} falls in period {period.label}, before the oldest rated period "
            f"{oldest_label}; the rating history it needs does not exist"
        )
    return None


# --- single games -------------------------------------------------------------------------


def _event_for(session: Session, name: str | None, day: dt.date, label: str) -> Event:
    if name:
        event = session.scalar(
            sa.select(Event).where(Event.name == name).order_by(Event.id.desc()).limit(1)
        )
        if event is not None:
            return event
    event = Event(name=name or label, start_date=day, end_date=day, source="manual")
    session.add(event)
    session.flush()
    return event


def _refresh_event(
    session: Session,
    event: Event,
    old: tuple[dt.date, dt.date],
    before: tuple[dt.date, dt.date] | None,
    *,
    allow_move: bool,
    confirm_any: bool,
    game_days: Sequence[dt.date] = (),
) -> None:
    """After a change to an event's games: set its dates from them (the sides they set follow
    them, :func:`ratings.service.moves.follow_games`); mark the rated periods whose lists the
    change touches; refuse a change that reaches before the rating history.

    :param old: the event's dates before the change.
    :param before: its games' first and last day before the change.
    :param allow_move: False: a change of the event's dates raises
        :class:`~ratings.service.moves.EventMoveError` (any change with ``confirm_any``,
        else one that sends its games to another period or list), with the session's work
        to be rolled back.
    :param game_days: the changed game's days, old and new (an event longer than 90 days
        rates each game in the period it was played).
    """
    event.start_date, event.end_date = follow_games(old, before, games_span(session, event.id))
    if not allow_move and (event.start_date, event.end_date) != old:
        count = session.scalar(sa.select(sa.func.count()).where(Game.event_id == event.id))
        move = event_move(get_config(session), event, old, count or 0)
        if move is not None and (confirm_any or move.moves_rating):
            raise EventMoveError(move)
    days = {event.end_date, old[1]}
    longs = [is_long_event(*span) for span in (old, (event.start_date, event.end_date))]
    if any(longs):
        days.update(game_days)
    if longs[0] != longs[1]:  # every game changes period: from the first game's on
        days.add(min(old[0], event.start_date))
    for day in days:
        problem = history_error(session, day)
        if problem:
            raise PeriodError(problem)
    for day in sorted(days):
        mark_for_rerate(session, day)
    session.flush()


def add_game(
    session: Session,
    white_ref: str,
    black_ref: str,
    result: Result,
    played_on: dt.date,
    *,
    event_name: str | None = None,
    round: str | None = None,
    today: dt.date | None = None,
    allow_move: bool = True,
) -> Game:
    """Record one game. Without an event it is an event of its own (SPEC 1.5); with the name
    of a stored event it joins it (the event's dates grow to include the game).

    :param today: refuse a date after it (None: no check; the CLI passes today unless
        ``--allow-future``).
    :param allow_move: False: refuse (:class:`~ratings.service.moves.EventMoveError`) a game
        that sends its stored event to another rating period or list; roll back then.
    :raises LimitError: for an event name or round beyond :mod:`ratings.limits`.
    :raises FutureDateError: for a date after ``today``.
    """
    check_not_future(played_on, today)
    event_name = clean_text(event_name, limits.MAX_EVENT_LENGTH, "event")
    round = clean_text(round, limits.MAX_ROUND_LENGTH, "round")
    white = get_player(session, white_ref)
    black = get_player(session, black_ref)
    if white.id == black.id:
        raise InvalidInputError(f"a player cannot play themself: {white.name} (id {white.id})")
    problem = history_error(session, played_on)
    if problem:
        raise PeriodError(problem)
    label = game_label(white.name, black.name, played_on)
    event = _event_for(session, event_name, played_on, label)
    old, before = (event.start_date, event.end_date), games_span(session, event.id)
    game = Game(
        event_id=event.id,
        round=round,
        played_on=played_on,
        white_id=white.id,
        black_id=black.id,
        result=result,
        rateable=result.is_played,
    )
    session.add(game)
    session.flush()
    _refresh_event(
        session,
        event,
        old,
        before,
        allow_move=allow_move,
        confirm_any=False,
        game_days=(played_on,),
    )
    return game


def get_game(session: Session, game_id: int) -> Game:
    """A stored game by id."""
    game = session.get(Game, game_id) if 0 < game_id < 2**63 else None  # SQLite's INTEGER
    if game is None:
        raise InvalidInputError(f"no game with id {game_id}")
    return game


def edit_game(
    session: Session,
    game_id: int,
    *,
    result: Result | None = None,
    played_on: dt.date | None = None,
    round: str | None = None,
    rated: bool | None = None,
    today: dt.date | None = None,
    allow_move: bool = True,
    reason: str | None = None,
) -> Game:
    """Correct a stored game; the rated periods it touches are marked for re-rating.

    ``round=""`` clears the round. A new date after ``today`` is refused (None: no check).
    With ``allow_move`` False a new date that changes the event's dates is refused
    (:class:`~ratings.service.moves.EventMoveError`; roll back then). Every field changed
    (and the event's dates, when they move) goes to the corrections log with ``reason``.
    """
    audit.check_reason(reason)
    if played_on is not None:
        check_not_future(played_on, today)
    new_round = clean_text(round, limits.MAX_ROUND_LENGTH, "round")
    game = get_game(session, game_id)
    event = session.get_one(Event, game.event_id)
    old, before = (event.start_date, event.end_date), games_span(session, event.id)
    old_day = game.played_on
    # a game's date moves its event: ask when other games follow it (any change of the
    # dates), or when its own event goes to another period or list
    others = session.scalar(
        sa.select(sa.func.count()).where(Game.event_id == event.id, Game.id != game.id)
    )
    was = {f: getattr(game, f) for f in ("result", "rateable", "played_on", "round")}
    if result is not None:
        game.result = result
        game.rateable = result.is_played if rated is None else rated
    if rated is not None:
        if rated and not game.result.is_played:
            raise InvalidInputError(f"a forfeit ({game.result.value}) cannot be rated")
        game.rateable = rated
    if played_on is not None:
        problem = history_error(session, played_on)
        if problem:
            raise PeriodError(problem)
        game.played_on = played_on
    if round is not None:
        game.round = new_round
    session.flush()
    _refresh_event(
        session,
        event,
        old,
        before,
        allow_move=allow_move,
        confirm_any=bool(others),
        game_days=(old_day, game.played_on),
    )
    changes = [
        audit.Change(game_id=game.id, event_id=event.id, field=f, old=value, new=getattr(game, f))
        for f, value in was.items()
        if getattr(game, f) != value
    ]
    changes += _date_lines(event, old)
    if changes:
        audit.record(session, audit.Action.GAME_EDIT, *changes, reason=reason)
    return game


def _date_lines(event: Event, old: tuple[dt.date, dt.date]) -> list[audit.Change]:
    """The corrections log's lines for an event's dates that moved."""
    return [
        audit.Change(event_id=event.id, field=f, old=value, new=getattr(event, f))
        for f, value in zip(("start_date", "end_date"), old, strict=True)
        if getattr(event, f) != value
    ]


def void_game(
    session: Session, game_id: int, *, allow_move: bool = True, reason: str | None = None
) -> Game:
    """Remove a game recorded in error; its rated period is marked for re-rating.

    Its breakdown rows go with it; the published values they produced stay in
    ``superseded_ratings`` after the re-rate. With ``allow_move`` False a void that changes
    the event's dates is refused (:class:`~ratings.service.moves.EventMoveError`; roll back
    then). The game's every column goes to the corrections log, with ``reason``.
    """
    audit.check_reason(reason)
    game = get_game(session, game_id)
    event = session.get_one(Event, game.event_id)
    old, before = (event.start_date, event.end_date), games_span(session, event.id)
    removed = game_lines(game)
    old_end = event.end_date
    problem = history_error(session, old_end)
    if problem:
        raise PeriodError(problem)
    session.execute(sa.delete(RatingBreakdown).where(RatingBreakdown.game_id == game.id))
    session.delete(game)
    session.flush()
    _refresh_event(
        session,
        event,
        old,
        before,
        allow_move=allow_move,
        confirm_any=True,
        game_days=(game.played_on,),
    )
    audit.record(
        session,
        audit.Action.GAME_VOID,
        *removed,
        *_date_lines(event, old),
        reason=reason,
    )
    return game


# --- imports ------------------------------------------------------------------------------


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


class PlayerIndex:
    """Resolve the white/black references of a games file: a FIDE id (digits) or a name,
    matched by its key (:mod:`ratings.names`: any case, normal form or spacing), as every
    other path matches names. A FIDE id held by a merged-away record finds the player it
    was merged into."""

    SUGGEST_AT_MOST = 20
    """Distinct unknown names that get "did you mean" (a file of typos stays fast)."""

    def __init__(self, session: Session) -> None:
        self.by_name: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self.by_fide: dict[int, int] = {}
        merged: dict[int, int] = {}
        rows = session.execute(
            sa.select(Player.id, Player.name, Player.name_key, Player.fide_id,
                      Player.merged_into_id)
        )  # fmt: skip
        for pid, name, key, fide_id, merged_into in rows:
            if fide_id is not None:
                self.by_fide[fide_id] = pid
            if merged_into is not None:
                merged[pid] = merged_into
            else:
                self.by_name[key].append((pid, name))
        for fide_id, pid in self.by_fide.items():
            while pid in merged:
                pid = merged[pid]
            self.by_fide[fide_id] = pid
        self._suggested: dict[str, str] = {}

    def _hint(self, text: str) -> str:
        if text not in self._suggested and len(self._suggested) < self.SUGGEST_AT_MOST:
            names = [name for found in self.by_name.values() for _, name in found]
            near = " or ".join(map(repr, closest(text, names)))
            self._suggested[text] = f"; did you mean {near}?" if near else ""
        return self._suggested.get(text, "")

    def resolve(self, ref: str) -> int:
        """The player id, or ValueError with a message naming the problem.

        Only ASCII digits are a FIDE id: ``'١٢'`` is a name, never FIDE id 12.
        """
        text = ref.strip()
        digits = limits.is_ascii_digits(text) and len(text) <= limits.MAX_FIDE_ID_DIGITS
        if digits and int(text) in self.by_fide:
            return self.by_fide[int(text)]
        found = self.by_name.get(key_of_stored(text), [])
        if len(found) == 1:
            return found[0][0]
        if not found:
            if digits:
                raise ValueError(f"unknown fide id: {ref!r}")
            raise ValueError(f"unknown player: {ref!r}{self._hint(text)}")
        candidates = ", ".join(f"{pid} ({name})" for pid, name in found)
        raise ValueError(f"ambiguous name {ref!r}: players {candidates}; use FIDE ids")


def import_games(
    session: Session,
    rows: Sequence[GameRow],
    file_name: str,
    data_hash: str,
    *,
    today: dt.date | None = None,
    allow_duplicates: bool = False,
) -> ImportReport:
    """Store every game of a games CSV, or none (SPEC 4).

    Events come from the ``event`` column (one event per distinct name in the file, dated
    by its first and last game); a row without an event is an event of its own. A row dated
    after ``today`` is an error (None: no check). Rows identical to stored games are refused
    unless ``allow_duplicates`` (:func:`stored_duplicate_games`).

    :raises DuplicateImportError: for the same bytes imported before, or stored games.
    """
    check_not_imported(session, data_hash, file_name)
    index = PlayerIndex(session)
    errors: list[InputFileError] = []
    resolved: list[tuple[GameRow, int, int]] = []
    for row in rows:
        future = future_problem(row.date, today)
        if future:
            errors.append(InputFileError(file_name, row.line, future, "date"))
        ids: list[int] = []
        for field, ref in (("white", row.white), ("black", row.black)):
            try:
                ids.append(index.resolve(ref))
            except ValueError as exc:
                errors.append(InputFileError(file_name, row.line, str(exc), field))
        if len(ids) == 2:
            if ids[0] == ids[1]:
                errors.append(
                    InputFileError(
                        file_name, row.line, f"the same player as white: {row.black!r}", "black"
                    )
                )
            else:
                resolved.append((row, ids[0], ids[1]))
    # events: by name within this file; their dates are their games' first and last day
    spans: dict[str, list[dt.date]] = {}
    for row in rows:
        if row.event:
            span = spans.setdefault(row.event, [row.date, row.date])
            span[0] = min(span[0], row.date)
            span[1] = max(span[1], row.date)
    if first_rated_start(session) is not None:  # else no date can be before the history
        problems: dict[dt.date, str | None] = {}  # one check per distinct end date
        for row in rows:
            end = spans[row.event][1] if row.event else row.date
            if end not in problems:
                problems[end] = history_error(session, end)
            problem = problems[end]
            if problem:
                errors.append(InputFileError(file_name, row.line, problem, "date"))
    if errors:
        errors.sort(key=lambda e: e.line or 0)
        raise InputFileErrors(errors)

    if not allow_duplicates:
        duplicates = stored_duplicate_games(session, resolved, file_name)
        if duplicates:
            raise DuplicateImportError(duplicates)
    import_id = record_import(session, "games_csv", file_name, data_hash, len(rows))
    # all events in two executemany calls (named ones, then one per row without a name, in
    # the order single inserts would take), their ids read back in insertion order
    new_events = [(name, start, end) for name, (start, end) in spans.items()]
    new_events += [
        (game_label(row.white, row.black, row.date), row.date, row.date)
        for row, _, _ in resolved
        if not row.event
    ]
    new_ids = iter(_insert_events(session, new_events, "csv", import_id))
    event_ids = {name: next(new_ids) for name in spans}
    dates: dict[dt.date, object] = {}
    results = {result: (result.value, result.is_played) for result in Result}

    def game_rows() -> Iterator[tuple[object, ...]]:
        # a generator: bulk_insert takes the rows in chunks, never all of them at once
        for row, white_id, black_id in resolved:
            day = dates.get(row.date)
            if day is None:
                day = dates[row.date] = date_param(session, row.date)
            value, played = results[row.result]
            yield (
                event_ids[row.event] if row.event else next(new_ids),
                row.round,
                day,
                white_id,
                black_id,
                value,
                played,
            )

    bulk_insert(
        session,
        "games",
        ("event_id", "round", "played_on", "white_id", "black_id", "result", "rateable"),
        game_rows(),
    )
    marked = _mark_touched(
        session,
        [first_rated_day(start, end) for start, end in spans.values()]
        + [r.date for r in rows if not r.event],
    )
    rated = sum(1 for row, _, _ in resolved if row.result.is_played)
    return ImportReport(
        file_name,
        events_created=len(spans) + sum(1 for r in rows if not r.event),
        games=len(resolved),
        rated_games=rated,
        unrated_games=len(resolved) - rated,
        marked_period=marked,
    )


def stored_duplicate_games(
    session: Session, resolved: Sequence[tuple[GameRow, int, int]], file_name: str
) -> str | None:
    """Why a games file repeats stored games, or None: rows identical to a stored game in
    date, white, black, result, event (its name, by key) and round, with the imports they
    came from. A row without an event matches a stored game of any event.

    The stored games of the file's date range are streamed once against the file's keys,
    so memory follows the file, not the database.
    """
    if not resolved:
        return None
    first = min(row.date for row, _, _ in resolved)
    last = max(row.date for row, _, _ in resolved)
    in_range = sa.select(Game.id).where(Game.played_on.between(first, last)).limit(1)
    if session.scalar(in_range) is None:
        return None  # the usual case (a new month): no key of the file is built
    full: dict[tuple[object, ...], list[int]] = defaultdict(list)
    loose: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for row, white, black in resolved:
        base = (row.date, white, black, row.result.value, row.round)
        if row.event:
            full[(*base, key_of_stored(row.event))].append(row.line)
        else:
            loose[base].append(row.line)
    stored = session.execute(
        sa.select(
            Game.played_on, Game.white_id, Game.black_id, Game.result, Game.round, Event.name,
            Event.import_id,
        )
        .join(Event, Event.id == Game.event_id)
        .where(Game.played_on.between(first, last))
    )  # fmt: skip
    lines: set[int] = set()
    sources: dict[int | None, set[int]] = defaultdict(set)
    for day, white, black, result, round_, event, import_id in stored:
        base = (day, white, black, result.value, round_)
        found = full.get((*base, key_of_stored(event)), []) + loose.get(base, [])
        lines.update(found)
        sources[import_id].update(found)
    if not lines:
        return None
    shown = sorted(lines)
    more = f" and {len(shown) - 5} more" if len(shown) > 5 else ""
    where = ", ".join(map(str, shown[:5])) + more
    imports = {
        item.id: item
        for item in session.scalars(
            sa.select(Import).where(Import.id.in_([i for i in sources if i is not None]))
        )
    }
    origins = [
        f"{len(found)} like games imported from {imports[i].file_name} (import {i}, "
        f"{imports[i].imported_at:%Y-%m-%d %H:%M} UTC)"
        if i is not None
        else f"{len(found)} like games entered by hand"
        for i, found in sorted(sources.items(), key=lambda item: (item[0] is None, item[0] or 0))
        if found
    ]
    return (
        f"{file_name}: {len(shown)} of {len(resolved)} games are already stored (same date, "
        f"players, result, event and round; line{'s' if len(shown) > 1 else ''} {where}): "
        f"{'; '.join(origins)}; nothing was imported; --allow-duplicates imports them anyway"
    )


def _insert_events(
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


def _insert_event(
    session: Session, name: str, start: dt.date, end: dt.date, source: str, import_id: int
) -> int:
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


def first_rated_day(start: dt.date, end: dt.date) -> dt.date:
    """The day whose period is the first to rate an event's games: its end date, or for an
    event longer than 90 days (rated game by game, in the period each was played) its start
    (issue 12, item 9)."""
    return start if is_long_event(start, end) else end


def _mark_touched(session: Session, ends: Sequence[dt.date]) -> str | None:
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
