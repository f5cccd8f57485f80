"""``ratings publish DIR`` (the static website) and ``ratings plot`` (a rating chart file)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click
from sqlalchemy.orm import Session

from ratings import files, limits, migrate
from ratings.cli import App, pass_app
from ratings.cli.options import LIST, LISTS, on_list, reading, say_note
from ratings.cli.progress import Progress
from ratings.cli.types import AsciiIntRange
from ratings.db import SessionFactory, make_engine, sqlite_path
from ratings.errors import InvalidInputError, LimitError
from ratings.service.reading import publish as data

if TYPE_CHECKING:
    from ratings.site.build import PublishReport

# ratings.site (Jinja2, vl-convert) is imported by the two commands that use it: every other
# command starts without it (so that a fresh 'ratings history' answers in under 1 s)

DB_OPTION = click.option(
    "--db",
    metavar="PATH_OR_URL",
    help="The database, as the global --db (which it overrides when given here).",
)


def _app(app: App, db: str | None) -> App:
    if db is None:
        return app
    local = App(db)
    click.get_current_context().call_on_close(local.close)
    return local


@contextmanager
def read_only_session(app: App) -> Iterator[Session]:
    """One read-only unit of work on ``app``'s database (schema checked; rolled back)."""
    app.tidy()
    engine = make_engine(app.url, read_only=True, create=False)
    try:
        migrate.ensure_current(engine)
        with SessionFactory(bind=engine) as session, session.begin():
            yield session
            session.rollback()
    finally:
        engine.dispose()


def default_jobs() -> int:
    """Worker processes for a large publish: the machine's cores, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def run_publish(
    app: App,
    directory: Path,
    *,
    force: bool,
    title: str | None = None,
    jobs: int | None = None,
    time_control: str | None = None,
    show_birth_year: bool | None = None,
) -> PublishReport:
    """Publish ``app``'s database into ``directory`` as the command does: the site of the
    list ``time_control`` (standard, rapid or blitz; ``all``: every list published, the
    standard one in ``directory`` and the others in its subfolders ``rapid`` and ``blitz``,
    linked to each other) with the title ``title``; each of them
    None: the one the folder's site was published with, else ``Ratings`` and standard
    (:func:`ratings.site.settings.resolve`).

    A list with nothing to publish (no period rated, or none that published that list) is
    refused before the folder is opened: nothing is created or written.

    The database is read through a read-only connection (SQLite opened with ``mode=ro``, a
    read-only transaction on PostgreSQL), so publishing never writes it and never holds the
    write lock that ``ratings rate`` needs.
    """
    from ratings.site.build import site_periods, withdrawn_lists
    from ratings.site.settings import ALL_LISTS, resolve

    settings = resolve(
        directory, title=title, time_control=time_control, show_birth_year=show_birth_year
    )
    if settings.time_control == ALL_LISTS:
        with read_only_session(app) as session:
            site_periods(session, "standard")  # nothing to publish: write nothing
            lists = [tc for tc in LISTS if data.periods(session, tc)]
        if len(lists) > 1 or withdrawn_lists(directory, lists):
            return _publish_all(app, directory, force=force, title=settings.title, jobs=jobs,
                                lists=lists, show_birth_year=settings.show_birth_year)  # fmt: skip
        return _publish_one(
            app, directory, force=force, title=settings.title, jobs=jobs,
            time_control="standard", site_lists=lists,
            show_birth_year=settings.show_birth_year,
        )  # fmt: skip
    return _publish_one(
        app,
        directory,
        force=force,
        title=settings.title,
        jobs=jobs,
        time_control=settings.time_control,
        show_birth_year=settings.show_birth_year,
    )


class _Bar:
    """The progress bar of a publish, shown from its first page."""

    def __init__(self) -> None:
        self.bars: list[Progress] = []

    def advance(self, done: int, total: int) -> None:
        if not self.bars:
            self.bars.append(Progress(total, "Publishing").__enter__())
        self.bars[-1].advance(item=f"{done}/{total}")

    def next(self) -> None:
        """The next list's publish gets a bar of its own."""
        for bar in self.bars:
            bar.__exit__(None, None, None)
        self.bars.clear()


