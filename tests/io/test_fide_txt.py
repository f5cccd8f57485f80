"""FIDE rating-list TXT layout: exact columns, round trip, FIDE's combined list."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.errors import InputFileError
from ratings.io.fide_txt import FideTxtRow, format_fide_txt, parse_fide_txt

# FIDE's own header of a single-type list (standard_rating_list.txt, January 2023)
FIDE_HEADER = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA JAN23 Gms K  B-day Flag"
)
# a line of that list, as FIDE publishes it (trailing blanks to 136 characters)
FIDE_LINE = (
    "4804929        A-ALI, Sali Abbas Abdulzahra                                 "
    "IRQ F   WFM  WFM                     1876  13  20 2001  w   "
)
ALI = FideTxtRow(
    4804929, "A-ALI, Sali Abbas Abdulzahra", "IRQ", "f", "WFM", 1876, 13, 20, 2001, "w"
)


def test_header_and_line_match_fide() -> None:
    text = format_fide_txt([ALI], list_date=date(2023, 1, 1))
    assert text.splitlines() == [FIDE_HEADER, FIDE_LINE]
    assert len(FIDE_LINE) == 136
    assert text.endswith("\n")
    assert "\r" not in text


def test_default_header_labels_the_rating_column() -> None:
    header = format_fide_txt([]).splitlines()[0]
    assert header == FIDE_HEADER.replace("JAN23", "SRtng")
    assert header.index("SRtng") == 113


def test_unknowns_are_written_as_fide_writes_them() -> None:
    row = FideTxtRow(None, "Newcomer, Anna", None, None, None, None, 0, None, None, None)
    line = format_fide_txt([row]).splitlines()[1]
    assert line[:15] == " " * 15
    assert line[15:76].rstrip() == "Newcomer, Anna"
    assert line[113:].rstrip() == "0     0   0  0"  # rating, games, K, birth year
    assert parse_fide_txt(format_fide_txt([row])) == [row]


def test_men_and_titles() -> None:
    row = FideTxtRow(1503014, "Carlsen, Magnus", "NOR", "m", "GM", 2833, 3, 10, 1990, None)
    line = format_fide_txt([row]).splitlines()[1]
    assert line[76:94] == "NOR M   GM        "  # no women's title for GM
    assert parse_fide_txt(format_fide_txt([row])) == [row]


def test_long_names_are_cut() -> None:
    row = FideTxtRow(1, "X" * 70, None, None, None, 1500, 0, 20, None, None)
    (back,) = parse_fide_txt(format_fide_txt([row]))
    assert back.name == "X" * 60


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"fide_id": 10**15}, "FIDE id"),
        ({"federation": "NORW"}, "federation"),
        ({"title": "GMIMF"}, "title"),
        ({"rating": 1234567}, "rating"),
        ({"period_games": 1000}, "period games does not fit"),
        ({"next_k": 100}, "next K does not fit"),
        ({"sex": "x"}, "sex"),
        ({"flag": "wiwi+"}, "flag"),
        ({"name": "A\nB"}, "line break"),
    ],
)
def test_values_that_do_not_fit(change: dict[str, object], message: str) -> None:
    fields = {
        "fide_id": 1,
        "name": "A",
        "federation": None,
        "sex": None,
        "title": None,
        "rating": None,
        "period_games": 0,
        "next_k": None,
        "birth_year": None,
        "flag": None,
    }
    row = FideTxtRow(**(fields | change))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        format_fide_txt([row])


def test_parse_fide_combined_list() -> None:
    text = (
        "ID Number      Name                                                         Fed Sex Tit  "
        "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag\r\n"
        "1503014        Carlsen, Magnus                                              NOR M   GM   "
        "                        2823  0   10 2801  12  10 2860  0   10 1990      \r\n"
        "8603677        Ding, Liren                                                  CHN M   GM   "
        "                        2723  11  10 2693  0   10 2736  0   10 1992  i   \r\n"
    )
    assert parse_fide_txt(text) == [
        FideTxtRow(1503014, "Carlsen, Magnus", "NOR", "m", "GM", 2823, 0, 10, 1990, None),
        FideTxtRow(8603677, "Ding, Liren", "CHN", "m", "GM", 2723, 11, 10, 1992, "i"),
    ]


def test_parse_errors() -> None:
    with pytest.raises(InputFileError, match=r"^list\.txt:1: not a FIDE rating list"):
        parse_fide_txt("hello\n", "list.txt")
    bad = FIDE_LINE[:113] + "18x6" + FIDE_LINE[117:]
    with pytest.raises(InputFileError, match=r"^list\.txt:3: rating: not a whole number: '18x6'$"):
        parse_fide_txt(FIDE_HEADER + "\n\n" + bad + "\n", "list.txt")
    with pytest.raises(InputFileError, match=r"^list\.txt:2: Name: missing name$"):
        parse_fide_txt(FIDE_HEADER + "\n" + FIDE_LINE[:15] + " " * 61 + FIDE_LINE[76:], "list.txt")


names = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=0x17F, exclude_characters="\x7f"),
    min_size=1,
    max_size=60,
).filter(lambda s: s == s.strip() and s.strip())
rows = st.builds(
    FideTxtRow,
    fide_id=st.none() | st.integers(1, 10**14 - 1),
    name=names,
    federation=st.none() | st.sampled_from(["ENG", "NOR", "IRQ", "FID"]),
    sex=st.sampled_from([None, "m", "f"]),
    title=st.sampled_from([None, "GM", "IM", "WGM", "WFM", "CM"]),
    rating=st.none() | st.integers(1000, 2900),
    period_games=st.integers(0, 999),
    next_k=st.none() | st.sampled_from([10, 20, 40]),
    birth_year=st.none() | st.integers(1900, 2025),
    flag=st.sampled_from([None, "i", "w", "wi"]),
)


@given(st.lists(rows, max_size=5), st.none() | st.dates())
def test_round_trip(listed: list[FideTxtRow], list_date: date | None) -> None:
    assert parse_fide_txt(format_fide_txt(listed, list_date=list_date)) == listed
