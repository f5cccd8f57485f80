"""Imports: a file's players and rows into the register, through one pipeline.

Owns every import: the TRF (:mod:`.trf`), PGN (:mod:`.pgn`), games CSV (:mod:`.games`),
players CSV (:mod:`.players`, with its updates: :mod:`.updates`) and FIDE list
(:mod:`.fide_list`) formats, each supplying its parser's rows, and what they share: the
players resolved by the one matcher and decided (:mod:`.pipeline`, :mod:`.incoming`), the
report of who was taken for whom (:mod:`.report`), the events of a tournament file
(:mod:`.events`). It may import :mod:`ratings.io` (the parsers), :mod:`ratings.matching`,
:mod:`ratings.models`, :mod:`ratings.rules` and the domains before it.

May import:
:mod:`ratings.service.shared`, :mod:`ratings.service.rating` and
:mod:`ratings.service.register`.

Nothing is imported with the package: a command loads the one format it runs.
"""

from __future__ import annotations

__all__ = [
    "decisions",
    "events",
    "fide_list",
    "games",
    "incoming",
    "notices",
    "pgn",
    "pipeline",
    "players",
    "report",
    "rounds",
    "storing",
    "trf",
    "updates",
]
