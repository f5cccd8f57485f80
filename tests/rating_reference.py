"""A slow, obviously correct reference for rating whole histories, written from docs/RULES.md and
the FIDE Rating Regulations, independent of ``ratings.rules`` (the differential tests compare
the engine and the service with it).

Everything is plain loops over plain data with exact arithmetic: :class:`~fractions.Fraction`
for the table method, 60-digit :class:`~decimal.Decimal` for the curve (no intermediate
rounding anywhere: each period's change is K x sum(S - E), rounded once, half away from zero,
art. 8.3.4). The FIDE tables are transcribed again here from the regulations (docs/RULES.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

# table 8.1.2 (docs/RULES.md#table-812-d-to-pd): (upper bound of D, PD of the higher rated
# player in hundredths)
TABLE_8_1_2 = [
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66),
    (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74),
    (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82),
    (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90),
    (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98),
    (735, 99),
]  # fmt: skip

# table 8.1.1 (docs/RULES.md#table-811-p-to-dp): dp for p = 0 .. 100 percent
_SPEC_1_10 = """
-800 -677 -589 -538 -501 -470 -444 -422 -401 -383 -366 -351 -336 -322 -309 -296 -284 -273 -262
-251 -240 -230 -220 -211 -202 -193 -184 -175 -166 -158 -149 -141 -133 -125 -117 -110 -102 -95 -87
-80 -72 -65 -57 -50 -43 -36 -29 -21 -14 -7 0 7 14 21 29 36 43 50 57 65 72 80 87 95 102 110 117
125 133 141 149 158 166 175 184 193 202 211 220 230 240 251 262 273 284 296 309 322 336 351 366
383 401 422 444 470 501 538 589 677 800
"""
TABLE_8_1_1 = [int(x) for x in _SPEC_1_10.split()]
assert len(TABLE_8_1_1) == 101

EXEMPT_FROM = dt.date(2025, 10, 1)
"""From this event start date, players rated 2650 or more are not capped (art. 8.3.1)."""


@dataclass(frozen=True)
class Player:
    """A registered player, as entered."""

    pid: int
    rating: int | None
    games: int = 0
    birth_year: int | None = None
    k10: bool = False


@dataclass(frozen=True)
class Game:
    """A rateable game; events take their dates from their games (first and last day)."""

    gid: int
    event: int
    played_on: dt.date
    white: int
    black: int
    white_score: Fraction


@dataclass(frozen=True)
class Entry:
    """A player's entry on one published list."""

    rating_before: int | None
    rating: int | None
    change: int
    k: int | None
    games: int
    total_games: int
    status: str
    """listed, first_rating, unrated or below_floor."""
    score_half_points: int = 0
    """The period's score over the games that counted, in half points."""
    pd_sum_units: int = 0
    """The sum of PD over the rated games, in the method's units (hundredths, or 10^-9)."""
    units_per_point: int = 100
    k10: bool = False
    """The permanent K 10 flag after the list."""
    reached_2300: bool = False
    next_k: int | None = None
    """The K of the next period, before the 700 rule (None: unrated)."""
    inactive: bool = False
    """Rated, with no game counted in the 12 months up to the list."""
    last_active: dt.date | None = None
    """The first day of the last period with a game that counted, or of the first listed."""


Line = tuple[int, int, int, int | None, int, int | None, int, int | None, int | None, int,
             int | None, str]  # fmt: skip
"""A breakdown line: game, player, opponent, own rating, opponent rating, D, S in half points,
PD and dR in units, units per point, K, what it counts for."""


def pd_units(diff: int, curve: bool) -> int:
    """A game's PD in exact units: table 8.1.2 in hundredths, or the curve's E to nine places
    (half up; the lower rated player gets the rest of the point)."""
    if not curve:
        return int(table_pd(diff) * 100)

    def higher(d: int) -> int:
        with localcontext() as ctx:
            ctx.prec = 60
            return int((curve_e(d) * 10**9).quantize(Decimal(1), rounding=ROUND_HALF_UP))

    return higher(diff) if diff >= 0 else 10**9 - higher(-diff)


@dataclass(frozen=True)
class System:
    """fide, club or elo with their settings (docs/RULES.md#rating-systems)."""

    name: str
    k: int | None = None
    start_rating: int | None = None
    curve: bool = False
    months: int = 1


