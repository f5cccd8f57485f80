"""Players and games CSV files (README.md#csv-formats), parsed into plain frozen dataclasses.

Over 600 lines: the players and games files share delimiter detection, cell checks, writers.

Readers check the whole file and raise :class:`~ratings.errors.InputFileErrors` listing every
problem (``FILE:LINE: field: problem``), so a user fixes a file in one pass. Line numbers are
physical 1-based lines of the file (the header is line 1); a record with a quoted multi-line
value is reported at the line where it starts. Writers produce the same formats.

The delimiter is read from the header line: a comma, a semicolon (what spreadsheets save in
locales whose decimal mark is a comma) or a tab, whichever splits the header into the most
known column names (a comma when none does better). Only the header decides, so a value may
hold the other two characters unquoted (``Smith, Ann`` in a semicolon file).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TypeVar

from ratings import limits
from ratings.errors import InputFileError, InputFileErrors, InvalidNameError, LimitError
from ratings.io.csv_out import restore
from ratings.limits import TITLES
from ratings.limits import show as _show
from ratings.names import clean_name, key_of_stored
from ratings.results import Result
from ratings.rules import InvalidTimeControlError, TimeControl, time_control

__all__ = [
    "DATE_FORMATS",
    "DELIMITERS",
    "GAME_COLUMNS",
    "GAME_LIST_COLUMNS",
    "PLAYER_COLUMNS",
    "PLAYER_LIST_COLUMNS",
    "TITLES",
    "GameRow",
    "PlayerRow",
    "read_games_csv",
    "read_players_csv",
    "write_games_csv",
    "write_players_csv",
]

PLAYER_COLUMNS = (
    "name",
    "birthdate",
    "fide_id",
    "rating",
    "games",
    "k10",
    "sex",
    "federation",
    "title",
)
"""Columns of a players file, in the order the writer uses; only ``name`` is required."""

PLAYER_LIST_COLUMNS = ("rapid_rating", "rapid_games", "blitz_rating", "blitz_games")
"""Optional columns of a players file for the rapid and blitz lists: entry rating
and games, checked as ``rating`` and ``games``; written with ``lists=True``."""

PLAYER_ID_COLUMN = ("id",)
"""Optional column of a players file: the register's id of the row's player, as ``player
list --format csv`` writes it (``import players --update`` finds the player by it)."""

GAME_COLUMNS = ("date", "white", "black", "result", "event", "round")
"""Columns of a games file, in the order the writer uses."""

GAME_LIST_COLUMNS = ("time_control",)
"""Optional columns of a games file for the list of each game: ``standard``,
``rapid`` or ``blitz`` in any case, blank for not given; written with ``lists=True``."""

_PLAYER_READ = PLAYER_COLUMNS + PLAYER_LIST_COLUMNS + PLAYER_ID_COLUMN
_GAME_READ = GAME_COLUMNS + GAME_LIST_COLUMNS

_PLAYER_REQUIRED = ("name",)
_GAME_REQUIRED = ("date", "white", "black", "result")

_BOOLEANS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
_SEXES = {"m": "m", "f": "f", "w": "f"}
_DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_YEAR_RE = re.compile(r"[0-9]{4}")

DATE_FORMATS = ("YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY")
"""How a file may write its dates: ISO, the default, or as spreadsheets
save them (``03/12/2026`` is 3 December in most of Europe and 12 March in the USA, so the
caller says which); day and month may have one digit."""

_DATE_LAYOUTS = {
    "YYYY-MM-DD": (_DATE_RE, (0, 1, 2)),
    "DD/MM/YYYY": (re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})"), (2, 1, 0)),
    "MM/DD/YYYY": (re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})"), (2, 0, 1)),
    "DD.MM.YYYY": (re.compile(r"([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})"), (2, 1, 0)),
}
"""Each of :data:`DATE_FORMATS`: its pattern, and where year, month and day are in it."""
_FEDERATION_RE = re.compile(r"[A-Za-z]{3}")

T = TypeVar("T")

_NO_BIRTH: tuple[date | None, int | None] = (None, None)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player from a players file."""

    line: int
    """Physical line of the record in the file (the header is line 1)."""
    name: str
    """As stored (:func:`ratings.names.clean_name`); its key is unique in the file unless
    the rows are told apart by FIDE id or birthdate."""
    birth_date: date | None
    """Full birth date, when the file gives ``YYYY-MM-DD``."""
    birth_year: int | None
    """Year of birth, given on its own (``YYYY``) or taken from ``birth_date``."""
    fide_id: int | None
    rating: int | None
    """Published rating on entry; ``None`` for an unrated player."""
    games: int | None
    """Rated games completed before entry; ``None`` when blank or absent: unknown."""
    k10: bool
    """The permanent K=10 flag (rating ever >= 2400, docs/RULES.md#k-factor-art-833); blank means
    false."""
    sex: str | None
    """``"m"`` or ``"f"``."""
    federation: str | None
    """Three upper-case letters."""
    title: str | None
    """One of :data:`TITLES`."""
    given: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    """The columns this row fills (not blank): what ``import players --update`` changes."""
    rapid_rating: int | None = None
    """``rapid_rating``: published rapid rating on entry; None when blank or absent (unrated
    on the rapid list, or not given)."""
    rapid_games: int | None = None
    """``rapid_games``: rapid rated games completed before entry; None when blank or absent:
    unknown."""
    blitz_rating: int | None = None
    """``blitz_rating``: as :attr:`rapid_rating`, for the blitz list."""
    blitz_games: int | None = None
    """``blitz_games``: as :attr:`rapid_games`, for the blitz list."""
    id: int | None = None
    """``id``: the registered player the row is (``player list --format csv``); None when
    blank or absent."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game from a games file. Players are references, resolved later by the service."""

    line: int
    """Physical line of the record in the file (the header is line 1)."""
    date: date
    white: str
    """A player name or, when all digits, a FIDE id, as written (stripped)."""
    black: str
    """Same as :attr:`white`."""
    result: Result
    event: str | None
    round: str | None
    time_control: TimeControl | None = None
    """``time_control``: the list the game is rated on; None when blank or absent (not given:
    the caller's default applies)."""

    @property
    def white_fide_id(self) -> int | None:
        """White's FIDE id when :attr:`white` is all digits, else ``None``."""
        return _fide_id_of(self.white)

    @property
    def black_fide_id(self) -> int | None:
        """Black's FIDE id when :attr:`black` is all digits, else ``None``."""
        return _fide_id_of(self.black)


