"""The register: adding, editing, listing and merging players."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import InvalidInputError, LimitError
from ratings.models import Bye, Game, Player
from ratings.service.common import get_player, mark_all_for_rerate


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
    """A player's name as stored: blanks collapsed, not empty, no control character, at most
    :data:`ratings.limits.MAX_NAME_LENGTH` characters.

    :raises InvalidInputError: (a :class:`LimitError` for a name that is too long).
    """
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidInputError(f"a player needs a name: {name!r}")
    if limits.has_control_character(name):
        raise InvalidInputError(f"not a usable name: {name!r}")
    problem = limits.too_long(cleaned, limits.MAX_NAME_LENGTH)
    if problem is not None:
        raise LimitError(f"name: {problem}")
    return cleaned


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
) -> Player:
    """Register a player. ``rating`` is the published rating the player brings, ``games``
    the rated games completed before; both count as published data (SPEC 1.4)."""
    _check_entry(rating, games, fide_id)
    _check_fide_id_free(session, fide_id, None)
    birth = birth or Birth(None, None)
    player = Player(
        name=clean_name(name),
        birth_date=birth.date,
        birth_year=birth.year,
        fide_id=fide_id,
        entry_rating=rating,
        entry_games=games,
        k10=k10,
        sex=_clean_sex(sex),
        federation=_clean_code(federation, limits.federation, "federation"),
        title=_clean_code(title, limits.title, "title"),
    )
    session.add(player)
    session.flush()
    return player


_UNSET: object = object()


def edit_player(
    session: Session,
    ref: str,
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
) -> tuple[Player, list[str]]:
    """Change a player's data; returns the player and the names of the fields changed.

    A change to birth data, entry rating, entry games or the K=10 flag marks the oldest
    rated period for re-rating (these feed every period's K and base rating).
    """
    player = get_player(session, ref)
    changed: list[str] = []

    def put(field: str, value: object) -> None:
        if getattr(player, field) != value:
            setattr(player, field, value)
            changed.append(field)

    if name is not None:
        put("name", clean_name(name))
    if birth is not None:
        put("birth_date", birth.date)
        put("birth_year", birth.year)
    if fide_id is not _UNSET:
        assert fide_id is None or isinstance(fide_id, int)
        _check_entry(None, None, fide_id)
        _check_fide_id_free(session, fide_id, player.id)
        put("fide_id", fide_id)
    if rating is not _UNSET:
        assert rating is None or isinstance(rating, int)
        _check_entry(rating, None, None)
        put("entry_rating", rating)
    if games is not None:
        _check_entry(None, games, None)
        put("entry_games", games)
    if k10 is not None:
        put("k10", k10)
    if sex is not None:
        put("sex", _clean_sex(sex))
    if federation is not None:
        put("federation", _clean_code(federation, limits.federation, "federation"))
    if title is not None:
        put("title", _clean_code(title, limits.title, "title"))
    if set(changed) & {"birth_date", "birth_year", "entry_rating", "entry_games", "k10"}:
        mark_all_for_rerate(session)
    session.flush()
    return player, changed


def list_players(session: Session) -> list[Player]:
    """The register, by name (merged-away records left out)."""
    return list(
        session.scalars(
            sa.select(Player)
            .where(Player.merged_into_id.is_(None))
            .order_by(sa.func.lower(Player.name), Player.id)
        )
    )


def count_games(session: Session, player_id: int) -> int:
    """How many stored games (rated or not) a player has."""
    return (
        session.scalar(
            sa.select(sa.func.count())
            .select_from(Game)
            .where(sa.or_(Game.white_id == player_id, Game.black_id == player_id))
        )
        or 0
    )


def merge_players(session: Session, keep_ref: str, remove_ref: str) -> tuple[Player, Player, int]:
    """Merge two records of the same person: ``remove``'s games and byes move to ``keep``,
    missing data on ``keep`` is filled from ``remove``, and ``remove`` is kept as merged
    (for the audit trail) but leaves every list. Marks the oldest rated period for re-rating.

    Returns (keep, remove, games moved).
    """
    keep = get_player(session, keep_ref)
    remove = get_player(session, remove_ref)
    if keep.id == remove.id:
        raise InvalidInputError(f"cannot merge player {keep.id} into itself")
    shared = session.scalar(
        sa.select(sa.func.count())
        .select_from(Game)
        .where(
            sa.or_(
                sa.and_(Game.white_id == keep.id, Game.black_id == remove.id),
                sa.and_(Game.white_id == remove.id, Game.black_id == keep.id),
            )
        )
    )
    if shared:
        raise InvalidInputError(
            f"{keep.name} (id {keep.id}) and {remove.name} (id {remove.id}) played each other "
            f"in {shared} game(s); void those games first"
        )
    moved = count_games(session, remove.id)
    session.execute(sa.update(Game).where(Game.white_id == remove.id).values(white_id=keep.id))
    session.execute(sa.update(Game).where(Game.black_id == remove.id).values(black_id=keep.id))
    session.execute(sa.update(Bye).where(Bye.player_id == remove.id).values(player_id=keep.id))
    fide_id = remove.fide_id
    if fide_id is not None:
        remove.fide_id = None
        session.flush()
    for field in ("birth_date", "birth_year", "sex", "federation", "title", "entry_rating"):
        if getattr(keep, field) is None and getattr(remove, field) is not None:
            setattr(keep, field, getattr(remove, field))
    if keep.fide_id is None:
        keep.fide_id = fide_id
    known = [g for g in (keep.entry_games, remove.entry_games) if g is not None]
    keep.entry_games = max(known) if known else None
    keep.k10 = keep.k10 or remove.k10
    remove.merged_into_id = keep.id
    mark_all_for_rerate(session)
    session.flush()
    return keep, remove, moved
