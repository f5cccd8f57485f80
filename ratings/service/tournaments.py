"""Tournament files: TRF and PGN imports, and a stored event written back as TRF16.

Both imports share the player matching rules (SPEC 5): a FIDE id in the file finds the
registered player holding it (or the player a merged-away holder was merged into), and a name
beside it that contradicts it (another player's name, or no word in common with the name the
id is registered under) is an error naming both players; otherwise the name, compared by its
key (:mod:`ratings.names`: any case, Unicode form or spacing), finds the one live player of
that name whose FIDE id is not a different one; otherwise the player is created from the
file. A name that matches several players is an error listing them. A file whose event (name,
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
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import (
    DuplicateImportError,
    InputFileError,
    InputFileErrors,
    InvalidInputError,
    InvalidNameError,
    LimitError,
)
from ratings.federations import is_fide_federation
from ratings.io.notes import FileWarning
from ratings.io.pgn import PgnElo, PgnGame, parse_pgn
from ratings.io.trf import TrfBye, TrfGame, TrfPlayer, TrfTournament, parse_trf, write_trf
from ratings.limits import TITLES
from ratings.models import Bye, Event, Game, Import, Player, RatingHistory, RatingPeriod
from ratings.names import clean_name, key_of_stored
from ratings.results import Result
from ratings.service.common import bulk_insert, date_param
from ratings.service.dates import future_problem
from ratings.service.games import (
    _insert_event,
    _mark_touched,
    check_not_imported,
    content_hash,
    first_rated_day,
    history_error,
    record_import,
)

__all__ = [
    "EventSummary",
    "PlayerMatch",
    "TournamentReport",
    "TrfExport",
    "export_trf",
    "find_events",
    "import_pgn",
    "import_trf",
]

# dates outside this range are damage, not chess history (and break period arithmetic)
_FIRST_DAY = dt.date(1850, 1, 1)
_LAST_DAY = dt.date(2199, 12, 31)
_TRF_TITLES = {"G": "GM", "M": "IM", "F": "FM", "C": "CM"}
_TRF_TITLES |= {"W" + k: "W" + v for k, v in _TRF_TITLES.items()}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


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
    """``'fide_id'``, ``'name'`` (matched) or ``'new'`` (created from the file)."""
    registered_name: str
    """The matched player's name in the register (the file's name for a new player)."""
    start_no: int | None = None
    """TRF start number."""


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

    @property
    def games(self) -> int:
        """Games stored, rated or not."""
        return self.rated_games + self.unrated_games

    def count(self, how: str) -> int:
        """Players resolved one way: ``'new'``, ``'fide_id'`` or ``'name'``."""
        return sum(1 for p in self.players if p.how == how)


# --- player matching ---------------------------------------------------------------------


def _words(key: str) -> set[str]:
    """The words of a name key without accents or punctuation (``öberg, å.`` -> oberg, a)."""
    plain = "".join(
        ch for ch in unicodedata.normalize("NFKD", key) if not unicodedata.combining(ch)
    )
    return set(re.findall(r"\w+", plain))


def _same_person_name(file_key: str, registered_key: str) -> bool:
    """Whether a name in a file can be the registered name of the player its FIDE id gives:
    the same key, or a shared word (``Carlsen,M`` and ``Carlsen, Magnus``; ``Magnus
    Carlsen``), accents aside (``Oberg`` and ``Öberg``)."""
    if file_key == registered_key:
        return True
    shared = _words(file_key) & _words(registered_key)
    return any(len(word) > 1 for word in shared)


@dataclass(slots=True)
class _NewPlayer:
    """A player to create; ``key`` is a placeholder id (negative) until inserted."""

    key: int
    name: str
    fide_id: int | None
    line: int
    birth_date: dt.date | None = None
    birth_year: int | None = None
    sex: str | None = None
    federation: str | None = None
    title: str | None = None
    rating: int | None = None


class _Resolver:
    """Match file players against the register, and against the players the file creates.

    Names are compared by their key (:mod:`ratings.names`), as every other path compares
    them. A FIDE id that a merged-away record holds finds the player it was merged into.
    """

    def __init__(self, session: Session, file_name: str) -> None:
        self.file_name = file_name
        self.by_fide: dict[int, int] = {}
        self.by_name: dict[str, list[tuple[int, str, int | None]]] = defaultdict(list)
        self.names: dict[int, str] = {}
        self.keys: dict[int, str] = {}
        self.labels: dict[int, str] = {}
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
                continue
            self.by_name[key].append((pid, name, fide_id))
            self.names[pid] = name
            self.keys[pid] = key
            self.labels[pid] = f"{pid} ({name}" + (f", FIDE {fide_id})" if fide_id else ")")
        for fide_id, pid in self.by_fide.items():
            while pid in merged:
                pid = merged[pid]
            self.by_fide[fide_id] = pid
        self.new: list[_NewPlayer] = []
        self.lines: dict[int, int] = {}  # placeholder -> line that introduced the player

    def _label(self, pid: int) -> str:
        return f"player {self.labels[pid]}" if pid > 0 else f"the player of line {self.lines[pid]}"

    def resolve(
        self, name: str, fide_id: int | None, line: int, fide_field: str = "FIDE id"
    ) -> tuple[int, str]:
        """(player id or placeholder, how), or :class:`InputFileError`.

        A name that contradicts the FIDE id (the name of another player, or no word in
        common with the name the id is registered under) is an error naming both players.
        """
        key = key_of_stored(name)
        if fide_id is not None and fide_id in self.by_fide:
            pid = self.by_fide[fide_id]
            others = [p for p, _, _ in self.by_name.get(key, []) if p != pid]
            if others or not _same_person_name(key, self.keys[pid]):
                named = (
                    f"; {name!r} is {' and '.join(self._label(p) for p in others)}"
                    if others
                    else ""
                )
                raise InputFileError(
                    self.file_name,
                    line,
                    f"{name!r} does not match FIDE id {fide_id}, which belongs to "
                    f"{self._label(pid)}{named}; correct the file or the register",
                    fide_field,
                )
            # later games of this file may give the same name without the id
            same = self.by_name[key]
            if all(other != pid for other, _, _ in same):
                same.append((pid, self.names[pid], fide_id))
            return pid, "fide_id" if pid > 0 else "new"
        found = [
            (pid, stored, their)
            for pid, stored, their in self.by_name.get(key, [])
            if fide_id is None or their is None or their == fide_id
        ]
        if len(found) == 1:
            return found[0][0], "name" if found[0][0] > 0 else "new"
        if found:
            candidates = ", ".join(
                f"{pid} ({stored})" if pid > 0 else f"the player of line {self.lines[pid]}"
                for pid, stored, _ in found
            )
            raise InputFileError(
                self.file_name,
                line,
                f"{name!r} matches {len(found)} players: {candidates}; "
                "add FIDE ids or rename one in the register",
                "name",
            )
        placeholder = -1 - len(self.new)  # until the insert gives the id
        cleaned = clean_name(name)
        self.new.append(_NewPlayer(placeholder, cleaned, fide_id, line))
        self.lines[placeholder] = line
        self.by_name[key].append((placeholder, name, fide_id))
        if fide_id is not None:
            self.by_fide[fide_id] = placeholder
        self.names[placeholder] = cleaned
        self.keys[placeholder] = key
        return placeholder, "new"

    def insert(self, session: Session) -> dict[int, int]:
        """Create the new players; returns placeholder -> id."""
        if not self.new:
            return {}
        result = session.execute(
            sa.insert(Player).returning(Player.id, sort_by_parameter_order=True),
            [
                {
                    "name": p.name,
                    "name_key": key_of_stored(p.name),
                    "fide_id": p.fide_id,
                    "birth_date": p.birth_date,
                    "birth_year": p.birth_year,
                    "sex": p.sex,
                    "federation": p.federation,
                    "title": p.title,
                    "entry_rating": p.rating,
                    "entry_games": None,  # unknown, never 0 (issue 12, item 1)
                    "k10": False,
                }
                for p in self.new
            ],
        )
        ids = [int(pid) for pid in result.scalars()]
        return {p.key: pid for p, pid in zip(self.new, ids, strict=True)}


def _raise_all(errors: list[InputFileError]) -> None:
    if len(errors) == 1:
        raise errors[0]
    if errors:
        errors.sort(key=lambda e: e.line or 0)
        raise InputFileErrors(errors)


def _check_name(name: str, file_name: str, line: int, field: str = "name") -> None:
    """A name as the register stores it (:func:`ratings.names.clean_name`: no control,
    invisible or text-reordering character) within :data:`ratings.limits.MAX_NAME_LENGTH`."""
    try:
        cleaned = clean_name(name)
        limits.check_text(cleaned, limits.MAX_NAME_LENGTH)
    except (InvalidNameError, LimitError) as exc:
        raise InputFileError(file_name, line, str(exc), field) from None


def _event_name(given: str | None, file_name: str) -> str:
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


def _check_day(day: dt.date, file_name: str, line: int | None, field: str) -> None:
    if not _FIRST_DAY <= day <= _LAST_DAY:
        raise InputFileError(
            file_name, line, f"date out of range {_FIRST_DAY}..{_LAST_DAY}: {day}", field
        )


def _check_history(session: Session, end: dt.date, file_name: str) -> None:
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


def _refuse_duplicates(
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


# --- TRF ---------------------------------------------------------------------------------


def _record_lines(data: bytes) -> dict[str, int]:
    """Line of the first non-blank ``012``/``042``/``052``/``132`` record (for messages)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    found: dict[str, int] = {}
    for number, line in enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), start=1):
        record = line[:3]
        is_record = line[3:4] in ("", " ") and bool(line[4:].strip())
        if record in ("042", "052", "132") and record not in found and is_record:
            found[record] = number
    return found


