"""Use cases. Every function takes a Session first and never commits: the caller (the CLI)
owns the transaction, so a command either fully happens or changes nothing.

The public names (:data:`ratings.public.SERVICE`) are loaded on first use, from their
module (so that a command imports only the use cases it runs: ``ratings list`` needs
neither the PGN reader nor the merge).

The use cases live in domain packages, each importing only the ones before it (a test walks
the imports, tests/test_architecture.py); docs/DESIGN.md#the-service-by-domain draws them:

* :mod:`.shared`: SQL helpers, the settings row, dates, the corrections log's writer;
* :mod:`.rating`: the rater and what it marks, writes, supersedes and seals;
* :mod:`.register`: players, finding them, identity and aliases, merges;
* :mod:`.imports`: the one import pipeline and a module per file format;
* :mod:`.titles`: title norms and what they read;
* :mod:`.corrections`: game and event edits, moves, undo, the log, settings;
* :mod:`.reading`: reports, browsing, crosstables, check, verify, sql, exports, the
  site's read model.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ratings.public import SERVICE

if TYPE_CHECKING:
    from ratings.service.corrections.games import add_game as add_game
    from ratings.service.corrections.games import edit_game as edit_game
    from ratings.service.corrections.games import get_game as get_game
    from ratings.service.corrections.games import void_game as void_game
    from ratings.service.imports.events import TournamentReport as TournamentReport
    from ratings.service.imports.games import import_games as import_games
    from ratings.service.imports.pgn import import_pgn as import_pgn
    from ratings.service.imports.players import import_players as import_players
    from ratings.service.imports.report import Taken as Taken
    from ratings.service.imports.storing import ImportReport as ImportReport
    from ratings.service.imports.storing import check_not_imported as check_not_imported
    from ratings.service.imports.storing import content_hash as content_hash
    from ratings.service.imports.trf import import_trf as import_trf
    from ratings.service.rating.marks import parse_period as parse_period
    from ratings.service.rating.rate import RateReport as RateReport
    from ratings.service.rating.rate import rate as rate
    from ratings.service.rating.supersede import ChangedRating as ChangedRating
    from ratings.service.reading.cards import Card as Card
    from ratings.service.reading.cards import CardLine as CardLine
    from ratings.service.reading.cards import HistoryRow as HistoryRow
    from ratings.service.reading.cards import Performance as Performance
    from ratings.service.reading.cards import card as card
    from ratings.service.reading.cards import history as history
    from ratings.service.reading.cards import performance as performance
    from ratings.service.reading.exports import TrfExport as TrfExport
    from ratings.service.reading.exports import export_trf as export_trf
    from ratings.service.reading.reports import ListRow as ListRow
    from ratings.service.reading.reports import RatingList as RatingList
    from ratings.service.reading.reports import preview as preview
    from ratings.service.reading.reports import rating_list as rating_list
    from ratings.service.register.lookup import find_players as find_players
    from ratings.service.register.lookup import get_player as get_player
    from ratings.service.register.merge import merge_players as merge_players
    from ratings.service.register.merge import plan_merge as plan_merge
    from ratings.service.register.merge import unmerge_player as unmerge_player
    from ratings.service.register.players import Birth as Birth
    from ratings.service.register.players import add_player as add_player
    from ratings.service.register.players import edit_player as edit_player
    from ratings.service.register.players import list_players as list_players
    from ratings.service.shared.config import create_settings as create_settings
    from ratings.service.shared.config import get_config as get_config

__all__ = sorted(SERVICE)


def __getattr__(name: str) -> Any:
    """A public name, or a submodule, loaded on first use (PEP 562)."""
    module_name = SERVICE.get(name)
    if module_name is not None:
        value = getattr(importlib.import_module(module_name), name)
    else:
        try:
            value = importlib.import_module(f"ratings.service.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"ratings.service.{name}":
                raise
            raise AttributeError(f"module 'ratings.service' has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *SERVICE})
