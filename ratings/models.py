"""ORM models. The schema is part of the product: administrators read it with plain SQL.

Tables: ``settings``, ``players``, ``imports``, ``events``, ``games``, ``byes``,
``rating_periods``, ``rating_history``, ``rating_breakdown``, ``superseded_ratings``,
``corrections`` (the append-only log of every correction), ``merge_moves``,
``player_aliases``, ``list_seals`` (the append-only chain of sealed lists); the views
(``current_ratings``, ``rating_lists``, ``rating_calculations``) are in :mod:`ratings.views`.
Logic lives in ``rules`` and ``service``.

The audit is exact in SQL: scores are integer half points, PD and dR integers in
1/``units_per_point`` (100 for table 8.1.2, 10^9 for the curve), so that ``SUM`` and the
rounding of K x sum(dR) reproduce every published change (README, "SQL cookbook").

Over 600 lines: every table of the schema in one place; a quarter is column docs.

No ``from __future__ import annotations`` here: with it, SQLAlchemy evaluates each
``Mapped[...]`` annotation from its string when the classes are declared, 335 ``eval`` calls that
cost every command about a thirtieth of the ORM's own import (bench/RESULTS.md).
"""

import datetime as dt
from typing import NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine.interfaces import ExecutionContext
from sqlalchemy.orm import InstrumentedAttribute, Mapped, mapped_column

from ratings.db import Base, bool_false, int_pk
from ratings.limits import MAX_NAME_KEY_LENGTH
from ratings.names import key_of_stored
from ratings.rating_lists import LIST_FIELDS, PLAYER_FIELDS
from ratings.results import Result

TIME_CONTROL_CHECK = "time_control IN ('standard', 'rapid', 'blitz')"
"""The three FIDE lists (:class:`ratings.rules.TimeControl`'s values)."""

NORM_EXEMPTIONS = (
    "national_championship",
    "national_team_championship",
    "zonal",
    "qualifying_swiss",
)
"""``events.norm_exemption``'s values (:class:`ratings.rules.norms.NormExemption`'s): the
exemptions of FIDE Title Regulations 1.4.3a-d."""

__all__ = [
    "NORM_EXEMPTIONS",
    "SEAL_KINDS",
    "SUPERSEDED_KINDS",
    "TIME_CONTROL_CHECK",
    "Base",
    "Bye",
    "Correction",
    "Event",
    "Game",
    "Import",
    "ListSeal",
    "MergeMove",
    "Player",
    "PlayerAlias",
    "RatingBreakdown",
    "RatingHistory",
    "RatingPeriod",
    "Result",
    "Settings",
    "SupersededRating",
]


class Settings(Base):
    """The database's rating system and its overrides: one row, made by ``ratings init``;
    ``ratings settings KEY VALUE`` changes a setting (logged, the periods it touches marked)."""

    __tablename__ = "settings"
    __table_args__ = (
        sa.CheckConstraint("id = 1", name="single_row"),
        sa.CheckConstraint("system IN ('fide', 'club', 'elo')", name="system"),
        sa.CheckConstraint("expected_method IN ('table', 'curve')", name="expected_method"),
        sa.CheckConstraint("period_months IN (1, 2, 3, 4, 6, 12)", name="period_months"),
        sa.CheckConstraint("k_factor IS NULL OR k_factor BETWEEN 1 AND 100", name="k_factor"),
        sa.CheckConstraint("closing_days BETWEEN 0 AND 27", name="closing_days"),
    )

    id: Mapped[int_pk]
    system: Mapped[str] = mapped_column(sa.String(8))
    k_factor: Mapped[int | None]
    """A fixed K for everyone; NULL means FIDE's K rules (art. 8.3.3)."""
    start_rating: Mapped[int | None]
    """Rating given to newcomers (club, elo); NULL means FIDE initial ratings (art. 8.2)."""
    expected_method: Mapped[str] = mapped_column(sa.String(8))
    period_months: Mapped[int]
    closing_days: Mapped[int] = mapped_column(server_default=sa.text("0"))
    """A list closes this many days before its date (art. 7.1.3): an event ending later is
    rated on the next list. ``ratings init`` gives fide 3, club and elo 0 (by end date)."""

    def __repr__(self) -> str:
        return f"Settings(system={self.system!r}, period_months={self.period_months})"


def _name_key_default(context: ExecutionContext) -> str:
    """``players.name_key`` of an INSERT that gives only the name (ORM and Core inserts)."""
    return key_of_stored(context.get_current_parameters()["name"])  # type: ignore[attr-defined]  # DefaultExecutionContext's method, not on the interface