def _new_trf_player(
    new: _NewPlayer,
    p: TrfPlayer,
    file_name: str,
    errors: list[InputFileError],
    clubs: dict[str, list[int]],
) -> None:
    """Fill a player to create from the ``001`` line, checking what the register requires."""

    def problem(text: str, field: str) -> None:
        errors.append(InputFileError(file_name, p.line, text, field))

    checks: list[tuple[int | None, int, int, str]] = [
        (p.rating, limits.MIN_RATING, limits.MAX_RATING, "rating"),
        (p.birth_year, limits.MIN_BIRTH_YEAR, limits.MAX_BIRTH_YEAR, "birth date"),
    ]
    for value, low, high, field in checks:
        if value is not None:
            try:
                limits.check_range(value, low, high)
            except LimitError as exc:
                problem(str(exc), field)
    federation = None
    if p.federation and is_fide_federation(p.federation):
        federation = p.federation.upper()
    elif p.federation:
        try:  # kept as written (a club code), within the column and without control characters
            federation = limits.check_text(p.federation, limits.FEDERATION_LENGTH)
            clubs.setdefault(federation, []).append(p.line)
        except LimitError as exc:
            problem(str(exc), "federation")
    title = None
    if p.title:
        code = p.title.upper()
        title = code if code in TITLES else _TRF_TITLES.get(code)
    new.rating, new.birth_date, new.birth_year = p.rating, p.birth_date, p.birth_year
    new.sex, new.federation, new.title = p.sex, federation, title


