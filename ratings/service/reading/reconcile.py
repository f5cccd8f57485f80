"""``ratings reconcile``: FIDE's list against ours, each difference explained
(docs/DESIGN.md#fides-list-explained).

For every player with a FIDE id in the register and on FIDE's list (:mod:`ratings.io.fide_list`
reads it), our published row on the list of the same date is compared with FIDE's: the
rating, the change and the games of the period. Each player whose numbers differ is put into
the first class that explains it, with its evidence:

1. **FIDE rated games we do not hold**: FIDE counts more games in the period than we rated;
2. **we rated games FIDE did not**: we rated more (an event not reported to FIDE, or
   reported to a later list), the events named;
3. **a different start rating**: our rating before the period is not FIDE's previous rating
   (``--previous``: FIDE's list before; a base corrected on one side);
4. **per-event rounding**: FIDE's change is the sum of each event's change rounded on its
   own (K x each event's sum of dR), ours the period's sum rounded once (art. 8.3.4);
5. **a K difference**: FIDE's change is another K times our sum of dR, rounded (art. 8.3.3,
   8.3.4; FIDE's K for the period from its previous list first, then 10, 15, 20, 30, 40);
6. **unexplained**.

Without FIDE's previous list, FIDE's change is taken as its rating minus our rating before
(a start rating that differs cannot then be told from the rest). The arithmetic is exact:
the breakdown's integers and :func:`ratings.rules.divide_half_away`.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import InputFileError, PeriodError
from ratings.io.fide_list import FideRating, open_fide_list
from ratings.models import RatingPeriod
from ratings.service.shared.sql import fetch_all
from ratings.service.shared.text import list_name

__all__ = ["DifferenceClass", "FideDifference", "ReconcileReport", "reconcile"]


class DifferenceClass(enum.Enum):
    """Why our list and FIDE's differ for a player, in the order they are tried."""

    FIDE_GAMES = "fide_rated_games_we_do_not_hold"
    OUR_GAMES = "we_rated_games_fide_did_not"
    START = "different_start_rating"
    ROUNDING = "per_event_rounding"
    K = "k_difference"
    UNEXPLAINED = "unexplained"

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    DifferenceClass.FIDE_GAMES: "FIDE rated games we do not hold",
    DifferenceClass.OUR_GAMES: "we rated games FIDE did not",
    DifferenceClass.START: "a different start rating",
    DifferenceClass.K: "a K difference",
    DifferenceClass.ROUNDING: "per-event rounding",
    DifferenceClass.UNEXPLAINED: "unexplained",
}


@dataclass(frozen=True, slots=True)
class FideDifference:
    """One player whose numbers differ from FIDE's."""

    fide_id: int
    player_id: int
    name: str
    ours: tuple[int | None, int | None, int]
    """Our rating, change and games of the period."""
    fide: tuple[int | None, int | None, int]
    """FIDE's rating, change (None: not known) and games."""
    cls: DifferenceClass
    evidence: str


@dataclass(frozen=True, slots=True)
class ReconcileReport:
    """What a reconciliation compared and found."""

    list_date: dt.date
    period: str
    """Our rating period whose list has that date."""
    time_control: str
    compared: int
    """Players with a FIDE id on both lists."""
    agree: int
    differences: tuple[FideDifference, ...]
    only_ours: int
    """Players with a FIDE id on our list whom FIDE's file does not hold."""

    @property
    def counts(self) -> dict[DifferenceClass, int]:
        """How many differences each class explains (every class, in order)."""
        counts = dict.fromkeys(DifferenceClass, 0)
        for d in self.differences:
            counts[d.cls] += 1
        return counts


def _fide_list(
    path: Path, wanted: Iterable[int], tc: str, month: dt.date | None
) -> tuple[dict[int, FideRating], dt.date | None]:
    """FIDE's entries of the players ``wanted`` on the list ``tc``, and the month the file
    names (None: it names none)."""
    kind = rules.time_control(tc)
    ids = set(wanted)
    found: dict[int, FideRating] = {}
    with open_fide_list(path) as fide:
        for player in fide:
            if player.fide_id in ids:
                entry = player.rating_of(kind)
                if entry is not None:
                    found[player.fide_id] = entry
        if kind not in fide.kinds:
            raise InputFileError(fide.filename, None, f"this list holds no {tc} ratings")
        named = fide.list_month
    if named is not None and month is not None and named != month:
        raise InputFileError(
            str(path), None, f"the file is FIDE's list of {named:%Y-%m}, not {month:%Y-%m}"
        )
    return found, named


