"""One set of limits for everything the register stores, and the one rule for FIDE ids.

Every input path (players and games CSV, TRF, PGN, ``player add/edit``, ``game add/edit``, a
``fide:N`` PLAYER argument, a GAME_ID) checks its values here, so a value is accepted or
refused the same way whichever way it comes in. The lengths are those of the schema's
columns (``VARCHAR(200)`` for names, ``VARCHAR(20)`` for rounds, ...): PostgreSQL enforces
them, SQLite does not, so without these checks a value accepted on SQLite would fail on
PostgreSQL. An over-long value is refused, never shortened.

Numbers are read from ASCII digits only. ``int()`` also accepts Arabic-Indic, full-width
and other Unicode digits (``int("١٢") == 12``) and underscores (``int("1_0") == 10``);
``str.isdigit()`` is true for superscripts that ``int()`` refuses. Neither is used on its
own: a value that is not plain ``0``-``9`` is refused, never converted.

Pure: no I/O, no SQLAlchemy, no click. Functions raise :class:`~ratings.errors.LimitError`
whose message is the problem alone (``longer than 20 characters: '...'``); callers add where
the value came from (``FILE:LINE: field:``, or the command-line option).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import TypeVar, overload

from ratings.errors import LimitError

__all__ = [
    "FEDERATION_LENGTH",
    "MAX_BIRTH_YEAR",
    "MAX_DATABASE_ID",
    "MAX_EVENT_LENGTH",
    "MAX_FIDE_ID",
    "MAX_FIDE_ID_DIGITS",
    "MAX_FILE_NAME_LENGTH",
    "MAX_GAMES",
    "MAX_NAME_KEY_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_RATING",
    "MAX_REASON_LENGTH",
    "MAX_ROUND_LENGTH",
    "MIN_BIRTH_YEAR",
    "MIN_RATING",
    "TITLES",
    "check_fide_id",
    "check_range",
    "check_text",
    "database_id",
    "event_name",
    "federation",
    "fide_id",
    "game_id",
    "games",
    "has_control_character",
    "is_ascii_digits",
    "name_length",
    "option",
    "rating",
    "round_name",
    "show",
    "title",
    "too_long",
    "whole_number",
]

MAX_NAME_LENGTH = 200
"""A player's name (``players.name``), as stored: surrounding blanks removed."""
MAX_NAME_KEY_LENGTH = 3 * MAX_NAME_LENGTH
"""A name's matching key (``players.name_key``): case folding turns one character into at
most three (``\ufb03`` -> ``ffi``, ``\u0390`` -> three code points)."""
MAX_REASON_LENGTH = 1000
"""The ``--reason`` of a correction (``corrections.reason``)."""
MAX_EVENT_LENGTH = 200
"""An event's name (``events.name``): ``--event``, a CSV ``event``, PGN ``Event``, TRF
``012``, or the file name an event is named after when the file names none."""
MAX_ROUND_LENGTH = 20
"""A round as written (``games.round``): ``--round``, a CSV ``round``, PGN ``Round``."""
FEDERATION_LENGTH = 3
"""A federation is exactly three letters (``players.federation``)."""
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
"""FIDE titles the register stores (``players.title``, three characters at most)."""
MAX_FILE_NAME_LENGTH = 500
"""The path of an imported file as given on the command line (``imports.file_name``)."""

MIN_RATING = 0
MAX_RATING = 3500
"""Entry ratings (the schema's ``entry_rating_range`` check)."""
MAX_GAMES = 100_000
"""Rated games a player brings on entry."""
MIN_BIRTH_YEAR = 1900
MAX_BIRTH_YEAR = 2100
"""Birth years given as input (the schema allows 1850..2200 for old data)."""

MAX_FIDE_ID_DIGITS = 11
"""FIDE ids have at most 11 digits: see :func:`fide_id`."""
MAX_FIDE_ID = 10**MAX_FIDE_ID_DIGITS - 1
MAX_DATABASE_ID = 2**63 - 1
"""The largest id a database integer holds (SQLite's INTEGER, PostgreSQL's bigint)."""

_SHOW_AT_MOST = 60
# characters that have no place in stored text: C0/C1 controls (NUL, tab, CR, LF
# included) and the Unicode line and paragraph separators
_CONTROL_CATEGORIES = frozenset({"Cc", "Zl", "Zp"})
_FEDERATION = re.compile(r"[A-Za-z]{3}")
_FIDE_ID_RULE = f"not a FIDE id (1 to {MAX_FIDE_ID_DIGITS} digits 0-9, not 0)"

T = TypeVar("T")


def show(text: str) -> str:
    """``repr`` of a value, shortened when long so that a message stays one readable line."""
    if len(text) > _SHOW_AT_MOST:
        return f"{text[:50]!r}... ({len(text)} characters)"
    return repr(text)


def is_ascii_digits(text: str) -> bool:
    """True for one or more of ``0``-``9`` and nothing else (no sign, blank or ``_``)."""
    return text.isascii() and text.isdigit()


def fide_id(text: str) -> int:
    """A FIDE id written as 1 to 11 ASCII digits, not all zeros.

    Why 11 digits: the FIDE ids in use have at most 9 digits (most have 7 or 8:
    ``1503014``, ``24116068``, ``14204118``), and the TRF player line gives the id 11
    columns (58-68). Allowing 11 leaves FIDE room to grow while every stored id can still be
    written to a TRF file and read back; a longer value is not a FIDE id (PGN files were
    seen carrying 15- to 23-digit values). Leading zeros count towards the 11 characters,
    as in the TRF column.

    Callers that read ``0`` or a blank as "no id" (TRF, PGN) check for that first.

    :raises LimitError: for anything else, Unicode digits (``'١٢'``) included.
    """
    if not (is_ascii_digits(text) and len(text) <= MAX_FIDE_ID_DIGITS) or int(text) == 0:
        raise LimitError(f"{_FIDE_ID_RULE}: {show(text)}")
    return int(text)


