"""FIDE Tournament Report Files (TRF16 and TRF-2026): parse into plain data, and write TRF16.

Over 600 lines: one format, reader and writer sharing the column table; mostly the checks.

Our own parser of the fixed-column ``001`` player line, which TRF16 and TRF-2026 share.
Columns are 1-based and inclusive, as in the FIDE description:

=========  ===================================================================
cols       field
=========  ===================================================================
1-3        record ``001``
5-8        start number
10         sex (``m``; ``w`` or ``f`` for women)
11-13      title
15-47      name
49-52      rating (0 or blank: unrated)
54-56      federation
58-68      FIDE (or national) id (0 or blank: none)
70-79      birth date ``yyyy/mm/dd``; ``yyyy``, ``yyyy/00/00``: the year only
81-84      points declared (``2.5``, ``2,5``; checked against the results, below)
86-89      rank (not read)
92-        one 10-character block per round: opponent (4), blank, colour, blank,
           result, two blanks
=========  ===================================================================

Header records read: ``012`` name, ``042`` start date, ``052`` end date, ``132`` round
dates (one per 10-character round column from col 92), ``XXS`` point values (JaVaFo's
extension). Every other record (``013`` team lines, other ``XX?`` extensions, unprefixed
ruler lines, blank lines) is ignored.

Every problem of a file is reported at once: the parser goes on after a bad line or round
block, leaves it out, and raises all the errors at the end (or hands them to the caller).

Decisions a reader of the code should know:

* Dates may be ``yy.mm.dd`` (TRF's own form; ``00``-``69`` is 20xx, ``70``-``99`` 19xx),
  ``yyyy/mm/dd``, ``yyyy-mm-dd``, ``yyyy.mm.dd`` or day first with a four-digit year
  (``24/09/2010``). Header dates (``042``, ``052``, ``132``) are information, not
  structure: one that cannot be read is a warning and is not used (the games then take the
  other dates, or ``--date``). Some programs write ``yy.dd.mm`` (an Irish file had round
  dates ``11.25.02``); when a file's unreadable two-digit-year date reads as a real date
  that way, the file evidently writes the day before the month, so its two-digit-year
  dates that read as two different days (``11.05.02``: 2 May or 5 February) are not used
  either, with a warning each. Dates that read the same both ways (``11.02.02``) are used.
  A birth date that does not exist is an error.
* Byes with a blank result (``0000 -`` followed by a blank) are worth ½ in some programs
  and 0 in others. The declared points (cols 81-84) tell: when a player's results fall
  short of the declared total by exactly ½ per blank bye, those byes are half-point byes
  (``H``); otherwise they stay blank. A declared total that the results (1, ½, 0;
  ``+`` 1; ``H`` ½; ``F``/``U`` 1; ``Z``/``-`` 0; a blank bye 0 or ½) cannot reach is a
  warning. Files that score games otherwise (an ``XXS`` record with other values) and
  players with no declared points are not checked.
* A game whose colours are missing on both lines gets White = the lower start number.
  Such a game is never rated, whatever its result (docs/RULES.md#what-is-rated: only colour
  ``w``/``b`` with ``1``/``=``/``0`` is rated). A colour given on one line only is taken from that
  line, and that game is not rated either (both lines must say ``w``/``b``).
* A pairing with an opponent but no result (a round not played yet) is an error: importing
  a half-finished event and later the finished file would store its games twice.
* Line numbers are provenance, not content: they are left out of ``==``, so a tournament
  written by :func:`write_trf` and parsed back compares equal to the original.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from ratings import limits
from ratings.errors import InputFileError, LimitError
from ratings.io.notes import FileWarning, hand_over
from ratings.results import Result

__all__ = [
    "TrfBye",
    "TrfGame",
    "TrfPlayer",
    "TrfTournament",
    "parse_trf",
    "write_trf",
]


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """One ``001`` line: a player and their data as the file gives them."""

    start_no: int
    """The player's start (pairing) number in this event."""
    name: str
    """Name as written, surrounding blanks removed."""
    sex: str | None
    """``'m'`` or ``'f'`` (the file's ``w`` is normalised to ``'f'``), None when blank."""
    title: str | None
    """Title as written (``g``, ``GM``, ``wf``, ...), None when blank."""
    rating: int | None
    """Rating in the file; None when 0 or blank (unrated)."""
    federation: str | None
    """Three-letter federation, None when blank."""
    fide_id: int | None
    """The id column (:func:`ratings.limits.fide_id`; a national id in some files); None
    when 0 or blank."""
    birth_date: date | None
    """Full birth date when the file gives one."""
    birth_year: int | None
    """Birth year, also when only the year is known."""
    line: int = field(compare=False)
    """1-based line of the ``001`` record."""
    points: int | None = field(default=None, compare=False)
    """The points the line declares (cols 81-84), in half points; None when blank or not
    a multiple of ½."""


