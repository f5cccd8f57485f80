"""``ratings import fide-list FILE``: refresh the register from FIDE's rating list.

FIDE publishes every player's standard rating, the K-factor for the next period, birth year,
sex, titles and federation on its monthly list (:mod:`ratings.io.fide_list` reads the TXT and
XML downloads, plain or zipped, as a stream). For each registered player found by FIDE id the
import takes:

* the **published rating** as the entry rating, for a player no list here holds yet (a
  player on a list here is rated by the games stored here: FIDE's rating is not taken, only
  counted in the report);
* the **K FIDE published** into ``players.fide_k`` with the list's date in
  ``players.fide_k_list``: for the period that list starts it is the player's K (art. 8.3.3
  as FIDE applied it; :func:`ratings.rules.standing_k`), it settles an unknown count of
  prior games, and K 10 sets the permanent K=10 flag (``players.k10``)
  while 20 or 40 clears it (FIDE's K 10 means a published rating has reached 2400);
* the same for the **rapid and blitz lists**, each on its own, when the
  file holds them (FIDE's combined TXT or XML list; a single-list file leaves them alone):
  the list's published rating as ``rapid_entry_rating`` (``blitz_entry_rating``) for a
  player no rapid (blitz) list here holds yet, FIDE's K as ``rapid_fide_k``
  (``blitz_fide_k``), dated by the same ``fide_k_list``, K 10 setting ``rapid_k10``
  (``blitz_k10``) and 20 or 40 clearing it;
* **birth year, sex, title and federation** where FIDE gives one (a title or federation
  FIDE leaves blank is kept; a full birth date whose year FIDE contradicts is cleared).

A row whose name shares no word with the registered name of the player its FIDE id finds
(:func:`ratings.service.imports.incoming.same_person_name`, the check of TRF and PGN imports)
is not applied but reported (:class:`NotTaken`): the register's FIDE id may be mistyped.

Every change is returned (the CLI prints it) and written to the corrections log
(``player_edit``, with the import's id), as ``import players --update`` does. A change that
alters the inputs of a rated period marks the oldest such period for a re-rate, and only
then (:func:`_mark`): a birth year that makes a junior on some list here, a K=10 flag that
changes the flag a listed player enters a list with, FIDE's K for a rated period.

``add=True`` also registers the list's players that are not registered (entry rating, K,
birth year, sex, title, federation; an unknown count of prior games). Before, a list player
whose FIDE id is not registered is looked for among the registered players without a FIDE
id by folded name (:mod:`ratings.matching`: accents, word order, punctuation; their aliases
too; no near names, which on a world list would be every common name): one such player, no
evidence against (birth year, sex, federation) and no other list player of that name, is
the same person: it takes the list's FIDE id (a ``fide_id`` correction) and is refreshed as
the players found by FIDE id are. Any other such case is reported, not added (two registered
players of the name, two list players, differing data). So is a list player whose name is
the own name (folded) or an alias of a registered player with a FIDE id: the files that write
it name that player, whom a new namesake would take them from (``player add`` refuses such a
name unless told apart and confirmed). ``federation`` limits everything to
one federation (pushed into the reader, so the rest of the world list is never built).

``add=True`` on a file imported before (a plain refresh first, then ``--add``, perhaps of
one federation, then of another) adds the list's players that are not registered, and only
those: no registered player is changed and no one is found by name (the ones whose names a
registered player without a FIDE id has are reported).

Set-based, as the world list (1.1 million players) needs: the register is read with a few
bulk queries, the file is read once as a stream, new players go in with executemany in
chunks, and the changed players are written with one executemany; no ORM object is made per
player. One transaction (the caller's): a file that cannot be read whole changes nothing.
The file's SHA-256 is recorded, so importing the same file twice is refused (except with
``add``, above).

Over 600 lines: the bulk read, the one pass and the bulk writes share one row layout.

The register's bulk read, the one pass over the file and the bulk writes share one row layout
(the players' columns in :data:`FIELDS` order, indexed by position in the pass for speed),
which a split would spread over modules.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, matching, rules
from ratings.errors import (
    DuplicateImportError,
    InputFileError,
    InputFileErrors,
    InvalidInputError,
    InvalidNameError,
)
from ratings.io.fide_list import (
    MAX_PROBLEMS,
    FideList,
    FideListPlayer,
    RatingType,
    open_fide_list,
)
from ratings.io.notes import FileWarning
from ratings.matching import Facts, Kind, fold
from ratings.models import Import, Player, RatingPeriod
from ratings.names import clean_name, key_of_stored
from ratings.service.imports.incoming import same_person_name
from ratings.service.imports.report import WHY, Matching, Taken
from ratings.service.imports.storing import check_not_imported, record_import
from ratings.service.rating.marks import joining_list, mark_period
from ratings.service.shared import audit
from ratings.service.shared.sql import bulk_insert, date_param, fetch_all, to_date
from ratings.service.shared.text import list_name

__all__ = [
    "FIELDS",
    "FideListChange",
    "FideListReport",
    "NotAdded",
    "NotTaken",
    "hash_file",
    "import_fide_list",
]

FIELDS = (
    "entry_rating", "fide_k", "k10", "rapid_entry_rating", "rapid_fide_k", "rapid_k10",
    "blitz_entry_rating", "blitz_fide_k", "blitz_k10", "birth_year", "birth_date", "sex",
    "title", "federation", "fide_inactive_list",
)  # fmt: skip
"""The register's columns the import may change, in the order changes are reported."""
_K10_INDEXES = {"standard": (0, 3), "rapid": (9, 11), "blitz": (12, 14)}
"""``_Register.values``: each list's entry rating and K=10 flag. Together they make the K=10
flag a player enters the list with (:func:`ratings.rules.flags_after`), which alone decides
K 10 on the list the player is first listed on (art. 8.3.3); later lists carry the flag of
the list before, or'ed with it."""
_BIRTH_YEAR = 4
"""``_Register.values``: the birth year (the junior K of art. 8.3.3 counts by year; the full
birth date is not an input of the rating)."""
_INACTIVE = 15
"""``_Register.values``: ``fide_inactive_list``, the first FIDE list that flagged the player
inactive (``i``, art. 7.2.2)."""
_OTHER_LISTS = (("rapid", 9), ("blitz", 12))
"""The rapid and blitz lists: each one's FIDE record field and the index of its entry rating
in ``_Register.values`` (its FIDE K and K=10 flag follow)."""
_K_INDEXES = (1, 2, 10, 13)
"""``_Register.values``: FIDE's K of each list and the list's date (a change re-rates the
period that list starts)."""
_HASH_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class FideListChange:
    """One field of a registered player that the list changed."""

    player_id: int
    name: str
    """The player's name in the register."""
    field: str
    """One of :data:`FIELDS`."""
    old: object
    new: object


