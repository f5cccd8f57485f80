"""Generate a synthetic federation: a players CSV and a games CSV (README.md#csv-formats).

Usable as a script::

    python bench/generate.py --players 20000 --games 1000000 --periods 12 --seed 1 --out /tmp/fed

and importable (``generate(...)``). The output depends only on the arguments: the same seed gives
byte-identical files. Games are streamed to the file in chunks, so memory stays small.

The federation: unique names ("Surname, Given"), birthdates (full dates, year only, or none;
about 15% juniors), FIDE ids for most players, entry ratings for about 80% (normal around 1700,
sd 300, clipped to 1000..2750) with the K=10 flag for some 2400+ players. Each monthly period
holds events of 8..60 players and 5..9 rounds, paired as a partial round robin (no pairing
repeats within an event), results drawn from the players' hidden true strengths with about 30%
draws and 1% forfeits. A few events run past the end of their month.
"""

from __future__ import annotations

import argparse
import calendar
import dataclasses
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

try:
    from ratings.io.csv import GameRow, PlayerRow, write_games_csv, write_players_csv
    from ratings.results import Result
    from ratings.rules import TimeControl
except ModuleNotFoundError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from ratings.io.csv import GameRow, PlayerRow, write_games_csv, write_players_csv
    from ratings.results import Result
    from ratings.rules import TimeControl

PLAYERS_FILE = "players.csv"
GAMES_FILE = "games.csv"

MIN_EVENT_SIZE = 8
MAX_EVENT_SIZE = 60
MIN_ROUNDS = 5
MAX_ROUNDS = 9
DRAW_PEAK = 0.38
"""Draw probability between equal players; it falls with the gap (about 30% over all games)."""
OPEN_EVENT_RATE = 0.3
"""Share of events open to the whole pool; the others draw from a band of similar strength."""
BAND = 0.2
"""Width of that band, as a share of the pool sorted by strength."""
FORFEIT_RATE = 0.01
WHITE_EDGE = 30
"""Strength points the white pieces are worth."""
CROSSING_RATE = 0.05
"""Share of events (outside the last period) whose last rounds fall in the next month."""
CHUNK_ROWS = 20_000

_SURNAME_STARTS = (
    "Ab", "Bar", "Cor", "Dan", "El", "Fal", "Gor", "Hal", "Is", "Jor", "Kel", "Lin", "Mor",
    "Nor", "Ost", "Per", "Ros", "Sal", "Tor", "Ul", "Val", "Wen", "Zan", "Bra", "Kra", "Le",
)  # fmt: skip
_SURNAME_MIDDLES = ("", "", "", "a", "e", "in", "o", "ar", "el", "ov", "an", "is")
_SURNAME_ENDS = (
    "berg", "sen", "ov", "ic", "ez", "ski", "ton", "man", "er", "ini", "ard", "os", "ova",
    "stein", "dottir", "escu", "ak", "ley",
)  # fmt: skip
_MALE_NAMES = (
    "Adam", "Boris", "Carl", "David", "Erik", "Felix", "Gustav", "Hugo", "Ivan", "Jonas",
    "Karl", "Lars", "Magnus", "Nikolai", "Oscar", "Pavel", "Rafael", "Stefan", "Tomas",
    "Viktor", "Wim", "Yuri", "Anish", "Levon", "Peter", "Sergei", "Jan", "Luis",
)  # fmt: skip
_FEMALE_NAMES = (
    "Anna", "Beatriz", "Clara", "Dina", "Elena", "Freya", "Greta", "Hanna", "Irina", "Judit",
    "Katya", "Lena", "Maria", "Nina", "Olga", "Pia", "Sofia", "Tania", "Vera", "Zoe",
)  # fmt: skip
_TOWNS = (
    "Northport", "Eastfield", "Hollow Bay", "Riverton", "Kingsbridge", "Ashford", "Millbrook",
    "Stonehaven", "Westmere", "Oakridge",
)  # fmt: skip
_EVENT_KINDS = ("Open", "Championship", "Masters", "Cup", "Memorial", "Festival", "League")
HOME_FEDERATION = "NED"
_FOREIGN_FEDERATIONS = ("BEL", "GER", "FRA", "ENG", "NOR", "ESP", "POL", "UKR", "IND", "USA")


