"""Helpers for the safety tests (crashes, concurrency, backups): synthetic databases built with
the real CLI, table dumps to compare states, and the CLI as a real process."""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import importlib.util
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from tests import support
from tests.conftest import init_database

ROOT = Path(__file__).resolve().parents[1]

TIMESTAMPS = frozenset(
    {"rated_at", "imported_at", "superseded_at", "recorded_at", "created_at", "created"}
)
"""Columns that hold the wall clock: two runs of the same command differ only there."""


def bench_module(file: str, name: str) -> ModuleType:
    """The script bench/``file`` loaded as the module ``name`` (bench/ is not a package and
    not in the wheel), registered in ``sys.modules`` (dataclasses look their module up while
    the class is built)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / file)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def small_bench_report(file: str, name: str, work: Path) -> tuple[str, list[str]]:
    """Run the paired benchmark bench/``file`` on a tiny federation (40 players, 300 games,
    3 periods, one repeat) in ``work``: its Markdown report, and the report's table rows."""
    report = work / "report.md"
    code = bench_module(file, name).main(
        [
            "--players", "40", "--games", "300", "--periods", "3", "--repeats", "1",
            "--work", str(work / "work"), "--report", str(report), "--quiet",
        ]
    )  # fmt: skip
    assert code == 0
    text = report.read_text()
    assert "Database: 40 players, 300 games, 3 periods" in text
    return text, [line for line in text.splitlines() if line.startswith("| ")]


@contextlib.contextmanager
def bench_on_path() -> Iterator[None]:
    """bench/ on ``sys.path`` for a while: for the scripts that import their siblings
    (``import run as bench_run``, ``from generate import generate``)."""
    folder = str(ROOT / "bench")
    sys.path.insert(0, folder)
    try:
        yield
    finally:
        sys.path.remove(folder)


def bench_generate() -> ModuleType:
    """bench/generate.py as a module."""
    return bench_module("generate.py", "bench_generate")


def generate(
    out: Path,
    *,
    players: int,
    games: int,
    periods: int,
    seed: int,
    start: dt.date = dt.date(2015, 1, 1),
) -> tuple[Path, Path]:
    """Write a synthetic federation's players.csv and games.csv; return both paths."""
    files = bench_generate().generate(players, games, periods, seed, out, start)
    return files.players_csv, files.games_csv


def invoke(db: Path | str, *args: str) -> tuple[int, str]:
    """The exit code and what was printed (stdout and stderr as they came) of
    :func:`tests.support.run`: the CLI in this process; a traceback fails the test."""
    result = support.run(db, *args)
    return result.exit_code, result.output


def build(db: Path, players_csv: Path | None = None, games_csv: Path | None = None) -> None:
    """``ratings init`` and, if given, the two imports."""
    init_database(db)  # what `ratings init` makes, copied (tests.conftest)
    if players_csv is not None:
        code, out = invoke(db, "import", "players", str(players_csv))
        assert code == 0, out
    if games_csv is not None:
        code, out = invoke(db, "import", "games", str(games_csv))
        assert code == 0, out


def command(db: Path, *args: str) -> list[str]:
    """The argv of the CLI as a separate process, with this interpreter."""
    return [sys.executable, "-m", "ratings", "--db", str(db), *args]


def start(db: Path, *args: str) -> subprocess.Popen[str]:
    """Start the CLI in a separate process (stdout and stderr captured)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen(
        command(db, *args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=db.parent,
        env=env,
    )


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows, ordered, without the timestamp columns; plus the schema.

    Opens the file read-write, so that a hot journal left by a killed process is rolled
    back first, as any later command would do.
    """
    conn = sqlite3.connect(path)
    try:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        out: dict[str, list[tuple[object, ...]]] = {
            "sqlite_master": conn.execute(
                "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
            ).fetchall()
        }
        for table in tables:
            columns = [
                row[1]
                for row in conn.execute(f'PRAGMA table_info("{table}")')
                if row[1] not in TIMESTAMPS
            ]
            listed = ", ".join(f'"{c}"' for c in columns)
            out[table] = conn.execute(
                f'SELECT {listed} FROM "{table}" ORDER BY {listed}'
            ).fetchall()
        return out
    finally:
        conn.close()


def digest(path: Path) -> str:
    """A short fingerprint of :func:`dump`."""
    return hashlib.sha256(repr(dump(path)).encode()).hexdigest()[:16]


def integrity(path: Path) -> str:
    """``PRAGMA integrity_check`` (after rolling back any hot journal)."""
    conn = sqlite3.connect(path)
    try:
        return "; ".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


def count(path: Path, sql: str) -> int:
    """A single number from a query."""
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


def journal_of(db: Path) -> Path:
    """The rollback journal next to a database (journal_mode=DELETE)."""
    return db.with_name(f"{db.name}-journal")


def wait_for_journal(proc: subprocess.Popen[str], db: Path, limit: float = 120) -> float | None:
    """Poll until the journal appears (its time.monotonic()), or None if the process ends
    first."""
    journal = journal_of(db)
    deadline = time.monotonic() + limit
    while not journal.exists():
        if proc.poll() is not None:
            return None
        if time.monotonic() > deadline:
            raise TimeoutError(f"no journal after {limit}s")
        time.sleep(0.001)
    return time.monotonic()
