"""``import fide-list`` reads our own ``list --format fide-txt``.

Seen, twice: the export is a single-type list whose header names the month (``JAN26``), as
FIDE's standard, rapid and blitz TXT files are, so the import asked which list it was and
had no option to be told (``--list``); and the players without a FIDE id (not registered
with FIDE) stopped it (``ID: not a FIDE id``).

Decision: a FIDE list is read by FIDE id, and a row without one is no FIDE player: there is
nothing of FIDE's to take for it, and registering it by its name alone (``--add``) would
make a namesake. Such rows are skipped and counted; a malformed id is still an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.publish_helpers import copy_demo, demo, ok, run

SKIPPED = "Skipped 3 rows without a FIDE id (no FIDE player: nothing of FIDE's list to take)\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo club: its list of January 2026 holds 39 players, 3 without a FIDE id."""
    return demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture
def exported(template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "our-list.txt"  # a name that says no list
    path.write_text(ok("--db", str(template), "list", "--format", "fide-txt"), "utf-8")
    return path


def test_list_says_which_list_a_file_is(template: Path, exported: Path, tmp_path: Path) -> None:
    db = copy_demo(template, tmp_path)
    result = run("--db", str(db), "import", "fide-list", str(exported))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {exported}:1: a single-type list, and neither its name nor the caller says "
        "whether it is the standard, rapid or blitz list (--list standard|rapid|blitz)\n"
    )
    result = run("--db", str(db), "import", "fide-list", str(exported), "--list", "rapid")
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {exported}: this list holds no standard ratings (a rapid or blitz list); "
        "import the standard or the combined list\n"
    )


def test_our_list_back_into_the_same_database(
    template: Path, exported: Path, tmp_path: Path
) -> None:
    """The players with a FIDE id are found and take FIDE's K of the list (ours: the K for
    the next period); the rest of their data is what the register holds already."""
    db = copy_demo(template, tmp_path)
    result = run("--db", str(db), "import", "fide-list", str(exported), "--list", "standard")
    assert result.exit_code == 0, result.output
    *changes, summary = result.stdout.splitlines()
    # FIDE's K for everyone; the K=10 flag for the two whose K is 10 (they reached 2400)
    assert sum(": fide_k (none) -> " in line for line in changes) == 36
    assert [line for line in changes if ": fide_k " not in line] == [
        "Player 10 (Elard, Carl): k10 false -> true",
        "Player 23 (Isstein, Felix): k10 false -> true",
    ]
    assert summary == (
        f"Read 36 players from {exported} (FIDE's list of 2026-01): 36 registered found by "
        "FIDE id, 36 of them updated"
    )
    assert SKIPPED in result.stderr
    csv = ok(
        "--db", str(db), "sql", "SELECT name, fide_k FROM players WHERE fide_id IS NOT NULL",
        "--format", "csv",
    )  # fmt: skip
    rows = dict(line.rsplit(",", 1) for line in csv.splitlines()[1:])
    listed = {
        line[15:76].strip(): line[123:126].strip()
        for line in exported.read_text("utf-8").splitlines()[1:]
        if line[:15].strip()
    }
    fide_k = {name.strip('"'): k for name, k in rows.items()}
    assert {name: fide_k[name] for name in listed} == listed
    assert set(fide_k) - set(listed) == {"Jorarov, Adam"}  # unrated: not on the list
    assert fide_k["Jorarov, Adam"] == ""
    assert len(listed) == 36


def test_our_list_into_a_new_database(exported: Path, tmp_path: Path) -> None:
    """--add registers every player with a FIDE id as the list gives them; exported again,
    the register's list holds the same players, FIDE ids, federations, sexes, titles,
    ratings and birth years."""
    db = tmp_path / "new.db"
    ok("--db", str(db), "init")
    result = run(
        "--db", str(db), "import", "fide-list", str(exported), "--list", "standard", "--add"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        f"Read 36 players from {exported} (FIDE's list of 2026-01): 0 registered found by "
        "FIDE id, 0 of them updated, 36 players added"
    )
    assert SKIPPED in result.stderr
    again = ok("--db", str(db), "list", "--format", "fide-txt").splitlines()
    original = [line for line in exported.read_text("utf-8").splitlines() if line[:15].strip()]

    def fields(line: str) -> tuple[str, ...]:  # all but the period's games and K, and flags
        return (line[:113], line[113:119], line[126:132])

    assert sorted(map(fields, again[1:])) == sorted(map(fields, original[1:]))
    assert len(again) == 37


def test_a_malformed_id_is_still_an_error(exported: Path, tmp_path: Path) -> None:
    lines = exported.read_text("utf-8").splitlines(keepends=True)
    lines[2] = "0".ljust(15) + lines[2][15:]
    broken = tmp_path / "broken.txt"
    broken.write_text("".join(lines), "utf-8")
    db = tmp_path / "new.db"
    ok("--db", str(db), "init")
    result = run("--db", str(db), "import", "fide-list", str(broken), "--list", "standard")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: {broken}:3: ID: ")


def test_help_names_the_option() -> None:
    text = " ".join(run("import", "fide-list", "--help").stdout.split())
    assert "--list [standard|rapid|blitz] Which list a single-type TXT file is" in text
