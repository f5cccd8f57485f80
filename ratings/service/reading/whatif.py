"""``ratings whatif``: who would move, and by how much, if a rule, a setting or an event were
different (docs/DESIGN.md#what-if).

The database is rebuilt in a scratch database (:func:`ratings.service.rating.rebuild.rebuild`: its
inputs copied, the one ``rate`` run there), with the change made there first: settings set
(the keys of ``ratings settings``), events removed or given another period, and rules that
are not FIDE's (:class:`ratings.rules.RuleVariant`: the K values of art. 8.3.3, the 400-point
rule's cap and its 2650 exemption, from a period on). Each list of the span is then compared
with the list the database published: per period, who moved and the mean change; at the
newest list, the biggest movers, the distribution of the changes, the players whose
2300 or 2400 (K and titles) the change gives or takes, and the mean change (inflation or
deflation). The database itself is only read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import InvalidInputError, PeriodError
from ratings.rules import Period, RuleVariant
from ratings.service.corrections import settings as settings_service
from ratings.service.rating.marks import parse_period
from ratings.service.rating.rebuild import rebuild
from ratings.service.register.events import get_event
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import fetch_all, to_date
from ratings.service.shared.text import list_name

__all__ = [
    "SETTING_KEYS",
    "Crossing",
    "Mover",
    "PeriodMoves",
    "WhatIf",
    "WhatIfReport",
    "what_if",
    "what_if_change",
]

SETTING_KEYS = ("k", "start-rating", "expected", "closing-days")
"""The settings a what-if may set (``ratings settings``'s keys; the system and the period
length make other periods, which no published list can be compared with)."""

BUCKETS = (
    (None, -50, "-50 or less"), (-49, -20, "-49 to -20"), (-19, -10, "-19 to -10"),
    (-9, -1, "-9 to -1"), (0, 0, "0"), (1, 9, "+1 to +9"), (10, 19, "+10 to +19"),
    (20, 49, "+20 to +49"), (50, None, "+50 or more"),
)  # fmt: skip
"""The distribution's bins: the what-if's rating minus the published one."""

MARKS = (
    (2400, "K 10 for good (art. 8.3.3); the IM title's rating (FIDE Title Regulations 1.5)"),
    (2300, "a junior's K 40 ends (art. 8.3.3); the FM title's rating (1.3)"),
)
"""The two ratings whose first reaching changes a player's K for good, and a title's rating."""


_K_KEYS = (
    ("top-k", "top"),
    ("junior-k", "junior"),
    ("new-player-k", "new_player"),
    ("established-k", "established"),
)


@dataclass(frozen=True, slots=True)
class WhatIf:
    """The change to try."""

    settings: tuple[tuple[str, str], ...] = ()
    """``ratings settings`` keys and values, set in the scratch database."""
    variant: RuleVariant | None = None
    """Rules that are not FIDE's."""
    without_events: tuple[str, ...] = ()
    """Events (id or exact name) left out, with their games and byes."""
    moves: tuple[tuple[str, str], ...] = ()
    """Events given another rating period: (event, ``YYYY-MM``)."""

    @property
    def lines(self) -> list[str]:
        """The change, as the report names it."""
        out = [f"{key} = {value}" for key, value in self.settings]
        variant = self.variant
        if variant is not None:
            fide = rules.FIDE_K
            for key, name in _K_KEYS:
                value = getattr(variant.k, name)
                if value != getattr(fide, name):
                    out.append(f"{key} = {value} (FIDE: {getattr(fide, name)})")
            if variant.cap is not None:
                out.append(f"cap = {variant.cap} (FIDE: 400)")
            if variant.cap_exempt_from is None:
                out.append("cap-exempt-from = none (FIDE: 2650 from October 2025)")
            elif variant.cap_exempt_from >= 0:
                out.append(f"cap-exempt-from = {variant.cap_exempt_from} in every edition "
                           "(FIDE: 2650 from October 2025)")  # fmt: skip
        out += [f"without event {e}" for e in self.without_events]
        out += [f"event {e} rated in {p}" for e, p in self.moves]
        return out


def what_if_change(
    sets: Sequence[str],
    *,
    without_events: Sequence[str] = (),
    moves: Sequence[tuple[str, str]] = (),
) -> WhatIf:
    """A :class:`WhatIf` from ``--set KEY=VALUE`` texts (settings keys and
    :data:`ratings.rules.VARIANT_KEYS`), the events to leave out and to move.

    :raises InvalidInputError: a text that is not KEY=VALUE, an unknown key, a bad value.
    """
    settings: list[tuple[str, str]] = []
    variant: RuleVariant | None = None
    for text in sets:
        key, sep, value = text.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            raise InvalidInputError(f"--set takes KEY=VALUE: {text!r}")
        if key in SETTING_KEYS:
            settings.append((key, value.strip()))
        elif key in rules.VARIANT_KEYS:
            try:
                variant = rules.vary(variant or RuleVariant(), key, value)
            except rules.RulesError as exc:
                raise InvalidInputError(str(exc)) from None
        else:
            keys = [*SETTING_KEYS, *rules.VARIANT_KEYS]
            raise InvalidInputError(
                f"unknown what-if key {key!r} (use {', '.join(keys[:-1])} or {keys[-1]})"
            )
    return WhatIf(tuple(settings), variant, tuple(without_events), tuple(moves))


