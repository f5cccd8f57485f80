"""ratings: a persistent chess rating database under the FIDE Rating Regulations.

The package is also the library (README, "Use from Python"): the service functions, their
result types, the errors and :func:`create_database` / :func:`open_session` are importable
from here, typed. They are loaded on first use, so that ``import ratings.rules`` (pure
arithmetic, standard library only) does not pull in SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ratings.public import PUBLIC

__version__ = "0.1.0"

if TYPE_CHECKING:
    from ratings.errors import AmbiguousPlayerError as AmbiguousPlayerError
    from ratings.errors import DatabaseError as DatabaseError
    from ratings.errors import DuplicateImportError as DuplicateImportError
    from ratings.errors import InputFileError as InputFileError
    from ratings.errors import InputFileErrors as InputFileErrors
    from ratings.errors import InvalidInputError as InvalidInputError
    from ratings.errors import LimitError as LimitError
    from ratings.errors import PeriodError as PeriodError
    from ratings.errors import PlayerNotFoundError as PlayerNotFoundError
    from ratings.errors import RatingsError as RatingsError
    from ratings.errors import SchemaOutOfDateError as SchemaOutOfDateError
    from ratings.library import create_database as create_database
    from ratings.library import open_session as open_session
    from ratings.results import Result as Result
    from ratings.rules.base import RulesError as RulesError
    from ratings.rules.system import Period as Period
    from ratings.rules.system import SystemConfig as SystemConfig
    from ratings.rules.system import system_config as system_config
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

__all__ = ["__version__", *sorted(PUBLIC)]


def __getattr__(name: str) -> Any:
    """The public names, imported from their module on first use (PEP 562)."""
    module = PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'ratings' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
