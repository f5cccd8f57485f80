"""The register's service functions directly: names and
their key, namesakes, lookups and suggestions, merge and unmerge, register updates, stored
duplicates."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ratings import service
from ratings.errors import (
    AmbiguousPlayerError,
    InputFileError,
    InvalidInputError,
    InvalidNameError,
    MergeConflictError,
    PlayerNotFoundError,
    SameNameError,
)
from ratings.io.csv import GameRow, read_players_csv
from ratings.models import Bye, Correction, Event, Game, Import, MergeMove, Player
from ratings.names import key_of_stored
from ratings.results import Result
from ratings.service.imports.events import stored_duplicates
from ratings.service.imports.games import stored_duplicate_games
from ratings.service.imports.incoming import Incoming, same_person_name
from ratings.service.imports.pipeline import Resolver
from ratings.service.register.lookup import find_players, get_player, suggestions
from ratings.service.register.players import Birth, told_apart
from ratings.service.shared import audit


def add(session: Session, name: str, **kwargs: object) -> Player:
    return service.add_player(session, name, **kwargs)  # type: ignore[arg-type]


def references(session: Session, refs: list[str] | None = None) -> Resolver:
    """The resolver of a games file naming ``refs`` (None: reading the whole register)."""
    return Resolver(session, "games.csv", creates=False, references=True, refs=refs)


def resolve(resolver: Resolver, ref: str, line: int = 0) -> int | None:
    """The player a games file's reference names; None when it needs a decision."""
    pid, how = resolver.resolve(Incoming(line, ref, "white"))
    return None if how == "ask" else pid


def event_with(session: Session, name: str, day: dt.date, *pairs: tuple[int, int]) -> Event:
    """An event of one day with one 1-0 game per (white, black) pair."""
    event = Event(name=name, start_date=day, end_date=day, source="manual")
    session.add(event)
    session.flush()
    for n, (white, black) in enumerate(pairs, start=1):
        session.add(
            Game(
                event_id=event.id,
                round=str(n),
                played_on=day,
                white_id=white,
                black_id=black,
                result=Result.WHITE_WIN,
                rateable=True,
            )
        )
    session.flush()
    return event


# --- names -------------------------------------------------------------------------------------


def test_add_player_stores_the_clean_name_and_its_key(session: Session) -> None:
    p = add(session, "  O\u0308berg,\u00a0\u00a0\u00c5SA ")
    assert (p.name, p.name_key) == ("\u00d6berg, \u00c5SA", "\u00f6berg, \u00e5sa")


@pytest.mark.parametrize("name", ["", "   ", "\u202eX", "A\x7f", "A\u200bB"])
def test_add_player_refuses_unusable_names(session: Session, name: str) -> None:
    with pytest.raises(InvalidNameError):
        add(session, name)
    assert session.scalar(sa.select(sa.func.count()).select_from(Player)) == 0


@pytest.mark.parametrize(
    ("a", "b", "apart"),
    [
        ((1, (None, None)), (2, (None, None)), True),  # FIDE ids differ
        ((1, (None, None)), (1, (None, 1990)), False),
        ((None, (None, None)), (2, (None, None)), False),  # one id only: maybe one person
        ((None, (None, 1990)), (None, (None, 1991)), True),
        ((None, (dt.date(1990, 1, 2), 1990)), (None, (dt.date(1990, 3, 4), 1990)), True),
        ((None, (dt.date(1990, 1, 2), 1990)), (None, (None, 1990)), False),
        ((None, (dt.date(1990, 1, 2), 1990)), (None, (dt.date(1990, 1, 2), 1990)), False),
    ],
)
def test_told_apart(
    a: tuple[int | None, tuple[dt.date | None, int | None]],
    b: tuple[int | None, tuple[dt.date | None, int | None]],
    apart: bool,
) -> None:
    assert told_apart(a[0], a[1], b[0], b[1]) is apart
    assert told_apart(b[0], b[1], a[0], a[1]) is apart