class Player(Base):
    """A registered player. ``entry_rating`` counts as a published rating
    (docs/RULES.md#k-factor-art-833).

    ``name_key`` is the name's matching key (:func:`ratings.names.name_key`: NFC, case-folded,
    blanks collapsed): every lookup by name compares keys. It is not unique: two people of
    one name may be registered when told apart by FIDE id or birthdate (``--allow-same-name``).
    """

    __tablename__ = "players"
    __table_args__ = (
        sa.CheckConstraint("length(trim(name)) > 0", name="name_not_blank"),
        sa.CheckConstraint("sex IS NULL OR sex IN ('m', 'f')", name="sex"),
        sa.CheckConstraint("fide_id IS NULL OR fide_id > 0", name="fide_id_positive"),
        sa.CheckConstraint(
            "entry_rating IS NULL OR entry_rating BETWEEN 0 AND 3500", name="entry_rating_range"
        ),
        sa.CheckConstraint("entry_games >= 0", name="entry_games_not_negative"),
        sa.CheckConstraint("fide_k IS NULL OR fide_k BETWEEN 1 AND 100", name="fide_k"),
        sa.CheckConstraint("fide_k IS NULL OR fide_k_list IS NOT NULL", name="fide_k_list"),
        sa.CheckConstraint(
            "birth_year IS NULL OR birth_year BETWEEN 1850 AND 2200", name="birth_year_range"
        ),
        *(
            check
            for tc in ("rapid", "blitz")
            for check in (
                sa.CheckConstraint(
                    f"{tc}_entry_rating IS NULL OR {tc}_entry_rating BETWEEN 0 AND 3500",
                    name=f"{tc}_entry_rating_range",
                ),
                sa.CheckConstraint(f"{tc}_entry_games >= 0", name=f"{tc}_entry_games_not_negative"),
                sa.CheckConstraint(
                    f"{tc}_fide_k IS NULL OR {tc}_fide_k BETWEEN 1 AND 100", name=f"{tc}_fide_k"
                ),
                sa.CheckConstraint(
                    f"{tc}_fide_k IS NULL OR fide_k_list IS NOT NULL", name=f"{tc}_fide_k_list"
                ),
            )
        ),
        {"sqlite_autoincrement": True},  # ids are shown to users: never reuse one
    )

    id: Mapped[int_pk]
    name: Mapped[str] = mapped_column(sa.String(200), index=True)
    name_key: Mapped[str] = mapped_column(
        sa.String(MAX_NAME_KEY_LENGTH), index=True, default=_name_key_default
    )
    """The matching key of ``name``; set from the name on insert, by the service on a rename."""
    fide_id: Mapped[int | None] = mapped_column(sa.BigInteger, unique=True)
    birth_date: Mapped[dt.date | None]
    """Full birth date when known; ``birth_year`` is always filled when this is."""
    birth_year: Mapped[int | None]
    """The year of birth: all that FIDE's junior rule (art. 8.3.3) needs."""
    sex: Mapped[str | None] = mapped_column(sa.String(1))
    federation: Mapped[str | None] = mapped_column(sa.String(3))
    title: Mapped[str | None] = mapped_column(sa.String(3))
    k10: Mapped[bool_false]
    """The permanent K=10 flag set by hand (a player who reached 2400 elsewhere)."""
    entry_rating: Mapped[int | None]
    """The published rating the player brought when registered; NULL = unrated."""
    entry_games: Mapped[int | None]
    """Rated games completed before registration (towards the 30 of the K rule); NULL when
    unknown, never 0 (a rated player's K then follows ``ratings.rules.standing_k``)."""
    fide_k: Mapped[int | None]
    """The K FIDE published for the player on the list of ``fide_k_list`` (``ratings import
    fide-list``): authoritative for the period that list starts (art. 8.3.3)."""
    fide_k_list: Mapped[dt.date | None]
    """The date (first day of the month) of the FIDE list ``fide_k`` (and ``rapid_fide_k``,
    ``blitz_fide_k``) came from."""
    rapid_entry_rating: Mapped[int | None]
    """``entry_rating`` of the rapid list (NULL = unrated in rapid)."""
    rapid_entry_games: Mapped[int | None]
    """``entry_games`` of the rapid list (NULL = unknown)."""
    rapid_k10: Mapped[bool_false]
    """``k10`` of the rapid list."""
    rapid_fide_k: Mapped[int | None]
    """``fide_k`` of the rapid list (from the FIDE list of ``fide_k_list``)."""
    blitz_entry_rating: Mapped[int | None]
    """``entry_rating`` of the blitz list (NULL = unrated in blitz)."""
    blitz_entry_games: Mapped[int | None]
    """``entry_games`` of the blitz list (NULL = unknown)."""
    blitz_k10: Mapped[bool_false]
    """``k10`` of the blitz list."""
    blitz_fide_k: Mapped[int | None]
    """``fide_k`` of the blitz list (from the FIDE list of ``fide_k_list``)."""
    merged_into_id: Mapped[int | None] = mapped_column(sa.ForeignKey("players.id"))
    """Set when this record was merged into another one (kept for the audit trail)."""
    import_id: Mapped[int | None] = mapped_column(index=True)
    """The import that registered the player (``imports.id``), which ``ratings import undo``
    may remove with it; NULL for a player added by hand or registered before revision 0005.
    No foreign key: the id stays after an undo that had to keep the player."""
    fide_inactive_list: Mapped[dt.date | None]
    """The date of the first imported FIDE list that flagged the player inactive (its ``i``
    flag, art. 7.2.2; ``ratings import fide-list``): the standard lists here show him
    inactive from the list of that date until his next rated game here. NULL: no FIDE list
    imported flagged him (revision 0009)."""
    listed_from: Mapped[dt.date | None] = mapped_column(index=True)
    """The first day of the first rating period whose list shows the player without a game:
    the period after the newest rated one when the player was registered (a published list
    does not gain the players registered after it; docs/DESIGN.md#who-is-on-a-list). A game
    in an earlier period lists the player from that period. NULL: on every list (registered
    before any period was rated; revision 0012)."""

    def __repr__(self) -> str:
        return f"Player(id={self.id!r}, name={self.name!r})"