# --------------------------------------------------------------------------------------------
# Reading


def read_players_csv(
    data: bytes, filename: str, *, date_format: str = "YYYY-MM-DD"
) -> list[PlayerRow]:
    """Parse a players file (README.md#csv-formats).

    :param data: the file's bytes (UTF-8, an optional BOM).
    :param filename: used in error messages.
    :param date_format: how the file writes a full birthdate (:data:`DATE_FORMATS`); a
        year alone is ``YYYY`` whatever it is.
    :raises InputFileErrors: listing every problem in the file; nothing is returned then.
    """
    errors: list[InputFileError] = []
    rows: list[PlayerRow] = []
    names: dict[str, list[tuple[int, int | None, tuple[date | None, int | None]]]] = {}
    fide_ids: dict[int, int] = {}
    birthdate = _birthdate_in(date_format)
    ids: dict[int, int] = {}
    records = _records(
        data,
        filename,
        PLAYER_COLUMNS,
        _PLAYER_REQUIRED,
        errors,
        optional=PLAYER_LIST_COLUMNS + PLAYER_ID_COLUMN,
    )
    for cells in records:
        player_id = cells.take("id", _player_id, None)
        name = cells.need("name", _name)
        birth = cells.take("birthdate", birthdate, _NO_BIRTH)
        fide_id = cells.take("fide_id", _fide_id, None)
        rating = cells.take("rating", _rating, None)
        games = cells.take("games", _games, None)
        k10 = cells.take("k10", _boolean, False)
        sex = cells.take("sex", _sex, None)
        federation = cells.take("federation", _federation, None)
        title = cells.take("title", _title, None)
        rapid_rating = cells.take("rapid_rating", _rating, None)
        rapid_games = cells.take("rapid_games", _games, None)
        blitz_rating = cells.take("blitz_rating", _rating, None)
        blitz_games = cells.take("blitz_games", _games, None)
        if name is not None:
            # one key per person, unless FIDE ids or birthdates tell the rows apart
            same = names.setdefault(key_of_stored(name), [])
            alike = [line for line, their_id, their_birth in same
                     if not _told_apart(fide_id, birth, their_id, their_birth)]  # fmt: skip
            if alike:
                cells.error("name", f"same name as line {alike[0]}: {_show(name)}")
            same.append((cells.line, fide_id, birth))
        if fide_id is not None:
            first = fide_ids.setdefault(fide_id, cells.line)
            if first != cells.line:
                cells.error("fide_id", f"same fide_id as line {first}: {_show(cells['fide_id'])}")
        if player_id is not None:
            first = ids.setdefault(player_id, cells.line)
            if first != cells.line:
                cells.error("id", f"same id as line {first}: {_show(cells['id'])}")
        if cells.ok and name is not None:
            rows.append(
                PlayerRow(
                    line=cells.line,
                    name=name,
                    birth_date=birth[0],
                    birth_year=birth[1],
                    fide_id=fide_id,
                    rating=rating,
                    games=games,
                    k10=k10,
                    sex=sex,
                    federation=federation,
                    title=title,
                    given=frozenset(c for c in _PLAYER_READ if cells[c]),
                    rapid_rating=rapid_rating,
                    rapid_games=rapid_games,
                    blitz_rating=blitz_rating,
                    blitz_games=blitz_games,
                    id=player_id,
                )
            )
    return _every_row(rows, errors, filename, "player")


