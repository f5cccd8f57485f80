"""The three FIDE lists in the list readers and the TXT export: rapid and blitz
ratings, games and K on every record when the file has them, which list a single-type
file is, and the TXT layout of the rapid and blitz lists."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ratings.errors import InputFileError
from ratings.io.fide_list import FideList, FideListPlayer, FideRating, RatingType, open_fide_list
from ratings.io.fide_txt import FideTxtRow, format_fide_txt, parse_fide_txt
from ratings.rules import InvalidTimeControlError, TimeControl

ALI = FideTxtRow(
    4804929, "A-ALI, Sali Abbas Abdulzahra", "IRQ", "f", "WFM", 1876, 13, 20, 2001, "w"
)
NEW = FideTxtRow(None, "Newcomer, Anna", None, None, None, None, 0, None, None, None)
# FIDE's single-list header up to FOA (standard_rating_list.txt, January 2023)
START = (
    "ID Number      Name                                                         "
    "Fed Sex Tit  WTit OTit           FOA "
)


def read(path: Path, **kwargs: object) -> tuple[list[FideListPlayer], FideList]:
    with open_fide_list(path, **kwargs) as fide_list:  # type: ignore[arg-type]
        return list(fide_list), fide_list


# --- ratings.io.fide_txt: the layout of each list ------------------------------------------


@pytest.mark.parametrize(
    ("list_type", "labels"),
    [
        (TimeControl.STANDARD, "SRtng Gms K  B-day Flag"),
        (TimeControl.RAPID, "RRtng RGm RK B-day Flag"),
        (TimeControl.BLITZ, "BRtng BGm BK B-day Flag"),
        ("Rapid", "RRtng RGm RK B-day Flag"),
    ],
)
def test_each_list_has_its_labels(list_type: TimeControl | str, labels: str) -> None:
    text = format_fide_txt([ALI], list_type=list_type)
    header, row = text.splitlines()
    assert header == START + labels
    # the rows are the same in every list: only the header says which it is
    assert row == format_fide_txt([ALI]).splitlines()[1]
    assert len(row) == 136
    assert parse_fide_txt(text) == [ALI]


def test_the_list_month_replaces_the_rating_label() -> None:
    header = format_fide_txt([], list_date=date(2026, 11, 1), list_type="blitz").splitlines()[0]
    assert header == START + "NOV26 BGm BK B-day Flag"
    assert header.index("NOV26") == 113


def test_standard_is_the_default_and_unchanged() -> None:
    for rows in ([], [ALI, NEW]):
        for when in (None, date(2023, 1, 1)):
            assert format_fide_txt(rows, list_date=when) == format_fide_txt(
                rows, list_date=when, list_type=TimeControl.STANDARD
            )


def test_an_unknown_list_type() -> None:
    with pytest.raises(InvalidTimeControlError, match="unknown time control"):
        format_fide_txt([ALI], list_type="bullet")


# --- ratings.io.fide_list reads what fide_txt writes, knowing the list ------------------------


@pytest.mark.parametrize("list_type", list(TimeControl))
@pytest.mark.parametrize("list_date", [None, date(2026, 11, 1)])
def test_the_export_reads_back_as_its_list(
    tmp_path: Path, list_type: TimeControl, list_date: date | None
) -> None:
    """Named so that the name says nothing: the header tells the list (with the month over
    the rating, the standard list's ``Gms K`` still needs the name or the caller)."""
    path = tmp_path / "export.txt"
    path.write_text(format_fide_txt([ALI], list_date=list_date, list_type=list_type))
    told = {"rating_type": list_type} if list_date and list_type is TimeControl.STANDARD else {}
    (ali,), fide_list = read(path, **told)
    assert fide_list.kinds == (list_type,)
    assert ali.rating_of(list_type) == FideRating(1876, 13, 20)
    assert [ali.rating_of(k) for k in TimeControl if k is not list_type] == [None, None]
    assert fide_list.list_month == list_date


def test_a_header_of_one_list_and_a_caller_asking_for_another(tmp_path: Path) -> None:
    path = tmp_path / "rapid_rating_list.txt"
    path.write_text(format_fide_txt([ALI], list_date=date(2026, 11, 1), list_type="rapid"))
    with pytest.raises(InputFileError) as info:
        read(path, rating_type=RatingType.BLITZ)
    assert str(info.value) == (
        f"{path}:1: the blitz list was asked for, but the header's RGm column is the rapid list's"
    )


def test_the_header_wins_over_the_name(tmp_path: Path) -> None:
    path = tmp_path / "blitz_rating_list.txt"
    path.write_text(format_fide_txt([ALI], list_date=date(2026, 11, 1), list_type="rapid"))
    (ali,), fide_list = read(path)
    assert (fide_list.kinds, ali.rapid, ali.blitz) == (
        (RatingType.RAPID,),
        FideRating(1876, 13, 20),
        None,
    )


def test_rating_type_is_the_time_control() -> None:
    """One enum for the lists: a record answers for the list of an event or game as it is."""
    assert RatingType is TimeControl


# --- FIDE's files: every record carries the lists the file has -------------------------------

FOA_HEADER = START + "SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
FOA_LINE = (
    "1503014        Carlsen, Magnus                                              NOR M   GM   "
    "                        2823  0   10 2801  12  10 2860  0   10 1990      "
)


def test_the_combined_txt_list_carries_all_three(tmp_path: Path) -> None:
    path = tmp_path / "players_list_foa.txt"
    path.write_bytes(f"{FOA_HEADER}\r\n{FOA_LINE}\r\n".encode())
    (carlsen,), fide_list = read(path)
    assert fide_list.kinds == tuple(TimeControl)
    assert (carlsen.standard, carlsen.rapid, carlsen.blitz) == (
        FideRating(2823, 0, 10),
        FideRating(2801, 12, 10),
        FideRating(2860, 0, 10),
    )


@pytest.mark.parametrize("kind", list(TimeControl))
def test_fide_single_txt_lists_carry_their_one_list(tmp_path: Path, kind: TimeControl) -> None:
    path = tmp_path / f"{kind.value}_rating_list.txt"
    header = START + "OCT26 Gms K  B-day Flag"
    path.write_bytes(f"{header}\r\n{FOA_LINE[:126]}1990      \r\n".encode())
    (carlsen,), fide_list = read(path)
    assert fide_list.kinds == (kind,)
    assert {k: carlsen.rating_of(k) for k in TimeControl} == {
        k: FideRating(2823, 0, 10) if k is kind else None for k in TimeControl
    }


def xml_list(*elements: tuple[str, object]) -> bytes:
    children = "".join(f"<{tag}>{value}</{tag}>\r\n" for tag, value in elements)
    return f"<playerslist>\r\n<player>\r\n{children}</player>\r\n</playerslist>\r\n".encode()


PERSON = (("fideid", 1503014), ("name", "Carlsen, Magnus"), ("country", "NOR"), ("sex", "M"))


def test_the_combined_xml_list_carries_all_three(tmp_path: Path) -> None:
    path = tmp_path / "players_list_xml_foa.xml"
    path.write_bytes(
        xml_list(
            *PERSON,
            ("rating", 2823),
            ("games", 0),
            ("k", 10),
            ("rapid_rating", 2801),
            ("rapid_games", 12),
            ("rapid_k", 10),
            ("blitz_rating", 2860),
            ("blitz_games", 0),
            ("blitz_k", 10),
            ("birthday", 1990),
        )
    )
    (carlsen,), fide_list = read(path)
    assert fide_list.kinds == tuple(TimeControl)
    assert (carlsen.standard, carlsen.rapid, carlsen.blitz) == (
        FideRating(2823, 0, 10),
        FideRating(2801, 12, 10),
        FideRating(2860, 0, 10),
    )


def test_an_xml_list_of_rapid_elements_only_holds_no_standard_list(tmp_path: Path) -> None:
    """Not everyone unrated on a standard list the file does not have."""
    path = tmp_path / "list.xml"
    path.write_bytes(
        xml_list(*PERSON, ("rapid_rating", 2801), ("rapid_games", 12), ("rapid_k", 10))
    )
    (carlsen,), fide_list = read(path)
    assert fide_list.kinds == (RatingType.RAPID,)
    assert (carlsen.standard, carlsen.rapid, carlsen.blitz) == (
        None,
        FideRating(2801, 12, 10),
        None,
    )


@pytest.mark.parametrize("kind", list(TimeControl))
def test_single_xml_lists_carry_their_one_list(tmp_path: Path, kind: TimeControl) -> None:
    path = tmp_path / f"{kind.value}_rating_list_xml.xml"
    path.write_bytes(xml_list(*PERSON, ("rating", 2823), ("games", 3), ("k", 10)))
    (carlsen,), fide_list = read(path)
    assert fide_list.kinds == (kind,)
    assert {k: carlsen.rating_of(k) for k in TimeControl} == {
        k: FideRating(2823, 3, 10) if k is kind else None for k in TimeControl
    }


# Two lines in the layout of FIDE's own blitz_rating_list.txt of August 2026 (the column
# positions and values of real lines; FIDE heads the single lists of all three types alike,
# with the list month, "Gms" and "K").
BLITZ_HEADER = START + "AUG26 Gms K  B-day Flag"
BLITZ_LINES = (
    "703303         Leko, Peter                                                  HUN M   GM   "
    "                        2738  0   10 1979  i   ",
    "48701955       Aadya Gowda                                                  IND F   WCM  "
    "WCM                     1807  0   40 2013  w   ",
)


def test_fides_own_blitz_file_and_our_blitz_export_share_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "blitz_rating_list.txt"
    path.write_text("\r\n".join((BLITZ_HEADER, *BLITZ_LINES)) + "\r\n", encoding="latin-1")
    (leko, aadya), fide_list = read(path)
    assert (fide_list.kinds, fide_list.list_month) == ((RatingType.BLITZ,), date(2026, 8, 1))
    assert (leko.blitz, leko.inactive, leko.birth_year) == (FideRating(2738, 0, 10), True, 1979)
    assert (aadya.blitz, aadya.standard, aadya.flag) == (FideRating(1807, 0, 40), None, "w")
    # our blitz export writes every value at FIDE's position; only the labels of the games
    # and K columns differ ("BGm BK" for "Gms K"), so that the file says which list it is
    ours = format_fide_txt(
        [FideTxtRow(703303, "Leko, Peter", "HUN", "m", "GM", 2738, 0, 10, 1979, "i")],
        list_date=date(2026, 8, 1),
        list_type="blitz",
    ).splitlines()
    assert ours[0] == START + "AUG26 BGm BK B-day Flag"
    assert ours[1].rstrip() == BLITZ_LINES[0].rstrip()
