"""Tournament files: what the TRF and PGN imports share besides reading the players (the
events they create, the checks of dates and names, what they store: :func:`store_events`,
the report).

The imports themselves are :mod:`ratings.service.imports.trf` and
:mod:`ratings.service.imports.pgn`; their players go through the one pipeline
(:mod:`ratings.service.imports.pipeline`, README.md#names-namesakes-and-merges); a stored
event written back as TRF16 is :mod:`ratings.service.reading.exports`. A file whose event (name,
dates and players) is already stored is refused unless ``allow_duplicates``. Only a player
created here takes data from the file: a matched player's register entry (entry rating
included) is never changed.

Decisions a reader of the code should know:

* TRF: the file's rating becomes the entry rating of a player created from it; TRF06
  one-letter titles (``g``, ``m``, ``wf``...) become ``GM``, ``IM``, ``WFM``; titles the
  register does not know are dropped rather than refusing the file. A federation column
  that holds something other than a FIDE federation (club codes such as ``C.C`` in Irish
  Krause files) is kept as written, with a warning per code. Round dates that cannot be
  used (see :mod:`ratings.io.trf`) leave their rounds' games on the date the other games
  without a round date get, and one warning says which date that is.
* Every problem of a file is reported at once: the reader's, the dates' and the
  register's (names, ratings, birth years) in one list, in line order.
* PGN: players are created with name, FIDE id and title (``WhiteTitle``/``BlackTitle``, the
  first one of :data:`ratings.limits.TITLES` in date order). ``WhiteElo``/``BlackElo`` become
  entry ratings only when asked (``entry_ratings=True``, ``--entry-ratings``): in PGN they
  are often another pool's rating (Lichess, a club). The rating of a player's first game
  (by date, then file order) is taken; when the player's games give other values too, a
  warning names them.
* Creating players marks nothing for re-rating (as ``ratings player add``); the periods
  of the imported events are marked when they are already rated.
* Writes go through Core bulk inserts (no ORM object per game, bye or player).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import (
    DuplicateImportError,
    InputFileError,
    InvalidNameError,
    LimitError,
)
from ratings.io.notes import FileWarning
from ratings.models import Bye, Event, Game, Import
from ratings.names import clean_name, key_of_stored
from ratings.service.imports.pipeline import Resolver
from ratings.service.imports.report import Matching
from ratings.service.imports.storing import (
    first_rated_day,
    insert_event,
    mark_touched,
    record_import,
    set_time_control,
)
from ratings.service.rating.marks import history_error
from ratings.service.register.identity import Question

__all__ = [
    "EventSummary",
    "PlayerMatch",
    "TournamentReport",
    "check_day",
    "check_history",
    "check_name",
    "event_name",
    "refuse_duplicates",
    "store_events",
    "stored_duplicates",
]

# dates outside this range are damage, not chess history (and break period arithmetic)
_FIRST_DAY = dt.date(1850, 1, 1)
_LAST_DAY = dt.date(2199, 12, 31)


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """How one player of a file was resolved."""

    name: str
    """The name as the file writes it."""
    line: int
    """Line of the player's ``001`` record (TRF) or first game (PGN)."""
    player_id: int | None
    """The register's id; None in a dry run for a player that would be created."""
    how: str
    """One of :data:`ratings.service.imports.pipeline.HOW`."""
    registered_name: str
    """The matched player's name in the register (the file's name for a new player)."""
    start_no: int | None = None
    """TRF start number."""
    question: Question | None = None
    """A dry run's question about the player (``how`` is ``ask``)."""


@dataclass(frozen=True, slots=True)
class EventSummary:
    """One event an import creates."""

    event_id: int | None
    """None in a dry run."""
    name: str
    start_date: dt.date
    end_date: dt.date
    games: int


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """What a TRF or PGN import stored (or, in a dry run, would store)."""

    file_name: str
    dry_run: bool
    events: tuple[EventSummary, ...]
    players: tuple[PlayerMatch, ...]
    rated_games: int
    unrated_games: int
    byes: int = 0
    skipped_unfinished: int = 0
    skipped_phantom: int = 0
    marked_period: str | None = None
    """The oldest rated period the import touched (re-rated by the next ``ratings rate``)."""
    warnings: tuple[FileWarning, ...] = ()
    """What the import noticed but did not refuse the file for, in line order."""
    matching: Matching = field(default_factory=Matching)
    """Who the import took for whom (:mod:`ratings.service.imports.pipeline`)."""

    @property
    def games(self) -> int:
        """Games stored, rated or not."""
        return self.rated_games + self.unrated_games

    def count(self, how: str) -> int:
        """Players resolved one way (one of :data:`ratings.service.imports.pipeline.HOW`)."""
        return sum(1 for p in self.players if p.how == how)


