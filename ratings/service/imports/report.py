"""What an import says about the players of its file, the same for every format: how each
was resolved, who was taken for whom other than by the exact registered name or FIDE id, the
decisions applied, the questions, the aliases kept (:class:`Matching`, filled by
:class:`ratings.service.imports.pipeline.Resolver`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ratings.service.register.identity import Question

__all__ = ["HOW", "TAKEN", "WHY", "Decided", "Matching", "Outcome", "Taken", "matching_of"]

HOW = ("id", "fide_id", "name", "folded", "alias", "match", "new", "ask")
"""How a file's player was resolved: by the register's id (a players CSV's ``id`` column), by
FIDE id, by the registered name (its key), by the
name folded, by an alias, by the administrator's decision (``--match``, ``--match-file``, a
prompt answer), created, or asked about (a dry run's questions)."""

TAKEN = frozenset({"folded", "alias", "match"})
"""The ways a player is taken other than by the exact registered name or FIDE id: what every
import names, player by player (:attr:`Matching.taken`)."""


@dataclass(frozen=True, slots=True)
class Taken:
    """A file's player found other than by the exact registered name or a FIDE id: who
    the import took for whom, and why (the report every import and dry run gives)."""

    line: int
    spelling: str
    """The name as the file writes it."""
    player_id: int
    player: str
    """The registered name of the player taken."""
    why: str
    """``the name folded``, ``alias 'Novak J.'``, ``your decision (--match)``..."""

    def __str__(self) -> str:
        return f"line {self.line}: {self.spelling!r} taken for player {self.player_id} " \
            f"({self.player}): {self.why}"  # fmt: skip

    def as_json(self) -> dict[str, object]:
        """The row of ``--format json``."""
        return {"line": self.line, "spelling": self.spelling, "player_id": self.player_id,
                "player": self.player, "why": self.why}  # fmt: skip


WHY = {
    "folded": "the name folded (accents, word order, punctuation)",
    "match": "your decision (--match, --match-file)",
    "prompt": "your answer at the prompt",
}
"""Why a :class:`Taken` player was taken, by how it was found (an alias says which)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one distinct incoming player was resolved, on the first line that gives him."""

    line: int
    name: str
    player_id: int
    """The player, or a placeholder (negative) for one created or asked about."""
    how: str
    """One of :data:`HOW`."""
    why: str = ""
    """For :data:`TAKEN`: why he was taken (:data:`ratings.service.imports.storing.WHY`, or the
    alias)."""
    source: str = ""
    """For a decision: ``match``, ``prompt`` or ``new``."""


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision an import applied: the file's spelling is a registered player, or new."""

    line: int
    spelling: str
    player_id: int | None
    """None: a player the import would create (a dry run)."""
    player: str
    """The registered name (a new player's: the file's)."""
    source: str
    """``match`` (``--match``, ``--match-file``), ``prompt`` or ``new``."""

    def as_json(self) -> dict[str, object]:
        """The row of ``--format json``."""
        return {"line": self.line, "spelling": self.spelling, "player_id": self.player_id,
                "player": self.player, "source": self.source}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Matching:
    """Who an import took for whom: the part of its report every format shares."""

    counts: tuple[tuple[str, int], ...] = ()
    """The file's distinct players by how they were resolved (:data:`HOW` order), those
    counted only."""
    taken: tuple[Taken, ...] = ()
    """Taken other than by the exact registered name or FIDE id, in line order."""
    decisions: tuple[Decided, ...] = ()
    """The decisions applied, in line order."""
    questions: tuple[Question, ...] = ()
    """The players that need a decision (a dry run's; an import stops on them)."""
    aliases: tuple[tuple[str, int, str], ...] = ()
    """The aliases stored: (name as written, player id, registered name)."""
    unkept: tuple[str, ...] = ()
    """Decisions not kept as aliases, each said why."""

    def count(self, how: str) -> int:
        """The file's players resolved one way (one of :data:`HOW`)."""
        return dict(self.counts).get(how, 0)

    def as_json(self) -> dict[str, object]:
        """The shared part of every import's ``--format json``."""
        return {
            "counts": {how: self.count(how) for how in HOW},
            "taken": [t.as_json() for t in self.taken],
            "decisions": [d.as_json() for d in self.decisions],
            "questions": [
                {
                    "line": q.line,
                    "spelling": q.name,
                    "field": q.field,
                    "candidates": [
                        {"player_id": o.player_id, "player": o.name, "label": o.label, "why": o.why}
                        for o in q.options
                    ],
                }
                for q in self.questions
            ],
            "aliases": [
                {"spelling": name, "player_id": pid, "player": registered}
                for name, pid, registered in self.aliases
            ],
            "unkept": list(self.unkept),
        }


def matching_of(
    outcomes: Sequence[Outcome],
    names: Mapping[int, str],
    *,
    created: Mapping[int, int] | None = None,
    questions: Sequence[Question] = (),
    aliases: Sequence[tuple[str, int, str]] = (),
    unkept: Sequence[str] = (),
) -> Matching:
    """The :class:`Matching` of an import's outcomes (``names``: player id or placeholder ->
    the registered name, a new player's as the file; ``created``: the ids the new players
    got)."""
    created = created or {}
    counts: dict[str, int] = dict.fromkeys(HOW, 0)
    taken: list[Taken] = []
    decisions: list[Decided] = []
    for o in outcomes:
        counts[o.how] += 1
        if o.how in TAKEN and o.player_id > 0:
            taken.append(Taken(o.line, o.name, o.player_id, names[o.player_id], o.why))
        if o.source:
            pid = created.get(o.player_id, o.player_id)
            decisions.append(Decided(o.line, o.name, pid if pid > 0 else None,
                                     names[o.player_id], o.source))  # fmt: skip
    return Matching(
        counts=tuple((how, n) for how, n in counts.items() if n),
        taken=tuple(sorted(taken, key=lambda t: t.line)),
        decisions=tuple(sorted(decisions, key=lambda d: d.line)),
        questions=tuple(questions),
        aliases=tuple(aliases),
        unkept=tuple(unkept),
    )