@dataclass(frozen=True, slots=True)
class TrfGame:
    """One pairing with an opponent, counted once (from White's side)."""

    round: int
    """Round number, from 1."""
    white: int
    """White's start number."""
    black: int
    """Black's start number."""
    result: Result
    """Result from White's side; forfeits are ``+/-``, ``-/+`` or ``-/-``."""
    rated: bool
    """True only for a played game with colours ``w``/``b`` and result ``1``/``=``/``0``."""
    white_line: int = field(compare=False)
    """1-based line of White's ``001`` record."""
    black_line: int = field(compare=False)
    """1-based line of Black's ``001`` record."""


@dataclass(frozen=True, slots=True)
class TrfBye:
    """A round entry without an opponent (never a game)."""

    round: int
    """Round number, from 1."""
    player: int
    """The player's start number."""
    code: str
    """``'H'`` half-point, ``'F'`` full-point, ``'U'`` pairing-allocated, ``'Z'`` zero-point
    bye, ``'+'``/``'-'`` a default won/lost without an opponent, ``' '`` blank result (a
    blank that the declared points show to be worth ½ is read as ``'H'``)."""
    line: int = field(compare=False)
    """1-based line of the player's ``001`` record."""


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """Everything :func:`parse_trf` reads from one TRF file (one event)."""

    name: str | None
    """Event name (record ``012``)."""
    start_date: date | None
    """Record ``042``."""
    end_date: date | None
    """Record ``052``."""
    round_dates: dict[int, date]
    """Round number -> date, from record ``132``; rounds without a date are absent."""
    players: tuple[TrfPlayer, ...]
    """In start-number order."""
    games: tuple[TrfGame, ...]
    """By round, then by the lower start number of the pair."""
    byes: tuple[TrfBye, ...]
    """By round, then start number."""
    warnings: tuple[FileWarning, ...] = field(default=(), compare=False)
    """What the parser noticed without refusing the file (unreadable dates, declared
    points that do not add up), in line order."""
    undated_rounds: tuple[int, ...] = field(default=(), compare=False)
    """Rounds whose ``132`` date was written but not used (see the module docstring)."""
    record_lines: dict[str, int] = field(default_factory=dict, compare=False)
    """1-based line of the first non-blank ``042``, ``052`` and ``132`` record (for the
    messages about the dates they hold), and of the ``202`` record read; a record the file
    lacks is absent."""
    tiebreaks: tuple[str, ...] = ()
    """The FIDE tie-breaks the file says the event used, in order (TRF-2026 record ``202``:
    C.07's acronyms, ``BH-C1``, ``SB``, ...), upper case as written; empty when it names
    none (a TRF-16 file has no such record)."""

    def game_date(self, round: int) -> date | None:
        """The date of a round: its ``132`` date if given, else the event's start date."""
        return self.round_dates.get(round, self.start_date)


# --- parsing -------------------------------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(r"[0-9]+")
_DATE = re.compile(r"([0-9]{1,4})([./-])([0-9]{1,2})\2([0-9]{1,4})")
_YEAR = re.compile(r"[0-9]{4}")

_ROUNDS_FROM = 91  # 0-based start of round 1's block (col 92)
_BLOCK = 10

