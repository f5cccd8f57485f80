"""Concurrency: real processes on one SQLite file.

Every command is one transaction that begins with BEGIN IMMEDIATE, and every connection
waits up to ``BUSY_TIMEOUT_MS`` for another process's lock. So two writers serialise: the
second waits, then sees the first one's work (``Nothing to rate``, or a refused re-import),
or, past the timeout, fails cleanly with ``Error: ...`` and changes nothing.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import exc as sa_exc

import ratings.db
from ratings import errors
from ratings.cli import App, cli
from ratings.db import BUSY_TIMEOUT_MS, database_url, make_engine
from tests.safety_helpers import build, count, digest, generate, integrity, invoke, start

# the module, not the function of the same name that ratings.service exports
rate_module = importlib.import_module("ratings.service.rating.rate")

SCALE = int(os.environ.get("RATINGS_SAFETY_SCALE", "1"))
"""Multiplies the concurrent runs, for a longer run (the figures in docs/RELIABILITY.md)."""
PLAYERS = 150
GAMES = 4000
PERIODS = 3


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Files and databases: registered (players only), imported (games too), and the
    states the serial orders of the commands produce."""
    folder = tmp_path_factory.mktemp("concurrency")
    players_csv, games_csv = generate(
        folder, players=PLAYERS, games=GAMES, periods=PERIODS, seed=99
    )
    registered = folder / "registered.db"
    build(registered, players_csv)
    imported = folder / "imported.db"
    shutil.copyfile(registered, imported)
    assert invoke(imported, "import", "games", str(games_csv))[0] == 0
    rated = folder / "rated.db"
    shutil.copyfile(imported, rated)
    assert invoke(rated, "rate")[0] == 0
    rate_first = folder / "rate-first.db"  # rate finds no games, then the import runs
    shutil.copyfile(registered, rate_first)
    assert invoke(rate_first, "rate") == (0, "Nothing to rate\n")
    assert invoke(rate_first, "import", "games", str(games_csv))[0] == 0
    return {
        "games_csv": games_csv,
        "registered": registered,
        "imported": imported,
        "rated": rated,
        "rate_first": rate_first,
    }


def copy(src: Path, folder: Path, name: str = "club.db") -> Path:
    """A private copy of a database."""
    path = folder / name
    shutil.copyfile(src, path)
    return path


def finish(*procs: subprocess.Popen[str]) -> list[tuple[int, str, str]]:
    """Wait for every process: (exit code, stdout, stderr) each."""
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        results.append((proc.returncode, out, err))
    return results


# --- every connection: foreign keys, busy timeout, BEGIN IMMEDIATE -------------------------


def pragmas(url: str, **options: bool) -> tuple[int, int]:
    """(foreign_keys, busy_timeout) as a fresh connection of ``make_engine`` has them."""
    engine = make_engine(url, **options)
    try:
        with engine.connect() as conn:
            fk = conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one()
            timeout = conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one()
        return fk, timeout
    finally:
        engine.dispose()


def test_every_connection_has_foreign_keys_and_a_busy_timeout(db_path: Path) -> None:
    url = database_url(str(db_path))
    assert BUSY_TIMEOUT_MS >= 5000
    assert pragmas(url) == (1, BUSY_TIMEOUT_MS)
    assert pragmas(url, read_only=True) == (1, BUSY_TIMEOUT_MS)
    # the migration engine only: batch migrations need enforcement off
    # (docs/DESIGN.md#foreign-keys-off-while-migrating)
    assert pragmas(url, enforce_foreign_keys=False) == (0, BUSY_TIMEOUT_MS)
    app = App(str(db_path))
    try:
        with app.engine().connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one() == BUSY_TIMEOUT_MS
    finally:
        app.close()


