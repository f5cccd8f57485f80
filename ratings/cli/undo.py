"""``ratings unrate`` and ``ratings import undo``: the corrections that take back what was
done in error (issue 11, items 6 and 8)."""

from __future__ import annotations

import click

from ratings.cli import App, pass_app
from ratings.cli.imports import import_
from ratings.cli.options import REASON, YES, ask, say_marked
from ratings.service import corrections, unrate
from ratings.service import undo as undo_service


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@click.command("unrate")
@click.option(
    "--from",
    "from_label",
    required=True,
    metavar="YYYY-MM",
    help="The first rated period to withdraw; every rated period after it goes too.",
)
@YES
@REASON
@pass_app
def unrate_command(app: App, from_label: str, yes: bool, reason: str | None) -> None:
    """Withdraw rated periods from YYYY-MM on, newest first (asks first).

    Their published values are kept in superseded_ratings, as a re-rate keeps the values it
    replaces, and the corrections log records the withdrawal. The games stay: 'ratings rate'
    rates their periods again once they have ended.
    """
    if not yes:
        with app.session(commit=False) as session:
            labels = [p.label for p in unrate.periods_from(session, from_label)]
        span = labels[0] if len(labels) == 1 else f"{labels[0]} .. {labels[-1]}"
        ask(f"Withdraw {_plural(len(labels), 'rated period')} ({span}, newest first)?")
    with app.session(bulk=True) as session:
        done = unrate.unrate(session, from_label, reason=reason)
    for p in done.periods:
        click.echo(
            f"Withdrew rated period {p.label} (list of {p.list_date}, "
            f"{_plural(p.entries, 'entry').replace('entrys', 'entries')}; "
            f"{p.kept} kept in superseded_ratings)"
        )


@import_.command("undo")
@click.argument("import_id", metavar="ID", type=int)
@YES
@REASON
@pass_app
def import_undo(app: App, import_id: int, yes: bool, reason: str | None) -> None:
    """Remove what import ID added: its events, games, byes and the players it registered
    that nothing else uses (asks first; 'ratings import list' shows the ids).

    Refused when a later correction depends on it (an edited game, a merged player, a
    player with games from elsewhere), naming what; the import of a player register that
    changed players ('import players --update', 'import fide-list') cannot be undone exactly
    and is refused. Everything removed is kept in the corrections log ('ratings log').
    """
    if not yes:
        with app.session(commit=False) as session:
            plan = undo_service.plan_undo(session, import_id)
        ask(f"Undo import {plan.import_id} ({plan.file_name}): remove {plan.describe()}?")
    with app.session(bulk=True) as session:
        before = corrections.waiting(session)
        done = undo_service.undo_import(session, import_id, reason=reason)
        marked = corrections.newly_marked(session, before)
    click.echo(f"Undid import {done.import_id} ({done.file_name}): removed {done.describe()}")
    if done.kept_players:
        click.echo(
            f"Kept {_plural(len(done.kept_players), 'player')} it registered (used elsewhere): "
            + ", ".join(f"{pid} ({name})" for pid, name in done.kept_players),
            err=True,
        )
    say_marked(marked)


def register(group: click.Group) -> None:
    """Add ``unrate`` to the top-level group (``import undo`` joins ``import`` on import)."""
    group.add_command(unrate_command)
