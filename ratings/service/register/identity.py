"""Who is who in the register: the matcher (:mod:`ratings.matching`) filled from the
database, the decisions an import is given (``--match``, ``--match-file``, ``--new``, the
answers at its prompt), the questions it stops on, and the aliases it remembers
(``player_aliases``; ``player alias add|list|remove``).

An import asks :meth:`Identities.match` about each incoming player that its FIDE id did not
find. A certain answer is taken; an uncertain one becomes a :class:`Question`, and the
import raises :class:`MatchQuestionsError` with every question (and every other problem of
the file) before it writes anything, unless the administrator's :class:`Decisions` answer
it. Each decision is remembered as an alias of the player, so the next file that writes
the name so imports without one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, matching
from ratings.errors import (
    InputFileError,
    InputFileErrors,
    InvalidInputError,
    InvalidNameError,
    LimitError,
    PlayerNotFoundError,
)
from ratings.gc_pause import without_cycle_collection
from ratings.matching import Candidate, Facts, Kind, Match
from ratings.models import MAX_FOLDED_KEY_LENGTH, Player, PlayerAlias
from ratings.names import clean_name, key_of_stored

__all__ = [
    "Decisions",
    "Identities",
    "MatchQuestionsError",
    "Option",
    "Question",
    "describe_facts",
    "load_identities",
    "own_name_holders",
    "screen_aliases",
    "store_aliases",
]

SHOWN_CANDIDATES = 5
"""Candidates named per question (the best ones)."""


def describe_facts(player_id: int, facts: Facts) -> str:
    """``17 Novák, Jiří (FIDE 1234567, born 1984, CZE)``: a player as a question names it."""
    parts = []
    if facts.fide_id is not None:
        parts.append(f"FIDE {facts.fide_id}")
    if facts.birth_year is not None:
        parts.append(f"born {facts.birth_year}")
    if facts.federation:
        parts.append(facts.federation)
    tail = f" ({', '.join(parts)})" if parts else ""
    return f"{player_id} {facts.name}{tail}"


_SAID = {
    "birth year": lambda f: f"born {f.birth_year}",
    "sex": lambda f: f"sex {f.sex}",
    "federation": lambda f: f"federation {(f.federation or '').upper()}",
    "rating": lambda f: f"rating {f.rating}",
    "given name": lambda f: f"given name {matching.given_names(f.name)}",
    "FIDE id": lambda f: f"FIDE id {f.fide_id}",
}
"""How a question says what the file gives against a candidate."""


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate of a question, as shown."""

    player_id: int
    label: str
    """``17 Novák, Jiří (born 1984, CZE)``."""
    why: str
    """``initials``, ``same name; the file says born 1985``..."""
    name: str = ""
    """The registered name."""

    def __str__(self) -> str:
        return f"{self.label} [{self.why}]"


@dataclass(frozen=True, slots=True)
class Question:
    """An incoming player the matcher is not certain about: the import asks, or stops."""

    line: int
    name: str
    """As the file writes it."""
    options: tuple[Option, ...]
    """The best candidates (at most :data:`SHOWN_CANDIDATES`), best first."""
    field: str = "name"

    def problem(self) -> str:
        """``'Novak Jiri' is close to 17 Novák, Jiří (born 1984, CZE) [initials]``."""
        return f"{self.name!r} is close to " + ", ".join(map(str, self.options))


def _hint(creates: bool) -> str:
    new = ", --new 'NAME' if a new one" if creates else ""
    return (
        f"--match 'NAME=ID' (or --match-file FILE) if it is a registered player{new}; each "
        "decision is kept as an alias"
    )


