"""The XML reader's fast path (ratings.io.fide_list._read_xml_fast) against ElementTree's
``iterparse`` (``_read_xml_tree``, the reader it stands in for): the same records, problems
and warnings, for FIDE's regular layout and for everything irregular, at every chunk size."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import ratings.io.fide_list as fide_list_module
from ratings.errors import InputFileError, InputFileErrors
from ratings.io.fide_list import FideListPlayer, open_fide_list

TAGS = ("fideid", "name", "country", "sex", "title", "w_title", "o_title", "foa_title",
        "rating", "games", "k", "rapid_rating", "rapid_games", "rapid_k", "blitz_rating",
        "blitz_games", "blitz_k", "birthday", "flag")  # fmt: skip
CARLSEN = ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", "", "", "",
           "2823", "0", "10", "2801", "12", "10", "2860", "0", "10", "1990", "")  # fmt: skip


def player(*changes: tuple[int, str], fide_id: int = 1503014, template: str = "") -> str:
    """A ``<player>`` as FIDE writes it (one child a line, CRLF), ``changes`` replacing the
    value of child ``index``, or ``template`` (``{id}`` for the FIDE id) as it is."""
    if template:
        return template.replace("{id}", str(fide_id))
    values = [str(fide_id), *CARLSEN[1:]]
    for index, value in changes:
        values[index] = value
    children = "".join(f"<{t}>{v}</{t}>\r\n" for t, v in zip(TAGS, values, strict=True))
    return f"<player>\r\n{children}</player>\r\n"


def document(
    *players: str, head: str = "<playerslist>\r\n", tail: str = "</playerslist>\r\n"
) -> bytes:
    return (head + "".join(players) + tail).encode()


Outcome = tuple[list[FideListPlayer], list[str], list[str]]


def outcome(path: Path, **kwargs: object) -> Outcome:
    """(records, problems, warnings) of reading ``path``."""
    records: list[FideListPlayer] = []
    problems: list[str] = []
    with open_fide_list(path, **kwargs) as fide_list:  # type: ignore[arg-type]
        try:
            records.extend(fide_list)
        except InputFileErrors as errors:
            problems = [str(e) for e in errors.errors]
        except InputFileError as error:
            problems = [str(error)]
        warnings = [str(w) for w in fide_list.warnings]
    return records, problems, warnings


def both(path: Path, monkeypatch: pytest.MonkeyPatch, **kwargs: object) -> Outcome:
    """The fast path's outcome at several chunk sizes, checked equal to iterparse's."""
    with monkeypatch.context() as patch:
        patch.setattr(fide_list_module, "_XML_PROLOG", re.compile(rb"(?!)"))  # never fast
        expected = outcome(path, **kwargs)
    for chunk in (1, 7, 100, 1 << 16):
        with monkeypatch.context() as patch:
            patch.setattr(fide_list_module, "_XML_CHUNK", chunk)
            assert outcome(path, **kwargs) == expected, chunk
    return expected


def write(tmp_path: Path, data: bytes, name: str = "players_list_xml_foa.xml") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_fides_layout_is_read_by_the_fast_pattern(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, document(*(player(fide_id=1000 + i) for i in range(50))))
    calls: list[object] = []

    def read_xml_tree(*args: object) -> Iterator[object]:
        calls.append(args)
        return iter(())

    monkeypatch.setattr(fide_list_module, "_read_xml_tree", read_xml_tree)
    records, problems, _ = outcome(path)
    assert [r.fide_id for r in records] == list(range(1000, 1050))
    assert (problems, calls) == ([], [])


def test_regular_lists_with_problems_and_the_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [player(fide_id=1000 + i) for i in range(30)]
    players[3] = player((8, "high"), fide_id=1003)
    players[5] = player((2, "IRL"), fide_id=1005)
    players[6] = player((2, " irl "), fide_id=1006)
    players[7] = player((17, "1700"), fide_id=1007)  # a warning
    players[9] = player((0, "0"))
    path = write(tmp_path, document(*players))
    records, problems, warnings = both(path, monkeypatch)
    assert (len(records), len(problems), len(warnings)) == (28, 2, 1)
    assert [r.fide_id for r in both(path, monkeypatch, federations=["irl"])[0]] == [1005, 1006]


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("Smith &amp; Jones", "Smith & Jones"),
        ("&lt;Carlsen&gt;, &quot;Magnus&quot; &apos;M&apos;", "<Carlsen>, \"Magnus\" 'M'"),
        ("M&#252;ller, J&#xF6;rg", "Müller, Jörg"),
        ("<![CDATA[Smith & <Jones>]]>", "Smith & <Jones>"),
        ("  Carlsen, Magnus \r\n", "Carlsen, Magnus"),
        ("Müller, Jörg", "Müller, Jörg"),
    ],
)
def test_entities_cdata_and_white_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, name: str
) -> None:
    path = write(tmp_path, document(player(), player((1, value), fide_id=2), player(fide_id=3)))
    records, problems, _ = both(path, monkeypatch)
    assert [r.name for r in records] == ["Carlsen, Magnus", name, "Carlsen, Magnus"]
    assert problems == []


@pytest.mark.parametrize(
    "template",
    [
        # odd white space in and between the tags
        "<player >\n\t<fideid >{id}</fideid >  <name>\r\nCarlsen, Magnus\n</name><country>NOR"
        "</country><sex>M</sex>\n\n</player\n>\n",
        # self-closed and missing elements, another order
        "<player><sex>M</sex><name>Carlsen, Magnus</name><title/><fideid>{id}</fideid>"
        "<country/></player>",
        # an element the reader does not know, attributes, comments, a processing instruction
        "<player id='1'><fideid>{id}</fideid><extra>x</extra><name lang='no'>Carlsen, Magnus"
        "</name><!-- c --><country>NOR</country><?pi x?><sex>M</sex></player>",
        # a CR in a value (XML reads it as LF: the name is not printable)
        "<player><fideid>{id}</fideid><name>Carlsen,\rMagnus</name><sex>M</sex></player>",
        # an element repeated, the last one read
        "<player><fideid>1</fideid><fideid>{id}</fideid><name>C, M</name><sex>M</sex></player>",
    ],
)
def test_irregular_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: str) -> None:
    path = write(
        tmp_path, document(player(), player(fide_id=7, template=template), player(fide_id=8))
    )
    records, problems, _ = both(path, monkeypatch)
    assert len(records) + len(problems) == 3
    assert [r.fide_id for r in records if r.fide_id != 7] == [1503014, 8]


def test_a_player_with_a_nested_element_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not read as the text before the element (iterparse's child.text) nor skipped."""
    nested = player((1, "Carlsen, <b>Magnus</b> Oen"), fide_id=2)
    path = write(tmp_path, document(player(), nested, player(fide_id=3)))
    records, problems, _ = both(path, monkeypatch)
    assert [r.fide_id for r in records] == [1503014, 3]
    assert problems == [
        f"{path}: player 2: name: holds the element <b>: a FIDE value is plain text"
    ]


