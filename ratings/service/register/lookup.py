"""Finding a player: a PLAYER argument (id, ``fide:N``, a name) to the one player it
names, merged records followed, the matcher's suggestions when none is found.
"""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import (
    AmbiguousPlayerError,
    InvalidNameError,
    LimitError,
    PlayerMergedError,
    PlayerNotFoundError,
)
from ratings.models import Correction, Game, Player
from ratings.names import key_of_stored, name_key

_FIDE_REF = re.compile(r"fide:(.*)", re.IGNORECASE | re.DOTALL)


def find_players(session: Session, ref: str) -> list[Player]:
    """Players matching a PLAYER argument: database id (ASCII digits), ``fide:NNN``, or a
    name, compared by its key (:func:`ratings.names.name_key`: any case, any Unicode normal
    form, any spacing), the one rule every path uses. Merged-away records are left out; a
    FIDE id that a merged-away record holds finds the player it was merged into.

    An id too large for a database integer, and a name with characters no name may hold,
    match nobody.

    :raises LimitError: for ``fide:`` followed by anything but a FIDE id
        (:func:`ratings.limits.fide_id`).
    """
    text = ref.strip()
    live = Player.merged_into_id.is_(None)
    if limits.is_ascii_digits(text):
        try:
            player = session.get(Player, limits.database_id(text, "player id"))
        except LimitError:
            return []  # too large for a database integer: no such player
        return [player] if player is not None and player.merged_into_id is None else []
    match = _FIDE_REF.fullmatch(text)
    if match:
        try:
            fide_id = limits.fide_id(match[1])
        except LimitError as exc:
            raise LimitError(f"player {ref!r}: {exc}") from None
        holder = session.scalar(sa.select(Player).where(Player.fide_id == fide_id))
        live_holder = merged_target(session, holder) if holder is not None else None
        return [live_holder] if live_holder is not None else []
    try:
        key = name_key(text)
    except InvalidNameError:
        return []
    return list(
        session.scalars(sa.select(Player).where(live, Player.name_key == key).order_by(Player.id))
    )


def merged_target(session: Session, player: Player) -> Player:
    """The live player a record stands for: itself, or the player it was merged into
    (following merges of merges)."""
    seen = {player.id}
    while player.merged_into_id is not None:
        player = session.get_one(Player, player.merged_into_id)
        if player.id in seen:  # pragma: no cover (merge refuses cycles)
            raise AssertionError(f"merge cycle at player {player.id}")
        seen.add(player.id)
    return player


def describe(player: Player) -> str:
    """A player for messages that tell people of one name apart:
    ``3 (Öberg, Åsa, FIDE 1234567, born 1990-04-02)``."""
    parts = [player.name]
    if player.fide_id is not None:
        parts.append(f"FIDE {player.fide_id}")
    born = player.birth_date.isoformat() if player.birth_date else player.birth_year
    if born is not None:
        parts.append(f"born {born}")
    return f"{player.id} ({', '.join(parts)})"


SUGGEST_FROM_ALL = 20_000
"""Registers up to this size are matched whole when a name finds nobody; in larger ones
only the players whose names share a word with the one asked for."""


def merged_record(session: Session, ref: str) -> tuple[Player, Player, int | None] | None:
    """When a PLAYER argument names a record merged into another one (its id, or a name that
    only merged records have): (that record, the live player it was merged into, the merge's
    batch in the corrections log); else None."""
    text = ref.strip()
    record: Player | None = None
    if limits.is_ascii_digits(text):
        try:
            record = session.get(Player, limits.database_id(text, "player id"))
        except LimitError:
            return None
    elif not _FIDE_REF.fullmatch(text):
        try:
            key = name_key(text)
        except InvalidNameError:
            return None
        records = list(
            session.scalars(
                sa.select(Player)
                .where(Player.name_key == key, Player.merged_into_id.is_not(None))
                .order_by(Player.id)
            )
        )
        record = records[0] if len(records) == 1 else None
    if record is None or record.merged_into_id is None:
        return None
    batch = session.scalar(
        sa.select(sa.func.max(Correction.batch)).where(
            Correction.action == "player_merge",
            Correction.player_id == record.id,
            Correction.field == "merged_into_id",
        )
    )
    return record, merged_target(session, record), batch


