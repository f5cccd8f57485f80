"""Title norms of an event, titles by rating and title applications (FIDE Title Regulations;
docs/TITLES.md): the reads around :mod:`ratings.rules.norms`, which does the arithmetic.

:func:`event_norms` loads one event's games and byes, the ratings of the list in force at its
start (or, for an event longer than 30 days, on each game's day: art. 1.1.4), the players'
titles, federations and sex from the register (those reads are
:mod:`ratings.service.titles.reads`), and asks the rules for each player's verdict.
:func:`title_report` finds the titles reached by rating (art. 1.3) from the published lists
and every game's rating change (the interim ratings of art. 1.5.3a), and the state of each
title application (art. 1.5) from the norms made here.

Every read is set-based: a few queries per event or per report, never one per game. The
functions take the session first and write nothing.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import InvalidInputError
from ratings.federations import is_fide_federation
from ratings.models import NORM_EXEMPTIONS, Event, Game, Player
from ratings.rules import norms
from ratings.rules.norms import (
    Application,
    NormCheck,
    NormEvent,
    NormExemption,
    NormGame,
    NormPlayer,
    NormRecord,
    NormTitle,
    TitleRatingPoint,
    TitleReached,
)
from ratings.service.register.events import get_event
from ratings.service.register.lookup import get_player
from ratings.service.shared.sql import fetch_all
from ratings.service.titles.reads import (
    EventRows,
    ListsInForce,
    NormByeRow,
    NormGameRow,
    NormReads,
    Registered,
    players_of,
    read_event_rows,
)
from ratings.tiebreaks import BYE_HALF_POINTS

__all__ = [
    "EXEMPTION_CHOICES",
    "EventNorms",
    "PlayerNorms",
    "PlayerTitles",
    "event_norms",
    "norm_exemption",
    "norms_reached",
    "title_report",
]

EXEMPTION_CHOICES = (*(e.replace("_", "-") for e in NORM_EXEMPTIONS), "none")
"""``event edit --norm-exemption``'s values: the four kinds of 1.4.3a-d, and ``none``."""
assert tuple(e.value for e in NormExemption) == NORM_EXEMPTIONS

_UNPLAYED_WIN_BYES = frozenset({"U", "+"})
"""Bye codes of a round won without playing (1.4.1c): a pairing-allocated bye (``U``) or a
forfeit win without an opponent (``+``); a full-point bye asked for (``F``) is not one."""


def norm_exemption(kind: str) -> str | None:
    """The stored value of an ``--norm-exemption`` KIND (``national-championship``, ...,
    ``none``): ``events.norm_exemption``'s value, None for none.

    :raises InvalidInputError: for another kind.
    """
    text = kind.strip().lower().replace("-", "_")
    if text == "none":
        return None
    if text not in NORM_EXEMPTIONS:
        raise InvalidInputError(
            f"--norm-exemption: unknown kind {kind!r} (use {', '.join(EXEMPTION_CHOICES)})"
        )
    return text


@dataclass(frozen=True, slots=True)
class PlayerNorms:
    """One player's verdicts in one event."""

    player_id: int
    name: str
    federation: str | None
    title: str | None
    score_half_points: int
    """The event score (games and byes), for the order of the report."""
    checks: tuple[NormCheck, ...]
    """One per norm title worth checking (:func:`ratings.rules.norms.norm_titles`)."""


@dataclass(frozen=True, slots=True)
class EventNorms:
    """The norms of one event's players."""

    event_id: int
    name: str
    start_date: dt.date
    end_date: dt.date
    rounds: int
    round_robin: bool
    double_round_robin: bool
    """Every pair met twice (1.4.5 then counts the opponents as players)."""
    exemption: NormExemption | None
    per_game: bool
    """Longer than 30 days: each game used the list in force on its day (1.1.4)."""
    lists: tuple[dt.date | None, ...]
    """The dates of the lists whose ratings were used, oldest first; None for the register's
    entry ratings (no list published before)."""
    players: tuple[PlayerNorms, ...]
    """By event score, then name."""


@dataclass(frozen=True, slots=True)
class _Side:
    player: int
    opponent: int
    halves: int
    played: bool
    """Over the board and rated (1.4.2c)."""
    day: dt.date
    round_no: int
    label: str


