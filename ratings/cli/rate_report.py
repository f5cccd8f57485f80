"""What ``rate`` (and ``rate --dry-run``, ``preview``) says a rate did: the periods rated and
re-rated, every published rating a re-rate changed (old -> new) and every player it added
to or withdrew from published lists, with the runs of periods: a published list changes
only through a re-rate that says so."""

from __future__ import annotations

from collections.abc import Sequence

from ratings.cli.options import on_list
from ratings.cli.tables import plural
from ratings.service.rating.rate import ChangedRating, RateReport

__all__ = ["rate_lines"]


def _blank(value: object) -> str:
    return "" if value is None else str(value)


def rate_lines(report: RateReport, *, would: bool = False, only: str | None = None) -> list[str]:
    """What a rate did (``would``: would do), old -> new for every published rating that a
    re-rate changes (``only``: on that list), then each player added to or withdrawn from
    published lists, with the lists; empty when there is nothing to rate."""
    lines = []
    if report.rerated:
        verb, change = ("Would re-rate", "would change") if would else ("Re-rated", "changed")
        shown = [c for c in report.changed if only is None or c.time_control == only]
        changed = [c for c in shown if c.kind == "changed"]
        scope = "" if only is None else f" on the {only} list"
        moved = _moved_rows(shown, report.rerated)
        head = f"{plural(len(changed), 'published rating')}{scope} {change}"
        for kind, done in (("added", "added to"), ("withdrawn", "withdrawn from")):
            players = len({(pid, tc) for pid, tc, k in moved if k == kind})
            if players:
                done = f"would be {done}" if would else done
                head += f"; {plural(players, 'player')} {done} published lists"
        lines.append(f"{verb} {_span(report.rerated)} after corrections; {head}")
        for c in changed:
            on = on_list(c.time_control)
            lines.append(
                f"  {c.period}  {c.name} (id {c.player_id}): "
                f"{_blank(c.old) or 'unrated'} -> {_blank(c.new) or 'unrated'}{on}"
            )
        for (pid, tc, kind), (name, spans) in moved.items():
            where = "to" if kind == "added" else "from"
            what = f"would be {kind}" if would else kind
            lists = "list" if len(spans) == 1 and " .. " not in spans[0] else "lists"
            lines.append(
                f"  {name} (id {pid}): {what} {where} {lists} {', '.join(spans)}{on_list(tc)}"
            )
    if not lines and not report.rated and report.seals.sealed:
        # a rate with nothing to rate seals the lists published before lists were sealed
        lists = plural(report.seals.sealed, "list")
        lines.append(
            f"{'Would seal' if would else 'Sealed'} {lists} published before lists were sealed"
        )
    if report.rated:
        verb = "Would rate" if would else "Rated"
        games = plural(report.rated_games, "rated game")  # theirs: not the re-rated periods'
        lines.append(f"{verb} {_span(report.rated)} ({games})")
    return lines


def _moved_rows(
    changes: Sequence[ChangedRating], periods: Sequence[str]
) -> dict[tuple[int, str, str], tuple[str, list[str]]]:
    """The rows added to and withdrawn from published lists, by player, list and kind (in
    name order): the name and the runs of periods (``2025-02 .. 2025-04``)."""
    order = {label: i for i, label in enumerate(periods)}
    found: dict[tuple[int, str, str], tuple[str, set[str]]] = {}
    for c in changes:
        if c.kind != "changed":
            found.setdefault((c.player_id, c.time_control, c.kind), (c.name, set()))[1].add(
                c.period
            )
    moved = {}
    for key, (name, labels) in sorted(found.items(), key=lambda item: (item[1][0], item[0])):
        runs: list[list[str]] = []
        for label in sorted(labels, key=lambda lb: (order.get(lb, len(order)), lb)):
            if (
                runs
                and order.get(label) is not None
                and order.get(runs[-1][-1]) == order[label] - 1
            ):
                runs[-1].append(label)
            else:
                runs.append([label])
        spans = [run[0] if len(run) == 1 else f"{run[0]} .. {run[-1]}" for run in runs]
        moved[key] = (name, spans)
    return moved


def _span(labels: Sequence[str]) -> str:
    if len(labels) == 1:
        return f"period {labels[0]}"
    return f"{len(labels)} periods {labels[0]} .. {labels[-1]}"
