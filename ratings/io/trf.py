"""FIDE Tournament Report Files (TRF16 and TRF-2026): parse into plain data, and write TRF16.

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
81-84      points (not read: they are derived from the results)
86-89      rank (not read)
92-        one 10-character block per round: opponent (4), blank, colour, blank,
           result, two blanks
=========  ===================================================================

Header records read: ``012`` name, ``042`` start date, ``052`` end date, ``132`` round
dates (one per 10-character round column from col 92). Every other record (``013`` team
lines, ``XX?`` extensions, unprefixed ruler lines, blank lines) is ignored.

Decisions a reader of the code should know:

* Dates may be ``yy.mm.dd`` (TRF's own form; ``00``-``69`` is 20xx, ``70``-``99`` 19xx),
  ``yyyy/mm/dd``, ``yyyy-mm-dd``, ``yyyy.mm.dd`` or day first with a four-digit year
  (``24/09/2010``). A date that does not exist is an error naming the line.
* A game whose colours are missing on both lines gets White = the lower start number.
  Such a game is never rated, whatever its result (SPEC 5: only colour ``w``/``b`` with
  ``1``/``=``/``0`` is rated). A colour given on one line only is taken from that line,
  and that game is not rated either (both lines must say ``w``/``b``).
* A pairing with an opponent but no result (a round not played yet) is an error: importing
  a half-finished event and later the finished file would store its games twice.
* Line numbers are provenance, not content: they are left out of ``==``, so a tournament
  written by :func:`write_trf` and parsed back compares equal to the original.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from ratings import limits
from ratings.errors import InputFileError, LimitError
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
    bye, ``'+'``/``'-'`` a default won/lost without an opponent, ``' '`` blank result."""
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
    entries: dict[int, _Entry]


class _Parser:
    def __init__(self, filename: str) -> None:
        self.filename = filename

    def error(self, line: int, problem: str, field: str | None = None) -> InputFileError:
        return InputFileError(self.filename, line, problem, field)

    # -- values --

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
            yy = int(first)
            year, day = (2000 + yy if yy < 70 else 1900 + yy), int(last)
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

    # -- records --

    def round_dates(self, text: str, line: int) -> dict[int, date]:
        """Record ``132``: dates in the round columns (or, if written from col 5, in order)."""
        found: dict[int, date] = {}
        if text[3:_ROUNDS_FROM].strip():
            # not aligned with the round blocks: take the dates in order
            for number, token in enumerate(text[3:].split(), start=1):
                found[number] = self.day(token, line, f"round {number} date")
            return found
        rest = text[_ROUNDS_FROM:]
        for index in range(0, len(rest), _BLOCK):
            token = rest[index : index + _BLOCK].strip()
            if token:
                number = index // _BLOCK + 1
                found[number] = self.day(token, line, f"round {number} date")
        return found

    def player(self, text: str, line: int) -> _Line:
        """Record ``001``."""
        if len(text.rstrip()) < 15:
            raise self.error(line, "truncated player line (it ends before the name)")
        padded = text.ljust(_ROUNDS_FROM)
        start_no = self.integer(padded[4:8], line, "start number")
        if not start_no:
            raise self.error(line, f"missing start number: {padded[4:8]!r}", "start number")
        sex_code = padded[9].strip().lower()
        if sex_code and sex_code not in _SEX:
            raise self.error(line, f"unknown sex {padded[9]!r} (expected m, w or f)", "sex")
        name = padded[14:47].strip()
        if not name:
            raise self.error(line, "missing name", "name")
        birth_date, birth_year = self.birth(padded[69:79], line)
        player = TrfPlayer(
            start_no=start_no,
            name=name,
            sex=_SEX[sex_code] if sex_code else None,
            title=padded[10:13].strip() or None,
            rating=self.integer(padded[48:52], line, "rating") or None,
            federation=padded[53:56].strip() or None,
            fide_id=self.fide_id(padded[57:68], line),
            birth_date=birth_date,
            birth_year=birth_year,
            line=line,
        )
        entries: dict[int, _Entry] = {}
        rest = text[_ROUNDS_FROM:].rstrip()
        for index in range(0, len(rest), _BLOCK):
            block = rest[index : index + _BLOCK].ljust(_BLOCK)
            if block.strip():
                number = index // _BLOCK + 1
                entries[number] = self.entry(block, line, number)
        return _Line(player, entries)

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
        dates: dict[str, date] = {}
        round_dates: dict[int, date] = {}
        players: dict[int, _Line] = {}
        for number, text in enumerate(lines, start=1):
            record = text[:3]
            if len(text) > 3 and text[3] != " ":
                continue  # ruler lines and anything else that is not a record
            if record == "001":
                parsed = self.player(text, number)
                start_no = parsed.player.start_no
                if start_no in players:
                    first = players[start_no].player.line
                    raise self.error(
                        number,
                        f"start number {start_no} is already used on line {first}",
                        "start number",
                    )
                players[start_no] = parsed
            elif record == "012" and name is None:
                name = self.event_name(text[4:], number)
            elif record in ("042", "052") and record not in dates:
                value = text[4:].strip()
                if value:
                    label = "start date" if record == "042" else "end date"
                    dates[record] = self.day(value, number, label)
            elif record == "132" and not round_dates:
                round_dates = self.round_dates(text, number)
        if not players:
            raise self.error(1, "not a TRF file: no 001 player line")
        games, byes = self.pairings(players)
        return TrfTournament(
            name=name,
            start_date=dates.get("042"),
            end_date=dates.get("052"),
            round_dates=round_dates,
            players=tuple(players[n].player for n in sorted(players)),
            games=tuple(sorted(games, key=lambda g: (g.round, min(g.white, g.black)))),
            byes=tuple(sorted(byes, key=lambda b: (b.round, b.player))),
        )

    def pairings(self, players: dict[int, _Line]) -> tuple[list[TrfGame], list[TrfBye]]:
        """Check that every pairing is mutual and agreed, and collect games and byes."""
        games: list[TrfGame] = []
        byes: list[TrfBye] = []
        seen: set[tuple[int, int]] = set()  # (round, start number) already in a game
        # file order, so the first problem in the file is the one reported
        for own in sorted(players.values(), key=lambda p: p.player.line):
            me = own.player
            for number in sorted(own.entries):
                entry = own.entries[number]
                if not entry.opponent:
                    byes.append(TrfBye(number, me.start_no, entry.result, me.line))
                elif (number, me.start_no) not in seen:
                    games.append(self.game(number, own, entry, players))
                    seen.update({(number, me.start_no), (number, entry.opponent)})
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


def parse_trf(data: bytes, filename: str) -> TrfTournament:
    """Parse a TRF16 or TRF-2026 file.

    Accepts UTF-8 with or without a BOM and Latin-1, and CRLF, LF or bare CR line endings.
    Raises :class:`~ratings.errors.InputFileError` (``FILE:LINE: field: problem``) for a
    file that is not a TRF, a malformed ``001`` line or date, a duplicate or undefined start
    number, and a pairing whose two lines do not point at each other or disagree on colour
    or result.
    """
    return _Parser(filename).parse(data)


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


def write_trf(t: TrfTournament) -> str:
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
