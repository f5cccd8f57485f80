"""Warnings about input files: problems that do not stop an import.

An error (:class:`~ratings.errors.InputFileError`) refuses the whole file; a warning is
information the user should see (a round date that cannot be read, a federation code that is
not FIDE's, a declared total that does not add up), printed to stderr as
``Warning: FILE:LINE: field: problem`` while the import goes on and exits 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from ratings.errors import format_location

__all__ = ["FileWarning"]


@dataclass(frozen=True, slots=True)
class FileWarning:
    """One warning about an input file, located like an error."""

    filename: str
    """The file as given on the command line."""
    line: int | None
    """1-based line, None for the file as a whole."""
    problem: str
    """What is wrong and what was done about it, lower-case, one line."""
    field: str | None = None
    """The field or record (``round 3 date``, ``federation``), None when there is none."""

    def __str__(self) -> str:
        return format_location(self.filename, self.line, self.field, self.problem)
