"""Benchmark: our code against a plain ``sqlite3`` I/O floor, at federation scale (issue 7).

Usage::

    python bench/run.py --players 20000 --games 100000,1000000 --periods 120 --seed 1

For each number of games it generates a synthetic federation (``bench/generate.py``) and an
extra period of ``--extra-games`` games (generated separately, the month after the last one),
then measures five things, for our code and for the floor:

1. ``import``: importing all games (CSV -> database);
2. ``rate``: rating every period from scratch;
3. ``next``: rating one more period on top of the full history (median of ``--repeats``);
4. ``rerate``: re-rating after a correction in period 2 (one game's result turned round);
5. peak memory: the peak RSS (``VmHWM``) of the process that ran each step.

Steps 1, 2 and 4 run ``--heavy-repeats`` times (default 1); times are medians over the
repeats, and a step's ratio is the median of the ratios of its back-to-back pairs.

Our code runs through the service functions, one transaction per command, exactly as the CLI
does (``ratings.cli.App.session``: schema check, one session, commit). The floor
(``bench/floor.py``) does the same reads and writes with the stdlib ``sqlite3`` module and
``executemany``, on the same schema (built by our migrations) and the same data, with no
checks and no rating arithmetic. Each step runs in a fresh subprocess (so its peak RSS is its
own); the time is measured inside the subprocess around the work (interpreter start and module
imports excluded for both). Ours and the floor run back to back, so their ratio is measured
under the same machine load.

With ``--db-url postgresql+psycopg://USER@HOST:PORT/DBNAME`` (issue 16) every step runs on
that PostgreSQL server instead: our code as the CLI runs against a URL (``App(url)``), the floor
is ``bench/floor_pg.py`` (plain psycopg, the same reads and rows, ``COPY`` for bulk writes).
The template database (migrations, settings, players) is built once, in a new database made
from ``template0`` with the C collation (names sort as on SQLite); each step gets a fresh
database made with ``CREATE DATABASE ... TEMPLATE ...``. The work databases are named
``ratings_bench_<pid>_<n>_<what>`` and dropped at the end; the database named in the URL is
used only for that administration (``CREATE``/``DROP DATABASE``; the user needs CREATEDB). The
report names the server's version and its ``fsync`` setting; peak RSS there is of the client
worker process only (the server's memory is not counted). Steps 3 and 4 model later sessions
(the next month, a correction months later): the database they start from is analyzed first
(``ANALYZE``, untimed), as autovacuum would have done after the commit of the step before. A
copy made with ``TEMPLATE`` starts with empty activity counters, so autovacuum never analyzes
it, and a table the step before filled in its one transaction stayed without statistics: the
rate of one more period then analyzed 2.4 million list rows and 1.9 million breakdown rows
first (0.5 s of its 1.3 s), which no monthly routine on a live server pays.

The report (Markdown) goes to stdout and, with ``--report PATH``, to a file.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))
try:
    import ratings  # noqa: F401 (checks the package is importable)
except ModuleNotFoundError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(BENCH_DIR.parent))

STEPS = ("import", "rate", "next", "rerate")
"""The measured steps, in order (peak memory is measured for each)."""

STEP_TITLES = {
    "import": "1. import all games (CSV -> db)",
    "rate": "2. rate every period from scratch",
    "next": "3. rate one more period",
    "rerate": "4. re-rate after a correction in period 2",
}


# --- the steps, run inside a worker subprocess ---------------------------------------------


def _peak_rss_mb() -> float:
    """This process's peak resident set size in MB (VmHWM; ru_maxrss where /proc is absent)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _ours(step: str, db: str, arg: str) -> dict[str, Any]:
    """Run one step with our code, as the CLI does. Returns what it did."""
    from ratings import service
    from ratings.cli import App
    from ratings.io.csv import read_games_csv
    from ratings.results import Result

    app = App(db)
    try:
        if step == "import":
            path = Path(arg)
            data = path.read_bytes()
            with app.session() as session:
                digest = service.content_hash(data)
                service.check_not_imported(session, digest, str(path))
                rows = read_games_csv(data, str(path))
                report = service.import_games(session, rows, str(path), digest)
            return {"games": report.games}
        if step == "rerate":
            with app.session() as session:
                game = service.get_game(session, int(arg))
                turned = {Result.WHITE_WIN: Result.BLACK_WIN, Result.BLACK_WIN: Result.WHITE_WIN}
                service.edit_game(session, game.id, result=turned.get(game.result, Result.DRAW))
        with app.session() as session:
            rated = service.rate(session)
        return {
            "periods": len(rated.rated) + len(rated.rerated),
            "games": rated.games,
            "changed": len(rated.changed),
        }
    finally:
        app.close()


