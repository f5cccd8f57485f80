"""``ratings init`` and ``ratings db ...``: creating, migrating and backing up the database."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ratings import backups, files, migrate, service
from ratings.cli import App, pass_app
from ratings.cli.options import YES, ask
from ratings.cli.types import ASCII_INT
from ratings.db import (
    SessionFactory,
    check_regular_file,
    database_url,
    make_engine,
    sqlite_path,
    url_for_messages,
)
from ratings.errors import DatabaseError
from ratings.rules import SystemConfig, system_config


@click.command("init")
@click.option(
    "--system",
    type=click.Choice(["fide", "club", "elo"]),
    default="fide",
    show_default=True,
    help="fide: FIDE Rating Regulations; club: FIDE rules with a start rating; elo: classic.",
)
@click.option("--k", "k", type=ASCII_INT, help="A fixed K factor for everyone (club, elo).")
@click.option("--start-rating", type=ASCII_INT, help="Rating of newcomers (club: 1200, elo: 1500).")
@click.option(
    "--expected",
    type=click.Choice(["table", "curve"]),
    help="Expected scores from FIDE table 8.1.2 or the logistic curve.",
)
@click.option(
    "--period-months",
    type=click.Choice(["1", "2", "3", "4", "6", "12"]),
    help="Length of a rating period in months (default 1).",
)
@click.option(
    "--closing-days",
    type=ASCII_INT,
    help="A list closes this many days before its date; a later result goes to the next "
    "list (art. 7.1.3; fide: 3, club and elo: 0, by end date).",
)
@pass_app
def init(
    app: App,
    system: str,
    k: int | None,
    start_rating: int | None,
    expected: str | None,
    period_months: str | None,
    closing_days: int | None,
) -> None:
    """Create a new database at the newest schema."""
    config = system_config(
        system,
        k=k,
        start_rating=start_rating,
        expected=expected,
        period_months=int(period_months) if period_months else None,
        closing_days=closing_days,
    )
    path = sqlite_path(app.url)
    if path is None:
        _create(app.url, config)
    else:
        if check_regular_file(path):
            raise DatabaseError(f"'{path}' already exists; refusing to overwrite it")
        files.check_destination(path, database=None, force=False, sqlite=True)
        # built in a temporary file and renamed into place: a kill leaves no database, or a
        # whole one, never a schema without its settings row
        try:
            with files.temporary_file(path, create=True) as tmp:
                _create(database_url(str(tmp)), config)
                files.publish(tmp, path, force=False)
        except OSError as exc:
            raise DatabaseError(f"cannot create '{path}': {exc.strerror or exc}") from exc
    click.echo(
        f"Created {app.path} ({config.system.value} system, "
        f"{config.period_months}-month periods, schema {migrate.head_revision()})"
    )


def _create(url: str, config: SystemConfig) -> None:
    """The schema and the settings row, in one transaction."""
    engine = make_engine(url, enforce_foreign_keys=False)
    try:
        with engine.begin() as conn:
            if sqlite_path(url) is None and migrate.current_revision_on(conn) is not None:
                raise DatabaseError(f"{url_for_messages(url)} already holds a ratings database")
            migrate.run_migrations(conn)
            with SessionFactory(bind=conn) as session:
                service.create_settings(session, config)
                session.flush()
    finally:
        engine.dispose()


@click.group("db")
def db() -> None:
    """Schema migrations, backups and restores."""


def _revision_label(rev: str | None) -> str:
    return rev if rev is not None else "(empty)"


@db.command("upgrade")
@click.argument("revision", default="head")
@click.option("--no-backup", is_flag=True, help="Do not copy the database file first.")
@pass_app
def db_upgrade(app: App, revision: str, no_backup: bool) -> None:
    """Upgrade the schema to REVISION (default: the newest), after a backup."""
    migrate.check_revision(revision)
    engine = app.engine()
    before = migrate.current_revision(engine)
    if before is not None and before not in migrate.known_revisions():
        # refused before anything is written: no backup, no migration
        raise DatabaseError(
            f"database schema is at {before}, which this version of ratings does not know; "
            "upgrade ratings"
        )
    target = migrate.head_revision() if revision == "head" else revision
    path = sqlite_path(app.url)
    if path is not None and not no_backup and before is not None and before != target:
        dest = path.with_name(f"{path.name}.bak-{before}")
        n = 1
        while os.path.lexists(dest):  # never overwrite an earlier backup
            n += 1
            dest = path.with_name(f"{path.name}.bak-{before}-{n}")
        backups.backup(path, dest)
    else:
        dest = None
    migrate.upgrade(app.url, revision)
    if dest is not None:  # printed once the work is done (a closed pipe cannot stop it)
        click.echo(f"Backed up to {dest}", err=True)
    after = migrate.current_revision(engine)
    if after == before:
        click.echo(f"Already at {_revision_label(after)}")
    else:
        click.echo(f"Upgraded {_revision_label(before)} -> {_revision_label(after)}")


@db.command("downgrade")
@click.argument("revision")
@YES
@pass_app
def db_downgrade(app: App, revision: str, yes: bool) -> None:
    """Downgrade the schema to REVISION ('base' removes every table)."""
    engine = app.engine()
    if revision not in ("base", *migrate.known_revisions()):
        raise DatabaseError(
            f"unknown revision {revision!r}; known: base, {', '.join(migrate.known_revisions())}"
        )
    before = migrate.current_revision(engine)
    if not yes:
        ask(f"Downgrade {app.path} to {revision}? Data may be lost")
    migrate.downgrade(app.url, revision)
    after = migrate.current_revision(engine)
    click.echo(f"Downgraded {_revision_label(before)} -> {_revision_label(after)}")


@db.command("current")
@pass_app
def db_current(app: App) -> None:
    """Show the schema revision of the database and the newest one known."""
    current = migrate.current_revision(app.engine())
    head = migrate.head_revision()
    state = "up to date" if current == head else "run 'ratings db upgrade'"
    click.echo(f"{_revision_label(current)} (newest: {head}; {state})")


@db.command("check")
@pass_app
def db_check(app: App) -> None:
    """Check that the database schema matches this version's models exactly."""
    migrate.ensure_current(app.engine())
    migrate.check(app.url)
    click.echo("Schema matches the models")


