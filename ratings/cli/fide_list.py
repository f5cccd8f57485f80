"""``ratings import fide-list FILE``: refresh the register from FIDE's rating list."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click
from sqlalchemy.orm import Session

from ratings import rules
from ratings.cli import App, pass_app
from ratings.cli.decisions import DecisionOptions
from ratings.cli.imports import (
    FILE,
    REPORT_FORMAT,
    emit_json,
    import_,
    run_import,
    say_taken,
    warn_unknown_games,
)
from ratings.cli.options import list_option
from ratings.cli.tables import counted
from ratings.errors import InvalidInputError
from ratings.service.imports.fide_list import (
    FideListReport,
    NotAdded,
    hash_file,
    import_fide_list,
)
from ratings.service.shared import audit


def _month(text: str | None) -> dt.date | None:
    if text is None:
        return None
    try:
        return rules.Period.from_string(text).start
    except rules.RulesError as exc:
        raise InvalidInputError(f"--month: {exc}") from None


def _value(value: object) -> str:
    text = audit.as_text(value)
    return "(none)" if text is None else text


def _json(report: FideListReport, dry_run: bool) -> None:
    """``--format json`` of ``import fide-list``."""
    emit_json(
        "fide-list", report.file_name, dry_run, report.matching,
        list_date=report.list_date, read=report.read, matched=report.matched,
        updated=report.updated, added=report.added, linked=report.linked,
        rated_here=report.rated_here, with_k=report.with_k,
        without_fide_id=report.without_fide_id, again_of=report.again_of,
        changes=[{"player_id": c.player_id, "player": c.name, "field": c.field, "old": c.old,
                  "new": c.new} for c in report.changes],
        not_added=[{"line": n.line, "fide_id": n.fide_id, "spelling": n.name,
                    "player_id": n.player_id, "why": n.why, "kind": n.kind,
                    "player": n.registered or None} for n in report.not_added],
        not_taken=[{"line": t.line, "fide_id": t.fide_id, "spelling": t.name,
                    "player_id": t.player_id, "player": t.registered}
                   for t in report.not_taken],
        warnings=[str(w) for w in report.warnings], marked_period=report.marked_period,
    )  # fmt: skip


def _report(report: FideListReport, add: bool, dry_run: bool) -> None:
    if dry_run:
        click.echo(f"Dry run of {report.file_name}: nothing was written")
    for c in report.changes:
        click.echo(f"Player {c.player_id} ({c.name}): {c.field} {_value(c.old)} -> {_value(c.new)}")
    added = f", {counted(report.added, 'player')} added" if add else ""
    linked = (
        f", {report.linked:,} registered without a FIDE id found by name (they took theirs)"
        if report.linked
        else ""
    )
    if report.again_of is not None:
        click.echo(
            f"Read {counted(report.read, 'player')} from {report.file_name} (FIDE's list of "
            f"{report.list_date:%Y-%m}, imported before: import {report.again_of}): "
            f"{report.matched:,} registered found by FIDE id, left as they are{added}"
        )
    else:
        click.echo(
            f"Read {counted(report.read, 'player')} from {report.file_name} (FIDE's list of "
            f"{report.list_date:%Y-%m}): {report.matched:,} registered found by FIDE id, "
            f"{report.updated - report.linked:,} of them updated{linked}{added}"
        )
    say_taken(report.matching)
    for warning in report.warnings:
        click.echo(f"Warning: {warning}", err=True)
    if report.without_fide_id:
        rows = "row" if report.without_fide_id == 1 else "rows"
        click.echo(
            f"Skipped {report.without_fide_id:,} {rows} without a FIDE id (no FIDE player: "
            "nothing of FIDE's list to take)",
            err=True,
        )
    for n in report.not_added:
        click.echo(
            f"Warning: {report.file_name}:{n.line}: name: {n.name!r} (FIDE id {n.fide_id}) not "
            f"added: {_not_added(n)}",
            err=True,
        )
    for t in report.not_taken:
        click.echo(
            f"Warning: {report.file_name}:{t.line}: name: {t.name!r} (FIDE id {t.fide_id}) not "
            f"taken: FIDE id {t.fide_id} is player {t.player_id}'s ({t.registered}), and the "
            "names share no word; the register's FIDE id may be mistyped: 'ratings player "
            f"edit {t.player_id} --fide-id N' corrects it",
            err=True,
        )
    if report.rated_here:
        verb = "is" if report.rated_here == 1 else "are"
        click.echo(
            f"{counted(report.rated_here, 'player')} found {verb} on lists here already: their "
            "ratings come from the games stored here, not from FIDE's list (their K, data and "
            "titles were taken)",
            err=True,
        )
    _marked(report, dry_run)


def _not_added(n: NotAdded) -> str:
    """Why a list player was not added, and what to do."""
    if n.kind == "no_fide_id":
        why = f" ({n.why})" if n.why else ""
        return (
            f"player {n.player_id} of that name is registered without a FIDE id{why}; if they "
            f"are one person: 'ratings player edit {n.player_id} --fide-id {n.fide_id}'"
        )
    who = f"player {n.player_id} ({n.registered}, FIDE {n.registered_fide_id})"
    what = f"an alias of {who}" if n.kind == "alias" else f"the name of {who}"
    folded = f", {n.why}" if n.why else ""
    add = f"'ratings player add \"{n.name}\" --fide-id {n.fide_id} --allow-same-name' adds him"
    alias = (
        f", or 'ratings player alias remove \"{n.name}\"' and --add again"
        if n.kind == "alias"
        else ""
    )
    return (
        f"it is {what}{folded}, whom the files that write it name; if they are two people: "
        f"{add} by hand{alias}"
    )


def _marked(report: FideListReport, dry_run: bool) -> None:
    if report.marked_period and dry_run:
        click.echo(
            f"This would touch rated period {report.marked_period}: 'ratings rate' would "
            "re-rate from there",
            err=True,
        )
    elif report.marked_period:
        click.echo(
            f"This touches rated period {report.marked_period}: 'ratings rate' re-rates from there",
            err=True,
        )


@import_.command("fide-list")
@FILE
@click.option(
    "--month",
    "month_text",
    metavar="YYYY-MM",
    help="The month of FIDE's list (the combined TXT and the XML lists do not say it).",
)
@click.option(
    "--federation",
    metavar="CODE",
    help="Only this federation's players (the others are not even read).",
)
@click.option(
    "--add",
    is_flag=True,
    help="Also register the list's players that are not registered.",
)
@list_option(
    "Which list a single-type TXT file is, when its name does not say it (FIDE's "
    "standard, rapid and blitz files look alike, as does 'ratings list --format fide-txt').",
    default=None,
)
@click.option(
    "--dry-run", is_flag=True, help="Read the list and show what would change; write nothing."
)
@REPORT_FORMAT
@pass_app
def import_fide_list_command(
    app: App,
    file: Path,
    month_text: str | None,
    federation: str | None,
    add: bool,
    list_type: str | None,
    dry_run: bool,
    fmt: str,
) -> None:
    """Refresh registered players from FIDE's rating list (TXT or XML, plain or zipped).

    Players are found by FIDE id. Each gets FIDE's K for the period the list starts (it
    settles an unknown count of prior games; K 10 sets the K=10 flag), birth year, sex,
    title and federation; a player no list here holds yet also gets the published rating
    as entry rating. Every change is printed and recorded in the corrections log. --add
    registers the list's other players (or, with --federation, those of one federation),
    after looking for each among the registered players without a FIDE id by name (folded:
    accents, word order): one certain match takes the FIDE id; an unsure one is reported,
    not added, as is one whose name is a registered player's own name (folded) or alias.
    --add works on a list imported before too: it then adds the players not registered
    yet, and changes nobody else. Rows without a FIDE id (the players 'ratings
    list --format fide-txt' writes without one) are skipped and counted: they are no FIDE
    players. Each registered player found by name is named (line, spelling, player, why).
    """
    list_date = _month(month_text)
    digest = hash_file(file)

    def work(session: Session, _decisions: object, _advance: object) -> FideListReport:
        return import_fide_list(
            session,
            file,
            data_hash=digest,
            list_date=list_date,
            federation=federation,
            add=add,
            list_type=list_type,
        )

    # a FIDE list is read by FIDE id and folded name only: no player of it needs a decision
    report = run_import(
        app, work, decided=DecisionOptions(never_ask=True), dry_run=dry_run, creates=False
    )
    if fmt == "json":
        _json(report, dry_run)
        _marked(report, dry_run)
    else:
        _report(report, add, dry_run)
    if not dry_run:
        warn_unknown_games(app)


def register(group: click.Group) -> None:
    """Nothing to add: the command joins the ``import`` group when this module is imported."""
    del group
