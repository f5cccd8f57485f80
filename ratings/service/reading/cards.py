"""One player's record: the list entries of every rated period (``ratings history``), the
per-game breakdown of one period with the pool towards a first rating (``ratings card``), and
a performance rating over a period's or an event's games (``ratings performance``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import rules
from ratings.errors import InvalidInputError, PeriodError
from ratings.models import Event, Game, Player, RatingBreakdown, RatingHistory, RatingPeriod
from ratings.rules import Period
from ratings.service.rating.games import first_event
from ratings.service.reading.reports import find_rated_period
from ratings.service.register.lookup import get_player
from ratings.service.shared.config import get_config
from ratings.service.shared.text import list_name


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A player's entry on one period's list."""

    period: str
    """The period's label."""
    list_date: dt.date
    """The date of the list it published."""
    rating_before: int | None
    """Rating on the list in force at the period start (None: unrated)."""
    rating_after: int | None
    """Rating on the new list (None: unrated)."""
    change: int
    """Whole points (art. 8.3.4)."""
    k_used: int | None
    """K used (after the 700 rule); None when no game changed the rating."""
    period_games: int
    """Games that counted in the period."""
    total_games: int | None
    """Rated games completed through the period (None: unknown)."""
    score: Decimal
    """Sum of S over the period's games."""
    list_status: str
    """listed, first_rating, unrated or below_floor."""


def history(
    session: Session, player_ref: str, *, time_control: str = "standard"
) -> tuple[Player, list[HistoryRow]]:
    """Every entry of a player on the list ``time_control``, oldest first."""
    time_control = list_name(time_control)
    player = get_player(session, player_ref)
    rows = session.execute(
        sa.select(RatingPeriod, RatingHistory)
        .join(RatingHistory, RatingHistory.period_id == RatingPeriod.id)
        .where(RatingHistory.player_id == player.id, RatingHistory.time_control == time_control)
        .order_by(RatingPeriod.start_date)
    )
    return player, [
        HistoryRow(
            period=rp.label,
            list_date=rp.list_date,
            rating_before=h.rating_before,
            rating_after=h.rating_after,
            change=h.change,
            k_used=h.k_used,
            period_games=h.period_games,
            total_games=h.total_games,
            score=Decimal(h.score_half_points) / 2,
            list_status=h.list_status,
        )
        for rp, h in rows
    ]


@dataclass(frozen=True, slots=True)
class CardLine:
    """One game on a player's calculation card (FIDE's calculation page), exact."""

    game_id: int
    played_on: dt.date
    event: str
    round: str | None
    opponent: str
    opponent_rating: int
    own_rating: int | None
    """None for a game that counts towards a first rating (art. 8.2)."""
    score_half_points: int
    """S in half points: 2, 1 or 0."""
    difference: int | None
    """D used, after the 400-point rule (art. 8.3.1)."""
    pd: Decimal | None
    """PD (table 8.1.2, hundredths) or the curve's E (10^-9)."""
    dr: Decimal | None
    """dR = S - PD."""
    k_used: int | None
    """K used (after the 700 rule); None for a game pooled towards a first rating."""
    counts_for: str = rules.FOR_CHANGE
    """``change`` or ``first_rating`` (pooled towards a first rating, art. 8.2)."""
    event_id: int = 0
    """The game's event."""

    @property
    def score(self) -> Decimal:
        """S: 1, 0.5 or 0."""
        return Decimal(self.score_half_points) / 2

    @property
    def k_dr(self) -> Decimal | None:
        """K x dR, unrounded."""
        return None if self.k_used is None or self.dr is None else self.k_used * self.dr


