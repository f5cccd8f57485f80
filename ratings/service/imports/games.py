"""Importing a games CSV (README.md#csv-formats): every row or none, each white and black (a FIDE
id or a name) through the one pipeline (:mod:`ratings.service.imports.pipeline`), which
creates no player here."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator, Sequence

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import DuplicateImportError, InputFileError, InvalidInputError
from ratings.io.csv import GameRow
from ratings.models import Event, Game, Import
from ratings.names import key_of_stored
from ratings.results import Result
from ratings.service.imports.pipeline import Resolver, finish
from ratings.service.imports.rounds import RoundGame, round_problems
from ratings.service.imports.storing import (
    ImportReport,
    check_not_imported,
    first_rated_day,
    insert_events,
    insert_games,
    line_errors,
    mark_touched,
    record_import,
    set_time_control,
)
from ratings.service.rating.marks import first_rated_start, history_error
from ratings.service.register.identity import Decisions
from ratings.service.shared.dates import future_problem
from ratings.service.shared.sql import date_param
from ratings.service.shared.text import game_label


def import_games(
    session: Session,
    rows: Sequence[GameRow],
    file_name: str,
    data_hash: str,
    *,
    today: dt.date | None = None,
    allow_duplicates: bool = False,
    time_control: str | None = None,
    decisions: Decisions | None = None,
    dry_run: bool = False,
) -> ImportReport:
    """Store every game of a games CSV, or none (README.md#csv-formats).

    An event's list is its rows' ``time_control`` column (one for all its rows), else
    ``time_control`` (the command's ``--time-control``), else standard.

    Events come from the ``event`` column (one event per distinct name in the file, dated
    by its first and last game); a row without an event is an event of its own. A row dated
    after ``today`` is an error (None: no check). Rows identical to stored games are refused
    unless ``allow_duplicates`` (:func:`stored_duplicate_games`).

    Players are found by FIDE id or name (:class:`ratings.service.imports.pipeline.Resolver`
    of references); a name the matcher is not certain about stops the import
    (:class:`MatchQuestionsError`) unless ``decisions`` (the administrator's ``--match``) say
    who it is; each decision is stored as an alias.

    :param dry_run: the caller rolls back: the players that need a decision are in the
        report (:attr:`ImportReport.matching`), not raised, and then nothing is stored.

    :raises DuplicateImportError: for the same bytes imported before, or stored games.
    :raises MatchQuestionsError: for names that need a decision, with the file's other
        problems, before anything is written.
    """
    check_not_imported(session, data_hash, file_name)
    if decisions is not None and decisions.new:
        given = next(iter(decisions.new.values()))[0]
        raise InvalidInputError(
            f"--new {given!r}: a games file creates no players; register them first "
            "('ratings player add' or 'ratings import players')"
        )
    resolver = Resolver(
        session,
        file_name,
        decisions,
        creates=False,
        references=True,
        refs=(ref for row in rows for ref in (row.white, row.black)),
    )
    errors: list[InputFileError] = []
    resolved = _resolve_rows(rows, resolver, file_name, today, errors)
    spans, lists = _event_spans(rows, file_name, errors)
    default_list = rules.time_control(time_control or "standard").value
    errors += _history_errors(session, rows, spans, file_name)
    same_round, warnings = round_problems(
        file_name,
        (
            RoundGame(row.line, row.event, row.round, row.date, white, black,
                      row.result.value, row.white, row.black)
            for row, white, black in resolved
            if row.event
        ),
        "round",
    )  # fmt: skip
    errors += same_round
    finish(resolver, errors, dry_run=dry_run)
    rated = sum(1 for row, _, _ in resolved if row.result.is_played)
    events = len(spans) + sum(1 for r in rows if not r.event)

    def report(marked: str | None, *, dry: bool) -> ImportReport:
        return ImportReport(
            file_name,
            events_created=events,
            games=len(resolved),
            rated_games=rated,
            unrated_games=len(resolved) - rated,
            marked_period=marked,
            warnings=tuple(warnings),
            matching=resolver.matching(),
            dry_run=dry,
        )

    if resolver.questions:  # a dry run's (else raised): what stops it is the report
        return report(None, dry=True)

    if not allow_duplicates:
        duplicates = stored_duplicate_games(session, resolved, file_name)
        if duplicates:
            raise DuplicateImportError(duplicates)
    import_id = record_import(session, "games_csv", file_name, data_hash, len(rows))
    resolver.remember(session, {}, import_id)
    _store_games(session, import_id, resolved, spans, lists, default_list)
    marked = mark_touched(
        session,
        [first_rated_day(start, end) for start, end in spans.values()]
        + [r.date for r in rows if not r.event],
    )
    return report(marked, dry=dry_run)


def _resolve_rows(
    rows: Sequence[GameRow],
    resolver: Resolver,
    file_name: str,
    today: dt.date | None,
    errors: list[InputFileError],
) -> list[tuple[GameRow, int, int]]:
    """The rows whose two players were found, with their ids; the problems in ``errors``
    (a future date, a player not found, the same player twice)."""
    resolved: list[tuple[GameRow, int, int]] = []
    reference = resolver.reference
    for row in rows:
        if today is not None:
            future = future_problem(row.date, today)
            if future:
                errors.append(InputFileError(file_name, row.line, future, "date"))
        try:
            white = reference(row.line, row.white, "white")
        except InputFileError as exc:
            errors.append(exc)
            white = None
        try:
            black = reference(row.line, row.black, "black")
        except InputFileError as exc:
            errors.append(exc)
            continue
        if white is None or black is None:
            continue
        if white == black:
            errors.append(
                InputFileError(
                    file_name, row.line, f"the same player as white: {row.black!r}", "black"
                )
            )
        else:
            resolved.append((row, white, black))
    return resolved


def _event_spans(
    rows: Sequence[GameRow], file_name: str, errors: list[InputFileError]
) -> tuple[dict[str, list[dt.date]], dict[str, tuple[str, int]]]:
    """The file's named events: each one's first and last day, and the list its rows name
    with the line that first did (an event whose rows name two lists: an error)."""
    spans: dict[str, list[dt.date]] = {}
    lists: dict[str, tuple[str, int]] = {}  # event -> (its list, the line that said so)
    for row in rows:
        if row.event:
            span = spans.setdefault(row.event, [row.date, row.date])
            span[0] = min(span[0], row.date)
            span[1] = max(span[1], row.date)
            if row.time_control is not None:
                said = lists.setdefault(row.event, (row.time_control.value, row.line))
                if said[0] != row.time_control.value:
                    errors.append(
                        InputFileError(
                            file_name,
                            row.line,
                            f"event {row.event!r} is {said[0]} on line {said[1]}, "
                            f"{row.time_control.value} here",
                            "time_control",
                        )
                    )
    return spans, lists


def _history_errors(
    session: Session,
    rows: Sequence[GameRow],
    spans: dict[str, list[dt.date]],
    file_name: str,
) -> list[InputFileError]:
    """A row whose event ends before the rating history starts (one check per end date)."""
    if first_rated_start(session) is None:  # no date can be before the history
        return []
    problems: dict[dt.date, str | None] = {}  # one check per distinct end date

    def problem_of(row: GameRow) -> str | None:
        end = spans[row.event][1] if row.event else row.date
        if end not in problems:
            problems[end] = history_error(session, end)
        return problems[end]

    return line_errors(file_name, rows, problem_of, "date")


def _store_games(
    session: Session,
    import_id: int,
    resolved: Sequence[tuple[GameRow, int, int]],
    spans: dict[str, list[dt.date]],
    lists: dict[str, tuple[str, int]],
    default_list: str,
) -> None:
    """Insert the file's events, on their lists, and its games."""
    # all events in two executemany calls (named ones, then one per row without a name, in
    # the order single inserts would take), their ids read back in insertion order
    new_events = [(name, start, end) for name, (start, end) in spans.items()]
    new_events += [
        (game_label(row.white, row.black, row.date), row.date, row.date)
        for row, _, _ in resolved
        if not row.event
    ]
    inserted = insert_events(session, new_events, "csv", import_id)
    new_ids = iter(inserted)
    event_ids = {name: next(new_ids) for name in spans}
    event_lists = [lists.get(name, (default_list, 0))[0] for name in spans]
    event_lists += [
        row.time_control.value if row.time_control is not None else default_list
        for row, _, _ in resolved
        if not row.event
    ]
    set_time_control(session, dict(zip(inserted, event_lists, strict=True)))
    dates: dict[dt.date, object] = {}
    results = {result: (result.value, result.is_played) for result in Result}

    def game_rows() -> Iterator[tuple[object, ...]]:
        # a generator: insert_games takes the rows in chunks, never all of them at once
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
                import_id,
            )

    insert_games(
        session,
        game_rows(),
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
