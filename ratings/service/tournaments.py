"""Tournament files: what the TRF and PGN imports share (player matching, checks, reports).

The imports themselves are :mod:`ratings.service.trf_import` and
:mod:`ratings.service.pgn_import`; a stored event written back as TRF16 is
:mod:`ratings.service.trf_export`.

Both imports share the player matching rules (README.md#names-namesakes-and-merges): a FIDE id in
the file finds the registered player holding it (or the player a merged-away holder was merged
into), and a name beside it that contradicts it (another player's name, or no word in common with
the name the id is registered under) is an error naming both players; otherwise the name, compared
by its key (:mod:`ratings.names`: any case, Unicode form or spacing), finds the one live player of
that name whose FIDE id is not a different one; otherwise the player is created from the file. A
name that matches several players is an error listing them. A file whose event (name, dates and
players) is already stored is refused unless ``allow_duplicates``. Only a player created here takes
data from the file: a matched player's register entry (entry rating included) is never changed.

Decisions a reader of the code should know:

* TRF: the file's rating becomes the entry rating of a player created from it; TRF06
  one-letter titles (``g``, ``m``, ``wf``...) become ``GM``, ``IM``, ``WFM``; titles the
  register does not know are dropped rather than refusing the file. A federation column
  that holds something other than a FIDE federation (club codes such as ``C.C`` in Irish
  Krause files) is kept as written, with a warning per code. Round dates that cannot be
  used (see :mod:`ratings.io.trf`) leave their rounds' games on the date the other games
  without a round date get, and one warning says which date that is.
* Every problem of a file is reported at once: the reader's, the dates' and the
  register's (names, ratings, birth years) in one list, in line order.
* PGN: players are created with name, FIDE id and title (``WhiteTitle``/``BlackTitle``, the
  first one of :data:`ratings.limits.TITLES` in date order). ``WhiteElo``/``BlackElo`` become
  entry ratings only when asked (``entry_ratings=True``, ``--entry-ratings``): in PGN they
  are often another pool's rating (Lichess, a club). The rating of a player's first game
  (by date, then file order) is taken; when the player's games give other values too, a
  warning names them.
* Creating players marks nothing for re-rating (as ``ratings player add``); the periods
  of the imported events are marked when they are already rated.
* Writes go through Core bulk inserts (no ORM object per game, bye or player).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits
from ratings.errors import (
    DuplicateImportError,
    InputFileError,
    InputFileErrors,
    InvalidNameError,
    LimitError,
)
from ratings.io.notes import FileWarning
from ratings.matching import Facts, Kind, Match, fold, is_sure_by_fide_id
from ratings.models import Bye, Event, Game, Import, Player
from ratings.names import clean_name, key_of_stored
from ratings.service.common import joining_list, without_cycle_collection
from ratings.service.identity import (
    Decisions,
    MatchQuestionsError,
    Question,
    load_identities,
    screen_aliases,
    store_aliases,
)
from ratings.service.storing import (
    WHY,
    Taken,
    history_error,
)

__all__ = [
    "EventSummary",
    "NewPlayer",
    "PlayerMatch",
    "PlayerResolver",
    "TournamentReport",
    "check_day",
    "check_history",
    "check_name",
    "check_resolved",
    "event_name",
    "raise_all",
    "refuse_duplicates",
    "stored_duplicates",
]

# dates outside this range are damage, not chess history (and break period arithmetic)
_FIRST_DAY = dt.date(1850, 1, 1)
_LAST_DAY = dt.date(2199, 12, 31)


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """How one player of a file was resolved."""

    name: str
    """The name as the file writes it."""
    line: int
    """Line of the player's ``001`` record (TRF) or first game (PGN)."""
    player_id: int | None
    """The register's id; None in a dry run for a player that would be created."""
    how: str
    """``'fide_id'``, ``'name'`` (matched) or ``'new'`` (created from the file)."""
    registered_name: str
    """The matched player's name in the register (the file's name for a new player)."""
    start_no: int | None = None
    """TRF start number."""
    question: Question | None = None
    """A dry run's question about the player (``how`` is ``ask``)."""