def _publish_all(
    app: App,
    directory: Path,
    *,
    force: bool,
    title: str,
    jobs: int | None,
    lists: list[str],
    show_birth_year: bool = False,
) -> PublishReport:
    """Publish every list in ``lists`` (standard first): the standard list's site in
    ``directory``, the others in its subfolders, put in place together (the pages of one
    link to the others', :func:`ratings.site.placing.commit`); the site of a list no longer
    published is taken away from its subfolder when the pages that linked to it are
    replaced (:func:`ratings.site.build.withdrawn_lists`)."""
    from ratings.site.build import publish_site, site_periods, withdraw_site, withdrawn_lists
    from ratings.site.output import SiteFolder
    from ratings.site.placing import commit

    database = sqlite_path(app.url)
    bar = _Bar()
    reports: list[PublishReport] = []
    try:
        with read_only_session(app) as session, contextlib.ExitStack() as stack:
            for tc in lists:
                site_periods(session, tc)
            top = SiteFolder(directory, force=force, database=database, hold=True)
            folders = [stack.enter_context(top)]
            for tc in lists[1:]:
                # inside the folder the standard site is written to: a new site is built
                # beside DIR whole, the other lists' with it
                sub = SiteFolder(
                    top.workdir / tc, force=force, database=database, shown=directory / tc,
                    hold=True,
                )  # fmt: skip
                folders.insert(-1, stack.enter_context(sub))
            by_list = dict(zip(lists, [folders[-1], *folders[:-1]], strict=True))
            gone = [
                stack.enter_context(
                    SiteFolder(
                        top.workdir / tc, force=force, database=database,
                        shown=directory / tc, hold=True,
                    )
                )
                for tc in withdrawn_lists(top.workdir, lists)
            ]  # fmt: skip
            for tc in lists:
                reports.append(
                    publish_site(
                        session, by_list[tc], site_title=title, progress=bar.advance,
                        jobs=default_jobs() if jobs is None else jobs, url=app.url,
                        time_control=tc, site_lists=lists, show_birth_year=show_birth_year,
                    )
                )  # fmt: skip
                bar.next()
            reports += [withdraw_site(folder) for folder in gone]
            commit([*folders[:-1], *gone, folders[-1]])
    finally:
        bar.next()
    return reports[0].joined(reports[1:])


def _publish_one(
    app: App,
    directory: Path,
    *,
    force: bool,
    title: str,
    jobs: int | None,
    time_control: str,
    site_lists: Sequence[str] = (),
    show_birth_year: bool = False,
) -> PublishReport:
    from ratings.site.build import publish_site, site_periods
    from ratings.site.output import SiteFolder

    database = sqlite_path(app.url)
    bar = _Bar()
    try:
        with read_only_session(app) as session:
            site_periods(session, time_control)  # nothing to publish: write nothing
            with SiteFolder(directory, force=force, database=database) as out:
                return publish_site(
                    session,
                    out,
                    site_title=title,
                    progress=bar.advance,
                    jobs=default_jobs() if jobs is None else jobs,
                    url=app.url,
                    time_control=time_control,
                    site_lists=site_lists,
                    show_birth_year=show_birth_year,
                )
    finally:
        bar.next()


