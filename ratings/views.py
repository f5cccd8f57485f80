"""The product's SQL views as replaceable objects (Alembic cookbook, "Replaceable Objects").

A view is a named object with its SQL text kept here, one constant per version; migrations
create, drop and replace it through the operations :mod:`ratings.view_ops` registers on
Alembic's ``op`` (``op.create_view``, ``op.drop_view``, ``op.replace_view(new,
replaces=old)``), so that a revision that renames a column replaces the views in the same
transaction. :data:`VIEWS` are the versions at head: ``ratings/migrations/env.py`` compares
them with the database, so that ``alembic check`` (``ratings db check``) reports a view that
is missing, extra or has other columns, as it does for tables. This module imports no Alembic
(every command reads :func:`view_names`; only migrations need the operations).

Versions are append-only: a released version is never edited (a migration refers to the
versions it creates and replaces), a change is a new constant and a new revision. This module
imports no model, so migrations may import it (unlike ``ratings.models``, which changes).

Every view reads only the tables, runs unchanged on SQLite and PostgreSQL, and shows the
integer audit columns as decimals (``DOUBLE PRECISION``: for reading; sum the integers of the
tables for exact results).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "CURRENT_RATINGS_0001",
    "CURRENT_RATINGS_0002",
    "CURRENT_RATINGS_0004",
    "CURRENT_RATINGS_0006",
    "CURRENT_RATINGS_0007",
    "RATING_CALCULATIONS_0002",
    "RATING_CALCULATIONS_0006",
    "RATING_LISTS_0001",
    "RATING_LISTS_0002",
    "RATING_LISTS_0004",
    "RATING_LISTS_0006",
    "VIEWS",
    "View",
    "view_names",
]


@dataclass(frozen=True, slots=True)
class View:
    """One version of a view: its name, its ``SELECT`` and the columns that SELECT gives."""

    name: str
    """The view's name."""
    select: str
    """The SQL after ``CREATE VIEW name AS``."""
    columns: tuple[str, ...]
    """Its columns, in order (checked against the database by tests and ``alembic check``)."""

    def create_sql(self) -> str:
        """``CREATE VIEW name AS select``."""
        return f"CREATE VIEW {self.name} AS\n{self.select.strip()}\n"


# --- the pieces the versions share ----------------------------------------------------------
# Released versions are built from these, so they are append-only as well: a version that wants
# other text gets a new piece (or writes it out), never an edit here.


def _select(columns: tuple[str, ...], source: str) -> str:
    """A version's ``SELECT``: one column a line, then ``source`` (``FROM`` on, ending in a new
    line), laid out as every version's text stands (SQLite keeps the text it was given, and
    ``alembic check`` compares it with these)."""
    return "\nSELECT " + ",\n       ".join(columns) + "\n" + source


_PLAYER = ("p.id AS player_id", "p.name", "p.fide_id", "p.federation")
"""Who a row is: the register's record (``p``)."""

_PLAYER_DETAILS = (*_PLAYER, "p.sex", "p.title", "p.birth_year")
"""Who a ``current_ratings`` row is, with the register's details."""

_ENTRY_OR_LISTED = "CASE WHEN h.id IS NULL THEN {0} ELSE {1} END"
"""A ``current_ratings`` value: the register's entry value ``{0}`` before the player's first
list, else the newest list's ``{1}``."""

_NEWEST_PERIOD_ROWS = """FROM players AS p
LEFT JOIN rating_periods AS lp
       ON lp.start_date = (SELECT max(start_date) FROM rating_periods)
LEFT JOIN rating_history AS h
       ON h.player_id = p.id AND h.period_id = lp.id
WHERE p.merged_into_id IS NULL
"""
"""``current_ratings`` before the time controls: every unmerged player, with his row of the
newest period if he has one."""


def _current_ratings(games: str, next_k: str, flag: tuple[str, ...] = ()) -> str:
    """``current_ratings`` before the time controls (0001, 0002, 0004): the columns ``games``
    and ``next_k`` as each names them, and FIDE's flag from 0004."""
    return _select(
        (
            *_PLAYER_DETAILS,
            _ENTRY_OR_LISTED.format("p.entry_rating", "h.rating_after") + " AS rating",
            _ENTRY_OR_LISTED.format("p.entry_games", "h.total_games") + f" AS {games}",
            next_k,
            _ENTRY_OR_LISTED.format("p.k10", "h.k10") + " AS k10",
            *flag,
            "lp.label AS period",
            "lp.list_date",
        ),
        _NEWEST_PERIOD_ROWS,
    )