class MatchQuestionsError(InputFileErrors):
    """An import stopped before writing: players it cannot tell for certain (each with its
    candidates), together with the file's other problems, if any."""

    def __init__(
        self,
        questions: Sequence[Question],
        file_name: str,
        others: Sequence[InputFileError] = (),
        *,
        creates: bool = True,
    ) -> None:
        self.questions = list(questions)
        self.others = list(others)
        self.file_name = file_name
        errors = [
            *self.others,
            *(InputFileError(file_name, q.line, q.problem(), q.field) for q in self.questions),
        ]
        errors.sort(key=lambda e: e.line or 0)
        super().__init__(errors)
        n = len(self.questions)
        who = "1 player needs" if n == 1 else f"{n} players need"
        lines = [str(e) for e in errors]
        lines.append(f"{who} a decision: {_hint(creates)}")
        if self.others:
            total = len(errors)
            lines.append(f"{total} problem{'s' if total != 1 else ''} found; nothing was imported")
        else:
            lines[-1] += "; nothing was imported"
        self.args = ("\n".join(lines),)

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(slots=True)
class Decisions:
    """What the administrator said about a file's players: ``--match NAME=ID`` (and the rows
    of ``--match-file``), ``--new NAME``, answers at the prompt. Keyed by the folded name."""

    matches: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    """Folded name -> (the name as given, player id, ``match`` or ``prompt``)."""
    new: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Folded name -> (the name as given, ``new``)."""
    optional: set[str] = field(default_factory=set)
    """Folded names of ``--match-file`` rows: a file may serve several imports, so a row no
    player of this one uses is no error."""
    used: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.matches or self.new)

    def lookup(self, name: str, *, as_written: bool = False) -> tuple[str, int | None, str] | None:
        """(``match``/``prompt``/``new``, player id or None, the name as given) for a file's
        name, or None; marks the decision used.

        :param as_written: only a decision given for this spelling counts (its name key,
            not its folding): the name is a registered player's own, which a decision about
            another spelling that folds alike does not take from him.
        """
        key = matching.fold(name).key
        found: tuple[str, int | None, str] | None = None
        if key in self.matches:
            given, pid, source = self.matches[key]
            found = source, pid, given
        elif key in self.new:
            given, source = self.new[key]
            found = source, None, given
        if found is None or (as_written and key_of_stored(found[2]) != key_of_stored(name)):
            return None
        self.used.add(key)
        return found

    def unused(self) -> list[str]:
        """The options no player of the file used: ``--match 'X=17'``, ``--new 'Y'``."""
        out = [
            f"--match '{given}={pid}'"
            for key, (given, pid, source) in self.matches.items()
            if key not in self.used and key not in self.optional and source == "match"
        ]
        out += [f"--new '{given}'" for key, (given, _) in self.new.items() if key not in self.used]
        return out

    def with_answers(self, answers: Mapping[str, int | None]) -> Decisions:
        """These decisions and the prompt's answers (name -> player id, None for new)."""
        out = Decisions(dict(self.matches), dict(self.new), set(self.optional))
        for name, pid in answers.items():
            key = matching.fold(name).key
            if pid is None:
                out.new[key] = (name, "new")
            else:
                out.matches[key] = (name, pid, "prompt")
        return out


@dataclass(slots=True)
class Identities:
    """The register as the matcher sees it (:class:`ratings.matching.Register`), with the
    labels questions show."""

    register: matching.Register
    names: dict[int, str]
    """Live player id -> registered name."""

    def facts(self, player_id: int) -> Facts:
        return self.register.facts[player_id]

    def match(
        self, who: Facts, *, near: bool = True, excused: matching.Excuse | None = None
    ) -> Match:
        """:meth:`ratings.matching.Register.match`."""
        return self.register.match(who, near=near, excused=excused)

    def question(self, line: int, who: Facts, found: Match, field: str = "name") -> Question:
        """The question to ask about ``who`` (its best candidates, with why each is one)."""
        options = []
        for candidate in found.candidates[:SHOWN_CANDIDATES]:
            if not self.register.registered.get(candidate.player_id, True):
                continue
            them = self.facts(candidate.player_id)
            options.append(
                Option(
                    candidate.player_id,
                    describe_facts(candidate.player_id, them),
                    self._why(candidate, who),
                    them.name,
                )
            )
        return Question(line, who.name, tuple(options), field)

    @staticmethod
    def _why(candidate: Candidate, who: Facts) -> str:
        why = candidate.kind.value
        if candidate.kind is Kind.ALIAS:
            why = f"alias {candidate.spelling!r}"
        said = [_SAID[f](who) for f in candidate.evidence_against if f in _SAID]
        lacks = [f.removeprefix("no ") for f in candidate.evidence_against if f not in _SAID]
        if said:
            why += "; the file says " + ", ".join(said)
        if lacks:
            why += "; the file gives no " + ", ".join(lacks)
        return why


def load_identities(
    session: Session, *, ids: Iterable[int] | None = None, ratings: bool = False
) -> Identities:
    """:func:`_load_identities` with Python's cycle collector paused: a world-size register
    is millions of small objects, and the collector's passes over them took three quarters
    of the time (600,000 names: 21.6 s to index, 5.8 s paused; nothing here makes cycles)."""
    return without_cycle_collection(_load_identities)(session, ids=ids, ratings=ratings)