class EntryColumns(NamedTuple):
    """A list's entry columns of ``players`` (:data:`ENTRY_COLUMNS`)."""

    rating: InstrumentedAttribute[int | None]
    games: InstrumentedAttribute[int | None]
    k10: InstrumentedAttribute[bool]
    fide_k: InstrumentedAttribute[int | None]


ENTRY_COLUMNS = {
    "standard": EntryColumns(Player.entry_rating, Player.entry_games, Player.k10, Player.fide_k),
    "rapid": EntryColumns(
        Player.rapid_entry_rating, Player.rapid_entry_games, Player.rapid_k10, Player.rapid_fide_k
    ),
    "blitz": EntryColumns(
        Player.blitz_entry_rating, Player.blitz_entry_games, Player.blitz_k10, Player.blitz_fide_k
    ),
}
"""Each list's entry rating, entry games, K=10 flag and FIDE K columns of ``players`` (every
FIDE K is dated by ``fide_k_list``)."""

PLAYER_COLUMNS = tuple(getattr(Player, name) for name in PLAYER_FIELDS)
"""The columns of ``players`` a rating list (``ratings list``) and the website show for each
player, in this order (named once, in :data:`ratings.rating_lists.PLAYER_FIELDS`)."""


IMPORTS_IN_FORCE = "undone_by IS NULL"
"""The imports a file's hash must be unique among: an undone file may be imported again."""


class Import(Base):
    """One imported file, identified by the hash of its bytes (re-imports are refused)."""

    __tablename__ = "imports"
    __table_args__ = (
        sa.CheckConstraint(
            "kind IN ('players_csv', 'games_csv', 'trf', 'pgn', 'fide_list')", name="kind"
        ),
        sa.Index(
            "ix_imports_content_hash",
            "content_hash",
            unique=True,
            sqlite_where=sa.text(IMPORTS_IN_FORCE),
            # the PostgreSQL half: declare_postgresql_options()
        ),
    )

    id: Mapped[int_pk]
    kind: Mapped[str] = mapped_column(sa.String(16))
    file_name: Mapped[str] = mapped_column(sa.String(500))
    content_hash: Mapped[str] = mapped_column(sa.String(64))
    """SHA-256 of the file's bytes, hex: unique among the imports in force (an undone file
    may be imported again)."""
    imported_at: Mapped[dt.datetime]
    """UTC, naive."""
    rows: Mapped[int]
    undone_by: Mapped[int | None]
    """The correction that undid the import (``corrections.batch``, ``ratings import undo``;
    what it removed is in the log under that batch); NULL while it is in force. No foreign
    key: a batch is several lines (revision 0012)."""

    def __repr__(self) -> str:
        return f"Import(id={self.id!r}, file_name={self.file_name!r})"


class Event(Base):
    """A tournament or match. Its games use the list in force at ``start_date`` and are rated
    in the period that holds ``end_date`` (docs/RULES.md#which-period-rates-an-event-art-713)."""

    __tablename__ = "events"
    __table_args__ = (
        sa.CheckConstraint("end_date >= start_date", name="dates_in_order"),
        sa.CheckConstraint("source IN ('manual', 'csv', 'trf', 'pgn')", name="source"),
        sa.CheckConstraint(TIME_CONTROL_CHECK, name="time_control"),
        sa.CheckConstraint(
            "norm_exemption IS NULL OR norm_exemption IN ("
            + ", ".join(f"'{e}'" for e in NORM_EXEMPTIONS)
            + ")",
            name="norm_exemption",
        ),
    )

    id: Mapped[int_pk]
    name: Mapped[str] = mapped_column(sa.String(200))
    start_date: Mapped[dt.date] = mapped_column(index=True)
    end_date: Mapped[dt.date] = mapped_column(index=True)
    source: Mapped[str] = mapped_column(sa.String(8))
    import_id: Mapped[int | None] = mapped_column(sa.ForeignKey("imports.id"), index=True)
    rating_period: Mapped[dt.date | None] = mapped_column(index=True)
    """First day of the period whose list rates the event, when it was submitted for a later
    list than its end date gives (never an earlier one); NULL: the period of the end date,
    after the closing date (art. 7.1.3). Its games still use the list in force at
    ``start_date``."""
    time_control: Mapped[str] = mapped_column(sa.String(8), server_default="standard")
    """standard | rapid | blitz: the FIDE list that rates the event's games."""
    norm_exemption: Mapped[str | None] = mapped_column(sa.String(32))
    """The event's exemption from the foreign-opponent rules of a title norm (FIDE Title
    Regulations 1.4.3a-d): national_championship | national_team_championship | zonal |
    qualifying_swiss; NULL for none (docs/TITLES.md). ``ratings event edit
    --norm-exemption`` sets it; it changes no rating."""
    tiebreaks: Mapped[str | None] = mapped_column(sa.String(200))
    """The tie-breaks its file says the event used, in order, comma-separated (FIDE's
    acronyms, TRF-2026 record 202: ``BH-C1,BH,SB``); NULL: FIDE's recommended sequence for
    its system (docs/RULES.md#tie-breaks-of-the-crosstables). It ranks the crosstable only;
    it changes no rating (revision 0018)."""

    def __repr__(self) -> str:
        return f"Event(id={self.id!r}, name={self.name!r})"


