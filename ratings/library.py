"""Entry points for using ratings as a library: create a database, open a unit of work on one.

What the CLI's ``init`` and its per-command session do, without click. The use cases
themselves are the service functions, which ``ratings`` re-exports (README, "Use from
Python")::

    import ratings

    ratings.create_database("club.db")
    with ratings.open_session("club.db") as session:
        ratings.add_player(session, "Smith, Ann", rating=1850)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session

from ratings import migrate
from ratings.db import SessionFactory, check_regular_file, database_url, make_engine, sqlite_path
from ratings.errors import DatabaseError
from ratings.rules import SystemConfig, system_config
from ratings.service.shared.config import create_settings

__all__ = ["create_database", "open_session"]


def create_database(db: str, config: SystemConfig | None = None) -> None:
    """Create a ratings database at the newest schema, with its rating system (``ratings
    init``): the schema and the settings row in one transaction.

    :param db: a SQLite file path (taken literally; it must not exist) or a database URL.
    :param config: the rating system (:func:`ratings.rules.system_config`); default fide.
    :raises DatabaseError: the file exists, or the database already holds a ratings schema.
    """
    url = database_url(db)
    path = sqlite_path(url)
    if path is not None and check_regular_file(path):
        raise DatabaseError(f"'{path}' already exists; refusing to overwrite it")
    engine = make_engine(url, enforce_foreign_keys=False)
    try:
        with engine.begin() as conn:
            if migrate.current_revision_on(conn) is not None:
                raise DatabaseError(f"{db} already holds a ratings database")
            migrate.run_migrations(conn)
            with SessionFactory(bind=conn) as session:
                create_settings(session, config or system_config("fide"))
                session.flush()
    finally:
        engine.dispose()


@contextmanager
def open_session(db: str) -> Iterator[Session]:
    """One unit of work on an existing database, as every CLI command has: the schema is
    checked first; the work is committed when the block ends and rolled back if it raises.
    Service functions never commit (docs/DESIGN.md#transactions): this block does.

    :param db: a SQLite file path or a database URL.
    :raises SchemaOutOfDateError: the database is not at this version's schema.
    """
    engine = make_engine(database_url(db), create=False)
    try:
        migrate.ensure_current(engine)
        with SessionFactory(bind=engine) as session, session.begin():
            yield session
    finally:
        engine.dispose()
