"""What the corrections log keeps of rows a correction removes (``game void``, ``event
void``, ``import undo``): every column, one line each, so that the record is complete and
the row could be written again from it. Lines that name a player carry the player's id, so
that ``ratings log --player`` finds them.
"""

from __future__ import annotations

import datetime as dt

from ratings.models import Bye, Event, Game, Player
from ratings.service.shared.audit import Change

__all__ = ["bye_lines", "event_lines", "game_lines", "game_text", "player_lines"]


def game_lines(game: Game) -> list[Change]:
    """A removed game: its event, day, round, players, result and whether it was rated."""
    players = {"white_id": game.white_id, "black_id": game.black_id}
    return [
        Change(
            game_id=game.id,
            event_id=game.event_id,
            player_id=players.get(field),
            field=field,
            old=getattr(game, field),
        )
        for field in ("played_on", "round", "white_id", "black_id", "result", "rateable")
    ]


def bye_lines(bye: Bye) -> list[Change]:
    """A removed bye: round, player and code (one line, ``round R: code C``)."""
    return [
        Change(
            event_id=bye.event_id,
            player_id=bye.player_id,
            field="bye",
            old=f"round {bye.round}: {bye.code}",
        )
    ]


def event_lines(event: Event) -> list[Change]:
    """A removed event: name, dates, source, import (its games and byes: their own lines)."""
    return [
        Change(event_id=event.id, import_id=event.import_id, field=field, old=getattr(event, field))
        for field in ("name", "start_date", "end_date", "source")
    ]


def player_lines(player: Player, import_id: int | None = None) -> list[Change]:
    """A removed player: the register entry."""
    return [
        Change(player_id=player.id, import_id=import_id, field=field, old=getattr(player, field))
        for field in (
            "name", "fide_id", "birth_date", "birth_year", "sex", "federation", "title",
            "entry_rating", "entry_games", "k10",
        )
    ]  # fmt: skip


def game_text(
    game_id: int,
    played_on: dt.date,
    round_: str | None,
    white: tuple[int, str],
    black: tuple[int, str],
    result: str,
) -> str:
    """A game as a removal names it: ``game 17: 2026-01-14 round 3, Ann (id 1) - Bob (id 2)
    1-0``."""
    played = f"{played_on}{f' round {round_}' if round_ else ''}"
    return (
        f"game {game_id}: {played}, {white[1]} (id {white[0]}) - {black[1]} (id {black[0]}) "
        f"{result}"
    )