class Game(Base):
    """One game. Forfeits are stored but never rated; ``rateable`` false marks a game that was
    not played out (e.g. under one move)."""

    __tablename__ = "games"
    __table_args__ = (
        sa.CheckConstraint("white_id <> black_id", name="not_against_self"),
        sa.CheckConstraint(
            "NOT rateable OR result IN ('1-0', '0-1', '1/2-1/2')", name="rateable_only_if_played"
        ),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int_pk]
    event_id: Mapped[int] = mapped_column(sa.ForeignKey("events.id"), index=True)
    round: Mapped[str | None] = mapped_column(sa.String(20))
    played_on: Mapped[dt.date]
    white_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)
    black_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)
    result: Mapped[Result]
    rateable: Mapped[bool] = mapped_column(server_default=sa.true())
    """Played out and not excluded: the game goes to rating (whether it changes anyone's
    rating depends on the players' lists, docs/RULES.md#what-is-rated)."""
    import_id: Mapped[int | None]
    """The import that stored the game (``imports.id``); NULL for a game added by hand
    (``game add``), also into an imported event, which ``ratings import undo`` names as not
    in the file. No foreign key, no index (revision 0012)."""

    def __repr__(self) -> str:
        return f"Game(id={self.id!r}, result={self.result.value!r})"


class Bye(Base):
    """A round in which a player had no opponent (TRF codes H F U Z, or + / - without an
    opponent; ``?`` where the file left the code blank). Stored, never rated."""

    __tablename__ = "byes"
    __table_args__ = (
        sa.CheckConstraint("code IN ('H', 'F', 'U', 'Z', '+', '-', '?')", name="code"),
    )

    id: Mapped[int_pk]
    event_id: Mapped[int] = mapped_column(sa.ForeignKey("events.id"), index=True)
    round: Mapped[str] = mapped_column(sa.String(20))
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)
    code: Mapped[str] = mapped_column(sa.String(1))

    def __repr__(self) -> str:
        return f"Bye(event_id={self.event_id!r}, player_id={self.player_id!r})"


class RatingPeriod(Base):
    """A rated period, labelled by its first month; it publishes the list dated ``list_date``."""

    __tablename__ = "rating_periods"
    __table_args__ = (
        sa.CheckConstraint("end_date >= start_date", name="dates_in_order"),
        sa.CheckConstraint("status IN ('published', 'needs_rerate')", name="status"),
    )

    id: Mapped[int_pk]
    label: Mapped[str] = mapped_column(sa.String(7), unique=True)
    start_date: Mapped[dt.date] = mapped_column(unique=True)
    end_date: Mapped[dt.date]
    list_date: Mapped[dt.date]
    status: Mapped[str] = mapped_column(sa.String(12))
    """published | needs_rerate (a correction touched it: the next ``rate`` re-rates from here)."""
    rated_at: Mapped[dt.datetime]
    """UTC, naive: when the period was last (re-)rated."""

    def __repr__(self) -> str:
        return f"RatingPeriod(label={self.label!r}, status={self.status!r})"


