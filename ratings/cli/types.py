"""Click parameter types and the ``--format`` option shared by the commands (light: ``calc``
loads no other CLI module)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

_INTEGER = re.compile(r"[+-]?[0-9]+")


# not subscripted: ParamType is generic only in newer click releases (8.1 is allowed)
class AsciiInt(click.ParamType):  # type: ignore[type-arg]
    """An integer written in ASCII digits.

    click's ``int`` type calls ``int()``, which also takes Arabic-Indic, full-width and other
    Unicode digits (``int("١٢") == 12``) and underscores (``int("1_0") == 10``).
    """

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        if not _INTEGER.fullmatch(text):
            self.fail(f"{value!r} is not a valid integer (digits 0-9).", param, ctx)
        return int(text)


ASCII_INT = AsciiInt()
"""Use instead of ``type=int``."""


class AsciiIntRange(click.IntRange):
    """``click.IntRange`` read from ASCII digits only (see :class:`AsciiInt`)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, int) and not _INTEGER.fullmatch(str(value).strip()):
            self.fail(f"{value!r} is not a valid integer (digits 0-9).", param, ctx)
        return super().convert(value, param, ctx)


F = TypeVar("F", bound=Callable[..., Any])


def format_option(
    help: str = "Output format.", choices: Sequence[str] = ("table", "csv", "json")
) -> Callable[[F], F]:
    """The ``--format`` option (as ``fmt``) of a command that prints rows: ``choices``, the
    first the default."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=choices[0],
        show_default=True,
        help=help,
    )
