"""A first rating's calculation on the player's page (art. 7.1.4, 8.2), from the games the
page already holds.

The same pool as ``ratings card`` (:func:`ratings.service.reading.cards.card`): the player's games
pooled towards a first rating in the 26-month window (art. 7.1.4) after the last list that
rated them, and the period's own, by event, the first event ever first (its zero score is
disregarded, art. 8.2); then :func:`ratings.rules.explain_first_rating`, the functions the
period engine rates with, so the page cannot disagree with the rating published. Reading
them from the page's games (every rated game of the player is on one of its cards) costs no
query a player; only the first events are read, 500 players a query.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal

from markupsafe import Markup

from ratings import rules
from ratings.rules import Period, SystemConfig
from ratings.service.reading import publish as data

__all__ = ["explain", "first_rating_html", "pooled"]


def pooled(game: data.CardGame) -> bool:
    """The game counts towards a first rating: its card explains the first rating (made, not
    yet made, or below the floor), as ``ratings card`` does."""
    return game.counts_for == rules.FOR_FIRST_RATING


def explain(
    config: SystemConfig,
    time_control: str,
    period: data.SitePeriod,
    rows: Sequence[data.PeriodRow],
    games: Sequence[data.CardGame],
    starts: Mapping[int, dt.date],
    first_event: int | None,
) -> tuple[rules.FirstRatingWork, int]:
    """The calculation of the first rating of ``period`` and the number of its games that
    were pooled in earlier periods. ``rows``, ``games``: all of the player's (on this list);
    ``starts``: each period's first day by id."""
    this = Period(period.start, config.period_months)
    cutoff = rules.pool_window_start(this)
    rated = [
        starts[r.period_id]
        for r in rows
        if r.rating_after is not None
        and r.period_id in starts
        and cutoff <= starts[r.period_id] < this.start
    ]
    last_rated = max(rated, default=None)
    earlier = sorted(
        (
            g
            for g in games
            if g.counts_for == rules.FOR_FIRST_RATING
            and g.period_id in starts
            and cutoff <= starts[g.period_id] < this.start
            and (last_rated is None or starts[g.period_id] > last_rated)
        ),
        key=lambda g: (starts[g.period_id], g.game_id),
    )
    now = sorted(
        (g for g in games if g.period_id == period.id and g.counts_for == rules.FOR_FIRST_RATING),
        key=lambda g: (g.played_on, g.game_id),
    )
    by_event: dict[int, list[tuple[int, Decimal]]] = {}
    for g in (*earlier, *now):
        by_event.setdefault(g.event_id, []).append((g.opponent_rating, g.score))
    first_games = by_event.pop(first_event, []) if first_event is not None else []
    edition = config.list_rules(this.start, time_control)
    work = rules.explain_first_rating([first_games, *by_event.values()], edition)
    return work, len(earlier)


def first_rating_html(work: rules.FirstRatingWork, pooled: int, first_event: Markup) -> Markup:
    """The card's paragraph: what counted, Ra, the score, dp and Ru (art. 8.2)."""
    edition = work.edition
    draws = edition.initial_method is rules.InitialMethod.HYPOTHETICAL_DRAWS
    n = len(work.games)
    parts = [Markup("<strong>First rating</strong> (art. 8.2): ")]
    if work.dropped:
        parts.append(
            Markup("the first event, {}, scored zero: its {} game{} disregarded; ").format(
                first_event, len(work.dropped), "" if len(work.dropped) == 1 else "s"
            )
        )
    earlier = (
        Markup(", {} of them in earlier periods (their cards are below)").format(pooled)
        if pooled
        else Markup()
    )
    parts.append(
        Markup("{} game{} against rated opponents{}").format(n, "" if n == 1 else "s", earlier)
    )
    if draws:
        parts.append(
            Markup(" and 2 hypothetical draws against opponents rated {} (art. 8.2.2)").format(
                rules.FICTITIOUS_OPPONENT
            )
        )
    else:
        parts.append(Markup(" ({})").format(edition.name))
    r = work.result
    if r is None:
        parts.append(
            Markup(": {} games are needed, no rating yet.").format(rules.INITIAL_MIN_GAMES)
        )
        return Markup("").join(parts)
    points = f"{work.points.normalize():f}"
    parts.append(
        Markup(". Ra = {} / {} = {}; score {} of {} = {}%, dp {:+d}; Ru = Ra + dp = {}").format(
            work.rating_sum,
            work.divisor,
            r.ra,
            points,
            work.divisor,
            r.p,
            r.dp,
            work.uncapped if work.capped else r.rating,
        )
    )
    if work.capped:
        parts.append(Markup(", capped at {}").format(edition.initial_max))
    if work.below_floor:
        parts.append(Markup(": below {}, not published").format(edition.rating_floor))
    parts.append(Markup("."))
    return Markup("").join(parts)
