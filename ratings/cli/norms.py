"""``ratings norms EVENT`` and ``ratings titles``: the title norms of an event's players and
the titles reached by rating, with the state of title applications (FIDE Title Regulations;
docs/TITLES.md). The arithmetic is :mod:`ratings.rules.norms`, the reads
:mod:`ratings.service.titles.norms`; this module prints."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence

import click

from ratings.cli import App, pass_app
from ratings.cli.options import reading_if_any, say_note
from ratings.cli.tables import Value, emit_rows, format_option
from ratings.rules.norms import Application, NormCheck, TitleRatingPoint, TitleReached
from ratings.service.titles import norms

FORMAT = format_option(choices=("table", "json"))


def _score(halves: int) -> str:
    """A score as a crosstable writes it: ``6½``, ``7``, ``½``."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _points(halves: int) -> int | float:
    """A score for JSON: 7, 6.5 (a half is exact in binary)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def _lists(found: norms.EventNorms) -> str:
    dates = [d.isoformat() if d else "the register's entry ratings" for d in found.lists]
    if found.per_game:
        return f"each game's list (the event lasts more than 30 days, 1.1.4): {', '.join(dates)}"
    if found.lists == (None,):
        return "the register's entry ratings (no list published before the start)"
    return f"the list of {dates[0]}"


def _check_json(p: norms.PlayerNorms, c: NormCheck) -> dict[str, object]:
    return {
        "player": p.name,
        "player_id": p.player_id,
        "title": c.title.value,
        "norm": c.norm,
        "games": c.games,
        "norm_games": c.norm_games,
        "score": _points(c.score_half_points),
        "percent": c.percent,
        "ra_before_floor": c.ra_before_floor,
        "ra": c.ra,
        "rp": c.rp,
        "titled": c.titled,
        "title_holders": c.holders,
        "other_federations": c.other_federations,
        "own_federation": c.own_federation,
        "raised": None
        if c.raised is None
        else {"player_id": c.raised[0], "from": c.raised[1], "to": c.raised[2]},
        "ignored_rounds": list(c.ignored_rounds),
        "ignored_opponents": list(c.ignored_opponents),
        "reasons": [str(r) for r in c.reasons],
    }


@click.command("norms")
@click.argument("event_ref", metavar="EVENT")
@FORMAT
@pass_app
def norms_command(app: App, event_ref: str, fmt: str) -> None:
    """Check the title norms of an event's players: each GM, IM (WGM, WIM) norm reached or
    missed, and why.

    EVENT is an event id or an exact name. For every player and every norm title he does
    not hold (WGM and WIM for women): the games counted, the score, Ra before and after the
    rating floor, Rp, the titled opponents (1.4.5a), the holders of the title or a higher
    one (1.4.5b-e) and the other federations (1.4.3); for a miss the first requirement
    missed, by article of the FIDE Title Regulations; for a norm how it was reached (later
    rounds that may be ignored, 1.4.1e; games against defeated opponents left out, 1.4.1f;
    the opponent raised to the floor, 1.4.6c). Ratings are those of the list in force at
    the event's start (each game's for an event longer than 30 days); titles, federations
    and sex are the register's. An exemption from the federation rules (1.4.3a-d) is set
    with 'ratings event edit EVENT --norm-exemption KIND'.
    """
    with app.session() as session:
        found = norms.event_norms(session, event_ref)
    if fmt == "json":
        objects = [_check_json(p, c) for p in found.players for c in p.checks]
        click.echo(json.dumps(objects, indent=2, ensure_ascii=False))
        return
    kind = (
        "double round robin"
        if found.double_round_robin
        else "round robin"
        if found.round_robin
        else "not a round robin"
    )
    exemption = (
        f"{found.exemption.value.replace('_', '-')} ({found.exemption.article})"
        if found.exemption
        else "none"
    )
    click.echo(
        f"Event {found.event_id}: {found.name}, {found.start_date} .. {found.end_date}: {kind}, "
        f"{found.rounds} round{'' if found.rounds == 1 else 's'}"
    )
    click.echo(f"Ratings: {_lists(found)}; norm exemption: {exemption}")
    rows: list[Sequence[Value]] = []
    for p in found.players:
        for c in p.checks:
            reason = "; ".join(str(r) for r in c.notes) if c.norm else str(c.failures[0])
            rows.append(
                (
                    p.name,
                    p.federation,
                    c.title.value,
                    c.norm,
                    c.games,
                    _score(c.score_half_points),
                    c.ra_before_floor,
                    c.ra,
                    c.rp,
                    c.titled,
                    c.holders,
                    c.other_federations,
                    reason,
                )
            )
    if not rows:
        click.echo("No player of the event needs a norm: every one holds the GM title")
        return
    emit_rows(
        ("player", "fed", "norm", "reached", "games", "score", "ra_before", "ra", "rp",
         "titled", "holders", "feds", "reason"),
        rows,
        "table",
    )  # fmt: skip


# --- titles -------------------------------------------------------------------------------


def _point_json(p: TitleRatingPoint | None) -> dict[str, object] | None:
    if p is None:
        return None
    return {
        "period": p.period,
        "date": p.day.isoformat() if p.day else None,
        "game_id": p.game_id,
        "rating": p.rating,
        "games": p.games,
    }


def _reached_json(t: TitleReached) -> dict[str, object]:
    return {
        "title": t.title,
        "threshold": t.threshold,
        "reached": t.reached,
        "games_unknown": t.games_unknown,
        "when": _point_json(t.point),
    }


def _application_json(a: Application) -> dict[str, object]:
    return {
        "title": a.title.value,
        "norms": [
            {
                "event_id": n.event_id,
                "event": n.event,
                "date": n.day.isoformat(),
                "norm_games": n.norm_games,
                "exempt": n.exempt,
            }
            for n in a.norms
        ],
        "norm_games": a.norm_games,
        "rating": _reached_json(a.rating),
        "complete": a.complete,
        "missing": [str(r) for r in a.missing],
        "trail": [_point_json(p) for p in a.trail],
    }


def _when(t: TitleReached) -> tuple[int | None, dt.date | None, str | None, int | None, int | None]:
    p = t.point
    if p is None:
        return None, None, None, None, None
    return p.rating, p.day, p.period or "entry rating", p.game_id, p.games


def _state(t: TitleReached) -> str:
    if t.reached:
        return "yes"
    return "rating, games unknown" if t.games_unknown else "no"


@click.command("titles")
@click.option("--player", "player_ref", metavar="PLAYER", help="One player, with the evidence.")
@FORMAT
@pass_app
def titles_command(app: App, player_ref: str | None, fmt: str) -> None:
    """Show titles reached by rating and the state of title applications (FIDE Title
    Regulations 1.3, 1.5).

    Titles by rating (1.3): FM 2300, CM 2200, WFM 2100, WCM 2000, by a published or an
    interim rating (the rating after any rated game), with 30 rated games at the time for a
    rating reached after 1 July 2017: the date, period and game after which the rating first
    met the threshold, and the rated games then. Applications (1.5), for a player with norms
    in the stored events: the norms and the games they cover (27 needed, 1.5.1), and whether
    the title's rating (GM 2500, IM 2400, WGM 2300, WIM 2200, 1.5.3) was reached; with
    --player, the trail of interim ratings (period, game, rating) as evidence. Without
    --player: every player who reached a title by rating or made a norm here.
    """
    with app.session() as session:
        # a merged record: the player kept, as history shows
        player_ref, note = reading_if_any(session, player_ref)
        report = norms.title_report(session, player_ref)
    say_note(note)
    if fmt == "json":
        objects = [
            {
                "player": p.name,
                "player_id": p.player_id,
                "title": p.title,
                "titles_by_rating": [_reached_json(t) for t in p.by_rating],
                "applications": [_application_json(a) for a in p.applications],
            }
            for p in report
        ]
        click.echo(json.dumps(objects, indent=2, ensure_ascii=False))
        return
    one = player_ref is not None
    if one:
        (p,) = report
        held = f", title {p.title}" if p.title else ""
        click.echo(f"{p.name} (id {p.player_id}{held})")
    click.echo("Titles by rating (1.3):")
    rows: list[Sequence[Value]] = [
        (p.name, t.title, t.threshold, _state(t), *_when(t)) for p in report for t in p.by_rating
    ]
    if rows:
        emit_rows(
            ("player", "title", "needed", "reached", "rating", "date", "period", "game",
             "games"),
            rows,
            "table",
        )  # fmt: skip
    else:
        click.echo("none")
    click.echo("Title applications (1.5):")
    applications = [(p, a) for p in report for a in p.applications]
    if not applications:
        click.echo("none (no norm made in the stored events)")
        return
    emit_rows(
        ("player", "title", "norms", "norm_games", "rating_needed", "rating_reached", "date",
         "complete", "missing"),
        [
            (p.name, a.title.value, len(a.norms), a.norm_games, a.rating.threshold,
             a.rating.reached, a.rating.point.day if a.rating.reached and a.rating.point else None,
             a.complete, "; ".join(str(r) for r in a.missing))
            for p, a in applications
        ],
        "table",
    )  # fmt: skip
    if not one:
        return
    for _, a in applications:
        click.echo(f"{a.title.value} norms:")
        emit_rows(
            ("event_id", "event", "date", "norm_games", "exempt"),
            [(n.event_id, n.event, n.day, n.norm_games, n.exempt) for n in a.norms],
            "table",
        )
        what = "reached" if a.rating.reached else "the highest"
        click.echo(f"{a.title.value} rating trail ({what}):")
        if a.trail:
            emit_rows(
                ("period", "game", "date", "rating", "games"),
                [
                    (t.period or "entry rating", t.game_id, t.day, t.rating, t.games)
                    for t in a.trail
                ],
                "table",
            )
        else:
            click.echo("no rated game here")


def register(group: click.Group) -> None:
    """Add ``norms`` and ``titles`` to the top-level group."""
    group.add_command(norms_command)
    group.add_command(titles_command)
