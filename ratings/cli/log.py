"""``ratings log``: every correction, with what it changed and why."""

from __future__ import annotations

import click

from ratings.cli import App, pass_app
from ratings.cli.options import reading_if_any, say_note
from ratings.cli.tables import FORMAT, emit_rows
from ratings.service.corrections import log as service_log


@click.command("log")
@click.option("--player", "player_ref", metavar="PLAYER", help="Only the lines about a player.")
@FORMAT
@pass_app
def log_command(app: App, player_ref: str | None, fmt: str) -> None:
    """Show the corrections log, oldest first: when (UTC), which correction, what, the old
    and the new value, and the reason given.

    Lines of one command share a batch number. Game and event edits and voids, player
    edits, merges and unmerges, import undos, unrates and settings changes all write it.
    """
    with app.session() as session:
        player_ref, note = reading_if_any(session, player_ref)
        lines = service_log.log_lines(session, player_ref)
    say_note(note)
    emit_rows(
        ("batch", "when", "action", "what", "field", "old", "new", "reason"),
        [
            (
                line.batch,
                line.when.replace(microsecond=0),
                line.action,
                line.what,
                line.field,
                line.old,
                line.new,
                line.reason,
            )
            for line in lines
        ],
        fmt,
    )


def register(group: click.Group) -> None:
    """Add ``log`` to the top-level group."""
    group.add_command(log_command)
