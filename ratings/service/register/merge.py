"""Merging two records of one player, and undoing a merge (``ratings player merge`` and
``unmerge``): every game, bye, alias and FIDE id moved to the player kept, each move recorded
in ``merge_moves`` and the corrections log so that an unmerge restores both players exactly.
The merged record's own name then finds the player kept in every import (as an alias does:
:mod:`ratings.service.register.identity`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import limits, names
from ratings.errors import (
    AmbiguousPlayerError,
    InvalidInputError,
    InvalidNameError,
    MergeConflictError,
    PlayerNotFoundError,
)
from ratings.models import Bye, Correction, Event, Game, Import, MergeMove, Player, PlayerAlias
from ratings.service.rating.marks import mark_from_first_listing, mark_joining, touched_period
from ratings.service.register.lookup import count_games, describe, get_player
from ratings.service.register.players import birth_of, entry_lists
from ratings.service.shared import audit

# --- merge and unmerge --------------------------------------------------------------------

_FILLED = (
    "sex", "federation", "title", "entry_rating", "rapid_entry_rating", "blitz_entry_rating",
)  # fmt: skip
"""Fields the kept player takes from the duplicate when it has none (birth data apart)."""


@dataclass(frozen=True, slots=True)
class MergePlan:
    """What merging ``remove`` into ``keep`` does, before it is done (shown for confirmation)."""

    keep: Player
    remove: Player
    games: int
    """Games that move from ``remove`` to ``keep``."""
    byes: int
    """Byes that move."""
    conflicts: tuple[str, ...]
    """Data that says they are two people (different FIDE ids or birthdates): the merge
    needs ``force``."""
    changes: tuple[tuple[str, object, object], ...]
    """(field, old, new) of ``keep``: data it takes from ``remove``."""
    aliases: tuple[str, ...] = ()
    """The aliases of ``remove`` that move to ``keep``."""

    def describe(self) -> str:
        """One paragraph for the confirmation prompt."""
        aliases = f", {_plural(len(self.aliases), 'alias')}" if self.aliases else ""
        lines = [
            f"Merge {describe(self.remove)} into {describe(self.keep)}: "
            f"{_plural(self.games, 'game')}{aliases} and {_plural(self.byes, 'bye')} move to "
            f"player {self.keep.id}"
        ]
        lines += [
            f"  {self.keep.name} (id {self.keep.id}) {field}: {_shown(old)} -> {_shown(new)}"
            for field, old, new in self.changes
        ]
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class MergeReport:
    """What a merge did."""

    keep: Player
    remove: Player
    games: int
    byes: int
    batch: int
    """Its batch in the corrections log (``player unmerge`` reads it)."""
    marked_period: str | None
    """The rated period marked for re-rating (the oldest), if any."""
    aliases: int = 0
    """Aliases moved."""


@dataclass(frozen=True, slots=True)
class UnmergeReport:
    """What an unmerge restored."""

    keep: Player
    restored: Player
    games: int
    """Game sides moved back."""
    byes: int
    skipped: tuple[str, ...]
    """What could not be restored as it was (a game voided since, a field edited since)."""
    marked_period: str | None
    aliases: int = 0
    """Aliases moved back."""
    stored_while_merged: tuple[StoredWhileMerged, ...] = ()
    """The kept player's games and byes an import stored while the two were merged (the
    merged record's name found the kept player then): left with him, to look at."""


@dataclass(frozen=True, slots=True)
class StoredWhileMerged:
    """A game or bye an import gave the kept player while the two were merged. Its file may
    have written the merged record's name (the import's report said ``taken for player
    KEEP``); the database does not keep the names a file wrote, so each one is listed."""

    what: str
    """``game 17: 2026-01-14 round 3, Ann (id 1) - Bob (id 2) 1-0`` or ``bye 4: event 2
    Cup round 3, Ann (id 1) H``."""
    import_id: int
    file_name: str


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith('s') else 's'}"


def _shown(value: object) -> str:
    text = audit.as_text(value)
    return "(none)" if text is None else text


