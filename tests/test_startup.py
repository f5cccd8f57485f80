"""`ratings --help` and `--version` start without the heavy libraries, and the summaries the
top-level help shows without loading the commands are the commands' own.
The times are measured by bench/startup.py, never here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from ratings.cli import COMMANDS, cli, load_all
from tests.publish_helpers import demo
from tests.safety_helpers import bench_module

HEAVY = ("sqlalchemy", "alembic", "jinja2", "matplotlib", "psycopg", "vl_convert", "chess")
"""Libraries neither ``--help`` nor ``--version`` may import."""

PROBE = """
import sys
from ratings.cli import cli
try:
    cli(sys.argv[1:])
except SystemExit:
    pass
heavy = {HEAVY!r}
print(sorted(m for m in sys.modules if m.split(".")[0] in heavy))
print(sorted(m for m in sys.modules if m.startswith("ratings.cli.")))
print(sorted(m for m in sys.modules if m.startswith("ratings.rules")))
"""


def _probe(*args: str) -> tuple[list[str], list[str], list[str]]:
    """(heavy modules, ratings.cli modules, ratings.rules modules) a fresh interpreter holds
    after ``ratings ARGS``."""
    code = PROBE.format(HEAVY=HEAVY)
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    heavy, commands, rules = done.stdout.splitlines()[-3:]
    return eval(heavy), eval(commands), eval(rules)  # three printed lists of names


def _loaded(*args: str) -> tuple[list[str], list[str]]:
    """(heavy modules, ratings.cli modules) a fresh interpreter holds after ``ratings ARGS``."""
    heavy, commands, _rules = _probe(*args)
    return heavy, commands


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["-h"]])
def test_help_and_version_import_no_command_and_no_heavy_library(args: list[str]) -> None:
    assert _probe(*args) == ([], [], [])  # nor the rating rules: no command needs them yet


def test_calc_opens_no_database_library() -> None:
    heavy, commands = _loaded("calc", "expected", "1600", "1400")
    assert heavy == []
    assert commands == ["ratings.cli.calc", "ratings.cli.complete", "ratings.cli.types"]


def test_a_command_imports_its_own_modules_only() -> None:
    heavy, commands = _loaded("sql", "--help")
    assert [m for m in heavy if m.split(".")[0] in ("chess", "jinja2", "vl_convert")] == []
    assert "ratings.cli.records" not in commands
    assert "ratings.cli.sql" in commands


def test_the_table_names_every_command_with_its_own_summary() -> None:
    load_all()
    assert set(cli.commands) == set(COMMANDS)
    for name, (_modules, summary) in COMMANDS.items():
        assert cli.commands[name].get_short_help_str(limit=10_000) == summary, name


def test_help_lists_what_click_would_list_with_every_command_loaded() -> None:
    load_all()
    shown = []
    for layout in (cli.format_commands, lambda c, f: click.Group.format_commands(cli, c, f)):
        ctx = click.Context(cli, info_name="ratings")
        formatter = ctx.make_formatter()
        layout(ctx, formatter)
        shown.append(formatter.getvalue())
    lazy, loaded = shown
    assert lazy == loaded
    assert lazy.count("\n  ") == len(COMMANDS)


def test_each_command_loads_its_subcommands() -> None:
    """A group whose subcommands come from several modules (``import trf``, ``import undo``,
    ``game list``) has all of them once the group is looked up."""
    for name, (modules, _summary) in COMMANDS.items():
        command = cli.get_command(click.Context(cli), name)
        assert command is not None, name
        for module in modules:
            assert f"ratings.cli.{module}" in sys.modules, (name, module)
    assert {"trf", "pgn", "fide-list", "list", "undo"} <= set(cli.commands["import"].commands)  # type: ignore[attr-defined]
    assert "list" in cli.commands["game"].commands  # type: ignore[attr-defined]


READ_PROBE = """
import sys
from ratings.cli import cli
try:
    cli(sys.argv[1:])
    code = 0
except SystemExit as exc:
    code = exc.code
print(code)
print(sorted(sys.modules))
"""

NOT_FOR_READING = (
    "alembic",  # the schema's revision is read with one SELECT
    "sqlalchemy.dialects.postgresql",  # on a SQLite file: models.declare_postgresql_options
    "chess",
    "jinja2",
    "matplotlib",
    "vl_convert",
    "ratings.site",
    "ratings.cli.imports",
    "ratings.io.csv",
    "ratings.io.pgn",
    "ratings.io.trf",
    "ratings.service.imports",
    "ratings.service.corrections.undo",
    "ratings.service.register.merge",
    "ratings.privileges",  # the reader role and the views' SQL: for migrations only
    "ratings.views",  # but `check`, which holds the database's views against ratings' own
    "ratings.backups",  # db backup and restore; a command's tidy loads it only when needed
)
"""Modules no read command needs: the libraries of other commands, the file readers and the
imports, the undo and the merge, the backups."""

CORRECTIONS = ("ratings.service.corrections",)
THE_RATER = ("ratings.service.rating.rate", "ratings.service.reading.reports")
RATER_ONLY = ("ratings.service.rating.rate",)  # the reports without the preview
PLAYER_PAGE = ("ratings.service.reading.summary",)  # what `player show` prints
ONE_PLAYER = ("ratings.service.reading.cards", *PLAYER_PAGE)  # history, card, performance
THE_REGISTER = ("ratings.service.register.players", "ratings.matching")  # adding, matching


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo database, built once for the module."""
    return demo(tmp_path_factory.mktemp("startup"))


