"""`ratings sql` streams its rows and has a time limit: an endless query ends with a one-line
error, a million rows stay under 100 MB in every format, a reader that stops reading does not
keep writers out, and running out of memory is an error, not a traceback."""

from __future__ import annotations

import json
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.support import ok, run

ENDLESS_COUNT = (
    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
)
ENDLESS_ROWS = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n"


def timed_out(seconds: float) -> str:
    """The one-line error a query that ran out of time ends with."""
    return (
        f"Error: the query ran longer than {seconds:g} s; allow more with --timeout SECONDS "
        "(0: no limit)\n"
    )


def million(n: int = 1_000_000) -> str:
    """``n`` rows of a few columns, made by a recursive CTE."""
    return (
        f"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < {n}) "
        "SELECT x AS id, 'Player ' || x AS name, 1000 + x % 1800 AS rating, "
        "(x % 41) - 20 AS change, x / 7.0 AS score, date('2026-01-01', '+' || (x % 365) || "
        "' days') AS played_on FROM n"
    )


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("sql_stream") / "club.db"
    for args in (["init"], ["player", "add", "Smith, Ann", "--rating", "1800"]):
        ok(db, *args)
    return db


@pytest.fixture
def db(tmp_path: Path, club: Path) -> Path:
    path = tmp_path / "club.db"
    shutil.copyfile(club, path)
    return path


def test_an_endless_query_ends_with_a_one_line_error(db: Path) -> None:
    start = time.monotonic()
    result = run(db, "sql", ENDLESS_COUNT, "--timeout", "0.5")
    elapsed = time.monotonic() - start
    assert (result.exit_code, result.output) == (1, timed_out(0.5))
    assert elapsed < 5


FIRST_LINES = {
    "table": ["   x", "----", "   1"],
    "csv": ["x", "1", "2"],
    "json": ["[", "  {", '    "x": 1'],
}


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_endless_rows_are_streamed_until_the_time_limit(db: Path, fmt: str) -> None:
    """Rows reach stdout as they come (the old code printed nothing before the end)."""
    result = run(db, "sql", ENDLESS_ROWS, "--format", fmt, "--timeout", "0.5")
    assert result.exit_code == 1
    assert result.stderr.endswith(timed_out(0.5))
    lines = result.stdout.splitlines()
    assert len(lines) > 1000
    assert lines[:3] == FIRST_LINES[fmt]


def test_timeout_zero_means_no_limit(db: Path) -> None:
    query = (
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000000) "
        "SELECT count(*) AS n FROM n"
    )  # about 0.6 s
    assert run(db, "sql", query, "--format", "csv", "--timeout", "0.05").exit_code == 1
    result = run(db, "sql", query, "--format", "csv", "--timeout", "0")
    assert (result.exit_code, result.output) == (0, "n\n2000000\n")


@pytest.mark.parametrize("value", ["-1", "soon", "nan", "inf"])
def test_a_bad_timeout_is_a_usage_error(db: Path, value: str) -> None:
    assert run(db, "sql", "SELECT 1", "--timeout", value).exit_code == 2


def test_the_default_timeout_is_below_the_writers_busy_timeout() -> None:
    from ratings.cli.sql import DEFAULT_TIMEOUT
    from ratings.db import BUSY_TIMEOUT_MS

    assert 0 < DEFAULT_TIMEOUT < BUSY_TIMEOUT_MS / 1000
    help_text = CliRunner().invoke(cli, ["sql", "--help"]).output
    assert f"[default: {DEFAULT_TIMEOUT}; x>=0]" in help_text


def test_wide_values_after_the_first_batch_are_not_cut(db: Path) -> None:
    """The table sizes its columns on the first 1,000 rows and never truncates a later value."""
    query = (
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1500) "
        "SELECT x, CASE WHEN x = 1400 THEN 'a much longer value than before' ELSE 'v' END AS v "
        "FROM n"
    )
    result = run(db, "sql", query)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "   x  v"
    assert lines[2] == "   1  v"
    assert lines[2 + 1399] == "1400  a much longer value than before"
    assert lines[-1] == "1500  v"
    assert result.stderr == "(1500 rows)\n"


def test_json_is_one_valid_array(db: Path) -> None:
    result = run(db, "sql", million(2500), "--format", "json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert len(rows) == 2500
    assert rows[0] == {
        "id": 1,
        "name": "Player 1",
        "rating": 1001,
        "change": -19,
        "score": 1 / 7.0,
        "played_on": "2026-01-02",
    }


# --- in a real process -----------------------------------------------------------------


def _ratings(
    *args: str,
    stdout: int | None = None,
    stderr: int | None = None,
    preexec_fn: Callable[[], object] | None = None,
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "ratings", *args],
        stdout=stdout,
        stderr=stderr,
        preexec_fn=preexec_fn,
    )