def _birth_conflict(keep: Player, remove: Player) -> str | None:
    (kd, ky), (rd, ry) = birth_of(keep), birth_of(remove)
    if kd is not None and rd is not None and kd != rd:
        return f"different birthdates ({kd} and {rd})"
    if ky is not None and ry is not None and ky != ry:
        return f"different birth years ({ky} and {ry})"
    return None


def _merge_changes(keep: Player, remove: Player) -> list[tuple[str, object, object]]:
    """(field, old, new) of ``keep`` after taking what it lacks from ``remove``."""
    changes: list[tuple[str, object, object]] = []
    if keep.fide_id is None and remove.fide_id is not None:
        changes.append(("fide_id", None, remove.fide_id))
    if keep.birth_year is None and remove.birth_year is not None:
        changes.append(("birth_year", None, remove.birth_year))
        if remove.birth_date is not None:
            changes.append(("birth_date", None, remove.birth_date))
    elif (
        keep.birth_date is None
        and remove.birth_date is not None
        and remove.birth_date.year == keep.birth_year
    ):
        changes.append(("birth_date", None, remove.birth_date))
    for field in _FILLED:
        if getattr(keep, field) is None and getattr(remove, field) is not None:
            changes.append((field, None, getattr(remove, field)))
    if keep.listed_from is not None and (
        remove.listed_from is None or remove.listed_from < keep.listed_from
    ):  # one person: on the lists since the duplicate was (docs/DESIGN.md#who-is-on-a-list)
        changes.append(("listed_from", keep.listed_from, remove.listed_from))
    for prefix in ("", "rapid_", "blitz_"):  # each list's games and K=10 flag
        games, k10 = f"{prefix}entry_games", f"{prefix}k10"
        kept_games, removed_games = getattr(keep, games), getattr(remove, games)
        if removed_games is not None and (kept_games is None or removed_games > kept_games):
            changes.append((games, kept_games, removed_games))
        if getattr(remove, k10) and not getattr(keep, k10):
            changes.append((k10, False, True))
    return changes


def plan_merge(session: Session, keep_ref: str, remove_ref: str) -> MergePlan:
    """What :func:`merge_players` would do; changes nothing.

    :raises InvalidInputError: for a player merged into itself, or two players who played
        each other (one person cannot; void those games first).
    """
    keep = get_player(session, keep_ref)
    remove = get_player(session, remove_ref)
    if keep.id == remove.id:
        raise InvalidInputError(f"cannot merge player {keep.id} into itself")
    shared = session.scalar(
        sa.select(sa.func.count())
        .select_from(Game)
        .where(
            sa.or_(
                sa.and_(Game.white_id == keep.id, Game.black_id == remove.id),
                sa.and_(Game.white_id == remove.id, Game.black_id == keep.id),
            )
        )
    )
    if shared:
        raise InvalidInputError(
            f"{keep.name} (id {keep.id}) and {remove.name} (id {remove.id}) played each other "
            f"in {shared} game(s); void those games first"
        )
    conflicts = []
    if keep.fide_id is not None and remove.fide_id is not None and keep.fide_id != remove.fide_id:
        conflicts.append(f"different FIDE ids ({keep.fide_id} and {remove.fide_id})")
    birth = _birth_conflict(keep, remove)
    if birth is not None:
        conflicts.append(birth)
    byes = session.scalar(
        sa.select(sa.func.count()).select_from(Bye).where(Bye.player_id == remove.id)
    )
    aliases = session.scalars(
        sa.select(PlayerAlias.name)
        .where(PlayerAlias.player_id == remove.id)
        .order_by(PlayerAlias.id)
    )
    return MergePlan(
        keep=keep,
        remove=remove,
        games=count_games(session, remove.id),
        byes=byes or 0,
        conflicts=tuple(conflicts),
        changes=tuple(_merge_changes(keep, remove)),
        aliases=tuple(aliases),
    )


