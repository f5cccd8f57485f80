"""Sealed lists: the canonical forms, their SHA-256 digests and the chain
(docs/SEALS.md, docs/DESIGN.md#sealed-lists).

A list's **seal** is the SHA-256 of a few lines of text (:func:`seal_text`) that name the list
and hold three digests: of the canonical form of its rows (:func:`rows_text`, the file
``lists/YYYY-MM-sealed.csv`` the website publishes beside the list), of the inputs it rated
(:func:`inputs_text`: the period's games, the byes of their events, the register fields the
rules read and the settings, each part a canonical table of its own) and the seal of the list
before it. So each seal vouches for every list before it, and anyone can check a list with
``sha256sum`` and the documented forms, without this program.

Pure: text and :mod:`hashlib`, no database, no files. The service writes the seals
(:mod:`ratings.service.rating.seals`); ``ratings verify`` recomputes them (:mod:`ratings.verify`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "BYES_HEADER",
    "FORMAT",
    "GAMES_HEADER",
    "REGISTER_HEADER",
    "ROWS_HEADER",
    "SETTINGS_HEADER",
    "Finding",
    "SealRecord",
    "SealedRow",
    "chain_findings",
    "current_versions",
    "digest",
    "inputs_text",
    "row_line",
    "rows_text",
    "seal_text",
    "table_text",
    "withdrawal_text",
]

FORMAT = 1
"""The version of the canonical forms (the first line of a seal's and an inputs' text)."""

ROWS_HEADER = "player_id,rating,change,period_games,total_games,next_k,k10,list_status"
"""The first line of a list's canonical rows: the values every published copy of the list
(its CSV, its JSON) holds, keyed by the player's id."""
GAMES_HEADER = (
    "game_id,event_id,event_start,event_end,event_period,played_on,white_id,black_id,result,"
    "rateable"
)
"""The games a period rated on one list: each with its event's dates and given period."""
BYES_HEADER = "bye_id,event_id,player_id,code"
"""The byes of the events of those games."""
REGISTER_HEADER = (
    "player_id,birth_year,entry_rating,entry_games,k10,fide_k,fide_k_list,fide_inactive_list,"
    "listed_from,merged_into_id"
)
"""The register fields the rules read, for every player with a row on the list (the entry
columns of that list: ``rapid_entry_rating`` for the rapid list ...)."""
SETTINGS_HEADER = "system,k_factor,start_rating,expected_method,period_months,closing_days"
"""The settings in force."""


class SealedRow(NamedTuple):
    """One published row of a list, as the canonical form holds it."""

    player_id: int
    rating: int
    change: int | None
    """None for a first rating (no rating before), as the JSON writes it."""
    period_games: int
    total_games: int | None
    next_k: int | None
    k10: bool
    list_status: str
    """``listed`` or ``first_rating``."""


def cell(value: object) -> str:
    """One value of a canonical table: an integer in decimal, ``true``/``false``, a date in
    ISO form, nothing for None; a text as it is, quoted as CSV quotes it when it holds a
    comma, a quote or a line break."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def row_line(values: Iterable[object]) -> str:
    """One line of a canonical table, without its line break."""
    return ",".join(cell(v) for v in values)


def table_text(header: str, lines: Iterable[str]) -> str:
    """A canonical table: the header, then the lines, each ended by a line feed."""
    return "".join(f"{line}\n" for line in (header, *lines))


def rows_text(rows: Iterable[SealedRow]) -> str:
    """A list's canonical rows (``lists/YYYY-MM-sealed.csv``): :data:`ROWS_HEADER`, then one
    line per rated player, by player id; a first rating's change left empty. (The values
    are integers, booleans and the two statuses: written here directly, a list of 5,000
    rows a period being sealed in every rate.)"""
    ordered = sorted(rows, key=lambda r: r[0])
    return "".join(
        [
            f"{ROWS_HEADER}\n",
            *(
                f"{pid},{rating},{'' if status == 'first_rating' or change is None else change},"
                f"{games},{'' if total is None else total},{'' if k is None else k},"
                f"{'true' if k10 else 'false'},{status}\n"
                for pid, rating, change, games, total, k, k10, status in ordered
            ),
        ]
    )


def digest(text: str | bytes) -> str:
    """SHA-256 of ``text`` (UTF-8), in lower-case hexadecimal: what ``sha256sum`` prints."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def _list_line(time_control: str, period: str, list_date: dt.date) -> str:
    return f"list {time_control} {period} {list_date.isoformat()}\n"


def inputs_text(
    time_control: str, period: str, list_date: dt.date, parts: Mapping[str, str]
) -> str:
    """The text whose SHA-256 is a list's inputs digest: the list, then the digests of its
    games, byes, register and settings tables (``parts``, by those names)."""
    return f"ratings inputs {FORMAT}\n{_list_line(time_control, period, list_date)}" + "".join(
        f"{name} {parts[name]}\n" for name in INPUT_PARTS
    )


INPUT_PARTS = ("games", "byes", "register", "settings")
"""The parts of a list's inputs, in the order :func:`inputs_text` names them."""


def seal_text(
    time_control: str,
    period: str,
    list_date: dt.date,
    version: int,
    rows_digest: str,
    inputs_digest: str,
    previous_seal: str | None,
) -> str:
    """The text whose SHA-256 is the seal of a list's version: the list, the version, the
    digests of its rows and inputs, and the previous list's seal (``none`` for the first)."""
    return (
        f"ratings seal {FORMAT}\n{_list_line(time_control, period, list_date)}"
        f"version {version}\nrows {rows_digest}\ninputs {inputs_digest}\n"
        f"previous {previous_seal or 'none'}\n"
    )


