"""The player pages: details, the rating chart, the period table (quiet runs folded into one
row) and a calculation card per period with games."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from markupsafe import Markup
from sqlalchemy.orm import Session

from ratings.rules import SystemConfig
from ratings.service.rating.games import first_events
from ratings.service.reading import publish as data
from ratings.service.shared.config import get_config
from ratings.site import chart, first_rating, svg_chart
from ratings.site.cells import blank, fraction, k_dr, score, signed, trend
from ratings.site.data_json import player_json
from ratings.site.pages import Pages
from ratings.site.plan import shows, table_row
from ratings.site.rows import card_line, history_gap, history_row

__all__ = ["PlayerPages"]


_STATES = {
    "listed": "rated",
    "first_rating": "first rating",
    "unrated": "unrated",
    "below_floor": "below the floor: unrated",
}


@dataclass(frozen=True, slots=True)
class CardView:
    """What the template shows of one calculation card (an object, not a dict: Jinja2 looks
    an attribute up before an item, and a dict's failed look-up costs an exception per field
    of every card)."""

    label: str
    rated: bool
    first: Markup
    seed: int | None
    before: str
    after: str
    k_used: str
    lines: Markup
    count: int
    pd_sum: str
    score: str
    dr_sum: str
    k_dr_sum: str
    change: str


def _calc_query(latest: data.PeriodRow | None, time_control: str) -> str:
    """The calculator's query that fills in a rated player's next event: the rating, the
    next K and the rated games so far (``assets/calc.js`` reads it); empty when unrated."""
    if latest is None or latest.rating_after is None or latest.next_k is None:
        return ""
    games = "" if latest.total_games is None else f"&games={int(latest.total_games)}"
    return (
        f"?rating={int(latest.rating_after)}&k={int(latest.next_k)}{games}"
        f"&list={time_control}#h-change"
    )


class PlayerPages(Pages):
    """Renders the player pages."""

    _config: SystemConfig

    def players(self, session: Session, wanted: Collection[int] | None) -> dict[int, int]:
        """Render the player pages (``wanted`` None: all); returns their period bitmaps."""
        bits: dict[int, int] = {}
        histories = data.history_rows(session, wanted, self.time_control)
        cards = data.card_games(session, wanted, self.time_control)
        ids = sorted(pid for pid in self.register if wanted is None or pid in wanted)
        self._config = get_config(session)
        # the pages with a first rating's card wait for their players' first events (art.
        # 8.2: its zero score is disregarded), read 500 players a query
        waiting: list[tuple[int, list[data.PeriodRow], list[data.CardGame]]] = []

        def flush() -> None:
            firsts = first_events(session, [pid for pid, _, _ in waiting], self.time_control)
            for pid, rows, games in waiting:
                bits[pid] = self._player(self.register[pid], rows, games, firsts[pid])
                self._tick("players")
            waiting.clear()

        for pid, rows, games in _merge(ids, histories, cards):
            if self._config.uses_initial_ratings and any(first_rating.pooled(g) for g in games):
                waiting.append((pid, rows, games))
                if len(waiting) == 500:
                    flush()
                continue
            bits[pid] = self._player(self.register[pid], rows, games)
            self._tick("players")
        if waiting:
            flush()
        return bits

    def _player(
        self,
        p: data.SitePlayer,
        rows: list[data.PeriodRow],
        games: list[data.CardGame],
        first_event: int | None = None,
    ) -> int:
        index = self.index
        rows = sorted((r for r in rows if r.period_id in index), key=lambda r: index[r.period_id])
        by_period: dict[int, list[data.CardGame]] = {}
        for g in games:
            by_period.setdefault(g.period_id, []).append(g)
        mask = 0
        shown: list[data.PeriodRow] = []
        previous: data.PeriodRow | None = None
        for row in rows:
            adjacent = (
                previous
                if previous is not None and index[previous.period_id] == index[row.period_id] - 1
                else None
            )
            card = row.period_id in by_period
            if table_row(adjacent, row) or card:
                shown.append(row)
                mask |= 1 << index[row.period_id]
            elif shows(adjacent, row, index[row.period_id]):
                mask |= 1 << index[row.period_id]
            previous = row
        for period_id in by_period:
            if period_id in index:
                mask |= 1 << index[period_id]
        table: list[str] = []
        for n, newer in enumerate(shown):
            if n > 0 and index[newer.period_id] - index[shown[n - 1].period_id] > 1:
                since = self.periods[index[shown[n - 1].period_id] + 1].id
                until = self.periods[index[newer.period_id] - 1].id
                unrated = shown[n - 1].rating_after is None
                table.append(history_gap(self.labels[since], self.labels[until], unrated))
            table.append(self._history_row(newer, newer.period_id in by_period))
        latest = rows[-1] if rows else None
        if (
            shown
            and latest is not None
            and latest.rating_after is None
            and index[latest.period_id] > index[shown[-1].period_id]
        ):  # the unrated lists since the newest row, up to the newest list (plan.shows)
            since = self.periods[index[shown[-1].period_id] + 1].id
            table.append(history_gap(self.labels[since], self.labels[latest.period_id], True))
        table.reverse()
        points = chart.history_points(  # the points of the chart without JavaScript
            shown[0].rating_before if shown else None,
            [(index[r.period_id], r.rating_after) for r in shown],
        )
        first = bool(shown) and shown[0].rating_before is None
        spec = chart.history_chart(p.name, points, self._period_labels, first) if points else None
        svg = (  # the chart without JavaScript, of the same points
            svg_chart.history_chart(points, self._period_labels, p.name, points[0][1] is None)
            if points
            else Markup()
        )
        cards = [
            self._card(
                self.by_id[period_id],
                by_period[period_id],
                next((r for r in rows if r.period_id == period_id), None),
                (rows, games, first_event),
            )
            for period_id in sorted(by_period, key=lambda x: -index.get(x, -1))
            if period_id in index
        ]
        if latest is not None:
            rating = blank(latest.rating_after) or "unrated"
            total_games, next_k, k10 = (
                latest.total_games,
                blank(latest.next_k) or "\N{EN DASH}",
                latest.k10,
            )
        else:
            rating = f"{p.entry_rating} (entry rating)" if p.entry_rating else "unrated"
            total_games, next_k, k10 = p.entry_games, "\N{EN DASH}", p.k10
        page = self.t_player.render(
            self.common, root="../", title=self._titled(p.name), p=p, rating=rating,
            total_games=total_games, next_k=next_k, k10=k10, spec=spec, svg=svg,
            calc_query=_calc_query(latest, self.time_control),
            unrated_from=(  # the line stops there: no rating runs on to the newest list
                self._period_labels[points[-1][0]] if points and points[-1][1] is None else ""
            ),
            rows=Markup("".join(table)), cards=cards, others=self._others(p.id),
        )  # fmt: skip
        self.out.put(f"players/{p.id}.html", page.encode("utf-8"))
        self._player_json(p, rows, games, mask)
        return mask

    @functools.cached_property
    def _period_labels(self) -> list[str]:
        return [p.label for p in self.periods]

    @functools.cached_property
    def _period_starts(self) -> dict[int, dt.date]:
        return {p.id: p.start for p in self.periods}

    def _player_json(
        self,
        p: data.SitePlayer,
        rows: list[data.PeriodRow],
        games: list[data.CardGame],
        mask: int,
    ) -> None:
        """``players/ID.json``: the periods the page shows (``mask``) and every rated game."""
        index, by_id = self.index, self.by_id
        history = [(by_id[r.period_id], r) for r in rows if mask >> index[r.period_id] & 1]
        played = [
            (by_id[g.period_id], g)
            for g in sorted(games, key=lambda g: (g.played_on, g.game_id))
            if g.period_id in index
        ]
        self.out.put(
            f"players/{p.id}.json",
            player_json(
                self.public[p.id], self.time_control, history, played, self.events, self.public,
                self._json_texts,
            ),
        )  # fmt: skip

    def _others(self, player_id: int) -> list[tuple[str, str, str]]:
        """The same player's pages on the other lists of the site: list, link,
        rating there."""
        return [
            (
                x.time_control,
                f"../{x.prefix}players/{player_id}.html",
                blank(x.ratings[player_id]) or "unrated",
            )
            for x in self.shared.linked
            if player_id in x.ratings
        ]

    def _history_row(self, r: data.PeriodRow, card: bool) -> str:
        played = r.period_games > 0
        status = _STATES.get(r.list_status, r.list_status)
        first = r.rating_before is None and r.rating_after is not None  # no change: a start
        change = "new" if first else signed(r.change) if played else ""
        return history_row(
            self.labels[r.period_id], card, r.rating_before, r.rating_after,
            change, trend(r.change if played and not first else 0), r.k_used,
            r.period_games, score(r.score) if played else "", self._html(status),
        )  # fmt: skip

    def _card(
        self,
        period: data.SitePeriod,
        games: list[data.CardGame],
        row: data.PeriodRow | None,
        player: tuple[list[data.PeriodRow], list[data.CardGame], int | None],
    ) -> CardView:
        games.sort(key=lambda g: (g.played_on, g.game_id))
        rated = [g for g in games if g.k_used is not None and g.dr is not None]
        event_names, html, name = self.event_names, self._html, self._name
        lines = []
        for g in games:
            lines.append(
                card_line(
                    g.played_on.isoformat(),
                    g.event_id,
                    event_names.get(g.event_id, Markup()),
                    html(g.round),
                    g.opponent_id,
                    name(g.opponent_id),
                    g.white,
                    g.opponent_rating,
                    g.difference,
                    fraction(g.pd),
                    score(g.score),
                    fraction(g.dr, signed=True),
                    g.k_used,
                    k_dr(g.k_used, g.dr) if g.k_used is not None and g.dr is not None else "",
                )
            )
        k_used = rated[0].k_used if rated else None
        dr_sum = sum((g.dr for g in rated if g.dr is not None), Decimal(0))
        explained = Markup()
        if len(rated) == len(games):
            pass  # every game changed a rating: none was pooled towards a first rating
        elif self._config.uses_initial_ratings and any(first_rating.pooled(g) for g in games):
            all_rows, all_games, first = player
            work, pooled = first_rating.explain(
                self._config, self.time_control, period, all_rows, all_games,
                self._period_starts, first,
            )  # fmt: skip
            first_name = self.event_names.get(first, Markup()) if first is not None else Markup()
            explained = first_rating.first_rating_html(work, pooled, first_name)
        # rapid and blitz: an unrated player's games rated on the standard rating (R&B art.
        # 7.2.1), which the card names
        seed = None
        if rated and row is not None and row.rating_before is None:
            seed = next((g.own_rating for g in rated if g.own_rating is not None), None)
        return CardView(
            label=period.label,
            rated=bool(rated),
            first=explained,
            seed=seed,
            before=blank(row.rating_before) if row else "",
            after=(blank(row.rating_after) or "unrated") if row else "",
            k_used=blank(k_used),
            lines=Markup("".join(lines)),
            count=len(lines),
            pd_sum=fraction(sum((g.pd for g in rated if g.pd is not None), Decimal(0))),
            score=score(sum((g.score for g in games), Decimal(0))),
            dr_sum=fraction(dr_sum, signed=True),
            k_dr_sum=f"{k_used * dr_sum:+.2f}" if k_used is not None else "",
            change=signed(row.change) if row else "",
        )


def _merge(
    ids: Sequence[int],
    histories: Iterator[tuple[int, list[data.PeriodRow]]],
    cards: Iterator[tuple[int, list[data.CardGame]]],
) -> Iterator[tuple[int, list[data.PeriodRow], list[data.CardGame]]]:
    """Join two id-ordered streams with the ids wanted (ascending)."""
    h = next(histories, None)
    c = next(cards, None)
    for pid in ids:
        while h is not None and h[0] < pid:
            h = next(histories, None)
        while c is not None and c[0] < pid:
            c = next(cards, None)
        rows = h[1] if h is not None and h[0] == pid else []
        games = c[1] if c is not None and c[0] == pid else []
        yield pid, rows, games
