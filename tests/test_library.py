"""The package is the library: the README's "Use from Python" lines run as written and print
what the README shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

import ratings
from ratings import service

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_example() -> tuple[str, str]:
    """The Python code of "## Use from Python" and the output block that follows it."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use from Python", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```python\n(.*?)```\n```\n(.*?)```", section, flags=re.DOTALL)
    assert found is not None
    return found[1], found[2]


def test_the_readme_lines_run_and_print_what_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, shown = readme_example()
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    assert out.getvalue() == shown
    assert (tmp_path / "club.db").is_file()
    with ratings.open_session("club.db") as session:  # and it was committed
        assert [r.rating for r in ratings.rating_list(session).rows] == [1836, 1728]


def test_every_public_service_function_is_exported_with_its_types() -> None:
    """The service's public names are the package's, and the package says it is typed."""
    for name in service.__all__:
        assert getattr(ratings, name) is getattr(service, name), name
        assert name in ratings.__all__
    assert (Path(ratings.__file__).parent / "py.typed").is_file()


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="module 'ratings' has no attribute 'nope'"):
        _ = ratings.nope  # the package's __getattr__ raises it


def test_open_session_rolls_back_on_error(tmp_path: Path) -> None:
    db = str(tmp_path / "club.db")
    ratings.create_database(db)

    def add_then_fail() -> None:
        with ratings.open_session(db) as session:
            ratings.add_player(session, "Smith, Ann", rating=1850)
            ratings.get_player(session, "Nobody")

    with pytest.raises(ratings.PlayerNotFoundError):
        add_then_fail()
    with ratings.open_session(db) as session:
        assert ratings.list_players(session) == []
    with pytest.raises(ratings.DatabaseError, match="already exists"):
        ratings.create_database(db)
