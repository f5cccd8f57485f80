"""One person once, one game once: what was reported, through
the CLI first, then the service functions directly."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.imports.test_trf import TRF, db, rows, template
from tests.support import invoke

__all__ = ["db", "template"]  # fixtures shared with tests/imports/test_trf.py

OBERG = "\u00d6berg, \u00c5sa"
OBERG_NFD = "O\u0308berg, A\u030asa"


def state(db: Path) -> object:
    """Everything stored (a file's bytes, or a PostgreSQL database's rows)."""
    return db.read_bytes()


def register(db: Path, *players: tuple[str, ...]) -> None:
    for args in players:
        assert invoke(db, "player", "add", *args)[0] == 0, args


# --- names -------------------------------------------------------------------------------------


def test_a_name_found_whatever_its_case_and_form(db: Path) -> None:
    """Seen: after `player add "Öberg, Åsa"`, `player show "öberg, åsa"` and `game add
    "öberg, åsa" ...` said "no player" (SQLite's lower() folds ASCII only)."""
    register(db, (OBERG,), ("Elard, Carl",))
    for spelling in ("\u00f6berg, \u00e5sa", OBERG_NFD, "\u00d6BERG,   \u00c5SA"):
        code, out, _ = invoke(db, "player", "show", spelling)
        assert (code, out.splitlines()[:2]) == (0, ["id:            1", f"name:          {OBERG}"])
    assert invoke(
        db, "game", "add", "\u00f6berg, \u00e5sa", "ELARD, CARL", "1-0", "--date", "2025-01-05"
    ) == (0, "Added game 1\n", "")
    assert rows(db, "SELECT white_id, black_id FROM games") == [(1, 2)]


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("\u202eCarl, Elard", "holds an invisible formatting character (U+202E)"),
        ("Elard, Carl\x7f", "holds a control character (U+007F)"),
        ("Elard,\u200bCarl", "holds an invisible formatting character (U+200B)"),
        ("\u0410nn, Smith", "mixes Cyrillic and Latin letters in '\u0410nn,' (look-alike letters)"),
    ],
)
def test_player_add_and_edit_refuse_unusable_names(db: Path, name: str, problem: str) -> None:
    """Seen: `player add` accepted U+202E (right-to-left override) and DEL."""
    register(db, ("Elard, Carl",))
    before = state(db)
    message = f"Error: not a usable name: {problem}: {name!r}\n"
    assert invoke(db, "player", "add", name) == (1, "", message)
    assert invoke(db, "player", "edit", "1", "--name", name) == (1, "", message)
    assert state(db) == before


@pytest.mark.parametrize(
    "variant",
    ["Elard,  Carl", "elard, carl", "Elard,\u00a0Carl", " Elard, Carl ", "ELARD, CARL"],
)
def test_player_add_and_edit_refuse_a_second_spelling_of_a_name(db: Path, variant: str) -> None:
    """Seen: two spaces, a no-break space or another case made a second player, and every
    reference by name then failed with "matches 2 players"."""
    register(db, ("Elard, Carl", "--birthdate", "1990"), ("Isstein, Felix",))
    before = state(db)
    refused = (
        f"Error: {' '.join(variant.split())!r} is already registered: 1 (Elard, Carl, born "
        "1990); a second player of that name needs a FIDE id or birthdate that tells them "
        "apart, and --allow-same-name\n"
    )
    assert invoke(db, "player", "add", variant) == (1, "", refused)
    assert invoke(db, "player", "add", variant, "--allow-same-name") == (1, "", refused)
    assert invoke(db, "player", "edit", "2", "--name", variant) == (1, "", refused)
    assert state(db) == before
    assert invoke(db, "player", "show", variant)[0] == 0  # still one player


def test_a_namesake_is_told_apart_and_confirmed(db: Path) -> None:
    register(db, ("Wang, Hao", "--fide-id", "8603405"))
    unconfirmed = invoke(db, "player", "add", "WANG, Hao", "--fide-id", "8604436")
    assert unconfirmed == (
        1,
        "",
        "Error: 'WANG, Hao' is already registered: 1 (Wang, Hao, FIDE 8603405); if this is "
        "another person, confirm with --allow-same-name\n",
    )
    assert invoke(
        db, "player", "add", "WANG, Hao", "--fide-id", "8604436", "--allow-same-name"
    ) == (
        0,
        "Added WANG, Hao (id 2)\n",
        "",
    )
    assert rows(db, "SELECT id, name, name_key FROM players ORDER BY id") == [
        (1, "Wang, Hao", "wang, hao"),
        (2, "WANG, Hao", "wang, hao"),
    ]
    assert invoke(db, "player", "show", "wang, hao") == (
        1,
        "",
        "Error: 'wang, hao' matches 2 players: 1 (Wang, Hao, FIDE 8603405), 2 (WANG, Hao, "
        "FIDE 8604436); use the id\n",
    )
    assert invoke(db, "player", "show", "fide:8604436")[1].splitlines()[0] == "id:            2"


