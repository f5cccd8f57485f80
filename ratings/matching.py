"""Who is who: one matcher ranks the registered players an incoming player may be.

Every path that has to recognise a registered player asks it: the imports (players CSV,
games CSV, TRF, PGN, FIDE's list), ``game add`` and every PLAYER argument (through their
lookups and suggestions), and ``player list --search``. Pure: no database, no I/O; the
service fills a :class:`Register` from the players' rows and asks it about each incoming
player (:meth:`Register.match`).

The rules, in order:

1. **FIDE id.** When the incoming player and a registered one both have a FIDE id, the id
   is strong evidence, not proof: the same id is the same person unless the two sides give
   a different birth year, sex or given name, or ratings more than :data:`FAR_RATING`
   apart (then it is a question naming both; a federation alone differs when a player
   transfers). A different id is never a match; beside a name that folds alike, an id one
   digit off (one digit changed, two neighbours swapped) is a candidate.
2. **Alias.** A spelling the administrator once said is a registered player (an import's
   ``--match``, ``--match-file``, ``--new`` or prompt answer, ``player alias add``; stored
   in ``player_aliases``) finds that player again, compared folded (rule 3). The name of a
   record merged into another one works the same way for the player it was merged into.
   An alias never outweighs a registered player's own name: where another live player has
   the name, only evidence decides, and an alias kept with the evidence that told its
   player from a namesake (``needs``) finds him only in a file that gives it.
3. **Folding.** Names are compared after :func:`fold`: Unicode compatibility forms and case
   folded; letters transliterated to ASCII (anyascii: ``ř`` -> ``r``, ``ø`` -> ``o``, ``ł``
   -> ``l``, ``ß`` -> ``ss``, the dotless ``\u0131`` and ``İ`` -> ``i``, ``ễ`` -> ``e``,
   Cyrillic and Greek letters to Latin ones); ``ä ö ü`` also as ``ae oe ue`` and ``å ø``
   also as ``aa oe`` (German and Nordic keyboards); punctuation, hyphens and spacing only
   separate words, apostrophes vanish (``O'Brien`` = ``OBrien``); name particles also glued
   to the next word (``De Vries`` = ``DeVries``, ``van der Berg`` = ``Vanderberg``, ``O
   Brien`` = ``OBrien``, ``Mac Donald`` = ``MacDonald``; a particle written after the given
   name, ``Berg, Jan van der``, belongs to the surname; a particle never crosses the comma:
   ``De, Anna`` is not ``Deanna``); and the words in any order (``Surname Given`` =
   ``Given Surname`` = ``Surname, Given``) when one side has no comma. With a comma on both
   sides the surname and given names keep their roles: ``James, Thomas`` beside ``Thomas,
   James`` is a candidate (*swapped*), never the same name. Names that fold alike are the
   same name: a *folded-exact* candidate.
4. **Near names** are candidates, never automatic matches:

   * *initials*: every word of one name equal to a word of the other or an initial or short
     abbreviation of one (up to three letters, the first one the same, the others in
     order): ``Smith, J.`` and ``Smith, John``; ``Carlsen,M``; ``Fco. Javier`` and
     ``Francisco Javier``;
   * *missing words*: every word of the shorter name in the longer one (``Garcia, Juan`` and
     ``García López, Juan``; ``Smith, John`` and ``Smith, John Jr.``);
   * *typos*: an edit distance of 1 between the folded names, 2 when the shorter one has more
     than 8 letters (optimal string alignment: a swap of two letters counts as one; rapidfuzz);
   * *nicknames*: the words not shared pair up as a name and its nickname (``Tony`` and
     ``Anthony``; the ``nicknames`` package's table, Apache-2.0);
   * *transliterations*: the words not shared pair up as two romanisations of one name
     (:func:`romanised`: ``Nepomnyashchy`` and ``Nepomniachtchi``, ``Hsieh`` and ``Xie``);
   * *cut names*: a name that fills a fixed-width column (a TRF's 33 characters) and with
     which a registered name begins.

   Initials, missing words, nicknames and transliterations need at least one whole word of
   two or more letters in common (a name romanised otherwise in every word apart).
5. **Evidence.** Birth year, sex and federation (a FIDE federation code on both sides),
   where both sides have one, count for the candidate (equal) or against it (different);
   a rating more than :data:`FAR_RATING` away counts against.
6. **Decision.** Certain: one alias, or else one folded-exact candidate, without evidence
   against it (folded-exact candidates with evidence against are set aside first; the one
   left must then have evidence for it: two namesakes told apart by their birth years leave
   the one whose year agrees). Uncertain: any other candidate (the importer asks, or stops
   and lists them). No candidate: a new player.

Registers are indexed by folded name and by the words of the names (blocking), so the edit
distances are computed on the players that share a word or the first letters of one with
the incoming name, never on every pair.

Over 600 lines: one matcher, its rules in order; a fifth of it is their description.
"""

from __future__ import annotations

import enum
import gc
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ratings.federations import is_fide_federation