@dataclass(frozen=True, slots=True)
class NotAdded:
    """A player of the list that ``add`` did not register: a registered player without a
    FIDE id has the same name, folded (maybe the same person), and the import cannot tell
    (``kind`` ``no_fide_id``); or the name is a registered player's own name, folded, or
    his alias (``name``, ``alias``), and the files that write it name him: registered too,
    the list player would take them (``player add`` refuses that without
    ``--allow-same-name``)."""

    line: int
    """The line (TXT) or position (XML) in the file."""
    fide_id: int
    name: str
    """The name on the list."""
    player_id: int
    """The registered player of that name (the first, when several)."""
    why: str = ""
    """Why it is not certain: ``born 1984 here``, ``2 registered players``, ``another player
    of the list has that name too``; empty when the list was imported before (no player is
    changed then). ``name``: ``folded`` when the names differ but fold alike."""
    kind: str = "no_fide_id"
    """``no_fide_id``, ``name`` or ``alias`` (above)."""
    registered: str = ""
    """``name``, ``alias``: the registered player's name."""
    registered_fide_id: int | None = None
    """``name``, ``alias``: the registered player's FIDE id."""


@dataclass(frozen=True, slots=True)
class NotTaken:
    """A list row whose FIDE id is a registered player's, beside a name that shares no word
    with his (:func:`ratings.service.imports.incoming.same_person_name`, as TRF and PGN
    imports check it): the register's FIDE id may be mistyped, and the row is not applied."""

    line: int
    fide_id: int
    name: str
    """The name on the list."""
    player_id: int
    registered: str
    """The registered player's name."""


@dataclass(frozen=True, slots=True)
class FideListReport:
    """What :func:`import_fide_list` did."""

    file_name: str
    list_date: dt.date
    """The date of FIDE's list (the 1st of its month)."""
    read: int
    """Players read from the file (after the federation filter)."""
    matched: int
    """Registered players found by FIDE id."""
    updated: int
    """Matched players whose data changed."""
    added: int = 0
    """Players registered from the list (``add``)."""
    rated_here: int = 0
    """Matched players already on a list here: their FIDE rating was not taken."""
    with_k: int = 0
    """Matched and added players who got FIDE's K of this list."""
    changes: tuple[FideListChange, ...] = ()
    """Every change, by player (in file order), then field (:data:`FIELDS` order)."""
    not_added: tuple[NotAdded, ...] = ()
    warnings: tuple[FileWarning, ...] = ()
    """The reader's warnings (odd values it set aside)."""
    marked_period: str | None = None
    """The oldest rated period marked for a re-rate."""
    without_fide_id: int = 0
    """Rows without a FIDE id, skipped: players FIDE does not list (our own TXT lists hold
    them; :mod:`ratings.io.fide_list`)."""
    linked: int = 0
    """Registered players without a FIDE id found by name (folded): they took the list's
    FIDE id and were refreshed (``add``)."""
    again_of: int | None = None
    """The earlier import of this very file, when ``add`` runs it again: only the players
    not registered yet were added, nobody else changed."""
    matching: Matching = dataclasses.field(default_factory=Matching)
    """Who the list's players were taken for: by FIDE id, by name (:attr:`linked`, each
    named), added (the part of the report every import shares)."""
    not_taken: tuple[NotTaken, ...] = ()
    """Registered players found by FIDE id beside a name that is not theirs: not refreshed
    (counted in :attr:`matched`)."""


def hash_file(path: Path) -> str:
    """SHA-256 of a file's bytes, hex, read in chunks (a world list is hundreds of MB).

    :raises InputFileError: when the file cannot be read.
    """
    digest = hashlib.sha256()
    try:
        with path.open("rb") as stream:
            while chunk := stream.read(_HASH_CHUNK):
                digest.update(chunk)
    except OSError as exc:
        raise InputFileError(str(path), None, f"cannot read the file: {exc.strerror}") from exc
    return digest.hexdigest()


def _title(player: FideListPlayer) -> str | None:
    """The register's title (:data:`ratings.limits.TITLES`) from FIDE's ``Tit``, else its
    women's title; None when FIDE gives neither (or only others: arbiter, FOA...)."""
    for title in (player.title, player.women_title):
        if title is not None and title.upper() in limits.TITLES:
            return title.upper()
    return None


def _federation(player: FideListPlayer) -> str | None:
    code = player.federation
    return code if code is not None and len(code) == 3 and code.isalpha() else None


