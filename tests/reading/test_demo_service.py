"""The demo use case called directly (:func:`ratings.service.reading.demo.build_demo`) and the
check that tells a demo database from another file (:func:`ratings.db.has_import`)."""

from __future__ import annotations

from pathlib import Path

from ratings.db import SessionFactory, database_url, has_import, make_engine
from ratings.service.reading.demo import GAMES, PLAYERS, build_demo


def test_build_demo_imports_rates_and_lists(db_path: Path) -> None:
    engine = make_engine(database_url(str(db_path)))
    try:
        with SessionFactory(bind=engine) as session, session.begin():
            built = build_demo(session)
    finally:
        engine.dispose()
    assert (built.players.file_name, built.games.file_name) == (PLAYERS, GAMES)
    assert (built.games.games, built.games.events_created) == (720, 15)
    assert built.rated.rated[0] == "2025-01"
    assert built.rated.rated[-1] == "2025-12"
    assert len(built.rated.rated) == 12
    assert built.final.period == "2025-12"
    assert len(built.final.rows) == 39
    assert has_import(db_path, PLAYERS)


def test_has_import_is_false_for_other_files(db_path: Path, tmp_path: Path) -> None:
    assert not has_import(db_path, PLAYERS)  # a database without that import
    other = tmp_path / "notes.txt"
    other.write_bytes(b"precious")
    assert not has_import(other, PLAYERS)
    assert not has_import(tmp_path / "missing.db", PLAYERS)
    assert not (tmp_path / "missing.db").exists()