@dataclass(frozen=True, slots=True)
class Card:
    """A player's games of one period and how they moved the rating."""

    player: Player
    period: str
    rating_before: int | None
    rating_after: int | None
    k_used: int | None
    """K used (after the 700 rule); None when no game changed the rating."""
    change: int
    """Whole points: K x :attr:`dr_sum`, rounded once (art. 8.3.4)."""
    lines: tuple[CardLine, ...]
    score: Decimal
    """Sum of S."""
    pd_sum: Decimal
    """Sum of PD over the rated games."""
    list_status: str
    """listed, first_rating, unrated or below_floor."""
    pooled: tuple[CardLine, ...] = ()
    """An unrated player's games of earlier periods still in the pool (art. 7.1.4)."""
    first_rating: rules.FirstRatingWork | None = None
    """How the pool makes (or does not yet make) a first rating (art. 8.2); None for a
    player rated at the period start."""
    first_event: str | None = None
    """The name of the player's first event, when its zero score was disregarded."""
    adjustment: rules.RatingAdjustment | None = None
    """FIDE's one-time adjustment of this period's list (1 March 2024), when it raised the
    player's rating: :attr:`rating_after` is :attr:`unadjusted` after it."""
    unadjusted: int | None = None
    """With :attr:`adjustment`: the rating the period's games gave, before it."""

    @property
    def dr_sum(self) -> Decimal:
        """sum(dR), exact."""
        return sum((line.dr for line in self.lines if line.dr is not None), Decimal(0))


def card(
    session: Session,
    player_ref: str,
    period_label: str | None = None,
    *,
    time_control: str = "standard",
) -> Card:
    """The per-game breakdown of one player's period on the list ``time_control`` (default:
    the newest rated period that published it); for a player unrated after it, the games
    pooled so far towards a first rating and where they stand (art. 7.1.4, 8.2)."""
    time_control = list_name(time_control)
    player = get_player(session, player_ref)
    period = find_rated_period(session, period_label, time_control)
    if period is None:
        if time_control == "standard":
            raise PeriodError("no period has been rated yet; run 'ratings rate'")
        raise PeriodError(f"no {time_control} list has been published yet; run 'ratings rate'")
    entry = session.scalar(
        sa.select(RatingHistory).where(
            RatingHistory.period_id == period.id,
            RatingHistory.time_control == time_control,
            RatingHistory.player_id == player.id,
        )
    )
    if entry is None:
        lists = "" if time_control == "standard" else f" {time_control}"
        raise PeriodError(f"{player.name} is not on the {period.label}{lists} list")
    lines = _card_lines(
        session,
        player.id,
        time_control,
        lambda query: query.where(RatingBreakdown.period_id == period.id).order_by(
            Game.played_on, Game.id
        ),
    )
    pooled: tuple[CardLine, ...] = ()
    work = first_event_name = None
    # an unrated player's pool so far, also in a period without games (as player show
    # counts it), where the system gives first ratings from a pool
    unrated = entry.rating_after is None and get_config(session).start_rating is None
    if unrated or any(line.counts_for == rules.FOR_FIRST_RATING for line in lines):
        pooled, work, first_event_name = first_rating_work(
            session, player.id, period, lines, time_control
        )
    adjustment, unadjusted = _adjustment_of(session, period, entry, work, time_control)
    return Card(
        player=player,
        period=period.label,
        rating_before=entry.rating_before,
        rating_after=entry.rating_after,
        k_used=entry.k_used,
        change=entry.change,
        lines=lines,
        score=Decimal(entry.score_half_points) / 2,
        pd_sum=rules.points(entry.pd_sum_units, entry.units_per_point),
        list_status=entry.list_status,
        pooled=pooled,
        first_rating=work,
        first_event=first_event_name,
        adjustment=adjustment,
        unadjusted=unadjusted,
    )


def _nearest_with_games(
    session: Session, player_id: int, period: RatingPeriod, time_control: str
) -> str:
    """The periods nearest ``period`` in which the player has rated games on the list, for
    a message: ``; the nearest periods with some are 2025-01 and 2025-03``."""
    with_games = (
        sa.select(RatingPeriod.start_date, RatingPeriod.label)
        .join(RatingBreakdown, RatingBreakdown.period_id == RatingPeriod.id)
        .join(Game, Game.id == RatingBreakdown.game_id)
        .join(Event, Event.id == Game.event_id)
        .where(RatingBreakdown.player_id == player_id, Event.time_control == time_control)
        .distinct()
    )
    before = session.execute(
        with_games.where(RatingPeriod.start_date < period.start_date)
        .order_by(RatingPeriod.start_date.desc())
        .limit(1)
    ).first()
    after = session.execute(
        with_games.where(RatingPeriod.start_date > period.start_date)
        .order_by(RatingPeriod.start_date)
        .limit(1)
    ).first()
    if before is not None and after is not None:
        return f"; the nearest periods with some are {before.label} and {after.label}"
    if before is not None or after is not None:
        nearest = before if before is not None else after
        assert nearest is not None
        return f"; the nearest period with some is {nearest.label}"
    return ", nor in any other rated period"


