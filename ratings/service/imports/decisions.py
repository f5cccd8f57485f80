"""The decisions of an import's command line (``--match NAME=ID``, ``--new NAME``,
``--match-file``), read into :class:`ratings.service.register.identity.Decisions` with the players
they name looked up in the register."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from ratings import matching
from ratings.errors import InputFileError, InputFileErrors, InvalidInputError, InvalidNameError
from ratings.names import clean_name
from ratings.service.register.identity import Decisions
from ratings.service.register.lookup import find_players, merged_record

__all__ = ["parse_decisions"]


def parse_decisions(
    session: Session,
    matches: Iterable[str] = (),
    new: Iterable[str] = (),
    match_rows: Iterable[tuple[int | None, str, str]] = (),
    match_file: str = "",
) -> Decisions:
    """The decisions of the command line: ``--match 'NAME=ID'`` (split at the last ``=``;
    ID a player id, ``fide:N`` or a registered name), ``--new 'NAME'``, and ``--match-file``
    rows (line, name, player) of ``match_file``.

    :raises InvalidInputError: for an option that cannot be read, a player that is not
        registered (a merged record names the player it was merged into), a name given twice.
    :raises InputFileErrors: naming the lines of ``--match-file`` that cannot be used.
    """
    out = Decisions()
    file_errors: list[InputFileError] = []

    def target(ref: str, where: str) -> int:
        text = ref.strip()
        found = find_players(session, text)
        if len(found) == 1:
            return found[0].id
        if found:
            ids = ", ".join(str(p.id) for p in found)
            raise InvalidInputError(
                f"{where}: {text!r} names {len(found)} players ({ids}); use the id"
            )
        merged = merged_record(session, text)
        if merged is not None:
            raise InvalidInputError(
                f"{where}: player {merged[0].id} was merged into {merged[1].id}; use {merged[1].id}"
            )
        raise InvalidInputError(f"{where}: no player {text!r}")

    def key_of(name: str, where: str) -> str:
        try:
            cleaned = clean_name(name)
        except InvalidNameError as exc:
            raise InvalidInputError(f"{where}: {exc}") from None
        key = matching.fold(cleaned).key
        if not key:
            raise InvalidInputError(f"{where}: {name!r} has no letters to match")
        if key in out.matches or key in out.new:
            raise InvalidInputError(f"{where}: {name!r} is given a decision twice")
        return key

    for text in matches:
        where = f"--match {text!r}"
        name, sep, ref = text.rpartition("=")
        if not sep or not name.strip() or not ref.strip():
            raise InvalidInputError(f"{where}: give NAME=ID (the name as the file writes it)")
        key = key_of(name.strip(), where)
        out.matches[key] = (name.strip(), target(ref, where), "match")
    for text in new:
        where = f"--new {text!r}"
        key = key_of(text.strip(), where)
        out.new[key] = (text.strip(), "new")
    for line, name, ref in match_rows:
        try:
            key = key_of(name, "name")
            out.matches[key] = (name, target(ref, "player"), "match")
            out.optional.add(key)
        except InvalidInputError as exc:
            file_errors.append(InputFileError(match_file, line, str(exc)))
    if file_errors:
        raise InputFileErrors(file_errors)
    return out
