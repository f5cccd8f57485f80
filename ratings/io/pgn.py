"""Game results from PGN tag pairs (python-chess ``read_headers``; movetext is never parsed).

Tags read: ``White``, ``Black``, ``Result``, ``Date`` (else ``EventDate``, else ``UTCDate``),
``Event``, ``Round``, ``WhiteFideId``, ``BlackFideId``, ``WhiteTitle``, ``BlackTitle``,
``TimeControl``, and on request (``elo=True``) ``WhiteElo``, ``BlackElo``. Games with result
``*`` are skipped and counted, and so are the tag-less "games" python-chess yields for stray
text (for example movetext after a blank line in a comment).

Names: a rating written in parentheses after a name (``Kasparov (2795)``, as some databases
export it when the Elo tag is ``?``) is not part of the name; with ``elo=True`` it stands in
for a missing Elo tag. Only 3 or 4 digits up to :data:`ratings.limits.MAX_RATING` are taken
for a rating, so ``Open (2024)`` keeps its parentheses only if it is over 3500.

Titles: ``GM IM FM CM WGM WIM WFM WCM`` (any case, :func:`ratings.limits.title`); other
values (``NM``, Lichess ``BOT``...) are not titles the register stores and read as None.

Time controls: the ``TimeControl`` tag gives the FIDE list of a game
(:func:`ratings.rules.pgn_time_control`: standard, rapid or blitz by the time for 60 moves,
increments included). A tag that cannot be read, ``?``, ``-``, or 3 minutes or less, and the
games of one ``Event`` whose tags name different lists, are problems located like the others,
but kept apart in :attr:`PgnImport.time_control_problems`: the game is kept (its time control
None) and nothing is raised, because whether they stop an import depends on whether the user
gave the time control (``--time-control``), which is the caller's to know.

Every problem of a file is reported: the parser goes on after a bad game (the game is left
out) and raises them all at the end, or hands them to the caller's list.

Line numbers are counted as python-chess consumes lines (it reads with ``readline`` only),
so each game knows the line of its first tag and errors name the line of the bad tag.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

import chess.pgn

from ratings import limits
from ratings.errors import InputFileError, LimitError
from ratings.io.notes import hand_over
from ratings.results import Result
from ratings.rules import InvalidTimeControlError, TimeControl, pgn_time_control

__all__ = ["PgnElo", "PgnGame", "PgnImport", "parse_pgn"]


@dataclass(frozen=True, slots=True)
class PgnElo:
    """A rating the file gives one player in one game."""

    value: int
    """The rating, 1 to :data:`ratings.limits.MAX_RATING` (0, ``?`` and ``-`` are none)."""
    tag: str
    """Where it is written: ``WhiteElo``/``BlackElo``, or ``White``/``Black`` for a rating in
    parentheses after the name."""
    line: int = field(compare=False)
    """1-based line of that tag."""


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
    white_title: str | None = None
    """``WhiteTitle`` when it is one of :data:`ratings.limits.TITLES` (upper-case), else None."""
    black_title: str | None = None
    """``BlackTitle``, as :attr:`white_title`."""
    white_elo: PgnElo | None = None
    """``WhiteElo``, else the rating after White's name; read only with ``elo=True``."""
    black_elo: PgnElo | None = None
    """``BlackElo``, else the rating after Black's name; read only with ``elo=True``."""
    time_control: TimeControl | None = None
    """The FIDE list the ``TimeControl`` tag puts the game on
    (:func:`ratings.rules.pgn_time_control`); None when the tag is absent, or is a problem
    (then in :attr:`PgnImport.time_control_problems`)."""


@dataclass(frozen=True, slots=True)
class PgnImport:
    """What :func:`parse_pgn` found in one file."""

    games: tuple[PgnGame, ...]
    """Finished games, in file order."""
    skipped_unfinished: int
    """Games with result ``*`` (or no ``Result`` tag; but a file that ends in the tags of a
    game without one, before any moves, was cut short: a problem)."""
    skipped_phantom: int
    """Tag-less, empty "games" that python-chess yields for stray text."""
    time_control_problems: tuple[InputFileError, ...] = ()
    """``TimeControl`` problems, in file order, each naming the line of the tag: a tag that
    cannot be read, ``?``, ``-``, or 3 minutes or less (rated on no FIDE list); and an event
    whose games name different lists (reported at the first game of each other list). Not
    raised and not in ``errors``: the games are kept, and the caller decides (see the module
    docstring)."""