class RatingHistory(Base):
    """One player's entry on one period's list: every registered player, every rated period."""

    __tablename__ = "rating_history"
    __table_args__ = (
        sa.UniqueConstraint("period_id", "time_control", "player_id"),
        sa.CheckConstraint(TIME_CONTROL_CHECK, name="time_control"),
        sa.CheckConstraint(
            "list_status IN ('listed', 'first_rating', 'unrated', 'below_floor')",
            name="list_status",
        ),
        sa.CheckConstraint("period_games >= 0 AND total_games >= 0", name="games_not_negative"),
        sa.CheckConstraint(
            "score_half_points BETWEEN 0 AND 2 * period_games", name="score_half_points"
        ),
        sa.CheckConstraint("units_per_point IN (100, 1000000000)", name="units_per_point"),
    )

    id: Mapped[int_pk]
    period_id: Mapped[int] = mapped_column(sa.ForeignKey("rating_periods.id"))
    time_control: Mapped[str] = mapped_column(sa.String(8), server_default="standard")
    """standard | rapid | blitz: the list this row is on (each period publishes one list per
    time control that has games or rated players)."""
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)
    rating_before: Mapped[int | None]
    """The rating on the list in force at the period start (NULL = unrated)."""
    rating_after: Mapped[int | None]
    """The rating this period publishes (NULL = unrated)."""
    change: Mapped[int] = mapped_column(server_default=sa.text("0"))
    """Whole points: K x sum of dR over the period, rounded once (art. 8.3.4)."""
    k_used: Mapped[int | None]
    """K used this period (after the 700 rule); NULL when no game changed the rating."""
    period_games: Mapped[int] = mapped_column(server_default=sa.text("0"))
    """Games that counted this period (rated ones, or pooled ones towards a first rating)."""
    total_games: Mapped[int | None]
    """Rated games completed through this period, entry games included; NULL when the
    player's count of games before registration is unknown."""
    score_half_points: Mapped[int] = mapped_column(server_default=sa.text("0"))
    """Sum of S over the period's games, in half points."""
    pd_sum_units: Mapped[int] = mapped_column(sa.BigInteger, server_default=sa.text("0"))
    """Sum of PD over the period's rated games, in 1/``units_per_point``."""
    units_per_point: Mapped[int]
    """100 (PD in hundredths, table 8.1.2) or 1000000000 (the curve, in 10^-9)."""
    k10: Mapped[bool_false]
    """The permanent K=10 flag after this period."""
    reached_2300: Mapped[bool_false]
    """Whether a published rating of this player has ever been >= 2300 (junior K rule)."""
    next_k: Mapped[int | None]
    """The K factor this player gets in the next period (before the 700 rule)."""
    list_status: Mapped[str] = mapped_column(sa.String(12))
    """listed (rated before and after) | first_rating (published for the first time) |
    unrated | below_floor (fell under 1400: shown as unrated)."""
    inactive: Mapped[bool_false]
    """Rated, and no rated game in the 12 months up to this list: FIDE's ``i`` flag."""
    last_active: Mapped[dt.date | None]
    """First day of the last period in which a game of the player counted, or of the first
    period that listed the player: the 12 months of inactivity count from it."""

    def __repr__(self) -> str:
        return f"RatingHistory(period_id={self.period_id!r}, player_id={self.player_id!r})"


LIST_COLUMNS = tuple(getattr(RatingHistory, name) for name in LIST_FIELDS)
"""The columns of a list row that a rating list (``ratings list``) and the website show, in
this order (after :data:`PLAYER_COLUMNS`; named once, in
:data:`ratings.rating_lists.LIST_FIELDS`)."""


class RatingBreakdown(Base):
    """Per game and player: what went into the rating change (FIDE's calculation page).

    ``counts_for`` says what the game counts for: ``change`` (a rated player's game, part of
    K x sum(dR)) or ``first_rating`` (an unrated player's game against a rated opponent, pooled
    towards a first rating; no own rating, D, PD, dR or K).
    """

    __tablename__ = "rating_breakdown"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "player_id"),
        sa.CheckConstraint("counts_for IN ('change', 'first_rating')", name="counts_for"),
        sa.CheckConstraint("score_half_points IN (0, 1, 2)", name="score_half_points"),
        sa.CheckConstraint("units_per_point IN (100, 1000000000)", name="units_per_point"),
        sa.CheckConstraint(
            "(counts_for = 'change' AND own_rating IS NOT NULL AND difference IS NOT NULL"
            " AND k_used IS NOT NULL AND pd_units IS NOT NULL"
            " AND dr_units = score_half_points * (units_per_point / 2) - pd_units)"
            " OR (counts_for = 'first_rating' AND own_rating IS NULL AND difference IS NULL"
            " AND k_used IS NULL AND pd_units IS NULL AND dr_units IS NULL)",
            name="dr_is_score_minus_pd",
        ),
    )

    id: Mapped[int_pk]
    period_id: Mapped[int] = mapped_column(sa.ForeignKey("rating_periods.id"), index=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id"))
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)
    opponent_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"))
    own_rating: Mapped[int | None]
    """NULL for a game that counts towards a first rating (art. 8.2)."""
    opponent_rating: Mapped[int]
    difference: Mapped[int | None]
    """D used: own minus opponent rating, after the 400-point rule (art. 8.3.1)."""
    score_half_points: Mapped[int]
    """S in half points: 2 (win), 1 (draw), 0 (loss)."""
    pd_units: Mapped[int | None]
    """PD (table 8.1.2) or the curve's expectation, in 1/``units_per_point``."""
    dr_units: Mapped[int | None]
    """dR = S - PD, in 1/``units_per_point``."""
    units_per_point: Mapped[int]
    """100 (table 8.1.2: hundredths) or 1000000000 (the curve: 10^-9)."""
    k_used: Mapped[int | None]
    """K used for the period (after the 700 rule)."""
    counts_for: Mapped[str] = mapped_column(sa.String(12))
    """change | first_rating."""

    def __repr__(self) -> str:
        return f"RatingBreakdown(game_id={self.game_id!r}, player_id={self.player_id!r})"


SEAL_KINDS = ("sealed", "withdrawn")
"""What a :class:`ListSeal` records (``list_seals.kind``)."""