_PLAYED = frozenset("1=0")
_UNRATED_PLAYED = frozenset("WDL")
_FORFEIT = frozenset("+-")
_BYE_CODES = frozenset("HFUZ")
_RESULT_CODES = _PLAYED | _UNRATED_PLAYED | _FORFEIT | _BYE_CODES | {" "}
# what the other line must say for the same game
_OPPOSITE = {
    "1": frozenset("0"),
    "0": frozenset("1"),
    "=": frozenset("="),
    "W": frozenset("L"),
    "L": frozenset("W"),
    "D": frozenset("D"),
    "+": frozenset("-"),
    "-": frozenset("+-"),  # "-" against "-": a double forfeit, neither player appeared
}
_WHITE_RESULT = {
    "1": Result.WHITE_WIN,
    "W": Result.WHITE_WIN,
    "0": Result.BLACK_WIN,
    "L": Result.BLACK_WIN,
    "=": Result.DRAW,
    "D": Result.DRAW,
    "+": Result.WHITE_FORFEIT_WIN,
}
_SEX = {"m": "m", "w": "f", "f": "f"}
_POINTS = re.compile(r"([0-9]{1,3})(?:[.,]([0-9]))?")
_DATE_FIELDS = {"042": "start date", "052": "end date"}
_DATED_RECORDS = ("042", "052", "132")
# XXS keys (JaVaFo) and their standard values: wins, draws, losses, byes, forfeits
_STANDARD_POINTS = {"WW": 1.0, "BW": 1.0, "WD": 0.5, "BD": 0.5, "WL": 0.0, "BL": 0.0}
_STANDARD_POINTS |= {"ZPB": 0.0, "HPB": 0.5, "FPB": 1.0, "PAB": 1.0, "FW": 1.0, "FL": 0.0}
T = TypeVar("T")


def _century(yy: int) -> int:
    """A two-digit year: ``00``-``69`` is 20xx, ``70``-``99`` 19xx."""
    return 2000 + yy if yy < 70 else 1900 + yy


def _day_first(text: str) -> date | None:
    """``text`` read as ``yy.dd.mm`` (two-digit year first, then day, then month), or None
    when it is not a date that way."""
    m = _DATE.fullmatch(text)
    if m is None or len(m.group(1)) > 2 or len(m.group(4)) > 2:
        return None
    try:
        return date(_century(int(m.group(1))), int(m.group(4)), int(m.group(3)))
    except ValueError:
        return None


def _score(half_points: int) -> str:
    """Half points as a score: ``5`` -> ``2.5``."""
    return f"{half_points // 2}.{5 * (half_points % 2)}"


@dataclass(frozen=True, slots=True)
class _Entry:
    """One non-blank round block of a player line."""

    opponent: int  # 0: none
    colour: str | None  # 'w', 'b' or None
    result: str  # one of _RESULT_CODES
    text: str  # the block as written, for messages


@dataclass(slots=True)
class _Line:
    player: TrfPlayer
    entries: dict[int, _Entry | None]
    """Round -> entry; None for a block that could not be read (already reported)."""


_NONE = _Entry(0, None, " ", "")  # a default that is not None, for dict.get


