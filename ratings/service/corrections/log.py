"""``ratings log``: the corrections log as a rating officer reads it.

Read-only: takes the session first and only reads.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.models import Correction, Game, Player
from ratings.service.register.lookup import get_player
from ratings.service.shared import audit

__all__ = ["LogLine", "log_lines"]


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the log."""

    id: int
    batch: int
    """The correction (one command) the line belongs to."""
    when: dt.datetime
    """UTC."""
    action: str
    """The command: player_edit, game_void, unrate, ..."""
    what: str
    """What the line concerns: ``game 12``, ``event 3``, ``player 5``, ``period 2027-12``,
    ``import 4`` (the most specific one it names), ``settings``."""
    field: str | None
    old: str | None
    new: str | None
    reason: str | None


def log_lines(session: Session, player_ref: str | None = None) -> list[LogLine]:
    """The corrections log, oldest first; with ``player_ref`` (a PLAYER argument) the lines
    about that player and the players merged into it, and those about their stored games
    (a game edit's lines name the game, not its players).

    :raises PlayerNotFoundError: for an unknown player.
    """
    query = sa.select(Correction).order_by(Correction.id)
    if player_ref is not None:
        pid = get_player(session, player_ref).id
        ids = [pid, *session.scalars(sa.select(Player.id).where(Player.merged_into_id == pid))]
        games = sa.select(Game.id).where(sa.or_(Game.white_id.in_(ids), Game.black_id.in_(ids)))
        query = query.where(sa.or_(Correction.player_id.in_(ids), Correction.game_id.in_(games)))
    found = []
    for c in session.scalars(query):
        if c.action == "settings_edit":
            what = "settings"  # its period is the one it marked for a re-rate
        else:
            what = audit.concerns(c) or (f"import {c.import_id}" if c.import_id is not None else "")
        found.append(
            LogLine(
                c.id, c.batch, c.recorded_at, c.action, what, c.field, c.old_value,
                c.new_value, c.reason,
            )
        )  # fmt: skip
    return found
