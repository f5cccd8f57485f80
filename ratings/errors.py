"""Errors the user can fix. The CLI prints them as ``Error: <message>`` and exits with 1.

Anything else that escapes is a bug and keeps its traceback.
"""

from __future__ import annotations

from collections.abc import Sequence


class RatingsError(Exception):
    """An expected failure the CLI reports as 'Error: ...' without a traceback."""


class DatabaseError(RatingsError):
    """The database file or URL cannot be used (missing folder, not a database, ...)."""


class SchemaOutOfDateError(DatabaseError):
    """The database schema is not at the revision this version of ratings expects."""


class PlayerNotFoundError(RatingsError, LookupError):
    """No player matches the given id, FIDE id or name."""


class PlayerMergedError(PlayerNotFoundError):
    """A PLAYER that names a record merged into another one, given to a writing command."""

    def __init__(self, message: str, merged_id: int, kept_id: int, batch: int | None) -> None:
        self.merged_id = merged_id
        self.kept_id = kept_id
        self.batch = batch
        super().__init__(message)


class AmbiguousPlayerError(RatingsError, LookupError):
    """A name matches more than one player."""


class InvalidInputError(RatingsError, ValueError):
    """A value given on the command line or by a caller is not acceptable."""


class InputFileError(RatingsError, ValueError):
    """One problem in an input file, located by file, line and (where known) field.

    ``str()`` gives ``FILE:LINE: field: problem`` (the field part only when known).
    """

    def __init__(self, filename: str, line: int | None, problem: str, field: str | None = None):
        self.filename = filename
        self.line = line
        self.field = field
        self.problem = problem
        super().__init__(format_location(filename, line, field, problem))


def format_location(filename: str, line: int | None, field: str | None, problem: str) -> str:
    """``FILE:LINE: field: problem``, leaving out the parts that are unknown."""
    where = filename if line is None else f"{filename}:{line}"
    return f"{where}: {field}: {problem}" if field else f"{where}: {problem}"


class InputFileErrors(RatingsError, ValueError):
    """Every problem found in one input file; nothing from the file was stored.

    ``str()`` lists one problem per line followed by a count, so the CLI shows them all (one
    problem: its line alone).
    """

    def __init__(self, errors: Sequence[InputFileError]):
        self.errors = list(errors)
        lines = [str(e) for e in self.errors]
        n = len(self.errors)
        if n != 1:  # one problem is one line, as every import says it
            lines.append(f"{n} problems found; nothing was imported")
        super().__init__("\n".join(lines))


class DuplicateImportError(RatingsError):
    """The same file (by content hash) was imported before."""


class FutureDateError(InvalidInputError):
    """A game date after today, given without ``--allow-future``."""


class NothingChangedError(RatingsError):
    """A correction that would leave every value as it is (nothing is written or marked)."""


class PeriodError(RatingsError):
    """A rating period cannot be used as asked (not rated yet, before history, ...)."""


class OutputFileError(RatingsError):
    """A file cannot be written where asked (the database itself, an existing file, ...)."""


class LimitError(InvalidInputError):
    """A value that breaks a rule of :mod:`ratings.limits` (too long, not a FIDE id, ...).

    ``str()`` is the problem; the caller adds where the value came from.
    """


class InvalidNameError(InvalidInputError):
    """A player's name that cannot be stored (blank, invisible or look-alike characters)."""


class SameNameError(InvalidInputError):
    """A second live player of one name (one name key), not told apart or not confirmed."""


class MergeConflictError(InvalidInputError):
    """Two players to merge whose FIDE ids or birthdates say they are two people."""