@dataclass(frozen=True, slots=True)
class EventSummary:
    """One event an import creates."""

    event_id: int | None
    """None in a dry run."""
    name: str
    start_date: dt.date
    end_date: dt.date
    games: int


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """What a TRF or PGN import stored (or, in a dry run, would store)."""

    file_name: str
    dry_run: bool
    events: tuple[EventSummary, ...]
    players: tuple[PlayerMatch, ...]
    rated_games: int
    unrated_games: int
    byes: int = 0
    skipped_unfinished: int = 0
    skipped_phantom: int = 0
    marked_period: str | None = None
    """The oldest rated period the import touched (re-rated by the next ``ratings rate``)."""
    warnings: tuple[FileWarning, ...] = ()
    """What the import noticed but did not refuse the file for, in line order."""
    aliases: tuple[tuple[str, int, str], ...] = ()
    """The aliases the import stored: (name as written, player id, registered name)."""
    unkept: tuple[str, ...] = ()
    """Decisions not kept as aliases, each said why (another live player's own name that
    nothing in the file tells apart)."""

    @property
    def games(self) -> int:
        """Games stored, rated or not."""
        return self.rated_games + self.unrated_games

    def count(self, how: str) -> int:
        """Players resolved one way (one of :data:`HOW`)."""
        return sum(1 for p in self.players if p.how == how)

    @property
    def taken(self) -> tuple[Taken, ...]:
        """The players taken other than by the exact registered name or FIDE id, in line
        order: by the name folded, an alias, a decision."""
        why = {"folded": WHY["folded"], "alias": "an alias", "match": "your decision"}
        return tuple(
            Taken(p.line, p.name, p.player_id, p.registered_name, why[p.how])
            for p in sorted(self.players, key=lambda p: p.line)
            if p.how in why and p.player_id is not None
        )


# --- player matching ---------------------------------------------------------------------


def _words(key: str) -> set[str]:
    """The words of a name key without accents or punctuation (``öberg, å.`` -> oberg, a)."""
    plain = "".join(
        ch for ch in unicodedata.normalize("NFKD", key) if not unicodedata.combining(ch)
    )
    return set(re.findall(r"\w+", plain))


def _same_person_name(file_key: str, registered_key: str) -> bool:
    """Whether a name in a file can be the registered name of the player its FIDE id gives:
    the same key, or a shared word (``Carlsen,M`` and ``Carlsen, Magnus``; ``Magnus
    Carlsen``), accents aside (``Oberg`` and ``Öberg``)."""
    if file_key == registered_key:
        return True
    shared = _words(file_key) & _words(registered_key)
    return any(len(word) > 1 for word in shared)


@dataclass(slots=True)
class NewPlayer:
    """A player to create; ``key`` is a placeholder id (negative) until inserted."""

    key: int
    name: str
    fide_id: int | None
    line: int
    birth_date: dt.date | None = None
    birth_year: int | None = None
    sex: str | None = None
    federation: str | None = None
    title: str | None = None
    rating: int | None = None


HOW = ("fide_id", "name", "folded", "alias", "match", "new", "ask")
"""How a file's player was resolved (:attr:`PlayerMatch.how`): by FIDE id, by name key, by
folded name, by an alias, by the administrator's decision (``--match``, ``--match-file``, a
prompt answer), created, or asked about (a dry run's questions)."""


