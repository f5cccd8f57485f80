"""HTML for the rows of the site's long tables: the lists, the period tables, the
calculation cards and the crosstables.

A federation's site holds about six million table rows. Rendered cell by cell through Jinja2
expressions (one ``escape()`` call and one ``Markup`` object per cell, numbers included),
they took most of a full publish (bench/RESULTS-publish.md). Here each row is one f-string.
What keeps that safe is the types, checked by mypy and by the tests with hostile names:
every text parameter is :class:`~markupsafe.Markup`, which only :func:`markupsafe.escape`
(the function Jinja2's autoescape calls; it escapes ``< > & " '``, so the result is safe in
attributes too) or a literal of this package makes; every other parameter is an ``int`` or
a string this package built from numbers. The builder escapes each name once per publish,
not once per row. The templates place the joined rows as ``Markup`` and
escape everything else themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

__all__ = [
    "card_line",
    "crosstable_game",
    "crosstable_games",
    "crosstable_row",
    "history_gap",
    "history_row",
    "list_row",
]


def _int(value: int | None) -> str:
    return "" if value is None else str(int(value))


def list_row(
    root: str,
    rank: int,
    player_id: int,
    name: Markup,
    title: Markup,
    federation: Markup,
    born: int | None,
    rating: int | None,
    change: str,
    trend: Markup,
    period_games: int,
    next_k: int | None,
    flags: Markup,
) -> str:
    """One line of a rating list (``root``, ``change``: built from numbers)."""
    return (
        f'<tr><td>{int(rank)}</td><th scope="row"><a href="{root}players/{int(player_id)}.html">'
        f"{name}</a></th><td>{title}</td><td>{federation}</td><td>{_int(born)}</td>"
        f"<td>{_int(rating)}</td><td{trend}>{change}</td><td>{int(period_games)}</td>"
        f"<td>{_int(next_k)}</td><td>{flags}</td></tr>\n"
    )


def history_row(
    label: Markup,
    card: bool,
    before: int | None,
    after: int | None,
    change: str,
    trend: Markup,
    k_used: int | None,
    period_games: int,
    score: str,
    list_status: Markup,
) -> str:
    """One period of a player's period table (``change``, ``score``: built from numbers);
    ``card``: the period's label links to its calculation card below."""
    head = f'<a href="#p{label}">{label}</a>' if card else label
    return (
        f'<tr><th scope="row">{head}</th><td>{_int(before)}</td><td>{_int(after)}</td>'
        f"<td{trend}>{change}</td><td>{_int(k_used)}</td><td>{int(period_games)}</td>"
        f"<td>{score}</td><td>{list_status}</td></tr>\n"
    )


def history_gap(first: Markup, last: Markup, unrated: bool = False) -> str:
    """Periods without games in which nothing changed, folded into one row; ``unrated``:
    a stretch of lists without a rating."""
    label = first if first == last else Markup("{} \N{EN DASH} {}").format(first, last)
    what = "still unrated" if unrated else "rating unchanged"
    return (
        f'<tr class="gap"><th scope="row">{label}</th>'
        f'<td colspan="7">no rated games; {what}</td></tr>\n'
    )


def card_line(
    date: str,
    event_id: int,
    event: Markup,
    round_: Markup,
    opponent_id: int,
    opponent: Markup,
    white: bool,
    opponent_rating: int,
    difference: int | None,
    pd: str,
    result: str,
    dr: str,
    k_used: int | None,
    k_dr: str,
) -> str:
    """One game on a calculation card (``date``, ``pd``, ``result``, ``dr``, ``k_dr``: built
    from numbers)."""
    return (
        f'<tr><td>{date}</td><td><a href="../events/{int(event_id)}.html">{event}</a></td>'
        f'<td>{round_}</td><th scope="row"><a href="{int(opponent_id)}.html">{opponent}</a>'
        f"</th><td>{'w' if white else 'b'}</td><td>{int(opponent_rating)}</td>"
        f"<td>{_int(difference)}</td><td>{pd}</td><td>{result}</td><td>{dr}</td>"
        f"<td>{_int(k_used)}</td><td>{k_dr}</td></tr>\n"
    )


def crosstable_row(
    rank: int,
    player_id: int,
    name: Markup,
    about: Markup,
    rating: int | None,
    cells: Sequence[tuple[Markup, Markup]],
    score: str,
    tiebreaks: Sequence[tuple[Markup, str]],
    performance: int | None,
    k_dr_sum: str,
    trend: Markup,
    games: Markup,
) -> str:
    """One player's line of a crosstable. ``about``: the player's title and federation;
    ``cells``: per round the text (opponent rank, colour and result, or a bye code) and a
    note for its title (the opponent's name); ``tiebreaks``: each tie-break's code and value
    (built from numbers); ``games``: the player's games one by one, the opponents named
    (:func:`crosstable_games`)."""
    rounds = "".join(
        f'<td title="{note}">{text}</td>' if note else f"<td>{text}</td>" for text, note in cells
    )
    breaks = "".join(f'<td data-tb="{code}">{value}</td>' for code, value in tiebreaks)
    who = f' <span class="who">{about}</span>' if about else ""
    return (
        f'<tr><td>{int(rank)}</td><th scope="row"><a href="../players/{int(player_id)}.html">'
        f"{name}</a>{who}</th><td>{_int(rating)}</td>{rounds}"
        f'<td class="score">{score}</td>{breaks}'
        f"<td>{_int(performance)}</td><td{trend}>{k_dr_sum}</td><td>{games}</td></tr>\n"
    )


def crosstable_game(
    round_: Markup, white: bool | None, mark: Markup, opponent_id: int | None,
    opponent: Markup, about: Markup, rated: bool,
) -> str:  # fmt: skip
    """One round of a player's games in a crosstable: the round, the colour, the result and
    the opponent by name (``about``: title, federation, rating), or a bye's code."""
    if opponent_id is None:
        return f"<li>{round_}: bye {mark}</li>"
    colour = "w" if white else "b"
    note = "" if rated else " (not rated)"
    return (
        f'<li>{round_}: {colour} {mark} <a href="../players/{int(opponent_id)}.html">'
        f"{opponent}</a>{about}{note}</li>"
    )


def crosstable_games(lines: Sequence[str]) -> Markup:
    """A player's games (:func:`crosstable_game`), folded under a "Games" button that
    works without a script."""
    if not lines:
        return Markup("")
    return Markup(
        f'<details class="games"><summary>Games</summary><ol>{"".join(lines)}</ol></details>'
    )
