"""Use cases. Every function takes a Session first and never commits: the caller (the CLI)
owns the transaction, so a command either fully happens or changes nothing."""

from __future__ import annotations

from ratings.service import audit  # noqa: F401  (service.audit: the corrections log)
from ratings.service.common import (
    create_settings,
    find_players,
    get_config,
    get_player,
    parse_period,
)
from ratings.service.games import add_game, edit_game, get_game, void_game
from ratings.service.games_import import import_games
from ratings.service.merge import merge_players, plan_merge, unmerge_player
from ratings.service.pgn_import import import_pgn
from ratings.service.rate import ChangedRating, RateReport, rate
from ratings.service.register import (
    Birth,
    add_player,
    edit_player,
    import_players,
    list_players,
)
from ratings.service.reports import (
    Card,
    CardLine,
    HistoryRow,
    ListRow,
    Performance,
    RatingList,
    card,
    history,
    performance,
    preview,
    rating_list,
)
from ratings.service.storing import ImportReport, check_not_imported, content_hash
from ratings.service.tournaments import TournamentReport
from ratings.service.trf_export import TrfExport, export_trf
from ratings.service.trf_import import import_trf

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
