"""ratings: a persistent chess rating database under the FIDE Rating Regulations.

The package is also the library (README, "Use from Python"): the service functions, their
result types, the errors and :func:`create_database` / :func:`open_session` are importable
from here, typed. They are loaded on first use, so that ``import ratings.rules`` (pure
arithmetic, standard library only) does not pull in SQLAlchemy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from ratings.errors import (
        AmbiguousPlayerError,
        DatabaseError,
        DuplicateImportError,
        InputFileError,
        InputFileErrors,
        InvalidInputError,
        LimitError,
        PeriodError,
        PlayerNotFoundError,
        RatingsError,
        SchemaOutOfDateError,
    )
    from ratings.library import (
        create_database,
        open_session,
    )
    from ratings.results import (
        Result,
    )
    from ratings.rules import (
        Period,
        RulesError,
        SystemConfig,
        system_config,
    )
    from ratings.service import (
        Birth,
        Card,
        CardLine,
        ChangedRating,
        HistoryRow,
        ImportReport,
        ListRow,
        Performance,
        RateReport,
        RatingList,
        Taken,
        TournamentReport,
        TrfExport,
        add_game,
        add_player,
        card,
        check_not_imported,
        content_hash,
        create_settings,
        edit_game,
        edit_player,
        export_trf,
        find_players,
        get_config,
        get_game,
        get_player,
        history,
        import_games,
        import_pgn,
        import_players,
        import_trf,
        list_players,
        merge_players,
        parse_period,
        performance,
        plan_merge,
        preview,
        rating_list,
        unmerge_player,
        void_game,
    )
    from ratings.service.rating.rate import rate

_EXPORTS = {
    "AmbiguousPlayerError": "ratings.errors",
    "Birth": "ratings.service",
    "Card": "ratings.service",
    "CardLine": "ratings.service",
    "ChangedRating": "ratings.service",
    "DatabaseError": "ratings.errors",
    "DuplicateImportError": "ratings.errors",
    "HistoryRow": "ratings.service",
    "ImportReport": "ratings.service",
    "Taken": "ratings.service",
    "InputFileError": "ratings.errors",
    "InputFileErrors": "ratings.errors",
    "InvalidInputError": "ratings.errors",
    "LimitError": "ratings.errors",
    "ListRow": "ratings.service",
    "Performance": "ratings.service",
    "Period": "ratings.rules",
    "PeriodError": "ratings.errors",
    "PlayerNotFoundError": "ratings.errors",
    "RateReport": "ratings.service",
    "RatingList": "ratings.service",
    "RatingsError": "ratings.errors",
    "Result": "ratings.results",
    "RulesError": "ratings.rules",
    "SchemaOutOfDateError": "ratings.errors",
    "SystemConfig": "ratings.rules",
    "TournamentReport": "ratings.service",
    "TrfExport": "ratings.service",
    "add_game": "ratings.service",
    "add_player": "ratings.service",
    "card": "ratings.service",
    "check_not_imported": "ratings.service",
    "content_hash": "ratings.service",
    "create_database": "ratings.library",
    "create_settings": "ratings.service",
    "edit_game": "ratings.service",
    "edit_player": "ratings.service",
    "export_trf": "ratings.service",
    "find_players": "ratings.service",
    "get_config": "ratings.service",
    "get_game": "ratings.service",
    "get_player": "ratings.service",
    "history": "ratings.service",
    "import_games": "ratings.service",
    "import_pgn": "ratings.service",
    "import_players": "ratings.service",
    "import_trf": "ratings.service",
    "list_players": "ratings.service",
    "merge_players": "ratings.service",
    "open_session": "ratings.library",
    "parse_period": "ratings.service",
    "performance": "ratings.service",
    "plan_merge": "ratings.service",
    "preview": "ratings.service",
    "rate": "ratings.service.rating.rate",
    "rating_list": "ratings.service",
    "system_config": "ratings.rules",
    "unmerge_player": "ratings.service",
    "void_game": "ratings.service",
}
"""Public name -> the module that defines it."""

__all__ = [
    "AmbiguousPlayerError",
    "Birth",
    "Card",
    "CardLine",
    "ChangedRating",
    "DatabaseError",
    "DuplicateImportError",
    "HistoryRow",
    "ImportReport",
    "InputFileError",
    "InputFileErrors",
    "InvalidInputError",
    "LimitError",
    "ListRow",
    "Performance",
    "Period",
    "PeriodError",
    "PlayerNotFoundError",
    "RateReport",
    "RatingList",
    "RatingsError",
    "Result",
    "RulesError",
    "SchemaOutOfDateError",
    "SystemConfig",
    "Taken",
    "TournamentReport",
    "TrfExport",
    "__version__",
    "add_game",
    "add_player",
    "card",
    "check_not_imported",
    "content_hash",
    "create_database",
    "create_settings",
    "edit_game",
    "edit_player",
    "export_trf",
    "find_players",
    "get_config",
    "get_game",
    "get_player",
    "history",
    "import_games",
    "import_pgn",
    "import_players",
    "import_trf",
    "list_players",
    "merge_players",
    "open_session",
    "parse_period",
    "performance",
    "plan_merge",
    "preview",
    "rate",
    "rating_list",
    "system_config",
    "unmerge_player",
    "void_game",
]


def __getattr__(name: str) -> Any:
    """The public names, imported from their module on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ratings' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
