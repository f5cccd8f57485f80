"""An event's crosstable: players ranked by score and the tie-breaks of the event's system
(:mod:`ratings.tiebreaks`), results by round, score, the tie-breaks' values, the
rating each player's games used, the FIDE performance and the rating change from the event
(K x sum of dR, unrounded).

One function for every place that shows one: the website's event pages
(:mod:`ratings.site.render_events`) and ``ratings event show``. It takes what
:func:`ratings.service.reading.publish.event_data` reads (games, byes, breakdown rows) and answers
plain values; the callers format them (HTML, or text).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

import tiebreak_core

from ratings import rules, tiebreaks
from ratings.service.reading.publish import EventData, EventGame
from ratings.tiebreaks import BYE_HALF_POINTS

__all__ = ["CrossCell", "CrossRow", "Crosstable", "crosstable"]

_PLAYED = {2: "1", 1: "½", 0: "0"}
_FORFEIT = {2: "+", 1: "+", 0: "\N{MINUS SIGN}"}

RoundKey = tuple[int, int, str]
"""A column's sort key: numbered rounds (0, n, ""), then others by text (1, 0, text)."""


@dataclass(frozen=True, slots=True)
class CrossCell:
    """One result in a round: a game (``opponent_id`` set) or a bye (``opponent_id`` None)."""

    opponent_id: int | None
    """The opponent; None for a round without one."""
    opponent_rank: int | None
    """The opponent's rank in this table."""
    white: bool | None
    """The colour this player had; None for a bye."""
    mark: str
    """``1``, ``½``, ``0`` for a played game, ``+`` or a minus sign (U+2212) for a forfeit,
    the TRF code (``H``, ``F``, ``U``, ``Z``, ``+``, ``-``, ``?``) for a bye."""
    rated: bool
    """Whether the game went to rating (a bye never does)."""

    @property
    def text(self) -> str:
        """The cell as a crosstable prints it: ``3w1`` (opponent's rank, colour, result), or
        the bye's code."""
        if self.opponent_rank is None:
            return self.mark
        return f"{self.opponent_rank}{'w' if self.white else 'b'}{self.mark}"


@dataclass(frozen=True, slots=True)
class CrossRow:
    """One player's line."""

    rank: int
    player_id: int
    rating: int | None
    """The rating the player's rated games used (the list in force at the event's start),
    also when they were all against unrated opponents; None when unrated or without a
    rated game."""
    cells: tuple[tuple[CrossCell, ...], ...]
    """Per round (the table's ``rounds``): the results, usually one; none when absent."""
    score_half_points: int
    """Points from every game and bye, in half points."""
    performance: int | None
    """FIDE performance over the rated games (docs/RULES.md#performance-ratings); None without
    one."""
    k_dr_sum: Decimal | None
    """The rating change from this event: K x sum of dR over its rated games, unrounded (a
    period's ``change`` is rounded once, over all its games); None when they changed no
    rating (unrated player, or no rated game)."""
    tiebreak_values: tuple[Decimal, ...] = ()
    """The values of the table's tie-breaks that have one (:attr:`Crosstable.tiebreaks`)."""


@dataclass(frozen=True, slots=True)
class Crosstable:
    """An event's table."""

    rounds: tuple[str, ...]
    """Column titles: round names, or 1, 2, ... in date order when the games have none."""
    rows: tuple[CrossRow, ...]
    """Players by rank: score, then the tie-breaks, then the rating used, then name."""
    games: int
    """Games stored."""
    rated_games: int
    """Games that went to rating."""
    tiebreaks: tuple[tiebreaks.TieBreak, ...] = ()
    """What ranked players with the same score, in order (empty: the rating used, then the
    name)."""


def _round_key(text: str) -> RoundKey:
    """Rounds in their natural order: 1, 2, ..., 10, then others by text."""
    return (0, int(text), "") if text.isascii() and text.isdigit() else (1, 0, text)


def _round_title(key: RoundKey) -> str:
    return str(key[1]) if key[0] == 0 else str(key[2])


def _cell(g: EventGame, white: bool, opponent: int, opponent_rank: int) -> CrossCell:
    halves = g.result.white_half_points if white else g.result.black_half_points
    marks = _PLAYED if g.result.is_played else _FORFEIT
    return CrossCell(opponent, opponent_rank, white, marks[halves], g.rated)


