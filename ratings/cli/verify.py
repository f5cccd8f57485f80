"""``ratings verify``: a published website, a downloaded list or a database against the chain
of seals (docs/SEALS.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ratings.cli import App, CommandError, pass_app
from ratings.cli.tables import counted, format_option
from ratings.sealing import Finding

_SQLITE_HEADER = b"SQLite format 3\x00"


def _is_database(path: str) -> bool:
    """A database URL, or a SQLite file (by its first bytes)."""
    if "://" in path:
        return True
    try:
        with open(path, "rb") as f:
            return f.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:
        return False


@click.command("verify")
@click.argument("path", required=False)
@click.option(
    "--seals",
    "chain",
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With a list file: the seals.json to verify it against (default: the one beside it "
    "or in the folder above).",
)
@format_option(
    "Output format.",
    choices=("text", "json"),
)
@pass_app
def verify(app: App, path: str | None, chain: Path | None, fmt: str) -> None:
    """Check a website, a list file or a database against the chain of seals.

    PATH is a folder 'ratings publish' wrote (with its seals.json), one of its list files
    (lists/YYYY-MM.csv, .json or -sealed.csv, checked against the seals.json beside it, in
    the folder above, or --seals FILE), or a database (a SQLite file or a URL; default: the
    --db database). Every seal must be the SHA-256 its values give and every list must name
    the seal of the list before it; every copy of a list must hold the rows its seal covers;
    a database's lists and their inputs must be those sealed.

    Prints each difference (the list, the file and line or the table, the player and the
    field) and exits 1 if there is any; an older version of a list that a later one
    replaced is named, not a difference. The database is only read.
    """
    from ratings.service.reading.verify import VerifyReport, verify_database, verify_files

    report: VerifyReport
    if path is None or _is_database(path):
        if chain is not None:
            raise click.UsageError("--seals goes with a list file, not a database")
        db = app if path is None else App(path)
        try:
            with db.session(commit=False) as session:
                report = verify_database(session)
        finally:
            if db is not app:
                db.close()
        source = f"the database {db.path}"
    else:
        report = verify_files(Path(path), chain=chain)
        source = report.source
    if fmt == "json":
        click.echo(json.dumps(_as_json(report, source), indent=2, ensure_ascii=False))
    else:
        for finding in report.findings:
            click.echo(("" if finding.difference else "note: ") + finding.line)
    n = len(report.differences)
    if n:
        raise CommandError(
            f"{n} difference{'s' if n != 1 else ''} between {source} and its seals "
            f"({_checked(report)})"
        )
    if fmt == "text":
        click.echo(f"Verified {source}: {_checked(report)}; every one is as sealed")


def _checked(report: object) -> str:
    from ratings.service.reading.verify import VerifyReport

    assert isinstance(report, VerifyReport)
    return (
        f"{counted(report.lists, 'list')}, {counted(report.versions, 'seal')} and "
        f"{counted(report.rows, 'row')} checked"
    )


def _finding(f: Finding) -> dict[str, object]:
    return {"where": f.where, "what": f.what, "difference": f.difference}


def _as_json(report: object, source: str) -> dict[str, object]:
    from ratings.service.reading.verify import VerifyReport

    assert isinstance(report, VerifyReport)
    return {
        "source": source,
        "ok": report.ok,
        "checked": {"lists": report.lists, "seals": report.versions, "rows": report.rows},
        "differences": [_finding(f) for f in report.differences],
        "notes": [_finding(f) for f in report.notes],
    }


def register(group: click.Group) -> None:
    """Add ``verify`` to the top-level group."""
    group.add_command(verify)