_DATE = re.compile(r"([0-9]{4})[./-]([0-9]{2})[./-]([0-9]{2})")
# a name followed by a rating in parentheses: "Kasparov (2795)"
_RATED_NAME = re.compile(r"(.*?\S)\s*\(([0-9]{3,4})\)\s*", re.DOTALL)
_RESULTS = {"1-0": Result.WHITE_WIN, "0-1": Result.BLACK_WIN, "1/2-1/2": Result.DRAW}
_DATE_TAGS = ("Date", "EventDate", "UTCDate")
_UNKNOWN = frozenset({"", "?", "-"})
T = TypeVar("T")


class _LineCounter(io.StringIO):
    """A text stream that counts the lines read and where each tag of the current game was."""

    def __init__(self, text: str) -> None:
        super().__init__(text, newline=None)  # universal newlines: CRLF, LF and bare CR
        self.lines_read = 0
        self.tag_lines: dict[str, int] = {}
        self.first_tag_line: int | None = None
        self.moves_seen = False
        """Whether the current game had a line after its tags (its moves)."""

    def next_game(self) -> None:
        """Forget the tags of the game before."""
        self.tag_lines = {}
        self.first_tag_line = None
        self.moves_seen = False

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
        elif self.first_tag_line is not None and line.strip() and not line.startswith("%"):
            self.moves_seen = True
        return line


