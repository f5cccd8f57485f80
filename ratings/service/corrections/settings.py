"""``ratings settings [KEY VALUE]``: the rating system's settings, read and changed.

The settings row (``settings``, made by ``ratings init``) holds the system and its choices:
the closing days of art. 7.1.3, a fixed K instead of art. 8.3.3's, the start rating of the
club and elo systems (fide computes first ratings, art. 8.2), the expected-score method and
the length of a period. A database upgraded from before revision 0004 has 0 closing days;
this is how an administrator gives it FIDE's 3.

A change is a correction: it is written to the corrections log (``settings_edit``, old ->
new, ``--reason``) and marks for a re-rate the first rated period whose inputs it changes
(:func:`first_affected`), which it names; a change that touches no rated period marks
nothing. The system itself is fixed, and the period length once a period is rated (every
period would change; ``ratings unrate`` withdraws them first).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, rules
from ratings.errors import InvalidInputError
from ratings.models import Event, Game, RatingHistory, RatingPeriod, Settings
from ratings.rules import SystemConfig
from ratings.service.rating.marks import mark_period
from ratings.service.rating.rate import long_events
from ratings.service.shared import audit
from ratings.service.shared.sql import to_date

__all__ = ["KEYS", "Setting", "SettingChange", "change_setting", "first_affected", "settings"]

FIDE_WORD = "fide"
"""The value of ``k`` and ``start-rating`` that means FIDE's rules (no fixed value)."""


@dataclass(frozen=True, slots=True)
class _Key:
    column: str
    """The ``settings`` column."""
    what: str
    """What it is, for the listing."""


KEYS: dict[str, _Key] = {
    "system": _Key("system", "the rating system (fixed by 'ratings init')"),
    "period-months": _Key(
        "period_months", "months in a rating period (fixed once a period is rated)"
    ),
    "closing-days": _Key(
        "closing_days", "a list closes this many days before its date (art. 7.1.3)"
    ),
    "k": _Key("k_factor", "one K for every player, or fide: the K of art. 8.3.3"),
    "start-rating": _Key(
        "start_rating", "the rating newcomers enter at, or fide: first ratings (art. 8.2)"
    ),
    "expected": _Key("expected_method", "expected scores: table (table 8.1.2) or curve"),
}
"""The settings, in the order they are listed, by the name the command takes."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting as ``ratings settings`` lists it."""

    key: str
    value: str
    """As the command takes it (``fide`` for FIDE's K or first ratings)."""
    what: str


@dataclass(frozen=True, slots=True)
class SettingChange:
    """What :func:`change_setting` did (or, with ``dry_run``, would do)."""

    key: str
    old: str
    new: str
    changed: bool
    """False when the setting had that value already (nothing done, nothing logged)."""
    marked: str | None
    """The first rated period the change affects, marked for a re-rate (None: none)."""


def _row(session: Session) -> Settings:
    row = session.get(Settings, 1)
    if row is None:
        raise InvalidInputError("this database has no settings row; was it made by 'ratings init'?")
    return row


def _shown(key: str, value: object) -> str:
    if value is None and key in ("k", "start-rating"):
        return FIDE_WORD
    return str(value)


def settings(session: Session) -> list[Setting]:
    """Every setting, in :data:`KEYS` order."""
    row = _row(session)
    return [
        Setting(key, _shown(key, getattr(row, spec.column)), spec.what)
        for key, spec in KEYS.items()
    ]


def _number(text: str, message: str, *, fide: bool = False) -> int | None:
    """A setting's number from ASCII digits (``fide``: or the word fide, as None)."""
    word = text.strip()
    if fide and word.lower() == FIDE_WORD:
        return None
    if not limits.is_ascii_digits(word) or len(word) > 9:
        raise InvalidInputError(f"{message}: {text!r}")
    return int(word)


def _config(row: Settings, **changes: object) -> SystemConfig:
    """The settings row with ``changes``, checked as the engine takes it (``SystemConfig``
    refuses what does not fit the system).

    :raises RulesError: naming the bad value.
    """
    values: dict[str, Any] = {
        "system": row.system,
        "k": row.k_factor,
        "start_rating": row.start_rating,
        "expected": row.expected_method,
        "period_months": row.period_months,
        "closing_days": row.closing_days,
    }
    values.update(changes)
    return SystemConfig(**values)


