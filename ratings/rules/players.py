"""The player side of the rules: K-factor and the 700 rule (art. 8.3.3), the permanent flags,
first ratings (art. 8.2, 7.1.4, table 8.1.1) and performance ratings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

from ratings.rules.base import (
    _ZERO,
    INITIAL_MIN_GAMES,
    JUNIOR_MARK,
    JUNIOR_MAX_AGE,
    K10_MARK,
    K_PRODUCT_LIMIT,
    NEW_PLAYER_GAMES,
    InvalidRatingError,
    InvalidResultError,
    InvalidScoreError,
    _check_count,
    _check_date,
    _check_game_score,
    _check_k,
    _check_rating,
    _div_half_away,
    _score_half_points,
)
from ratings.rules.editions import CURRENT_LIST_RULES, InitialMethod, ListRules

# --------------------------------------------------------------------------------------------
# K-factor (art. 8.3.3)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerState:
    """What art. 8.3.3 needs to know about a player, as on the list in force at the period start."""

    rating: int | None
    """Published rating on that list, or None if unrated."""
    games_played: int
    """Rated games completed before the period (entry games and first-rating pool included)."""
    birth_year: int | None
    """Year of birth; None never makes a junior."""
    k10: bool = False
    """Permanent flag: a published rating was ever >= 2400 (or set by hand)."""
    reached_2300: bool = False
    """A published rating was ever >= 2300 (ends the junior K)."""

    def __post_init__(self) -> None:
        if self.rating is not None:
            _check_rating(self.rating)
        _check_count(self.games_played, "games played")
        if self.birth_year is not None and type(self.birth_year) is not int:
            raise InvalidRatingError(f"birth year must be an integer: {self.birth_year!r}")


@dataclass(frozen=True, slots=True)
class KTable:
    """The K values of art. 8.3.3, by its order of precedence. FIDE's are :data:`FIDE_K`;
    ``ratings whatif`` rates with others (:class:`ratings.rules.RuleVariant`), the
    conditions (2400, a junior below 2300, 30 games) staying FIDE's."""

    top: int = 10
    """A published rating ever at 2400 or more (and the K=10 flag)."""
    junior: int = 40
    """A player aged 18 or less at the end of the list's year, below 2300 ever."""
    new_player: int = 40
    """Fewer than 30 rated games."""
    established: int = 20
    """Everyone else."""


FIDE_K = KTable()
"""Art. 8.3.3's K values."""


def k_factor(state: PlayerState, list_date: date) -> int:
    """The K-factor of art. 8.3.3 for a player, before the 700 rule.

    ``list_date`` is the date of the list in force at the period start (the period's first day).
    Precedence: 10 if a published rating was ever >= 2400 (permanent); else 40 for a junior
    (``list_date.year - birth_year <= 18``) whose published rating never reached 2300; else 40
    with fewer than 30 rated games before the period; else 20.
    """
    _check_date(list_date)
    return base_k(
        state.rating,
        state.games_played,
        state.birth_year,
        state.k10,
        state.reached_2300,
        list_date.year,
    )


def base_k(
    rating: int | None,
    games_played: int,
    birth_year: int | None,
    k10: bool,
    reached_2300: bool,
    list_year: int,
    table: KTable = FIDE_K,
) -> int:
    """:func:`k_factor` on plain values, unchecked (the engine's inner loop, art. 8.3.3), with
    the K values of ``table``."""
    if k10 or (rating is not None and rating >= K10_MARK):
        return table.top
    if (
        birth_year is not None
        and list_year - birth_year <= JUNIOR_MAX_AGE
        and not (reached_2300 or (rating is not None and rating >= JUNIOR_MARK))
    ):
        return table.junior
    if games_played < NEW_PLAYER_GAMES:
        return table.new_player
    return table.established


UNKNOWN_GAMES_K = 20
"""The K of a rated player whose number of prior rated games is unknown (and who is neither
a junior nor a 2400 player): a published rating was made from at least 5 games (art. 7.1.4)
and usually from far more, so the player is taken as established (art. 8.3.3's K 20), never
silently as a new player (K 40). ``ratings player edit --games N`` or FIDE's published K
(``ratings import fide-list``) settles it."""


