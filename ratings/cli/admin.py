"""``ratings init`` and ``ratings db ...``: creating, migrating and backing up the database."""

from __future__ import annotations

from pathlib import Path

import click

from ratings import migrate, service
from ratings.cli import App, pass_app
from ratings.db import SessionFactory, make_engine, sqlite_path
from ratings.errors import DatabaseError
from ratings.rules import system_config


@click.command("init")
@click.option(
    "--system",
    type=click.Choice(["fide", "club", "elo"]),
    default="fide",
    show_default=True,
    help="fide: FIDE Rating Regulations; club: FIDE rules with a start rating; elo: classic.",
)
@click.option("--k", "k", type=int, help="A fixed K factor for everyone (club, elo).")
@click.option("--start-rating", type=int, help="Rating of newcomers (club: 1200, elo: 1500).")
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
@pass_app
def init(
    app: App,
    system: str,
    k: int | None,
    start_rating: int | None,
    expected: str | None,
    period_months: str | None,
) -> None:
    """Create a new database at the newest schema."""
    config = system_config(
        system,
        k=k,
        start_rating=start_rating,
        expected=expected,
        period_months=int(period_months) if period_months else None,
    )
    path = sqlite_path(app.url)
    if path is not None and path.exists():
        raise DatabaseError(f"'{path}' already exists; refusing to overwrite it")
    engine = make_engine(app.url)
    try:
        if path is None and migrate.current_revision(engine) is not None:
            raise DatabaseError(f"{app.path} already holds a ratings database")
        try:
            migrate.upgrade(app.url)
            with SessionFactory(bind=engine) as session, session.begin():
                service.create_settings(session, config)
        except BaseException:
            engine.dispose()
            if path is not None:
                path.unlink(missing_ok=True)
            raise
    finally:
        engine.dispose()
    click.echo(
        f"Created {app.path} ({config.system.value} system, "
        f"{config.period_months}-month periods, schema {migrate.head_revision()})"
    )


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
    engine = app.engine()
    before = migrate.current_revision(engine)
    path = sqlite_path(app.url)
    if path is not None and not no_backup and before is not None:
        dest = path.with_name(f"{path.name}.bak-{before}")
        n = 1
        while dest.exists():  # never overwrite an earlier backup
            n += 1
            dest = path.with_name(f"{path.name}.bak-{before}-{n}")
        migrate.backup(path, dest)
        click.echo(f"Backed up to {dest}", err=True)
    migrate.upgrade(app.url, revision)
    after = migrate.current_revision(engine)
    if after == before:
        click.echo(f"Already at {_revision_label(after)}")
    else:
        click.echo(f"Upgraded {_revision_label(before)} -> {_revision_label(after)}")


@db.command("downgrade")
@click.argument("revision")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
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
        click.confirm(f"Downgrade {app.path} to {revision}? Data may be lost", abort=True)
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
@click.argument("dest", type=click.Path(path_type=Path, dir_okay=False))
@pass_app
def db_backup(app: App, dest: Path) -> None:
    """Copy the database to DEST while it may be in use, then check the copy."""
    path = sqlite_path(app.url)
    if path is None:
        raise DatabaseError("db backup works on SQLite files; use pg_dump for PostgreSQL")
    if dest.exists():
        raise DatabaseError(f"'{dest}' already exists; refusing to overwrite it")
    migrate.ensure_current(app.engine())
    migrate.backup(path, dest)
    click.echo(f"Backed up {path} to {dest} (integrity check ok)")


@db.command("restore")
@click.argument("source", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@pass_app
def db_restore(app: App, source: Path, yes: bool) -> None:
    """Replace the database with the backup SOURCE, keeping the old one as *.before-restore.

    SOURCE is checked first (integrity, a schema revision this version knows, the ratings
    tables and settings); nothing is replaced if it fails. An existing *.before-restore is
    never overwritten.
    """
    path = sqlite_path(app.url)
    if path is None:
        raise DatabaseError("db restore works on SQLite files; use pg_restore for PostgreSQL")
    revision = migrate.inspect_backup(source)
    kept = migrate.before_restore_path(path)
    # checked before asking, so that nobody confirms a restore that cannot happen; --yes
    # does not override it: that file may be the only copy of what a restore replaced
    if kept.exists():
        raise DatabaseError(
            f"'{kept}' exists (the database an earlier restore replaced); move it away first"
        )
    if not yes and path.exists():
        click.confirm(
            f"Replace {path} with {source} (schema {revision})? "
            f"The current database is kept as {kept}",
            abort=True,
        )
    report = migrate.restore(path, source)
    click.echo(f"Restored {path} from {source} (schema {report.revision}, {report.rows} rows)")
    if report.kept is not None:
        click.echo(f"The replaced database is kept as {report.kept}", err=True)
    if report.revision != migrate.head_revision():
        click.echo(
            f"Schema {report.revision} is older than {migrate.head_revision()}; "
            "run 'ratings db upgrade'",
            err=True,
        )


def register(group: click.Group) -> None:
    """Add these commands to the top-level group."""
    group.add_command(init)
    group.add_command(db)