def withdrawal_text(
    time_control: str, period: str, list_date: dt.date, version: int, withdrawn_seal: str
) -> str:
    """The text whose SHA-256 is the seal of a withdrawal: the list is no longer published
    (``ratings unrate``, or a re-rate that publishes no such list); it names the seal of the
    version it withdraws."""
    return (
        f"ratings seal {FORMAT}\n{_list_line(time_control, period, list_date)}"
        f"version {version}\nwithdraws {withdrawn_seal}\n"
    )


@dataclass(frozen=True, slots=True)
class SealRecord:
    """One version of a list's seal, as the database holds it and ``seals.json`` publishes
    it."""

    period: str
    list_date: dt.date
    time_control: str
    version: int
    kind: str
    """``sealed`` or ``withdrawn``."""
    seal: str
    previous_seal: str | None
    rows_digest: str | None
    rows: int | None
    inputs_digest: str | None
    inputs: Mapping[str, str] | None
    """The digests of the inputs' parts (:data:`INPUT_PARTS`); None for a withdrawal."""
    replaces: int | None
    reason: str | None
    correction_batch: int | None
    created: str
    """When, ISO (UTC)."""

    @property
    def name(self) -> str:
        """``standard list 2026-01, version 2``."""
        return f"{self.time_control} list {self.period}, version {self.version}"


@dataclass(frozen=True, slots=True)
class Finding:
    """What ``ratings verify`` found: a difference (exit 1) or a note."""

    where: str
    """The list, file (and line) or table concerned."""
    what: str
    difference: bool = True

    @property
    def line(self) -> str:
        """``where: what``."""
        return f"{self.where}: {self.what}"


def expected_seal(record: SealRecord, withdrawn_seal: str | None = None) -> str | None:
    """The seal ``record``'s own values give (None: a withdrawal whose withdrawn version is
    not known)."""
    if record.kind == "withdrawn":
        if withdrawn_seal is None:
            return None
        return digest(
            withdrawal_text(
                record.time_control, record.period, record.list_date, record.version,
                withdrawn_seal,
            )
        )  # fmt: skip
    assert record.rows_digest is not None
    assert record.inputs_digest is not None
    return digest(
        seal_text(
            record.time_control, record.period, record.list_date, record.version,
            record.rows_digest, record.inputs_digest, record.previous_seal,
        )
    )  # fmt: skip


def current_versions(records: Iterable[SealRecord]) -> dict[tuple[str, str], SealRecord]:
    """The newest version of each list, by (time control, period)."""
    newest: dict[tuple[str, str], SealRecord] = {}
    for r in records:
        key = (r.time_control, r.period)
        if key not in newest or newest[key].version < r.version:
            newest[key] = r
    return newest


def chain_findings(records: Sequence[SealRecord], where: str) -> list[Finding]:
    """Every way the seals ``records`` disagree with themselves (``where`` names their
    source): a seal its values do not give, an inputs digest its parts do not give, versions
    that do not follow each other, and a current list whose previous seal is not the
    current seal of the list before it."""
    found: list[Finding] = []
    versions: dict[tuple[str, str], dict[int, SealRecord]] = {}
    for r in records:
        versions.setdefault((r.time_control, r.period), {})[r.version] = r
    for (tc, period), by_version in sorted(versions.items()):
        for number in range(1, max(by_version) + 1):
            if number not in by_version:
                found.append(Finding(where, f"{tc} list {period}: version {number} is missing"))
        for number, r in sorted(by_version.items()):
            found += _record_findings(r, by_version.get(number - 1), where)
    found += _link_findings(records, where)
    return found


def _record_findings(r: SealRecord, before: SealRecord | None, where: str) -> list[Finding]:
    found = []
    if r.version > 1 and r.replaces != r.version - 1:
        found.append(Finding(where, f"{r.name}: replaces {r.replaces}, not {r.version - 1}"))
    if r.kind == "sealed" and r.inputs is not None:
        parts = digest(inputs_text(r.time_control, r.period, r.list_date, r.inputs))
        if parts != r.inputs_digest:
            found.append(
                Finding(
                    where,
                    f"{r.name}: inputs digest {r.inputs_digest} is not the digest of its "
                    f"parts ({parts})",
                )
            )
    withdrawn = None if before is None else before.seal
    expected = expected_seal(r, withdrawn)
    if r.kind == "withdrawn" and before is None:
        found.append(Finding(where, f"{r.name}: a withdrawal of no version"))
    elif expected != r.seal:
        found.append(Finding(where, f"{r.name}: seal {r.seal}, its values give {expected}"))
    return found


def _link_findings(records: Sequence[SealRecord], where: str) -> list[Finding]:
    """Each current list's previous seal is the current seal of the list before it (the
    same time control, the newest earlier period whose list is published)."""
    found = []
    current = current_versions(records)
    last: dict[str, str | None] = {}
    for (tc, _), r in sorted(current.items()):
        if r.kind != "sealed":
            continue
        expected = last.get(tc)
        if r.previous_seal != expected:
            found.append(
                Finding(
                    where,
                    f"{r.name}: previous seal {r.previous_seal or 'none'}, but the list "
                    f"before it is sealed {expected or 'none (it is the first)'}",
                )
            )
        last[tc] = r.seal
    return found
