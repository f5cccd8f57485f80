"""FIDE's rating list downloads, read as a stream of typed player records.

Over 600 lines: the TXT and XML readers build one record with the same checks and filter.

FIDE publishes its lists monthly on https://ratings.fide.com/download_lists.phtml, each as
a ZIP holding one file, in two formats:

* **TXT**, fixed width, ASCII, CRLF, one header line: the combined list
  ``players_list_foa.txt`` (in ``players_list.zip``; standard, rapid and blitz, unrated
  players included, about 1.9 million lines in 2026), the legacy combined list
  ``players_list.txt`` (no FOA column) and the single-type lists
  ``standard_rating_list.txt``, ``rapid_rating_list.txt``, ``blitz_rating_list.txt``.
* **XML**, ``players_list_xml_foa.xml`` (in ``players_list_xml.zip``, 856 MB unzipped in
  2026): a ``<playerslist>`` root without an XML declaration, one ``<player>`` per player
  whose children are, in this order, ``fideid name country sex title w_title o_title
  foa_title rating games k rapid_rating rapid_games rapid_k blitz_rating blitz_games blitz_k
  birthday flag`` (``birthday`` is the year; an empty value is written ``<title></title>``).

The TXT layouts, 0-based ``[start, end)``; the combined FOA list (lines of 162 characters)::

    ID Number [0,15)   Name [15,76)   Fed [76,80)   Sex [80,84)   Tit [84,89)   WTit [89,94)
    OTit [94,109)   FOA [109,113)
    SRtng [113,119)  SGm [119,123)  SK [123,126)      standard rating, games, K
    RRtng [126,132)  RGm [132,136)  Rk [136,139)      rapid (FIDE writes "Rk")
    BRtng [139,145)  BGm [145,149)  BK [149,152)      blitz
    B-day [152,158)  Flag [158,162)

The single-type lists (136 characters) have the same columns up to FOA, then the rating
headed by the list month (``OCT26``) [113,119), ``Gms`` [119,123), ``K`` [123,126),
``B-day`` [126,132), ``Flag`` [132,136). The legacy combined list has no FOA column and its
later columns start 4 earlier. Unrated is ``0`` (older files leave a blank), as are an
unknown K and birth year. Flags: ``i`` inactive, ``w`` woman, ``wi`` both.

Sources of these layouts (no code was taken from them): FIDE's download page (above); the
notes and the October 2026 excerpts of FIDE's files in Zinkelburger/Meow-Chess
(``research/notes/FIDE.md``, ``test/fixtures/fide/players_list_foa.txt`` and
``standard_rating_list.txt``: "verified by parsing the whole Oct 2026 combined file"); the
XML element names as cpmachado/gelo (``fide/player.go``) and lichess-org/lila
(``modules/fide``) read them; the legacy header as the Perl module Chess::FIDE tests it.

How this reader follows them:

* **Columns come from the header line**, by label, because FIDE has changed the layout
  before (legacy vs FOA): each column runs from its label to the next label. The single
  lists' rating column is the label that looks like a month (``OCT26``); its type
  (standard, rapid, blitz) is not in FIDE's file, so it comes from the file name
  (``rapid_rating_list.txt``) or the caller. A single list whose games and K columns carry
  a list's labels (``RGm RK``, ``BGm BK``: :func:`ratings.io.fide_txt.format_fide_txt` with
  a ``list_type``) is that list, whatever its name (a caller that asks for another list is
  refused); one headed ``SRtng``, ``RRtng`` or ``BRtng`` reads as a combined list holding
  that list alone (plain ``Gms`` and ``K`` columns then being that list's).
* **Overflowing columns.** A few lines of FIDE's combined file (3 of 1.93 million in
  October 2026) are one character longer because a long ``OTit`` (``SI,FI,LSI,SLI,NA``)
  runs into ``FOA``. A line longer than the header whose text crosses a column boundary is
  read with every later column moved right by the extra characters.
* **XML is streamed**, never held whole. FIDE's file is flat and regular, so it is read
  as decoded text, 64 KB at a time: one regular expression, built from the first
  player's child tags in their order, matches a whole ``<player>`` of plain-text values
  (empty or self-closed) at a time; that is about three times as fast as ElementTree. A
  player it does not match (an entity or character reference, CDATA, a comment, another
  order of its elements, attributes, an unknown element) is parsed alone by ElementTree,
  and anything else (an XML declaration of another encoding, a DOCTYPE, text or a comment
  between players, bytes that are not UTF-8, a truncated or malformed file) hands the rest
  of the file, from that player on, to ``xml.etree.ElementTree.iterparse`` (each
  ``<player>`` read when it ends and then cleared, the root cleared), which reads it, or
  reports its problem at its line and column, as it reads a whole file. Both give the
  same records and messages (tests/io/test_fide_list_xml_fast.py compares them). A value
  holding an element (``<name>A <b>B</b></name>``) is a problem, not the text before
  the element. XML problems name the player's position (``player 12345``) and tag.
* **ZIP files** are read as FIDE ships them, without unpacking to disk: the one ``.txt`` or
  ``.xml`` member is streamed. A damaged member (a bad CRC, a broken deflate stream, cut
  short) is one error naming the file, not the decompressor's exception.
* **Bounds** (a hostile or broken file ends in an error at once, in little memory): a ZIP
  member unpacks to at most :data:`MAX_ZIP_RATIO` times its compressed size (at least
  :data:`ZIP_FLOOR`; FIDE's XML is about 15 times, its TXT about 8); a TXT line is at most
  :data:`MAX_LINE_BYTES`, with at most :data:`MAX_BLANK_LINES` blank lines in a row; an XML
  ``<player>`` is at most :data:`MAX_PLAYER_CHARS` (the XML readers never search the same
  text twice); reading stops after :data:`MAX_READ_PROBLEMS` problems.
* **Cut short.** A TXT line that ends before the header's last column starts, or a last line
  without the line end every other line has and shorter than the header, is a problem: a
  download cut inside a rating would otherwise give that player a rating of its first
  digits.
* **The federation filter** is applied before a record is built (for TXT before the rest
  of the line is read), so reading one federation of the world list costs little more than
  scanning it.
* **Problems.** A record that cannot be read (a FIDE id that breaks
  :func:`ratings.limits.fide_id`, letters where a number belongs, a rating over
  :data:`ratings.limits.MAX_RATING`, an unknown sex, a missing name) is skipped, reading
  goes on, and when the file is exhausted every problem is raised at once
  (:class:`~ratings.errors.InputFileErrors`, at most :data:`MAX_PROBLEMS` listed). A
  consumer that stores records as they come must therefore work inside one transaction, as
  every command does. Values that are odd but harmless (a birth year outside
  :data:`ratings.limits.MIN_BIRTH_YEAR`..:data:`ratings.limits.MAX_BIRTH_YEAR`) become None
  with a warning (:attr:`FideList.warnings`). A row with a blank FIDE id is no FIDE
  player (the lists :mod:`ratings.io.fide_txt` writes hold the players not registered with
  FIDE): it is skipped and counted (:attr:`FideList.without_fide_id`), never a record.

The records (:class:`FideListPlayer`) hold the values as FIDE publishes them, typed, and
nothing of the register: matching players, choosing what to update and mapping titles to
:data:`ratings.limits.TITLES` is the service's work.
"""

