"""``ratings verify``: a published website, a downloaded list file or a database against the
chain of seals (docs/SEALS.md, docs/DESIGN.md#sealed-lists).

* A **folder** (a website ``ratings publish`` wrote, with ``seals.json`` at its top, and the
  rapid and blitz sites in ``rapid/`` and ``blitz/``): the chain checks out (every seal is the
  SHA-256 its values give, every current list names the seal of the list before it), each
  current list's ``-sealed.csv`` has its seal's rows digest, its CSV and JSON carry that
  seal and hold those rows, and no list is published that the chain does not seal.
* A **file** (``YYYY-MM.csv``, ``YYYY-MM.json``, ``YYYY-MM-sealed.csv`` or ``seals.json``),
  with the chain beside it, in the folder above, or given: the version of the list it is
  (the newest, or one a later version replaced) and that its rows are that version's.
* A **database**: the chain in ``list_seals`` checks out; every stored list's canonical rows
  give its current seal's rows digest, and its inputs (games, byes, register, settings)
  its inputs' digests. A difference in the rows or the games is told with the rebuild's
  account of it (``ratings check``); a register or settings change that the corrections log
  or an import explains since the seal is a note (a change that alters a list marks it for
  a re-rate, and the rate seals it again), one it does not explain a difference.

Each difference names the list, the file and line (or the table), the row (the player) and
the field. The database is only read.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import sealing
from ratings.errors import InvalidInputError
from ratings.io import published
from ratings.io.published import LIST_FILE, SEALS_FILE, PublishedList
from ratings.models import ListSeal, RatingPeriod
from ratings.rules import Period
from ratings.sealing import Finding, SealedRow, SealRecord
from ratings.service.rating import seals as stored_seals
from ratings.service.shared.config import get_config
from ratings.service.shared.sql import to_date

__all__ = ["VerifyReport", "verify_database", "verify_files"]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What a verification read and found."""

    source: str
    """What was verified: ``site``, ``lists/2026-01.csv``, ``the database``."""
    lists: int
    """Lists (or list files) checked against their seals."""
    versions: int
    """Seals (every version) checked."""
    rows: int
    """List rows compared."""
    findings: tuple[Finding, ...] = ()

    @property
    def differences(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.difference)

    @property
    def notes(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if not f.difference)

    @property
    def ok(self) -> bool:
        """Nothing differs."""
        return not self.differences


# --- rows against rows -----------------------------------------------------------------------

_FIELDS = SealedRow._fields[1:]


def _show(value: object) -> str:
    return "none" if value is None else sealing.cell(value)


def compare_rows(
    copy: PublishedList, sealed: Mapping[int, SealedRow], against: str
) -> list[Finding]:
    """Where the rows of ``copy`` differ from the sealed rows (``against`` names them): each
    row missing, added or twice, and each field that differs, by file and line."""
    found: list[Finding] = []
    seen: set[int] = set()
    for where, row in copy.rows:
        pid = row.player_id
        if pid in seen:
            found.append(Finding(where, f"player {pid}: a second row"))
            continue
        seen.add(pid)
        expected = sealed.get(pid)
        if expected is None:
            found.append(Finding(where, f"player {pid}: a row {against} does not have"))
            continue
        for name in _FIELDS:
            mine, theirs = getattr(row, name), getattr(expected, name)
            if mine != theirs:
                found.append(
                    Finding(
                        where,
                        f"player {pid}: {name} {_show(mine)}, {against} says {_show(theirs)}",
                    )
                )
    for pid in sorted(set(sealed) - seen):
        r = sealed[pid]
        found.append(
            Finding(
                copy.path,
                f"player {pid}'s row is missing ({against} has it: rating {r.rating}, "
                f"games {r.period_games})",
            )
        )
    return found


def _by_player(copy: PublishedList) -> dict[int, SealedRow]:
    return {row.player_id: row for _, row in copy.rows}


# --- files -----------------------------------------------------------------------------------


