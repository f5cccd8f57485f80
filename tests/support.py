"""What the tests share: the CLI run in this process as an administrator runs it (``run``,
``invoke``, ``ok`` and the ``Club`` that drives a database through them), and factories that
build registered players, TRF files and games rows from plain values, so that a test states
only what it is about."""

from __future__ import annotations

import datetime as dt
import json
import os
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from sqlalchemy.orm import Session

from ratings import service
from ratings.cli import cli
from ratings.io.csv import GameRow
from ratings.io.trf import TrfGame, TrfPlayer, TrfTournament, write_trf
from ratings.models import Player
from ratings.results import Result as GameResult
from tests.conftest import BACKEND, PgDatabase, init_database, table_rows

# --- the CLI ---------------------------------------------------------------------------------


def run(
    db: Club | Path | PgDatabase | str | None,
    *args: str,
    input: str | None = None,
    cwd: Path | None = None,
) -> Result:
    """``ratings --db db ARGS`` in this process (no ``--db`` when ``db`` is None), with
    ``input`` on stdin and, if given, ``cwd`` as the working folder; stdout and stderr are
    kept apart. A refusal exits through SystemExit; any other exception is a traceback a user
    would see, and fails the test."""
    argv = list(args) if db is None else ["--db", db.db if isinstance(db, Club) else str(db), *args]
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, argv, input=input)
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        trace = "".join(traceback.format_exception(*result.exc_info))
        raise AssertionError(f"ratings {' '.join(argv)}: traceback\n{result.output}{trace}")
    return result


def invoke(
    db: Club | Path | PgDatabase | str | None, *args: str, input: str | None = None
) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of ``run``."""
    result = run(db, *args, input=input)
    return result.exit_code, result.stdout, result.stderr


def ok(db: Club | Path | PgDatabase | str | None, *args: str, input: str | None = None) -> str:
    """The stdout of ``run``; an exit code other than 0 fails the test."""
    result = run(db, *args, input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


class Club:
    """A database driven through the CLI, as an administrator would."""

    def __init__(self, path: Path, *init_args: str) -> None:
        # a SQLite file at `path`, or with RATINGS_TEST_BACKEND=postgres a fresh database,
        # as `ratings init` leaves it (a copy of one made once a session: init_database)
        self.db = init_database(path, *init_args)

    def rows(self, sql: str) -> list[tuple[object, ...]]:
        """Rows of a query, read outside the CLI (dates as ISO text, booleans as 0/1)."""
        return table_rows(self.db, sql)

    def state(self) -> object:
        """Everything stored: the file's bytes on SQLite, every table's rows elsewhere."""
        if BACKEND == "sqlite":
            return Path(self.db).read_bytes()
        tables = [t for (t,) in self.rows(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
        )]  # fmt: skip
        return {t: sorted(map(repr, self.rows(f"SELECT * FROM {t}"))) for t in tables}

    def run(self, *args: str) -> tuple[int, str]:
        """The exit code and what was printed (stdout and stderr as they came)."""
        result = run(self.db, *args)
        return result.exit_code, result.output

    def ok(self, *args: str) -> str:
        code, out = self.run(*args)
        assert code == 0, out
        return out

    def player(self, name: str, *args: str) -> None:
        self.ok("player", "add", name, *args)

    def game(self, white: str, black: str, result: str, date: str, *args: str) -> None:
        self.ok("game", "add", white, black, result, "--date", date, *args)

    def ratings(self, period: str | None = None) -> dict[str, int | None]:
        args = ["list", "--all", "--format", "json"]
        if period:
            args += ["--period", period]
        data = json.loads(self.ok(*args))
        return {p["name"]: p["rating"] for p in data["players"]}

    def entry(self, name: str, period: str) -> dict[str, Any]:
        data = json.loads(self.ok("history", name, "--format", "json"))
        (row,) = [h for h in data["history"] if h["period"] == period]
        return dict(row)


# --- factories -------------------------------------------------------------------------------


def players(session: Session, *names: str, rating: int = 1800, games: int = 30) -> list[Player]:
    """Registered players with a published rating and enough games for K 20 or 40."""
    return [service.add_player(session, name, rating=rating, games=games) for name in names]


def trf_player(start_no: int, name: str, *, rating: int | None = None) -> TrfPlayer:
    """A ``001`` line's player (line numbers are set by the parser when read back)."""
    return TrfPlayer(start_no, name, None, None, rating, None, None, None, None, line=0)


def trf_game(
    round: int, white: int, black: int, result: GameResult = GameResult.WHITE_WIN
) -> TrfGame:
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
    result: GameResult = GameResult.WHITE_WIN,
    event: str | None = None,
    round: str | None = None,
) -> GameRow:
    """One row of a games CSV, as :func:`ratings.io.csv.read_games_csv` gives it."""
    return GameRow(line, day, white, black, result, event, round)
