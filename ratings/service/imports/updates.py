"""``import players --update``: a registered player's row applied (every change as ``player
edit`` makes it, logged with the import's id), and the register's values corrected since the
sheet was made (:class:`Corrected`), which stay unless ``--take-sheet``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings.errors import InputFileError, RatingsError
from ratings.io.csv import PlayerRow
from ratings.models import Correction, Player
from ratings.service.imports.pipeline import raise_all
from ratings.service.imports.storing import PlayerChange
from ratings.service.register.players import Birth, edit_player
from ratings.service.shared import audit

__all__ = [
    "EVIDENCE_FIELDS",
    "Corrected",
    "apply_updates",
    "dates_differ",
    "row_values",
    "sheet_values",
    "would_change",
]

CSV_FIELDS: tuple[tuple[str, str], ...] = (
    ("name", "name"),
    ("fide_id", "fide_id"),
    ("rating", "entry_rating"),
    ("games", "entry_games"),
    ("k10", "k10"),
    ("rapid_rating", "rapid_entry_rating"),
    ("rapid_games", "rapid_entry_games"),
    ("blitz_rating", "blitz_entry_rating"),
    ("blitz_games", "blitz_entry_games"),
    ("sex", "sex"),
    ("federation", "federation"),
    ("title", "title"),
)
"""(CSV column, player field) that ``--update`` compares, birth data apart."""


def row_values(row: PlayerRow) -> dict[str, object]:
    """The player fields a row gives (its non-blank columns), as stored."""
    values: dict[str, object] = {
        field: getattr(row, column) for column, field in CSV_FIELDS if column in row.given
    }
    if "birthdate" in row.given:
        values["birth_date"], values["birth_year"] = row.birth_date, row.birth_year
    if values.get("title") is not None:
        values["title"] = str(values["title"]).upper()
    return values


EVIDENCE_FIELDS = {
    "birth year": ("birth_year", "birth_date"),
    "sex": ("sex",),
    "federation": ("federation",),
}
"""The matcher's evidence (:mod:`ratings.matching`, rule 5) and the register's fields."""


class Corrected:
    """The register's values corrected since a sheet was made: the ``player_edit`` lines of
    the corrections log, by player and field, with the value each replaced."""

    def __init__(self, session: Session, player_ids: Sequence[int] | None = None) -> None:
        self.lines: dict[tuple[int, str], list[tuple[str | None, int]]] = {}
        query = sa.select(
            Correction.player_id, Correction.field, Correction.old_value, Correction.batch
        ).where(Correction.action == audit.Action.PLAYER_EDIT.value)
        for pid, field, old, batch in session.execute(query.order_by(Correction.id)):
            if pid is not None and field is not None:
                self.lines.setdefault((pid, field), []).append((old, batch))

    def since(self, player_id: int, field: str, sheet_value: object) -> int | None:
        """The batch of the correction that replaced the sheet's value of ``field`` (the
        sheet was made before it), or None."""
        text = audit.as_text(sheet_value)
        for old, batch in reversed(self.lines.get((player_id, field), [])):
            if old == text:
                return batch
        return None


def would_change(
    session: Session,
    matched: dict[int, tuple[PlayerRow, int]],
    corrected: Corrected | None,
    take_sheet: bool,
) -> bool:
    """Whether applying the matched rows would change a player (a value corrected since the
    sheet was made is kept unless ``take_sheet``)."""
    if not matched:
        return False
    players = {
        p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(list(matched))))
    }
    for pid, (row, _) in matched.items():
        player = players[pid]
        for field, value in row_values(row).items():
            old = getattr(player, field)
            if old == value:
                continue
            if take_sheet or corrected is None or corrected.since(pid, field, value) is None:
                if field in ("birth_date", "birth_year") and not take_sheet and corrected:
                    other = "birth_year" if field == "birth_date" else "birth_date"
                    if corrected.since(pid, other, getattr(row, other)) is not None:
                        continue  # birth data goes as one, kept with its correction
                return True
    return False


def sheet_values(row: PlayerRow, fields: Sequence[str]) -> list[object]:
    return [getattr(row, field) for field in fields]


def dates_differ(
    row: PlayerRow,
    pid: int,
    births: dict[int, tuple[dt.date | None, int | None]],
    corrected: Corrected | None,
) -> bool:
    """Both give a full birthdate, of one year, and they differ, and the register's is no
    correction of the sheet's: two people (a question), not one."""
    theirs = births.get(pid, (None, None))[0]
    if row.birth_date is None or theirs is None or row.birth_date == theirs:
        return False
    return corrected is None or corrected.since(pid, "birth_date", row.birth_date) is None


_KWARGS = {
    "entry_rating": "rating", "entry_games": "games",
    "rapid_entry_rating": "rapid_rating", "rapid_entry_games": "rapid_games",
    "blitz_entry_rating": "blitz_rating", "blitz_entry_games": "blitz_games",
}  # fmt: skip
"""edit_player's keyword for a player field the players CSV gives."""


def apply_updates(
    session: Session,
    matched: dict[int, tuple[PlayerRow, int]],
    import_id: int,
    file_name: str,
    allow_same_name: bool,
    corrected: Corrected | None,
    keep_corrected: bool,
) -> list[PlayerChange]:
    """Apply each matched row's values to its player (as ``player edit`` would); every
    problem is collected and raised at the end. A value the register got by a correction
    since the sheet was made is applied too (:attr:`PlayerChange.corrected` says so), or
    kept with ``keep_corrected`` (:attr:`PlayerChange.kept`)."""
    players = {
        p.id: p
        for p in session.scalars(sa.select(Player).where(Player.id.in_(list(matched))))
    } if matched else {}  # fmt: skip
    errors: list[InputFileError] = []
    changes: list[PlayerChange] = []
    for pid, (row, line) in sorted(matched.items(), key=lambda item: item[1][1]):
        player = players[pid]
        values = row_values(row)
        before = {field: getattr(player, field) for field in values}
        if all(before[field] == value for field, value in values.items()):
            continue
        since = {
            field: batch
            for field, value in values.items()
            if before[field] != value
            and corrected is not None
            and (batch := corrected.since(pid, field, value)) is not None
        }
        if "birth_date" in since or "birth_year" in since:  # birth data goes as one
            batch = since.get("birth_date") or since["birth_year"]
            for field in ("birth_date", "birth_year"):
                if field in values and before[field] != values[field]:
                    since[field] = batch
        kept = set(since) if keep_corrected else set()
        kwargs: dict[str, Any] = {}
        if "birth_date" in values and "birth_date" not in kept and "birth_year" not in kept:
            kwargs["birth"] = Birth(row.birth_date, row.birth_year)
        for field, value in values.items():
            if field in ("birth_date", "birth_year") or before[field] == value or field in kept:
                continue
            kwargs[_KWARGS.get(field, field)] = value
        try:
            edit_player(session, player, allow_same_name=allow_same_name, import_id=import_id,
                        **kwargs)  # fmt: skip
        except RatingsError as exc:
            errors.append(InputFileError(file_name, line, str(exc)))
            continue
        for field in values:
            if field in kept:
                changes.append(PlayerChange(line, pid, player.name, field, before[field],
                                            values[field], since[field], kept=True))  # fmt: skip
            elif getattr(player, field) != before[field]:
                changes.append(PlayerChange(line, pid, player.name, field, before[field],
                                            getattr(player, field), since.get(field)))  # fmt: skip
    raise_all(errors)
    return changes