def _is_url(db: str) -> bool:
    return "://" in db


def worker(kind: str, step: str, db: str, arg: str) -> dict[str, Any]:
    """Run one step (ours or the floor's) on ``db`` (a SQLite file, or a PostgreSQL URL) and
    return its time, peak RSS and counts."""
    run: Callable[[str, str, str], dict[str, Any]]
    if kind == "ours":
        # imported before the clock starts, as the floor's modules are
        import ratings.cli
        import ratings.io.csv
        import ratings.service  # noqa: F401

        run = _ours
    elif kind == "minimal":
        import floor_minimal  # bench/floor_minimal.py (SQLite)

        def run(step: str, db: str, arg: str) -> dict[str, Any]:
            return floor_minimal.run_step(step, Path(db), arg)
    elif _is_url(db):
        import floor_pg  # bench/floor_pg.py

        run = floor_pg.run_step
    else:
        import floor  # bench/floor.py

        def run(step: str, db: str, arg: str) -> dict[str, Any]:
            return floor.run_step(step, Path(db), arg)

    began = time.perf_counter()
    info = run(step, db, arg)
    seconds = time.perf_counter() - began
    return {"seconds": seconds, "rss_mb": _peak_rss_mb(), **info}


# --- the driver -----------------------------------------------------------------------------


@dataclass(slots=True)
class Measure:
    """One step, measured for ours and the floor (every repeat kept)."""

    step: str
    ours: list[dict[str, Any]] = field(default_factory=list)
    floor: list[dict[str, Any]] = field(default_factory=list)

    def seconds(self, kind: str) -> float:
        """Median time over the repeats."""
        return statistics.median(r["seconds"] for r in getattr(self, kind))

    def rss(self, kind: str) -> float:
        """Largest peak RSS over the repeats."""
        return max(r["rss_mb"] for r in getattr(self, kind))

    def ratio(self) -> float:
        """Median over the repeats of ours / floor, each pair measured back to back."""
        return statistics.median(
            o["seconds"] / f["seconds"] for o, f in zip(self.ours, self.floor, strict=True)
        )


@dataclass(slots=True, frozen=True)
class Server:
    """The PostgreSQL server a run measured."""

    url: str
    """``--db-url``, its password hidden."""
    version: str
    fsync: str


@dataclass(slots=True)
class SizeResult:
    """All steps at one number of games."""

    games: int
    measures: dict[str, Measure]
    rows: dict[str, int]