from __future__ import annotations

import codecs
import functools
import io
import re
import xml.etree.ElementTree as ET
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import TracebackType
from typing import IO, NamedTuple

from ratings import limits
from ratings.errors import InputFileError, LimitError
from ratings.io.fide_txt import FIDE_PLAYER_LABELS
from ratings.io.notes import FileWarning, hand_over
from ratings.rules import TimeControl

__all__ = [
    "MAX_BLANK_LINES",
    "MAX_LINE_BYTES",
    "MAX_PLAYER_CHARS",
    "MAX_PROBLEMS",
    "MAX_READ_PROBLEMS",
    "MAX_ZIP_RATIO",
    "ZIP_FLOOR",
    "FideList",
    "FideListPlayer",
    "FideRating",
    "RatingType",
    "open_fide_list",
]

MAX_PROBLEMS = 100
"""Problems listed when a file has more (the rest are counted)."""

MAX_READ_PROBLEMS = 10_000
"""Reading stops after this many problems: a file of junk lines says so at once, instead of
being read to its end."""

MAX_LINE_BYTES = 4096
"""The longest TXT line read (FIDE's are 162 characters): a longer one is not FIDE's list."""

MAX_BLANK_LINES = 1000
"""Blank TXT lines in a row that are skipped (FIDE's list has none; a billion ran for
minutes)."""

MAX_PLAYER_CHARS = 65_536
"""The longest XML ``<player>`` read, in characters (FIDE's are about 600; bytes where
ElementTree reads the file): no player ending within it is not FIDE's list."""

MAX_ZIP_RATIO = 100
"""A ZIP member may unpack to this many times its compressed size (FIDE's XML: about 15)..."""

ZIP_FLOOR = 64 << 20
"""... or to this many bytes, whichever is more."""


RatingType = TimeControl
"""FIDE's three rating lists: :class:`ratings.rules.TimeControl` itself, so a
record's :meth:`FideListPlayer.rating_of` takes the list of an event or a game as it is."""


# NamedTuples, not frozen dataclasses: as immutable and typed, and built 3.5 times faster
# (0.7 against 2.4 microseconds for a player here), which a list of a million players feels.
class FideRating(NamedTuple):
    """One of a player's ratings on the list, as FIDE published it."""

    rating: int | None
    """The rating, 1 to :data:`ratings.limits.MAX_RATING`; None when unrated (0 or blank)."""
    period_games: int
    """Rated games in the period that produced the list (blank is 0)."""
    next_k: int | None
    """The K-factor FIDE published for the next period (kept as ``players.fide_k``); None
    when 0 or blank."""


class FideListPlayer(NamedTuple):
    """One player of a FIDE rating list, the values as FIDE publishes them, typed."""

    fide_id: int
    """FIDE id (:func:`ratings.limits.fide_id`)."""
    name: str
    """``Surname, Given`` as FIDE writes it (surrounding blanks removed)."""
    federation: str | None
    """Three-letter code (``FID`` for the FIDE flag), upper-case; None when blank."""
    sex: str | None
    """``'m'`` or ``'f'``."""
    title: str | None
    """The ``Tit`` column / ``<title>``: ``GM IM FM CM WGM WIM WFM WCM`` as written
    (women may carry their W-title here); None when blank."""
    women_title: str | None
    """``WTit`` / ``<w_title>``: ``WGM WIM WFM WCM``; None when blank."""
    other_titles: tuple[str, ...]
    """``OTit`` / ``<o_title>`` split at commas: arbiter, trainer, organizer titles
    (``IA``, ``FA``, ``FST``...)."""
    foa_title: str | None
    """``FOA`` / ``<foa_title>``: FIDE Online Arena title (``AGM AIM AFM ACM``)."""
    birth_year: int | None
    """Year of birth; None when 0, blank, or outside the register's years (a warning)."""
    standard: FideRating | None
    """The standard list's entry; None when the file is not a standard or combined list."""
    rapid: FideRating | None
    """The rapid list's entry; None when the file holds no rapid ratings."""
    blitz: FideRating | None
    """The blitz list's entry; None when the file holds no blitz ratings."""
    flag: str | None
    """``Flag`` / ``<flag>`` lower-case: ``i`` inactive, ``w`` woman, ``wi`` both."""
    line: int
    """TXT: the 1-based line. XML: the player's 1-based position in the file."""

    @property
    def inactive(self) -> bool:
        """FIDE lists the player as inactive (flag ``i``)."""
        return self.flag is not None and "i" in self.flag

    def rating_of(self, kind: RatingType) -> FideRating | None:
        """The entry for one list type (None when the file does not hold that type)."""
        return (self.standard, self.rapid, self.blitz)[_SLOTS[kind]]


# --- reading values --------------------------------------------------------------------------

_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_MONTH_LABEL = re.compile(r"(" + "|".join(_MONTHS) + r")([0-9]{2})", re.IGNORECASE)
_SEXES = {"M": "m", "F": "f", "": None}
_KINDS = {kind: kind.value for kind in RatingType}
_SLOTS = {RatingType.STANDARD: 0, RatingType.RAPID: 1, RatingType.BLITZ: 2}