def round_half_away(x: Fraction | Decimal) -> int:
    """Nearest integer, halves away from zero (art. 8.3.4)."""
    sign = -1 if x < 0 else 1
    a = abs(Fraction(x))
    whole = a.numerator // a.denominator
    return sign * (whole + (1 if a - whole >= Fraction(1, 2) else 0))


def table_pd(diff: int) -> Fraction:
    """Table 8.1.2 for a signed difference own - opp."""
    pd = next((pd for upper, pd in TABLE_8_1_2 if abs(diff) <= upper), 100)
    return Fraction(pd if diff >= 0 else 100 - pd, 100)


def curve_e(diff: int) -> Decimal:
    """The logistic curve, 60 significant digits, not rounded to any number of places."""
    with localcontext() as ctx:
        ctx.prec = 60
        return 1 / (1 + Decimal(10) ** (Decimal(-diff) / 400))


def period_of(day: dt.date, months: int) -> dt.date:
    """First day of the period holding ``day``."""
    return dt.date(day.year, (day.month - 1) // months * months + 1, 1)


def add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def k_rule(rating: int, games: int, birth_year: int | None, k10: bool, r2300: bool,
           year: int) -> int:  # fmt: skip
    """Art. 8.3.3, in its order of precedence."""
    if k10 or rating >= 2400:
        return 10
    if birth_year is not None and year - birth_year <= 18 and not (r2300 or rating >= 2300):
        return 40
    if games < 30:
        return 40
    return 20


def first_rating(pool: Sequence[tuple[int, Fraction]]) -> int | None:
    """Art. 8.2 with two fictitious draws against 1800; None under 5 games."""
    n = len(pool)
    if n < 5:
        return None
    ra = Fraction(sum(r for r, _ in pool) + 2 * 1800, n + 2)
    p = round_half_away(Fraction(sum(s for _, s in pool) + 1, n + 2) * 100)
    return min(round_half_away(ra + TABLE_8_1_1[p]), 2200)


def rate_history(
    system: System,
    players: Sequence[Player],
    games: Sequence[Game],
    through: dt.date | None = None,
    breakdown: dict[dt.date, list[Line]] | None = None,
) -> dict[dt.date, dict[int, Entry]]:
    """Every list from the first game's period to ``through`` (a period's first day), keyed by
    the period's first day; ``breakdown``, if given, gets every period's breakdown lines."""
    months = system.months
    fide = system.name == "fide"
    events: dict[int, list[dt.date]] = {}
    for g in games:
        events.setdefault(g.event, []).append(g.played_on)
    start = {e: min(days) for e, days in events.items()}
    end = {e: max(days) for e, days in events.items()}
    first = period_of(min(end.values()), months)
    last = through or period_of(max(end.values()), months)

    # the first event each player ever played (by start date, then id), among all games
    first_event: dict[int, int] = {}
    for g in sorted(games, key=lambda g: (start[g.event], g.event)):
        for pid in (g.white, g.black):
            first_event.setdefault(pid, g.event)

    rating = {p.pid: p.rating for p in players}
    total = {p.pid: p.games for p in players}
    k10 = {p.pid: p.k10 or (p.rating or 0) >= 2400 for p in players}
    r2300 = {p.pid: (p.rating or 0) >= 2300 for p in players}
    birth = {p.pid: p.birth_year for p in players}
    pools: dict[int, list[tuple[dt.date, int, int, Fraction]]] = {p.pid: [] for p in players}
    lists: dict[dt.date, dict[int, int | None]] = {}
    entry_list = dict(rating)
    published: dict[dt.date, dict[int, Entry]] = {}
    pool_periods = max(26 // months, 1)
    unit = 10**9 if system.curve else 100
    last_active: dict[int, dt.date] = {}

    period = first
    while period <= last:
        lists[period] = dict(rating)
        tally: dict[int, list[tuple[int, int, Fraction, dt.date]]] = {}
        pooled: dict[int, list[tuple[dt.date, int, int, Fraction]]] = {}
        lines: dict[int, list[tuple[int, int, int | None, int, Fraction]]] = {}
        period_lines: list[Line] = []
        for g in sorted(games, key=lambda g: g.gid):
            if period_of(end[g.event], months) != period:
                continue
            day = start[g.event]
            on_list = lists.get(period_of(day, months), entry_list)
            for me, opp, score in ((g.white, g.black, g.white_score),
                                   (g.black, g.white, 1 - g.white_score)):  # fmt: skip
                sides = (g.gid, opp)
                opp_used = on_list.get(opp)
                mine = rating[me]
                if not fide:
                    if opp_used is None:
                        opp_used = rating[opp] if rating[opp] is not None else system.start_rating
                    if mine is None:
                        mine = system.start_rating
                if opp_used is None:
                    continue
                if mine is None:
                    pooled.setdefault(me, []).append((period, g.event, opp_used, score))
                    lines.setdefault(me, []).append((*sides, None, opp_used, score))
                    continue
                own_used = on_list.get(me)
                if own_used is None:
                    own_used = mine
                tally.setdefault(me, []).append((own_used, opp_used, score, day))
                lines.setdefault(me, []).append((*sides, own_used, opp_used, score))
        cutoff = period
        for _ in range(pool_periods - 1):
            cutoff = add_months(cutoff, -months)
        entries: dict[int, Entry] = {}
        for p in players:
            pid = p.pid
            before = rating[pid]
            after = before
            change, k_used, n, halves, pd_sum = 0, None, 0, 0, 0
            status = "listed" if before is not None else "unrated"
            if pid in tally:
                n = len(tally[pid])
                base = before if before is not None else system.start_rating
                assert base is not None
                if system.k is not None:
                    k = system.k
                else:  # an unrated newcomer (club) has no rating to count for K
                    k = k_rule(before or 0, total[pid], birth[pid], k10[pid], r2300[pid],
                               period.year)  # fmt: skip
                if system.name != "elo" and k * n > 700:
                    k = 700 // n
                k_used = k
                curve_dr = Decimal(0)  # the curve's sum of score - E, to 60 digits
                table_dr = Fraction(0)  # table 8.1.2's, exact
                for (own, opp, score, day), line in zip(tally[pid], lines[pid], strict=True):
                    d = own - opp
                    capped = system.name != "elo" and (day < EXEMPT_FROM or own < 2650)
                    if capped:
                        d = max(-400, min(400, d))
                    pd = pd_units(d, system.curve)
                    s2 = int(score * 2)
                    halves += s2
                    pd_sum += pd
                    period_lines.append(
                        (line[0], pid, line[1], own, opp, d, s2, pd, s2 * unit // 2 - pd, unit,
                         k, "change")
                    )  # fmt: skip
                    if system.curve:
                        with localcontext() as ctx:
                            ctx.prec = 60
                            curve_dr += Decimal(score.numerator) / score.denominator - curve_e(d)
                    else:
                        table_dr += score - table_pd(d)
                change = round_half_away(k * (curve_dr if system.curve else table_dr))
                after = base + change
                if before is None:
                    status = "first_rating"
                if fide and after < 1400:
                    after, status = None, "below_floor"
            elif pid in pooled:
                n = len(pooled[pid])
                for game_id, opp_id, _own, opp, score in lines[pid]:
                    halves += int(score * 2)
                    period_lines.append(
                        (game_id, pid, opp_id, None, opp, None, int(score * 2), None, None, unit,
                         None, "first_rating")
                    )  # fmt: skip
                pool = [x for x in pools[pid] if x[0] >= cutoff] + pooled[pid]
                pools[pid] = pool
                by_event: dict[int, list[tuple[int, Fraction]]] = {}
                for _, event, opp, score in pool:
                    by_event.setdefault(event, []).append((opp, score))
                if first_event.get(pid) in by_event and not any(
                    s for _, s in by_event[first_event[pid]]
                ):
                    del by_event[first_event[pid]]
                ru = first_rating([x for xs in by_event.values() for x in xs])
                if ru is not None and ru >= 1400:
                    after, status = ru, "first_rating"
            total[pid] += n
            if after is not None:
                k10[pid] = k10[pid] or after >= 2400
                r2300[pid] = r2300[pid] or after >= 2300
                pools[pid] = []
            rating[pid] = after
            counted = pid in tally or pid in pooled
            if counted or pid not in last_active:
                last_active[pid] = period
            inactive = (
                not counted
                and before is not None
                and last_active[pid] < add_months(period, months - 12)
            )
            next_k = None
            if after is not None:
                next_k = system.k or k_rule(
                    after, total[pid], birth[pid], k10[pid], r2300[pid],
                    add_months(period, months).year,
                )  # fmt: skip
            entries[pid] = Entry(
                before, after, change, k_used, n, total[pid], status, halves, pd_sum, unit,
                k10[pid], r2300[pid], next_k, inactive, last_active[pid],
            )  # fmt: skip
        published[period] = entries
        if breakdown is not None:
            breakdown[period] = period_lines
        period = add_months(period, months)
    return published
