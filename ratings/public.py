"""The library's public names (README, "Use from Python"), each with the module it is
loaded from: the one list. :mod:`ratings` and :mod:`ratings.service` load them from here on
first use and name them in ``__all__``; their ``TYPE_CHECKING`` imports (for type checkers,
which cannot follow a lazy load) are checked against it by tests/test_public_names.py.

Plain data: importing it imports nothing.
"""

from __future__ import annotations

__all__ = ["PUBLIC", "SERVICE"]

PUBLIC: dict[str, str] = {
    "AmbiguousPlayerError": "ratings.errors",
    "DatabaseError": "ratings.errors",
    "DuplicateImportError": "ratings.errors",
    "InputFileError": "ratings.errors",
    "InputFileErrors": "ratings.errors",
    "InvalidInputError": "ratings.errors",
    "LimitError": "ratings.errors",
    "PeriodError": "ratings.errors",
    "PlayerNotFoundError": "ratings.errors",
    "RatingsError": "ratings.errors",
    "SchemaOutOfDateError": "ratings.errors",
    "create_database": "ratings.library",
    "open_session": "ratings.library",
    "Result": "ratings.results",
    "RulesError": "ratings.rules.base",
    "Period": "ratings.rules.system",
    "system_config": "ratings.rules.system",
    "SystemConfig": "ratings.rules.system",
    "add_game": "ratings.service.corrections.games",
    "edit_game": "ratings.service.corrections.games",
    "get_game": "ratings.service.corrections.games",
    "void_game": "ratings.service.corrections.games",
    "TournamentReport": "ratings.service.imports.events",
    "import_games": "ratings.service.imports.games",
    "import_pgn": "ratings.service.imports.pgn",
    "import_players": "ratings.service.imports.players",
    "Taken": "ratings.service.imports.report",
    "check_not_imported": "ratings.service.imports.storing",
    "content_hash": "ratings.service.imports.storing",
    "ImportReport": "ratings.service.imports.storing",
    "import_trf": "ratings.service.imports.trf",
    "parse_period": "ratings.service.rating.marks",
    "rate": "ratings.service.rating.rate",
    "RateReport": "ratings.service.rating.rate",
    "ChangedRating": "ratings.service.rating.supersede",
    "export_trf": "ratings.service.reading.exports",
    "TrfExport": "ratings.service.reading.exports",
    "Card": "ratings.service.reading.cards",
    "card": "ratings.service.reading.cards",
    "CardLine": "ratings.service.reading.cards",
    "history": "ratings.service.reading.cards",
    "ListRow": "ratings.service.reading.reports",
    "HistoryRow": "ratings.service.reading.cards",
    "Performance": "ratings.service.reading.cards",
    "performance": "ratings.service.reading.cards",
    "preview": "ratings.service.reading.reports",
    "RatingList": "ratings.service.reading.reports",
    "rating_list": "ratings.service.reading.reports",
    "find_players": "ratings.service.register.lookup",
    "get_player": "ratings.service.register.lookup",
    "merge_players": "ratings.service.register.merge",
    "plan_merge": "ratings.service.register.merge",
    "unmerge_player": "ratings.service.register.merge",
    "add_player": "ratings.service.register.players",
    "Birth": "ratings.service.register.players",
    "edit_player": "ratings.service.register.players",
    "list_players": "ratings.service.register.players",
    "create_settings": "ratings.service.shared.config",
    "get_config": "ratings.service.shared.config",
}
"""Public name -> the module it is loaded from (its own, or the use case that returns it)."""

SERVICE: dict[str, str] = {
    name: module for name, module in PUBLIC.items() if module.startswith("ratings.service.")
}
"""The use cases and their result types: the public names :mod:`ratings.service` exports."""