def test_a_failed_lookup_suggests_the_closest_names(db: Path) -> None:
    register(db, ("Elard, Carl",), ("Isstein, Felix",), (OBERG,))
    assert invoke(db, "player", "show", "Elrad, Carl") == (
        1,
        "",
        "Error: no player 'Elrad, Carl'; did you mean Elard, Carl (id 1)?\n",
    )
    assert invoke(
        db, "game", "add", "Oberg, Asta", "Carl Elard", "1-0", "--date", "2025-01-05"
    ) == (
        1,
        "",
        f"Error: no player 'Oberg, Asta'; did you mean {OBERG} (id 3)?\n",
    )
    # the name folded (no accents, another order) is the one registered player: found
    assert invoke(db, "game", "add", "Oberg, Asa", "Carl Elard", "1-0", "--date", "2025-01-05") == (
        0,
        "Added game 1\n",
        "",
    )
    assert invoke(db, "player", "show", "Zzyzx, Q") == (1, "", "Error: no player 'Zzyzx, Q'\n")


def test_player_list_search_finds_partial_names(db: Path) -> None:
    register(db, ("Elard, Carl",), (OBERG,), ("Berger, Tom",), ("100% Fun",))
    header = "   id  name                              fide id       born entry k10\n"

    def line(pid: int, name: str) -> str:
        return f"{pid:>5}  {name:<30} {'':>10} {'':>10} {'':>5} {'':>3}\n"

    assert invoke(db, "player", "list", "--search", "BERG") == (
        0,
        header + line(3, "Berger, Tom") + line(2, OBERG),
        "",
    )
    assert invoke(db, "player", "list", "--search", "\u00f6berg")[1].count("\n") == 2
    assert invoke(db, "player", "list", "--search", "%")[1].count("\n") == 2  # only "100% Fun"
    assert invoke(db, "player", "list", "--search", "zz") == (0, "no players match 'zz'\n", "")
    assert invoke(db, "player", "list", "--search", "zz", "--format", "csv") == (
        0,
        "id,name,birthdate,sex,federation,title,fide_id,rating,games,k10,rapid_rating,"
        "rapid_games,blitz_rating,blitz_games\n",
        "no players match 'zz'\n",
    )


def test_player_list_search_and_order_fold_accents(db: Path) -> None:
    """Most keyboards have no ř, ñ or Ö: the search folds, and the list
    sorts by the folded name (Ö among the O's, not after Z)."""
    register(db, ("Zeller, Ann",), ("Novák, Jiří",), (OBERG,), ("Müller, Jan",), ("Oakes, Tom",))
    found = invoke(db, "player", "list", "--search", "novak")[1].splitlines()
    assert [line[7:37].strip() for line in found[1:]] == ["Novák, Jiří"]
    for text in ("jiri novak", "NOVAK, J", "mueller", "muller", "Jiří"):
        assert invoke(db, "player", "list", "--search", text)[1].count("\n") == 2, text
    names = [line[7:37].strip() for line in invoke(db, "player", "list")[1].splitlines()[1:]]
    assert names == ["Müller, Jan", "Novák, Jiří", "Oakes, Tom", OBERG, "Zeller, Ann"]
    # a failed lookup suggests the matcher's candidates; the name folded finds the player
    for text in ("mueller", "muller"):
        assert invoke(db, "player", "show", text) == (
            1,
            "",
            f"Error: no player {text!r}; did you mean Müller, Jan (id 4)?\n",
        )
    assert invoke(db, "player", "show", "Jan Mueller")[1].splitlines()[1] == (
        "name:          Müller, Jan"
    )


def test_import_players_refuses_second_spellings_and_invisible_characters(
    tmp_path: Path, db: Path
) -> None:
    """Seen: `import players` accepted `Elard,  Carl`, an NFD `Müller` beside the NFC one,
    names with U+200B or a no-break space, and exact duplicates."""
    register(db, ("Elard, Carl",), ("M\u00fcller, Hans",))
    path = tmp_path / "players.csv"
    path.write_text(
        "name\n"
        '"Elard,  Carl"\n'
        '"Mu\u0308ller, Hans"\n'
        '"Isstein,\u200bFelix"\n'
        '"Joriston,\u00a0Rafael"\n'
        '"Joriston, Rafael"\n',
        encoding="utf-8",
    )
    before = state(db)
    assert invoke(db, "import", "players", str(path)) == (
        1,
        "",
        f"Error: {path}:4: name: holds an invisible formatting character (U+200B): "
        "'Isstein,\\u200bFelix'\n"
        f"Error: {path}:6: name: same name as line 5: 'Joriston, Rafael'\n"
        "Error: 2 problems found; nothing was imported\n",
    )
    path.write_text('name\n"Elard,  Carl"\n"Mu\u0308ller, Hans"\n"New, Player"\n', "utf-8")
    assert invoke(db, "import", "players", str(path)) == (
        1,
        "",
        f"Error: {path}:2: name: already registered as player 1 (Elard, Carl): 'Elard, Carl'; "
        "'import players --update' refreshes registered players\n"
        f"Error: {path}:3: name: already registered as player 2 (M\u00fcller, Hans): "
        "'M\u00fcller, Hans'; 'import players --update' refreshes registered players\n"
        "Error: 2 problems found; nothing was imported\n",
    )
    assert state(db) == before