def _limit_memory(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.slow  # a real process timed against a lock or its memory
def test_out_of_memory_is_an_error_not_a_traceback(db: Path, tmp_path: Path) -> None:
    """Under a memory limit a huge row ends in `Error: ...` (it was a MemoryError traceback).

    One value is now refused long before (`zeroblob(200000000)` was this test's query), so
    the row is the widest there is: 100 values of 999,999 bytes, which need about 200 MB
    while they are read, under a 300 MB address-space limit."""
    baseline = _ratings(
        "--db", str(db), "sql", "SELECT 1", stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    baseline.communicate(timeout=60)
    proc = _ratings(
        "--db",
        str(db),
        "sql",
        "SELECT " + ", ".join(f"randomblob(999999) AS c{i}" for i in range(100)),
        "--format",
        "csv",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: _limit_memory(300 * 1024 * 1024),
    )
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert out == b"c0," + b",".join(b"c%d" % i for i in range(1, 100)) + b"\n" or out == b""
    assert err.decode().startswith("Error: out of memory"), err
    assert b"Traceback" not in err


def _write_once(db: Path, busy_timeout: float) -> float:
    """A writer's transaction, as `ratings player edit` runs one: seconds it took."""
    start = time.monotonic()
    writer = sqlite3.connect(db, timeout=busy_timeout, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE players SET name = 'Renamed' WHERE id = 1")
        writer.execute("COMMIT")  # waits for the readers' SHARED locks to go
    finally:
        writer.close()
    return time.monotonic() - start


def _wait_for_a_reader(db: Path) -> None:
    """Until another connection holds a read lock: a writer that does not wait then fails
    to commit."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            _write_once(db, busy_timeout=0)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc):
                return
            raise
        time.sleep(0.02)
    raise AssertionError("the query never took its read lock")


# reads a table, so that the query holds SQLite's SHARED lock (a CTE alone reads no page)
ENDLESS_ON_A_TABLE = (
    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
    "SELECT count(*) FROM n, players AS p WHERE p.id = 1"
)


@pytest.mark.slow  # a real process timed against a lock or its memory
def test_a_long_query_does_not_keep_writers_out(db: Path) -> None:
    """A query that holds its read lock ends at the time limit, before a writer's busy
    timeout (here 10 s; 30 s in ratings) runs out. Before, the writer failed with
    "database is locked"."""
    proc = _ratings(
        "--db", str(db), "sql", ENDLESS_ON_A_TABLE, "--timeout", "2",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        _wait_for_a_reader(db)
        assert _write_once(db, busy_timeout=10) < 5
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert (proc.returncode, out, err.decode()) == (1, b"", timed_out(2))


@pytest.mark.slow  # a real process timed against a lock or its memory
def test_a_reader_that_stops_reading_does_not_keep_writers_out(db: Path) -> None:
    """`ratings sql ... | less`: the pager reads one screen and waits, the output blocks with
    the read lock held. At the time limit (plus ALARM_GRACE) the write is interrupted and the
    lock goes, so a writer gets in."""
    query = (
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000000) "
        "SELECT x, p.name FROM n, players AS p WHERE p.id = 1"
    )
    proc = _ratings(
        "--db", str(db), "sql", query, "--timeout", "2",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.read(1000)  # one screen, then nobody reads
        _wait_for_a_reader(db)
        assert _write_once(db, busy_timeout=10) < 5
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 1
    assert err.decode().endswith(timed_out(2))


# Runs the command in a grandchild and prints its peak RSS. Linux carries a process's peak
# RSS over fork and exec (ru_maxrss of a child started by pytest would report pytest's own
# peak), so a small launcher forks it from a fresh interpreter and waits for it.
PEAK_RSS = """
import os, resource, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"peak_rss_kb={usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_a_million_rows_stay_under_100_mb(db: Path, fmt: str, tmp_path: Path) -> None:
    """Peak RSS of the whole process (interpreter and libraries included), measured by the
    kernel, while a million rows of six columns go to a file."""
    out_path = tmp_path / f"out.{fmt}"
    start = time.monotonic()
    with out_path.open("wb") as out:
        proc = subprocess.run(
            [sys.executable, "-c", PEAK_RSS, "-m", "ratings", "--db", str(db), "sql", million(),
             "--format", fmt, "--timeout", "0"],
            stdout=out, stderr=subprocess.PIPE, check=False,
        )  # fmt: skip
    elapsed = time.monotonic() - start
    *err_lines, peak_line = proc.stderr.decode().splitlines()
    assert peak_line.startswith("peak_rss_kb="), proc.stderr
    peak_mb = int(peak_line.split("=")[1]) / 1024
    size_mb = out_path.stat().st_size / 1e6
    # the figures in docs/RELIABILITY.md (shown with pytest -s)
    print(f"\n{fmt}: 1,000,000 rows, {size_mb:.0f} MB in {elapsed:.1f} s, peak {peak_mb:.0f} MB")  # noqa: T201
    assert proc.returncode == 0, proc.stderr
    assert peak_mb < 100
    with out_path.open("rb") as f:
        if fmt == "json":
            rows = json.load(f)
            assert len(rows) == 1_000_000
            assert rows[-1]["id"] == 1_000_000
        else:
            lines = sum(1 for _ in f)
            assert lines == 1_000_000 + (2 if fmt == "table" else 1)
    assert err_lines == (["(1000000 rows)"] if fmt == "table" else [])


@pytest.mark.slow  # a real process timed against a lock or its memory
def test_the_peak_rss_launcher_measures_the_command_alone(db: Path) -> None:
    """The launcher's figure is the command's, not pytest's: `SELECT 1` stays small even
    when this process has grown."""
    ballast = bytearray(300 * 1024 * 1024)  # pytest grows to 300+ MB
    ballast[::4096] = b"x" * len(ballast[::4096])
    proc = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, "-m", "ratings", "--db", str(db), "sql", "SELECT 1"],
        capture_output=True, check=False,
    )  # fmt: skip
    del ballast
    peak_kb = int(proc.stderr.decode().splitlines()[-1].split("=")[1])
    assert proc.returncode == 0
    assert peak_kb < 150 * 1024
