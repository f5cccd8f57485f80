"""Finding a stored event by its id or its name."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import (
    InvalidInputError,
    LimitError,
)
from ratings.models import Event


def find_events(session: Session, ref: str) -> list[Event]:
    """Events an EVENT argument names: an event id (digits) or an exact name
    (case-insensitive), oldest first."""
    text = ref.strip()
    if limits.is_ascii_digits(text):
        try:
            event = session.get(Event, limits.database_id(text, "event id"))
        except LimitError:
            return []  # too large for a database integer: no such event
        return [event] if event is not None else []
    return list(
        session.scalars(
            sa.select(Event).where(sa.func.lower(Event.name) == text.lower()).order_by(Event.id)
        )
    )


def get_event(session: Session, ref: str) -> Event:
    """The one event an EVENT argument names; raises if none or several match."""
    found = find_events(session, ref)
    if not found:
        raise InvalidInputError(f"no event {ref!r}")
    if len(found) > 1:
        candidates = ", ".join(f"{e.id} ({e.start_date})" for e in found)
        raise InvalidInputError(f"{ref!r} matches {len(found)} events: {candidates}; use the id")
    return found[0]
