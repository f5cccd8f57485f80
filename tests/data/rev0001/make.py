"""Make the databases of ``tests/data/rev0001/*.json`` with ratings as it was at schema
revision 0001 (commit 55726b9, before revision 0002 made the audit columns exact), for
tests/test_migrations.py.

    git archive 55726b9 | tar -x -C /tmp/ratings-0001
    cp tests/pools.py tests/rating_reference.py /tmp/ratings-0001/tests/
    cd /tmp/ratings-0001 && PYTHONPATH=. python /path/to/tests/data/rev0001/make.py OUT_DIR

Each file holds every table's rows (``alembic_version`` left out) as
``{"table": {"columns": [...], "rows": [[...], ...]}}``, read from SQLite.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
import sys
from pathlib import Path

from click.testing import CliRunner

from ratings import migrate, service
from ratings.cli import App, cli
from ratings.db import database_url
from ratings.rules import system_config
from tests.pools import load_pool, random_pool

TABLES = (
    "settings", "imports", "players", "events", "games", "byes", "rating_periods",
    "rating_history", "rating_breakdown", "superseded_ratings",
)  # fmt: skip


def dump(db: Path, out: Path) -> None:
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
        data = {}
        for table in TABLES:
            cursor = conn.execute(f"SELECT * FROM {table} ORDER BY id")
            data[table] = {
                "columns": [d[0] for d in cursor.description],
                "rows": [list(r) for r in cursor.fetchall()],
            }
    out.write_text(
        "{\n"
        + ",\n".join(
            f'{json.dumps(t)}: {{"columns": {json.dumps(v["columns"])}, "rows": [\n'
            + ",\n".join(json.dumps(r) for r in v["rows"])
            + "\n]}"
            for t, v in data.items()
        )
        + "\n}\n",
        encoding="utf-8",
    )


def demo(work: Path, out: Path) -> None:
    """The demonstration club after the README's correction (fide, monthly)."""
    db = work / "demo.db"
    runner = CliRunner()
    for args in (["demo"], ["game", "edit", "14", "--result", "1/2-1/2"], ["rate"]):
        result = runner.invoke(cli, ["--db", str(db), *args])
        assert result.exit_code == 0, result.output
    dump(db, out / "demo.json")


def pool(work: Path, out: Path, name: str, system: str, seed: int, **kw: int) -> None:
    """A random pool (tests/pools.py) rated by the code of revision 0001."""
    db = work / f"{name}.db"
    migrate.upgrade(database_url(str(db)))
    players, games = random_pool(
        seed, players=24, months=8, first=dt.date(2025, 5, 1), unrated_share=0.4
    )
    app = App(str(db))
    with app.session() as session:
        service.create_settings(session, system_config(system, **kw))
        load_pool(session, players, games)
        service.rate(session)
    app.close()
    dump(db, out / f"{name}.json")


if __name__ == "__main__":
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    scratch = target / "scratch"
    scratch.mkdir(exist_ok=True)
    demo(scratch, target)
    pool(scratch, target, "elo", "elo", 3)
    pool(scratch, target, "club-2-months", "club", 4, period_months=2)
    pool(scratch, target, "fide-pool", "fide", 5)
