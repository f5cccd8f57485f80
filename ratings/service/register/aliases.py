"""``ratings player alias add|list|remove``: the spellings that stand for a player.

An import stores an alias for every decision it is given (``--match``, ``--match-file``,
``--new``, a prompt answer); the administrator adds and removes them by hand too. Every
import then finds the player by the spelling (:mod:`ratings.matching`, rule 2). An alias is
unique by its folded form (``player_aliases.folded_key``): one spelling, one player. Adding
and removing one by hand is a correction of the player (``player_edit``, field ``alias``),
with ``--reason``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import InvalidInputError
from ratings.models import Player, PlayerAlias
from ratings.service.register.identity import (
    alias_key,
    check_alias_name,
    load_identities,
    own_name_holders,
)
from ratings.service.register.lookup import get_player
from ratings.service.shared import audit
from ratings.service.shared.sql import utcnow

__all__ = ["AliasRow", "add_alias", "list_aliases", "remove_alias"]


@dataclass(frozen=True, slots=True)
class AliasRow:
    """One alias, as ``player alias list`` shows it."""

    id: int
    player_id: int
    player: str
    """The player's registered name."""
    name: str
    """The alias as written."""
    source: str
    import_id: int | None
    created_at: dt.datetime


def add_alias(session: Session, ref: str, name: str, *, reason: str | None = None) -> AliasRow:
    """Make ``name`` stand for the player ``ref`` names, in every import from now on.

    :raises InvalidInputError: for a spelling that is an alias already (of this player or of
        another one), a live player's own name folded (:func:`own_name_holders`: an alias
        never takes another registered player's name), or one with no letters to match.
    :raises PlayerMergedError: for a merged record (give the player kept).
    """
    player = get_player(session, ref)
    cleaned = check_alias_name(name)
    audit.check_reason(reason)
    key = alias_key(cleaned)
    holders = own_name_holders(load_identities(session), cleaned)
    if holders:
        pid, registered = holders[0]
        if pid == player.id and len(holders) == 1:
            raise InvalidInputError(
                f"{cleaned!r} is the name of player {pid} ({registered}) already"
            )
        pid, registered = next((h for h in holders if h[0] != player.id), holders[0])
        raise InvalidInputError(
            f"{cleaned!r} is the name of player {pid} ({registered}); an alias never stands "
            "for another registered player's name"
        )
    taken = session.scalar(sa.select(PlayerAlias).where(PlayerAlias.folded_key == key))
    if taken is not None:
        whose = "this player's" if taken.player_id == player.id else f"player {taken.player_id}'s"
        raise InvalidInputError(
            f"{cleaned!r} is {whose} alias {taken.name!r} already (they fold alike); "
            f"'ratings player alias remove {taken.name!r}' frees it"
        )
    alias = PlayerAlias(
        player_id=player.id,
        name=cleaned,
        folded_key=key,
        source="hand",
        import_id=None,
        created_at=utcnow(),
    )
    session.add(alias)
    session.flush()
    audit.record(
        session,
        audit.Action.PLAYER_EDIT,
        audit.Change(player_id=player.id, field="alias", old=None, new=cleaned),
        reason=reason,
    )
    return _row(alias, player)


def list_aliases(session: Session, ref: str | None = None) -> list[AliasRow]:
    """Every alias (or one player's: ``ref``), by player, then as stored."""
    query = sa.select(PlayerAlias, Player).join(Player, Player.id == PlayerAlias.player_id)
    if ref is not None:
        query = query.where(PlayerAlias.player_id == get_player(session, ref).id)
    return [
        _row(alias, player)
        for alias, player in session.execute(query.order_by(Player.id, PlayerAlias.id))
    ]


def remove_alias(session: Session, name: str, *, reason: str | None = None) -> AliasRow:
    """Remove the alias ``name`` (compared folded): imports no longer find its player by it.

    :raises InvalidInputError: when no alias folds like ``name``.
    """
    audit.check_reason(reason)
    key = alias_key(check_alias_name(name))
    alias = session.scalar(sa.select(PlayerAlias).where(PlayerAlias.folded_key == key))
    if alias is None:
        raise InvalidInputError(f"no alias {name!r}; 'ratings player alias list' shows them")
    player = session.get_one(Player, alias.player_id)
    row = _row(alias, player)
    session.delete(alias)
    session.flush()
    audit.record(
        session,
        audit.Action.PLAYER_EDIT,
        audit.Change(player_id=player.id, field="alias", old=row.name, new=None),
        reason=reason,
    )
    return row


def _row(alias: PlayerAlias, player: Player) -> AliasRow:
    return AliasRow(
        alias.id,
        player.id,
        player.name,
        alias.name,
        alias.source,
        alias.import_id,
        alias.created_at,
    )
