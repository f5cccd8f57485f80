"""The register: adding, editing and listing players, and the players CSV import.

Over 600 lines: add, edit and the players CSV import share the register's checks.

Merging and unmerging are :mod:`ratings.service.merge`.

Names follow :mod:`ratings.names`: stored clean (NFC, blanks collapsed; invisible and
text-reordering characters refused), matched by their key. A second live player whose name
has the key of a registered one is refused unless the two are told apart (FIDE ids or
birthdates that differ) and the caller confirms (``--allow-same-name``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, matching, names
from ratings.errors import (
    InputFileError,
    InputFileErrors,
    InvalidInputError,
    InvalidNameError,
    LimitError,
    RatingsError,
    SameNameError,
)
from ratings.io.csv import PlayerRow
from ratings.matching import Facts, Kind
from ratings.models import Correction, Game, Player
from ratings.service import audit
from ratings.service.common import (
    bulk_insert,
    date_param,
    describe,
    first_rated_start,
    get_player,
    joining_list,
    mark_from_first_listing,
    merged_record,
)
from ratings.service.dates import future_birth_problem
from ratings.service.identity import (
    SHOWN_CANDIDATES,
    Decisions,
    Identities,
    MatchQuestionsError,
    Question,
    load_identities,
    screen_aliases,
    store_aliases,
)
from ratings.service.storing import (
    WHY,
    ImportReport,
    PlayerChange,
    Taken,
    check_not_imported,
    earlier_import,
    record_import,
)


@dataclass(frozen=True, slots=True)
class Birth:
    """A birthdate given as a full date or as a year only."""

    date: dt.date | None
    year: int | None

    @classmethod
    def from_string(cls, text: str | None) -> Birth:
        """Parse ``YYYY-MM-DD`` or ``YYYY`` (ASCII digits only); blank means unknown."""
        if text is None or not text.strip():
            return cls(None, None)
        value = text.strip()
        if re.fullmatch(r"[0-9]{4}", value):
            year = int(value)
            _check_year(year, text)
            return cls(None, year)
        try:
            day = (
                dt.date.fromisoformat(value)
                if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value)
                else None
            )
        except ValueError:
            day = None
        if day is None:
            raise InvalidInputError(f"birthdate must be YYYY-MM-DD or YYYY: {text!r}")
        _check_year(day.year, text)
        return cls(day, day.year)

    def not_after(self, today: dt.date) -> Birth:
        """This birthdate, refused if it is after ``today``.

        :raises InvalidInputError: ``birthdate 2099-05-01 is after today (...)``.
        """
        problem = future_birth_problem(self.date, self.year, today)
        if problem:
            raise InvalidInputError(problem)
        return self


def _check_year(year: int, text: str) -> None:
    if not limits.MIN_BIRTH_YEAR <= year <= limits.MAX_BIRTH_YEAR:
        raise InvalidInputError(
            f"birth year out of range {limits.MIN_BIRTH_YEAR}-{limits.MAX_BIRTH_YEAR}: {text!r}"
        )


def _check_entry(rating: int | None, games: int | None, fide_id: int | None) -> None:
    """The limits of :mod:`ratings.limits` on entry data given as numbers."""
    field = ""
    try:
        if rating is not None:
            field = "rating"
            limits.check_range(rating, limits.MIN_RATING, limits.MAX_RATING)
        if games is not None:
            field = "games"
            limits.check_range(games, 0, limits.MAX_GAMES)
        if fide_id is not None:
            field = "fide id"
            limits.check_fide_id(fide_id)
    except LimitError as exc:
        raise LimitError(f"{field}: {exc}") from None


def clean_name(name: str) -> str:
    """A player's name as stored (:func:`ratings.names.clean_name`: NFC, blanks collapsed;
    control, invisible and text-reordering characters refused), at most
    :data:`ratings.limits.MAX_NAME_LENGTH` characters.

    :raises InvalidNameError: for a blank name or a character no name may hold (a
        :class:`LimitError` for a name that is too long).
    """
    if not name.split():
        raise InvalidNameError(f"a player needs a name: {name!r}")
    try:
        cleaned = names.clean_name(name)
    except InvalidNameError as exc:
        raise InvalidNameError(f"not a usable name: {exc}") from None
    problem = limits.too_long(cleaned, limits.MAX_NAME_LENGTH)
    if problem is not None:
        raise LimitError(f"name: {problem}")
    return cleaned


def birth_of(player: Player | Birth) -> tuple[dt.date | None, int | None]:
    """A player's (or a given birth's) full date and year."""
    if isinstance(player, Birth):
        return player.date, player.year
    return player.birth_date, player.birth_year


def told_apart(
    a_fide: int | None,
    a_birth: tuple[dt.date | None, int | None],
    b_fide: int | None,
    b_birth: tuple[dt.date | None, int | None],
) -> bool:
    """Whether two records of one name are shown to be two people: both have FIDE ids and
    they differ, or both have birth data and it differs (full dates when both have one,
    else the years)."""
    if a_fide is not None and b_fide is not None and a_fide != b_fide:
        return True
    (a_date, a_year), (b_date, b_year) = a_birth, b_birth
    if a_date is not None and b_date is not None:
        return a_date != b_date
    return a_year is not None and b_year is not None and a_year != b_year


def same_name_problem(
    name: str,
    namesakes: Sequence[Player],
    fide_id: int | None,
    birth: tuple[dt.date | None, int | None],
    *,
    allow_same_name: bool,
) -> str | None:
    """Why a player of this name cannot be registered beside ``namesakes`` (the live players
    whose name has the same key), or None: each must be told apart (:func:`told_apart`), and
    the caller must confirm (``--allow-same-name``)."""
    if not namesakes:
        return None
    listed = ", ".join(describe(p) for p in namesakes)
    alike = [p for p in namesakes if not told_apart(fide_id, birth, p.fide_id, birth_of(p))]
    if alike:
        return (
            f"{name!r} is already registered: {listed}; a second player of that name needs "
            "a FIDE id or birthdate that tells them apart, and --allow-same-name"
        )
    if not allow_same_name:
        return (
            f"{name!r} is already registered: {listed}; if this is another person, "
            "confirm with --allow-same-name"
        )
    return None


def _namesakes(
    session: Session, name: str, exclude: int | None = None
) -> tuple[list[Player], list[tuple[Player, matching.Kind]]]:
    """The live players (``exclude`` apart) a player named ``name`` would be registered
    beside, as the imports' matcher sees them (:mod:`ratings.matching`): those whose name has
    the same key, folds alike (accents, the order of the words: ``Jiri Novak`` is ``Novák,
    Jiří``) or is one of their aliases; and, when there is none, those of a close name
    (initials, a missing word, a typo), best first, with how each is close."""
    key = names.key_of_stored(name)
    same_key = sa.select(Player.id).where(Player.merged_into_id.is_(None), Player.name_key == key)
    ids = set(session.scalars(same_key))
    identities = load_identities(session)
    near: dict[int, matching.Kind] = {}  # best first: the first kind found of each
    for c in identities.match(Facts(name)).candidates:
        if not identities.register.registered.get(c.player_id, True):
            continue
        if c.kind in (Kind.FOLDED, Kind.ALIAS):
            ids.add(c.player_id)
        elif c.kind is not Kind.FIDE_ID:
            near.setdefault(c.player_id, c.kind)
    if exclude is not None:
        ids.discard(exclude)
    close = [(pid, kind) for pid, kind in near.items() if pid != exclude and pid not in ids]
    close = close[:SHOWN_CANDIDATES]
    wanted = ids | {pid for pid, _ in close}
    if not wanted:
        return [], []
    by_id = {p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(wanted)))}
    return [by_id[pid] for pid in sorted(ids)], [(by_id[pid], kind) for pid, kind in close]


def _check_same_name(
    session: Session,
    name: str,
    fide_id: int | None,
    birth: tuple[dt.date | None, int | None],
    *,
    allow_same_name: bool,
    exclude: int | None = None,
) -> list[tuple[Player, matching.Kind]]:
    """Refuse a name that is a registered player's (see :func:`same_name_problem`); return
    the players of close names, for a warning."""
    same, near = _namesakes(session, name, exclude)
    problem = same_name_problem(name, same, fide_id, birth, allow_same_name=allow_same_name)
    if problem is not None:
        raise SameNameError(problem)
    return near


def close_name_warnings(
    name: str, player_id: int, near: Sequence[tuple[Player, matching.Kind]]
) -> list[str]:
    """What to say of a player registered beside players of close names."""
    return [
        f"{name!r} is close to registered player {describe(p)}: {kind.value}; if they are "
        f"one person, 'ratings player merge {p.id} {player_id}' joins them"
        for p, kind in near
    ]


def _clean_code(value: str | None, parse: Callable[[str], str], field: str) -> str | None:
    """A federation or title: blank is None, else ``parse`` (:mod:`ratings.limits`)."""
    if value is None or not value.strip():
        return None
    try:
        return parse(value.strip())
    except LimitError as exc:
        raise LimitError(f"{field}: {exc}") from None


def _clean_sex(value: str | None) -> str | None:
    if value is None or not value.strip():
        return None
    sex = {"m": "m", "f": "f", "w": "f"}.get(value.strip().lower())
    if sex is None:
        raise InvalidInputError(f"sex must be m or f: {value!r}")
    return sex


def _check_fide_id_free(session: Session, fide_id: int | None, player_id: int | None) -> None:
    if fide_id is None:
        return
    other = session.scalar(sa.select(Player).where(Player.fide_id == fide_id))
    if other is not None and other.id != player_id:
        raise InvalidInputError(
            f"fide id {fide_id} already belongs to {other.name} (id {other.id})"
        )


def add_player(
    session: Session,
    name: str,
    *,
    birth: Birth | None = None,
    fide_id: int | None = None,
    rating: int | None = None,
    games: int | None = None,
    k10: bool = False,
    sex: str | None = None,
    federation: str | None = None,
    title: str | None = None,
    allow_same_name: bool = False,
    rapid_rating: int | None = None,
    rapid_games: int | None = None,
    blitz_rating: int | None = None,
    blitz_games: int | None = None,
    warnings: list[str] | None = None,
) -> Player:
    """Register a player. ``rating`` is the published rating the player brings, ``games``
    the rated games completed before; both count as published data (docs/RULES.md#k-factor-art-833).
    The ``rapid_`` and ``blitz_`` ones are the same on those lists (issue 15).

    :raises InvalidNameError: for a name no player may have (:func:`clean_name`).
    :param warnings: receives a line for each registered player of a close name (initials,
        a missing word, a typo: :mod:`ratings.matching`), who may be the same person.
    :raises SameNameError: when a live player has a name with the same key, or one that
        folds alike or is their alias (:func:`_namesakes`), unless the new player is told
        apart from each (FIDE id or birthdate) and ``allow_same_name``.
    """
    cleaned = clean_name(name)
    _check_entry(rating, games, fide_id)
    _check_entry(rapid_rating, rapid_games, None)
    _check_entry(blitz_rating, blitz_games, None)
    _check_fide_id_free(session, fide_id, None)
    birth = birth or Birth(None, None)
    near = _check_same_name(
        session, cleaned, fide_id, birth_of(birth), allow_same_name=allow_same_name
    )
    player = Player(
        name=cleaned,
        name_key=names.key_of_stored(cleaned),
        birth_date=birth.date,
        birth_year=birth.year,
        fide_id=fide_id,
        entry_rating=rating,
        entry_games=games,
        k10=k10,
        rapid_entry_rating=rapid_rating,
        rapid_entry_games=rapid_games,
        blitz_entry_rating=blitz_rating,
        blitz_entry_games=blitz_games,
        sex=_clean_sex(sex),
        federation=_clean_code(federation, limits.federation, "federation"),
        title=_clean_code(title, limits.title, "title"),
        listed_from=joining_list(session),
    )
    session.add(player)
    session.flush()
    if warnings is not None:
        warnings += close_name_warnings(cleaned, player.id, near)
    return player


_UNSET: object = object()
ENTRY_FIELDS = frozenset({
    "birth_date", "birth_year", "entry_rating", "entry_games", "k10",
    "rapid_entry_rating", "rapid_entry_games", "blitz_entry_rating", "blitz_entry_games",
})  # fmt: skip
"""Fields that feed the player's K and base rating on the lists: a change re-rates from the
first period that lists the player (:func:`entry_lists`)."""


def entry_lists(fields: Iterable[str | None]) -> tuple[str, ...] | None:
    """The lists whose rows these changed fields of a player feed: ``()`` for every list
    (birth data: K on every list; the standard entry data also seeds the rapid and blitz
    lists, R&B art. 7.2.1), the rapid or blitz list for theirs; None when none does."""
    found = {f for f in fields if f is not None} & ENTRY_FIELDS
    if not found:
        return None
    if any(not f.startswith(("rapid_", "blitz_")) for f in found):
        return ()
    return tuple(sorted({f.split("_", 1)[0] for f in found}))


def edit_player(
    session: Session,
    ref: str | Player,
    *,
    name: str | None = None,
    birth: Birth | None = None,
    fide_id: int | object | None = _UNSET,
    rating: int | object | None = _UNSET,
    games: int | None = None,
    k10: bool | None = None,
    sex: str | None = None,
    federation: str | None = None,
    title: str | None = None,
    allow_same_name: bool = False,
    reason: str | None = None,
    import_id: int | None = None,
    rapid_rating: int | object | None = _UNSET,
    rapid_games: int | None = None,
    blitz_rating: int | object | None = _UNSET,
    blitz_games: int | None = None,
) -> tuple[Player, list[str]]:
    """Change a player's data; returns the player and the names of the fields changed.

    Every change is written to the corrections log (``player_edit``, with ``reason``, and
    ``import_id`` for ``import players --update``). A change to birth data, entry rating,
    entry games or the K=10 flag marks the oldest rated period for re-rating (these feed
    every period's K and base rating).

    :param ref: a PLAYER argument, or the player itself.
    :raises SameNameError: for a new name that another live player has (see
        :func:`add_player`).
    """
    player = get_player(session, ref) if isinstance(ref, str) else ref
    audit.check_reason(reason)
    changes: list[audit.Change] = []

    def put(field: str, value: object) -> None:
        old = getattr(player, field)
        if old != value:
            setattr(player, field, value)
            changes.append(
                audit.Change(
                    player_id=player.id, import_id=import_id, field=field, old=old, new=value
                )
            )

    new_name = clean_name(name) if name is not None else None
    if birth is not None:
        put("birth_date", birth.date)
        put("birth_year", birth.year)
    if fide_id is not _UNSET:
        assert fide_id is None or isinstance(fide_id, int)
        _check_entry(None, None, fide_id)
        _check_fide_id_free(session, fide_id, player.id)
        put("fide_id", fide_id)
    if new_name is not None and names.key_of_stored(new_name) != player.name_key:
        _check_same_name(
            session,
            new_name,
            player.fide_id,
            birth_of(player),
            allow_same_name=allow_same_name,
            exclude=player.id,
        )
    if new_name is not None:
        put("name", new_name)
        player.name_key = names.key_of_stored(new_name)
    if rating is not _UNSET:
        assert rating is None or isinstance(rating, int)
        _check_entry(rating, None, None)
        put("entry_rating", rating)
    if games is not None:
        _check_entry(None, games, None)
        put("entry_games", games)
    if k10 is not None:
        put("k10", k10)
    for tc, list_rating, list_games in (
        ("rapid", rapid_rating, rapid_games),
        ("blitz", blitz_rating, blitz_games),
    ):
        if list_rating is not _UNSET:
            assert list_rating is None or isinstance(list_rating, int)
            _check_entry(list_rating, None, None)
            put(f"{tc}_entry_rating", list_rating)
        if list_games is not None:
            _check_entry(None, list_games, None)
            put(f"{tc}_entry_games", list_games)
    if sex is not None:
        put("sex", _clean_sex(sex))
    if federation is not None:
        put("federation", _clean_code(federation, limits.federation, "federation"))
    if title is not None:
        put("title", _clean_code(title, limits.title, "title"))
    changed = [c.field for c in changes if c.field is not None]
    if changes:
        audit.record(session, audit.Action.PLAYER_EDIT, *changes, reason=reason)
    lists = entry_lists(changed)
    if lists is not None:
        session.flush()
        mark_from_first_listing(session, [player.id], lists or None)
    session.flush()
    return player, changed


def list_players(session: Session, *, search: str | None = None) -> list[Player]:
    """The register, sorted by the folded name (:func:`ratings.matching.sort_key`: ``Öberg``
    among the O's), merged-away records left out.

    :param search: only names that hold this text, as it is (any case, any normal form:
        ``%`` finds ``100% Fun``) or folded (:func:`ratings.matching.fold`): every word of
        it in the folded name, so ``novak`` and ``jiri novak`` find ``Novák, Jiří``, ``ber``
        finds ``Öberg, Åsa`` and ``Berg, Bo``, ``mueller`` finds ``Müller, Jan``.
    """
    players = list(session.scalars(sa.select(Player).where(Player.merged_into_id.is_(None))))
    if search is not None:
        key = names.key_of_stored(search)
        words = matching.fold(search).words
        players = [p for p in players if key in p.name_key or _holds(p.name, words)]
    return sorted(players, key=lambda p: (matching.sort_key(p.name), p.name_key, p.id))


def _holds(name: str, words: Sequence[str]) -> bool:
    """Every word of a search in one of the name's folded forms (plain, or with ``ue`` for
    ``ü``...), as written."""
    if not words:
        return False
    folded = matching.fold(name)
    texts = [" ".join(folded.words), *(" ".join(form) for form in folded.forms[1:])]
    return any(all(word in text for word in words) for text in texts)


def count_games(session: Session, player_id: int) -> int:
    """How many stored games (rated or not) a player has."""
    return (
        session.scalar(
            sa.select(sa.func.count())
            .select_from(Game)
            .where(sa.or_(Game.white_id == player_id, Game.black_id == player_id))
        )
        or 0
    )


# --- the players CSV: new players, and with --update the register refreshed ----------------

_CSV_FIELDS: tuple[tuple[str, str], ...] = (
    ("name", "name"),
    ("fide_id", "fide_id"),
    ("rating", "entry_rating"),
    ("games", "entry_games"),
    ("k10", "k10"),
    ("rapid_rating", "rapid_entry_rating"),
    ("rapid_games", "rapid_entry_games"),
    ("blitz_rating", "blitz_entry_rating"),
    ("blitz_games", "blitz_entry_games"),
    ("sex", "sex"),
    ("federation", "federation"),
    ("title", "title"),
)
"""(CSV column, player field) that ``--update`` compares, birth data apart."""


def _row_values(row: PlayerRow) -> dict[str, object]:
    """The player fields a row gives (its non-blank columns), as stored."""
    values: dict[str, object] = {
        field: getattr(row, column) for column, field in _CSV_FIELDS if column in row.given
    }
    if "birthdate" in row.given:
        values["birth_date"], values["birth_year"] = row.birth_date, row.birth_year
    if values.get("title") is not None:
        values["title"] = str(values["title"]).upper()
    return values


_EVIDENCE_FIELDS = {
    "birth year": ("birth_year", "birth_date"),
    "sex": ("sex",),
    "federation": ("federation",),
}
"""The matcher's evidence (:mod:`ratings.matching`, rule 5) and the register's fields."""


class _Corrected:
    """The register's values corrected since a sheet was made: the ``player_edit`` lines of
    the corrections log, by player and field, with the value each replaced."""

    def __init__(self, session: Session, player_ids: Sequence[int] | None = None) -> None:
        self.lines: dict[tuple[int, str], list[tuple[str | None, int]]] = {}
        query = sa.select(
            Correction.player_id, Correction.field, Correction.old_value, Correction.batch
        ).where(Correction.action == audit.Action.PLAYER_EDIT.value)
        for pid, field, old, batch in session.execute(query.order_by(Correction.id)):
            if pid is not None and field is not None:
                self.lines.setdefault((pid, field), []).append((old, batch))

    def since(self, player_id: int, field: str, sheet_value: object) -> int | None:
        """The batch of the correction that replaced the sheet's value of ``field`` (the
        sheet was made before it), or None."""
        text = audit.as_text(sheet_value)
        for old, batch in reversed(self.lines.get((player_id, field), [])):
            if old == text:
                return batch
        return None


def _row_facts(row: PlayerRow) -> Facts:
    return Facts(row.name, row.fide_id, row.birth_year, row.sex, row.federation)


class _Refused(Exception):
    """A row of the sheet that goes no further: its error or question is recorded."""


class _Sheet:
    """:func:`import_players`' reading of a players sheet, row by row: each row a registered
    player's update (:attr:`matched`), a new player (:attr:`new`), a question for the
    administrator (:attr:`questions`) or an error (:attr:`errors`)."""

    def __init__(
        self,
        session: Session,
        file_name: str,
        update: bool,
        allow_same_name: bool,
        decisions: Decisions,
    ) -> None:
        self.session, self.file_name, self.update = session, file_name, update
        self.allow_same_name, self.decisions = allow_same_name, decisions
        self.identities = load_identities(session)
        self.register = self.identities.register
        self.corrected = _Corrected(session) if update else None
        self.errors: list[InputFileError] = []
        self.questions: list[Question] = []
        self.matched: dict[int, tuple[PlayerRow, int]] = {}  # player id -> (row, line)
        self.new: list[PlayerRow] = []
        self.new_keys: dict[str, list[PlayerRow]] = {}
        self.aliases: list[tuple[str, int | PlayerRow, str, Facts]] = []
        self.counts: dict[str, int] = {}
        self.taken: list[Taken] = []
        self.hint = "" if update else "; 'import players --update' refreshes registered players"
        self.live = set(self.identities.names)
        self.births_of = _births(session)
        self.by_key: dict[str, list[int]] = {}
        for pid, registered_name in self.identities.names.items():
            self.by_key.setdefault(names.key_of_stored(registered_name), []).append(pid)

    def took(self, row: PlayerRow, pid: int, why: str) -> None:
        """Say who a row was taken for (beyond its exact name or FIDE id)."""
        self.taken.append(Taken(row.line, row.name, pid, self.identities.names[pid], why))

    def label(self, pid: int) -> str:
        """A registered player as an error names them: id, name, FIDE id, birth."""
        facts = self.register.facts[pid]
        parts = [facts.name] + ([f"FIDE {facts.fide_id}"] if facts.fide_id else [])
        day, year = self.births_of.get(pid, (None, None))
        born = day.isoformat() if day is not None else year
        parts += [f"born {born}"] if born is not None else []
        return f"{pid} ({', '.join(parts)})"

    def error(self, row: PlayerRow, problem: str, field: str) -> None:
        self.errors.append(InputFileError(self.file_name, row.line, problem, field))

    def refuse(self, row: PlayerRow, problem: str, field: str) -> _Refused:
        """Record the row's error; the row goes no further (``raise sheet.refuse(...)``)."""
        self.error(row, problem, field)
        return _Refused()

    def _not_told_apart(self, row: PlayerRow, pids: Iterable[int]) -> list[int]:
        """The registered players of ``pids`` that FIDE id and birth do not tell from the row."""
        return [
            pid for pid in pids
            if not told_apart(row.fide_id, (row.birth_date, row.birth_year),
                              self.register.facts[pid].fide_id,
                              self.births_of.get(pid, (None, None)))
        ]  # fmt: skip

    def take(self, row: PlayerRow) -> None:
        """Sort one row; :class:`_Refused` when it got an error or a question."""
        key = names.key_of_stored(row.name)
        decided = self.decisions.lookup(row.name)
        target = self._by_id(row) if row.id is not None else None
        if target is None and row.fide_id is not None and row.fide_id in self.register.by_fide:
            target = self.register.by_fide[row.fide_id]
            if not self.update:
                raise self.refuse(row, f"already belongs to player {self.label(target)}: "
                                  f"{row.fide_id}{self.hint}", "fide_id")  # fmt: skip
        if target is None and decided is not None and decided[1] is not None:
            target = decided[1]
            self.aliases.append((row.name, target, decided[0], _row_facts(row)))
            self.counts["match"] = self.counts.get("match", 0) + 1
            self.took(row, target, WHY[decided[0]])
        is_new_decision = decided is not None and decided[1] is None
        if target is None and not is_new_decision:
            target = self._by_matcher(row, key)
        if target is not None:
            if target in self.matched:
                raise self.refuse(row, f"player {self.label(target)} is updated by line "
                                  f"{self.matched[target][1]} too", "name")  # fmt: skip
            self.matched[target] = (row, row.line)
            return
        self._new_player(row, key, is_new_decision)

    def _by_id(self, row: PlayerRow) -> int:
        """The player a row's ``id`` names (``--update`` only)."""
        assert row.id is not None
        if not self.update:
            raise self.refuse(
                row, f"a row with an id is a registered player: {row.id}{self.hint}", "id"
            )
        if row.id not in self.live:
            merged = merged_record(self.session, str(row.id))
            problem = (
                f"player {row.id} was merged into {merged[1].id}; give id {merged[1].id}"
                if merged is not None
                else f"no player with id {row.id}"
            )
            raise self.refuse(row, problem, "id")
        theirs = self.register.facts[row.id].fide_id
        if row.fide_id is not None and theirs is not None and row.fide_id != theirs:
            raise self.refuse(row, f"player {self.label(row.id)} has another FIDE id: "
                              f"{row.fide_id}", "fide_id")  # fmt: skip
        return row.id

    def _excused(self, row: PlayerRow) -> Callable[[int, str], bool]:
        """The matcher's excuse for ``row``: a difference in ``field`` that the register got
        by a logged correction since the sheet was made does not tell the player apart."""
        corrected = self.corrected
        assert corrected is not None

        def excused(pid: int, field: str) -> bool:
            return any(
                corrected.since(pid, db_field, value) is not None
                for db_field, value in zip(
                    _EVIDENCE_FIELDS[field],
                    _sheet_values(row, _EVIDENCE_FIELDS[field]),
                    strict=True,
                )
            )

        return excused

    def _by_matcher(self, row: PlayerRow, key: str) -> int | None:
        """The player the matcher is sure of (``--update``), None for a new one; refused
        when the name is registered (without ``--update``) or the matcher is not sure."""
        found = self.register.match(
            _row_facts(row), excused=self._excused(row) if self.update else None
        )
        certain = found.certain
        if (
            certain is not None
            and self.update
            and _dates_differ(row, certain.player_id, self.births_of, self.corrected)
        ):
            certain = None  # the same year, another day, not a correction: a question
        same = [c.player_id for c in found.candidates if c.kind in (Kind.FOLDED, Kind.ALIAS)]
        if self.update and certain is not None:
            target = certain.player_id
            if names.key_of_stored(self.register.facts[target].name) != key:
                how = "alias" if certain.kind is Kind.ALIAS else "folded"
                self.counts[how] = self.counts.get(how, 0) + 1
                self.took(row, target, f"alias {certain.spelling!r}" if how == "alias"
                          else WHY[how])  # fmt: skip
            return target
        if not self.update and same:
            # registered already (the name folded): a namesake must be told apart
            alike = self._not_told_apart(row, same)
            if alike:
                listed = ", ".join(self.label(pid) for pid in alike)
                raise self.refuse(row, f"already registered as player {listed}: "
                                  f"{row.name!r}{self.hint}", "name")  # fmt: skip
            if not self.allow_same_name:
                listed = ", ".join(self.label(pid) for pid in same)
                raise self.refuse(row, f"{row.name!r} is already registered: {listed}; if "
                                  "this is another person, confirm with --allow-same-name",
                                  "name")  # fmt: skip
        elif (self.update or not same) and any(
            c.kind is not Kind.FIDE_ID for c in found.candidates
        ):
            self.questions.append(self.identities.question(row.line, _row_facts(row), found))
            raise _Refused()
        return None

    def _new_player(self, row: PlayerRow, key: str, is_new_decision: bool) -> None:
        """A row that is nobody registered: a new player, unless a namesake (registered or
        an earlier row) is not told apart or not confirmed."""
        namesakes = self.by_key.get(key, [])
        earlier = self.new_keys.setdefault(key, [])
        confirmed = self.allow_same_name or is_new_decision
        if namesakes or earlier:
            alike = self._not_told_apart(row, namesakes)
            listed = ", ".join(
                [self.label(pid) for pid in namesakes]
                + [f"the player of line {r.line}" for r in earlier]
            )
            if alike and self.update:
                self.error(row, f"{row.name!r} is registered as {listed}, not told apart "
                           "by FIDE id or birthdate: give the row the player's id",
                           "name")  # fmt: skip
            elif not confirmed:
                self.error(row, f"{row.name!r} is already registered: {listed}; if this is "
                           "another person, confirm with --allow-same-name", "name")  # fmt: skip
        if is_new_decision:
            self.aliases.append((row.name, row, "new", _row_facts(row)))
        earlier.append(row)
        self.new.append(row)


def import_players(
    session: Session,
    rows: Sequence[PlayerRow],
    file_name: str,
    data_hash: str,
    *,
    update: bool = False,
    allow_same_name: bool = False,
    decisions: Decisions | None = None,
    take_sheet: bool = False,
    today: dt.date | None = None,
) -> ImportReport:
    """Register the players of a players CSV, all of them or none (README.md#csv-formats).

    Without ``update`` every row must be a new player: a row whose id, FIDE id or name is
    registered (the name folded, :mod:`ratings.matching`: ``Novak, Jiri`` is ``Novák,
    Jiří``) is an error; a name close to registered ones (initials, a typo) is a question,
    until ``--new NAME`` says it is a new player.

    With ``update`` (a monthly register refresh, or a register exported with ``player list
    --format csv`` and edited) a row finds its player by ``id``, else by FIDE id, else by
    the administrator's decision (``--match``), else through the matcher: the one player
    whose name folds alike (or an alias), not told apart by FIDE id, birth year, sex or
    federation, where a difference the register got by a logged correction since the sheet
    was made does not tell them apart. The columns the row fills replace the player's values
    (a value the register got by a logged correction since the sheet was made stays, said
    so, unless ``take_sheet``: a correction is newer than the sheet), each change
    is recorded as a ``player_edit`` correction (with the import's id) and listed in
    :attr:`ImportReport.changes`; rows that find no one are added; rows the matcher is not
    sure about are questions. A change to birth data or entry data marks the rated periods
    for re-rating, as ``player edit`` does; so do new players in a rated database.

    A new player whose name has the key of a registered one (or of another row) is refused
    unless they are told apart (FIDE id or birthdate) and ``allow_same_name`` (or ``--new``
    for that row).

    The same bytes imported before are refused, except with ``update``: the sheet is read
    again, and when nothing in it changes the register, nothing is written
    (:attr:`ImportReport.same_as_import` names the earlier import; what it changes is
    recorded under that import).

    A birthdate after ``today`` (when given) is a problem of its row.

    :raises InputFileErrors: naming the line and column of every problem; nothing stored.
    :raises MatchQuestionsError: for rows that need a decision (with the other problems).
    """
    earlier = None
    if update:
        found = earlier_import(session, data_hash, file_name)
        earlier = None if found is None else found.id
    else:
        check_not_imported(session, data_hash, file_name)
    decisions = decisions or Decisions()
    if decisions.matches and not update:
        given, pid, _ = next(iter(decisions.matches.values()))
        raise InvalidInputError(
            f"--match '{given}={pid}': only 'import players --update' updates registered players"
        )
    sheet = _Sheet(session, file_name, update, allow_same_name, decisions)
    for row in rows:
        with contextlib.suppress(_Refused):  # its error or question is recorded
            sheet.take(row)
    errors = sheet.errors + [
        InputFileError(file_name, None, f"{option}: no player of that name in the file")
        for option in decisions.unused()
    ]
    if today is not None:
        errors += _future_births(rows, file_name, today)
    if sheet.questions:
        raise MatchQuestionsError(sheet.questions, file_name, errors, creates=not update)
    if errors:
        errors.sort(key=lambda e: e.line or 0)
        raise InputFileErrors(errors)

    if (
        earlier is not None
        and not sheet.new
        and not _would_change(session, sheet.matched, sheet.corrected, take_sheet)
    ):
        return ImportReport(file_name, players_unchanged=len(sheet.matched), same_as_import=earlier)
    import_id = earlier
    if import_id is None:
        import_id = record_import(session, "players_csv", file_name, data_hash, len(rows))
    stored, unkept = _store_new(session, import_id, sheet.new, sheet.aliases, sheet.identities)
    changes = _apply_updates(
        session,
        sheet.matched,
        import_id,
        file_name,
        allow_same_name,
        sheet.corrected,
        not take_sheet,
    )
    marked = None
    # new players join the lists from the next one (docs/DESIGN.md#who-is-on-a-list): only
    # the entry data of registered players re-rates, from their first listed period
    entry_changed = sorted({c.player_id for c in changes if c.field in ENTRY_FIELDS and not c.kept})
    if entry_changed and first_rated_start(session) is not None:
        session.flush()
        period = mark_from_first_listing(session, entry_changed)
        marked = period.label if period else None
    updated = len({c.player_id for c in changes if not c.kept})
    return ImportReport(
        file_name,
        players_created=len(sheet.new),
        marked_period=marked,
        players_updated=updated,
        players_unchanged=len(sheet.matched) - updated,
        changes=tuple(changes),
        matched=tuple(sorted(sheet.counts.items())),
        aliases=tuple(stored),
        unkept=tuple(unkept),
        taken=tuple(sheet.taken),
        same_as_import=earlier,
    )


def _future_births(
    rows: Sequence[PlayerRow], file_name: str, today: dt.date
) -> list[InputFileError]:
    """A problem for each row whose birthdate is after ``today``."""
    found = []
    for row in rows:
        problem = future_birth_problem(row.birth_date, row.birth_year, today)
        if problem:
            found.append(InputFileError(file_name, row.line, problem, "birthdate"))
    return found


def _would_change(
    session: Session,
    matched: dict[int, tuple[PlayerRow, int]],
    corrected: _Corrected | None,
    take_sheet: bool,
) -> bool:
    """Whether applying the matched rows would change a player (a value corrected since the
    sheet was made is kept unless ``take_sheet``)."""
    if not matched:
        return False
    players = {
        p.id: p for p in session.scalars(sa.select(Player).where(Player.id.in_(list(matched))))
    }
    for pid, (row, _) in matched.items():
        player = players[pid]
        for field, value in _row_values(row).items():
            old = getattr(player, field)
            if old == value:
                continue
            if take_sheet or corrected is None or corrected.since(pid, field, value) is None:
                if field in ("birth_date", "birth_year") and not take_sheet and corrected:
                    other = "birth_year" if field == "birth_date" else "birth_date"
                    if corrected.since(pid, other, getattr(row, other)) is not None:
                        continue  # birth data goes as one, kept with its correction
                return True
    return False


def _store_new(
    session: Session,
    import_id: int,
    new: Sequence[PlayerRow],
    aliases: Sequence[tuple[str, int | PlayerRow, str, Facts]],
    identities: Identities,
) -> tuple[list[tuple[str, int]], list[str]]:
    """Insert the new players of a players CSV (set-based; they join the lists from the next
    one, docs/DESIGN.md#who-is-on-a-list) and store the aliases the decisions made, a new
    player's by the id it got."""
    joins = joining_list(session)
    listed_from = None if joins is None else date_param(session, joins)
    bulk_insert(
        session,
        "players",
        (
            "name", "name_key", "birth_date", "birth_year", "fide_id", "entry_rating",
            "entry_games", "k10", "sex", "federation", "title", "import_id",
            "rapid_entry_rating", "rapid_entry_games", "blitz_entry_rating", "blitz_entry_games",
            "listed_from",
        ),
        (
            (
                r.name,
                names.key_of_stored(r.name),
                date_param(session, r.birth_date) if r.birth_date else None,
                r.birth_year,
                r.fide_id,
                r.rating,
                r.games,
                r.k10,
                r.sex,
                r.federation,
                r.title.upper() if r.title else None,
                import_id,
                r.rapid_rating,
                r.rapid_games,
                r.blitz_rating,
                r.blitz_games,
                listed_from,
            )
            for r in new
        ),
    )  # fmt: skip
    created: dict[int, int] = {}
    if any(isinstance(p, PlayerRow) for _, p, _, _ in aliases):
        created = {
            line: pid
            for line, pid in zip(
                (r.line for r in new),
                session.scalars(
                    sa.select(Player.id).where(Player.import_id == import_id).order_by(Player.id)
                ),
                strict=True,
            )
        }
    kept, unkept = screen_aliases(
        identities,
        [
            (n, created[p.line] if isinstance(p, PlayerRow) else p, src, said)
            for n, p, src, said in aliases
        ],
    )
    return store_aliases(session, kept, import_id), unkept


def _births(session: Session) -> dict[int, tuple[dt.date | None, int | None]]:
    """Each live player's birth data (full date, year), where known."""
    return {
        pid: (day, year)
        for pid, day, year in session.execute(
            sa.select(Player.id, Player.birth_date, Player.birth_year).where(
                Player.merged_into_id.is_(None),
                sa.or_(Player.birth_date.is_not(None), Player.birth_year.is_not(None)),
            )
        )
    }


def _sheet_values(row: PlayerRow, fields: Sequence[str]) -> list[object]:
    return [getattr(row, field) for field in fields]


def _dates_differ(
    row: PlayerRow,
    pid: int,
    births: dict[int, tuple[dt.date | None, int | None]],
    corrected: _Corrected | None,
) -> bool:
    """Both give a full birthdate, of one year, and they differ, and the register's is no
    correction of the sheet's: two people (a question), not one."""
    theirs = births.get(pid, (None, None))[0]
    if row.birth_date is None or theirs is None or row.birth_date == theirs:
        return False
    return corrected is None or corrected.since(pid, "birth_date", row.birth_date) is None


_KWARGS = {
    "entry_rating": "rating", "entry_games": "games",
    "rapid_entry_rating": "rapid_rating", "rapid_entry_games": "rapid_games",
    "blitz_entry_rating": "blitz_rating", "blitz_entry_games": "blitz_games",
}  # fmt: skip
"""edit_player's keyword for a player field the players CSV gives."""


def _apply_updates(
    session: Session,
    matched: dict[int, tuple[PlayerRow, int]],
    import_id: int,
    file_name: str,
    allow_same_name: bool,
    corrected: _Corrected | None,
    keep_corrected: bool,
) -> list[PlayerChange]:
    """Apply each matched row's values to its player (as ``player edit`` would); every
    problem is collected and raised at the end. A value the register got by a correction
    since the sheet was made is applied too (:attr:`PlayerChange.corrected` says so), or
    kept with ``keep_corrected`` (:attr:`PlayerChange.kept`)."""
    players = {
        p.id: p
        for p in session.scalars(sa.select(Player).where(Player.id.in_(list(matched))))
    } if matched else {}  # fmt: skip
    errors: list[InputFileError] = []
    changes: list[PlayerChange] = []
    for pid, (row, line) in sorted(matched.items(), key=lambda item: item[1][1]):
        player = players[pid]
        values = _row_values(row)
        before = {field: getattr(player, field) for field in values}
        if all(before[field] == value for field, value in values.items()):
            continue
        since = {
            field: batch
            for field, value in values.items()
            if before[field] != value
            and corrected is not None
            and (batch := corrected.since(pid, field, value)) is not None
        }
        if "birth_date" in since or "birth_year" in since:  # birth data goes as one
            batch = since.get("birth_date") or since["birth_year"]
            for field in ("birth_date", "birth_year"):
                if field in values and before[field] != values[field]:
                    since[field] = batch
        kept = set(since) if keep_corrected else set()
        kwargs: dict[str, Any] = {}
        if "birth_date" in values and "birth_date" not in kept and "birth_year" not in kept:
            kwargs["birth"] = Birth(row.birth_date, row.birth_year)
        for field, value in values.items():
            if field in ("birth_date", "birth_year") or before[field] == value or field in kept:
                continue
            kwargs[_KWARGS.get(field, field)] = value
        try:
            edit_player(session, player, allow_same_name=allow_same_name, import_id=import_id,
                        **kwargs)  # fmt: skip
        except RatingsError as exc:
            errors.append(InputFileError(file_name, line, str(exc)))
            continue
        for field in values:
            if field in kept:
                changes.append(PlayerChange(line, pid, player.name, field, before[field],
                                            values[field], since[field], kept=True))  # fmt: skip
            elif getattr(player, field) != before[field]:
                changes.append(PlayerChange(line, pid, player.name, field, before[field],
                                            getattr(player, field), since.get(field)))  # fmt: skip
    if errors:
        raise InputFileErrors(errors)
    return changes
