"""The data beside the pages: ``lists/YYYY-MM.json`` (a list) and ``players/ID.json`` (a
player's history and games), for a club's own website or a script (README, "Publishing the
website", the schema).

The keys are the schema's names (``total_games``, ``next_k``, ``k_used``, ``period_games``,
``list_status``, ``dr`` ...), in a fixed order; :data:`SCHEMA_VERSION` changes when a key is
renamed, removed or changes its meaning (a new key does not change it). UTF-8, not escaped
to ASCII: a name is a JSON string, whatever it holds. Exact decimals (``pd``, ``dr``,
``k_dr``) are strings, as ``ratings card --format json`` writes them; a score (in halves) is
a number.

A player's file holds what the player's page holds (so that it is rewritten exactly when the
page is, :mod:`ratings.site.build`): the periods that show on the page, not the quiet ones
between them (no game, no new rating, state or K: the entry before still holds).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Decimal

from ratings.service import publish as data

__all__ = ["LIST_COLUMNS", "SCHEMA_VERSION", "dumps", "list_json", "player_json"]

SCHEMA_VERSION = 1


def dumps(value: object) -> bytes:
    """``value`` as the site's JSON: UTF-8, keys in the order given, one line."""
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _player(p: data.SitePlayer) -> dict[str, object]:
    return {
        "player_id": p.id,
        "name": p.name,
        "fide_id": p.fide_id,
        "federation": p.federation,
        "sex": p.sex,
        "title": p.title,
        "birth_year": p.birth_year,
    }


def _change(status: str, change: int) -> int | None:
    """As ``ratings history --format json``: none where there was no rating before."""
    return None if status in ("first_rating", "unrated") else change


def _name(found: data.SitePlayer | data.SiteEvent | None) -> str | None:
    return None if found is None else found.name


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _k_dr(k: int | None, dr: Decimal | None) -> str | None:
    return None if k is None or dr is None else str(k * dr)


LIST_COLUMNS = (
    "rank", "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year",
    "rating", "change", "period_games", "total_games", "next_k", "k10", "list_status",
    "inactive",
)  # fmt: skip
"""The values of each row of a list's ``players``, in this order (its ``columns``)."""


def list_json(
    period: data.SitePeriod,
    time_control: str,
    rows: Sequence[tuple[data.SiteListRow, str]],
    register: dict[int, data.SitePlayer],
    inactive: set[int],
) -> bytes:
    """One published list, in the list's order (rank 1 first): ``columns`` names the values
    of each row of ``players`` (a list of 5,000 objects repeats every key 5,000 times; as
    rows it is a third of the size, and as fast to read: ``dict(zip(columns, row))``)."""
    players = []
    for rank, (e, _) in enumerate(rows, 1):
        p = register[e.player_id]
        players.append(
            (rank, p.id, p.name, p.fide_id, p.federation, p.sex, p.title, p.birth_year,
             e.rating, _change(e.list_status, e.change), e.period_games, e.total_games,
             e.next_k, e.k10, e.list_status, e.player_id in inactive)
        )  # fmt: skip
    return dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "kind": "list",
            "list": time_control,
            "period": period.label,
            "list_date": period.list_date.isoformat(),
            "columns": LIST_COLUMNS,
            "players": players,
        }
    )


def player_json(
    p: data.SitePlayer,
    time_control: str,
    history: Sequence[tuple[data.SitePeriod, data.PeriodRow]],
    games: Sequence[tuple[data.SitePeriod, data.CardGame]],
    events: dict[int, data.SiteEvent],
    register: dict[int, data.SitePlayer],
) -> bytes:
    """A player: the register entry, the history (oldest first) and the rated games (in
    the order played)."""
    return dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "kind": "player",
            "list": time_control,
            "player": {**_player(p), "k10": p.k10},
            "history": [
                {
                    "period": period.label,
                    "list_date": period.list_date.isoformat(),
                    "rating_before": r.rating_before,
                    "rating": r.rating_after,
                    "change": _change(r.list_status, r.change),
                    "k_used": r.k_used,
                    "period_games": r.period_games,
                    "total_games": r.total_games,
                    "score": float(r.score),  # half points: exact as a float
                    "next_k": r.next_k,
                    "k10": r.k10,
                    "list_status": r.list_status,
                }
                for period, r in history
            ],
            "games": [
                {
                    "period": period.label,
                    "game_id": g.game_id,
                    "played_on": g.played_on.isoformat(),
                    "event_id": g.event_id,
                    "event": _name(events.get(g.event_id)),
                    "round": g.round,
                    "color": "white" if g.white else "black",
                    "opponent_id": g.opponent_id,
                    "opponent": _name(register.get(g.opponent_id)),
                    "own_rating": g.own_rating,
                    "opponent_rating": g.opponent_rating,
                    "difference": g.difference,
                    "score": float(g.score),
                    "pd": _text(g.pd),
                    "dr": _text(g.dr),
                    "k_used": g.k_used,
                    "k_dr": _k_dr(g.k_used, g.dr),
                }
                for period, g in games
            ],
        }
    )
