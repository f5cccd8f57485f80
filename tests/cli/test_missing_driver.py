"""A database URL whose driver is not installed: one line naming what to
install, exit 1, no traceback.

Seen: a ``postgresql+psycopg://`` URL without the psycopg driver ended in a 40-line
traceback (``ModuleNotFoundError: No module named 'psycopg'``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings import create_database
from ratings.cli import cli
from ratings.errors import DatabaseError

URL = "postgresql+psycopg://admin:secret@127.0.0.1:1/club"
MISSING = (
    "Error: PostgreSQL needs the psycopg driver, which is not installed: "
    "pip install 'ratings[postgres]'\n"
)


@pytest.fixture
def without_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    """``import psycopg`` fails as it does where the package is not installed."""
    for name in list(sys.modules):
        if name == "psycopg" or name.startswith("psycopg."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "psycopg", None)  # None: the import raises ImportError


@pytest.mark.usefixtures("without_psycopg")
@pytest.mark.parametrize(
    "args",
    [["list"], ["init"], ["rate"], ["sql", "SELECT 1"], ["publish", "site"], ["db", "current"]],
)
def test_one_line_naming_the_extra(args: list[str], tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", URL, *args[:1], *args[1:]])
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", MISSING)
    assert not isinstance(result.exception, ImportError)


@pytest.mark.usefixtures("without_psycopg")
def test_the_library_raises_a_database_error() -> None:
    with pytest.raises(DatabaseError, match=r"^PostgreSQL needs the psycopg driver"):
        create_database(URL)


def test_another_missing_driver_or_an_unknown_scheme(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--db", "mysql://admin:secret@host/club", "list"])
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: the database driver for 'mysql://' is not installed (No module named "
        "'MySQLdb'); ratings uses a SQLite file or PostgreSQL (postgresql+psycopg://...)\n",
    )
    result = runner.invoke(cli, ["--db", "foo://x", "list"])
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: unknown kind of database URL 'foo://': give a SQLite file path or a "
        "postgresql+psycopg://USER@HOST/DATABASE URL\n",
    )


def test_the_readme_names_the_extra() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    section = readme.split("### PostgreSQL\n", 1)[1].split("\n#", 1)[0]
    assert "pip install 'ratings[postgres]'" in section
    assert "postgresql+psycopg://" in section


def test_a_server_that_refuses_is_one_line() -> None:
    """Seen: psycopg's message runs over two lines, the second indented with a tab, and came
    out as a second `Error:` line starting with the tab."""
    pytest.importorskip("psycopg")
    result = CliRunner().invoke(cli, ["--db", URL, "list"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.splitlines()
    assert line.startswith("Error: database error: connection failed: ")
    assert "Is the server running" in line
    assert "\t" not in line
    assert "  " not in line