_HISTORY_ROWS = """FROM rating_history AS h
JOIN rating_periods AS rp ON rp.id = h.period_id
JOIN players AS p ON p.id = h.player_id
"""
"""``rating_lists``: every row of every published list, with its period and player."""

_LIST_AUDIT = (
    "h.k_used",
    "h.period_games",
    "h.total_games",
    "CAST(h.score_half_points AS DOUBLE PRECISION) / 2 AS score",
    "CAST(h.pd_sum_units AS DOUBLE PRECISION) / h.units_per_point AS pd_sum",
    "h.next_k",
    "h.k10",
    "h.list_status",
)
"""``rating_lists``' columns after the change from 0002 on (the exact audit columns)."""


def _rating_lists(time_control: tuple[str, ...], rest: tuple[str, ...]) -> str:
    """``rating_lists``: the period, the list's ``time_control`` (from 0006), the player, his
    rating before and after, then the ``rest`` of the version's columns."""
    return _select(
        (
            "rp.label AS period",
            "rp.list_date",
            *time_control,
            *_PLAYER,
            "h.rating_before",
            "h.rating_after AS rating",
            "h.change",
            *rest,
        ),
        _HISTORY_ROWS,
    )


def _rating_calculations(time_control: tuple[str, ...]) -> str:
    """``rating_calculations``: every game from each player's side, with the list's
    ``time_control`` after the period from 0006."""
    return _select(
        (
            "rp.label AS period",
            *time_control,
            "b.player_id",
            "p.name",
            "b.game_id",
            "g.played_on",
            "e.name AS event",
            "b.opponent_id",
            "o.name AS opponent",
            "b.own_rating",
            "b.opponent_rating",
            "b.difference",
            "CAST(b.score_half_points AS DOUBLE PRECISION) / 2 AS score",
            "CAST(b.pd_units AS DOUBLE PRECISION) / b.units_per_point AS pd",
            "CAST(b.dr_units AS DOUBLE PRECISION) / b.units_per_point AS dr",
            "b.k_used",
            "CAST(b.dr_units AS DOUBLE PRECISION) * b.k_used / b.units_per_point AS k_dr",
            "b.counts_for",
        ),
        """FROM rating_breakdown AS b
JOIN rating_periods AS rp ON rp.id = b.period_id
JOIN games AS g ON g.id = b.game_id
JOIN events AS e ON e.id = g.event_id
JOIN players AS p ON p.id = b.player_id
JOIN players AS o ON o.id = b.opponent_id
""",
    )


# --- revision 0001 (initial schema) ---------------------------------------------------------

CURRENT_RATINGS_0001 = View(
    "current_ratings",
    _current_ratings("games", "h.next_k AS k"),
    (
        "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year", "rating",
        "games", "k", "k10", "period", "list_date",
    ),
)  # fmt: skip

RATING_LISTS_0001 = View(
    "rating_lists",
    _rating_lists((), ("h.games", "h.total_games", "h.k", "h.next_k", "h.k10", "h.state")),
    (
        "period", "list_date", "player_id", "name", "fide_id", "federation", "rating_before",
        "rating", "change", "games", "total_games", "k", "next_k", "k10", "state",
    ),
)  # fmt: skip

# --- revision 0002 (exact audit columns, names a SQL user cannot misread) -------------------

CURRENT_RATINGS_0002 = View(
    "current_ratings",
    _current_ratings("total_games", "h.next_k"),
    (
        "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year", "rating",
        "total_games", "next_k", "k10", "period", "list_date",
    ),
)  # fmt: skip
"""The newest list, one row per player (merged records left out); before any period is
rated, the register's entry ratings."""

RATING_LISTS_0002 = View(
    "rating_lists",
    _rating_lists((), _LIST_AUDIT),
    (
        "period", "list_date", "player_id", "name", "fide_id", "federation", "rating_before",
        "rating", "change", "k_used", "period_games", "total_games", "score", "pd_sum", "next_k",
        "k10", "list_status",
    ),
)  # fmt: skip
"""Every published list, one row per player and period."""