def change_setting(
    session: Session,
    key: str,
    value: str,
    *,
    reason: str | None = None,
    dry_run: bool = False,
) -> SettingChange:
    """Change one setting (``key`` as :data:`KEYS` names it, ``value`` as typed), log it and
    mark the first rated period it affects for a re-rate. With ``dry_run`` nothing is
    written (the caller rolls back anyway) and the period is only named.

    :raises InvalidInputError: an unknown key, a value that is not one, the system, the
        period length once a period is rated.
    :raises RulesError: a value the system does not take (a start rating under fide, ...).
    """
    spec = KEYS.get(key)
    if spec is None:
        names = list(KEYS)
        raise InvalidInputError(
            f"unknown setting {key!r} (use {', '.join(names[:-1])} or {names[-1]})"
        )
    reason = audit.check_reason(reason)
    row = _row(session)
    old = getattr(row, spec.column)
    new: object
    if key == "system":
        raise InvalidInputError(
            f"the rating system is fixed by 'ratings init': it cannot be changed to {value!r}"
        )
    if key == "k":
        message = f"k must be an integer from 1 to {rules.K_MAX}, or fide"
        new = _number(value, message, fide=True)
        if new is not None and not 1 <= new <= rules.K_MAX:
            raise InvalidInputError(f"{message}: {value!r}")
        config = _config(row, k=new)
    elif key == "start-rating":
        new = _number(value, "start rating must be a whole number, or fide", fide=True)
        config = _config(row, start_rating=new)
    elif key == "closing-days":
        new = _number(value, f"closing days must be an integer from 0 to {rules.MAX_CLOSING_DAYS}")
        config = _config(row, closing_days=new)
    elif key == "period-months":
        new = _number(value, "period months must be one of 1, 2, 3, 4, 6, 12")
        config = _config(row, period_months=new)
    else:
        config = _config(row, expected=value.strip().lower())
        new = config.expected.value
    if new == old:
        return SettingChange(key, _shown(key, old), _shown(key, new), False, None)
    if key == "period-months":
        first = session.scalar(sa.select(sa.func.min(RatingPeriod.start_date)))
        if first is not None:
            label = f"{first:%Y-%m}"
            raise InvalidInputError(
                f"period months cannot change once a period is rated ({label} is); "
                f"'ratings unrate --from {label}' withdraws the rated periods"
            )
    before = _config(row)
    period = first_affected(session, key, before, config)
    if not dry_run:
        setattr(row, spec.column, new)
        if period is not None:
            mark_period(session, period)
        audit.record(
            session,
            audit.Action.SETTINGS_EDIT,
            audit.Change(
                period=None if period is None else period.label,
                field=spec.column,
                old=old,
                new=new,
            ),
            reason=reason,
        )
        session.flush()
    return SettingChange(
        key, _shown(key, old), _shown(key, new), True, None if period is None else period.label
    )


def first_affected(
    session: Session, key: str, before: SystemConfig, after: SystemConfig
) -> RatingPeriod | None:
    """The first rated period whose inputs the change from ``before`` to ``after`` alters,
    or None:

    * closing days: the first rated period that an event's end date (the date of each game
      of an event longer than 90 days) goes to under one setting and not the other, of the
      events without a period given by hand (art. 7.1.3);
    * start rating: the first rated period in which a player unrated at its start played
      (the newcomer and the opponents rate him at the start rating);
    * a fixed K and the expected-score method: the first rated period (every K, next K, PD
      and dR of every list);
    * the period length: none (refused once a period is rated).
    """
    rated = sa.select(RatingPeriod).order_by(RatingPeriod.start_date).limit(1)
    if key in ("k", "expected"):
        return session.scalar(rated)
    if key == "start-rating":
        played = sa.select(RatingHistory.period_id).where(
            RatingHistory.rating_before.is_(None), RatingHistory.period_games > 0
        )
        return session.scalar(rated.where(RatingPeriod.id.in_(played)))
    if key == "closing-days":
        day = _first_moved(session, before.rating_period, after.rating_period)
        if day is None:
            return None
        return session.scalar(rated.where(RatingPeriod.start_date >= day))
    return None


def _first_moved(
    session: Session,
    old: Callable[[dt.date], rules.Period],
    new: Callable[[dt.date], rules.Period],
) -> dt.date | None:
    """The first day of the earlier of the two periods of the first end date (or long
    event's game date) whose period the closing days change; None when none changes."""
    found: dt.date | None = None

    def consider(day: object) -> None:
        nonlocal found
        end = to_date(day)
        a, b = old(end), new(end)
        if a != b:
            earlier = min(a.start, b.start)
            found = earlier if found is None else min(found, earlier)

    leagues = long_events(session, dt.date.min)
    by_hand = Event.rating_period.is_(None)
    ends = sa.select(Event.end_date).distinct().where(by_hand)
    if leagues:
        ends = ends.where(Event.id.not_in(sorted(leagues)))
        for (day,) in session.execute(
            sa.select(Game.played_on)
            .distinct()
            .join(Event)
            .where(Event.id.in_(sorted(leagues)), by_hand)
        ):
            consider(day)
    for (day,) in session.execute(ends):
        consider(day)
    return found