def test_namesakes_are_told_apart_and_confirmed(session: Session) -> None:
    first = add(session, "Wang, Hao", birth=Birth(None, 1990))
    with pytest.raises(SameNameError, match=r"tells them apart, and --allow-same-name$"):
        add(session, "WANG, HAO", allow_same_name=True)
    with pytest.raises(SameNameError, match=r"confirm with --allow-same-name$"):
        add(session, "WANG, HAO", birth=Birth(None, 1991))
    second = add(session, "WANG, HAO", birth=Birth(None, 1991), allow_same_name=True)
    assert first.name_key == second.name_key
    with pytest.raises(AmbiguousPlayerError, match=r"matches 2 players: 1 .*, 2 .*; use the id"):
        get_player(session, "wang, hao")
    # a merged-away namesake does not count
    second.merged_into_id = first.id
    session.flush()
    assert find_players(session, "wang, hao") == [first]


def test_edit_player_renames_with_the_key_and_records_it(session: Session) -> None:
    add(session, "Elard, Carl")
    p = add(session, "Isstein, Felix")
    with pytest.raises(SameNameError):
        service.edit_player(session, "Isstein, Felix", name="ELARD,  carl")
    player, changed = service.edit_player(
        session, "isstein, felix", name="Isstein,  Felix-Peter", reason="typo"
    )
    assert (player.name, player.name_key, changed) == (
        "Isstein, Felix-Peter",
        "isstein, felix-peter",
        ["name"],
    )
    assert [
        (c.player_id, c.field, c.old_value, c.new_value, c.reason) for c in audit.entries(session)
    ] == [(p.id, "name", "Isstein, Felix", "Isstein, Felix-Peter", "typo")]
    # renaming a player to the same key (another case) is not a namesake of itself
    service.edit_player(session, str(p.id), name="ISSTEIN, Felix-Peter")


def test_find_players_by_id_fide_id_and_key(session: Session) -> None:
    a = add(session, "\u00d6berg, \u00c5sa", fide_id=4100018)
    b = add(session, "Berg, Bo")
    assert find_players(session, str(a.id)) == [a]
    assert find_players(session, "fide:4100018") == [a]
    assert find_players(session, "o\u0308berg,   \u00e5sa") == [a]
    assert find_players(session, "\u202eberg") == []
    assert find_players(session, "99999999999999999999") == []
    b.merged_into_id = a.id
    session.flush()
    assert find_players(session, str(b.id)) == []
    assert find_players(session, "berg, bo") == []


def test_a_merged_away_fide_id_finds_the_player_kept(session: Session) -> None:
    keep = add(session, "Ann")
    gone = add(session, "Ann B", fide_id=4100026)
    gone.merged_into_id = keep.id
    session.flush()
    assert find_players(session, "fide:4100026") == [keep]
    assert resolve(references(session), "4100026") == keep.id