class ListSeal(Base):
    """One version of one published list's seal (docs/DESIGN.md#sealed-lists): a SHA-256 over
    the canonical form of the list's rows, the inputs it rated and the seal of the list
    before it (:mod:`ratings.sealing`). Written by ``rate`` (a list rated or rated again
    with another outcome gets a new version) and ``unrate`` (a ``withdrawn`` version);
    never changed or deleted: triggers refuse UPDATE and DELETE (and TRUNCATE on
    PostgreSQL), as on ``corrections``.

    The current version of a list is its highest; a list whose current version is
    ``withdrawn`` is not published. ``period`` is a label, not a foreign key: a seal
    outlives the period row ``unrate`` deletes.
    """

    __tablename__ = "list_seals"
    __table_args__ = (
        sa.UniqueConstraint("period", "time_control", "version"),
        sa.UniqueConstraint("seal"),
        sa.CheckConstraint(TIME_CONTROL_CHECK, name="time_control"),
        sa.CheckConstraint("version >= 1", name="version_positive"),
        sa.CheckConstraint(
            "kind IN (" + ", ".join(f"'{k}'" for k in SEAL_KINDS) + ")", name="kind"
        ),
        sa.CheckConstraint(
            "(kind = 'sealed' AND rows_digest IS NOT NULL AND rows IS NOT NULL "
            "AND inputs_digest IS NOT NULL AND games_digest IS NOT NULL "
            "AND byes_digest IS NOT NULL AND register_digest IS NOT NULL "
            "AND settings_digest IS NOT NULL) OR "
            "(kind = 'withdrawn' AND rows_digest IS NULL AND rows IS NULL "
            "AND inputs_digest IS NULL AND games_digest IS NULL AND byes_digest IS NULL "
            "AND register_digest IS NULL AND settings_digest IS NULL AND previous_seal IS NULL "
            "AND replaces IS NOT NULL)",
            name="values_of_kind",
        ),
        sa.CheckConstraint(
            "(version = 1 AND replaces IS NULL) OR replaces = version - 1", name="replaces"
        ),
        {"sqlite_autoincrement": True},  # the chain's order: ids are never reused
    )

    id: Mapped[int_pk]
    period: Mapped[str] = mapped_column(sa.String(7))
    """The rating period's label, ``YYYY-MM``."""
    list_date: Mapped[dt.date]
    """The date of the list the period published."""
    time_control: Mapped[str] = mapped_column(sa.String(8))
    """standard | rapid | blitz: which list."""
    version: Mapped[int]
    """1 for the list as first sealed; each new version replaces the one before it."""
    kind: Mapped[str] = mapped_column(sa.String(9))
    """sealed (the list as published) | withdrawn (the list no longer published)."""
    seal: Mapped[str] = mapped_column(sa.String(64))
    """SHA-256 (hex) of the seal's canonical text (:func:`ratings.sealing.seal_text`)."""
    previous_seal: Mapped[str | None] = mapped_column(sa.String(64))
    """The seal of the list before it (the same time control, the period before that
    published one) when it was sealed; NULL for the first list, and for a withdrawal."""
    rows_digest: Mapped[str | None] = mapped_column(sa.String(64))
    """SHA-256 of the canonical form of the list's rows (the ``-sealed.csv`` the site
    publishes beside the list)."""
    rows: Mapped[int | None]
    """The rows of the list (its rated players)."""
    inputs_digest: Mapped[str | None] = mapped_column(sa.String(64))
    """SHA-256 of the four digests below, in their canonical text."""
    games_digest: Mapped[str | None] = mapped_column(sa.String(64))
    """SHA-256 of the canonical form of the games the period rated on this list."""
    byes_digest: Mapped[str | None] = mapped_column(sa.String(64))
    """SHA-256 of the canonical form of the byes of those games' events."""
    register_digest: Mapped[str | None] = mapped_column(sa.String(64))
    """SHA-256 of the register fields the rules read, for every player with a row on the
    list, as they stood when it was sealed."""
    settings_digest: Mapped[str | None] = mapped_column(sa.String(64))
    """SHA-256 of the settings in force."""
    replaces: Mapped[int | None]
    """The version this one replaces (``version - 1``); NULL for version 1."""
    reason: Mapped[str | None] = mapped_column(sa.Text)
    """Why this version was made: what changed and the corrections behind it."""
    correction_batch: Mapped[int | None]
    """The newest ``corrections.batch`` logged since the version replaced: the correction
    behind this version (NULL: none was logged)."""
    log_position: Mapped[int]
    """The highest ``corrections.id`` when the list was sealed (0: none): the corrections
    after it are those made since."""
    created: Mapped[dt.datetime]
    """UTC, naive."""

    def __repr__(self) -> str:
        return (
            f"ListSeal(period={self.period!r}, time_control={self.time_control!r}, "
            f"version={self.version!r})"
        )


SUPERSEDED_KINDS = ("changed", "added", "withdrawn")
"""What a :class:`SupersededRating` records (``superseded_ratings.kind``)."""
SUPERSEDED_VALUES_CHECK = (
    "(kind = 'changed' AND old_change IS NOT NULL AND new_change IS NOT NULL) OR "
    "(kind = 'added' AND old_rating IS NULL AND old_change IS NULL "
    "AND old_k_used IS NULL AND new_change IS NOT NULL) OR "
    "(kind = 'withdrawn' AND new_rating IS NULL AND new_change IS NULL "
    "AND old_change IS NOT NULL)"
)
"""Which values a row of each kind has (``ck_superseded_ratings_values_of_kind``)."""