def verify_files(path: Path, *, chain: Path | None = None) -> VerifyReport:
    """Verify a website folder or one downloaded file against the chain (``chain``: the
    ``seals.json`` to use; default the one beside the file or in the folder above).

    :raises InvalidInputError: no such file or folder, or no chain to verify against.
    :raises InputFileError: a file that cannot be read at all (not UTF-8, not JSON).
    """
    if path.is_dir():
        return _verify_folder(path)
    if not path.is_file():
        raise InvalidInputError(f"no such file or folder: {str(path)!r}")
    if path.name == SEALS_FILE and chain is None:
        tc, records, problems = published.read_seals(path, str(path))
        findings = problems + sealing.chain_findings(records, str(path))
        return VerifyReport(str(path), 0, len(records), 0, tuple(findings))
    found = LIST_FILE.fullmatch(path.name)
    if found is None:
        raise InvalidInputError(
            f"{str(path)!r} is not a list file of a ratings website (YYYY-MM.csv, "
            "YYYY-MM.json, YYYY-MM-sealed.csv), its seals.json, a folder or a database"
        )
    chain = chain or next(
        (p for p in (path.parent / SEALS_FILE, path.parent.parent / SEALS_FILE) if p.is_file()),
        None,
    )
    if chain is None:
        raise InvalidInputError(
            f"no {SEALS_FILE} beside {str(path)!r} or in the folder above it: give the "
            "chain to verify against with --seals FILE"
        )
    tc, records, problems = published.read_seals(chain, str(chain))
    findings = problems + sealing.chain_findings(records, str(chain))
    copy = _read_list(path, str(path))
    findings += copy.problems
    findings += _verify_copy(copy, path, found[1], tc, records)
    return VerifyReport(str(path), 1, len(records), len(copy.rows), tuple(findings))


def _read_list(path: Path, shown: str) -> PublishedList:
    if path.name.endswith("-sealed.csv"):
        return published.read_sealed_csv(path, shown)
    if path.suffix == ".csv":
        return published.read_list_csv(path, shown)
    return published.read_list_json(path, shown)


def _verify_copy(
    copy: PublishedList, path: Path, period: str, tc: str | None, records: Sequence[SealRecord]
) -> list[Finding]:
    """One file of a list against the versions of its seal."""
    versions = [r for r in records if r.period == period and r.kind == "sealed"]
    newest = sealing.current_versions(r for r in records if r.period == period).get(
        (tc or "", period)
    )
    name = f"{tc} list {period}"
    if copy.seal is None and copy.digest is None:
        return [Finding(copy.path, f"carries no seal: not a sealed copy of the {name}")]
    if copy.digest is not None:  # a -sealed.csv: its digest is its version's rows digest
        version = next((r for r in versions if r.rows_digest == copy.digest), None)
        if version is None:
            return [
                Finding(
                    copy.path,
                    f"its SHA-256 is {copy.digest}, the rows digest of no version of the "
                    f"{name} in the chain",
                ),
                *_located(copy, path, versions),
            ]
    else:
        version = next((r for r in versions if r.seal == copy.seal), None)
        if version is None:
            return [
                Finding(
                    copy.path,
                    f"carries the seal {copy.seal}, which the chain does not hold for the {name}",
                )
            ]
        canonical = sealing.digest(copy.canonical)
        if canonical != version.rows_digest:
            return [
                Finding(
                    copy.path,
                    f"its rows are not those of the {version.name} (their canonical form has "
                    f"SHA-256 {canonical}, the seal's rows digest is {version.rows_digest})",
                ),
                *_located(copy, path, [version]),
            ]
    if newest is not None and newest.version != version.version:
        later = "withdrew the list" if newest.kind == "withdrawn" else "replaced it"
        return [
            Finding(
                copy.path,
                f"the {version.name}, sealed {version.seal}; version {newest.version} "
                f"{later}: {newest.reason or 'no reason given'}",
                difference=False,
            )
        ]
    return []