@dataclass(frozen=True, slots=True)
class _TrfDates:
    """When a TRF event's games were played."""

    days: dict[int, dt.date]
    """Game date by round."""
    start: dt.date
    end: dt.date
    warning: FileWarning | None
    """Which date the games of rounds with an unusable ``132`` date take."""


def _trf_dates(
    t: TrfTournament,
    data: bytes,
    file_name: str,
    default_date: dt.date | None,
    errors: list[InputFileError],
) -> _TrfDates | None:
    """The dates of the games and the event; None (and the problems in ``errors``) when
    they cannot be had."""
    lines = _record_lines(data)
    found = len(errors)
    for day, record, field in [
        (t.start_date, "042", "start date"),
        (t.end_date, "052", "end date"),
        *((d, "132", f"round {n} date") for n, d in sorted(t.round_dates.items())),
    ]:
        if day is not None:
            try:
                _check_day(day, file_name, lines.get(record), field)
            except InputFileError as exc:
                errors.append(exc)
    if t.start_date and t.end_date and t.end_date < t.start_date:
        errors.append(
            InputFileError(
                file_name,
                lines.get("052"),
                f"the end date {t.end_date} is before the start date {t.start_date}",
                "end date",
            )
        )
    round_dates = dict(t.round_dates)
    sources = [
        (t.start_date, "the start date, 042"),
        (min(round_dates.values()) if round_dates else None, "the first round date, 132"),
        (t.end_date, "the end date, 052"),
        (default_date, "--date"),
    ]
    base, source = next(((day, what) for day, what in sources if day is not None), (None, ""))
    if base is None:
        errors.append(
            InputFileError(
                file_name, None, "no event or round dates in the file; give --date YYYY-MM-DD"
            )
        )
        return None
    if base == default_date:
        try:
            _check_day(base, file_name, None, "--date")
        except InputFileError as exc:
            errors.append(exc)
    if len(errors) > found:
        return None
    days = {g.round: round_dates.get(g.round, base) for g in t.games}
    played = list(days.values())
    start = min([*played, *([t.start_date] if t.start_date else [])], default=base)
    end = max([*played, *([t.end_date] if t.end_date else [])], default=start)
    undated = sorted({g.round for g in t.games} & set(t.undated_rounds))
    warning = None
    if undated:
        rounds = ", ".join(map(str, undated))
        warning = FileWarning(
            file_name,
            lines.get("132"),
            f"the games of round{'s' if len(undated) > 1 else ''} {rounds} are dated {base} "
            f"({source}), as their round dates are not used",
            "round dates",
        )
    return _TrfDates(days, start, max(start, end), warning)