def check_fide_id(value: int) -> int:
    """The same rule as :func:`fide_id` for a number a caller already holds."""
    if not 1 <= value <= MAX_FIDE_ID:
        raise LimitError(f"{_FIDE_ID_RULE}: {value}")
    return value


def whole_number(text: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` written in ASCII digits (a leading ``-`` allowed).

    :raises LimitError: for other characters, or a value out of range.
    """
    digits = text[1:] if text.startswith("-") else text
    if not is_ascii_digits(digits):
        raise LimitError(f"not a whole number (digits 0-9): {show(text)}")
    # int() of thousands of digits raises ValueError; that long is out of range anyway
    if len(digits) > 20 or not low <= int(text) <= high:
        raise LimitError(f"not in {low}..{high}: {show(text)}")
    return int(text)


def check_range(value: int, low: int, high: int) -> int:
    """``value`` itself when ``low <= value <= high``."""
    if not low <= value <= high:
        raise LimitError(f"not in {low}..{high}: {value}")
    return value


def rating(text: str) -> int:
    """An entry rating, :data:`MIN_RATING` to :data:`MAX_RATING`."""
    return whole_number(text, MIN_RATING, MAX_RATING)


def games(text: str) -> int:
    """Rated games brought on entry, 0 to :data:`MAX_GAMES`."""
    return whole_number(text, 0, MAX_GAMES)


def database_id(text: str, what: str) -> int:
    """A database id (``GAME_ID``, a PLAYER or EVENT given as digits) from ASCII digits.

    :param what: the kind of id, for the message (``"game id"``).
    :raises LimitError: when ``text`` is not plain ``0``-``9`` digits, or is larger than any
        database integer (:data:`MAX_DATABASE_ID`).
    """
    if not is_ascii_digits(text):
        raise LimitError(f"not a {what} (digits 0-9): {show(text)}")
    if len(text) > 19 or int(text) > MAX_DATABASE_ID:
        raise LimitError(f"not a {what} (at most {MAX_DATABASE_ID}): {show(text)}")
    return int(text)


def has_control_character(text: str) -> bool:
    """True when ``text`` holds a control character (NUL, tab, line breaks, C1, U+2028...)."""
    # isprintable() is false for every such character, so most values skip the slow scan
    return not text.isprintable() and any(
        unicodedata.category(ch) in _CONTROL_CATEGORIES for ch in text
    )


def too_long(text: str, limit: int) -> str | None:
    """The problem when ``text`` is longer than ``limit`` characters, else None."""
    if len(text) > limit:
        return f"longer than {limit} characters: {show(text)}"
    return None


def check_text(text: str, limit: int) -> str:
    """``text`` itself when it has at most ``limit`` characters and no control character.

    :raises LimitError: naming the problem and showing the value.
    """
    problem = too_long(text, limit)
    if problem is not None:
        raise LimitError(problem)
    if has_control_character(text):
        raise LimitError(f"contains a control character: {show(text)}")
    return text


def federation(text: str) -> str:
    """A federation code: three ASCII letters, stored upper-case (``ned`` -> ``NED``)."""
    # checked before upper(): "ß".upper() is "SS"
    if not _FEDERATION.fullmatch(text):
        raise LimitError(f"not a federation code (3 letters): {show(text)}")
    return text.upper()


def title(text: str) -> str:
    """One of :data:`TITLES`, any case, stored upper-case."""
    if not text.isascii() or text.upper() not in TITLES:
        allowed = ", ".join(t.lower() for t in TITLES)
        raise LimitError(f"not a title ({allowed}): {show(text)}")
    return text.upper()


def name_length(text: str) -> str:
    """``text`` itself when the name it gives, as stored (blanks collapsed), has at most
    :data:`MAX_NAME_LENGTH` characters. (Blank names and control characters are refused by
    the register, with messages of its own.)"""
    problem = too_long(" ".join(text.split()), MAX_NAME_LENGTH)
    if problem is not None:
        raise LimitError(problem)
    return text


def event_name(text: str) -> str:
    """An event's name as stored: stripped, :data:`MAX_EVENT_LENGTH`, no control character."""
    return check_text(text.strip(), MAX_EVENT_LENGTH)


def round_name(text: str) -> str:
    """A round as stored: stripped, :data:`MAX_ROUND_LENGTH`, no control character."""
    return check_text(text.strip(), MAX_ROUND_LENGTH)


def game_id(text: str) -> int:
    """A ``GAME_ID``: :func:`database_id`."""
    return database_id(text, "game id")


@overload
def option(name: str, parse: Callable[[str], T], text: str) -> T: ...
@overload
def option(name: str, parse: Callable[[str], T], text: str | None) -> T | None: ...
def option(name: str, parse: Callable[[str], T], text: str | None) -> T | None:
    """``parse(text)`` for a command-line value (None when it was not given), a
    :class:`LimitError` prefixed with the option's ``name`` (``--fide-id: not a FIDE id``)."""
    if text is None:
        return None
    try:
        return parse(text)
    except LimitError as exc:
        raise LimitError(f"{name}: {exc}") from None
