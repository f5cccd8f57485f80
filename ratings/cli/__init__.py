"""The admin CLI: ``ratings [--db PATH_OR_URL] COMMAND``.

Commands are thin: parse arguments, open one unit of work, call the service, print. Domain
errors (``RatingsError`` and the rules' ``ValueError`` subclasses) become ``Error: ...`` with
exit code 1; click's usage errors exit with 2.
"""

from __future__ import annotations

import errno
import os
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any

import click
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ratings import __version__, migrate
from ratings.db import BEGIN_OPTION, SessionFactory, database_url, make_engine, sqlite_path
from ratings.errors import InputFileErrors, RatingsError
from ratings.rules import RulesError


class CommandError(click.ClickException):
    """A user-fixable error; a multi-line message is shown as one ``Error:`` line each."""

    def show(self, file: IO[Any] | None = None) -> None:
        for line in self.format_message().splitlines() or [""]:
            click.echo(f"Error: {line}", err=True, file=file)


class OutputClosedError(CommandError):
    """The output was closed while a unit of work was open, so it was rolled back."""

    def __init__(self) -> None:
        super().__init__("the output was closed before the work was saved; nothing was changed")


def is_broken_pipe(exc: BaseException) -> bool:
    """Whether ``exc`` is a write to a pipe whose reader has gone (``cmd | head``)."""
    return isinstance(exc, OSError) and exc.errno == errno.EPIPE


def stdout_is_closed() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone (poll reports an
    error on it), as opposed to a closed pipe elsewhere (a file written to a FIFO)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file: trust the errno
        return True
    if not hasattr(select, "poll"):  # Windows: trust the errno
        return True
    poller = select.poll()
    poller.register(fd, 0)  # errors and hang-ups are always reported
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))


def silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's final flush of
    what a closed pipe refused does not print "Exception ignored ... BrokenPipeError"."""
    with suppress(OSError, ValueError):  # stderr may be the same closed pipe (cmd 2>&1 | head)
        sys.stderr.flush()
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (CliRunner's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


class RatingsGroup(click.Group):
    """A click group that turns domain errors into ``Error: ...`` and exit code 1.

    A closed pipe on the output is not an error: every command prints only after its work
    is committed, so a reader that stops early (``ratings rate | head -1``) gets exit 0.
    (click alone exits 1.) Inside a unit of work it is an error: see :meth:`App.session`.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return self._invoke(ctx)
        except OutputClosedError:
            silence_stdout()
            raise
        except OSError as exc:
            if not (is_broken_pipe(exc) and stdout_is_closed()):
                raise
            silence_stdout()
            raise click.exceptions.Exit(0) from None

    def _invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputFileErrors as exc:
            raise CommandError(str(exc)) from exc
        except (RatingsError, RulesError) as exc:
            raise CommandError(str(exc)) from exc
        except UnicodeEncodeError as exc:
            # undecodable bytes in an argument: the shell hands them over as surrogates
            raise CommandError(f"not valid UTF-8 text: {exc.object!r}") from exc
        except sa_exc.OperationalError as exc:
            # e.g. "database is locked" after the busy timeout, or a server that went away
            raise CommandError(f"database error: {exc.orig}") from exc


class App:
    """What every command needs: the database location, an engine made lazily, sessions."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.url = database_url(db)
        self._engine: Engine | None = None
        self._tidied = False

    @property
    def path(self) -> str:
        """The SQLite file, or the URL for other backends (for messages)."""
        path = sqlite_path(self.url)
        return str(path) if path is not None else self.url

    def engine(self) -> Engine:
        """The engine for ordinary commands; refuses a missing SQLite file."""
        if self._engine is None:
            self.tidy()
            self._engine = make_engine(self.url, create=False)
        return self._engine

    def tidy(self) -> None:
        """Once per command, before the database is opened: clear what a killed ``db
        restore`` left beside the file, saying so on stderr (docs/RELIABILITY.md)."""
        if self._tidied:
            return
        self._tidied = True
        path = sqlite_path(self.url)
        if path is not None:
            for note in migrate.tidy_interrupted_restore(path):
                click.echo(note, err=True)

    @contextmanager
    def session(self, *, commit: bool = True, bulk: bool = False) -> Iterator[Session]:
        """One unit of work: schema checked, committed on success (``commit=False``: always
        rolled back, for previews), rolled back on error.

        ``bulk``: a command that may write more than SQLite's page cache holds (rate,
        imports, undo). Its transaction takes the whole lock at the start (BEGIN EXCLUSIVE),
        so that it waits for readers once, at most the busy timeout, and not again at every
        cache spill (docs/RELIABILITY.md); readers wait for it in turn.

        Commands print their report after this block, never inside it: until the COMMIT has
        succeeded (it can still fail, e.g. "database is locked" while a reader holds the
        file), nothing is saved, and a closed pipe raised in here rolls the work back.
        """
        engine = self.engine()
        migrate.ensure_current(engine)
        bind = engine.execution_options(**{BEGIN_OPTION: "exclusive"}) if bulk else engine
        session = SessionFactory(bind=bind)
        try:
            session.begin()
            yield session
            if commit:
                session.commit()
            else:
                session.rollback()
        except BaseException as exc:
            session.rollback()
            if is_broken_pipe(exc):
                # not the success exit a closed pipe after the commit gets: nothing was kept
                raise OutputClosedError() from exc
            raise
        finally:
            session.close()

    def close(self) -> None:
        """Release the engine's connections."""
        if self._engine is not None:
            self._engine.dispose()


pass_app = click.make_pass_decorator(App)


@click.group(cls=RatingsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="RATINGS_DB",
    default="ratings.db",
    show_default=True,
    show_envvar=True,
    help="SQLite file path or SQLAlchemy URL (postgresql+psycopg://...).",
)
@click.version_option(__version__, prog_name="ratings")
@click.pass_context
def cli(ctx: click.Context, db: str) -> None:
    """A chess rating database: players, games, rating periods under the FIDE rules."""
    ctx.obj = App(db)
    ctx.call_on_close(ctx.obj.close)


def _register() -> None:
    # imported here so that each module can use `cli`, `pass_app`, `App` from this one
    from ratings.cli import admin, calc, demo, imports, lists, records, sql

    cli.add_command(calc.calc)
    for module in (admin, records, imports, lists, demo, sql):
        module.register(cli)
    from ratings.cli import fide_list, tournaments  # their commands join the `import` group

    tournaments.register(cli)
    fide_list.register(cli)
    from ratings.cli import publish  # `publish` and `plot`

    publish.register(cli)
    from ratings.cli import events  # `event`; `game list` and `import list` join their groups

    events.register(cli)
    from ratings.cli import log, undo  # `unrate`, `log`; `import undo` joins `import`

    undo.register(cli)
    log.register(cli)
    from ratings.cli import complete  # names from the database for PLAYER and EVENT

    complete.install(cli)


_register()