def test_every_path_stores_the_clean_name_and_its_key(tmp_path: Path, db: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text('name\n"Elard,\u00a0\u00a0Carl "\n', encoding="utf-8")
    assert invoke(db, "import", "players", str(players))[0] == 0
    register(db, (OBERG_NFD,))
    pgn = tmp_path / "g.pgn"
    pgn.write_text(
        '[Event "E"]\n[Date "2025.01.05"]\n[White "Isstein,  Felix"]\n[Black "elard, carl"]\n'
        '[Result "1-0"]\n\n1-0\n\n',
        encoding="utf-8",
    )
    assert invoke(db, "import", "pgn", str(pgn))[0] == 0
    assert rows(db, "SELECT id, name, name_key FROM players ORDER BY id") == [
        (1, "Elard, Carl", "elard, carl"),
        (2, OBERG, "\u00f6berg, \u00e5sa"),
        (3, "Isstein, Felix", "isstein, felix"),
    ]
    assert rows(db, "SELECT white_id, black_id FROM games") == [(3, 1)]


def test_games_csv_matches_by_key_and_suggests(tmp_path: Path, db: Path) -> None:
    register(db, (OBERG,), ("Elard, Carl",))
    path = tmp_path / "games.csv"
    path.write_text(
        "date,white,black,result\n"
        f'2025-01-05,"{OBERG_NFD}","ELARD,  CARL",1-0\n'
        '2025-01-06,"Elrad, Carl","\u00d6berg, \u00c5sa",0-1\n',
        encoding="utf-8",
    )
    assert invoke(db, "import", "games", str(path)) == (
        1,
        "",
        f"Error: {path}:3: white: 'Elrad, Carl' is close to 2 Elard, Carl [typo]\n"
        "Error: 1 player needs a decision: --match 'NAME=ID' (or --match-file FILE) if it is a "
        "registered player; each decision is kept as an alias; nothing was imported\n",
    )
    assert invoke(db, "import", "games", str(path), "--match", "Elrad, Carl=2") == (
        0,
        f"Imported 2 games (2 to rate, 0 forfeits) in 2 events from {path}\n"
        "Players found 1 by your decisions\n"
        "  line 3: 'Elrad, Carl' taken for player 2 (Elard, Carl): your decision (--match, "
        "--match-file)\n"
        "Alias 'Elrad, Carl' kept for player 2 (Elard, Carl)\n",
        "",
    )
    assert rows(db, "SELECT white_id, black_id FROM games ORDER BY id") == [(1, 2), (2, 1)]
    # the next file: the alias finds him
    path.write_text(path.read_text("utf-8").replace("2025-01-0", "2025-02-0"), "utf-8")
    assert invoke(db, "import", "games", str(path))[1].splitlines()[1] == "Players found 1 by alias"
    assert rows(db, "SELECT white_id, black_id FROM games ORDER BY id")[2:] == [(1, 2), (2, 1)]


# --- digits ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("digits", "score"),
    [
        ("\u0661\u0665\u0660\u0660", "\u0661"),  # Arabic-Indic
        ("\uff11\uff15\uff10\uff10", "\uff11"),  # full-width
        ("1_500", "1_0"),
        ("\u00b9\u2075\u2070\u2070", "\u00b9"),  # superscript
    ],
)
def test_calculators_take_ascii_digits_only(digits: str, score: str) -> None:
    """int() and Decimal() read Arabic-Indic and full-width digits and underscores."""
    runner = CliRunner()
    result = runner.invoke(cli, ["calc", "performance", "--opponents", digits, "--score", "1"])
    assert result.exit_code == 2
    assert result.output.endswith(
        f"Error: Invalid value for '--opponents': not a comma-separated list of integer "
        f"ratings: {digits!r}\n"
    )
    result = runner.invoke(cli, ["calc", "performance", "--opponents", "1500", "--score", score])
    assert result.exit_code == 2
    assert result.output.endswith(f"Error: Invalid value for '--score': not a number: {score!r}\n")


@pytest.mark.parametrize("jobs", ["\u0664", "\uff14", "2_0"])
def test_publish_jobs_take_ascii_digits_only(tmp_path: Path, jobs: str) -> None:
    """click's IntRange reads Unicode digits and underscores as int() does."""
    result = CliRunner().invoke(
        cli, ["--db", str(tmp_path / "x.db"), "publish", str(tmp_path / "site"), "--jobs", jobs]
    )
    assert result.exit_code == 2
    assert result.output.endswith(
        f"Error: Invalid value for '--jobs': {jobs!r} is not a valid integer (digits 0-9).\n"
    )
    assert not (tmp_path / "site").exists()


