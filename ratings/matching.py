"""Who is who: one matcher ranks the registered players an incoming player may be.

Every path that has to recognise a registered player asks it: the imports (players CSV,
games CSV, TRF, PGN, FIDE's list), ``game add`` and every PLAYER argument (through their
lookups and suggestions), and ``player list --search``. Pure: no database, no I/O; the
service fills a :class:`Register` from the players' rows and asks it about each incoming
player (:meth:`Register.match`).

The rules, in order:

1. **FIDE id.** When the incoming player and a registered one both have a FIDE id, the id
   decides: the same id is the same person whatever the names say (the importers check the
   name beside it on their own), a different id is never a match, nor a candidate.
2. **Alias.** A spelling the administrator once said is a registered player (an import's
   ``--match``, ``--match-file``, ``--new`` or prompt answer, ``player alias add``; stored
   in ``player_aliases``) finds that player again, compared folded (rule 3). The name of a
   record merged into another one works the same way for the player it was merged into.
3. **Folding.** Names are compared after :func:`fold`: Unicode compatibility forms and case
   folded; letters transliterated to ASCII (anyascii: ``ř`` -> ``r``, ``ø`` -> ``o``, ``ł``
   -> ``l``, ``ß`` -> ``ss``, the dotless ``\u0131`` and ``İ`` -> ``i``, ``ễ`` -> ``e``,
   Cyrillic and Greek letters to Latin ones); ``ä ö ü`` also as ``ae oe ue`` and ``å ø``
   also as ``aa oe`` (German and Nordic keyboards); punctuation, hyphens and spacing only
   separate words, apostrophes vanish (``O'Brien`` = ``OBrien``); name particles also glued
   to the next word (``De Vries`` = ``DeVries``, ``van der Berg`` = ``Vanderberg``, ``O
   Brien`` = ``OBrien``, ``Mac Donald`` = ``MacDonald``; a particle written after the given
   name, ``Berg, Jan van der``, belongs to the surname); and the words in any order
   (``Surname, Given`` = ``Surname Given`` = ``Given Surname``). Names that fold alike are
   the same name: a *folded-exact* candidate.
4. **Near names** are candidates, never automatic matches:

   * *initials*: every word of one name equal to a word of the other or an initial or short
     abbreviation of one (up to three letters, the first one the same, the others in
     order): ``Smith, J.`` and ``Smith, John``; ``Carlsen,M``; ``Fco. Javier`` and
     ``Francisco Javier``;
   * *missing words*: every word of the shorter name in the longer one (``Garcia, Juan`` and
     ``García López, Juan``; ``Smith, John`` and ``Smith, John Jr.``);
   * *typos*: an edit distance of 1 between the folded names, 2 when the shorter one has more
     than 8 letters (optimal string alignment: a swap of two letters counts as one; rapidfuzz).

   Initials and missing words need at least one whole word of two or more letters in common.
5. **Evidence.** Birth year, sex and federation (a FIDE federation code on both sides),
   where both sides have one, count for the candidate (equal) or against it (different).
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


def _glued(text: str) -> list[str] | None:
    """The words with each run of particles glued to the word after it (``van der Berg`` ->
    ``vanderberg``); particles after the given name (``Berg, Jan van der``) first moved
    before the surname. None when there is nothing to glue."""
    surname, comma, given = text.partition(",")
    words = _words(surname)
    if comma:
        rest = _words(given)
        moved: list[str] = []
        while rest and rest[-1] in PARTICLES:
            moved.insert(0, rest.pop())
        words = moved + words + rest
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
    return out if len(out) < len(words) else None


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
    if name.isascii():  # nearly every name of FIDE's list: no transliteration, no digraphs
        texts = [name]
    else:
        folded = unicodedata.normalize("NFKC", name).casefold()
        texts = [_ascii(folded)]
        if not _DIGRAPH_LETTERS.isdisjoint(folded):
            texts.append(_ascii(folded.translate(_DIGRAPHS)))
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
    INITIALS = "initials"
    MISSING_WORDS = "missing words"
    TYPO = "typo"


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
    """What both sides give and differs."""

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

    def add_player(self, player_id: int, facts: Facts, *, registered: bool = True) -> None:
        """A live player (or, ``registered=False``, one the import creates)."""
        self.facts[player_id] = facts
        self.registered[player_id] = registered
        if facts.fide_id is not None:
            self.by_fide[facts.fide_id] = player_id
        self._index(_Spelling(player_id, facts.name, alias=False), fold(facts.name))

    def add_alias(self, player_id: int, spelling: str) -> None:
        """Another spelling of a live player: an alias, or a merged record's name."""
        self._index(_Spelling(player_id, spelling, alias=True), fold(spelling))

    def add_fide_id(self, fide_id: int, player_id: int) -> None:
        """A FIDE id that finds a live player without being its own (a merged record's)."""
        self.by_fide.setdefault(fide_id, player_id)

    def _index(self, spelling: _Spelling, folded: Folded) -> None:
        for key in folded.keys:
            _put(self._by_key, key, spelling)
        if self.registered.get(spelling.player_id, True):
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
    ) -> Match:
        """The decision about ``who`` (rule 6), with every candidate, best first.

        :param near: also look for near names (rule 4); without, only FIDE id, aliases and
            folded-exact names count (FIDE's list: a world list would stop at every common
            name).
        :param excused: ``excused(player_id, field)`` true when a difference in that field
            (``birth year``, ``sex``, ``federation``) is explained (a value corrected in the
            register since the file was made) and is no evidence against.
        """
        if who.fide_id is not None and who.fide_id in self.by_fide:
            pid = self.by_fide[who.fide_id]
            found = Candidate(pid, Kind.FIDE_ID, self.facts[pid].name)
            return Match(found, (found,))
        folded = fold(who.name)
        best: dict[int, Candidate] = {}
        others: set[int] = set()
        for key in folded.keys:
            for spelling in _entries(self._by_key, key):
                kind = Kind.ALIAS if spelling.alias else Kind.FOLDED
                self._consider(best, others, who, spelling, kind, 0, excused)
        if near and not any(
            c.kind in (Kind.ALIAS, Kind.FOLDED) and self.registered[c.player_id]
            for c in best.values()
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
        them = self.facts[pid]
        if who.fide_id is not None and them.fide_id is not None and who.fide_id != them.fide_id:
            if kind in (Kind.ALIAS, Kind.FOLDED):
                others.add(pid)
            return  # rule 1: never a match
        if kind not in (Kind.ALIAS, Kind.FOLDED) and not self.registered[pid]:
            return
        agree, differ = evidence(who, them)
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
            # them would cost more than the indexing (as ratings.service.identity says)
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
            kind = _relation(folded, folds.setdefault(id(spelling), fold(spelling.text)))
            if kind is not None:
                self._consider(best, others, who, spelling, kind, 0, excused)
        if not typo_pool:
            return
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
    return tuple(agree), tuple(differ)


def _decide(ranked: tuple[Candidate, ...], registered: dict[int, bool]) -> Candidate | None:
    """Rule 6 on the ranked candidates."""
    aliases = [c for c in ranked if c.kind is Kind.ALIAS]
    if aliases:
        clean = [c for c in aliases if not c.evidence_against]
        ids = {c.player_id for c in aliases}
        return clean[0] if len(ids) == 1 and clean else None
    same = [c for c in ranked if c.kind is Kind.FOLDED]
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