def reconcile(
    session: Session,
    path: Path,
    month: str,
    *,
    previous: Path | None = None,
    time_control: str = "standard",
) -> ReconcileReport:
    """Compare FIDE's list of ``month`` (``YYYY-MM``: the list dated its first day) in
    ``path`` with our list of that date, and explain each difference (module docstring).
    ``previous``: FIDE's list before it, for FIDE's change and start rating.

    :raises PeriodError: we published no list of that date.
    :raises InputFileError: a file that is not a FIDE list of that list type and month.
    """
    tc = list_name(time_control)
    try:
        list_date = dt.date.fromisoformat(f"{month.strip()}-01")
    except ValueError:
        raise PeriodError(f"month must be written yyyy-mm: {month!r}") from None
    found = session.execute(
        sa.select(RatingPeriod.id, RatingPeriod.label).where(RatingPeriod.list_date == list_date)
    ).first()
    if found is None:
        raise PeriodError(
            f"no list of ours is dated {list_date.isoformat()}: rate the period before it "
            "first ('ratings list --all' shows the lists)"
        )
    period_id, label = found
    ours = fetch_all(
        session,
        "SELECT p.id, p.fide_id, p.name, h.rating_before, h.rating_after, h.change, "
        "h.period_games, h.k_used, h.list_status FROM rating_history h JOIN players p ON "
        f"p.id = h.player_id WHERE h.period_id = {int(period_id)} AND h.time_control = '{tc}' "
        "AND p.fide_id IS NOT NULL AND p.merged_into_id IS NULL ORDER BY p.name, p.id",
    )
    fide, _ = _fide_list(path, (int(r[1]) for r in ours), tc, list_date)
    before: dict[int, FideRating] = {}
    if previous is not None:
        before, _ = _fide_list(previous, fide, tc, _previous_month(list_date))
    breakdown = _breakdown(session, int(period_id), tc)
    events = _event_names(session, int(period_id), tc)
    differences: list[FideDifference] = []
    agree = 0
    for pid, fide_id, name, r_before, r_after, change, games, k, status in ours:
        entry = fide.get(int(fide_id))
        if entry is None:
            continue
        previous_entry = before.get(int(fide_id))
        fide_before = None if previous is None else (
            None if previous_entry is None else previous_entry.rating
        )  # fmt: skip
        ours_change = None if status in ("first_rating", "unrated") else int(change)
        fide_change = _change(entry.rating, fide_before if previous is not None else r_before)
        mine = (r_after, ours_change, int(games))
        theirs = (entry.rating, fide_change, entry.period_games)
        if r_after == entry.rating and int(games) == entry.period_games:
            agree += 1
            continue
        cls, evidence = _explain(
            mine, theirs, r_before, fide_before, previous is not None, k,
            previous_entry.next_k if previous_entry is not None else None,
            breakdown.get(int(pid), {}), events.get(int(pid), ()),
        )  # fmt: skip
        differences.append(
            FideDifference(int(fide_id), int(pid), str(name), mine, theirs, cls, evidence)
        )
    return ReconcileReport(
        list_date, str(label), tc, agree + len(differences), agree, tuple(differences),
        sum(1 for r in ours if int(r[1]) not in fide),
    )  # fmt: skip


def _previous_month(day: dt.date) -> dt.date:
    """The first day of the month before ``day``'s (FIDE's lists are monthly)."""
    return (day.replace(day=1) - dt.timedelta(days=1)).replace(day=1)


def _change(after: int | None, before: int | None) -> int | None:
    return None if after is None or before is None else after - before


def _breakdown(session: Session, period_id: int, tc: str) -> dict[int, dict[int, list[int]]]:
    """Each player's sum of dR per event of the period (and the unit and K): player -> event
    -> [sum of dR, units per point, K]."""
    out: dict[int, dict[int, list[int]]] = {}
    for pid, eid, dr, unit, k in fetch_all(
        session,
        "SELECT b.player_id, g.event_id, b.dr_units, b.units_per_point, b.k_used FROM "
        "rating_breakdown b JOIN games g ON g.id = b.game_id JOIN events e ON e.id = "
        f"g.event_id WHERE b.period_id = {period_id} AND e.time_control = '{tc}' AND "
        "b.counts_for = 'change'",
    ):
        slot = out.setdefault(int(pid), {}).setdefault(int(eid), [0, int(unit), int(k)])
        slot[0] += int(dr)
    return out