class PlayerResolver:
    """Match file players against the register, and against the players the file creates.

    A FIDE id finds its player first (a merged-away record's id the player it was merged
    into); then the administrator's decisions (``--match``, ``--new``, prompt answers); then
    the matcher (:mod:`ratings.matching`: an alias, the one player whose name folds alike,
    else a question about its near candidates); else the player is created. Players the file
    creates match its later lines by folded name.
    """

    def __init__(
        self,
        session: Session,
        file_name: str,
        decisions: Decisions | None = None,
        *,
        ratings: bool = False,
    ) -> None:
        self.file_name = file_name
        self.decisions = decisions or Decisions()
        self.identities = load_identities(session, ratings=ratings)
        register = self.identities.register
        self.by_fide: dict[int, int] = register.by_fide
        self.names: dict[int, str] = dict(self.identities.names)
        self.keys, self.by_name = without_cycle_collection(_keys)(self.names)
        self.new: list[NewPlayer] = []
        self.lines: dict[int, int] = {}  # placeholder -> line that introduced the player
        self.questions: list[Question] = []
        self.asked: dict[str, int] = {}  # folded name -> the placeholder of its question
        self.aliases: list[tuple[str, int, str, Facts]] = []
        """(name as written, player id or placeholder, source, what the file says):
        decisions to remember."""
        self.warnings: list[FileWarning] = []
        self.by_id_in_file: dict[str, int] = {}
        """Folded name -> the player a FIDE id found for it earlier in this file."""
        self.told: dict[int, Facts] = {}
        self.unkept: list[str] = []
        """Decisions not kept as aliases (:func:`ratings.service.identity.screen_aliases`)."""
        self._next = -1

    def _label(self, pid: int) -> str:
        if pid < 0:
            return f"the player of line {self.lines[pid]}"
        facts = self.identities.facts(pid)
        tail = f", FIDE {facts.fide_id})" if facts.fide_id else ")"
        return f"player {pid} ({facts.name}{tail}"

    def _placeholder(self, line: int) -> int:
        pid = self._next
        self._next -= 1
        self.lines[pid] = line
        return pid

    def resolve(
        self,
        name: str,
        fide_id: int | None,
        line: int,
        fide_field: str = "FIDE id",
        *,
        birth_year: int | None = None,
        sex: str | None = None,
        federation: str | None = None,
        rating: int | None = None,
        cut: bool = False,
    ) -> tuple[int, str]:
        """(player id or placeholder, how: one of :data:`HOW`), or :class:`InputFileError`.

        A name that contradicts the FIDE id (the name of another player, or no word in
        common with the name the id is registered under) is an error naming both players;
        one whose birth year, sex, given name or rating differs from the id's player is a
        question naming both (:func:`ratings.matching.is_sure_by_fide_id`).
        """
        key = key_of_stored(name)
        decided = self.decisions.lookup(name)
        who = Facts(name, fide_id, birth_year, sex, federation, rating, cut)
        if fide_id is not None and fide_id in self.by_fide:
            pid = self.by_fide[fide_id]
            others = [p for p in self.by_name.get(key, []) if p != pid]
            if others or not _same_person_name(key, self.keys[pid]):
                named = (
                    f"; {name!r} is {' and '.join(self._label(p) for p in others)}"
                    if others
                    else ""
                )
                raise InputFileError(
                    self.file_name,
                    line,
                    f"{name!r} does not match FIDE id {fide_id}, which belongs to "
                    f"{self._label(pid)}{named}; correct the file or the register",
                    fide_field,
                )
            by_id = self.identities.register.fide_candidate(who) if pid > 0 else None
            if by_id is not None and not is_sure_by_fide_id(by_id):
                if decided is None:
                    return self._ask(name, line, who, Match(None, (by_id,)))
                if decided[1] is None:  # a new player: the file's FIDE id is not his
                    self.warnings.append(
                        FileWarning(
                            self.file_name,
                            line,
                            f"{name!r} is created without FIDE id {fide_id}, which belongs "
                            f"to {self._label(pid)} ({_decision(decided)})",
                            fide_field,
                        )
                    )
                    placeholder = self._create(name, None, line, key)
                    self._said(placeholder, who)
                    return placeholder, "new"
            if decided is not None and decided[1] != pid:
                raise InputFileError(
                    self.file_name,
                    line,
                    f"{name!r} has FIDE id {fide_id}, which belongs to {self._label(pid)}; "
                    f"the decision for it ({_decision(decided)}) contradicts it",
                    fide_field,
                )
            # later games of this file may give the same name without the id
            if pid not in self.by_name[key]:
                self.by_name[key].append(pid)
            self.by_id_in_file.setdefault(fold(name).key, pid)
            return pid, "fide_id" if pid > 0 else "new"
        earlier = self.by_id_in_file.get(fold(name).key)
        if earlier is not None and decided is None and fide_id is None:
            return earlier, "name" if earlier > 0 else "new"
        if decided is not None:
            source, pid_given, _ = decided
            if pid_given is None:
                placeholder = self._create(name, fide_id, line, key)
                self.aliases.append((name, placeholder, source, who))
                return placeholder, "new"
            theirs = self.identities.facts(pid_given).fide_id
            if fide_id is not None and theirs is not None and theirs != fide_id:
                raise InputFileError(
                    self.file_name,
                    line,
                    f"{name!r} has FIDE id {fide_id}, player {pid_given} has {theirs}: "
                    f"{_decision(decided)} cannot make them one person",
                    fide_field,
                )
            self.aliases.append((name, pid_given, source, who))
            return pid_given, "match"
        found = self.identities.match(who)
        certain = found.certain
        if certain is not None:
            pid = certain.player_id
            if pid < 0:
                return pid, "new"
            if certain.kind is Kind.ALIAS:
                return pid, "alias"
            return pid, "name" if self.keys.get(pid) == key else "folded"
        if found.candidates and any(c.player_id > 0 for c in found.candidates):
            return self._ask(name, line, who, found)
        placeholder = self._create(name, fide_id, line, key)
        if found.other_fide_ids:
            pid = found.other_fide_ids[0]
            self.warnings.append(
                FileWarning(
                    self.file_name,
                    line,
                    f"{name!r} (FIDE id {fide_id}) is created as a new player, yet "
                    f"{self._label(pid)} has that name: a mistyped FIDE id? correct the "
                    "file (and 'ratings import undo' this import) before rating",
                    fide_field,
                )
            )
        return placeholder, "new"

    def _ask(self, name: str, line: int, who: Facts, found: Match) -> tuple[int, str]:
        """A question about ``who`` (once per folded name): a placeholder, ``ask``."""
        folded = fold(name).key
        if folded in self.asked:
            return self.asked[folded], "ask"
        placeholder = self._placeholder(line)
        self.asked[folded] = placeholder
        self.names[placeholder] = name
        self.questions.append(self.identities.question(line, who, found))
        return placeholder, "ask"

    def _said(self, placeholder: int, who: Facts) -> None:
        """What the file says of a player to create, for the aliases' evidence."""
        self.told[placeholder] = who

    def _create(self, name: str, fide_id: int | None, line: int, key: str) -> int:
        placeholder = self._placeholder(line)  # until the insert gives the id
        cleaned = clean_name(name)
        self.new.append(NewPlayer(placeholder, cleaned, fide_id, line))
        self.by_name[key].append(placeholder)
        if fide_id is not None:
            self.by_fide[fide_id] = placeholder
        self.names[placeholder] = cleaned
        self.keys[placeholder] = key
        self.identities.register.add_player(placeholder, Facts(cleaned, fide_id), registered=False)
        return placeholder

    def unused_decisions(self) -> list[InputFileError]:
        """An error for each ``--match`` or ``--new`` that names no player of the file."""
        return [
            InputFileError(self.file_name, None, f"{option}: no player of that name in the file")
            for option in self.decisions.unused()
        ]

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
                    "entry_games": None,  # unknown, never 0 (issue 12, item 1)
                    "k10": False,
                    "listed_from": joins,
                }
                for p in self.new
            ],
        )
        ids = [int(pid) for pid in result.scalars()]
        return {p.key: pid for p, pid in zip(self.new, ids, strict=True)}

    def remember(
        self, session: Session, created: dict[int, int], import_id: int
    ) -> tuple[tuple[str, int, str], ...]:
        """Store the decisions taken as aliases (:func:`ratings.service.identity.store_aliases`);
        returns the new ones: (name as written, player id, the player's registered name)."""
        aliases = [
            (name, created.get(pid, pid), source, said) for name, pid, source, said in self.aliases
        ]
        kept, self.unkept = screen_aliases(self.identities, aliases)
        stored = store_aliases(session, kept, import_id)
        by_id = {created.get(pid, pid): self.names[pid] for _, pid, _, _ in self.aliases}
        return tuple((name, pid, by_id[pid]) for name, pid in stored)


