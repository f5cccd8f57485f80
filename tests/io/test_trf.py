"""TRF parsing and writing: the real sample files, every result code, and every refusal."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.errors import InputFileError, InputFileErrors
from ratings.io.trf import TrfBye, TrfGame, TrfPlayer, TrfTournament, parse_trf, write_trf
from ratings.results import Result

TRF = Path(__file__).parents[1] / "data" / "trf"

FIDE_ID_RULE = "not a FIDE id (1 to 11 digits 0-9, not 0)"


def load(name: str) -> TrfTournament:
    return parse_trf((TRF / name).read_bytes(), name)


def player_line(
    no: int,
    name: str,
    blocks: list[str],
    *,
    sex: str = " ",
    title: str = "",
    rating: str = "",
    fed: str = "",
    fide_id: str = "",
    birth: str = "",
    points: str = "",
) -> str:
    """A ``001`` line in the fixed columns, round blocks from col 92 (the points column
    blank unless given: a blank one is not checked against the results)."""
    fixed = (
        f"001 {no:>4} {sex}{title:>3} {name:<33} {rating:>4} {fed:<3} {fide_id:>11} "
        f"{birth:<10} {points:>4} {'':>4}"
    )
    return (fixed + "  " + "".join(f"{b:<10}" for b in blocks)).rstrip()


def trf(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def refused(data: bytes) -> str:
    with pytest.raises(InputFileError) as info:
        parse_trf(data, "t.trf")
    return str(info.value)


# --- the sample files ----------------------------------------------------------------------

# file: players, played games, forfeited pairings (of them double), byes by code
EXPECTED = {
    "armstrong_2011.tab": (160, 522, 4 * 0, 0, {"+": 6, "-": 2}),
    "armstrong_2012_with_bom.tab": (2, 1, 0, 0, {}),
    "latin-1.tab": (3, 3, 0, 0, {}),
    "utf-8.tab": (3, 3, 0, 0, {}),
    "javafo_sample2.trf": (52, 89, 4, 0, {"H": 16, "Z": 6, "U": 3}),
    "javafo_example.trf": (52, 89, 4, 0, {"H": 15, "Z": 4, "U": 3}),
    "held_swiss_9.trf": (16, 66, 2, 0, {"H": 2, "U": 3, "Z": 3}),
    "issue_15.input": (180, 904, 86, 2, {}),
    # written by hand for these tests: two blank-result byes stay blank, one is worth ½ (player 5)
    "club_codes_yyddmm.tab": (8, 13, 0, 0, {"U": 1, "H": 1, "Z": 1, "F": 1, " ": 2}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_file_counts(name: str) -> None:
    players, played, forfeits, doubles, byes = EXPECTED[name]
    t = load(name)
    assert len(t.players) == players
    assert [p.start_no for p in t.players] == list(range(1, players + 1))
    assert sum(g.result.is_played for g in t.games) == played
    # every played game of the samples has colours w/b and 1/=/0, so all of them are rated
    assert sum(g.rated for g in t.games) == played
    unplayed = [g for g in t.games if not g.result.is_played]
    assert len(unplayed) == forfeits
    assert not any(g.rated for g in unplayed)
    assert sum(g.result is Result.DOUBLE_FORFEIT for g in unplayed) == doubles
    assert Counter(b.code for b in t.byes) == byes
    # a game is counted once: nobody appears twice in one round
    slots = [(g.round, n) for g in t.games for n in (g.white, g.black)]
    slots += [(b.round, b.player) for b in t.byes]
    assert len(slots) == len(set(slots))


@pytest.mark.parametrize(
    ("name", "forfeits"),
    [
        ("javafo_sample2.trf", {(1, 13, 39), (1, 16, 42), (1, 20, 46), (4, 8, 21)}),
        ("javafo_example.trf", {(1, 13, 39), (1, 16, 42), (1, 20, 46), (4, 8, 21)}),
        ("held_swiss_9.trf", {(3, 12, 14), (4, 9, 11)}),
    ],
)
def test_forfeit_pairings(name: str, forfeits: set[tuple[int, int, int]]) -> None:
    t = load(name)
    found = {
        (g.round, min(g.white, g.black), max(g.white, g.black))
        for g in t.games
        if not g.result.is_played
    }
    assert found == forfeits


def test_forfeit_results_follow_colours() -> None:
    games = {(g.round, g.white, g.black): g.result for g in load("held_swiss_9.trf").games}
    assert games[(3, 12, 14)] is Result.WHITE_FORFEIT_WIN  # 12: "14 w +", 14: "12 b -"
    assert games[(4, 11, 9)] is Result.WHITE_FORFEIT_WIN  # 11: " 9 w +", 9: "11 b -"
    games = {(g.round, g.white, g.black): g.result for g in load("javafo_sample2.trf").games}
    assert games[(1, 42, 16)] is Result.BLACK_FORFEIT_WIN  # 16: "42 b +"


def test_double_forfeits_of_issue_15() -> None:
    doubles = {
        (g.round, min(g.white, g.black), max(g.white, g.black))
        for g in load("issue_15.input").games
        if g.result is Result.DOUBLE_FORFEIT
    }
    assert doubles == {(6, 103, 109), (9, 9, 17)}


def test_armstrong_dates_and_rounds() -> None:
    t = load("armstrong_2011.tab")
    assert t.name == "Leinster Chess Union Div 1 Armstrong Cup 2010 - 2011"
    assert (t.start_date, t.end_date) == (date(2010, 9, 13), date(2011, 3, 13))
    assert len(t.round_dates) == 11
    assert t.round_dates[1] == date(2010, 9, 13)
    assert t.round_dates[11] == date(2011, 3, 13)
    assert t.game_date(3) == date(2010, 10, 16)
    assert t.game_date(12) == date(2010, 9, 13)  # no 132 date: the start date
    assert {g.round for g in t.games} == set(range(1, 12))
    first = t.players[0]
    assert first == TrfPlayer(1, "Aherne, John P.", None, None, 1759, None, 9, None, None, line=31)
    assert first.line == 31


def test_game_date_without_round_dates() -> None:
    t = load("held_swiss_9.trf")
    assert t.round_dates == {}
    assert t.game_date(5) == date(2024, 8, 1)


def test_bom_file() -> None:
    t = load("armstrong_2012_with_bom.tab")
    assert t.name == "Leinster Chess Union Div 1 Armstrong Cup 2011 - 2012"
    assert (t.start_date, t.end_date) == (date(2011, 9, 26), date(2012, 4, 1))
    assert t.games == (TrfGame(1, 1, 2, Result.WHITE_WIN, True, 10, 11),)
    assert (t.games[0].white_line, t.games[0].black_line) == (10, 11)


def test_javafo_player_columns() -> None:
    t = load("javafo_sample2.trf")
    by_no = {p.start_no: p for p in t.players}
    assert by_no[1] == TrfPlayer(
        1, "Mirzoev Azer", "m", "g", 2527, "AZE", 13400304, None, 1978, line=14
    )
    assert by_no[6].rating is None  # rating 0: unrated
    assert by_no[6].fide_id is None  # id 0: none
    assert by_no[6].name == "Gorrochategui Torres, Eugenio"
    assert by_no[23].sex == "f"  # written w
    assert by_no[34].birth_year is None  # blank birth date
    assert t.start_date == date(2010, 9, 24)  # written 24/09/2010
    assert {b.round for b in t.byes if b.round == 5} == {5}
    assert sorted((b.player, b.code) for b in t.byes if b.round == 5) == [
        (22, "Z"),
        (28, "Z"),
        (43, "H"),
    ]


def test_javafo_example_out_of_order_equals_sample2_rounds_1_to_4() -> None:
    example, sample = load("javafo_example.trf"), load("javafo_sample2.trf")
    assert example.games == sample.games
    assert example.byes == tuple(b for b in sample.byes if b.round <= 4)
    strip_titles = [
        TrfPlayer(
            p.start_no, p.name, p.sex, None, p.rating, p.federation, p.fide_id, None,
            p.birth_year, p.line,
        )
        for p in sample.players
    ]  # fmt: skip
    assert list(example.players) == strip_titles
    assert example.players[0].birth_year == 1978  # 1978/00/00: the year only
    assert example.players[0].birth_date is None


def test_held_swiss_birth_dates_and_short_byes() -> None:
    t = load("held_swiss_9.trf")
    assert t.players[0].birth_date == date(1990, 1, 1)
    assert t.players[0].birth_year == 1990
    assert TrfBye(2, 4, "H", line=8) in t.byes  # written "    0 - H"


@pytest.mark.parametrize("name", ["latin-1.tab", "utf-8.tab"])
def test_accented_names(name: str) -> None:
    t = load(name)
    assert t.name == "Läs Végas National Opeñ"
    assert [p.name for p in t.players] == [
        "Uì Laighlèis,Gearoìdin",
        "Örr,Mârk",
        "Bologan,Viktor",
    ]
    assert [(p.sex, p.title) for p in t.players] == [("f", None), ("m", "m"), ("m", "g")]
    assert t.start_date == date(2008, 6, 7)
    assert len(t.games) == 3


def test_latin_1_and_utf_8_agree() -> None:
    assert load("latin-1.tab") == load("utf-8.tab")


def test_utf_8_with_bom_and_latin_1_encodings_of_one_file() -> None:
    text = (TRF / "utf-8.tab").read_bytes().decode("utf-8")
    plain = parse_trf(text.encode("utf-8"), "a")
    assert parse_trf(b"\xef\xbb\xbf" + text.encode("utf-8"), "a") == plain
    assert parse_trf(text.encode("latin-1"), "a") == plain
    assert plain.players[1].name == "Örr,Mârk"


# --- line endings --------------------------------------------------------------------------


@pytest.mark.parametrize("ending", ["\r\n", "\n", "\r"])
@pytest.mark.parametrize("name", ["held_swiss_9.trf", "javafo_example.trf", "issue_15.input"])
def test_line_endings(name: str, ending: str) -> None:
    original = load(name)
    lines = re.split(r"\r\n|\r|\n", (TRF / name).read_bytes().decode("utf-8"))
    variant = parse_trf(ending.join(lines).encode(), name)
    assert variant == original
    assert [p.line for p in variant.players] == [p.line for p in original.players]
    assert [(g.white_line, g.black_line) for g in variant.games] == [
        (g.white_line, g.black_line) for g in original.games
    ]


def test_error_line_numbers_with_bare_cr() -> None:
    data = "\r".join(
        [
            "012 x",
            "",
            player_line(1, "A", ["   2 w 1"]),
            player_line(2, "B", ["   1 w 0"]),
        ]
    )
    assert refused(data.encode()).startswith("t.trf:3: round 1: ")


# --- every result code ---------------------------------------------------------------------


def all_codes() -> bytes:
    return trf(
        "012 Every code",
        "042 2024/03/01",
        player_line(
            1,
            "One",
            ["   2 w 1", "   3 b +", "   4 w W", "   2 w -", "   4 b L", "   4 - +", "   2 - 1"],
        ),
        player_line(
            2,
            "Two",
            ["   1 b 0", "0000 - H", "   3 w D", "   1 b -", "0000 -  ", "0000 - +", "   1 - 0"],
        ),
        player_line(
            3,
            "Three",
            ["   4 w =", "   1 w -", "   2 b D", "0000 - U", "", "0000 - -"],
        ),
        player_line(
            4,
            "Four",
            ["   3 b =", "0000 - F", "   1 b L", "   0 - Z", "   1 w W", "   1 - -"],
        ),
    )


def test_every_result_code() -> None:
    t = parse_trf(all_codes(), "codes.trf")
    assert t.name == "Every code"
    games = {(g.round, g.white, g.black): (g.result, g.rated) for g in t.games}
    assert games == {
        (1, 1, 2): (Result.WHITE_WIN, True),  # 1 / 0
        (1, 3, 4): (Result.DRAW, True),  # = / =
        (2, 3, 1): (Result.BLACK_FORFEIT_WIN, False),  # - / +
        (3, 1, 4): (Result.WHITE_WIN, False),  # W / L: played, not rated
        (3, 2, 3): (Result.DRAW, False),  # D / D
        (4, 1, 2): (Result.DOUBLE_FORFEIT, False),  # - / -
        (5, 4, 1): (Result.WHITE_WIN, False),  # W / L with Black's side first
        (6, 1, 4): (Result.WHITE_FORFEIT_WIN, False),  # no colours: White = lower number
        (7, 1, 2): (Result.WHITE_WIN, False),  # 1 / 0 without colours: not rated
    }
    byes = {(b.round, b.player): b.code for b in t.byes}
    assert byes == {
        (2, 2): "H",
        (2, 4): "F",
        (4, 3): "U",
        (4, 4): "Z",
        (5, 2): " ",  # "0000 -  ": blank result
        (6, 2): "+",
        (6, 3): "-",
    }
    assert not any(b.round == 5 and b.player == 3 for b in t.byes)  # blank block: not paired
    g = next(g for g in t.games if g.round == 6)
    assert (g.white_line, g.black_line) == (3, 6)


def test_every_result_code_round_trip() -> None:
    t = parse_trf(all_codes(), "codes.trf")
    assert parse_trf(write_trf(t).encode(), "again.trf") == t


def test_lower_case_codes_are_read() -> None:
    data = trf(player_line(1, "A", ["   2 W 1", "0000 - h"]), player_line(2, "B", ["   1 B 0"]))
    t = parse_trf(data, "t.trf")
    assert t.games == (TrfGame(1, 1, 2, Result.WHITE_WIN, True, 1, 2),)
    assert t.byes == (TrfBye(2, 1, "H", 1),)


# --- refusals ------------------------------------------------------------------------------


def test_sides_that_disagree_on_the_result() -> None:
    data = trf(
        "012 x",
        player_line(1, "A", ["   2 w 1"]),
        player_line(2, "B", ["   1 b 1"]),
    )
    message = refused(data)
    assert message.startswith("t.trf:2: round 1: players 1 and 2 disagree on the result: ")
    assert message.endswith("line 2 has '2 w 1', line 3 has '1 b 1'")


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [("1", "="), ("=", "0"), ("+", "+"), ("W", "0"), ("D", "="), ("L", "L"), ("+", "1")],
)
def test_results_that_do_not_match(mine: str, theirs: str) -> None:
    data = trf(player_line(1, "A", [f"   2 w {mine}"]), player_line(2, "B", [f"   1 b {theirs}"]))
    assert "disagree on the result" in refused(data)


def test_sides_that_disagree_on_the_colours() -> None:
    data = trf(player_line(1, "A", ["   2 w ="]), player_line(2, "B", ["   1 w ="]))
    message = refused(data)
    assert message.startswith("t.trf:1: round 1: players 1 and 2 disagree on the colours: ")
    assert "line 1" in message
    assert "line 2" in message


def test_pairing_that_is_not_mutual() -> None:
    data = trf(
        "012 x",
        player_line(5, "Five", ["", "", "   9 w 1"]),
        player_line(7, "Seven", ["", "", "   9 b ="]),
        "",
        player_line(9, "Nine", ["", "", "   7 w ="]),
    )
    assert refused(data) == "t.trf:2: round 3: player 5 plays 9 but line 5 (player 9) has 7"


def test_pairing_against_a_bye_or_nothing() -> None:
    bye = trf(player_line(1, "A", ["   2 w 1"]), player_line(2, "B", ["0000 - H"]))
    assert refused(bye) == "t.trf:1: round 1: player 1 plays 2 but line 2 (player 2) has a bye"
    nothing = trf(player_line(1, "A", ["   2 w 1"]), player_line(2, "B", []))
    assert refused(nothing).endswith("line 2 (player 2) has no entry")


def test_start_number_never_defined() -> None:
    data = trf(player_line(1, "A", ["  99 w 1"]), player_line(2, "B", []))
    assert refused(data) == (
        "t.trf:1: round 1: player 1 plays 99, but start number 99 is not defined (no 001 line)"
    )


def test_duplicate_start_number() -> None:
    data = trf(player_line(1, "A", []), player_line(2, "B", []), player_line(1, "C", []))
    assert refused(data) == "t.trf:3: start number: start number 1 is already used on line 1"


def test_player_who_plays_himself() -> None:
    data = trf(player_line(1, "A", ["   1 w 1"]))
    assert refused(data) == "t.trf:1: round 1: player 1 plays himself"


@pytest.mark.parametrize("text", ["001", "001    1", "001    1 m  g   "])
def test_truncated_player_line(text: str) -> None:
    data = trf("012 x", text)
    assert refused(data) == "t.trf:2: truncated player line (it ends before the name)"


def test_line_that_ends_inside_a_field_is_read() -> None:
    t = parse_trf(trf("001    1      Short name   17"), "t.trf")
    assert t.players[0].name == "Short name   17"
    t = parse_trf(trf("001    1      Name" + " " * 30 + "1850 IR"), "t.trf")
    assert (t.players[0].rating, t.players[0].federation) == (1850, "IR")


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"rating": "18x0"}, "t.trf:1: rating: not a whole number: '18x0'"),
        ({"fide_id": "12-45"}, f"t.trf:1: FIDE id: {FIDE_ID_RULE}: '12-45'"),
        ({"rating": "-100"}, "t.trf:1: rating: not a whole number: '-100'"),
        ({"sex": "x"}, "t.trf:1: sex: unknown sex 'x' (expected m, w or f)"),
        ({"birth": "1990/02/30"}, "t.trf:1: birth date: impossible date '1990/02/30'"),
        ({"birth": "nineteen"}, "t.trf:1: birth date: not a date: 'nineteen'"),
    ],
)
def test_malformed_fields(kwargs: dict[str, str], expected: str) -> None:
    assert refused(trf(player_line(1, "A", [], **kwargs))) == expected


def test_malformed_start_number_and_missing_name() -> None:
    assert refused(trf("001   x1      Name")) == ("t.trf:1: start number: not a whole number: 'x1'")
    assert refused(trf("001    0      Name")).startswith("t.trf:1: start number: missing")
    assert refused(trf("001    1 m" + " " * 38 + "1850")) == "t.trf:1: name: missing name"


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        ("  2x w 1", "round 1 opponent: not a whole number: '2x'"),
        ("   2 x 1", "round 1: unknown colour 'x' (expected w, b or -)"),
        ("   2 w ?", "round 1: unknown result code '?'"),
        ("   2 w  ", "round 1: no result against 2"),
        ("   2 - H", "round 1: bye code 'H' with an opponent (2)"),
        ("0000 - 1", "round 1: result '1' without an opponent"),
        ("   2 w 1 x", "round 1: malformed round block '   2 w 1 x'"),
        ("    2 w 1", "round 1: malformed round block '    2 w 1'"),
    ],
)
def test_malformed_round_blocks(block: str, expected: str) -> None:
    data = trf(player_line(1, "A", [block]), player_line(2, "B", ["   1 b 0"]))
    assert refused(data) == f"t.trf:1: {expected}"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("042 2024-02-30", "t.trf:2: start date: impossible date '2024-02-30'; not used"),
        (
            "052 24.13.01",
            "t.trf:2: end date: impossible date '24.13.01' (as yy.dd.mm it would be "
            "2024-01-13); not used",
        ),
        ("042 next tuesday", "t.trf:2: start date: not a date: 'next tuesday'; not used"),
        (
            "132" + " " * 88 + "24/02/28  24/02/30",
            "t.trf:2: round 2 date: impossible date '24/02/30'; not used",
        ),
    ],
)
def test_unreadable_header_dates_are_warnings(line: str, expected: str) -> None:
    """Dates are information, not structure (was: an error)."""
    t = parse_trf(trf("012 x", line, player_line(1, "A", [])), "t.trf")
    assert [str(w) for w in t.warnings] == [expected]
    assert (t.start_date, t.end_date) == (None, None)
    # the readable round date of the same record is used
    assert t.round_dates == ({1: date(2024, 2, 28)} if line.startswith("132") else {})
    assert t.undated_rounds == ((2,) if line.startswith("132") else ())


def test_dates_written_day_before_month() -> None:
    """A file whose unreadable dates read as yy.dd.mm: its dates that read as two different
    days are not used either; those that read the same both ways are."""
    dates = ["11.05.02", "11.12.02", "11.19.02", "11.02.02", "11.26.02"]
    t = parse_trf(
        trf(
            "012 x",
            "042 2011-02-05",
            "052 11.25.02",
            "132" + " " * 88 + "".join(f"{d:<10}" for d in dates),
            player_line(1, "A", []),
        ),
        "t.trf",
    )
    assert [str(w) for w in t.warnings] == [
        "t.trf:3: end date: impossible date '11.25.02' (as yy.dd.mm it would be 2011-02-25); "
        "not used",
        "t.trf:4: round 1 date: '11.05.02' may be 2011-05-02 (yy.mm.dd) or 2011-02-05 "
        "(yy.dd.mm, as other dates of this file are written); not used",
        "t.trf:4: round 2 date: '11.12.02' may be 2011-12-02 (yy.mm.dd) or 2011-02-12 "
        "(yy.dd.mm, as other dates of this file are written); not used",
        "t.trf:4: round 3 date: impossible date '11.19.02' (as yy.dd.mm it would be "
        "2011-02-19); not used",
        "t.trf:4: round 5 date: impossible date '11.26.02' (as yy.dd.mm it would be "
        "2011-02-26); not used",
    ]
    assert (t.start_date, t.end_date) == (date(2011, 2, 5), None)
    assert t.round_dates == {4: date(2011, 2, 2)}
    assert t.undated_rounds == (1, 2, 3, 5)


def test_a_readable_file_has_no_date_warnings() -> None:
    data = trf("042 11.05.02", "132" + " " * 88 + "11.05.02", player_line(1, "A", []))
    t = parse_trf(data, "t")
    day = date(2011, 5, 2)
    assert (t.warnings, t.start_date, t.round_dates) == ((), day, {1: day})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("24.02.29", date(2024, 2, 29)),
        ("99.12.31", date(1999, 12, 31)),
        ("2024/02/29", date(2024, 2, 29)),
        ("2024-02-29", date(2024, 2, 29)),
        ("2024.2.9", date(2024, 2, 9)),
        ("29/02/2024", date(2024, 2, 29)),
        ("29.02.2024", date(2024, 2, 29)),
    ],
)
def test_date_spellings(text: str, expected: date) -> None:
    t = parse_trf(trf(f"042 {text}", f"052 {text}", player_line(1, "A", [])), "t.trf")
    assert t.start_date == t.end_date == expected


def test_round_dates_not_in_the_round_columns_are_taken_in_order() -> None:
    t = parse_trf(trf("132 24/09/10 24/09/11", player_line(1, "A", [])), "t.trf")
    assert t.round_dates == {1: date(2024, 9, 10), 2: date(2024, 9, 11)}


def test_round_dates_with_a_gap() -> None:
    line = "132" + " " * 88 + "2024/09/10" + " " * 10 + "2024/09/12"
    t = parse_trf(trf(line, player_line(1, "A", [])), "t.trf")
    assert t.round_dates == {1: date(2024, 9, 10), 3: date(2024, 9, 12)}
    assert t.game_date(2) is None


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"hello\nworld\n",
        b"\xff\xfe\x00garbage",
        (Path(__file__).parents[1] / "data" / "pgn" / "0007.pgn").read_bytes(),
        b"012 A tournament without players\n042 2024/01/01\n",
    ],
)
def test_not_a_trf_file(data: bytes) -> None:
    assert refused(data) == "t.trf:1: not a TRF file: no 001 player line"


def test_ignored_records() -> None:
    data = trf(
        "012 x",
        "013 Team A    1    2",
        "XXR 9",
        "DDD SSSS sTTT NNNN",
        "0123456789",
        "",
        "   ",
        "102 Arbiter",
        "### a TRF-2026 comment line",
        player_line(1, "A", ["   2 w 1"]),
        "IRL    1 m    National Name                     1900 DUB",  # TRF-2026 NRS record
        player_line(2, "B", ["   1 b 0"]),
        "310   1 Team",
    )
    t = parse_trf(data, "t.trf")
    assert len(t.players) == 2
    assert len(t.games) == 1


# --- random damage -------------------------------------------------------------------------

DAMAGE_BASES = [
    (TRF / name).read_bytes() for name in ("held_swiss_9.trf", "javafo_example.trf", "latin-1.tab")
]
LOCATED = re.compile(r"FILE:[0-9]+: ")
MEANINGFUL = b" 0123456789wb-=+WDLHFUZ\r\n"  # "set" damage: plausible TRF characters

damage = st.lists(
    st.tuples(
        st.sampled_from(["flip", "insert", "delete", "set"]),
        st.floats(min_value=0, max_value=1, exclude_max=True),
        st.integers(min_value=0, max_value=255),
    ),
    min_size=1,
    max_size=8,
)


def apply(data: bytes, steps: list[tuple[str, float, int]]) -> bytes:
    buffer = bytearray(data)
    for kind, where, value in steps:
        at = int(where * len(buffer))
        if kind == "insert":
            buffer.insert(at, value)
        elif buffer and kind == "set":
            buffer[at] = MEANINGFUL[value % len(MEANINGFUL)]
        elif buffer and kind == "delete":
            del buffer[at]
        elif buffer:
            buffer[at] ^= value or 1
    return bytes(buffer)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(DAMAGE_BASES), steps=damage)
def test_random_damage_parses_or_raises_a_located_error(
    base: bytes, steps: list[tuple[str, float, int]]
) -> None:
    try:
        parse_trf(apply(base, steps), "FILE")
    except InputFileError as error:
        messages = [str(error)]
    except InputFileErrors as errors:
        messages = [str(error) for error in errors.errors]
        assert len(messages) > 1
    else:
        messages = []
    assert all(LOCATED.match(message) for message in messages), messages


# --- writing -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_write_then_parse_round_trip(name: str) -> None:
    original = load(name)
    text = write_trf(original)
    assert "\r" not in text
    assert parse_trf(text.encode(), "written.trf") == original


def test_written_file_layout() -> None:
    t = load("held_swiss_9.trf")
    lines = write_trf(t).splitlines()
    assert lines[:3] == ["012 FIDE C.07 2023 Tie-Break Exercises", "042 2024/08/01", "062 16"]
    assert lines[3] == (
        "001    1 m    Alyx                              2150 NOR             1990/01/01  6.0    2"
        "     9 w 1    13 b =     2 w =    15 b 1     4 w =     6 b =     3 b =    16 w =     8 b 1"
    )
    assert "   12 b 1  0000 - H    13 w 1" in lines[6]  # player 4, round 2


def test_written_round_dates() -> None:
    t = TrfTournament(
        name=None,
        start_date=None,
        end_date=None,
        round_dates={1: date(1965, 3, 1), 3: date(2024, 3, 3)},
        players=(TrfPlayer(1, "A", None, None, None, None, None, None, None, 0),),
        games=(),
        byes=(TrfBye(2, 1, "F", 0),),
    )
    text = write_trf(t)
    assert "132" + " " * 88 + "1965/03/01" + " " * 10 + "24/03/03" in text
    assert parse_trf(text.encode(), "t.trf") == t


@pytest.mark.parametrize(
    ("player", "message"),
    [
        (TrfPlayer(1, "N" * 34, None, None, None, None, None, None, None, 0), "name"),
        (TrfPlayer(10000, "A", None, None, None, None, None, None, None, 0), "start number"),
        (TrfPlayer(1, "A", None, None, 12345, None, None, None, None, 0), "rating"),
        (TrfPlayer(1, "A", "x", None, None, None, None, None, None, 0), "sex"),
        (TrfPlayer(1, "A\nB", None, None, None, None, None, None, None, 0), "line break"),
    ],
)
def test_write_refuses_values_that_do_not_fit(player: TrfPlayer, message: str) -> None:
    t = TrfTournament(None, None, None, {}, (player,), (), ())
    with pytest.raises(ValueError, match=message):
        write_trf(t)


def test_write_refuses_two_entries_in_one_round() -> None:
    players = tuple(
        TrfPlayer(n, f"P{n}", None, None, None, None, None, None, None, 0) for n in (1, 2)
    )
    t = TrfTournament(
        None,
        None,
        None,
        {},
        players,
        (TrfGame(1, 1, 2, Result.DRAW, True, 0, 0),),
        (TrfBye(1, 1, "H", 0),),
    )
    with pytest.raises(ValueError, match="player 1 has two entries"):
        write_trf(t)


def test_colour_on_one_line_only_is_taken_but_not_rated() -> None:
    data = trf(player_line(1, "A", ["   2 - 1"]), player_line(2, "B", ["   1 w 0"]))
    assert parse_trf(data, "t.trf").games == (TrfGame(1, 2, 1, Result.BLACK_WIN, False, 2, 1),)


# --- a real-world Krause file, every problem at once ---------------------------------------


def test_the_club_file_written_for_issue_12() -> None:
    """yy.dd.mm round dates, club codes in the federation column, blank-result byes worth
    ½ (player 5, round 2) and 0 (player 6, round 3), and two totals that do not add up."""
    t = load("club_codes_yyddmm.tab")
    assert (t.name, t.start_date, t.end_date, t.round_dates) == (
        "Autumn Club Rapid 2011",
        date(2011, 2, 5),
        date(2011, 2, 26),
        {},
    )
    assert t.undated_rounds == (1, 2, 3, 4)
    # the federation column is kept as written: the register decides what it stores
    assert [p.federation for p in t.players] == ["IRL", "C.C", "RAT", "C.C", "IRL", "RAT",
                                                 "C.C", "IRL"]  # fmt: skip
    assert [p.points for p in t.players] == [5, 5, 4, 4, 4, 1, 9, 3]
    assert [(b.round, b.player, b.code) for b in t.byes] == [
        (2, 3, "U"),
        (2, 5, "H"),  # declares 2.0; 1.5 from the results: the blank is worth ½
        (3, 6, " "),  # declares 0.5, as the results: the blank is worth 0
        (3, 8, "Z"),
        (4, 5, "F"),
        (4, 7, " "),  # declares 4.5 against 3.0 and one bye: cannot be reconciled
    ]
    name = "club_codes_yyddmm.tab"
    assert [str(w) for w in t.warnings] == [
        f"{name}:11: round 1 date: '11.05.02' may be 2011-05-02 (yy.mm.dd) or 2011-02-05 "
        "(yy.dd.mm, as other dates of this file are written); not used",
        f"{name}:11: round 2 date: '11.12.02' may be 2011-12-02 (yy.mm.dd) or 2011-02-12 "
        "(yy.dd.mm, as other dates of this file are written); not used",
        f"{name}:11: round 3 date: impossible date '11.19.02' (as yy.dd.mm it would be "
        "2011-02-19); not used",
        f"{name}:11: round 4 date: impossible date '11.26.02' (as yy.dd.mm it would be "
        "2011-02-26); not used",
        f"{name}:21: points: player 7 declares 4.5 points, the results add up to 3.0 and a "
        "blank-result bye worth 0 or ½; stored as blank",
        f"{name}:22: points: player 8 declares 1.5 points, the results add up to 1.0",
    ]


@pytest.mark.parametrize(
    ("declared", "code", "warned"),
    [("1.5", "H", False), ("1,5", "H", False), ("1.0", " ", False), ("2.0", " ", True),
     ("", " ", False), ("0.5", " ", True)],
)  # fmt: skip
def test_a_blank_result_bye_is_read_from_the_declared_points(
    declared: str, code: str, warned: bool
) -> None:
    data = trf(
        player_line(1, "A", ["   2 w 1", "0000 -  "], points=declared),
        player_line(2, "B", ["   1 b 0"]),
    )
    t = parse_trf(data, "t.trf")
    assert [b.code for b in t.byes] == [code]
    assert bool(t.warnings) is warned


def test_two_blank_byes_are_both_half_points_or_left_blank() -> None:
    both = player_line(1, "A", ["0000 -  ", "0000 -  "], points="1.0")
    one = player_line(1, "A", ["0000 -  ", "0000 -  "], points="0.5")
    assert [b.code for b in parse_trf(trf(both), "t").byes] == ["H", "H"]
    t = parse_trf(trf(one), "t")
    assert [b.code for b in t.byes] == [" ", " "]
    assert [str(w) for w in t.warnings] == [
        "t:1: points: player 1 declares 0.5 points, the results add up to 0.0 and 2 "
        "blank-result byes worth 0 or ½ each; stored as blank"
    ]


def test_points_are_not_checked_under_other_scoring() -> None:
    data = trf(
        "XXS WW=3 BW=3 WD=1 BD=1",
        player_line(1, "A", ["   2 w 1", "0000 -  "], points="3.0"),
        player_line(2, "B", ["   1 b 0"], points="0.0"),
    )
    t = parse_trf(data, "t.trf")
    assert [b.code for b in t.byes] == [" "]
    assert [str(w) for w in t.warnings] == [
        "t.trf:1: XXS: the file scores WW=3; declared points are not checked"
    ]
    # JaVaFo's standard values (javafo_example.trf) change nothing
    assert load("javafo_example.trf").warnings == ()


def test_unreadable_points_are_a_warning() -> None:
    t = parse_trf(trf(player_line(1, "A", ["0000 -  "], points="2.3")), "t")
    assert [str(w) for w in t.warnings] == [
        "t:1: points: not a score in points and halves: '2.3'; not checked"
    ]
    assert [b.code for b in t.byes] == [" "]


def test_no_sample_file_has_warnings() -> None:
    for name in EXPECTED:
        if name != "club_codes_yyddmm.tab":
            assert load(name).warnings == (), name


def test_every_problem_of_a_file_at_once() -> None:
    """Each run reported only the first problem."""
    data = trf(
        "012 x",
        "042 2025-03-01",
        player_line(1, "A", ["   2 w 1", "  9x w 1"], rating="18x0"),
        player_line(2, "B", ["   1 b 1", "0000 - 1"], sex="x"),
        player_line(3, "C", ["   5 w 1"], birth="1990/02/30"),
        player_line(3, "D", []),
        "001   x4      E",
        player_line(6, "F", [], fide_id="12-45"),
    )
    with pytest.raises(InputFileErrors) as info:
        parse_trf(data, "t.trf")
    assert [str(e) for e in info.value.errors] == [
        "t.trf:3: rating: not a whole number: '18x0'",
        "t.trf:3: round 2 opponent: not a whole number: '9x'",
        "t.trf:3: round 1: players 1 and 2 disagree on the result: line 3 has '2 w 1', "
        "line 4 has '1 b 1'",
        "t.trf:4: sex: unknown sex 'x' (expected m, w or f)",
        "t.trf:4: round 2: result '1' without an opponent",
        "t.trf:5: birth date: impossible date '1990/02/30'",
        "t.trf:5: round 1: player 3 plays 5, but start number 5 is not defined (no 001 line)",
        "t.trf:6: start number: start number 3 is already used on line 5",
        "t.trf:7: start number: not a whole number: 'x4'",
        f"t.trf:8: FIDE id: {FIDE_ID_RULE}: '12-45'",
    ]
    found: list[InputFileError] = []
    t = parse_trf(data, "t.trf", errors=found)
    assert len(found) == 10
    assert [p.name for p in t.players] == ["A", "B", "C", "F"]


@pytest.mark.parametrize(
    ("record", "codes"),
    [
        ("202 BH-C1,BH,SB", ("BH-C1", "BH", "SB")),
        ("202 de, win ,sb, ks", ("DE", "WIN", "SB", "KS")),
        ("202", ()),
        (None, ()),
    ],
)
def test_the_tie_breaks_of_record_202(record: str | None, codes: tuple[str, ...]) -> None:
    """TRF-2026's record 202 names the tie-breaks the event used, in order (read as written,
    upper case); a TRF-16 file has none."""
    lines = ["012 Club Swiss", "042 2026/03/01", "052 2026/03/01"]
    if record is not None:
        lines.append(record)
    lines += [
        player_line(1, "Able, Ann", ["   2 w 1"]),
        player_line(2, "Baker, Bob", ["   1 b 0"]),
    ]
    assert parse_trf(trf(*lines), "t.trf").tiebreaks == codes
