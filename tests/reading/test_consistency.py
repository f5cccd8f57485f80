"""The commands agree with each other: the same result words, one
message for a declined prompt, ``-y`` wherever ``--yes`` is, ``--dry-run`` on every
import of games, date options that show their format, and ``--date-format`` for the
spreadsheets that write ``03/12/2026``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.publish_helpers import copy_demo, demo
from tests.support import Club, invoke

DECLINED = "Error: not confirmed; nothing was changed (--yes confirms without asking)"


@pytest.mark.parametrize(
    ("result", "new"),
    [("1-0", 2005), ("1", 2005), ("0-1", 1995), ("1/2-1/2", 2000), ("½-½", 2000), ("=", 2000)],
)
def test_calc_change_takes_the_results_every_command_takes(result: str, new: int) -> None:
    """Seen: ``calc change 1800 1800 1-0`` was refused; RESULT is the first player's."""
    code, out, _ = invoke(None, "calc", "change", "2000", "2000", result, "--k", "10", "--format",
                          "json")  # fmt: skip
    assert code == 0
    assert json.loads(out)["table"]["new_rating"] == new


def test_calc_change_refuses_a_forfeit() -> None:
    assert invoke(None, "calc", "change", "2000", "2000", "+/-", "--k", "10")[2] == (
        "Error: unknown result (use 1, 0.5, 1/2, = or 0, or 1-0, 1/2-1/2, 0-1): '+/-'\n"
    )


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    return copy_demo(template, tmp_path)


def test_a_declined_prompt_says_one_thing(db: Path, tmp_path: Path) -> None:
    """Seen: ``player merge`` answered no printed ``Aborted!``, ``event void`` ``Error: not
    confirmed; nothing was changed``."""
    backup = tmp_path / "backup.db"
    assert invoke(None, "--db", str(db), "db", "backup", str(backup))[0] == 0
    before = db.read_bytes()
    for args in (
        ["player", "merge", "Elard, Carl", "Isstein, Felix", "--force"],
        ["event", "void", "1"],
        ["db", "downgrade", "0006"],
        ["db", "restore", str(backup)],
    ):
        for answer in ("n\n", ""):  # no, and no answer at all
            code, _, err = invoke(None, "--db", str(db), *args, input=answer)
            assert (code, err.splitlines()[-1]) == (1, DECLINED), (args, answer)
            assert "Aborted" not in err
    assert db.read_bytes() == before
    # unmerge asks too
    assert invoke(None, "--db", str(db), "player", "merge", "Elard, Carl", "Isstein, Felix",
                  "--force", "--yes")[0] == 0  # fmt: skip
    code, _, err = invoke(None, "--db", str(db), "player", "unmerge", "Isstein, Felix", input="n\n")
    assert (code, err.splitlines()[-1]) == (1, DECLINED)


def test_db_restore_and_downgrade_take_y(db: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup.db"
    assert invoke(None, "--db", str(db), "db", "backup", str(backup))[0] == 0
    code, out, err = invoke(None, "--db", str(db), "db", "restore", str(backup), "-y")
    assert code == 0, err
    assert out.startswith(f"Restored {db} from {backup}")
    for name in ("restore", "downgrade"):
        text = " ".join(invoke(None, "db", name, "--help")[1].split())
        assert "-y, --yes" in text, name


def test_import_games_dry_run(db: Path, tmp_path: Path) -> None:
    csv = tmp_path / "jan.csv"
    csv.write_text(
        'date,white,black,result,event\n2026-01-10,"Elard, Carl","Isstein, Felix",1-0,New\n'
        '2026-01-11,"Isstein, Felix","Elard, Carl",+/-,New\n',
        "utf-8",
    )
    before = db.read_bytes()
    assert invoke(None, "--db", str(db), "import", "games", str(csv), "--dry-run") == (
        0,
        f"Dry run of {csv}: nothing was written\n"
        "Would import 2 games (1 to rate, 1 forfeit) in 1 event\n",
        "",
    )
    assert db.read_bytes() == before
    bad = tmp_path / "bad.csv"
    bad.write_text('date,white,black,result\n2026-01-10,"Elard, Carl",Nobody,1-0\n', "utf-8")
    code, _, err = invoke(None, "--db", str(db), "import", "games", str(bad), "--dry-run")
    assert code == 1
    assert err.startswith(f"Error: {bad}:2: black: unknown player: 'Nobody'")
    code, out, _ = invoke(None, "--db", str(db), "import", "games", str(csv))  # then for real
    assert (code, out.splitlines()[0]) == (
        0,
        f"Imported 2 games (1 to rate, 1 forfeit) in 1 event from {csv}",
    )


@pytest.mark.parametrize(
    "command",
    [["game", "add"], ["game", "edit"], ["import", "trf"], ["import", "pgn"], ["calc", "change"]],
)
def test_date_options_show_their_format(command: list[str]) -> None:
    """Seen: ``game add --date TEXT`` where the others show ``YYYY-MM-DD``."""
    text = invoke(None, *command, "--help")[1]
    assert "--date YYYY-MM-DD" in text, text
    assert "--date TEXT" not in text


@pytest.mark.parametrize(
    ("fmt", "written", "day"),
    [
        ("DD/MM/YYYY", "03/12/2025", "2025-12-03"),
        ("MM/DD/YYYY", "03/12/2025", "2025-03-12"),
        ("DD.MM.YYYY", "3.12.2025", "2025-12-03"),
        ("YYYY-MM-DD", "2025-12-03", "2025-12-03"),
    ],
)
def test_date_format_reads_a_spreadsheet_s_dates(
    tmp_path: Path, fmt: str, written: str, day: str
) -> None:
    club = Club(tmp_path / "club.db")
    players = tmp_path / "players.csv"
    players.write_text(
        f"name,birthdate,rating\nAnn,{written.replace('2025', '1990')},1800\nBob,1985,1700\n",
        "utf-8",
    )
    club.ok("import", "players", str(players), "--date-format", fmt)
    games = tmp_path / "games.csv"
    games.write_text(f"date,white,black,result\n{written},Ann,Bob,1-0\n", "utf-8")
    club.ok("import", "games", str(games), "--date-format", fmt)
    assert club.rows("SELECT played_on FROM games") == [(day,)]
    assert club.rows("SELECT name, birth_date, birth_year FROM players ORDER BY id") == [
        ("Ann", day.replace("2025", "1990"), 1990),
        ("Bob", None, 1985),
    ]


def test_a_date_not_in_the_format_is_an_error(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db")
    club.ok("player", "add", "Ann")
    club.ok("player", "add", "Bob")
    games = tmp_path / "games.csv"
    games.write_text("date,white,black,result\n2025-12-03,Ann,Bob,1-0\n13/13/2025,Ann,Bob,0-1\n")
    code, out = club.run("import", "games", str(games), "--date-format", "DD/MM/YYYY")
    assert code == 1
    assert out.splitlines()[:2] == [
        f"Error: {games}:2: date: not a date (DD/MM/YYYY): '2025-12-03'",
        f"Error: {games}:3: date: not a date (DD/MM/YYYY): '13/13/2025'",
    ]
    help_text = " ".join(club.ok("import", "games", "--help").split())
    assert "--date-format [YYYY-MM-DD|DD/MM/YYYY|MM/DD/YYYY|DD.MM.YYYY]" in help_text
