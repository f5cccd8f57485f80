"""Click parameter types shared by the commands."""

from __future__ import annotations

import re
from typing import Any

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