def _decode(data: bytes, filename: str) -> str:
    """UTF-8 (a BOM removed), UTF-16 with its BOM, else Latin-1; UTF-16 without a BOM (every
    other byte of its ASCII a NUL) is refused by name: it would read as no game at all."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16").removeprefix("\ufeff")
        except UnicodeDecodeError as exc:
            raise InputFileError(filename, None, f"not valid UTF-16 text: {exc.reason}") from None
    head = data[:1000]
    if head.count(0) > len(head) // 4:  # text has no NUL; ASCII in UTF-16 is half NULs
        raise InputFileError(
            filename, None, "UTF-16 text without a byte order mark; save the file as UTF-8"
        )
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
        self.problems: list[InputFileError] = []
        self.time_control_problems: list[InputFileError] = []

    def error(self, tag: str, problem: str) -> InputFileError:
        return InputFileError(self.filename, self.tag_lines.get(tag, self.line), problem, tag)

    def problem(self, error: InputFileError) -> None:
        """Note a problem of this game (the game is then left out)."""
        self.problems.append(error)

    def read(self, parse: Callable[..., T], tag: str, *args: Any) -> T | None:
        """``parse(tag, *args)``; None after noting the problem it raised."""
        try:
            return parse(tag, *args)
        except InputFileError as exc:
            self.problem(exc)
            return None

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

    def name(self, tag: str) -> tuple[str, PgnElo | None]:
        """The name as written (without a rating in parentheses after it), and that rating."""
        value = self.headers.get(tag, "")
        if value.strip() in _UNKNOWN:
            raise self.error(tag, "missing player name")
        rating: PgnElo | None = None
        match = _RATED_NAME.fullmatch(value)
        if match is not None and 0 < int(match.group(2)) <= limits.MAX_RATING:
            value = match.group(1)
            rating = PgnElo(int(match.group(2)), tag, self.tag_lines.get(tag, self.line))
        try:
            limits.check_text(" ".join(value.split()), limits.MAX_NAME_LENGTH)
        except LimitError as exc:
            raise self.error(tag, str(exc)) from None
        if limits.has_control_character(value):
            raise self.error(tag, f"contains a control character: {limits.show(value)}")
        return value, rating

    def title(self, tag: str) -> str | None:
        value = self.optional(tag)
        if value is None or value.upper() not in limits.TITLES:
            return None
        return limits.title(value)

    def elo(self, tag: str) -> PgnElo | None:
        value = self.optional(tag)
        if value is None or (limits.is_ascii_digits(value) and not value.strip("0")):
            return None  # 0: unrated
        try:
            return PgnElo(limits.rating(value), tag, self.tag_lines.get(tag, self.line))
        except LimitError as exc:
            raise self.error(tag, f"not a rating: {exc}") from None

    def fide_id(self, tag: str) -> int | None:
        value = self.optional(tag)
        if value is None or (limits.is_ascii_digits(value) and not value.strip("0")):
            return None  # 0: unknown
        try:
            return limits.fide_id(value)
        except LimitError as exc:
            raise self.error(tag, str(exc)) from None

    def time_control(self, tag: str = "TimeControl") -> TimeControl | None:
        """The list of the game's ``TimeControl`` tag; None when absent or a problem (noted
        in ``time_control_problems``)."""
        value = self.headers.get(tag)
        if value is None:
            return None
        try:
            return pgn_time_control(value)
        except InvalidTimeControlError as exc:
            self.time_control_problems.append(self.error(tag, str(exc)))
            return None

    def date(self, _tag: str = "Date") -> date | None:
        """The first fully known of the date tags (``_tag`` for :meth:`read`)."""
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


def parse_pgn(
    data: bytes,
    filename: str,
    *,
    elo: bool = False,
    errors: list[InputFileError] | None = None,
) -> PgnImport:
    """Read the tags of every game in a PGN file (UTF-8 with or without BOM, or Latin-1).

    Problems: a ``Result`` other than ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``, a missing
    ``White``/``Black`` name, a FIDE id outside :func:`ratings.limits.fide_id`, a date that
    does not exist, a name, ``Event`` or ``Round`` longer than :mod:`ratings.limits` allows
    or holding a control character, and with ``elo=True`` an Elo tag that is not a rating.
    A game with a problem is left out and the next one read.

    :param elo: read ``WhiteElo``/``BlackElo`` (and ratings after names) into the games.
    :param errors: a list that receives every problem; without one they are raised.
    :raises InputFileError: (one problem) or :class:`InputFileErrors` (several) when no
        ``errors`` list is given.
    """
    reader = _LineCounter(_decode(data, filename))
    games: list[PgnGame] = []
    problems: list[InputFileError] = []
    time_control_problems: list[InputFileError] = []
    # event -> list -> line of the first game of that list
    lists_of: dict[str | None, dict[TimeControl, int]] = {}
    unfinished = phantom = 0
    cut: _Game | None = None  # the last game, if it has neither a Result tag nor moves
    while True:
        reader.next_game()
        headers = chess.pgn.read_headers(reader)
        if headers is None:
            break
        if reader.first_tag_line is None:
            phantom += 1
            continue
        game = _Game(headers, reader, filename)
        cut = game if "Result" not in headers and not reader.moves_seen else None
        text = headers.get("Result", "*").strip()
        if text == "*":
            unfinished += 1
            continue
        result = _RESULTS.get(text)
        if result is None:
            game.problem(
                game.error("Result", f"unknown result {text!r} (expected 1-0, 0-1, 1/2-1/2 or *)")
            )
        white = game.read(game.name, "White")
        black = game.read(game.name, "Black")
        white_fide_id = game.read(game.fide_id, "WhiteFideId")
        black_fide_id = game.read(game.fide_id, "BlackFideId")
        day = game.read(game.date, "Date")
        event = game.read(game.text, "Event", limits.MAX_EVENT_LENGTH)
        round_ = game.read(game.text, "Round", limits.MAX_ROUND_LENGTH)
        white_elo = game.read(game.elo, "WhiteElo") if elo else None
        black_elo = game.read(game.elo, "BlackElo") if elo else None
        problems.extend(game.problems)
        if game.problems or result is None or white is None or black is None:
            continue
        time_control = game.time_control()
        time_control_problems.extend(game.time_control_problems)
        if time_control is not None:
            seen = lists_of.setdefault(event, {})
            if time_control not in seen:
                seen[time_control] = game.line
                if len(seen) > 1:
                    first, first_line = next(iter(seen.items()))
                    what = (
                        "games without an Event tag mix"
                        if event is None
                        else (f"event {event!r} mixes")
                    )
                    time_control_problems.append(
                        game.error(
                            "TimeControl",
                            f"{what} time controls: {time_control.value} here, "
                            f"{first.value} in the game at line {first_line}",
                        )
                    )
        games.append(
            PgnGame(
                white=white[0],
                black=black[0],
                white_fide_id=white_fide_id,
                black_fide_id=black_fide_id,
                result=result,
                date=day,
                event=event,
                round=round_,
                line=game.line,
                white_title=game.title("WhiteTitle"),
                black_title=game.title("BlackTitle"),
                white_elo=(white_elo or white[1]) if elo else None,
                black_elo=(black_elo or black[1]) if elo else None,
                time_control=time_control,
            )
        )
    if cut is not None:
        # a file that ends in a game's tags was cut short (a download or a copy): the games
        # before the cut are not the file either
        unfinished -= 1
        problems.append(
            InputFileError(
                filename,
                cut.line,
                "the file ends in this game's tags, before its Result tag and its moves: "
                "it was cut short",
            )
        )
    hand_over(problems, errors)
    return PgnImport(
        tuple(games),
        skipped_unfinished=unfinished,
        skipped_phantom=phantom,
        time_control_problems=tuple(time_control_problems),
    )
