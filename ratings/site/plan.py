"""The incremental plan of a publish: which lists, players and events to render, from the
manifest of the previous publish (:mod:`ratings.site.build` describes the rules), and the
period bitmaps that say which periods show on a player's page.

The plan is made in three steps, so that what changed is decided on plain data:
:func:`decide` (what changed, from the manifest and the current records alone),
:func:`read_facts` (what those changes need from the database, a few set-based reads, and
which files the folder is missing) and :func:`assemble` (the plan from the two)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from ratings.service.reading import publish as data
from ratings.site.output import SiteFolder

__all__ = [
    "Plan",
    "PlanChanges",
    "PlanFacts",
    "assemble",
    "decide",
    "dirty_bits",
    "event_fingerprint",
    "fingerprint",
    "period_key",
    "plan_publish",
    "player_fingerprint",
    "read_facts",
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
    """The plan in three steps: what changed (from the manifest and the records alone), the
    facts those changes need (the database's and the folder's), and the plan they make."""
    changes = decide(out.old or {}, build, periods, register, events, new_bits, window)
    facts = read_facts(session, out, changes, periods, register, events, time_control)
    return assemble(changes, facts, periods, register, events)


@dataclass(frozen=True, slots=True)
class PlanChanges:
    """What changed since the previous publish, decided from its manifest and the current
    records alone (:func:`decide`)."""

    full: bool
    """Everything is rendered: a new build, a manifest this one cannot compare with, or most
    of the history re-rated (the other fields are then empty)."""
    dirty: frozenset[int] = frozenset()
    """Period ids rated since the previous publish."""
    players: frozenset[int] = frozenset()
    """Players whose entry changed, or whose page shows a dirty period (before or now)."""
    known: frozenset[int] = frozenset()
    """The changed players the previous publish had (not new ones): their opponents' pages,
    their events and every list name them."""
    events: frozenset[int] = frozenset()
    """Events that changed, or that a dirty period rates."""
    old_events: frozenset[int] = frozenset()
    """The changed events the previous publish had: their players' pages name them."""
    lists: frozenset[int] = frozenset()
    """Period ids whose list to render, before the files that are missing."""


_EVERYTHING = PlanChanges(True)


@dataclass(frozen=True, slots=True)
class PlanFacts:
    """What the changes need from the database and the folder (:func:`read_facts`)."""

    in_dirty: frozenset[int] = frozenset()
    """Players with a rated game in a dirty period."""
    opponents: frozenset[int] = frozenset()
    """Players whose cards name a known changed player."""
    events_of_known: frozenset[int] = frozenset()
    """Events in which a known changed player played or had a bye (on any list)."""
    players_of_old_events: frozenset[int] = frozenset()
    """Players with a rated game in a changed event the previous publish had."""
    missing_players: frozenset[int] = frozenset()
    """Players whose page or JSON is not in the folder."""
    missing_events: frozenset[int] = frozenset()
    missing_lists: frozenset[int] = frozenset()
    """Period ids one of whose list files is not in the folder."""


def decide(
    old: dict[str, Any],
    build: str,
    periods: Sequence[data.SitePeriod],
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
    new_bits: dict[int, int],
    window: int,
) -> PlanChanges:
    """What changed since the previous publish, whose manifest is ``old`` (empty: none)."""
    old_periods = old.get("periods")
    old_players = old.get("players")
    old_events = old.get("events")
    if (
        not _comparable(old, build, periods)
        or not isinstance(old_periods, list)
        or not isinstance(old_players, dict)
        or not isinstance(old_events, dict)
    ):
        return _EVERYTHING
    dirty = {
        p.id
        for i, p in enumerate(periods)
        if i >= len(old_periods) or old_periods[i][1] != period_key(p)
    }
    if 2 * len(dirty) > len(periods):
        return _EVERYTHING  # most of the history was re-rated: read it all in one pass
    changed = {
        pid for pid, p in register.items() if _old_fp(old_players, pid) != player_fingerprint(p)
    }
    known = {pid for pid in changed if str(pid) in old_players}  # changed, not new
    changed_events = {
        eid for eid, e in events.items() if old_events.get(str(eid)) != event_fingerprint(e)
    }
    starts = [p.start for p in periods if p.id in dirty]
    return PlanChanges(
        False,
        dirty=frozenset(dirty),
        players=frozenset(changed | _showing(periods, dirty, new_bits, old_players)),
        known=frozenset(known),
        events=frozenset(changed_events | _rated_in(events, starts)),
        old_events=frozenset(eid for eid in changed_events if str(eid) in old_events),
        lists=frozenset(_lists(periods, len(old_periods), dirty, window, bool(known))),
    )


