"""The norms reached in an event, for its page on the website (docs/TITLES.md): what
:func:`ratings.service.titles.norms.norms_reached` finds, as the template's rows."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ratings.service.reading import publish as data
from ratings.service.titles.norms import norms_reached
from ratings.service.titles.reads import EventRows, NormByeRow, NormGameRow, NormReads

__all__ = ["event_norm_rows", "event_rows"]


def _score(halves: int) -> str:
    whole, half = divmod(halves, 2)
    return f"{whole}.5" if half else str(whole)


def event_rows(event: data.EventData) -> EventRows:
    """An event's games (in the order played) and byes as the norm checks read them."""
    return EventRows(
        [
            NormGameRow(g.round, g.played_on, g.white_id, g.black_id, g.result, g.rated)
            for g in sorted(event.games, key=lambda g: (g.played_on, g.id))
        ],
        [NormByeRow(b.player_id, b.round, b.code) for b in event.byes],
    )


def event_norm_rows(
    session: Session,
    event: data.EventData,
    time_control: str,
    reads: NormReads | None = None,
) -> list[dict[str, object]]:
    """One row per norm reached in a standard event (none for a rapid or blitz site): the
    player, the title, games counted, score, Ra and Rp, and the notes on how it was reached
    (later rounds ignored, the opponent raised to the floor...). The template escapes every
    value.

    The norm checks read the games and byes the page has read (``event``), not their own,
    and the lists through ``reads``, shared by the pages of one publish."""
    if time_control != "standard":
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
        for p, c in norms_reached(session, event.event_id, event_rows(event), reads)
    ]
