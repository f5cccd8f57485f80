"""The audit reproduces in SQL: the README cookbook query recomputes every published change
from the breakdown and returns no rows when all agree."""

from __future__ import annotations

import datetime as dt
import re
from importlib import resources
from pathlib import Path

import pytest

from ratings import service
from ratings.cli import App
from ratings.rules import system_config
from tests.conftest import BACKEND, new_database, table_rows
from tests.pools import load_pool, random_pool
from tests.support import invoke

README = Path(__file__).resolve().parents[2] / "README.md"


def cookbook_query(title: str) -> str:
    """The SQL of the README cookbook recipe whose lead-in line starts with ``title``."""
    text = README.read_text(encoding="utf-8")
    found = re.search(
        re.escape(title) + r'.*?```sh\nratings sql "(.*?)"\n```', text, flags=re.DOTALL
    )
    assert found is not None, f"no cookbook query after {title!r}"
    return found[1]


RECOMPUTE = cookbook_query("Every published change, recomputed from the breakdown")
RECOMPUTE_PERIOD = cookbook_query("The same check for one period")
"""The recipe for one period, with the README's period '2025-03' (see ``for_period``)."""


def for_period(label: str) -> str:
    """The one-period recipe for the period ``label``."""
    assert RECOMPUTE_PERIOD.count("'2025-03'") == 3
    return RECOMPUTE_PERIOD.replace("'2025-03'", "'" + label + "'")


def database(tmp_path: Path) -> str:
    """A SQLite file, or with RATINGS_TEST_BACKEND=postgres a fresh PostgreSQL database."""
    return str(tmp_path / "audit.db") if BACKEND == "sqlite" else new_database()


@pytest.fixture
def demo(tmp_path: Path) -> str:
    """The demonstration club after the README's correction (game 14 drawn, re-rated): the
    steps of ``ratings demo`` through the commands, so that PostgreSQL gets it too."""
    db = database(tmp_path)
    data = resources.files("ratings") / "data"
    for name in ("demo_players.csv", "demo_games.csv"):
        (tmp_path / name).write_bytes((data / name).read_bytes())
    for args in (
        ["init", "--closing-days", "0"],  # as `ratings demo`: rates by end date
        ["import", "players", str(tmp_path / "demo_players.csv")],
        ["import", "games", str(tmp_path / "demo_games.csv")],
        ["rate"],
        ["game", "edit", "14", "--result", "1/2-1/2"],
        ["rate"],
    ):
        code, out, err = invoke(db, *args)
        assert code == 0, out + err
    return db


NO_ROWS = (
    0,
    "period  list  name  k_used  published  recomputed\n"
    "------  ----  ----  ------  ---------  ----------\n",
    "(0 rows)\n",
)


NO_ROWS_PERIOD = (
    0,
    "list  name  k_used  published  recomputed\n----  ----  ------  ---------  ----------\n",
    "(0 rows)\n",
)


def test_every_published_change_is_recomputed_in_sql_on_the_demo(demo: str) -> None:
    assert invoke(demo, "sql", RECOMPUTE) == NO_ROWS
    labels = [str(label) for (label,) in table_rows(demo, "SELECT label FROM rating_periods")]
    assert len(labels) == 12
    for label in labels:
        assert invoke(demo, "sql", for_period(label)) == NO_ROWS_PERIOD, label


def test_the_minus_2_50_case_is_exact(demo: str) -> None:
    """In the demo, Elard's 2025-01 change summed as -0.2499999... in REAL dR, and
    ROUND(k * SUM(dR)) gave -2 where the list has -3. In integer hundredths the sum is -25,
    K x sum -250, i.e. -2.50, which rounds to -3 (art. 8.3.4)."""
    rows = table_rows(
        demo,
        "SELECT h.change, h.k_used, SUM(b.dr_units), h.k_used * SUM(b.dr_units) "
        "FROM rating_history h JOIN rating_breakdown b ON b.period_id = h.period_id "
        "AND b.player_id = h.player_id JOIN players p ON p.id = h.player_id "
        "JOIN rating_periods rp ON rp.id = h.period_id "
        "WHERE p.name = 'Elard, Carl' AND rp.label = '2025-01' AND b.counts_for = 'change' "
        "GROUP BY h.change, h.k_used",
    )
    assert rows == [(-3, 10, -25, -250)]