@dataclass(frozen=True, slots=True)
class GeneratedFiles:
    """What :func:`generate` wrote."""

    players_csv: Path
    games_csv: Path
    players: int
    """Number of player rows."""
    games: int
    """Number of game rows (always the number asked for)."""
    events: int
    periods: tuple[str, ...]
    """Labels (``YYYY-MM``) of the monthly periods the games were generated for, in order."""
    games_by_period: dict[str, int]
    """Games per rating period (``YYYY-MM``): the month of the event's last game
    (docs/RULES.md#which-period-rates-an-event-art-713)."""


@dataclass(frozen=True, slots=True)
class _Player:
    ref: str
    """How the games file refers to the player: the name, or the FIDE id as digits."""
    strength: float
    """Hidden true strength on the rating scale, which decides the results."""


def generate(
    players: int,
    games: int,
    periods: int,
    seed: int,
    out_dir: Path,
    start: date = date(2015, 1, 1),
    mixed_lists: bool = False,
) -> GeneratedFiles:
    """Write ``players.csv`` and ``games.csv`` for a synthetic federation into ``out_dir``.

    :param players: number of players (at least 2 when ``games`` > 0).
    :param games: exact number of games, spread evenly over the periods.
    :param periods: number of monthly periods, the first one being the month of ``start``.
    :param seed: seed of the only random generator used; same arguments, same bytes.
    :param start: juniors are counted from this date's year; periods start at its month.
    :param mixed_lists: give each event a time control (about 50% standard, 30% rapid, 20%
        blitz; the games CSV gains the ``time_control`` column). The choice comes from a
        generator of its own, so the games are the same as without it, only their lists
        differ: ``bench/three_lists.py`` compares the two.
    """
    if players < 0 or games < 0 or periods < 1:
        raise ValueError(f"need players >= 0, games >= 0, periods >= 1: {players, games, periods}")
    if games and players < 2:
        raise ValueError(f"games need at least 2 players: {players!r}")
    rng = random.Random(seed)
    list_rng = random.Random(f"lists-{seed}")
    out_dir.mkdir(parents=True, exist_ok=True)
    rows, pool = _make_players(rng, players, start)
    by_strength = sorted(range(len(pool)), key=lambda i: pool[i].strength)
    players_csv = out_dir / PLAYERS_FILE
    with players_csv.open("w", encoding="utf-8", newline="") as out:
        out.write(write_players_csv(rows))
    del rows

    months = [_add_months(start.replace(day=1), i) for i in range(periods)]
    labels = tuple(f"{m.year:04d}-{m.month:02d}" for m in months)
    by_period = dict.fromkeys(labels, 0)
    events = 0
    games_csv = out_dir / GAMES_FILE
    with games_csv.open("w", encoding="utf-8", newline="") as out:
        out.write(write_games_csv([], lists=mixed_lists))
        chunk: list[GameRow] = []
        for index, month in enumerate(months):
            target = games // periods + (1 if index < games % periods else 0)
            may_cross = index < periods - 1
            while target > 0:
                events += 1
                event_rows = list(_event(rng, pool, by_strength, month, events, target, may_cross))
                if mixed_lists:
                    tc = _time_control(list_rng)
                    event_rows = [dataclasses.replace(r, time_control=tc) for r in event_rows]
                target -= len(event_rows)
                last = max(row.date for row in event_rows)
                by_period[f"{last.year:04d}-{last.month:02d}"] += len(event_rows)
                chunk.extend(event_rows)
                if len(chunk) >= CHUNK_ROWS:
                    out.write(write_games_csv(chunk, header=False, lists=mixed_lists))
                    chunk.clear()
        out.write(write_games_csv(chunk, header=False, lists=mixed_lists))
    return GeneratedFiles(
        players_csv=players_csv,
        games_csv=games_csv,
        players=players,
        games=games,
        events=events,
        periods=labels,
        games_by_period=by_period,
    )


