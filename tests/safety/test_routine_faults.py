"""Small faults of the monthly routine that an adversarial run and a new user's first three
months found: each one line of output or one exit code, each reproduced here first."""

from __future__ import annotations

import datetime as dt
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings import clock, files
from ratings.cli import cli
from ratings.errors import InputFileError
from ratings.service.imports.rounds import round_key
from tests.conftest import init_database, table_rows
from tests.imports.test_pgn import game
from tests.imports.test_trf import player_line, trf_file
from tests.support import Club, ok, run

ALLOWED = (
    "allowed: name, birthdate, fide_id, rating, games, k10, sex, federation, title, "
    "rapid_rating, rapid_games, blitz_rating, blitz_games, id"
)


# --- a header of 70,000 unknown columns ---------------------------------------------------


def test_an_unknown_column_repeated_70000_times_is_said_once(tmp_path: Path) -> None:
    """Seen: 70,000 identical lines ``unknown column 'x'``."""
    db = init_database(tmp_path / "club.db")
    sheet = tmp_path / "wide.csv"
    sheet.write_text("name," + ",".join(["x"] * 70_000) + "\nSmith, Ann" + "," * 70_000 + "\n")
    result = run(db, "import", "players", str(sheet))
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {sheet}:1: unknown column 'x' (70,000 times; {ALLOWED})\n")


def test_many_unknown_columns_are_counted_past_ten(tmp_path: Path) -> None:
    db = init_database(tmp_path / "club.db")
    sheet = tmp_path / "wide.csv"
    sheet.write_text("name," + ",".join(f"x{i}" for i in range(70_000)) + ",name,name\n")
    result = run(db, "import", "players", str(sheet))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[:10] == [f"Error: {sheet}:1: unknown column 'x{i}' ({ALLOWED})" for i in range(10)]
    assert lines[10:] == [
        f"Error: {sheet}:1: 69,990 more unknown column names",
        f"Error: {sheet}:1: duplicate column 'name' (columns 1 and 70002, and 1 more)",
        "Error: 12 problems found; nothing was imported",
    ]


# --- the same game with its round or event retyped ----------------------------------------


def club(tmp_path: Path) -> Path:
    db = Path(init_database(tmp_path / "club.db"))
    players = tmp_path / "players.csv"
    players.write_text(
        'name,rating,games\n"Smith, Ann",1800,40\n"Jones, Bob",1700,40\n"Lee, Cho",1600,40\n'
    )
    assert run(db, "import", "players", str(players)).exit_code == 0
    return db


def games_of(db: Path) -> int:
    (count,) = table_rows(db, "SELECT count(*) FROM games")[0]
    assert isinstance(count, int)
    return count


@pytest.mark.parametrize(
    ("event", "played_round"),
    [("Club Ch", "01"), ("Club Ch", "1.0"), ("CLUB CH", "1"), ("club ch", " 1.00")],
)
def test_the_same_csv_game_with_its_round_or_event_retyped(
    tmp_path: Path, event: str, played_round: str
) -> None:
    """Seen: the same game passed when its round was written ``01`` or ``1.0``, or its event
    name differed only in case."""
    db = club(tmp_path)
    path = tmp_path / "games.csv"
    path.write_text(
        "date,white,black,result,event,round\n"
        '2026-01-10,"Smith, Ann","Jones, Bob",1-0,Club Ch,1\n'
        f'2026-01-10,"Smith, Ann","Jones, Bob",1-0,{event},{played_round}\n'
    )
    result = run(db, "import", "games", str(path))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {path}:3: the same game as line 2 (date, players, result, event and round)\n"
    )
    assert games_of(db) == 0


def test_the_same_pgn_game_with_its_round_retyped(tmp_path: Path) -> None:
    db = club(tmp_path)
    tags = ("Event Club Ch", "Date 2026.01.10", "White Smith, Ann", "Black Jones, Bob",
            "Result 1-0")  # fmt: skip
    path = tmp_path / "club.pgn"
    path.write_text(game(*tags, "Round 1") + game(*tags, "Round 01"))
    result = run(db, "import", "pgn", str(path))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {path}:10: the same game as line 1 (date, players, result, event and round)\n"
    )
    assert games_of(db) == 0


