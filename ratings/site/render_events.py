"""The event pages: the crosstable, the rated games' changes and the norms."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from markupsafe import Markup
from sqlalchemy.orm import Session

from ratings import tiebreaks
from ratings.service.reading import publish as data
from ratings.service.reading.crosstable import CrossCell, crosstable
from ratings.service.titles.reads import NormReads
from ratings.site.cells import halves, trend
from ratings.site.norms import event_norm_rows
from ratings.site.pages import Pages
from ratings.site.rows import crosstable_game, crosstable_games, crosstable_row
from ratings.tiebreaks import tiebreak_text

__all__ = ["EventPages"]


class EventPages(Pages):
    """Renders the event pages."""

    def events_pages(self, session: Session, wanted: Collection[int] | None) -> None:
        reads: NormReads | None = None  # the lists' ratings, read once for every page
        for ev in data.event_data(session, wanted):
            event = self.events.get(ev.event_id)
            if event is None:
                continue  # ends after the newest rated period: published once rated
            if reads is None and self.time_control == "standard":
                reads = NormReads(session)
            norms = event_norm_rows(session, ev, self.time_control, reads)
            self._event(event, ev, norms)
            self._tick("events")

    def _event(
        self, e: data.SiteEvent, ev: data.EventData, norms: Sequence[dict[str, object]] = ()
    ) -> None:
        name = self._name

        def sort_name(pid: int) -> str:
            player = self.register.get(pid)
            return player.name.lower() if player is not None else ""

        table = crosstable(ev, sort_name, e.start_date, e.tiebreaks)
        used = {row.player_id: row.rating for row in table.rows}
        rounds = [self._html(r) for r in table.rounds]
        shown = [t for t in table.tiebreaks if t.column]
        codes = [self._html(t.code) for t in shown]
        players: list[str] = []
        for row in table.rows:
            row_cells = []
            games: list[str] = []
            for round_, results in zip(rounds, row.cells, strict=True):
                games.extend(self._game(round_, c, used) for c in results)
                found = [self._cross_cell(c) for c in results]
                if len(found) == 1:
                    row_cells.append(found[0])
                else:  # several games in one round (or none)
                    row_cells.append(
                        (
                            Markup(" ").join(c[0] for c in found),
                            Markup("; ").join(c[1] for c in found),
                        )
                    )
            delta = row.k_dr_sum
            players.append(
                crosstable_row(
                    row.rank,
                    row.player_id,
                    name(row.player_id),
                    self._about(row.player_id),
                    row.rating,
                    row_cells,
                    halves(row.score_half_points),
                    [(codes[i], tiebreak_text(v)) for i, v in enumerate(row.tiebreak_values)],
                    row.performance,
                    f"{delta:+.2f}" if delta is not None else "",
                    trend(delta),
                    crosstable_games(games),
                )
            )
        first, last = self._rated_in(e)
        page = self.t_event.render(
            self.common, root="../", title=self._titled(e.name), e=e,
            players=Markup("".join(players)), count=len(players), rounds=list(table.rounds),
            games=table.games, rated=table.rated_games, period=first,
            period_last=last if last != first else "", norms=norms,
            tiebreaks=table.tiebreaks, tiebreak_columns=shown,
            round_robin=table.tiebreaks == tiebreaks.ROUND_ROBIN,
            own_tiebreaks=bool(tiebreaks.named(e.tiebreaks)[0]),
        )  # fmt: skip
        self.out.put(f"events/{e.id}.html", page.encode("utf-8"))

    def _about(self, player_id: int) -> Markup:
        """A player's title and federation, as the crosstable shows them under the name."""
        player = self.register.get(player_id)
        marks = (player.title, player.federation) if player is not None else ()
        return Markup(" ").join(self._html(x) for x in marks if x)

    def _game(self, round_: Markup, c: CrossCell, used: dict[int, int | None]) -> str:
        """A round of a player's games, the opponent named with title, federation and the
        rating the event used."""
        if c.opponent_id is None:
            return crosstable_game(round_, None, self._html(c.mark), None, _BYE, _BYE, False)
        opponent = self.register.get(c.opponent_id)
        marks = (opponent.title, opponent.federation) if opponent is not None else ()
        about = [self._html(x) for x in marks if x]
        rating = used.get(c.opponent_id)
        if rating is not None:
            about.append(Markup(int(rating)))
        note = Markup(", ").join(about)
        return crosstable_game(
            round_, c.white, self._html(c.mark), c.opponent_id, self._name(c.opponent_id),
            Markup(" ({})").format(note) if about else Markup(""), c.rated,
        )  # fmt: skip

    def _cross_cell(self, c: CrossCell) -> tuple[Markup, Markup]:
        """A crosstable cell: opponent's rank, colour, result (or a bye's code); the
        opponent's name as its note."""
        if c.opponent_id is None:
            return self._html(c.mark), _BYE
        opponent = self._name(c.opponent_id)
        # c.text is built from numbers and this package's marks: nothing to escape
        return Markup(c.text), opponent if c.rated else opponent + _NOT_RATED


_BYE = Markup("bye")
_NOT_RATED = Markup(" (not rated)")