def test_sums_of_dr_are_exact_integers(demo: str) -> None:
    """SUM(dR) showed float noise in 137 of 334 player-periods of the demo. The
    sums are integers now, and equal the change's source exactly: K x sum / 100, rounded."""
    rows = table_rows(
        demo,
        "SELECT SUM(dr_units), MIN(units_per_point), MAX(units_per_point) FROM rating_breakdown "
        "WHERE counts_for = 'change' GROUP BY period_id, player_id",
    )
    assert len(rows) == 334
    assert all(isinstance(s, int) and lo == hi == 100 for s, lo, hi in rows)


def test_a_changed_value_is_reported(demo: str) -> None:
    """The query is not vacuous: a list entry that disagrees with its breakdown shows up."""
    engine_rows = table_rows(demo, "SELECT id FROM rating_periods WHERE label = '2025-03'")
    ((period_id,),) = engine_rows
    assert isinstance(period_id, int)
    app = App(demo)
    with app.session() as session:
        session.connection().exec_driver_sql(
            "UPDATE rating_history SET change = change + 1 WHERE period_id = "
            f"{int(period_id)} AND player_id = (SELECT id FROM players WHERE name = 'Elard, Carl')"
        )
    app.close()
    code, out, err = invoke(demo, "sql", RECOMPUTE)
    assert (code, err) == (0, "(1 row)\n")
    assert out.splitlines()[2].split()[:4] == ["2025-03", "standard", "Elard,", "Carl"]
    code, out, err = invoke(demo, "sql", for_period("2025-03"))
    assert (code, err) == (0, "(1 row)\n")
    assert out.splitlines()[2].split()[:3] == ["standard", "Elard,", "Carl"]
    assert invoke(demo, "sql", for_period("2025-02")) == NO_ROWS_PERIOD


@pytest.mark.parametrize(
    ("system", "overrides"),
    [("fide", {}), ("club", {"period_months": 2}), ("elo", {}), ("fide", {"expected": "curve"})],
)
def test_every_published_change_is_recomputed_in_sql_on_a_random_pool(
    tmp_path: Path, system: str, overrides: dict[str, object]
) -> None:
    db = database(tmp_path)
    code, out, err = invoke(db, "init", "--system", system)
    assert code == 0, out + err
    players, games = random_pool(7, players=40, months=14, first=dt.date(2025, 1, 1))
    app = App(db)
    with app.session() as session:
        session.connection().exec_driver_sql("DELETE FROM settings")
        service.create_settings(session, system_config(system, **overrides))  # type: ignore[arg-type]
        load_pool(session, players, games)
        report = service.rate(session)
    app.close()
    assert report.games > 500
    assert invoke(db, "sql", RECOMPUTE) == NO_ROWS


def cookbook_examples() -> list[tuple[str, list[str], list[str]]]:
    """Each query of the README's "Eight queries" with its options and the output shown (the
    lines before a closing ``...``)."""
    text = README.read_text(encoding="utf-8").split("### Eight queries", 1)[1]
    found = re.findall(r'```sh\nratings sql "(.*?)"(.*?)\n```\n```\n(.*?)```', text, re.DOTALL)
    examples = []
    for query, options, output in found:
        shown = output.splitlines()
        examples.append(
            (query, options.split(), shown[: shown.index("...")] if "..." in shown else shown)
        )
    return examples


def test_the_readme_cookbook_shows_what_the_demo_gives(demo: str) -> None:
    """Every cookbook query runs (on PostgreSQL too, as the reader role: the views' grants)
    and prints what the README shows, from the demonstration database after its correction."""
    examples = cookbook_examples()
    assert len(examples) == 9  # eight queries, and the JSON form of one
    for query, options, shown in examples:
        code, out, err = invoke(demo, "sql", query, *options)
        assert code == 0, err
        got = out.splitlines()[: len(shown)]
        if BACKEND == "sqlite":
            assert got == shown, query
        else:  # PostgreSQL's rows come as JSON: a float 0.0 prints as 0 (and narrows the column)
            assert list(map(_cells, got)) == list(map(_cells, shown)), query