class _Parser:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.errors: list[InputFileError] = []
        self.warnings: list[FileWarning] = []
        self.standard_scoring = True  # until an XXS record says otherwise
        # start numbers of lines left out after an error: pairings with them are not checked
        self.broken: set[int] = set()

    def error(self, line: int, problem: str, field: str | None = None) -> InputFileError:
        return InputFileError(self.filename, line, problem, field)

    def note(self, line: int | None, problem: str, field: str | None = None) -> None:
        """A warning: the import goes on."""
        self.warnings.append(FileWarning(self.filename, line, problem, field))

    # -- values (they raise; the record methods collect) --

    def integer(self, text: str, line: int, field: str) -> int | None:
        """A blank or non-negative whole number; blank -> None."""
        text = text.strip()
        if not text:
            return None
        if not _DIGITS.fullmatch(text):
            raise self.error(line, f"not a whole number: {text!r}", field)
        return int(text)

    def fide_id(self, text: str, line: int) -> int | None:
        """The id column: blank or 0 is none, else :func:`ratings.limits.fide_id`."""
        text = text.strip()
        if not text or (limits.is_ascii_digits(text) and not text.strip("0")):
            return None
        try:
            return limits.fide_id(text)
        except LimitError as exc:
            raise self.error(line, str(exc), "FIDE id") from None

    def event_name(self, text: str, line: int) -> str | None:
        """Record ``012``: the event's name, at most :data:`ratings.limits.MAX_EVENT_LENGTH`."""
        name = text.strip()
        if not name:
            return None
        try:
            return limits.check_text(name, limits.MAX_EVENT_LENGTH)
        except LimitError as exc:
            raise self.error(line, str(exc), "event name") from None

    def day(self, text: str, line: int, field: str) -> date:
        """A calendar date in any of the accepted spellings."""
        year, month, day = self.date_parts(text, line, field)
        try:
            return date(year, month, day)
        except ValueError:
            raise self.error(line, f"impossible date {text!r}", field) from None

    def date_parts(self, text: str, line: int, field: str) -> tuple[int, int, int]:
        m = _DATE.fullmatch(text)
        if m is None:
            raise self.error(line, f"not a date: {text!r}", field)
        first, _, middle, last = m.groups()
        if len(first) == 4 and len(last) <= 2:
            year, day = int(first), int(last)
        elif len(last) == 4 and len(first) <= 2:
            year, day = int(last), int(first)
        elif len(first) <= 2 and len(last) <= 2:
            year, day = _century(int(first)), int(last)
        else:
            raise self.error(line, f"not a date: {text!r}", field)
        return year, int(middle), day

    def birth(self, text: str, line: int) -> tuple[date | None, int | None]:
        """Birth date and year; a zero month or day (``1978/00/00``) means the year only."""
        text = text.strip()
        if not text or text == "0":
            return None, None
        if _YEAR.fullmatch(text):
            year = int(text)
            return None, (year or None)
        year, month, day = self.date_parts(text, line, "birth date")
        if year == 0:
            return None, None
        if month == 0 or day == 0:
            return None, year
        try:
            return date(year, month, day), year
        except ValueError:
            raise self.error(line, f"impossible date {text!r}", "birth date") from None

    def points(self, text: str, line: int) -> int | None:
        """Cols 81-84 in half points; None (with a warning) when not a multiple of ½."""
        text = text.strip()
        if not text:
            return None
        m = _POINTS.fullmatch(text)
        if m is None or m.group(2) not in (None, "0", "5"):
            self.note(line, f"not a score in points and halves: {text!r}; not checked", "points")
            return None
        return 2 * int(m.group(1)) + (m.group(2) == "5")

    # -- header dates: read at the end, together (see the module docstring) --

    def dates(self, written: list[tuple[str, int, str]]) -> tuple[dict[str, date], set[str]]:
        """(field -> date) for the header dates that can be used, and the fields written
        but not used. ``written`` holds (field, line, text) in file order."""
        readings: dict[str, date | InputFileError] = {}
        for label, line, text in written:
            try:
                readings[label] = self.day(text, line, label)
            except InputFileError as exc:
                readings[label] = exc
        # an unreadable date that is a date as yy.dd.mm: the file writes the day first
        day_first = any(
            isinstance(readings[label], InputFileError) and _day_first(text) is not None
            for label, _, text in written
        )
        used: dict[str, date] = {}
        for label, line, text in written:
            reading = readings[label]
            other = _day_first(text)
            if isinstance(reading, InputFileError):
                hint = f" (as yy.dd.mm it would be {other})" if other else ""
                self.note(line, f"{reading.problem}{hint}; not used", label)
            elif day_first and other is not None and other != reading:
                self.note(
                    line,
                    f"{text!r} may be {reading} (yy.mm.dd) or {other} (yy.dd.mm, as other "
                    "dates of this file are written); not used",
                    label,
                )
            else:
                used[label] = reading
        return used, {label for label, _, _ in written} - set(used)

    def round_dates(self, text: str, line: int) -> list[tuple[str, int, str]]:
        """Record ``132``: (field, line, text) of the dates in the round columns (or, if
        written from col 5, in order)."""
        found: list[tuple[str, int, str]] = []
        if text[3:_ROUNDS_FROM].strip():
            # not aligned with the round blocks: take the dates in order
            for number, token in enumerate(text[3:].split(), start=1):
                found.append((f"round {number} date", line, token))
            return found
        rest = text[_ROUNDS_FROM:]
        for index in range(0, len(rest), _BLOCK):
            token = rest[index : index + _BLOCK].strip()
            if token:
                found.append((f"round {index // _BLOCK + 1} date", line, token))
        return found

    def scoring(self, text: str, line: int) -> None:
        """Record ``XXS``: point values other than 1, ½, 0 turn the points check off."""
        for item in text[4:].split():
            key, _, value = item.partition("=")
            standard = _STANDARD_POINTS.get(key.upper())
            try:
                points = float(value)
            except ValueError:
                points = None
            if standard is not None and points != standard:
                self.standard_scoring = False
                self.note(line, f"the file scores {item}; declared points are not checked", "XXS")
                return

    # -- records --

    def player(self, text: str, line: int) -> _Line | None:
        """Record ``001``; None when its start number cannot be read."""
        if len(text.rstrip()) < 15:
            self.errors.append(self.error(line, "truncated player line (it ends before the name)"))
            if _DIGITS.fullmatch(text[4:8].strip()):
                self.broken.add(int(text[4:8]))
            return None
        padded = text.ljust(_ROUNDS_FROM)
        try:
            start_no = self.integer(padded[4:8], line, "start number")
        except InputFileError as exc:
            self.errors.append(exc)
            return None
        if not start_no:
            problem = f"missing start number: {padded[4:8]!r}"
            self.errors.append(self.error(line, problem, "start number"))
            return None
        sex_code = padded[9].strip().lower()
        if sex_code and sex_code not in _SEX:
            self.errors.append(
                self.error(line, f"unknown sex {padded[9]!r} (expected m, w or f)", "sex")
            )
        name = padded[14:47].strip()
        if not name:
            self.errors.append(self.error(line, "missing name", "name"))
        birth = self.collect(self.birth, padded[69:79], line)
        player = TrfPlayer(
            start_no=start_no,
            name=name,
            sex=_SEX.get(sex_code),
            title=padded[10:13].strip() or None,
            rating=self.collect(self.integer, padded[48:52], line, "rating") or None,
            federation=padded[53:56].strip() or None,
            fide_id=self.collect(self.fide_id, padded[57:68], line),
            birth_date=birth[0] if birth else None,
            birth_year=birth[1] if birth else None,
            line=line,
            points=self.points(padded[80:84], line),
        )
        entries: dict[int, _Entry | None] = {}
        rest = text[_ROUNDS_FROM:].rstrip()
        for index in range(0, len(rest), _BLOCK):
            block = rest[index : index + _BLOCK].ljust(_BLOCK)
            if block.strip():
                number = index // _BLOCK + 1
                entries[number] = self.collect(self.entry, block, line, number)
        return _Line(player, entries)

    def collect(self, parse: Callable[..., T], *args: Any) -> T | None:
        """``parse(*args)``, or None after adding the error it raised to the file's list."""
        try:
            return parse(*args)
        except InputFileError as exc:
            self.errors.append(exc)
            return None

    def entry(self, block: str, line: int, number: int) -> _Entry:
        """One 10-character round block: ``OOOO C R  ``."""
        where = f"round {number}"
        if (block[4] + block[6] + block[8:]).strip():
            raise self.error(line, f"malformed round block {block.rstrip()!r}", where)
        opponent = self.integer(block[0:4], line, f"{where} opponent") or 0
        colour = block[5].lower()
        if colour not in ("w", "b", "-", " "):
            raise self.error(line, f"unknown colour {block[5]!r} (expected w, b or -)", where)
        result = block[7].upper()
        if result not in _RESULT_CODES:
            raise self.error(line, f"unknown result code {block[7]!r}", where)
        if opponent:
            if result == " ":
                raise self.error(line, f"no result against {opponent}", where)
            if result in _BYE_CODES:
                raise self.error(line, f"bye code {result!r} with an opponent ({opponent})", where)
        elif result in _PLAYED | _UNRATED_PLAYED:
            raise self.error(line, f"result {result!r} without an opponent", where)
        return _Entry(opponent, colour if colour in ("w", "b") else None, result, block.rstrip())

    # -- the whole file --

    def parse(self, data: bytes) -> TrfTournament:
        lines = _LINE_BREAK.split(_decode(data))
        name: str | None = None
        written: list[tuple[str, int, str]] = []  # header dates: (field, line, text)
        seen_records: set[str] = set()
        players: dict[int, _Line] = {}
        record_lines: dict[str, int] = {}
        tiebreaks: tuple[str, ...] = ()
        for number, text in enumerate(lines, start=1):
            record = text[:3]
            if len(text) > 3 and text[3] != " ":
                continue  # ruler lines and anything else that is not a record
            if record in _DATED_RECORDS and record not in record_lines and text[4:].strip():
                record_lines[record] = number
            if record == "001":
                parsed = self.player(text, number)
                if parsed is None:
                    continue
                start_no = parsed.player.start_no
                if start_no in players:
                    first = players[start_no].player.line
                    self.broken.add(start_no)
                    self.errors.append(
                        self.error(
                            number,
                            f"start number {start_no} is already used on line {first}",
                            "start number",
                        )
                    )
                    continue
                players[start_no] = parsed
            elif record == "012" and name is None:
                name = self.collect(self.event_name, text[4:], number)
            elif record in ("042", "052") and record not in seen_records:
                value = text[4:].strip()
                if value:
                    seen_records.add(record)
                    written.append((_DATE_FIELDS[record], number, value))
            elif record == "132" and record not in seen_records:
                found = self.round_dates(text, number)
                if found:
                    seen_records.add(record)
                    written.extend(found)
            elif record == "202" and not tiebreaks:
                record_lines["202"] = number
                tiebreaks = tuple(
                    code.upper() for code in re.split(r"[,;\s]+", text[4:].strip()) if code
                )
            elif record == "XXS" and self.standard_scoring:
                self.scoring(text, number)
        if not players and not self.errors:
            raise self.error(1, "not a TRF file: no 001 player line")
        used, dropped = self.dates(written)
        games, byes = self.pairings(players)
        byes = self.reconcile(players, byes)
        return TrfTournament(
            name=name,
            start_date=used.get("start date"),
            end_date=used.get("end date"),
            round_dates={
                int(label.split()[1]): day
                for label, day in used.items()
                if label.startswith("round ")
            },
            players=tuple(players[n].player for n in sorted(players)),
            games=tuple(sorted(games, key=lambda g: (g.round, min(g.white, g.black)))),
            byes=tuple(sorted(byes, key=lambda b: (b.round, b.player))),
            warnings=tuple(sorted(self.warnings, key=lambda w: w.line or 0)),
            undated_rounds=tuple(
                sorted(int(label.split()[1]) for label in dropped if label.startswith("round "))
            ),
            record_lines=record_lines,
            tiebreaks=tiebreaks,
        )

    def pairings(self, players: dict[int, _Line]) -> tuple[list[TrfGame], list[TrfBye]]:
        """Check that every pairing is mutual and agreed, and collect games and byes."""
        games: list[TrfGame] = []
        byes: list[TrfBye] = []
        seen: set[tuple[int, int]] = set()  # (round, start number) already in a game
        # file order, so that the problems come in the order of the file
        for own in sorted(players.values(), key=lambda p: p.player.line):
            me = own.player
            for number in sorted(own.entries):
                entry = own.entries[number]
                if entry is None:
                    continue  # a malformed block, already reported
                if not entry.opponent:
                    byes.append(TrfBye(number, me.start_no, entry.result, me.line))
                elif (number, me.start_no) not in seen:
                    seen.update({(number, me.start_no), (number, entry.opponent)})
                    other = players.get(entry.opponent)
                    if entry.opponent in self.broken or (
                        other is not None and other.entries.get(number, _NONE) is None
                    ):
                        continue  # the other line or its block is bad, already reported
                    game = self.collect(self.game, number, own, entry, players)
                    if game is not None:
                        games.append(game)
        return games, byes

    def game(self, number: int, own: _Line, entry: _Entry, players: dict[int, _Line]) -> TrfGame:
        me = own.player
        where = f"round {number}"
        if entry.opponent == me.start_no:
            raise self.error(me.line, f"player {me.start_no} plays himself", where)
        other = players.get(entry.opponent)
        if other is None:
            raise self.error(
                me.line,
                f"player {me.start_no} plays {entry.opponent}, "
                f"but start number {entry.opponent} is not defined (no 001 line)",
                where,
            )
        you = other.player
        back = other.entries.get(number)
        if back is None or back.opponent != me.start_no:
            has = _describe(back)
            raise self.error(
                me.line,
                f"player {me.start_no} plays {you.start_no} but line {you.line} "
                f"(player {you.start_no}) has {has}",
                where,
            )
        both = (
            f"line {me.line} has {entry.text.strip()!r}, line {you.line} has {back.text.strip()!r}"
        )
        if back.result not in _OPPOSITE[entry.result]:
            raise self.error(
                me.line,
                f"players {me.start_no} and {you.start_no} disagree on the result: {both}",
                where,
            )
        if entry.colour is not None and entry.colour == back.colour:
            raise self.error(
                me.line,
                f"players {me.start_no} and {you.start_no} disagree on the colours: {both}",
                where,
            )
        if entry.colour == "w" or back.colour == "b":
            white, black = (own, entry), (other, back)
        elif entry.colour == "b" or back.colour == "w":
            white, black = (other, back), (own, entry)
        else:  # no colours on either line: White is the lower start number (not rated)
            white, black = sorted([(own, entry), (other, back)], key=lambda s: s[0].player.start_no)
        white_result = white[1].result
        if white_result == "-":
            result = Result.DOUBLE_FORFEIT if black[1].result == "-" else Result.BLACK_FORFEIT_WIN
        else:
            result = _WHITE_RESULT[white_result]
        rated = white_result in _PLAYED and white[1].colour == "w" and black[1].colour == "b"
        return TrfGame(
            round=number,
            white=white[0].player.start_no,
            black=black[0].player.start_no,
            result=result,
            rated=rated,
            white_line=white[0].player.line,
            black_line=black[0].player.line,
        )

    def reconcile(self, players: dict[int, _Line], byes: list[TrfBye]) -> list[TrfBye]:
        """Blank-result byes worth ½ by the declared points become ``H``; declared totals
        the results cannot reach are warnings (see the module docstring)."""
        if not self.standard_scoring or self.errors:
            return byes
        blanks: dict[int, list[int]] = {}  # start number -> indexes of its blank byes
        for i, bye in enumerate(byes):
            if bye.code == " ":
                blanks.setdefault(bye.player, []).append(i)
        for start_no in sorted(players, key=lambda n: players[n].player.line):
            own = players[start_no]
            declared = own.player.points
            if declared is None:
                continue
            scored = sum(_HALF_POINTS[e.result] for e in own.entries.values() if e is not None)
            mine = blanks.get(start_no, [])
            missing = declared - scored
            if missing == 0:
                continue
            if mine and missing == len(mine):
                for i in mine:
                    byes[i] = TrfBye(byes[i].round, start_no, "H", byes[i].line)
                continue
            results = f"the results add up to {_score(scored)}"
            if mine:
                count = (
                    "a blank-result bye worth 0 or ½"
                    if len(mine) == 1
                    else f"{len(mine)} blank-result byes worth 0 or ½ each"
                )
                results += f" and {count}; stored as blank"
            self.note(
                own.player.line,
                f"player {start_no} declares {_score(declared)} points, {results}",
                "points",
            )
        return byes