def check_merge(plan: MergePlan, *, force: bool) -> None:
    """Refuse a merge whose players look like two people, unless ``force``.

    :raises MergeConflictError: naming both players and what differs.
    """
    if plan.conflicts and not force:
        raise MergeConflictError(
            f"{describe(plan.remove)} and {describe(plan.keep)} have "
            f"{' and '.join(plan.conflicts)}: they look like two people; --force merges "
            "them anyway"
        )


def merge_players(
    session: Session,
    keep_ref: str,
    remove_ref: str,
    *,
    force: bool = False,
    reason: str | None = None,
) -> MergeReport:
    """Merge two records of the same person: ``remove``'s games and byes move to ``keep``,
    data ``keep`` lacks is taken from ``remove`` (:attr:`MergePlan.changes`), and ``remove``
    is kept, marked as merged, but leaves every list and lookup (its FIDE id, if it keeps
    one, finds ``keep``). Everything moved and changed is recorded (``merge_moves`` and the
    corrections log), so :func:`unmerge_player` can restore both players exactly. Marks the
    oldest rated period for re-rating.

    :raises MergeConflictError: when their FIDE ids or birthdates differ, unless ``force``.
    """
    plan = plan_merge(session, keep_ref, remove_ref)
    keep, remove = plan.keep, plan.remove
    check_merge(plan, force=force)
    audit.check_reason(reason)
    # the duplicate leaves the lists that show it, its games go to the player kept
    mark_from_first_listing(session, [remove.id])
    lines: list[audit.Change] = []
    moves: list[tuple[str, int]] = []
    for side, column in (("white", Game.white_id), ("black", Game.black_id)):
        ids = list(session.scalars(sa.select(Game.id).where(column == remove.id)))
        moves += [(side, gid) for gid in ids]
        session.execute(sa.update(Game).where(column == remove.id).values({column: keep.id}))
    bye_ids = list(session.scalars(sa.select(Bye.id).where(Bye.player_id == remove.id)))
    moves += [("bye", bid) for bid in bye_ids]
    session.execute(sa.update(Bye).where(Bye.player_id == remove.id).values(player_id=keep.id))
    alias_ids = list(
        session.scalars(sa.select(PlayerAlias.id).where(PlayerAlias.player_id == remove.id))
    )
    moves += [("alias", aid) for aid in alias_ids]
    session.execute(
        sa.update(PlayerAlias).where(PlayerAlias.player_id == remove.id).values(player_id=keep.id)
    )
    for field, old, new in plan.changes:
        if field == "fide_id":  # unique: the duplicate gives it up first
            lines.append(audit.Change(player_id=remove.id, field="fide_id", old=new, new=None))
            remove.fide_id = None
            session.flush()
        lines.append(audit.Change(player_id=keep.id, field=field, old=old, new=new))
        setattr(keep, field, new)
    lines.append(audit.Change(player_id=remove.id, field="merged_into_id", old=None, new=keep.id))
    remove.merged_into_id = keep.id
    session.flush()
    batch = audit.record(session, audit.Action.PLAYER_MERGE, *lines, reason=reason)
    if moves:
        session.execute(
            sa.insert(MergeMove),
            [
                {"batch": batch, "moved": side, "row_id": row_id,
                 "from_player_id": remove.id, "to_player_id": keep.id}
                for side, row_id in moves
            ],
        )  # fmt: skip
    fields = [field for field, _, _ in plan.changes]
    if entry_lists(fields) is not None:  # the data the player kept takes feeds its rows
        mark_from_first_listing(session, [keep.id])
    if "listed_from" in fields:
        mark_joining(session, keep)
    session.flush()
    return MergeReport(
        keep=keep,
        remove=remove,
        games=plan.games,
        byes=plan.byes,
        batch=batch,
        marked_period=touched_period(session),
        aliases=len(alias_ids),
    )