def _name(text: str) -> tuple[str, str]:
    """(name as stored, its key): :func:`ratings.names.clean_name` and its key, with a fast
    path for printable ASCII (nearly every name on FIDE's list), where NFC changes nothing,
    no character is refused and no script can be mixed.

    :raises InvalidNameError: for a name the register refuses, or one that is too long.
    """
    if text.isascii() and text.isprintable():
        name = " ".join(text.split())
        key = name.lower()
    else:
        name = clean_name(text)
        key = key_of_stored(name)
    if not name or len(name) > limits.MAX_NAME_LENGTH:
        raise InvalidNameError(f"not a name of 1 to {limits.MAX_NAME_LENGTH} characters: {text!r}")
    return name, key


class _Register:
    """The registered players the list can change, read with bulk queries: by FIDE id (a
    merged-away record's id finds the player kept), their current values, and (for ``add``)
    the name keys of live players without a FIDE id."""

    def __init__(self, session: Session, add: bool) -> None:  # noqa: C901 (one pass over the register's rows, sorted into the indexes the list is matched on)
        self.by_fide: dict[int, int] = {}
        self.values: dict[int, list[object]] = {}
        self.names: dict[int, str] = {}
        self.keys: dict[int, str] = {}
        """Live player id -> his name's key (``players.name_key``), for the players with a
        FIDE id: a list row's name beside his FIDE id is checked against it."""
        self.no_fide_id = matching.Register(near=False)
        """The live players without a FIDE id, their names and aliases, as the one matcher
        sees them (``add``)."""
        self.fide_of: dict[int, int] = {}
        """Live player id -> his FIDE id."""
        self.held: dict[str, tuple[int, bool]] = {}
        """Folded key (every form, :attr:`ratings.matching.Folded.keys`) -> (player id,
        whether by alias) of the names the live players with a FIDE id are known by: their
        own (first) and their aliases (``add``). A list player of such a name is not added:
        the files that write it name that player."""
        merged: dict[int, int] = {}
        live_with_id: set[int] = set()
        rows = fetch_all(
            session,
            "SELECT id, fide_id, merged_into_id, name, name_key, entry_rating, fide_k, "
            "fide_k_list, k10, birth_year, birth_date, sex, title, federation, "
            "rapid_entry_rating, rapid_fide_k, rapid_k10, blitz_entry_rating, blitz_fide_k, "
            "blitz_k10, fide_inactive_list FROM players "
            "WHERE fide_id IS NOT NULL OR merged_into_id IS NULL",
        )
        for pid, fide_id, merged_into, name, key, *values in rows:
            if merged_into is not None:
                merged[pid] = merged_into
            if fide_id is not None:
                self.by_fide[fide_id] = pid
            if merged_into is None:
                self.names[pid] = name
                # as Python values: dates (ISO text on SQLite), booleans (0/1 on SQLite)
                if values[2] is not None:
                    values[2] = to_date(values[2])
                values[3] = bool(values[3])
                values[11] = bool(values[11])
                values[14] = bool(values[14])
                if values[5] is not None:
                    values[5] = to_date(values[5])
                if values[_INACTIVE] is not None:
                    values[_INACTIVE] = to_date(values[_INACTIVE])
                self.values[pid] = values
                if fide_id is not None:
                    live_with_id.add(pid)
                    self.fide_of[pid] = fide_id
                    self.keys[pid] = key
                    if add:
                        for folded_key in fold(name).keys:
                            self.held.setdefault(folded_key, (pid, False))
                elif add:
                    self.no_fide_id.add_player(pid, Facts(
                        name, None, values[4] if isinstance(values[4], int) else None,
                        values[6] if isinstance(values[6], str) else None,
                        values[8] if isinstance(values[8], str) else None,
                    ))  # fmt: skip
        for fide_id, pid in self.by_fide.items():
            while pid in merged:
                pid = merged[pid]
            self.by_fide[fide_id] = pid
        self.by_fide = {f: p for f, p in self.by_fide.items() if p in self.values}
        if add:
            without = self.no_fide_id.facts
            for pid, alias, year, fide_id, sex, federation in fetch_all(
                session,
                "SELECT player_id, name, birth_year, fide_id, sex, federation FROM player_aliases",
            ):
                if pid in without:
                    needs = None
                    if year is not None or fide_id is not None or sex is not None or federation:
                        needs = Facts(alias, fide_id, year, sex, federation)
                    self.no_fide_id.add_alias(pid, alias, needs)
                elif pid in self.fide_of:
                    for folded_key in fold(alias).keys:
                        self.held.setdefault(folded_key, (pid, True))
        self.folds = bool(self.no_fide_id.facts or self.held)
        """Whether a list player to add has a registered name to be compared with (folded:
        only then is his name folded)."""


def _listed(session: Session) -> dict[str, set[int]]:
    """Per list (standard, rapid, blitz), the players on the newest rated period's list:
    every player any list of that time control here holds (each rated period lists every
    player registered when it was rated, on the standard list and on each rapid or blitz list
    published since the first one, and a re-rate rewrites the lists up to the newest)."""
    listed: dict[str, set[int]] = {"standard": set(), "rapid": set(), "blitz": set()}
    newest = session.scalar(
        sa.select(RatingPeriod.id).order_by(RatingPeriod.start_date.desc()).limit(1)
    )
    if newest is None:
        return listed
    for pid, tc in fetch_all(
        session,
        f"SELECT player_id, time_control FROM rating_history WHERE period_id = {int(newest)}",
    ):
        listed[tc].add(pid)
    return listed


def _newest_list(session: Session) -> dt.date | None:
    """The date of the newest FIDE list imported (of the K it gave)."""
    return session.scalar(sa.select(sa.func.max(Player.fide_k_list)))


