"""The downloads beside each list page: the CSV of ``ratings list --format csv`` with the
flags, the player's id and the list's seal; the canonical rows the seal covers
(``-sealed.csv``, docs/SEALS.md); and FIDE's TXT layout."""

from __future__ import annotations

import io
from collections.abc import Iterable

from ratings import sealing
from ratings.io.csv_out import CsvWriter
from ratings.io.fide_txt import fide_txt_line, fide_txt_player, header_line
from ratings.service.reading import publish as data
from ratings.service.reading.reports import LIST_CSV_COLUMNS

__all__ = ["CSV_HEADER", "DownloadTexts", "list_csv", "list_txt", "sealed_csv"]

CSV_HEADER = (*LIST_CSV_COLUMNS, "flags", "player_id", "seal")
"""The columns of ``ratings list --format csv``, then the flags the page shows, the player's
id and the list's seal (the same on every row; empty for a list not sealed)."""


class DownloadTexts:
    """The register columns of each player's line in the CSV and the TXT, made once a
    publish (a federation's site writes them on every one of its lists): the CSV's
    neutralised and quoted, the TXT's laid out."""

    def __init__(self, register: dict[int, data.SitePlayer]) -> None:
        self._register = register
        self._csv: dict[int, str] = {}
        self._txt: dict[int, str] = {}
        self._flags: dict[str, str] = {}

    def csv(self, player_id: int) -> str:
        """The CSV's first cells (name to birth year), without the separator after them."""
        found = self._csv.get(player_id)
        if found is None:
            p = self._register[player_id]
            found = self._csv[player_id] = _csv_line(
                (p.name, p.fide_id, p.federation, p.title, p.birth_year)
            )
        return found

    def flags(self, flags: str) -> str:
        """A flags cell as the CSV writes it (few values)."""
        found = self._flags.get(flags)
        if found is None:
            # after another cell: a row of one empty cell would be written '""'
            found = self._flags[flags] = _csv_line((0, flags))[2:]
        return found

    def txt(self, player_id: int) -> str:
        found = self._txt.get(player_id)
        if found is None:
            p = self._register[player_id]
            found = self._txt[player_id] = fide_txt_player(
                p.fide_id, p.name, p.federation, p.sex, p.title
            )
        return found


def _csv_line(cells: tuple[object, ...]) -> str:
    out = io.StringIO()
    CsvWriter(out).writerow(cells)
    return out.getvalue()[:-1]


def _number(value: int | None) -> str:
    """An integer cell: nothing to neutralise or quote."""
    return "" if value is None else int.__repr__(value)


def list_csv(
    rows: Iterable[tuple[data.SiteListRow, str]],
    register: dict[int, data.SitePlayer],
    texts: DownloadTexts | None = None,
    seal: str | None = None,
) -> str:
    """The list as ``ratings list --format csv`` writes it, plus the flags, the player's id
    and the list's ``seal``; every cell neutralised against formula injection
    (:mod:`ratings.io.csv_out`). ``texts``: the register's cells made once for every list of
    a publish."""
    t = texts if texts is not None else DownloadTexts(register)
    lines = [_csv_line(CSV_HEADER)]
    sealed = seal or ""  # hexadecimal: nothing to neutralise or quote
    for e, flags in rows:
        lines.append(
            f"{t.csv(e.player_id)},{_number(e.rating)},{_number(e.change)},"
            f"{_number(e.period_games)},{_number(e.total_games)},{_number(e.next_k)},"
            f"{'true' if e.k10 else 'false'},{t.flags(flags)},{e.player_id},{sealed}"
        )
    lines.append("")
    return "\n".join(lines)


def sealed_csv(rows: Iterable[tuple[data.SiteListRow, str]]) -> str:
    """The list's canonical rows (:func:`ratings.sealing.rows_text`): the text whose SHA-256
    is its seal's rows digest."""
    return sealing.rows_text(
        sealing.SealedRow(
            e.player_id, e.rating, e.change, e.period_games, e.total_games, e.next_k, e.k10,
            e.list_status,
        )
        for e, _ in rows
        if e.rating is not None
    )  # fmt: skip


def list_txt(
    rows: Iterable[tuple[data.SiteListRow, str]],
    register: dict[int, data.SitePlayer],
    period: data.SitePeriod,
    time_control: str = "standard",
    texts: DownloadTexts | None = None,
) -> str:
    """The list in FIDE's TXT layout (:mod:`ratings.io.fide_txt`) of its list (rapid and
    blitz: FIDE's rapid and blitz headers, as ``ratings list --format fide-txt``)."""
    t = texts if texts is not None else DownloadTexts(register)
    lines = [header_line(period.list_date, time_control)]
    for e, flags in rows:
        p = register[e.player_id]
        flag = flags.replace("new", "").strip() or None
        lines.append(
            fide_txt_line(
                t.txt(e.player_id), e.rating, e.period_games, e.next_k, p.birth_year, flag
            )
        )
    lines.append("")
    return "\n".join(lines)
