"""The incremental plan's decisions on plain data: what changed since the previous publish
(:func:`ratings.site.plan.decide`) and the plan it makes with the facts read for it
(:func:`ratings.site.plan.assemble`), with no database and no folder."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from ratings.service.reading.publish import SiteEvent, SitePeriod, SitePlayer
from ratings.site.plan import (
    PlanChanges,
    PlanFacts,
    assemble,
    decide,
    event_fingerprint,
    period_key,
    player_fingerprint,
)

BUILD = "build-1"
WINDOW = 3


def _periods(count: int = 8) -> list[SitePeriod]:
    periods = []
    for i in range(count):
        start = dt.date(2024 + i // 12, i % 12 + 1, 1)
        end = dt.date(start.year + start.month // 12, start.month % 12 + 1, 1)
        end -= dt.timedelta(days=1)
        periods.append(
            SitePeriod(100 + i, f"{start:%Y-%m}", start, end, end, "published", f"stamp {i}")
        )
    return periods


def _player(pid: int, name: str) -> SitePlayer:
    return SitePlayer(pid, name, None, None, None, None, None, False, None, None)


def _event(eid: int, period: SitePeriod) -> SiteEvent:
    return SiteEvent(
        eid, f"Event {eid}", period.start, period.start, rated_from=period.start,
        rated_to=period.start,
    )  # fmt: skip


def _manifest(
    periods: list[SitePeriod],
    register: dict[int, SitePlayer],
    events: dict[int, SiteEvent],
    bits: dict[int, int] | None = None,
) -> dict[str, Any]:
    """The manifest a publish of these records would have left."""
    bits = bits or {}
    return {
        "build": BUILD,
        "periods": [[p.label, period_key(p)] for p in periods],
        "players": {
            str(pid): [player_fingerprint(p), f"{bits.get(pid, 0):x}"]
            for pid, p in register.items()
        },
        "events": {str(eid): event_fingerprint(e) for eid, e in events.items()},
    }


def _records() -> tuple[list[SitePeriod], dict[int, SitePlayer], dict[int, SiteEvent]]:
    periods = _periods()
    register = {1: _player(1, "Ames, Ann"), 2: _player(2, "Bell, Bob"), 3: _player(3, "Cole, Cy")}
    events = {10: _event(10, periods[2]), 11: _event(11, periods[5])}
    return periods, register, events


def test_nothing_changed_decides_nothing() -> None:
    periods, register, events = _records()
    old = _manifest(periods, register, events)
    changes = decide(old, BUILD, periods, register, events, {}, WINDOW)
    assert changes == PlanChanges(False)


def test_a_new_build_or_no_manifest_rebuilds_everything() -> None:
    periods, register, events = _records()
    old = _manifest(periods, register, events)
    assert decide(old, "build-2", periods, register, events, {}, WINDOW).full
    assert decide({}, BUILD, periods, register, events, {}, WINDOW).full
    renamed = [dataclasses.replace(periods[0], label="2023-12"), *periods[1:]]
    assert decide(old, BUILD, renamed, register, events, {}, WINDOW).full


def test_most_of_the_history_re_rated_rebuilds_everything() -> None:
    periods, register, events = _records()
    old = _manifest(periods, register, events)
    rerated = [
        dataclasses.replace(p, stamp="again") if i >= 3 else p for i, p in enumerate(periods)
    ]
    assert decide(old, BUILD, rerated, register, events, {}, WINDOW).full


def test_a_re_rated_period_makes_the_later_lists_in_the_window_dirty() -> None:
    periods, register, events = _records()
    old = _manifest(periods, register, events, bits={2: 1 << 4})
    rerated = list(periods)
    rerated[4] = dataclasses.replace(periods[4], stamp="re-rated")
    changes = decide(old, BUILD, rerated, register, events, {3: 1 << 4}, WINDOW)
    assert not changes.full
    assert changes.dirty == {104}
    assert changes.lists == {104, 105, 106}  # the window: the period and the two after it
    assert changes.players == {2, 3}  # the period showed on 2's page, and shows on 3's now
    assert changes.known == set()
    assert changes.events == set()  # no event is rated in that period


def test_a_new_list_renders_the_list_before_it_and_the_events_it_rates() -> None:
    periods, register, events = _records()
    old = _manifest(periods[:-1], register, events)
    events = {**events, 12: _event(12, periods[-1])}
    changes = decide(old, BUILD, periods, register, events, {}, WINDOW)
    assert changes.dirty == {107}
    assert changes.lists == {106, 107}
    assert changes.events == {12}
    assert changes.old_events == set()  # new: no page of the previous publish names it


def test_a_changed_known_player_pulls_in_every_list_and_his_opponents() -> None:
    periods, register, events = _records()
    old = _manifest(periods, register, events)
    register = {**register, 2: _player(2, "Bell, Robert"), 4: _player(4, "Dunn, Di")}
    changes = decide(old, BUILD, periods, register, events, {}, WINDOW)
    assert changes.players == {2, 4}
    assert changes.known == {2}  # changed, and not new: the facts read his opponents, events
    assert changes.lists == {p.id for p in periods}  # every list names him
    facts = PlanFacts(opponents=frozenset({1, 99}), events_of_known=frozenset({10, 50}))
    plan = assemble(changes, facts, periods, register, events)
    assert not plan.full
    assert plan.players == {1, 2, 4}  # an opponent no longer in the register is left out
    assert plan.events == {10}  # an event of another list is left out


def test_a_changed_event_pulls_in_its_players_and_missing_files_are_written() -> None:
    periods, register, events = _records()
    old = _manifest(periods, register, events)
    events = {**events, 11: dataclasses.replace(events[11], name="Spring Open")}
    changes = decide(old, BUILD, periods, register, events, {}, WINDOW)
    assert changes.events == {11}
    assert changes.old_events == {11}
    facts = PlanFacts(
        players_of_old_events=frozenset({1}),
        missing_players=frozenset({3}),
        missing_events=frozenset({10}),
        missing_lists=frozenset({100}),
    )
    plan = assemble(changes, facts, periods, register, events)
    assert (plan.lists, plan.players, plan.events, plan.dirty) == ({100}, {1, 3}, {10, 11}, set())


def test_a_full_plan_renders_everything() -> None:
    periods, register, events = _records()
    plan = assemble(PlanChanges(True), PlanFacts(), periods, register, events)
    assert plan.full
    assert plan.lists == {p.id for p in periods}
    assert (plan.players, plan.events, plan.dirty) == (set(register), set(events), set())