def _check_list_date(newest: dt.date | None, list_date: dt.date, file_name: str) -> None:
    """Refuse a list older than one already imported (``newest``): its K and data are out of
    date."""
    if newest is not None and newest > list_date:
        raise InputFileError(
            file_name,
            None,
            f"the register holds FIDE's K from the list of {newest:%Y-%m} already; "
            f"this list ({list_date:%Y-%m}) is older; nothing was imported",
        )


class _Reading:
    """One pass over the file: matched players' new values collected, new players (``add``)
    yielded as rows of ``players`` for :func:`ratings.service.shared.sql.bulk_insert`."""

    def __init__(
        self,
        session: Session,
        register: _Register,
        listed: dict[str, set[int]],
        list_date: dt.date | None,
        add: bool,
        track_ids: bool = False,
        again: bool = False,
    ) -> None:
        self.session = session
        # read before the file: on PostgreSQL the rows stream into a COPY on the session's
        # connection, which takes no other statement until it ends (a query from the
        # generator waited for it for ever: ``import fide-list --add`` never returned)
        self.newest = _newest_list(session)
        joins = joining_list(session)
        self.joins = None if joins is None else date_param(session, joins)
        """``players.listed_from`` of the players it adds (:func:`joining_list`)."""
        self.register = register
        self.listed = listed
        self.given_date = list_date
        self.add = add
        self.again = again
        """The file was imported before: only players not registered yet are added."""
        self.taken: list[Taken] = []
        """The registered players found by name, as every import names them."""
        self.linked: dict[int, NotAdded] = {}
        """Registered player (no FIDE id) -> the list player found for it by name; the
        value is what is reported if another list player turns out to have that name."""
        self.refused: set[int] = set()
        self.list_date: dt.date | None = None
        self.updates: dict[int, list[object]] = {}
        """Player id -> new values (``_Register.values`` order), in file order."""
        self.not_added: list[NotAdded] = []
        self.not_taken: list[NotTaken] = []
        self.errors: list[InputFileError] = []
        self.more_errors = 0
        self.read = self.matched = self.added = self.rated_here = self.with_k = 0
        # FIDE ids added, to name a FIDE id the file holds twice: kept only on the second
        # pass that looks for the lines once the unique index on players.fide_id has refused
        # one (a set of every id added is over 100 MB for FIDE's 1.93 million players)
        self.added_ids: set[int] | None = set() if track_ids else None

    def _error(self, error: InputFileError) -> None:
        """Note a problem: the first MAX_PROBLEMS listed, the others counted (a list of one
        player a million times held a million of them: 550 MB)."""
        if len(self.errors) < MAX_PROBLEMS:
            self.errors.append(error)
        else:
            self.more_errors += 1

    def problems(self) -> InputFileErrors:
        """Every problem noted, as one error."""
        errors = list(self.errors)
        if self.more_errors:
            name = errors[0].filename
            errors.append(
                InputFileError(name, None, f"{self.more_errors} more problems not listed")
            )
        return InputFileErrors(errors)

    def _date(self, filename: str, kinds: tuple[RatingType, ...], month: dt.date | None) -> dt.date:
        """The list's date, from the file or the caller, checked once the header is read."""
        if RatingType.STANDARD not in kinds:
            raise InputFileError(
                filename,
                None,
                "this list holds no standard ratings (a rapid or blitz list); import the "
                "standard or the combined list",
            )
        given = self.given_date
        if month is not None and given is not None and month != given:
            raise InputFileError(
                filename, None, f"the file is FIDE's list of {month:%Y-%m}, not {given:%Y-%m}"
            )
        found = given or month
        if found is None:
            raise InputFileError(
                filename,
                None,
                "the file does not say which month's list it is; give it (--month YYYY-MM)",
            )
        _check_list_date(self.newest, found, filename)
        return found

    def rows(self, fide: FideList) -> Iterator[tuple[object, ...]]:
        """Read every player of ``fide``; yield the rows of the players to add."""
        register, updates = self.register, self.updates
        by_fide = register.by_fide
        day_param: object = None
        for player in fide:
            if self.list_date is None:
                self.list_date = self._date(fide.filename, fide.kinds, fide.list_month)
                day_param = date_param(self.session, self.list_date)
            self.read += 1
            standard = player.standard
            rating = None if standard is None else standard.rating
            k = None if standard is None or rating is None else standard.next_k
            pid = by_fide.get(player.fide_id)
            if pid is not None:
                self.matched += 1
                if self.again:
                    continue  # the list was imported before: nobody registered changes
                if player.name != register.names[pid] and not self._same_person(pid, player):
                    continue
                new = self._refreshed(pid, player, rating, k)
                if new != register.values[pid]:
                    updates[pid] = new
                continue
            if not self.add:
                continue
            try:
                name, key = _name(player.name)
            except InvalidNameError as exc:
                self._error(InputFileError(fide.filename, player.line, str(exc), "name"))
                continue
            if register.folds:
                folded = fold(name)
                if register.no_fide_id.facts and self._by_name(player, name, folded):
                    continue
                if register.held and self._held(player, name, folded):
                    continue
            ids = self.added_ids
            if ids is not None and player.fide_id in ids:
                self._error(
                    InputFileError(
                        fide.filename,
                        player.line,
                        f"FIDE id {player.fide_id} is on the list twice",
                        "ID",
                    )
                )
                continue
            if ids is not None:
                ids.add(player.fide_id)
            self.added += 1
            rapid, blitz = player.rapid, player.blitz
            r_rating = None if rapid is None else rapid.rating
            r_k = None if rapid is None or r_rating is None else rapid.next_k
            b_rating = None if blitz is None else blitz.rating
            b_k = None if blitz is None or b_rating is None else blitz.next_k
            taken = k is not None or r_k is not None or b_k is not None
            if taken:
                self.with_k += 1
            yield (
                name, key, player.fide_id, player.birth_year, player.sex, _federation(player),
                _title(player), rating, None, k == 10, k, day_param if taken else None,
                r_rating, r_k == 10, r_k, b_rating, b_k == 10, b_k,
                day_param if player.inactive else None, self.joins,
            )  # fmt: skip

    def _refreshed(  # noqa: C901 (one branch per value FIDE's list refreshes, in the module docstring's order)
        self, pid: int, player: FideListPlayer, rating: int | None, k: int | None
    ) -> list[object]:
        """A registered player's values after the list (see the module docstring)."""
        old = self.register.values[pid]
        new = list(old)
        if pid in self.listed["standard"]:
            self.rated_here += 1
        else:
            new[0] = rating
        taken = k is not None
        if taken:
            new[1], new[2], new[3] = k, self.list_date, k == 10
        for tc, i in _OTHER_LISTS:
            entry = player.rapid if tc == "rapid" else player.blitz
            if entry is None:  # the file holds no such list: left alone
                continue
            other = entry.rating
            if pid not in self.listed[tc]:
                new[i] = other
            if other is not None and entry.next_k is not None:
                taken = True
                new[i + 1], new[2], new[i + 2] = entry.next_k, self.list_date, entry.next_k == 10
        if taken:
            self.with_k += 1
            # every FIDE K is dated by the one fide_k_list: a K this list does not give must
            # not be carried to its date (it would be taken as FIDE's K on this list, art.
            # 8.3.3): it is cleared
            if k is None:
                new[1] = None
            for tc, i in _OTHER_LISTS:
                entry = player.rapid if tc == "rapid" else player.blitz
                if entry is None or entry.rating is None or entry.next_k is None:
                    new[i + 1] = None
        year = player.birth_year
        if year is not None and year != old[4]:
            new[4] = year
            born = old[5]
            if isinstance(born, dt.date) and born.year != year:
                new[5] = None
        for index, value in enumerate((player.sex, _title(player), _federation(player)), start=6):
            if value is not None:
                new[index] = value
        if player.inactive and old[_INACTIVE] is None:
            # the first list that flags him: the lists here show it until his next game here
            # (a later list's flag, or its absence, changes nothing)
            new[_INACTIVE] = self.list_date
        return new

    def _same_person(self, pid: int, player: FideListPlayer) -> bool:
        """Whether the list's name beside a registered player's FIDE id can be his
        (:func:`same_person_name`: the same key or a word in common); else the row is noted
        in :attr:`not_taken`. A name the register could not store is no evidence against."""
        registered = self.register.keys.get(pid)
        if registered is None:
            return True  # found by a merged record's FIDE id only
        try:
            _, key = _name(player.name)
        except InvalidNameError:
            return True
        if same_person_name(key, registered):
            return True
        self.not_taken.append(
            NotTaken(player.line, player.fide_id, player.name, pid, self.register.names[pid])
        )
        return False

    def _held(self, player: FideListPlayer, name: str, folded: matching.Folded) -> bool:
        """A list player whose FIDE id is not registered, whose name is the own name
        (folded) or an alias of a registered player with a FIDE id: not added, reported
        (files that write the name name that player; registering the list player would
        give them to him). Returns whether he was so."""
        held = self.register.held
        found = next((held[key] for key in folded.keys if key in held), None)
        if found is None:
            return False
        pid, alias = found
        registered = self.register.names[pid]
        why = "" if alias or key_of_stored(name) == key_of_stored(registered) else "folded"
        self.not_added.append(
            NotAdded(player.line, player.fide_id, name, pid, why, "alias" if alias else "name",
                     registered, self.register.fide_of[pid])
        )  # fmt: skip
        return True

    def _by_name(self, player: FideListPlayer, name: str, folded: matching.Folded) -> bool:
        """A list player whose FIDE id is not registered, against the registered players
        without one, through the one matcher (:mod:`ratings.matching`: folded names and
        aliases, the evidence of birth year, sex and federation; no near names: a world list
        would stop at every common name). Certain: the player takes the FIDE id and is
        refreshed (:attr:`linked`); a candidate that is not certain: not added, reported.
        Returns whether the list player was dealt with so (not to be added)."""
        register = self.register.no_fide_id
        if not register.knows(folded):
            return False
        who = Facts(name, player.fide_id, player.birth_year, player.sex, _federation(player))
        found = register.match(who, near=False, folded=folded)
        if not found.candidates:
            return False
        certain = found.certain
        first = found.candidates[0].player_id
        why = ""
        if self.again:
            pass  # the list was imported before: nobody registered changes
        elif certain is None:
            why = _not_certain(found.candidates)
        elif certain.player_id in self.linked:
            first = certain.player_id
            why = "another player of the list has that name too"
            earlier = self.linked.pop(first)
            self.updates.pop(first, None)
            self.taken = [t for t in self.taken if t.player_id != first]
            self.not_added.append(earlier)
            self.refused.add(first)
        elif certain.player_id in self.refused:
            first = certain.player_id
            why = "another player of the list has that name too"
        if why or self.again:
            self.not_added.append(NotAdded(player.line, player.fide_id, name, first, why))
            return True
        assert certain is not None
        pid = certain.player_id
        self.linked[pid] = NotAdded(
            player.line, player.fide_id, name, pid, "another player of the list has that name too"
        )
        registered = self.register.names[pid]
        if certain.kind is Kind.ALIAS:
            self.taken.append(
                Taken(player.line, name, pid, registered, f"alias {certain.spelling!r}")
            )
        elif key_of_stored(name) != key_of_stored(registered):
            self.taken.append(Taken(player.line, name, pid, registered, WHY["folded"]))
        k = (
            None
            if player.standard is None or player.standard.rating is None
            else player.standard.next_k
        )
        self.updates[pid] = self._refreshed(pid, player, None if player.standard is None
                                            else player.standard.rating, k)  # fmt: skip
        return True