def _newest(db: Path) -> tuple[str, str]:
    """(the name of the player with the most games in the newest period, that period): the
    benchmark's own choice (``bench/startup.py``), so that the test runs what it times."""
    found: tuple[str, str] = bench_module("startup.py", "bench_startup").newest(str(db))
    return found


def _read_modules(db: Path, *args: str) -> list[str]:
    """The modules a fresh interpreter holds after ``ratings --db DB ARGS`` (which must
    succeed)."""
    done = subprocess.run(
        [sys.executable, "-c", READ_PROBE, "--db", str(db), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    code, modules = done.stdout.splitlines()[-2:]
    assert code == "0", done.stderr
    return list(eval(modules))  # a printed list of names


def _under(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)]


@pytest.mark.parametrize(
    ("command", "also_unused"),
    [
        ("card", CORRECTIONS + RATER_ONLY + THE_REGISTER + PLAYER_PAGE),
        ("history", CORRECTIONS + RATER_ONLY + THE_REGISTER + PLAYER_PAGE),
        ("player show", CORRECTIONS + RATER_ONLY + THE_REGISTER),
        ("player list", CORRECTIONS + THE_RATER + ONE_PLAYER),
        ("preview", CORRECTIONS + ONE_PLAYER),  # rates: the rater, not the corrections
        ("check", CORRECTIONS),  # rates again from the inputs: the rater
    ],
)
def test_a_read_command_imports_only_what_it_reads_with(
    demo_db: Path, command: str, also_unused: tuple[str, ...]
) -> None:
    """Each read command of bench/startup.py, as it measures it, leaves the imports, the
    corrections it does not run and the other commands' libraries unloaded."""
    player, period = _newest(demo_db)
    args = {
        "card": ["card", player],
        "history": ["history", player],
        "player show": ["player", "show", player],
        "player list": ["player", "list"],
        "preview": ["preview"],
        "check": ["check", "--period", period],
    }[command]
    modules = _read_modules(demo_db, *args)
    assert "sqlalchemy.orm" in modules  # the floor they are measured against
    unused = NOT_FOR_READING + also_unused
    if command == "check":
        assert "ratings.schema_objects" in modules
        unused = tuple(m for m in unused if m != "ratings.views")
    assert _under(modules, unused) == []


def test_the_benchmark_holds_each_case_to_its_own_floor() -> None:
    """bench/startup.py's table: each ratio is to the median of the case's own floor in the
    same run, and a target says met or not met."""
    bench = bench_module("startup.py", "bench_startup")
    measured = [
        bench.Case("floor: click", ("c",), "floor: click"),
        bench.Case("--version", ("v",), "floor: click", 1.5),
        bench.Case("floor: ORM", ("o",), "floor: ORM"),
        bench.Case("card PLAYER", ("k",), "floor: ORM", 1.5),
        bench.Case("preview", ("p",), "floor: ORM", 1.5),
    ]
    times = {
        "floor: click": [(0.040, 0.030), (0.050, 0.040), (0.060, 0.050)],
        "--version": [(0.050, 0.040), (0.060, 0.050), (0.070, 0.060)],
        "floor: ORM": [(0.300, 0.200), (0.400, 0.300), (0.500, 0.400)],
        "card PLAYER": [(0.500, 0.400), (0.600, 0.450), (0.700, 0.500)],
        "preview": [(0.600, 0.500), (0.610, 0.510), (0.620, 0.520)],
    }
    rows = bench.report(measured, times).splitlines()
    assert rows[0] == "3 runs of each case, interleaved; medians; each ratio to its floor's median."
    assert rows[4:] == [
        "| `floor: click` | 50 ms | 40-60 ms | 1.00x |  | 40 ms | 1.00x |",
        "| `--version` | 60 ms | 50-70 ms | **1.20x** | within 1.5x: met | 50 ms | 1.25x |",
        "| `floor: ORM` | 400 ms | 300-500 ms | 1.00x |  | 300 ms | 1.00x |",
        "| `card PLAYER` | 600 ms | 500-700 ms | **1.50x** | within 1.5x: met | 450 ms | 1.50x |",
        "| `preview` | 610 ms | 600-620 ms | **1.52x** | within 1.5x: **not met** | 510 ms "
        "| 1.70x |",
    ]


@pytest.mark.slow  # 24 fresh interpreters, half of them loading SQLAlchemy: about 15 s
def test_the_benchmark_runs_on_a_database_it_is_given(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = bench_module("startup.py", "bench_startup")
    assert bench.main(["--repeats", "1", "--db", str(demo_db)]) == 0
    out = capsys.readouterr().out
    _player, period = _newest(demo_db)
    rows = [line.split(" | ")[0] for line in out.splitlines() if line.startswith("| `")]
    assert rows == [
        "| `floor: click`", "| `--version`", "| `--help`", "| `list`", "| `list, URL`",
        "| `floor: ORM`", "| `card PLAYER`", "| `history PLAYER`", "| `player show PLAYER`",
        "| `player list`", "| `preview`", f"| `check --period {period}`",
    ]  # fmt: skip