class SupersededRating(Base):
    """A published list row that a re-rate changed, added or withdrew, or that ``ratings
    unrate`` or ``ratings import undo`` withdrew; never deleted
    (docs/DESIGN.md#re-rates-and-superseded-values).

    ``kind``: ``changed`` (old and new values), ``added`` (a row the published list did not
    have: the old values NULL), ``withdrawn`` (a row the list no longer has: the new values
    NULL; ``period_id`` NULL too when ``unrate`` withdrew the whole period).
    """

    __tablename__ = "superseded_ratings"
    __table_args__ = (
        sa.CheckConstraint(TIME_CONTROL_CHECK, name="time_control"),
        sa.CheckConstraint(
            "kind IN (" + ", ".join(f"'{k}'" for k in SUPERSEDED_KINDS) + ")", name="kind"
        ),
        sa.CheckConstraint(SUPERSEDED_VALUES_CHECK, name="values_of_kind"),
    )

    id: Mapped[int_pk]
    period_id: Mapped[int | None] = mapped_column(sa.ForeignKey("rating_periods.id"), index=True)
    """The rated period; NULL once ``ratings unrate`` withdrew it."""
    period: Mapped[str] = mapped_column(sa.String(7))
    """The period's label, ``YYYY-MM`` (kept when the period is withdrawn)."""
    time_control: Mapped[str] = mapped_column(sa.String(8), server_default="standard")
    """standard | rapid | blitz: the list the value was published on."""
    player_id: Mapped[int] = mapped_column(index=True)
    """The player (``players.id``; no foreign key: the row outlives a player ``import undo``
    removed, and ids are never reused)."""
    name: Mapped[str] = mapped_column(sa.String(200))
    """The player's name when the row was superseded."""
    kind: Mapped[str] = mapped_column(sa.String(9), server_default="changed")
    """changed | added | withdrawn (revision 0012)."""
    old_rating: Mapped[int | None]
    new_rating: Mapped[int | None]
    old_change: Mapped[int | None]
    """The published change; NULL for an ``added`` row (none was published)."""
    new_change: Mapped[int | None]
    """The change now; NULL for a ``withdrawn`` row."""
    old_k_used: Mapped[int | None]
    """The K the replaced entry used."""
    superseded_at: Mapped[dt.datetime]
    """UTC, naive."""

    def __repr__(self) -> str:
        return f"SupersededRating(period_id={self.period_id!r}, player_id={self.player_id!r})"


CORRECTION_ACTIONS = (
    "player_edit",
    "player_merge",
    "player_unmerge",
    "game_edit",
    "game_void",
    "event_edit",
    "event_void",
    "import_undo",
    "unrate",
    "settings_edit",
)
"""What a :class:`Correction` records (``corrections.action``); see
``ratings.service.shared.audit``."""


class Correction(Base):
    """One line of the append-only log of corrections: when, which command (``action``),
    what it concerned, which field, the old and the new value, and the ``--reason`` given.

    Written by ``ratings.service.shared.audit.record`` only. Triggers refuse UPDATE and DELETE (and
    TRUNCATE on PostgreSQL), so a line once written stays as it is. The ids of what a line
    concerns are plain integers, not foreign keys: a voided game or event is gone, its line
    stays. Lines written by one command share a ``batch``.
    """

    __tablename__ = "corrections"
    __table_args__ = (
        sa.CheckConstraint(
            "action IN (" + ", ".join(f"'{a}'" for a in CORRECTION_ACTIONS) + ")", name="action"
        ),
        {"sqlite_autoincrement": True},  # the log's ids are never reused
    )

    id: Mapped[int_pk]
    batch: Mapped[int] = mapped_column(index=True)
    """One number per command: the lines one correction wrote."""
    recorded_at: Mapped[dt.datetime]
    """UTC, naive."""
    action: Mapped[str] = mapped_column(sa.String(16))
    """player_edit | player_merge | player_unmerge | game_edit | game_void | event_edit |
    event_void | import_undo | unrate | settings_edit."""
    player_id: Mapped[int | None] = mapped_column(index=True)
    """The player the line concerns (``players.id``), if any."""
    game_id: Mapped[int | None] = mapped_column(index=True)
    """The game (``games.id``; kept after a void), if any."""
    event_id: Mapped[int | None] = mapped_column(index=True)
    """The event (``events.id``; kept after a void), if any."""
    import_id: Mapped[int | None]
    """The import (``imports.id``; kept after an undo), if any."""
    period: Mapped[str | None] = mapped_column(sa.String(7))
    """The rating period (``YYYY-MM``), if any."""
    field: Mapped[str | None] = mapped_column(sa.String(40))
    """The column or property changed (``result``, ``birth_year``, ...); NULL for a whole row."""
    old_value: Mapped[str | None] = mapped_column(sa.Text)
    """The value before, as text (dates ISO, booleans true/false); NULL for none."""
    new_value: Mapped[str | None] = mapped_column(sa.Text)
    """The value after, as text; NULL for none (a voided game, a cleared field)."""
    reason: Mapped[str | None] = mapped_column(sa.Text)
    """The ``--reason`` text given to the command."""

    def __repr__(self) -> str:
        return f"Correction(id={self.id!r}, action={self.action!r}, field={self.field!r})"