def test_a_fide_id_in_other_digits_never_finds_a_player(tmp_path: Path, db: Path) -> None:
    """Seen: a FIDE id in Arabic-Indic digits in a games CSV resolved to a real player;
    superscript digits gave "invalid literal for int()"."""
    register(db, ("Elard, Carl", "--fide-id", "12"), ("Isstein, Felix",))
    path = tmp_path / "games.csv"
    path.write_text(
        "date,white,black,result\n"
        '2025-01-05,\u0661\u0662,"Isstein, Felix",1-0\n'
        '2025-01-06,\u00b9\u00b2,"Isstein, Felix",1-0\n',
        encoding="utf-8",
    )
    before = state(db)
    code, _, err = invoke(db, "import", "games", str(path))
    assert (code, err) == (
        1,
        f"Error: {path}:2: white: unknown player: '\u0661\u0662'\n"
        f"Error: {path}:3: white: unknown player: '\u00b9\u00b2'\n"
        "Error: 2 problems found; nothing was imported\n",
    )
    assert state(db) == before


# --- PGN identity ------------------------------------------------------------------------------


def _pgn(path: Path, *games: tuple[str, str, str]) -> Path:
    """Games as (White, WhiteFideId, Black)."""
    text = "".join(
        f'[Event "Club"]\n[Date "2025.01.{n + 5:02}"]\n[White "{white}"]\n'
        + (f'[WhiteFideId "{fide}"]\n' if fide else "")
        + f'[Black "{black}"]\n[Result "1-0"]\n\n1-0\n\n'
        for n, (white, fide, black) in enumerate(games)
    )
    path.write_text(text, encoding="utf-8")
    return path


def test_a_name_that_contradicts_the_fide_id_is_an_error(tmp_path: Path, db: Path) -> None:
    """Seen: `White "Elard, Carl"` with the WhiteFideId of another registered player was
    stored as the other player's game, silently."""
    register(
        db,
        ("Elard, Carl", "--fide-id", "4100018"),
        ("Isstein, Felix", "--fide-id", "4100026"),
        ("Joriston, Rafael",),
    )
    path = _pgn(
        tmp_path / "g.pgn",
        ("Elard, Carl", "4100026", "Joriston, Rafael"),
        ("Nobody, Known", "4100018", "Joriston, Rafael"),
    )
    before = state(db)
    assert invoke(db, "import", "pgn", str(path)) == (
        1,
        "",
        f"Error: {path}:1: WhiteFideId: 'Elard, Carl' does not match FIDE id 4100026, which "
        "belongs to player 2 (Isstein, Felix, FIDE 4100026); 'Elard, Carl' is player 1 "
        "(Elard, Carl, FIDE 4100018); correct the file or the register\n"
        f"Error: {path}:10: WhiteFideId: 'Nobody, Known' does not match FIDE id 4100018, which "
        "belongs to player 1 (Elard, Carl, FIDE 4100018); correct the file or the register\n"
        "Error: 2 problems found; nothing was imported\n",
    )
    assert state(db) == before


def test_a_short_form_of_the_registered_name_goes_with_its_fide_id(
    tmp_path: Path, db: Path
) -> None:
    register(db, ("\u00d6berg, \u00c5sa", "--fide-id", "4100018"), ("Joriston, Rafael",))
    path = _pgn(
        tmp_path / "g.pgn",
        ("Oberg,A", "4100018", "Joriston, Rafael"),
        ("Asa Oberg", "4100018", "Joriston, Rafael"),
    )
    assert invoke(db, "import", "pgn", str(path))[0] == 0
    assert rows(db, "SELECT white_id FROM games") == [(1,), (1,)]


# --- duplicates by content ---------------------------------------------------------------------

GAMES = (
    "date,white,black,result,event,round\n"
    '2025-01-05,"Elard, Carl","Isstein, Felix",1-0,Jan Cup,1\n'
    '2025-01-12,"Isstein, Felix","Joriston, Rafael",1/2-1/2,Jan Cup,2\n'
    '2025-01-19,"Joriston, Rafael","Elard, Carl",0-1,Jan Cup,3\n'
)


@pytest.mark.parametrize(
    "resaved",
    [GAMES.replace("\n", "\r\n"), GAMES + "\n", GAMES.replace("Jan Cup", "JAN CUP")],
    ids=["crlf", "one-more-newline", "event-case"],
)
def test_a_games_file_saved_again_is_refused(tmp_path: Path, db: Path, resaved: str) -> None:
    """Seen: the same games CSV saved with CRLF or one more newline imported again (three
    events named "Jan Cup")."""
    register(db, ("Elard, Carl",), ("Isstein, Felix",), ("Joriston, Rafael",))
    first = tmp_path / "jan.csv"
    first.write_bytes(GAMES.encode())
    assert invoke(db, "import", "games", str(first))[0] == 0
    again = tmp_path / "jan-again.csv"
    again.write_bytes(resaved.encode())
    before = state(db)
    code, out, err = invoke(db, "import", "games", str(again))
    assert (code, out) == (1, "")
    assert err == (
        f"Error: {again}: 3 of 3 games are already stored (same date, players, result, event "
        f"and round; lines 2, 3, 4): 3 like games imported from {first} (import 1, "
        f"{rows(db, 'SELECT imported_at FROM imports')[0][0]!s:.16} UTC); nothing was "
        "imported; --allow-duplicates imports them anyway\n"
    )
    assert state(db) == before
    assert invoke(db, "import", "games", str(again), "--allow-duplicates")[0] == 0
    assert rows(db, "SELECT count(*) FROM games") == [(6,)]


