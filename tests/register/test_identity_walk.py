"""A club's first months again, from the project's own data: a
register of 30 members with accented names, the real open `javafo_sample2.trf` with 13 of
them written `Surname Given` (the file's own way, with its abbreviations, without or with
the accents) and `utf-8.tab`, which writes `X,Y`. After the imports, with the documented
flags, no person has two records; the next month's files with the same spellings import
with no flag at all (the decisions were kept as aliases).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from ratings.matching import fold
from tests.conftest import PgDatabase, copy_database, new_test_database, table_rows
from tests.support import invoke

TRF = Path(__file__).parents[1] / "data" / "trf"

MEMBERS = {
    # start number in javafo_sample2.trf -> the register's name; birth year, sex, federation
    2: ("Argandoña Riveiro, Iñigo", 1981, "m", "ESP"),
    3: ("Hernández, Elvis", 1981, "m", "DOM"),
    4: ("Guijarro Galán, José Luis", 1972, "m", "ESP"),
    5: ("Sanz Pérez, Eduardo", 1976, "m", "ESP"),
    7: ("Lakunza Oyarbide, Juan Carlos", 1961, "m", "ESP"),
    8: ("Ladrón de Guevara Galar, Francisco Javier", 1961, "m", "ESP"),
    9: ("Alvarado Fernández, Mikel", 1974, "m", "ESP"),
    12: ("Segovia Sánchez, Antonio", 1976, "m", "ESP"),
    13: ("Rodríguez Cabrera, Francisco Javier", 1971, "m", "ESP"),
    14: ("Riesco Lecuona, Juan Manuel", 1959, "m", "ESP"),
    15: ("Fernández Zubitur, Jokin", 1990, "m", "ESP"),
    16: ("Bello Castaño, Diego", 1979, "m", "ESP"),
    23: ("Iglesias González, Verónica", 1985, "f", "ESP"),
}
ABBREVIATED = {8: "Ladron De Guevara Galar Fco J", 13: "Rodriguez Cabrera Fco. Javier"}
"""Two members the file writes with abbreviated given names: candidates, never certain."""
IRISH_OPEN = ("Uí Laighléis, Gearóidín", "Örr, Mârk", "Bologan, Viktor")
"""utf-8.tab's three players, as the register writes them (the file: `Uì Laighlèis,Gearoìdin`,
`Örr,Mârk`, `Bologan,Viktor`)."""
OTHERS = (
    "Novák, Jiří", "Müller, Jan", "Öberg, Åsa", "Søndergaard, Søren", "Łukasiewicz, Paweł",
    "Çelik, Şükrü", "Nguyễn, Văn Hùng", "Ó Briain, Seán", "van der Berg, Jan",
    "Gonçalves, João", "Dvořák, Antonín", "Ibáñez, Nuria", "Jiménez, Óscar",
    "Martínez, José María",
)  # fmt: skip


def _surname_given(name: str, plain: bool) -> str:
    """``Surname, Given`` written as the TRF writes it: ``Surname Given``, with or without
    the accents."""
    text = name.replace(",", "")
    if plain:
        return " ".join(word.capitalize() for word in fold(text).words)
    return text


def _rewritten_trf(tmp_path: Path, month: int) -> Path:
    """javafo_sample2.trf with the 13 members' names written from the register (`Surname
    Given`, every other one without accents; the two abbreviated as the file has them), as
    the event of month 1 or, renamed and a month later, of month 2."""
    lines = (TRF / "javafo_sample2.trf").read_bytes().decode("ascii").split("\r\n")
    out = []
    for line in lines:
        if line.startswith("001 "):
            start = int(line[4:8])
            if start in MEMBERS and start not in ABBREVIATED:
                written = _surname_given(MEMBERS[start][0], plain=start % 2 == 0)
                line = line[:14] + written.ljust(33)[:33] + line[47:]
        if month == 2:
            line = line.replace("XX Open Internacional de Gros", "XXI Open Internacional")
            line = line.replace("24/09/2010", "24/10/2010").replace("02/10/2010", "02/11/2010")
        out.append(line)
    path = tmp_path / f"gros-{month}.trf"
    path.write_bytes("\r\n".join(out).encode("utf-8"))
    return path


def _irish(tmp_path: Path, month: int) -> Path:
    data = (TRF / "utf-8.tab").read_bytes()
    if month == 2:
        data = data.replace(b"2008-06-07", b"2008-07-05").replace(b"National", b"Summer")
    path = tmp_path / f"irish-{month}.tab"
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path | PgDatabase:
    """The register of 30 (one database per module; tests get copies)."""
    folder = tmp_path_factory.mktemp("walk")
    db = new_test_database(folder / "club.db")
    assert invoke(db, "init")[0] == 0
    rows = ["name,birthdate,sex,federation"]
    rows += [f'"{name}",{year},{sex},{fed}' for name, year, sex, fed in MEMBERS.values()]
    rows += [f'"{name}",,,' for name in (*IRISH_OPEN, *OTHERS)]
    register = folder / "register.csv"
    register.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert invoke(db, "import", "players", str(register)) == (
        0,
        f"Imported 30 players from {register}\n",
        "",
    )
    return db


@pytest.fixture
def db(tmp_path: Path, club: Path | PgDatabase) -> Path | PgDatabase:
    return copy_database(club, tmp_path / "club.db")


def _live_names(db: Path) -> list[str]:
    return [
        str(n) for (n,) in table_rows(db, "SELECT name FROM players WHERE merged_into_id IS NULL")
    ]


def _id(name: str) -> int:
    return [*(m[0] for m in MEMBERS.values()), *IRISH_OPEN, *OTHERS].index(name) + 1


def test_the_walk_ends_with_one_record_per_person(tmp_path: Path, db: Path) -> None:
    first = _rewritten_trf(tmp_path, 1)
    before = db.read_bytes()
    code, out, err = invoke(db, "import", "trf", str(first))
    ladron, rodriguez = _id(MEMBERS[8][0]), _id(MEMBERS[13][0])
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {first}:21: name: 'Ladron De Guevara Galar Fco J' is close to {ladron} "
        "Ladrón de Guevara Galar, Francisco Javier (born 1961, ESP) [initials]\n"
        f"Error: {first}:26: name: 'Rodriguez Cabrera Fco. Javier' is close to {rodriguez} "
        "Rodríguez Cabrera, Francisco Javier (born 1971, ESP) [initials]\n"
        "Error: 2 players need a decision: --match 'NAME=ID' (or --match-file FILE) if it is "
        "a registered player, --new 'NAME' if a new one; each decision is kept as an alias; "
        "nothing was imported\n"
    )
    assert db.read_bytes() == before

    code, out, err = invoke(
        db, "import", "trf", str(first),
        "--match", f"Ladron De Guevara Galar Fco J={ladron}",
        "--match", f"Rodriguez Cabrera Fco. Javier={rodriguez}",
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    taken = [line for line in lines if line.startswith("  line ")]
    # every member found otherwise than by the exact name is named, with why
    assert len(taken) == 13
    assert (
        f"  line 21: 'Ladron De Guevara Galar Fco J' taken for player {ladron} (Ladrón de "
        "Guevara Galar, Francisco Javier): your decision (--match, --match-file)"
    ) in taken
    assert [line for line in lines[1:] if line not in taken] == [
        "Players: 39 created, 0 matched by FIDE id, 0 matched by name, 11 by the name folded "
        "(accents, word order, punctuation), 2 by your decisions",
        f"Alias 'Ladron De Guevara Galar Fco J' kept for player {ladron} "
        "(Ladrón de Guevara Galar, Francisco Javier)",
        f"Alias 'Rodriguez Cabrera Fco. Javier' kept for player {rodriguez} "
        "(Rodríguez Cabrera, Francisco Javier)",
    ]
    assert invoke(db, "import", "trf", str(_irish(tmp_path, 1)))[1].splitlines()[1] == (
        "Players: 0 created, 0 matched by FIDE id, 0 matched by name, 3 by the name folded "
        "(accents, word order, punctuation)"
    )
    names = _live_names(db)
    assert len(names) == 30 + 39
    assert len({fold(n).key for n in names}) == len(names)  # no person twice
    # every member's games are on the member's own record
    for start, (name, *_) in MEMBERS.items():
        games = table_rows(
            db,
            f"SELECT count(*) FROM games WHERE white_id = {_id(name)} OR black_id = {_id(name)}",
        )[0][0]
        assert isinstance(games, int), (start, name)
        assert games >= 3, (start, name)

    # the next month: the same spellings, no flag at all
    code, out, err = invoke(db, "import", "trf", str(_rewritten_trf(tmp_path, 2)))
    assert code == 0, err
    assert out.splitlines()[1] == (
        # 6 Gorrochategui Torres, Eugenio has no FIDE id in the file: his own name finds him
        "Players: 0 created, 38 matched by FIDE id, 1 matched by name, 11 by the name folded "
        "(accents, word order, punctuation), 2 by alias"
    )
    code, out, err = invoke(db, "import", "trf", str(_irish(tmp_path, 2)))
    assert code == 0, err
    assert len(_live_names(db)) == 30 + 39
    assert table_rows(db, "SELECT count(*) FROM events") == [(4,)]


def test_a_dry_run_shows_the_questions_and_writes_nothing(tmp_path: Path, db: Path) -> None:
    first = _rewritten_trf(tmp_path, 1)
    before = db.read_bytes()
    code, out, err = invoke(db, "import", "trf", str(first), "--dry-run")
    assert code == 0
    lines = out.splitlines()
    assert lines[2] == (
        "Players: 39 to create, 0 matched by FIDE id, 0 matched by name, 11 by the name folded "
        "(accents, word order, punctuation), 2 need a decision"
    )
    ladron = _id(MEMBERS[8][0])
    argandona = _id(MEMBERS[2][0])
    assert (
        f"     2 Argandona Riveiro Inigo: player {argandona} (Argandoña Riveiro, Iñigo) by folded "
        "name"
    ) in lines
    assert (
        f"     8 Ladron De Guevara Galar Fco J: close to {ladron} Ladrón de Guevara Galar, "
        "Francisco Javier (born 1961, ESP) [initials]; needs --match or --new"
    ) in lines
    assert err.endswith(
        "The import would stop: 2 players need a decision (--match 'NAME=ID' for a registered "
        "player, --new 'NAME' for a new one)\n"
    )
    assert db.read_bytes() == before


def test_on_a_terminal_each_player_is_asked_about(
    tmp_path: Path, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ratings.cli import decisions

    monkeypatch.setattr(decisions, "is_terminal", lambda: True)
    first = _rewritten_trf(tmp_path, 1)
    ladron, rodriguez = _id(MEMBERS[8][0]), _id(MEMBERS[13][0])
    result = CliRunner().invoke(cli, ["--db", str(db), "import", "trf", str(first)], input="1\nn\n")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        f"{first}:21: 'Ladron De Guevara Galar Fco J' is close to:\n"
        f"  1  {ladron} Ladrón de Guevara Galar, Francisco Javier (born 1961, ESP) [initials]\n"
        "  n  a new player\n"
        "Which is it? (1, n, q; or a player's id) [q]: "
    )
    assert table_rows(db, "SELECT name, player_id, source FROM player_aliases ORDER BY id") == [
        ("Ladron De Guevara Galar Fco J", ladron, "prompt"),
        ("Rodriguez Cabrera Fco. Javier", 35, "new"),  # created fifth (start numbers 1, 6, 10, 11)
    ]
    assert table_rows(db, "SELECT name FROM players WHERE id = 35") == [
        ("Rodriguez Cabrera Fco. Javier",)
    ]
    assert rodriguez != 35


def test_never_asks_with_yes_or_without_a_terminal(
    tmp_path: Path, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ratings.cli import decisions

    first = _rewritten_trf(tmp_path, 1)
    no_terminal = invoke(db, "import", "trf", str(first))
    monkeypatch.setattr(decisions, "is_terminal", lambda: True)
    assert invoke(db, "import", "trf", str(first), "--yes") == no_terminal
    assert no_terminal[0] == 1
    # stopping at the prompt changes nothing
    result = CliRunner().invoke(cli, ["--db", str(db), "import", "trf", str(first)], input="q\n")
    assert result.exit_code == 1
    assert result.stderr.endswith("Error: not decided; nothing was imported\n")
    assert table_rows(db, "SELECT count(*) FROM events") == [(0,)]


def test_a_match_file_answers_and_bad_decisions_are_refused(tmp_path: Path, db: Path) -> None:
    first = _rewritten_trf(tmp_path, 1)
    ladron, rodriguez = _id(MEMBERS[8][0]), _id(MEMBERS[13][0])
    decisions = tmp_path / "decisions.csv"
    decisions.write_text(
        "name;id\n"
        f"Ladron De Guevara Galar Fco J;{ladron}\n"
        f"Rodriguez Cabrera Fco. Javier;{rodriguez}\n"
        "Someone Not In This File;1\n",  # a file may serve several imports
        encoding="utf-8",
    )
    before = db.read_bytes()
    bad = tmp_path / "bad.csv"
    bad.write_text("Ladron De Guevara Galar Fco J;999\nonly one cell\n", encoding="utf-8")
    assert invoke(db, "import", "trf", str(first), "--match-file", str(bad)) == (
        1,
        "",
        f"Error: {bad}:2: give two cells, name and player: ['only one cell']\n",
    )
    bad.write_text("Ladron De Guevara Galar Fco J;999\n", encoding="utf-8")
    assert invoke(db, "import", "trf", str(first), "--match-file", str(bad)) == (
        1,
        "",
        f"Error: {bad}:1: player: no player '999'\n",
    )
    assert invoke(db, "import", "trf", str(first), "--match", "Ladron") == (
        1,
        "",
        "Error: --match 'Ladron': give NAME=ID (the name as the file writes it)\n",
    )
    assert invoke(
        db, "import", "trf", str(first), "--new", "Nobody Here", "--match-file", str(decisions)
    ) == (
        1,
        "",
        f"Error: {first}: --new 'Nobody Here': no player of that name in the file\n",
    )
    assert db.read_bytes() == before
    code, out, err = invoke(db, "import", "trf", str(first), "--match-file", str(decisions))
    assert code == 0, err
    assert out.splitlines()[1].endswith("2 by your decisions")
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result\n2010-12-01,Nobody,X,1-0\n", encoding="utf-8")
    assert invoke(db, "import", "games", str(games), "--new", "Nobody")[0] == 2  # no such option
