"""``ratings demo``: a demonstration club database, built, rated and listed."""

from __future__ import annotations

from pathlib import Path

import click

from ratings import files, migrate
from ratings.db import (
    SessionFactory,
    check_regular_file,
    database_url,
    has_import,
    make_engine,
    sqlite_path,
)
from ratings.errors import DatabaseError
from ratings.service.reading.demo import PLAYERS, build_demo

DEFAULT = "ratings-demo.db"


@click.command("demo")
@click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where to build it (default: the global --db if given, else ratings-demo.db); "
    "a previous demo database there is replaced.",
)
@click.pass_context
def demo(ctx: click.Context, db_path: Path | None) -> None:
    """Build a demonstration club database (40 players, a year of events), rate it and
    print the final list."""
    if db_path is None:
        db_path = Path(DEFAULT)
        parent = ctx.parent
        if parent is not None and parent.get_parameter_source("db") in (
            click.core.ParameterSource.COMMANDLINE,
            click.core.ParameterSource.ENVIRONMENT,
        ):
            path = sqlite_path(database_url(parent.params["db"]))
            if path is None:
                raise DatabaseError("the demo builds a SQLite file; give --db PATH")
            db_path = path
    replace = check_regular_file(db_path)
    if replace and not has_import(db_path, PLAYERS):
        raise DatabaseError(f"'{db_path}' exists and is not a demo database; choose --db")
    files.check_destination(db_path, database=None, force=replace, sqlite=True)
    # built in a temporary file and renamed into place (over an earlier demo database)
    try:
        with files.temporary_file(db_path, create=True) as tmp:
            url = database_url(str(tmp))
            migrate.upgrade(url)
            engine = make_engine(url)
            try:
                with SessionFactory(bind=engine) as session, session.begin():
                    built = build_demo(session)
            finally:
                engine.dispose()
            files.publish(tmp, db_path, force=replace)
    except OSError as exc:
        raise DatabaseError(f"cannot create '{db_path}': {exc.strerror or exc}") from exc
    final, rated, report = built.final, built.rated, built.games
    click.echo(
        f"Built {db_path}: {len(final.rows)} rated players, {report.games} games in "
        f"{report.events_created} events, {len(rated.rated)} periods rated "
        f"({rated.rated[0]} .. {rated.rated[-1]})",
        err=True,
    )
    click.echo(f"Rating list {final.period} (list dated {final.list_date})")
    click.echo(f"{'#':>4}  {'name':<30} {'rating':>6} {'total games':>11} {'next K':>6}")
    for i, row in enumerate(final.rows, 1):
        rating, total, next_k = row.rating or "", row.total_games, row.next_k or ""
        click.echo(f"{i:>4}  {row.name:<30} {rating:>6} {total:>11} {next_k:>6}")
    click.echo(f'Explore it: ratings --db {db_path} history "{final.rows[0].name}"', err=True)


def register(group: click.Group) -> None:
    """Add this command to the top-level group."""
    group.add_command(demo)