_FIELD_TYPES: dict[str, Callable[[str], object]] = {
    "fide_id": int,
    "birth_year": int,
    "birth_date": dt.date.fromisoformat,
    "entry_rating": int,
    "entry_games": int,
    "k10": lambda text: text == "true",
    **{f"{tc}_entry_{f}": int for tc in ("rapid", "blitz") for f in ("rating", "games")},
    **{f"{tc}_k10": lambda text: text == "true" for tc in ("rapid", "blitz")},
    "sex": str,
    "federation": str,
    "title": str,
    "merged_into_id": int,
    "listed_from": dt.date.fromisoformat,
}


def _typed(field: str, text: str | None) -> object:
    return None if text is None else _FIELD_TYPES[field](text)


def find_merged(session: Session, ref: str) -> Player:
    """The merged-away record a PLAYER argument names: its id, ``fide:N`` or its name.

    :raises PlayerNotFoundError: when no merged-away record matches.
    :raises AmbiguousPlayerError: when several do.
    """
    text = ref.strip()
    found: list[Player]
    if limits.is_ascii_digits(text):
        player = session.get(Player, limits.database_id(text, "player id"))
        found = [player] if player is not None else []
    elif text.lower().startswith("fide:"):
        fide_id = limits.fide_id(text[5:])
        found = list(session.scalars(sa.select(Player).where(Player.fide_id == fide_id)))
    else:
        try:
            key = names.name_key(text)
        except InvalidNameError:
            found = []
        else:
            found = list(
                session.scalars(sa.select(Player).where(Player.name_key == key).order_by(Player.id))
            )
            found = [p for p in found if p.merged_into_id is not None] or found[:1]
    if len(found) == 1 and found[0].merged_into_id is None:
        raise InvalidInputError(
            f"{describe(found[0])} is not merged into another player; nothing to unmerge"
        )
    if not found:
        raise PlayerNotFoundError(f"no merged player {ref!r}")
    if len(found) > 1:
        listed = ", ".join(f"{describe(p)} merged into {p.merged_into_id}" for p in found)
        raise AmbiguousPlayerError(f"{ref!r} matches {len(found)} merged players: {listed}; "
                                   "use the id")  # fmt: skip
    return found[0]


