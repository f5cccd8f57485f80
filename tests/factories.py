"""Factories for service tests: registered players, TRF files and games rows built from
plain values, so that a test states only what it is about."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from sqlalchemy.orm import Session

from ratings import service
from ratings.io.csv import GameRow
from ratings.io.trf import TrfGame, TrfPlayer, TrfTournament, write_trf
from ratings.models import Player
from ratings.results import Result


def players(session: Session, *names: str, rating: int = 1800, games: int = 30) -> list[Player]:
    """Registered players with a published rating and enough games for K 20 or 40."""
    return [service.add_player(session, name, rating=rating, games=games) for name in names]


def trf_player(start_no: int, name: str, *, rating: int | None = None) -> TrfPlayer:
    """A ``001`` line's player (line numbers are set by the parser when read back)."""
    return TrfPlayer(start_no, name, None, None, rating, None, None, None, None, line=0)


def trf_game(round: int, white: int, black: int, result: Result = Result.WHITE_WIN) -> TrfGame:
    """A rated game between two start numbers."""
    return TrfGame(round, white, black, result, result.is_played, white_line=0, black_line=0)


def trf_file(
    names: Sequence[str],
    games: Sequence[TrfGame],
    *,
    name: str = "Club Cup",
    start: dt.date | None = dt.date(2025, 1, 4),
    end: dt.date | None = dt.date(2025, 1, 5),
) -> bytes:
    """A TRF16 file of one event: players numbered from 1 in the order given."""
    tournament = TrfTournament(
        name=name,
        start_date=start,
        end_date=end,
        round_dates={},
        players=tuple(trf_player(i, n) for i, n in enumerate(names, start=1)),
        games=tuple(games),
        byes=(),
    )
    return write_trf(tournament).encode()


def game_row(
    line: int,
    day: dt.date,
    white: str,
    black: str,
    result: Result = Result.WHITE_WIN,
    event: str | None = None,
    round: str | None = None,
) -> GameRow:
    """One row of a games CSV, as :func:`ratings.io.csv.read_games_csv` gives it."""
    return GameRow(line, day, white, black, result, event, round)
