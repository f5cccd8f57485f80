"""Benchmark: how long the reading commands take on a big database (issue 16, item 4).

Usage::

    python bench/world_queries.py /tmp/world/month.db --repeats 5
    python bench/world_queries.py --db-url postgresql+psycopg://USER@HOST:PORT/DBNAME

On a rated database (``bench/world.py --keep DIR`` builds one of FIDE's size) it times what a
user asks of it: ``ratings list`` (the newest standard list, every line of it), ``ratings
history``, ``ratings card`` (the newest period) and ``ratings player show`` for two players,
and every query of the README's SQL cookbook through ``ratings sql`` (the queries come from
README.md, parsed as ``tests/rating/test_audit.py`` does; the cookbook's player and periods are
replaced by the picked player and the newest period, and ``--timeout 0`` is added so that a
slow query is measured rather than stopped at 20 s). The two players are picked by SQL,
deterministically: the player with the most periods with standard games (lowest id on a tie)
and the first player (lowest id) with no game and no bye. A name is given as the user types
it; a name that two players share is given as the id.

Each command is timed two ways, ``--repeats`` times each (medians, min and max reported):

* as the user sees it: the wall time of ``python -m ratings --db DB ...`` in a fresh
  subprocess, interpreter start and imports included, its output sent to ``/dev/null``
  (``list`` has no output-file option);
* inside this process: the CLI invoked through click's ``CliRunner`` (output captured in
  memory), after one untimed call that does the lazy imports (its time is reported as the
  first call); module imports excluded.

Beside ``list``, its floor: the plain driver (sqlite3, psycopg) reading the same rows in this
process, nothing sorted or printed (a fresh process would add the start-up, the first row).

The database is only read. The report (Markdown) goes to stdout.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # tests.rating.test_audit (the cookbook parser), and ratings itself
    sys.path.append(str(ROOT))
if str(ROOT / "bench") not in sys.path:  # floor_pg (its URL for psycopg), loaded as a module too
    sys.path.append(str(ROOT / "bench"))

BUDGET = 1.0
"""Issue 16, item 4: every reading command answers in under 1 s."""


@dataclass(slots=True, frozen=True)
class Player:
    """A picked player: how the commands name him, and why he was picked."""

    id: int
    name: str
    ref: str
    """What the commands get: the name, or the id when the name is shared."""
    active_periods: int


@dataclass(slots=True, frozen=True)
class Command:
    """One command to time: a label for the report and the arguments after ``--db DB``."""

    label: str
    args: tuple[str, ...]


@dataclass(slots=True)
class Timing:
    """The measured times of one command (seconds)."""

    command: Command
    first: float = 0.0
    """The untimed warm-up call in this process (lazy imports, cold caches)."""
    inside: list[float] = field(default_factory=list)
    fresh: list[float] = field(default_factory=list)
    lines: int = 0
    """Lines of output (stdout)."""


@dataclass(slots=True, frozen=True)
class Picked:
    """What the commands are run on."""

    active: Player
    idle: Player
    period: str
    counts: dict[str, int]


LIST_FLOOR = "list's rows, plain driver (its floor)"
"""The report's label of the floor of ``list``."""
LIST_ROWS = """SELECT p.id, p.name, p.fide_id, p.federation, p.sex, p.title, p.birth_year,
       h.rating_after, h.change, h.period_games, h.total_games, h.next_k, h.k10,
       h.list_status, h.inactive
FROM players p
JOIN rating_history h ON h.player_id = p.id
WHERE h.period_id = (SELECT id FROM rating_periods ORDER BY start_date DESC LIMIT 1)
  AND h.time_control = 'standard' AND h.rating_after IS NOT NULL"""
"""The rows ``ratings list`` shows (the newest standard list), as it selects them."""


def _list_floor(db: str) -> tuple[float, int]:
    """The floor of ``list``: the plain driver (sqlite3, psycopg) reading the list's rows, in
    this process, with nothing sorted or printed; its time and its rows."""
    if "://" in db:
        import psycopg
        from floor_pg import conninfo

        began = time.perf_counter()
        with psycopg.connect(conninfo(db)) as conn:
            rows = conn.execute(LIST_ROWS).fetchall()
        return time.perf_counter() - began, len(rows)
    began = time.perf_counter()
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(LIST_ROWS).fetchall()
    finally:
        conn.close()
    return time.perf_counter() - began, len(rows)


def _engine(db: str) -> Any:
    import sqlalchemy as sa

    from ratings.db import database_url

    return sa.create_engine(database_url(db))


