"""The incremental plan of a publish: which lists, players and events to render, from the
manifest of the previous publish (:mod:`ratings.site.build` describes the rules), and the
period bitmaps that say which periods show on a player's page."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ratings.service.reading import publish as data
from ratings.site.output import SiteFolder

__all__ = [
    "Plan",
    "dirty_bits",
    "event_fingerprint",
    "fingerprint",
    "period_key",
    "plan_publish",
    "player_fingerprint",
    "shows",
    "table_row",
]


def fingerprint(*values: object) -> str:
    return hashlib.blake2b(repr(values).encode("utf-8"), digest_size=8).hexdigest()


def player_fingerprint(p: data.SitePlayer) -> str:
    return fingerprint(*_values(p, _PLAYER_FIELDS))


def event_fingerprint(e: data.SiteEvent) -> str:
    return fingerprint(*_values(e, _EVENT_FIELDS))


_PLAYER_FIELDS = tuple(f.name for f in dataclasses.fields(data.SitePlayer))
_EVENT_FIELDS = tuple(f.name for f in dataclasses.fields(data.SiteEvent))


def _rated_in(events: dict[int, data.SiteEvent], starts: list[dt.date]) -> set[int]:
    """The events whose games the periods starting on ``starts`` rate (an event's rating
    periods as the rate rated them:
    :attr:`~ratings.service.reading.publish.SiteEvent.rated_from`)."""
    if not starts:
        return set()
    return {
        eid
        for eid, e in events.items()
        if e.rated_from is not None
        and e.rated_to is not None
        and any(e.rated_from <= start <= e.rated_to for start in starts)
    }


def _values(record: object, names: tuple[str, ...]) -> tuple[object, ...]:
    """A register entry's or event's fields, as ``dataclasses.astuple`` gives them (their
    values are numbers, texts and dates: nothing to copy deeply, which took 0.4 s of a
    5,000-player publish for the same tuple)."""
    return tuple([getattr(record, name) for name in names])


@dataclass(slots=True)
class Plan:
    """What to render."""

    full: bool
    lists: set[int]
    """Period ids whose list to render."""
    players: set[int]
    events: set[int]
    dirty: set[int]
    """Period ids rated since the previous publish."""


def period_key(p: data.SitePeriod) -> str:
    """A period's state in the manifest: a new rate, status or seal renders its list again
    (a list published before lists were sealed is sealed by a rate that rates nothing)."""
    return f"{p.stamp} {p.status} {p.seal or '-'}"


def plan_publish(
    session: Session,
    out: SiteFolder,
    build: str,
    periods: Sequence[data.SitePeriod],
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
    new_bits: dict[int, int],
    window: int,
    time_control: str = "standard",
) -> Plan:
    old = out.old or {}
    old_periods = old.get("periods")
    labels = [p.label for p in periods]
    everything = Plan(True, {p.id for p in periods}, set(register), set(events), set())
    if (
        old.get("build") != build
        or not isinstance(old_periods, list)
        or not all(isinstance(x, list) and len(x) == 2 for x in old_periods)
        or labels[: len(old_periods)] != [label for label, _ in old_periods]
    ):
        return everything
    old_players = old.get("players")
    old_events = old.get("events")
    if not isinstance(old_players, dict) or not isinstance(old_events, dict):
        return everything
    index = {p.id: i for i, p in enumerate(periods)}
    dirty = {
        p.id
        for i, p in enumerate(periods)
        if i >= len(old_periods) or old_periods[i][1] != period_key(p)
    }
    if 2 * len(dirty) > len(periods):
        return everything  # most of the history was re-rated: read it all in one pass
    dirty_mask = sum(1 << index[pid] for pid in dirty)

    changed = {
        pid for pid, p in register.items() if _old_fp(old_players, pid) != player_fingerprint(p)
    }
    known = {pid for pid in changed if str(pid) in old_players}  # changed, not new
    players = set(changed)
    players |= {pid for pid, bits in new_bits.items() if bits & dirty_mask}
    for key, entry in old_players.items():
        if isinstance(entry, list) and len(entry) == 2 and int(entry[1], 16) & dirty_mask:
            players.add(int(key))
    players |= data.players_in_periods(session, dirty, time_control)
    if known:
        players |= data.opponents_of(session, known, time_control)

    changed_events = {
        eid for eid, e in events.items() if old_events.get(str(eid)) != event_fingerprint(e)
    }
    starts = [p.start for p in periods if p.id in dirty]
    event_ids = changed_events | _rated_in(events, starts)
    if known:
        event_ids |= data.events_of_players(session, known) & set(events)
    old_changed_events = {eid for eid in changed_events if str(eid) in old_events}
    if old_changed_events:
        players |= data.players_of_events(session, old_changed_events)

    # the top lists' improvers compare a list with one 12 lists earlier: a re-rated period
    # re-rates every later one, so the later list is dirty too (nothing more to add)
    lists = set(dirty)
    for pid in dirty:
        lists.update(p.id for p in periods[index[pid] : index[pid] + window])
    for i in range(max(1, len(old_periods)), len(periods)):  # a new list: "next list" before it
        lists.add(periods[i - 1].id)
    if known:
        lists = {p.id for p in periods}
    pending = next((i for i, p in enumerate(periods) if p.status == "needs_rerate"), None)
    if pending is not None:  # every list from there on says it may still change
        lists.update(p.id for p in periods[pending:])

    players |= {
        pid
        for pid in register
        if not (out.exists(f"players/{pid}.html") and out.exists(f"players/{pid}.json"))
    }
    event_ids |= {eid for eid in events if not out.exists(f"events/{eid}.html")}
    for p in periods:
        if not all(out.exists(f"lists/{p.label}{ext}") for ext in _LIST_FILES):
            lists.add(p.id)
    players &= set(register)
    return Plan(False, lists, players, event_ids, dirty)


_LIST_FILES = (".html", ".csv", ".txt", ".json", "-top.html", "-top.csv", "-sealed.csv")
"""The files of one list (each written whenever the list is)."""


def _old_fp(old_players: dict[str, Any], pid: int) -> str | None:
    entry = old_players.get(str(pid))
    return entry[0] if isinstance(entry, list) and len(entry) == 2 else None


def dirty_bits(
    session: Session,
    out: SiteFolder,
    periods: Sequence[data.SitePeriod],
    time_control: str = "standard",
) -> dict[int, int]:
    """For the periods rated since the previous publish: which players' pages they show on
    (bit per period index), from those periods' rows and the row before them."""
    old = (out.old or {}).get("periods")
    if not isinstance(old, list):
        return {}
    index = {p.id: i for i, p in enumerate(periods)}
    dirty = [
        i
        for i, p in enumerate(periods)
        if i >= len(old) or not isinstance(old[i], list) or old[i][1:] != [period_key(p)]
    ]
    if not dirty or 2 * len(dirty) > len(periods):
        return {}
    wanted = {periods[i].id for i in dirty} | {periods[i - 1].id for i in dirty if i > 0}
    rows: dict[int, list[data.PeriodRow]] = {}
    for player_id, row in data.period_rows(session, wanted, time_control):
        rows.setdefault(player_id, []).append(row)
    bits: dict[int, int] = {}
    for player_id, player_rows in rows.items():
        player_rows.sort(key=lambda r: index[r.period_id])
        mask = 0
        previous: data.PeriodRow | None = None
        for row in player_rows:
            i = index[row.period_id]
            adjacent = previous is not None and index[previous.period_id] == i - 1
            if (
                row.period_id in wanted
                and i in dirty
                and shows(previous if adjacent else None, row, i)
            ):
                mask |= 1 << i
            previous = row
        if mask:
            bits[player_id] = mask
    return bits


def shows(previous: data.PeriodRow | None, row: data.PeriodRow, index: int) -> bool:
    """Whether a period shows on the player's page: a table row (games, a new rating or
    state, the first entry), a change of the K the details give, or a list without a rating
    (the page labels the whole unrated stretch, up to the newest list)."""
    return (
        table_row(previous, row)
        or (previous is not None and row.next_k != previous.next_k)
        or row.rating_after is None
    )


def table_row(previous: data.PeriodRow | None, row: data.PeriodRow) -> bool:
    return (
        previous is None
        or row.period_games > 0
        or row.rating_after != previous.rating_after
        or row.list_status != previous.list_status
        or row.k10 != previous.k10
    )