def standing_k(
    rating: int | None,
    games_played: int | None,
    birth_year: int | None,
    k10: bool,
    reached_2300: bool,
    list_date: date,
    fide_k: int | None = None,
    fide_k_list: date | None = None,
    table: KTable = FIDE_K,
) -> int:
    """The K of art. 8.3.3 on the list dated ``list_date``, before the 700 rule, when the
    number of prior rated games may be unknown (None) and FIDE may have published a K; the
    values of ``table`` (FIDE's by default; FIDE's published K stays FIDE's).

    1. FIDE's K published on that very list (``fide_k_list == list_date``) is authoritative.
    2. Otherwise art. 8.3.3 by precedence (:func:`base_k`): 10 for a published rating ever at
       2400, 40 for a junior below 2300 (these apply whatever the count), then the count.
    3. With the count unknown: 40 if the last K FIDE published was 40 for a player who was
       not a junior on that list (FIDE said: fewer than 30 games), else
       :data:`UNKNOWN_GAMES_K` (20).
    """
    if fide_k is not None and fide_k_list == list_date:
        return fide_k
    year = list_date.year
    if games_played is not None:
        return base_k(rating, games_played, birth_year, k10, reached_2300, year, table)
    if base_k(rating, NEW_PLAYER_GAMES, birth_year, k10, reached_2300, year) != UNKNOWN_GAMES_K:
        # 10 or a junior's 40 (FIDE's values tell the case apart): the count does not matter
        return base_k(rating, NEW_PLAYER_GAMES, birth_year, k10, reached_2300, year, table)
    if (
        fide_k == 40  # art. 8.3.3's new-player K
        and fide_k_list is not None
        and fide_k_list <= list_date
        and birth_year is not None
        and fide_k_list.year - birth_year > JUNIOR_MAX_AGE
    ):
        return table.new_player
    return table.established


def apply_700_rule(k: int, n: int) -> int:
    """The 700 rule of art. 8.3.3: if K x n > 700, K becomes floor(700 / n).

    ``n`` is the player's number of rated games in the period.
    """
    _check_k(k)
    _check_count(n)
    return _apply_700_rule(k, n)


def _apply_700_rule(k: int, n: int) -> int:
    """:func:`apply_700_rule` on checked values (the period engine's)."""
    return K_PRODUCT_LIMIT // n if k * n > K_PRODUCT_LIMIT else k


class Flags(NamedTuple):
    """The permanent flags of art. 8.3.3 after a list is published."""

    k10: bool
    """A published rating was ever >= 2400."""
    reached_2300: bool
    """A published rating was ever >= 2300."""


def flags_after(k10: bool, reached_2300: bool, published_rating: int | None) -> Flags:
    """The art. 8.3.3 flags after ``published_rating`` appears on a list (None: not published).

    Flags are never cleared: K stays 10 after a drop below 2400.
    """
    if published_rating is not None:
        _check_rating(published_rating)
        k10 = k10 or published_rating >= K10_MARK
        reached_2300 = reached_2300 or published_rating >= JUNIOR_MARK
    return Flags(bool(k10), bool(reached_2300))


# --------------------------------------------------------------------------------------------
# Initial ratings and performance (table 8.1.1, art. 8.2, 7.1.4)
# --------------------------------------------------------------------------------------------

_TABLE_8_1_1 = (
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309,
    -296, -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29,
    -21, -14, -7, 0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133,
    141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322,
    336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)  # fmt: skip
"""Table 8.1.1: dp for p = 0 .. 100 percent."""
assert len(_TABLE_8_1_1) == 101


def dp(p_percent: int) -> int:
    """Rating difference dp for a percentage score p (table 8.1.1); p is 0 .. 100."""
    if type(p_percent) is not int or not 0 <= p_percent <= 100:
        raise InvalidScoreError(f"percentage must be an integer from 0 to 100: {p_percent!r}")
    return _TABLE_8_1_1[p_percent]


@dataclass(frozen=True, slots=True)
class InitialRating:
    """A first rating Ru (art. 8.2, 7.1.4), under one edition of art. 8.2."""

    ra: Decimal
    """Ra, shown to 2 decimals: from 2024 (sum of rated opponents' ratings + 2 x 1800) /
    (n + 2); before, the average of the rated opponents' ratings."""
    p: int
    """The score as a whole percent (0.5 up): from 2024 (W + 1) / (n + 2), before W / n."""
    dp: int
    """What is added to Ra: dp(p) from table 8.1.1; before 2024 above 50%, 20 for each half
    point over 50% instead."""
    rating: int
    """Ru = Ra + dp rounded to a whole number (0.5 up), at most the edition's maximum (2200
    from 2024)."""
    published: bool
    """True if Ru is at least the edition's floor (1400 from 2024, 1000 before)."""


def _checked_pool(games: Iterable[tuple[int, Decimal]]) -> list[tuple[int, Decimal]]:
    """Validate (opponent rating, score) pairs."""
    checked: list[tuple[int, Decimal]] = []
    for game in games:
        if not isinstance(game, tuple) or len(game) != 2:
            raise InvalidResultError(f"a game must be (opponent rating, score): {game!r}")
        opp, score = game
        checked.append((_check_rating(opp, "opponent rating"), _check_game_score(score)))
    return checked


