"""``ratings list`` reads a SQLite file without SQLAlchemy (ratings.rating_lists): the same list
as the service's ``rating_list``, field by field, on every list,
period and option; and None (the full path answers) wherever that path has more to do or to
say. The start-up time is measured by bench/startup.py, never here."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings import rating_lists, rules
from ratings.cli import cli
from ratings.db import SessionFactory, database_url, make_engine
from ratings.files import PENDING_MARK
from ratings.models import LIST_COLUMNS, PLAYER_COLUMNS, Player, RatingHistory
from ratings.rating_lists import LISTS, RatingList, read_published
from ratings.service.reading import reports
from tests.conftest import init_database
from tests.support import ok
from tests.test_startup import _probe


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo club (12 standard lists), with rapid games in 2025-11 and a blitz game in
    2025-12, rated; then one more standard game in the rated 2025-06, not re-rated (a
    correction waits: the list says so)."""
    db = tmp_path_factory.mktemp("read") / "club.db"
    ok(None, "demo", "--db", str(db))
    names = [str(p["name"]) for p in _json_players(db)[:4]]
    for date, tc in (("2025-11-05", "rapid"), ("2025-11-06", "rapid"), ("2025-12-03", "blitz")):
        ok(None, "--db", str(db), "game", "add", names[0], names[1], "1-0", "--date", date,
            "--time-control", tc)  # fmt: skip
        ok(None, "--db", str(db), "game", "add", names[2], names[3], "1/2-1/2", "--date", date,
            "--time-control", tc)  # fmt: skip
    ok(None, "--db", str(db), "rate")
    ok(None, "--db", str(db), "game", "add", names[1], names[2], "0-1", "--date", "2025-06-20")
    # the demo's twelve months make no one inactive (FIDE's i): a few stored rows say so, for
    # the reads to map the flag (a read test: nothing here is rated again)
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE rating_history SET inactive = 1 WHERE id IN "
            "(SELECT id FROM rating_history WHERE rating_after IS NOT NULL ORDER BY id DESC "
            "LIMIT 5)"
        )
    conn.close()
    return db


def _json_players(db: Path) -> list[dict[str, object]]:
    import json

    data = json.loads(ok(None, "--db", str(db), "list", "--format", "json"))
    return list(data["players"])


def _full(db: Path, label: str | None, include_unrated: bool, time_control: str) -> RatingList:
    """The list as the service reads it, through SQLAlchemy."""
    engine = make_engine(database_url(str(db)), read_only=True)
    try:
        with SessionFactory(bind=engine) as session:
            return reports.rating_list(
                session, label, include_unrated=include_unrated, time_control=time_control
            )
    finally:
        engine.dispose()


