"""The downloads beside each list page: the CSV of ``ratings list --format csv`` with the
flags, and FIDE's TXT layout."""

from __future__ import annotations

import io
from collections.abc import Iterable

from ratings.io.csv_out import CsvWriter
from ratings.io.fide_txt import FideTxtRow, format_fide_txt
from ratings.service import publish as data
from ratings.service.reports import LIST_CSV_COLUMNS

__all__ = ["CSV_HEADER", "list_csv", "list_txt"]

CSV_HEADER = (*LIST_CSV_COLUMNS, "flags")
"""The columns of ``ratings list --format csv``, then the flags the page shows."""


def list_csv(
    rows: Iterable[tuple[data.SiteListRow, str]], register: dict[int, data.SitePlayer]
) -> str:
    """The list as ``ratings list --format csv`` writes it, plus the flags; every cell
    neutralised against formula injection (:mod:`ratings.io.csv_out`)."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(CSV_HEADER)
    for e, flags in rows:
        p = register[e.player_id]
        writer.writerow(
            (p.name, p.fide_id, p.federation, p.title, p.birth_year, e.rating, e.change,
             e.period_games, e.total_games, e.next_k, "true" if e.k10 else "false", flags)
        )  # fmt: skip
    return out.getvalue()


def list_txt(
    rows: Iterable[tuple[data.SiteListRow, str]],
    register: dict[int, data.SitePlayer],
    period: data.SitePeriod,
    time_control: str = "standard",
) -> str:
    """The list in FIDE's TXT layout (:mod:`ratings.io.fide_txt`) of its list (rapid and
    blitz: FIDE's rapid and blitz headers, as ``ratings list --format fide-txt``)."""
    fide_rows = []
    for e, flags in rows:
        p = register[e.player_id]
        flag = flags.replace("new", "").strip() or None
        fide_rows.append(
            FideTxtRow(
                fide_id=p.fide_id, name=p.name, federation=p.federation, sex=p.sex,
                title=p.title, rating=e.rating, period_games=e.period_games, next_k=e.next_k,
                birth_year=p.birth_year, flag=flag,
            )
        )  # fmt: skip
    return format_fide_txt(fide_rows, list_date=period.list_date, list_type=time_control)
