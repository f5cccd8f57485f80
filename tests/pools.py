"""Random pools of players and games (seeded), for the reference and for real databases.

:func:`random_pool` draws the data; :func:`load_pool` stores it through the service
functions, one unit of work, as an administrator's commands would (the games as one file).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from fractions import Fraction

from sqlalchemy.orm import Session

from ratings import service
from ratings.io.csv import GameRow
from ratings.results import Result
from tests.rating_reference import Game, Player, add_months

_RESULTS = {Fraction(1): Result.WHITE_WIN, Fraction(0): Result.BLACK_WIN}


def random_pool(
    seed: int,
    *,
    players: int,
    months: int,
    first: dt.date,
    unrated_share: float = 0.25,
    strong_share: float = 0.05,
) -> tuple[list[Player], list[Game]]:
    """``players`` players (a share unrated, a few 2400-2800) and ``months`` months of events.

    Each month holds two to four events of 4 to 12 players, paired at random for 3 to 7
    rounds; about one event in five ends in the next month, and a few games are single games
    (an event of their own). Results: a third draws, the rest by the rating gap.
    """
    rng = random.Random(seed)
    pool: list[Player] = []
    strength: dict[int, int] = {}
    for pid in range(1, players + 1):
        roll = rng.random()
        if roll < unrated_share:
            rating = None
        elif roll < unrated_share + strong_share:
            rating = rng.randint(2380, 2800)
        else:
            rating = int(rng.gauss(1800, 250))
            rating = max(1000, min(2390, rating))
        birth = rng.choice([None, rng.randint(1950, 2000), rng.randint(2005, 2015)])
        past_games = rng.choice([0, 0, rng.randint(1, 40), rng.randint(30, 400)])
        pool.append(
            Player(pid, rating, past_games, birth, rating is not None and rng.random() < 0.02)
        )
        strength[pid] = rating if rating is not None else rng.randint(1300, 2000)
    games: list[Game] = []
    event = 0
    for m in range(months):
        month = add_months(first, m)
        for _ in range(rng.randint(2, 4)):
            event += 1
            size = rng.randint(4, min(12, players))
            entrants = rng.sample(range(1, players + 1), size)
            start_day = rng.randint(1, 27)
            crosses = m < months - 1 and rng.random() < 0.2
            for rnd in range(rng.randint(3, 7)):
                day = month + dt.timedelta(days=start_day - 1 + rnd)
                if crosses and rnd > 0:
                    day = add_months(month, 1) + dt.timedelta(days=rnd - 1)
                if day.month != month.month and not crosses:
                    day = month + dt.timedelta(days=27)
                rng.shuffle(entrants)
                for i in range(0, size - 1, 2):
                    w, b = entrants[i], entrants[i + 1]
                    games.append(
                        Game(len(games) + 1, event, day, w, b, _result(rng, strength, w, b))
                    )
        for _ in range(rng.randint(0, 3)):  # single games: events of their own
            event += 1
            w, b = rng.sample(range(1, players + 1), 2)
            day = month + dt.timedelta(days=rng.randint(0, 27))
            games.append(Game(len(games) + 1, event, day, w, b, _result(rng, strength, w, b)))
    return pool, games


def _result(rng: random.Random, strength: dict[int, int], white: int, black: int) -> Fraction:
    if rng.random() < 0.33:
        return Fraction(1, 2)
    expected = 1 / (1 + 10 ** ((strength[black] - strength[white]) / 400))
    return Fraction(1) if rng.random() < expected else Fraction(0)


def load_pool(session: Session, players: list[Player], games: list[Game]) -> None:
    """Store a pool through the service: players by name ``P<pid>``, games in their events
    (``E<event>``; an event takes its dates from its games), all games as one games file
    would bring them (the bulk path: ``import games``). Each game has a round of its own, so
    that no two rows of the file are the same game."""
    for p in players:
        birth = service.Birth(None, p.birth_year)
        service.add_player(
            session, f"P{p.pid}", birth=birth, rating=p.rating, games=p.games, k10=p.k10
        )
    rows = [
        GameRow(
            line=line,
            date=g.played_on,
            white=f"P{g.white}",
            black=f"P{g.black}",
            result=_RESULTS.get(g.white_score, Result.DRAW),
            event=f"E{g.event}",
            round=str(g.gid),
        )
        for line, g in enumerate(games, start=2)
    ]
    digest = hashlib.sha256(repr(rows).encode()).hexdigest()
    service.import_games(session, rows, "pool.csv", digest)
