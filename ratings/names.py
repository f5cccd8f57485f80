"""Player names: one cleaning rule for what is stored, one key for matching, near misses.

Every path that takes a name (``player add/edit``, the players and games CSV, TRF, PGN, a
PLAYER argument) goes through here, so ``Öberg, Åsa`` typed, imported or looked up is the
same person whatever the case, the Unicode normal form or the spacing.

- :func:`clean_name` is the name as stored and shown: Unicode NFC, every run of white space
  (including no-break and other Unicode spaces) one ASCII space, no leading or trailing
  space. Characters that cannot be seen or that reorder text are refused, not removed:
  control characters (NUL, tab, line breaks, DEL, C1), format characters (zero-width
  space U+200B, joiners, the byte order mark, the bidirectional overrides U+202A-U+202E
  and isolates U+2066-U+2069), the other code points Unicode says a text shows nothing
  for (default ignorable: the Hangul fillers U+3164 and U+FFA0, the combining grapheme
  joiner U+034F, the variation selectors U+FE00-U+FE0F...) and the Braille blank U+2800,
  unassigned and private-use code points, and words that mix Latin letters with Cyrillic,
  Greek, Armenian, Cherokee or Coptic ones, the scripts with letters drawn like Latin ones
  (``Ann`` written with a Cyrillic capital A, U+0410, or a Cherokee one, U+13AA, looks
  like ``Ann`` and would be another person).
- :func:`name_key` is the matching key: the cleaned name case-folded (``ß`` -> ``ss``,
  ``İ`` handled as Unicode says) and in NFC again. Two names with one key are one name.
- Near misses (``did you mean ...``) are the matcher's: :mod:`ratings.matching`.

Pure: no I/O, no database.
"""

from __future__ import annotations

import unicodedata

from ratings.errors import InvalidNameError

__all__ = ["clean_name", "key_of_stored", "name_key", "problem_in_name"]

_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_INVISIBLE = frozenset(
    (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0,
     *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))
)  # fmt: skip
"""Code points that show nothing and are not of a refused category: Unicode's default
ignorable ones outside ``Cf`` (fillers, joiners, variation selectors) and the Braille blank."""
_CONFUSABLE_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")


def _script(ch: str) -> str | None:
    """LATIN, CYRILLIC, GREEK or None (other scripts, digits, punctuation), for letters."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    for script in ("LATIN", *_CONFUSABLE_SCRIPTS):
        if name.startswith(script):
            return script
    return None


def problem_in_name(text: str) -> str | None:
    """What makes ``text`` unusable as a name, or None. See the module docstring."""
    for ch in text:
        category = unicodedata.category(ch)
        what = _REFUSED_CATEGORIES.get(category)
        if what is None and ord(ch) in _INVISIBLE:
            what = "an invisible character"
        if what is not None:
            return f"holds {what} (U+{ord(ch):04X})"
    for word in text.split():
        scripts = {s for s in map(_script, word) if s is not None}
        if "LATIN" in scripts and scripts & set(_CONFUSABLE_SCRIPTS):
            mixed = " and ".join(sorted(s.title() for s in scripts))
            return f"mixes {mixed} letters in {word!r} (look-alike letters)"
    if not text.split():
        return "is blank"
    return None


def clean_name(text: str) -> str:
    """The name as stored: NFC, white space collapsed, stripped; refused if unusable.

    :raises InvalidNameError: with the problem (``holds an invisible formatting character
        (U+200B)``), for a blank name and for the characters listed in the module docstring.
    """
    nfc = unicodedata.normalize("NFC", text)
    problem = problem_in_name(nfc)
    if problem is not None:
        raise InvalidNameError(f"{problem}: {text!r}")
    return " ".join(nfc.split())


def name_key(text: str) -> str:
    """The matching key of a name: cleaned, case-folded, NFC. Raises like :func:`clean_name`."""
    return key_of_stored(clean_name(text))


def key_of_stored(name: str) -> str:
    """The key of a name as it is, not checked again: NFC, blanks collapsed, case-folded, NFC.

    Equal to :func:`name_key` for every name :func:`clean_name` accepts; for a name stored
    before the checks existed (the 0003 migration keys those with a copy of this rule) it
    still gives a key instead of refusing."""
    collapsed = " ".join(unicodedata.normalize("NFC", name).split())
    return unicodedata.normalize("NFC", collapsed.casefold())
