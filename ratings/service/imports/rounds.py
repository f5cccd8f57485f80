"""A file's games checked against each other round by round (games CSV and PGN; TRF's
layout cannot hold either case).

* Two games of one event and round with the same date, players and result are the same
  game written twice (a line copied, two files pasted together): an error on the later
  one, naming the first. Rated, it would count twice.
* A player with two different games in one round of one event is a warning naming both
  lines: a wrong round number is likelier than a simultaneous display, so it is said, and
  both games are stored.

Games without a round, or (in a games CSV) without an event, are not compared: nothing
tells one round of theirs from another (a match of two games on one day written without
rounds is two games).

Events are compared without regard to case, rounds as numbers where they are numbers
(:func:`round_key`): ``Cup`` and ``CUP``, round ``1``, ``01`` and ``1.0`` are one event and
one round here (a copied line whose event or round was retyped was stored twice).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import NamedTuple

from ratings.errors import InputFileError
from ratings.io.notes import FileWarning

__all__ = ["RoundGame", "round_key", "round_problems"]


class RoundGame(NamedTuple):
    """One game of a file, as the round checks see it (a named tuple: a month's file makes
    over a hundred thousand, and a tuple is made in a third of a frozen dataclass's time)."""

    line: int
    event: str
    round: str | None
    day: dt.date
    white: int
    black: int
    result: str
    white_name: str
    black_name: str


def round_key(text: str) -> str:
    """The round ``text`` as the checks compare it: each dot-separated part that is a number
    without its leading zeros, trailing parts that are 0 left off, letters in one case:
    ``01``, ``1.0`` and ``1`` are round 1; ``1.1`` and ``1.10`` (games 1 and 10 of round 1,
    as PGN numbers them) stay apart."""
    parts = [
        (part.lstrip("0") or "0") if part.isascii() and part.isdigit() else part.casefold()
        for part in text.strip().split(".")
    ]
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return ".".join(parts)


def round_problems(
    file_name: str, games: Iterable[RoundGame], round_field: str
) -> tuple[list[InputFileError], list[FileWarning]]:
    """(errors, warnings) of the checks in the module docstring, in line order;
    ``round_field`` names the round in messages (``round``, ``Round``)."""
    errors: list[InputFileError] = []
    warnings: list[FileWarning] = []
    first_of: dict[tuple[object, ...], int] = {}
    played: dict[tuple[int, int], int] = {}  # (event and round, player) -> first line
    # a file repeats its events and rounds: each pair is keyed once, by a number
    pairs: dict[tuple[str, str], int] = {}
    keys: dict[tuple[str, str], int] = {}
    for g in games:
        if g.round is None:
            continue
        pair = pairs.get((g.event, g.round))
        if pair is None:
            key = (g.event.casefold(), round_key(g.round))
            pair = pairs[g.event, g.round] = keys.setdefault(key, len(keys))
        line = g.line
        same = first_of.setdefault((pair, g.day, g.white, g.black, g.result), line)
        if same != line:
            errors.append(
                InputFileError(
                    file_name,
                    line,
                    f"the same game as line {same} (date, players, result, event and round)",
                )
            )
            continue
        before_white = played.setdefault((pair, g.white), line)
        before_black = played.setdefault((pair, g.black), line)
        for before, name in ((before_white, g.white_name), (before_black, g.black_name)):
            if before != line:
                warnings.append(
                    FileWarning(
                        file_name,
                        line,
                        f"{name!r} plays twice in round {g.round} of {g.event!r} "
                        f"(lines {before} and {line})",
                        round_field,
                    )
                )
    return errors, warnings