def _not_certain(candidates: Sequence[matching.Candidate]) -> str:
    """Why the registered players a list player's name finds are not certainly him."""
    players = {c.player_id for c in candidates}
    if len(players) > 1:
        return f"{len(players)} registered players have that name"
    candidate = candidates[0]
    if candidate.kind is Kind.SWAPPED:
        return "the surname and given name are swapped"
    against = dict.fromkeys(candidate.evidence_against)  # the register's and an alias's
    differ = [f for f in against if not f.startswith("no ")]
    lacks = [f.removeprefix("no ") for f in against if f.startswith("no ")]
    parts = []
    if differ:
        parts.append(f"the list and the register differ in {', '.join(differ)}")
    if lacks:
        parts.append(f"the list gives no {', '.join(lacks)}")
    return "; ".join(parts) or "it is not certain"


_NEW_COLUMNS = (
    "name", "name_key", "fide_id", "birth_year", "sex", "federation", "title", "entry_rating",
    "entry_games", "k10", "fide_k", "fide_k_list", "rapid_entry_rating", "rapid_k10",
    "rapid_fide_k", "blitz_entry_rating", "blitz_k10", "blitz_fide_k", "fide_inactive_list",
    "listed_from",
)  # fmt: skip


_ADD_CACHE_KIB = 65_536
"""SQLite page cache while ``add`` inserts (KiB): the world list's 1.1 million players make
``players`` and its three indexes about 140 MB, and with SQLite's default 2 MB cache most
inserts into the indexes (FIDE ids and names in no useful order) miss it. 64 MB took the
insert from 26 s to 15 s (bench/RESULTS.md); the memory is given back afterwards."""