def test_the_index_of_a_file_reads_only_the_players_it_names(session: Session) -> None:
    """An import reads the players its file names, not the whole register; every
    reference resolves as with the whole register, merges followed to the player kept."""
    keep = add(session, "\u00d6berg, \u00c5sa")
    middle = add(session, "Berg, Bo", fide_id=4100034)
    gone = add(session, "Berg, B.", fide_id=4100026)
    ann = add(session, "Ann", fide_id=4100042)
    add(session, "Ann", fide_id=4100050, allow_same_name=True)
    add(session, "Carl Elard")
    gone.merged_into_id = middle.id
    middle.merged_into_id = keep.id  # merged twice: 4100026 -> Berg, Bo -> Öberg, Åsa
    session.flush()
    refs = ["4100026", " 4100034 ", "O\u0308BERG,  \u00c5SA", "4100042", "Ann", "Berg, Bo"]
    whole, named = references(session), references(session, refs)
    assert [resolve(named, ref) for ref in refs[:4]] == [keep.id, keep.id, keep.id, ann.id]
    assert [resolve(whole, ref) for ref in refs[:4]] == [keep.id, keep.id, keep.id, ann.id]
    for index in (named, whole):
        # two players of one name: a question, the same from both indexes
        assert resolve(index, "Ann", 7) is None
        assert [(o.player_id, o.why) for o in index.questions[-1].options] == [
            (ann.id, "same name"),
            (ann.id + 1, "same name"),
        ]
        # a merged-away record's name stands for the player kept (as its FIDE id does)
        assert resolve(index, "Berg, Bo") == keep.id
    carl = key_of_stored("Carl Elard")  # registered, not named by the file: not read
    assert carl in whole.by_name
    assert carl not in named.by_name
    # a name not in the file's index is still matched against the whole register
    typo = references(session, ["Carl Elardd"])
    assert resolve(typo, "Carl Elardd", 3) is None
    assert [str(o) for o in typo.questions[0].options] == [f"{ann.id + 2} Carl Elard [typo]"]
    with pytest.raises(InputFileError, match="unknown player: 'Zzyzx'"):
        resolve(typo, "Zzyzx")


def test_suggestions(session: Session) -> None:
    elard = add(session, "Elard, Carl")
    add(session, "Isstein, Felix")
    assert suggestions(session, "Carl Elard") == [elard]
    assert suggestions(session, "12") == []
    assert suggestions(session, "fide:1") == []
    with pytest.raises(PlayerNotFoundError) as caught:
        get_player(session, "Elard, Karl")
    assert str(caught.value) == (
        f"no player 'Elard, Karl'; did you mean Elard, Carl (id {elard.id})?"
    )
    # a name that folds to one registered name (order, accents, punctuation) finds it
    assert get_player(session, "elard carl") == elard
    assert get_player(session, "ELARD,CARL") == elard


def test_suggestions_in_a_large_register_look_among_shared_words(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ratings.service.register import lookup as common

    monkeypatch.setattr(common, "SUGGEST_FROM_ALL", 2)
    elard = add(session, "Elard, Carl")
    add(session, "Isstein, Felix")
    add(session, "Joriston, Rafael")
    assert suggestions(session, "Elard, Karl") == [elard]
    assert suggestions(session, "Xy") == []


def test_list_players_search(session: Session) -> None:
    for name in ("\u00d6berg, \u00c5sa", "Berg, Bo", "Elard, Carl", "100%_x"):
        add(session, name)
    assert [p.name for p in service.list_players(session, search="BERG")] == [
        "Berg, Bo",
        "\u00d6berg, \u00c5sa",
    ]
    assert [p.name for p in service.list_players(session, search="%_")] == ["100%_x"]
    assert [p.name for p in service.list_players(session, search="_")] == ["100%_x"]


# --- PGN and TRF identity ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("in_file", "registered", "same"),
    [
        ("carlsen, magnus", "carlsen, magnus", True),
        ("carlsen,m", "carlsen, magnus", True),
        ("magnus carlsen", "carlsen, magnus", True),
        ("oberg, a.", "\u00f6berg, \u00e5sa", True),
        ("elard, carl", "isstein, felix", False),
        ("a, b", "a, c", False),  # one-letter words are initials, not names
    ],
)
def test_same_person_name(in_file: str, registered: str, same: bool) -> None:
    assert same_person_name(in_file, registered) is same


# --- merge and unmerge -------------------------------------------------------------------------


def _rows(session: Session) -> dict[str, list[tuple[object, ...]]]:
    session.flush()
    session.expire_all()
    return {
        name: [tuple(r) for r in session.execute(sa.select(table).order_by(table.c.id))]
        for name, table in (
            ("players", Player.__table__),
            ("games", Game.__table__),
            ("byes", Bye.__table__),
        )
    }


