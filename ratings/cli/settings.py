"""``ratings settings [KEY VALUE]``: the rating system's settings."""

from __future__ import annotations

import click

from ratings.cli import App, pass_app
from ratings.cli.options import REASON, YES, ask, say_marked
from ratings.cli.tables import FORMAT, emit_rows
from ratings.service.corrections import settings as service_settings


@click.command("settings")
@click.argument("key", required=False)
@click.argument("value", required=False)
@YES
@click.option("--dry-run", is_flag=True, help="Show the change and what it touches; write nothing.")
@REASON
@FORMAT
@pass_app
def settings_command(
    app: App,
    key: str | None,
    value: str | None,
    yes: bool,
    dry_run: bool,
    reason: str | None,
    fmt: str,
) -> None:
    """Show the rating system's settings, or change one (KEY VALUE).

    Keys: closing-days (art. 7.1.3), k (a number, or fide for the K of art. 8.3.3),
    start-rating (club and elo; fide computes first ratings), expected (table or curve),
    period-months (only while no period is rated); system is fixed. A change is logged
    ('ratings log') and marks for a re-rate the first rated period it affects, which it
    names; it asks first (--yes does not).
    """
    if key is None or value is None:
        if key is not None:
            raise click.UsageError("give a KEY and its VALUE, or neither to list the settings")
        with app.session(commit=False) as session:
            found = service_settings.settings(session)
        emit_rows(("setting", "value", "what"), [(s.key, s.value, s.what) for s in found], fmt)
        return
    with app.session(commit=False) as session:
        planned = service_settings.change_setting(session, key, value, reason=reason, dry_run=True)
    if not planned.changed:
        click.echo(f"{planned.key} is {planned.old} already: nothing changed")
        return
    if dry_run:
        click.echo(f"{planned.key} {planned.old} -> {planned.new}")
        if planned.marked:
            click.echo(
                f"It would touch rated period {planned.marked}: 'ratings rate' would re-rate "
                "from there"
            )
        click.echo("Dry run: nothing was changed")
        return
    if not yes:
        touches = f" This touches rated period {planned.marked}." if planned.marked else ""
        ask(f"Change {planned.key} {planned.old} -> {planned.new}?{touches}")
    with app.session() as session:
        done = service_settings.change_setting(session, key, value, reason=reason)
    click.echo(f"{done.key} {done.old} -> {done.new}")
    if done.marked:
        say_marked(done.marked)
    else:
        click.echo("No rated period is affected")


def register(group: click.Group) -> None:
    """Add ``settings`` to the top-level group."""
    group.add_command(settings_command)
