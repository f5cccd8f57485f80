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
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import IO, TYPE_CHECKING, Any

import click

from ratings import __version__
from ratings.errors import InputFileErrors, RatingsError

if TYPE_CHECKING:
    # imported where a command needs them, so that `ratings --help` and `--version` start
    # without SQLAlchemy (bench/startup.py)
    from sqlalchemy.engine import Engine
    from sqlalchemy.orm import Session


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
        except RatingsError as exc:
            raise CommandError(str(exc)) from exc
        except UnicodeEncodeError as exc:
            # undecodable bytes in an argument: the shell hands them over as surrogates
            raise CommandError(f"not valid UTF-8 text: {exc.object!r}") from exc
        except Exception as exc:
            # the rules' errors (ValueError subclasses): ratings.rules is loaded by then, as
            # SQLAlchemy below, and --help and --version never load it (the engine waits)
            rules_base = sys.modules.get("ratings.rules.base")
            if rules_base is not None and isinstance(exc, rules_base.RulesError):
                raise CommandError(str(exc)) from exc
            # e.g. "database is locked" after the busy timeout, or a server that went away;
            # SQLAlchemy is loaded by then (a command that never opened a database raises none)
            sa_exc = sys.modules.get("sqlalchemy.exc")
            if sa_exc is not None and isinstance(exc, sa_exc.OperationalError):
                # one line: a driver's message may run over several (psycopg's, tab-indented)
                message = " ".join(str(exc.orig).split())
                raise CommandError(f"database error: {message}") from exc
            raise


class App:
    """What every command needs: the database location, an engine made lazily, sessions."""

    def __init__(self, db: str) -> None:
        self.db = db
        self._url: str | None = None
        self._engine: Engine | None = None
        self._tidied = False

    @property
    def url(self) -> str:
        """The database's SQLAlchemy URL (worked out on first use: a command that opens no
        database, ``calc``, never loads SQLAlchemy)."""
        if self._url is None:
            from ratings.db import database_url

            self._url = database_url(self.db)
        return self._url

    @property
    def path(self) -> str:
        """The SQLite file, or the URL for other backends (for messages)."""
        from ratings.db import sqlite_path

        path = sqlite_path(self.url)
        return str(path) if path is not None else self.url

    def engine(self) -> Engine:
        """The engine for ordinary commands; refuses a missing SQLite file."""
        if self._engine is None:
            from ratings.db import make_engine

            self.tidy()
            self._engine = make_engine(self.url, create=False)
        return self._engine

    def tidy(self) -> None:
        """Once per command, before the database is opened: clear what a killed ``db
        restore`` left beside the file, saying so on stderr (docs/RELIABILITY.md)."""
        if self._tidied:
            return
        self._tidied = True
        from ratings.db import sqlite_path
        from ratings.files import interrupted_restore_left

        path = sqlite_path(self.url)
        if path is not None and interrupted_restore_left(path):  # a directory listing
            from ratings.backups import tidy_interrupted_restore

            for note in tidy_interrupted_restore(path):
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
        from ratings import migrate
        from ratings.db import BEGIN_OPTION, SessionFactory

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