@dataclass(frozen=True, slots=True)
class Mover:
    """One player's rating on a list, published and with the change."""

    player_id: int
    name: str
    published: int | None
    """None: not rated on the published list."""
    what_if: int | None
    """None: not rated with the change."""

    @property
    def difference(self) -> int | None:
        """The what-if's rating minus the published one (None: rated on one side only)."""
        if self.published is None or self.what_if is None:
            return None
        return self.what_if - self.published


@dataclass(frozen=True, slots=True)
class Crossing:
    """A player whose 2300 or 2400 (ever reached, by the newest list) the change gives or
    takes."""

    player_id: int
    name: str
    mark: int
    gained: bool
    """True: reached with the change and not as published; False: the reverse."""
    consequence: str
    published: int | None
    what_if: int | None


@dataclass(frozen=True, slots=True)
class PeriodMoves:
    """One period's list, published against the what-if's."""

    period: str
    rated: int
    """Players rated on both."""
    moved: int
    """Of them, those whose rating differs."""
    total: int
    """The sum of the differences."""
    up: Mover | None
    """The largest rise (None: nobody rose)."""
    down: Mover | None
    gained: int
    """Players rated with the change only."""
    lost: int
    """Players rated as published only."""
    movers: tuple[Mover, ...] = ()
    """Every player whose rating differs or who is rated on one side only."""

    @property
    def mean(self) -> Decimal:
        """The mean difference over the players rated on both, to a hundredth (half away
        from zero)."""
        return _mean(self.total, self.rated)


@dataclass(frozen=True, slots=True)
class WhatIfReport:
    """What a what-if found."""

    change: tuple[str, ...]
    time_control: str
    periods: tuple[PeriodMoves, ...]
    """The periods of the span, oldest first (the last is the newest list compared)."""
    biggest: tuple[Mover, ...]
    """At the newest list: the largest differences, largest first."""
    distribution: tuple[tuple[str, int], ...]
    """At the newest list: how many players' rating moved by how much (:data:`BUCKETS`),
    then those rated on one side only."""
    crossings: tuple[Crossing, ...]

    @property
    def newest(self) -> PeriodMoves:
        return self.periods[-1]


