"""A command reports success only after its unit of work is committed.

Seen before: ``ratings rate | head -3`` printed the re-rate's first lines, then exited 1 with
nothing on stderr and rolled the re-rate back (the closed pipe raised inside the
transaction); with a long ``ratings sql`` holding a read lock, ``rate`` printed its changes and
``player add`` printed "Added ..." before a COMMIT that failed with "database is locked".

Here: a COMMIT that fails prints nothing on stdout and one ``Error:`` line; a pipe closed
after the commit is not a failure (exit 0, the work kept, nothing on stderr); a pipe closed
inside a unit of work rolls it back and says so.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import ratings.db
from ratings import service
from tests.conftest import init_database
from tests.safety_helpers import command, count, dump, generate, invoke
from tests.support import run

PIPE_SIZE = 4096
"""The smallest pipe Linux gives (one page): output longer than this cannot all be written
before the reader closes its end."""

LOCKED = "Error: database error: database is locked\n"

PLAYERS_CSV = 'name,rating,games\n"Csv, One",1800,30\n"Csv, Two",1700,30\n'
GAMES_CSV = "date,white,black,result,event,round\n2025-01-20,Ann,Bob,1-0,Csv Cup,1\n"
PGN = (
    '[Event "Pgn Cup"]\n[Date "2025.01.21"]\n[Round "1"]\n[White "Ann"]\n[Black "Bob"]\n'
    '[Result "0-1"]\n\n0-1\n'
)
TRF = Path(__file__).parents[1] / "data" / "trf" / "held_swiss_9.trf"


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """Four players, two games in January 2025 (not yet rated), a duplicate record of Ann."""
    db = Path(init_database(tmp_path / "club.db"))
    for args in (
        ["player", "add", "Ann", "--rating", "1900", "--games", "40"],
        ["player", "add", "Bob", "--rating", "1800", "--games", "40"],
        ["player", "add", "Cat", "--rating", "1700", "--games", "40"],
        ["player", "add", "Ann Twin"],
        ["game", "add", "Ann", "Bob", "1-0", "--date", "2025-01-05"],
        ["game", "add", "Ann Twin", "Cat", "1/2-1/2", "--date", "2025-01-06"],
    ):
        assert invoke(db, *args)[0] == 0
    (tmp_path / "players.csv").write_text(PLAYERS_CSV, encoding="utf-8")
    (tmp_path / "games.csv").write_text(GAMES_CSV, encoding="utf-8")
    (tmp_path / "games.pgn").write_text(PGN, encoding="utf-8")
    return db


@contextmanager
def read_lock(db: Path) -> Iterator[None]:
    """Another connection in a read transaction (as a long ``ratings sql`` is): its SHARED
    lock lets a writer begin and work, but makes its COMMIT wait for the busy timeout."""
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("BEGIN")
        holder.execute("SELECT count(*) FROM players").fetchall()
        yield
        holder.execute("ROLLBACK")
    finally:
        holder.close()


# every command that writes, with arguments that succeed on `club` when nothing holds a lock
WRITERS = {
    "rate": ["rate"],
    "player add": ["player", "add", "Zed, New"],
    "player edit": ["player", "edit", "Ann", "--rating", "2000"],
    "player merge": ["player", "merge", "Ann", "Ann Twin", "--yes"],
    "game add": ["game", "add", "Ann", "Cat", "0-1", "--date", "2025-01-07"],
    "game edit": ["game", "edit", "1", "--result", "0-1"],
    "game void": ["game", "void", "1"],
    "import players": ["import", "players", "players.csv"],
    "import games": ["import", "games", "games.csv"],
    "import pgn": ["import", "pgn", "games.pgn"],
    "import trf": ["import", "trf", str(TRF)],
}


@pytest.mark.parametrize("args", WRITERS.values(), ids=WRITERS.keys())
def test_a_failed_commit_prints_no_report(
    club: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [str(club.parent / a) if a.endswith((".csv", ".pgn")) else a for a in args]
    unlocked = club.with_name("unlocked.db")
    shutil.copyfile(club, unlocked)
    assert run(unlocked, *args).exit_code == 0  # the command itself is fine
    before = club.read_bytes()
    monkeypatch.setattr(ratings.db, "BUSY_TIMEOUT_MS", 50)
    with read_lock(club):
        result = run(club, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", LOCKED)
    assert club.read_bytes() == before


def test_player_add_under_a_read_lock_prints_nothing_and_stores_nothing(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report's own example: "Added Zed, New (id 5)" was printed, the player not stored."""
    monkeypatch.setattr(ratings.db, "BUSY_TIMEOUT_MS", 50)
    with read_lock(club):
        result = run(club, "player", "add", "Zed, New")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", LOCKED)
    assert count(club, "SELECT count(*) FROM players WHERE name = 'Zed, New'") == 0
    assert run(club, "player", "add", "Zed, New").stdout == "Added Zed, New (id 5)\n"


