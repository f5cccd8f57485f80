"""Importing a PGN file, one event per ``Event`` tag (README.md#trf-and-pgn-files): each
game's White and Black through the one pipeline (:mod:`ratings.service.imports.pipeline`),
the games in bulk."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from functools import partial

from sqlalchemy.orm import Session

from ratings.errors import (
    InputFileError,
)
from ratings.io.notes import FileWarning
from ratings.io.pgn import PgnElo, PgnGame, parse_pgn
from ratings.results import Result
from ratings.rules import TimeControl
from ratings.service.imports.events import (
    EventSummary,
    PlayerMatch,
    TournamentReport,
    check_day,
    check_history,
    check_name,
    event_name,
    refuse_duplicates,
    store_events,
)
from ratings.service.imports.incoming import Incoming
from ratings.service.imports.pipeline import Resolver, finish
from ratings.service.imports.rounds import RoundGame, round_problems
from ratings.service.imports.storing import check_not_imported, content_hash, insert_games
from ratings.service.register.identity import Decisions
from ratings.service.shared.dates import future_problem
from ratings.service.shared.sql import date_param


def import_pgn(
    session: Session,
    data: bytes,
    file_name: str,
    *,
    default_date: dt.date | None = None,
    entry_ratings: bool = False,
    allow_duplicates: bool = False,
    dry_run: bool = False,
    today: dt.date | None = None,
    time_control: str | None = None,
    decisions: Decisions | None = None,
) -> TournamentReport:
    """Import the games of a PGN file from their tags, or nothing (README.md#trf-and-pgn-files).

    Each event's list is ``time_control`` when given (standard, rapid or blitz); else the
    one its games' ``TimeControl`` tags name (R&B art. 1.1) when they all name one and read
    without problems; else standard.

    Games are grouped into one event per ``Event`` tag of this file (games without one form
    an event named after the file), each dated by its first and last game. A game without
    a date takes ``default_date``, and is an error without it. Unfinished (``*``) and
    tag-less games are skipped and counted. Players created here take their title from the
    title tags and, with ``entry_ratings``, their entry rating from the Elo tags (see the
    module docstring).

    :param today: a game dated after it is an error (None: no check).
    :param decisions: the administrator's answers about the file's players (``--match``,
        ``--new``, the prompt); each is stored as an alias.
    :raises InputFileError: (or :class:`InputFileErrors`) naming the line of every problem.
    :raises MatchQuestionsError: for players the matcher cannot tell for certain (with the
        file's other problems), before anything is written; a dry run reports them.
    :raises DuplicateImportError: when the same bytes were imported before, or (unless
        ``allow_duplicates``) the file's event is stored already: the same name, dates and
        players, as a file saved again with other line endings gives.
    """
    data_hash = content_hash(data)
    check_not_imported(session, data_hash, file_name)
    errors: list[InputFileError] = []
    parsed = parse_pgn(data, file_name, elo=entry_ratings, errors=errors)
    if default_date is not None:
        check_day(default_date, file_name, None, "--date")
    read = _Games(Resolver(session, file_name, decisions), file_name, errors)
    # games without an Event tag form an event named after the file
    fallback = event_name(None, file_name) if any(g.event is None for g in parsed.games) else ""
    for g in parsed.games:
        read.add(g, g.date or default_date, fallback, today)
    resolver, seen, rows, spans = read.resolver, read.seen, read.rows, read.spans
    if not parsed.games and not parsed.skipped_unfinished and not errors:
        raise InputFileError(file_name, None, 'no PGN game found (no [Tag "value"] line)')
    same_round, round_warnings = round_problems(file_name, read.in_rounds, "Round")
    errors += same_round
    finish(resolver, errors, dry_run=dry_run)
    for _, end in spans.values():
        check_history(session, end, file_name)
    if not allow_duplicates:
        players_of: dict[str, set[int]] = defaultdict(set)
        for event, _, _, white, black, _ in rows:
            players_of[event] |= {white, black}
        events = [(n, s, e, players_of[n]) for n, (s, e) in spans.items()]
        refuse_duplicates(session, file_name, events)
    warnings = tuple(
        sorted(
            (*_pgn_entry_data(resolver, read.said, file_name), *resolver.warnings, *round_warnings),
            key=lambda w: w.line or 0,
        )
    )

    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row[0]] += 1
    rated = sum(1 for r in rows if r[5].is_played)

    def report(
        event_ids: dict[str, int], created: dict[int, int], marked: str | None
    ) -> TournamentReport:
        return TournamentReport(
            file_name=file_name,
            dry_run=dry_run,
            events=tuple(
                EventSummary(event_ids.get(n), n, s, e, counts[n]) for n, (s, e) in spans.items()
            ),
            players=tuple(
                PlayerMatch(
                    m.name,
                    m.line,
                    created.get(pid, m.player_id),
                    m.how,
                    m.registered_name,
                    question=m.question,
                )
                for pid, m in seen.items()
            ),
            rated_games=rated,
            unrated_games=len(rows) - rated,
            skipped_unfinished=parsed.skipped_unfinished,
            skipped_phantom=parsed.skipped_phantom,
            marked_period=marked,
            warnings=warnings,
            matching=resolver.matching(created),
        )

    if dry_run:
        return report({}, {}, None)
    # unclear: unreadable or mixed TimeControl tags, the event is standard
    unclear = bool(parsed.time_control_problems)
    lists = {
        name: time_control or _tagged_list(tags, unclear) for name, tags in read.tagged.items()
    }
    stored = store_events(
        session, resolver, "pgn", data_hash, len(rows), spans, lists, partial(read.insert, session)
    )
    return report(*stored)


class _Games:
    """The games of a PGN file as :func:`import_pgn` reads them, one at a time: their
    players resolved, their problems in ``errors``, the rows to store grouped by event."""

    def __init__(self, resolver: Resolver, file_name: str, errors: list[InputFileError]):
        self.resolver, self.file_name, self.errors = resolver, file_name, errors
        self.seen: dict[int, PlayerMatch] = {}
        # what the file says about each player it creates: (day, order, title, rating) a game
        self.said: dict[int, list[tuple[dt.date, int, str | None, PgnElo | None]]] = defaultdict(
            list
        )
        self.rows: list[tuple[str, str | None, dt.date, int, int, Result]] = []
        self.in_rounds: list[RoundGame] = []
        self.spans: dict[str, list[dt.date]] = {}
        self.tagged: dict[str, set[TimeControl | None]] = {}  # the lists each event names

    def add(self, g: PgnGame, day: dt.date | None, fallback: str, today: dt.date | None) -> None:
        """One game, dated ``day`` (its own date, else ``--date``); ``fallback``: the event
        of a game without an Event tag."""
        file_name, errors = self.file_name, self.errors
        if day is None:
            errors.append(
                InputFileError(
                    file_name,
                    g.line,
                    "no date (Date, EventDate or UTCDate); give --date YYYY-MM-DD",
                    "Date",
                )
            )
        else:
            try:
                check_day(day, file_name, g.line, "Date")
            except InputFileError as exc:
                errors.append(exc)
            future = future_problem(day, today)
            if future:
                errors.append(InputFileError(file_name, g.line, future, "Date"))
        sides = self._sides(g, day)
        if len(sides) == 2 and sides[0] == sides[1]:
            errors.append(
                InputFileError(
                    file_name, g.line, f"White and Black are the same player: {g.black!r}", "Black"
                )
            )
            return
        if len(sides) == 2 and day is not None:
            event = g.event or fallback
            span = self.spans.setdefault(event, [day, day])
            span[0], span[1] = min(span[0], day), max(span[1], day)
            self.rows.append((event, g.round, day, sides[0], sides[1], g.result))
            self.in_rounds.append(RoundGame(g.line, event, g.round, day, sides[0], sides[1],
                                            g.result.value, g.white, g.black))  # fmt: skip
            self.tagged.setdefault(event, set()).add(g.time_control)

    def _sides(self, g: PgnGame, day: dt.date | None) -> list[int]:
        """The game's players that resolved (ids; a new player's is negative)."""
        resolver, seen = self.resolver, self.seen
        sides: list[int] = []
        for tag, name, fide_id, title, elo in _sides(g):
            try:
                check_name(name, self.file_name, g.line, tag)
                pid, how = resolver.resolve(Incoming(g.line, name, tag, fide_id, f"{tag}FideId"))
            except InputFileError as exc:
                self.errors.append(exc)
                continue
            sides.append(pid)
            if pid not in seen:
                asked = resolver.question_of(pid) if how == "ask" else None
                seen[pid] = PlayerMatch(name, g.line, pid if pid > 0 else None, how,
                                        resolver.names[pid], question=asked)  # fmt: skip
            if pid < 0 and day is not None:
                self.said[pid].append((day, len(self.said[pid]), title, elo))
        return sides

    def insert(
        self, session: Session, import_id: int, created: dict[int, int], event_ids: dict[str, int]
    ) -> None:
        """The games in one bulk insert, once the import, its players and its events are
        stored."""
        insert_games(
            session,
            (
                (
                    event_ids[event],
                    round_,
                    date_param(session, day),
                    created.get(white, white),
                    created.get(black, black),
                    result.value,
                    result.is_played,
                    import_id,
                )
                for event, round_, day, white, black, result in self.rows
            ),
        )


def _tagged_list(lists: set[TimeControl | None], unclear: bool) -> str:
    """An event's list from its games' ``TimeControl`` tags: the one they all name, else
    standard (no tag, a tag that did not read, or games naming different lists)."""
    if len(lists) == 1 and not unclear:
        (found,) = lists
        if found is not None:
            return found.value
    return "standard"


def _sides(g: PgnGame) -> tuple[tuple[str, str, int | None, str | None, PgnElo | None], ...]:
    """(tag, name, FIDE id, title, rating) of White and of Black."""
    return (
        ("White", g.white, g.white_fide_id, g.white_title, g.white_elo),
        ("Black", g.black, g.black_fide_id, g.black_title, g.black_elo),
    )


def _pgn_entry_data(
    resolver: Resolver,
    said: dict[int, list[tuple[dt.date, int, str | None, PgnElo | None]]],
    file_name: str,
) -> tuple[FileWarning, ...]:
    """Give each player to create the title and rating of their first game (by date, then
    file order) that has one; warnings for players whose games give other ratings too."""
    warnings: list[FileWarning] = []
    for new in resolver.new:
        games = sorted(said.get(new.key, []), key=lambda item: (item[0], item[1]))
        new.title = next((title for _, _, title, _ in games if title is not None), None)
        rated = [(day, elo) for day, _, _, elo in games if elo is not None]
        if not rated:
            continue
        day, first = rated[0]
        new.rating = first.value
        others = [elo for _, elo in rated[1:] if elo.value != first.value]
        if others:
            given = ", ".join(f"{elo.value} (line {elo.line})" for elo in sorted(
                others, key=lambda elo: elo.line))  # fmt: skip
            warnings.append(
                FileWarning(
                    file_name,
                    first.line,
                    f"{new.name!r}: Elo {first.value} taken as the entry rating (first game, "
                    f"{day}); other games give {given}",
                    first.tag,
                )
            )
    return tuple(sorted(warnings, key=lambda w: w.line or 0))