def _every_row(rows: list[T], errors: list[InputFileError], filename: str, what: str) -> list[T]:
    """The rows of a file read to its end: every problem found raised together, and a file
    with no ``what`` below its header refused."""
    if errors:
        raise InputFileErrors(errors)
    if not rows:
        raise InputFileErrors(
            [InputFileError(filename, None, f"no {what} below the header row: nothing to import")]
        )
    return rows


def _player_id(text: str) -> int:
    """A register id: ASCII digits, within a database integer."""
    if not limits.is_ascii_digits(text):
        raise LimitError(f"not a player id: {_show(text)}")
    return limits.database_id(text, "id")


def read_games_csv(data: bytes, filename: str, *, date_format: str = "YYYY-MM-DD") -> list[GameRow]:
    """Parse a games file (README.md#csv-formats).

    :param data: the file's bytes (UTF-8, an optional BOM).
    :param filename: used in error messages.
    :param date_format: how the file writes its dates (:data:`DATE_FORMATS`).
    :raises InputFileErrors: listing every problem in the file; nothing is returned then.
    """
    errors: list[InputFileError] = []
    rows: list[GameRow] = []
    # a games file repeats its dates, players, results, events and rounds: parse each once
    game_date = _cached(_date_in(date_format))
    reference = _cached(_player_reference)
    result_of = _cached(_result)
    event_name = _cached(_text_up_to(limits.MAX_EVENT_LENGTH))
    round_name = _cached(_text_up_to(limits.MAX_ROUND_LENGTH))
    list_of = _cached(_time_control)
    key_of = _cached(key_of_stored)
    records = _records(
        data, filename, GAME_COLUMNS, _GAME_REQUIRED, errors, optional=GAME_LIST_COLUMNS
    )
    for cells in records:
        played_on = cells.need("date", game_date)
        white = cells.need("white", reference)
        black = cells.need("black", reference)
        result = cells.need("result", result_of)
        event = cells.take("event", event_name, None)
        round_ = cells.take("round", round_name, None)
        game_list = cells.take("time_control", list_of, None)
        if white is not None and black is not None and key_of(white) == key_of(black):
            cells.error("black", f"same player as white: {_show(black)}")
        if cells.ok and played_on and white and black and result is not None:
            rows.append(
                GameRow(
                    line=cells.line,
                    date=played_on,
                    white=white,
                    black=black,
                    result=result,
                    event=event,
                    round=round_,
                    time_control=game_list,
                )
            )
    return _every_row(rows, errors, filename, "game")