@click.command("publish")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@click.option(
    "--title",
    metavar="TEXT",
    help="The site's name, shown on every page (e.g. the club's); default: the title the "
    "folder's site was published with, else 'Ratings'.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Publish into a folder that holds other files (they are kept, never deleted).",
)
@click.option(
    "--jobs",
    type=AsciiIntRange(1, 64),
    help="Worker processes for a large site (default: the machine's cores, at most 4).",
)
@click.option(
    "--list",
    "list_type",
    type=click.Choice((*LISTS, "all"), case_sensitive=False),
    help="The rating list: standard, rapid or blitz, or all (the standard list in DIR, "
    "rapid and blitz in DIR/rapid and DIR/blitz, linked); default: the list the folder's "
    "site shows, else standard.",
)
@click.option(
    "--show-birth-year/--hide-birth-year",
    default=None,
    help="Publish the players' birth years (and a player page's sex), or not; by default no "
    "page or download holds a birth year (the top lists' age categories are still shown). "
    "Kept for the folder's next publish, as the title is.",
)
@DB_OPTION
@pass_app
def publish(
    app: App,
    directory: Path,
    title: str | None,
    force: bool,
    jobs: int | None,
    list_type: str | None,
    show_birth_year: bool | None,
    db: str | None,
) -> None:
    """Write the rating lists, a page per player and per event, and CSV/TXT downloads as a
    static website in DIR (only the pages that changed are rewritten). --list chooses the
    list (standard, rapid or blitz): a folder holds the site of one list; --list all
    publishes every list, standard in DIR and rapid and blitz in DIR/rapid and DIR/blitz,
    the player pages linked to each other."""
    app = _app(app, db)
    if title is not None:
        try:
            title = limits.check_text(title.strip(), limits.MAX_NAME_LENGTH)
        except LimitError as exc:
            raise InvalidInputError(f"--title: {exc}") from None
        if not title:
            raise InvalidInputError("--title: must not be blank")
    report = run_publish(
        app, directory, force=force, title=title, jobs=jobs, time_control=list_type,
        show_birth_year=show_birth_year,
    )  # fmt: skip
    if report.pending is not None:
        click.echo(
            f"Warning: corrections touched period {report.pending}; run 'ratings rate' and "
            "publish again: the pages show the values as they are",
            err=True,
        )
    rendered = (
        f"{report.lists} list(s), {report.players} player page(s), {report.events} event "
        "page(s) rendered"
    )
    which = " (every list)" if report.time_control == "all" else on_list(report.time_control)
    click.echo(
        f"Published {directory / 'index.html'}{which}: {rendered}; "
        f"{report.written} file(s) written, "
        f"{report.unchanged} unchanged, {report.deleted} deleted ({report.pages} in the site)"
    )


def _period_range(text: str | None) -> tuple[str | None, str | None]:
    if text is None:
        return None, None
    first, sep, last = text.partition("..")
    if not sep:
        return text, text
    return first or None, last or None


@click.command("plot")
@click.argument("players", metavar="PLAYER...", nargs=-1, required=True)
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="The chart file: FILE.png or FILE.svg.",
)
@click.option(
    "--period",
    metavar="FROM..TO",
    help="Only these lists: YYYY-MM..YYYY-MM (either end may be left out), or one period.",
)
@click.option("--title", help="A title over the chart.")
@click.option("--force", is_flag=True, help="Replace the output file if it exists.")
@LIST
@DB_OPTION
@pass_app
def plot(
    app: App,
    players: tuple[str, ...],
    output: Path,
    period: str | None,
    title: str | None,
    force: bool,
    list_type: str,
    db: str | None,
) -> None:
    """Draw the rating history of one or more players on one chart (PNG or SVG), on the
    list --list (standard, rapid or blitz)."""
    app = _app(app, db)
    fmt = output.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise click.BadParameter(
            f"{str(output)!r} must end in .png or .svg", param_hint="'--output'"
        )
    if title is not None:
        try:
            title = limits.check_text(title, limits.MAX_NAME_LENGTH)
        except LimitError as exc:
            raise InvalidInputError(f"--title: {exc}") from None
    from ratings.site import chart

    first, last = _period_range(period)
    with read_only_session(app) as session:
        read = [reading(session, ref) for ref in players]
        refs = tuple(ref for ref, _ in read)
        found = data.rating_series(session, refs, first=first, last=last, time_control=list_type)
    for _, note in read:
        say_note(note)
    series = [
        chart.Series(s.name, [(pt.list_date, pt.period, pt.rating) for pt in s.points])
        for s in found
    ]
    unrated = [s.name for s in series if not s.points]
    which = "" if list_type == "standard" else f" {list_type}"
    if len(unrated) == len(series):
        raise InvalidInputError(
            f"no published{which} rating to plot for {', '.join(unrated)} in the periods asked for"
        )
    spec = chart.rating_chart(series, title=title, width=640, height=320)
    image = chart.render_chart(spec, fmt)

    def fill(tmp: Path) -> None:
        with tmp.open("xb") as f:
            f.write(image)

    files.write_file(output, fill, force=force, database=sqlite_path(app.url))
    for name in unrated:
        click.echo(f"Warning: {name} has no published{which} rating in these periods", err=True)
    click.echo(f"Wrote {output}: {len(series)} player(s)", err=True)


def register(group: click.Group) -> None:
    """Add these commands to the top-level group."""
    group.add_command(publish)
    group.add_command(plot)