@contextlib.contextmanager
def _page_cache(session: Session, add: bool) -> Iterator[None]:
    """A larger SQLite page cache for the connection while ``add`` inserts (SQLite only; the
    connection's own setting is restored)."""
    conn = session.connection()
    if not add or conn.dialect.name != "sqlite":
        yield
        return
    before = conn.exec_driver_sql("PRAGMA cache_size").scalar_one()
    conn.exec_driver_sql(f"PRAGMA cache_size = -{_ADD_CACHE_KIB}")
    try:
        yield
    finally:
        conn.exec_driver_sql(f"PRAGMA cache_size = {int(before)}")


def import_fide_list(
    session: Session,
    path: Path,
    *,
    data_hash: str,
    list_date: dt.date | None = None,
    federation: str | None = None,
    add: bool = False,
    list_type: str | None = None,
) -> FideListReport:
    """Refresh registered players from a FIDE rating list, and with ``add`` register the
    others (see the module docstring for what is taken).

    :param path: the download: TXT or XML, plain or zipped.
    :param data_hash: the file's SHA-256 (:func:`hash_file`): a file imported before is
        refused.
    :param list_date: the date of the list (the first day of its month); needed when the
        file does not name its month (the combined TXT and the XML lists do not); when it
        does, the two must agree.
    :param federation: only this federation's players (a three-letter code).
    :param add: register the list's players that are not registered.
    :param list_type: standard, rapid or blitz: the list a single-type TXT or XML file is,
        when its name does not say it (FIDE's single lists look alike; a rapid or blitz
        list alone is refused, as it holds no standard ratings).
    :raises InputFileError: for a file that cannot be read or is not a standard or combined
        list, a missing or contradicting list date, a list older than one already
        imported, a list without players (of that federation).
    :raises InputFileErrors: for the records that cannot be read (nothing is kept).
    """
    file_name = str(path)
    again_of = None
    try:
        check_not_imported(session, data_hash, file_name)
    except DuplicateImportError:
        earlier = session.scalar(
            sa.select(Import).where(Import.content_hash == data_hash, Import.kind == "fide_list")
        )
        if not add or earlier is None:
            raise
        again_of = earlier.id  # --add after an import of the same list: the others only
    if list_date is not None and list_date.day != 1:
        raise InvalidInputError(f"a FIDE list is dated the first of a month: {list_date}")
    codes = None if federation is None else [limits.federation(federation.strip())]
    kind = None if list_type is None else RatingType(list_name(list_type))
    register = _Register(session, add)
    listed = _listed(session)
    reading = _Reading(session, register, listed, list_date, add, again=again_of is not None)
    try:
        with (
            open_fide_list(path, federations=codes, rating_type=kind) as fide,
            _page_cache(session, add),
            session.begin_nested(),  # a refused insert leaves the session usable (PostgreSQL)
        ):
            bulk_insert(session, "players", _NEW_COLUMNS, reading.rows(fide))
            warnings = tuple(fide.warnings)
            without_fide_id = fide.without_fide_id
    except sa.exc.IntegrityError as exc:
        # players.fide_id is unique: the file holds a FIDE id twice; name every such line
        again = _Reading(
            session, register, listed, list_date, add, track_ids=True, again=again_of is not None
        )
        with open_fide_list(path, federations=codes, rating_type=kind) as fide:
            for _row in again.rows(fide):
                pass
        if again.errors:
            raise again.problems() from exc
        raise
    if reading.errors:
        raise reading.problems()
    day = reading.list_date
    if day is None:
        where = f" of federation {codes[0]}" if codes else ""
        raise InputFileError(file_name, None, f"no player on the list{where}; nothing was imported")
    if again_of is not None:
        # the same bytes: the imports row stays the first one's (its hash is the file's
        # identity); nothing registered was changed
        import_id = again_of
    else:
        import_id = record_import(session, "fide_list", file_name, data_hash, reading.read)
    links = {pid: found.fide_id for pid, found in reading.linked.items()}
    changes, k_changed = _store(session, register, reading.updates, import_id, links)
    marked = _mark(session, register, reading.updates, listed, day, k_changed)
    return FideListReport(
        file_name,
        day,
        reading.read,
        reading.matched,
        len(reading.updates),
        reading.added,
        reading.rated_here,
        reading.with_k,
        tuple(changes),
        tuple(sorted(reading.not_added, key=lambda n: n.line)),
        warnings,
        marked,
        without_fide_id,
        len(links),
        again_of,
        Matching(
            counts=tuple(
                (how, n)
                for how, n in (
                    ("fide_id", reading.matched),
                    ("name", len(links) - len(reading.taken)),
                    ("folded", sum(1 for x in reading.taken if not x.why.startswith("alias"))),
                    ("alias", sum(1 for x in reading.taken if x.why.startswith("alias"))),
                    ("new", reading.added),
                )
                if n
            ),
            taken=tuple(sorted(reading.taken, key=lambda x: x.line)),
        ),
        tuple(reading.not_taken),
    )


