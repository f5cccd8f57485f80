"""How the site writes a value in a table cell: scores in halves, PD and dR, signed changes,
the class that colours a change."""

from __future__ import annotations

import functools
from decimal import Decimal

from markupsafe import Markup

__all__ = ["blank", "fraction", "halves", "k_dr", "score", "signed", "trend"]


def blank(value: object) -> str:
    return "" if value is None else str(value)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


_UP = Markup(' class="up"')
_DOWN = Markup(' class="down"')


def trend(value: int | Decimal | None) -> Markup:
    """The class attribute of a rating change's cell (colour as well as the sign)."""
    if not value:
        return Markup()
    return _UP if value > 0 else _DOWN


@functools.lru_cache(maxsize=1024)
def score(value: Decimal) -> str:
    """A score in halves as chess writes it: ``2½``, ``½``, ``3``."""
    whole = int(value)
    if value == whole:
        return str(whole)
    return f"{whole}½" if whole else "½"


def halves(halves: int) -> str:
    return score(Decimal(halves) / 2)


@functools.lru_cache(maxsize=65536)
def fraction(value: Decimal | None, *, signed: bool = False) -> str:
    """PD and dR: two decimals (table 8.1.2), four when the curve needs them."""
    if value is None:
        return ""
    text = f"{value:+.4f}" if signed else f"{value:.4f}"
    return text[:-2] if text.endswith("00") else text


@functools.lru_cache(maxsize=65536)
def k_dr(k: int, dr: Decimal) -> str:
    """K x dR, two decimals."""
    return f"{k * dr:+.2f}"