def _located(copy: PublishedList, path: Path, versions: Sequence[SealRecord]) -> list[Finding]:
    """The rows of ``copy`` against the rows of a sibling file that is one of ``versions``
    (the ``-sealed.csv`` first): the rows and fields that differ."""
    stem = path.name.split(".")[0].removesuffix("-sealed")
    for sibling in (f"{stem}-sealed.csv", f"{stem}.json", f"{stem}.csv"):
        other = path.parent / sibling
        if other == path or not other.is_file():
            continue
        try:
            reference = _read_list(other, str(other))
        except (InvalidInputError, ValueError):
            continue
        canonical = sealing.digest(reference.canonical)
        if not reference.problems and any(canonical == v.rows_digest for v in versions):
            return compare_rows(copy, _by_player(reference), f"the sealed list ({sibling})")
    return [
        Finding(
            copy.path,
            "no sealed copy of the list beside it to tell which rows differ (its -sealed.csv)",
            difference=False,
        )
    ]


def _verify_folder(path: Path) -> VerifyReport:
    roots = [(path, "")] + [
        (path / tc, f"{tc}/") for tc in ("rapid", "blitz") if (path / tc / SEALS_FILE).is_file()
    ]
    if not (path / SEALS_FILE).is_file():
        raise InvalidInputError(
            f"no {SEALS_FILE} in {str(path)!r}: not a website 'ratings publish' wrote, or one "
            "published before lists were sealed ('ratings rate', then publish it again)"
        )
    findings: list[Finding] = []
    lists = versions = rows = 0
    for root, _ in roots:
        report = _verify_site(root)
        findings += report.findings
        lists += report.lists
        versions += report.versions
        rows += report.rows
    return VerifyReport(str(path), lists, versions, rows, tuple(findings))


def _verify_site(root: Path) -> VerifyReport:
    """One list's website: the chain, and every list file against it."""
    chain = root / SEALS_FILE
    tc, records, problems = published.read_seals(chain, str(chain))
    findings = problems + sealing.chain_findings(records, str(chain))
    current = sealing.current_versions(records)
    sealed = {period: r for (_, period), r in current.items() if r.kind == "sealed"}
    folder = root / "lists"
    files: dict[str, set[str]] = {}
    if folder.is_dir():
        for entry in sorted(folder.iterdir()):
            found = LIST_FILE.fullmatch(entry.name)
            if found is not None and entry.is_file():
                files.setdefault(found[1], set()).add(entry.name)
    rows = 0
    for period in sorted(set(files) - set(sealed)):
        withdrawn = current.get((tc or "", period))
        why = (
            f"the chain withdrew it ({withdrawn.name}: {withdrawn.reason})"
            if withdrawn is not None
            else "the chain has no seal for it"
        )
        for name in sorted(files[period]):
            findings.append(Finding(str(folder / name), f"a list published, but {why}"))
    for period, record in sorted(sealed.items()):
        names = files.get(period, set())
        copies: list[PublishedList] = []
        for name in (f"{period}-sealed.csv", f"{period}.csv", f"{period}.json"):
            shown = str(folder / name)
            if name not in names:
                findings.append(Finding(shown, f"missing: the chain seals the {record.name}"))
                continue
            copy = _read_list(folder / name, shown)
            findings += copy.problems
            copies.append(copy)
            rows += len(copy.rows)
        findings += _verify_list(record, copies)
    return VerifyReport(str(root), len(sealed), len(records), rows, tuple(findings))