def _labels(db: Path, time_control: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [
            label
            for (label,) in conn.execute(
                "SELECT DISTINCT p.label FROM rating_periods AS p JOIN rating_history AS h "
                "ON h.period_id = p.id WHERE h.time_control = ? ORDER BY p.label",
                (time_control,),
            )
        ]


@pytest.mark.parametrize("time_control", LISTS)
@pytest.mark.parametrize("include_unrated", [False, True], ids=["rated", "--all"])
def test_every_list_and_period_reads_as_the_service_reads_it(
    club: Path, time_control: str, include_unrated: bool
) -> None:
    labels = _labels(club, time_control)
    assert len(labels) == {"standard": 12, "rapid": 2, "blitz": 1}[time_control]
    for label in [None, *labels]:
        fast = read_published(
            str(club), label, include_unrated=include_unrated, time_control=time_control
        )
        full = _full(club, label, include_unrated, time_control)
        assert fast == full, (time_control, label)  # every field of every row, in order
        assert full.rows, (time_control, label)
        assert full.rerate_pending == "2025-06"


def test_the_rows_carry_every_kind_of_entry(club: Path) -> None:
    """The comparison above is not of lists that lack what can differ: women, inactive
    players, unrated ones, first ratings, several K."""
    rows = [
        row
        for time_control in LISTS
        for label in _labels(club, time_control)
        for row in _full(club, label, True, time_control).rows
    ]
    assert {r.list_status for r in rows} >= {"listed", "first_rating", "unrated"}
    assert {r.flag for r in rows} >= {None, "w"}
    assert {r.flag for r in rows} & {"i", "wi"}
    assert len({r.next_k for r in rows}) >= 3


def test_the_fields_are_the_models_columns() -> None:
    """One definition: the models' list columns are made of rating_lists' names."""
    assert [c.key for c in PLAYER_COLUMNS] == list(rating_lists.PLAYER_FIELDS)
    assert [c.key for c in LIST_COLUMNS] == list(rating_lists.LIST_FIELDS)
    for name in rating_lists.PLAYER_FIELDS:
        assert name in Player.__table__.c
    for name in (*rating_lists.LIST_FIELDS, "inactive", "time_control", "period_id"):
        assert name in RatingHistory.__table__.c
    assert tuple(t.value for t in rules.TIME_CONTROLS) == LISTS


@pytest.fixture
def copy(club: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "copy.db"
    shutil.copyfile(club, dest)
    return dest


def _dead_pid() -> int:
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def test_where_the_full_path_must_answer_the_read_gives_none(
    club: Path, copy: Path, tmp_path: Path
) -> None:
    def none(db: str, label: str | None = None, time_control: str = "standard") -> bool:
        return read_published(db, label, include_unrated=False, time_control=time_control) is None

    assert not none(str(copy))
    assert none(database_url(str(copy)))  # a URL: every backend's path
    assert none(str(tmp_path / "missing.db"))
    assert none(str(tmp_path))  # a folder
    (tmp_path / "text.db").write_text("not a database")
    assert none(str(tmp_path / "text.db"))
    assert none("")
    assert none(str(copy), "2030-01")  # not a rated period: the service's message
    assert none(str(copy), "2025-6")  # not a rated period's label as stored
    assert none(str(copy), "2025-03", "rapid")  # that period published no rapid list
    assert none(str(copy), None, "bogus")
    journal = copy.with_name(copy.name + "-journal")
    journal.write_bytes(b"")
    assert none(str(copy))  # a journal: perhaps a killed writer's, to roll back first
    journal.unlink()
    pending = copy.with_name(f".{copy.name}{PENDING_MARK}{_dead_pid()}")
    pending.write_bytes(b"")
    assert none(str(copy))  # an interrupted restore's leftovers, to clear and report
    pending.unlink()
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0011'")
    assert none(str(copy))  # an old schema: 'run ratings db upgrade'
    register = Path(init_database(tmp_path / "register.db"))
    if register.exists():  # SQLite (the PostgreSQL pass gives a URL: None anyway)
        ok(None, "--db", str(register), "player", "add", "Ann", "--rating", "1800")
        assert none(str(register))  # no list yet: the register, with the K rules


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--all"],
        ["--format", "csv"],
        ["--format", "json", "--all"],
        ["--format", "fide-txt"],
        ["--list", "rapid", "--all"],
        ["--list", "blitz", "--format", "json"],
        ["--period", "2025-06", "--format", "csv", "--all"],
        ["--period", "2030-01"],
        ["--list", "rapid", "--period", "2025-03"],
    ],
)
def test_the_cli_prints_what_the_full_path_prints(
    club: Path, args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    seen: list[bool] = []
    real = read_published

    def spy(*a: object, **k: object) -> RatingList | None:
        found = real(*a, **k)  # type: ignore[arg-type]
        seen.append(found is not None)
        return found

    monkeypatch.setattr("ratings.cli.rating_list.read_published", spy)
    fast = runner.invoke(cli, ["--db", str(club), "list", *args])
    monkeypatch.setattr("ratings.cli.rating_list.read_published", lambda *a, **k: None)
    full = runner.invoke(cli, ["--db", str(club), "list", *args])
    assert (fast.exit_code, fast.stdout, fast.stderr) == (full.exit_code, full.stdout, full.stderr)
    # the read answered where it could, and the errors came from the full path
    assert seen == [full.exit_code == 0]
    if full.exit_code == 0:
        assert "Warning: corrections touched period 2025-06" in full.stderr


def test_list_on_a_sqlite_file_imports_no_database_library(club: Path) -> None:
    heavy, commands, rules_modules = _probe("--db", str(club), "list", "--format", "csv")
    assert heavy == []
    assert rules_modules == []
    assert "ratings.cli.lists" not in commands