RATING_CALCULATIONS_0002 = View(
    "rating_calculations",
    _rating_calculations(()),
    (
        "period", "player_id", "name", "game_id", "played_on", "event", "opponent_id",
        "opponent", "own_rating", "opponent_rating", "difference", "score", "pd", "dr",
        "k_used", "k_dr", "counts_for",
    ),
)  # fmt: skip
"""Every game from each player's side, as FIDE's calculation pages print it: the ratings
used, D, S, PD, dR, K and K x dR as decimals (``ratings card``)."""

# --- revision 0004 (the inactive flag) -------------------------------------------------------

_FLAG = """CASE WHEN p.sex = 'f' AND h.inactive THEN 'wi'
            WHEN p.sex = 'f' THEN 'w'
            WHEN h.inactive THEN 'i' END AS flag"""
"""FIDE's flag column: ``w`` a woman, ``i`` inactive (no rated game in the 12 months up to
the list), ``wi`` both; NULL for none."""

CURRENT_RATINGS_0004 = View(
    "current_ratings",
    _current_ratings("total_games", "h.next_k", (_FLAG,)),
    (
        "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year", "rating",
        "total_games", "next_k", "k10", "flag", "period", "list_date",
    ),
)  # fmt: skip
"""The newest list, one row per player (merged records left out), with FIDE's flag; before
any period is rated, the register's entry ratings (``total_games`` NULL: unknown)."""

RATING_LISTS_0004 = View(
    "rating_lists",
    _rating_lists((), (*_LIST_AUDIT, _FLAG)),
    (
        "period", "list_date", "player_id", "name", "fide_id", "federation", "rating_before",
        "rating", "change", "k_used", "period_games", "total_games", "score", "pd_sum", "next_k",
        "k10", "list_status", "flag",
    ),
)  # fmt: skip
"""Every published list, one row per player and period, with FIDE's flag."""

# --- revision 0006 (rapid and blitz, one list per time control) -----------------------------

_ENTRY = """CASE tc.time_control WHEN 'rapid' THEN p.rapid_{0}
                            WHEN 'blitz' THEN p.blitz_{0} ELSE p.{0} END"""
"""A player's entry value (rating, games, k10) of the list ``tc.time_control``."""

_NEWEST_OF = """(SELECT max(rp.start_date) FROM rating_periods AS rp
        WHERE EXISTS (SELECT 1 FROM rating_history AS x
                      WHERE x.period_id = rp.id AND x.time_control = '{0}'))"""
"""The first day of the newest period that published the list ``{0}``."""

CURRENT_RATINGS_0006 = View(
    "current_ratings",
    _select(
        (
            *_PLAYER_DETAILS,
            _ENTRY_OR_LISTED.format(_ENTRY.format("entry_rating"), "h.rating_after")
            + "\n           AS rating",
            _ENTRY_OR_LISTED.format(_ENTRY.format("entry_games"), "h.total_games")
            + "\n           AS total_games",
            "h.next_k",
            _ENTRY_OR_LISTED.format(_ENTRY.format("k10"), "h.k10") + " AS k10",
            _FLAG,
            "lp.label AS period",
            "lp.list_date",
            "tc.time_control",
        ),
        f"""FROM players AS p
CROSS JOIN (SELECT 'standard' AS time_control,
                   (SELECT max(start_date) FROM rating_periods) AS start_date
            UNION ALL SELECT 'rapid', {_NEWEST_OF.format("rapid")}
            UNION ALL SELECT 'blitz', {_NEWEST_OF.format("blitz")}) AS tc
LEFT JOIN rating_periods AS lp
       ON lp.start_date = tc.start_date
LEFT JOIN rating_history AS h
       ON h.player_id = p.id AND h.period_id = lp.id AND h.time_control = tc.time_control
WHERE p.merged_into_id IS NULL
  AND (tc.time_control = 'standard' OR h.id IS NOT NULL
       OR {_ENTRY.format("entry_rating")} IS NOT NULL)
""",
    ),
    (
        "player_id", "name", "fide_id", "federation", "sex", "title", "birth_year", "rating",
        "total_games", "next_k", "k10", "flag", "period", "list_date", "time_control",
    ),
)  # fmt: skip
"""The newest list of each time control, one row per player and list (merged records left
out), with FIDE's flag: every player on the standard list; on the rapid and blitz lists the
players of the newest list published, or with an entry rating there. Before a list is
published, the register's entry values (``total_games`` NULL: unknown)."""

