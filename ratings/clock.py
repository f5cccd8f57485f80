"""Today's date: the one place the command line reads the clock for it.

The rules and the services never read the clock: they take "today" as a parameter (a game
dated after it is refused, a period that has not ended is not rated). The CLI passes
:func:`today`; tests pass a fixed date or replace this function
(``monkeypatch.setattr(ratings.clock, "today", ...)``).
"""

from __future__ import annotations

import datetime as dt

__all__ = ["today"]


def today() -> dt.date:
    """Today's date where the administrator is (the machine's local time zone): games are
    dated, and months end, by the local calendar."""
    return dt.datetime.now().astimezone().date()
