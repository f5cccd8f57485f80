"""The period engine: one rating period, from plain records to list rows and breakdown rows
(art. 7.1.4, 8.2, 8.3.1, 8.3.3, 8.3.4; docs/RULES.md and docs/DESIGN.md#the-period-engine).

A small verb set, in the shape of a tournament object that takes players and results and
answers every new rating, but as functions of plain data:

* :func:`lists_needed`: the dates of the lists in force when the period's events started
  (docs/RULES.md#which-ratings-a-game-uses), which the caller must pass to :func:`rate_period`;
* :func:`first_events_needed`: the players whose first event ever the caller must look up
  (for the zero-score rule of art. 8.2);
* :func:`pool_window_start`: the first period whose pooled games still count towards a first
  rating (art. 7.1.4, 26 months);
* :func:`carry_bounds` and :func:`changes_without_games`: which players without a game may
  get a list row that is not the previous one carried (the others need not be passed);
* :func:`rate_game`: one game as a period of its own; :func:`rate_games`: one player's games
  of an event, the opponents not rated (``ratings calc change``);
* :func:`rate_period`: the period itself. It returns the list rows (one per player), the
  breakdown rows (one per game and player that counts) and every player's :class:`Standing`
  on the new list, which is the input of the next period.

Everything is integer arithmetic in the system's exact unit (:attr:`SystemConfig.units_per_point`:
hundredths for table 8.1.2, :data:`CURVE_UNITS` for the curve); each player's change is
K x sum(dR) rounded once, half away from zero (art. 8.3.4). ``ratings.service.rating.rate`` (and its
``rate_*`` modules) loads these records from the database and stores the rows; nothing here
touches a database.

Over 600 lines: the period's records (a quarter is their docstrings) and its steps.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Final, Literal, NamedTuple

from ratings.rules.base import (
    INACTIVE_MONTHS,
    INITIAL_MIN_GAMES,
    INITIAL_POOL_MONTHS,
    JUNIOR_MARK,
    JUNIOR_MAX_AGE,
    K10_MARK,
    NEW_PLAYER_GAMES,
    ExpectedMethod,
    InvalidPeriodError,
    InvalidResultError,
    RulesError,
    _check_count,
    _check_rating,
    divide_half_away,
    points,
)
from ratings.rules.editions import ListRules, RatingAdjustment
from ratings.rules.expected import UNCAPPED, RuleSet, _capped_difference, expected_units_by
from ratings.rules.players import (
    KTable,
    _apply_700_rule,
    drop_zero_first_event,
    flags_after,
    initial_rating,
    standing_k,
)
from ratings.rules.system import Period, SystemConfig, _add_months, system_config
from ratings.rules.time_control import InvalidTimeControlError, TimeControl, time_control
from ratings.rules.variant import RuleVariant

ListStatus = Literal["listed", "first_rating", "unrated", "below_floor"]
"""A player's status on a published list (``rating_history.list_status``)."""
LISTED: Final = "listed"
"""Rated on the list in force at the period start, and on the new list."""
FIRST_RATING: Final = "first_rating"
"""Published for the first time by this period (art. 8.2; club/elo: the first games)."""
UNRATED: Final = "unrated"
"""Not rated on the new list (and not rated before)."""
BELOW_FLOOR: Final = "below_floor"
"""Rated before, but the new rating fell below 1400: shown as unrated (art. 7.1.4)."""

CountsFor = Literal["change", "first_rating"]
"""What a breakdown row counts for (``rating_breakdown.counts_for``)."""
FOR_CHANGE: Final = "change"
"""A rated player's game: part of K x sum(dR) (art. 8.3)."""
FOR_FIRST_RATING: Final = "first_rating"
"""An unrated player's game against a rated opponent, pooled towards a first rating (8.2)."""


class MissingInputError(RulesError):
    """:func:`rate_period` was not given a list or a first event that the period needs."""


# --------------------------------------------------------------------------------------------
# Records in
# --------------------------------------------------------------------------------------------


class GameResult(NamedTuple):
    """One rateable game of the period: played out, not a forfeit (docs/RULES.md#what-is-rated)."""

    game_id: int
    """The game's id (it keys the breakdown rows)."""
    event_id: int
    """Its event (a game without one is an event of its own,
    docs/RULES.md#which-ratings-a-game-uses)."""
    event_start: date
    """The event's start date: it picks the list in force and the rule edition (art. 8.3.1)."""
    white_id: int
    """White's player id."""
    black_id: int
    """Black's player id."""
    white_half_points: int
    """White's score in half points: 2, 1 or 0."""