# the canonical keys of a record's values, and their TXT labels / XML tags
_TXT_LABELS = {
    **FIDE_PLAYER_LABELS,
    "OTit": "other_titles",
    "FOA": "foa_title",
    "SRtng": "standard_rating",
    "SGm": "standard_games",
    "SK": "standard_k",
    "RRtng": "rapid_rating",
    "RGm": "rapid_games",
    "Rk": "rapid_k",
    "RK": "rapid_k",
    "BRtng": "blitz_rating",
    "BGm": "blitz_games",
    "BK": "blitz_k",
    "B-day": "birth_year",
    "Bday": "birth_year",
    "Flag": "flag",
    # single-type lists: the month label is the rating (see _Layout)
    "Gms": "games",
    "K": "k",
}
_XML_TAGS = {
    "fideid": "fide_id",
    "name": "name",
    "country": "federation",
    "sex": "sex",
    "title": "title",
    "w_title": "women_title",
    "o_title": "other_titles",
    "foa_title": "foa_title",
    "rapid_rating": "rapid_rating",
    "rapid_games": "rapid_games",
    "rapid_k": "rapid_k",
    "blitz_rating": "blitz_rating",
    "blitz_games": "blitz_games",
    "blitz_k": "blitz_k",
    "birthday": "birth_year",
    "flag": "flag",
    # the combined list's standard columns; a single-type list's only ones
    "rating": "rating",
    "games": "games",
    "k": "k",
}


class _Problems:
    """The problems and warnings of one file, with the file's name for messages."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.errors: list[InputFileError] = []
        self.more = 0  # problems beyond MAX_PROBLEMS, counted only
        self.warnings: list[FileWarning] = []
        self.more_warnings = 0
        self.without_id = 0  # rows without a FIDE id, skipped (our own lists hold them)
        self.stopped = False  # reading stopped at MAX_READ_PROBLEMS

    def error(self, line: int | None, problem: str, field: str | None) -> None:
        if len(self.errors) < MAX_PROBLEMS:
            self.errors.append(InputFileError(self.filename, line, problem, field))
        else:
            self.more += 1
            if len(self.errors) + self.more >= MAX_READ_PROBLEMS:
                self.stopped = True
                self.raise_all()

    def warn(self, line: int | None, problem: str, field: str | None) -> None:
        if len(self.warnings) < MAX_PROBLEMS:
            self.warnings.append(FileWarning(self.filename, line, problem, field))
        else:
            self.more_warnings += 1

    def raise_all(self) -> None:
        if self.more:
            stopped = f"; reading stopped after {MAX_READ_PROBLEMS:,}" if self.stopped else ""
            self.errors.append(
                InputFileError(
                    self.filename, None, f"{self.more} more problems not listed{stopped}"
                )
            )
        if self.more_warnings:
            self.warnings.append(
                FileWarning(self.filename, None, f"{self.more_warnings} more warnings not listed")
            )
            self.more_warnings = 0
        hand_over(self.errors, None)


class _BadValue(Exception):
    """A value that cannot be read; ``str()`` is the problem."""


def _number(text: str | None) -> int | None:
    """A blank (None) or a whole number in ASCII digits."""
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise _BadValue(f"not a whole number: {limits.show(text)}")
    if len(text) > 9:
        raise _BadValue(f"too large: {limits.show(text)}")
    return int(text)


class _Records:
    """Turns one file's rows (canonical key -> stripped text) into records.

    :meth:`record` checks the common case with a few string tests over all the values at
    once and builds the record; anything unusual goes to :meth:`checked`, which looks at
    each value in turn and reports the first problem with its field.
    """

    def __init__(
        self,
        kinds: tuple[RatingType, ...],
        single: RatingType | None,
        labels: dict[str, str],
        problems: _Problems,
        *,
        xml: bool,
    ) -> None:
        self.kinds = kinds
        self.single = single
        self.labels = labels
        self.problems = problems
        self.xml = xml
        self.prefixes = tuple("" if k is single else _KINDS[k] + "_" for k in kinds)
        self.numeric = (
            *(prefix + part for prefix in self.prefixes for part in ("rating", "games", "k")),
            "birth_year",
        )
        self.slots = tuple((_SLOTS[k], 3 * i) for i, k in enumerate(kinds))

    def where(self, key: str, line: int) -> tuple[int | None, str]:
        """(line, field) of a problem: the TXT line and label, or the XML player and tag."""
        label = self.labels.get(key, key)
        return (None, f"player {line}: {label}") if self.xml else (line, label)

    def record(self, values: dict[str, str], line: int) -> FideListPlayer | None:
        """The record of one row; None (and a problem noted) when it cannot be read."""
        get = values.get
        texts = [get(key, "") for key in self.numeric]
        joined = "".join(texts)
        fide_text = get("fide_id", "")
        name = get("name", "")
        federation = get("federation", "")
        sex = _SEXES.get(get("sex", "").upper(), "?")
        if (
            (joined and not (joined.isascii() and joined.isdigit()))
            or max(map(len, texts)) > 9
            or not (fide_text.isascii() and fide_text.isdigit())
            or len(fide_text) > limits.MAX_FIDE_ID_DIGITS
            or not fide_text.strip("0")
            or not name
            or len(name) > limits.MAX_NAME_LENGTH
            or not name.isprintable()
            or len(federation) > limits.FEDERATION_LENGTH
            or not federation.isprintable()
            or sex == "?"
        ):
            return self.checked(values, line)
        numbers = [int(text) if text else 0 for text in texts]
        birth_year = numbers[-1]
        if birth_year and not limits.MIN_BIRTH_YEAR <= birth_year <= limits.MAX_BIRTH_YEAR:
            return self.checked(values, line)
        if any(numbers[at] > limits.MAX_RATING for _, at in self.slots):
            return self.checked(values, line)
        return self.build(values, numbers, sex, line)

    def build(
        self, values: dict[str, str], numbers: list[int], sex: str | None, line: int
    ) -> FideListPlayer:
        """The record of a row whose values were checked (``numbers``: :attr:`numeric`)."""
        get = values.get
        ratings: list[FideRating | None] = [None, None, None]
        for slot, at in self.slots:
            ratings[slot] = FideRating(
                numbers[at] or None, numbers[at + 1], numbers[at + 2] or None
            )
        others = get("other_titles", "")
        return FideListPlayer(
            int(values["fide_id"]),
            values["name"],
            get("federation", "").upper() or None,
            sex,
            get("title", "").upper() or None,
            get("women_title", "").upper() or None,
            tuple(t for t in (s.strip() for s in others.split(",")) if t) if others else (),
            get("foa_title", "").upper() or None,
            numbers[-1] or None,
            ratings[0],
            ratings[1],
            ratings[2],
            get("flag", "").lower() or None,
            line,
        )

    def checked(self, values: dict[str, str], line: int) -> FideListPlayer | None:
        """:meth:`record` value by value: the first problem is noted (None returned); a
        birth year outside the register's years is read as unknown, with a warning."""
        numbers: list[int] = []
        if not values.get("fide_id"):
            # a player without a FIDE id: no FIDE player (our own list's unregistered ones,
            # ratings.io.fide_txt): nothing of FIDE's to take, so skipped and counted
            self.problems.without_id += 1
            return None
        try:
            key = "fide_id"
            values[key] = str(limits.fide_id(values.get(key, "")))
            key = "name"
            if not values.get(key):
                raise _BadValue("missing name")
            limits.check_text(values[key], limits.MAX_NAME_LENGTH)
            key = "federation"
            limits.check_text(values.get(key, ""), limits.FEDERATION_LENGTH)
            key = "sex"
            sex = values.get(key, "")
            if sex.upper() not in _SEXES:
                raise _BadValue(f"unknown sex {sex!r} (M or F)")
            for key in self.numeric:
                number = _number(values.get(key, "")) or 0
                if key.endswith("rating") and number > limits.MAX_RATING:
                    raise _BadValue(f"not a rating (0 to {limits.MAX_RATING}): {number}")
                numbers.append(number)
        except (_BadValue, LimitError) as exc:
            at, label = self.where(key, line)
            self.problems.error(at, str(exc), label)
            return None
        birth_year = numbers[-1]
        if birth_year and not limits.MIN_BIRTH_YEAR <= birth_year <= limits.MAX_BIRTH_YEAR:
            at, label = self.where("birth_year", line)
            self.problems.warn(
                at,
                f"birth year {birth_year} is not in {limits.MIN_BIRTH_YEAR}.."
                f"{limits.MAX_BIRTH_YEAR}; read as unknown",
                label,
            )
            numbers[-1] = 0
        return self.build(values, numbers, _SEXES[sex.upper()], line)