def _merged_message(record: Player, kept: Player, batch: int | None) -> str:
    where = f" (correction {batch})" if batch is not None else ""
    return f"player {record.id} was merged into {kept.id}{where}"


def _matched(session: Session, ref: str) -> tuple[Any, Any] | None:
    """What the matcher (:mod:`ratings.matching`) says about a name that no player's key
    finds: (the match, the identities asked), or None for ids and unusable names."""
    from ratings.matching import Facts
    from ratings.service.register.identity import load_identities

    text = ref.strip()
    if limits.is_ascii_digits(text) or _FIDE_REF.fullmatch(text):
        return None
    try:
        name_key(text)
    except InvalidNameError:
        return None
    live = Player.merged_into_id.is_(None)
    total = session.scalar(sa.select(sa.func.count()).select_from(Player).where(live)) or 0
    if total > SUGGEST_FROM_ALL:
        # a world-sized register: only the players sharing a word (as typed) with the name
        words = [w for w in key_of_stored(text).replace(",", " ").split() if len(w) >= 3]
        if not words:
            return None
        ids = session.scalars(
            sa.select(Player.id)
            .where(live, sa.or_(*(Player.name_key.contains(w, autoescape=True) for w in words)))
            .limit(SUGGEST_FROM_ALL)
        )
        identities = load_identities(session, ids=list(ids))
    else:
        identities = load_identities(session)
    return identities.match(Facts(text)), identities


def suggestions(session: Session, ref: str) -> list[Player]:
    """Registered players a failed lookup by name may have meant, best first (the matcher's
    candidates: the same name folded, an alias, initials, missing words, typos); none for
    ids."""
    found = _matched(session, ref)
    if found is None:
        return []
    match, _ = found
    ids = [c.player_id for c in match.candidates[:3]]
    if not ids:
        return []
    players = {p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(ids)))}
    return [players[pid] for pid in ids if pid in players]


def get_player(session: Session, ref: str) -> Player:
    """The one player a PLAYER argument names (:func:`find_players`); a name no player's key
    finds is one player when the matcher is certain (:mod:`ratings.matching`: an alias, or
    the one player whose name folds alike, ``Novak, Jiri`` for ``Novák, Jiří``).

    :raises PlayerMergedError: for a record merged into another one (``player 42 was merged
        into 10 (correction 7)``): reading commands show the player kept
        (:func:`get_player_to_read`), writing commands refuse.
    :raises PlayerNotFoundError: when none matches, suggesting the matcher's candidates
        (``no player 'Elrad, Carl'; did you mean Elard, Carl (id 1)?``).
    :raises AmbiguousPlayerError: when several do, listing them with what tells them apart.
    """
    found = find_players(session, ref)
    if len(found) > 1:
        candidates = ", ".join(describe(p) for p in found)
        raise AmbiguousPlayerError(
            f"{ref!r} matches {len(found)} players: {candidates}; use the id"
        )
    if found:
        return found[0]
    merged = merged_record(session, ref)
    if merged is not None:
        record, kept, batch = merged
        raise PlayerMergedError(
            f"{_merged_message(record, kept, batch)}; give player {kept.id}",
            record.id,
            kept.id,
            batch,
        )
    matched = _matched(session, ref)
    if matched is not None and matched[0].certain is not None:
        return session.get_one(Player, matched[0].certain.player_id)
    ids = [] if matched is None else [c.player_id for c in matched[0].candidates[:3]]
    hint = ""
    if ids:
        assert matched is not None
        names = matched[1].names
        hint = "; did you mean " + " or ".join(f"{names[i]} (id {i})" for i in ids) + "?"
    raise PlayerNotFoundError(f"no player {ref!r}{hint}")


def get_player_to_read(session: Session, ref: str) -> tuple[Player, str | None]:
    """:func:`get_player` for reading commands: a merged record's id or name gives the
    player it was merged into, with the note to show
    (``player 42 was merged into 10 (correction 7): showing 10``)."""
    try:
        return get_player(session, ref), None
    except PlayerMergedError as exc:
        kept = session.get_one(Player, exc.kept_id)
        where = f" (correction {exc.batch})" if exc.batch is not None else ""
        note = f"player {exc.merged_id} was merged into {kept.id}{where}: showing {kept.id}"
        return kept, note


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