def _describe(entry: _Entry | None) -> str:
    """What a round entry holds, for the message about a pairing that is not mutual."""
    if entry is None:
        return "no entry"
    return str(entry.opponent) if entry.opponent else "a bye"


def _decode(data: bytes) -> str:
    """UTF-8 (a BOM removed), else Latin-1."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
    return text.removeprefix("\ufeff")


def parse_trf(
    data: bytes, filename: str, *, errors: list[InputFileError] | None = None
) -> TrfTournament:
    """Parse a TRF16 or TRF-2026 file.

    Accepts UTF-8 with or without a BOM and Latin-1, and CRLF, LF or bare CR line endings.
    Problems (``FILE:LINE: field: problem``): a file that is not a TRF, a malformed ``001``
    line, round block or birth date, a duplicate or undefined start number, and a pairing
    whose two lines do not point at each other or disagree on colour or result. Every one
    is found: a bad line or block is left out and the parsing goes on. Header dates that
    cannot be read and declared points that do not add up are warnings
    (:attr:`TrfTournament.warnings`).

    :param errors: a list that receives every problem; the tournament returned then holds
        what could be read. Without one the problems are raised.
    :raises InputFileError: for one problem, :class:`~ratings.errors.InputFileErrors` for
        several, when no ``errors`` list is given.
    """
    parser = _Parser(filename)
    tournament = parser.parse(data)
    found = sorted(parser.errors, key=lambda e: e.line or 0)
    hand_over(found, errors)
    return tournament


# --- writing -------------------------------------------------------------------------------

# points for a result code, in half points (standard scoring; a blank bye scores 0)
_HALF_POINTS = {"1": 2, "=": 1, "0": 0, "W": 2, "D": 1, "L": 0, "+": 2, "-": 0}
_HALF_POINTS |= {"H": 1, "F": 2, "U": 2, "Z": 0, " ": 0}
_SIDES = {
    # result -> (white's code, black's code), rated / not rated
    (Result.WHITE_WIN, True): ("1", "0"),
    (Result.BLACK_WIN, True): ("0", "1"),
    (Result.DRAW, True): ("=", "="),
    (Result.WHITE_WIN, False): ("W", "L"),
    (Result.BLACK_WIN, False): ("L", "W"),
    (Result.DRAW, False): ("D", "D"),
    (Result.WHITE_FORFEIT_WIN, False): ("+", "-"),
    (Result.BLACK_FORFEIT_WIN, False): ("-", "+"),
    (Result.DOUBLE_FORFEIT, False): ("-", "-"),
}


def _fit(value: object, width: int, what: str, *, left: bool = False) -> str:
    text = "" if value is None else str(value)
    if len(text) > width:
        raise ValueError(f"{what} does not fit in {width} characters: {text!r}")
    return text.ljust(width) if left else text.rjust(width)


def _trf_date(day: date) -> str:
    """``yy/mm/dd`` (TRF's own form) when the century is unambiguous, else ``yyyy/mm/dd``."""
    if 1970 <= day.year <= 2069:
        return day.strftime("%y/%m/%d")
    return f"{day.year:04d}/{day.month:02d}/{day.day:02d}"


def _birth(player: TrfPlayer) -> str:
    if player.birth_date is not None:
        return player.birth_date.strftime("%Y/%m/%d")
    if player.birth_year is not None:
        return f"{player.birth_year:04d}/00/00"
    return ""


def write_trf(t: TrfTournament) -> str:  # noqa: C901 (each TRF record's column checks sit beside the record they guard)
    """The tournament as a TRF16 file (LF line endings) that :func:`parse_trf` reads back equal.

    Points are computed with standard scoring, and ranks follow from them. Raises
    :class:`ValueError` when a value does not fit its column (a name over 33 characters,
    a start number over 9999, ...) or a player has two entries in one round.
    """
    for p in t.players:
        if p.start_no < 1:
            raise ValueError(f"start number must be positive: {p.start_no!r}")
    blocks: dict[int, dict[int, str]] = {p.start_no: {} for p in t.players}
    if len(blocks) != len(t.players):
        raise ValueError("two players have the same start number")
    halves = dict.fromkeys(blocks, 0)

    def put(player: int, number: int, block: str, code: str) -> None:
        if player not in blocks:
            raise ValueError(f"round {number}: start number {player} is not a player")
        if number < 1 or number in blocks[player]:
            raise ValueError(f"round {number}: player {player} has two entries")
        blocks[player][number] = block
        halves[player] += _HALF_POINTS[code]

    for game in t.games:
        codes = _SIDES.get((game.result, game.rated))
        if codes is None:
            raise ValueError(f"round {game.round}: a forfeit cannot be rated")
        white, black = codes
        put(game.white, game.round, f"{_fit(game.black, 4, 'start number')} w {white}", white)
        put(game.black, game.round, f"{_fit(game.white, 4, 'start number')} b {black}", black)
    for bye in t.byes:
        if bye.code not in _BYE_CODES | _FORFEIT | {" "}:
            raise ValueError(f"round {bye.round}: unknown bye code {bye.code!r}")
        put(bye.player, bye.round, f"0000 - {bye.code}", bye.code)

    order = sorted(blocks, key=lambda n: (-halves[n], n))
    rank = {n: i for i, n in enumerate(order, start=1)}
    out: list[str] = []
    if t.name is not None:
        out.append(f"012 {t.name}")
    if t.start_date is not None:
        out.append(f"042 {t.start_date:%Y/%m/%d}")
    if t.end_date is not None:
        out.append(f"052 {t.end_date:%Y/%m/%d}")
    out.append(f"062 {len(t.players)}")
    if t.round_dates:
        last = max(t.round_dates)
        columns = (
            _trf_date(t.round_dates[n]).ljust(_BLOCK) if n in t.round_dates else " " * _BLOCK
            for n in range(1, last + 1)
        )
        out.append(("132".ljust(_ROUNDS_FROM) + "".join(columns)).rstrip())
    for p in t.players:
        if "\n" in p.name or "\r" in p.name:
            raise ValueError(f"a name holds a line break: {p.name!r}")
        sex = {"m": "m", "f": "w", None: " "}.get(p.sex)
        if sex is None:
            raise ValueError(f"unknown sex {p.sex!r} (expected 'm', 'f' or None)")
        fixed = " ".join(
            [
                "001",
                _fit(p.start_no, 4, "start number"),
                sex + _fit(p.title, 3, "title"),
                _fit(p.name, 33, "name", left=True),
                _fit(p.rating, 4, "rating"),
                _fit(p.federation, 3, "federation", left=True),
                _fit(p.fide_id, 11, "FIDE id"),
                _fit(_birth(p), 10, "birth date", left=True),
                _fit(f"{halves[p.start_no] // 2}.{5 * (halves[p.start_no] % 2)}", 4, "points"),
                _fit(rank[p.start_no], 4, "rank"),
            ]
        )
        rounds = blocks[p.start_no]
        line = (
            fixed
            + "  "
            + "".join(rounds.get(n, "").ljust(_BLOCK) for n in range(1, max(rounds, default=0) + 1))
        )
        out.append(line.rstrip())
    return "\n".join(out) + "\n"