@pytest.mark.parametrize(
    ("text", "key"),
    [("1", "1"), ("01", "1"), ("1.0", "1"), ("1.00", "1"), ("0", "0"), ("00", "0"),
     ("1.1", "1.1"), ("1.10", "1.10"), ("3.01", "3.1"), ("R1", "r1"), (" 2 ", "2"),
     ("1" * 5000, "1" * 5000)],
)  # fmt: skip
def test_round_key(text: str, key: str) -> None:
    """Games 1 and 10 of round 1 (PGN's ``1.1`` and ``1.10``) stay apart."""
    assert round_key(text) == key


# --- a PGN cut short -----------------------------------------------------------------------


def imports_of(db: Path) -> int:
    (count,) = table_rows(db, "SELECT count(*) FROM imports")[0]
    assert isinstance(count, int)
    return count


COMPLETE = game("Event Club Ch", "Date 2026.01.10", "Round 1", "White Smith, Ann",
                "Black Jones, Bob", "Result 1-0")  # fmt: skip


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('[Event "Club Ch"]\n', 1),
        ('[Event "Club Ch"]\n[Site "Club"]\n[Date "2026.01.10"]', 1),
        (COMPLETE + '\n[Event "Club Ch"]\n', 11),
    ],
    ids=["first tag", "three tags", "after a whole game"],
)
def test_a_pgn_cut_after_its_first_tag_is_refused(tmp_path: Path, text: str, line: int) -> None:
    """Seen: ``Imported 0 games``, exit 0, and the file recorded as imported; with whole
    games before the cut, they were imported and the cut went unnoticed."""
    db = club(tmp_path)
    imports = imports_of(db)  # the players'
    path = tmp_path / "cut.pgn"
    path.write_text(text)
    result = run(db, "import", "pgn", str(path))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: {path}:{line}: the file ends in this game's tags, before its Result tag "
        "and its moves: it was cut short\n"
    )
    assert (games_of(db), imports_of(db)) == (0, imports)


def test_an_unfinished_game_is_still_skipped(tmp_path: Path) -> None:
    """A game with moves and no Result tag (or ``*``) is not finished, not cut."""
    db = club(tmp_path)
    path = tmp_path / "live.pgn"
    path.write_text(COMPLETE + game("Event Club Ch", "White Lee, Cho", "Black Smith, Ann",
                                    moves="1. d4 d5"))  # fmt: skip
    result = run(db, "import", "pgn", str(path))
    assert result.exit_code == 0, result.output
    assert result.stderr == "Skipped 1 unfinished game\n"
    assert games_of(db) == 1


# --- titles --player of a merged record ----------------------------------------------------


def test_titles_of_a_merged_record_shows_the_player_kept(tmp_path: Path) -> None:
    """Seen: ``titles --player`` of a merged record was ``Error: player 10 was merged into
    41 ...; give player 41``, exit 1, where ``history`` and ``card`` show the player kept."""
    db = club(tmp_path)
    assert run(db, "player", "add", "Smith, Anne").exit_code == 0
    merged = run(db, "player", "merge", "Smith, Ann", "Smith, Anne", "--yes", "--force")
    assert merged.exit_code == 0, merged.output
    kept = run(db, "titles", "--player", "1")
    result = run(db, "titles", "--player", "4")
    assert result.exit_code == 0, result.output
    assert result.stderr == "player 4 was merged into 1 (correction 1): showing 1\n"
    assert result.stdout == kept.stdout
    assert result.stdout.startswith("Smith, Ann (id 1)\n")
    history = run(db, "history", "4")
    assert history.stderr == result.stderr


# --- a birthdate in the future; a file with a header and nothing under it ------------------