def _keys(names: dict[int, str]) -> tuple[dict[int, str], defaultdict[str, list[int]]]:
    """Each player's name key, and the players of each key (a world-size register: paused
    cycle collection, as :func:`ratings.service.identity.load_identities`)."""
    keys = {pid: key_of_stored(name) for pid, name in names.items()}
    by_name: defaultdict[str, list[int]] = defaultdict(list)
    for pid, key in keys.items():
        by_name[key].append(pid)
    return keys, by_name


def _decision(decided: tuple[str, int | None, str]) -> str:
    source, pid, given = decided
    if pid is None:
        return f"--new {given!r}"
    return f"--match '{given}={pid}'" if source == "match" else f"the answer {pid}"


def check_resolved(
    resolver: PlayerResolver, errors: list[InputFileError], *, dry_run: bool
) -> None:
    """Raise every problem of the file, with the players that need a decision
    (:class:`MatchQuestionsError`; in a dry run they are reported, not raised)."""
    errors.extend(resolver.unused_decisions())
    if resolver.questions and not dry_run:
        raise MatchQuestionsError(resolver.questions, resolver.file_name, errors)
    raise_all(errors)


def raise_all(errors: list[InputFileError]) -> None:
    if len(errors) == 1:
        raise errors[0]
    if errors:
        errors.sort(key=lambda e: e.line or 0)
        raise InputFileErrors(errors)


