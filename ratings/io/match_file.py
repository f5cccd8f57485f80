"""``--match-file FILE``: a two-column CSV of the administrator's decisions, ``name,id`` per
row (the name as an import's file writes it, the registered player: an id, ``fide:N`` or a
registered name). A first row ``name,id`` (or ``name,player``) is a header. Columns are
separated by a comma, a semicolon or a tab, whichever the first row uses; UTF-8 with or
without a BOM; blank lines are skipped.
"""

from __future__ import annotations

import csv
import io

from ratings.errors import InputFileError, InputFileErrors

__all__ = ["read_match_file"]

_HEADERS = ({"name", "id"}, {"name", "player"}, {"name", "player_id"})


def read_match_file(data: bytes, filename: str) -> list[tuple[int, str, str]]:
    """The rows of a match file: (line, name, player).

    :raises InputFileErrors: for a file that is not UTF-8 text and for every row that does
        not hold exactly two non-blank cells, naming the line.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFileErrors(
            [InputFileError(filename, None, f"not UTF-8 text (byte {exc.start})")]
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)
    rows: list[tuple[int, str, str]] = []
    errors: list[InputFileError] = []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != 2 or not all(c.strip() for c in cells):
                errors.append(
                    InputFileError(filename, line, f"give two cells, name and player: {cells!r}")
                )
                continue
            name, ref = (c.strip() for c in cells)
            if not rows and not errors and {name.lower(), ref.lower()} in _HEADERS:
                continue
            rows.append((line, name, ref))
    except csv.Error as exc:
        errors.append(InputFileError(filename, reader.line_num, f"not a CSV file: {exc}"))
    if errors:
        raise InputFileErrors(errors)
    return rows
