"""ratings.names: one cleaning rule, one key, near misses."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.errors import InvalidNameError
from ratings.matching import Facts, Register
from ratings.names import clean_name, name_key


@pytest.mark.parametrize(
    ("given_name", "stored"),
    [
        ("Elard,  Carl", "Elard, Carl"),
        ("  Elard, Carl  ", "Elard, Carl"),
        ("Elard,\u00a0Carl", "Elard, Carl"),  # no-break space
        ("Elard,\u2003Carl", "Elard, Carl"),  # em space
        ("Mu\u0308ller, Hans", "M\u00fcller, Hans"),  # NFD -> NFC
        ("\u00d6berg, \u00c5sa", "\u00d6berg, \u00c5sa"),
        ("O'Hara, Cy", "O'Hara, Cy"),
        ("\u0418\u0432\u0430\u043d\u043e\u0432, \u0418\u0432\u0430\u043d", "Иванов, Иван"),
        ("Παπαδόπουλος, Νίκος", "Παπαδόπουλος, Νίκος"),
        ("李, 明", "李, 明"),
    ],
)
def test_clean_name(given_name: str, stored: str) -> None:
    assert clean_name(given_name) == stored


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ("Elard,\u200bCarl", "holds an invisible formatting character (U+200B)"),
        ("\u202eCarl, Elard", "holds an invisible formatting character (U+202E)"),
        ("Carl\u2066x\u2069", "holds an invisible formatting character (U+2066)"),
        ("\ufeffElard, Carl", "holds an invisible formatting character (U+FEFF)"),
        ("Elard, Carl\x7f", "holds a control character (U+007F)"),
        ("Elard,\tCarl", "holds a control character (U+0009)"),
        ("Elard\nCarl", "holds a control character (U+000A)"),
        ("Elard\u2028Carl", "holds a line separator (U+2028)"),
        ("Elard\ue000", "holds a private-use character (U+E000)"),
        ("\u0410nn, Smith", "mixes Cyrillic and Latin letters in '\u0410nn,' (look-alike letters)"),
        ("Sm\u03b9th, Ann", "mixes Greek and Latin letters"),
        ("   ", "is blank"),
        ("", "is blank"),
    ],
)
def test_refused(bad: str, problem: str) -> None:
    with pytest.raises(InvalidNameError, match="^" + re.escape(problem)):
        clean_name(bad)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("\u00d6berg, \u00c5sa", "\u00f6berg, \u00e5sa"),
        ("\u00d6BERG, \u00c5SA", "o\u0308berg, a\u030asa"),
        ("Elard,  Carl", "elard, carl"),
        ("Stra\u00dfe, Max", "STRASSE, MAX"),
        ("Elard,\u00a0Carl", "ELARD, CARL"),
    ],
)
def test_one_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


def test_different_people_keep_different_keys() -> None:
    assert name_key("Muller, Hans") != name_key("M\u00fcller, Hans")
    assert name_key("Elard, Carl") != name_key("Elard, Karl")


NAMES = st.text(
    alphabet=st.characters(
        categories=("Lu", "Ll", "Lt", "Lo", "Mn", "Zs", "Pd", "Po", "Nd"),
        exclude_characters="\u0085",
    ),
    min_size=1,
    max_size=40,
)


@given(NAMES)
def test_the_key_is_stable(text: str) -> None:
    try:
        key = name_key(text)
    except InvalidNameError:
        return
    assert name_key(clean_name(text)) == key
    assert unicodedata.normalize("NFC", key.casefold()) == key  # folding twice changes nothing
    assert unicodedata.is_normalized("NFC", key)
    assert key == " ".join(key.split())


REGISTER = ["Elard, Carl", "Isstein, Felix", "\u00d6berg, \u00c5sa", "Joriston, Rafael"]


@pytest.mark.parametrize(
    ("wanted", "suggested"),
    [
        ("Elrad, Carl", "Elard, Carl"),
        ("Carl Elard", "Elard, Carl"),
        ("Oberg, Asa", "\u00d6berg, \u00c5sa"),
        ("isstein felix", "Isstein, Felix"),
    ],
)
def test_the_matcher_suggests(wanted: str, suggested: str) -> None:
    """A failed lookup's "did you mean" comes from the matcher (ratings/matching.py)."""
    register = Register()
    for pid, name in enumerate(REGISTER, 1):
        register.add_player(pid, Facts(name))
    found = register.match(Facts(wanted))
    assert REGISTER[found.candidates[0].player_id - 1] == suggested


def test_the_matcher_suggests_nothing_for_nonsense() -> None:
    register = Register()
    for pid, name in enumerate(REGISTER, 1):
        register.add_player(pid, Facts(name))
    assert register.match(Facts("Zzyzx, Q")).candidates == ()
    assert register.match(Facts("\u202e")).candidates == ()
