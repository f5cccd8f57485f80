"""Aliases: a decision given once is stored and used next time;
`player alias add|list|remove`; `player show` lists them; merge moves them and unmerge moves
them back; `import undo` removes the ones its import stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import PgDatabase, copy_database, new_test_database
from tests.imports.test_trf import player_line, rows, trf_file
from tests.support import invoke


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    path = new_test_database(tmp_path_factory.mktemp("aliases") / "template.db")
    assert invoke(path, "init")[0] == 0
    for name, year in (("Novák, Jiří", "1984"), ("Novák, Jan", "1990"), ("Smith, Ann", "")):
        args = ["--birthdate", year] if year else []
        assert invoke(path, "player", "add", name, *args)[0] == 0
    return path


@pytest.fixture
def db(tmp_path: Path, template: Path | PgDatabase) -> Path | PgDatabase:
    return copy_database(template, tmp_path / "club.db")


def _event(tmp_path: Path, name: str = "Spring Open", day: str = "2025-03-01") -> Path:
    return trf_file(
        tmp_path / f"{name}.trf",
        player_line(1, "Novak J.", ["   2 w 1"]),
        player_line(2, "Smith Ann", ["   1 b 0"]),
        header=(f"042 {day}",),
    )


def test_a_decision_is_kept_and_used_next_time(tmp_path: Path, db: Path) -> None:
    path = _event(tmp_path)
    code, _, err = invoke(db, "import", "trf", str(path))
    assert code == 1
    assert err.startswith(
        f"Error: {path}:3: name: 'Novak J.' is close to 1 Novák, Jiří (born 1984) [initials], "
        "2 Novák, Jan (born 1990) [initials]\n"
    )
    code, out, err = invoke(db, "import", "trf", str(path), "--match", "Novak J.=1")
    assert code == 0, err
    assert out.splitlines()[1:] == [
        "Players: 0 created, 0 matched by FIDE id, 0 matched by name, 1 by the name folded "
        "(accents, word order, punctuation), 1 by your decisions",
        "  line 3: 'Novak J.' taken for player 1 (Novák, Jiří): your decision (--match, "
        "--match-file)",
        "  line 4: 'Smith Ann' taken for player 3 (Smith, Ann): the name folded (accents, word "
        "order, punctuation)",
        "Alias 'Novak J.' kept for player 1 (Novák, Jiří)",
    ]
    code, out, _ = invoke(db, "player", "alias", "list")
    assert out.splitlines()[:3] == [
        "id  player_id  player       alias     source  import_id  created_at",
        "--  ---------  -----------  --------  ------  ---------  ----------------",
        out.splitlines()[2],
    ]
    assert out.splitlines()[2].startswith(
        " 1          1  Novák, Jiří  Novak J.  match           1  "
    )
    # the next file writes him so again: no flag needed
    code, out, err = invoke(db, "import", "trf", str(_event(tmp_path, "Summer Open", "2025-06-07")))
    assert code == 0, err
    assert out.splitlines()[1] == (
        "Players: 0 created, 0 matched by FIDE id, 0 matched by name, 1 by the name folded "
        "(accents, word order, punctuation), 1 by alias"
    )
    assert rows(db, "SELECT white_id, black_id FROM games ORDER BY id") == [(1, 3), (1, 3)]


def test_alias_add_list_remove(db: Path) -> None:
    assert invoke(db, "player", "alias", "add", "Novák, Jiří", "Novak J.", "--reason", "club") == (
        0,
        "Added alias 'Novak J.' for Novák, Jiří (id 1)\n",
        "",
    )
    assert invoke(db, "player", "alias", "add", "2", "NOVAK, J") == (
        1,
        "",
        "Error: 'NOVAK, J' is player 1's alias 'Novak J.' already (they fold alike); "
        "'ratings player alias remove 'Novak J.'' frees it\n",
    )
    no_letters = invoke(db, "player", "alias", "add", "1", "...")
    assert no_letters[2] == "Error: '...' has no letters to match\n"
    code, out, _ = invoke(db, "player", "alias", "list", "2", "--format", "json")
    assert (code, out) == (0, "[]\n")
    code, out, _ = invoke(db, "player", "alias", "list", "1", "--format", "csv")
    assert out.splitlines()[0] == "id,player_id,player,alias,source,import_id,created_at"
    assert out.splitlines()[1].startswith('1,1,"Novák, Jiří",Novak J.,hand,,')
    code, out, _ = invoke(db, "player", "show", "1")
    assert "aliases:       'Novak J.' (hand)" in out.splitlines()
    assert invoke(db, "player", "alias", "remove", "novak  j") == (
        0,
        "Removed alias 'Novak J.' of Novák, Jiří (id 1)\n",
        "",
    )
    assert invoke(db, "player", "alias", "remove", "Novak J.") == (
        1,
        "",
        "Error: no alias 'Novak J.'; 'ratings player alias list' shows them\n",
    )
    assert rows(db, "SELECT field, old_value, new_value, reason FROM corrections ORDER BY id") == [
        ("alias", None, "Novak J.", "club"),
        ("alias", "Novak J.", None, None),
    ]


def test_merge_moves_aliases_and_unmerge_moves_them_back(db: Path) -> None:
    invoke(db, "player", "alias", "add", "2", "Novak Jan Ml.")
    assert invoke(db, "player", "merge", "1", "2", "--yes", "--force") == (
        0,
        "Merged Novák, Jan (id 2) into Novák, Jiří (id 1): 0 games, 1 alias and 0 byes moved; "
        "'ratings player unmerge 2' undoes it\n"
        "  player 2 (Novák, Jan): merged_into_id (none) -> 1\n",
        "",
    )
    assert rows(db, "SELECT player_id FROM player_aliases") == [(1,)]
    assert invoke(db, "player", "unmerge", "2", "--yes")[1] == (
        "Unmerged Novák, Jan (id 2) from Novák, Jiří (id 1): 0 games, 1 alias and 0 byes moved "
        "back\n  player 2 (Novák, Jan): merged_into_id 1 -> (none)\n"
    )
    assert rows(db, "SELECT player_id FROM player_aliases") == [(2,)]


def test_import_undo_removes_the_aliases_it_stored(tmp_path: Path, db: Path) -> None:
    path = _event(tmp_path)
    assert invoke(db, "import", "trf", str(path), "--match", "Novak J.=1")[0] == 0
    result = invoke(db, "import", "undo", "1")
    assert result[2].startswith(f"Undo import 1 ({path}) removes 1 event, 1 game and 1 alias:\n")
    assert "\n  alias 'Novak J.' of player 1 (Novák, Jiří)\n" in result[2]
    out = invoke(db, "import", "undo", "1", "--yes")[1]
    assert out.startswith(f"Undid import 1 ({path}): removed 1 event, 1 game and 1 alias\n")
    assert out.endswith("\n  alias 'Novak J.' of player 1 (Novák, Jiří)\n")
    assert rows(db, "SELECT count(*) FROM player_aliases") == [(0,)]
    assert ("alias", "Novak J.", 1) in rows(
        db, "SELECT field, old_value, player_id FROM corrections WHERE action = 'import_undo'"
    )
    # a player the import registered who has an alias from elsewhere keeps the import
    assert invoke(db, "import", "trf", str(path), "--new", "Novak J.")[0] == 0
    created = rows(db, "SELECT max(id) FROM players")[0][0]
    invoke(db, "player", "alias", "add", str(created), "J. Novak Sr")
    again = rows(db, "SELECT max(id) FROM imports")[0][0]
    code, _, err = invoke(db, "import", "undo", str(again), "--yes")
    assert code == 1
    assert f"player {created} (Novak J.) it registered was edited later" in err