class _Cells:
    """The stripped cells of one record by column name, and the problems found in it."""

    def __init__(
        self,
        filename: str,
        line: int,
        values: Mapping[str, str],
        positions: Mapping[str, int],
        errors: list[InputFileError],
    ) -> None:
        self.filename = filename
        self.line = line
        self._values = values
        self._positions = positions
        self._errors: list[tuple[int, InputFileError]] = []
        self._sink = errors

    @property
    def ok(self) -> bool:
        """True while no problem was found in this record."""
        return not self._errors

    def __getitem__(self, column: str) -> str:
        return self._values.get(column, "")

    def error(self, column: str | None, problem: str) -> None:
        """Record a problem in ``column`` (``None``: the record as a whole)."""
        position = -1 if column is None else self._positions.get(column, len(self._positions))
        self._errors.append((position, InputFileError(self.filename, self.line, problem, column)))

    def take(self, column: str, parse: Callable[[str], T], default: T) -> T:
        """The parsed value of an optional column; ``default`` when blank, absent or bad."""
        text = self._values.get(column, "")
        if not text:
            return default
        try:
            return parse(text)
        except LimitError as exc:
            self.error(column, str(exc))
            return default

    def need(self, column: str, parse: Callable[[str], T]) -> T | None:
        """The parsed value of a required column; ``None`` (and a problem) when blank or bad."""
        if not self._values.get(column, ""):
            self.error(column, "required but blank")
            return None
        return self.take(column, parse, None)

    def flush(self) -> None:
        """Hand this record's problems to the file's list, in the order of the file's columns."""
        if self._errors:
            self._errors.sort(key=lambda item: item[0])
            self._sink.extend(error for _, error in self._errors)


def _records(
    data: bytes,
    filename: str,
    columns: tuple[str, ...],
    required: tuple[str, ...],
    errors: list[InputFileError],
    *,
    optional: tuple[str, ...] = (),
) -> Iterator[_Cells]:
    """Yield every data record as :class:`_Cells`; file-level problems go to ``errors``.

    ``columns`` are the file's columns (named when the file is empty); ``optional`` more
    columns it may have (the rapid and blitz list columns), named only among the allowed ones.

    Problems a caller records on a yielded record are added to ``errors`` when it asks for the
    next one. Header problems stop the reading: without a usable header, row checks are noise.
    """
    try:
        data.decode("utf-8-sig")  # the whole file first: a bad byte is reported by its line
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1]
        errors.append(
            InputFileError(
                filename,
                _count_lines(data[: exc.start]) + 1,
                f"not utf-8 text, save the file as utf-8: bad byte {bad!r}",
            )
        )
        return
    # lines from a decoding stream (the same splitting as a StringIO with newline=""), not
    # from a StringIO of the whole text, which holds 4 bytes a character: 1M games took 630 MB
    lines = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    delimiter = _delimiter(lines, columns + optional)
    lines.seek(0)
    # strict: a stray quote is an error, not a value that swallows the rest of the file
    reader = csv.reader(lines, delimiter=delimiter, strict=True, skipinitialspace=True)
    header: list[str] | None = None
    positions: dict[str, int] = {}
    named: list[tuple[str, int]] = []  # (column, position) of the header's named columns
    unnamed: list[int] = []
    while True:
        start = reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            errors.append(InputFileError(filename, start, _csv_problem(str(exc))))
            return
        cells = [cell.strip() for cell in record]
        if not any(cells):
            continue  # blank lines and spreadsheet rows of empty cells
        if header is None:
            header = cells
            checked = _check_header(header, filename, start, columns + optional, required, errors)
            if checked is None:
                return
            positions = checked
            named = [(column, i) for i, column in enumerate(header) if column]
            unnamed = [i for i, column in enumerate(header) if not column]
            continue
        count = len(cells)
        # a cell this product neutralised on export reads as it was (ratings.io.csv_out)
        values = {column: restore(cells[i]) for column, i in named if i < count}
        row = _Cells(filename, start, values, positions, errors)
        if count > len(header) and any(cells[len(header) :]):
            row.error(None, f"{len(cells)} values but the header has {len(header)} columns")
        nameless = [cells[i] for i in unnamed if i < count]
        if any(nameless):
            row.error(
                None, f"value in a column with no name: {_show(next(filter(None, nameless)))}"
            )
        yield row
        row.flush()
    if header is None:
        errors.append(
            InputFileError(
                filename, None, f"empty file; expected a header row ({', '.join(columns)})"
            )
        )