class LazyRoot(RatingsGroup):
    """The top-level group: each command's module is imported when the command is looked up,
    so ``ratings --help`` (which shows the summaries of :data:`COMMANDS`) and ``--version``
    import no command, and a command imports what it uses."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if any(name.endswith("_COMPLETE") for name in os.environ):
            # shell completion picks its bash and fish classes before any command is loaded
            from ratings.cli import complete

            complete.install(self)
        return super().main(*args, **kwargs)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS and cmd_name not in _LOADED:
            _load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own layout (Group.format_commands), from the summaries in COMMANDS
        limit = formatter.width - 6 - max(map(len, COMMANDS))
        rows = [
            (name, click.Command(name, help=summary).get_short_help_str(limit))
            for name, (_modules, summary) in sorted(COMMANDS.items())
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyRoot, context_settings={"help_option_names": ["-h", "--help"]})
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


COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    # name: (the modules under ratings.cli that make it, in order; its summary in --help)
    "calc": (
        ("calc",),
        "Rating calculators: FIDE table 8.1.2 and the Elo curve side by side (no database).",
    ),
    "card": (
        ("lists",),
        "Show the per-game calculation of a player's period (like FIDE's calculation page).",
    ),
    "check": (
        ("check",),
        (
            "Check the published lists against a rebuild from the stored inputs (default: the "
            "newest rated period; --all: every period)."
        ),
    ),
    "db": (
        ("admin",),
        "Schema migrations, backups and restores.",
    ),
    "demo": (
        ("demo",),
        (
            "Build a demonstration club database (40 players, a year of events), rate it and "
            "print the final list."
        ),
    ),
    "event": (
        ("records", "imports", "events"),
        "List, show, edit and void events (tournaments, matches).",
    ),
    "export": (
        ("tournaments",),
        "Write stored data as files other programs read.",
    ),
    "game": (
        ("records", "imports", "events"),
        "Record, correct and void single games.",
    ),
    "history": (
        ("lists",),
        "Show a player's rating on every rated period's list (standard, rapid or blitz).",
    ),
    "import": (
        ("imports", "tournaments", "fide_list", "records", "events", "undo"),
        "Bulk input from CSV, TRF and PGN files (a whole file goes in, or nothing).",
    ),
    "init": (
        ("admin",),
        "Create a new database at the newest schema.",
    ),
    "list": (
        ("rating_list",),
        "Show the rating list (standard, rapid or blitz) published by a period.",
    ),
    "log": (
        ("log",),
        (
            "Show the corrections log, oldest first: when (UTC), which correction, what, the old "
            "and the new value, and the reason given."
        ),
    ),
    "norms": (
        ("norms",),
        (
            "Check the title norms of an event's players: each GM, IM (WGM, WIM) norm reached "
            "or missed, and why."
        ),
    ),
    "performance": (
        ("lists",),
        (
            "Show a player's performance rating over a period's games on one list, or over an "
            "event's rated games (on the event's list)."
        ),
    ),
    "player": (
        ("records",),
        "Register, edit, list and merge players.",
    ),
    "plot": (
        ("publish",),
        (
            "Draw the rating history of one or more players on one chart (PNG or SVG), on the "
            "list --list (standard, rapid or blitz)."
        ),
    ),
    "preview": (
        ("lists",),
        "Show the list the next period would publish; nothing is written.",
    ),
    "publish": (
        ("publish",),
        (
            "Write the rating lists, a page per player and per event, and CSV/TXT downloads as a "
            "static website in DIR (only the pages that changed are rewritten)."
        ),
    ),
    "rate": (
        ("lists",),
        "Rate every period not yet rated (re-rating from the first corrected one), in order.",
    ),
    "settings": (
        ("settings",),
        "Show the rating system's settings, or change one (KEY VALUE).",
    ),
    "sql": (
        ("sql",),
        "Run one read-only SQL statement (SELECT, PRAGMA table_info ...) and print the rows.",
    ),
    "reconcile": (
        ("reconcile",),
        "Compare FIDE's rating list with ours, explaining each difference.",
    ),
    "titles": (
        ("norms",),
        (
            "Show titles reached by rating and the state of title applications (FIDE Title "
            "Regulations 1.3, 1.5)."
        ),
    ),
    "unrate": (
        ("undo",),
        "Withdraw rated periods from YYYY-MM on, newest first (asks first).",
    ),
    "verify": (
        ("verify",),
        "Check a website, a list file or a database against the chain of seals.",
    ),
    "whatif": (
        ("whatif",),
        "Show who would move, and by how much, if a rule, a setting or an event were different.",
    ),
}
"""Every top-level command: the modules that define it (and those that add subcommands to its
group), and the summary ``ratings --help`` shows. ``tests/test_startup.py`` checks both
against the commands themselves."""


def _load(name: str) -> None:
    """Import the modules of command ``name`` and add their commands to :data:`cli`."""
    import importlib

    for module_name in COMMANDS[name][0]:
        module = importlib.import_module(f"ratings.cli.{module_name}")
        register: Callable[[click.Group], None] = module.register
        register(cli)
    from ratings.cli import complete  # names from the database for PLAYER and EVENT

    complete.install(cli)
    _LOADED.add(name)


_LOADED: set[str] = set()
"""The commands :func:`_load` has loaded whole (a module of one may have added another's group
half made: ``events`` needs the ``import`` group, not the commands that join it elsewhere)."""


def load_all() -> None:
    """Every command of :data:`COMMANDS` in :data:`cli` (for the tests and the docs checks)."""
    for name in COMMANDS:
        if name not in _LOADED:
            _load(name)