def _cells(line: str) -> list[object]:
    """A table line's cells, numbers as numbers."""
    cells: list[object] = []
    for cell in re.split(r"\s{2,}", line.strip()):
        try:
            cells.append(float(cell))
        except ValueError:
            cells.append(cell)
    return cells


def test_every_published_change_is_recomputed_on_three_lists(tmp_path: Path) -> None:
    """A player who plays standard and rapid games in one period has one change on each list:
    the recipe sums each list's games apart."""
    from tests.safety_helpers import bench_generate

    files = bench_generate().generate(
        120, 1500, 6, 11, tmp_path / "data", dt.date(2025, 1, 1), mixed_lists=True
    )
    db = database(tmp_path)
    assert invoke(db, "init")[0] == 0
    assert invoke(db, "import", "players", str(files.players_csv))[0] == 0
    assert invoke(db, "import", "games", str(files.games_csv))[0] == 0
    assert invoke(db, "rate")[0] == 0
    both = table_rows(
        db,
        "SELECT count(*) FROM (SELECT period_id, player_id FROM rating_history "
        "WHERE period_games > 0 GROUP BY period_id, player_id HAVING count(*) > 1) AS t",
    )
    assert isinstance(both[0][0], int)
    assert both[0][0] > 0  # players with games on two lists in one period
    assert invoke(db, "sql", RECOMPUTE) == NO_ROWS


def test_one_periods_check_reports_what_the_whole_check_reports_for_it(tmp_path: Path) -> None:
    """The one-period recipe gives, for each period, the rows of the whole-history recipe for
    that period: on three lists, with a wrong change, a wrong K, and a change and a K on list
    entries without games (carried rows)."""
    from tests.safety_helpers import bench_generate

    files = bench_generate().generate(
        120, 1500, 6, 11, tmp_path / "data", dt.date(2025, 1, 1), mixed_lists=True
    )
    db = database(tmp_path)
    for args in (
        ["init"],
        ["import", "players", str(files.players_csv)],
        ["import", "games", str(files.games_csv)],
        ["rate"],
    ):
        assert invoke(db, *args)[0] == 0
    labels = [str(label) for (label,) in table_rows(db, "SELECT label FROM rating_periods")]
    assert len(labels) == 6
    for label in labels:
        assert invoke(db, "sql", for_period(label)) == NO_ROWS_PERIOD, label
    tamper = [  # each picks one list row of its own period (2025-03 .. -06: the first two
        # have games on the list they pick)
        "UPDATE rating_history SET change = change - 2 WHERE id = (SELECT min(id) FROM "
        "rating_history WHERE k_used IS NOT NULL AND time_control = 'standard' AND period_id = {})",
        "UPDATE rating_history SET k_used = k_used + 10 WHERE id = (SELECT max(id) FROM "
        "rating_history WHERE k_used IS NOT NULL AND time_control = 'rapid' AND period_id = {})",
        "UPDATE rating_history SET change = 3 WHERE id = (SELECT min(id) FROM "
        "rating_history WHERE period_games = 0 AND period_id = {})",
        "UPDATE rating_history SET k_used = 20 WHERE id = (SELECT max(id) FROM "
        "rating_history WHERE period_games = 0 AND period_id = {})",
    ]
    periods = table_rows(db, "SELECT id FROM rating_periods ORDER BY start_date")
    app = App(db)
    with app.session() as session:
        for statement, (period_id,) in zip(tamper, periods[2:6], strict=True):
            assert isinstance(period_id, int)
            done = session.connection().exec_driver_sql(statement.format(int(period_id)))
            assert done.rowcount == 1, statement
    app.close()
    code, out, err = invoke(db, "sql", RECOMPUTE)
    assert (code, err) == (0, "(4 rows)\n")
    whole = out.splitlines()[2:]
    for label in labels:
        code, out, err = invoke(db, "sql", for_period(label))
        assert code == 0, err
        # the whole check's lines less their period column (first) are this period's lines
        mine = [line.split(None, 1)[1] for line in whole if line.startswith(label + " ")]
        got = [line.split() for line in out.splitlines()[2:]]
        assert got == [line.split() for line in mine], label
        assert err == ("(1 row)\n" if mine else "(0 rows)\n"), label