def _time_control(rng: random.Random) -> TimeControl:
    """An event's list: about half standard, 30% rapid, 20% blitz."""
    draw = rng.random()
    if draw < 0.5:
        return TimeControl.STANDARD
    return TimeControl.RAPID if draw < 0.8 else TimeControl.BLITZ


def _make_players(
    rng: random.Random, count: int, start: date
) -> tuple[list[PlayerRow], list[_Player]]:
    """The player rows, and per player the games-file reference and true strength."""
    fide_ids = rng.sample(range(100_000, 100_000_000), count)
    taken: dict[str, int] = {}
    rows: list[PlayerRow] = []
    pool: list[_Player] = []
    for line in range(2, count + 2):
        sex = "f" if rng.random() < 0.15 else "m"
        given = rng.choice(_FEMALE_NAMES if sex == "f" else _MALE_NAMES)
        surname = (
            rng.choice(_SURNAME_STARTS) + rng.choice(_SURNAME_MIDDLES) + rng.choice(_SURNAME_ENDS)
        )
        name = f"{surname}, {given}"
        seen = taken.get(name, 0)
        taken[name] = seen + 1
        if seen:
            name = f"{name} {seen + 1}"  # "Borg, Anna 2"; no base name ends in a number
        junior = False
        birth_year: int | None = None
        birth_date: date | None = None
        kind = rng.random()
        if kind >= 0.03:
            junior = kind < 0.18
            age = rng.randint(6, 17) if junior else rng.randint(19, 80)
            birth_year = max(1900, start.year - age)
            if rng.random() < 0.7:
                birth_date = date(birth_year, 1, 1) + timedelta(days=rng.randrange(365))
        rating: int | None = None
        if rng.random() < 0.8:
            mean = 1450 if junior else 1700
            rating = min(2750, max(1000, round(rng.gauss(mean, 300))))
            strength = rating + rng.gauss(0, 80)
        else:
            strength = min(2300.0, max(800.0, rng.gauss(1400, 250)))
        k10 = rating is not None and (
            (rating >= 2400 and rng.random() < 0.5) or (rating >= 2300 and rng.random() < 0.1)
        )
        fide_id = fide_ids[line - 2] if rng.random() < 0.9 else None
        rows.append(
            PlayerRow(
                line=line,
                name=name,
                birth_date=birth_date,
                birth_year=birth_year,
                fide_id=fide_id,
                rating=rating,
                games=rng.randint(0, 300) if rating is not None else 0,
                k10=k10,
                sex=sex,
                federation=(
                    HOME_FEDERATION if rng.random() < 0.85 else rng.choice(_FOREIGN_FEDERATIONS)
                ),
                title=_title(rng, rating, sex),
            )
        )
        by_id = fide_id is not None and rng.random() < 0.3
        pool.append(_Player(ref=str(fide_id) if by_id else name, strength=strength))
    return rows, pool


def _title(rng: random.Random, rating: int | None, sex: str) -> str | None:
    """A plausible title for an entry rating, or none."""
    if rating is None:
        return None
    chance = rng.random()
    for floor, title, share in ((2500, "GM", 0.7), (2400, "IM", 0.6), (2300, "FM", 0.5)):
        if rating >= floor and chance < share:
            return title
    if sex == "f" and rating >= 2100 and chance < 0.4:
        return "WIM" if rating >= 2200 else "WFM"
    return "CM" if rating >= 2200 and chance < 0.3 else None