def _verify_list(record: SealRecord, copies: Sequence[PublishedList]) -> list[Finding]:
    """The copies of one current list (its -sealed.csv, CSV, JSON) against its seal."""
    found: list[Finding] = []
    good: list[PublishedList] = []
    for copy in copies:
        if copy.digest is not None:
            ok = copy.digest == record.rows_digest
            if not ok:
                found.append(
                    Finding(
                        copy.path,
                        f"its SHA-256 is {copy.digest}, the {record.name} is sealed with rows "
                        f"digest {record.rows_digest}",
                    )
                )
        else:
            if copy.seal != record.seal:
                found.append(
                    Finding(
                        copy.path,
                        f"carries the seal {copy.seal or 'none'}, the {record.name} is sealed "
                        f"{record.seal}",
                    )
                )
            ok = sealing.digest(copy.canonical) == record.rows_digest
            if not ok:
                found.append(Finding(copy.path, f"its rows are not those of the {record.name}"))
        if ok and not copy.problems:
            good.append(copy)
    if len(good) < len(copies):
        if good:
            reference = _by_player(good[0])
            against = f"the sealed list ({Path(good[0].path).name})"
            for copy in copies:
                if copy not in good:
                    found += compare_rows(copy, reference, against)
        else:
            found.append(
                Finding(
                    record.name,
                    "no copy of the list holds the sealed rows: which rows differ cannot be told",
                )
            )
    return found


# --- the database ----------------------------------------------------------------------------


def verify_database(session: Session) -> VerifyReport:
    """Verify the database's lists against its chain of seals (module docstring)."""
    rows_stored = stored_seals.seal_rows(session)
    records = [stored_seals.record_of(r) for r in rows_stored]
    findings = sealing.chain_findings(records, "list_seals")
    by_key = {(r.time_control, r.period): r for r in rows_stored}  # ids ascending: newest
    config = get_config(session)
    months = config.period_months
    periods = [
        (Period(to_date(start), months), status)
        for start, status in session.execute(
            sa.select(RatingPeriod.start_date, RatingPeriod.status).order_by(
                RatingPeriod.start_date
            )
        )
    ]
    pending = next((p for p, status in periods if status == "needs_rerate"), None)
    explained = _Explained(session)
    lists = rows = 0
    suspects: set[tuple[str, str]] = set()
    checked: set[tuple[str, str]] = set()
    stored: set[tuple[str, str]] = set()
    for period, tc, parts, text, count in stored_seals.list_inputs(
        session, [p for p, _ in periods], config=config
    ):
        lists += 1
        rows += count
        key = (tc, period.label)
        stored.add(key)
        name = f"{tc} list {period.label}"
        seal = by_key.get(key)
        if seal is None or seal.kind != "sealed":
            what = "has no seal" if seal is None else f"is withdrawn by version {seal.version}"
            findings.append(
                Finding(name, f"published, but the chain {what}: 'ratings rate' seals it")
            )
            continue
        found, account, strict = _verify_stored(seal, parts, text, pending, period, explained)
        findings += found
        if account:
            suspects.add(key)
        if strict:
            checked.add(key)
    for key, seal in sorted(by_key.items()):
        if seal.kind == "sealed" and key not in stored:
            findings.append(
                Finding(
                    f"{seal.time_control} list {seal.period}",
                    f"sealed (version {seal.version}) but not in the database, and no "
                    "withdrawal is sealed",
                )
            )
    if suspects:
        findings += _rebuild_account(session, suspects, checked)
    return VerifyReport("the database", lists, len(records), rows, tuple(findings))