@dataclass(frozen=True, slots=True)
class PoolGame:
    """An unrated player's earlier game against a rated opponent, pooled towards a first
    rating (art. 7.1.4, 8.2)."""

    period_start: date
    """First day of the period that pooled it (the pool spans 26 months)."""
    event_id: int
    """Its event (a zero score in the player's first event is disregarded)."""
    opponent_rating: int
    """The opponent's rating on the list in force when the event started."""
    half_points: int
    """The player's score in half points: 2, 1 or 0."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's state on the list in force at the start of a period (art. 8.3.3, 7.1.4).

    The flags are implied by the rating: a standing with a published rating of 2400 or more
    has :attr:`k10` set, of 2300 or more :attr:`reached_2300`.
    """

    rating: int | None
    """Published rating on that list, or None if unrated."""
    total_games: int | None
    """Rated games completed before the period (entry games and pooled games included);
    None when unknown (a rated player registered without a count: art. 8.3.3's K then
    follows :func:`ratings.rules.standing_k`)."""
    birth_year: int | None = None
    """Year of birth; None never makes a junior."""
    k10: bool = False
    """Permanent flag: a published rating was ever >= 2400 (or it was set by hand)."""
    reached_2300: bool = False
    """A published rating was ever >= 2300 (ends the junior K)."""
    pool: tuple[PoolGame, ...] = ()
    """An unrated player's pooled games of earlier periods (art. 7.1.4); empty once rated."""
    fide_k: int | None = None
    """The K FIDE published for the player (``ratings import fide-list``), if any."""
    fide_k_list: date | None = None
    """The date of the FIDE list that published :attr:`fide_k`."""
    last_active: date | None = None
    """First day of the last period in which a game of the player counted, or of the first
    period that listed the player (None: not listed yet); 12 months without a game make the
    player inactive (the ``i`` flag)."""
    inactive: bool = False
    """The ``i`` flag on the list in force: it holds, without a game, on the next list."""
    fide_inactive: date | None = None
    """The date of the FIDE list that flagged the player inactive (``players.
    fide_inactive_list``; standard list only): the player turns inactive on the first list
    here dated on or after it, or on his first list here, unless he plays in that period
    (art. 7.2.2), and stays so until a game of his counts."""

    def __post_init__(self) -> None:
        rating = self.rating
        if rating is not None:
            _check_rating(rating)
            # flags_after only when a flag is missing: a rate builds a standing for every
            # registered player (600,000 on the world's register, bench/RESULTS.md)
            if (rating >= K10_MARK and not self.k10) or (
                rating >= JUNIOR_MARK and not self.reached_2300
            ):
                flags = flags_after(self.k10, self.reached_2300, rating)
                object.__setattr__(self, "k10", flags.k10)  # frozen: bypass __setattr__
                object.__setattr__(self, "reached_2300", flags.reached_2300)
        if self.total_games is not None:
            _check_count(self.total_games, "total games")

    @classmethod
    def from_entry(
        cls,
        rating: int | None,
        games: int | None,
        birth_year: int | None,
        k10: bool = False,
        fide_k: int | None = None,
        fide_k_list: date | None = None,
        fide_inactive: date | None = None,
    ) -> Standing:
        """A newly registered player: the entry rating counts as a published rating
        (docs/RULES.md#k-factor-art-833), ``games`` are the rated games completed before
        registration (None: unknown). An unknown count matters only for a rated player: an unrated
        one has completed no rated game that counts (art. 7.1.4: their first rating comes from the
        games pooled here), so their count starts at 0."""
        if games is None and rating is None:
            games = 0
        return cls(
            rating, games, birth_year, k10, fide_k=fide_k, fide_k_list=fide_k_list,
            fide_inactive=fide_inactive,
        )  # fmt: skip


# --------------------------------------------------------------------------------------------
# Records out
# --------------------------------------------------------------------------------------------


class ListEntry(NamedTuple):
    """A player's row on the list a period publishes (``rating_history``, in column order)."""

    player_id: int
    """The player."""
    rating_before: int | None
    """Rating on the list in force at the period start (None: unrated)."""
    rating_after: int | None
    """Rating on the new list (None: unrated)."""
    change: int
    """K x sum(dR), rounded once, half away from zero (art. 8.3.4); whole points."""
    k_used: int | None
    """K used for every game of the period, after the 700 rule; None when none counted."""
    period_games: int
    """Games that counted this period (rated ones, or pooled ones for an unrated player)."""
    total_games: int | None
    """Rated games completed through this period, entry and pooled games included (None:
    unknown, the player's prior count is unknown)."""
    score_half_points: int
    """Sum of S over those games, in half points."""
    pd_sum_units: int
    """Sum of PD over the rated games, in 1 / :attr:`units_per_point`."""
    units_per_point: int
    """The unit of :attr:`pd_sum_units`: 100 (table 8.1.2) or 10^9 (curve)."""
    k10: bool
    """The permanent K = 10 flag after this list."""
    reached_2300: bool
    """Whether a published rating has ever been >= 2300, after this list."""
    next_k: int | None
    """The K the player gets in the next period, before the 700 rule (None: unrated)."""
    list_status: ListStatus
    """listed, first_rating, unrated or below_floor."""
    inactive: bool
    """Rated, and no game counted in the 12 months up to this list: FIDE's ``i`` flag."""
    last_active: date | None
    """First day of the last period with a game that counted, or of the first period that
    listed the player (:attr:`Standing.last_active`)."""


class BreakdownLine(NamedTuple):
    """One game from one player's side, as FIDE's calculation pages print it
    (``rating_breakdown``, in column order)."""

    game_id: int
    """The game."""
    player_id: int
    """The player whose line this is."""
    opponent_id: int
    """The opponent."""
    own_rating: int | None
    """Own rating used (None for a game pooled towards a first rating)."""
    opponent_rating: int
    """Opponent's rating used: the list in force when the event started
    (docs/RULES.md#which-ratings-a-game-uses)."""
    difference: int | None
    """D used, own minus opponent, after the 400-point rule for this player (art. 8.3.1)."""
    score_half_points: int
    """S in half points: 2, 1 or 0."""
    pd_units: int | None
    """PD (table 8.1.2) or the curve's E, in 1 / :attr:`units_per_point`."""
    dr_units: int | None
    """dR = S - PD, in 1 / :attr:`units_per_point`."""
    units_per_point: int
    """100 for the table (hundredths), 10^9 for the curve."""
    k_used: int | None
    """K used, after the 700 rule (None for a pooled game)."""
    counts_for: CountsFor
    """``change`` (a rated player's game) or ``first_rating`` (pooled, art. 8.2)."""

    @property
    def pd(self) -> Decimal | None:
        """PD as an exact decimal."""
        return None if self.pd_units is None else points(self.pd_units, self.units_per_point)

    @property
    def dr(self) -> Decimal | None:
        """dR = S - PD as an exact decimal."""
        return None if self.dr_units is None else points(self.dr_units, self.units_per_point)

    @property
    def k_dr(self) -> Decimal | None:
        """K x dR, unrounded."""
        dr = self.dr
        return None if dr is None or self.k_used is None else self.k_used * dr


@dataclass(frozen=True, slots=True)
class PeriodOutcome:
    """What :func:`rate_period` answers."""

    list_rows: list[ListEntry]
    """One row per player of ``standings``, in that order."""
    breakdown: list[BreakdownLine]
    """One line per game and player that counts, by player (in ``standings`` order), then in
    the order the games were given."""
    standings: dict[int, Standing]
    """Every player's standing on the list this period publishes (the next period's input)."""
    games_counted: int
    """Games that counted for at least one of their players."""


# --------------------------------------------------------------------------------------------
# The verbs
# --------------------------------------------------------------------------------------------


def list_date_for(event_start: date, months: int) -> date:
    """The date of the list in force when an event started: the first day of the period
    holding its start (docs/RULES.md#which-ratings-a-game-uses)."""
    return Period.containing(event_start, months).start


