"""Options and notes shared by the commands that record and correct results.

Light to import (``ratings list`` uses it without SQLAlchemy): the service is imported by
the functions that call it.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

import click

from ratings import clock
from ratings.cli import CommandError
from ratings.rating_lists import LISTS as LISTS

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ratings.service.corrections.moves import EventMove

ALLOW_FUTURE = click.option(
    "--allow-future",
    is_flag=True,
    help="Accept game dates after today (refused otherwise: most are typos).",
)

LATE_OK = click.option(
    "--late-ok",
    is_flag=True,
    help="Rate an event given a --period beyond the 3rd list after its end (art. 9.1 does "
    "not rate an event reported that late; refused otherwise).",
)


def say_late(warnings: Sequence[str]) -> None:
    """The warnings of events given a period beyond art. 9.1's, with ``--late-ok``."""
    for warning in warnings:
        click.echo(f"Warning: {warning}", err=True)


YES = click.option("--yes", "-y", is_flag=True, help="Do it without asking for confirmation.")


TIME_CONTROL = click.option(
    "--time-control",
    "time_control",
    type=click.Choice(LISTS, case_sensitive=False),
    help="The list that rates the events this command creates (default: standard).",
)

F = TypeVar("F", bound=Callable[..., Any])


def list_option(
    help: str = "The rating list: standard, rapid or blitz.", default: str | None = "standard"
) -> Callable[[F], F]:
    """The ``--list`` option (as ``list_type``): one of the three lists, ``default`` (None:
    the command's own default, said in ``help``)."""
    return click.option(
        "--list",
        "list_type",
        type=click.Choice(LISTS, case_sensitive=False),
        default=default,
        show_default=default is not None,
        help=help,
    )


LIST = list_option()


def on_list(time_control: str) -> str:
    """What a line adds to say its list: nothing for standard, `` (rapid list)``..."""
    return "" if time_control == "standard" else f" ({time_control} list)"


REASON = click.option(
    "--reason",
    metavar="TEXT",
    help="Why: kept with the change in the corrections log ('ratings log').",
)


def today_unless(allow_future: bool) -> dt.date | None:
    """The latest game date a command accepts: today, or None with ``--allow-future``."""
    return None if allow_future else clock.today()


def say_marked(period: str | None, *, would: bool = False) -> None:
    """The note every command that marks a rated period for re-rating prints (stderr): the
    earliest period the command touched (``corrections.touched``); ``would``: a dry run's."""
    if period and would:
        click.echo(
            f"This would touch rated period {period}: 'ratings rate' would re-rate from there",
            err=True,
        )
    elif period:
        click.echo(
            f"This touches rated period {period}: 'ratings rate' re-rates from there", err=True
        )


DRY_RUN = click.option(
    "--dry-run",
    is_flag=True,
    help="Show what it would change (old -> new) and the rated period it would touch; "
    "write nothing.",
)

DRY_RUN_DONE = "Dry run: nothing was changed"
"""The first line of a correction's dry run (then what it would do, as it would say it)."""


def stack(*options: Callable[[F], F]) -> Callable[[F], F]:
    """One decorator for ``options`` written one above the other in this order (the order
    ``--help`` lists them in)."""

    def decorate(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def bundle(
    options: Callable[[Callable[..., Any]], Callable[..., Any]],
    record: type[NamedTuple],
    name: str,
) -> Callable[[F], F]:
    """``options`` handed to the command as one parameter ``name``, a ``record`` (a
    NamedTuple whose fields are the options' parameter names; an option ``options`` lacks
    takes the field's default). ``--help`` lists the options as before."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def bundled(*args: Any, **given: Any) -> Any:
            defaults = record._field_defaults
            values = {f: given.pop(f) if f in given else defaults[f] for f in record._fields}
            made = cast(Any, record)(**values)  # a NamedTuple class, called with its fields
            return command(*args, **{name: made}, **given)

        return cast(F, options(bundled))  # the command's signature, less the record's fields

    return decorate


correction_options = stack(YES, DRY_RUN, REASON)
"""``--yes``, ``--dry-run`` and ``--reason``: the options of a correction that asks first,
can be tried, and is logged with its reason."""


def say_changes(lines: Sequence[str]) -> None:
    """A correction's old -> new lines, indented under its report (stdout)."""
    for line in lines:
        click.echo(f"  {line}")


T = TypeVar("T")


def confirmed(
    run: Callable[[bool], T], yes: bool, *, dry_run: bool = False
) -> tuple[T, EventMove | None]:
    """Run a correction that may move an event's dates: first without
    letting it (``run(False)``, rolled back if it would); then, said and confirmed (or with
    ``--yes``, or in a dry run, which asks nothing), letting it. Returns what ``run``
    returned and the move, if any."""
    from ratings.service.corrections.moves import EventMoveError

    try:
        return run(False), None
    except EventMoveError as exc:
        move = exc.move
    if not yes and not dry_run:
        ask(f"This moves {move.describe()}. Go ahead?")
    return run(True), move


NOT_CONFIRMED = "not confirmed; nothing was changed (--yes confirms without asking)"


def ask(question: str) -> None:
    """Ask before a correction (on stderr). No, or no answer (a script without ``--yes``),
    stops the command: ``Error: not confirmed ...``, exit 1, nothing changed."""
    try:
        if click.confirm(question, err=True):
            return
    except click.exceptions.Abort:  # end of input: no answer
        click.echo(err=True)
    raise CommandError(NOT_CONFIRMED)


def say_moved(move: EventMove | None, *, would: bool = False) -> None:
    """The report of an event that a correction moved (``would``: a dry run's)."""
    if move is not None:
        click.echo(f"{'Would move' if would else 'Moved'} {move.describe()}")


def say_corrected(
    report: str,
    lines: Sequence[str],
    move: EventMove | None,
    marked: str | None,
    *,
    dry_run: bool = False,
    late: Sequence[str] = (),
) -> None:
    """What a correction says once it is done (or tried, with ``dry_run``), in this order:
    :data:`DRY_RUN_DONE` in a dry run, its one-line ``report``, its old -> new lines, the
    warnings of a period given late, the event it moved and the rated period it touched."""
    if dry_run:
        click.echo(DRY_RUN_DONE)
    click.echo(report)
    say_changes(lines)
    say_late(late)
    say_moved(move, would=dry_run)
    say_marked(marked, would=dry_run)


def reading(session: Session, ref: str) -> tuple[str, str | None]:
    """A reading command's PLAYER: the id of the player it names (a merged record: the player
    it was merged into) and the note to show for a merged record, if any
    (``player 42 was merged into 10 (correction 7): showing 10``)."""
    from ratings.service.register.lookup import get_player_to_read

    player, note = get_player_to_read(session, ref)
    return str(player.id), note


def reading_if_any(session: Session, ref: str | None) -> tuple[str | None, str | None]:
    """:func:`reading` of a PLAYER a command may be given: (None, None) without one."""
    return (None, None) if ref is None else reading(session, ref)


def say_note(note: str | None) -> None:
    """The note :func:`reading` gave, on stderr."""
    if note:
        click.echo(note, err=True)