def _store(
    session: Session,
    register: _Register,
    updates: dict[int, list[object]],
    import_id: int,
    links: dict[int, int],
) -> tuple[list[FideListChange], bool]:
    """Write the changed players with one executemany (and the FIDE ids of the players found
    by name, ``links``) and log each change; returns the changes and whether FIDE's K (value
    or list) changed for anyone."""
    changes: list[FideListChange] = []
    rows = []
    k_changed = False
    conn = session.connection()
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    if links:
        conn.exec_driver_sql(
            f"UPDATE players SET fide_id = {mark} WHERE id = {mark}",
            [(fide_id, pid) for pid, fide_id in links.items()],
        )
    for pid, new in updates.items():
        old = register.values[pid]
        if pid in links:
            changes.append(FideListChange(pid, register.names[pid], "fide_id", None, links[pid]))
        entry, fide_k, fide_k_list, k10, birth_year, birth_date, sex, title, fed, *other = new
        r_entry, r_k, r_k10, b_entry, b_k, b_k10, inactive = other
        rows.append(
            (
                entry, fide_k, _day(session, fide_k_list), bool(k10), birth_year,
                _day(session, birth_date), sex, title, fed, r_entry, r_k, bool(r_k10), b_entry,
                b_k, bool(b_k10), _day(session, inactive), pid,
            )
        )  # fmt: skip
        k_changed = k_changed or any(old[i] != new[i] for i in _K_INDEXES)
        # fide_k_list is the list's date, new every month: not a change to report
        for field, a, b in zip(FIELDS, _reported(old), _reported(new), strict=True):
            if a != b:
                changes.append(FideListChange(pid, register.names[pid], field, a, b))
    if rows:
        sets = ", ".join(f"{c} = {mark}" for c in _UPDATED_COLUMNS)
        conn.exec_driver_sql(f"UPDATE players SET {sets} WHERE id = {mark}", rows)
    if changes:
        audit.record(
            session,
            audit.Action.PLAYER_EDIT,
            *(
                audit.Change(
                    player_id=c.player_id, import_id=import_id, field=c.field, old=c.old, new=c.new
                )
                for c in changes
            ),
        )
    return changes, k_changed


_UPDATED_COLUMNS = (
    "entry_rating", "fide_k", "fide_k_list", "k10", "birth_year", "birth_date", "sex", "title",
    "federation", "rapid_entry_rating", "rapid_fide_k", "rapid_k10", "blitz_entry_rating",
    "blitz_fide_k", "blitz_k10", "fide_inactive_list",
)  # fmt: skip
"""The register's values ``_Register`` reads, in its order."""


def _day(session: Session, value: object) -> object:
    """A date as the driver takes it (ISO text on SQLite); None stays None."""
    return date_param(session, value) if isinstance(value, dt.date) else None


def _reported(values: Sequence[object]) -> tuple[object, ...]:
    """The values in :data:`FIELDS` order (without ``fide_k_list``)."""
    entry, fide_k, _list, k10, birth_year, birth_date, sex, title, fed, *other = values
    *others, inactive = other
    return (entry, fide_k, k10, *others, birth_year, birth_date, sex, title, fed, inactive)


def _mark(
    session: Session,
    register: _Register,
    updates: dict[int, list[object]],
    listed: dict[str, set[int]],
    list_date: dt.date,
    k_changed: bool,
) -> str | None:
    """Mark the oldest rated period whose inputs the changes alter; returns its label, if any
    (only the periods whose inputs changed, never a re-rate that can change
    nothing).

    * A new K=10 flag of the register, for a player on a list here, matters only when it
      changes the flag the player enters that list with (an entry rating of 2400 or more
      makes it true anyway, art. 8.3.3): then from the first period that listed the player.
    * A new birth year, for a player on a list here, matters only in the periods whose list
      years make a junior (art. 8.3.3: K 40 until the end of the year of the 18th birthday)
      of one year and not of the other: from the first of those that lists the player.
    * FIDE's K counts from the period its list starts (:func:`ratings.rules.standing_k`):
      from the first rated period on or after the list's date.
    * FIDE's inactive flag, new for a player on the standard list here, turns him inactive
      on the first list here dated on or after FIDE's list, or on his first list here
      (:attr:`ratings.rules.Standing.fide_inactive`): that period, if he is rated there,
      played no game in it and was not inactive there already (else it changes nothing).

    An entry rating changes only for players on no list yet, a full birth date, sex, title
    and federation are no input of a rating: nothing to mark.
    """
    days = [
        day
        for day in (
            _k10_and_birth_year_from(session, register, updates, listed),
            _fide_inactive_from(session, register, updates, listed),
        )
        if day is not None
    ]
    if k_changed:
        day = session.scalar(
            sa.select(RatingPeriod.start_date)
            .where(RatingPeriod.start_date >= list_date)
            .order_by(RatingPeriod.start_date)
            .limit(1)
        )
        if day is not None:
            days.append(day)
    if not days:
        return None
    period = session.scalar(sa.select(RatingPeriod).where(RatingPeriod.start_date == min(days)))
    assert period is not None
    return mark_period(session, period).label


