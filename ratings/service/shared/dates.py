"""Game dates after today: one check for every input path.

A game is recorded once it has been played, so a date after today is almost always a typo
(``2027`` for ``2026``), and a typo that ``rate`` would turn into a year of empty lists.
Every path that stores a game date (``game add``/``edit``, ``event edit``, ``import games``,
``trf``, ``pgn``) takes ``today`` as a parameter (the CLI passes :func:`ratings.clock.today`,
or None for ``--allow-future``) and refuses a later date with the same words.
"""

from __future__ import annotations

import datetime as dt

from ratings.errors import FutureDateError

__all__ = ["check_not_future", "future_birth_problem", "future_problem"]


def future_problem(day: dt.date, today: dt.date | None) -> str | None:
    """Why ``day`` cannot be stored as a game date (``YYYY-MM-DD is after today ...``), or
    None when it can (``today`` None: no check)."""
    if today is None or day <= today:
        return None
    return (
        f"{day.isoformat()} is after today ({today.isoformat()}); check it, or give --allow-future"
    )


def check_not_future(day: dt.date, today: dt.date | None, what: str = "the date") -> None:
    """Refuse a game date after ``today``.

    :raises FutureDateError: ``the date 2027-12-01 is after today (2026-11-30); ...``.
    """
    problem = future_problem(day, today)
    if problem:
        raise FutureDateError(f"{what} {problem}")


def future_birth_problem(
    birth_date: dt.date | None, birth_year: int | None, today: dt.date
) -> str | None:
    """Why a birthdate (a full date, or a year alone) after ``today`` cannot be stored, or
    None. No one is born tomorrow: a typo (``2099`` for ``2009``) that would make the player
    a junior for a century, with no flag to accept it."""
    if birth_date is not None:
        if birth_date > today:
            return f"birthdate {birth_date.isoformat()} is after today ({today.isoformat()})"
    elif birth_year is not None and birth_year > today.year:
        return f"birth year {birth_year} is after this year ({today.year})"
    return None
