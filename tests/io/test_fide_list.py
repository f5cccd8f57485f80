"""Reading FIDE's rating list downloads (ratings.io.fide_list): TXT and XML, plain and
zipped, the federation filter, every problem of a file at once, and flat memory."""

from __future__ import annotations

import tracemalloc
import zipfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.errors import InputFileError, InputFileErrors
from ratings.io.fide_list import (
    FideList,
    FideListPlayer,
    FideRating,
    RatingType,
    open_fide_list,
)

# FIDE's headers (ratings/io/fide_list.py names the sources)
FOA_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
FOA_WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4, 3, 6, 4, 3, 6, 4)
LEGACY_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)
LEGACY_WIDTHS = (15, 61, 4, 4, 5, 5, 15, 6, 4, 3, 6, 4, 3, 6, 4, 3, 6, 4)
SINGLE_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA OCT26 Gms K  B-day Flag"
)
SINGLE_WIDTHS = (15, 61, 4, 4, 5, 5, 15, 4, 6, 4, 3, 6, 4)


def line(widths: tuple[int, ...], *values: object) -> str:
    """A fixed-width line: each value left-aligned in its column, as FIDE writes them."""
    return "".join(str(v).ljust(w) for v, w in zip(values, widths, strict=True))


# the October 2026 values of these players, as FIDE's combined list gives them
CARLSEN = ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", "", "", "",
           2823, 0, 10, 2801, 12, 10, 2860, 0, 10, 1990, "")  # fmt: skip
ARRIBAS = ("3501418", "Arribas Robaina, Maritza", "CUB", "F", "WGM", "WGM", "IA", "",
           2235, 9, 20, 2191, 0, 20, 2200, 0, 20, 1971, "w")  # fmt: skip
ABABIL = ("7128762", "Ababil", "INA", "M", "", "", "FA", "AIM",
          1709, 0, 40, 1620, 0, 40, 0, 0, 0, 1978, "")  # fmt: skip

CARLSEN_RECORD = FideListPlayer(
    fide_id=1503014,
    name="Carlsen, Magnus",
    federation="NOR",
    sex="m",
    title="GM",
    women_title=None,
    other_titles=(),
    foa_title=None,
    birth_year=1990,
    standard=FideRating(2823, 0, 10),
    rapid=FideRating(2801, 12, 10),
    blitz=FideRating(2860, 0, 10),
    flag=None,
    line=2,
)


def write(path: Path, *lines: str, ending: str = "\r\n") -> Path:
    path.write_bytes("".join(text + ending for text in lines).encode("latin-1"))
    return path


def read(path: Path, **kwargs: object) -> tuple[list[FideListPlayer], FideList]:
    with open_fide_list(path, **kwargs) as fide_list:  # type: ignore[arg-type]
        return list(fide_list), fide_list


def problems(path: Path, **kwargs: object) -> list[str]:
    """Every problem reading ``path`` raises (one or several)."""
    try:
        read(path, **kwargs)
    except InputFileErrors as errors:
        return [str(e) for e in errors.errors]
    except InputFileError as error:
        return [str(error)]
    raise AssertionError("no problem raised")


