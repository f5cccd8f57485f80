"""Game results from PGN tag pairs (python-chess ``read_headers``; movetext is never parsed).

Tags read: ``White``, ``Black``, ``Result``, ``Date`` (else ``EventDate``, else ``UTCDate``),
``Event``, ``Round``, ``WhiteFideId``, ``BlackFideId``. Games with result ``*`` are skipped
and counted, and so are the tag-less "games" python-chess yields for stray text (for example
movetext after a blank line in a comment).

Line numbers are counted as python-chess consumes lines (it reads with ``readline`` only),
so each game knows the line of its first tag and errors name the line of the bad tag.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import date

import chess.pgn

from ratings import limits
from ratings.errors import InputFileError, LimitError
from ratings.results import Result

__all__ = ["PgnGame", "PgnImport", "parse_pgn"]


@dataclass(frozen=True, slots=True)
class PgnGame:
    """The tags of one finished game."""

    white: str
    """White's name as written."""
    black: str
    """Black's name as written."""
    white_fide_id: int | None
    """``WhiteFideId`` (:func:`ratings.limits.fide_id`), None when missing, ``?``, ``-`` or 0."""
    black_fide_id: int | None
    """``BlackFideId`` (:func:`ratings.limits.fide_id`), None when missing, ``?``, ``-`` or 0."""
    result: Result
    """``1-0``, ``0-1`` or ``1/2-1/2``."""
    date: date | None
    """The first fully known of ``Date``, ``EventDate``, ``UTCDate``; None if none is."""
    event: str | None
    """``Event``, None when missing or ``?``."""
    round: str | None
    """``Round`` as written (``3.3``), None when missing, ``?`` or ``-``."""
    line: int
    """1-based line of the game's first tag."""


@dataclass(frozen=True, slots=True)
class PgnImport:
    """What :func:`parse_pgn` found in one file."""

    games: tuple[PgnGame, ...]
    """Finished games, in file order."""
    skipped_unfinished: int
    """Games with result ``*`` (or no ``Result`` tag)."""
    skipped_phantom: int
    """Tag-less, empty "games" that python-chess yields for stray text."""


_DATE = re.compile(r"([0-9]{4})[./-]([0-9]{2})[./-]([0-9]{2})")
_RESULTS = {"1-0": Result.WHITE_WIN, "0-1": Result.BLACK_WIN, "1/2-1/2": Result.DRAW}
_DATE_TAGS = ("Date", "EventDate", "UTCDate")
_UNKNOWN = frozenset({"", "?", "-"})


class _LineCounter(io.StringIO):
    """A text stream that counts the lines read and where each tag of the current game was."""

    def __init__(self, text: str) -> None:
        super().__init__(text, newline=None)  # universal newlines: CRLF, LF and bare CR
        self.lines_read = 0
        self.tag_lines: dict[str, int] = {}
        self.first_tag_line: int | None = None

    def next_game(self) -> None:
        """Forget the tags of the game before."""
        self.tag_lines = {}
        self.first_tag_line = None

    # typeshed's StringIO bases disagree on readline (bytes vs str); it ignores this too
    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        line = super().readline(size)
        if line:  # python-chess reads whole lines (no size)
            self.lines_read += 1
        if line.startswith("["):
            match = chess.pgn.TAG_REGEX.match(line)
            if match:
                self.tag_lines[match.group(1)] = self.lines_read
                if self.first_tag_line is None:
                    self.first_tag_line = self.lines_read
        return line


def _decode(data: bytes) -> str:
    """UTF-8 (a BOM removed), else Latin-1."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
    return text.removeprefix("\ufeff")


class _Game:
    """One game's headers, with the means to report a located error."""

    def __init__(self, headers: chess.pgn.Headers, reader: _LineCounter, filename: str):
        self.headers = headers
        self.filename = filename
        self.tag_lines = dict(reader.tag_lines)
        self.line = reader.first_tag_line or reader.lines_read

    def error(self, tag: str, problem: str) -> InputFileError:
        return InputFileError(self.filename, self.tag_lines.get(tag, self.line), problem, tag)

    def optional(self, tag: str) -> str | None:
        value = self.headers.get(tag, "").strip()
        return None if value in _UNKNOWN else value

    def text(self, tag: str, limit: int) -> str | None:
        """An optional tag stored as text: at most ``limit`` characters, no control ones."""
        value = self.optional(tag)
        if value is None:
            return None
        try:
            return limits.check_text(value, limit)
        except LimitError as exc:
            raise self.error(tag, str(exc)) from None

    def name(self, tag: str) -> str:
        value = self.headers.get(tag, "")
        if value.strip() in _UNKNOWN:
            raise self.error(tag, "missing player name")
        try:
            limits.check_text(" ".join(value.split()), limits.MAX_NAME_LENGTH)
        except LimitError as exc:
            raise self.error(tag, str(exc)) from None
        if limits.has_control_character(value):
            raise self.error(tag, f"contains a control character: {limits.show(value)}")
        return value

    def fide_id(self, tag: str) -> int | None:
        value = self.optional(tag)
        if value is None or (limits.is_ascii_digits(value) and not value.strip("0")):
            return None  # 0: unknown
        try:
            return limits.fide_id(value)
        except LimitError as exc:
            raise self.error(tag, str(exc)) from None

    def date(self) -> date | None:
        for tag in _DATE_TAGS:
            value = self.headers.get(tag, "").strip()
            match = _DATE.fullmatch(value)
            if match is None:
                continue  # missing, or with unknown parts ("2021.07.??")
            year, month, day = (int(part) for part in match.groups())
            try:
                return date(year, month, day)
            except ValueError:
                raise self.error(tag, f"impossible date {value!r}") from None
        return None


def parse_pgn(data: bytes, filename: str) -> PgnImport:
    """Read the tags of every game in a PGN file (UTF-8 with or without BOM, or Latin-1).

    Raises :class:`~ratings.errors.InputFileError` for a ``Result`` other than ``1-0``,
    ``0-1``, ``1/2-1/2`` or ``*``, a missing ``White``/``Black`` name, a FIDE id outside
    :func:`ratings.limits.fide_id`, a date that does not exist, and a name, ``Event`` or
    ``Round`` longer than :mod:`ratings.limits` allows or holding a control character.
    """
    reader = _LineCounter(_decode(data))
    games: list[PgnGame] = []
    unfinished = phantom = 0
    while True:
        reader.next_game()
        headers = chess.pgn.read_headers(reader)
        if headers is None:
            break
        if reader.first_tag_line is None:
            phantom += 1
            continue
        game = _Game(headers, reader, filename)
        text = headers.get("Result", "*").strip()
        if text == "*":
            unfinished += 1
            continue
        result = _RESULTS.get(text)
        if result is None:
            raise game.error("Result", f"unknown result {text!r} (expected 1-0, 0-1, 1/2-1/2 or *)")
        games.append(
            PgnGame(
                white=game.name("White"),
                black=game.name("Black"),
                white_fide_id=game.fide_id("WhiteFideId"),
                black_fide_id=game.fide_id("BlackFideId"),
                result=result,
                date=game.date(),
                event=game.text("Event", limits.MAX_EVENT_LENGTH),
                round=game.text("Round", limits.MAX_ROUND_LENGTH),
                line=game.line,
            )
        )
    return PgnImport(tuple(games), skipped_unfinished=unfinished, skipped_phantom=phantom)
