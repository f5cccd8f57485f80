"""The one import pipeline: what every import does with the players of its file.

parse (:mod:`ratings.io`) -> resolve every incoming player with the one matcher
(:class:`Resolver`) -> decide (automatic, asked, refused) -> report (:class:`Matching`) ->
store (:meth:`Resolver.store`: the new players and the aliases; the format's own rows in its
module).

A format gives each player of its file as an :class:`Incoming` (its line, its spelling and
what else the file says: FIDE id, birth year, sex, federation, rating) and asks
:meth:`Resolver.resolve`. The resolver answers with the player (an id, or a negative
placeholder for one the import creates or asks about) and how it was found (:data:`HOW`),
in this order:

1. **FIDE id.** A FIDE id the register holds finds its player (a merged-away record's id the
   player it was merged into); a name beside it that is another player's, or shares no word
   with the registered one, is an error naming both; another birth year, sex, given name or
   a far rating is a question naming both (:func:`ratings.matching.is_sure_by_fide_id`).
2. **Earlier in the file.** A name that came with a FIDE id earlier in the file is that
   player where it comes without one.
3. **Decisions.** ``--match``, ``--match-file``, ``--new`` and the prompt's answers
   (:class:`ratings.service.register.identity.Decisions`); each is kept as an alias when stored,
   unless it would hand another live player's name over
   (:func:`ratings.service.register.identity.screen_aliases`).
4. **The matcher** (:mod:`ratings.matching`): a certain answer is taken, an uncertain one is
   a question (asked once per folded name), none is a new player (``creates``) or an error
   (a games CSV registers nobody).

A file that gives only names or FIDE ids (a games CSV: ``references``) is resolved from the
players it names, read by key and FIDE id, and a name that is the registered name (by key)
of exactly one live player is that player: a month of games imported into FIDE's 600,000
players reads a few thousand (bench/RESULTS.md); any other name goes to the matcher, which
reads the whole register once.

Each distinct incoming player is resolved once: a player of many games (PGN, games CSV) is
looked up on his first line and found again by what the file says of him, so a ``--new``
player of two games is one player, and a month of 118,000 games resolves its 6,000 names.

The questions stop the import (:func:`stop`, with the file's other problems), except in a
dry run, whose report lists them. The report (:class:`ratings.service.imports.report.
Matching`) is the same for every format.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import InstrumentedAttribute, Session

from ratings.errors import InputFileError, InputFileErrors
from ratings.gc_pause import without_cycle_collection
from ratings.io.notes import FileWarning
from ratings.matching import Facts, Kind, Match, fold, is_sure_by_fide_id
from ratings.models import Player
from ratings.names import clean_name, key_of_stored
from ratings.service.imports.incoming import (
    Incoming,
    NewPlayer,
    is_fide_reference,
    same_person_name,
)
from ratings.service.imports.report import WHY, Matching, Outcome, matching_of
from ratings.service.rating.marks import joining_list
from ratings.service.register.identity import (
    Decisions,
    Identities,
    MatchQuestionsError,
    Question,
    load_identities,
    own_name_holders,
    screen_aliases,
    store_aliases,
)
from ratings.service.shared.sql import claim_players

__all__ = ["Resolver", "decision_text", "finish", "raise_all", "stop"]


_IN_CHUNK = 500
"""Values per ``IN (...)`` list when the resolver reads the players a file names."""


class Resolver:
    """The players of one file, resolved against the register, against the players the file
    creates, and by the administrator's decisions (see the module docstring)."""

    def __init__(
        self,
        session: Session,
        file_name: str,
        decisions: Decisions | None = None,
        *,
        creates: bool = True,
        ratings: bool = False,
        references: bool = False,
        refs: Iterable[str] | None = None,
    ) -> None:
        """A resolver of one file's players.

        :param creates: a player the register does not hold is created (else an error:
            ``unknown player``).
        :param ratings: each player's rating as evidence, for a file that gives one (TRF).
        :param references: the file gives references (a games CSV's white and black: a FIDE
            id in digits, or a name) and nothing else; then only the players ``refs`` names
            are read, by FIDE id and key (all of them when None), and the whole register is
            read once, for the matcher, only when a name is not one live player's
            registered name.
        """
        self.session = session
        self.file_name = file_name
        self.decisions = decisions or Decisions()
        self.creates = creates
        self.partial = references
        self.new: list[NewPlayer] = []
        self.questions: list[Question] = []
        self.aliases: list[tuple[str, int, str, Facts]] = []
        """(name as written, player id or placeholder, source, what the file says):
        decisions to keep as aliases."""
        self.warnings: list[FileWarning] = []
        self.outcomes: list[Outcome] = []
        """Each distinct incoming player, on his first line, in file order."""
        self.unkept: list[str] = []
        self.kept: tuple[tuple[str, int, str], ...] = ()
        self._lines: dict[int, int] = {}  # placeholder -> the line that introduced the player
        self._asked: dict[str, int] = {}  # folded name -> the placeholder of its question
        self._question_of: dict[int, Question] = {}
        self._by_id_in_file: dict[str, int] = {}  # name key -> the player its FIDE id found
        # what each distinct incoming player was resolved to, or the problem he raised
        self._answers: dict[tuple[object, ...], tuple[int, str]] = {}
        self._refused: dict[tuple[object, ...], tuple[str, str | None]] = {}
        self._by_reference: dict[str, int | None] = {}
        self._next = -1
        self.by_fide: dict[int, int] = {}
        self.names: dict[int, str] = {}
        """Player id (or placeholder) -> registered name (a new player's, as the file)."""
        self.keys: dict[int, str] = {}
        self.by_name: defaultdict[str, list[int]] = defaultdict(list)
        self._identities: Identities | None = None
        if references:
            self._read_named(refs)
        else:
            self._identities = load_identities(session, ratings=ratings)
            self.by_fide = self._identities.register.by_fide
            self.names = dict(self._identities.names)
            self.keys, self.by_name = without_cycle_collection(_keys)(self.names)

    def _read_named(self, refs: Iterable[str] | None) -> None:
        """The players ``refs`` name, by FIDE id and key (every player when None); a
        merged-away record's FIDE id leads to the player it was merged into."""
        merged: dict[int, int] = {}
        select = sa.select(
            Player.id, Player.name, Player.name_key, Player.fide_id, Player.merged_into_id
        )
        if refs is None:
            rows = list(self.session.execute(select))
        else:
            texts = {ref.strip() for ref in refs}
            wanted: tuple[tuple[InstrumentedAttribute[Any], list[Any]], ...] = (
                (Player.fide_id, sorted(int(t) for t in texts if is_fide_reference(t))),
                (Player.name_key, sorted({key_of_stored(t) for t in texts})),
            )
            rows = []
            for column, values in wanted:
                for at in range(0, len(values), _IN_CHUNK):
                    chunk = values[at : at + _IN_CHUNK]
                    rows += self.session.execute(select.where(column.in_(chunk)))
        # a player named in the file by FIDE id and by name is read twice: once here
        for pid, name, key, fide_id, merged_into in dict.fromkeys(rows):
            if fide_id is not None:
                self.by_fide[fide_id] = pid
            if merged_into is not None:
                merged[pid] = merged_into
            else:
                self.by_name[key].append(pid)
                self.names[pid], self.keys[pid] = name, key
        if refs is not None:
            # the player a merged-away record was merged into may itself have been merged
            ahead = [pid for pid in merged.values() if pid not in merged]
            while ahead:
                found = self.session.execute(
                    sa.select(Player.id, Player.merged_into_id).where(Player.id.in_(ahead))
                )
                more = {pid: into for pid, into in found if into is not None}
                merged.update(more)
                ahead = [pid for pid in more.values() if pid not in merged]
        for fide_id, pid in self.by_fide.items():
            while pid in merged:
                pid = merged[pid]
            self.by_fide[fide_id] = pid

    @property
    def identities(self) -> Identities:
        """The whole register, as the matcher sees it (read on first use by a resolver of
        references)."""
        if self._identities is None:
            self._identities = load_identities(self.session)
            for pid, name in self._identities.names.items():
                self.names.setdefault(pid, name)
        return self._identities

    # --- resolving ---------------------------------------------------------------------------

    def resolve(self, who: Incoming) -> tuple[int, str]:
        """(player id or placeholder, how: one of :data:`HOW`), or :class:`InputFileError`
        (a FIDE id contradicted by the name beside it, a decision the FIDE id contradicts,
        an unknown player of a file that creates none)."""
        decided = None
        if self.decisions:
            # a decision given for another spelling leaves a registered player's own name
            # alone: `--new 'Novak, Jan'` is not the father registered as `Novák, Jan`
            decided = self.decisions.lookup(who.name, as_written=self._is_own_name(who.name))
        if self._by_id_in_file and who.fide_id is None and decided is None:
            # the same spelling as a line that gave a FIDE id (another spelling, which may
            # be another registered player's name or the swapped one, goes to the matcher)
            earlier = self._by_id_in_file.get(key_of_stored(who.name))
            if earlier is not None:
                return earlier, "name" if earlier > 0 else "new"
        said = who.said
        answer = self._answers.get(said)
        if answer is not None:
            return answer
        refused = self._refused.get(said)
        if refused is not None:
            raise InputFileError(self.file_name, who.line, *refused)
        try:
            pid, how, why, source = self._resolve(who, decided)
        except InputFileError as exc:
            self._refused[said] = (exc.problem, exc.field)
            raise
        self._answers[said] = (pid, how)
        self.outcomes.append(Outcome(who.line, who.name, pid, how, why, source))
        return pid, how

    def reference(self, line: int, text: str, field: str) -> int | None:
        """:meth:`resolve` of a games CSV's white or black (a FIDE id in digits, or a name):
        the player, or None for one that needs a decision. A month's file names each of
        its players in many games: the answers are kept by the text."""
        found = self._by_reference.get(text, 0)
        if found != 0:
            return found
        pid, how = self.resolve(Incoming(line, text, field))
        answer = None if how == "ask" else pid
        self._by_reference[text] = answer
        return answer

    def _resolve(
        self, who: Incoming, decided: tuple[str, int | None, str] | None
    ) -> tuple[int, str, str, str]:
        """:meth:`resolve` for a player not seen before: (id, how, why, decision source)."""
        name = who.name
        if self.partial:
            text = name.strip()
            if is_fide_reference(text) and int(text) in self.by_fide:
                return self.by_fide[int(text)], "fide_id", "", ""
        elif who.fide_id is not None and who.fide_id in self.by_fide:
            return self._by_fide_id(who, decided)
        if decided is not None:
            return self._decided(who, decided)
        if self.partial:
            text = name.strip()
            found = self.by_name.get(key_of_stored(text), [])
            if len(found) == 1:
                return found[0], "name", "", ""
            if not found and is_fide_reference(text):
                raise InputFileError(self.file_name, who.line, f"unknown fide id: {name!r}",
                                     who.field)  # fmt: skip
            who = Incoming(who.line, text, who.field)
        found_match = self.identities.match(who.facts)
        certain = found_match.certain
        if certain is not None:
            pid = certain.player_id
            if pid < 0:
                return pid, "new", "", ""
            if certain.kind is Kind.ALIAS:
                return pid, "alias", f"alias {certain.spelling!r}", ""
            if not self.partial and self.keys.get(pid) == key_of_stored(name):
                return pid, "name", "", ""
            return pid, "folded", WHY["folded"], ""
        if any(c.player_id > 0 for c in found_match.candidates):
            return (*self._ask(who, found_match), "", "")
        if not self.creates:
            raise InputFileError(self.file_name, who.line, f"unknown player: {name!r}", who.field)
        placeholder = self._create(who, who.fide_id)
        if found_match.other_fide_ids:
            pid = found_match.other_fide_ids[0]
            self.warnings.append(
                FileWarning(
                    self.file_name,
                    who.line,
                    f"{name!r} (FIDE id {who.fide_id}) is created as a new player, yet "
                    f"{self._label(pid)} has that name: a mistyped FIDE id? correct the "
                    "file (and 'ratings import undo' this import) before rating",
                    who.fide_field,
                )
            )
        return placeholder, "new", "", ""

    def _by_fide_id(
        self, who: Incoming, decided: tuple[str, int | None, str] | None
    ) -> tuple[int, str, str, str]:
        """A player whose FIDE id the register (or an earlier line) holds (rule 1)."""
        name, fide_id, line = who.name, who.fide_id, who.line
        assert fide_id is not None
        key = key_of_stored(name)
        pid = self.by_fide[fide_id]
        others = [p for p in self.by_name.get(key, []) if p != pid]
        if self.keys.get(pid) == key:  # his own name: its other holders are namesakes
            others = []
        else:
            # another registered player's name written another way (`Maria Müller` beside
            # Mario's FIDE id) contradicts the id as much as his name written as registered
            holders = [h for h, _ in own_name_holders(self.identities, name)]
            if holders and pid not in holders:
                others = holders
        if others or not same_person_name(key, self.keys[pid]):
            named = (
                f"; {name!r} is {' and '.join(self._label(p) for p in others)}" if others else ""
            )
            raise InputFileError(
                self.file_name,
                line,
                f"{name!r} does not match FIDE id {fide_id}, which belongs to "
                f"{self._label(pid)}{named}; correct the file or the register",
                who.fide_field,
            )
        by_id = self.identities.register.fide_candidate(who.facts) if pid > 0 else None
        if by_id is not None and not is_sure_by_fide_id(by_id):
            if decided is None:
                return (*self._ask(who, Match(None, (by_id,))), "", "")
            if decided[1] is None:  # a new player: the file's FIDE id is not his
                self.warnings.append(
                    FileWarning(
                        self.file_name,
                        line,
                        f"{name!r} is created without FIDE id {fide_id}, which belongs "
                        f"to {self._label(pid)} ({decision_text(decided)})",
                        who.fide_field,
                    )
                )
                return self._create(who, None), "new", "", decided[0]
        if decided is not None and decided[1] != pid:
            raise InputFileError(
                self.file_name,
                line,
                f"{name!r} has FIDE id {fide_id}, which belongs to {self._label(pid)}; "
                f"the decision for it ({decision_text(decided)}) contradicts it",
                who.fide_field,
            )
        # later games of this file may give the same name without the id
        if pid not in self.by_name[key]:
            self.by_name[key].append(pid)
        self._by_id_in_file.setdefault(key, pid)
        return pid, "fide_id" if pid > 0 else "new", "", ""

    def _decided(
        self, who: Incoming, decided: tuple[str, int | None, str]
    ) -> tuple[int, str, str, str]:
        """A player the administrator's decision names (rule 3)."""
        source, pid_given, _ = decided
        if pid_given is None:
            placeholder = self._create(who, who.fide_id)
            self.aliases.append((who.name, placeholder, source, who.facts))
            return placeholder, "new", "", source
        theirs = self.identities.facts(pid_given).fide_id
        if who.fide_id is not None and theirs is not None and theirs != who.fide_id:
            raise InputFileError(
                self.file_name,
                who.line,
                f"{who.name!r} has FIDE id {who.fide_id}, player {pid_given} has {theirs}: "
                f"{decision_text(decided)} cannot make them one person",
                who.fide_field,
            )
        self.aliases.append((who.name, pid_given, source, who.facts))
        return pid_given, "match", WHY[source], source

    def _ask(self, who: Incoming, found: Match) -> tuple[int, str]:
        """A question about ``who`` (once per folded name): a placeholder, ``ask``."""
        folded = fold(who.name).key
        if folded in self._asked:
            return self._asked[folded], "ask"
        placeholder = self._placeholder(who.line)
        self._asked[folded] = placeholder
        self.names[placeholder] = who.name
        question = self.identities.question(who.line, who.facts, found, who.field)
        self.questions.append(question)
        self._question_of[placeholder] = question
        return placeholder, "ask"

    def _placeholder(self, line: int) -> int:
        pid = self._next
        self._next -= 1
        self._lines[pid] = line
        return pid

    def _create(self, who: Incoming, fide_id: int | None) -> int:
        placeholder = self._placeholder(who.line)  # until the insert gives the id
        cleaned = clean_name(who.name)
        key = key_of_stored(who.name)
        self.new.append(NewPlayer(placeholder, cleaned, fide_id, who.line))
        self.by_name[key].append(placeholder)
        if fide_id is not None:
            self.by_fide[fide_id] = placeholder
        self.names[placeholder] = cleaned
        self.keys[placeholder] = key
        self.identities.register.add_player(placeholder, Facts(cleaned, fide_id), registered=False)
        return placeholder

    def _is_own_name(self, name: str) -> bool:
        """Whether ``name`` is a live registered player's own name (its key, not folded)."""
        key = key_of_stored(name)
        return any(pid > 0 and self.keys.get(pid) == key for pid in self.by_name.get(key, ()))

    def _label(self, pid: int) -> str:
        if pid < 0:
            return f"the player of line {self._lines[pid]}"
        facts = self.identities.facts(pid)
        tail = f", FIDE {facts.fide_id})" if facts.fide_id else ")"
        return f"player {pid} ({facts.name}{tail}"

    def question_of(self, placeholder: int) -> Question:
        """The question a placeholder stands for."""
        return self._question_of[placeholder]

    def new_player(self, placeholder: int) -> NewPlayer:
        """The player to create behind a placeholder."""
        return next(p for p in reversed(self.new) if p.key == placeholder)

    # --- after the file ----------------------------------------------------------------------

    def store(self, session: Session, import_id: int) -> dict[int, int]:
        """Create the new players (claimed by the import, for ``import undo``) and keep the
        decisions as aliases; returns placeholder -> id."""
        created = self.insert(session)
        claim_players(session, import_id, created.values())
        self.remember(session, created, import_id)
        return created

    def insert(self, session: Session) -> dict[int, int]:
        """Create the new players; returns placeholder -> id."""
        if not self.new:
            return {}
        joins = joining_list(session)
        result = session.execute(
            sa.insert(Player).returning(Player.id, sort_by_parameter_order=True),
            [
                {
                    "name": p.name,
                    "name_key": key_of_stored(p.name),
                    "fide_id": p.fide_id,
                    "birth_date": p.birth_date,
                    "birth_year": p.birth_year,
                    "sex": p.sex,
                    "federation": p.federation,
                    "title": p.title,
                    "entry_rating": p.rating,
                    "entry_games": None,  # unknown, never 0 (README.md#unknown-game-counts)
                    "k10": False,
                    "listed_from": joins,
                }
                for p in self.new
            ],
        )
        ids = [int(pid) for pid in result.scalars()]
        return {p.key: pid for p, pid in zip(self.new, ids, strict=True)}

    def remember(self, session: Session, created: dict[int, int], import_id: int) -> None:
        """Keep the decisions as aliases (:func:`ratings.service.register.identity.store_aliases`):
        :attr:`kept` the ones stored (name, player id, registered name), :attr:`unkept` why
        the others were not."""
        if not self.aliases:
            return
        aliases = [
            (name, created.get(pid, pid), source, said) for name, pid, source, said in self.aliases
        ]
        kept, unkept = screen_aliases(self.identities, aliases)
        stored, held = store_aliases(session, kept, import_id)
        self.unkept = unkept + held
        by_id = {created.get(pid, pid): self.names[pid] for _, pid, _, _ in self.aliases}
        self.kept = tuple((name, pid, by_id[pid]) for name, pid in stored)

    def matching(self, created: dict[int, int] | None = None) -> Matching:
        """The report's :class:`Matching` (``created``: the ids the new players got)."""
        return matching_of(
            self.outcomes,
            self.names,
            created=created,
            questions=self.questions,
            aliases=self.kept,
            unkept=self.unkept,
        )


