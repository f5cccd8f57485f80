"""The sealed files a website publishes, read back for ``ratings verify``: the chain
(``seals.json``), a list's canonical rows (``lists/YYYY-MM-sealed.csv``), its CSV and its JSON
(docs/SEALS.md).

A reader never raises for what a file holds: every value that is not what the product writes
(a damaged or edited file) is a :class:`ratings.sealing.Finding` naming the file, the line
(or row) and the field, and the rows it could read are kept, so that the verification says
exactly where a copy differs. Only a file that cannot be read at all raises
:class:`~ratings.errors.InputFileError`.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ratings import sealing
from ratings.errors import InputFileError
from ratings.sealing import Finding, SealedRow, SealRecord

__all__ = [
    "LIST_FILE",
    "MAX_FILE_BYTES",
    "SEALS_FILE",
    "SEALS_SCHEMA",
    "PublishedList",
    "read_list_csv",
    "read_list_json",
    "read_sealed_csv",
    "read_seals",
    "seals_json",
]

SEALS_FILE = "seals.json"
"""The chain's file, at the top of a list's website."""
SEALS_SCHEMA = 1
"""``seals.json``'s ``schema_version``."""
MAX_FILE_BYTES = 1 << 30
"""The largest file read (a larger one is not one the product wrote)."""
LIST_FILE = re.compile(r"([0-9]{4}-[0-9]{2})(\.csv|\.json|-sealed\.csv)")
"""The name of a list's file the seals cover."""
_STATUSES = ("listed", "first_rating")
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(slots=True)
class PublishedList:
    """One copy of a list, read from a file."""

    path: str
    """The file, as the findings name it."""
    period: str | None
    time_control: str | None
    seal: str | None
    """The seal the file carries (a ``-sealed.csv`` carries none: its digest is its seal's
    rows digest)."""
    rows: list[tuple[str, SealedRow]] = field(default_factory=list)
    """Each row with where it is (``FILE:LINE`` or ``FILE, row N``)."""
    problems: list[Finding] = field(default_factory=list)
    digest: str | None = None
    """The SHA-256 of the file's bytes (for a ``-sealed.csv``)."""

    @property
    def canonical(self) -> str:
        """The canonical form of the rows read (:func:`ratings.sealing.rows_text`)."""
        return sealing.rows_text(row for _, row in self.rows)