def _sides(g: EventGame) -> tuple[tuple[int, int, bool], tuple[int, int, bool]]:
    """(player, opponent, white) for both sides of a game."""
    return (g.white_id, g.black_id, True), (g.black_id, g.white_id, False)


def _bye(code: str) -> CrossCell:
    return CrossCell(None, None, None, code, False)


def _ratings_against_unrated(ev: EventData, used: dict[int, int]) -> None:
    """Add to ``used`` the rating of each rated player whose rated games were all against
    unrated opponents: he has no breakdown row (they change no rating of his, docs/RULES.md),
    but each opponent's first-rating row holds the rating the game used for him."""
    sides = {g.id: (g.white_id, g.black_id) for g in ev.games}
    for r in ev.ratings:
        if r.own_rating is not None or r.game_id not in sides:
            continue
        white, black = sides[r.game_id]
        used.setdefault(black if r.player_id == white else white, r.opponent_rating)


def _rounds(ev: EventData) -> tuple[list[RoundKey], dict[int, dict[RoundKey, list[_Result]]]]:
    """The table's columns and each player's results in them: by the games' round names,
    or, when a game has none, each player's games (then byes) in date order."""
    entries: dict[int, dict[RoundKey, list[_Result]]] = {}

    def add(pid: int, key: RoundKey, entry: _Result) -> None:
        entries.setdefault(pid, {}).setdefault(key, []).append(entry)

    if all(g.round for g in ev.games):
        keys: set[RoundKey] = set()
        for g in ev.games:
            key = _round_key(g.round or "")
            keys.add(key)
            for pid, opp, white in _sides(g):
                add(pid, key, _Result(g, opp, white, None))
        for b in ev.byes:
            key = _round_key(b.round)
            keys.add(key)
            add(b.player_id, key, _Result(None, None, None, b.code))
        return sorted(keys), entries
    count: dict[int, int] = {}
    for g in sorted(ev.games, key=lambda g: (g.played_on, g.id)):
        for pid, opp, white in _sides(g):
            count[pid] = count.get(pid, 0) + 1
            add(pid, (0, count[pid], ""), _Result(g, opp, white, None))
    for b in ev.byes:
        count[b.player_id] = count.get(b.player_id, 0) + 1
        add(b.player_id, (0, count[b.player_id], ""), _Result(None, None, None, b.code))
    return [(0, n, "") for n in range(1, max(count.values(), default=0) + 1)], entries


@dataclass(frozen=True, slots=True)
class _Result:
    """One result of a player in a column: a game (from one side) or a bye."""

    game: EventGame | None
    opponent_id: int | None
    white: bool | None
    bye: str | None


def _ranking(
    ev: EventData,
    columns: list[RoundKey],
    entries: dict[int, dict[RoundKey, list[_Result]]],
    used: dict[int, int],
    fallback: list[int],
    start: dt.date | None,
    chosen: Sequence[tiebreaks.TieBreak] = (),
) -> tiebreaks.FinalRanking | None:
    """The ranking by score and the tie-breaks of the event's system
    (:mod:`ratings.tiebreaks`); None where none apply: fewer than three players, a
    player with two results in one round, or rounds C.07 cannot rank."""
    in_games = {pid for g in ev.games for pid in (g.white_id, g.black_id)}
    if start is None or len(in_games) < 3:
        return None
    pairs = {frozenset((g.white_id, g.black_id)) for g in ev.games}
    n = len(in_games)
    round_robin = len(pairs) == n * (n - 1) // 2
    rounds: dict[int, list[tiebreaks.PlayedRound]] = {}
    for pid in fallback:
        own = rounds.setdefault(pid, [])
        for number, key in enumerate(columns, 1):
            found = entries.get(pid, {}).get(key, [])
            if len(found) > 1:
                return None
            # no game and no bye: in a Swiss a zero-point bye (C.07 art. 16.1.1); in a
            # round robin the schedule's free round, which counts for nothing
            if not found and not round_robin:
                own.append(tiebreaks.PlayedRound(number, None, True, 0, "Z"))
            for e in found:
                if e.game is not None and e.opponent_id is not None:
                    halves = (
                        e.game.result.white_half_points
                        if e.white
                        else e.game.result.black_half_points
                    )
                    kind = "played" if e.game.result.is_played else "forfeit"
                    own.append(
                        tiebreaks.PlayedRound(number, e.opponent_id, bool(e.white), halves, kind)
                    )
                else:
                    code = e.bye or "?"
                    own.append(
                        tiebreaks.PlayedRound(
                            number, None, True, BYE_HALF_POINTS.get(code, 0), code
                        )
                    )
    try:
        return tiebreaks.final_ranking(
            rounds, len(columns), used, fallback, round_robin=round_robin, start=start,
            chosen=chosen,
        )  # fmt: skip
    except tiebreak_core.errors.TiebreakError:
        return None


