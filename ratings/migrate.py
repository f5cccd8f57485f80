"""Alembic, wrapped for the CLI and the tests: upgrade, downgrade, current, check, and the
schema check every command runs first (:func:`ensure_current`). Backups and restores are
:mod:`ratings.backups`.

The Alembic ``Config`` is built in code so that an installed wheel (which carries the
migrations as ``ratings/_migrations``) works as well as a checkout (top-level ``migrations/``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy import Connection
from sqlalchemy.engine import Engine

from ratings.db import make_engine
from ratings.dbfile import HEAD_REVISION as HEAD_REVISION
from ratings.errors import DatabaseError, SchemaOutOfDateError

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic is imported by the functions that migrate or list revisions, not here: every command
# checks the schema version (ensure_current), and importing Alembic took about half a second
# of a fresh command's start

_PACKAGE_DIR = Path(__file__).resolve().parent


def script_location() -> Path:
    """The migrations folder: inside the installed package, else the checkout's."""
    for candidate in (_PACKAGE_DIR / "_migrations", _PACKAGE_DIR.parent / "migrations"):
        if (candidate / "env.py").is_file():
            return candidate
    raise DatabaseError("the migrations are missing from this installation of ratings")


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic Config for our migrations, bound to ``connection`` when given."""
    from alembic.config import Config

    # Alembic's own messages ("No new upgrade operations detected.") stay out of our output
    cfg = Config(stdout=io.StringIO())
    cfg.set_main_option("script_location", str(script_location()))
    cfg.attributes["configure_logger"] = False
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest revision this version of ratings knows (:data:`HEAD_REVISION`)."""
    return HEAD_REVISION


def known_revisions() -> list[str]:
    """Every revision id, newest first, as Alembic reads them from the migrations."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in script.walk_revisions()]


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    with engine.connect() as conn:
        return current_revision_on(conn)


def current_revision_on(conn: Connection) -> str | None:
    """The revision the database behind ``conn`` is at, or None for an empty database (read
    from Alembic's ``alembic_version`` table, as Alembic reads it)."""
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    heads = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all()
    return str(heads[0]) if heads else None


def upgrade(url: str, rev: str = "head") -> None:
    """Upgrade the database at ``url`` to ``rev`` in one transaction."""
    _migrate(url, rev, up=True)


def downgrade(url: str, rev: str) -> None:
    """Downgrade the database at ``url`` to ``rev`` (``base`` empties it) in one transaction."""
    _migrate(url, rev, up=False)


def check_revision(rev: str) -> None:
    """Refuse a revision this version of ratings does not know."""
    if rev not in ("head", "base") and rev not in known_revisions():
        raise DatabaseError(f"unknown revision {rev!r}; known: {', '.join(known_revisions())}")


def run_migrations(conn: Connection, rev: str = "head", *, up: bool = True) -> None:
    """Migrate on ``conn``, inside the caller's transaction (which the caller commits).

    ``conn`` must come from an engine made with ``enforce_foreign_keys=False``
    (docs/DESIGN.md#foreign-keys-off-while-migrating) and be in a transaction begun with
    ``engine.begin()`` (docs/DESIGN.md#alembic-inside-the-callers-transaction).
    """
    from alembic import command
    from alembic.util import CommandError

    check_revision(rev)
    cfg = alembic_config(conn)
    try:
        if up:
            command.upgrade(cfg, rev)
        else:
            command.downgrade(cfg, rev)
    except CommandError as exc:
        raise DatabaseError(str(exc).lower()) from exc
    # PostgreSQL: the role `ratings sql` runs as, granted the tables and views as they now
    # are (a recreated view loses its grants); a no-op on SQLite. Loaded here: the schema
    # check every command runs needs neither the roles nor the views' SQL.
    from ratings import privileges

    privileges.refresh_reader_role(conn)


def _migrate(url: str, rev: str, *, up: bool) -> None:
    check_revision(rev)
    engine = make_engine(url, enforce_foreign_keys=False)
    try:
        # engine.begin(): Alembic then runs inside our transaction and we commit it
        # (a plain connect() would lose the migration,
        # docs/DESIGN.md#alembic-inside-the-callers-transaction)
        with engine.begin() as conn:
            run_migrations(conn, rev, up=up)
    finally:
        engine.dispose()


def check(url: str) -> None:
    """Raise DatabaseError if the models and the database's schema differ (``alembic check``)."""
    from alembic import command
    from alembic.util import AutogenerateDiffsDetected

    engine = make_engine(url, enforce_foreign_keys=False, create=False)
    try:
        with engine.connect() as conn:
            try:
                command.check(alembic_config(conn))
            except AutogenerateDiffsDetected as exc:
                raise DatabaseError(f"schema drift: {exc}") from exc
    finally:
        engine.dispose()


def ensure_current(engine: Engine) -> None:
    """Refuse to work on a database whose schema is not the one this code expects."""
    current = current_revision(engine)
    head = head_revision()
    if current is None:
        raise SchemaOutOfDateError(
            "this database has no ratings schema; create one with 'ratings init'"
        )
    if current == head:
        return
    if current in known_revisions():
        raise SchemaOutOfDateError(
            f"database schema is at {current} but this version of ratings expects {head}; "
            "run 'ratings db upgrade'"
        )
    raise SchemaOutOfDateError(
        f"database schema is at {current}, which this version of ratings does not know; "
        "upgrade ratings"
    )
