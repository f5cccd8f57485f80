"""Rating lists in the fixed-width TXT layout of FIDE's downloads.

:func:`format_fide_txt` writes the layout of FIDE's single-type lists
(``standard_rating_list.txt``), 136 characters a line, every value left-aligned at the start
of its column, as in the files FIDE publishes. Columns (0-based, end exclusive)::

    [0, 15)   ID Number   FIDE id (blank when the player has none)
    [15, 76)  Name        "Surname, Given"; longer names are cut to 60 characters
    [76, 80)  Fed         federation
    [80, 84)  Sex         M or F
    [84, 89)  Tit         title (GM IM FM CM WGM WIM WFM WCM)
    [89, 94)  WTit        women's title (FIDE repeats a W-title here)
    [94, 109) OTit        other titles (IA, FA, ...): left blank
    [109,113) FOA         FIDE Online Arena title: left blank
    [113,119) SRtng       rating (FIDE heads it with the list month, e.g. JAN26); 0 = unrated
    [119,123) Gms         rated games in the period
    [123,126) K           K-factor, 0 when unknown
    [126,132) B-day       birth year, 0 when unknown
    [132,136) Flag        i inactive, w woman, wi both

The header line is FIDE's, with ``SRtng`` or the list month (``list_date``) over the rating.

``list_type`` chooses the list: standard (the default, the layout above), rapid or
blitz. FIDE's own ``rapid_rating_list.txt`` and ``blitz_rating_list.txt`` have exactly the
standard list's columns and header (checked against lines of the August 2026 blitz file), so
only the file's name tells them apart. Ours write every value at FIDE's position but label
the columns as FIDE's legend and combined list name them: ``RRtng RGm RK`` for rapid,
``BRtng BGm BK`` for blitz, in place of ``SRtng Gms K`` (the list month still replaces the
rating label when ``list_date`` is given). A file headed ``RRtng`` or ``BRtng`` thus says
which list it is to :mod:`ratings.io.fide_list`, whatever its name; a reader that goes by
position reads it as FIDE's.

Lines end with LF (FIDE's own files use CRLF; write with ``newline="\\r\\n"`` to match).

:func:`parse_fide_txt` reads this layout back, and also FIDE's combined lists
(``players_list_foa.txt``, whose standard columns are ``SRtng SGm SK``), by taking each
column's position from the header line, as FIDE has changed the layout before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from ratings.errors import InputFileError
from ratings.rules import TimeControl, time_control

__all__ = [
    "FideTxtRow",
    "fide_txt_line",
    "fide_txt_player",
    "format_fide_txt",
    "header_line",
    "parse_fide_txt",
]


@dataclass(frozen=True, slots=True)
class FideTxtRow:
    """One player on a rating list."""

    fide_id: int | None
    """FIDE id, None when the player has none."""
    name: str
    """Name as listed (``Surname, Given``)."""
    federation: str | None
    """Three-letter federation."""
    sex: str | None
    """``'m'`` or ``'f'`` (written ``M``/``F``)."""
    title: str | None
    """``GM``, ``IM``, ``WGM``, ..."""
    rating: int | None
    """Rating; None for an unrated player (written as 0)."""
    period_games: int
    """Rated games in the period (FIDE's ``Gms``)."""
    next_k: int | None
    """K-factor for the next period (FIDE's ``K``); None when unknown (written as 0)."""
    birth_year: int | None
    """Birth year; None when unknown (written as 0)."""
    flag: str | None
    """``'i'`` inactive, ``'w'`` woman, ``'wi'`` both."""


# (label, start, width) of the single-type list; the rating label is the list month
_COLUMNS = (
    ("ID Number", 0, 15),
    ("Name", 15, 61),
    ("Fed", 76, 4),
    ("Sex", 80, 4),
    ("Tit", 84, 5),
    ("WTit", 89, 5),
    ("OTit", 94, 15),
    ("FOA", 109, 4),
    ("SRtng", 113, 6),
    ("Gms", 119, 4),
    ("K", 123, 3),
    ("B-day", 126, 6),
    ("Flag", 132, 4),
)
# the labels of the rating, games and K columns of each list (see the module docstring)
_LIST_LABELS = {
    TimeControl.STANDARD: ("SRtng", "Gms", "K"),
    TimeControl.RAPID: ("RRtng", "RGm", "RK"),
    TimeControl.BLITZ: ("BRtng", "BGm", "BK"),
}
_NAME_MAX = 60  # the 61-character name column keeps one blank before Fed
_WOMEN_TITLES = frozenset({"WGM", "WIM", "WFM", "WCM"})
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(r"[0-9]+")


def _cell(value: object, width: int, what: str) -> str:
    """A value left-aligned in its column, with at least one blank after it."""
    text = "" if value is None else str(value)
    if len(text) >= width:
        raise ValueError(f"{what} does not fit in the list's {width - 1} characters: {text!r}")
    return text.ljust(width)


def _header(list_date: date | None, list_type: TimeControl) -> str:
    rating, games, k = _LIST_LABELS[list_type]
    if list_date is not None:
        rating = list_date.strftime("%b%y").upper()
    labels = {"SRtng": rating, "Gms": games, "K": k}
    cells = (labels.get(name, name) for name, _, _ in _COLUMNS)
    return "".join(
        cell.ljust(width) for cell, (_, _, width) in zip(cells, _COLUMNS, strict=True)
    ).rstrip()


def format_fide_txt(
    rows: Iterable[FideTxtRow],
    *,
    list_date: date | None = None,
    list_type: TimeControl | str = TimeControl.STANDARD,
) -> str:
    """A rating list in FIDE's fixed-width TXT layout (header line first, LF line ends).

    ``list_date`` puts the list month over the rating column (``JAN26``), as FIDE does.
    ``list_type`` is the list the rows are from: standard (the default), rapid or blitz
    (a :class:`~ratings.rules.TimeControl` or its value); it changes only the header's
    labels (see the module docstring). Names longer than 60 characters are cut to 60, as the
    column holds no more. Raises :class:`ValueError` for any other value that does not fit
    its column, and :class:`~ratings.rules.InvalidTimeControlError` (a ``ValueError``) for
    an unknown ``list_type``.
    """
    lines = [header_line(list_date, list_type)]
    for row in rows:
        player = fide_txt_player(row.fide_id, row.name, row.federation, row.sex, row.title)
        lines.append(
            fide_txt_line(
                player, row.rating, row.period_games, row.next_k, row.birth_year, row.flag
            )
        )
    return "\n".join(lines) + "\n"


def header_line(list_date: date | None, list_type: TimeControl | str) -> str:
    """The header line of :func:`format_fide_txt` (no line end)."""
    return _header(list_date, time_control(list_type))


def fide_txt_player(
    fide_id: int | None, name: str, federation: str | None, sex: str | None, title: str | None
) -> str:
    """The register columns of a line of :func:`format_fide_txt` (ID Number to FOA), which
    :func:`fide_txt_line` completes: a site's lists make them once a player (the same on
    every list). Raises :class:`ValueError` as :func:`format_fide_txt` does."""
    if sex not in (None, "m", "f", "M", "F"):
        raise ValueError(f"unknown sex {sex!r} (expected 'm', 'f' or None)")
    if "\n" in name or "\r" in name:
        raise ValueError(f"a name holds a line break: {name!r}")
    women_title = title if title is not None and title.upper() in _WOMEN_TITLES else None
    return "".join(
        (
            _cell(fide_id, 15, "FIDE id"),
            name[:_NAME_MAX].ljust(61),
            _cell(federation, 4, "federation"),
            _cell(sex.upper() if sex else None, 4, "sex"),
            _cell(title, 5, "title"),
            _cell(women_title, 5, "title"),
            " " * 19,  # OTit, FOA
        )
    )


def fide_txt_line(
    player: str,
    rating: int | None,
    period_games: int,
    next_k: int | None,
    birth_year: int | None,
    flag: str | None,
) -> str:
    """A line of :func:`format_fide_txt` (no line end): ``player``
    (:func:`fide_txt_player`), then the list's columns."""
    if flag is not None and len(flag) > 4:
        raise ValueError(f"flag does not fit in 4 characters: {flag!r}")
    return (
        f"{player}{_cell(rating or 0, 6, 'rating')}{_cell(period_games, 4, 'period games')}"
        f"{_cell(next_k or 0, 3, 'next K')}{_cell(birth_year or 0, 6, 'birth year')}"
        f"{(flag or '').ljust(4)}"
    )


FIDE_PLAYER_LABELS = {
    "ID": "fide_id",
    "Name": "name",
    "Fed": "federation",
    "Sex": "sex",
    "Tit": "title",
    "WTit": "women_title",
}
"""The labels of a FIDE TXT list's player columns and the field each holds (the ratings,
games and K are labelled by list)."""

# header tokens -> our field; the rating column is the token after FOA (or OTit)
_ALIASES = {
    **FIDE_PLAYER_LABELS,
    "Gms": "games",
    "SGm": "games",
    "RGm": "games",  # a rapid or blitz list (format_fide_txt's list_type); in a combined
    "BGm": "games",  # list SGm and SK come first, and the first label of a field is kept
    "K": "k",
    "SK": "k",
    "RK": "k",
    "BK": "k",
    "B-day": "birth_year",
    "Bday": "birth_year",
    "Flag": "flag",
}
_REQUIRED = ("fide_id", "name", "rating")


def _columns(header: str) -> dict[str, tuple[int, int | None]]:
    """Field -> (start, end) from the positions of the header's labels."""
    tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", header) if m.group() != "Number"]
    labels = [label for _, label in tokens]
    # the standard rating follows FOA (OTit in lists from before FOA titles)
    after = "FOA" if "FOA" in labels else "OTit"
    rating_at = labels.index(after) + 1 if after in labels else -1
    columns: dict[str, tuple[int, int | None]] = {}
    for index, (start, label) in enumerate(tokens):
        end = tokens[index + 1][0] if index + 1 < len(tokens) else None
        field = "rating" if index == rating_at else _ALIASES.get(label)
        if field is not None and field not in columns:
            columns[field] = (start, end)
    return columns


def parse_fide_txt(text: str, filename: str = "<fide txt>") -> list[FideTxtRow]:
    """Read a rating list in FIDE's TXT layout (as written by :func:`format_fide_txt`, of any
    ``list_type``; of a combined list, the standard columns).

    Column positions come from the header line. Raises
    :class:`~ratings.errors.InputFileError` for a missing header and for a value that is not
    a number where one belongs.
    """
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    header_at = next((i for i, line in enumerate(lines) if line.strip()), 0)
    header = lines[header_at] if lines else ""
    columns = _columns(header)
    missing = [f for f in _REQUIRED if f not in columns]
    if not header.startswith("ID") or missing:
        raise InputFileError(filename, header_at + 1, "not a FIDE rating list: no header line")
    rows: list[FideTxtRow] = []
    for number, line in enumerate(lines[header_at + 1 :], start=header_at + 2):
        if not line.strip():
            continue

        def cell(field: str, line: str = line) -> str:
            start, end = columns.get(field, (len(line), None))
            return line[start:end].strip()

        def integer(field: str, label: str, number: int = number) -> int | None:
            value = cell(field)
            if not value:
                return None
            if not _DIGITS.fullmatch(value):
                raise InputFileError(filename, number, f"not a whole number: {value!r}", label)
            return int(value)

        name = cell("name")
        if not name:
            raise InputFileError(filename, number, "missing name", "Name")
        sex = cell("sex").lower()
        if sex not in ("", "m", "f"):
            raise InputFileError(filename, number, f"unknown sex {sex!r}", "Sex")
        rows.append(
            FideTxtRow(
                fide_id=integer("fide_id", "ID Number") or None,
                name=name,
                federation=cell("federation") or None,
                sex=sex or None,
                title=cell("title") or cell("women_title") or None,
                rating=integer("rating", "rating") or None,
                period_games=integer("games", "Gms") or 0,
                next_k=integer("k", "K") or None,
                birth_year=integer("birth_year", "B-day") or None,
                flag=cell("flag") or None,
            )
        )
    return rows
