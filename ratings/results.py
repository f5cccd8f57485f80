"""Game results as stored in the database, in PGN notation (python-chess ``Outcome.result()``)."""

from __future__ import annotations

import enum


class Result(enum.Enum):
    """The result of one game, from White's side.

    Forfeits are stored but never rated (FIDE Rating Regulations 8.x: only played games count).
    """

    WHITE_WIN = "1-0"
    BLACK_WIN = "0-1"
    DRAW = "1/2-1/2"
    WHITE_FORFEIT_WIN = "+/-"
    """White wins by forfeit."""
    BLACK_FORFEIT_WIN = "-/+"
    """Black wins by forfeit."""
    DOUBLE_FORFEIT = "-/-"
    """Neither player appeared."""

    @property
    def is_played(self) -> bool:
        """True for a game that was played over the board (and so may be rated)."""
        return self in (Result.WHITE_WIN, Result.BLACK_WIN, Result.DRAW)

    @property
    def white_half_points(self) -> int:
        """White's score in half points (2 = win, 1 = draw, 0 = loss), forfeits included."""
        return _WHITE_HALVES[self]

    @property
    def black_half_points(self) -> int:
        """Black's score in half points."""
        return 0 if self is Result.DOUBLE_FORFEIT else 2 - self.white_half_points

    @classmethod
    def from_string(cls, text: str) -> Result:
        """Parse a result as written in files and on the command line.

        Accepts ``1-0``, ``0-1``, ``1/2-1/2``, ``½-½``, ``=``, ``+/-``, ``-/+``, ``-/-``
        (and ``+:-`` style with a colon). Raises :class:`ValueError` otherwise.
        """
        key = text.strip().replace(" ", "").replace(":", "/")
        try:
            return _ALIASES[key]
        except KeyError:
            raise ValueError(
                f"unknown result {text!r} (expected 1-0, 0-1, 1/2-1/2, =, +/-, -/+ or -/-)"
            ) from None


_WHITE_HALVES = {
    Result.WHITE_WIN: 2,
    Result.BLACK_WIN: 0,
    Result.DRAW: 1,
    Result.WHITE_FORFEIT_WIN: 2,
    Result.BLACK_FORFEIT_WIN: 0,
    Result.DOUBLE_FORFEIT: 0,
}

_ALIASES = {r.value: r for r in Result} | {
    "½-½": Result.DRAW,
    "=": Result.DRAW,
    "0.5-0.5": Result.DRAW,
    "+-": Result.WHITE_FORFEIT_WIN,
    "-+": Result.BLACK_FORFEIT_WIN,
    "--": Result.DOUBLE_FORFEIT,
}