def _round_key(text: str) -> tuple[int, int, str]:
    """Rounds in their natural order: 1, 2, ..., 10, then others by text."""
    return (0, int(text), "") if text.isascii() and text.isdigit() else (1, 0, text)


def _member(federation: str | None) -> bool:
    return federation is not None and is_fide_federation(federation)


def event_norms(session: Session, ref: str) -> EventNorms:
    """Every player's norm verdicts in one event (EVENT: id or exact name), as
    :func:`ratings.rules.norms.check_norms` gives them.

    :raises InvalidInputError: for an unknown event, one that is not standard (norms use
        standard ratings, art. 0.5), or one without games.
    """
    event = get_event(session, ref)
    if event.time_control != "standard":
        raise InvalidInputError(
            f"event {event.id} ({event.name}) is rated on the {event.time_control} list; title "
            "norms are made in standard events (FIDE Title Regulations 0.5)"
        )
    return _event_norms(session, event)


def _event_norms(
    session: Session,
    event: Event,
    rows: EventRows | None = None,
    reads: NormReads | None = None,
    reached_only: bool = False,
) -> EventNorms:
    """Every player's verdicts; ``reached_only``: none for a player no norm is within reach
    of (:func:`ratings.rules.norms.norm_out_of_reach`), as only the norms reached are
    wanted."""
    if rows is None:
        rows = read_event_rows(session, event.id)
    games, byes = rows.games, rows.byes
    if not games:
        raise InvalidInputError(f"event {event.id} ({event.name}) holds no games")

    sides, pairs, rounds = _sides_of(games, byes)
    in_games = sorted({s.player for s in sides})
    ids = sorted(set(in_games) | {b.player_id for b in byes})
    register = players_of(session, ids)
    lists = ListsInForce(
        reads if reads is not None else NormReads(session),
        {pid: p[4] for pid, p in register.items()},
        ids,
    )
    per_game = norms.is_long_for_norms(event.start_date, event.end_date)
    start_list = lists.date_on(event.start_date)

    def list_of(day: dt.date) -> dt.date | None:
        return lists.date_on(day) if per_game else start_list

    used = sorted({list_of(s.day) for s in sides}, key=lambda d: (d is not None, d))

    def rating(pid: int, day: dt.date) -> int | None:
        return lists.ratings(list_of(day)).get(pid)

    n = len(in_games)
    round_robin = n >= 3 and len(pairs) == n * (n - 1) // 2
    double = round_robin and all(met == 2 for met in pairs.values())
    zero: frozenset[int] = frozenset()
    if round_robin:
        zero = norms.zero_scorers(
            (s.player, rating(s.player, s.day), rating(s.opponent, s.day), s.halves)
            for s in sides
            if s.played
        )
    exemption = NormExemption(event.norm_exemption) if event.norm_exemption else None
    setting = NormEvent(rounds, round_robin, exemption, zero, double_round_robin=double)
    names = {pid: p[0] for pid, p in register.items()}

    def name_of(pid: int) -> str:
        return names.get(pid, f"player {pid}")

    mine: dict[int, list[NormGame]] = {pid: [] for pid in ids}
    score = dict.fromkeys(ids, 0)
    for s in sides:
        _, fed, title, _, _ = register[s.opponent]
        mine[s.player].append(
            NormGame(
                round_no=s.round_no,
                round_label=s.label,
                opponent_id=s.opponent,
                rating=rating(s.opponent, s.day),
                title=title,
                federation=fed,
                member=_member(fed),
                score_half_points=s.halves,
                over_the_board=s.played,
            )
        )
        score[s.player] += s.halves
    unplayed = dict.fromkeys(ids, 0)
    for b in byes:
        score[b.player_id] += BYE_HALF_POINTS.get(b.code, 0)
        if b.code in _UNPLAYED_WIN_BYES:
            unplayed[b.player_id] += 1
    results = [
        _verdicts(pid, register[pid], mine[pid], setting, unplayed[pid], score[pid], name_of)
        if not (reached_only and norms.norm_out_of_reach(mine[pid]))
        else PlayerNorms(pid, register[pid][0], register[pid][1], register[pid][2], score[pid], ())
        for pid in ids
    ]
    results.sort(key=lambda p: (-p.score_half_points, p.name.lower(), p.player_id))
    return EventNorms(
        event_id=event.id,
        name=event.name,
        start_date=event.start_date,
        end_date=event.end_date,
        rounds=rounds,
        round_robin=round_robin,
        double_round_robin=double,
        exemption=exemption,
        per_game=per_game,
        lists=tuple(used),
        players=tuple(results),
    )