def _keys(names: dict[int, str]) -> tuple[dict[int, str], defaultdict[str, list[int]]]:
    """Each player's name key, and the players of each key (a world-size register: paused
    cycle collection, as :func:`ratings.service.register.identity.load_identities`)."""
    keys = {pid: key_of_stored(name) for pid, name in names.items()}
    by_name: defaultdict[str, list[int]] = defaultdict(list)
    for pid, key in keys.items():
        by_name[key].append(pid)
    return keys, by_name


def decision_text(decided: tuple[str, int | None, str]) -> str:
    """A decision as an error or warning names it: ``--new 'X'``, ``--match 'X=17'``."""
    source, pid, given = decided
    if pid is None:
        return f"--new {given!r}"
    return f"--match '{given}={pid}'" if source == "match" else f"the answer {pid}"


def finish(
    resolver: Resolver,
    errors: list[InputFileError],
    *,
    dry_run: bool,
) -> None:
    """:func:`stop` for a resolver's file."""
    stop(
        resolver.file_name,
        resolver.decisions,
        resolver.questions,
        errors,
        dry_run=dry_run,
        creates=resolver.creates,
    )


def stop(
    file_name: str,
    decisions: Decisions,
    questions: Sequence[Question],
    errors: list[InputFileError],
    *,
    dry_run: bool,
    creates: bool,
) -> None:
    """Raise every problem of a file, with the players that need a decision
    (:class:`MatchQuestionsError`) and the decisions that name no player of it; a dry run
    without other problems keeps its questions for its report (the import then stores
    nothing)."""
    errors.extend(
        InputFileError(file_name, None, f"{option}: no player of that name in the file")
        for option in decisions.unused()
    )
    if questions and (errors or not dry_run):
        raise MatchQuestionsError(questions, file_name, errors, creates=creates)
    raise_all(errors)


def raise_all(errors: Sequence[InputFileError]) -> None:
    """Raise the problems of a file: one as it is, several together in line order."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise InputFileErrors(sorted(errors, key=lambda e: e.line or 0))