def _player(conn: Any, player_id: int, active_periods: int) -> Player:
    import sqlalchemy as sa

    name = conn.execute(
        sa.text("SELECT name FROM players WHERE id = :id"), {"id": player_id}
    ).scalar_one()
    shared = conn.execute(
        sa.text("SELECT count(*) FROM players WHERE name = :name"), {"name": name}
    ).scalar_one()
    return Player(player_id, name, name if shared == 1 else str(player_id), active_periods)


def pick(db: str) -> Picked:
    """The two players, the newest period and the table sizes (by SQL, not timed)."""
    import sqlalchemy as sa

    engine = _engine(db)
    try:
        with engine.connect() as conn:
            most = conn.execute(
                sa.text(
                    "SELECT player_id, count(*) AS n FROM rating_history "
                    "WHERE time_control = 'standard' AND period_games > 0 "
                    "GROUP BY player_id ORDER BY n DESC, player_id LIMIT 1"
                )
            ).one_or_none()
            if most is None:
                raise ValueError(f"no rated games in {db}: rate the database first")
            idle = conn.execute(
                sa.text(
                    "SELECT p.id FROM players p WHERE p.merged_into_id IS NULL "
                    "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.white_id = p.id) "
                    "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.black_id = p.id) "
                    "AND NOT EXISTS (SELECT 1 FROM byes b WHERE b.player_id = p.id) "
                    "ORDER BY p.id LIMIT 1"
                )
            ).scalar_one_or_none()
            if idle is None:
                raise ValueError(f"every player of {db} has played: no idle player to time")
            period = conn.execute(
                sa.text("SELECT label FROM rating_periods ORDER BY start_date DESC LIMIT 1")
            ).scalar_one()
            counts = {
                table: conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one()
                for table in ("players", "games", "rating_periods", "rating_history",
                              "rating_breakdown")
            }  # fmt: skip
            return Picked(_player(conn, most[0], most[1]), _player(conn, idle, 0), period, counts)
    finally:
        engine.dispose()


def cookbook() -> list[tuple[str, list[str]]]:
    """The README's cookbook queries with their options, as tests/rating/test_audit.py reads
    them."""
    from tests.rating.test_audit import cookbook_examples

    return [(query, options) for query, options, _shown in cookbook_examples()]


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def commands(picked: Picked) -> list[Command]:
    """Every command to time, in the report's order."""
    found = [
        Command("start-up only: `--version`", ("--version",)),
        Command("list", ("list",)),
    ]
    for verb in (("history",), ("card",), ("player", "show")):
        for who, player in (("most active", picked.active), ("never active", picked.idle)):
            found.append(Command(f"{' '.join(verb)} ({who})", (*verb, player.ref)))
    for number, (query, options) in enumerate(cookbook(), 1):
        sql = query.replace("'Elard, Carl'", _quoted(picked.active.name))
        sql = re.sub(r"'\d{4}-\d\d'", _quoted(picked.period), sql)
        words = " ".join(sql.split())
        words = words[words.find(" FROM ") + 1 :]  # what it reads tells the queries apart
        shown = words if len(words) <= 50 else words[:47] + "..."
        label = f"sql {number}: `{shown}`" + (f" {' '.join(options)}" if options else "")
        found.append(Command(label, ("sql", sql, *options, "--timeout", "0")))
    return found


def _in_process(db: str, args: Sequence[str]) -> tuple[float, int]:
    """One call of the CLI through CliRunner: its time and its lines of output."""
    from click.testing import CliRunner

    from ratings.cli import cli

    runner = CliRunner()
    began = time.perf_counter()
    result = runner.invoke(cli, ["--db", db, *args])
    seconds = time.perf_counter() - began
    if result.exit_code != 0:
        raise RuntimeError(f"ratings {' '.join(args)} failed ({result.exit_code}):\n"
                           f"{result.output}")  # fmt: skip
    return seconds, result.stdout.count("\n")