def _sides_of(
    games: Sequence[NormGameRow], byes: Sequence[NormByeRow]
) -> tuple[list[_Side], dict[frozenset[int], int], int]:
    """Each game from each player's side, in rounds numbered by their names (by the days
    the games were played when a game has none); how often each pair met; how many rounds
    the event had."""
    by_label = all(g.round for g in games)
    order: dict[str, int] = {}
    order_by_day: dict[dt.date, int] = {}
    if by_label:
        labels = {g.round or "" for g in games} | {b.round for b in byes}
        order = {label: i for i, label in enumerate(sorted(labels, key=_round_key), 1)}
    else:  # no round names: rounds by the days the games were played
        days = sorted({g.played_on for g in games})
        order_by_day = {day: i for i, day in enumerate(days, 1)}
    sides: list[_Side] = []
    pairs: dict[frozenset[int], int] = {}
    for g in games:
        named = g.round or ""  # by_label: every game has its round's name
        number = order[named] if by_label else order_by_day[g.played_on]
        label = named if by_label else g.played_on.isoformat()
        played = g.result.is_played and g.rateable
        pair = frozenset((g.white_id, g.black_id))
        pairs[pair] = pairs.get(pair, 0) + 1
        for player, opponent, halves in (
            (g.white_id, g.black_id, g.result.white_half_points),
            (g.black_id, g.white_id, g.result.black_half_points),
        ):
            sides.append(_Side(player, opponent, halves, played, g.played_on, number, label))
    # a round with byes and no game was not played (a file's lines that end in an empty
    # round slot give every player a blank bye there): it is not one of the event's rounds
    rounds = len({g.round for g in games}) if by_label else len(order_by_day)
    return sides, pairs, rounds


def _verdicts(
    pid: int,
    entry: Registered,
    games: list[NormGame],
    setting: NormEvent,
    unplayed_wins: int,
    score: int,
    name_of: Callable[[int], str],
) -> PlayerNorms:
    """One player's verdicts in an event (``entry``: name, federation, title, sex)."""
    name, fed, title, sex, _ = entry
    checked = NormPlayer(pid, fed, _member(fed), title, sex)
    checks = norms.check_norms(
        checked, games, setting, unplayed_wins=unplayed_wins, name_of=name_of
    )
    return PlayerNorms(pid, name, fed, title, score, checks)


def norms_reached(
    session: Session,
    event_id: int,
    rows: EventRows | None = None,
    reads: NormReads | None = None,
) -> list[tuple[PlayerNorms, NormCheck]]:
    """The norms reached in one standard event (for its page on the website); none for an
    event whose players have fewer than 8 games each (no norm is possible: 1.4.1, 1.4.1c).

    ``rows``: the event's games and byes, when the caller has read them; ``reads``: the
    reads shared by the events of one publish. Both only save queries: the verdicts are
    the same."""
    if rows is None:
        sides = _sides(event_id)
        most = session.scalar(
            sa.select(sa.func.count())
            .select_from(sides)
            .group_by(sides.c.player_id)
            .order_by(sa.func.count().desc())
            .limit(1)
        )
    else:
        counted = Counter(g.white_id for g in rows.games)
        counted.update(g.black_id for g in rows.games)
        most = max(counted.values(), default=0)
    if not norms.norm_possible(most or 0):
        return []
    event = session.get(Event, event_id)
    if event is None or event.time_control != "standard":
        return []
    found = _event_norms(session, event, rows, reads, reached_only=True)
    return [(p, c) for p in found.players for c in p.checks if c.norm]