DELIMITERS = (",", ";", "\t")
"""Column separators a file may use; the header line tells which (see the module docstring)."""


def _delimiter(lines: Iterable[str], columns: tuple[str, ...]) -> str:
    """The separator of the first line with content: the one of :data:`DELIMITERS` that
    splits it into the most known ``columns``; with none known, the most frequent one."""
    header = next((line for line in lines if line.strip(" \r\n" + "".join(DELIMITERS))), "")
    known = frozenset(columns)

    def score(delimiter: str) -> tuple[int, int]:
        try:
            cells = next(csv.reader([header], delimiter=delimiter, skipinitialspace=True), [])
        except csv.Error:  # a header cell over the csv module's field limit: reported later
            cells = []
        return sum(cell.strip().lower() in known for cell in cells), header.count(delimiter)

    # max() keeps the first of equals: a comma unless another one does better
    return max(DELIMITERS, key=score)


def _cached(parse: Callable[[str], T]) -> Callable[[str], T]:
    """``parse`` remembering its answers to good values (bad ones raise again each time)."""
    seen: dict[str, T] = {}

    def cached(text: str) -> T:
        try:
            return seen[text]
        except KeyError:
            value = seen[text] = parse(text)
            return value

    return cached


_UNKNOWN_LISTED = 10
"""Unknown column names a header problem lists; the others are counted (a header of 70,000
unknown columns printed 70,000 lines)."""


def _check_header(
    header: list[str],
    filename: str,
    line: int,
    columns: tuple[str, ...],
    required: tuple[str, ...],
    errors: list[InputFileError],
) -> dict[str, int] | None:
    """Normalise ``header`` in place; the column positions, or ``None`` after problems."""
    duplicates: dict[str, list[int]] = {}  # each duplicated column once, with its positions
    positions: dict[str, int] = {}
    unknown: dict[str, int] = {}  # each unknown name once, with its count
    for i, raw in enumerate(header):
        column = raw.lower()
        header[i] = column
        if not column:
            continue  # a column with no name is fine while every value in it is blank
        if column not in columns:
            unknown[raw] = unknown.get(raw, 0) + 1
        elif column in positions:
            duplicates.setdefault(column, [positions[column] + 1]).append(i + 1)
        else:
            positions[column] = i
    allowed = f"allowed: {', '.join(columns)}"
    problems = [
        f"unknown column {_show(raw)} ({f'{n:,} times; ' if n > 1 else ''}{allowed})"
        for raw, n in list(unknown.items())[:_UNKNOWN_LISTED]
    ]
    if len(unknown) > _UNKNOWN_LISTED:
        problems.append(f"{len(unknown) - _UNKNOWN_LISTED:,} more unknown column names")
    for column, at in duplicates.items():
        more = f", and {len(at) - 2:,} more" if len(at) > 2 else ""
        problems.append(f"duplicate column {column!r} (columns {at[0]} and {at[1]}{more})")
    problems.extend(f"missing required column {c!r}" for c in required if c not in positions)
    errors.extend(InputFileError(filename, line, problem) for problem in problems)
    return None if problems else positions