def _environment() -> dict[str, str]:
    """The subprocess's environment: the same ``ratings`` package as this process."""
    import ratings

    env = dict(os.environ)
    package_root = str(Path(ratings.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    return env


def _fresh_process(db: str, args: Sequence[str], env: dict[str, str]) -> float:
    """One ``python -m ratings`` run, output to /dev/null: its wall time."""
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ratings", "--db", db, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise RuntimeError(f"ratings {' '.join(args)} failed ({done.returncode}):\n"
                           f"{done.stderr.decode(errors='replace')}")  # fmt: skip
    return seconds


def measure(db: str, repeats: int, *, fresh: bool = True, only: Iterable[str] = (),
            quiet: bool = False) -> tuple[Picked, list[Timing]]:  # fmt: skip
    """Pick the players and time every command (``only``: the commands whose label starts
    with one of these; ``fresh=False``: no subprocess runs)."""
    import ratings.cli  # noqa: F401 (imported before any clock starts)

    prefixes = tuple(only)
    picked = pick(db)
    env = _environment()
    timings: list[Timing] = []
    for command in commands(picked):
        if prefixes and not command.label.startswith(prefixes):
            continue
        if not quiet:
            print(f"{command.label} ...", file=sys.stderr, flush=True)
        timing = Timing(command)
        timing.first, timing.lines = _in_process(db, command.args)
        for _ in range(repeats):
            timing.inside.append(_in_process(db, command.args)[0])
        if fresh:
            for _ in range(repeats):
                timing.fresh.append(_fresh_process(db, command.args, env))
        timings.append(timing)
        if command.args == ("list",):
            floor = Timing(Command(LIST_FLOOR, ()))
            floor.first, floor.lines = _list_floor(db)
            floor.inside = [_list_floor(db)[0] for _ in range(repeats)]
            timings.append(floor)
    return picked, timings


def _cell(times: Sequence[float]) -> str:
    if not times:
        return "-"
    median = statistics.median(times)
    mark = f"**{median:.2f}**" if median >= BUDGET else f"{median:.2f}"
    return mark if len(times) == 1 else f"{mark} ({min(times):.2f}-{max(times):.2f})"


def _backend(db: str) -> str:
    if "://" not in db:
        return f"SQLite {sqlite3.sqlite_version}, file {Path(db).stat().st_size / 2**20:,.0f} MB"
    engine = _engine(db)
    try:
        with engine.connect() as conn:
            version = conn.exec_driver_sql("SHOW server_version").scalar_one()
            fsync = conn.exec_driver_sql("SHOW fsync").scalar_one()
            size = conn.exec_driver_sql("SELECT pg_database_size(current_database())").scalar_one()
    finally:
        engine.dispose()
    return f"PostgreSQL {version} (fsync {fsync}), database {int(size) / 2**20:,.0f} MB"


def report(db: str, picked: Picked, timings: Sequence[Timing], argv: Sequence[str],
           elapsed: float) -> str:  # fmt: skip
    """The Markdown report."""
    from ratings.db import url_for_messages

    shown_argv = [url_for_messages(a) if "://" in a else a for a in argv]
    counts = picked.counts
    repeats = max((len(t.inside) for t in timings), default=0)
    lines = [
        f"Run: `python bench/world_queries.py {' '.join(shown_argv)}`",
        "",
        f"Database: {_backend(db)}; {counts['players']:,} players, {counts['games']:,} "
        f"games, {counts['rating_periods']} periods, {counts['rating_history']:,} list rows, "
        f"{counts['rating_breakdown']:,} breakdown rows; newest period {picked.period}.",
        f"Players: most active {picked.active.name!r} (id {picked.active.id}, standard games "
        f"in {picked.active.active_periods} periods); never active {picked.idle.name!r} "
        f"(id {picked.idle.id}).",
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.machine()}; load average at the end "
        f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}; whole run {elapsed / 60:.1f} min.",
        "",
        f"Seconds, median (min-max) of {repeats} runs; **bold**: {BUDGET:g} s or more.",
        "",
        "| command | as the user sees it: `python -m ratings` | in process (CliRunner) "
        "| first call in process | output lines |",
        "|---|---:|---:|---:|---:|",
    ]
    for t in timings:
        lines.append(
            f"| {t.command.label} | {_cell(t.fresh)} | {_cell(t.inside)} | {t.first:.2f} "
            f"| {t.lines:,} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("db", nargs="?", help="the SQLite file (read only)")
    parser.add_argument(
        "--db-url", help="or a PostgreSQL database: postgresql+psycopg://USER@HOST:PORT/DBNAME"
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs of each way (default 5)")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="LABEL",
        help="time only the commands whose label starts with LABEL (repeatable), e.g. 'list'",
    )
    parser.add_argument(
        "--in-process-only", action="store_true", help="no fresh `python -m ratings` runs"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(args)
    if (ns.db is None) == (ns.db_url is None):
        parser.error("give either a SQLite file or --db-url")
    db = ns.db_url if ns.db_url is not None else ns.db
    if "://" not in db and not Path(db).is_file():
        parser.error(f"no such file: {db}")
    began = time.perf_counter()
    picked, timings = measure(
        db, ns.repeats, fresh=not ns.in_process_only, only=ns.only, quiet=ns.quiet
    )
    print(report(db, picked, timings, args, time.perf_counter() - began))
    return 0


if __name__ == "__main__":
    sys.exit(main())