def _event(
    rng: random.Random,
    pool: Sequence[_Player],
    by_strength: Sequence[int],
    month: date,
    number: int,
    most: int,
    may_cross: bool,
) -> Iterator[GameRow]:
    """The games of one event starting in ``month``, at most ``most`` of them.

    Players come from the whole pool (opens) or from a band of similar true strength
    (``by_strength`` is the pool's indexes sorted by strength).

    Pairings come from the circle method (a round robin), cut to the event's rounds, so no two
    players meet twice; the player order is random, so the cut is a different partial round
    robin each time.
    """
    size = min(len(pool), MIN_EVENT_SIZE + int(rng.triangular(0, MAX_EVENT_SIZE - 7, 0)))
    # sections and class events keep strengths close, which is what keeps draws near 30%
    band = len(pool) if rng.random() < OPEN_EVENT_RATE else max(size, int(BAND * len(pool)))
    low = rng.randrange(len(pool) - band + 1)
    seats: list[int | None] = [by_strength[i] for i in rng.sample(range(low, low + band), size)]
    if size % 2:
        seats.append(None)  # the bye
    rounds = min(rng.randint(MIN_ROUNDS, MAX_ROUNDS), len(seats) - 1)
    days = calendar.monthrange(month.year, month.month)[1]
    step = rng.choice((1, 1, 1, 2, 7))
    if (rounds - 1) * step >= days:
        step = 1
    span = (rounds - 1) * step
    if may_cross and span and rng.random() < CROSSING_RATE:
        first_day = rng.randint(days - span + 1, days)
    else:
        first_day = rng.randint(1, days - span)
    first = month + timedelta(days=first_day - 1)
    name = f"{rng.choice(_TOWNS)} {rng.choice(_EVENT_KINDS)} {month.year} #{number}"
    half = len(seats) // 2
    fixed, ring = seats[0], seats[1:]
    left = most
    for round_index in range(rounds):
        played_on = first + timedelta(days=round_index * step)
        order = [fixed, *ring]
        for board in range(half):
            a, b = order[board], order[-1 - board]
            if a is None or b is None:
                continue
            if rng.random() < 0.5:
                a, b = b, a
            white, black = pool[a], pool[b]
            yield GameRow(
                line=0,
                date=played_on,
                white=white.ref,
                black=black.ref,
                result=_result(rng, white.strength, black.strength),
                event=name,
                round=str(round_index + 1),
            )
            left -= 1
            if not left:
                return
        ring = [ring[-1], *ring[:-1]]


def _result(rng: random.Random, white: float, black: float) -> Result:
    """A result drawn so that White's expected score follows the Elo curve
    (docs/RULES.md#the-logistic-curve)."""
    draw_roll = rng.random()
    if draw_roll < FORFEIT_RATE:
        return (
            Result.WHITE_FORFEIT_WIN if draw_roll < FORFEIT_RATE / 2 else Result.BLACK_FORFEIT_WIN
        )
    roll = (draw_roll - FORFEIT_RATE) / (1 - FORFEIT_RATE)
    expected = 1 / (1 + math.pow(10, (black - white - WHITE_EDGE) / 400))
    # draws peak between equal players; p(win) + p(draw)/2 stays equal to the expected score
    half_draw = 2 * DRAW_PEAK * expected * (1 - expected)
    if roll < expected - half_draw:
        return Result.WHITE_WIN
    if roll < expected + half_draw:
        return Result.DRAW
    return Result.BLACK_WIN


def _add_months(first: date, months: int) -> date:
    index = first.month - 1 + months
    return date(first.year + index // 12, index % 12 + 1, 1)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point; prints a one-line summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--games", type=int, required=True, help="exact number of games")
    parser.add_argument("--periods", type=int, default=12, help="monthly periods (default 12)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument(
        "--start",
        type=date.fromisoformat,
        default=date(2015, 1, 1),
        help="first period's month, YYYY-MM-DD (default 2015-01-01)",
    )
    parser.add_argument(
        "--mixed-lists",
        action="store_true",
        help="events on all three lists (about 50%% standard, 30%% rapid, 20%% blitz)",
    )
    args = parser.parse_args(argv)
    began = time.perf_counter()
    try:
        files = generate(
            args.players, args.games, args.periods, args.seed, args.out, args.start,
            mixed_lists=args.mixed_lists,
        )  # fmt: skip
    except ValueError as exc:
        parser.error(str(exc))
    elapsed = time.perf_counter() - began
    print(
        f"wrote {files.players} players to {files.players_csv} and {files.games} games "
        f"({files.events} events, {len(files.periods)} periods) to {files.games_csv} "
        f"in {elapsed:.1f}s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