# --- TXT ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Layout:
    """The columns of a TXT list, from its header line."""

    columns: tuple[tuple[str, int, int | None], ...]
    """(canonical key, start, end) in line order; the last column's end is None."""
    labels: dict[str, str]
    """Canonical key -> the header's label, for messages."""
    width: int
    """The header's length: the length of a line whose columns did not overflow."""
    kinds: tuple[RatingType, ...]
    single: RatingType | None
    """The type of a single-type list (whose keys have no prefix); None for combined."""
    list_month: date | None
    federation: tuple[int, int | None] | None
    """Where the federation is, for the filter."""

    def shifted(self, boundary: int, by: int) -> _Layout:
        """The layout of a line in which the column ending at ``boundary`` is ``by``
        characters wider."""
        columns = tuple(
            (key, start + by if start >= boundary else start,
             end + by if end is not None and end >= boundary else end)
            for key, start, end in self.columns
        )  # fmt: skip
        federation = next(((s, e) for key, s, e in columns if key == "federation"), None)
        return _Layout(
            columns,
            self.labels,
            self.width + by,
            self.kinds,
            self.single,
            self.list_month,
            federation,
        )


def _layout(header: str, name: str, kind: RatingType | None, filename: str) -> _Layout:
    """The columns of a list from its header line (see the module docstring)."""
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    if not tokens or tokens[0][1] != "ID":
        raise InputFileError(
            filename, 1, "not a FIDE rating list: the first line is not FIDE's header "
            "(ID Number  Name  Fed  Sex ...)"
        )  # fmt: skip
    tokens = [t for t in tokens if t[1] != "Number"]
    columns: list[tuple[str, int, int | None]] = []
    labels: dict[str, str] = {}
    month: date | None = None
    for index, (start, label) in enumerate(tokens):
        end = tokens[index + 1][0] if index + 1 < len(tokens) else None
        found = _MONTH_LABEL.fullmatch(label)
        if found is not None:
            key = "rating"
            month = date(2000 + int(found.group(2)), _MONTHS.index(found.group(1).upper()) + 1, 1)
        else:
            key = _TXT_LABELS.get(label, "")
        if key and key not in labels:
            columns.append((key, start, end))
            labels[key] = label
    required = (("ID", "fide_id"), ("Name", "name"), ("Fed", "federation"))
    missing = [label for label, key in required if key not in labels]
    kinds = tuple(k for k in RatingType if _KINDS[k] + "_rating" in labels)
    if missing or not (kinds or "rating" in labels):
        what = " and ".join(missing) if missing else "rating (SRtng, RRtng, BRtng or a month)"
        raise InputFileError(
            filename, 1, f"not a FIDE rating list: the header has no {what} column"
        )
    single: RatingType | None = None
    if "rating" in labels:
        headed = _kind_from_labels(labels)
        if headed is not None and kind is not None and kind is not headed:
            raise InputFileError(
                filename, 1, f"the {kind.value} list was asked for, but the header's "
                f"{labels[headed.value + '_games']} column is the {headed.value} list's"
            )  # fmt: skip
        single = kind or headed or _kind_from_name(name)
        if single is None:
            raise InputFileError(
                filename, 1, "a single-type list, and neither its name nor the caller says "
                "whether it is the standard, rapid or blitz list (--list standard|rapid|blitz)"
            )  # fmt: skip
        if headed is not None:
            # its games and K are the single list's own: the unprefixed keys
            plain = {headed.value + "_games": "games", headed.value + "_k": "k"}
            columns = [(plain.get(key, key), start, end) for key, start, end in columns]
            labels = {plain.get(key, key): label for key, label in labels.items()}
        kinds = (single,)
    elif len(kinds) == 1 and kinds[0].value + "_games" not in labels:
        # one list headed by its rating label with plain Gms and K (format_fide_txt's
        # standard list: "SRtng Gms K"): those are that list's games and K
        prefixed = {"games": kinds[0].value + "_games", "k": kinds[0].value + "_k"}
        columns = [(prefixed.get(key, key), start, end) for key, start, end in columns]
        labels = {prefixed.get(key, key): label for key, label in labels.items()}
    federation = next(((s, e) for key, s, e in columns if key == "federation"), None)
    return _Layout(tuple(columns), labels, len(header), kinds, single, month, federation)