def test_merge_records_every_move_and_unmerge_restores_exactly(session: Session) -> None:
    keep = add(session, "Ann", birth=Birth(None, 1990), games=3)
    dup = add(
        session,
        "Anne",
        fide_id=4100018,
        birth=Birth(dt.date(1990, 5, 6), 1990),
        rating=1800,
        games=12,
        k10=True,
        sex="f",
        federation="NED",
        title="WFM",
    )
    bob = add(session, "Bob")
    event = event_with(
        session, "Open", dt.date(2025, 1, 5), (dup.id, bob.id), (bob.id, dup.id), (keep.id, bob.id)
    )
    session.add(Bye(event_id=event.id, round="4", player_id=dup.id, code="H"))
    before = _rows(session)

    plan = service.plan_merge(session, "Ann", "Anne")
    assert (plan.games, plan.byes, plan.conflicts) == (2, 1, ())
    assert plan.changes == (
        ("fide_id", None, 4100018),
        ("birth_date", None, dt.date(1990, 5, 6)),
        ("sex", None, "f"),
        ("federation", None, "NED"),
        ("title", None, "WFM"),
        ("entry_rating", None, 1800),
        ("entry_games", 3, 12),
        ("k10", False, True),
    )
    report = service.merge_players(session, "Ann", "Anne", reason="same person")
    assert (report.games, report.byes, report.marked_period) == (2, 1, None)
    assert (keep.fide_id, dup.fide_id, dup.merged_into_id) == (4100018, None, keep.id)
    moves = session.scalars(sa.select(MergeMove).order_by(MergeMove.id))
    assert [(m.batch, m.moved, m.from_player_id, m.to_player_id) for m in moves] == [
        (report.batch, "white", dup.id, keep.id),
        (report.batch, "black", dup.id, keep.id),
        (report.batch, "bye", dup.id, keep.id),
    ]
    lines = audit.entries(session, batch=report.batch)
    assert [(c.player_id, c.field, c.old_value, c.new_value) for c in lines] == [
        (dup.id, "fide_id", "4100018", None),
        (keep.id, "fide_id", None, "4100018"),
        (keep.id, "birth_date", None, "1990-05-06"),
        (keep.id, "sex", None, "f"),
        (keep.id, "federation", None, "NED"),
        (keep.id, "title", None, "WFM"),
        (keep.id, "entry_rating", None, "1800"),
        (keep.id, "entry_games", "3", "12"),
        (keep.id, "k10", "false", "true"),
        (dup.id, "merged_into_id", None, str(keep.id)),
    ]
    assert {c.reason for c in lines} == {"same person"}

    back = service.unmerge_player(session, str(dup.id), reason="two people after all")
    assert (back.games, back.byes, back.skipped) == (2, 1, ())
    assert _rows(session) == before
    assert {c.action for c in audit.entries(session) if c.batch != report.batch} == {
        "player_unmerge"
    }


def test_unmerge_lists_the_games_and_byes_imported_while_merged(session: Session) -> None:
    """Only those of the kept player, from imports in force made after the merge; none moves."""
    keep, dup, bob = add(session, "Smith, John"), add(session, "Smith, J."), add(session, "Bob")
    merged = service.merge_players(session, "1", "2")
    merged_at = audit.entries(session, batch=merged.batch)[-1].recorded_at
    imports = [
        Import(kind="trf", file_name=f"{n}.trf", content_hash=str(n), rows=1, imported_at=at)
        for n, at in enumerate(merged_at + dt.timedelta(seconds=s) for s in (-1, 1, 2))
    ]
    session.add_all(imports)
    session.flush()
    imports[2].undone_by = 99  # its events are gone in a real undo; left here to be ignored
    for n, item in enumerate(imports):
        event = event_with(session, f"Open {n}", dt.date(2025, 1, 5 + n), (bob.id, keep.id))
        event.import_id = item.id
        session.add(Bye(event_id=event.id, round="2", player_id=keep.id, code="H"))
        session.add(Bye(event_id=event.id, round="2", player_id=bob.id, code="H"))
        session.execute(sa.update(Game).where(Game.event_id == event.id).values(import_id=item.id))
    event_with(session, "By hand", dt.date(2025, 1, 9), (keep.id, bob.id))  # no import

    back = service.unmerge_player(session, str(dup.id))
    assert [(s.what, s.import_id, s.file_name) for s in back.stored_while_merged] == [
        ("game 2: 2025-01-06 round 1, Bob (id 3) - Smith, John (id 1) 1-0", 2, "1.trf"),
        ("bye 3: event 2 Open 1 round 2, Smith, John (id 1) H", 2, "1.trf"),
    ]
    assert session.scalars(sa.select(Game.black_id).order_by(Game.id)).all() == [1, 1, 1, 3]


