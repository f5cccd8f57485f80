"""Rules that are not FIDE's, to see what a change would do before it is made (``ratings
whatif``, docs/RULES.md#what-if-rules).

A :class:`RuleVariant` changes some numbers of the rules and nothing else: the K values of
art. 8.3.3 (their conditions stay: 2400, a junior below 2300, 30 games), the 400 of the
400-point rule (art. 8.3.1) and the rating from which a player keeps the true difference
(the 2650 exemption of the 2025 edition), from a given period on. A database's own rules
never carry one: only a scratch database rated for ``whatif`` does
(:attr:`ratings.rules.SystemConfig.variant`). FIDE's published K (``import fide-list``)
stays authoritative on its own list, variant or not.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from datetime import date
from typing import Any

from ratings.rules.base import K_MAX, CapRule, InvalidKFactorError, InvalidRatingError, RulesError
from ratings.rules.expected import RuleSet
from ratings.rules.players import FIDE_K, KTable
from ratings.rules.time_control import TimeControl

__all__ = ["VARIANT_KEYS", "RuleVariant", "UnknownVariantKeyError", "vary"]

VARIANT_KEYS = {
    "junior-k": "the K of a junior below 2300 (art. 8.3.3: 40)",
    "new-player-k": "the K of a player with fewer than 30 rated games (art. 8.3.3: 40)",
    "established-k": "the K of everyone else below 2400 (art. 8.3.3: 20)",
    "top-k": "the K of a player rated 2400 or more once (art. 8.3.3: 10)",
    "cap": "the 400 of the 400-point rule: the largest difference counted (art. 8.3.1)",
    "cap-exempt-from": (
        "the rating from which a player keeps the true difference on the standard list, in "
        "every edition (FIDE: 2650 from October 2025, none before), or none: the 400-point "
        "rule for everyone"
    ),
}
"""The keys a variant takes (``ratings whatif --set KEY=VALUE``), with what each changes."""

_K_FIELDS = {
    "junior-k": "junior",
    "new-player-k": "new_player",
    "established-k": "established",
    "top-k": "top",
}
_NOT_SET = -1


class UnknownVariantKeyError(RulesError):
    """A what-if key that is not one of :data:`VARIANT_KEYS`."""


@dataclass(frozen=True, slots=True)
class RuleVariant:
    """Numbers of the rules changed for a what-if, from a period on."""

    k: KTable = FIDE_K
    """The K values of art. 8.3.3."""
    cap: int | None = None
    """The cap on D (art. 8.3.1) in every edition of every list; None: the edition's 400."""
    cap_exempt_from: int | None = _NOT_SET
    """The standard list's exemption from the cap in every edition: players rated this or more
    keep the true difference; None: no exemption; :data:`_NOT_SET`: the editions' own."""
    applies_from: date | None = None
    """The first period start the variant applies to; None: every period."""

    def applies(self, period_start: date) -> bool:
        """True for the periods from :attr:`applies_from` on."""
        return self.applies_from is None or period_start >= self.applies_from

    def rule_set(self, edition: RuleSet, list_type: TimeControl) -> RuleSet:
        """``edition`` as the variant changes it (its cap and, on the standard list, its
        exemption)."""
        return _varied(self, edition, list_type)

    @property
    def changes_editions(self) -> bool:
        """Whether :meth:`rule_set` changes anything."""
        return self.cap is not None or self.cap_exempt_from != _NOT_SET


@functools.lru_cache(maxsize=64)
def _varied(variant: RuleVariant, edition: RuleSet, list_type: TimeControl) -> RuleSet:
    """One new :class:`RuleSet` per edition and variant (the engine asks once an event)."""
    changes: dict[str, Any] = {}
    if variant.cap is not None and edition.cap is not CapRule.NONE:
        changes["cap_difference"] = variant.cap
    if (
        variant.cap_exempt_from != _NOT_SET
        and list_type is TimeControl.STANDARD
        and edition.cap is not CapRule.NONE
    ):
        if variant.cap_exempt_from is None:
            changes.update(cap=CapRule.ALL, cap_exempt_from=None)
        else:
            changes.update(cap=CapRule.BELOW_2650, cap_exempt_from=variant.cap_exempt_from)
    if not changes:
        return edition
    return dataclasses.replace(edition, name=f"{edition.name} (what-if)", **changes)


def vary(variant: RuleVariant, key: str, value: str) -> RuleVariant:
    """``variant`` with ``key`` (one of :data:`VARIANT_KEYS`) set to ``value`` as typed.

    :raises UnknownVariantKeyError: another key.
    :raises RulesError: a value that is not one (a K from 1 to 100, a cap from 1 to 3000, a
        rating from 0 to 3500 or none).
    """
    text = value.strip()
    if key in _K_FIELDS:
        k = _whole(text, f"{key} must be a whole number from 1 to {K_MAX}", InvalidKFactorError)
        if not 1 <= k <= K_MAX:
            raise InvalidKFactorError(f"{key} must be a whole number from 1 to {K_MAX}: {value!r}")
        return dataclasses.replace(variant, k=dataclasses.replace(variant.k, **{_K_FIELDS[key]: k}))
    if key == "cap":
        cap = _whole(text, "cap must be a whole number from 1 to 3000", InvalidRatingError)
        if not 1 <= cap <= 3000:
            raise InvalidRatingError(f"cap must be a whole number from 1 to 3000: {value!r}")
        return dataclasses.replace(variant, cap=cap)
    if key == "cap-exempt-from":
        if text.lower() == "none":
            return dataclasses.replace(variant, cap_exempt_from=None)
        message = "cap-exempt-from must be a rating from 0 to 3500, or none"
        rating = _whole(text, message, InvalidRatingError)
        if not 0 <= rating <= 3500:
            raise InvalidRatingError(f"{message}: {value!r}")
        return dataclasses.replace(variant, cap_exempt_from=rating)
    names = list(VARIANT_KEYS)
    raise UnknownVariantKeyError(
        f"unknown what-if rule {key!r} (use {', '.join(names[:-1])} or {names[-1]})"
    )


def _whole(text: str, message: str, error: type[RulesError]) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise error(f"{message}: {text!r}")
    return int(text)