def _spawn(kind: str, step: str, db: str, arg: str = "") -> dict[str, Any]:
    """Run one step in a fresh Python process; returns its JSON answer."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", kind, step, db, arg],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{kind} {step} failed ({done.returncode}):\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def _add_months(first: date, months: int) -> date:
    index = first.month - 1 + months
    return date(first.year + index // 12, index % 12 + 1, 1)


def _say(quiet: bool, text: str) -> None:
    if not quiet:
        print(text, file=sys.stderr, flush=True)


class SqliteDatabases:
    """The work databases of one size as SQLite files in a folder, copied as files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def target(self, name: str) -> str:
        """What ``--db`` (and ``App``) takes for the database ``name``: its file."""
        return str(self.folder / f"{name}.db")

    def create(self, name: str) -> str:
        """An empty database (no file: the migrations create it)."""
        Path(self.target(name)).unlink(missing_ok=True)
        return self.target(name)

    def copy(self, source: str, dest: str) -> None:
        """Replace ``dest`` by a copy of ``source``."""
        shutil.copyfile(self.target(source), self.target(dest))

    def settle(self, name: str) -> None:
        """Nothing: SQLite keeps no statistics unless told to (``ratings`` never is)."""

    def query(self, name: str, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (``?`` parameters)."""
        conn = sqlite3.connect(self.target(name))
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def size_mb(self, name: str) -> int:
        """The database's size in MB."""
        return Path(self.target(name)).stat().st_size // 2**20

    def close(self) -> None:
        """Nothing to drop: the files go with the work folder."""


_PG_SERIAL = itertools.count(1)


class PgDatabases:
    """The work databases of one size on a PostgreSQL server, each named
    ``ratings_bench_<pid>_<n>_<name>``, copied with ``CREATE DATABASE ... TEMPLATE``; the
    database of ``url`` is used for that administration only. ``close()`` drops them all."""

    def __init__(self, url: str) -> None:
        import sqlalchemy as sa

        self.url = sa.engine.make_url(url)
        if self.url.get_backend_name() != "postgresql":
            raise ValueError(f"--db-url must be a PostgreSQL URL, not {self.url.drivername}")
        self.prefix = f"ratings_bench_{os.getpid()}_{next(_PG_SERIAL)}_"
        self.created: list[str] = []

    def _name(self, name: str) -> str:
        full = self.prefix + name
        if not re.fullmatch(r"[a-z0-9_]{1,63}", full):
            raise ValueError(f"unsafe database name: {full!r}")
        return full

    def _conninfo(self, database: str) -> str:
        return self.url.set(drivername="postgresql", database=database).render_as_string(
            hide_password=False
        )

    def _admin(self, *statements: str) -> None:
        import psycopg

        with psycopg.connect(self._conninfo(str(self.url.database)), autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement.encode())

    def target(self, name: str) -> str:
        """The SQLAlchemy URL of the database ``name`` (what ``App`` and the workers take)."""
        return self.url.set(database=self._name(name)).render_as_string(hide_password=False)

    def create(self, name: str) -> str:
        """A new empty database (C collation, so that names sort as on SQLite)."""
        full = self._name(name)
        self._admin(
            f"DROP DATABASE IF EXISTS {full}",
            f"CREATE DATABASE {full} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' "
            "LC_CTYPE 'C'",
        )
        self.created.append(full)
        return self.target(name)

    def copy(self, source: str, dest: str) -> None:
        """Replace ``dest`` by a copy of ``source`` (nobody may be connected to ``source``)."""
        full = self._name(dest)
        self._admin(
            f"DROP DATABASE IF EXISTS {full}",
            f"CREATE DATABASE {full} TEMPLATE {self._name(source)}",
        )
        self.created.append(full)

    def settle(self, name: str) -> None:
        """``ANALYZE`` the database ``name``, as autovacuum would after a commit (module
        docstring)."""
        import psycopg

        with psycopg.connect(self._conninfo(self._name(name)), autocommit=True) as conn:
            conn.execute("ANALYZE")

    def query(self, name: str, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (``?`` parameters, as on SQLite)."""
        import psycopg

        with psycopg.connect(self._conninfo(self._name(name))) as conn:
            return conn.execute(sql.replace("?", "%s").encode(), params).fetchall()

    def size_mb(self, name: str) -> int:
        """The database's size in MB (``pg_database_size``)."""
        import psycopg

        with psycopg.connect(self._conninfo(str(self.url.database))) as conn:
            row = conn.execute("SELECT pg_database_size(%s)", (self._name(name),)).fetchone()
        assert row is not None
        return int(row[0]) // 2**20

    def server(self) -> tuple[str, str]:
        """The server's version and its fsync setting."""
        import psycopg

        with psycopg.connect(self._conninfo(str(self.url.database))) as conn:
            version = conn.execute("SHOW server_version").fetchone()
            fsync = conn.execute("SHOW fsync").fetchone()
        assert version is not None
        assert fsync is not None
        return str(version[0]), str(fsync[0])

    def close(self) -> None:
        """Drop every database this run made."""
        self._admin(*(f"DROP DATABASE IF EXISTS {n} WITH (FORCE)" for n in set(self.created)))
        self.created.clear()


Databases = SqliteDatabases | PgDatabases


def _counts(dbs: Databases, name: str) -> dict[str, int]:
    return {
        table: dbs.query(name, f"SELECT count(*) FROM {table}")[0][0]
        for table in ("players", "events", "games", "rating_history", "rating_breakdown")
    }


def _rows_written(dbs: Databases, name: str) -> tuple[int, int]:
    history = dbs.query(name, "SELECT count(*) FROM rating_history")[0][0]
    breakdown = dbs.query(name, "SELECT count(*) FROM rating_breakdown")[0][0]
    return history, breakdown


def run_size(
    players: int,
    games: int,
    periods: int,
    seed: int,
    extra_games: int,
    repeats: int,
    work: Path,
    quiet: bool = False,
    heavy_repeats: int = 1,
    db_url: str | None = None,
) -> SizeResult:
    """Generate one federation and measure every step on it (on SQLite files, or on the
    PostgreSQL server of ``db_url``)."""
    from generate import generate  # bench/generate.py

    start = date(2015, 1, 1)
    data = work / f"data-{players}-{games}-{periods}-{seed}"
    extra = work / f"extra-{players}-{extra_games}-{periods}-{seed}"
    if not (data / "games.csv").exists():
        _say(quiet, f"generating {games} games ...")
        generate(players, games, periods, seed, data, start)
    if not (extra / "games.csv").exists():
        # the same seed and player count give the same players (and references)
        generate(players, extra_games, 1, seed, extra, _add_months(start, periods))
    dbs: Databases = (
        SqliteDatabases(work / f"db-{games}") if db_url is None else PgDatabases(db_url)
    )
    try:
        return _measure(dbs, data, extra, games, start, repeats, quiet, heavy_repeats)
    finally:
        dbs.close()


def register_players(db: str, players_csv: Path, *, closing_days: int | None = None) -> None:
    """Build a database (a SQLite path or a URL) with our migrations and the FIDE settings
    (``closing_days`` when given), and import ``players_csv`` as ``ratings import players``
    does (not timed: every benchmark starts from it)."""
    from ratings import migrate, service
    from ratings.cli import App
    from ratings.db import SessionFactory, database_url, make_engine
    from ratings.io.csv import read_players_csv
    from ratings.rules import system_config

    url = database_url(db)
    migrate.upgrade(url)
    engine = make_engine(url)
    config = system_config("fide")
    if closing_days is not None:
        config = system_config("fide", closing_days=closing_days)
    with SessionFactory(bind=engine) as session, session.begin():
        service.create_settings(session, config)
    engine.dispose()
    raw = players_csv.read_bytes()
    app = App(db)
    with app.session() as session:
        service.import_players(
            session, read_players_csv(raw, str(players_csv)), str(players_csv),
            service.content_hash(raw),
        )  # fmt: skip
    app.close()


def _measure(
    dbs: Databases,
    data: Path,
    extra: Path,
    games: int,
    start: date,
    repeats: int,
    quiet: bool,
    heavy_repeats: int,
) -> SizeResult:
    """Every step, measured on ``dbs`` (run_size's body)."""
    # closing_days 0: the floors put an event in the calendar month of its end date; with
    # FIDE's 3 days ours also rated the next month's first days, so step 3 compared two
    # periods of ours (two full lists written) with one of the floor's
    register_players(dbs.create("players"), data / "players.csv", closing_days=0)

    measures = {step: Measure(step) for step in STEPS}

    def pair(step: str, before: str, arg: str, keep: str | None = None) -> None:
        """Ours then the floor, each on a fresh copy of ``before``."""
        dbs.copy(before, "ours")
        _say(quiet, f"  {games} games: {step} (ours) ...")
        measures[step].ours.append(_spawn("ours", step, dbs.target("ours"), arg))
        if keep is not None:
            dbs.copy("ours", keep)
        dbs.copy(before, "floor")
        _say(quiet, f"  {games} games: {step} (floor) ...")
        measures[step].floor.append(_spawn("floor", step, dbs.target("floor"), arg))

    for _ in range(heavy_repeats):
        pair("import", "players", str(data / "games.csv"), keep="imported")
    for _ in range(heavy_repeats):
        pair("rate", "imported", "", keep="rated")
    rows = dict(zip(("history_rows", "breakdown_rows"), _rows_written(dbs, "rated"), strict=True))
    floor_history, floor_breakdown = _rows_written(dbs, "floor")
    rows |= {"floor_history_rows": floor_history, "floor_breakdown_rows": floor_breakdown}

    # one more period: its games are imported (not timed), then rated, ``repeats`` times; a
    # month after the rate, whose database autovacuum has analyzed (module docstring)
    dbs.settle("rated")
    dbs.copy("rated", "with_extra")
    _spawn("ours", "import", dbs.target("with_extra"), str(extra / "games.csv"))
    for _ in range(repeats):
        pair("next", "with_extra", "", keep="next")

    ((game_id,),) = dbs.query(
        "next",
        "SELECT g.id FROM games g JOIN events e ON e.id = g.event_id "
        "WHERE e.end_date >= ? AND e.end_date < ? AND g.rateable AND g.result <> '1/2-1/2' "
        "ORDER BY g.id LIMIT 1",
        (_add_months(start, 1).isoformat(), _add_months(start, 2).isoformat()),
    )
    dbs.settle("next")  # a correction, months later
    for _ in range(heavy_repeats):
        pair("rerate", "next", str(game_id))
    rows |= {f"final_{k}": v for k, v in _counts(dbs, "ours").items()}
    rows["db_mb"] = dbs.size_mb("ours")
    return SizeResult(games, measures, rows)


def report(
    results: Sequence[SizeResult],
    players: int,
    periods: int,
    seed: int,
    extra_games: int,
    repeats: int,
    elapsed: float,
    heavy_repeats: int = 1,
    server: Server | None = None,
) -> str:
    """The Markdown report of one run (``server``: the PostgreSQL server measured, if any)."""
    import sqlalchemy

    cores = os.cpu_count()
    db_url = "" if server is None else f" --db-url {server.url}"
    lines = [
        f"Run: `python bench/run.py --players {players} --games "
        f"{','.join(str(r.games) for r in results)} --periods {periods} --seed {seed} "
        f"--extra-games {extra_games} --repeats {repeats} --heavy-repeats {heavy_repeats}"
        f"{db_url}`",
        "",
        f"Machine: {cores} cores (`os.cpu_count()`), Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}, SQLAlchemy {sqlalchemy.__version__}, "
        f"{platform.machine()}; whole run {elapsed / 60:.1f} min.",
        "",
    ]
    if server is not None:
        import psycopg

        lines += [
            f"Backend: PostgreSQL {server.version} (`SHOW fsync`: {server.fsync}), psycopg "
            f"{psycopg.__version__}; the floor is `bench/floor_pg.py` (COPY for bulk writes). "
            "Peak RSS is of the client worker process only: the server's memory is not counted.",
            "",
        ]
    on = "" if server is None else " (PostgreSQL)"
    for result in results:
        lines += [
            f"### {players:,} players, {result.games:,} games, {periods} periods{on}",
            "",
            "| step | ours (s) | floor (s) | ours / floor | ours peak RSS (MB) "
            "| floor peak RSS (MB) | repeats |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for step in STEPS:
            m = result.measures[step]
            lines.append(
                f"| {STEP_TITLES[step]} | {m.seconds('ours'):.2f} | {m.seconds('floor'):.2f} "
                f"| {m.ratio():.2f}x | {m.rss('ours'):.0f} | {m.rss('floor'):.0f} "
                f"| {len(m.ours)} |"
            )
        r = result.rows
        lines += [
            "",
            f"Rows written by rating from scratch: ours {r['history_rows']:,} history + "
            f"{r['breakdown_rows']:,} breakdown; floor {r['floor_history_rows']:,} + "
            f"{r['floor_breakdown_rows']:,} (the floor writes two breakdown rows for every "
            "rated game; ours none for a side whose opponent is unrated). Final database: "
            f"{r['final_games']:,} games, {r['final_rating_history']:,} history rows, "
            f"{r['final_rating_breakdown']:,} breakdown rows, {r['db_mb']:,} MB.",
            "",
        ]
    if len(results) > 1:
        small, large = results[0], results[-1]
        factor = large.games / small.games
        lines += [
            f"### Scaling: {small.games:,} -> {large.games:,} games ({factor:g}x)",
            "",
            "| step | ours time ratio | floor time ratio |",
            "|---|---:|---:|",
        ]
        for step in STEPS:
            a, b = small.measures[step], large.measures[step]
            lines.append(
                f"| {STEP_TITLES[step]} | {b.seconds('ours') / a.seconds('ours'):.2f}x "
                f"| {b.seconds('floor') / a.seconds('floor'):.2f}x |"
            )
        lines.append("")
    return "\n".join(lines)


def run(
    players: int,
    games: Sequence[int],
    periods: int,
    seed: int = 1,
    extra_games: int = 8000,
    repeats: int = 3,
    keep: Path | None = None,
    quiet: bool = False,
    heavy_repeats: int = 1,
    db_url: str | None = None,
) -> tuple[list[SizeResult], str]:
    """Measure every size (on SQLite, or on the PostgreSQL server of ``db_url``); returns the
    results and the Markdown report."""
    began = time.perf_counter()
    server = None
    if db_url is not None:
        from ratings.db import url_for_messages

        server = Server(url_for_messages(db_url), *PgDatabases(db_url).server())
    work = keep if keep is not None else Path(tempfile.mkdtemp(prefix="ratings-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        results = [
            run_size(
                players, n, periods, seed, extra_games, repeats, work, quiet, heavy_repeats,
                db_url,
            )
            for n in games
        ]  # fmt: skip
    finally:
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    text = report(
        results,
        players,
        periods,
        seed,
        extra_games,
        repeats,
        time.perf_counter() - began,
        heavy_repeats,
        server,
    )
    return results, text


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--worker"]:
        kind, step, db, arg = args[1:5]
        print(json.dumps(worker(kind, step, db, arg)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument(
        "--games",
        required=True,
        help="number of games; several comma-separated sizes show the scaling",
    )
    parser.add_argument("--periods", type=int, required=True, help="monthly periods")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--extra-games", type=int, default=8000, help="games of the extra period (default 8000)"
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="repeats of the cheap step 3 (default 3)"
    )
    parser.add_argument(
        "--heavy-repeats",
        type=int,
        default=1,
        help="repeats of steps 1, 2 and 4 (default 1)",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="work folder to keep (data, and the SQLite databases; PostgreSQL's are dropped)",
    )
    parser.add_argument(
        "--db-url",
        help="measure on this PostgreSQL server (postgresql+psycopg://USER@HOST:PORT/DBNAME; "
        "work databases are created and dropped beside DBNAME); default: SQLite files",
    )
    parser.add_argument("--report", type=Path, help="also write the Markdown report here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    ns = parser.parse_args(args)
    sizes = [int(n) for n in ns.games.split(",")]
    _, text = run(
        ns.players,
        sizes,
        ns.periods,
        ns.seed,
        ns.extra_games,
        ns.repeats,
        ns.keep,
        ns.quiet,
        ns.heavy_repeats,
        ns.db_url,
    )
    print(text)
    if ns.report is not None:
        ns.report.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
