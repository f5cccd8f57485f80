"""Text the use cases store or build: free text checked, a game's own event label,
the ``--list`` option's value.
"""

from __future__ import annotations

import datetime as dt

from ratings import limits, rules
from ratings.errors import (
    InvalidInputError,
    LimitError,
)


def clean_text(value: str | None, limit: int, field: str) -> str | None:
    """Free text to store: surrounding blanks removed, blank is None, at most ``limit``
    characters and no control character (:mod:`ratings.limits`).

    :raises LimitError: ``field: problem``.
    """
    if value is None or not value.strip():
        return None
    try:
        return limits.check_text(value.strip(), limit)
    except LimitError as exc:
        raise LimitError(f"{field}: {exc}") from None


def game_label(white: str, black: str, day: dt.date) -> str:
    """The name of the event of its own that a game without one gets
    (docs/RULES.md#which-ratings-a-game-uses):
    ``White - Black, YYYY-MM-DD``, with long names shortened (``...``) so that it fits
    :data:`ratings.limits.MAX_EVENT_LENGTH`. A label we build, not text the user gave: the
    names themselves are stored in full with the players."""
    tail = f", {day.isoformat()}"
    label = f"{white} - {black}{tail}"
    if len(label) <= limits.MAX_EVENT_LENGTH:
        return label
    room = (limits.MAX_EVENT_LENGTH - len(tail) - len(" - ")) // 2

    def cut(name: str) -> str:
        return name if len(name) <= room else name[: room - 3] + "..."

    return f"{cut(white)} - {cut(black)}{tail}"


def list_name(time_control: str) -> str:
    """The checked value of a ``--list`` option: standard, rapid or blitz.

    :raises InvalidInputError: any other word."""
    try:
        return rules.time_control(time_control).value
    except rules.InvalidTimeControlError:
        raise InvalidInputError(
            f"unknown list: {time_control!r} (use standard, rapid or blitz)"
        ) from None
