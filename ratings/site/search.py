"""The search box of the published site: how it folds what is typed, as the matcher folds a
name (:func:`ratings.matching.fold`, rule 3 of :mod:`ratings.matching`).

The index (:func:`ratings.site.render_index.search_index`) carries every player's folded
forms, made by :func:`~ratings.matching.fold` itself at publish time; the script
(``assets/search.js``) folds the query with :func:`fold_table`, a table from
:func:`ratings.matching.fold_text` character by character, then splits it into words as the
matcher does (lower case; apostrophes dropped; anything but a letter or digit a break). So
the script has no folding of its own: "oberg" finds "Öberg" (and "oeberg" its German
spelling), "muller" and "mueller" find "Müller", "r" finds "ř". The equivalence
(:func:`query_words` on a name gives :func:`~ratings.matching.fold`'s words) is tested in
tests/site/test_index.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ratings.matching import fold_text

__all__ = ["fold_table", "query_words"]

_EXTRA = "".join(chr(c) for c in range(0xC0, 0x250))
"""Latin-1 and Latin Extended-A/B letters: in the table even when no published name has them,
so that a query typed with an accent folds as the matcher would fold it."""

_BREAKS = re.compile(r"[^a-z0-9]+")


def fold_table(names: Iterable[str]) -> dict[str, str]:
    """Every character that is not ASCII in ``names`` (and its upper and lower case), plus
    the Latin letters of :data:`_EXTRA`: character -> :func:`~ratings.matching.fold_text`
    of it."""
    chars: set[str] = set(_EXTRA)
    for name in names:
        if not name.isascii():
            for c in name:
                if not c.isascii():
                    chars.update((c, *c.upper(), *c.lower()))
    return {c: fold_text(c) for c in sorted(chars) if not c.isascii()}


def query_words(query: str, table: dict[str, str]) -> list[str]:
    """What ``assets/search.js`` does with a query, in Python (for the tests): each
    character through ``table`` (ASCII as it is, a character missing from it dropped), lower
    case, apostrophes dropped, split at anything but a letter or digit."""
    text = "".join(c if c.isascii() else table.get(c, "") for c in query).lower()
    text = text.replace("'", "").replace("`", "")
    return [w for w in _BREAKS.split(text) if w]