class MergeMove(Base):
    """A game side or a bye that ``player merge`` moved from the duplicate to the kept player;
    ``player unmerge`` moves exactly these back. ``batch`` is the merge's batch in
    ``corrections``."""

    __tablename__ = "merge_moves"
    __table_args__ = (
        sa.CheckConstraint("moved IN ('white', 'black', 'bye', 'alias')", name="moved"),
    )

    id: Mapped[int_pk]
    batch: Mapped[int] = mapped_column(index=True)
    """The merge's ``corrections.batch``."""
    moved: Mapped[str] = mapped_column(sa.String(5))
    """white | black (``games.white_id``/``black_id`` of game ``row_id``) | bye (``byes.player_id``
    of bye ``row_id``) | alias (``player_aliases.player_id`` of alias ``row_id``)."""
    row_id: Mapped[int]
    """``games.id``, ``byes.id`` or ``player_aliases.id`` (no foreign key: a game voided or an
    alias removed since leaves its line)."""
    from_player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"))
    """The duplicate (merged away)."""
    to_player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"))
    """The player kept."""

    def __repr__(self) -> str:
        return f"MergeMove(batch={self.batch!r}, moved={self.moved!r}, row_id={self.row_id!r})"


MAX_FOLDED_KEY_LENGTH = 1200
"""``player_aliases.folded_key``: a name folded (:func:`ratings.matching.fold`); a letter may
transliterate to several (a CJK character to a syllable)."""

ALIAS_SOURCES = ("match", "new", "prompt", "hand")
"""How an alias was given (``player_aliases.source``)."""


class PlayerAlias(Base):
    """A spelling that stands for a registered player: a file wrote the name so, and the
    administrator said who it is (an import's ``--match``, ``--match-file``, ``--new`` or prompt
    answer, or ``player alias add``). Every import finds the player by it again
    (:mod:`ratings.matching`, rule 2).

    ``folded_key`` is the spelling folded (:func:`ratings.matching.fold`, its main form) and
    unique: one spelling stands for one player.
    """

    __tablename__ = "player_aliases"
    __table_args__ = (
        sa.CheckConstraint(
            "source IN (" + ", ".join(f"'{s}'" for s in ALIAS_SOURCES) + ")", name="source"
        ),
        sa.CheckConstraint("length(trim(name)) > 0", name="name_not_blank"),
        {"sqlite_autoincrement": True},  # ids are shown to users: never reuse one
    )

    id: Mapped[int_pk]
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("players.id"), index=True)
    """The player the spelling stands for."""
    name: Mapped[str] = mapped_column(sa.String(200))
    """The name as the file (or the administrator) wrote it."""
    folded_key: Mapped[str] = mapped_column(sa.String(MAX_FOLDED_KEY_LENGTH), unique=True)
    """``name`` folded: lower case ASCII words, sorted, one space apart."""
    source: Mapped[str] = mapped_column(sa.String(8))
    """match (``--match``, ``--match-file``) | new (``--new``: the player the import created)
    | prompt (an answer at an import's prompt) | hand (``player alias add``)."""
    import_id: Mapped[int | None] = mapped_column(sa.ForeignKey("imports.id"), index=True)
    """The import that stored it (``ratings import undo`` removes it with the import); NULL
    for ``player alias add``."""
    created_at: Mapped[dt.datetime]
    """UTC, naive."""
    birth_year: Mapped[int | None]
    """With ``fide_id``, ``sex`` and ``federation``: the evidence the alias needs (NULL:
    none). A decision for a spelling that is another live player's own name is kept only
    with the file's values that told the two apart; the alias then finds its player only
    in a file that gives them alike (:mod:`ratings.matching`, rule 2)."""
    fide_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    sex: Mapped[str | None] = mapped_column(sa.String(1))
    federation: Mapped[str | None] = mapped_column(sa.String(3))

    def __repr__(self) -> str:
        return f"PlayerAlias(id={self.id!r}, player_id={self.player_id!r}, name={self.name!r})"


def declare_postgresql_options() -> None:
    """Give PostgreSQL its half of the partial index on ``imports.content_hash``.

    Not a ``postgresql_where=`` keyword in the class body: SQLAlchemy checks a dialect's
    keywords by importing that dialect, so the keyword loaded all of
    ``sqlalchemy.dialects.postgresql`` (its four drivers' modules too) into every command on
    a SQLite file, about a tenth of the ORM's own import (bench/RESULTS.md). The migrations
    environment calls this, so that autogenerate and ``alembic check`` on PostgreSQL see the
    index the migrations create; no other code builds PostgreSQL DDL from the models.
    """
    table = Base.metadata.tables["imports"]
    index = next(i for i in table.indexes if i.name == "ix_imports_content_hash")
    index.dialect_options["postgresql"]["where"] = sa.text(IMPORTS_IN_FORCE)
