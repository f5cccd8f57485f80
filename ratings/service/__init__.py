"""Use cases. Every function takes a Session first and never commits: the caller (the CLI)
owns the transaction, so a command either fully happens or changes nothing.

The names below are loaded on first use, from the module that defines them (so that a
command imports only the use cases it runs: ``ratings list`` needs neither the PGN reader
nor the merge); a submodule (``service.audit``, ``service.moves``) is imported on first
access too.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ratings.service import audit as audit
    from ratings.service.common import (
        create_settings as create_settings,
    )
    from ratings.service.common import (
        find_players as find_players,
    )
    from ratings.service.common import (
        get_config as get_config,
    )
    from ratings.service.common import (
        get_player as get_player,
    )
    from ratings.service.common import (
        parse_period as parse_period,
    )
    from ratings.service.games import (
        add_game as add_game,
    )
    from ratings.service.games import (
        edit_game as edit_game,
    )
    from ratings.service.games import (
        get_game as get_game,
    )
    from ratings.service.games import (
        void_game as void_game,
    )
    from ratings.service.imports.events import (
        TournamentReport as TournamentReport,
    )
    from ratings.service.imports.games import (
        import_games as import_games,
    )
    from ratings.service.imports.pgn import (
        import_pgn as import_pgn,
    )
    from ratings.service.imports.players import (
        import_players as import_players,
    )
    from ratings.service.imports.report import (
        Taken as Taken,
    )
    from ratings.service.imports.trf import (
        import_trf as import_trf,
    )
    from ratings.service.merge import (
        merge_players as merge_players,
    )
    from ratings.service.merge import (
        plan_merge as plan_merge,
    )
    from ratings.service.merge import (
        unmerge_player as unmerge_player,
    )
    from ratings.service.rate import (
        ChangedRating as ChangedRating,
    )
    from ratings.service.rate import (
        RateReport as RateReport,
    )
    from ratings.service.rate import (
        rate as rate,
    )
    from ratings.service.register import (
        Birth as Birth,
    )
    from ratings.service.register import (
        add_player as add_player,
    )
    from ratings.service.register import (
        edit_player as edit_player,
    )
    from ratings.service.register import (
        list_players as list_players,
    )
    from ratings.service.reports import (
        Card as Card,
    )
    from ratings.service.reports import (
        CardLine as CardLine,
    )
    from ratings.service.reports import (
        HistoryRow as HistoryRow,
    )
    from ratings.service.reports import (
        ListRow as ListRow,
    )
    from ratings.service.reports import (
        Performance as Performance,
    )
    from ratings.service.reports import (
        RatingList as RatingList,
    )
    from ratings.service.reports import (
        card as card,
    )
    from ratings.service.reports import (
        history as history,
    )
    from ratings.service.reports import (
        performance as performance,
    )
    from ratings.service.reports import (
        preview as preview,
    )
    from ratings.service.reports import (
        rating_list as rating_list,
    )
    from ratings.service.storing import (
        ImportReport as ImportReport,
    )
    from ratings.service.storing import (
        check_not_imported as check_not_imported,
    )
    from ratings.service.storing import (
        content_hash as content_hash,
    )
    from ratings.service.trf_export import (
        TrfExport as TrfExport,
    )
    from ratings.service.trf_export import (
        export_trf as export_trf,
    )

# `rate` names both a function and the module that holds it: importing the module would set
# the package's `rate` to the module, so the function is bound now, once and for all
from ratings.service.rate import rate as rate

_LAZY: dict[str, str] = {
    # name: the module of ratings.service that defines it
    "add_game": "games",
    "add_player": "register",
    "Birth": "register",
    "Card": "reports",
    "card": "reports",
    "CardLine": "reports",
    "ChangedRating": "rate",
    "check_not_imported": "storing",
    "content_hash": "storing",
    "create_settings": "common",
    "edit_game": "games",
    "edit_player": "register",
    "export_trf": "trf_export",
    "find_players": "common",
    "get_config": "common",
    "get_game": "games",
    "get_player": "common",
    "history": "reports",
    "HistoryRow": "reports",
    "import_games": "imports.games",
    "import_pgn": "imports.pgn",
    "import_players": "imports.players",
    "import_trf": "imports.trf",
    "ImportReport": "storing",
    "Taken": "imports.report",
    "list_players": "register",
    "ListRow": "reports",
    "merge_players": "merge",
    "parse_period": "common",
    "Performance": "reports",
    "performance": "reports",
    "plan_merge": "merge",
    "preview": "reports",
    "RateReport": "rate",
    "rating_list": "reports",
    "RatingList": "reports",
    "TournamentReport": "imports.events",
    "TrfExport": "trf_export",
    "unmerge_player": "merge",
    "void_game": "games",
}

__all__ = [
    "Birth",
    "Card",
    "CardLine",
    "ChangedRating",
    "HistoryRow",
    "ImportReport",
    "ListRow",
    "Performance",
    "RateReport",
    "RatingList",
    "Taken",
    "TournamentReport",
    "TrfExport",
    "add_game",
    "add_player",
    "card",
    "check_not_imported",
    "content_hash",
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
    "parse_period",
    "performance",
    "plan_merge",
    "preview",
    "rate",
    "rating_list",
    "unmerge_player",
    "void_game",
]


def __getattr__(name: str) -> Any:
    """A public name, or a submodule, loaded on first use (PEP 562)."""
    module_name = _LAZY.get(name)
    if module_name is not None:
        value = getattr(importlib.import_module(f"ratings.service.{module_name}"), name)
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
    return sorted({*globals(), *_LAZY})
