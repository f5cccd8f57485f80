"""The corrections log: every correction writes what it changed, append-only.

Every command that corrects stored data (``game edit``/``void``, ``player edit``, ``player
merge``/``unmerge``, ``event edit``/``void``, ``import undo``, ``unrate``, ``settings``) calls
:func:`record` in its own transaction, with one :class:`Change` per field or row it changed
and the ``--reason`` it was given. The lines land in the ``corrections`` table, which
triggers keep append-only (no UPDATE, no DELETE), so SQL users read them as they were
written. The lines of one call share a ``batch`` number: ``ratings log`` shows a batch as one
correction, and ``player unmerge`` finds what a merge did by its batch.

Values are stored as text: ``None`` as NULL, dates ISO (``2026-03-31``), booleans ``true`` /
``false``, enums by value (``1/2-1/2``), numbers in digits. :func:`as_text` is the one
conversion, so a reader can compare a line's ``new_value`` with a column's current value.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import LimitError
from ratings.models import CORRECTION_ACTIONS, Correction, Event, Player
from ratings.service.shared.sql import utcnow

__all__ = [
    "Action",
    "Change",
    "as_text",
    "change_lines",
    "check_reason",
    "concerns",
    "entries",
    "record",
    "recorded",
]


class Action(enum.StrEnum):
    """What a line of the log records: the correcting command (``corrections.action``)."""

    PLAYER_EDIT = "player_edit"
    """``player edit`` (and ``import players --update``): one line per field changed."""
    PLAYER_MERGE = "player_merge"
    """``player merge``: the duplicate's ``merged_into_id`` and the kept player's fields."""
    PLAYER_UNMERGE = "player_unmerge"
    """``player unmerge``: the same fields back."""
    GAME_EDIT = "game_edit"
    """``game edit``: one line per field changed."""
    GAME_VOID = "game_void"
    """``game void``: the game removed (its description as the old value)."""
    EVENT_EDIT = "event_edit"
    """``event edit``: name or dates."""
    EVENT_VOID = "event_void"
    """``event void``: the event and its games removed."""
    IMPORT_UNDO = "import_undo"
    """``import undo``: what one import added, removed."""
    UNRATE = "unrate"
    """``unrate``: rated periods withdrawn."""
    SETTINGS_EDIT = "settings_edit"
    """``settings KEY VALUE``: a setting of the rating system changed."""


# the schema's CHECK and this enum say the same
assert tuple(a.value for a in Action) == CORRECTION_ACTIONS


@dataclass(frozen=True, slots=True)
class Change:
    """One line of the log: what it concerns, which field, the value before and after.

    Give the ids of everything the change concerns (a game's line may name its event too);
    ``field`` is None when a whole row is added or removed (``old`` then describes it).
    """

    player_id: int | None = None
    game_id: int | None = None
    event_id: int | None = None
    import_id: int | None = None
    period: str | None = None
    """A rating period, ``YYYY-MM``."""
    field: str | None = None
    """The column or property changed (``result``, ``birth_year``...)."""
    old: object = None
    """The value before (any value :func:`as_text` converts); None for none."""
    new: object = None
    """The value after; None for none (a removed row, a cleared field)."""


def as_text(value: object) -> str | None:
    """A value as the log stores it: None, ISO dates, ``true``/``false``, enum values, str()."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def check_reason(reason: str | None) -> str | None:
    """A ``--reason`` as stored: stripped, blank is None, at most
    :data:`ratings.limits.MAX_REASON_LENGTH` characters, no control character.

    :raises LimitError: ``--reason: <problem>``.
    """
    if reason is None or not reason.strip():
        return None
    try:
        return limits.check_text(reason.strip(), limits.MAX_REASON_LENGTH)
    except LimitError as exc:
        raise LimitError(f"--reason: {exc}") from None


def record(
    session: Session,
    action: Action,
    *changes: Change,
    reason: str | None = None,
    at: dt.datetime | None = None,
) -> int:
    """Write ``changes`` to the corrections log as one batch; returns the batch number.

    Call it in the transaction of the correction itself, so that the change and its record
    are committed together or not at all. Numbers are taken under the command's write lock
    (every writing command holds one: ``BEGIN IMMEDIATE`` on SQLite, an advisory lock on
    PostgreSQL), so two commands never share a batch.

    :param action: the correcting command.
    :param changes: at least one line.
    :param reason: the ``--reason`` text (checked with :func:`check_reason`).
    :param at: when (naive UTC); now by default.
    :raises LimitError: for a reason that is too long or holds a control character.
    :raises ValueError: when no change is given (a bug in the caller).
    """
    if not changes:
        raise ValueError("record() needs at least one change")
    text = check_reason(reason)
    session.info.setdefault(_RECORDED, []).extend(changes)
    when = at or utcnow()
    batch = (session.scalar(sa.select(sa.func.max(Correction.batch))) or 0) + 1
    session.execute(
        sa.insert(Correction),
        [
            {
                "batch": batch,
                "recorded_at": when,
                "action": Action(action).value,
                "player_id": c.player_id,
                "game_id": c.game_id,
                "event_id": c.event_id,
                "import_id": c.import_id,
                "period": c.period,
                "field": c.field,
                "old_value": as_text(c.old),
                "new_value": as_text(c.new),
                "reason": text,
            }
            for c in changes
        ],
    )
    return batch


_RECORDED = "ratings.recorded_changes"
"""``Session.info`` key: the changes :func:`record` wrote in this unit of work."""


def recorded(session: Session) -> list[Change]:
    """The changes this unit of work (one command) wrote to the log, in order: what a
    correcting command prints, old -> new."""
    return list(session.info.get(_RECORDED, []))


def change_lines(session: Session, changes: Sequence[Change]) -> list[str]:
    """One line a changed field, old -> new, naming what it belongs to with its name now:
    ``game 17: result 1-0 -> 0-1``, ``player 2 (Bob): birth_year 1985 -> 2010``,
    ``event 3 (Club Ch): end_date 2026-01-14 -> 2026-01-21``. Lines without a field (a
    removed row) are left to the command."""
    player_ids = sorted({c.player_id for c in changes if c.player_id is not None})
    event_ids = sorted({c.event_id for c in changes if c.event_id is not None})
    players: dict[int, str] = {
        pid: name
        for pid, name in session.execute(
            sa.select(Player.id, Player.name).where(Player.id.in_(player_ids))
        )
    }
    events: dict[int, str] = {
        eid: name
        for eid, name in session.execute(
            sa.select(Event.id, Event.name).where(Event.id.in_(event_ids))
        )
    }
    lines = []
    for c in changes:
        if c.field is None:
            continue
        subject = concerns(c, events, players) or "settings"
        month = c.field == "rating_period"  # stored as the period's first day
        lines.append(f"{subject}: {c.field} {_shown(c.old, month)} -> {_shown(c.new, month)}")
    return lines


def concerns(
    line: Change | Correction,
    events: Mapping[int, str] | None = None,
    players: Mapping[int, str] | None = None,
) -> str | None:
    """What a line of the log concerns, the most specific of what it names: ``game 12``,
    ``event 3``, ``player 5``, ``period 2027-12`` (None: none of these); given their names
    (``events``, ``players``), an event or a player is named after its id: ``event 3 (Club
    Ch)``, ``?`` for one not given."""
    if line.game_id is not None:
        return f"game {line.game_id}"
    if line.event_id is not None:
        named = "" if events is None else f" ({events.get(line.event_id, '?')})"
        return f"event {line.event_id}{named}"
    if line.player_id is not None:
        named = "" if players is None else f" ({players.get(line.player_id, '?')})"
        return f"player {line.player_id}{named}"
    if line.period is not None:
        return f"period {line.period}"
    return None


def _shown(value: object, month: bool = False) -> str:
    """A logged value as the line shows it: ``(none)`` for no value, a rating period as
    ``YYYY-MM``."""
    text = as_text(value)
    if text is None:
        return "(none)"
    return text[:7] if month and len(text) == 10 else text


def entries(
    session: Session,
    *,
    player_ids: Sequence[int] = (),
    game_id: int | None = None,
    event_id: int | None = None,
    batch: int | None = None,
    action: Action | None = None,
) -> list[Correction]:
    """Lines of the log, oldest first, narrowed by what they concern (all when none given).

    ``player_ids`` matches lines about any of those players.
    """
    query = sa.select(Correction).order_by(Correction.id)
    if player_ids:
        query = query.where(Correction.player_id.in_(player_ids))
    if game_id is not None:
        query = query.where(Correction.game_id == game_id)
    if event_id is not None:
        query = query.where(Correction.event_id == event_id)
    if batch is not None:
        query = query.where(Correction.batch == batch)
    if action is not None:
        query = query.where(Correction.action == Action(action).value)
    return list(session.scalars(query))
