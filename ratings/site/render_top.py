"""The top lists page beside each list (``lists/YYYY-MM-top.html``, with its CSV): the
categories and the improvers of :mod:`ratings.site.top_lists`."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from sqlalchemy.orm import Session

from ratings.io.csv_out import CsvWriter
from ratings.service.reading import publish as data
from ratings.site import top_lists
from ratings.site.pages import Pages

__all__ = ["TOP_CSV_HEADER", "TopPages", "top_csv"]

TOP_CSV_HEADER = (
    "category", "rank", "player_id", "name", "fide_id", "federation", "title", "sex",
    "birth_year", "rating", "base_period", "base_rating", "gain",
)  # fmt: skip
"""The columns of a top lists CSV: one row per player per list; ``category`` is the key of
:data:`ratings.site.top_lists.AGE_CATEGORIES`, ``fed-XXX`` or ``improvers`` (only these
fill ``base_period``, ``base_rating`` and ``gain``)."""


def top_csv(
    found: Sequence[top_lists.Category],
    gains: Sequence[top_lists.Improver],
    base: str | None,
    register: dict[int, data.SitePlayer],
) -> str:
    """The top lists as CSV, every cell neutralised against formula injection
    (:mod:`ratings.io.csv_out`)."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(TOP_CSV_HEADER)
    for category in found:
        for rank, e in enumerate(category.rows, 1):
            p = register[e.player_id]
            writer.writerow(
                (category.key, rank, p.id, p.name, p.fide_id, p.federation, p.title, p.sex,
                 p.birth_year, e.rating, None, None, None)
            )  # fmt: skip
    for rank, x in enumerate(gains, 1):
        p = register[x.player_id]
        writer.writerow(
            ("improvers", rank, p.id, p.name, p.fide_id, p.federation, p.title, p.sex,
             p.birth_year, x.rating, base, x.base_rating, x.gain)
        )  # fmt: skip
    return out.getvalue()


class TopPages(Pages):
    """Renders the top lists page of a list."""

    def top_page(
        self,
        session: Session,
        period: data.SitePeriod,
        rows: Sequence[tuple[data.SiteListRow, str]],
        context: Mapping[str, object],
    ) -> None:
        """Write ``lists/LABEL-top.html`` and ``.csv`` for the list of ``period`` (``rows``:
        the list in its order, with the flags)."""
        found = top_lists.categories(rows, self.register, period.list_date.year)
        i = self.index[period.id]
        at = top_lists.base_index(i)
        base = self.periods[at] if at is not None else None
        gains = (
            top_lists.improvers(
                data.rating_gains(session, period.id, base.id, self.time_control), self.register
            )
            if base is not None
            else []
        )
        label = period.label
        page = self.t_top.render(
            context, root="../", title=f"Top lists {label}",
            heading=f"{self.list_title} {label}: top lists", categories=found,
            improvers=gains, base=base.label if base is not None else None,
            register=self.public, top=top_lists.TOP, span=top_lists.IMPROVER_LISTS,
        )  # fmt: skip
        self.out.put(f"lists/{label}-top.html", page.encode("utf-8"))
        csv = top_csv(found, gains, base.label if base is not None else None, self.public)
        self.out.put(f"lists/{label}-top.csv", csv.encode("utf-8"))