def lists_needed(period: Period, games: Iterable[GameResult]) -> set[date]:
    """The dates of the lists :func:`rate_period` needs besides the one in force at the
    period's start (which the standings hold): those of events that started earlier."""
    starts = {g.event_start for g in games}
    return {list_date_for(day, period.months) for day in starts} - {period.start}


def first_events_needed(
    config: SystemConfig, standings: Mapping[int, Standing], games: Iterable[GameResult]
) -> set[int]:
    """The players whose first event ever :func:`rate_period` may ask for: those unrated at
    the period start who play in it, under a system with first ratings (art. 8.2)."""
    if not config.uses_initial_ratings:
        return set()
    found: set[int] = set()
    for g in games:
        for pid in (g.white_id, g.black_id):
            state = standings.get(pid)
            if state is not None and state.rating is None:
                found.add(pid)
    return found


@functools.lru_cache(maxsize=64)
def pool_window_start(period: Period) -> date:
    """First day of the oldest period whose pooled games still count in ``period``: the pool
    holds the period and those before it within 26 months (art. 7.1.4), e.g. the current
    month and the 25 before it with monthly periods. Remembered: a rate asks it for every
    unrated player with a pool (23,600 of them on the world's register, bench/RESULTS.md),
    each answer 25 steps back."""
    first = period
    for _ in range(max(INITIAL_POOL_MONTHS // period.months, 1) - 1):
        first = first.previous()
    return first.start


@dataclass(frozen=True, slots=True)
class CarryBounds:
    """What, besides a game, can change a player's list row in a period (:func:`carry_bounds`).

    A player with no game that counts in a period gets a row that is a plain carry of the
    previous one (rating before and after = the previous rating after, nothing counted, every
    other value equal) unless :func:`changes_without_games` says otherwise. A rate uses this
    to leave the quiet majority of a large register unread: at FIDE's size, 45,000 of 600,000
    players play in a month (bench/RESULTS.md)."""

    active_from: date
    """A rated player not yet inactive whose last active period started before this day
    turns inactive on the new list (the ``i`` flag)."""
    junior_births: tuple[int, int] | None
    """Birth years (inclusive) whose junior K (art. 8.3.3) may end between the list in force
    and the new list: set only when the two lists are dated in different years."""
    fide_k_from: date
    """A K FIDE published on a list dated on or after this day may start or stop applying
    between the two lists (:func:`ratings.rules.standing_k`)."""
    units_per_point: int
    """The system's unit: a row in another unit is never a plain carry."""
    every_rated: bool = False
    """Every rated player's row may move: FIDE's one-time adjustment changes the new list
    (1 March 2024), or the K of the list in force and of the new list follow different
    editions (the rapid and blitz lists of 1 September and 1 October 2022)."""
    fide_inactive_after: date = date.min
    """With :attr:`fide_inactive_through`: a FIDE list dated after this day and on or before
    that one turns a quiet rated player inactive here (:attr:`Standing.fide_inactive`)."""
    fide_inactive_through: date = date.min
    """See :attr:`fide_inactive_after`: the date of the new list."""


def carry_bounds(
    config: SystemConfig, period: Period, time_control: TimeControl | str = TimeControl.STANDARD
) -> CarryBounds:
    """The bounds of :class:`CarryBounds` for ``period`` on the list of ``time_control``: the
    next K of a quiet player is art. 8.3.3's K on the new list (dated ``period.list_date``)
    where the previous row's was on the list in force (dated ``period.start``), so only the
    year, FIDE's published K and an edition of the K can move it; inactivity counts 12 months
    back from the new list; FIDE's one-time adjustment moves every rating below 2000."""
    before, after = period.start.year, period.list_date.year
    births = None
    if before != after:
        # junior while list year - birth year <= 18: the K of those born in
        # [before - 18, after - 19] ends; one year of margin on each side
        births = (before - JUNIOR_MAX_AGE - 1, after - JUNIOR_MAX_AGE)
    return CarryBounds(
        active_from=_add_months(period.start, period.months - INACTIVE_MONTHS),
        junior_births=births,
        fide_k_from=period.previous().start,  # one list of margin
        units_per_point=config.units_per_point,
        fide_inactive_after=period.start,
        fide_inactive_through=period.list_date,
        every_rated=config.list_adjustment(period, time_control) is not None
        or (
            config.k is None
            and config.list_rules(period.start, time_control).fixed_k
            != config.list_rules(period.list_date, time_control).fixed_k
        ),
    )


CARRIED: Final[Mapping[str, str | int | None]] = {
    "rating_before": "rating_after",
    "change": 0,
    "k_used": None,
    "period_games": 0,
    "score_half_points": 0,
    "pd_sum_units": 0,
}
"""What a carried row is: the row of a player with no game that counted, when nothing else
moves it (:func:`changes_without_games`), is the previous list's row with these fields
replaced - a field's name (the previous row's value of it) or a value - and every other field
equal. The one definition: :func:`carried` and :func:`is_carried` follow it here, and
``ratings.service.rating.write`` builds the SQL that copies such rows from it."""


def carried(previous: ListEntry) -> ListEntry:
    """``previous`` (a player's row on the list in force) carried to the new list
    (:data:`CARRIED`)."""
    values = previous._asdict()
    for field, value in CARRIED.items():
        values[field] = values[value] if isinstance(value, str) else value
    return ListEntry._make(values.values())


def is_carried(row: ListEntry, previous: ListEntry) -> bool:
    """Whether ``row`` is ``carried(previous)``: the same test, by position, for the rate's
    every row (tests/rules/test_quiet_players.py checks the two agree)."""
    return (
        row[5] == 0  # period_games
        and row[1] == row[2] == previous[2]  # rating before and after = old rating after
        and row[3:5] == (0, None)  # change, k_used
        and row[6] == previous[6]  # total_games
        and row[7:9] == (0, 0)  # score, PD
        and row[9:] == previous[9:]  # unit, flags, next K, status, inactive, last active
    )


def changes_without_games(
    bounds: CarryBounds,
    previous: ListEntry,
    birth_year: int | None,
    entry_k10: bool,
    fide_k_list: date | None,
    fide_inactive: date | None = None,
) -> bool:
    """Whether the row of a player with no game this period may differ from a plain carry of
    ``previous`` (the player's row on the list in force). False is a promise, which
    :func:`rate_period` keeps (tests/rules/test_quiet_players.py checks it): the new row is
    the carry.

    ``entry_k10`` is the register's K=10 flag for the list (set by hand, or an entry rating of
    2400 or more); ``birth_year``, ``fide_k_list`` and ``fide_inactive`` (the standard list
    only) are the register's. Each condition has a plain-SQL twin in
    ``ratings.service.rating.state``
    that picks the players a rate loads."""
    rated = previous.rating_after is not None
    if previous.list_status not in (LISTED, UNRATED) or previous.last_active is None:
        return True  # first rated or below the floor: the status changes; first listed now
    if previous.units_per_point != bounds.units_per_point:
        return True
    if rated and bounds.every_rated:
        return True  # an edition or FIDE's one-time adjustment moves every rated row
    if rated and not previous.inactive and previous.last_active < bounds.active_from:
        return True  # turns inactive
    if (
        rated
        and not previous.inactive
        and fide_inactive is not None
        and bounds.fide_inactive_after < fide_inactive <= bounds.fide_inactive_through
    ):
        return True  # FIDE's flag turns the player inactive on this list
    if entry_k10 and not previous.k10:
        return True
    if fide_k_list is not None and fide_k_list >= bounds.fide_k_from:
        return True
    births = bounds.junior_births
    return (
        rated
        and births is not None
        and birth_year is not None
        and births[0] <= birth_year <= births[1]
    )


_new_tuple = tuple.__new__
_NO_FIRST_EVENTS: Mapping[int, int | None] = {}
_NO_LISTS: Mapping[date, Mapping[int, int | None]] = {}
_NO_SEEDS: Mapping[int, int | None] = {}


class _EventLists(NamedTuple):
    """What the games of events that started on one day are rated with (art. 8.3.1; R&B
    art. 7.2.1, 7.3.1): the list in force then, its edition, and the standard list that
    seeds unrated players on the rapid and blitz lists."""

    on_list: Mapping[int, int | None]
    """Player id -> rating on the list in force when the event started (None: unrated)."""
    rule_set: RuleSet
    """The edition in force on the event's start date (the 400-point rule, art. 8.3.1)."""
    excluding: RuleSet | None
    """The edition when it leaves some games unrated (R&B art. 7.3.1), else None."""
    seeds: Mapping[int, int | None]
    """The standard list in force then (rapid and blitz only; empty otherwise)."""


class RatedGame(NamedTuple):
    """One game from the side of a player rated for it: the values of its breakdown line."""

    game_id: int
    """The game."""
    opponent_id: int
    """The opponent."""
    own_rating: int
    """Own rating used: the list in force when the event started (or the period start's)."""
    opponent_rating: int
    """Opponent's rating used."""
    difference: int
    """D used, own minus opponent, after the 400-point rule for this player (art. 8.3.1)."""
    pd_units: int
    """PD (table 8.1.2) or the curve's E, in the system's units."""
    half_points: int
    """S in half points: 2, 1 or 0."""


class PooledGame(NamedTuple):
    """One game of a player unrated on the list in force, against a rated opponent: pooled
    towards a first rating (art. 7.1.4, 8.2)."""

    game_id: int
    """The game."""
    event_id: int
    """Its event (a zero score in the player's first event is disregarded, art. 8.2)."""
    opponent_id: int
    """The opponent."""
    opponent_rating: int
    """Opponent's rating on the list in force when the event started."""
    half_points: int
    """The player's score in half points."""


@dataclass(slots=True)
class _CountedGames:
    """Every player's games that count this period (:func:`_count_games`)."""

    rated: dict[int, list[RatedGame]] = dataclasses.field(default_factory=dict)
    """Player id -> the games that change the player's rating (art. 8.3)."""
    pooled: dict[int, list[PooledGame]] = dataclasses.field(default_factory=dict)
    """Player id -> the games pooled towards the player's first rating (art. 7.1.4)."""
    seeded: dict[int, tuple[date, int]] = dataclasses.field(default_factory=dict)
    """Player id -> (earliest event start, the standard rating played at): R&B art. 7.2.1."""
    counted: int = 0
    """Games that counted for at least one of their players."""


@dataclass(frozen=True, slots=True)
class _PeriodRules:
    """The rules of one period on one list, looked up once (:func:`_period_rules`)."""

    config: SystemConfig
    period: Period
    list_type: TimeControl
    edition: ListRules
    """The edition of art. 7.1.4, 8.2 and the rapid and blitz K for the period (art. 7.2.1)."""
    fixed_k: int | None
    """One K for everybody this period (the system's, or the edition's); None: art. 8.3.3."""
    next_fixed_k: int | None
    """The same for the new list's next K."""
    adjustment: RatingAdjustment | None
    """FIDE's one-time adjustment of the new list (1 March 2024), if any."""
    k_table: KTable
    """The K values of art. 8.3.3 (FIDE's, or a what-if's)."""
    next_k_table: KTable
    """Those of the new list (the next period's: a what-if starts with a period)."""
    variant: RuleVariant | None
    """A what-if's changes to the editions (:mod:`ratings.rules.variant`), if any."""
    active_from: date
    """A rated player with no game counted since before this day is inactive on the new list
    (:data:`INACTIVE_MONTHS` up to it, art. 7.2.2)."""
    pool_from: date
    """The first period start of an unrated player's pool (:func:`pool_window_start`)."""
    start: date
    """The period's first day (``period.start``, looked up once)."""
    list_date: date
    """The new list's date (``period.list_date``, looked up once)."""
    unit: int
    """The system's units per point (``config.units_per_point``, looked up once)."""


def _period_rules(config: SystemConfig, period: Period, list_type: TimeControl) -> _PeriodRules:
    """The rules the period follows: editions by the list in force (its start) and, for the
    next K, by the new list (its date); art. 7.2.2's inactivity window."""
    edition = config.list_rules(period.start, list_type)
    variant = config.variant_for(period.start)
    return _PeriodRules(
        config=config,
        period=period,
        list_type=list_type,
        edition=edition,
        fixed_k=config.k or edition.fixed_k,
        next_fixed_k=config.k or config.list_rules(period.list_date, list_type).fixed_k,
        adjustment=config.list_adjustment(period, list_type),
        k_table=config.k_table(period.start),
        next_k_table=config.k_table(period.list_date),
        variant=variant if variant is not None and variant.changes_editions else None,
        active_from=_add_months(period.start, period.months - INACTIVE_MONTHS),
        pool_from=pool_window_start(period),
        start=period.start,
        list_date=period.list_date,
        unit=config.units_per_point,
    )


def rate_period(
    config: SystemConfig,
    period: Period,
    standings: Mapping[int, Standing],
    games: Iterable[GameResult],
    *,
    lists: Mapping[date, Mapping[int, int | None]] = _NO_LISTS,
    first_events: Mapping[int, int | None] = _NO_FIRST_EVENTS,
    list_type: TimeControl | str = TimeControl.STANDARD,
    seeds: Mapping[date, Mapping[int, int | None]] | None = None,
) -> PeriodOutcome:
    """Rate one period (docs/RULES.md#rating-periods).

    :param config: the database's rating system.
    :param period: the period; its games are those of events that end in it
        (docs/RULES.md#which-period-rates-an-event-art-713).
    :param standings: every registered player's state on the list in force at the period
        start, by player id; the list rows come out in this order. A caller holding the
        previous list may pass only the players with games and those
        :func:`changes_without_games` names: everyone else's row is the previous one carried.
        A game whose player is missing counts for nobody (as with a player merged away), so
        every player of the games must be passed.
    :param games: the period's rateable games.
    :param lists: the lists in force when earlier events started, by list date
        (:func:`lists_needed`), as player id -> rating (None or absent: unrated).
    :param first_events: each player's first event ever, for the players of
        :func:`first_events_needed` (None: no event known).
    :param list_type: the list rated: standard, rapid or blitz. Rapid and blitz take their
        rule editions from :data:`RAPID_BLITZ_RULE_SETS` (R&B art. 7.3.1: the 400-point rule
        for every player; from 1 December 2024 no rating for players 600 or more apart when
        one of them is above 2600). Everything else is standard chess's (7.3.3, 7.3.4).
    :param seeds: rapid and blitz only: the *standard* lists in force when the period's
        events started (the dates of :func:`lists_needed` and the period start), as player id
        -> rating. A player unrated on this list when an event started who has a standard
        rating then plays at it and "is considered to be rated" (R&B art. 7.2.1): no pooling
        towards a first rating; the new rating is that standard rating (of the player's
        earliest event of the period) plus the change, a first rating on this list.

    The steps, each stated once in ``ratings.rules``:

    1. :func:`_count_games`: every game from both sides, at the ratings of the list in force
       when its event started (docs/RULES.md#which-ratings-a-game-uses); D after the
       400-point rule (art. 8.3.1, :func:`~ratings.rules.expected.capped_difference`) and PD
       (table 8.1.2 or the curve, :func:`~ratings.rules.expected.expected_units`); a game
       against an opponent unrated on that list counts for nobody (docs/RULES.md#what-is-rated)
       or is pooled towards an unrated player's first rating (art. 7.1.4);
    2. for each player, one of:

       * :func:`_carried`: no game counted: the row carries, with FIDE's one-time adjustment,
         inactivity (art. 7.2.2) and the next K;
       * :func:`_rated`: a rated player: K (art. 8.3.3, :func:`~ratings.rules.standing_k`),
         the 700 rule (:func:`~ratings.rules.apply_700_rule`), the change K x sum(dR) rounded
         once (art. 8.3.4, :func:`~ratings.rules.divide_half_away`), the floor (art. 7.2.1,
         :meth:`ListRules.keeps`);
       * :func:`_pooled`: an unrated player: the pool of 26 months and the first rating it
         gives (art. 7.1.4, 8.2, :func:`_first_rating`);

    3. the next K of the new list (:func:`next_k`, art. 8.3.3).

    :raises MissingInputError: a needed list, seed list or first event was not given.
    :raises InvalidPeriodError: the period's length is not the system's.
    :raises InvalidTimeControlError: seeds given for the standard list.
    """
    list_type = time_control(list_type)
    if seeds is not None and list_type is TimeControl.STANDARD:
        raise InvalidTimeControlError(
            "standard ratings seed only the rapid and blitz lists (R&B art. 7.2.1)"
        )
    if period.months != config.period_months:
        raise InvalidPeriodError(f"{period.label} is not a {config.period_months}-month period")
    rules = _period_rules(config, period, list_type)
    counted = _count_games(rules, standings, games, lists, seeds)
    rows: list[ListEntry] = []
    breakdown: list[BreakdownLine] = []
    new_standings: dict[int, Standing] = {}
    for pid, state in standings.items():
        rated = counted.rated.get(pid)
        if rated is not None:
            row, state = _rated(rules, pid, state, rated, counted.seeded.get(pid), breakdown)
        elif pid in counted.pooled:
            row, state = _pooled(rules, pid, state, counted.pooled[pid], first_events, breakdown)
        else:
            row, state = _carried(rules, pid, state)
        rows.append(row)
        new_standings[pid] = state
    return PeriodOutcome(rows, breakdown, new_standings, counted.counted)


def _event_lists(
    rules: _PeriodRules,
    game_id: int,
    event_start: date,
    current: Mapping[int, int | None],
    lists: Mapping[date, Mapping[int, int | None]],
    seeds: Mapping[date, Mapping[int, int | None]] | None,
) -> _EventLists:
    """The list in force when an event started, its edition (art. 8.3.1) and, on the rapid
    and blitz lists, the standard list that seeds unrated players (R&B art. 7.2.1)."""
    list_date = list_date_for(event_start, rules.period.months)
    if list_date == rules.period.start:
        on_list = current
    elif list_date in lists:
        on_list = lists[list_date]
    else:
        raise MissingInputError(f"game {game_id}: no list dated {list_date.isoformat()} was given")
    rule_set = rules.config.rule_set(event_start, rules.list_type)
    if rules.variant is not None:
        rule_set = rules.variant.rule_set(rule_set, rules.list_type)
    seed_list: Mapping[int, int | None] = _NO_SEEDS
    if seeds is not None:
        if list_date not in seeds:
            raise MissingInputError(
                f"game {game_id}: no standard list dated {list_date.isoformat()} was "
                "given to seed unrated players (R&B art. 7.2.1)"
            )
        seed_list = seeds[list_date]
    excluding = rule_set if rule_set.not_rated_difference is not None else None
    return _EventLists(on_list, rule_set, excluding, seed_list)


def _count_games(  # noqa: C901 (the per-game loop of a period: every way a game counts, decided in one pass)
    rules: _PeriodRules,
    standings: Mapping[int, Standing],
    games: Iterable[GameResult],
    lists: Mapping[date, Mapping[int, int | None]],
    seeds: Mapping[date, Mapping[int, int | None]] | None,
) -> _CountedGames:
    """Step 1 of :func:`rate_period`: each game from both sides, as it counts (or not)."""
    config = rules.config
    pd_of = expected_units_by(config.expected is ExpectedMethod.CURVE)  # table 8.1.2 or curve
    start_rating = config.start_rating
    pools = config.uses_initial_ratings
    current: dict[int, int | None] = {pid: s.rating for pid, s in standings.items()}
    contexts: dict[date, _EventLists] = {}
    counted = _CountedGames()
    rated, pooled, seeded = counted.rated, counted.pooled, counted.seeded
    games_counted = 0
    for game_id, event_id, event_start, white, black, white_halves in games:
        context = contexts.get(event_start)
        if context is None:
            context = _event_lists(rules, game_id, event_start, current, lists, seeds)
            contexts[event_start] = context
        on_list, rule_set, excluding, seed_list = context
        white_state = standings.get(white)
        black_state = standings.get(black)
        if white_state is None or black_state is None:
            continue  # not in the register (a merged-away record keeps no games): unrated
        if seed_list:
            white_seed = _seed(seed_list, on_list, white, white_state)
            black_seed = _seed(seed_list, on_list, black, black_state)
        else:
            white_seed = black_seed = None
        if excluding is not None:
            # R&B art. 7.3.1 (from 1 Dec 2024), on the ratings of the relevant list
            white_rating = on_list.get(white)
            black_rating = on_list.get(black)
            if white_rating is None:
                white_rating = white_seed
            if black_rating is None:
                black_rating = black_seed
            if (
                white_rating is not None
                and black_rating is not None
                and not excluding.rates(white_rating, black_rating)
            ):
                continue  # not rated, for either player
        used = False
        for pid, opp, state, opp_state, halves, own_seed, opp_seed in (
            (white, black, white_state, black_state, white_halves, white_seed, black_seed),
            (black, white, black_state, white_state, 2 - white_halves, black_seed, white_seed),
        ):
            opp_used = on_list.get(opp)
            if opp_used is None:
                opp_used = opp_seed
            own_now = state.rating
            if own_seed is not None:
                own_now = own_seed
                earliest = seeded.get(pid)
                if earliest is None or event_start < earliest[0]:
                    seeded[pid] = (event_start, own_seed)
            if start_rating is not None:
                # club, elo: newcomers play at the start rating from their first game
                if opp_used is None:
                    opp_used = opp_state.rating if opp_state.rating is not None else start_rating
                if own_now is None:
                    own_now = start_rating
            if opp_used is None:
                continue  # opponent unrated on the event's list (docs/RULES.md#what-is-rated)
            if own_now is None:
                if pools:
                    pooled.setdefault(pid, []).append(
                        _new_tuple(PooledGame, (game_id, event_id, opp, opp_used, halves))
                    )
                    used = True
                continue
            own_used = on_list.get(pid)
            if own_used is None:
                own_used = own_now  # unrated when the event started, rated since
            diff = _capped_difference(own_used, opp_used, rule_set)  # art. 8.3.1
            pd = pd_of(diff)  # table 8.1.2, or the curve (expected_units)
            # named tuples built with tuple.__new__ (as the carried rows): half the cost
            rated.setdefault(pid, []).append(
                _new_tuple(RatedGame, (game_id, opp, own_used, opp_used, diff, pd, halves))
            )
            used = True
        games_counted += used
    counted.counted = games_counted
    return counted


def _seed(
    seed_list: Mapping[int, int | None],
    on_list: Mapping[int, int | None],
    pid: int,
    state: Standing,
) -> int | None:
    """The standard rating a player unrated on this list plays at (R&B art. 7.2.1): only for
    a player unrated both when the event started and at the period start."""
    if state.rating is not None or on_list.get(pid) is not None:
        return None
    return seed_list.get(pid)


def _carried(rules: _PeriodRules, pid: int, state: Standing) -> tuple[ListEntry, Standing]:
    """A player with no game that counted: the row carries over, with FIDE's one-time
    adjustment of the list, inactivity (art. 7.2.2) and the next K (by age, art. 8.3.3)."""
    before = state.rating
    after = before
    adjustment = rules.adjustment
    if before is not None and adjustment is not None and before < adjustment.below:
        after = adjustment.apply(before)  # FIDE's one-time change of the list
        state = dataclasses.replace(state, rating=after)
    last_active = state.last_active
    first_listed = last_active is None
    if last_active is None:  # first listed now: inactivity counts from here
        last_active = rules.start
        state = dataclasses.replace(state, last_active=last_active)
    inactive = before is not None and _inactive(rules, state, last_active, first_listed)
    if inactive != state.inactive:
        state = dataclasses.replace(state, inactive=inactive)
    unit = rules.unit
    k = _next_k(rules, after, state.total_games, state, state.k10, state.reached_2300)
    # most players, most periods: built with tuple.__new__, which skips the named tuple's
    # Python-level __new__ (a third of the cost of 20,000 rows a period)
    row = _new_tuple(ListEntry, (
        pid, before, after, 0, None, 0, state.total_games, 0, 0, unit, state.k10,
        state.reached_2300, k, LISTED if before is not None else UNRATED, inactive, last_active,
    ))  # fmt: skip
    return row, state


def _inactive(rules: _PeriodRules, state: Standing, last_active: date, first_listed: bool) -> bool:
    """Art. 7.2.2 for a rated player with no game this period: inactive after
    :data:`INACTIVE_MONTHS` without a game, still inactive (no game since), or flagged by
    FIDE's list (from the first list here dated on or after FIDE's, or his first list here)."""
    if last_active < rules.active_from or state.inactive:
        return True
    flagged = state.fide_inactive
    return (
        flagged is not None
        and flagged <= rules.list_date
        and (first_listed or flagged > rules.start)
    )


def _rated(
    rules: _PeriodRules,
    pid: int,
    state: Standing,
    games: Sequence[RatedGame],
    seed: tuple[date, int] | None,
    breakdown: list[BreakdownLine],
) -> tuple[ListEntry, Standing]:
    """A player rated for the period's games: K (art. 8.3.3) and the 700 rule, the change
    K x sum(dR) rounded once (art. 8.3.4), the new rating and the floor (art. 7.2.1); the
    player's breakdown lines are added to ``breakdown``."""
    config = rules.config
    unit = rules.unit
    before = state.rating
    rating_for_k = before if seed is None else seed[1]
    n = len(games)
    k = rules.fixed_k or standing_k(
        rating_for_k, state.total_games, state.birth_year, state.k10, state.reached_2300,
        rules.start, state.fide_k, state.fide_k_list, rules.k_table,
    )  # fmt: skip
    if config.uses_700_rule:
        k = _apply_700_rule(k, n)
    half = unit // 2
    sum_dr = halves_total = pd_total = 0
    for game_id, opp, own_used, opp_used, diff, pd, halves in games:
        dr = halves * half - pd  # dR = S - PD
        sum_dr += dr
        halves_total += halves
        pd_total += pd
        breakdown.append(
            _new_tuple(BreakdownLine, (
                game_id, pid, opp, own_used, opp_used, diff, halves, pd, dr, unit, k, FOR_CHANGE,
            ))
        )  # fmt: skip
    change = divide_half_away(k * sum_dr, unit)  # art. 8.3.4: rounded once, half away from 0
    own_base = before if before is not None else config.start_rating
    if seed is not None:
        own_base = seed[1]  # R&B art. 7.2.1: rated at the standard rating
    assert own_base is not None  # unrated players play only at a start rating or seed
    after: int | None = own_base + change
    status: ListStatus = LISTED if before is not None else FIRST_RATING
    if config.uses_floor and not rules.edition.keeps(own_base + change):
        after, status = None, BELOW_FLOOR
    return _new_row(
        rules, pid, state, after, status, change, k, n, halves_total, pd_total, state.pool
    )


def _pooled(
    rules: _PeriodRules,
    pid: int,
    state: Standing,
    games: Sequence[PooledGame],
    first_events: Mapping[int, int | None],
    breakdown: list[BreakdownLine],
) -> tuple[ListEntry, Standing]:
    """An unrated player's games against rated opponents: pooled (art. 7.1.4, 26 months), and
    the first rating the pool gives, if it is published (art. 8.2)."""
    unit = rules.unit
    halves_total = 0
    for game_id, _event_id, opp, opp_used, halves in games:
        halves_total += halves
        breakdown.append(
            BreakdownLine(
                game_id, pid, opp, None, opp_used, None, halves, None, None, unit, None,
                FOR_FIRST_RATING,
            )
        )  # fmt: skip
    pool, after = _first_rating(rules, pid, state, games, first_events)
    status: ListStatus = FIRST_RATING if after is not None else UNRATED
    return _new_row(rules, pid, state, after, status, 0, None, len(games), halves_total, 0, pool)


def _new_row(
    rules: _PeriodRules,
    pid: int,
    state: Standing,
    after: int | None,
    status: ListStatus,
    change: int,
    k_used: int | None,
    n: int,
    halves_total: int,
    pd_total: int,
    pool: tuple[PoolGame, ...],
) -> tuple[ListEntry, Standing]:
    """The row and the new standing of a player whose games counted: FIDE's one-time
    adjustment of the list, the permanent flags (art. 8.3.3) and the next K."""
    if rules.adjustment is not None and after is not None:
        after = rules.adjustment.apply(after)  # FIDE's one-time change of the list
    total = None if state.total_games is None else state.total_games + n
    flags = flags_after(state.k10, state.reached_2300, after)
    k = _next_k(rules, after, total, state, flags.k10, flags.reached_2300)
    if after is not None:
        pool = ()
    start = rules.start
    row = _new_tuple(ListEntry, (
        pid, state.rating, after, change, k_used, n, total, halves_total, pd_total,
        rules.unit, flags.k10, flags.reached_2300, k, status, False, start,
    ))  # fmt: skip
    new = Standing(
        after, total, state.birth_year, flags.k10, flags.reached_2300, pool, state.fide_k,
        state.fide_k_list, start, False, state.fide_inactive,
    )  # fmt: skip
    return row, new


def _next_k(
    rules: _PeriodRules,
    rating: int | None,
    total_games: int | None,
    state: Standing,
    k10: bool,
    reached_2300: bool,
) -> int | None:
    """The K a player has on the new list, before the 700 rule (art. 8.3.3; the system's or
    the new list's edition's fixed K); None for an unrated player. :func:`next_k` for the
    values of a row being made."""
    if rating is None:
        return None
    return rules.next_fixed_k or standing_k(
        rating, total_games, state.birth_year, k10, reached_2300, rules.list_date,
        state.fide_k, state.fide_k_list, rules.next_k_table,
    )  # fmt: skip


def _first_rating(
    rules: _PeriodRules,
    pid: int,
    state: Standing,
    games: Sequence[PooledGame],
    first_events: Mapping[int, int | None],
) -> tuple[tuple[PoolGame, ...], int | None]:
    """A player's pool of the last 26 months (art. 7.1.4) with this period's games, and the
    first rating it gives if it is published (art. 8.2, of the period's edition). A zero
    score in the player's first event ever is disregarded; fewer than 5 games or Ru below the
    floor publish nothing."""
    cutoff = rules.pool_from
    start = rules.start
    pool = tuple(g for g in state.pool if g.period_start >= cutoff) + tuple(
        PoolGame(start, g.event_id, g.opponent_rating, g.half_points) for g in games
    )
    if len(pool) < INITIAL_MIN_GAMES:
        return pool, None
    if pid not in first_events:
        raise MissingInputError(f"player {pid}: the first event was not given")
    first_event = first_events[pid]
    by_event: dict[int, list[tuple[int, Decimal]]] = {}
    for g in pool:
        by_event.setdefault(g.event_id, []).append((g.opponent_rating, Decimal(g.half_points) / 2))
    first = by_event.pop(first_event, []) if first_event is not None else []
    result = initial_rating(drop_zero_first_event([first, *by_event.values()]), rules.edition)
    return pool, (result.rating if result is not None and result.published else None)


def next_k(
    config: SystemConfig,
    standing: Standing,
    list_date: date,
    time_control: TimeControl | str = TimeControl.STANDARD,
) -> int | None:
    """The K a player has on the list dated ``list_date`` of ``time_control``, before the 700
    rule: the system's fixed K, the edition's (K 20 on the rapid and blitz lists before 1
    October 2022), or art. 8.3.3 from the standing (:func:`ratings.rules.standing_k`: an
    unknown count, FIDE's published K); None for an unrated player (the rule every list
    row's ``next_k`` follows)."""
    if standing.rating is None:
        return None
    fixed = config.k or config.list_rules(list_date, time_control).fixed_k
    return fixed or standing_k(
        standing.rating, standing.total_games, standing.birth_year, standing.k10,
        standing.reached_2300, list_date, standing.fide_k, standing.fide_k_list,
        config.k_table(list_date),
    )  # fmt: skip


def pool_after(
    games: Iterable[PoolGame], period: Period, last_rated: date | None = None
) -> tuple[PoolGame, ...]:
    """An unrated player's pool at the start of ``period``, from the games pooled in earlier
    periods: those within 26 months (:func:`pool_window_start`) and after the last period in
    which the player was rated (a player who fell below the floor starts a new pool)."""
    cutoff = pool_window_start(period)
    return tuple(
        g
        for g in games
        if cutoff <= g.period_start < period.start
        and (last_rated is None or g.period_start > last_rated)
    )


def rate_game(
    own: int,
    opp: int,
    half_points: int,
    *,
    k: int,
    event_start: date,
    method: ExpectedMethod | str = ExpectedMethod.TABLE,
) -> tuple[BreakdownLine, ListEntry]:
    """One game as a period of its own, through :func:`rate_period` (the calculator): the
    player rated ``own`` scores ``half_points`` (2, 1, 0) against ``opp`` at a fixed ``k``,
    with the 400-point rule of the edition in force on ``event_start`` (art. 8.3.1) and no
    rating floor. Returns the player's breakdown line and list row.

    :raises RulesError: a subclass naming the bad value.
    """
    config = system_config("club", k=k, expected=method)
    if half_points not in (0, 1, 2) or isinstance(half_points, bool):
        raise InvalidResultError(f"half points must be 2, 1 or 0: {half_points!r}")
    period = Period.containing(event_start)
    standings = {1: Standing(own, NEW_PLAYER_GAMES), 2: Standing(opp, NEW_PLAYER_GAMES)}
    outcome = rate_period(
        config, period, standings, [GameResult(1, 1, event_start, 1, 2, half_points)]
    )
    return outcome.breakdown[0], outcome.list_rows[0]


def rate_games(
    own: int,
    games: Sequence[tuple[int, int]],
    *,
    event_start: date,
    k: int | None = None,
    games_played: int | None = None,
    birth_year: int | None = None,
    k10: bool = False,
    method: ExpectedMethod | str = ExpectedMethod.TABLE,
    list_type: TimeControl | str = TimeControl.STANDARD,
    uncapped: bool = False,
) -> tuple[list[BreakdownLine | None], ListEntry]:
    """Several games of one event as a period of their own, through :func:`rate_period` (the
    calculator): the player rated ``own`` plays ``games``, (opponent rating, half points 2, 1
    or 0) pairs, in an event starting on ``event_start`` on the list ``list_type``.

    Rated as :func:`rate_period` rates this player (the opponents are not rated). K is ``k``
    if given, else art. 8.3.3 from ``games_played`` (rated games before; None:
    unknown, :func:`ratings.rules.standing_k`), ``birth_year`` and the ``k10`` flag, or the
    list's fixed K (rapid and blitz before October 2022); then the 700 rule. The 400-point
    rule of the edition in force on ``event_start`` (art. 8.3.1; rapid and blitz: R&B art.
    7.3.1, with its 600-point rule) applies; no rating floor. Returns the player's breakdown
    line of each game, in order (None for a game the edition does not rate), and the
    player's list row (``k_used`` None when no game was rated). ``uncapped``: plain Elo,
    the true difference in every game (:data:`UNCAPPED`, the elo system's), no 400-point or
    600-point rule.

    :raises RulesError: a subclass naming the bad value.
    """
    if not games:
        raise InvalidResultError(f"give at least one game: {list(games)!r}")
    _check_rating(own)
    config = system_config("club", k=k, expected=method)
    list_type = time_control(list_type)
    rules = _period_rules(config, Period.containing(event_start), list_type)
    rule_set = UNCAPPED if uncapped else config.rule_set(event_start, list_type)
    pd_of = expected_units_by(config.expected is ExpectedMethod.CURVE)
    counted: list[RatedGame] = []
    for number, game in enumerate(games, start=2):
        opp, halves = game
        _check_rating(opp, "opponent rating")
        if halves not in (0, 1, 2) or isinstance(halves, bool):
            raise InvalidResultError(f"half points must be 2, 1 or 0: {halves!r}")
        if rule_set.rates(own, opp):  # R&B art. 7.3.1
            diff = _capped_difference(own, opp, rule_set)  # art. 8.3.1
            counted.append(RatedGame(number, number, own, opp, diff, pd_of(diff), halves))
    # only this player is rated (the opponents' changes are not asked for, and an opponent
    # rated near 0 would fall below it): the steps of rate_period for one player
    state = Standing(own, games_played, birth_year, k10)
    breakdown: list[BreakdownLine] = []
    if counted:
        row, _ = _rated(rules, 1, state, counted, None, breakdown)
    else:
        row, _ = _carried(rules, 1, state)
    lines = {line.game_id: line for line in breakdown}
    return [lines.get(number) for number in range(2, len(games) + 2)], row