@pytest.fixture
def fixed_today(monkeypatch: pytest.MonkeyPatch) -> dt.date:
    today = dt.date(2026, 12, 1)
    monkeypatch.setattr(clock, "today", lambda: today)
    return today


@pytest.mark.parametrize(
    ("birthdate", "problem"),
    [
        ("2099-05-01", "birthdate 2099-05-01 is after today (2026-12-01)"),
        ("2026-12-02", "birthdate 2026-12-02 is after today (2026-12-01)"),
        ("2099", "birth year 2099 is after this year (2026)"),
    ],
)
def test_a_players_csv_with_a_birthdate_after_today(
    tmp_path: Path, fixed_today: dt.date, birthdate: str, problem: str
) -> None:
    """Seen: a players CSV with a 2099 birthdate was imported, exit 0 (the player a junior
    for the rest of the century)."""
    db = init_database(tmp_path / "club.db")
    sheet = tmp_path / "players.csv"
    sheet.write_text(f'name,birthdate\n"Smith, Ann",1990\n"Kid, Future",{birthdate}\n')
    result = run(db, "import", "players", str(sheet))
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {sheet}:3: birthdate: {problem}\n")
    assert table_rows(db, "SELECT count(*) FROM players") == [(0,)]


def test_today_and_this_year_are_birthdates(tmp_path: Path, fixed_today: dt.date) -> None:
    db = init_database(tmp_path / "club.db")
    sheet = tmp_path / "players.csv"
    sheet.write_text('name,birthdate\n"Born, Today",2026-12-01\n"Born, ThisYear",2026\n')
    assert run(db, "import", "players", str(sheet)).exit_code == 0


def test_player_add_and_edit_refuse_a_birthdate_after_today(
    tmp_path: Path, fixed_today: dt.date
) -> None:
    db = init_database(tmp_path / "club.db")
    added = run(db, "player", "add", "Kid, Future", "--birthdate", "2099-05-01")
    assert (added.exit_code, added.stderr) == (
        1,
        "Error: birthdate 2099-05-01 is after today (2026-12-01)\n",
    )
    assert run(db, "player", "add", "Kid, Present", "--birthdate", "2009").exit_code == 0
    edited = run(db, "player", "edit", "1", "--birthdate", "2099", "--reason", "typo")
    assert (edited.exit_code, edited.stderr) == (
        1,
        "Error: birth year 2099 is after this year (2026)\n",
    )


@pytest.mark.parametrize(
    ("kind", "text", "what"),
    [
        ("players", "name,birthdate\n", "player"),
        ("players", "name\n\n\n", "player"),
        ("games", "date,white,black,result\n", "game"),
    ],
)
def test_a_csv_with_a_header_and_no_rows(tmp_path: Path, kind: str, text: str, what: str) -> None:
    """Seen: ``Imported 0 players`` (or games), exit 0, and the file recorded as imported."""
    db = init_database(tmp_path / "club.db")
    sheet = tmp_path / f"{kind}.csv"
    sheet.write_text(text)
    result = run(db, "import", kind, str(sheet))
    assert result.exit_code == 1
    assert result.stderr == (f"Error: {sheet}: no {what} below the header row: nothing to import\n")
    assert table_rows(db, "SELECT count(*) FROM imports") == [(0,)]


# --- init's schema text ----------------------------------------------------------------------


def test_init_writes_the_same_schema_every_time(tmp_path: Path) -> None:
    """Seen: two ``init`` wrote the CHECK and FOREIGN KEY constraints of a table in another
    order (the migrations' table rebuilds copied them in the order of a set)."""

    def schema(n: int) -> list[tuple[object, ...]]:
        db = tmp_path / f"{n}.db"
        ok(db, "init")
        return table_rows(str(db), "SELECT type, name, tbl_name, sql FROM sqlite_master")

    first = schema(0)
    assert [schema(n) for n in (1, 2, 3)] == [first] * 3