def zipped(path: Path, *members: tuple[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return path


# --- TXT ---------------------------------------------------------------------------------------


def test_the_combined_foa_list(tmp_path: Path) -> None:
    path = write(
        tmp_path / "players_list_foa.txt",
        FOA_HEADER,
        line(FOA_WIDTHS, *CARLSEN),
        line(FOA_WIDTHS, *ARRIBAS),
        line(FOA_WIDTHS, *ABABIL),
    )
    assert len(line(FOA_WIDTHS, *CARLSEN)) == 162
    players, fide_list = read(path)
    assert players[0] == CARLSEN_RECORD
    assert players[1][1:9] == ("Arribas Robaina, Maritza", "CUB", "f", "WGM", "WGM", ("IA",),
                               None, 1971)  # fmt: skip
    assert (players[1].flag, players[1].inactive, players[1].standard) == (
        "w",
        False,
        FideRating(2235, 9, 20),
    )
    # a 0 rating is unrated, a 0 K unknown
    assert (players[2].foa_title, players[2].other_titles, players[2].blitz) == (
        "AIM",
        ("FA",),
        FideRating(None, 0, None),
    )
    assert players[2].rating_of(RatingType.RAPID) == FideRating(1620, 0, 40)
    assert (fide_list.kinds, fide_list.format, fide_list.list_month, fide_list.warnings) == (
        (RatingType.STANDARD, RatingType.RAPID, RatingType.BLITZ),
        "txt",
        None,
        [],
    )


def test_a_long_other_title_runs_into_the_next_column(tmp_path: Path) -> None:
    """FIDE's October 2026 file has 3 such lines in 1.93 million (163 characters)."""
    cruz = ("3101959", "Cruz Arce, Francisco J.", "PUR", "M", "", "", "SI,FI,LSI,SLI,NA", "AFM",
            1938, 0, 20, 1956, 0, 20, 1927, 0, 20, 1982, "")  # fmt: skip
    text = line(FOA_WIDTHS[:6], *cruz[:6]) + "SI,FI,LSI,SLI,NAAFM " + line(FOA_WIDTHS[8:],
                                                                          *cruz[8:])  # fmt: skip
    assert len(text) == 163
    players, _ = read(write(tmp_path / "l.txt", FOA_HEADER, text, line(FOA_WIDTHS, *CARLSEN)))
    assert players[0].other_titles == ("SI", "FI", "LSI", "SLI", "NA")
    assert (players[0].foa_title, players[0].standard, players[0].birth_year) == (
        "AFM",
        FideRating(1938, 0, 20),
        1982,
    )
    assert players[1] == CARLSEN_RECORD._replace(line=3)


def test_the_legacy_combined_list_without_foa(tmp_path: Path) -> None:
    legacy = CARLSEN[:7] + CARLSEN[8:]
    players, fide_list = read(write(tmp_path / "players_list.txt", LEGACY_HEADER,
                                    line(LEGACY_WIDTHS, *legacy)))  # fmt: skip
    assert players == [CARLSEN_RECORD]
    assert len(fide_list.kinds) == 3


def test_older_lists_leave_unrated_columns_blank(tmp_path: Path) -> None:
    """A list without a rapid rating writes blanks there (lila's FidePlayerSync comment
    shows such a line); they read as unrated, like 0."""
    text = line(FOA_WIDTHS, "6504450", "Acevedo Mendez, Oscar", "CRC", "M", "", "", "", "",
                1779, 0, 40, "", "", "", 1640, 0, 20, 1994, "i")  # fmt: skip
    (player,), _ = read(write(tmp_path / "l.txt", FOA_HEADER, text.rstrip()))
    assert (player.standard, player.rapid, player.blitz, player.inactive) == (
        FideRating(1779, 0, 40),
        FideRating(None, 0, None),
        FideRating(1640, 0, 20),
        True,
    )


@pytest.mark.parametrize(
    ("name", "kind"),
    [("standard_rating_list.txt", RatingType.STANDARD), ("rapid_rating_list.txt",
     RatingType.RAPID), ("BLITZ_oct26frl.txt", RatingType.BLITZ)],
)  # fmt: skip
def test_single_type_lists_take_their_type_from_the_name(
    tmp_path: Path, name: str, kind: RatingType
) -> None:
    single = (*CARLSEN[:8], 2823, 3, 10, 1990, "")
    players, fide_list = read(write(tmp_path / name, SINGLE_HEADER, line(SINGLE_WIDTHS, *single)))
    assert len(line(SINGLE_WIDTHS, *single)) == 136
    assert (fide_list.kinds, fide_list.list_month) == ((kind,), date(2026, 10, 1))
    ratings = {k: players[0].rating_of(k) for k in RatingType}
    assert ratings == {k: FideRating(2823, 3, 10) if k is kind else None for k in RatingType}


def test_a_single_list_whose_name_does_not_say(tmp_path: Path) -> None:
    path = write(tmp_path / "list.txt", SINGLE_HEADER, line(SINGLE_WIDTHS, *CARLSEN[:8], 2823,
                                                                0, 10, 1990, ""))  # fmt: skip
    assert problems(path) == [
        f"{path}:1: a single-type list, and neither its name nor the caller says whether it "
        "is the standard, rapid or blitz list (--list standard|rapid|blitz)"
    ]
    players, _ = read(path, rating_type=RatingType.RAPID)
    assert (players[0].rapid, players[0].standard) == (FideRating(2823, 0, 10), None)


@pytest.mark.parametrize("ending", ["\r\n", "\n"])
def test_line_endings_blank_lines_and_a_bom(tmp_path: Path, ending: str) -> None:
    path = tmp_path / "l.txt"
    path.write_bytes(
        b"\xef\xbb\xbf"
        + ending.join([FOA_HEADER, "", line(FOA_WIDTHS, *CARLSEN), "   ", ""]).encode()
    )
    assert read(path)[0] == [CARLSEN_RECORD._replace(line=3)]


def test_not_a_fide_list(tmp_path: Path) -> None:
    path = write(tmp_path / "notes.txt", "name,rating", "Carlsen,2823")
    assert problems(path) == [
        f"{path}:1: not a FIDE rating list: the first line is not FIDE's header (ID Number  "
        "Name  Fed  Sex ...)"
    ]
    old = write(tmp_path / "old.txt", "ID number Name      TitlFed  Mar11 GamesBorn  Flag")
    assert problems(old) == [f"{old}:1: not a FIDE rating list: the header has no Fed column"]
    norating = write(tmp_path / "n.txt", FOA_HEADER[:113])
    assert problems(norating) == [
        f"{norating}:1: not a FIDE rating list: the header has no rating (SRtng, RRtng, BRtng "
        "or a month) column"
    ]
    empty = write(tmp_path / "empty.txt", "", "")
    assert problems(empty) == [f"{empty}: empty file: no FIDE header line"]


def test_every_problem_of_a_file_at_once(tmp_path: Path) -> None:
    bad = [
        ("15O3014", *CARLSEN[1:]),
        (CARLSEN[0], "", *CARLSEN[2:]),
        (*CARLSEN[:3], "X", *CARLSEN[4:]),
        (*CARLSEN[:8], "28x3", *CARLSEN[9:]),
        (*CARLSEN[:8], 3501, *CARLSEN[9:]),
        (*CARLSEN[:12], "1 2", *CARLSEN[13:]),
        (*CARLSEN[:17], "19x0", ""),
        ("123456789012", *CARLSEN[1:]),
    ]
    path = write(tmp_path / "l.txt", FOA_HEADER, line(FOA_WIDTHS, *ABABIL),
                 *(line(FOA_WIDTHS, *values) for values in bad))  # fmt: skip
    assert problems(path) == [
        f"{path}:3: ID: not a FIDE id (1 to 11 digits 0-9, not 0): '15O3014'",
        f"{path}:4: Name: missing name",
        f"{path}:5: Sex: unknown sex 'X' (M or F)",
        f"{path}:6: SRtng: not a whole number: '28x3'",
        f"{path}:7: SRtng: not a rating (0 to 3500): 3501",
        f"{path}:8: RGm: not a whole number: '1 2'",
        f"{path}:9: B-day: not a whole number: '19x0'",
        f"{path}:10: ID: not a FIDE id (1 to 11 digits 0-9, not 0): '123456789012'",
    ]


def test_the_records_before_a_problem_were_yielded(tmp_path: Path) -> None:
    """The problems come at the end: a consumer works in one transaction and rolls back."""
    path = write(tmp_path / "l.txt", FOA_HEADER, line(FOA_WIDTHS, *CARLSEN),
                 line(FOA_WIDTHS, "x", *CARLSEN[1:]), line(FOA_WIDTHS, *ABABIL))  # fmt: skip
    seen: list[int] = []
    with pytest.raises(InputFileError, match=r":3: ID: not a FIDE id"), open_fide_list(path) as fl:
        seen.extend(p.fide_id for p in fl)
    assert seen == [1503014, 7128762]


def test_at_most_100_problems_are_listed(tmp_path: Path) -> None:
    path = write(tmp_path / "l.txt", FOA_HEADER,
                 *(line(FOA_WIDTHS, "x", *CARLSEN[1:]) for _ in range(150)))  # fmt: skip
    found = problems(path)
    assert len(found) == 101
    assert found[-1] == f"{path}: 50 more problems not listed"


def test_a_birth_year_outside_the_register_is_a_warning(tmp_path: Path) -> None:
    path = write(tmp_path / "l.txt", FOA_HEADER, line(FOA_WIDTHS, *CARLSEN[:17], 1011, ""),
                 line(FOA_WIDTHS, *CARLSEN[:17], 0, "wi"))  # fmt: skip
    players, fide_list = read(path)
    assert [(p.birth_year, p.flag, p.inactive) for p in players] == [
        (None, None, False),
        (None, "wi", True),
    ]
    assert [str(w) for w in fide_list.warnings] == [
        f"{path}:2: B-day: birth year 1011 is not in 1900..2100; read as unknown"
    ]


def test_the_federation_filter(tmp_path: Path) -> None:
    path = write(tmp_path / "l.txt", FOA_HEADER, line(FOA_WIDTHS, *CARLSEN),
                 line(FOA_WIDTHS, *ARRIBAS), line(FOA_WIDTHS, "x", *ABABIL[1:]))  # fmt: skip
    assert [p.name for p in read(path, federations=["cub", "NOR "])[0]] == [
        "Carlsen, Magnus",
        "Arribas Robaina, Maritza",
    ]
    # lines of other federations are not read at all: the bad id is not seen
    assert [p.name for p in read(path, federations=["CUB"])[0]] == ["Arribas Robaina, Maritza"]
    assert problems(path, federations=["INA"]) == [
        f"{path}:4: ID: not a FIDE id (1 to 11 digits 0-9, not 0): 'x'"
    ]


def test_a_latin_1_name(tmp_path: Path) -> None:
    path = write(tmp_path / "l.txt", FOA_HEADER, line(FOA_WIDTHS, CARLSEN[0], "Örr, Mârk",
                                                      *CARLSEN[2:]))  # fmt: skip
    assert read(path)[0][0].name == "Örr, Mârk"


# --- XML ---------------------------------------------------------------------------------------

TAGS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
        "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
        "blitz_games", "blitz_k", "birthday", "flag")  # fmt: skip


def xml_player(values: tuple[object, ...], tags: tuple[str, ...] = TAGS) -> str:
    children = "".join(f"<{t}>{v}</{t}>\r\n" for t, v in zip(tags, values, strict=True))
    return f"<player>\r\n{children}</player>\r\n"


def xml(*players: str) -> bytes:
    return ("<playerslist>\r\n" + "".join(players) + "</playerslist>\r\n").encode()


def test_the_combined_xml_list(tmp_path: Path) -> None:
    path = tmp_path / "players_list_xml_foa.xml"
    path.write_bytes(xml(xml_player(CARLSEN), xml_player(ARRIBAS), xml_player(ABABIL)))
    players, fide_list = read(path)
    assert players[0] == CARLSEN_RECORD._replace(line=1)
    assert players[1].women_title == "WGM"
    assert players[2].blitz == FideRating(None, 0, None)
    assert (fide_list.format, fide_list.kinds) == ("xml", tuple(RatingType))


def test_xml_empty_elements_and_the_filter(tmp_path: Path) -> None:
    """FIDE writes empty values as <title></title>; a self-closed one reads the same."""
    path = tmp_path / "l.xml"
    text = xml_player(ARRIBAS).replace("<foa_title></foa_title>", "<foa_title/>")
    path.write_bytes(xml(xml_player(CARLSEN), text))
    (player,), _ = read(path, federations=["CUB"])
    assert (player.name, player.foa_title, player.line) == ("Arribas Robaina, Maritza", None, 2)


def test_a_single_type_xml_list(tmp_path: Path) -> None:
    tags = (*TAGS[:11], "birthday", "flag")
    path = tmp_path / "blitz_rating_list_xml.xml"
    path.write_bytes(xml(xml_player((*CARLSEN[:8], 2860, 0, 10, 1990, ""), tags)))
    (player,), fide_list = read(path)
    assert (fide_list.kinds, player.blitz, player.standard) == (
        (RatingType.BLITZ,),
        FideRating(2860, 0, 10),
        None,
    )


def test_xml_problems_name_the_player_and_the_tag(tmp_path: Path) -> None:
    path = tmp_path / "l.xml"
    path.write_bytes(
        xml(
            xml_player(CARLSEN),
            xml_player((*CARLSEN[:8], "high", *CARLSEN[9:])),
            xml_player((*CARLSEN[:11], 9999, *CARLSEN[12:])),
            xml_player(("0", *CARLSEN[1:])),
        )
    )
    assert problems(path) == [
        f"{path}: player 2: rating: not a whole number: 'high'",
        f"{path}: player 3: rapid_rating: not a rating (0 to 3500): 9999",
        f"{path}: player 4: fideid: not a FIDE id (1 to 11 digits 0-9, not 0): '0'",
    ]


def test_xml_that_is_not_well_formed(tmp_path: Path) -> None:
    path = tmp_path / "l.xml"
    path.write_bytes(xml(xml_player(CARLSEN)).replace(b"</name>", b"</nam>", 1))
    assert problems(path) == [f"{path}:4: not well-formed XML (column 23): mismatched tag"]


def test_xml_is_streamed_and_cleared(tmp_path: Path) -> None:
    """Ten times the players, the same memory: each player is dropped once read (kept, the
    20,000 players here would take about 40 MB)."""

    def peak(count: int) -> int:
        path = tmp_path / f"{count}.xml"
        path.write_bytes(xml(*(xml_player((str(1000 + i), *CARLSEN[1:])) for i in range(count))))
        tracemalloc.start()
        try:
            with open_fide_list(path) as fide_list:
                assert sum(1 for _ in fide_list) == count
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(2_000), peak(20_000)
    assert large - small < 500_000, (small, large)


# --- ZIP ---------------------------------------------------------------------------------------


def test_zipped_as_fide_ships_them(tmp_path: Path) -> None:
    txt = "".join(t + "\r\n" for t in (FOA_HEADER, line(FOA_WIDTHS, *CARLSEN))).encode()
    path = zipped(tmp_path / "players_list.zip", ("players_list_foa.txt", txt))
    players, fide_list = read(path)
    assert players == [CARLSEN_RECORD]
    assert (fide_list.member, fide_list.filename) == (
        "players_list_foa.txt",
        f"{path}:players_list_foa.txt",
    )
    path = zipped(tmp_path / "players_list_xml.zip",
                  ("players_list_xml_foa.xml", xml(xml_player(CARLSEN))))  # fmt: skip
    assert read(path)[0] == [CARLSEN_RECORD._replace(line=1)]
    bad = zipped(tmp_path / "bad.zip", ("players_list_foa.txt", txt.replace(b"2823", b"28x3")))
    assert problems(bad) == [f"{bad}:players_list_foa.txt:2: SRtng: not a whole number: '28x3'"]


def test_a_zip_must_hold_one_list(tmp_path: Path) -> None:
    two = zipped(tmp_path / "two.zip", ("a.txt", b""), ("b.xml", b""))
    assert problems(two) == [
        f"{two}: expected one .txt or .xml file in the ZIP, found: a.txt, b.xml"
    ]
    none = zipped(tmp_path / "none.zip", ("readme.md", b""))
    assert problems(none) == [f"{none}: expected one .txt or .xml file in the ZIP, found: none"]


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    missing = tmp_path / "missing.zip"
    assert problems(missing) == [f"{missing}: cannot read the file: No such file or directory"]


# --- the two paths through a record agree ------------------------------------------------------

_text = st.text(st.sampled_from("0123456789 xX,-é\u00a0"), max_size=7)


@settings(max_examples=300, deadline=None)
@given(values=st.tuples(*(_text for _ in range(19))))
def test_any_line_reads_or_is_a_located_problem(tmp_path_factory: pytest.TempPathFactory,
                                                values: tuple[str, ...]) -> None:  # fmt: skip
    """Whatever the cells hold, a line gives the record a value-by-value reading gives, or
    one problem naming its line and column, never a crash."""
    cells = tuple(v[: w - 1] for v, w in zip(values, FOA_WIDTHS, strict=True))
    path = write(tmp_path_factory.mktemp("any") / "l.txt", FOA_HEADER, line(FOA_WIDTHS, *cells))
    players, problem = attempt(path)
    if problem is not None:
        assert problem.startswith(f"{path}:2: "), problem
    for player in players:
        assert player.fide_id == int(cells[0].strip())
        assert player.standard is not None
        assert player.standard.period_games == int(cells[9].strip() or 0)


def attempt(path: Path) -> tuple[list[FideListPlayer], str | None]:
    """The records of a file, or none and its one problem."""
    try:
        return read(path)[0], None
    except InputFileError as error:
        return [], str(error)