def _kind_from_labels(labels: dict[str, str]) -> RatingType | None:
    """The list of a single-type list headed with one list's games and K labels (``RGm RK``
    for rapid, ``BGm BK`` for blitz) in place of ``Gms K``; None otherwise."""
    if "games" in labels or "k" in labels:
        return None
    found = [
        kind
        for kind in (RatingType.RAPID, RatingType.BLITZ, RatingType.STANDARD)
        if kind.value + "_games" in labels and kind.value + "_k" in labels
    ]
    return found[0] if len(found) == 1 else None


def _kind_from_name(name: str) -> RatingType | None:
    """``rapid_rating_list.txt`` -> RAPID; None when the name names no type (or two)."""
    lowered = name.lower()
    found = [kind for kind in RatingType if kind.value in lowered]
    return found[0] if len(found) == 1 else None


def _decode(raw: bytes) -> str:
    """A line of the file: ASCII as FIDE writes it, else UTF-8, else Latin-1."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _overflow(text: str, layout: _Layout) -> _Layout:
    """The layout for a line longer than the header: the first column whose text runs
    into the next one is wider by the extra characters."""
    extra = len(text) - layout.width
    for _, start, _ in layout.columns[1:]:
        if start < len(text) and text[start - 1] != " ":
            return layout.shifted(start, extra)
    return layout


def _read_txt(
    stream: IO[bytes],
    layout_of: Callable[[str], _Layout],
    federations: frozenset[str] | None,
    problems: _Problems,
    on_layout: Callable[[_Layout], None],
) -> Iterator[FideListPlayer]:
    layout: _Layout | None = None
    records: _Records | None = None
    number = 0
    blanks = 0
    need = 0  # the start of the header's last column: a line must reach it
    readline = stream.readline
    while raw := readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise InputFileError(
                problems.filename, number,
                f"longer than {MAX_LINE_BYTES:,} bytes: not a line of FIDE's list",
            )  # fmt: skip
        text = _decode(raw).rstrip("\r\n")
        if not text.strip():
            blanks += 1
            if blanks > MAX_BLANK_LINES:
                raise InputFileError(
                    problems.filename, number,
                    f"more than {MAX_BLANK_LINES:,} blank lines in a row: not FIDE's list",
                )  # fmt: skip
            continue
        blanks = 0
        if layout is None or records is None:
            layout = layout_of(text.removeprefix("\ufeff"))
            records = _Records(layout.kinds, layout.single, layout.labels, problems, xml=False)
            on_layout(layout)
            need = layout.columns[-1][1]
            continue
        if len(text) < need:
            problems.error(
                number, f"the line is cut short ({len(text)} characters; the header's "
                f"columns need {need}): a damaged or incomplete download?", None
            )  # fmt: skip
            continue
        if len(text) < layout.width and not raw.endswith(b"\n"):
            # the last line (only it can end without one), cut inside its last column
            problems.error(
                number, "the last line has no line end and is shorter than the header "
                f"({len(text)} characters, not {layout.width}): a damaged or incomplete "
                "download?", None
            )  # fmt: skip
            continue
        here = _overflow(text, layout) if len(text) > layout.width else layout
        if federations is not None and here.federation is not None:
            start, end = here.federation
            if text[start:end].strip().upper() not in federations:
                continue
        values = {key: text[start:end].strip() for key, start, end in here.columns}
        record = records.record(values, number)
        if record is not None:
            yield record
    if layout is None:
        raise InputFileError(problems.filename, None, "empty file: no FIDE header line")


# --- XML ---------------------------------------------------------------------------------------

# The fast path (see the module docstring): FIDE's XML is flat and regular, so its players are
# cut from decoded text by a regular expression built from the first player's child tags, in
# their order; anything else is read by ElementTree, with the same results and messages.
_XML_WS = "[ \t\r\n]*"
# character data the fast path takes as it is: no markup, entity or character reference, CR
# (which XML turns into LF), or character XML forbids (an undecodable byte shows as a lone
# surrogate, from surrogateescape)
_XML_TEXT = "([^<>&\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]*)"
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_XML_PROLOG = re.compile(
    rb"(?:\xef\xbb\xbf)?"
    rb"(?:<\?xml[ \t\r\n]+version=(?:\"1\.0\"|'1\.0')"
    rb"(?:[ \t\r\n]+encoding=(?:\"[uU][tT][fF]-8\"|'[uU][tT][fF]-8'))?"
    rb"(?:[ \t\r\n]+standalone=(?:\"(?:yes|no)\"|'(?:yes|no)'))?[ \t\r\n]*\?>)?"
    rb"[ \t\r\n]*<playerslist[ \t\r\n]*>"
)
_XML_SPACE = re.compile(_XML_WS)
_XML_PLAYER_END = re.compile("</player" + _XML_WS + ">")
_XML_ROOT_END = re.compile("</playerslist" + _XML_WS + ">")
_XML_CHUNK = 1 << 16
"""Bytes read at a time by the fast path (memory stays flat whatever the file's size)."""


@functools.lru_cache(maxsize=16)
def _xml_player_pattern(tags: tuple[str, ...]) -> re.Pattern[str]:
    """A ``<player>`` whose children are ``tags`` in this order, each holding plain text
    (one group per child; a self-closed child's group does not take part)."""
    children = "".join(
        f"{_XML_WS}<{tag}{_XML_WS}(?:/>|>{_XML_TEXT}</{tag}{_XML_WS}>)" for tag in tags
    )
    return re.compile(f"{_XML_WS}<player{_XML_WS}>{children}{_XML_WS}</player{_XML_WS}>")


def _line_breaks(text: str) -> int:
    """Line breaks as XML counts them: LF, CR LF, and a CR alone."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


class _XmlPlayers:
    """What both XML readers share: the player count, the record builder (made from the
    first player's elements), the federation filter."""

    def __init__(
        self,
        kind: RatingType | None,
        name: str,
        federations: frozenset[str] | None,
        problems: _Problems,
        on_kinds: Callable[[tuple[RatingType, ...]], None],
    ) -> None:
        self.kind = kind
        self.name = name
        self.federations = federations
        self.problems = problems
        self.on_kinds = on_kinds
        self.position = 0
        self.records: _Records | None = None
        self.single: RatingType | None = None
        # canonical key -> tag, for messages; the combined list's standard columns are the
        # tags "rating", "games", "k"
        labels = {key: tag for tag, key in _XML_TAGS.items()}
        self.labels = labels | {"standard_" + key: key for key in ("rating", "games", "k")}

    def take(self, values: dict[str, str]) -> FideListPlayer | None:
        """The record of the next player (``values``: canonical key -> stripped text); None
        when filtered out or not readable (a problem noted)."""
        self.position += 1
        records = self.records
        if records is None:
            kinds, self.single = _xml_kinds(values, self.kind, self.name, self.problems.filename)
            records = self.records = _Records(
                kinds, self.single, self.labels, self.problems, xml=True
            )
            self.on_kinds(kinds)
        if self.single is None:
            for key in ("rating", "games", "k"):
                if key in values:
                    values["standard_" + key] = values[key]
        federations = self.federations
        if federations is not None and values.get("federation", "").upper() not in federations:
            return None
        return records.record(values, self.position)

    def take_element(self, element: ET.Element) -> FideListPlayer | None:
        """:meth:`take` for a ``<player>`` element. A value holding an element is a problem
        (its text would be cut short at it), not read as the text before it."""
        for child in element:
            if len(child):
                self.position += 1
                self.problems.error(
                    None,
                    f"holds the element <{child[0].tag}>: a FIDE value is plain text",
                    f"player {self.position}: {child.tag}",
                )
                return None
        return self.take(
            {_XML_TAGS.get(child.tag, ""): (child.text or "").strip() for child in element}
        )


def _read_xml(
    stream: IO[bytes],
    kind: RatingType | None,
    name: str,
    federations: frozenset[str] | None,
    problems: _Problems,
    on_kinds: Callable[[tuple[RatingType, ...]], None],
) -> Iterator[FideListPlayer]:
    players = _XmlPlayers(kind, name, federations, problems, on_kinds)
    peek = getattr(stream, "peek", None)
    prolog = _XML_PROLOG.match(peek(4096)) if peek is not None else None
    if prolog is None:  # an XML declaration of another encoding, a DOCTYPE, a comment...
        return _read_xml_tree(stream, players)
    return _read_xml_fast(stream, stream.read(prolog.end()), players)


def _read_xml_fast(  # noqa: C901 (one streaming loop: each branch is a case of FIDE's XML, kept inline on the per-player path)
    stream: IO[bytes], prolog: bytes, players: _XmlPlayers
) -> Iterator[FideListPlayer]:
    """FIDE's regular XML, after its ``prolog`` (up to ``<playerslist>``), from decoded
    text: each player matched whole by one compiled pattern; a player the pattern does not
    match is parsed alone by ElementTree; anything else (a comment, a player ElementTree
    cannot read alone, text between players, a truncated file) hands the rest of the file
    to :func:`_read_xml_tree`, which reads it, or reports its problem, as it always did."""
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    text = ""  # decoded, not yet consumed text; `pos` is where reading is in it
    pos = 0
    breaks = 0  # line breaks in the text consumed after the prolog
    column = 0  # characters since the last of them (or since the prolog)
    eof = False
    pattern: re.Pattern[str] | None = None
    keys: tuple[str, ...] = ()
    strip = str.strip
    federations = players.federations
    federation = -1  # the federation's group in `pattern` (-1: none)

    def more() -> bool:
        """Drop the consumed text and decode the next chunk; False at the end."""
        nonlocal text, pos, breaks, column, eof
        if eof:
            return False
        done = text[:pos]
        if done:
            found = _line_breaks(done)
            last = max(done.rfind("\n"), done.rfind("\r"))
            breaks += found
            column = len(done) - last - 1 if found else column + len(done)
        raw = stream.read(_XML_CHUNK)
        eof = not raw
        text = text[pos:] + (decoder.decode(raw, final=eof))
        pos = 0
        return not eof

    def rest(at: int) -> Iterator[FideListPlayer]:
        """ElementTree reads from ``text[at:]`` on, at the same lines and columns."""
        head = text[:at]
        found = _line_breaks(head)
        last = max(head.rfind("\n"), head.rfind("\r"))
        spacing = (
            "\n" * (breaks + found) + " " * (at - last - 1)
            if found
            else "\n" * breaks + " " * (column + at)
        )
        pending = decoder.getstate()[0]
        parts = iter(
            (prolog, spacing.encode(), text[at:].encode("utf-8", "surrogateescape"), pending)
        )
        return _read_xml_tree(_Joined(parts, stream), players)

    more()
    while True:
        if pattern is not None:
            cut = text.rfind("</player>")
            if cut >= 0:
                match = pattern.match
                take = players.take
                while (found_player := match(text, pos, cut + 9)) is not None:
                    pos = found_player.end()
                    found = found_player.groups("")
                    if (
                        federations is not None
                        and (found[federation].strip().upper() if federation >= 0 else "")
                        not in federations
                    ):
                        players.position += 1  # filtered out before building anything
                        continue
                    record = take(dict(zip(keys, map(strip, found), strict=True)))
                    if record is not None:
                        yield record
        space = _XML_SPACE.match(text, pos)
        at = space.end() if space is not None else pos
        if len(text) - at < 32 and not eof:  # too little to tell what comes
            # the white space is consumed (a long run of it is not kept), but not a CR whose
            # LF may come in the next chunk: CR LF is one line break
            pos = at - 1 if at > pos and text[at - 1] == "\r" else at
            more()
            continue
        if text.startswith("<player", at) and not text.startswith("<playerslist", at):
            end = _XML_PLAYER_END.search(text, at)
            if end is None:
                # searched again with each chunk: linear, as a player is this short
                if len(text) - at > MAX_PLAYER_CHARS:
                    raise _player_too_long(players)
                if more():
                    continue
                yield from rest(pos)  # truncated
                return
            element = _parse_alone(text[at : end.end()])
            if element is None:
                yield from rest(pos)
                return
            pos = end.end()
            record = players.take_element(element)
            if record is not None:
                yield record
            tags = tuple(child.tag for child in element)
            if all(_XML_NAME.fullmatch(tag) for tag in tags) and len(set(tags)) == len(tags):
                pattern = _xml_player_pattern(tags)
                keys = tuple(_XML_TAGS.get(tag, "") for tag in tags)
                federation = keys.index("federation") if "federation" in keys else -1
            else:
                pattern = None
            continue
        root_end = _XML_ROOT_END.match(text, at)
        if root_end is not None:
            # the root's end stays in `text` (for rest()), with the white space after it
            after = root_end.end()
            while (space := _XML_SPACE.match(text, after)) is not None and not eof:
                if space.end() < len(text):
                    break
                if len(text) - after > MAX_PLAYER_CHARS:
                    raise InputFileError(
                        players.problems.filename, None, f"white space after </playerslist> "
                        f"goes on past {MAX_PLAYER_CHARS:,} characters: not FIDE's list"
                    )  # fmt: skip
                raw = stream.read(_XML_CHUNK)
                eof = not raw
                text += decoder.decode(raw, final=eof)
            space = _XML_SPACE.match(text, after)
            if space is not None and space.end() == len(text):
                return  # only white space after the root
            yield from rest(at)  # junk after the root: ElementTree says so
            return
        yield from rest(pos)  # anything else: a comment, text, another element, the end
        return


def _player_too_long(players: _XmlPlayers) -> InputFileError:
    return InputFileError(
        players.problems.filename, None,
        f"longer than {MAX_PLAYER_CHARS:,} characters: not a player of FIDE's list",
        f"player {players.position + 1}",
    )  # fmt: skip


class _Counted(io.RawIOBase):
    """A stream for ElementTree that stops when no ``<player>`` ends within
    :data:`MAX_PLAYER_CHARS` bytes (:attr:`since` is set back to 0 at each one's end)."""

    def __init__(self, stream: IO[bytes] | io.RawIOBase, players: _XmlPlayers) -> None:
        super().__init__()
        self.stream = stream
        self.players = players
        self.since = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if self.since > MAX_PLAYER_CHARS:
            raise _player_too_long(self.players)
        data = self.stream.read(MAX_PLAYER_CHARS if size is None or size < 0 else size)
        self.since += len(data or b"")
        return data or b""


def _parse_alone(fragment: str) -> ET.Element | None:
    """One ``<player>...</player>`` parsed alone; None when ElementTree cannot (it is then
    read again in the file, where its problem is reported as it always was)."""
    parser = ET.XMLParser()
    try:
        parser.feed(fragment)
        element = parser.close()
    except (ET.ParseError, ValueError):
        return None
    return element if element.tag == "player" else None


class _Joined(io.RawIOBase):
    """Byte strings, then a stream, read as one stream."""

    def __init__(self, parts: Iterator[bytes], stream: IO[bytes]) -> None:
        super().__init__()
        self.parts = parts
        self.stream = stream
        self.current = b""

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        while not self.current:
            part = next(self.parts, None)
            if part is None:
                return self.stream.read(size if size is not None and size >= 0 else -1)
            self.current = part
        if size is None or size < 0:
            size = len(self.current)
        taken, self.current = self.current[:size], self.current[size:]
        return taken


def _read_xml_tree(
    stream: IO[bytes] | io.RawIOBase, players: _XmlPlayers
) -> Iterator[FideListPlayer]:
    """Any XML, by ``xml.etree.ElementTree.iterparse``: each ``<player>`` read when it ends,
    then cleared from the tree (the root is cleared), so that memory stays flat."""
    counted = _Counted(stream, players)
    events = ET.iterparse(counted, events=("start", "end"))
    try:
        _, root = next(events)
        for event, element in events:
            if event != "end" or element.tag != "player":
                continue
            counted.since = 0
            record = players.take_element(element)
            root.clear()  # the player and everything before it: memory stays flat
            if record is not None:
                yield record
    except ET.ParseError as exc:
        line, column = exc.position
        problem = re.sub(r": line [0-9]+, column [0-9]+$", "", exc.msg)
        players.problems.error(line, f"not well-formed XML (column {column}): {problem}", None)
    except StopIteration:
        raise InputFileError(players.problems.filename, None, "empty file: no XML") from None


def _xml_kinds(
    values: dict[str, str], kind: RatingType | None, name: str, filename: str
) -> tuple[tuple[RatingType, ...], RatingType | None]:
    """(types in the file, the single type or None) from the first player's elements."""
    if "rapid_rating" in values or "blitz_rating" in values:
        # the standard list only when its tags are there: a rapid_rating_list_xml.xml that
        # names its elements rapid_* holds no standard ratings (not everyone unrated)
        return tuple(
            k
            for k in RatingType
            if (k is RatingType.STANDARD and "rating" in values) or _KINDS[k] + "_rating" in values
        ), None
    single = kind or _kind_from_name(name)
    if single is None:
        raise InputFileError(
            filename, None, "a single-type list, and neither its name nor the caller says "
            "whether it is the standard, rapid or blitz list (--list standard|rapid|blitz)"
        )  # fmt: skip
    return (single,), single


# --- the file ----------------------------------------------------------------------------------

_DAMAGED: tuple[type[BaseException], ...] = (zipfile.BadZipFile, zlib.error, EOFError, OSError)
try:
    import lzma

    _DAMAGED += (lzma.LZMAError,)
except ImportError:  # a Python built without lzma cannot open such a member anyway
    pass


_ZIP_START = b"PK\x03\x04"
"""How a ZIP file begins (the header of its first member)."""


class _ZipMember(io.RawIOBase):
    """A ZIP member as it is unpacked: a damaged member (bad CRC, broken deflate stream, cut
    short) is an :class:`InputFileError` naming the file, and unpacking more than
    :data:`MAX_ZIP_RATIO` times the compressed size (at least :data:`ZIP_FLOOR`) stops."""

    def __init__(self, member: IO[bytes], compressed: int, filename: str) -> None:
        super().__init__()
        self.member = member
        self.filename = filename
        self.compressed = compressed
        self.allowed = max(ZIP_FLOOR, MAX_ZIP_RATIO * compressed)
        self.unpacked = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            data = self.member.read(len(buffer))
        except _DAMAGED as exc:
            problem = str(exc) or type(exc).__name__
            raise InputFileError(
                self.filename, None, f"the ZIP is damaged ({problem[:1].lower()}{problem[1:]}); "
                "download it again"
            ) from None  # fmt: skip
        self.unpacked += len(data)
        if self.unpacked > self.allowed:
            raise InputFileError(
                self.filename, None, f"the ZIP unpacks to more than {self.allowed:,} bytes, "
                f"over {MAX_ZIP_RATIO} times its {self.compressed:,} compressed bytes: not "
                "FIDE's list"
            )  # fmt: skip
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.member.close()
        super().close()


class FideList:
    """An open FIDE rating list: iterate it once for its players (see the module docstring).

    Use as a context manager (the file is closed at the end), or call :meth:`close`.
    :attr:`format`, :attr:`member` and :attr:`filename` are known on opening;
    :attr:`kinds` and :attr:`list_month` once the first record (or the header) is read.
    """

    def __init__(
        self,
        path: Path,
        *,
        federations: Iterable[str] | None = None,
        rating_type: RatingType | None = None,
    ) -> None:
        self.path = path
        self.federations = (
            None if federations is None else frozenset(f.strip().upper() for f in federations)
        )
        self.rating_type = rating_type
        self.member: str | None = None
        """The ZIP member read (None for a plain file)."""
        self.format = "txt"
        """``'txt'`` or ``'xml'``, from the file's first characters."""
        self.kinds: tuple[RatingType, ...] = ()
        """The list types the file holds (standard, rapid, blitz)."""
        self.list_month: date | None = None
        """The month a single-type TXT list names in its header (``OCT26``), else None."""
        self._archive: zipfile.ZipFile | None = None
        self._stream: io.BufferedReader
        self._started = False
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        self._problems = _Problems(self.filename)

    def _open(self) -> None:
        name = str(self.path)
        try:
            if zipfile.is_zipfile(self.path):
                self._archive = zipfile.ZipFile(self.path)
                members = [
                    info.filename
                    for info in self._archive.infolist()
                    if info.filename.lower().endswith((".txt", ".xml")) and not info.is_dir()
                ]
                if len(members) != 1:
                    found = ", ".join(members) or "none"
                    raise InputFileError(
                        name, None, f"expected one .txt or .xml file in the ZIP, found: {found}"
                    )
                self.member = members[0]
                info = self._archive.getinfo(self.member)
                # ZipExtFile reads lines slowly; a large buffer in front of it does not
                member = _ZipMember(self._archive.open(info), info.compress_size, self.filename)
                self._stream = io.BufferedReader(member, buffer_size=1 << 20)
            else:
                raw = io.FileIO(self.path, "rb")
                self._stream = io.BufferedReader(raw, buffer_size=1 << 20)
                if self._stream.peek(4)[:4] == _ZIP_START:
                    # a ZIP whose end (its directory of members) is missing: a download cut
                    # short, which would otherwise be read as a TXT list with a bad header
                    raise InputFileError(
                        name, None, "the ZIP is cut short (the directory of its files, at its "
                        "end, is missing); download it again"
                    )  # fmt: skip
        except (OSError, zipfile.BadZipFile, NotImplementedError, RuntimeError) as exc:
            # NotImplementedError: a compression method zipfile lacks; RuntimeError: encrypted
            problem = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise InputFileError(name, None, f"cannot read the file: {problem}") from None
        head = self._stream.peek(512)[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
        self.format = "xml" if head.startswith(b"<") else "txt"

    @property
    def filename(self) -> str:
        """The file for messages: ``PATH``, or ``PATH:MEMBER`` for a ZIP's member."""
        return str(self.path) if self.member is None else f"{self.path}:{self.member}"

    @property
    def warnings(self) -> list[FileWarning]:
        """Harmless oddities met so far (at most :data:`MAX_PROBLEMS`, then a count)."""
        return self._problems.warnings

    @property
    def without_fide_id(self) -> int:
        """Rows without a FIDE id skipped so far: players FIDE does not list (a list that
        :func:`ratings.io.fide_txt.format_fide_txt` wrote holds them), not records."""
        return self._problems.without_id

    def __iter__(self) -> Iterator[FideListPlayer]:
        if self._started:
            raise RuntimeError("a FideList is read once")
        self._started = True
        name = self.member or self.path.name
        if self.format == "xml":
            players = _read_xml(
                self._stream, self.rating_type, name, self.federations, self._problems,
                self._set_kinds,
            )  # fmt: skip
        else:
            players = _read_txt(
                self._stream,
                lambda header: _layout(header, name, self.rating_type, self.filename),
                self.federations,
                self._problems,
                self._set_layout,
            )
        yield from players
        self._problems.raise_all()

    def _set_kinds(self, kinds: tuple[RatingType, ...]) -> None:
        self.kinds = kinds

    def _set_layout(self, layout: _Layout) -> None:
        self.kinds = layout.kinds
        self.list_month = layout.list_month

    def close(self) -> None:
        """Close the file (and the ZIP)."""
        stream = getattr(self, "_stream", None)
        if stream is not None:
            stream.close()
        if self._archive is not None:
            self._archive.close()

    def __enter__(self) -> FideList:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def open_fide_list(
    path: str | Path,
    *,
    federations: Iterable[str] | None = None,
    rating_type: RatingType | None = None,
) -> FideList:
    """Open a FIDE rating list download (TXT or XML, plain or zipped) for reading.

    :param federations: read only players of these federations (codes, any case).
    :param rating_type: the type of a single-type list whose file name does not say it.
    :raises InputFileError: when the file cannot be opened, or a ZIP holds no single list.

    Reading (iterating the result) raises :class:`~ratings.errors.InputFileError` for a
    header that is not FIDE's, and at the end :class:`~ratings.errors.InputFileErrors` (or
    one :class:`~ratings.errors.InputFileError`) for the records that could not be read.
    """
    return FideList(Path(path), federations=federations, rating_type=rating_type)