def test_a_games_file_with_some_stored_games_names_them(tmp_path: Path, db: Path) -> None:
    register(db, ("Elard, Carl",), ("Isstein, Felix",), ("Joriston, Rafael",))
    assert (
        invoke(
            db,
            "game",
            "add",
            "Elard, Carl",
            "Isstein, Felix",
            "1-0",
            "--date",
            "2025-01-05",
            "--event",
            "Jan Cup",
            "--round",
            "1",
        )[0]
        == 0
    )
    path = tmp_path / "jan.csv"
    path.write_text(GAMES, encoding="utf-8")
    code, _, err = invoke(db, "import", "games", str(path))
    assert (code, err) == (
        1,
        f"Error: {path}: 1 of 3 games are already stored (same date, players, result, event "
        "and round; line 2): 1 like games entered by hand; nothing was imported; "
        "--allow-duplicates imports them anyway\n",
    )
    # another result, round or date is another game
    path.write_text(GAMES.replace(",1-0,Jan Cup,1", ",0-1,Jan Cup,1"), encoding="utf-8")
    assert invoke(db, "import", "games", str(path))[0] == 0


def test_a_tournament_file_saved_again_is_refused(tmp_path: Path, db: Path) -> None:
    """Seen: held_swiss_9.trf re-saved with CRLF created a second event of the same name and
    dates (68 duplicate games)."""
    original = TRF / "held_swiss_9.trf"
    assert invoke(db, "import", "trf", str(original))[0] == 0
    again = tmp_path / "held_swiss_9.trf"
    again.write_bytes(original.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    assert again.read_bytes() != original.read_bytes()
    before = state(db)
    code, out, err = invoke(db, "import", "trf", str(again))
    ((name, start, end, games),) = rows(
        db, "SELECT e.name, e.start_date, e.end_date, (SELECT count(*) FROM games) FROM events e"
    )
    ((when,),) = rows(db, "SELECT imported_at FROM imports")
    players = rows(db, "SELECT count(*) FROM players")[0][0]
    assert (code, out, err) == (
        1,
        "",
        f"Error: {again}: its event is already stored (same name, dates and players): event 1 "
        f"'{name}' ({start} .. {end}, {players} players, {games} games) imported from "
        f"{original} (import 1, {when!s:.16} UTC); nothing was imported; --allow-duplicates "
        "imports the file anyway\n",
    )
    assert state(db) == before
    assert invoke(db, "import", "trf", str(again), "--allow-duplicates")[0] == 0
    assert rows(db, "SELECT count(*) FROM events") == [(2,)]


def test_a_pgn_file_saved_again_is_refused(tmp_path: Path, db: Path) -> None:
    register(db, ("Elard, Carl",), ("Isstein, Felix",))
    first = _pgn(tmp_path / "a.pgn", ("Elard, Carl", "", "Isstein, Felix"))
    assert invoke(db, "import", "pgn", str(first))[0] == 0
    again = tmp_path / "b.pgn"
    again.write_bytes(first.read_bytes().replace(b"\n", b"\r\n"))
    code, _, err = invoke(db, "import", "pgn", str(again))
    assert code == 1
    assert err.startswith(
        f"Error: {again}: its event is already stored (same name, dates and "
        "players): event 1 'Club' (2025-01-05 .. 2025-01-05, 2 players, 1 "
        f"games) imported from {first} (import 1, "
    )
    assert invoke(db, "import", "pgn", str(again), "--allow-duplicates")[0] == 0


# --- merge and unmerge -------------------------------------------------------------------------

SNAPSHOT = {
    "players": "SELECT * FROM players ORDER BY id",
    "games": "SELECT * FROM games ORDER BY id",
    "byes": "SELECT * FROM byes ORDER BY id",
}


def _snapshot(db: Path) -> dict[str, list[tuple[object, ...]]]:
    return {table: rows(db, sql) for table, sql in SNAPSHOT.items()}


def _twins(tmp_path: Path, db: Path) -> None:
    """Ann (FIDE 4100018, 1990) and Ann Twin (FIDE 4100026, 1991), each with games, rated."""
    register(
        db,
        ("Ann", "--fide-id", "4100018", "--birthdate", "1990", "--rating", "1800"),
        (
            "Ann Twin",
            "--fide-id",
            "4100026",
            "--birthdate",
            "1991-05-06",
            "--sex",
            "f",
            "--federation",
            "NED",
        ),
        ("Bob", "--rating", "1700"),
        ("Cid", "--rating", "1750"),
    )
    for n in range(25):
        white, black = ("Ann Twin", "Bob") if n % 2 else ("Cid", "Ann Twin")
        assert (
            invoke(db, "game", "add", white, black, "1-0", "--date", f"2025-01-{n + 1:02}")[0] == 0
        )
    assert invoke(db, "game", "add", "Ann", "Bob", "1/2-1/2", "--date", "2025-01-30")[0] == 0
    assert invoke(db, "rate")[0] == 0


def test_merge_asks_and_refuses_two_people(tmp_path: Path, db: Path) -> None:
    """Seen: merging two players with different FIDE ids moved 25 games without a prompt,
    set the duplicate's FIDE id to NULL and recorded nothing."""
    _twins(tmp_path, db)
    before = state(db)
    assert invoke(db, "player", "merge", "Ann", "Ann Twin") == (
        1,
        "",
        "Error: 2 (Ann Twin, FIDE 4100026, born 1991-05-06) and 1 (Ann, FIDE 4100018, born "
        "1990) have different FIDE ids (4100018 and 4100026) and different birth years (1990 "
        "and 1991): they look like two people; --force merges them anyway\n",
    )
    assert invoke(db, "player", "merge", "Ann", "Ann Twin", "--force") == (
        1,
        "",
        "Merge 2 (Ann Twin, FIDE 4100026, born 1991-05-06) into 1 (Ann, FIDE 4100018, born "
        "1990): 25 games and 0 byes move to player 1\n"
        "  Ann (id 1) sex: (none) -> f\n"
        "  Ann (id 1) federation: (none) -> NED\n"
        "Merge them? [y/N]: \n"
        "Error: not confirmed; nothing was changed (--yes confirms without asking)\n",
    )
    assert state(db) == before


def test_merge_and_unmerge_restore_both_players_exactly(tmp_path: Path, db: Path) -> None:
    _twins(tmp_path, db)
    before = _snapshot(db)
    lists = rows(db, "SELECT * FROM rating_lists ORDER BY period, player_id")
    assert invoke(
        db,
        "player",
        "merge",
        "Ann",
        "Ann Twin",
        "--force",
        "--yes",
        "--reason",
        "one person, two FIDE ids",
    ) == (
        0,
        "Merged Ann Twin (id 2) into Ann (id 1): 25 games and 0 byes moved; "
        "'ratings player unmerge 2' undoes it\n"
        "  player 1 (Ann): sex (none) -> f\n"
        "  player 1 (Ann): federation (none) -> NED\n"
        "  player 2 (Ann Twin): merged_into_id (none) -> 1\n",
        "This touches rated period 2025-01: 'ratings rate' re-rates from there\n",
    )
    # both FIDE ids find the player kept; the duplicate keeps its own
    for ref in ("fide:4100018", "fide:4100026"):
        assert invoke(db, "player", "show", ref)[1].splitlines()[1] == "name:          Ann"
    assert rows(db, "SELECT fide_id, merged_into_id FROM players WHERE id = 2") == [(4100026, 1)]
    assert rows(db, "SELECT count(*) FROM games WHERE 2 IN (white_id, black_id)") == [(0,)]
    assert rows(
        db,
        "SELECT action, player_id, field, old_value, new_value, reason FROM "
        "corrections ORDER BY id",
    ) == [
        ("player_merge", 1, "sex", None, "f", "one person, two FIDE ids"),
        ("player_merge", 1, "federation", None, "NED", "one person, two FIDE ids"),
        ("player_merge", 2, "merged_into_id", None, "1", "one person, two FIDE ids"),
    ]
    assert rows(db, "SELECT count(*), min(from_player_id), min(to_player_id) FROM merge_moves") == [
        (25, 2, 1)
    ]
    assert invoke(db, "rate")[0] == 0

    assert invoke(db, "player", "unmerge", "2", "--yes") == (
        0,
        "Unmerged Ann Twin (id 2) from Ann (id 1): 25 games and 0 byes moved back\n"
        "  player 1 (Ann): federation NED -> (none)\n"
        "  player 1 (Ann): sex f -> (none)\n"
        "  player 2 (Ann Twin): merged_into_id 1 -> (none)\n",
        "This touches rated period 2025-01: 'ratings rate' re-rates from there\n",
    )
    assert _snapshot(db) == before
    code, out, _ = invoke(db, "rate")
    assert code == 0
    assert out.startswith("Re-rated")
    assert rows(db, "SELECT * FROM rating_lists ORDER BY period, player_id") == lists
    assert [a for (a,) in rows(db, "SELECT DISTINCT action FROM corrections")] == [
        "player_merge",
        "player_unmerge",
    ]


def test_a_merge_moves_the_fide_id_and_unmerge_gives_it_back(tmp_path: Path, db: Path) -> None:
    register(db, ("Ann",), ("Ann B", "--fide-id", "4100018", "--games", "40", "--k10"), ("Bob",))
    assert invoke(db, "game", "add", "Ann B", "Bob", "1-0", "--date", "2025-01-05")[0] == 0
    before = _snapshot(db)
    assert invoke(db, "player", "merge", "Ann", "Ann B", "--yes")[0] == 0
    assert rows(
        db,
        "SELECT id, fide_id, entry_games, k10, merged_into_id FROM players "
        "WHERE id < 3 ORDER BY id",
    ) == [(1, 4100018, 40, 1, None), (2, None, 40, 1, 1)]
    assert invoke(db, "player", "show", "fide:4100018")[1].splitlines()[1] == "name:          Ann"
    assert invoke(db, "player", "unmerge", "Ann B", "--yes")[0] == 0
    assert _snapshot(db) == before


def test_unmerge_keeps_later_corrections_and_says_so(tmp_path: Path, db: Path) -> None:
    register(db, ("Ann",), ("Ann B", "--federation", "NED"), ("Bob",))
    for day in ("05", "06"):
        assert invoke(db, "game", "add", "Ann B", "Bob", "1-0", "--date", f"2025-01-{day}")[0] == 0
    assert invoke(db, "player", "merge", "Ann", "Ann B", "--yes")[0] == 0
    assert invoke(db, "game", "void", "1")[0] == 0
    assert invoke(db, "player", "edit", "Ann", "--federation", "GER")[0] == 0
    assert invoke(db, "player", "unmerge", "Ann B", "--yes") == (
        0,
        "Unmerged Ann B (id 2) from Ann (id 1): 1 game and 0 byes moved back\n"
        "  player 2 (Ann B): merged_into_id 1 -> (none)\n",
        "Not restored: game 1 was removed since the merge\n"
        "Not restored: federation of player 1 was changed since the merge (now GER); kept\n",
    )
    assert rows(db, "SELECT id, federation FROM players ORDER BY id") == [
        (1, "GER"),
        (2, "NED"),
        (3, None),
    ]
    assert rows(db, "SELECT white_id FROM games") == [(2,)]


def test_unmerge_lists_what_imports_gave_the_kept_player_while_merged(
    tmp_path: Path, db: Path
) -> None:
    """Seen: a game imported while 'Smith, J.' was merged into 'Smith, John', its file's
    'Smith, J.' taken for the player kept through the merged record's name, stayed with
    Smith, John after the unmerge, and the unmerge did not say so. The database does not
    keep the names a file wrote: every game an import gave the kept player meanwhile is
    listed, and none is moved (the import reported its decision)."""
    register(db, ("Smith, John", "--birthdate", "1980"), ("Smith, J.",), ("Jones, Bob",), ("Cid",))
    header = "date,white,black,result,event,round\n"
    files = {
        "g1.csv": '2025-03-10,"Smith, J.","Jones, Bob",1-0,Cup,1\n',
        "g2.csv": '2025-04-10,"Smith, J.","Jones, Bob",1-0,Cup2,1\n'
        '2025-04-10,Cid,"Jones, Bob",0-1,Cup2,2\n',
    }
    for name, body in files.items():
        (tmp_path / name).write_text(header + body, encoding="utf-8")
    assert invoke(db, "import", "games", str(tmp_path / "g1.csv"))[0] == 0
    assert invoke(db, "player", "merge", "1", "2", "--yes")[0] == 0
    code, out, _ = invoke(db, "import", "games", str(tmp_path / "g2.csv"))
    assert (code, out.splitlines()[-1]) == (
        0,
        "  line 2: 'Smith, J.' taken for player 1 (Smith, John): alias 'Smith, J.'",
    )
    assert invoke(db, "game", "add", "Smith, John", "Cid", "1-0", "--date", "2025-04-12")[0] == 0
    assert invoke(db, "player", "unmerge", "2", "--yes") == (
        0,
        "Unmerged Smith, J. (id 2) from Smith, John (id 1): 1 game and 0 byes moved back\n"
        "  player 2 (Smith, J.): merged_into_id 1 -> (none)\n",
        "Stored while the two were merged, by imports that may have taken 'Smith, J.' for "
        "player 1 (the database does not keep the names a file wrote); left with player 1, "
        "look at them:\n"
        "  game 2: 2025-04-10 round 1, Smith, John (id 1) - Jones, Bob (id 3) 1-0 "
        f"(import 2, {tmp_path / 'g2.csv'})\n"
        "No command moves a game or bye to another player: 'ratings import undo ID' and the "
        "file imported again (its names are then found as registered now), or 'ratings game "
        "void ID' and 'ratings game add'\n",
    )
    assert rows(db, "SELECT id, white_id, black_id FROM games ORDER BY id") == [
        (1, 2, 3),
        (2, 1, 3),
        (3, 4, 3),
        (4, 1, 4),
    ]


def test_unmerge_refusals(db: Path) -> None:
    register(db, ("Ann",), ("Bob",))
    assert invoke(db, "player", "unmerge", "Ann", "--yes") == (
        1,
        "",
        "Error: 1 (Ann) is not merged into another player; nothing to unmerge\n",
    )
    assert invoke(db, "player", "unmerge", "Zed", "--yes") == (
        1,
        "",
        "Error: no merged player 'Zed'\n",
    )


# --- import players --update -------------------------------------------------------------------


def test_a_register_update_is_imported(tmp_path: Path, db: Path) -> None:
    """Seen: `import players` rejected the whole file if any row was registered, so a monthly
    register update could not be imported."""
    first = tmp_path / "march.csv"
    first.write_text(
        "name,fide_id,birthdate,rating,federation,games\n"
        '"Elard, Carl",4100018,1990,1800,NED,40\n'
        '"Isstein, Felix",,2001-02-03,1700,,40\n'
        '"Joriston, Rafael",4100026,,,,\n',
        encoding="utf-8",
    )
    assert invoke(db, "import", "players", str(first))[0] == 0
    assert invoke(db, "game", "add", "1", "2", "1-0", "--date", "2025-01-05")[0] == 0
    assert invoke(db, "rate")[0] == 0
    update = tmp_path / "april.csv"
    update.write_text(
        "name,fide_id,birthdate,rating,federation,games\n"
        '"Elard-Berg, Carl",4100018,1990-04-05,1800,GER,\n'  # by FIDE id: renamed, born, federation
        '"ISSTEIN, Felix",4100034,2001-02-03,1750,,\n'  # by name: FIDE id, new entry rating
        '"Joriston, Rafael",4100026,,,,\n'  # unchanged
        '"Nowak, Ola",,,1500,POL,0\n',  # new
        encoding="utf-8",
    )
    before = state(db)
    hint = "; 'import players --update' refreshes registered players\n"
    assert invoke(db, "import", "players", str(update)) == (
        1,
        "",
        f"Error: {update}:2: fide_id: already belongs to player 1 (Elard, Carl, FIDE 4100018, "
        f"born 1990): 4100018{hint}"
        f"Error: {update}:3: name: already registered as player 2 (Isstein, Felix, born "
        f"2001-02-03): 'ISSTEIN, Felix'{hint}"
        f"Error: {update}:4: fide_id: already belongs to player 3 (Joriston, Rafael, FIDE "
        f"4100026): 4100026{hint}"
        "Error: 3 problems found; nothing was imported\n",
    )
    assert state(db) == before
    assert invoke(db, "import", "players", str(update), "--update") == (
        0,
        "Player 1 (Elard-Berg, Carl): name Elard, Carl -> Elard-Berg, Carl\n"
        "Player 1 (Elard-Berg, Carl): federation NED -> GER\n"
        "Player 1 (Elard-Berg, Carl): birth_date (none) -> 1990-04-05\n"
        "Player 2 (ISSTEIN, Felix): name Isstein, Felix -> ISSTEIN, Felix\n"
        "Player 2 (ISSTEIN, Felix): fide_id (none) -> 4100034\n"
        "Player 2 (ISSTEIN, Felix): entry_rating 1700 -> 1750\n"
        f"Imported 1 new player, updated 2 (1 unchanged) from {update}\n",
        "This touches rated period 2025-01: 'ratings rate' re-rates from there\n",
    )
    assert rows(
        db,
        "SELECT name, name_key, fide_id, birth_date, birth_year, entry_rating, "
        "federation FROM players ORDER BY id",
    ) == [
        ("Elard-Berg, Carl", "elard-berg, carl", 4100018, "1990-04-05", 1990, 1800, "GER"),
        ("ISSTEIN, Felix", "isstein, felix", 4100034, "2001-02-03", 2001, 1750, None),
        ("Joriston, Rafael", "joriston, rafael", 4100026, None, None, None, None),
        ("Nowak, Ola", "nowak, ola", None, None, None, 1500, "POL"),
    ]
    assert rows(
        db,
        "SELECT action, player_id, field, old_value, new_value, import_id "
        "FROM corrections ORDER BY id",
    ) == [
        ("player_edit", 1, "birth_date", None, "1990-04-05", 2),
        ("player_edit", 1, "name", "Elard, Carl", "Elard-Berg, Carl", 2),
        ("player_edit", 1, "federation", "NED", "GER", 2),
        ("player_edit", 2, "fide_id", None, "4100034", 2),
        ("player_edit", 2, "name", "Isstein, Felix", "ISSTEIN, Felix", 2),
        ("player_edit", 2, "entry_rating", "1700", "1750", 2),
    ]
    assert rows(db, "SELECT status FROM rating_periods") == [("needs_rerate",)]
    # the same update again changes nothing
    update.write_bytes(update.read_bytes() + b"\n")
    assert invoke(db, "import", "players", str(update), "--update") == (
        0,
        f"Imported 0 new players, updated 0 (4 unchanged) from {update}\n",
        "",
    )


def test_an_update_row_that_matches_two_namesakes_needs_a_decision(
    tmp_path: Path, db: Path
) -> None:
    register(
        db,
        ("Wang, Hao", "--birthdate", "1990"),
        ("Wang, Hao", "--birthdate", "1995", "--allow-same-name"),
    )
    path = tmp_path / "p.csv"
    path.write_text('name,rating\n"Wang, Hao",1900\n', encoding="utf-8")
    assert invoke(db, "import", "players", str(path), "--update") == (
        1,
        "",
        f"Error: {path}:2: name: 'Wang, Hao' is close to 1 Wang, Hao (born 1990) [same name], "
        "2 Wang, Hao (born 1995) [same name]\n"
        "Error: 1 player needs a decision: --match 'NAME=ID' (or --match-file FILE) if it is a "
        "registered player; each decision is kept as an alias; nothing was imported\n",
    )
    path.write_text('name,birthdate,rating\n"Wang, Hao",1995,1900\n', encoding="utf-8")
    assert invoke(db, "import", "players", str(path), "--update")[1] == (
        "Player 2 (Wang, Hao): entry_rating (none) -> 1900\n"
        f"Imported 0 new players, updated 1 (0 unchanged) from {path}\n"
    )
