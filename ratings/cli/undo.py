"""``ratings unrate`` and ``ratings import undo``: the corrections that take back what was
done in error."""

from __future__ import annotations

import click

from ratings.cli import App, pass_app
from ratings.cli.imports import import_
from ratings.cli.options import (
    DRY_RUN_DONE,
    ask,
    correction_options,
    say_changes,
    say_marked,
)
from ratings.cli.tables import plural
from ratings.service.corrections import edits as corrections
from ratings.service.corrections import undo as undo_service
from ratings.service.rating import unrate


@click.command("unrate")
@click.option(
    "--from",
    "from_label",
    required=True,
    metavar="YYYY-MM",
    help="The first rated period to withdraw; every rated period after it goes too.",
)
@correction_options
@pass_app
def unrate_command(app: App, from_label: str, yes: bool, dry_run: bool, reason: str | None) -> None:
    """Withdraw rated periods from YYYY-MM on, newest first (asks first).

    Every row of their lists is kept in superseded_ratings (withdrawn), as a re-rate keeps
    the rows it drops, and the corrections log records the withdrawal. The games stay:
    'ratings rate' rates their periods again once they have ended.
    """
    if dry_run:
        with app.session(commit=False) as session:
            done = unrate.unrate(session, from_label, reason=reason)
        click.echo(DRY_RUN_DONE)
        _say_withdrawn(done, would=True)
        return
    if not yes:
        with app.session(commit=False) as session:
            labels = [p.label for p in unrate.periods_from(session, from_label)]
        span = labels[0] if len(labels) == 1 else f"{labels[0]} .. {labels[-1]}"
        ask(f"Withdraw {plural(len(labels), 'rated period')} ({span}, newest first)?")
    with app.session(bulk=True) as session:
        done = unrate.unrate(session, from_label, reason=reason)
    _say_withdrawn(done)


def _say_withdrawn(done: unrate.Withdrawn, *, would: bool = False) -> None:
    verb = "Would withdraw" if would else "Withdrew"
    for p in done.periods:
        click.echo(
            f"{verb} rated period {p.label} (list of {p.list_date}, "
            f"{plural(p.entries, 'entry').replace('entrys', 'entries')}; "
            f"{p.kept} kept in superseded_ratings)"
        )


@import_.command("undo")
@click.argument("import_id", metavar="ID", type=int)
@correction_options
@pass_app
def import_undo(app: App, import_id: int, yes: bool, dry_run: bool, reason: str | None) -> None:
    """Remove what import ID added: its events with every game and bye in them, the players
    it registered and the aliases it stored (asks first, naming each; 'ratings import list'
    shows the ids).

    A game added by hand to one of its events is named as not in the file. The removed
    players' rows on published lists are kept in superseded_ratings (withdrawn; the next
    'ratings rate' names them). Refused when a later correction depends on it (an edited
    game, a merged player, a player with games from elsewhere), naming what; the import of
    a player register that changed players ('import players --update', 'import
    fide-list') cannot be undone exactly and is refused. Everything removed is kept in the
    corrections log ('ratings log'); the import stays in 'ratings import list', undone.
    """
    if dry_run:
        with app.session(commit=False) as session:
            done = undo_service.undo_import(session, import_id, reason=reason)
            marked = corrections.touched(session)
        click.echo(DRY_RUN_DONE)
        _say_undone(done, would=True)
        say_marked(marked, would=True)
        return
    if not yes:
        with app.session(commit=False) as session:
            plan = undo_service.plan_undo(session, import_id)
        lines = plan.lines()
        click.echo(
            f"Undo import {plan.import_id} ({plan.file_name}) removes {plan.describe()}"
            + (":" if lines else ""),
            err=True,
        )
        for line in lines:
            click.echo(f"  {line}", err=True)
        ask("Remove them?")
    with app.session(bulk=True) as session:
        done = undo_service.undo_import(session, import_id, reason=reason)
        marked = corrections.touched(session)
    _say_undone(done)
    say_marked(marked)


def _say_undone(done: undo_service.UndoPlan, *, would: bool = False) -> None:
    verb, removed = ("Would undo", "remove") if would else ("Undid", "removed")
    click.echo(f"{verb} import {done.import_id} ({done.file_name}): {removed} {done.describe()}")
    say_changes(done.lines())


def register(group: click.Group) -> None:
    """Add ``unrate`` to the top-level group (``import undo`` joins ``import`` on import)."""
    group.add_command(unrate_command)