def _count_lines(data: bytes) -> int:
    """Line breaks (CRLF, LF or CR, as the CSV reader counts them) in ``data``."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def _csv_problem(message: str) -> str:
    """A clearer wording of the csv module's parse errors."""
    if message == "unexpected end of data":
        return "a quoted value that starts here is never closed (a '\"' is missing)"
    if message.startswith("',' expected after"):
        return "text after the closing '\"' of a quoted value (write '\"\"' for a quote inside)"
    limit = re.fullmatch(r"field larger than field limit \(([0-9]+)\)", message)
    if limit is not None:
        return f"a value longer than {int(limit.group(1)):,} characters: not a file to import"
    return f"not valid csv: {message.lower()}"


# --------------------------------------------------------------------------------------------
# Value parsers: each takes a stripped, non-blank cell and raises LimitError


def _text_up_to(limit: int) -> Callable[[str], str]:
    def parse(text: str) -> str:
        return limits.check_text(text, limit)

    return parse


def _name(text: str) -> str:
    """A player's name as stored (:func:`ratings.names.clean_name`), at most
    :data:`ratings.limits.MAX_NAME_LENGTH` characters."""
    try:
        cleaned = clean_name(text)
    except InvalidNameError as exc:
        raise LimitError(str(exc)) from None
    return limits.check_text(cleaned, limits.MAX_NAME_LENGTH)


def _told_apart(
    a_id: int | None,
    a_birth: tuple[date | None, int | None],
    b_id: int | None,
    b_birth: tuple[date | None, int | None],
) -> bool:
    """Two rows of one name are two people: their FIDE ids differ, or their birth data
    (full dates when both have one, else years)."""
    if a_id is not None and b_id is not None and a_id != b_id:
        return True
    if a_birth[0] is not None and b_birth[0] is not None:
        return a_birth[0] != b_birth[0]
    return a_birth[1] is not None and b_birth[1] is not None and a_birth[1] != b_birth[1]


def _player_reference(text: str) -> str:
    if limits.is_ascii_digits(text):
        limits.fide_id(text)
        return text
    return _name(text)


def _fide_id_of(text: str) -> int | None:
    # the reader let only valid FIDE ids through as digits
    return int(text) if limits.is_ascii_digits(text) else None


def _fide_id(text: str) -> int:
    return limits.fide_id(text)