def _k10_and_birth_year_from(
    session: Session,
    register: _Register,
    updates: dict[int, list[object]],
    listed: dict[str, set[int]],
) -> dt.date | None:
    """The first day of the oldest rated period whose K the new K=10 flags and birth years
    alter (see :func:`_mark`), or None. One query per 500 players concerned."""
    k10: set[tuple[int, str]] = set()
    born: dict[int, tuple[object, object]] = {}
    for pid, new in updates.items():
        old = register.values[pid]
        for tc, (entry, flag) in _K10_INDEXES.items():
            if pid in listed[tc] and old[flag] != new[flag]:
                before = rules.flags_after(bool(old[flag]), False, _rating(old[entry])).k10
                after = rules.flags_after(bool(new[flag]), False, _rating(new[entry])).k10
                if before != after:
                    k10.add((pid, tc))
        if pid in listed["standard"] and old[_BIRTH_YEAR] != new[_BIRTH_YEAR]:
            born[pid] = (old[_BIRTH_YEAR], new[_BIRTH_YEAR])
    pids = sorted({pid for pid, _tc in k10} | set(born))
    if not pids:
        return None
    first: dict[tuple[int, str], dt.date] = {}
    for at in range(0, len(pids), _IDS_A_QUERY):
        marks = ", ".join(str(int(pid)) for pid in pids[at : at + _IDS_A_QUERY])
        for pid, tc, day in fetch_all(
            session,
            "SELECT h.player_id, h.time_control, min(rp.start_date) FROM rating_history h "
            "JOIN rating_periods rp ON rp.id = h.period_id "
            f"WHERE h.player_id IN ({marks}) GROUP BY h.player_id, h.time_control",
        ):
            first[pid, tc] = to_date(day)
    found = [first[key] for key in k10 if key in first]
    if born:
        periods = [
            (to_date(start), to_date(end))
            for start, end in fetch_all(
                session, "SELECT start_date, list_date FROM rating_periods ORDER BY start_date"
            )
        ]
        for pid, (old_year, new_year) in born.items():
            listed_from = min((d for (p, _tc), d in first.items() if p == pid), default=None)
            if listed_from is None:
                continue
            for start, list_day in periods:
                if start >= listed_from and any(
                    _junior(old_year, year) != _junior(new_year, year)
                    for year in (start.year, list_day.year)
                ):
                    found.append(start)
                    break
    return min(found, default=None)


def _fide_inactive_from(
    session: Session,
    register: _Register,
    updates: dict[int, list[object]],
    listed: dict[str, set[int]],
) -> dt.date | None:
    """The first day of the oldest rated period whose list FIDE's new inactive flags change
    (see :func:`_mark`), or None."""
    pids = sorted(
        pid
        for pid, new in updates.items()
        if pid in listed["standard"]
        and register.values[pid][_INACTIVE] is None
        and new[_INACTIVE] is not None
    )
    if not pids:
        return None
    flagged = updates[pids[0]][_INACTIVE]  # this list's date, the same for every player
    assert isinstance(flagged, dt.date)
    first = session.scalar(
        sa.select(RatingPeriod.id)
        .where(RatingPeriod.list_date >= flagged)
        .order_by(RatingPeriod.start_date)
        .limit(1)
    )
    if first is None:
        return None  # every rated list is older than FIDE's
    found: list[dt.date] = []
    for at in range(0, len(pids), _IDS_A_QUERY):
        marks = ", ".join(str(int(pid)) for pid in pids[at : at + _IDS_A_QUERY])
        # the first list here dated on or after FIDE's, or the player's first list if later
        for day, rating, games, inactive in fetch_all(
            session,
            "SELECT rp.start_date, h.rating_after, h.period_games, h.inactive "
            "FROM rating_history h JOIN rating_periods rp ON rp.id = h.period_id "
            "WHERE h.time_control = 'standard' AND h.player_id IN ("
            f"{marks}) AND rp.start_date = (SELECT min(rp2.start_date) FROM rating_history h2 "
            "JOIN rating_periods rp2 ON rp2.id = h2.period_id WHERE h2.player_id = h.player_id "
            "AND h2.time_control = 'standard' AND rp2.start_date >= (SELECT start_date FROM "
            f"rating_periods WHERE id = {int(first)}))",
        ):
            if rating is not None and games == 0 and not inactive:
                found.append(to_date(day))
    return min(found, default=None)


_IDS_A_QUERY = 500
"""Player ids listed in one ``IN (...)`` of :func:`_k10_and_birth_year_from`."""


def _rating(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _junior(birth_year: object, list_year: int) -> bool:
    """Whether a player born in ``birth_year`` has the junior K on a list of ``list_year``
    (art. 8.3.3, before the 2300 rule: the rating decides that the same way for both years)."""
    return isinstance(birth_year, int) and list_year - birth_year <= rules.JUNIOR_MAX_AGE