def _adjustment_of(
    session: Session,
    period: RatingPeriod,
    entry: RatingHistory,
    work: rules.FirstRatingWork | None,
    time_control: str,
) -> tuple[rules.RatingAdjustment | None, int | None]:
    """FIDE's one-time adjustment of the period's list and the rating before it, when the
    adjustment raised this player's rating (the engine applies it after the period's games,
    :func:`ratings.rules.rate_period`); (None, None) otherwise."""
    config = get_config(session)
    found = config.list_adjustment(Period(period.start_date, config.period_months), time_control)
    if found is None or entry.rating_after is None:
        return None, None
    if work is not None and work.result is not None:
        before = work.result.rating  # a first rating
    elif entry.rating_before is not None:
        before = entry.rating_before + entry.change
    else:
        return None, None
    if found.apply(before) == before:
        return None, None
    return found, before


_CardQuery = sa.Select[RatingBreakdown, Game, str, str]
"""A breakdown row with its game, its event's name and the opponent's (:func:`_card_lines`)."""


def _card_lines(
    session: Session,
    player_id: int,
    time_control: str,
    narrow: Callable[[_CardQuery], _CardQuery],
) -> tuple[CardLine, ...]:
    """A player's breakdown rows on the list ``time_control`` as card lines, with each
    game, its event's name and the opponent's; ``narrow`` picks the rows and their order."""
    opponent = sa.orm.aliased(Player)
    query = (
        sa.select(RatingBreakdown, Game, Event.name, opponent.name)
        .join(Game, Game.id == RatingBreakdown.game_id)
        .join(Event, Event.id == Game.event_id)
        .join(opponent, opponent.id == RatingBreakdown.opponent_id)
        .where(RatingBreakdown.player_id == player_id, Event.time_control == time_control)
    )
    rows = session.execute(narrow(query))
    return tuple(_card_line(b, g, event_name, opp_name) for b, g, event_name, opp_name in rows)


def _card_line(b: RatingBreakdown, g: Game, event_name: str, opp_name: str) -> CardLine:
    return CardLine(
        game_id=g.id,
        played_on=g.played_on,
        event=event_name,
        round=g.round,
        opponent=opp_name,
        opponent_rating=b.opponent_rating,
        own_rating=b.own_rating,
        score_half_points=b.score_half_points,
        difference=b.difference,
        pd=_points(b.pd_units, b.units_per_point),
        dr=_points(b.dr_units, b.units_per_point),
        k_used=b.k_used,
        counts_for=b.counts_for,
        event_id=g.event_id,
    )


def first_rating_work(
    session: Session,
    player_id: int,
    period: RatingPeriod,
    lines: tuple[CardLine, ...],
    time_control: str = "standard",
) -> tuple[tuple[CardLine, ...], rules.FirstRatingWork, str | None]:
    """An unrated player's pool at ``period`` and the first-rating calculation it gives, as
    the period engine made it: the games pooled in the 26-month window after the last list
    that rated the player (art. 7.1.4), then this period's, by event, with the first event
    ever first (its zero score disregarded, art. 8.2)."""
    config = get_config(session)
    this = Period(period.start_date, config.period_months)
    cutoff = rules.pool_window_start(this)
    last_rated = session.scalar(
        sa.select(sa.func.max(RatingPeriod.start_date))
        .join(RatingHistory, RatingHistory.period_id == RatingPeriod.id)
        .where(
            RatingHistory.player_id == player_id,
            RatingHistory.time_control == time_control,
            RatingHistory.rating_after.is_not(None),
            RatingPeriod.start_date >= cutoff,
            RatingPeriod.start_date < this.start,
        )
    )
    pooled = _card_lines(
        session,
        player_id,
        time_control,
        lambda query: (
            query.join(RatingPeriod, RatingPeriod.id == RatingBreakdown.period_id)
            .where(
                RatingBreakdown.counts_for == rules.FOR_FIRST_RATING,
                RatingPeriod.start_date >= cutoff,
                RatingPeriod.start_date < this.start,
                # a player who fell below the floor starts a new pool (rules.pool_after)
                RatingPeriod.start_date > last_rated if last_rated is not None else sa.true(),
            )
            .order_by(RatingPeriod.start_date, RatingBreakdown.game_id)
        ),
    )
    by_event: dict[int, list[tuple[int, Decimal]]] = {}
    for line in (*pooled, *(x for x in lines if x.counts_for == rules.FOR_FIRST_RATING)):
        by_event.setdefault(line.event_id, []).append((line.opponent_rating, line.score))
    first = first_event(session, player_id, time_control)
    first_games = by_event.pop(first, []) if first is not None else []
    edition = config.list_rules(this.start, time_control)
    work = rules.explain_first_rating([first_games, *by_event.values()], edition)
    name = None
    if work.dropped and first is not None:
        name = session.scalar(sa.select(Event.name).where(Event.id == first))
    return pooled, work, name


