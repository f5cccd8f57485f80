"""The demonstration club (``ratings demo``): 40 players and a year of events, shipped with
the package, imported, rated and listed in one session."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from sqlalchemy.orm import Session

from ratings.io.csv import read_games_csv, read_players_csv
from ratings.rules import system_config
from ratings.service.imports.games import import_games
from ratings.service.imports.players import import_players
from ratings.service.imports.storing import ImportReport, content_hash
from ratings.service.rating.rate import RateReport, rate
from ratings.service.reading.reports import RatingList, rating_list
from ratings.service.shared.config import create_settings

PLAYERS = "demo_players.csv"
"""The demo's players file (package data); its import marks a demo database."""
GAMES = "demo_games.csv"
"""The demo's games file (package data)."""


@dataclass(frozen=True, slots=True)
class DemoReport:
    """What :func:`build_demo` stored and the list it ended with."""

    players: ImportReport
    games: ImportReport
    rated: RateReport
    final: RatingList
    """The newest period's list."""


def build_demo(session: Session) -> DemoReport:
    """Fill a new, empty database with the demo club: settings (FIDE rules, rating by end
    date: no closing date, art. 7.1.3, as a club does), the players, the games, every period
    rated; returns what was stored and the final list."""
    data = resources.files("ratings") / "data"
    players_bytes = (data / PLAYERS).read_bytes()
    games_bytes = (data / GAMES).read_bytes()
    create_settings(session, system_config("fide", closing_days=0))
    players = import_players(
        session, read_players_csv(players_bytes, PLAYERS), PLAYERS, content_hash(players_bytes)
    )
    games = import_games(
        session, read_games_csv(games_bytes, GAMES), GAMES, content_hash(games_bytes)
    )
    rated = rate(session)
    return DemoReport(players, games, rated, rating_list(session))