def _mean(total: int, count: int) -> Decimal:
    if count == 0:
        return Decimal(0)
    return (Decimal(total) / Decimal(count)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# --- the rebuild with the change -------------------------------------------------------------


def what_if(
    session: Session,
    change: WhatIf,
    *,
    first: str | None = None,
    through: str | None = None,
    time_control: str = "standard",
    top: int = 10,
) -> WhatIfReport:
    """Rebuild the lists with ``change`` in a scratch database and compare each list from
    ``first`` (default: the oldest published) through ``through`` (default: the newest) of
    ``time_control`` with the published one. The rules' keys apply from ``first`` on (the
    lists before are rated as they were); settings and events are the database's for every
    period.

    :raises PeriodError: nothing is rated, a period that is not rated, an empty span.
    :raises InvalidInputError: an unknown event, a period an event cannot move to, a
        setting's bad value.
    """
    tc = list_name(time_control)
    months = get_config(session).period_months
    span = [
        Period(to_date(day), months)
        for (day,) in session.execute(
            sa.select(sa.text("start_date")).select_from(sa.table("rating_periods"))
            .order_by(sa.text("start_date"))
        )
    ]  # fmt: skip
    if not span:
        raise PeriodError("nothing is rated yet: there is nothing to compare; run 'ratings rate'")
    start = _rated(session, first, span) if first is not None else span[0]
    end = _rated(session, through, span) if through is not None else span[-1]
    if end < start:
        raise PeriodError(f"--from {start.label} is after --through {end.label}")
    variant = change.variant
    if variant is not None and first is not None:
        variant = dataclasses.replace(variant, applies_from=start.start)
    removed = {get_event(session, ref).id: ref for ref in change.without_events}
    moved: dict[int, rules.Period] = {}
    for ref, label in change.moves:
        event = get_event(session, ref)
        period = parse_period(session, label)
        earliest = rules.earliest_rating_period(to_date(event.end_date), months)
        if period < earliest:
            raise InvalidInputError(
                f"event {ref!r} ends {event.end_date}: the earliest period that may rate it is "
                f"{earliest.label}, not {period.label}"
            )
        moved[event.id] = period

    def prepare(scratch: Session) -> None:
        for key, value in change.settings:
            settings_service.change_setting(scratch, key, value)
        conn = scratch.connection()
        for eid in removed:
            for table in ("byes", "games"):
                conn.exec_driver_sql(f"DELETE FROM {table} WHERE event_id = {int(eid)}")
            conn.exec_driver_sql(f"DELETE FROM events WHERE id = {int(eid)}")
        for eid, period in moved.items():
            conn.exec_driver_sql(
                f"UPDATE events SET rating_period = '{period.start.isoformat()}' "
                f"WHERE id = {int(eid)}"
            )

    periods = [p for p in span if start <= p <= end]
    names = _names(session)
    with rebuild(session, through=end, prepare=prepare, variant=variant) as rebuilt:
        found = [
            _compare(
                p.label,
                _list(session, p, tc),
                _list(rebuilt.session, p, tc),
                names,
            )
            for p in periods
        ]
        newest = periods[-1]
        crossings = _crossings(
            _marks(session, newest, tc), _marks(rebuilt.session, newest, tc), names
        )
    if all(p.rated + p.gained + p.lost == 0 for p in found):
        raise PeriodError(f"no period of {start.label} .. {end.label} published a {tc} list")
    last = found[-1]
    moved_players = [m for m in last.movers if m.difference is not None]
    biggest = sorted(
        (m for m in moved_players if m.difference),
        key=lambda m: (-abs(m.difference or 0), -(m.difference or 0), m.name, m.player_id),
    )[:top]
    return WhatIfReport(
        tuple(change.lines), tc, tuple(found), tuple(biggest),
        _distribution(last), tuple(crossings),
    )  # fmt: skip


def _rated(session: Session, label: str, span: Sequence[Period]) -> Period:
    period = parse_period(session, label)
    if period not in span:
        raise PeriodError(
            f"period {label} is not rated (rated: {span[0].label} .. {span[-1].label})"
        )
    return period


def _names(session: Session) -> dict[int, str]:
    return {int(pid): str(name) for pid, name in fetch_all(session, "SELECT id, name FROM players")}


def _list(session: Session, period: Period, tc: str) -> dict[int, int | None]:
    """A stored list's ratings by player (NULL: unrated), from either database."""
    return {
        int(pid): rating
        for pid, rating in fetch_all(
            session,
            "SELECT h.player_id, h.rating_after FROM rating_history h JOIN rating_periods p "
            f"ON p.id = h.period_id WHERE p.label = '{period.label}' AND h.time_control = "
            f"'{tc}'",
        )
    }


def _compare(
    label: str,
    published: Mapping[int, int | None],
    changed: Mapping[int, int | None],
    names: Mapping[int, str],
) -> PeriodMoves:
    movers: list[Mover] = []
    rated = total = gained = lost = 0
    for pid in sorted(set(published) | set(changed)):
        before, after = published.get(pid), changed.get(pid)
        if before is None and after is None:
            continue
        mover = Mover(pid, names.get(pid, f"player {pid}"), before, after)
        if before is not None and after is not None:
            rated += 1
            total += after - before
            if after != before:
                movers.append(mover)
        else:
            movers.append(mover)
            gained += before is None
            lost += after is None
    diffs = [m for m in movers if m.difference]
    up = max(diffs, key=lambda m: (m.difference or 0, -m.player_id), default=None)
    down = min(diffs, key=lambda m: (m.difference or 0, m.player_id), default=None)
    return PeriodMoves(
        label, rated, sum(1 for m in movers if m.difference), total,
        up if up is not None and (up.difference or 0) > 0 else None,
        down if down is not None and (down.difference or 0) < 0 else None,
        gained, lost, tuple(movers),
    )  # fmt: skip


def _distribution(moves: PeriodMoves) -> tuple[tuple[str, int], ...]:
    counts = dict.fromkeys((label for _, _, label in BUCKETS), 0)
    counts["0"] = moves.rated - moves.moved
    for m in moves.movers:
        d = m.difference
        if d is None or d == 0:
            continue
        for low, high, label in BUCKETS:
            if (low is None or d >= low) and (high is None or d <= high):
                counts[label] += 1
                break
    return (
        *counts.items(),
        ("rated with the change only", moves.gained),
        ("rated as published only", moves.lost),
    )


def _marks(session: Session, period: Period, tc: str) -> dict[int, tuple[int | None, bool, bool]]:
    """Each player's rating and K=10 and 2300 flags (ever reached) on a list."""
    return {
        int(pid): (rating, bool(k10), bool(reached))
        for pid, rating, k10, reached in fetch_all(
            session,
            "SELECT h.player_id, h.rating_after, h.k10, h.reached_2300 FROM rating_history h "
            f"JOIN rating_periods p ON p.id = h.period_id WHERE p.label = '{period.label}' "
            f"AND h.time_control = '{tc}'",
        )
    }


def _crossings(
    published: Mapping[int, tuple[int | None, bool, bool]],
    changed: Mapping[int, tuple[int | None, bool, bool]],
    names: Mapping[int, str],
) -> list[Crossing]:
    found = []
    for pid in sorted(set(published) & set(changed), key=lambda p: (names.get(p, ""), p)):
        (old, old_k10, old_2300), (new, new_k10, new_2300) = published[pid], changed[pid]
        for (mark, consequence), was, now in zip(
            MARKS, (old_k10, old_2300), (new_k10, new_2300), strict=True
        ):
            if was != now:
                name = names.get(pid, f"player {pid}")
                found.append(Crossing(pid, name, mark, now, consequence, old, new))
    return found
