"""``ratings player ...`` and ``ratings game ...``: the register and single results.

Over 600 lines: the player and game groups share the date, result and player parsing.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

import click

from ratings import clock, limits, service
from ratings.cli import App, pass_app
from ratings.cli.options import (
    ALLOW_FUTURE,
    DRY_RUN,
    DRY_RUN_DONE,
    LATE_OK,
    TIME_CONTROL,
    YES,
    ask,
    confirmed,
    correction_options,
    reading,
    reading_if_any,
    say_changes,
    say_corrected,
    say_marked,
    say_note,
    today_unless,
)
from ratings.cli.tables import FORMAT, Value, emit_rows, format_option
from ratings.errors import InvalidInputError, NothingChangedError
from ratings.results import Result

if TYPE_CHECKING:
    from ratings.models import Player
    from ratings.service.reading.summary import PlayerSummary

# each command imports the use cases it runs: `player show` and `player list` read the
# register and need neither the corrections, the merge nor the rater (tests/test_startup.py)


def parse_date(text: str, what: str = "date") -> dt.date:
    """A ``YYYY-MM-DD`` argument."""
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text)
    except ValueError:
        pass
    raise InvalidInputError(f"{what} must be YYYY-MM-DD: {text!r}")


def parse_result(text: str) -> Result:
    """A RESULT argument (1-0, 0-1, 1/2-1/2, =, +/-, ...)."""
    try:
        return Result.from_string(text)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from exc


def describe_player(p: Player) -> str:
    """One line about a player for messages."""
    return f"{p.name} (id {p.id})"


ALLOW_SAME_NAME = click.option(
    "--allow-same-name",
    is_flag=True,
    help="Register a second person of a registered name (told apart by FIDE id or birthdate).",
)
WHY = click.option(
    "--reason", metavar="TEXT", help="Why: kept with the change in the corrections log."
)


@click.group("player")
def player() -> None:
    """Register, edit, list and merge players."""


@player.command("add")
@click.argument("name")
@ALLOW_SAME_NAME
@click.option("--birthdate", help="YYYY-MM-DD, or YYYY when only the year is known.")
@click.option("--fide-id", "fide_id_text", metavar="N", help="FIDE id (1 to 11 digits).")
@click.option("--rating", "rating_text", metavar="R", help="Published rating on entry (0-3500).")
@click.option(
    "--games", "games_text", metavar="N",
    help="Prior rated games (default: unknown; a rated player whose count is unknown gets "
    "K 20 unless junior or 2400, see README).",
)  # fmt: skip
@click.option("--k10", is_flag=True, help="Permanent K=10 (reached 2400 elsewhere).")
@click.option("--sex", type=click.Choice(["m", "f"]))
@click.option("--federation", help="Three-letter federation code.")
@click.option("--title", help="GM, IM, FM, CM, WGM, WIM, WFM or WCM.")
@click.option("--rapid-rating", metavar="R", help="Published rapid rating on entry (0-3500).")
@click.option("--rapid-games", metavar="N", help="Prior rated rapid games (default: unknown).")
@click.option("--blitz-rating", metavar="R", help="Published blitz rating on entry (0-3500).")
@click.option("--blitz-games", metavar="N", help="Prior rated blitz games (default: unknown).")
@pass_app
def player_add(
    app: App,
    name: str,
    allow_same_name: bool,
    birthdate: str | None,
    fide_id_text: str | None,
    rating_text: str | None,
    games_text: str | None,
    k10: bool,
    sex: str | None,
    federation: str | None,
    title: str | None,
    rapid_rating: str | None,
    rapid_games: str | None,
    blitz_rating: str | None,
    blitz_games: str | None,
) -> None:
    """Register a player (with --rapid-*/--blitz-*: entry data of the rapid and blitz lists)."""
    limits.option("NAME", limits.name_length, name)
    lists = {
        "rapid_rating": limits.option("--rapid-rating", limits.rating, rapid_rating),
        "rapid_games": limits.option("--rapid-games", limits.games, rapid_games),
        "blitz_rating": limits.option("--blitz-rating", limits.rating, blitz_rating),
        "blitz_games": limits.option("--blitz-games", limits.games, blitz_games),
    }
    fide_id = limits.option("--fide-id", limits.fide_id, fide_id_text)
    rating = limits.option("--rating", limits.rating, rating_text)
    games = limits.option("--games", limits.games, games_text)
    warnings: list[str] = []  # players of close names: perhaps the same person
    with app.session() as session:
        p = service.add_player(
            session,
            name,
            birth=service.Birth.from_string(birthdate).not_after(clock.today()),
            fide_id=fide_id,
            rating=rating,
            games=games,
            k10=k10,
            sex=sex,
            federation=federation,
            title=title,
            allow_same_name=allow_same_name,
            rapid_rating=lists["rapid_rating"],
            rapid_games=lists["rapid_games"],
            blitz_rating=lists["blitz_rating"],
            blitz_games=lists["blitz_games"],
            warnings=warnings,
        )
        report = f"Added {describe_player(p)}"
    click.echo(report)  # only once the player is saved
    for warning in warnings:
        click.echo(f"Warning: {warning}", err=True)


REGISTER_COLUMNS = (
    "id", "name", "birthdate", "sex", "federation", "title", "fide_id", "rating", "games",
    "k10", "rapid_rating", "rapid_games", "blitz_rating", "blitz_games",
)  # fmt: skip
"""``player list --format csv``: exactly the columns ``import players --update`` reads, so
that a register edited in a spreadsheet goes back changing only what was edited."""


def _register_row(p: Player) -> list[Value]:
    born = p.birth_date.isoformat() if p.birth_date else p.birth_year
    return [
        p.id, p.name, born, p.sex, p.federation, p.title, p.fide_id, p.entry_rating,
        p.entry_games, p.k10, p.rapid_entry_rating, p.rapid_entry_games, p.blitz_entry_rating,
        p.blitz_entry_games,
    ]  # fmt: skip


@player.command("list")
@click.option(
    "--search",
    metavar="TEXT",
    help="Only names that contain TEXT, as typed or folded (any case, accents or none: "
    "'novak' finds 'Novák, Jiří').",
)
@click.option(
    "--unknown-games",
    is_flag=True,
    help="Only rated players whose count of prior rated games is unknown (K 20 is assumed; "
    "'player edit --games N' settles one).",
)
@format_option("csv: the columns 'import players --update' reads (edit, then update back).")
@pass_app
def player_list(app: App, search: str | None, unknown_games: bool, fmt: str) -> None:
    """List the register, by name (folded: Öberg among the O's)."""
    with app.session() as session:
        if unknown_games:
            from ratings.service.imports.notices import unknown_games_players

            players = unknown_games_players(session)
        else:
            players = service.list_players(session, search=search)
    if search is not None and not players:
        click.echo(f"no players match {search!r}", err=fmt != "table")
        if fmt == "table":
            return
    if fmt != "table":
        emit_rows(REGISTER_COLUMNS, [_register_row(p) for p in players], fmt)
        return
    click.echo(f"{'id':>5}  {'name':<30} {'fide id':>10} {'born':>10} {'entry':>5} {'k10':>3}")
    for p in players:
        born = p.birth_date.isoformat() if p.birth_date else (str(p.birth_year or ""))
        click.echo(
            f"{p.id:>5}  {p.name:<30} {p.fide_id or '':>10} {born:>10} "
            f"{p.entry_rating if p.entry_rating is not None else '':>5} "
            f"{'yes' if p.k10 else '':>3}"
        )


@player.command("show")
@click.argument("player_ref", metavar="PLAYER")
@format_option("Output format (csv: a header row and one row; json: one object).")
@pass_app
def player_show(app: App, player_ref: str, fmt: str) -> None:
    """Show one player's register entry, current rating on each list (next K, total rated
    games), an unrated player's way to a first rating, and the aliases."""
    from ratings.service.reading.summary import player_summary

    with app.session(commit=False) as session:
        ref, note = reading(session, player_ref)
        fields = _summary_fields(player_summary(session, service.get_player(session, ref)))
    say_note(note)
    if fmt == "table":
        width = max(15, *(len(label) + 2 for label, _, _ in fields))  # a space after the colon
        for label, _, text in fields:
            click.echo(f"{label + ':':<{width}}{text}")
        return
    keys = [label.replace(" (by hand)", "").replace(" ", "_").lower() for label, _, _ in fields]
    if fmt == "json":
        values = dict(zip(keys, (raw for _, raw, _ in fields), strict=True))
        click.echo(json.dumps(values, indent=2, ensure_ascii=False))
        return
    emit_rows(keys, [[_cell(raw) for _, raw, _ in fields]], "csv")


def _summary_fields(summary: PlayerSummary) -> list[tuple[str, object, str]]:
    """(label, value as JSON gives it, text as the table shows it) of ``player show``."""
    p = summary.player
    born = p.birth_date.isoformat() if p.birth_date else p.birth_year
    fields: list[tuple[str, object, str]] = [
        (label, value, _shown(value))
        for label, value in (
            ("id", p.id),
            ("name", p.name),
            ("fide id", p.fide_id),
            ("born", born),
            ("sex", p.sex),
            ("federation", p.federation),
            ("title", p.title),
            ("entry rating", p.entry_rating),
        )
    ]
    fields += [
        ("entry games", p.entry_games, "unknown" if p.entry_games is None else str(p.entry_games)),
        ("k10 (by hand)", p.k10, "yes" if p.k10 else "no"),
        ("games stored", summary.games_stored, str(summary.games_stored)),
    ]
    for s in summary.current_ratings:
        prefix = "" if s.time_control == "standard" else f"{s.time_control} "
        where = f" (list of period {s.period})" if s.period else " (entry, no list yet)"
        rating = "unrated" if s.rating is None else str(s.rating)
        total = "unknown" if s.total_games is None else str(s.total_games)
        fields += [
            (f"{prefix}rating", s.rating, rating + where),
            (f"{prefix}next K", s.next_k, _shown(s.next_k)),
            (f"{prefix}total games", s.total_games, total),
        ]
    if summary.progress is not None:
        g = summary.progress
        since = f", the first on {g.since}" if g.since else ""
        text = f"{g.games} of {g.needed} games against rated opponents{since}"
        fields.append(("first rating", f"{g.games}/{g.needed}", text))
    if summary.aliases:
        names = [name for name, _, _ in summary.aliases]
        text = ", ".join(
            f"{name!r} ({source}" + (f", import {imp})" if imp else ")")
            for name, source, imp in summary.aliases
        )
        fields.append(("aliases", names, text))
    return fields


def _shown(value: object) -> str:
    return "" if value is None else str(value)


def _cell(value: object) -> Value:
    if isinstance(value, list):
        return "; ".join(map(str, value))
    return value if isinstance(value, str | int) or value is None else str(value)


@player.command("edit")
@click.argument("player_ref", metavar="PLAYER")
@click.option("--name")
@click.option("--birthdate", help="YYYY-MM-DD or YYYY; '' clears it.")
@click.option("--fide-id", metavar="N", help="FIDE id (1 to 11 digits); '' clears it.")
@click.option("--rating", metavar="R", help="Entry rating (0-3500); '' clears it.")
@click.option("--games", "games_text", metavar="N", help="Entry games.")
@click.option("--k10/--no-k10", default=None, help="Set or clear the hand-set K=10 flag.")
@click.option("--sex", type=click.Choice(["m", "f"]))
@click.option("--federation")
@click.option("--title")
@click.option("--rapid-rating", metavar="R", help="Rapid entry rating (0-3500); '' clears it.")
@click.option("--rapid-games", metavar="N", help="Rapid entry games.")
@click.option("--blitz-rating", metavar="R", help="Blitz entry rating (0-3500); '' clears it.")
@click.option("--blitz-games", metavar="N", help="Blitz entry games.")
@ALLOW_SAME_NAME
@DRY_RUN
@WHY
@pass_app
def player_edit(
    app: App,
    player_ref: str,
    allow_same_name: bool,
    dry_run: bool,
    reason: str | None,
    name: str | None,
    birthdate: str | None,
    fide_id: str | None,
    rating: str | None,
    games_text: str | None,
    k10: bool | None,
    sex: str | None,
    federation: str | None,
    title: str | None,
    rapid_rating: str | None,
    rapid_games: str | None,
    blitz_rating: str | None,
    blitz_games: str | None,
) -> None:
    """Correct a player's data, printing each field old -> new (entry and birth data re-rate
    from the first period that lists the player)."""
    from ratings.service.corrections import edits as corrections
    from ratings.service.shared import audit

    limits.option("--name", limits.name_length, name)
    games = limits.option("--games", limits.games, games_text)
    kwargs: dict[str, Any] = {
        "rapid_games": limits.option("--rapid-games", limits.games, rapid_games),
        "blitz_games": limits.option("--blitz-games", limits.games, blitz_games),
    }
    for key, option, parse, text in (
        ("fide_id", "--fide-id", limits.fide_id, fide_id),
        ("rating", "--rating", limits.rating, rating),
        ("rapid_rating", "--rapid-rating", limits.rating, rapid_rating),
        ("blitz_rating", "--blitz-rating", limits.rating, blitz_rating),
    ):
        if text is not None:  # blank clears it
            kwargs[key] = limits.option(option, parse, text) if text.strip() else None
    with app.session(commit=not dry_run) as session:
        p, changed = service.edit_player(
            session,
            player_ref,
            name=name,
            birth=(
                service.Birth.from_string(birthdate).not_after(clock.today())
                if birthdate is not None
                else None
            ),
            games=games,
            k10=k10,
            sex=sex,
            federation=federation,
            title=title,
            allow_same_name=allow_same_name,
            reason=reason,
            **kwargs,
        )
        verb = "Would change" if dry_run else "Changed"
        if changed:
            report = f"{verb} {', '.join(changed)} of {describe_player(p)}"
        else:
            report = f"Nothing changed for {describe_player(p)}"
        lines = audit.change_lines(session, audit.recorded(session))
        marked = corrections.touched(session)
    say_corrected(report, lines, None, marked, dry_run=dry_run)  # only once saved


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


@player.command("merge")
@click.argument("keep", metavar="KEEP")
@click.argument("remove", metavar="DUPLICATE")
@YES
@click.option("--force", is_flag=True, help="Merge even when FIDE ids or birthdates differ.")
@DRY_RUN
@WHY
@pass_app
def player_merge(
    app: App, keep: str, remove: str, yes: bool, force: bool, dry_run: bool, reason: str | None
) -> None:
    """Merge DUPLICATE into KEEP (two records of one person): its games, byes and the data
    KEEP lacks move to KEEP. Asks first (--yes does not); players whose FIDE ids or
    birthdates differ need --force. Recorded, and undone by 'player unmerge DUPLICATE'.
    """
    from ratings.service.register import merge
    from ratings.service.shared import audit

    audit.check_reason(reason)
    with app.session(commit=False) as session:
        plan = service.plan_merge(session, keep, remove)
        merge.check_merge(plan, force=force)
        question, ids = plan.describe(), (str(plan.keep.id), str(plan.remove.id))
    if not yes and not dry_run:
        click.echo(question, err=True)
        ask("Merge them?")
    with app.session(commit=not dry_run) as session:
        done = service.merge_players(session, *ids, force=force, reason=reason)
        aliases = f", {_plural(done.aliases, 'alias')}" if done.aliases else ""
        verb, moved = ("Would merge", "would move") if dry_run else ("Merged", "moved")
        report = (
            f"{verb} {describe_player(done.remove)} into {describe_player(done.keep)}: "
            f"{_plural(done.games, 'game')}{aliases} and {_plural(done.byes, 'bye')} {moved}; "
            f"'ratings player unmerge {done.remove.id}' undoes it"
        )
        lines = audit.change_lines(session, audit.recorded(session))
    say_corrected(report, lines, None, done.marked_period, dry_run=dry_run)  # once saved


@player.command("unmerge")
@click.argument("merged", metavar="DUPLICATE")
@YES
@DRY_RUN
@WHY
@pass_app
def player_unmerge(app: App, merged: str, yes: bool, dry_run: bool, reason: str | None) -> None:
    """Undo 'player merge' of DUPLICATE (its id): both players and their games are as they
    were before the merge (a game voided since stays voided). The games and byes imports
    gave the kept player while the two were merged stay with him and are listed. The next
    'ratings rate' re-rates."""
    from ratings.service.register import merge
    from ratings.service.shared import audit

    audit.check_reason(reason)
    with app.session(commit=False) as session:
        found = merge.find_merged(session, merged)
        question = (
            f"Unmerge {describe_player(found)} from player {found.merged_into_id}: "
            "its games, byes and data go back to it"
        )
        ref = str(found.id)
    if not yes and not dry_run:
        click.echo(question, err=True)
        ask("Unmerge?")
    with app.session(commit=not dry_run) as session:
        done = service.unmerge_player(session, ref, reason=reason)
        aliases = f", {_plural(done.aliases, 'alias')}" if done.aliases else ""
        verb, moved = ("Would unmerge", "would move") if dry_run else ("Unmerged", "moved")
        report = (
            f"{verb} {describe_player(done.restored)} from {describe_player(done.keep)}: "
            f"{_plural(done.games, 'game')}{aliases} and {_plural(done.byes, 'bye')} {moved} "
            "back"
        )
        lines = audit.change_lines(session, audit.recorded(session))
    if dry_run:
        click.echo(DRY_RUN_DONE)
    click.echo(report)  # only once the unmerge is saved
    say_changes(lines)
    for note in done.skipped:
        click.echo(f"Not restored: {note}", err=True)
    if done.stored_while_merged:
        keep = done.keep.id
        click.echo(
            "Stored while the two were merged, by imports that may have taken "
            f"'{done.restored.name}' for player {keep} (the database does not keep the names "
            f"a file wrote); left with player {keep}, look at them:",
            err=True,
        )
        for item in done.stored_while_merged:
            click.echo(f"  {item.what} (import {item.import_id}, {item.file_name})", err=True)
        click.echo(
            "No command moves a game or bye to another player: 'ratings import undo ID' and "
            "the file imported again (its names are then found as registered now), or "
            "'ratings game void ID' and 'ratings game add'",
            err=True,
        )
    say_marked(done.marked_period, would=dry_run)


@player.group("alias")
def player_alias() -> None:
    """The spellings that stand for a player in imports (aliases): an import keeps one for
    every --match, --new or prompt answer; add and remove them here."""


@player_alias.command("add")
@click.argument("player_ref", metavar="PLAYER")
@click.argument("name", metavar="NAME")
@WHY
@pass_app
def player_alias_add(app: App, player_ref: str, name: str, reason: str | None) -> None:
    """Make NAME (as files write it) stand for PLAYER in every import from now on."""
    from ratings.service.register import aliases as alias_service

    limits.option("NAME", limits.name_length, name)
    with app.session() as session:
        row = alias_service.add_alias(session, player_ref, name, reason=reason)
        report = f"Added alias {row.name!r} for {row.player} (id {row.player_id})"
    click.echo(report)  # only once the alias is saved


@player_alias.command("list")
@click.argument("player_ref", metavar="PLAYER", required=False)
@FORMAT
@pass_app
def player_alias_list(app: App, player_ref: str | None, fmt: str) -> None:
    """List the aliases (of one PLAYER): how each was given, by which import, when (UTC)."""
    from ratings.service.register import aliases as alias_service

    with app.session(commit=False) as session:
        player_ref, note = reading_if_any(session, player_ref)
        rows = alias_service.list_aliases(session, player_ref)
    say_note(note)
    emit_rows(
        ("id", "player_id", "player", "alias", "source", "import_id", "created_at"),
        [(r.id, r.player_id, r.player, r.name, r.source, r.import_id, r.created_at)
         for r in rows],
        fmt,
    )  # fmt: skip


@player.command("duplicates")
@FORMAT
@pass_app
def player_duplicates(app: App, fmt: str) -> None:
    """List pairs of registered players who may be one person, likeliest first, each with
    how the names are close, what both give alike, and the 'player merge' that joins them
    (a pair told apart by FIDE ids, birth year, sex or federation is left out)."""
    from ratings.service.register.duplicates import likely_duplicates

    with app.session(commit=False) as session:
        pairs = likely_duplicates(session)
    if not pairs and fmt == "table":
        click.echo("No likely duplicates", err=True)
        return
    emit_rows(
        ("keep", "keep_name", "duplicate", "duplicate_name", "how", "evidence_for", "merge"),
        [(p.keep, p.keep_name, p.duplicate, p.duplicate_name, p.how, p.evidence, p.merge)
         for p in pairs],
        fmt,
    )  # fmt: skip


@player_alias.command("remove")
@click.argument("name", metavar="NAME")
@WHY
@pass_app
def player_alias_remove(app: App, name: str, reason: str | None) -> None:
    """Remove the alias NAME (compared as imports compare it: folded)."""
    from ratings.service.register import aliases as alias_service

    limits.option("NAME", limits.name_length, name)
    with app.session() as session:
        row = alias_service.remove_alias(session, name, reason=reason)
        report = f"Removed alias {row.name!r} of {row.player} (id {row.player_id})"
    click.echo(report)  # only once the removal is saved


@click.group("game")
def game() -> None:
    """Record, correct and void single games."""


@game.command("add")
@click.argument("white")
@click.argument("black")
@click.argument("result")
@click.option(
    "--date", "date_text", metavar="YYYY-MM-DD", required=True, help="The day it was played."
)
@click.option("--event", help="Event name (a stored event of that name is extended).")
@click.option("--round", "round_", help="Round.")
@click.option(
    "--period",
    metavar="YYYY-MM",
    help="Rate the game's event in this period (submitted for a later list than its date "
    "gives); a stored event must have that period already.",
)
@LATE_OK
@TIME_CONTROL
@ALLOW_FUTURE
@YES
@pass_app
def game_add(
    app: App,
    white: str,
    black: str,
    result: str,
    date_text: str,
    event: str | None,
    round_: str | None,
    period: str | None,
    late_ok: bool,
    time_control: str | None,
    allow_future: bool,
    yes: bool,
) -> None:
    """Record one game: WHITE BLACK RESULT (1-0, 0-1, 1/2-1/2, +/-, -/+, -/-).

    A game that sends its stored event to another rating period or list asks first.
    """
    from ratings.service.corrections import edits as corrections
    from ratings.service.rating.periods import game_rating_period

    limits.option("--event", limits.event_name, event)
    limits.option("--round", limits.round_name, round_)
    played_on = parse_date(date_text)
    outcome = parse_result(result)
    today = today_unless(allow_future)

    def add(allow_move: bool) -> tuple[int, str | None, list[str]]:
        with app.session() as session:
            g = service.add_game(
                session,
                white,
                black,
                outcome,
                played_on,
                event_name=event,
                round=round_,
                today=today,
                allow_move=allow_move,
                time_control=time_control,
            )
            late = []
            if period is not None:
                late = game_rating_period(session, g.id, period, late_ok=late_ok)
            return g.id, corrections.touched(session), late

    (game_id, marked, late), move = confirmed(add, yes)
    say_corrected(f"Added game {game_id}", [], move, marked, late=late)  # once saved


@game.command("edit")
@click.argument("game_id_text", metavar="GAME_ID")
@click.option("--result")
@click.option("--date", "date_text", metavar="YYYY-MM-DD", help="The day it was played.")
@click.option("--round", "round_")
@click.option("--rated/--unrated", default=None, help="--unrated: played but not rated.")
@ALLOW_FUTURE
@correction_options
@pass_app
def game_edit(
    app: App,
    game_id_text: str,
    result: str | None,
    date_text: str | None,
    round_: str | None,
    rated: bool | None,
    allow_future: bool,
    yes: bool,
    dry_run: bool,
    reason: str | None,
) -> None:
    """Correct a stored game, printing each field old -> new (its rated period is re-rated
    by the next 'ratings rate').

    A new date that changes the event's dates asks first: all its games follow.
    """
    from ratings.service.corrections import edits as corrections
    from ratings.service.shared import audit

    game_id = limits.option("GAME_ID", limits.game_id, game_id_text)
    if result is None and date_text is None and round_ is None and rated is None:
        raise click.UsageError(
            "nothing to change: give --result, --date, --round or --rated/--unrated"
        )
    limits.option("--round", limits.round_name, round_)
    new_result = parse_result(result) if result is not None else None
    played_on = parse_date(date_text) if date_text is not None else None
    today = today_unless(allow_future)

    def edit(allow_move: bool) -> tuple[list[str], str | None]:
        with app.session(commit=not dry_run) as session:
            service.edit_game(
                session,
                game_id,
                result=new_result,
                played_on=played_on,
                round=round_,
                rated=rated,
                today=today,
                allow_move=allow_move,
                reason=reason,
            )
            lines = audit.change_lines(session, audit.recorded(session))
            return lines, corrections.touched(session)

    try:
        (lines, marked), move = confirmed(edit, yes, dry_run=dry_run)
    except NothingChangedError:
        click.echo(f"Game {game_id} unchanged: it already has these values")
        return
    report = f"{'Would change' if dry_run else 'Changed'} game {game_id}"
    say_corrected(report, lines, move, marked, dry_run=dry_run)  # only once saved


@game.command("void")
@click.argument("game_id_text", metavar="GAME_ID")
@correction_options
@pass_app
def game_void(app: App, game_id_text: str, yes: bool, dry_run: bool, reason: str | None) -> None:
    """Remove a game recorded in error, naming it (its rated period is re-rated by the next
    rate).

    A void that changes the event's dates asks first.
    """
    from ratings.service.corrections import edits as corrections
    from ratings.service.corrections.games import describe_game
    from ratings.service.shared import audit

    game_id = limits.option("GAME_ID", limits.game_id, game_id_text)

    def void(allow_move: bool) -> tuple[list[str], str | None]:
        with app.session(commit=not dry_run) as session:
            removed = f"{describe_game(session, game_id)} -> removed"
            service.void_game(session, game_id, allow_move=allow_move, reason=reason)
            # the game's own lines are its removal (said above); the rest, the event's dates
            moved = [c for c in audit.recorded(session) if c.game_id != game_id]
            lines = audit.change_lines(session, moved)
            return [removed, *lines], corrections.touched(session)

    (lines, marked), move = confirmed(void, yes, dry_run=dry_run)
    report = f"{'Would void' if dry_run else 'Voided'} game {game_id}"
    say_corrected(report, lines, move, marked, dry_run=dry_run)  # only once it is gone


def register(group: click.Group) -> None:
    """Add these commands to the top-level group."""
    group.add_command(player)
    group.add_command(game)