def initial_rating(
    games: Sequence[tuple[int, Decimal]], edition: ListRules = CURRENT_LIST_RULES
) -> InitialRating | None:
    """A first rating from pooled games against rated opponents (art. 8.2, 7.1.4), under the
    edition of art. 8.2 in force for the period (:func:`ratings.rules.list_rules_for`;
    default: today's).

    ``games`` are (opponent rating, score) pairs pooled over at most 26 months
    (:data:`INITIAL_POOL_MONTHS`), with a zero-score first event already dropped
    (:func:`drop_zero_first_event`). From 1 March 2024 two fictitious draws against 1800 are
    added: Ra = (sum + 2 x 1800) / (n + 2), p = (W + 1) / (n + 2) to a whole percent (0.5
    up), Ru = Ra + dp(p) rounded once (0.5 up, from the exact Ra), at most 2200, published if
    Ru >= 1400. Before (:attr:`InitialMethod.PLUS_20`): Ra = sum / n; at 50% Ru = Ra, above
    Ra + 20 for each half point over 50%, below Ra + dp(W / n), rounded once, no maximum,
    published if Ru >= 1000. Returns None with fewer than 5 games.
    """
    found = _initial_rating(_checked_pool(games), edition)
    return None if found is None else found[0]


def _initial_rating(
    pool: Sequence[tuple[int, Decimal]], edition: ListRules = CURRENT_LIST_RULES
) -> tuple[InitialRating, int] | None:
    """:func:`initial_rating` on checked games, and Ru before the maximum."""
    n = len(pool)
    if n < INITIAL_MIN_GAMES:
        return None
    halves = int(sum((s for _, s in pool), _ZERO) * 2)
    total, count, points = _initial_sums(pool, edition)
    p = _div_half_away(100 * points, 2 * count)
    if edition.initial_method is InitialMethod.HYPOTHETICAL_DRAWS or 2 * halves < 2 * n:
        added = dp(p)
    else:  # before 2024, 50% or more: 20 for each half point over 50% (W - n / 2 points)
        added = 20 * (halves - n)
    uncapped = _div_half_away(total + added * count, count)
    ru = uncapped if edition.initial_max is None else min(uncapped, edition.initial_max)
    ra = (Decimal(total) / count).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return InitialRating(ra, p, added, ru, ru >= edition.rating_floor), uncapped


def _initial_sums(pool: Sequence[tuple[int, Decimal]], edition: ListRules) -> tuple[int, int, int]:
    """(sum of the ratings, number of games, score in half points) that Ra and p are made
    of: with the two hypothetical draws against 1800 from 2024, the pool alone before."""
    total = sum(opp for opp, _ in pool)
    halves = int(sum((s for _, s in pool), _ZERO) * 2)
    if edition.initial_method is InitialMethod.HYPOTHETICAL_DRAWS:
        return total + 2 * FICTITIOUS_OPPONENT, len(pool) + 2, halves + 2
    return total, len(pool), halves


FICTITIOUS_OPPONENT = 1800
"""The rating of the two hypothetical opponents a first rating adds from 1 March 2024, each
a draw (art. 8.2.2)."""


@dataclass(frozen=True, slots=True)
class FirstRatingWork:
    """The whole calculation of a first rating, as a card shows it (art. 7.1.4, 8.2).

    Built by :func:`explain_first_rating` from the same functions the period engine uses
    (:func:`drop_zero_first_event`, :func:`initial_rating`), so it cannot disagree with the
    rating published.
    """

    games: tuple[tuple[int, Decimal], ...]
    """The pooled games that count: (opponent rating, score), the first event's first."""
    dropped: tuple[tuple[int, Decimal], ...]
    """The games of the player's first event ever, disregarded because they scored zero
    there (art. 8.2); empty when nothing was dropped."""
    rating_sum: int
    """Sum of the counted opponents' ratings, plus 2 x 1800 (the two hypothetical draws)
    from 2024."""
    points: Decimal
    """The score W of the counted games, plus 1 (the two hypothetical draws) from 2024."""
    divisor: int
    """The counted games, plus the two hypothetical ones from 2024."""
    result: InitialRating | None
    """Ra, p, dp, Ru and whether it is published; None with fewer than 5 counted games
    (art. 7.1.4)."""
    uncapped: int | None
    """Ra + dp rounded, before the maximum (None when there is no result)."""
    edition: ListRules = CURRENT_LIST_RULES
    """The edition of art. 7.1.4 and 8.2 the period follows."""

    @property
    def capped(self) -> bool:
        """The maximum of art. 8.2.3 (2200, from 2024) lowered Ru."""
        top = self.edition.initial_max
        return self.uncapped is not None and top is not None and self.uncapped > top

    @property
    def below_floor(self) -> bool:
        """Ru is below the floor: no rating is published (art. 7.1.4)."""
        return self.result is not None and not self.result.published