class _Explained:
    """What the corrections log and the imports say changed after a seal."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.cache: dict[tuple[int, object], str | None] = {}

    def since(self, seal: ListSeal) -> str | None:
        key = (seal.log_position, seal.created)
        if key not in self.cache:
            lines = self.session.scalar(
                sa.text("SELECT count(*) FROM corrections WHERE id > :p"),
                {"p": seal.log_position},
            )
            imports = self.session.scalar(
                sa.text("SELECT count(*) FROM imports WHERE imported_at > :t"),
                {"t": seal.created},
            )
            parts = []
            if lines:
                parts.append(f"{lines} line(s) of the corrections log")
            if imports:
                parts.append(f"{imports} import(s)")
            self.cache[key] = " and ".join(parts) if parts else None
        return self.cache[key]


def _verify_stored(
    seal: ListSeal,
    parts: Mapping[str, str],
    text: str,
    pending: Period | None,
    period: Period,
    explained: _Explained,
) -> tuple[list[Finding], bool, bool]:
    """One stored list against its current seal; whether a rebuild's account of it is
    wanted (its rows or games differ); and whether that account is the verdict (its games
    changed by a correction, nothing else differs)."""
    name = f"{seal.time_control} list {seal.period}"
    found: list[Finding] = []
    rows_digest = sealing.digest(text)
    account = rows_digest != seal.rows_digest
    if account:
        found.append(
            Finding(
                f"{name} (rating_history)",
                f"its rows are not those sealed in version {seal.version} (canonical rows "
                f"SHA-256 {rows_digest}, sealed {seal.rows_digest})",
            )
        )
    stored = {
        "games": seal.games_digest,
        "byes": seal.byes_digest,
        "register": seal.register_digest,
        "settings": seal.settings_digest,
    }
    waiting = pending is not None and pending <= period
    checked = False
    for part in sealing.INPUT_PARTS:
        what = _PART_NAMES[part]
        if parts[part] == stored[part]:
            continue
        where = f"{name} ({_TABLES[part]})"
        if waiting:
            assert pending is not None
            found.append(
                Finding(
                    where,
                    f"{what} changed since it was sealed; a correction marked period "
                    f"{pending.label} for a re-rate, which seals the list again ('ratings "
                    "rate')",
                    difference=False,
                )
            )
            continue
        since = explained.since(seal)
        if since is not None:
            found.append(
                Finding(
                    where,
                    f"{what} changed since it was sealed, by {since} since; none of it "
                    "changes the list (a change that does marks it for a re-rate)",
                    difference=False,
                )
            )
            # a correction since explains a change only if the list is still what its inputs
            # give: a game's line holds its event's dates (a correction that moves a
            # league's end alters the lines of periods it does not re-rate), and a register
            # field edited outside ratings after any correction is no correction's. The
            # rebuild says (a difference if not)
            account = True
            checked = True
            continue
        found.append(
            Finding(
                where,
                f"{what} are not those it was sealed with (version {seal.version}), and no "
                "correction explains it: changed outside ratings",
            )
        )
        # the rebuild tells the rows a changed game or bye alters; a register field's
        # would be every list of the player, more lines than a reader can take
        account = account or part in ("games", "byes")
    # only an explained change of games to check: what the rebuild finds is the difference
    strict = checked and not any(f.difference for f in found)
    return found, account, strict


_TABLES = {"games": "games", "byes": "byes", "register": "players", "settings": "settings"}
_PART_NAMES = {
    "games": "its games",
    "byes": "its byes",
    "register": "the register fields it read",
    "settings": "the settings it was rated under",
}


def _rebuild_account(
    session: Session,
    suspects: Iterable[tuple[str, str]],
    checked: Collection[tuple[str, str]] = (),
) -> list[Finding]:
    """What a rebuild from the stored inputs says of the lists that differ from their
    seals (``ratings check``: the rows edited, the games behind them). For the lists in
    ``checked`` (their games changed by a correction, nothing else differs) what it finds
    is the difference; for the others a note beside the difference already found."""
    from ratings.service.reading.check import check_lists

    wanted = set(suspects)
    report = check_lists(session, every_period=True)
    found = [
        Finding(
            f"{d.time_control} list {d.period}",
            f"the rebuild says: {d.line}",
            (d.time_control, d.period) in checked,
        )
        for d in report.differences
        if (d.time_control, d.period) in wanted or d.time_control is None
    ]
    if not found:
        outside = (
            ""
            if wanted <= set(checked)
            else (": the inputs and the lists were changed together, outside ratings")
        )
        found.append(
            Finding(
                "the rebuild",
                f"the stored lists are what their stored inputs give{outside}",
                difference=False,
            )
        )
    return found
