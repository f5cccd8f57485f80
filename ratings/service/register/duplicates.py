"""``ratings player duplicates``: the pairs of registered players who may be one person.

Every live player is put to the one matcher (:mod:`ratings.matching`) as an incoming player
(name, birth year, sex, federation, without his FIDE id, so that the name is looked at);
each other player it names as a candidate makes a pair. A pair told apart is left out:
two FIDE ids that differ (unless one digit apart), or a birth year, sex or federation that
differs (rule 5). The pairs are ranked as the matcher ranks candidates: how close the names
are, then the evidence for them. Each comes with the ``player merge`` that would join them
(the player with a FIDE id kept, else the older record). Nothing is changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from ratings.matching import Candidate, Facts, Kind, one_digit_off
from ratings.service.register.identity import load_identities

__all__ = ["DuplicatePair", "likely_duplicates"]


@dataclass(frozen=True, slots=True)
class DuplicatePair:
    """Two live players who may be one person."""

    keep: int
    keep_name: str
    duplicate: int
    duplicate_name: str
    how: str
    """How the names are close (``same name``, ``initials``, ``nickname``...)."""
    evidence: str
    """What both give alike (``birth year, federation``), or ``none``."""

    @property
    def merge(self) -> str:
        """The command that joins them."""
        return f"ratings player merge {self.keep} {self.duplicate}"


def likely_duplicates(session: Session) -> list[DuplicatePair]:
    """The live players the matcher takes for one person, best first (see the module
    docstring)."""
    identities = load_identities(session)
    register = identities.register
    found: dict[tuple[int, int], Candidate] = {}
    for pid, name in identities.names.items():
        facts = register.facts[pid]
        who = Facts(name, None, facts.birth_year, facts.sex, facts.federation)
        for c in register.match(who, exclude=pid).candidates:
            other = c.player_id
            if other == pid or c.evidence_against:
                continue
            a, b = register.facts[pid].fide_id, register.facts[other].fide_id
            kind = c.kind
            if a is not None and b is not None and a != b:
                if not one_digit_off(a, b):
                    continue
                kind = Kind.FIDE_TYPO
            if kind is Kind.ALIAS:
                kind = Kind.FOLDED  # another player's alias is his own name folded here
            pair = (min(pid, other), max(pid, other))
            seen = found.get(pair)
            candidate = Candidate(other, kind, c.spelling, c.distance, c.evidence_for)
            if seen is None or candidate.rank[:4] < seen.rank[:4]:
                found[pair] = candidate
    pairs = sorted(found.items(), key=lambda item: (item[1].rank[:4], item[0]))
    out: list[DuplicatePair] = []
    for (a, b), c in pairs:
        keep, dup = (b, a) if register.facts[a].fide_id is None and register.facts[
            b
        ].fide_id is not None else (a, b)  # fmt: skip
        out.append(
            DuplicatePair(
                keep,
                identities.names[keep],
                dup,
                identities.names[dup],
                c.kind.value,
                ", ".join(c.evidence_for) or "none",
            )
        )
    return out
