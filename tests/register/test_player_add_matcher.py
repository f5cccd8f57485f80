"""``player add`` and ``player edit --name`` ask the matcher (ratings.matching), as the imports
do: an accent-less spelling, ``Given Surname`` or a registered alias of someone is that
person, refused as a second registration unless told apart and confirmed; a close name
(initials, a missing word, a typo) is added with a warning that names whom it is close to.
Seen: ``player add "Novak, Jiri"`` beside ``Novák, Jiří`` made a second player, rated and
published."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import init_database, table_rows
from tests.support import invoke


class Register:
    def __init__(self, path: Path) -> None:
        self.db = init_database(path)

    def run(self, *args: str) -> tuple[int, str, str]:
        return invoke(self.db, *args)

    def names(self) -> list[str]:
        return [str(n) for (n,) in table_rows(self.db, "SELECT name FROM players ORDER BY id")]


@pytest.fixture
def reg(tmp_path: Path) -> Register:
    r = Register(tmp_path / "reg.db")
    assert r.run("player", "add", "Novák, Jiří", "--birthdate", "1990-04-02")[0] == 0
    return r


@pytest.mark.parametrize("spelling", ["Novak, Jiri", "Jiri Novak", "NOVAK Jiri", "Jiří Novák"])
def test_a_spelling_of_a_registered_player_is_refused(reg: Register, spelling: str) -> None:
    code, out, err = reg.run("player", "add", spelling)
    assert code == 1
    assert out == ""
    assert err == (
        f"Error: {spelling!r} is already registered: 1 (Novák, Jiří, born 1990-04-02); a "
        "second player of that name needs a FIDE id or birthdate that tells them apart, and "
        "--allow-same-name\n"
    )
    assert reg.names() == ["Novák, Jiří"]


def test_another_person_of_that_name_is_told_apart_and_confirmed(reg: Register) -> None:
    code, _, err = reg.run("player", "add", "Novak, Jiri", "--birthdate", "2011-01-05")
    assert code == 1
    assert "if this is another person, confirm with --allow-same-name" in err
    code, out, err = reg.run(
        "player", "add", "Novak, Jiri", "--birthdate", "2011-01-05", "--allow-same-name"
    )
    assert (code, out, err) == (0, "Added Novak, Jiri (id 2)\n", "")
    assert reg.names() == ["Novák, Jiří", "Novak, Jiri"]


def test_an_alias_names_its_player(reg: Register) -> None:
    assert reg.run("player", "alias", "add", "1", "Novak, Jirka")[0] == 0
    code, _, err = reg.run("player", "add", "Jirka Novak")
    assert code == 1
    assert "is already registered: 1 (Novák, Jiří, born 1990-04-02)" in err


def test_a_close_name_is_added_with_a_warning(reg: Register) -> None:
    code, out, err = reg.run("player", "add", "Novak, J.")
    assert code == 0
    assert out == "Added Novak, J. (id 2)\n"
    assert err == (
        "Warning: 'Novak, J.' is close to registered player 1 (Novák, Jiří, born "
        "1990-04-02): initials; if they are one person, 'ratings player merge 1 2' joins "
        "them\n"
    )


def test_a_rename_to_a_spelling_of_another_player_is_refused(reg: Register) -> None:
    assert reg.run("player", "add", "Svoboda, Petr")[0] == 0
    code, _, err = reg.run("player", "edit", "2", "--name", "Novak Jiri")
    assert code == 1
    assert "'Novak Jiri' is already registered: 1 (Novák, Jiří, born 1990-04-02)" in err
    assert reg.names() == ["Novák, Jiří", "Svoboda, Petr"]
    # a player's own respelling is no conflict
    assert reg.run("player", "edit", "1", "--name", "Novak, Jiri")[0] == 0
    assert reg.names() == ["Novak, Jiri", "Svoboda, Petr"]