__all__ = [
    "Candidate",
    "Excuse",
    "Facts",
    "Folded",
    "Kind",
    "Match",
    "Register",
    "evidence",
    "fold",
    "fold_text",
    "given_names",
    "sort_key",
]

_DIGRAPHS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "å": "aa", "ø": "oe"})
"""German and Nordic letters as their two-letter spellings (rule 3), on case-folded text."""
_DIGRAPH_LETTERS = frozenset("äöüåø")
_WORD_BREAKS = re.compile(r"[^a-z0-9]+")
PARTICLES = frozenset({
    "da", "das", "de", "del", "della", "den", "der", "des", "di", "do", "dos", "du", "la",
    "le", "les", "mac", "mc", "o", "st", "te", "ten", "ter", "van", "vander", "vom", "von",
    "zu", "zum", "zur",
})  # fmt: skip
"""Name particles (tussenvoegsels, de, von, O', Mac ...) that are also glued to the next
word: only an added folded form, so a wrong guess costs nothing."""

Excuse = Callable[[int, str], bool]
"""``excuse(player_id, field)``: whether a difference in ``field`` (``birth year``, ``sex``,
``federation``) of that registered player is explained and no evidence against."""

BLOCK_LIMIT = 5_000
"""Register entries sharing one word beyond which the word is too common to block on
alone: then only entries sharing two words are compared."""


def _ascii(text: str) -> str:
    from anyascii import anyascii  # only when a name is not ASCII already

    return anyascii(text)


def _words(text: str) -> list[str]:
    """Folded ASCII text as words (lower case): apostrophes dropped, anything else that is
    not a letter or digit a break."""
    text = text.lower()
    if "'" in text or "`" in text:
        text = text.replace("'", "").replace("`", "")
    return [w for w in _WORD_BREAKS.split(text) if w]


def _parts(text: str) -> tuple[list[str], list[str]]:
    """A ``Surname, Given`` name's surname words and given words (folded ASCII text):
    particles written after the given name (``Berg, Jan van der``) belong to the surname."""
    surname, _, given = text.partition(",")
    words, rest = _words(surname), _words(given)
    moved: list[str] = []
    while rest and rest[-1] in PARTICLES:
        moved.insert(0, rest.pop())
    return moved + words, rest


def _glue(words: list[str]) -> list[str]:
    """Each run of particles glued to the word after it (``van der berg`` ->
    ``vanderberg``); a run at the end stays as it is."""
    out: list[str] = []
    run = ""
    for word in words:
        if word in PARTICLES:
            run += word
        elif run:
            out.append(run + word)
            run = ""
        else:
            out.append(word)
    if run:
        out.append(run)
    return out


def _glued(text: str) -> list[str] | None:
    """The words with each run of particles glued to the word after it (``van der Berg`` ->
    ``vanderberg``); particles after the given name (``Berg, Jan van der``) first moved
    before the surname. With a comma, particles are glued within the surname only: a
    particle never crosses the comma (``De, Anna`` is not ``Deanna``). None when there is
    nothing to glue."""
    if "," not in text:
        words = _words(text)
        out = _glue(words)
        return out if len(out) < len(words) else None
    surname, given = _parts(text)
    glued = _glue(surname)
    if len(glued) == len(surname) and surname + given == _words(text):
        return None
    return glued + given


_SUFFIXES = frozenset({"jr", "sr", "jnr", "snr", "ii", "iii", "iv"})
"""Words that belong to neither the surname nor the given names (``Smith Jr., John`` is
``Smith, John Jr``)."""


