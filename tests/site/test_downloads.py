"""The CSV and TXT beside each list page: made from each player's register cells, made once
a publish (``DownloadTexts``), they are the bytes the general writers give
(:func:`ratings.io.csv_out.write_csv`, :func:`ratings.io.fide_txt.format_fide_txt`)."""

from __future__ import annotations

import datetime as dt
import io

import pytest

from ratings.io.csv_out import write_csv
from ratings.io.fide_txt import FideTxtRow, format_fide_txt
from ratings.service.reading import publish as data
from ratings.site.downloads import CSV_HEADER, DownloadTexts, list_csv, list_txt

NAMES = (
    "Öberg, Åsa",
    '=HYPERLINK("http://x"),Eve',
    "+1, Plus",
    "-12",
    "@SUM(A1), At",
    "Semi;=cmd, Colon",
    'Quote "the" Name',
    "Comma, Name, More",
    "Tab\tName",
    "<script>alert(1)</script>, X",
)
FLAGS = ("", "w", "i", "wi", "new", "w new", "i new", "wi new")


def _register() -> dict[int, data.SitePlayer]:
    return {
        i: data.SitePlayer(
            i,
            name,
            10_000 + i if i % 3 else None,
            ("NED", None, "=1+")[i % 3],
            ("m", "f", None)[i % 3],
            ("GM", "WIM", None, "-1")[i % 4],
            1990 + i if i % 2 else None,
            False,
            1500,
            20,
        )
        for i, name in enumerate(NAMES, 1)
    }


def _rows(shift: int) -> list[tuple[data.SiteListRow, str]]:
    return [
        (
            data.SiteListRow(
                i,
                None if i == 3 else 1500 + 10 * i + shift,
                (i - 5) * shift,
                i % 4,
                20 + i,
                None if i == 4 else (10, 20, 40)[i % 3],
                i == 2,
                "listed",
            ),
            FLAGS[(i + shift) % len(FLAGS)],
        )
        for i in range(1, len(NAMES) + 1)
    ]


PERIOD = data.SitePeriod(
    1, "2026-01", dt.date(2026, 1, 1), dt.date(2026, 1, 31), dt.date(2026, 2, 1), "published", ""
)


SEAL = "ab" * 32
"""A list's seal (hexadecimal: a cell with nothing to neutralise or quote)."""


def test_the_list_csv_is_what_the_csv_writer_writes() -> None:
    register = _register()
    texts = DownloadTexts(register)
    for shift in (0, 3, 5):  # one publish's lists share the texts
        rows = _rows(shift)
        expected = io.StringIO()
        write_csv(
            expected,
            [CSV_HEADER]
            + [
                [
                    register[e.player_id].name,
                    register[e.player_id].fide_id,
                    register[e.player_id].federation,
                    register[e.player_id].title,
                    register[e.player_id].birth_year,
                    e.rating,
                    e.change,
                    e.period_games,
                    e.total_games,
                    e.next_k,
                    "true" if e.k10 else "false",
                    flags,
                    e.player_id,
                    SEAL,
                ]
                for e, flags in rows
            ],
        )
        assert list_csv(rows, register, texts, SEAL) == expected.getvalue()
        assert list_csv(rows, register, seal=SEAL) == expected.getvalue()
    assert "'=HYPERLINK" in list_csv(_rows(0), register)  # neutralised


@pytest.mark.parametrize("list_type", ["standard", "rapid", "blitz"])
def test_the_list_txt_is_fides_layout_as_format_fide_txt_writes_it(list_type: str) -> None:
    register = {i: p for i, p in _register().items() if "\t" not in p.name}
    texts = DownloadTexts(register)
    for shift in (0, 3):
        rows = [(e, f) for e, f in _rows(shift) if e.player_id in register]
        expected = format_fide_txt(
            [
                FideTxtRow(
                    fide_id=register[e.player_id].fide_id,
                    name=register[e.player_id].name,
                    federation=register[e.player_id].federation,
                    sex=register[e.player_id].sex,
                    title=register[e.player_id].title,
                    rating=e.rating,
                    period_games=e.period_games,
                    next_k=e.next_k,
                    birth_year=register[e.player_id].birth_year,
                    flag=flags.replace("new", "").strip() or None,
                )
                for e, flags in rows
            ],
            list_date=PERIOD.list_date,
            list_type=list_type,
        )
        assert list_txt(rows, register, PERIOD, list_type, texts) == expected


def test_a_name_the_txt_cannot_hold_is_refused_as_before() -> None:
    register = _register()
    register[1] = data.SitePlayer(1, "Line\nBreak", None, None, None, None, None, False, None, None)
    with pytest.raises(ValueError, match="a name holds a line break"):
        list_txt(_rows(0), register, PERIOD)