def unmerge_player(session: Session, ref: str, *, reason: str | None = None) -> UnmergeReport:
    """Undo the last merge of the merged-away player ``ref``: the game sides and byes it
    moved go back, each field it changed gets its old value, and the player is live again.
    Marks the oldest rated period for re-rating; recorded as ``player_unmerge``.

    A game voided since the merge stays voided and a field edited since keeps its new value;
    both are listed in :attr:`UnmergeReport.skipped`.

    :raises InvalidInputError: when the merge was made before merges were recorded, or the
        kept player was merged into another one since (unmerge that first).
    """
    remove = find_merged(session, ref)
    audit.check_reason(reason)
    keep = session.get_one(Player, remove.merged_into_id)
    merge = session.scalar(
        sa.select(Correction)
        .where(
            Correction.action == audit.Action.PLAYER_MERGE.value,
            Correction.player_id == remove.id,
            Correction.field == "merged_into_id",
        )
        .order_by(Correction.id.desc())
        .limit(1)
    )
    if merge is None or merge.new_value != str(keep.id):
        raise InvalidInputError(
            f"the merge of {describe(remove)} into {describe(keep)} was made before merges "
            "were recorded (ratings before schema 0003); it cannot be undone exactly"
        )
    if keep.merged_into_id is not None:
        raise InvalidInputError(
            f"{describe(keep)} was merged into player {keep.merged_into_id} since; "
            f"unmerge player {keep.id} first"
        )
    lines: list[audit.Change] = []
    skipped: list[str] = []
    counts = {"game": 0, "bye": 0, "alias": 0}
    moves = session.scalars(
        sa.select(MergeMove).where(MergeMove.batch == merge.batch).order_by(MergeMove.id)
    )
    for move in moves:
        row: Game | Bye | PlayerAlias | None
        if move.moved == "bye":
            row, attribute, what = session.get(Bye, move.row_id), "player_id", "bye"
        elif move.moved == "alias":
            row, attribute, what = session.get(PlayerAlias, move.row_id), "player_id", "alias"
        else:
            row, attribute, what = session.get(Game, move.row_id), f"{move.moved}_id", "game"
        if row is None:
            skipped.append(f"{what} {move.row_id} was removed since the merge")
        elif getattr(row, attribute) != move.to_player_id:
            skipped.append(f"{what} {move.row_id} changed players since the merge")
        else:
            setattr(row, attribute, move.from_player_id)
            counts[what] += 1
    changed = session.scalars(
        sa.select(Correction)
        .where(Correction.batch == merge.batch, Correction.id != merge.id)
        .order_by(Correction.id.desc())
    )
    for line in changed:
        assert line.field is not None
        assert line.player_id is not None
        player = session.get_one(Player, line.player_id)
        current = getattr(player, line.field)
        if audit.as_text(current) != line.new_value:
            skipped.append(
                f"{line.field} of player {player.id} was changed since the merge "
                f"(now {_shown(current)}); kept"
            )
            continue
        old = _typed(line.field, line.old_value)
        setattr(player, line.field, old)
        session.flush()  # one at a time: a FIDE id goes back only after it was given up
        lines.append(audit.Change(player_id=player.id, field=line.field, old=current, new=old))
    stored = _stored_while_merged(session, keep, merge.recorded_at)
    remove.merged_into_id = None
    lines.append(audit.Change(player_id=remove.id, field="merged_into_id", old=keep.id, new=None))
    session.flush()
    audit.record(session, audit.Action.PLAYER_UNMERGE, *lines, reason=reason)
    session.flush()
    restored = [c.field for c in lines if c.player_id == keep.id]
    if entry_lists(restored) is not None or "listed_from" in restored:
        mark_from_first_listing(session, [keep.id])  # the data it took, given back
    mark_from_first_listing(session, [remove.id])  # its games, back
    mark_joining(session, remove)  # back on the lists it joined
    return UnmergeReport(
        keep=keep,
        restored=remove,
        games=counts["game"],
        byes=counts["bye"],
        skipped=tuple(skipped),
        marked_period=touched_period(session),
        aliases=counts["alias"],
        stored_while_merged=stored,
    )


def _stored_while_merged(
    session: Session, keep: Player, merged_at: dt.datetime
) -> tuple[StoredWhileMerged, ...]:
    """The games and byes of ``keep`` stored by an import in force made since the merge
    (``imports.imported_at`` after the merge's ``corrections.recorded_at``)."""
    in_force = session.execute(
        sa.select(Import.id, Import.file_name).where(
            Import.imported_at > merged_at, Import.undone_by.is_(None)
        )
    )
    files = {import_id: file_name for import_id, file_name in in_force}
    if not files:
        return ()
    found: list[tuple[int, int, int, str]] = []  # import, 0 game / 1 bye, id, text
    games = session.scalars(
        sa.select(Game).where(
            Game.import_id.in_(files), sa.or_(Game.white_id == keep.id, Game.black_id == keep.id)
        )
    )
    for game in games:
        assert game.import_id is not None
        white, black = (session.get_one(Player, pid) for pid in (game.white_id, game.black_id))
        played = f"{game.played_on}{f' round {game.round}' if game.round else ''}"
        text = (
            f"game {game.id}: {played}, {white.name} (id {white.id}) - {black.name} "
            f"(id {black.id}) {game.result.value}"
        )
        found.append((game.import_id, 0, game.id, text))
    byes = session.execute(
        sa.select(Bye, Event)
        .join(Event, Event.id == Bye.event_id)
        .where(Event.import_id.in_(files), Bye.player_id == keep.id)
    )
    for bye, event in byes:
        assert event.import_id is not None
        text = (
            f"bye {bye.id}: event {event.id} {event.name} round {bye.round}, {keep.name} "
            f"(id {keep.id}) {bye.code}"
        )
        found.append((event.import_id, 1, bye.id, text))
    return tuple(
        StoredWhileMerged(what=text, import_id=iid, file_name=files[iid])
        for iid, _, _, text in sorted(found)
    )