def _trf_future(
    t: TrfTournament,
    data: bytes,
    file_name: str,
    default_date: dt.date | None,
    today: dt.date | None,
    errors: list[InputFileError],
) -> None:
    """The file's dates (and ``--date``) after ``today``, one error each."""
    if today is None:
        return
    lines = _record_lines(data)
    for day, record, field in [
        (t.start_date, "042", "start date"),
        (t.end_date, "052", "end date"),
        *((d, "132", f"round {n} date") for n, d in sorted(t.round_dates.items())),
        (default_date, None, "--date"),
    ]:
        problem = future_problem(day, today) if day is not None else None
        if problem:
            line = lines.get(record) if record else None
            errors.append(InputFileError(file_name, line, problem, field))


def import_trf(
    session: Session,
    data: bytes,
    file_name: str,
    *,
    default_date: dt.date | None = None,
    allow_duplicates: bool = False,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> TournamentReport:
    """Import one TRF16 or TRF-2026 file as one event, or nothing (SPEC 5).

    Games are dated by their round's ``132`` date, else the event's start (``042``, else the
    first round date, else ``052``), else ``default_date``; a file with none of these and no
    ``default_date`` is refused. Played games (``1``/``=``/``0`` with colours ``w``/``b``) are
    rated; ``W``/``D``/``L`` and forfeits are stored unrated; entries without an opponent go
    to ``byes`` (a blank code is stored as ``?``). The event spans its games' days and the
    ``042``/``052`` dates.

    :param dry_run: resolve and check everything, write nothing.
    :param today: an event, round or ``--date`` date after it is an error (None: no check).
    :raises InputFileError: (or :class:`InputFileErrors`) for a malformed file, a player
        that cannot be matched, a date out of range, after ``today`` or before the rating
        history.
    :raises DuplicateImportError: when the same bytes were imported before, or (unless
        ``allow_duplicates``) the file's event is stored already: the same name, dates and
        players, as a file saved again with other line endings gives.
    """
    data_hash = content_hash(data)
    check_not_imported(session, data_hash, file_name)
    errors: list[InputFileError] = []
    t = parse_trf(data, file_name, errors=errors)
    # lines whose player data could not be read (already reported): not matched; a line
    # with a bad round block still names its player
    broken = {e.line for e in errors if not (e.field or "").startswith("round")}
    dates = _trf_dates(t, data, file_name, default_date, errors)
    _trf_future(t, data, file_name, default_date, today, errors)

    resolver = _Resolver(session, file_name)
    ids: dict[int, int] = {}  # start number -> player id or placeholder
    owner: dict[int, TrfPlayer] = {}  # player id or placeholder -> its line
    matches: list[tuple[TrfPlayer, int, str]] = []
    clubs: dict[str, list[int]] = {}  # federation column values that are not FIDE's
    for p in t.players:
        if p.line in broken:
            continue
        try:
            _check_name(p.name, file_name, p.line)
            pid, how = resolver.resolve(p.name, p.fide_id, p.line)
        except InputFileError as exc:
            errors.append(exc)
            continue
        if pid in owner:
            first = owner[pid]
            errors.append(
                InputFileError(
                    file_name,
                    p.line,
                    f"player {p.start_no} ({p.name!r}) is the same player as {first.start_no} "
                    f"({first.name!r}) on line {first.line}",
                    "name",
                )
            )
            continue
        if how == "new":
            _new_trf_player(resolver.new[-1], p, file_name, errors, clubs)
        owner[pid] = p
        ids[p.start_no] = pid
        matches.append((p, pid, how))
    _raise_all(errors)
    assert dates is not None  # else an error was raised
    days, start, end = dates.days, dates.start, dates.end
    _check_history(session, end, file_name)
    if not allow_duplicates:
        event = (_event_name(t.name, file_name), start, end, set(ids.values()))
        _refuse_duplicates(session, file_name, [event])
    warnings = [*t.warnings, *([dates.warning] if dates.warning else [])]
    for code, lines in clubs.items():
        players = "1 new player" if len(lines) == 1 else f"{len(lines)} new players"
        warnings.append(
            FileWarning(
                file_name,
                lines[0],
                f"{code!r} is not a FIDE federation code; kept as written ({players}, "
                f"first on line {lines[0]})",
                "federation",
            )
        )
    warnings.sort(key=lambda w: w.line or 0)

    name = _event_name(t.name, file_name)
    rated = sum(1 for g in t.games if g.rated)
    report = TournamentReport(
        file_name=file_name,
        dry_run=dry_run,
        events=(EventSummary(None, name, start, end, len(t.games)),),
        players=tuple(
            PlayerMatch(
                p.name, p.line, pid if pid > 0 else None, how, resolver.names[pid], p.start_no
            )
            for p, pid, how in matches
        ),
        rated_games=rated,
        unrated_games=len(t.games) - rated,
        byes=len(t.byes),
        warnings=tuple(warnings),
    )
    if dry_run:
        return report

    import_id = record_import(session, "trf", file_name, data_hash, len(t.games) + len(t.byes))
    created = resolver.insert(session)

    def player_id(start_no: int) -> int:
        pid = ids[start_no]
        return created.get(pid, pid)

    event_id = _insert_event(session, name, start, end, "trf", import_id)
    _insert_trf_rows(session, event_id, t.games, t.byes, days, player_id)
    marked = _mark_touched(session, [first_rated_day(start, end)])
    return TournamentReport(
        file_name=file_name,
        dry_run=False,
        events=(EventSummary(event_id, name, start, end, len(t.games)),),
        players=tuple(
            PlayerMatch(p.name, p.line, player_id(p.start_no), how, resolver.names[pid], p.start_no)
            for p, pid, how in matches
        ),
        rated_games=report.rated_games,
        unrated_games=report.unrated_games,
        byes=report.byes,
        marked_period=marked,
        warnings=report.warnings,
    )


def _insert_trf_rows(
    session: Session,
    event_id: int,
    games: Sequence[TrfGame],
    byes: Sequence[TrfBye],
    days: dict[int, dt.date],
    player_id: Callable[[int], int],
) -> None:
    bulk_insert(
        session,
        "games",
        ("event_id", "round", "played_on", "white_id", "black_id", "result", "rateable"),
        (
            (
                event_id,
                str(g.round),
                date_param(session, days[g.round]),
                player_id(g.white),
                player_id(g.black),
                g.result.value,
                g.rated,
            )
            for g in games
        ),
    )
    bulk_insert(
        session,
        "byes",
        ("event_id", "round", "player_id", "code"),
        ((event_id, str(b.round), player_id(b.player), b.code.strip() or "?") for b in byes),
    )


# --- PGN ---------------------------------------------------------------------------------


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
) -> TournamentReport:
    """Import the games of a PGN file from their tags, or nothing (SPEC 5).

    Games are grouped into one event per ``Event`` tag of this file (games without one form
    an event named after the file), each dated by its first and last game. A game without
    a date takes ``default_date``, and is an error without it. Unfinished (``*``) and
    tag-less games are skipped and counted. Players created here take their title from the
    title tags and, with ``entry_ratings``, their entry rating from the Elo tags (see the
    module docstring).

    :param today: a game dated after it is an error (None: no check).
    :raises InputFileError: (or :class:`InputFileErrors`) naming the line of every problem.
    :raises DuplicateImportError: when the same bytes were imported before, or (unless
        ``allow_duplicates``) the file's event is stored already: the same name, dates and
        players, as a file saved again with other line endings gives.
    """
    data_hash = content_hash(data)
    check_not_imported(session, data_hash, file_name)
    errors: list[InputFileError] = []
    parsed = parse_pgn(data, file_name, elo=entry_ratings, errors=errors)
    if default_date is not None:
        _check_day(default_date, file_name, None, "--date")
    resolver = _Resolver(session, file_name)
    seen: dict[int, PlayerMatch] = {}
    # what the file says about each player it creates: (day, order, title, rating) per game
    said: dict[int, list[tuple[dt.date, int, str | None, PgnElo | None]]] = defaultdict(list)
    rows: list[tuple[str, str | None, dt.date, int, int, Result]] = []
    spans: dict[str, list[dt.date]] = {}
    # games without an Event tag form an event named after the file
    fallback = _event_name(None, file_name) if any(g.event is None for g in parsed.games) else ""
    for g in parsed.games:
        day = g.date or default_date
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
                _check_day(day, file_name, g.line, "Date")
            except InputFileError as exc:
                errors.append(exc)
            future = future_problem(day, today)
            if future:
                errors.append(InputFileError(file_name, g.line, future, "Date"))
        sides: list[int] = []
        for tag, name, fide_id, title, elo in _sides(g):
            try:
                _check_name(name, file_name, g.line, tag)
                pid, how = resolver.resolve(name, fide_id, g.line, f"{tag}FideId")
            except InputFileError as exc:
                errors.append(exc)
                continue
            sides.append(pid)
            if pid not in seen:
                seen[pid] = PlayerMatch(name, g.line, pid if pid > 0 else None, how,
                                        resolver.names[pid])  # fmt: skip
            if pid < 0 and day is not None:
                said[pid].append((day, len(said[pid]), title, elo))
        if len(sides) == 2 and sides[0] == sides[1]:
            errors.append(
                InputFileError(
                    file_name, g.line, f"White and Black are the same player: {g.black!r}", "Black"
                )
            )
            continue
        if len(sides) == 2 and day is not None:
            event = g.event or fallback
            span = spans.setdefault(event, [day, day])
            span[0], span[1] = min(span[0], day), max(span[1], day)
            rows.append((event, g.round, day, sides[0], sides[1], g.result))
    _raise_all(errors)
    for _, end in spans.values():
        _check_history(session, end, file_name)
    if not allow_duplicates:
        players_of: dict[str, set[int]] = defaultdict(set)
        for event, _, _, white, black, _ in rows:
            players_of[event] |= {white, black}
        events = [(n, s, e, players_of[n]) for n, (s, e) in spans.items()]
        _refuse_duplicates(session, file_name, events)
    warnings = _pgn_entry_data(resolver, said, file_name)

    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row[0]] += 1
    rated = sum(1 for r in rows if r[5].is_played)

    def report(event_ids: dict[str, int], created: dict[int, int]) -> TournamentReport:
        return TournamentReport(
            file_name=file_name,
            dry_run=dry_run,
            events=tuple(
                EventSummary(event_ids.get(n), n, s, e, counts[n]) for n, (s, e) in spans.items()
            ),
            players=tuple(
                PlayerMatch(m.name, m.line, created.get(pid, m.player_id), m.how, m.registered_name)
                for pid, m in seen.items()
            ),
            rated_games=rated,
            unrated_games=len(rows) - rated,
            skipped_unfinished=parsed.skipped_unfinished,
            skipped_phantom=parsed.skipped_phantom,
            marked_period=_mark_touched(session, [first_rated_day(s, e) for s, e in spans.values()])
            if event_ids
            else None,
            warnings=warnings,
        )

    if dry_run:
        return report({}, {})
    import_id = record_import(session, "pgn", file_name, data_hash, len(rows))
    created = resolver.insert(session)
    event_ids = {
        name: _insert_event(session, name, start, end, "pgn", import_id)
        for name, (start, end) in spans.items()
    }
    bulk_insert(
        session,
        "games",
        ("event_id", "round", "played_on", "white_id", "black_id", "result", "rateable"),
        (
            (
                event_ids[event],
                round_,
                date_param(session, day),
                created.get(white, white),
                created.get(black, black),
                result.value,
                result.is_played,
            )
            for event, round_, day, white, black, result in rows
        ),
    )
    return report(event_ids, created)


