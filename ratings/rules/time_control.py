"""Time controls: standard, rapid and blitz, FIDE's three rating lists.

FIDE keeps one rating list per time control. Which list a game belongs to follows from the
time each player has for 60 moves, increments included:

* FIDE Rapid and Blitz Rating Regulations (applied from 1 March 2024), art. 1.1.1: a rapid
  game has a fixed time of *more than 10 minutes but less than 60 minutes* for each player,
  or the time allotted + 60 times any increment in that range;
* art. 1.1.2: a blitz game has *more than 3 minutes but not more than 10 minutes*, counted
  the same way;
* the FIDE Rating Regulations (standard), art. 1.1: at least 60 minutes for 60 moves (more
  for stronger players: 90 from 1800, 120 from 2400; that check is the arbiter's, not ours);
* art. 1.2 (rapid and blitz): games where the players have different playing times are not
  rated. A PGN ``TimeControl`` tag gives one control for both players, so it cannot say so.

Three minutes or less is rated on no FIDE list: :func:`classify` answers None.

The PGN ``TimeControl`` tag (PGN standard, section 9.6.1) is read by :func:`pgn_time_control`:
fields separated by ``:``, each ``moves/seconds`` (a period), ``seconds`` (sudden death),
``seconds+increment`` (increment), or ``*seconds`` (sandclock); ``?`` is unknown and ``-``
means no time control.
"""

from __future__ import annotations

import enum
import re

from ratings.rules.base import RulesError

MOVES = 60
"""FIDE counts the time for 60 moves (R&B art. 1.1; standard art. 1.1)."""

BLITZ_ABOVE = 3 * 60
"""Blitz: more than 3 minutes (R&B art. 1.1.2), in seconds."""
BLITZ_UP_TO = 10 * 60
"""Blitz: not more than 10 minutes (R&B art. 1.1.2); rapid from more than that (1.1.1)."""
STANDARD_FROM = 60 * 60
"""Rapid: less than 60 minutes (R&B art. 1.1.1); standard from 60 minutes (standard 1.1)."""


class TimeControl(enum.Enum):
    """The FIDE list a game or an event belongs to."""

    STANDARD = "standard"
    """Standard chess (FIDE Rating Regulations)."""
    RAPID = "rapid"
    """Rapid (FIDE Rapid and Blitz Rating Regulations, art. 1.1.1)."""
    BLITZ = "blitz"
    """Blitz (FIDE Rapid and Blitz Rating Regulations, art. 1.1.2)."""


TIME_CONTROLS: tuple[TimeControl, ...] = tuple(TimeControl)
"""The three, in FIDE's order (standard, rapid, blitz)."""


class InvalidTimeControlError(RulesError):
    """A time control that cannot be read, or that no FIDE list rates."""


def time_control(value: TimeControl | str) -> TimeControl:
    """Accept a :class:`TimeControl` or its value (any case); raise
    :class:`InvalidTimeControlError` naming the three."""
    if isinstance(value, TimeControl):
        return value
    if isinstance(value, str) and value.isascii():
        try:
            return TimeControl(value.strip().lower())
        except ValueError:
            pass
    raise InvalidTimeControlError(f"unknown time control (use standard, rapid or blitz): {value!r}")


def classify(seconds_for_60_moves: int) -> TimeControl | None:
    """The list for a game in which each player has this many seconds for 60 moves,
    increments included; None for 3 minutes or less (rated on no FIDE list)."""
    if type(seconds_for_60_moves) is not int or seconds_for_60_moves < 0:
        raise InvalidTimeControlError(
            f"seconds for 60 moves must be a whole number, 0 or more: {seconds_for_60_moves!r}"
        )
    if seconds_for_60_moves <= BLITZ_ABOVE:
        return None
    if seconds_for_60_moves <= BLITZ_UP_TO:
        return TimeControl.BLITZ
    if seconds_for_60_moves < STANDARD_FROM:
        return TimeControl.RAPID
    return TimeControl.STANDARD


_FIELD = re.compile(r"(?:(?P<moves>[0-9]{1,3})/)?(?P<sand>\*)?(?P<seconds>[0-9]{1,6})"
                    r"(?:\+(?P<increment>[0-9]{1,4}(?:\.[0-9]+)?))?")  # fmt: skip


def seconds_for_60_moves(tag: str) -> int:
    """The time each player has for 60 moves under a PGN ``TimeControl`` tag, increments
    included (R&B art. 1.1: "the time allotted + 60 times any increment").

    Periods are used in order until 60 moves are covered; a field without a move count (sudden
    death, increment, sandclock) covers the rest; an increment counts once for each of the 60
    moves its period covers. An increment may have one decimal (``+0.5``); the total is in
    whole seconds, rounded down.

    :raises InvalidTimeControlError: ``?`` (unknown), ``-`` (none) or an unreadable tag.
    """
    text = tag.strip() if isinstance(tag, str) else ""
    if text in ("?", ""):
        raise InvalidTimeControlError(f"time control unknown: {tag!r}")
    if text == "-":
        raise InvalidTimeControlError(f"no time control (-): {tag!r}")
    if not text.isascii():
        raise InvalidTimeControlError(f"not a PGN time control: {tag!r}")
    covered = 0
    total_tenths = 0
    for field in text.split(":"):
        match = _FIELD.fullmatch(field)
        if match is None or (match["sand"] and (match["moves"] or match["increment"])):
            raise InvalidTimeControlError(f"not a PGN time control: {tag!r}")
        moves = int(match["moves"]) if match["moves"] else None
        if moves == 0:
            raise InvalidTimeControlError(f"a period of 0 moves: {tag!r}")
        if covered >= MOVES:
            continue  # later periods are played after move 60
        in_period = MOVES - covered if moves is None else min(moves, MOVES - covered)
        increment_tenths = 0
        if match["increment"]:
            whole, _, fraction = match["increment"].partition(".")
            increment_tenths = int(whole) * 10 + (int(fraction[0]) if fraction else 0)
        total_tenths += int(match["seconds"]) * 10 + in_period * increment_tenths
        covered += in_period
    if covered < MOVES:
        raise InvalidTimeControlError(
            f"the periods cover {covered} moves, not the 60 FIDE counts: {tag!r}"
        )
    return total_tenths // 10


def pgn_time_control(tag: str) -> TimeControl:
    """The FIDE list of a game whose PGN ``TimeControl`` tag is ``tag`` (:func:`classify` of
    :func:`seconds_for_60_moves`).

    :raises InvalidTimeControlError: unreadable, unknown, none, or 3 minutes or less (rated on
        no FIDE list).
    """
    seconds = seconds_for_60_moves(tag)
    found = classify(seconds)
    if found is None:
        raise InvalidTimeControlError(
            f"{seconds} seconds for 60 moves: rated on no FIDE list (blitz needs more than 3 "
            f"minutes, R&B art. 1.1.2): {tag!r}"
        )
    return found