def test_merge_refusals(session: Session) -> None:
    a = add(session, "Ann", fide_id=1, birth=Birth(None, 1990))
    b = add(session, "Ann B", fide_id=2, birth=Birth(None, 1991))
    event_with(session, "Open", dt.date(2025, 1, 5), (a.id, b.id))
    with pytest.raises(InvalidInputError, match="cannot merge player 1 into itself"):
        service.plan_merge(session, "1", "1")
    with pytest.raises(InvalidInputError, match=r"played each other in 1 game\(s\)"):
        service.plan_merge(session, "1", "2")
    c = add(session, "Ann C", fide_id=3, birth=Birth(None, 1990))
    with pytest.raises(MergeConflictError, match=r"different FIDE ids \(1 and 3\): they look"):
        service.merge_players(session, "1", str(c.id))
    assert c.merged_into_id is None
    report = service.merge_players(session, "1", str(c.id), force=True)
    # the duplicate keeps its own FIDE id, which now finds the player kept
    assert (c.fide_id, find_players(session, "fide:3")) == (3, [a])
    assert report.games == 0


def test_unmerge_of_a_merge_made_before_the_log(session: Session) -> None:
    a = add(session, "Ann")
    b = add(session, "Ann B")
    b.merged_into_id = a.id  # as ratings before schema 0003 merged
    session.flush()
    with pytest.raises(InvalidInputError, match="made before merges were recorded"):
        service.unmerge_player(session, str(b.id))


def test_unmerge_in_the_order_merges_were_made(session: Session) -> None:
    add(session, "A")
    add(session, "B")
    add(session, "C")
    service.merge_players(session, "B", "C")
    service.merge_players(session, "A", "B")
    with pytest.raises(
        InvalidInputError, match="was merged into player 1 since; unmerge player 2 first"
    ):
        service.unmerge_player(session, "3")
    service.unmerge_player(session, "2")
    service.unmerge_player(session, "3")
    assert [p.merged_into_id for p in session.scalars(sa.select(Player))] == [None] * 3


# --- import players --update -------------------------------------------------------------------


def test_import_players_update(session: Session) -> None:
    add(session, "Elard, Carl", fide_id=4100018, rating=1800)
    add(session, "Isstein, Felix", birth=Birth(None, 2001))
    rows = read_players_csv(
        b"name,fide_id,birthdate,rating,k10\n"
        b'"elard, carl",4100018,,1850,\n'  # only what the row fills changes
        b'"Isstein, Felix",,2001,,yes\n'
        b'"New, One",,,,\n',
        "p.csv",
    )
    report = service.import_players(session, rows, "p.csv", "h1", update=True)
    assert (report.players_created, report.players_updated, report.players_unchanged) == (1, 2, 0)
    assert [(c.line, c.player_id, c.field, c.old, c.new) for c in report.changes] == [
        (2, 1, "name", "Elard, Carl", "elard, carl"),
        (2, 1, "entry_rating", 1800, 1850),
        (3, 2, "k10", False, True),
    ]
    assert [(c.field, c.import_id) for c in session.scalars(sa.select(Correction))] == [
        ("name", 1),
        ("entry_rating", 1),
        ("k10", 1),
    ]


