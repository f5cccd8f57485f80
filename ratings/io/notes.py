"""Warnings about input files: problems that do not stop an import.

An error (:class:`~ratings.errors.InputFileError`) refuses the whole file; a warning is
information the user should see (a round date that cannot be read, a federation code that is
not FIDE's, a declared total that does not add up), printed to stderr as
``Warning: FILE:LINE: field: problem`` while the import goes on and exits 0.

The errors a parser found go to its caller's list, or are raised (:func:`hand_over`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings.errors import InputFileError, InputFileErrors, format_location

__all__ = ["FileWarning", "hand_over"]


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


def hand_over(found: Sequence[InputFileError], errors: list[InputFileError] | None) -> None:
    """Give a parser's problems to ``errors`` when the caller collects them (it reports them
    with its own), else raise them: one as itself, several as :class:`InputFileErrors`."""
    if errors is not None:
        errors.extend(found)
    elif len(found) == 1:
        raise found[0]
    elif found:
        raise InputFileErrors(found)