# --- one huge cell --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"0123456789\n0123456789\r0123456789\r\n0123456789", None),  # 10 bytes a line: whole
        (b"0123456789a\n", 1),
        (b"short\n0123456789ab\n", 2),
        (b"0123456\r\n012345678901", 2),  # crosses a chunk's end
        (b"x\r\ny\rz\n" + b"9" * 25, 4),
    ],
)
def test_read_input_refuses_a_long_line_where_it_is(
    tmp_path: Path, data: bytes, line: int | None
) -> None:
    path = tmp_path / "f.csv"
    path.write_bytes(data)
    if line is None:
        assert files.read_input(path, max_line=10) == data
        return
    with pytest.raises(InputFileError) as caught:
        files.read_input(path, max_line=10)
    assert str(caught.value) == f"{path}:{line}: a line longer than 10 bytes: not a file to import"


HUGE = 100_000_000

PEAK_RSS = """
import os, resource, sys
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"peak_rss_kb={usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs the command in a grandchild and reports its peak RSS (a child of pytest would
report pytest's: Linux carries a parent's peak over fork and exec)."""


@pytest.mark.slow  # the memory of real processes reading 100 MB files
@pytest.mark.parametrize(
    ("kind", "text", "line"),
    [
        ("players", 'name,rating\n"{}",1800\n', 2),
        ("games", 'date,white,black,result\n2026-01-10,"{}",B,1-0\n', 2),
        ("pgn", '[Event "{}"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1-0\n', 1),
        ("trf", "012 {}\n", 1),
    ],
)
def test_one_huge_cell_is_refused_before_the_file_is_read(
    tmp_path: Path, kind: str, text: str, line: int
) -> None:
    """Seen: one cell of 100 MB held 350 MB (CSV, TRF) to 740 MB (PGN) before its error."""
    db = init_database(tmp_path / "club.db")
    path = tmp_path / f"huge.{'csv' if kind in ('players', 'games') else kind}"
    path.write_text(text.format("x" * HUGE))
    proc = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, "-m", "ratings", "--db", db, "import", kind, str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    *err, peak = proc.stderr.splitlines()
    assert proc.returncode == 1
    assert err == [
        f"Error: {path}:{line}: a line longer than 1,048,576 bytes: not a file to import"
    ]
    peak_mb = int(peak.removeprefix("peak_rss_kb=")) / 1024
    print(f"\nimport {kind} of a 100 MB cell: peak {peak_mb:.0f} MB")  # noqa: T201  # docs/RELIABILITY.md's figures, with -s
    assert peak_mb < 120