def test_import_players_update_problems(session: Session) -> None:
    add(session, "Elard, Carl", fide_id=4100018)
    add(session, "Isstein, Felix", fide_id=4100026)
    add(session, "Joriston, Rafael")
    rows = read_players_csv(b'name,fide_id\n"Elard, Carl",\n"Carl Elard",4100018\n', "p.csv")
    # one problem is raised alone, as every import raises it
    with pytest.raises(InputFileError) as alone:
        service.import_players(session, rows, "p.csv", "h1", update=True)
    assert str(alone.value) == (
        "p.csv:3: name: player 1 (Elard, Carl, FIDE 4100018) is updated by line 2 too"
    )
    # Isstein's FIDE id with Joriston's name: a rename onto a registered name
    rows = read_players_csv(b'name,fide_id\n"Joriston, Rafael",4100026\n', "p.csv")
    with pytest.raises(InputFileError) as alone:
        service.import_players(session, rows, "p.csv", "h2", update=True)
    assert str(alone.value) == (
        "p.csv:2: fide_id: 'Joriston, Rafael' does not match FIDE id 4100026, which belongs "
        "to player 2 (Isstein, Felix, FIDE 4100026); 'Joriston, Rafael' is player 3 (Joriston, "
        "Rafael); correct the file"
    )


def test_new_namesakes_in_a_players_file_need_confirmation(session: Session) -> None:
    add(session, "Wang, Hao", fide_id=8603405)
    rows = read_players_csv(b'name,fide_id\n"Wang, Hao",8604436\n', "p.csv")
    with pytest.raises(InputFileError, match="confirm with --allow-same-name"):
        service.import_players(session, rows, "p.csv", "h1")
    report = service.import_players(session, rows, "p.csv", "h1", allow_same_name=True)
    assert report.players_created == 1


# --- stored duplicates -------------------------------------------------------------------------


def test_stored_duplicates_compare_name_dates_and_players(session: Session) -> None:
    a, b, c = (add(session, n).id for n in ("A", "B", "C"))
    day = dt.date(2025, 1, 5)
    stored = event_with(session, "Jan Cup", day, (a, b), (b, c))
    assert stored_duplicates(session, [("JAN  cup", day, day, {a, b, c})]) == [
        f"event {stored.id} 'Jan Cup' ({day} .. {day}, 3 players, 2 games) entered by hand"
    ]
    assert stored_duplicates(session, [("Jan Cup", day, day, {a, b})]) == []
    assert stored_duplicates(session, [("Feb Cup", day, day, {a, b, c})]) == []
    assert stored_duplicates(session, [("Jan Cup", day, dt.date(2025, 1, 6), {a, b, c})]) == []
    assert stored_duplicates(session, [("Jan Cup", day, day, {a, b, -1})]) == []


def test_stored_duplicate_games(session: Session) -> None:
    a, b = (add(session, n).id for n in ("A", "B"))
    day = dt.date(2025, 1, 5)
    event_with(session, "Jan Cup", day, (a, b))

    def row(line: int, event: str | None, result: Result = Result.WHITE_WIN) -> GameRow:
        return GameRow(line, day, "A", "B", result, event, "1")

    assert stored_duplicate_games(session, [(row(2, "Feb Cup"), a, b)], "g.csv") is None
    assert (
        stored_duplicate_games(session, [(row(2, "Jan Cup", Result.DRAW), a, b)], "g.csv") is None
    )
    found = stored_duplicate_games(
        session, [(row(2, "jan cup"), a, b), (row(3, None), a, b), (row(4, "X"), b, a)], "g.csv"
    )
    assert found == (
        "g.csv: 2 of 3 games are already stored (same date, players, result, event and round; "
        "lines 2, 3): 2 like games entered by hand; nothing was imported; --allow-duplicates "
        "imports them anyway"
    )
