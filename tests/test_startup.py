"""`ratings --help` and `--version` start without the heavy libraries, and the summaries the
top-level help shows without loading the commands are the commands' own.
The times are measured by bench/startup.py, never here."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from ratings.cli import COMMANDS, cli, load_all

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