def _sides(event_id: int | None = None) -> sa.Subquery:
    """(event_id, player_id) for every side of every game (of one event)."""
    white = sa.select(Game.event_id.label("event_id"), Game.white_id.label("player_id"))
    black = sa.select(Game.event_id.label("event_id"), Game.black_id.label("player_id"))
    if event_id is not None:
        white = white.where(Game.event_id == event_id)
        black = black.where(Game.event_id == event_id)
    return sa.union_all(white, black).subquery()


# --- titles by rating and applications ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerTitles:
    """One player's titles by rating (1.3) and title applications (1.5)."""

    player_id: int
    name: str
    title: str | None
    """The title the register holds."""
    by_rating: tuple[TitleReached, ...]
    """FM and CM (WFM and WCM for a woman): reached, or the threshold not met; in the report
    for every player only those reached (or reached with an unknown count of games) that the
    player does not hold already (nor a higher title of the category)."""
    applications: tuple[Application, ...]
    """One per title the player has a norm for here."""


_POINTS_SQL = """
SELECT player_id, label, start_date, played_on, game_id, rating_before, k_used,
       units_per_point, cum, j, games_before
FROM (
    SELECT b.player_id AS player_id, p.label AS label, p.start_date AS start_date,
           g.played_on AS played_on, g.id AS game_id, h.rating_before AS rating_before,
           b.k_used AS k_used, b.units_per_point AS units_per_point,
           SUM(CAST(b.dr_units AS BIGINT)) OVER w AS cum,
           ROW_NUMBER() OVER w AS j,
           h.total_games - h.period_games AS games_before
    FROM rating_breakdown b
    JOIN games g ON g.id = b.game_id
    JOIN events e ON e.id = g.event_id
    JOIN rating_periods p ON p.id = b.period_id
    JOIN rating_history h ON h.period_id = b.period_id AND h.player_id = b.player_id
        AND h.time_control = 'standard'
    WHERE b.counts_for = 'change' AND e.time_control = 'standard' {player}
    WINDOW w AS (PARTITION BY b.player_id, b.period_id ORDER BY g.played_on, g.id
                 ROWS UNBOUNDED PRECEDING)
) t
{at_least}
ORDER BY player_id, start_date, played_on, game_id
"""
"""Every rated player's interim ratings: K x the sum of dR so far, per game of each period
(1.5.3a), on the standard list; ``at_least`` keeps the rows that may reach a rating (the exact
test, rounded half away from zero, is done on the rows returned)."""

_FIRST_SQL = """
SELECT h.player_id, p.label, p.start_date, p.list_date, h.rating_after, h.total_games
FROM rating_history h JOIN rating_periods p ON p.id = h.period_id
WHERE h.list_status = 'first_rating' AND h.time_control = 'standard'
    AND h.rating_after >= {least} {player}
"""
"""Published first ratings (no game of theirs changed them: a point of their own)."""


def _rating_points(
    session: Session, player_id: int | None, least: int
) -> dict[int, list[TitleRatingPoint]]:
    """Each player's ratings in time order, by id, those of ``least`` or more (0: all): the
    register's entry rating (a published rating brought from before this database, of no
    known date), interim ratings after every rated game and published first ratings."""
    ph = "?" if session.connection().dialect.name == "sqlite" else "%s"
    params: tuple[int, ...] = (player_id,) if player_id is not None else ()
    one = player_id is not None
    at_least = ""
    if least:
        at_least = (
            "WHERE 2 * (CAST(rating_before AS BIGINT) * units_per_point + k_used * cum) "
            f">= {2 * least - 1} * CAST(units_per_point AS BIGINT)"
        )
    found: dict[int, list[tuple[dt.date, dt.date, int, TitleRatingPoint]]] = {}
    for (
        pid,
        label,
        start,
        day,
        game_id,
        before,
        k,
        units,
        cum,
        j,
        games_before,
    ) in fetch_all(
        session,
        _POINTS_SQL.format(player=f"AND b.player_id = {ph}" if one else "", at_least=at_least),
        params,
    ):
        rating = norms.interim_rating(before, k, int(cum), units)
        if rating >= least:
            games = None if games_before is None else int(games_before) + int(j)
            point = TitleRatingPoint(label, _date(day), game_id, rating, games)
            found.setdefault(pid, []).append((_date(start), _date(day), game_id, point))
    first = _FIRST_SQL.format(least=int(least), player=f"AND h.player_id = {ph}" if one else "")
    for pid, label, start, list_date, rating, total in fetch_all(session, first, params):
        point = TitleRatingPoint(label, _date(list_date), None, rating, total)
        found.setdefault(pid, []).append((_date(start), _date(list_date), 1 << 62, point))
    entry = sa.select(Player.id, Player.entry_rating, Player.entry_games).where(
        Player.merged_into_id.is_(None), Player.entry_rating >= least
    )
    if player_id is not None:
        entry = entry.where(Player.id == player_id)
    for pid, entry_rating, entry_games in session.execute(entry):
        if entry_rating is not None:
            point = TitleRatingPoint(None, None, None, entry_rating, entry_games)
            found.setdefault(pid, []).append((dt.date.min, dt.date.min, -1, point))
    return {pid: [p for *_, p in sorted(rows, key=lambda r: r[:3])] for pid, rows in found.items()}


