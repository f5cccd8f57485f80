"""Importing a players CSV (README.md#csv-formats): new players, and with ``--update`` the
register refreshed, all rows or none.

Its rows go through the one pipeline's pieces (:mod:`ratings.service.imports.pipeline`): the
administrator's decisions, the one matcher, the questions and when they stop the import,
the aliases kept, the report of who was taken for whom. What is its own is the row's
decision, as a register sheet needs it: a row's ``id`` column names its player; without
``--update`` a registered player (by FIDE id or name) is refused, not taken, and a namesake
must be told apart; with ``--update`` a difference the register got by a logged correction
since the sheet was made tells no one apart, and a FIDE id finds its player as in a TRF or
PGN file: beside a name that contradicts it an error, beside another birth year, sex or
given name a question (the row may rename him only where the names share a word).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import names
from ratings.errors import InputFileError, InvalidInputError
from ratings.io.csv import PlayerRow
from ratings.io.notes import FileWarning
from ratings.matching import Facts, Kind, Match, is_sure_by_fide_id
from ratings.models import Player
from ratings.service.imports.incoming import same_person_name
from ratings.service.imports.pipeline import decision_text, stop
from ratings.service.imports.report import WHY, Outcome, matching_of
from ratings.service.imports.storing import (
    ImportReport,
    check_not_imported,
    earlier_import,
    line_errors,
    record_import,
)
from ratings.service.imports.updates import (
    EVIDENCE_FIELDS,
    Corrected,
    apply_updates,
    dates_differ,
    sheet_values,
    would_change,
)
from ratings.service.rating.marks import first_rated_start, joining_list, mark_from_first_listing
from ratings.service.register.identity import (
    Decisions,
    Identities,
    Question,
    load_identities,
    own_name_holders,
    screen_aliases,
    store_aliases,
)
from ratings.service.register.lookup import merged_record
from ratings.service.register.players import ENTRY_FIELDS, told_apart
from ratings.service.shared.dates import future_birth_problem
from ratings.service.shared.sql import bulk_insert, date_param


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
        self.corrected = Corrected(session) if update else None
        self.errors: list[InputFileError] = []
        self.questions: list[Question] = []
        self.warnings: list[FileWarning] = []
        self.matched: dict[int, tuple[PlayerRow, int]] = {}  # player id -> (row, line)
        self.new: list[PlayerRow] = []
        self.new_keys: dict[str, list[PlayerRow]] = {}
        self.aliases: list[tuple[str, int | PlayerRow, str, Facts]] = []
        self.outcomes: list[Outcome] = []
        """How each row was sorted (a new row's player: the placeholder minus its line)."""
        self.names: dict[int, str] = dict(self.identities.names)
        self.hint = "" if update else "; 'import players --update' refreshes registered players"
        self.live = set(self.identities.names)
        self.births_of = _births(session)
        self.by_key: dict[str, list[int]] = {}
        for pid, registered_name in self.identities.names.items():
            self.by_key.setdefault(names.key_of_stored(registered_name), []).append(pid)

    def took(self, row: PlayerRow, pid: int, how: str, why: str = "", source: str = "") -> None:
        """Say how a row was sorted (who it was taken for, and why)."""
        self.outcomes.append(Outcome(row.line, row.name, pid, how, why, source))

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
        how = ("id", "", "")
        if target is None and row.fide_id is not None and row.fide_id in self.register.by_fide:
            target = self.register.by_fide[row.fide_id]
            how = ("fide_id", "", "")
            if not self.update:
                raise self.refuse(row, f"already belongs to player {self.label(target)}: "
                                  f"{row.fide_id}{self.hint}", "fide_id")  # fmt: skip
            if not self._by_fide_id(row, key, target, decided):
                self._new_player(replace(row, fide_id=None, given=row.given - {"fide_id"}),
                                 key, True)  # fmt: skip
                return
            if decided is not None:
                how = ("match", WHY[decided[0]], decided[0])
        if target is None and decided is not None and decided[1] is not None:
            target = decided[1]
            self.aliases.append((row.name, target, decided[0], _row_facts(row)))
            how = ("match", WHY[decided[0]], decided[0])
        is_new_decision = decided is not None and decided[1] is None
        if target is None and not is_new_decision:
            target, how = self._by_matcher(row, key)
        if target is not None:
            if target in self.matched:
                raise self.refuse(row, f"player {self.label(target)} is updated by line "
                                  f"{self.matched[target][1]} too", "name")  # fmt: skip
            self.matched[target] = (row, row.line)
            self.took(row, target, *how)
            return
        self._new_player(row, key, is_new_decision)

    def _by_fide_id(
        self, row: PlayerRow, key: str, pid: int, decided: tuple[str, int | None, str] | None
    ) -> bool:
        """Whether a row whose FIDE id is player ``pid``'s (``--update``) is him, as a TRF or
        PGN file's player is (:meth:`ratings.service.imports.pipeline.Resolver._by_fide_id`):
        another registered player's name, or one with no word in common with his (unless a
        correction since the sheet was made replaced it), is an error; another birth year,
        sex or given name a question, until ``--match`` says it is him or ``--new`` another
        person (False: a new player, without the FIDE id)."""
        registered = names.key_of_stored(self.register.facts[pid].name)
        assert self.corrected is not None
        if self.corrected.since(pid, "name", row.name) is not None:
            registered = key  # his name before a correction since the sheet was made
        others: list[int] = []
        if key != registered:
            others = [p for p in self.by_key.get(key, []) if p != pid]
            holders = [h for h, _ in own_name_holders(self.identities, row.name)]
            if not others and holders and pid not in holders:
                others = holders
        if others or not same_person_name(key, registered):
            named = "".join(f"; {row.name!r} is player {self.label(p)}" for p in others)
            rename = "" if others else f", or give the row id {pid} to rename the player"
            raise self.refuse(row, f"{row.name!r} does not match FIDE id {row.fide_id}, which "
                              f"belongs to player {self.label(pid)}{named}; correct the "
                              f"file{rename}", "fide_id")  # fmt: skip
        found = self.register.fide_candidate(_row_facts(row), self._excused(row))
        if found is not None and not is_sure_by_fide_id(found):
            if decided is None:
                self.questions.append(
                    self.identities.question(row.line, _row_facts(row), Match(None, (found,)))
                )
                self.took(row, -row.line, "ask")
                self.names[-row.line] = row.name
                raise _Refused()
            if decided[1] is None:  # another person: the FIDE id is not his
                problem = (
                    f"{row.name!r} is created without FIDE id {row.fide_id}, which belongs to "
                    f"player {self.label(pid)} ({decision_text(decided)})"
                )
                self.warnings.append(FileWarning(self.file_name, row.line, problem, "fide_id"))
                return False
        if decided is not None and decided[1] != pid:
            raise self.refuse(row, f"{row.name!r} has FIDE id {row.fide_id}, which belongs to "
                              f"player {self.label(pid)}; the decision for it "
                              f"({decision_text(decided)}) contradicts it", "fide_id")  # fmt: skip
        return True

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
            if field == "given name":  # beside a FIDE id: the name corrected since
                return corrected.since(pid, "name", row.name) is not None
            return any(
                corrected.since(pid, db_field, value) is not None
                for db_field, value in zip(
                    EVIDENCE_FIELDS[field],
                    sheet_values(row, EVIDENCE_FIELDS[field]),
                    strict=True,
                )
            )

        return excused

    def _by_matcher(self, row: PlayerRow, key: str) -> tuple[int | None, tuple[str, str, str]]:
        """The player the matcher is sure of (``--update``), with how, why and no decision;
        None for a new one; refused when the name is registered (without ``--update``) or
        the matcher is not sure."""
        found = self.register.match(
            _row_facts(row), excused=self._excused(row) if self.update else None
        )
        certain = found.certain
        if (
            certain is not None
            and self.update
            and dates_differ(row, certain.player_id, self.births_of, self.corrected)
        ):
            certain = None  # the same year, another day, not a correction: a question
        same = [c.player_id for c in found.candidates if c.kind in (Kind.FOLDED, Kind.ALIAS)]
        if self.update and certain is not None:
            target = certain.player_id
            if names.key_of_stored(self.register.facts[target].name) == key:
                return target, ("name", "", "")
            if certain.kind is Kind.ALIAS:
                return target, ("alias", f"alias {certain.spelling!r}", "")
            return target, ("folded", WHY["folded"], "")
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
            self.took(row, -row.line, "ask")
            self.names[-row.line] = row.name
            raise _Refused()
        return None, ("new", "", "")

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
        self.names[-row.line] = row.name
        self.took(row, -row.line, "new", "", "new" if is_new_decision else "")
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
    dry_run: bool = False,
) -> ImportReport:
    """Register the players of a players CSV, all of them or none (README.md#csv-formats).

    Without ``update`` every row must be a new player: a row whose id, FIDE id or name is
    registered (the name folded, :mod:`ratings.matching`: ``Novak, Jiri`` is ``Novák,
    Jiří``) is an error; a name close to registered ones (initials, a typo) is a question,
    until ``--new NAME`` says it is a new player.

    With ``update`` (a monthly register refresh, or a register exported with ``player list
    --format csv`` and edited) a row finds its player by ``id``, else by FIDE id, else by
    the administrator's decision (``--match``), else through the matcher: a FIDE id beside
    a name with no word in common with its player's, or beside another registered player's
    name, is an error naming both; beside another birth year, sex or given name it is a
    question naming both (``--new`` creates the row's player without it, with a warning),
    as in a TRF or PGN file (:mod:`ratings.matching`, rule 1). The matcher finds the one player
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

    :param dry_run: the caller rolls back: the rows that need a decision are in the report
        (:attr:`ImportReport.matching`), not raised, and then nothing is stored.
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
    errors = list(sheet.errors)
    if today is not None:
        errors += _future_births(rows, file_name, today)
    stop(file_name, decisions, sheet.questions, errors, dry_run=dry_run, creates=not update)
    if sheet.questions:  # a dry run's (else raised): nothing to store
        return ImportReport(
            file_name,
            players_created=len(sheet.new),
            players_unchanged=len(sheet.matched),
            warnings=tuple(sheet.warnings),
            matching=matching_of(sheet.outcomes, sheet.names, questions=sheet.questions),
            dry_run=True,
        )

    if (
        earlier is not None
        and not sheet.new
        and not would_change(session, sheet.matched, sheet.corrected, take_sheet)
    ):
        return ImportReport(
            file_name,
            players_unchanged=len(sheet.matched),
            same_as_import=earlier,
            matching=matching_of(sheet.outcomes, sheet.names),
            dry_run=dry_run,
        )
    return _store_sheet(
        session, sheet, file_name, data_hash, len(rows), earlier,
        take_sheet=take_sheet, dry_run=dry_run,
    )  # fmt: skip


def _store_sheet(
    session: Session,
    sheet: _Sheet,
    file_name: str,
    data_hash: str,
    rows: int,
    earlier: int | None,
    *,
    take_sheet: bool,
    dry_run: bool,
) -> ImportReport:
    """Store what a sorted sheet of ``rows`` rows gave, under the ``earlier`` import of the
    same bytes if any (else a new one): its new players and their aliases, its registered
    players' changes (logged), the rated periods the entry data it changed re-rates."""
    import_id = earlier
    if import_id is None:
        import_id = record_import(session, "players_csv", file_name, data_hash, rows)
    created, stored, unkept = _store_new(
        session, import_id, sheet.new, sheet.aliases, sheet.identities
    )
    changes = apply_updates(
        session,
        sheet.matched,
        import_id,
        file_name,
        sheet.allow_same_name,
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
        warnings=tuple(sheet.warnings),
        matching=matching_of(
            sheet.outcomes,
            sheet.names,
            created={-line: pid for line, pid in created.items()},
            aliases=[
                (name, pid, sheet.names.get(pid) or _new_name(sheet.new, created, pid))
                for name, pid in stored
            ],
            unkept=unkept,
        ),
        same_as_import=earlier,
        dry_run=dry_run,
    )