# --- the README's SQL cookbook, as a new user types it ----------------------------------------

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_sql_cookbook_set_up_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commands that set up the cookbook's database, typed in an empty folder in the
    order shown, then its first query. Seen: the set-up gave ``--db demo.db`` to two commands
    and not to ``ratings rate``, which then failed on a missing ``ratings.db``."""
    text = README.read_text(encoding="utf-8").split("### Eight queries", 1)[1]
    set_up, first = text.split("```sh\nratings sql", 1)
    commands: list[str] = []
    for block, inline in re.findall(r"```sh\n(.*?)```|`((?:export |ratings )[^`]*)`", set_up,
                                    re.DOTALL):  # fmt: skip
        lines = block.splitlines() if block else [inline]
        commands += [c for c in (line.split("  #")[0].strip() for line in lines) if c]
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RATINGS_DB", raising=False)
    ran = 0
    for command in commands:
        if command.startswith("export "):
            name, _, value = command.removeprefix("export ").partition("=")
            monkeypatch.setenv(name, value)
            continue
        result = CliRunner().invoke(cli, shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}: {result.output}"
        ran += 1
    query = shlex.split("ratings sql" + first.split("\n```", 1)[0].replace("\n", " "))
    result = CliRunner().invoke(cli, query[1:])
    assert result.exit_code == 0, result.output
    assert ran >= 3  # the demo, the correction, the re-rate


# --- import list ---------------------------------------------------------------------------


def test_import_list_counts_the_games_each_import_stored(tmp_path: Path) -> None:
    """Seen: a game added by hand later to an event a games CSV created was counted under
    that import (``rows 1 ... games 2``)."""
    db = club(tmp_path)
    sheet = tmp_path / "games.csv"
    sheet.write_text(
        'date,white,black,result,event,round\n2026-01-10,"Smith, Ann","Jones, Bob",1-0,Cup,1\n'
    )
    assert run(db, "import", "games", str(sheet)).exit_code == 0
    added = run(db, "game", "add", "Lee, Cho", "Smith, Ann", "0-1", "--date", "2026-01-17",
                "--event", "Cup", "--round", "2")  # fmt: skip
    assert added.exit_code == 0, added.output
    listed = run(db, "import", "list", "--format", "json")
    assert listed.exit_code == 0, listed.output
    games = {i["file"]: (i["rows"], i["events"], i["games"]) for i in json.loads(listed.stdout)}
    assert games[str(sheet)] == (1, 1, 1)


# --- norms: the rounds of a TRF whose lines end in an empty round slot -----------------------


@pytest.mark.parametrize("slot", ["0000      ", "0000 -    ", "     -    "])
def test_norms_count_the_rounds_played(tmp_path: Path, slot: str) -> None:
    """Seen: a 4-round file whose player lines end in an empty round slot (stored as a blank
    bye of every player in round 5) was ``round robin, 5 rounds``."""
    results = {1: [(2, "w", "1"), (3, "b", "="), (4, "w", "1"), (2, "b", "0")],
               2: [(1, "b", "0"), (4, "w", "="), (3, "b", "1"), (1, "w", "1")],
               3: [(4, "b", "1"), (1, "w", "="), (2, "w", "0"), (4, "w", "1")],
               4: [(3, "w", "0"), (2, "b", "="), (1, "b", "0"), (3, "b", "0")]}  # fmt: skip
    db = Path(init_database(tmp_path / "club.db"))
    lines = [
        player_line(
            n,
            f"Player, {n}",
            [f"{o:>4} {c} {r}" for o, c, r in games] + [slot],
            rating=str(2400 + 10 * n),
            fide_id=str(1000 + n),
        )
        for n, games in results.items()
    ]
    path = trf_file(tmp_path / "spring.trf", *lines, header=("042 2025-03-01", "052 2025-03-04"))
    assert run(db, "import", "trf", str(path)).exit_code == 0
    result = run(db, "norms", "1")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        "Event 1: Spring Open, 2025-03-01 .. 2025-03-04: round robin, 4 rounds"
    )


# --- card of an unrated player with no game in the period ------------------------------------


def test_card_shows_an_unrated_players_pool_in_a_period_without_games(tmp_path: Path) -> None:
    """Seen: ``0 game(s)`` and ``New rating: unrated (unrated)``, with nothing of the two
    games pooled towards a first rating, which ``player show`` counts."""
    club = Club(tmp_path / "club.db")
    club.player("New, Kid")
    for name, rating in (("Smith, Ann", "1800"), ("Jones, Bob", "1700"), ("Lee, Cho", "1600")):
        club.player(name, "--rating", rating, "--games", "40")
    club.game("New, Kid", "Smith, Ann", "1-0", "2026-01-10")
    club.game("Jones, Bob", "New, Kid", "1/2-1/2", "2026-01-11")
    club.game("Jones, Bob", "Lee, Cho", "1-0", "2026-02-07")
    club.ok("rate", "--through", "2026-02")
    code, out = club.run("card", "New, Kid")
    assert code == 0
    assert out.splitlines()[3:] == [
        "Pooled games of earlier periods (art. 7.1.4):",
        "2026-01-10 Smith, Ann                  1800         1",
        "2026-01-11 Jones, Bob                  1700         ½",
        "First rating (art. 8.2):",
        "  2 game(s) against rated opponents + 2 hypothetical draws against 1800",
        "  5 games are needed: no rating yet",
        "New rating: unrated (unrated)",
    ]
    shown = club.run("player", "show", "New, Kid")[1]
    assert "first rating:  2 of 5 games against rated opponents" in shown