def _ratings(session: Session) -> dict[int, int]:
    """Each live player's standard rating as evidence: the newest published list's, else
    the entry rating."""
    from ratings.service.shared.sql import fetch_all

    found: dict[int, int] = {
        pid: rating
        for pid, rating in fetch_all(
            session,
            "SELECT id, entry_rating FROM players WHERE entry_rating IS NOT NULL "
            "AND merged_into_id IS NULL",
        )
    }
    newest = fetch_all(session, "SELECT id FROM rating_periods ORDER BY start_date DESC LIMIT 1")
    if newest:
        found.update(
            fetch_all(
                session,
                "SELECT player_id, rating_after FROM rating_history WHERE period_id = "
                f"{int(newest[0][0])} AND time_control = 'standard' "
                "AND rating_after IS NOT NULL",
            )
        )
    return found


def _load_identities(
    session: Session, *, ids: Iterable[int] | None = None, ratings: bool = False
) -> Identities:
    """The whole register for the matcher: every live player, the names and FIDE ids of
    merged records (for the players they were merged into) and every alias (with the
    evidence it needs). One query each; no ORM object per player.

    :param ids: only these live players (and no merged records or aliases): a small pool.
    :param ratings: each player's rating too (:func:`_ratings`), for files that give one.
    """
    from ratings.service.shared.sql import fetch_all

    register = matching.Register()
    names: dict[int, str] = {}
    merged: dict[int, int] = {}
    merged_rows: list[tuple[int, str, int | None]] = []
    rows = fetch_all(
        session,
        "SELECT id, name, fide_id, birth_year, sex, federation, merged_into_id FROM players",
    )
    rated = _ratings(session) if ratings else {}
    wanted = None if ids is None else set(ids)
    for pid, name, fide_id, birth_year, sex, federation, merged_into in rows:
        if merged_into is not None:
            merged[pid] = merged_into
            merged_rows.append((pid, name, fide_id))
            continue
        if wanted is not None and pid not in wanted:
            continue
        names[pid] = name
        register.add_player(pid, Facts(name, fide_id, birth_year, sex, federation, rated.get(pid)))
    if wanted is not None:
        return Identities(register, names)

    def live(pid: int) -> int:
        seen = 0
        while pid in merged and seen < 1000:
            pid, seen = merged[pid], seen + 1
        return pid

    for pid, name, fide_id in merged_rows:
        target = live(pid)
        if target in names:
            register.add_alias(target, name)
            if fide_id is not None:
                register.add_fide_id(fide_id, target)
    for player_id, name, year, fide_id, sex, federation in fetch_all(
        session, "SELECT player_id, name, birth_year, fide_id, sex, federation FROM player_aliases"
    ):
        target = live(player_id)
        if target in names:
            needs = None
            if year is not None or fide_id is not None or sex is not None or federation:
                needs = Facts(name, fide_id, year, sex, federation)
            register.add_alias(target, name, needs)
    return Identities(register, names)


_TOLD_APART = (("birth year", "birth_year"), ("FIDE id", "fide_id"), ("sex", "sex"),
               ("federation", "federation"))  # fmt: skip


def screen_aliases(
    identities: Identities, aliases: Sequence[tuple[str, int, str, Facts | None]]
) -> tuple[list[tuple[str, int, str, Facts | None]], list[str]]:
    """The decisions (name as written, player id, source, what the file said of the
    player) that may be kept as aliases, each with the evidence it needs, and a line for
    each that may not.

    An alias never takes a live player's own name: a spelling that folds like another
    registered player's name is kept only with the file's fields that differ from that
    player's (birth year, FIDE id, sex, federation: the evidence that told them apart), and
    not at all when none does (the next file asks again). A spelling that is the player's
    own name needs no alias."""
    kept: list[tuple[str, int, str, Facts | None]] = []
    unkept: list[str] = []
    for name, pid, source, said in aliases:
        holders = own_name_holders(identities, name)
        others = [(h, n) for h, n in holders if h != pid]
        if not others:
            if not holders:
                kept.append((name, pid, source, None))
            continue
        values: dict[str, object] = {}
        apart = True
        for holder, _ in others:
            theirs = identities.facts(holder)
            told = [
                attr for _, attr in _TOLD_APART
                if said is not None and getattr(said, attr) is not None
                and getattr(theirs, attr) is not None
                and _norm(getattr(said, attr)) != _norm(getattr(theirs, attr))
            ]  # fmt: skip
            if not told:
                apart = False
                break
            for attr in told:
                values[attr] = _norm(getattr(said, attr))
        if not apart:
            holder, registered = others[0]
            unkept.append(
                f"{name!r} not kept as an alias of player {pid}: it is the name of player "
                f"{holder} ({registered}), and the file gives nothing that tells them apart; "
                "the next file that writes it so asks again"
            )
            continue
        needs = Facts(
            name,
            values.get("fide_id"),  # type: ignore[arg-type]  # the file's int, as read
            values.get("birth_year"),  # type: ignore[arg-type]
            values.get("sex"),  # type: ignore[arg-type]
            values.get("federation"),  # type: ignore[arg-type]
        )
        kept.append((name, pid, source, needs))
    return kept, unkept