def _date(value: object) -> dt.date:
    """A date from raw SQL (ISO text on SQLite)."""
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def _norm_events(session: Session, player_id: int | None) -> list[Event]:
    """The standard events in which some player (or this one) has at least 8 games: the
    only ones that may hold a norm (1.4.1, 1.4.1c)."""
    sides = _sides()
    query = (
        sa.select(sides.c.event_id)
        .group_by(sides.c.event_id, sides.c.player_id)
        .having(sa.func.count() >= norms.MIN_NORM_GAMES - 1)
    )
    if player_id is not None:
        query = query.where(sides.c.player_id == player_id)
    ids = set(session.scalars(query))
    if not ids:
        return []
    return list(
        session.scalars(
            sa.select(Event)
            .where(Event.id.in_(sorted(ids)), Event.time_control == "standard")
            .order_by(Event.end_date, Event.id)
        )
    )


def title_report(session: Session, player_ref: str | None = None) -> list[PlayerTitles]:
    """Titles by rating (1.3) and title applications (1.5): of one player (PLAYER), or of
    every player who reached a title by rating or made a norm here, by name.

    Ratings are this database's standard lists and the interim ratings after each rated
    game (1.5.3a); norms are those :func:`event_norms` finds in the stored events.

    :raises PlayerNotFoundError: for an unknown PLAYER.
    """
    one = get_player(session, player_ref) if player_ref is not None else None
    made: dict[int, dict[NormTitle, list[NormRecord]]] = {}
    for event in _norm_events(session, one.id if one else None):
        found = _event_norms(session, event)
        for p in found.players:
            if one is not None and p.player_id != one.id:
                continue
            for c in p.checks:
                if c.norm:
                    made.setdefault(p.player_id, {}).setdefault(c.title, []).append(
                        NormRecord(
                            event.id,
                            event.name,
                            event.end_date,
                            c.norm_games,
                            event.norm_exemption is not None,
                        )
                    )
    lowest = min(threshold for _, threshold, _ in norms.RATING_TITLES)
    if one is not None:
        points = _rating_points(session, one.id, 0)
    else:
        points = _rating_points(session, None, lowest)
        for pid in made:  # the whole trail of those who apply
            points.update(_rating_points(session, pid, 0))
    ids = sorted(set(points) | set(made)) if one is None else [one.id]
    info = {pid: p[:4] for pid, p in players_of(session, ids).items()}
    report = []
    for pid in ids:
        name, _, title, sex = info[pid]
        mine = points.get(pid, [])
        by_rating = norms.titles_by_rating(sex, mine)
        if one is None:  # what a rating officer may apply for
            by_rating = tuple(
                t
                for t in by_rating
                if t.point is not None and not norms.holds_or_higher(title, t.title)
            )
        titles = made.get(pid, {})
        applications = tuple(
            norms.application(t, titles[t], mine) for t in NormTitle if t in titles
        )
        if one is None and not by_rating and not applications:
            continue
        report.append(PlayerTitles(pid, name, title, by_rating, applications))
    report.sort(key=lambda p: (p.name.lower(), p.player_id))
    return report