def _integer_in(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        return limits.whole_number(text, low, high)

    return parse


_rating = _integer_in(limits.MIN_RATING, limits.MAX_RATING)
_games = _integer_in(0, limits.MAX_GAMES)


def _time_control(text: str) -> TimeControl:
    try:
        return time_control(text)
    except InvalidTimeControlError as exc:
        raise LimitError(str(exc)) from None


def _check_year(year: int, text: str) -> None:
    if not limits.MIN_BIRTH_YEAR <= year <= limits.MAX_BIRTH_YEAR:
        raise LimitError(
            f"year not in {limits.MIN_BIRTH_YEAR}..{limits.MAX_BIRTH_YEAR}: {_show(text)}"
        )


def _full_date(text: str, expected: str, layout: str = "YYYY-MM-DD") -> date:
    pattern, (y, m, d) = _DATE_LAYOUTS[layout]
    match = pattern.fullmatch(text)
    if match is None:
        others = [f for f, (p, _) in _DATE_LAYOUTS.items() if f != layout and p.fullmatch(text)]
        hint = ""
        if others and layout == "YYYY-MM-DD":  # the default: no --date-format was given
            hint = f" (for {' or '.join(others)}, give --date-format)"
        raise LimitError(f"not a date ({expected}): {_show(text)}{hint}")
    parts = match.groups()
    year, month, day = int(parts[y]), int(parts[m]), int(parts[d])
    try:
        value = date(year, month, day)
    except ValueError:
        raise LimitError(f"not a date ({expected}): {_show(text)}") from None
    _check_year(year, text)
    return value


def _layout(date_format: str) -> str:
    if date_format not in _DATE_LAYOUTS:
        raise ValueError(f"unknown date format {date_format!r} (one of {DATE_FORMATS})")
    return date_format


def _date_in(date_format: str) -> Callable[[str], date]:
    """The parser of a game date written as ``date_format``."""
    layout = _layout(date_format)
    return lambda text: _full_date(text, layout, layout)


def _birthdate_in(date_format: str) -> Callable[[str], tuple[date | None, int | None]]:
    """The parser of a birthdate: a full date written as ``date_format``, or a year."""
    layout = _layout(date_format)

    def parse(text: str) -> tuple[date | None, int | None]:
        if _YEAR_RE.fullmatch(text):
            _check_year(int(text), text)
            return None, int(text)
        value = _full_date(text, f"{layout} or YYYY", layout)
        return value, value.year

    return parse


def _boolean(text: str) -> bool:
    try:
        return _BOOLEANS[text.lower()]
    except KeyError:
        problem = f"not a yes/no value (true, false, yes, no, 1, 0): {_show(text)}"
        raise LimitError(problem) from None


def _sex(text: str) -> str:
    try:
        return _SEXES[text.lower()]
    except KeyError:
        raise LimitError(f"not a sex (m, f or w): {_show(text)}") from None


_federation = limits.federation
_title = limits.title


def _result(text: str) -> Result:
    try:
        return Result.from_string(text)
    except ValueError as exc:
        raise LimitError(str(exc)) from None


# --------------------------------------------------------------------------------------------
# Writing


def write_players_csv(
    rows: Iterable[PlayerRow], *, header: bool = True, lists: bool = False
) -> str:
    """A players file holding ``rows`` (every column of :data:`PLAYER_COLUMNS`, LF endings).

    :param header: write the header row; pass ``False`` to append a chunk to a file.
    :param lists: also write :data:`PLAYER_LIST_COLUMNS` (rapid and blitz entry data).
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if header:
        writer.writerow(PLAYER_COLUMNS + PLAYER_LIST_COLUMNS if lists else PLAYER_COLUMNS)
    writer.writerows(
        (
            *_player_cells(row),
            _blank_if_none(row.rapid_rating),
            _blank_if_none(row.rapid_games),
            _blank_if_none(row.blitz_rating),
            _blank_if_none(row.blitz_games),
        )
        if lists
        else _player_cells(row)
        for row in rows
    )
    return out.getvalue()


def _player_cells(row: PlayerRow) -> tuple[str, ...]:
    """The cells of :data:`PLAYER_COLUMNS` for one row."""
    return (
        row.name,
        _format_birth(row.birth_date, row.birth_year),
        _blank_if_none(row.fide_id),
        _blank_if_none(row.rating),
        _blank_if_none(row.games),
        "true" if row.k10 else "false",
        row.sex or "",
        row.federation or "",
        row.title or "",
    )


def write_games_csv(rows: Iterable[GameRow], *, header: bool = True, lists: bool = False) -> str:
    """A games file holding ``rows`` (every column of :data:`GAME_COLUMNS`, LF endings).

    :param header: write the header row; pass ``False`` to append a chunk to a file.
    :param lists: also write :data:`GAME_LIST_COLUMNS` (each game's time control).
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if header:
        writer.writerow(_GAME_READ if lists else GAME_COLUMNS)
    writer.writerows(
        (
            row.date.isoformat(),
            row.white,
            row.black,
            row.result.value,
            row.event or "",
            row.round or "",
            *((row.time_control.value if row.time_control else "",) if lists else ()),
        )
        for row in rows
    )
    return out.getvalue()


def _format_birth(birth_date: date | None, birth_year: int | None) -> str:
    if birth_date is not None:
        return birth_date.isoformat()
    return _blank_if_none(birth_year)


def _blank_if_none(value: int | None) -> str:
    return "" if value is None else str(value)