@pytest.mark.parametrize(
    "data",
    [
        document(player(), player()[:150], tail=""),  # cut inside a player
        document(player(), player()[:8], tail=""),  # cut after <player>
        document(player(), "<pla", tail=""),  # cut inside a tag
        document(player(), tail=""),  # cut after a player
        document(player(), tail="</players"),  # cut inside the root's end
        document(player(), player()).replace(b"</name>", b"</nam>", 2),  # mismatched tag
        document(player(), "text between players", player(fide_id=3)),
        document(player(), "<!-- a comment -->\r\n", player(fide_id=3)),
        document(player(), "<other><player>x</player></other>", player(fide_id=3)),
        document(player(), player((1, "Smith &nbsp; Jones"))),  # undefined entity
        document(player(), player((1, "Smith &#0; Jones"))),  # not an XML character
        document(player(), player((1, "Smith \x01 Jones"))),
        document(player(), player((1, "Smith ]]> Jones"))),
        document(player(), player(), tail="</playerslist>\r\n<junk/>"),
        document(player(), player(), tail="</playerslist>\r\n  \r\n\n"),
        document(player(), player(), tail="</playerslist >"),
        document(player(), player(), tail="</playerslist>junk"),
        document(player(), tail="</playerslist>" + "\r\n" * 100 + "  junk"),
        document(player(), tail="</playerslist>" + "\r\n" * 100),
        document(head="<playerslist><player>", tail="</player></playerslist>"),
        document(player(), head='<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>'),
        document(player(), head='<?xml version="1.0" encoding="ISO-8859-1"?><playerslist>'),
        document(player(), head="\ufeff<playerslist>"),
        document(player(), head='<!DOCTYPE p [<!ENTITY m "Magnus">]><playerslist>'),
        document(player(), head="<playerslist version='1'>"),
        document(player(), head="<!-- FIDE --><playerslist>"),
        document(player(), head="<players>", tail="</players>"),
        document(player(), player(), player(), head="", tail=""),  # no root
        document(player(), player(template="<player><player>{id}</player></player>")),
    ],
)
def test_same_outcome_as_iterparse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    both(write(tmp_path, data), monkeypatch)


def test_bytes_that_are_not_utf_8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = document(player(), player((1, "M\xfcller, J"), fide_id=2)).replace(b"\xc3\xbc", b"\xfc")
    records, problems, _ = both(write(tmp_path, data), monkeypatch)
    assert len(records) == 1
    assert problems == [
        f"{tmp_path / 'players_list_xml_foa.xml'}:25: not well-formed XML (column 7): "
        "not well-formed (invalid token)"
    ]


def test_zipped_and_across_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    players = [player(fide_id=1000 + i) for i in range(400)]
    players[150] = player((1, "Ærø, Åse &amp; Øystein"), fide_id=1150)
    players[300] = player((1, "Carlsen, <b>Magnus</b>"), fide_id=1300)
    plain = document(*players)
    path = tmp_path / "players_list_xml.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("players_list_xml_foa.xml", plain)
    records, problems, _ = both(path, monkeypatch)
    assert (len(records), records[150].name) == (399, "Ærø, Åse & Øystein")
    assert problems == [
        f"{path}:players_list_xml_foa.xml: player 301: name: holds the element <b>: "
        "a FIDE value is plain text"
    ]
    truncated = tmp_path / "truncated.zip"
    with zipfile.ZipFile(truncated, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("players_list_xml_foa.xml", plain[: len(plain) // 2])
    records, problems, _ = both(truncated, monkeypatch)
    assert 190 < len(records) < 201
    assert len(problems) == 1
    assert problems[0].endswith(": no element found"), problems
