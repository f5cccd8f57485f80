"""`import fide-list --add` and names: a list player whose FIDE id
is not registered is looked for among the registered players without one by folded name;
one certain match takes the FIDE id, anything less is reported, not added. `--add` after a
plain import of the same file adds the list's other players, and only those."""

from __future__ import annotations

from pathlib import Path

from tests.imports.test_fide_list import NEWCOMER, foa_list
from tests.support import Club

SPANIARD = ("2212072", "Argandona Riveiro, Inigo", "ESP", "M", "IM", "", "", "",
            2408, 10, 20, 0, 0, 0, 0, 0, 0, 1981, "")  # fmt: skip
NAMESAKE = ("2212080", "Argandona Riveiro, Inigo", "ESP", "M", "", "", "", "",
            1600, 10, 20, 0, 0, 0, 0, 0, 0, 2008, "")  # fmt: skip
FRENCH = ("634603", "Darrigues, Alain", "FRA", "M", "", "", "", "",
          1996, 10, 20, 0, 0, 0, 0, 0, 0, 1950, "")  # fmt: skip


def _club(tmp_path: Path, *players: tuple[str, ...]) -> Club:
    club = Club(tmp_path / "club.db")
    for args in players:
        club.player(*args)
    return club


def test_a_registered_player_without_a_fide_id_is_found_by_the_name_folded(
    tmp_path: Path,
) -> None:
    club = _club(tmp_path, ("Argandoña Riveiro, Iñigo", "--birthdate", "1981"))
    path = foa_list(tmp_path / "list.txt", SPANIARD, NEWCOMER)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10", "--add")
    lines = out.splitlines()
    assert lines[0] == "Player 1 (Argandoña Riveiro, Iñigo): fide_id (none) -> 2212072"
    assert lines[-2:] == [
        f"Read 2 players from {path} (FIDE's list of 2026-10): 0 registered found by FIDE id, "
        "0 of them updated, 1 registered without a FIDE id found by name (they took theirs), "
        "1 player added",
        # who was taken for whom, as every import says it
        "  line 2: 'Argandona Riveiro, Inigo' taken for player 1 (Argandoña Riveiro, Iñigo): "
        "the name folded (accents, word order, punctuation)",
    ]
    assert club.rows("SELECT id, name, fide_id, entry_rating, title FROM players ORDER BY id") == [
        (1, "Argandoña Riveiro, Iñigo", 2212072, 2408, "IM"),
        (2, "Murphy, Sean", 4100018, 1900, None),
    ]
    assert ("player_edit", 1, "fide_id", None, "2212072") in club.rows(
        "SELECT action, player_id, field, old_value, new_value FROM corrections"
    )


def test_an_unsure_name_is_reported_not_added(tmp_path: Path) -> None:
    # the register's player was born in 1990: the list's one in 1981
    club = _club(tmp_path, ("Argandoña Riveiro, Iñigo", "--birthdate", "1990"))
    path = foa_list(tmp_path / "list.txt", SPANIARD)
    code, out = club.run("import", "fide-list", str(path), "--month", "2026-10", "--add")
    assert code == 0
    assert out.splitlines() == [
        f"Read 1 player from {path} (FIDE's list of 2026-10): 0 registered found by FIDE id, "
        "0 of them updated, 0 players added",
        f"Warning: {path}:2: name: 'Argandona Riveiro, Inigo' (FIDE id 2212072) not added: "
        "player 1 of that name is registered without a FIDE id (the list and the register "
        "differ in birth year); if they are one person: 'ratings player edit 1 --fide-id "
        "2212072'",
    ]
    # two players of the list with that name: neither is taken, neither is added
    (tmp_path / "two").mkdir()
    club = _club(tmp_path / "two", ("Argandoña Riveiro, Iñigo",))
    path = foa_list(tmp_path / "two" / "list.txt", SPANIARD, NAMESAKE)
    code, out = club.run("import", "fide-list", str(path), "--month", "2026-10", "--add")
    assert code == 0
    assert [line.split(" not added: ")[0] for line in out.splitlines()[1:]] == [
        f"Warning: {path}:2: name: 'Argandona Riveiro, Inigo' (FIDE id 2212072)",
        f"Warning: {path}:3: name: 'Argandona Riveiro, Inigo' (FIDE id 2212080)",
    ]
    assert "(another player of the list has that name too)" in out
    assert club.rows("SELECT count(*), max(fide_id) FROM players") == [(1, None)]


