"""The top lists beside each published list: by category (juniors, girls, women, seniors),
by federation, and the improvers (docs/RULES.md, "Top lists and improvers").

Pure selection over rows already read: no I/O. A category's age is FIDE's: the age a player
reaches in the year of the list, from the birth year alone (the register holds no birth day).

- ``U20`` .. ``U10``: born in the list's year minus N or later (FIDE's youth rule: not yet N
  on 1 January of the year);
- ``Girls``: women who are U20;
- ``Women``: every woman;
- ``50+``, ``65+``: born in the list's year minus N or earlier (FIDE's senior rule: N or
  older in the year);
- by federation: one list per federation on the list.

Each list holds the first :data:`TOP` players in the list's own order (rating, then name),
leaving out the players flagged inactive; a player without a birth year is in no age list.
The improvers: the players rated on both this list and the list :data:`IMPROVER_LISTS`
lists earlier (the oldest list when there are fewer), ordered by the gain (this rating minus
that one), positive gains only.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ratings.service.reading import publish as data

__all__ = [
    "AGE_CATEGORIES",
    "IMPROVER_LISTS",
    "TOP",
    "Category",
    "Improver",
    "base_index",
    "categories",
    "improvers",
    "in_category",
]

TOP = 10
"""Players on each top list."""

IMPROVER_LISTS = 12
"""The improvers' gain is measured against the list this many lists earlier."""

JUNIOR_AGES = (20, 18, 16, 14, 12, 10)
SENIOR_AGES = (50, 65)


@dataclass(frozen=True, slots=True)
class Category:
    """One top list: its key (file and CSV name), its heading and its players."""

    key: str
    """``u20``, ``girls``, ``women``, ``50plus``, ``fed-IRL`` ... (a CSV's ``category``)."""
    title: str
    rows: tuple[data.SiteListRow, ...]


AGE_CATEGORIES: tuple[tuple[str, str], ...] = (
    *((f"u{n}", f"Juniors under {n} (U{n})") for n in JUNIOR_AGES),
    ("girls", "Girls (women U20)"),
    ("women", "Women"),
    *((f"{n}plus", f"Seniors {n}+") for n in SENIOR_AGES),
)
"""Every category but the federations, in the order the page shows them: (key, heading)."""


def in_category(key: str, player: data.SitePlayer, year: int) -> bool:
    """Whether ``player`` belongs to the category ``key`` on a list of the year ``year``."""
    born = player.birth_year
    if key == "women":
        return player.sex == "f"
    if key == "girls":
        return player.sex == "f" and born is not None and born >= year - 20
    if born is None:
        return False
    if key.startswith("u"):
        return born >= year - int(key[1:])
    if key.endswith("plus"):
        return born <= year - int(key.removesuffix("plus"))
    raise ValueError(f"no such category: {key!r}")


def categories(
    rows: Sequence[tuple[data.SiteListRow, str]],
    register: dict[int, data.SitePlayer],
    year: int,
) -> list[Category]:
    """The top lists of one list: ``rows`` in the list's order with their flags (``i``:
    inactive, left out). The categories without a player are left out, and so are the
    federation lists when the list holds one federation only (that list is the list).
    One pass over the rows."""
    chosen: dict[str, list[data.SiteListRow]] = {key: [] for key, _ in AGE_CATEGORIES}
    by_federation: dict[str, list[data.SiteListRow]] = {}
    for e, flags in rows:
        if "i" in flags:  # the flags are w, i and the word new
            continue
        p = register[e.player_id]
        for key in _keys(p.birth_year, p.sex, year):
            if len(chosen[key]) < TOP:
                chosen[key].append(e)
        if p.federation:
            federation = by_federation.setdefault(p.federation, [])
            if len(federation) < TOP:
                federation.append(e)
    found = [
        Category(key, title, tuple(chosen[key])) for key, title in AGE_CATEGORIES if chosen[key]
    ]
    if len(by_federation) > 1:
        found += [
            Category(f"fed-{f}", f"Federation {f}", tuple(by_federation[f]))
            for f in sorted(by_federation)
        ]
    return found


@functools.lru_cache(maxsize=4096)
def _keys(born: int | None, sex: str | None, year: int) -> tuple[str, ...]:
    """The age and sex categories of a player born in ``born`` on a list of ``year``."""
    p = data.SitePlayer(0, "", None, None, sex, None, born, False, None, None)
    return tuple(key for key, _ in AGE_CATEGORIES if in_category(key, p, year))


@dataclass(frozen=True, slots=True)
class Improver:
    """A player on the improvers' list."""

    player_id: int
    rating: int
    """On this list."""
    base_rating: int
    """On the list the gain is measured from."""

    @property
    def gain(self) -> int:
        return self.rating - self.base_rating


def base_index(index: int) -> int | None:
    """The index of the list the improvers of the list ``index`` are measured from (None
    for the first list: there is none before it)."""
    return max(0, index - IMPROVER_LISTS) if index > 0 else None


def improvers(
    pairs: Iterable[tuple[int, int, int]], register: dict[int, data.SitePlayer]
) -> list[Improver]:
    """The first :data:`TOP` improvers from ``pairs`` ``(player id, rating, base rating)``
    given in descending order of gain (:func:`ratings.service.reading.publish.rating_gains`): ties
    by rating (higher first), name and id. Players not on the site's register are left out;
    the pairs are read only until the gain falls below the last one kept."""
    chosen: list[Improver] = []
    for player_id, rating, base in pairs:
        if player_id not in register:
            continue
        if len(chosen) >= TOP and rating - base < chosen[-1].gain:
            break
        chosen.append(Improver(player_id, rating, base))  # the smallest gain so far: last
    chosen.sort(key=lambda x: _improver_key(x, register))
    return chosen[:TOP]


def _improver_key(x: Improver, register: dict[int, data.SitePlayer]) -> tuple[int, int, str, int]:
    return (-x.gain, -x.rating, register[x.player_id].name.lower(), x.player_id)
