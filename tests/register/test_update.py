"""The players CSV and the register: `import players --update`
finds rows by id, FIDE id or the matcher, shows values corrected since the sheet was made
(kept by default, `--take-sheet` takes the sheet's) and never makes a second record of a
player the register came from; a near name waits for `--new`; the register round-trips
through a spreadsheet; a merged record's id refuses writing commands, naming the player
kept."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ratings.cli.records import REGISTER_COLUMNS
from tests.conftest import PgDatabase, copy_database, new_test_database
from tests.imports.test_trf import rows
from tests.support import invoke

HEADER = "name,birthdate,sex,federation,rating\n"
SHEET = (
    HEADER
    + '"Novak, Jiri",1984-05-02,m,CZE,1850\n'
    + '"Smith, Ann",1990,f,ENG,1700\n'
    + '"Horak, Jan",,m,CZE,\n'
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    folder = tmp_path_factory.mktemp("sheet")
    path = new_test_database(folder / "template.db")
    assert invoke(path, "init")[0] == 0
    sheet = folder / "register.csv"
    sheet.write_text(SHEET, encoding="utf-8")
    assert invoke(path, "import", "players", str(sheet))[0] == 0
    return path


@pytest.fixture
def db(tmp_path: Path, template: Path | PgDatabase) -> Path | PgDatabase:
    return copy_database(template, tmp_path / "club.db")


def _sheet(tmp_path: Path, text: str, name: str = "sheet.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_values_corrected_since_the_sheet_are_shown_and_applied_or_kept(
    tmp_path: Path, db: Path
) -> None:
    """Seen: a row whose birthdate was corrected in the database since was refused, and the
    advice (--allow-same-name) registered a second player of that name."""
    invoke(db, "player", "edit", "1", "--birthdate", "1984-02-05", "--reason", "passport")
    invoke(db, "player", "edit", "1", "--name", "Novák, Jiří")
    # the same sheet, one row more (a new member): other bytes
    sheet = _sheet(tmp_path, SHEET + '"Dvorak, Eva",2011,f,CZE,\n')
    kept = copy_database(db, tmp_path / "kept.db")
    code, out, err = invoke(db, "import", "players", str(sheet), "--update", "--take-sheet")
    assert code == 0, err
    assert out.splitlines() == [
        "Player 1 (Novak, Jiri): name Novák, Jiří -> Novak, Jiri (the sheet's older value: "
        "correction 2 set Novák, Jiří since)",
        "Player 1 (Novak, Jiri): birth_date 1984-02-05 -> 1984-05-02 (the sheet's older "
        "value: correction 1 set 1984-02-05 since)",
        f"Imported 1 new player, updated 1 (2 unchanged) from {sheet}",
        "Players found 1 by the name folded (accents, word order, punctuation)",
        "  line 2: 'Novak, Jiri' taken for player 1 (Novák, Jiří): the name folded (accents, "
        "word order, punctuation)",
    ]
    # the correction is newer than the sheet: kept by default (--keep-corrected still says so)
    for flags in ((), ("--keep-corrected",)):
        again = copy_database(kept, tmp_path / f"kept{len(flags)}.db")
        code, out, err = invoke(again, "import", "players", str(sheet), "--update", *flags)
        assert code == 0, err
        assert out.splitlines() == [
            "Player 1 (Novák, Jiří): name Novák, Jiří kept (corrected since the sheet was made, "
            "correction 2; the sheet has Novak, Jiri; --take-sheet takes it)",
            "Player 1 (Novák, Jiří): birth_date 1984-02-05 kept (corrected since the sheet was "
            "made, correction 1; the sheet has 1984-05-02; --take-sheet takes it)",
            f"Imported 1 new player, updated 0 (3 unchanged) from {sheet}",
            "Players found 1 by the name folded (accents, word order, punctuation)",
            "  line 2: 'Novak, Jiri' taken for player 1 (Novák, Jiří): the name folded "
            "(accents, word order, punctuation)",
        ]
    kept = again
    for database in (db, kept):  # never a second Novák
        assert rows(database, "SELECT count(*) FROM players") == [(4,)]
    assert rows(kept, "SELECT name, birth_date FROM players WHERE id = 1") == [
        ("Novák, Jiří", "1984-02-05")
    ]


def test_a_row_told_apart_only_by_an_unexplained_birth_year_is_a_question(
    tmp_path: Path, db: Path
) -> None:
    sheet = _sheet(tmp_path, HEADER + '"Novák, Jiří",2010,m,CZE,\n')
    code, out, err = invoke(db, "import", "players", str(sheet), "--update")
    assert code == 1
    assert err == (
        f"Error: {sheet}:2: name: 'Novák, Jiří' is close to 1 Novak, Jiri (born 1984, CZE) "
        "[same name; the file says born 2010]\n"
        "Error: 1 player needs a decision: --match 'NAME=ID' (or --match-file FILE) if it is a "
        "registered player; each decision is kept as an alias; nothing was imported\n"
    )
    assert "--allow-same-name" not in err
    # the son: a new player
    code, out, err = invoke(db, "import", "players", str(sheet), "--update", "--new", "Novák, Jiří")
    assert code == 0, err
    assert out.splitlines()[0] == f"Imported 1 new player, updated 0 (0 unchanged) from {sheet}"
    assert rows(db, "SELECT name, birth_year FROM players WHERE id = 4") == [("Novák, Jiří", 2010)]


def test_without_update_a_folded_name_is_registered_and_a_near_one_waits_for_new(
    tmp_path: Path, db: Path
) -> None:
    sheet = _sheet(tmp_path, HEADER + '"Novák, Jiří",,,,\n"Smith, A.",,,,\n')
    code, _, err = invoke(db, "import", "players", str(sheet))
    assert code == 1
    assert err.splitlines() == [
        f"Error: {sheet}:2: name: already registered as player 1 (Novak, Jiri, born "
        "1984-05-02): 'Novák, Jiří'; 'import players --update' refreshes registered players",
        f"Error: {sheet}:3: name: 'Smith, A.' is close to 2 Smith, Ann (born 1990, ENG) [initials]",
        "Error: 1 player needs a decision: --match 'NAME=ID' (or --match-file FILE) if it is a "
        "registered player, --new 'NAME' if a new one; each decision is kept as an alias",
        "Error: 2 problems found; nothing was imported",
    ]
    sheet = _sheet(tmp_path, HEADER + '"Smith, A.",,,,\n', "second.csv")
    code, out, _ = invoke(db, "import", "players", str(sheet), "--new", "Smith, A.")
    assert code == 0
    assert out == (
        f"Imported 1 players from {sheet}\nAlias 'Smith, A.' kept for player 4 (Smith, A.)\n"
    )


def test_the_register_round_trips_through_a_spreadsheet(tmp_path: Path) -> None:
    """`player list --format csv` writes what `import players --update` reads: the demo
    register back unchanged, byte for byte; one cell edited changes that value only."""
    db = tmp_path / "demo.db"
    assert invoke(db, "demo")[0] == 0
    code, exported, _ = invoke(db, "player", "list", "--format", "csv")
    assert code == 0
    assert exported.splitlines()[0] == ",".join(REGISTER_COLUMNS)
    assert exported.count("\n") == 41
    sheet = _sheet(tmp_path, exported, "register.csv")
    assert invoke(db, "import", "players", str(sheet), "--update") == (
        0,
        f"Imported 0 new players, updated 0 (40 unchanged) from {sheet}\n",
        "",
    )
    assert invoke(db, "player", "list", "--format", "csv")[1] == exported
    lines = exported.splitlines()
    first = next(csv.reader([lines[1]]))
    assert first[4] == "NED"  # the first player by name, Abarov, Ivan
    edited = lines[1].replace(",NED,", ",IRL,", 1)
    sheet = _sheet(tmp_path, "\n".join([lines[0], edited, *lines[2:]]) + "\n", "edited.csv")
    code, out, _ = invoke(db, "import", "players", str(sheet), "--update")
    assert code == 0
    assert out.splitlines() == [
        f"Player {first[0]} ({rows(db, f'SELECT name FROM players WHERE id = {first[0]}')[0][0]})"
        f": federation {first[4]} -> IRL",
        f"Imported 0 new players, updated 1 (39 unchanged) from {sheet}",
    ]
    after = invoke(db, "player", "list", "--format", "csv")[1]
    assert [a for a, b in zip(after.splitlines(), lines, strict=True) if a != b] == [edited]
    # json: the same columns, typed
    assert '"k10": false' in invoke(db, "player", "list", "--format", "json")[1]


def test_a_row_with_an_id(tmp_path: Path, db: Path) -> None:
    sheet = _sheet(tmp_path, 'id,name,rating\n2,"Smith, Ann",1720\n9,Nobody,\n')
    code, _, err = invoke(db, "import", "players", str(sheet))
    assert code == 1
    assert err.splitlines()[0] == (
        f"Error: {sheet}:2: id: a row with an id is a registered player: 2; 'import players "
        "--update' refreshes registered players"
    )
    code, _, err = invoke(db, "import", "players", str(sheet), "--update")
    assert err.splitlines()[0] == f"Error: {sheet}:3: id: no player with id 9"
    invoke(db, "player", "merge", "1", "3", "--yes", "--force")
    sheet = _sheet(tmp_path, 'id,name\n3,"Horak, Jan"\n', "merged.csv")
    code, _, err = invoke(db, "import", "players", str(sheet), "--update")
    assert err.splitlines()[0] == f"Error: {sheet}:2: id: player 3 was merged into 1; give id 1"


def test_a_merged_record_refuses_writing_commands_naming_the_player_kept(db: Path) -> None:
    assert invoke(db, "player", "merge", "1", "3", "--yes", "--force")[0] == 0
    for args in (
        ("player", "edit", "3", "--sex", "m"),
        ("player", "edit", "Horak, Jan", "--sex", "m"),
        ("game", "add", "3", "2", "1-0", "--date", "2025-01-05"),
        ("player", "alias", "add", "3", "Horak J."),
    ):
        assert invoke(db, *args) == (
            1,
            "",
            "Error: player 3 was merged into 1 (correction 1); give player 1\n",
        ), args
    code, out, err = invoke(db, "player", "show", "Horak, Jan", "--format", "json")
    assert code == 0
    assert err == "player 3 was merged into 1 (correction 1): showing 1\n"
    assert '"name": "Novak, Jiri"' in out


def test_a_row_found_by_fide_id_beside_another_person_is_an_error_or_a_question(
    tmp_path: Path, db: Path
) -> None:
    """Seen: a row with Mario's FIDE id beside another person's name, birth year and sex
    renamed him (his games became hers, exit 0). A FIDE id finds its player as in a TRF or
    PGN file: a name that contradicts it is an error naming both, another birth year, sex
    or given name a question naming both; a name that agrees updates as before."""
    invoke(db, "player", "add", "Müller, Mario", "--fide-id", "111111", "--birthdate", "1980",
           "--sex", "m", "--rating", "2000", "--games", "50")  # fmt: skip
    before = rows(db, "SELECT * FROM players ORDER BY id")
    head = "name,birthdate,sex,fide_id,rating\n"
    mario = "player 4 (Müller, Mario, FIDE 111111, born 1980)"
    for line, problem in (
        ('"Schulz, Petra",2012,f,111111,', "'Schulz, Petra' does not match"),
        ('"Novák, Jiří",,,111111,', "'Novák, Jiří' does not match"),
    ):
        sheet = _sheet(tmp_path, head + line + "\n")
        code, out, err = invoke(db, "import", "players", str(sheet), "--update")
        assert (code, out) == (1, ""), err
        assert err.startswith(f"Error: {sheet}:2: fide_id: {problem} FIDE id 111111, which "
                              f"belongs to {mario}")  # fmt: skip
    assert err == (
        f"Error: {sheet}:2: fide_id: 'Novák, Jiří' does not match FIDE id 111111, which "
        f"belongs to {mario}; 'Novák, Jiří' is player 1 (Novak, Jiri, born 1984-05-02); "
        "correct the file\n"
    )
    for line, said in (
        ('"Müller, Mario",2012,m,111111,', "born 2012"),
        ('"Mario Müller",1980,f,111111,', "sex f"),
        ('"Müller, Petra",1980,m,111111,', "given name Petra"),
    ):
        sheet = _sheet(tmp_path, head + line + "\n")
        code, out, err = invoke(db, "import", "players", str(sheet), "--update")
        assert (code, out) == (1, ""), err
        name = line.split('",')[0][1:]
        assert err.startswith(
            f"Error: {sheet}:2: name: {name!r} is close to 4 Müller, Mario (FIDE 111111, born "
            f"1980) [FIDE id; the file says {said}]\n"
        ), err
    assert rows(db, "SELECT * FROM players ORDER BY id") == before
    # a name that agrees: the fields an update changes, changed
    sheet = _sheet(tmp_path, head + '"Muller, Mario",1980,m,111111,2100\n', "update.csv")
    code, out, err = invoke(db, "import", "players", str(sheet), "--update")
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "Player 4 (Muller, Mario): name Müller, Mario -> Muller, Mario",
        "Player 4 (Muller, Mario): entry_rating 2000 -> 2100",
    ]
    # --match: the same person after all; --new: another one, without Mario's FIDE id
    match_sheet = _sheet(tmp_path, head + '"Müller, Petra",1980,m,111111,\n', "match.csv")
    code, out, err = invoke(db, "import", "players", str(match_sheet), "--update",
                            "--match", "Müller, Petra=4")  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0] == "Player 4 (Müller, Petra): name Muller, Mario -> Müller, Petra"
    sheet = _sheet(tmp_path, head + '"Müller, Petra",2012,f,111111,\n', "daughter.csv")
    code, out, err = invoke(db, "import", "players", str(sheet), "--update",
                            "--new", "Müller, Petra")  # fmt: skip
    assert code == 0, err
    assert err.startswith(
        f"Warning: {sheet}:2: fide_id: 'Müller, Petra' is created without FIDE id 111111, "
        "which belongs to player 4 (Müller, Petra, FIDE 111111, born 1980) (--new 'Müller, "
        "Petra')\n"
    ), err
    assert rows(db, "SELECT id, name, fide_id, birth_year, sex FROM players WHERE id > 3") == [
        (4, "Müller, Petra", 111111, 1980, "m"),
        (5, "Müller, Petra", None, 2012, "f"),
    ]
    # his name corrected since the sheet was made: the sheet's older name is still his
    invoke(db, "player", "edit", "4", "--name", "Schulz, Peter", "--reason", "passport")
    code, out, err = invoke(db, "import", "players", str(match_sheet), "--update")
    assert code == 0, err
    assert out == (
        f"{match_sheet}: nothing changed (imported before as import 3, and the register still "
        "holds every value it gives)\n"
    )