def _sides(g: PgnGame) -> tuple[tuple[str, str, int | None, str | None, PgnElo | None], ...]:
    """(tag, name, FIDE id, title, rating) of White and of Black."""
    return (
        ("White", g.white, g.white_fide_id, g.white_title, g.white_elo),
        ("Black", g.black, g.black_fide_id, g.black_title, g.black_elo),
    )


def _pgn_entry_data(
    resolver: _Resolver,
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


# --- TRF export --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrfExport:
    """A stored event written as a TRF16 file."""

    event_id: int
    event_name: str
    text: str
    """The file (LF line endings)."""
    players: int
    games: int
    byes: int


def find_events(session: Session, ref: str) -> list[Event]:
    """Events an EVENT argument names: an event id (digits) or an exact name
    (case-insensitive), oldest first."""
    text = ref.strip()
    if limits.is_ascii_digits(text):
        try:
            event = session.get(Event, limits.database_id(text, "event id"))
        except LimitError:
            return []  # too large for a database integer: no such event
        return [event] if event is not None else []
    return list(
        session.scalars(
            sa.select(Event).where(sa.func.lower(Event.name) == text.lower()).order_by(Event.id)
        )
    )


def get_event(session: Session, ref: str) -> Event:
    """The one event an EVENT argument names; raises if none or several match."""
    found = find_events(session, ref)
    if not found:
        raise InvalidInputError(f"no event {ref!r}")
    if len(found) > 1:
        candidates = ", ".join(f"{e.id} ({e.start_date})" for e in found)
        raise InvalidInputError(f"{ref!r} matches {len(found)} events: {candidates}; use the id")
    return found[0]


def _round_number(value: str | None, what: str) -> int:
    if value is None or not value.strip().isdigit() or int(value) < 1:
        raise InvalidInputError(
            f"{what} has round {value!r}; a TRF file needs round numbers 1, 2, 3..."
        )
    return int(value)


def _ratings_at(session: Session, ids: Sequence[int], day: dt.date) -> dict[int, int | None]:
    """Each player's rating on the list in force on ``day`` (the entry rating before any)."""
    period = session.scalar(
        sa.select(RatingPeriod)
        .where(RatingPeriod.list_date <= day)
        .order_by(RatingPeriod.start_date.desc())
        .limit(1)
    )
    ratings: dict[int, int | None] = {
        pid: rating
        for pid, rating in session.execute(
            sa.select(Player.id, Player.entry_rating).where(Player.id.in_(ids))
        )
    }
    if period is not None:
        for pid, rating in session.execute(
            sa.select(RatingHistory.player_id, RatingHistory.rating_after).where(
                RatingHistory.period_id == period.id, RatingHistory.player_id.in_(ids)
            )
        ):
            ratings[pid] = rating
    return ratings


def export_trf(session: Session, ref: str) -> TrfExport:
    """Write one stored event as a TRF16 file that :func:`import_trf` reads back to the
    same games and byes.

    Start numbers follow the rating in force at the event's start (highest first, then
    name); each round is dated by its first game. Games must have whole round numbers.

    :raises InvalidInputError: for an unknown or ambiguous event, a game without a round
        number, or a value that does not fit its TRF column (a name over 33 characters...).
    """
    event = get_event(session, ref)
    games = list(
        session.scalars(sa.select(Game).where(Game.event_id == event.id).order_by(Game.id))
    )
    byes = list(session.scalars(sa.select(Bye).where(Bye.event_id == event.id).order_by(Bye.id)))
    ids = sorted(
        {g.white_id for g in games} | {g.black_id for g in games} | {b.player_id for b in byes}
    )
    players = {p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(ids)))}
    ratings = _ratings_at(session, ids, event.start_date)
    order = sorted(ids, key=lambda i: (-(ratings[i] or 0), players[i].name.lower(), i))
    start_no = {pid: n for n, pid in enumerate(order, start=1)}
    round_dates: dict[int, dt.date] = {}
    trf_games = []
    for g in games:
        number = _round_number(g.round, f"game {g.id}")
        round_dates[number] = min(round_dates.get(number, g.played_on), g.played_on)
        trf_games.append(
            TrfGame(number, start_no[g.white_id], start_no[g.black_id], g.result, g.rateable, 0, 0)
        )
    trf_byes = [
        TrfBye(
            _round_number(b.round, f"the bye of player {b.player_id}"),
            start_no[b.player_id],
            " " if b.code == "?" else b.code,
            0,
        )
        for b in byes
    ]
    tournament = TrfTournament(
        name=event.name,
        start_date=event.start_date,
        end_date=event.end_date,
        round_dates=round_dates,
        players=tuple(
            TrfPlayer(
                start_no=start_no[pid],
                name=players[pid].name,
                sex=players[pid].sex,
                title=players[pid].title,
                rating=ratings[pid],
                federation=players[pid].federation,
                fide_id=players[pid].fide_id,
                birth_date=players[pid].birth_date,
                birth_year=players[pid].birth_year,
                line=0,
            )
            for pid in order
        ),
        games=tuple(trf_games),
        byes=tuple(trf_byes),
    )
    try:
        text = write_trf(tournament)
    except ValueError as exc:
        raise InvalidInputError(f"event {event.id} cannot be written as TRF: {exc}") from None
    return TrfExport(event.id, event.name, text, len(order), len(games), len(byes))
