"""The norms reached in an event, for its page on the website (docs/TITLES.md): what
:func:`ratings.service.norms.norms_reached` finds, as the template's rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sqlalchemy.orm import Session

from ratings.rules.norms import norm_possible
from ratings.service import publish as data
from ratings.service.norms import norms_reached

__all__ = ["event_norm_rows"]


def _score(halves: int) -> str:
    whole, half = divmod(halves, 2)
    return f"{whole}.5" if half else str(whole)


def event_norm_rows(
    session: Session,
    event_id: int,
    time_control: str,
    games: Sequence[data.EventGame] | None = None,
) -> list[dict[str, object]]:
    """One row per norm reached in a standard event (none for a rapid or blitz site): the
    player, the title, games counted, score, Ra and Rp, and the notes on how it was reached
    (later rounds ignored, the opponent raised to the floor...). The template escapes every
    value.

    ``games``: every game of the event (its page has read them), when known: an event in
    which no player has the games a norm needs has none, as :func:`norms_reached` finds by a
    query of its own (most events of a site: a query each saved)."""
    if time_control != "standard":
        return []
    if games is not None:
        sides = Counter(g.white_id for g in games)
        sides.update(g.black_id for g in games)
        if not norm_possible(max(sides.values(), default=0)):
            return []
    return [
        {
            "player_id": p.player_id,
            "name": p.name,
            "title": c.title.value,
            "games": c.games,
            "score": _score(c.score_half_points),
            "ra": c.ra,
            "rp": c.rp,
            "notes": "; ".join(str(r) for r in c.notes),
        }
        for p, c in norms_reached(session, event_id)
    ]