def test_a_broken_pipe_inside_a_unit_of_work_rolls_back_and_says_so(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing prints inside a transaction any more; should something do so into a closed
    pipe, the work is rolled back, and that is a failure with a message, not exit 0."""
    real = service.add_player

    def add_then_break(*args: object, **kwargs: object) -> object:
        real(*args, **kwargs)  # type: ignore[arg-type]
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(service, "add_player", add_then_break)
    before = club.read_bytes()
    result = run(club, "player", "add", "Zed, New")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        "Error: the output was closed before the work was saved; nothing was changed\n",
    )
    assert club.read_bytes() == before


# --- real processes writing into closed pipes ---------------------------------------------


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A rated federation with corrected entry ratings (the next ``rate`` re-rates four
    periods and prints a long list of changes), and the same after an undisturbed ``rate``."""
    folder = tmp_path_factory.mktemp("corrected")
    players_csv, games_csv = generate(folder, players=120, games=1500, periods=3, seed=11)
    db = folder / "corrected.db"
    for args in (
        ["init"],
        ["import", "players", str(players_csv)],
        ["import", "games", str(games_csv)],
        ["rate"],
    ):
        code, out = invoke(db, *args)
        assert code == 0, out
    for player_id in range(1, 11):
        rating = "2400" if player_id % 2 else "1000"
        assert invoke(db, "player", "edit", str(player_id), "--rating", rating)[0] == 0
    rated = folder / "rated.db"
    shutil.copyfile(db, rated)
    code, out = invoke(rated, "rate")
    assert code == 0, out
    assert len(out) > 2 * PIPE_SIZE, "the report must not fit in the pipe"
    return db, rated


def small_pipe() -> tuple[int, int]:
    """A pipe that holds one page."""
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_SETPIPE_SZ"):
        pytest.skip("needs Linux's F_SETPIPE_SZ")
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    return r, w


def spawn(db: Path, stdout: int, *args: str) -> subprocess.Popen[bytes]:
    """The CLI as a separate process writing to ``stdout`` (stderr captured), with the
    block-buffered stdout a user has: PYTHONUNBUFFERED would hide the "Exception ignored"
    noise that a refused flush at exit prints."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONUNBUFFERED", None)
    return subprocess.Popen(
        command(db, *args), stdout=stdout, stderr=subprocess.PIPE, cwd=db.parent, env=env
    )


@pytest.mark.slow  # a real process writing into a closed pipe
def test_rate_into_a_pipe_closed_after_the_first_line(
    corrected: tuple[Path, Path], tmp_path: Path
) -> None:
    """``ratings rate | head -1``: the re-rate is kept, exit 0, no traceback or noise."""
    db = tmp_path / "club.db"
    shutil.copyfile(corrected[0], db)
    r, w = small_pipe()
    proc = spawn(db, w, "rate")
    os.close(w)
    first = b""
    while not first.endswith(b"\n"):
        chunk = os.read(r, 1)
        assert chunk, "no line before the end of the output"
        first += chunk
    os.close(r)  # the rest of the report (more than the pipe holds) meets a closed pipe
    _, err = proc.communicate(timeout=120)
    assert first.startswith(
        b"Re-rated 4 periods 2015-01 .. 2015-04 after corrections; "
    )  # three months of games; events ending in the last 3 days go to the next list (7.1.3)
    assert (proc.returncode, err.decode()) == (0, "")
    assert dump(db) == dump(corrected[1])


COMMANDS = {
    "rate": ["rate"],
    "player add": ["player", "add", "Zed, New"],
    "player edit": ["player", "edit", "1", "--rating", "2500"],
    "game void": ["game", "void", "1"],
}


@pytest.mark.slow  # a real process writing into a closed pipe
@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_write_into_a_pipe_closed_before_it_starts_is_kept(
    corrected: tuple[Path, Path], tmp_path: Path, args: list[str]
) -> None:
    """Every line of the report meets a closed pipe (``cmd | true``): exit 0, work kept."""
    db = tmp_path / "club.db"
    shutil.copyfile(corrected[0], db)
    expected = tmp_path / "expected.db"
    shutil.copyfile(corrected[0], expected)
    assert invoke(expected, *args)[0] == 0
    r, w = os.pipe()
    os.close(r)
    proc = spawn(db, w, *args)
    os.close(w)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err.decode()) == (0, "")
    assert dump(db) == dump(expected)


@pytest.mark.slow  # a real process writing into a closed pipe
@pytest.mark.parametrize("args", [["player", "list"], ["list", "--all"]], ids=" ".join)
def test_a_read_into_a_closed_pipe_exits_0(
    corrected: tuple[Path, Path], tmp_path: Path, args: list[str]
) -> None:
    """``ratings player list | head -1`` is not an error either."""
    r, w = small_pipe()
    proc = spawn(corrected[1], w, *args)
    os.close(w)
    assert os.read(r, 1)
    os.close(r)
    _, err = proc.communicate(timeout=120)
    assert (proc.returncode, err.decode()) == (0, "")


BOOM = """
import sys
import click
from ratings.cli import cli

@cli.command("boom")
def boom() -> None:
    click.echo("done")
    raise BrokenPipeError(32, "Broken pipe")  # as a FIFO written by a command would

cli(["boom"])
"""


@pytest.mark.slow  # a real process writing into a closed pipe
def test_a_closed_pipe_elsewhere_than_stdout_is_still_a_failure(tmp_path: Path) -> None:
    """Only standard output's reader going away is success: stdout here is a file."""
    out = tmp_path / "out.txt"
    with out.open("wb") as stdout:
        proc = subprocess.run(
            [sys.executable, "-c", BOOM], stdout=stdout, stderr=subprocess.PIPE, check=False
        )
    assert (proc.returncode, out.read_text()) == (1, "done\n")