@db.command("backup")
@click.argument("dest", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace an existing DEST (never the database).")
@pass_app
def db_backup(app: App, dest: Path, force: bool) -> None:
    """Copy the database to DEST while it may be in use, then check the copy.

    The copy is compared with the database (the same tables and row counts) and must pass
    SQLite's integrity check before it gets the name DEST.
    """
    path = sqlite_path(app.url)
    if path is None:
        raise DatabaseError("db backup works on SQLite files; use pg_dump for PostgreSQL")
    files.check_destination(dest, database=path, force=force, sqlite=True)
    migrate.ensure_current(app.engine())
    report = backups.backup(path, dest, force=force)
    click.echo(
        f"Backed up {path} to {dest} ({report.tables} tables, {report.rows} rows, same as the "
        "database; integrity check ok)"
    )


@db.command("restore")
@click.argument("source", type=click.Path(path_type=Path, dir_okay=False))
@YES
@pass_app
def db_restore(app: App, source: Path, yes: bool) -> None:
    """Replace the database with the backup SOURCE, keeping the old one as *.before-restore.

    SOURCE is checked first (integrity, a schema revision this version knows, the ratings
    tables and settings); nothing is replaced if it fails. An existing *.before-restore is
    never overwritten. A restore that was killed can be run again: what it left is cleared
    first.
    """
    path = sqlite_path(app.url)
    if path is None:
        raise DatabaseError("db restore works on SQLite files; use pg_restore for PostgreSQL")
    revision = backups.inspect_backup(source)
    notes: list[str] = []
    if path.parent.is_dir() and check_regular_file(path):
        notes = backups.recover_interrupted_restore(path)
    try:
        report = _restore(path, source, revision, yes=yes)
    finally:  # what an earlier, killed restore left is reported whatever this one does
        for note in notes:
            click.echo(note, err=True)
    click.echo(f"Restored {path} from {source} (schema {report.revision}, {report.rows} rows)")
    if report.kept is not None:
        click.echo(f"The replaced database is kept as {report.kept}", err=True)
    if report.revision != migrate.head_revision():
        click.echo(
            f"Schema {report.revision} is older than {migrate.head_revision()}; "
            "run 'ratings db upgrade'",
            err=True,
        )


def _restore(path: Path, source: Path, revision: str, *, yes: bool) -> backups.RestoreReport:
    """Refuse over an earlier restore's kept copy, ask, then restore."""
    kept = backups.before_restore_path(path)
    # checked before asking, so that nobody confirms a restore that cannot happen; --yes
    # does not override it: that file may be the only copy of what a restore replaced
    if os.path.lexists(kept):
        raise DatabaseError(
            f"'{kept}' exists (the database an earlier restore replaced); move it away first"
        )
    if not yes and path.exists():
        ask(
            f"Replace {path} with {source} (schema {revision})? "
            f"The current database is kept as {kept}"
        )
    return backups.restore(path, source)


def register(group: click.Group) -> None:
    """Add these commands to the top-level group."""
    group.add_command(init)
    group.add_command(db)