def _spellings(name: str) -> list[str]:
    """A name that is not ASCII transliterated: plainly, and with the German/Nordic
    spellings of its letters when it has any."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    texts = [_ascii(folded)]
    if not _DIGRAPH_LETTERS.isdisjoint(folded):
        texts.append(_ascii(folded.translate(_DIGRAPHS)))
    return texts


def _roles(name: str) -> set[tuple[tuple[str, ...], tuple[str, ...]]]:
    """A ``Surname, Given`` name as (surname words, given words), sorted, in each folded
    form (plain, German/Nordic spellings, particles glued within the surname). Two names
    with commas are one name only if some form of each agrees in both parts."""
    texts = [name] if name.isascii() else _spellings(name)
    out: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for text in texts:
        surname, given = _parts(text)
        surname = [w for w in surname if w not in _SUFFIXES]
        given = [w for w in given if w not in _SUFFIXES]
        for words in (surname, _glue(surname)):
            out.add((tuple(sorted(words)), tuple(sorted(given))))
    return out


class Folded:
    """A name folded for comparison (rule 3). (A plain class with slots: a frozen dataclass
    costs a microsecond more to make, and FIDE's list folds two million names.)"""

    __slots__ = ("forms", "keys", "unglued", "words")

    def __init__(
        self,
        words: tuple[str, ...],
        keys: tuple[str, ...],
        forms: tuple[tuple[str, ...], ...],
        unglued: int = 1,
    ) -> None:
        self.words = words
        """The words of the main folding (plain transliteration), in the order written."""
        self.keys = keys
        """Every folded form (plain, German/Nordic spellings, particles glued): its words
        sorted and joined by one space, each once. Two names with a key in common are the
        same name."""
        self.forms = forms
        """The words of each folded form (sorted), the main one first."""
        self.unglued = unglued
        """How many of :attr:`forms` come first that keep the particles as words (near names
        compare only those: a glued word is no abbreviation of its particle)."""

    @property
    def key(self) -> str:
        """The main folded form: plain transliteration, words sorted."""
        return " ".join(self.forms[0]) if self.forms else ""

    @property
    def letters(self) -> int:
        """Letters and digits in the main form."""
        return sum(map(len, self.words))

    def __repr__(self) -> str:
        return f"Folded({self.words!r}, keys={sorted(self.keys)!r})"


def fold(name: str) -> Folded:
    """A name folded (rule 3 of the module docstring).

    >>> fold("Novák, Jiří").key == fold("Jiri NOVAK").key == "jiri novak"
    True
    >>> "mueller jan" in fold("Müller, Jan").keys
    True
    """
    # nearly every name of FIDE's list: no transliteration, no digraphs
    texts = [name] if name.isascii() else _spellings(name)
    words = _words(texts[0])
    if not words:
        return Folded((), (), ())
    main = tuple(sorted(words))
    if len(texts) == 1 and PARTICLES.isdisjoint(words):  # the usual case: one form
        return Folded(tuple(words), (" ".join(main),), (main,))
    forms = [main]
    glued_forms: list[tuple[str, ...]] = []
    for index, text in enumerate(texts):
        words_of = _words(text) if index else words
        if index:
            form = tuple(sorted(words_of))
            if form and form not in forms:
                forms.append(form)
        if not PARTICLES.isdisjoint(words_of):
            glued = _glued(text)
            if glued is not None and tuple(sorted(glued)) not in glued_forms:
                glued_forms.append(tuple(sorted(glued)))
    every = (*forms, *(f for f in glued_forms if f not in forms))
    keys = tuple(dict.fromkeys(" ".join(f) for f in every))
    return Folded(tuple(words), keys, every, len(forms))


def fold_text(text: str) -> str:
    """The text :func:`fold` splits into words (before the German/Nordic spellings): ASCII
    text as it is, anything else in compatibility form, case folded and transliterated. It
    works character by character, so the search box of the published site folds a typed
    query with a table of it (:mod:`ratings.site.search`).

    >>> fold_text("Øberg, Jiří")
    'oberg, jiri'
    """
    if text.isascii():
        return text
    return _ascii(unicodedata.normalize("NFKC", text).casefold())


def sort_key(name: str) -> str:
    """How a register is sorted by name: the main folding, in the order written
    (``Öberg, Åsa`` sorts as ``oberg asa``, among the O's)."""
    return " ".join(fold(name).words)


class Kind(enum.Enum):
    """How a candidate was found, from the strongest to the weakest (rules 1-4)."""

    FIDE_ID = "FIDE id"
    ALIAS = "alias"
    FOLDED = "same name"
    SWAPPED = "surname and given name swapped"
    FIDE_TYPO = "FIDE id one digit off"
    CUT = "name cut at the column width"
    INITIALS = "initials"
    NICKNAME = "nickname"
    TRANSLITERATION = "transliteration"
    MISSING_WORDS = "missing words"
    TYPO = "typo"


NEAR_KINDS = frozenset(Kind) - {Kind.FIDE_ID, Kind.ALIAS, Kind.FOLDED}
"""Kinds that are only ever candidates (questions), never a match by themselves."""


_RANK = {kind: rank for rank, kind in enumerate(Kind)}


@dataclass(frozen=True, slots=True)
class Facts:
    """What one side knows of a player: the name, and what tells people apart."""

    name: str
    fide_id: int | None = None
    birth_year: int | None = None
    sex: str | None = None
    """``m`` or ``f``."""
    federation: str | None = None
    rating: int | None = None
    """A rating the file gives, or the register's (the newest list's, else the entry
    rating): one more than :data:`FAR_RATING` away from the other side's is evidence
    against."""
    cut: bool = False
    """The name fills a fixed-width column (a TRF's 33 characters): it may be cut short,
    so registered names it begins are candidates (:attr:`Kind.CUT`)."""


FAR_RATING = 500
"""Rating points between the file's rating and the register's beyond which the two are
evidence against one person (a 1000 against a 1900; a junior's best year is less)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A registered player the incoming one may be."""

    player_id: int
    kind: Kind
    spelling: str
    """The registered name, alias or merged record's name that was matched."""
    distance: int = 0
    """Edit distance of the folded names (typos only)."""
    evidence_for: tuple[str, ...] = ()
    """``birth year``, ``sex``, ``federation``: what both sides give alike."""
    evidence_against: tuple[str, ...] = ()
    """What both sides give and differs (``birth year``, ``sex``, ``federation``,
    ``rating``, ``given name``), or what a decision needs and the file lacks
    (``no birth year``...)."""

    @property
    def rank(self) -> tuple[int, int, int, int, int]:
        """Best first: kind, evidence against, evidence for, distance, id."""
        return (
            _RANK[self.kind],
            len(self.evidence_against),
            -len(self.evidence_for),
            self.distance,
            self.player_id,
        )


@dataclass(frozen=True, slots=True)
class Match:
    """What the register says about one incoming player (rule 6)."""

    certain: Candidate | None
    """The player it is, when that is certain."""
    candidates: tuple[Candidate, ...]
    """Every candidate, best first (the certain one included); empty: a new player."""
    other_fide_ids: tuple[int, ...] = ()
    """Players whose name folds alike but whose FIDE id differs from the incoming one's:
    never a match (rule 1), worth a warning (a mistyped id?)."""

    @property
    def is_new(self) -> bool:
        """No candidate at all: a new player."""
        return not self.candidates


@dataclass(slots=True)
class _Spelling:
    """One name a player is known by in the register: its own, an alias or a merged name.
    (Its folding is not kept: a world-size register would hold 600,000 of them; the few a
    near-name search compares are folded again.)"""

    player_id: int
    text: str
    alias: bool
    needs: Facts | None = None
    """An alias kept with the evidence that told its player from a namesake: it finds the
    player only in a file that gives that evidence alike."""


@dataclass(slots=True)
class Register:
    """The players an incoming player is matched against, indexed by folded name, by word
    and by the first letters of words (see the module docstring).

    Fill it with :meth:`add_player` (every live player), :meth:`add_alias` (aliases and
    merged records' names) and :meth:`add_fide_id` (FIDE ids held by merged records); the
    players an import creates may be added with ``registered=False``: they match later
    lines of the same file by folded name only.
    """

    facts: dict[int, Facts] = field(default_factory=dict)
    registered: dict[int, bool] = field(default_factory=dict)
    by_fide: dict[int, int] = field(default_factory=dict)
    # a key's entries: one spelling, or a list of them when there are several (most folded
    # names and words belong to one player: a list each took half of a world register's
    # indexing time)
    _by_key: dict[str, _Entries] = field(default_factory=dict)
    _by_word: dict[str, _Entries] = field(default_factory=dict)
    _by_prefix: dict[str, _Entries] = field(default_factory=dict)
    _pending: list[tuple[_Spelling, tuple[tuple[str, ...], ...]]] = field(default_factory=list)
    _exclude: int | None = None
    near: bool = True
    """Whether near names are ever looked for (rule 4). FIDE's list never does, and keeps
    no words of the names for them (600,000 list players against 600,000 registered: peak
    1,996 MB with the words kept, 1,904 MB without; bench/RESULTS.md)."""

    def add_player(self, player_id: int, facts: Facts, *, registered: bool = True) -> None:
        """A live player (or, ``registered=False``, one the import creates)."""
        self.facts[player_id] = facts
        self.registered[player_id] = registered
        if facts.fide_id is not None:
            self.by_fide[facts.fide_id] = player_id
        self._index(_Spelling(player_id, facts.name, alias=False), fold(facts.name))

    def add_alias(self, player_id: int, spelling: str, needs: Facts | None = None) -> None:
        """Another spelling of a live player: an alias, or a merged record's name;
        ``needs``: the evidence a file must give for the alias to find the player."""
        self._index(_Spelling(player_id, spelling, alias=True, needs=needs), fold(spelling))

    def fide_candidate(self, who: Facts, excused: Excuse | None = None) -> Candidate | None:
        """The player ``who``'s FIDE id finds, with the evidence both sides give (rule 1):
        None when the id is not held. Its :attr:`Candidate.evidence_against` names a birth
        year, sex, rating or given name that differs: then it is a question, not a match
        (:func:`is_sure_by_fide_id`)."""
        if who.fide_id is None or who.fide_id not in self.by_fide:
            return None
        pid = self.by_fide[who.fide_id]
        them = self.facts[pid]
        agree, differ = evidence(who, them)
        if given_names_conflict(who.name, them.name):
            differ = (*differ, "given name")
        if excused is not None:
            differ = tuple(f for f in differ if not excused(pid, f))
        return Candidate(pid, Kind.FIDE_ID, them.name, 0, agree, differ)

    def knows(self, folded: Folded) -> bool:
        """Whether a name folded so is a registered name, an alias or a merged record's
        name: the one lookup a world list makes for most of its players (FIDE's list asks
        :meth:`match` only then)."""
        by_key = self._by_key
        return any(key in by_key for key in folded.keys)

    def add_fide_id(self, fide_id: int, player_id: int) -> None:
        """A FIDE id that finds a live player without being its own (a merged record's)."""
        self.by_fide.setdefault(fide_id, player_id)

    def _index(self, spelling: _Spelling, folded: Folded) -> None:
        for key in folded.keys:
            _put(self._by_key, key, spelling)
        if self.near and self.registered.get(spelling.player_id, True):
            # near names are looked for among registered players only, and indexed when
            # the first near name is looked for: a file whose players are all found by
            # FIDE id or folded name never pays for it
            self._pending.append((spelling, folded.forms[: folded.unglued]))

    def _index_words(self) -> None:
        """Index the words and their first three letters of every pending spelling."""
        by_word, by_prefix = self._by_word, self._by_prefix
        for spelling, forms in self._pending:
            # the main form's words (a word twice is listed twice: blocks are deduplicated)
            words = forms[0] if len(forms) == 1 else {w for form in forms for w in form}
            prefixes: set[str] = set()
            for word in words:
                if len(word) >= 2:
                    _put(by_word, word, spelling)
                    if len(word) >= 4:
                        prefixes.add(word[:3])
            for prefix in prefixes:
                _put(by_prefix, prefix, spelling)
        self._pending.clear()

    # --- asking ---------------------------------------------------------------------------

    def match(
        self,
        who: Facts,
        *,
        near: bool = True,
        excused: Excuse | None = None,
        exclude: int | None = None,
        folded: Folded | None = None,
    ) -> Match:
        """The decision about ``who`` (rule 6), with every candidate, best first.

        :param near: also look for near names (rule 4); without, only FIDE id, aliases and
            folded-exact names count (FIDE's list: a world list would stop at every common
            name).
        :param excused: ``excused(player_id, field)`` true when a difference in that field
            (``birth year``, ``sex``, ``federation``) is explained (a value corrected in the
            register since the file was made) and is no evidence against.
        :param exclude: a player not to consider (``player duplicates`` asks about each
            registered player in turn).
        :param folded: ``fold(who.name)``, when the caller has it (:meth:`knows`).
        """
        self._exclude = exclude
        by_id = self.fide_candidate(who, excused)
        if by_id is not None:
            return Match(by_id if is_sure_by_fide_id(by_id) else None, (by_id,))
        folded = fold(who.name) if folded is None else folded
        best: dict[int, Candidate] = {}
        others: set[int] = set()
        comma = "," in who.name
        roles: set[tuple[tuple[str, ...], tuple[str, ...]]] | None = None  # made when needed
        for key in folded.keys:
            for spelling in _entries(self._by_key, key):
                kind = Kind.ALIAS if spelling.alias else Kind.FOLDED
                if comma and "," in spelling.text:
                    if roles is None:
                        roles = _roles(who.name)
                    if roles.isdisjoint(_roles(spelling.text)):
                        kind = Kind.SWAPPED  # both sides say which words are the surname
                self._consider(best, others, who, spelling, kind, 0, excused)
        if (
            near
            and self.near
            and not any(
                c.kind in (Kind.ALIAS, Kind.FOLDED) and self.registered[c.player_id]
                for c in best.values()
            )
        ):
            self._near(best, others, who, folded, excused)
        ranked = tuple(sorted(best.values(), key=lambda c: c.rank))
        return Match(_decide(ranked, self.registered), ranked, tuple(sorted(others)))

    def _consider(
        self,
        best: dict[int, Candidate],
        others: set[int],
        who: Facts,
        spelling: _Spelling,
        kind: Kind,
        distance: int,
        excused: Excuse | None,
    ) -> None:
        pid = spelling.player_id
        if pid == self._exclude:
            return
        them = self.facts[pid]
        if who.fide_id is not None and them.fide_id is not None and who.fide_id != them.fide_id:
            if kind not in (Kind.ALIAS, Kind.FOLDED):
                return  # rule 1: never a match
            if not (self.registered[pid] and one_digit_off(who.fide_id, them.fide_id)):
                others.add(pid)
                return
            kind = Kind.FIDE_TYPO  # the same name, an id one keystroke away: a question
        if kind not in (Kind.ALIAS, Kind.FOLDED) and not self.registered[pid]:
            return
        agree, differ = evidence(who, them)
        if spelling.needs is not None:
            more_for, more_against = _needed(who, spelling.needs)
            agree, differ = (*agree, *more_for), (*differ, *more_against)
        if excused is not None:
            differ = tuple(f for f in differ if not excused(pid, f))
        found = Candidate(pid, kind, spelling.text, distance, agree, differ)
        if pid not in best or found.rank < best[pid].rank:
            best[pid] = found

    def _near(
        self,
        best: dict[int, Candidate],
        others: set[int],
        who: Facts,
        folded: Folded,
        excused: Excuse | None,
    ) -> None:
        """Rule 4 on the entries that share a word (initials, missing words, typos) or the
        first three letters of a word (typos)."""
        if self._pending:
            # millions of small objects, none in a cycle: the cycle collector's passes over
            # them would cost more than the indexing (as ratings.service.register.identity says)
            enabled = gc.isenabled()
            gc.disable()
            try:
                self._index_words()
            finally:
                if enabled:
                    gc.enable()
        near = folded.forms[: folded.unglued]
        words = {w for form in near for w in form if len(w) >= 2}
        sharing = self._block(self._by_word, words)
        prefixes = {w[:3] for form in near for w in form if len(w) >= 4}
        typo_pool = {id(s): s for s in sharing}
        for s in self._block(self._by_prefix, prefixes):
            typo_pool.setdefault(id(s), s)
        folds: dict[int, Folded] = {}
        for spelling in sharing:
            other = folds[id(spelling)] = fold(spelling.text)
            kind = _relation(folded, other)
            if kind is None and who.cut and _begins(spelling.text, who.name):
                kind = Kind.CUT
            if kind is None:
                kind = _given_relation(folded, other)
            if kind is not None:
                self._consider(best, others, who, spelling, kind, 0, excused)
        if not typo_pool:
            return
        for key, spelling in typo_pool.items():
            if key not in folds:  # no whole word in common: every word romanised otherwise?
                other = folds[key] = fold(spelling.text)
                if _given_relation(folded, other, shared=False) is not None:
                    self._consider(best, others, who, spelling, Kind.TRANSLITERATION, 0, excused)
        from rapidfuzz.distance import OSA  # only when near names are looked for

        mine = (folded.key, _second_letter_order(folded))
        for spelling in typo_pool.values():
            other = folds.get(id(spelling)) or fold(spelling.text)
            limit = 2 if min(folded.letters, other.letters) > 8 else 1
            theirs = (*other.keys, _second_letter_order(other))
            distance = min(OSA.distance(a, b, score_cutoff=limit + 1) for a in mine for b in theirs)
            if 0 < distance <= limit:
                self._consider(best, others, who, spelling, Kind.TYPO, distance, excused)

    @staticmethod
    def _block(index: dict[str, _Entries], words: Iterable[str]) -> list[_Spelling]:
        """The entries listed under any of ``words``; a word listing more than
        :data:`BLOCK_LIMIT` is used only together with another word."""
        blocks = sorted((_entries(index, w) for w in words if w in index), key=len)
        if not blocks:
            return []
        small = [b for b in blocks if len(b) <= BLOCK_LIMIT]
        if small:
            seen: dict[int, _Spelling] = {}
            for block in small:
                for s in block:
                    seen.setdefault(id(s), s)
            return list(seen.values())
        if len(blocks) < 2:
            return []
        second = {id(s) for s in blocks[1]}
        return [s for s in blocks[0] if id(s) in second]


_Entries = _Spelling | list[_Spelling]


def _put(index: dict[str, _Entries], key: str, spelling: _Spelling) -> None:
    found = index.get(key)
    if found is None:
        index[key] = spelling
    elif type(found) is list:
        found.append(spelling)
    else:
        index[key] = [found, spelling]  # type: ignore[list-item]  # found is a _Spelling here


def _entries(index: dict[str, _Entries], key: str) -> list[_Spelling]:
    found = index.get(key)
    if found is None:
        return []
    return found if type(found) is list else [found]  # type: ignore[list-item]  # a _Spelling


def _second_letter_order(folded: Folded) -> str:
    """The main form's words sorted from their second letter on: a typo in a first letter
    (``Karl`` for ``Carl``) moves the word in the sorted form, not in this one."""
    return " ".join(sorted(folded.words, key=lambda w: (w[1:], w)))


def _relation(a: Folded, b: Folded) -> Kind | None:
    """Initials or missing words between two names (rule 4), over their folded forms."""
    found: Kind | None = None
    for x in a.forms[: a.unglued]:
        for y in b.forms[: b.unglued]:
            kind = _words_relation(x, y)
            if kind is Kind.INITIALS:
                return kind
            if kind is not None:
                found = kind
    return found


def _words_relation(a: tuple[str, ...], b: tuple[str, ...]) -> Kind | None:
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    rest = list(longer)
    unmatched = []
    whole = False
    for word in shorter:
        if word in rest:
            rest.remove(word)
            whole = whole or len(word) >= 2
        else:
            unmatched.append(word)
    if not whole:
        return None
    for word in unmatched:
        at = next((i for i, other in enumerate(rest) if _abbreviates(word, other)), None)
        if at is None:
            return None
        rest.pop(at)
    if unmatched:
        return Kind.INITIALS
    return Kind.MISSING_WORDS if rest else None


def _abbreviates(a: str, b: str) -> bool:
    """Whether one word is an initial or a short abbreviation of the other: up to three
    letters, the same first letter, the rest in order (``j`` and ``john``, ``fco`` and
    ``francisco``)."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) > 3 or short == long_ or short[0] != long_[0]:
        return False
    letters = iter(long_[1:])
    return all(letter in letters for letter in short[1:])


def _begins(registered: str, cut: str) -> bool:
    """Whether a registered name goes on where a name cut at a column's width stops."""
    a = " ".join(_words(fold_text(registered)))
    b = " ".join(_words(fold_text(cut)))
    return len(a) > len(b) > 0 and a.startswith(b)


_NICKNAMES: dict[str, frozenset[str]] | None = None


def nicknames_of(word: str) -> frozenset[str]:
    """The names ``word`` is a nickname of, and its nicknames (``tony``: ``anthony``...),
    from the ``nicknames`` package's hand-kept table of English names (Apache-2.0)."""
    global _NICKNAMES  # loaded once, only when a near name is looked for
    if _NICKNAMES is None:
        from nicknames import NickNamer

        table: dict[str, set[str]] = {}
        for canonical, nicks in NickNamer().nickname_lookup.items():
            for nick in nicks:
                table.setdefault(canonical, set()).add(nick)
                table.setdefault(nick, set()).add(canonical)
        _NICKNAMES = {k: frozenset(v) for k, v in table.items()}
    return _NICKNAMES.get(word, frozenset())


_WADE_GILES = {
    "chang": "zhang", "chao": "zhao", "chen": "chen", "cheng": "zheng", "chiang": "jiang",
    "chien": "qian", "chin": "jin", "chou": "zhou", "chu": "zhu", "chung": "zhong",
    "hsiao": "xiao", "hsieh": "xie", "hsu": "xu", "hsueh": "xue", "jen": "ren", "kao": "gao",
    "kuo": "guo", "kung": "gong", "teng": "deng", "tsai": "cai", "tsao": "cao", "tseng": "zeng",
    "tsui": "cui", "yeh": "ye", "chan": "chen", "cheung": "zhang", "wong": "huang",
    "hwang": "huang", "lau": "liu", "leung": "liang", "kwok": "guo", "tse": "xie",
    "chow": "zhou", "lee": "li", "yip": "ye", "tsang": "zeng", "kwan": "guan",
}  # fmt: skip
"""Chinese surnames in Wade-Giles (and Cantonese) spellings, as pinyin writes them."""

_ROMAN_RULES = tuple(
    (re.compile(pattern), repl)
    for pattern, repl in (
        (r"x", "ks"),
        (r"schtsch|shch|chtch|tsch|sch|tch|sh|ch|zh|kh|cz|sz", "X"),
        (r"ij|iy|yi|ji|y|j", "i"),
        (r"w", "v"),
        (r"ou", "u"),
        (r"(.)\1", r"\1"),
    )
)
"""Cyrillic and Greek romanisations (English, French, German, Polish, ISO) brought to one
skeleton: the hushing and hissing sounds one letter, ``y``/``j``/``i`` one, ``w`` a ``v``,
``ou`` a ``u``, double letters single (``Nepomnyashchy`` = ``Nepomniachtchi``)."""


def romanised(word: str) -> str:
    """A folded word's romanisation skeleton (:data:`_ROMAN_RULES`, Chinese surnames by
    :data:`_WADE_GILES` first)."""
    text = _WADE_GILES.get(word, word)
    for pattern, repl in _ROMAN_RULES:
        text = pattern.sub(repl, text)
    return text


def _transliterated(a: str, b: str) -> bool:
    """Two words that may be one name romanised two ways."""
    if a == b or min(len(a), len(b)) < 3:
        return False
    from rapidfuzz.distance import OSA

    if OSA.distance(a, b, score_cutoff=2) <= 1:
        return False  # one keystroke: a typo (rule 4), not another romanisation
    return _romanised_alike(a, b)


def _romanised_alike(a: str, b: str) -> bool:
    """Two words whose romanisation skeletons are equal, or (six letters or more) one
    letter apart."""
    from rapidfuzz.distance import OSA

    x, y = romanised(a), romanised(b)
    if x == y:
        return True
    return min(len(x), len(y)) >= 6 and OSA.distance(x, y, score_cutoff=2) <= 1


def _compatible(a: str, b: str) -> bool:
    """Two words that may be one given name: equal, an initial or abbreviation, a
    nickname, a typo (words of five letters or more), or a transliteration."""
    if a == b or _abbreviates(a, b) or b in nicknames_of(a):
        return True
    if min(len(a), len(b)) >= 5:
        from rapidfuzz.distance import OSA

        if OSA.distance(a, b, score_cutoff=2) <= 1:
            return True
    return _transliterated(a, b)


def given_names(name: str) -> str:
    """The given names as written: after the comma, else the name."""
    _, comma, given = name.partition(",")
    return given.strip() if comma and given.strip() else name


def given_names_conflict(a: str, b: str) -> bool:
    """Whether two names beside one FIDE id give given names that cannot be one person's
    (``Sanchez Merino, David`` and ``Sánchez Merino, Christian``): with commas on both
    sides, the given names; otherwise the words the two do not share, when each has some.
    Initials, nicknames, typos and transliterations are no conflict."""
    if "," in a and "," in b:
        ga = [w for w in _parts(fold_text(a))[1] if w not in _SUFFIXES]
        gb = [w for w in _parts(fold_text(b))[1] if w not in _SUFFIXES]
    else:
        wa = [w for w in _words(fold_text(a)) if w not in _SUFFIXES]
        wb = [w for w in _words(fold_text(b)) if w not in _SUFFIXES]
        shared = set(wa) & set(wb)
        if not shared:
            return False  # no word in common: the importers refuse such a name outright
        ga = [w for w in wa if w not in shared]
        gb = [w for w in wb if w not in shared]
    if not ga or not gb:
        return False
    return not any(_compatible(x, y) for x in ga for y in gb)


def _given_relation(a: Folded, b: Folded, *, shared: bool = True) -> Kind | None:
    """Nicknames or transliterations between two names that share a whole word: the words
    they do not share pair up, each pair a nickname (``Tony`` and ``Anthony``) or two
    romanisations (``Nepomnyashchy`` and ``Nepomniachtchi``). ``shared=False``: names of
    two words or more that share none, every pair a transliteration (``Yakovenko, Dmitry``
    and ``Jakovenko, Dmitrij``)."""
    x, y = list(a.words), list(b.words)
    common = [w for w in x if w in y and len(w) >= 2]
    if not shared:
        if common or len(x) < 2 or len(x) != len(y):
            return None
        rest = list(y)
        for word in x:
            pair = next((o for o in rest if _romanised_alike(word, o)), None)
            if pair is None:
                return None
            rest.remove(pair)
        return Kind.TRANSLITERATION
    shared_words = common
    if not shared_words:
        return None
    for w in shared_words:
        if w in x and w in y:
            x.remove(w)
            y.remove(w)
    if not x or len(x) != len(y):
        return None
    found: Kind | None = None
    for word in x:
        pair = next((o for o in y if o in nicknames_of(word)), None)
        kind = Kind.NICKNAME
        if pair is None:
            pair = next((o for o in y if _transliterated(word, o)), None)
            kind = Kind.TRANSLITERATION
        if pair is None:
            return None
        y.remove(pair)
        found = kind if found in (None, Kind.TRANSLITERATION) else found
    return found


def evidence(who: Facts, them: Facts) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(agreeing, differing) fields among birth year, sex and federation (rule 5)."""
    agree: list[str] = []
    differ: list[str] = []
    pairs: list[tuple[str, object, object]] = [
        ("birth year", who.birth_year, them.birth_year),
        ("sex", who.sex, them.sex),
    ]
    a, b = who.federation, them.federation
    if a and b and is_fide_federation(a.upper()) and is_fide_federation(b.upper()):
        pairs.append(("federation", a.upper(), b.upper()))
    for name, mine, theirs in pairs:
        if mine is None or theirs is None:
            continue
        (agree if mine == theirs else differ).append(name)
    if (
        who.rating is not None
        and them.rating is not None
        and abs(who.rating - them.rating) > FAR_RATING
    ):
        differ.append("rating")  # a close rating is no evidence for: namesakes play alike
    return tuple(agree), tuple(differ)


def is_sure_by_fide_id(found: Candidate) -> bool:
    """Whether a FIDE id's player is certain: no birth year, sex, rating or given name
    against (a federation differs when a player transfers: that alone does not)."""
    return not any(f != "federation" for f in found.evidence_against)


def one_digit_off(a: int, b: int) -> bool:
    """Two FIDE ids a keystroke apart: one digit changed, or two neighbours swapped."""
    x, y = str(a), str(b)
    if len(x) != len(y) or x == y:
        return False
    diff = [i for i in range(len(x)) if x[i] != y[i]]
    if len(diff) == 1:
        return True
    i, j = diff[0], diff[-1]
    return len(diff) == 2 and j == i + 1 and x[i] == y[j] and x[j] == y[i]


_NEEDS = (("birth year", "birth_year"), ("FIDE id", "fide_id"), ("sex", "sex"),
          ("federation", "federation"))  # fmt: skip


def _needed(who: Facts, needs: Facts) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What an alias kept with evidence finds in the file: agreeing fields, and the fields
    that differ or that the file does not give (``no birth year``)."""
    agree: list[str] = []
    differ: list[str] = []
    for label, attr in _NEEDS:
        wanted = getattr(needs, attr)
        if wanted is None:
            continue
        given = getattr(who, attr)
        if given is None:
            differ.append(f"no {label}")
        elif (str(given).upper() if attr == "federation" else given) == wanted:
            agree.append(label)
        elif label not in differ:
            differ.append(label)
    return tuple(agree), tuple(differ)


def _decide(ranked: tuple[Candidate, ...], registered: dict[int, bool]) -> Candidate | None:
    """Rule 6 on the ranked candidates."""
    aliases = [c for c in ranked if c.kind is Kind.ALIAS]
    same = [c for c in ranked if c.kind is Kind.FOLDED]
    if aliases:
        clean = [c for c in aliases if not c.evidence_against]
        ids = {c.player_id for c in aliases}
        if len(ids) != 1:
            return None
        if not clean:
            # the alias's evidence says it is not its player: the one registered name the
            # evidence agrees with may still be certain
            alike = [c for c in same if not c.evidence_against and c.player_id not in ids]
            if len(alike) == 1 and alike[0].evidence_for and registered[alike[0].player_id]:
                return alike[0]
            return None
        chosen = clean[0]
        # an alias never outweighs a registered player's own name: only the evidence the
        # alias was kept with (or the register's) tells them apart
        rivals = [
            c for c in same
            if c.player_id != chosen.player_id and registered[c.player_id]
            and not c.evidence_against
        ]  # fmt: skip
        return None if rivals and not chosen.evidence_for else chosen
    if not same:
        return None
    clean = [c for c in same if not c.evidence_against]
    if len(clean) != 1:
        return None
    chosen = clean[0]
    if len(same) > 1 and not chosen.evidence_for:
        return None
    if not registered[chosen.player_id]:
        return chosen  # a player this file creates: its later lines
    if any(not registered[c.player_id] for c in same if c is not chosen):
        return None
    return chosen