def _event_names(session: Session, period_id: int, tc: str) -> dict[int, tuple[str, ...]]:
    """The events each player's rated games of the period belong to, by name."""
    out: dict[int, list[str]] = {}
    for pid, name, n in fetch_all(
        session,
        "SELECT b.player_id, e.name, count(*) FROM rating_breakdown b JOIN games g ON g.id = "
        f"b.game_id JOIN events e ON e.id = g.event_id WHERE b.period_id = {period_id} AND "
        f"e.time_control = '{tc}' GROUP BY b.player_id, e.id, e.name ORDER BY e.id",
    ):
        out.setdefault(int(pid), []).append(f"{name} ({n} game{'s' if n != 1 else ''})")
    return {pid: tuple(names) for pid, names in out.items()}


def _explain(
    mine: tuple[int | None, int | None, int],
    theirs: tuple[int | None, int | None, int],
    our_before: int | None,
    fide_before: int | None,
    have_previous: bool,
    our_k: int | None,
    fide_k: int | None,
    by_event: Mapping[int, list[int]],
    events: tuple[str, ...],
) -> tuple[DifferenceClass, str]:
    """The first class that explains the difference, and its evidence."""
    _, our_change, our_games = mine
    fide_rating, fide_change, fide_games = theirs
    if fide_games > our_games:
        return DifferenceClass.FIDE_GAMES, (
            f"FIDE rated {fide_games} games in the period, we hold {our_games}: "
            f"{fide_games - our_games} rated elsewhere, in an event not in this database"
        )
    if our_games > fide_games:
        where = "; ".join(events) or "no event"
        return DifferenceClass.OUR_GAMES, (
            f"we rated {our_games} games ({where}), FIDE {fide_games}: an event not reported "
            "to FIDE, or reported to a later list"
        )
    if have_previous and our_before != fide_before:
        return DifferenceClass.START, (
            f"we started from {_shown(our_before)}, FIDE from {_shown(fide_before)}: a base "
            "corrected on one side; the change "
            + ("is the same" if our_change == fide_change else "differs too")
        )
    if fide_change is None or our_change is None or not by_event:
        return DifferenceClass.UNEXPLAINED, (
            f"our rating {_shown(mine[0])}, FIDE's {_shown(fide_rating)}, with the same "
            f"{our_games} games"
        )
    unit = next(iter(by_event.values()))[1]
    total = sum(slot[0] for slot in by_event.values())
    k = our_k or 0
    per_event = [rules.divide_half_away(k * slot[0], unit) for slot in by_event.values()]
    if len(per_event) > 1 and sum(per_event) == fide_change:
        parts = " ".join(f"{c:+d}" for c in per_event)
        return DifferenceClass.ROUNDING, (
            f"FIDE's change {fide_change:+d} is each event's change rounded on its own "
            f"({parts}); ours, the period's K x sum of dR rounded once, {our_change:+d}"
        )
    candidates = [c for c in (fide_k, 10, 15, 20, 30, 40) if c is not None and c != our_k]
    for candidate in dict.fromkeys(candidates):
        used = rules.apply_700_rule(candidate, our_games)
        if rules.divide_half_away(used * total, unit) == fide_change:
            return DifferenceClass.K, (
                f"FIDE's change {fide_change:+d} is K {used} x the sum of dR "
                f"({_dr(total, unit)}), rounded; we used K {our_k} ({our_change:+d})"
            )
    return DifferenceClass.UNEXPLAINED, (
        f"our change {our_change:+d} (K {our_k}, sum of dR {_dr(total, unit)}), FIDE's "
        f"{fide_change:+d}, with the same {our_games} games"
        + ("" if have_previous else " and, taken as ours, the same start rating")
    )


def _shown(value: int | None) -> str:
    return "unrated" if value is None else str(value)


def _dr(units: int, unit: int) -> str:
    """An exact sum of dR in points (hundredths, or the curve's nine places)."""
    places = len(str(unit)) - 1
    sign = "-" if units < 0 else "+"
    whole, part = divmod(abs(units), unit)
    return f"{sign}{whole}.{part:0{places}d}"