def crosstable(
    ev: EventData,
    sort_name: Callable[[int], str],
    start: dt.date | None = None,
    tiebreak_codes: str | None = None,
) -> Crosstable:
    """The crosstable of one event.

    :param ev: the event's games, byes and breakdown rows
        (:func:`ratings.service.reading.publish.event_data`).
    :param sort_name: a player's name as it sorts (ties the tie-breaks leave go by the
        rating used, then name, then id).
    :param start: the event's start date: with it, players with the same score are ranked
        by the tie-breaks of the event's system (:mod:`ratings.tiebreaks`), in the
        edition of C.07 in force then; without it, by rating, then name.
    :param tiebreak_codes: the tie-breaks the event's file named (``events.tiebreaks``):
        those computed here rank it instead of its system's.
    """
    halves: dict[int, int] = {}
    for g in ev.games:
        halves[g.white_id] = halves.get(g.white_id, 0) + g.result.white_half_points
        halves[g.black_id] = halves.get(g.black_id, 0) + g.result.black_half_points
    for b in ev.byes:
        halves[b.player_id] = halves.get(b.player_id, 0) + BYE_HALF_POINTS.get(b.code, 0)
    used: dict[int, int] = {}
    opponents: dict[int, list[int]] = {}
    scores: dict[int, Decimal] = {}
    k_dr_sum: dict[int, Decimal] = {}
    for r in ev.ratings:
        if r.own_rating is not None:
            used.setdefault(r.player_id, r.own_rating)
        opponents.setdefault(r.player_id, []).append(r.opponent_rating)
        scores[r.player_id] = scores.get(r.player_id, Decimal(0)) + r.score
        if r.k_used is not None and r.dr is not None:
            k_dr_sum[r.player_id] = k_dr_sum.get(r.player_id, Decimal(0)) + r.k_used * r.dr
    _ratings_against_unrated(ev, used)

    fallback = sorted(
        halves,
        key=lambda pid: (-halves[pid], -used.get(pid, 0), sort_name(pid), pid),
    )
    columns, entries = _rounds(ev)
    chosen, _ = tiebreaks.named(tiebreak_codes)
    ranking = _ranking(ev, columns, entries, used, fallback, start, chosen)
    order = list(ranking.order) if ranking is not None else fallback
    rank = {pid: i for i, pid in enumerate(order, 1)}
    rows = []
    for pid in order:
        n = len(opponents.get(pid, ()))
        own = entries.get(pid, {})
        cells = tuple(
            tuple(
                _cell(e.game, bool(e.white), e.opponent_id, rank[e.opponent_id])
                if e.game is not None and e.opponent_id is not None
                else _bye(e.bye or "?")
                for e in own.get(key, ())
            )
            for key in columns
        )
        rows.append(
            CrossRow(
                rank=rank[pid],
                player_id=pid,
                rating=used.get(pid),
                cells=cells,
                score_half_points=halves[pid],
                performance=rules.performance_fide(opponents[pid], scores[pid]) if n else None,
                k_dr_sum=k_dr_sum.get(pid),
                tiebreak_values=ranking.values[pid] if ranking is not None else (),
            )
        )
    return Crosstable(
        rounds=tuple(_round_title(k) for k in columns),
        rows=tuple(rows),
        games=len(ev.games),
        rated_games=sum(1 for g in ev.games if g.rated),
        tiebreaks=ranking.tiebreaks if ranking is not None else (),
    )