def _comparable(old: dict[str, Any], build: str, periods: Sequence[data.SitePeriod]) -> bool:
    """Whether the previous publish was made by this build, of the same lists (the newest
    may have been added since)."""
    old_periods = old.get("periods")
    labels = [p.label for p in periods]
    return (
        old.get("build") == build
        and isinstance(old_periods, list)
        and all(isinstance(x, list) and len(x) == 2 for x in old_periods)
        and labels[: len(old_periods)] == [label for label, _ in old_periods]
    )


def _showing(
    periods: Sequence[data.SitePeriod],
    dirty: set[int],
    new_bits: dict[int, int],
    old_players: dict[str, Any],
) -> set[int]:
    """The players whose page shows a dirty period: now (``new_bits``) or in the previous
    publish (the manifest's bitmaps)."""
    dirty_mask = sum(1 << i for i, p in enumerate(periods) if p.id in dirty)
    players = {pid for pid, bits in new_bits.items() if bits & dirty_mask}
    for key, entry in old_players.items():
        if isinstance(entry, list) and len(entry) == 2 and int(entry[1], 16) & dirty_mask:
            players.add(int(key))
    return players


def _lists(
    periods: Sequence[data.SitePeriod], published: int, dirty: set[int], window: int, known: bool
) -> set[int]:
    """The lists to render: the dirty ones and those their change reaches; every list when
    a player the previous publish had changed (``known``: every list names him)."""
    if known:
        return {p.id for p in periods}
    index = {p.id: i for i, p in enumerate(periods)}
    # the top lists' improvers compare a list with one 12 lists earlier: a re-rated period
    # re-rates every later one, so the later list is dirty too (nothing more to add)
    lists = set(dirty)
    for pid in dirty:
        lists.update(p.id for p in periods[index[pid] : index[pid] + window])
    for i in range(max(1, published), len(periods)):  # a new list: "next list" before it
        lists.add(periods[i - 1].id)
    pending = next((i for i, p in enumerate(periods) if p.status == "needs_rerate"), None)
    if pending is not None:  # every list from there on says it may still change
        lists.update(p.id for p in periods[pending:])
    return lists


def read_facts(
    session: Session,
    out: SiteFolder,
    changes: PlanChanges,
    periods: Sequence[data.SitePeriod],
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
    time_control: str = "standard",
) -> PlanFacts:
    """The facts ``changes`` need: four set-based reads (each skipped when it has nothing
    to ask about) and the files missing from the folder. A full publish needs none."""
    if changes.full:
        return PlanFacts()
    return PlanFacts(
        in_dirty=_read(
            changes.dirty, lambda ids: data.players_in_periods(session, ids, time_control)
        ),
        opponents=_read(changes.known, lambda ids: data.opponents_of(session, ids, time_control)),
        events_of_known=_read(changes.known, lambda ids: data.events_of_players(session, ids)),
        players_of_old_events=_read(
            changes.old_events, lambda ids: data.players_of_events(session, ids)
        ),
        missing_players=frozenset(
            pid
            for pid in register
            if not (out.exists(f"players/{pid}.html") and out.exists(f"players/{pid}.json"))
        ),
        missing_events=frozenset(eid for eid in events if not out.exists(f"events/{eid}.html")),
        missing_lists=frozenset(
            p.id
            for p in periods
            if not all(out.exists(f"lists/{p.label}{ext}") for ext in _LIST_FILES)
        ),
    )


def _read(ids: frozenset[int], query: Callable[[frozenset[int]], set[int]]) -> frozenset[int]:
    """``query`` of ``ids``; nothing asked of the database when there are none."""
    return frozenset(query(ids)) if ids else frozenset()


def assemble(
    changes: PlanChanges,
    facts: PlanFacts,
    periods: Sequence[data.SitePeriod],
    register: dict[int, data.SitePlayer],
    events: dict[int, data.SiteEvent],
) -> Plan:
    """The plan from what changed and the facts read for it: the pages a change reaches
    through the games, and every page whose files are missing, of the players and events
    this site has."""
    if changes.full:
        return Plan(True, {p.id for p in periods}, set(register), set(events), set())
    players = (
        changes.players
        | facts.in_dirty
        | facts.opponents
        | facts.players_of_old_events
        | facts.missing_players
    )
    event_ids = changes.events | (facts.events_of_known & set(events)) | facts.missing_events
    return Plan(
        False,
        set(changes.lists | facts.missing_lists),
        set(players & set(register)),
        set(event_ids),
        set(changes.dirty),
    )


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
