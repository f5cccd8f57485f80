"""The README's monthly routine, run as printed on a fresh database.

The commands are read from the README's code block, so that a change to the routine that
needs a step it does not print fails here. The files the routine names (the register, FIDE's
list, a month's games, a TRF file with the two players its ``--match`` and ``--new`` decide)
are written by the test, small, in the shape the README describes; every step must succeed
(exit 0, no ``Error:``) and nothing may ask for a step the routine does not hold (no "run
'ratings ...'" hint, no question).
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import ratings.clock
from ratings.cli import cli
from tests.conftest import BACKEND
from tests.io.test_fide_list import FOA_HEADER, FOA_WIDTHS, line, write

README = Path(__file__).parent.parent / "README.md"
TODAY = dt.date(2026, 2, 3)

pytestmark = pytest.mark.skipif(
    BACKEND != "sqlite", reason="the routine names a SQLite file (RATINGS_DB=club.db)"
)


def routine() -> list[list[str]]:
    """The routine's commands as the README prints them: the first ``sh`` block under "The
    monthly routine", comments dropped, one command a line."""
    text = README.read_text(encoding="utf-8").split("## The monthly routine", 1)[1]
    block = re.search(r"```sh\n(.*?)```", text, re.DOTALL)
    assert block is not None, "the monthly routine has no sh block"
    commands = [shlex.split(row, comments=True) for row in block.group(1).splitlines()]
    return [c for c in commands if c]


# the register: 20 players, so that 17 is the Novák the TRF file writes 'Novak J.'
NAMES = [
    "Smith, Ann", "Jones, Bob", "Brown, Carl", "White, Dana", "Green, Emil", "Black, Fay",
    "Gray, Gus", "Hill, Hana", "Ives, Ian", "Judd, Jo", "King, Kai", "Lamb, Liv", "Moss, Max",
    "Nash, Nia", "Ortiz, Otto", "Park, Pia", "Novák, Jiří", "Quinn, Quin", "Reed, Rui",
    "Shaw, Sam",
]  # fmt: skip


def players_csv() -> str:
    rows = ["name,birthdate,fide_id,rating,games,sex,federation"]
    for i, name in enumerate(NAMES, 1):
        fide_id = f"{4100000 + i}" if i <= 4 else ""
        rows.append(f'"{name}",{1970 + i},{fide_id},{1500 + 25 * i},{40 + i},m,IRL')
    return "\n".join(rows) + "\n"


def fide_list(path: Path) -> None:
    """FIDE's combined list (zipped as FIDE ships it) with the four registered FIDE ids."""
    txt = path.with_name("players_list_foa.txt")
    rows = [
        (f"{4100000 + i}", NAMES[i - 1], "IRL", "M", "", "", "", "",
         1500 + 25 * i, 0, 20, 0, 0, 0, 0, 0, 0, 1970 + i, "")
        for i in range(1, 5)
    ]  # fmt: skip
    write(txt, FOA_HEADER, *(line(FOA_WIDTHS, *row) for row in rows))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(txt, "players_list_foa.txt")
    txt.unlink()


GAMES_CSV = """date,white,black,result,event,round
2026-01-05,"Smith, Ann","Brown, Carl",1-0,Club Ch,1
2026-01-05,"Jones, Bob","White, Dana",1/2-1/2,Club Ch,1
2026-01-05,"Green, Emil","Black, Fay",0-1,Club Ch,1
2026-01-12,"Brown, Carl","Jones, Bob",0-1,Club Ch,2
2026-01-12,"White, Dana","Green, Emil",1-0,Club Ch,2
2026-01-12,"Black, Fay","Smith, Ann",1/2-1/2,Club Ch,2
2026-01-19,"Gray, Gus","Hill, Hana",1-0,Rapidplay,1
2026-01-19,"Ives, Ian","Judd, Jo",0-1,Rapidplay,1
"""


def trf_player(number: int, name: str, rating: int, born: int, rounds: list[str]) -> str:
    """A TRF16 player line (001): number, sex, name, rating, federation, id, birth, points,
    rank and the rounds (opponent, colour, result)."""
    points = sum({"1": 1.0, "=": 0.5, "0": 0.0}[r[-1]] for r in rounds)
    head = (
        f"001 {number:>4} m    {name:<33} {rating:>4} IRL {'':>11} {born}/01/01 "
        f"{points:>4.1f} {number:>4}"
    )
    return head + "".join(f"  {r}" for r in rounds)


def open_trf() -> str:
    """Four players, a round robin on 10 and 11 January 2026: 'Novak J.' is registered
    player 17 (Novák, Jiří: initials, so the matcher asks), 'Novak Jan' a new player."""
    lines = [
        "012 Ashford Open",
        "042 2026-01-10",
        "052 2026-01-11",
        "062 4",
        "XXR 3",
        trf_player(1, "Novak J.", 1900, 1987, ["   2 w 1", "   3 b =", "   4 w 1"]),
        trf_player(2, "Novak Jan", 1800, 1990, ["   1 b 0", "   4 w =", "   3 b 1"]),
        trf_player(3, "Brown, Carl", 1575, 1973, ["   4 b 0", "   1 w =", "   2 w 0"]),
        trf_player(4, "White, Dana", 1600, 1974, ["   3 w 1", "   2 b =", "   1 b 0"]),
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The administrator's folder: the files the routine names, and today 3 February 2026
    (January has ended, so `ratings rate` rates it)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(ratings.clock, "today", lambda: TODAY)
    (tmp_path / "players.csv").write_text(players_csv(), encoding="utf-8")
    fide_list(tmp_path / "players_list.zip")
    (tmp_path / "2026-01.csv").write_text(GAMES_CSV, encoding="utf-8")
    (tmp_path / "open.trf").write_text(open_trf(), encoding="utf-8")
    return tmp_path


HINT = re.compile(r"run 'ratings |'ratings \w+[^']*' (?:rates|first)|\[y/N\]")
"""Output that asks for a step (or an answer) the routine does not give."""


def test_the_monthly_routine_runs_as_printed(folder: Path) -> None:
    env: dict[str, str] = {}
    runner = CliRunner()
    done: list[str] = []
    for command in routine():
        if command[0] == "export":
            key, value = command[1].split("=", 1)
            env[key] = value
            continue
        assert command[0] == "ratings", command
        result = runner.invoke(cli, command[1:], env=env, input="")
        shown = " ".join(command)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            shown,
            result.output,
        )
        assert result.exit_code == 0, (shown, result.output)
        assert "Error:" not in result.output, (shown, result.output)
        assert not HINT.search(result.output), (shown, result.output)
        done.append(command[1])
    # the routine's steps, in order: the test ran every one of them
    assert done[:3] == ["init", "import", "import"]
    assert {"rate", "check", "list", "card", "publish", "db"} <= set(done)
    assert (folder / "club.db").is_file()
    assert (folder / "club-2026-01.db").is_file()
    assert (folder / "site" / "index.html").is_file()
    # the decisions were kept: Novak J. is player 17, Novak Jan a new player, and January
    # is rated with the TRF's games
    result = runner.invoke(cli, ["player", "show", "17"], env=env)
    assert "'Novak J.' (match" in result.output, result.output
    result = runner.invoke(
        cli,
        ["sql", "SELECT count(*) AS n FROM games g JOIN events e ON e.id = g.event_id "
         "WHERE e.name = 'Ashford Open'", "--format", "csv"],
        env=env,
    )  # fmt: skip
    assert result.output == "n\n6\n", result.output