def _norm(value: object) -> object:
    return value.upper() if isinstance(value, str) else value


def own_name_holders(identities: Identities, name: str) -> list[tuple[int, str]]:
    """The live registered players whose own name folds like ``name`` (the matcher's
    folded-exact candidates that are registered names, not aliases): (id, name), by id.
    An alias never takes such a name: it would give that player's games to another."""
    found = identities.match(Facts(name), near=False)
    register = identities.register
    return sorted(
        (c.player_id, identities.names[c.player_id])
        for c in found.candidates
        if c.kind is Kind.FOLDED and register.registered.get(c.player_id, False)
        and c.spelling == identities.names[c.player_id]
    )  # fmt: skip


def alias_key(name: str) -> str:
    """The folded key an alias is stored under (``player_aliases.folded_key``).

    :raises InvalidInputError: for a name with no letters, or one that folds too long.
    """
    key = matching.fold(name).key
    if not key:
        raise InvalidInputError(f"{name!r} has no letters to match")
    if len(key) > MAX_FOLDED_KEY_LENGTH:
        raise LimitError(f"{name!r} folds to more than {MAX_FOLDED_KEY_LENGTH} characters")
    return key


def store_aliases(
    session: Session,
    aliases: Sequence[tuple[str, int, str, Facts | None]],
    import_id: int | None,
    *,
    at: dt.datetime | None = None,
) -> tuple[list[tuple[str, int]], list[str]]:
    """Remember the spellings (name as written, player id, source, the evidence it needs:
    :func:`screen_aliases`) an import was told about.

    A spelling that is an alias already is not stored again: of that player, it needs
    nothing; of another, it is kept as it is, and a line says so (the decision took this
    file's player, the alias still takes the next file's). Returns the aliases stored (name,
    player id) and those lines.
    """
    from ratings.service.shared.sql import utcnow

    if not aliases:
        return [], []
    keys = {alias_key(name): (name, pid, source, needs) for name, pid, source, needs in aliases}
    held = session.execute(
        sa.select(PlayerAlias.folded_key, PlayerAlias.player_id, Player.name)
        .join(Player, Player.id == PlayerAlias.player_id)
        .where(PlayerAlias.folded_key.in_(list(keys)))
    ).all()
    taken = {key for key, _, _ in held}
    unkept = [
        f"{keys[key][0]!r} not kept as an alias of player {keys[key][1]}: it is an alias of "
        f"player {holder} ({holder_name}) already; 'ratings player alias remove' it to have "
        "the next file ask"
        for key, holder, holder_name in held
        if holder != keys[key][1]
    ]
    when = at or utcnow()
    stored = [(key, *rest) for key, rest in keys.items() if key not in taken]
    if stored:
        session.execute(
            sa.insert(PlayerAlias),
            [
                {"player_id": pid, "name": name, "folded_key": key, "source": source,
                 "import_id": import_id, "created_at": when,
                 "birth_year": needs.birth_year if needs else None,
                 "fide_id": needs.fide_id if needs else None,
                 "sex": needs.sex if needs else None,
                 "federation": needs.federation if needs else None}
                for key, name, pid, source, needs in stored
            ],
        )  # fmt: skip
    return [(name, pid) for _, name, pid, _, _ in stored], unkept


def check_alias_name(name: str) -> str:
    """An alias as stored: a usable name (:func:`ratings.names.clean_name`) of at most
    :data:`ratings.limits.MAX_NAME_LENGTH` characters."""
    return usable_name(name, "alias")


def usable_name(name: str, field: str) -> str:
    """A name as the register stores it, a player's or an alias (:func:`ratings.names.clean_name`),
    of at most :data:`ratings.limits.MAX_NAME_LENGTH` characters; ``field`` names it in the
    error for a longer one."""
    try:
        cleaned = clean_name(name)
    except InvalidNameError as exc:
        raise InvalidNameError(f"not a usable name: {exc}") from None
    problem = limits.too_long(cleaned, limits.MAX_NAME_LENGTH)
    if problem is not None:
        raise LimitError(f"{field}: {problem}")
    return cleaned


def player_of(session: Session, player_id: int) -> Player:
    """A live player by id, for a decision or an alias."""
    player = session.get(Player, player_id)
    if player is None or player.merged_into_id is not None:
        raise PlayerNotFoundError(f"no player with id {player_id}")
    return player