def _read(path: Path, shown: str) -> bytes:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputFileError(shown, None, f"cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputFileError(shown, None, "larger than any list the product writes")
    return data


def _text(data: bytes, shown: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(shown, None, f"not UTF-8 (byte {exc.start})") from None


def _int(value: str, where: str, name: str, problems: list[Finding], *, empty: bool) -> int | None:
    if value == "" and empty:
        return None
    if re.fullmatch(r"-?[0-9]{1,9}", value):
        return int(value)
    problems.append(Finding(where, f"{name}: not a whole number: {value!r}"))
    return None


def _bool(value: str, where: str, name: str, problems: list[Finding]) -> bool:
    if value in ("true", "false"):
        return value == "true"
    problems.append(Finding(where, f"{name}: not true or false: {value!r}"))
    return False


def _row(
    values: dict[str, str], where: str, problems: list[Finding], *, status: str | None = None
) -> SealedRow | None:
    """A list row from its texts (``status`` given: the CSV's, from its flags)."""
    before = len(problems)
    pid = _int(values["player_id"], where, "player_id", problems, empty=False)
    rating = _int(values["rating"], where, "rating", problems, empty=False)
    list_status = values.get("list_status", "") if status is None else status
    if list_status not in _STATUSES:
        problems.append(Finding(where, f"list_status: not listed or first_rating: {list_status!r}"))
    change = _int(values["change"], where, "change", problems, empty=True)
    games = _int(values["period_games"], where, "period_games", problems, empty=False)
    total = _int(values["total_games"], where, "total_games", problems, empty=True)
    next_k = _int(values["next_k"], where, "next_k", problems, empty=True)
    k10 = _bool(values["k10"], where, "k10", problems)
    if len(problems) > before or pid is None or rating is None or games is None:
        return None
    if list_status == "first_rating":
        change = None  # the CSV writes the stored change of a first rating; the seal none
    return SealedRow(pid, rating, change, games, total, next_k, k10, list_status)


def read_sealed_csv(path: Path, shown: str) -> PublishedList:
    """A list's canonical rows (``lists/YYYY-MM-sealed.csv``)."""
    data = _read(path, shown)
    out = PublishedList(shown, _period_of(path), None, None, digest=sealing.digest(data))
    lines = _text(data, shown).split("\n")
    if lines[0] != sealing.ROWS_HEADER:
        out.problems.append(Finding(f"{shown}:1", f"not the header {sealing.ROWS_HEADER!r}"))
        return out
    names = sealing.ROWS_HEADER.split(",")
    for number, line in enumerate(lines[1:], 2):
        if line == "" and number == len(lines):
            break
        where = f"{shown}:{number}"
        cells = line.split(",")
        if len(cells) != len(names):
            out.problems.append(Finding(where, f"{len(cells)} values, not {len(names)}"))
            continue
        row = _row(dict(zip(names, cells, strict=True)), where, out.problems)
        if row is not None:
            out.rows.append((where, row))
    return out


def read_list_csv(path: Path, shown: str) -> PublishedList:
    """A list's CSV download (``lists/YYYY-MM.csv``): the columns of ``ratings list --format
    csv``, the flags, the player's id and the list's seal."""
    text = _text(_read(path, shown), shown)
    out = PublishedList(shown, _period_of(path), None, None)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        return _csv_rows(reader, out, shown)
    except csv.Error as exc:  # a cell larger than the csv module's limit, a stray NUL
        raise InputFileError(shown, reader.line_num, f"not a CSV file: {exc}") from None


def _csv_rows(reader: Any, out: PublishedList, shown: str) -> PublishedList:
    header = next(reader, None)
    wanted = ("rating", "change", "period_games", "total_games", "next_k", "k10", "flags",
              "player_id", "seal")  # fmt: skip
    if header is None or any(name not in header for name in wanted):
        missing = [n for n in wanted if header is None or n not in header]
        out.problems.append(Finding(f"{shown}:1", f"no column {', '.join(missing)}"))
        return out
    seals = set()
    for number, cells in enumerate(reader, 2):
        where = f"{shown}:{number}"
        if len(cells) != len(header):
            out.problems.append(Finding(where, f"{len(cells)} values, not {len(header)}"))
            continue
        values = dict(zip(header, cells, strict=True))
        seals.add(values["seal"])
        status = "first_rating" if "new" in values["flags"].split() else "listed"
        row = _row(values, where, out.problems, status=status)
        if row is not None:
            out.rows.append((where, row))
    if len(seals) > 1:
        out.problems.append(Finding(shown, f"its rows carry {len(seals)} different seals"))
    out.seal = next(iter(seals)) if len(seals) == 1 else None
    return out


def read_list_json(path: Path, shown: str) -> PublishedList:
    """A list's JSON (``lists/YYYY-MM.json``)."""
    doc = _json(path, shown)
    out = PublishedList(shown, None, None, None)
    if not isinstance(doc, dict) or doc.get("kind") != "list":
        out.problems.append(Finding(shown, 'not a list\'s JSON (no "kind": "list")'))
        return out
    out.period = doc.get("period") if isinstance(doc.get("period"), str) else None
    out.time_control = doc.get("list") if isinstance(doc.get("list"), str) else None
    seal = doc.get("seal")
    out.seal = seal if isinstance(seal, str) else None
    columns, players = doc.get("columns"), doc.get("players")
    if not isinstance(columns, list) or not isinstance(players, list):
        out.problems.append(Finding(shown, 'no "columns" and "players"'))
        return out
    for number, values in enumerate(players, 1):
        where = f"{shown}, player row {number}"
        if not isinstance(values, list) or len(values) != len(columns):
            out.problems.append(Finding(where, f"not {len(columns)} values"))
            continue
        texts = {str(c): _json_text(v) for c, v in zip(columns, values, strict=True)}
        if any(name not in texts for name in sealing.ROWS_HEADER.split(",")):
            out.problems.append(Finding(where, "a column of the sealed rows is missing"))
            continue
        row = _row(texts, where, out.problems)
        if row is not None:
            out.rows.append((where, row))
    return out


def _json(path: Path, shown: str) -> Any:
    try:
        return json.loads(_text(_read(path, shown), shown))
    except json.JSONDecodeError as exc:
        raise InputFileError(shown, exc.lineno, f"not JSON: {exc.msg}") from None
    except RecursionError:  # arrays nested thousands deep: no file the product writes
        raise InputFileError(shown, None, "not JSON the product writes: nested too deep") from None


def _json_text(value: object) -> str:
    """A JSON value as the canonical form writes it (so that one parser reads both)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return value if isinstance(value, str) else repr(value)


def _period_of(path: Path) -> str | None:
    found = LIST_FILE.fullmatch(path.name)
    return None if found is None else found[1]


# --- the chain -------------------------------------------------------------------------------


def seals_json(time_control: str, records: list[SealRecord]) -> dict[str, Any]:
    """``seals.json``: every version of every seal of the list ``time_control``, in the order
    they were written."""
    return {
        "schema_version": SEALS_SCHEMA,
        "kind": "seals",
        "list": time_control,
        "format": sealing.FORMAT,
        "seals": [
            {
                "period": r.period,
                "list_date": r.list_date.isoformat(),
                "version": r.version,
                "kind": r.kind,
                "seal": r.seal,
                "previous_seal": r.previous_seal,
                "rows_digest": r.rows_digest,
                "rows": r.rows,
                "inputs_digest": r.inputs_digest,
                "inputs": None if r.inputs is None else dict(r.inputs),
                "replaces": r.replaces,
                "reason": r.reason,
                "correction_batch": r.correction_batch,
                "created": r.created,
            }
            for r in records
            if r.time_control == time_control
        ],
    }


def read_seals(path: Path, shown: str) -> tuple[str | None, list[SealRecord], list[Finding]]:
    """``seals.json``: its list, its seals, and what is wrong with any of them."""
    doc = _json(path, shown)
    if not isinstance(doc, dict) or doc.get("kind") != "seals":
        raise InputFileError(shown, None, 'not a chain of seals (no "kind": "seals")')
    if doc.get("format") != sealing.FORMAT:
        raise InputFileError(shown, None, f"seals of format {doc.get('format')!r}; this version "
                             f"reads {sealing.FORMAT}")  # fmt: skip
    tc = doc.get("list") if isinstance(doc.get("list"), str) else None
    entries = doc.get("seals")
    if not isinstance(entries, list):
        raise InputFileError(shown, None, '"seals" is not a list')
    records: list[SealRecord] = []
    problems: list[Finding] = []
    for number, entry in enumerate(entries, 1):
        where = f"{shown}, seal {number}"
        record = _seal_record(entry, tc, where, problems)
        if record is not None:
            records.append(record)
    return tc, records, problems


def _seal_record(
    entry: object, tc: str | None, where: str, problems: list[Finding]
) -> SealRecord | None:
    if not isinstance(entry, dict) or tc is None:
        problems.append(Finding(where, "not a seal"))
        return None
    before = len(problems)

    def text(key: str, *, digest: bool = False, none: bool = False) -> str | None:
        value = entry.get(key)
        if value is None and none:
            return None
        if not isinstance(value, str) or (digest and not _HEX64.fullmatch(value)):
            what = "a SHA-256 in hex" if digest else "a text"
            problems.append(Finding(where, f"{key}: not {what}: {value!r}"))
            return None
        return value

    def number(key: str, *, none: bool = False) -> int | None:
        value = entry.get(key)
        if (value is None and none) or (type(value) is int and value >= 0):
            return value
        problems.append(Finding(where, f"{key}: not a whole number: {value!r}"))
        return None

    period, kind = text("period"), text("kind")
    day = text("list_date")
    version = number("version")
    seal = text("seal", digest=True)
    previous = text("previous_seal", digest=True, none=True)
    rows_digest = text("rows_digest", digest=True, none=True)
    inputs_digest = text("inputs_digest", digest=True, none=True)
    inputs = entry.get("inputs")
    parts: dict[str, str] | None = None
    if isinstance(inputs, dict) and all(
        isinstance(inputs.get(k), str) and _HEX64.fullmatch(inputs[k]) for k in sealing.INPUT_PARTS
    ):
        parts = {k: inputs[k] for k in sealing.INPUT_PARTS}
    elif inputs is not None:
        problems.append(Finding(where, "inputs: not the four digests of the inputs' parts"))
    try:
        list_date = dt.date.fromisoformat(day) if day else None
    except ValueError:
        problems.append(Finding(where, f"list_date: not a date: {day!r}"))
        list_date = None
    if kind not in ("sealed", "withdrawn"):
        problems.append(Finding(where, f"kind: not sealed or withdrawn: {kind!r}"))
    if kind == "sealed" and (rows_digest is None or inputs_digest is None or parts is None):
        problems.append(Finding(where, "a sealed list without its rows' and inputs' digests"))
    if version == 0:
        problems.append(Finding(where, "version: 0 (versions start at 1)"))
    if len(problems) > before or not (period and kind and list_date and version and seal):
        return None
    return SealRecord(
        period=period, list_date=list_date, time_control=tc, version=version, kind=kind,
        seal=seal, previous_seal=previous, rows_digest=rows_digest,
        rows=number("rows", none=True), inputs_digest=inputs_digest, inputs=parts,
        replaces=number("replaces", none=True), reason=text("reason", none=True),
        correction_batch=number("correction_batch", none=True),
        created=text("created", none=True) or "",
    )  # fmt: skip
