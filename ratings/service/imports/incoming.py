"""A player as a file gives him to the pipeline (:class:`Incoming`), a player an import
will create (:class:`NewPlayer`), and the two readings of a file's name the pipeline makes
before the matcher: a games CSV's reference in digits is a FIDE id, and a name beside a FIDE
id must share a word with the name the id is registered under."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass

from ratings import limits
from ratings.matching import Facts

__all__ = ["Incoming", "NewPlayer", "is_fide_reference", "same_person_name"]


@dataclass(frozen=True, slots=True)
class Incoming:
    """One player as a file gives him."""

    line: int
    name: str
    """As the file writes it (a games CSV's reference: a name, or a FIDE id in digits)."""
    field: str = "name"
    """The file's field that names him (``name``, ``white``, ``Black``...)."""
    fide_id: int | None = None
    fide_field: str = "FIDE id"
    birth_year: int | None = None
    sex: str | None = None
    federation: str | None = None
    rating: int | None = None
    cut: bool = False
    """The name fills a fixed-width column (a TRF's): it may be cut short."""

    @property
    def facts(self) -> Facts:
        """What the matcher compares."""
        return Facts(self.name, self.fide_id, self.birth_year, self.sex, self.federation,
                     self.rating, self.cut)  # fmt: skip

    @property
    def said(self) -> tuple[object, ...]:
        """What tells one incoming player from another: everything but where he is."""
        return (self.name, self.fide_id, self.birth_year, self.sex, self.federation,
                self.rating, self.cut)  # fmt: skip


@dataclass(slots=True)
class NewPlayer:
    """A player to create; ``key`` is a placeholder id (negative) until inserted."""

    key: int
    name: str
    fide_id: int | None
    line: int
    birth_date: dt.date | None = None
    birth_year: int | None = None
    sex: str | None = None
    federation: str | None = None
    title: str | None = None
    rating: int | None = None


def _words(key: str) -> set[str]:
    """The words of a name key without accents or punctuation (``öberg, å.`` -> oberg, a)."""
    plain = "".join(
        ch for ch in unicodedata.normalize("NFKD", key) if not unicodedata.combining(ch)
    )
    return set(re.findall(r"\w+", plain))


def same_person_name(file_key: str, registered_key: str) -> bool:
    """Whether a name in a file can be the registered name of the player its FIDE id gives:
    the same key, or a shared word (``Carlsen,M`` and ``Carlsen, Magnus``; ``Magnus
    Carlsen``), accents aside (``Oberg`` and ``Öberg``)."""
    if file_key == registered_key:
        return True
    shared = _words(file_key) & _words(registered_key)
    return any(len(word) > 1 for word in shared)


def is_fide_reference(text: str) -> bool:
    """Whether a stripped games-CSV reference reads as a FIDE id: ASCII digits, not too many
    (``'١٢'`` is a name, never FIDE id 12)."""
    return limits.is_ascii_digits(text) and len(text) <= limits.MAX_FIDE_ID_DIGITS