def check_name(name: str, file_name: str, line: int, field: str = "name") -> None:
    """A name as the register stores it (:func:`ratings.names.clean_name`: no control,
    invisible or text-reordering character) within :data:`ratings.limits.MAX_NAME_LENGTH`."""
    try:
        cleaned = clean_name(name)
        limits.check_text(cleaned, limits.MAX_NAME_LENGTH)
    except (InvalidNameError, LimitError) as exc:
        raise InputFileError(file_name, line, str(exc), field) from None


def event_name(given: str | None, file_name: str) -> str:
    """An event's name: the one the file gives, else the file's name (which must fit)."""
    if given is not None:
        return given  # checked by the reader
    name = PurePath(file_name).name
    if len(name) > limits.MAX_EVENT_LENGTH:
        problem = f"the file name is longer than {limits.MAX_EVENT_LENGTH} characters"
    elif limits.has_control_character(name):
        problem = "the file name holds a control character"
    else:
        return name
    raise InputFileError(
        file_name, None, f"{problem} and the file names no event; rename the file", "event name"
    )


def check_day(day: dt.date, file_name: str, line: int | None, field: str) -> None:
    if not _FIRST_DAY <= day <= _LAST_DAY:
        raise InputFileError(
            file_name, line, f"date out of range {_FIRST_DAY}..{_LAST_DAY}: {day}", field
        )


def check_history(session: Session, end: dt.date, file_name: str) -> None:
    problem = history_error(session, end)
    if problem:
        raise InputFileError(file_name, None, f"{problem}; nothing was imported")


def stored_duplicates(
    session: Session, events: Sequence[tuple[str, dt.date, dt.date, set[int]]]
) -> list[str]:
    """Which of a file's events (name, start, end, player ids) are stored already: an event
    of the same name (by key), the same dates and the same players. One description each.

    Events with a player the file creates cannot be stored yet and are not looked up.
    """
    found: list[str] = []
    for name, start, end, players in events:
        if not players or min(players) < 0:
            continue
        key = key_of_stored(name)
        candidates = session.execute(
            sa.select(Event, Import)
            .outerjoin(Import, Import.id == Event.import_id)
            .where(Event.start_date == start, Event.end_date == end)
            .order_by(Event.id)
        )
        for event, source in candidates:
            if key_of_stored(event.name) != key:
                continue
            sides = sa.union(
                sa.select(Game.white_id).where(Game.event_id == event.id),
                sa.select(Game.black_id).where(Game.event_id == event.id),
                sa.select(Bye.player_id).where(Bye.event_id == event.id),
            )
            if set(session.scalars(sa.select(sides.subquery().c[0]))) != players:
                continue
            games = session.scalar(
                sa.select(sa.func.count()).select_from(Game).where(Game.event_id == event.id)
            )
            origin = (
                f"imported from {source.file_name} (import {source.id}, "
                f"{source.imported_at:%Y-%m-%d %H:%M} UTC)"
                if source is not None
                else "entered by hand"
            )
            found.append(
                f"event {event.id} '{event.name}' ({start} .. {end}, {len(players)} players, "
                f"{games} games) {origin}"
            )
            break
    return found


def refuse_duplicates(
    session: Session,
    file_name: str,
    events: Sequence[tuple[str, dt.date, dt.date, set[int]]],
) -> None:
    """Refuse a file whose events are stored already (:func:`stored_duplicates`)."""
    found = stored_duplicates(session, events)
    if not found:
        return
    which = f"{len(found)} of its {len(events)} events are" if len(events) > 1 else "its event is"
    raise DuplicateImportError(
        f"{file_name}: {which} already stored (same name, dates and players): "
        f"{'; '.join(found)}; nothing was imported; --allow-duplicates imports the file "
        "anyway"
    )
