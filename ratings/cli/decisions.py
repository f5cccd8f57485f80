"""The options and the prompt with which an administrator tells an import who a file's
players are (``--match``, ``--match-file``, ``--new``).

An import whose file holds players the matcher cannot tell for certain stops before writing
(:class:`ratings.service.register.identity.MatchQuestionsError`). On a terminal, without ``--yes``,
each such player is asked about, and the import runs again with the answers; otherwise the
questions are the error, listing each player with its candidates.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeVar

import click
from sqlalchemy.orm import Session

from ratings.cli import CommandError
from ratings.cli.options import bundle, stack
from ratings.errors import InputFileError
from ratings.io.match_file import read_match_file
from ratings.service.imports.decisions import parse_decisions
from ratings.service.register.identity import Decisions, MatchQuestionsError, Question

T = TypeVar("T")

MATCH = click.option(
    "--match",
    "matches",
    multiple=True,
    metavar="'NAME=ID'",
    help="The file's player NAME (as the file writes it) is registered player ID (an id, "
    "fide:N or a registered name); repeatable. Kept as an alias for the next files.",
)
MATCH_FILE = click.option(
    "--match-file",
    type=click.Path(path_type=Path, dir_okay=False),
    metavar="FILE",
    help="A CSV of name,id rows: one --match each (rows that name no player of this file "
    "are ignored).",
)
NEW = click.option(
    "--new",
    "new",
    multiple=True,
    metavar="'NAME'",
    help="The file's player NAME is a new player, whatever registered names are close; "
    "repeatable. Kept as an alias of the player created.",
)
NEVER_ASK = click.option(
    "--yes",
    "-y",
    "never_ask",
    is_flag=True,
    help="Never ask: players that need a decision are listed and the import refused (as "
    "when not on a terminal).",
)


class DecisionOptions(NamedTuple):
    """What the command line says of a file's players, and whether the command may ask."""

    matches: tuple[str, ...] = ()
    """``--match NAME=ID``, as typed."""
    match_file: Path | None = None
    """``--match-file FILE``."""
    new: tuple[str, ...] = ()
    """``--new NAME``."""
    never_ask: bool = False
    """``--yes``: list the players that need a decision and stop, never ask."""


DECISIONS = bundle(stack(MATCH, MATCH_FILE, NEW, NEVER_ASK), DecisionOptions, "decided")
"""The options with which a command that imports players is told who they are, and whether
it may ask: the command takes them as one ``decided: DecisionOptions``."""

MATCHES = bundle(stack(MATCH, MATCH_FILE, NEVER_ASK), DecisionOptions, "decided")
""":data:`DECISIONS` without ``--new`` (``import games`` creates no player)."""


def is_terminal() -> bool:
    """Whether the command can ask (standard input and error are a terminal)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def decisions_of(
    session: Session, matches: tuple[str, ...], match_file: Path | None, new: tuple[str, ...]
) -> Decisions:
    """The decisions the command line gives (``--match``, ``--match-file``, ``--new``)."""
    rows: list[tuple[int, str, str]] = []
    if match_file is not None:
        try:
            data = match_file.read_bytes()
        except OSError as exc:
            raise InputFileError(
                str(match_file), None, f"cannot read the file: {exc.strerror}"
            ) from exc
        rows = read_match_file(data, str(match_file))
    return parse_decisions(session, matches, new, rows, str(match_file or ""))


Answers = dict[str, int | None]
"""The prompt's answers: the file's name -> a player id, or None for a new player."""


def deciding(run: Callable[[Answers], T], *, never_ask: bool, creates: bool = True) -> T:
    """Run an import (``run({})``); when it stops on players that need a decision and the
    command may ask, ask about each and run it again with the answers (``run(answers)``;
    the import adds them to its decisions with :meth:`Decisions.with_answers`)."""
    try:
        return run({})
    except MatchQuestionsError as exc:
        if never_ask or exc.others or not is_terminal():
            raise
        stopped = exc
    answers = {q.name: ask(q, stopped.file_name, creates=creates) for q in stopped.questions}
    return run(answers)


def ask(question: Question, file_name: str, *, creates: bool) -> int | None:
    """One question on the terminal: the chosen player's id, or None for a new player.

    The answer is a line's number, ``n``, ``q``, or the id of a player the lines show (the
    id is what the candidate line starts with, and what ``--match`` takes). A number that
    is one line's and another candidate's id is asked again, as ``id N`` or the line.

    :raises CommandError: when the administrator stops (``q``, or no answer).
    """
    click.echo(f"{file_name}:{question.line}: {question.name!r} is close to:", err=True)
    choices: dict[str, int | None] = {}
    for number, option in enumerate(question.options, 1):
        choices[str(number)] = option.player_id
        click.echo(f"  {number}  {option}", err=True)
    if creates:
        choices["n"] = None
        click.echo("  n  a new player", err=True)
    keys = [*choices, "q"]
    ids = {str(option.player_id): option.player_id for option in question.options}
    prompt = f"Which is it? ({', '.join(keys)}; or a player's id)"
    while True:
        try:
            answer = click.prompt(prompt, default="q", err=True, show_default=True).strip()
        except click.exceptions.Abort:  # end of input: no answer
            click.echo(err=True)
            answer = "q"
        if answer == "q":
            raise CommandError("not decided; nothing was imported")
        by_id = answer.removeprefix("id ").strip() if answer.startswith("id ") else None
        if by_id is not None and by_id in ids:
            return ids[by_id]
        if answer in choices and answer in ids and choices[answer] != ids[answer]:
            click.echo(
                f"Error: {answer!r} is line {answer} (player {choices[answer]}) and player "
                f"{answer}: answer 'id {answer}' for player {answer}, or the line of player "
                f"{choices[answer]}",
                err=True,
            )
            continue
        if answer in choices:
            return choices[answer]
        if answer in ids:
            return ids[answer]
        shown = ", ".join(repr(k) for k in keys)
        click.echo(f"Error: {answer!r} is not one of {shown} or a player's id shown", err=True)