def _points(units: int | None, units_per_point: int) -> Decimal | None:
    """An audit integer as its exact decimal."""
    return None if units is None else rules.points(units, units_per_point)


@dataclass(frozen=True, slots=True)
class Performance:
    """A performance rating over some games."""

    player: Player
    scope: str
    method: str
    rated_games: int
    """The player's rated games in the scope (a period's on one list, or an event's)."""
    score: Decimal
    average_opponent: int
    performance: int


def performance(
    session: Session,
    player_ref: str,
    *,
    period_label: str | None = None,
    event_name: str | None = None,
    method: str = "fide",
    time_control: str = "standard",
) -> Performance:
    """Performance rating of a player over a rated period's games on the list
    ``time_control`` or an event's rated games (on the event's list), with the opponents'
    ratings the games were rated with (docs/RULES.md#performance-ratings)."""
    time_control = list_name(time_control)
    if method not in ("fide", "own", "400"):
        raise InvalidInputError(f"unknown performance method: {method!r} (use fide, own or 400)")
    if period_label is not None and event_name is not None:
        raise InvalidInputError("give either --period or --event, not both")
    player = get_player(session, player_ref)
    query = (
        sa.select(
            RatingBreakdown.opponent_rating,
            RatingBreakdown.score_half_points,
            RatingHistory.rating_before,
        )
        .join(Game, Game.id == RatingBreakdown.game_id)
        .join(Event, Event.id == Game.event_id)
        .join(
            RatingHistory,
            sa.and_(
                RatingHistory.period_id == RatingBreakdown.period_id,
                RatingHistory.time_control == Event.time_control,
                RatingHistory.player_id == RatingBreakdown.player_id,
            ),
        )
        .where(RatingBreakdown.player_id == player.id)
    )
    period: RatingPeriod | None = None
    if event_name is not None:
        events = list(session.scalars(sa.select(Event.id).where(Event.name == event_name)))
        if not events:
            raise InvalidInputError(f"no event named {event_name!r}")
        query = query.where(Game.event_id.in_(events))
        scope = f"event {event_name}"
    else:
        period = find_rated_period(session, period_label, time_control)
        if period is None:
            raise PeriodError("no period has been rated yet; run 'ratings rate'")
        query = query.where(
            RatingBreakdown.period_id == period.id, Event.time_control == time_control
        )
        scope = f"period {period.label}"
        if time_control != "standard":
            scope += f" ({time_control})"
    rows = session.execute(query).all()
    if not rows:
        hint = ""
        if period is not None:
            hint = _nearest_with_games(session, player.id, period, time_control)
        raise PeriodError(f"{player.name} has no rated games in {scope}{hint}")
    opponents = [r[0] for r in rows]
    score = Decimal(sum(r[1] for r in rows)) / 2
    if method == "fide":
        value = rules.performance_fide(opponents, score)
    elif method == "own":
        own = rows[0][2]
        if own is None:
            raise InvalidInputError(
                f"{player.name} had no rating to base an own-rating performance on"
            )
        value = rules.performance_own(own, opponents, score)
    else:
        value = rules.performance_400(opponents, score)
    average = rules.average_rating(opponents)
    return Performance(player, scope, method, len(rows), score, average, value)