def _new_name(new: Sequence[PlayerRow], created: dict[int, int], pid: int) -> str:
    """The name of a player the sheet created."""
    line = next(line for line, made in created.items() if made == pid)
    return next(row.name for row in new if row.line == line)


def _future_births(
    rows: Sequence[PlayerRow], file_name: str, today: dt.date
) -> list[InputFileError]:
    """A problem for each row whose birthdate is after ``today``."""
    return line_errors(
        file_name,
        rows,
        lambda row: future_birth_problem(row.birth_date, row.birth_year, today),
        "birthdate",
    )


def _store_new(
    session: Session,
    import_id: int,
    new: Sequence[PlayerRow],
    aliases: Sequence[tuple[str, int | PlayerRow, str, Facts]],
    identities: Identities,
) -> tuple[dict[int, int], list[tuple[str, int]], list[str]]:
    """Insert the new players of a players CSV (set-based; they join the lists from the next
    one, docs/DESIGN.md#who-is-on-a-list) and store the aliases the decisions made, a new
    player's by the id it got. Returns the ids of the new players decided by ``--new`` (by
    line), the aliases stored and the decisions not kept."""
    before = session.scalar(sa.select(sa.func.max(Player.id))) or 0
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
                    sa.select(Player.id)
                    .where(Player.import_id == import_id, Player.id > before)
                    .order_by(Player.id)
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
    stored, held = store_aliases(session, kept, import_id)
    return created, stored, unkept + held


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