def explain_first_rating(
    events: Sequence[Sequence[tuple[int, Decimal]]], edition: ListRules = CURRENT_LIST_RULES
) -> FirstRatingWork:
    """Every step of a first rating from a player's pool, by event (art. 7.1.4, 8.2), under
    ``edition`` (the period's, :func:`ratings.rules.list_rules_for`).

    ``events`` hold (opponent rating, score) pairs, ``events[0]`` being the player's first
    event ever (empty if it is not in the pool). A zero score there drops its games; then
    :func:`initial_rating`.
    """
    first = _checked_pool(events[0]) if events else []
    kept = drop_zero_first_event(events)
    dropped = first if all(score == _ZERO for _, score in first) else []
    found = _initial_rating(kept, edition)
    total, count, halves = _initial_sums(kept, edition)
    return FirstRatingWork(
        games=tuple(kept),
        dropped=tuple(dropped),
        rating_sum=total,
        points=Decimal(halves) / 2,
        divisor=count,
        result=None if found is None else found[0],
        uncapped=None if found is None else found[1],
        edition=edition,
    )


def drop_zero_first_event(
    events: Sequence[Sequence[tuple[int, Decimal]]],
) -> list[tuple[int, Decimal]]:
    """The pool games for :func:`initial_rating`, flattened (art. 8.2).

    ``events`` hold (opponent rating, score) pairs per event, ``events[0]`` being the player's
    first event ever. A zero score in that first event is disregarded: its games are dropped.
    """
    if not events:
        return []
    first = _checked_pool(events[0])
    rest = [game for event in events[1:] for game in _checked_pool(event)]
    if all(score == _ZERO for _, score in first):
        return rest
    return first + rest


def _performance_inputs(opponent_ratings: Sequence[int], score: Decimal | int) -> tuple[int, int]:
    """Validate; return (sum of opponent ratings, score in half points)."""
    ratings = list(opponent_ratings)
    if not ratings:
        raise InvalidScoreError(f"a performance needs at least one opponent: {ratings!r}")
    for r in ratings:
        _check_rating(r, "opponent rating")
    return sum(ratings), _score_half_points(score, len(ratings))


def average_rating(opponent_ratings: Sequence[int]) -> int:
    """Ra of a performance: the average opponent rating rounded to a whole number, 0.5 up
    (docs/RULES.md#performance-ratings)."""
    ratings = [_check_rating(r, "opponent rating") for r in opponent_ratings]
    if not ratings:
        raise InvalidScoreError(f"an average needs at least one opponent: {ratings!r}")
    return _div_half_away(sum(ratings), len(ratings))


def percentage_score(opponent_ratings: Sequence[int], score: Decimal | int) -> int:
    """p of a performance: the percentage score rounded to a whole percent, 0.5 up, the
    entry of table 8.1.1 that :func:`performance_fide` and :func:`performance_own` read."""
    _, halves = _performance_inputs(opponent_ratings, score)
    return _div_half_away(100 * halves, 2 * len(opponent_ratings))


def performance_fide(opponent_ratings: Sequence[int], score: Decimal | int) -> int:
    """FIDE performance rating Rp = Ra + dp(p) (table 8.1.1).

    Ra is the average opponent rating rounded to a whole number (0.5 up) and p the percentage
    score rounded to a whole percent (0.5 up); 100% gives Ra + 800, 0% gives Ra - 800.
    """
    _, halves = _performance_inputs(opponent_ratings, score)
    n = len(opponent_ratings)
    return average_rating(opponent_ratings) + dp(_div_half_away(100 * halves, 2 * n))


def performance_own(own_rating: int, opponent_ratings: Sequence[int], score: Decimal | int) -> int:
    """Performance on the player's own rating: R_own + dp(p) (table 8.1.1)."""
    _check_rating(own_rating)
    _, halves = _performance_inputs(opponent_ratings, score)
    n = len(opponent_ratings)
    return own_rating + dp(_div_half_away(100 * halves, 2 * n))


def performance_400(opponent_ratings: Sequence[int], score: Decimal | int) -> int:
    """The "algorithm of 400": Ra + 400 x (W - L) / n, rounded once, half away from zero.

    Not a FIDE article: a linear stand-in for table 8.1.1 used by tournament software
    (docs/RULES.md#performance-ratings).
    Ra is the exact average here; W - L = 2 x score - n.
    """
    total, halves = _performance_inputs(opponent_ratings, score)
    n = len(opponent_ratings)
    return _div_half_away(total + 400 * (halves - n), n)
