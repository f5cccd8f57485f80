"""The register: adding, editing and listing players.

Merging and unmerging are :mod:`ratings.service.register.merge`; the players CSV import is
:mod:`ratings.service.imports.players`, which shares these checks.

Names follow :mod:`ratings.names`: stored clean (NFC, blanks collapsed; invisible and
text-reordering characters refused), matched by their key. A second live player whose name
has the key of a registered one is refused unless the two are told apart (FIDE ids or
birthdates that differ) and the caller confirms (``--allow-same-name``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, matching, names
from ratings.errors import (
    InvalidInputError,
    InvalidNameError,
    LimitError,
    SameNameError,
)
from ratings.matching import Facts, Kind
from ratings.models import Player
from ratings.service.rating.marks import joining_list, mark_from_first_listing
from ratings.service.register.identity import SHOWN_CANDIDATES, load_identities, usable_name
from ratings.service.register.lookup import describe, get_player
from ratings.service.shared import audit
from ratings.service.shared.dates import future_birth_problem


@dataclass(frozen=True, slots=True)
class Birth:
    """A birthdate given as a full date or as a year only."""

    date: dt.date | None
    year: int | None

    @classmethod
    def from_string(cls, text: str | None) -> Birth:
        """Parse ``YYYY-MM-DD`` or ``YYYY`` (ASCII digits only); blank means unknown."""
        if text is None or not text.strip():
            return cls(None, None)
        value = text.strip()
        if re.fullmatch(r"[0-9]{4}", value):
            year = int(value)
            _check_year(year, text)
            return cls(None, year)
        try:
            day = (
                dt.date.fromisoformat(value)
                if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value)
                else None
            )
        except ValueError:
            day = None
        if day is None:
            raise InvalidInputError(f"birthdate must be YYYY-MM-DD or YYYY: {text!r}")
        _check_year(day.year, text)
        return cls(day, day.year)

    def not_after(self, today: dt.date) -> Birth:
        """This birthdate, refused if it is after ``today``.

        :raises InvalidInputError: ``birthdate 2099-05-01 is after today (...)``.
        """
        problem = future_birth_problem(self.date, self.year, today)
        if problem:
            raise InvalidInputError(problem)
        return self


def _check_year(year: int, text: str) -> None:
    if not limits.MIN_BIRTH_YEAR <= year <= limits.MAX_BIRTH_YEAR:
        raise InvalidInputError(
            f"birth year out of range {limits.MIN_BIRTH_YEAR}-{limits.MAX_BIRTH_YEAR}: {text!r}"
        )


def _check_entry(rating: int | None, games: int | None, fide_id: int | None) -> None:
    """The limits of :mod:`ratings.limits` on entry data given as numbers."""
    field = ""
    try:
        if rating is not None:
            field = "rating"
            limits.check_range(rating, limits.MIN_RATING, limits.MAX_RATING)
        if games is not None:
            field = "games"
            limits.check_range(games, 0, limits.MAX_GAMES)
        if fide_id is not None:
            field = "fide id"
            limits.check_fide_id(fide_id)
    except LimitError as exc:
        raise LimitError(f"{field}: {exc}") from None


def clean_name(name: str) -> str:
    """A player's name as stored (:func:`ratings.names.clean_name`: NFC, blanks collapsed;
    control, invisible and text-reordering characters refused), at most
    :data:`ratings.limits.MAX_NAME_LENGTH` characters.

    :raises InvalidNameError: for a blank name or a character no name may hold (a
        :class:`LimitError` for a name that is too long).
    """
    if not name.split():
        raise InvalidNameError(f"a player needs a name: {name!r}")
    return usable_name(name, "name")


def birth_of(player: Player | Birth) -> tuple[dt.date | None, int | None]:
    """A player's (or a given birth's) full date and year."""
    if isinstance(player, Birth):
        return player.date, player.year
    return player.birth_date, player.birth_year


def told_apart(
    a_fide: int | None,
    a_birth: tuple[dt.date | None, int | None],
    b_fide: int | None,
    b_birth: tuple[dt.date | None, int | None],
) -> bool:
    """Whether two records of one name are shown to be two people: both have FIDE ids and
    they differ, or both have birth data and it differs (full dates when both have one,
    else the years)."""
    if a_fide is not None and b_fide is not None and a_fide != b_fide:
        return True
    (a_date, a_year), (b_date, b_year) = a_birth, b_birth
    if a_date is not None and b_date is not None:
        return a_date != b_date
    return a_year is not None and b_year is not None and a_year != b_year


def same_name_problem(
    name: str,
    namesakes: Sequence[Player],
    fide_id: int | None,
    birth: tuple[dt.date | None, int | None],
    *,
    allow_same_name: bool,
) -> str | None:
    """Why a player of this name cannot be registered beside ``namesakes`` (the live players
    whose name has the same key), or None: each must be told apart (:func:`told_apart`), and
    the caller must confirm (``--allow-same-name``)."""
    if not namesakes:
        return None
    listed = ", ".join(describe(p) for p in namesakes)
    alike = [p for p in namesakes if not told_apart(fide_id, birth, p.fide_id, birth_of(p))]
    if alike:
        return (
            f"{name!r} is already registered: {listed}; a second player of that name needs "
            "a FIDE id or birthdate that tells them apart, and --allow-same-name"
        )
    if not allow_same_name:
        return (
            f"{name!r} is already registered: {listed}; if this is another person, "
            "confirm with --allow-same-name"
        )
    return None


def _namesakes(
    session: Session, name: str, exclude: int | None = None
) -> tuple[list[Player], list[tuple[Player, matching.Kind]]]:
    """The live players (``exclude`` apart) a player named ``name`` would be registered
    beside, as the imports' matcher sees them (:mod:`ratings.matching`): those whose name has
    the same key, folds alike (accents, the order of the words: ``Jiri Novak`` is ``Novák,
    Jiří``) or is one of their aliases; and, when there is none, those of a close name
    (initials, a missing word, a typo), best first, with how each is close."""
    key = names.key_of_stored(name)
    same_key = sa.select(Player.id).where(Player.merged_into_id.is_(None), Player.name_key == key)
    ids = set(session.scalars(same_key))
    identities = load_identities(session)
    near: dict[int, matching.Kind] = {}  # best first: the first kind found of each
    for c in identities.match(Facts(name)).candidates:
        if not identities.register.registered.get(c.player_id, True):
            continue
        if c.kind in (Kind.FOLDED, Kind.ALIAS):
            ids.add(c.player_id)
        elif c.kind is not Kind.FIDE_ID:
            near.setdefault(c.player_id, c.kind)
    if exclude is not None:
        ids.discard(exclude)
    close = [(pid, kind) for pid, kind in near.items() if pid != exclude and pid not in ids]
    close = close[:SHOWN_CANDIDATES]
    wanted = ids | {pid for pid, _ in close}
    if not wanted:
        return [], []
    by_id = {p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(wanted)))}
    return [by_id[pid] for pid in sorted(ids)], [(by_id[pid], kind) for pid, kind in close]


def _check_same_name(
    session: Session,
    name: str,
    fide_id: int | None,
    birth: tuple[dt.date | None, int | None],
    *,
    allow_same_name: bool,
    exclude: int | None = None,
) -> list[tuple[Player, matching.Kind]]:
    """Refuse a name that is a registered player's (see :func:`same_name_problem`); return
    the players of close names, for a warning."""
    same, near = _namesakes(session, name, exclude)
    problem = same_name_problem(name, same, fide_id, birth, allow_same_name=allow_same_name)
    if problem is not None:
        raise SameNameError(problem)
    return near


def close_name_warnings(
    name: str, player_id: int, near: Sequence[tuple[Player, matching.Kind]]
) -> list[str]:
    """What to say of a player registered beside players of close names."""
    return [
        f"{name!r} is close to registered player {describe(p)}: {kind.value}; if they are "
        f"one person, 'ratings player merge {p.id} {player_id}' joins them"
        for p, kind in near
    ]


def _clean_code(value: str | None, parse: Callable[[str], str], field: str) -> str | None:
    """A federation or title: blank is None, else ``parse`` (:mod:`ratings.limits`)."""
    if value is None or not value.strip():
        return None
    try:
        return parse(value.strip())
    except LimitError as exc:
        raise LimitError(f"{field}: {exc}") from None


def _clean_sex(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    sex = {"m": "m", "f": "f", "w": "f"}.get(value.strip().lower())
    if sex is None:
        raise InvalidInputError(f"sex must be m or f: {value!r}")
    return sex


def _check_fide_id_free(session: Session, fide_id: int | None, player_id: int | None) -> None:
    if fide_id is None:
        return
    other = session.scalar(sa.select(Player).where(Player.fide_id == fide_id))
    if other is not None and other.id != player_id:
        raise InvalidInputError(
            f"fide id {fide_id} already belongs to {other.name} (id {other.id})"
        )


def add_player(
    session: Session,
    name: str,
    *,
    birth: Birth | None = None,
    fide_id: int | None = None,
    rating: int | None = None,
    games: int | None = None,
    k10: bool = False,
    sex: str | None = None,
    federation: str | None = None,
    title: str | None = None,
    allow_same_name: bool = False,
    rapid_rating: int | None = None,
    rapid_games: int | None = None,
    blitz_rating: int | None = None,
    blitz_games: int | None = None,
    warnings: list[str] | None = None,
) -> Player:
    """Register a player. ``rating`` is the published rating the player brings, ``games``
    the rated games completed before; both count as published data (docs/RULES.md#k-factor-art-833).
    The ``rapid_`` and ``blitz_`` ones are the same on those lists.

    :raises InvalidNameError: for a name no player may have (:func:`clean_name`).
    :param warnings: receives a line for each registered player of a close name (initials,
        a missing word, a typo: :mod:`ratings.matching`), who may be the same person.
    :raises SameNameError: when a live player has a name with the same key, or one that
        folds alike or is their alias (:func:`_namesakes`), unless the new player is told
        apart from each (FIDE id or birthdate) and ``allow_same_name``.
    """
    cleaned = clean_name(name)
    _check_entry(rating, games, fide_id)
    _check_entry(rapid_rating, rapid_games, None)
    _check_entry(blitz_rating, blitz_games, None)
    _check_fide_id_free(session, fide_id, None)
    birth = birth or Birth(None, None)
    near = _check_same_name(
        session, cleaned, fide_id, birth_of(birth), allow_same_name=allow_same_name
    )
    player = Player(
        name=cleaned,
        name_key=names.key_of_stored(cleaned),
        birth_date=birth.date,
        birth_year=birth.year,
        fide_id=fide_id,
        entry_rating=rating,
        entry_games=games,
        k10=k10,
        rapid_entry_rating=rapid_rating,
        rapid_entry_games=rapid_games,
        blitz_entry_rating=blitz_rating,
        blitz_entry_games=blitz_games,
        sex=_clean_sex(sex),
        federation=_clean_code(federation, limits.federation, "federation"),
        title=_clean_code(title, limits.title, "title"),
        listed_from=joining_list(session),
    )
    session.add(player)
    session.flush()
    if warnings is not None:
        warnings += close_name_warnings(cleaned, player.id, near)
    return player


_UNSET: object = object()
ENTRY_FIELDS = frozenset({
    "birth_date", "birth_year", "entry_rating", "entry_games", "k10",
    "rapid_entry_rating", "rapid_entry_games", "blitz_entry_rating", "blitz_entry_games",
})  # fmt: skip
"""Fields that feed the player's K and base rating on the lists: a change re-rates from the
first period that lists the player (:func:`entry_lists`)."""


def entry_lists(fields: Iterable[str | None]) -> tuple[str, ...] | None:
    """The lists whose rows these changed fields of a player feed: ``()`` for every list
    (birth data: K on every list; the standard entry data also seeds the rapid and blitz
    lists, R&B art. 7.2.1), the rapid or blitz list for theirs; None when none does."""
    found = {f for f in fields if f is not None} & ENTRY_FIELDS
    if not found:
        return None
    if any(not f.startswith(("rapid_", "blitz_")) for f in found):
        return ()
    return tuple(sorted({f.split("_", 1)[0] for f in found}))


def edit_player(  # noqa: C901 (one branch per editable field, each checked and logged the same way)
    session: Session,
    ref: str | Player,
    *,
    name: str | None = None,
    birth: Birth | None = None,
    fide_id: int | object | None = _UNSET,
    rating: int | object | None = _UNSET,
    games: int | None = None,
    k10: bool | None = None,
    sex: str | None = None,
    federation: str | None = None,
    title: str | None = None,
    allow_same_name: bool = False,
    reason: str | None = None,
    import_id: int | None = None,
    rapid_rating: int | object | None = _UNSET,
    rapid_games: int | None = None,
    blitz_rating: int | object | None = _UNSET,
    blitz_games: int | None = None,
) -> tuple[Player, list[str]]:
    """Change a player's data; returns the player and the names of the fields changed.

    Every change is written to the corrections log (``player_edit``, with ``reason``, and
    ``import_id`` for ``import players --update``). A change to birth data, entry rating,
    entry games or the K=10 flag marks the oldest rated period for re-rating (these feed
    every period's K and base rating).

    :param ref: a PLAYER argument, or the player itself.
    :raises SameNameError: for a new name that another live player has (see
        :func:`add_player`).
    """
    player = get_player(session, ref) if isinstance(ref, str) else ref
    audit.check_reason(reason)
    changes: list[audit.Change] = []

    def put(field: str, value: object) -> None:
        old = getattr(player, field)
        if old != value:
            setattr(player, field, value)
            changes.append(
                audit.Change(
                    player_id=player.id, import_id=import_id, field=field, old=old, new=value
                )
            )

    new_name = clean_name(name) if name is not None else None
    if birth is not None:
        put("birth_date", birth.date)
        put("birth_year", birth.year)
    if fide_id is not _UNSET:
        assert fide_id is None or isinstance(fide_id, int)
        _check_entry(None, None, fide_id)
        _check_fide_id_free(session, fide_id, player.id)
        put("fide_id", fide_id)
    if new_name is not None and names.key_of_stored(new_name) != player.name_key:
        _check_same_name(
            session,
            new_name,
            player.fide_id,
            birth_of(player),
            allow_same_name=allow_same_name,
            exclude=player.id,
        )
    if new_name is not None:
        put("name", new_name)
        player.name_key = names.key_of_stored(new_name)
    if rating is not _UNSET:
        assert rating is None or isinstance(rating, int)
        _check_entry(rating, None, None)
        put("entry_rating", rating)
    if games is not None:
        _check_entry(None, games, None)
        put("entry_games", games)
    if k10 is not None:
        put("k10", k10)
    for tc, list_rating, list_games in (
        ("rapid", rapid_rating, rapid_games),
        ("blitz", blitz_rating, blitz_games),
    ):
        if list_rating is not _UNSET:
            assert list_rating is None or isinstance(list_rating, int)
            _check_entry(list_rating, None, None)
            put(f"{tc}_entry_rating", list_rating)
        if list_games is not None:
            _check_entry(None, list_games, None)
            put(f"{tc}_entry_games", list_games)
    if sex is not None:
        put("sex", _clean_sex(sex))
    if federation is not None:
        put("federation", _clean_code(federation, limits.federation, "federation"))
    if title is not None:
        put("title", _clean_code(title, limits.title, "title"))
    changed = [c.field for c in changes if c.field is not None]
    if changes:
        audit.record(session, audit.Action.PLAYER_EDIT, *changes, reason=reason)
    lists = entry_lists(changed)
    if lists is not None:
        session.flush()
        mark_from_first_listing(session, [player.id], lists or None)
    session.flush()
    return player, changed


def list_players(session: Session, *, search: str | None = None) -> list[Player]:
    """The register, sorted by the folded name (:func:`ratings.matching.sort_key`: ``Öberg``
    among the O's), merged-away records left out.

    :param search: only names that hold this text, as it is (any case, any normal form:
        ``%`` finds ``100% Fun``) or folded (:func:`ratings.matching.fold`): every word of
        it in the folded name, so ``novak`` and ``jiri novak`` find ``Novák, Jiří``, ``ber``
        finds ``Öberg, Åsa`` and ``Berg, Bo``, ``mueller`` finds ``Müller, Jan``.
    """
    players = list(session.scalars(sa.select(Player).where(Player.merged_into_id.is_(None))))
    if search is not None:
        key = names.key_of_stored(search)
        words = matching.fold(search).words
        players = [p for p in players if key in p.name_key or _holds(p.name, words)]
    return sorted(players, key=lambda p: (matching.sort_key(p.name), p.name_key, p.id))


def _holds(name: str, words: Sequence[str]) -> bool:
    """Every word of a search in one of the name's folded forms (plain, or with ``ue`` for
    ``ü``...), as written."""
    if not words:
        return False
    folded = matching.fold(name)
    texts = [" ".join(folded.words), *(" ".join(form) for form in folded.forms[1:])]
    return any(all(word in text for word in words) for text in texts)