def check_name(name: str, file_name: str, line: int, field: str = "name") -> None:
    """A name as the register stores it (:func:`ratings.names.clean_name`: no control,
    invisible or text-reordering character) within :data:`ratings.limits.MAX_NAME_LENGTH`."""
    try:
        cleaned = clean_name(name)
        limits.check_text(cleaned, limits.MAX_NAME_LENGTH)
    except (InvalidNameError, LimitError) as exc:
        raise InputFileError(file_name, line, str(exc), field) from None


def event_name(given: str | None, file_name: str) -> str:
    """An event's name: the one the file gives, else the file's name (which must fit)."""
    if given is not None:
        return given  # checked by the reader
    name = PurePath(file_name).name
    if len(name) > limits.MAX_EVENT_LENGTH:
        problem = f"the file name is longer than {limits.MAX_EVENT_LENGTH} characters"
    elif limits.has_control_character(name):
        problem = "the file name holds a control character"
    else:
        return name
    raise InputFileError(
        file_name, None, f"{problem} and the file names no event; rename the file", "event name"
    )


def check_day(day: dt.date, file_name: str, line: int | None, field: str) -> None:
    if not _FIRST_DAY <= day <= _LAST_DAY:
        raise InputFileError(
            file_name, line, f"date out of range {_FIRST_DAY}..{_LAST_DAY}: {day}", field
        )


def check_history(session: Session, end: dt.date, file_name: str) -> None:
    problem = history_error(session, end)
    if problem:
        raise InputFileError(file_name, None, f"{problem}; nothing was imported")


def stored_duplicates(
    session: Session, events: Sequence[tuple[str, dt.date, dt.date, set[int]]]
) -> list[str]:
    """Which of a file's events (name, start, end, player ids) are stored already: an event
    of the same name (by key), the same dates and the same players. One description each.

    Events with a player the file creates cannot be stored yet and are not looked up.
    """
    found: list[str] = []
    for name, start, end, players in events:
        if not players or min(players) < 0:
            continue
        key = key_of_stored(name)
        candidates = session.execute(
            sa.select(Event, Import)
            .outerjoin(Import, Import.id == Event.import_id)
            .where(Event.start_date == start, Event.end_date == end)
            .order_by(Event.id)
        )
        for event, source in candidates:
            if key_of_stored(event.name) != key:
                continue
            sides = sa.union(
                sa.select(Game.white_id).where(Game.event_id == event.id),
                sa.select(Game.black_id).where(Game.event_id == event.id),
                sa.select(Bye.player_id).where(Bye.event_id == event.id),
            )
            if set(session.scalars(sa.select(sides.subquery().c[0]))) != players:
                continue
            games = session.scalar(
                sa.select(sa.func.count()).select_from(Game).where(Game.event_id == event.id)
            )
            origin = (
                f"imported from {source.file_name} (import {source.id}, "
                f"{source.imported_at:%Y-%m-%d %H:%M} UTC)"
                if source is not None
                else "entered by hand"
            )
            found.append(
                f"event {event.id} '{event.name}' ({start} .. {end}, {len(players)} players, "
                f"{games} games) {origin}"
            )
            break
    return found


def refuse_duplicates(
    session: Session,
    file_name: str,
    events: Sequence[tuple[str, dt.date, dt.date, set[int]]],
) -> None:
    """Refuse a file whose events are stored already (:func:`stored_duplicates`)."""
    found = stored_duplicates(session, events)
    if not found:
        return
    which = f"{len(found)} of its {len(events)} events are" if len(events) > 1 else "its event is"
    raise DuplicateImportError(
        f"{file_name}: {which} already stored (same name, dates and players): "
        f"{'; '.join(found)}; nothing was imported; --allow-duplicates imports the file "
        "anyway"
    )


def store_events(
    session: Session,
    resolver: Resolver,
    kind: str,
    data_hash: str,
    rows: int,
    spans: Mapping[str, Sequence[dt.date]],
    lists: Mapping[str, str],
    insert_rows: Callable[[int, dict[int, int], dict[str, int]], None],
) -> tuple[dict[str, int], dict[int, int], str | None]:
    """Write what a tournament file gave: the import (of ``rows`` rows, ``kind`` its
    source), its new players and aliases, its events (name -> start and end days) on their
    lists (name -> standard, rapid or blitz), then the format's own rows
    (``insert_rows(import_id, created, event_ids)``, in bulk); mark the rated periods the
    events touch. Returns the events' ids by name, the ids of the players created (by their
    placeholder) and the oldest period marked."""
    import_id = record_import(session, kind, resolver.file_name, data_hash, rows)
    created = resolver.store(session, import_id)
    event_ids = {
        name: insert_event(session, name, start, end, kind, import_id)
        for name, (start, end) in spans.items()
    }
    set_time_control(session, {event_ids[name]: tc for name, tc in lists.items()})
    insert_rows(import_id, created, event_ids)
    marked = mark_touched(session, [first_rated_day(start, end) for start, end in spans.values()])
    return event_ids, created, marked