def test_a_transaction_takes_the_write_lock_at_begin(db_path: Path) -> None:
    """BEGIN IMMEDIATE: a second writer cannot even start while a command's transaction is
    open, so no command fails halfway on a lock upgrade."""
    engine = make_engine(database_url(str(db_path)))
    other = sqlite3.connect(db_path, timeout=0, isolation_level=None)
    try:
        with engine.connect() as conn, conn.begin():
            conn.exec_driver_sql("SELECT 1").scalar()  # a read only: the lock is taken anyway
            with pytest.raises(sqlite3.OperationalError, match="database is locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    finally:
        other.close()
        engine.dispose()


def test_foreign_keys_are_enforced(db_path: Path) -> None:
    engine = make_engine(database_url(str(db_path)))
    try:
        with (
            pytest.raises(sa_exc.IntegrityError, match="FOREIGN KEY constraint failed"),
            engine.begin() as conn,
        ):
            conn.exec_driver_sql(
                "INSERT INTO games (event_id, played_on, white_id, black_id, result, rateable) "
                "VALUES (999, '2026-01-01', 998, 997, '1-0', 1)"
            )
    finally:
        engine.dispose()


def test_a_command_that_fails_halfway_changes_nothing(
    federation: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rate` writes period after period; a failure in the third leaves no trace of the
    first two: the command is one transaction."""
    db = copy(federation["imported"], tmp_path)
    before = db.read_bytes()
    original: Callable[[object, object, int], int] = rate_module._Rater.rate_period
    calls = []

    def failing(self: object, period: object, period_id: int) -> int:
        calls.append(period)
        if len(calls) == 3:
            raise errors.PeriodError("simulated failure in the third period")
        return original(self, period, period_id)

    monkeypatch.setattr(rate_module._Rater, "rate_period", failing)
    assert invoke(db, "rate") == (1, "Error: simulated failure in the third period\n")
    assert len(calls) == 3
    assert db.read_bytes() == before


# --- real processes at once ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("run", range(3 * SCALE))
def test_two_rates_at_once(federation: dict[str, Path], tmp_path: Path, run: int) -> None:
    db = copy(federation["imported"], tmp_path)
    results = finish(start(db, "rate"), start(db, "rate"))
    assert [code for code, _, _ in results] == [0, 0], results
    outputs = sorted(out for _, out, _ in results)
    assert outputs[0] == "Nothing to rate\n"
    assert outputs[1].startswith(f"Rated {PERIODS} periods ")
    assert count(db, "SELECT count(*) FROM rating_periods") == PERIODS
    assert count(db, "SELECT count(*) FROM rating_history") == PLAYERS * PERIODS
    assert (
        count(
            db, "SELECT count(*) FROM (SELECT 1 FROM rating_history GROUP BY period_id, player_id)"
        )
        == PLAYERS * PERIODS
    )
    assert integrity(db) == "ok"
    assert digest(db) == digest(federation["rated"])


@pytest.mark.slow
@pytest.mark.parametrize("run", range(3 * SCALE))
def test_an_import_and_a_rate_at_once(
    federation: dict[str, Path], tmp_path: Path, run: int
) -> None:
    """Either order is fine; a mixture (half the games rated, a period rated twice) is not."""
    db = copy(federation["registered"], tmp_path)
    games = str(federation["games_csv"])
    procs = (start(db, "import", "games", games), start(db, "rate"))
    (import_code, _, import_err), (rate_code, rate_out, rate_err) = finish(*procs)
    assert (import_code, rate_code) == (0, 0), (import_err, rate_err)
    assert integrity(db) == "ok"
    state = digest(db)
    if rate_out == "Nothing to rate\n":
        assert state == digest(federation["rate_first"])
    else:
        assert rate_out.startswith(f"Rated {PERIODS} periods ")
        assert state == digest(federation["rated"])
    assert count(db, "SELECT count(*) FROM games") == GAMES


@pytest.mark.slow
def test_the_same_import_twice_at_once(federation: dict[str, Path], tmp_path: Path) -> None:
    db = copy(federation["registered"], tmp_path)
    games = str(federation["games_csv"])
    results = finish(start(db, "import", "games", games), start(db, "import", "games", games))
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 1], results
    refused = next(err for code, _, err in results if code == 1)
    assert refused.startswith(f"Error: {games}: this file was already imported on ")
    assert count(db, "SELECT count(*) FROM games") == GAMES
    assert count(db, "SELECT count(*) FROM imports") == 2  # the players file and this one
    assert digest(db) == digest(federation["imported"])


# --- waiting for a lock, and giving up cleanly -----------------------------------------


@pytest.fixture
def locked(
    federation: dict[str, Path], tmp_path: Path
) -> Iterator[tuple[Path, sqlite3.Connection]]:
    """A database another connection holds an exclusive lock on."""
    db = copy(federation["imported"], tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield db, holder
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()


def _has_open(pid: int, path: Path) -> bool:
    try:
        return any(
            os.path.realpath(f"/proc/{pid}/fd/{fd}") == str(path.resolve())
            for fd in os.listdir(f"/proc/{pid}/fd")
        )
    except (FileNotFoundError, ProcessLookupError):
        return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc")
def test_a_command_waits_for_the_lock(
    locked: tuple[Path, sqlite3.Connection], federation: dict[str, Path]
) -> None:
    db, holder = locked
    proc = start(db, "rate")
    deadline = time.monotonic() + 60
    while not _has_open(proc.pid, db):  # poll: the process has reached the database
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.01)
    # it cannot get past our lock; without a busy timeout it would give up at once
    with pytest.raises(subprocess.TimeoutExpired):
        proc.wait(timeout=1.0)
    holder.execute("ROLLBACK")
    ((code, out, err),) = finish(proc)
    assert code == 0, err
    assert out.startswith(f"Rated {PERIODS} periods ")
    assert digest(db) == digest(federation["rated"])


def test_a_command_gives_up_cleanly_after_the_busy_timeout(
    locked: tuple[Path, sqlite3.Connection], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = locked
    monkeypatch.setattr(ratings.db, "BUSY_TIMEOUT_MS", 50)
    before = db.read_bytes()
    result = CliRunner().invoke(cli, ["--db", str(db), "rate"])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert (result.exit_code, result.output) == (
        1,
        "Error: database error: database is locked\n",
    )
    assert db.read_bytes() == before