RATING_LISTS_0006 = View(
    "rating_lists",
    _rating_lists(("h.time_control",), (*_LIST_AUDIT, _FLAG)),
    (
        "period", "list_date", "time_control", "player_id", "name", "fide_id", "federation",
        "rating_before", "rating", "change", "k_used", "period_games", "total_games", "score",
        "pd_sum", "next_k", "k10", "list_status", "flag",
    ),
)  # fmt: skip
"""Every published list, one row per player, period and time control, with FIDE's flag."""

RATING_CALCULATIONS_0006 = View(
    "rating_calculations",
    _rating_calculations(("e.time_control",)),
    (
        "period", "time_control", "player_id", "name", "game_id", "played_on", "event",
        "opponent_id", "opponent", "own_rating", "opponent_rating", "difference", "score", "pd",
        "dr", "k_used", "k_dr", "counts_for",
    ),
)  # fmt: skip
"""Every game from each player's side, as ``RATING_CALCULATIONS_0002``, with the list the
game's event is rated on (``events.time_control``)."""

# --- revision 0007 (the current lists read through the period's index) ---------------------

_NEWEST_PERIOD = {
    "standard": "(SELECT id FROM rating_periods ORDER BY start_date DESC LIMIT 1)",
    **{
        name: f"""(SELECT rp.id FROM rating_periods AS rp
                WHERE EXISTS (SELECT 1 FROM rating_history AS x
                              WHERE x.period_id = rp.id AND x.time_control = '{name}')
                ORDER BY rp.start_date DESC LIMIT 1)"""
        for name in ("rapid", "blitz")
    },
}
"""The id of the newest period that published each list (standard: the newest period)."""

_PREFIX = {"standard": "", "rapid": "rapid_", "blitz": "blitz_"}


def _current_list(name: str) -> str:
    """``current_ratings``' rows of the list ``name``: every player's row in the newest period
    that published it (the period's id a constant of the query: read through the index of
    ``(period_id, time_control, player_id)``), or his entry values."""
    entry = _PREFIX[name]
    newest = _NEWEST_PERIOD[name]
    shown = "" if name == "standard" else (
        f"\n  AND (h.id IS NOT NULL OR p.{entry}entry_rating IS NOT NULL)"
    )  # fmt: skip
    return _select(
        (
            *_PLAYER_DETAILS,
            _ENTRY_OR_LISTED.format(f"p.{entry}entry_rating", "h.rating_after") + " AS rating",
            _ENTRY_OR_LISTED.format(f"p.{entry}entry_games", "h.total_games") + " AS total_games",
            "h.next_k",
            _ENTRY_OR_LISTED.format(f"p.{entry}k10", "h.k10") + " AS k10",
            _FLAG,
            "lp.label AS period",
            "lp.list_date",
            f"'{name}' AS time_control",
        ),
        f"""FROM players AS p
LEFT JOIN rating_periods AS lp
       ON lp.id = {newest}
LEFT JOIN rating_history AS h
       ON h.player_id = p.id AND h.time_control = '{name}'
      AND h.period_id = {newest}
WHERE p.merged_into_id IS NULL{shown}""",
    ).lstrip("\n")


CURRENT_RATINGS_0007 = View(
    "current_ratings",
    "\nUNION ALL\n".join(_current_list(name) for name in ("standard", "rapid", "blitz")),
    CURRENT_RATINGS_0006.columns,
)
"""``CURRENT_RATINGS_0006``'s rows, one ``SELECT`` a list: the newest period's id is given to
the list rows' join, so that the period's rows are read through their index (0006 joined
every player, list and period, and PostgreSQL read the whole table: 3.5-3.8 s for the top of
the list at 600,000 players and 15 periods, bench/RESULTS.md)."""

VIEWS: tuple[View, ...] = (CURRENT_RATINGS_0007, RATING_LISTS_0006, RATING_CALCULATIONS_0006)
"""The views at head, in creation order."""


def view_names() -> tuple[str, ...]:
    """The names of the views at head."""
    return tuple(v.name for v in VIEWS)