def test_add_after_a_plain_import_adds_the_others_and_only_those(tmp_path: Path) -> None:
    club = _club(tmp_path, ("Murphy, Sean", "--fide-id", "4100018"))
    path = foa_list(tmp_path / "list.txt", NEWCOMER, SPANIARD, FRENCH)
    club.ok("import", "fide-list", str(path), "--month", "2026-10")
    club.ok("player", "edit", "Murphy, Sean", "--federation", "ENG", "--reason", "moved")
    before = club.rows("SELECT * FROM players ORDER BY id")
    out = club.ok(
        "import", "fide-list", str(path), "--month", "2026-10", "--add", "--federation", "ESP"
    )
    assert out.splitlines() == [
        f"Read 1 player from {path} (FIDE's list of 2026-10, imported before: import 1): 0 "
        "registered found by FIDE id, left as they are, 1 player added",
    ]
    assert club.rows("SELECT * FROM players WHERE id = 1") == before  # left as it was
    assert club.rows("SELECT name, federation FROM players ORDER BY id") == [
        ("Murphy, Sean", "ENG"),
        ("Argandona Riveiro, Inigo", "ESP"),
    ]
    # the rest of the list, later; then nothing is left to add
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10", "--add")
    assert out.splitlines()[-1].endswith(
        "2 registered found by FIDE id, left as they are, 1 player added"
    )
    assert club.rows("SELECT count(*) FROM players") == [(3,)]
    assert club.rows("SELECT count(*) FROM imports") == [(1,)]
    # a plain import of the same file is still refused
    code, out = club.run("import", "fide-list", str(path), "--month", "2026-10")
    assert code == 1
    assert "this file was already imported" in out


# --- through the one matcher: what the folded-name index of its own did otherwise ----------


def test_of_two_namesakes_the_one_the_evidence_agrees_with_takes_the_fide_id(
    tmp_path: Path,
) -> None:
    """The list's own index reported both ('2 registered players have that name'); the one
    matcher takes the namesake whose birth year agrees, as every other import does."""
    club = _club(
        tmp_path,
        ("Argandoña Riveiro, Iñigo", "--birthdate", "2008"),
        ("Argandona Riveiro, Inigo", "--birthdate", "1981", "--allow-same-name"),
    )
    path = foa_list(tmp_path / "list.txt", SPANIARD)
    out = club.ok("import", "fide-list", str(path), "--month", "2026-10", "--add")
    assert "not added" not in out
    assert club.rows("SELECT id, fide_id FROM players ORDER BY id") == [(1, None), (2, 2212072)]


def test_a_surname_swapped_across_the_comma_is_reported_not_taken(tmp_path: Path) -> None:
    """The list's own index folded the words in any order and gave 'Darrigues, Alain' the
    FIDE id of the registered 'Alain, Darrigues' (surname Alain): with a comma on both sides
    the matcher keeps the roles, and the pair is a question."""
    club = _club(tmp_path, ("Alain, Darrigues",))
    path = foa_list(tmp_path / "list.txt", FRENCH)
    code, out = club.run("import", "fide-list", str(path), "--month", "2026-10", "--add")
    assert code == 0
    assert out.splitlines()[1] == (
        f"Warning: {path}:2: name: 'Darrigues, Alain' (FIDE id 634603) not added: player 1 of "
        "that name is registered without a FIDE id (the surname and given name are swapped); "
        "if they are one person: 'ratings player edit 1 --fide-id 634603'"
    )
    assert club.rows("SELECT id, name, fide_id FROM players") == [(1, "Alain, Darrigues", None)]
