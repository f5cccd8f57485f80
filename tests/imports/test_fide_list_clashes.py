"""`import fide-list` beside the register's names: what a list row may not take silently.

Seen: `--add` registered a list player whose name was a registered player's alias, or
folded alike with a registered player's own name (`Mueller, Hans` beside the club's
`Müller, Hans`, another FIDE id), with no word; the games CSV that wrote that name went to
the club member before and to the new list player after. `player add` refuses both (an alias
never takes a live player's own name; a namesake needs telling apart and
`--allow-same-name`). Decision: `--add` leaves such a list player out and reports him, as it
does its unsure names, with the command that adds him by hand.

Seen too: a registered player found by FIDE id took the list row's rating and birth year
whatever name the row gave (`Brown, Carl`, his FIDE id mistyped as `Muller, Hans`'s). TRF and
PGN imports refuse a name that shares no word with the registered one beside a FIDE id.
Decision: such a row is not applied and is reported, naming both; the rest of the list
imports."""

from __future__ import annotations

from pathlib import Path

from tests.imports.test_fide_list import NEWCOMER, foa_list
from tests.support import Club

NOWAK = ("999", "Nowak, Jan", "POL", "M", "", "", "", "",
         1900, 10, 20, 0, 0, 0, 0, 0, 0, 1988, "")  # fmt: skip
MUELLER = ("998", "Mueller, Hans", "GER", "M", "", "", "", "",
           1900, 10, 20, 0, 0, 0, 0, 0, 0, 1988, "")  # fmt: skip
MULLER_301 = ("301", "Muller, Hans", "GER", "M", "", "", "", "",
              1811, 10, 20, 0, 0, 0, 0, 0, 0, 1960, "")  # fmt: skip


def _games(club: Club, tmp_path: Path, name: str, day: str) -> str:
    path = tmp_path / f"games-{day}.csv"
    path.write_text(
        f'date,white,black,result,event,round\n{day},"{name}","Brown, Carl",1-0,League,{day}\n',
        "utf-8",
    )
    return club.ok("import", "games", str(path))


def test_a_list_player_whose_name_is_an_alias_is_not_added(tmp_path: Path) -> None:
    club = Club(tmp_path / "club.db")
    club.player("Novák, Jan", "--fide-id", "111", "--birthdate", "1970")
    club.player("Brown, Carl")
    club.ok("player", "alias", "add", "1", "Nowak, Jan", "--reason", "the league's spelling")
    path = foa_list(tmp_path / "list.txt", NOWAK, NEWCOMER)
    code, out = club.run("import", "fide-list", str(path), "--month", "2025-02", "--add")
    assert code == 0
    assert out.splitlines() == [
        f"Read 2 players from {path} (FIDE's list of 2025-02): 0 registered found by FIDE id, "
        "0 of them updated, 1 player added",
        f"Warning: {path}:2: name: 'Nowak, Jan' (FIDE id 999) not added: it is an alias of "
        "player 1 (Novák, Jan, FIDE 111), whom the files that write it name; if they are two "
        "people: 'ratings player add \"Nowak, Jan\" --fide-id 999 --allow-same-name' adds him "
        "by hand, or 'ratings player alias remove \"Nowak, Jan\"' and --add again",
    ]
    assert club.rows("SELECT name, fide_id FROM players ORDER BY id") == [
        ("Novák, Jan", 111),
        ("Brown, Carl", None),
        ("Murphy, Sean", 4100018),
    ]
    # the games CSV's spelling still goes to the club's player
    assert "taken for player 1 (Novák, Jan): alias 'Nowak, Jan'" in _games(
        club, tmp_path, "Nowak, Jan", "2025-03-10"
    )


def test_a_list_player_whose_name_folds_like_a_registered_name_is_not_added(
    tmp_path: Path,
) -> None:
    club = Club(tmp_path / "club.db")
    club.player("Müller, Hans", "--fide-id", "555", "--birthdate", "1970")
    club.player("Brown, Carl")
    path = foa_list(tmp_path / "list.txt", MUELLER)
    code, out = club.run("import", "fide-list", str(path), "--month", "2025-02", "--add")
    assert code == 0
    assert out.splitlines() == [
        f"Read 1 player from {path} (FIDE's list of 2025-02): 0 registered found by FIDE id, "
        "0 of them updated, 0 players added",
        f"Warning: {path}:2: name: 'Mueller, Hans' (FIDE id 998) not added: it is the name of "
        "player 1 (Müller, Hans, FIDE 555), folded, whom the files that write it name; if "
        'they are two people: \'ratings player add "Mueller, Hans" --fide-id 998 '
        "--allow-same-name' adds him by hand",
    ]
    assert club.rows("SELECT count(*) FROM players") == [(2,)]
    assert "taken for player 1 (Müller, Hans)" in _games(
        club, tmp_path, "Mueller, Hans", "2025-03-10"
    )
    # the command the report gives adds him (the two have FIDE ids that differ)
    club.ok("player", "add", "Mueller, Hans", "--fide-id", "998", "--allow-same-name")
    # --add of the same list again finds him by FIDE id and has no one left out
    out = club.ok("import", "fide-list", str(path), "--month", "2025-02", "--add")
    assert "not added" not in out


def test_a_registered_player_whose_fide_id_gives_another_name_is_not_refreshed(
    tmp_path: Path,
) -> None:
    club = Club(tmp_path / "club.db")
    club.player("Brown, Carl", "--fide-id", "301", "--birthdate", "2012", "--sex", "m",
                "--rating", "1200", "--games", "50")  # fmt: skip
    club.player("Murphy, S.", "--fide-id", "4100018")
    before = club.rows("SELECT * FROM players WHERE id = 1")
    path = foa_list(tmp_path / "list.txt", MULLER_301, NEWCOMER)
    code, out = club.run("import", "fide-list", str(path), "--month", "2025-02")
    assert code == 0
    lines = out.splitlines()
    # the rest of the list imports
    assert lines[0] == "Player 2 (Murphy, S.): entry_rating (none) -> 1900"
    assert lines[-2:] == [
        f"Read 2 players from {path} (FIDE's list of 2025-02): 2 registered found by FIDE id, "
        "1 of them updated",
        f"Warning: {path}:2: name: 'Muller, Hans' (FIDE id 301) not taken: FIDE id 301 is "
        "player 1's (Brown, Carl), and the names share no word; the register's FIDE id may "
        "be mistyped: 'ratings player edit 1 --fide-id N' corrects it",
    ]
    assert club.rows("SELECT * FROM players WHERE id = 1") == before
    assert not club.rows("SELECT * FROM corrections WHERE player_id = 1 AND field <> 'name'")
