"""``ratings verify`` on a published website and on downloaded list files (docs/SEALS.md): a
one-character change, a deleted row, an edited chain and a withdrawn list are found and
named by file, line, player and field; an older version of a list is named as such."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.publish_helpers import demo
from tests.support import invoke

SEAL_0606 = "a08f0f503391db7e8054c91b1076ef7dc6a2c71da4d218982c108650ab34fa2a"
"""The demo's seal of the June 2025 list."""


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demo database and its website, made once (tests work on copies)."""
    folder = tmp_path_factory.mktemp("verify")
    db = demo(folder)
    code, _, err = invoke(None, "--db", str(db), "publish", str(folder / "site"))
    assert code == 0, err
    return db, folder / "site"


@pytest.fixture
def site(published: tuple[Path, Path], tmp_path: Path) -> Path:
    return Path(shutil.copytree(published[1], tmp_path / "site"))


@pytest.fixture
def db(published: tuple[Path, Path], tmp_path: Path) -> Path:
    return Path(shutil.copyfile(published[0], tmp_path / "demo.db"))


def replace_line(path: Path, old: str, new: str) -> int:
    """Replace the one line that starts with ``old``; returns its line number."""
    lines = path.read_text("utf-8").split("\n")
    (number,) = [i for i, line in enumerate(lines, 1) if line.startswith(old)]
    lines[number - 1] = new + lines[number - 1][len(old) :] if new is not None else ""
    path.write_text("\n".join(lines), "utf-8")
    return number


def test_a_published_site_verifies(site: Path) -> None:
    assert invoke(None, "verify", str(site)) == (
        0,
        f"Verified {site}: 12 lists, 12 seals and 1,344 rows checked; every one is as sealed\n",
        "",
    )


def test_one_character_changed_in_a_published_csv(site: Path) -> None:
    csv = site / "lists/2025-06.csv"
    number = replace_line(csv, '"Braley, Zoe",9475836,NED,,,1857,',
                          '"Braley, Zoe",9475836,NED,,,1858,')  # fmt: skip
    code, out, err = invoke(None, "verify", str(site))
    assert code == 1
    assert out == (
        f"{csv}: its rows are not those of the standard list 2025-06, version 1\n"
        f"{csv}:{number}: player 18: rating 1858, the sealed list (2025-06-sealed.csv) says "
        "1857\n"
    )
    assert err == (
        f"Error: 2 differences between {site} and its seals (12 lists, 12 seals and 1,344 "
        "rows checked)\n"
    )


def test_a_row_deleted_from_a_published_list(site: Path) -> None:
    csv = site / "lists/2025-06.csv"
    lines = [line for line in csv.read_text("utf-8").split("\n") if '"Braley, Zoe"' not in line]
    csv.write_text("\n".join(lines), "utf-8")
    doc = json.loads((site / "lists/2025-06.json").read_text("utf-8"))
    doc["players"] = [row for row in doc["players"] if row[1] != 17]
    (site / "lists/2025-06.json").write_text(json.dumps(doc), "utf-8")
    code, out, _ = invoke(None, "verify", str(site))
    assert code == 1
    assert out.splitlines() == [
        f"{csv}: its rows are not those of the standard list 2025-06, version 1",
        f"{site}/lists/2025-06.json: its rows are not those of the standard list 2025-06, "
        "version 1",
        f"{csv}: player 18's row is missing (the sealed list (2025-06-sealed.csv) has it: "
        "rating 1857, games 4)",
        f"{site}/lists/2025-06.json: player 17's row is missing (the sealed list "
        "(2025-06-sealed.csv) has it: rating 2059, games 0)",
    ]


def test_the_sealed_rows_edited_are_told_against_the_other_copies(site: Path) -> None:
    sealed = site / "lists/2025-06-sealed.csv"
    number = replace_line(sealed, "18,1857,", "18,1858,")
    code, out, _ = invoke(None, "verify", str(site))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{sealed}: its SHA-256 is ")
    assert lines[0].endswith(
        "the standard list 2025-06, version 1 is sealed with rows digest "
        "661a0d8264cbd6a2d141c0bb1eb753d859dc485b8da87b0e06443b1c4907aedf"
    )
    assert lines[1:] == [
        f"{sealed}:{number}: player 18: rating 1858, the sealed list (2025-06.csv) says 1857"
    ]


def test_an_edited_chain_is_found(site: Path) -> None:
    """A seal changed in seals.json breaks its own hash and the next list's link, and no
    longer matches the copies of its list."""
    chain = site / "seals.json"
    doc = json.loads(chain.read_text("utf-8"))
    doc["seals"][5]["seal"] = "0" * 64
    chain.write_text(json.dumps(doc), "utf-8")
    code, out, _ = invoke(None, "verify", str(site))
    assert code == 1
    assert out.splitlines() == [
        f"{chain}: standard list 2025-06, version 1: seal {'0' * 64}, its values give {SEAL_0606}",
        f"{chain}: standard list 2025-07, version 1: previous seal {SEAL_0606}, but the list "
        f"before it is sealed {'0' * 64}",
        f"{site}/lists/2025-06.csv: carries the seal {SEAL_0606}, the standard list 2025-06, "
        f"version 1 is sealed {'0' * 64}",
        f"{site}/lists/2025-06.json: carries the seal {SEAL_0606}, the standard list "
        f"2025-06, version 1 is sealed {'0' * 64}",
    ]


def test_a_withdrawn_list_left_on_a_site(db: Path, site: Path, tmp_path: Path) -> None:
    kept = tmp_path / "2025-12.csv"
    shutil.copyfile(site / "lists/2025-12.csv", kept)
    assert invoke(None, "--db", str(db), "unrate", "--from", "2025-12", "-y")[0] == 0
    assert invoke(None, "--db", str(db), "publish", str(site))[0] == 0
    assert not (site / "lists/2025-12.csv").exists()
    assert invoke(None, "verify", str(site))[0] == 0
    shutil.copyfile(kept, site / "lists/2025-12.csv")
    code, out, _ = invoke(None, "verify", str(site))
    assert code == 1
    assert out == (
        f"{site}/lists/2025-12.csv: a list published, but the chain withdrew it (standard "
        "list 2025-12, version 2: withdrawn by unrate; after correction batch 1 (unrate))\n"
    )


def test_a_downloaded_list_verifies_alone(site: Path, tmp_path: Path) -> None:
    """A member's copy: the list's CSV (or JSON) and the chain in one folder."""
    mine = tmp_path / "downloads"
    mine.mkdir()
    for name in ("lists/2025-06.csv", "lists/2025-06.json", "seals.json"):
        shutil.copyfile(site / name, mine / Path(name).name)
    for name in ("2025-06.csv", "2025-06.json"):
        assert invoke(None, "verify", str(mine / name)) == (
            0,
            f"Verified {mine / name}: 1 list, 12 seals and 40 rows checked; every one is as "
            "sealed\n",
            "",
        )
    replace_line(mine / "2025-06.csv", '"Braley, Zoe",9475836,NED,,,1857,',
                 '"Braley, Zoe",9475836,NED,,,1858,')  # fmt: skip
    code, out, _ = invoke(None, "verify", str(mine / "2025-06.csv"))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(
        f"{mine}/2025-06.csv: its rows are not those of the standard list 2025-06, version 1"
    )
    assert lines[1:] == [
        f"{mine}/2025-06.csv:15: player 18: rating 1858, the sealed list (2025-06.json) says 1857"
    ]


def test_an_older_version_of_a_list_is_named(db: Path, site: Path, tmp_path: Path) -> None:
    """A copy downloaded before a correction: authentic, and replaced; not a difference."""
    old = tmp_path / "2025-06.csv"
    shutil.copyfile(site / "lists/2025-06.csv", old)
    assert invoke(None, "--db", str(db), "game", "edit", "301", "--result", "0-1", "-y")[0] == 0
    assert invoke(None, "--db", str(db), "rate")[0] == 0
    assert invoke(None, "--db", str(db), "publish", str(site))[0] == 0
    code, out, _ = invoke(None, "verify", str(old), "--seals", str(site / "seals.json"))
    assert code == 0
    assert out.splitlines()[0] == (
        f"note: {old}: the standard list 2025-06, version 1, sealed {SEAL_0606}; version 2 "
        "replaced it: rated again: its rows and its inputs changed; after correction batch 1 "
        "(game_edit)"
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        ("notes.txt", "is not a list file of a ratings website"),
        ("2025-06.csv", "no seals.json beside"),
    ],
)
def test_what_verify_cannot_read(tmp_path: Path, make: str, message: str) -> None:
    path = tmp_path / make
    path.write_text("x\n", "utf-8")
    code, out, err = invoke(None, "verify", str(path))
    assert (code, out) == (1, "")
    assert err.startswith("Error: ")
    assert message in err
    assert err.count("\n") == 1


def test_a_folder_without_seals(tmp_path: Path) -> None:
    assert invoke(None, "verify", str(tmp_path)) == (
        1,
        "",
        f"Error: no seals.json in {str(tmp_path)!r}: not a website 'ratings publish' wrote, or "
        "one published before lists were sealed ('ratings rate', then publish it again)\n",
    )


def test_a_damaged_value_is_named_by_line_and_field(site: Path) -> None:
    csv = site / "lists/2025-06.csv"
    number = replace_line(csv, '"Braley, Zoe",9475836,NED,,,1857,',
                          '"Braley, Zoe",9475836,NED,,,18x7,')  # fmt: skip
    code, out, _ = invoke(None, "verify", str(site))
    assert code == 1
    assert out.splitlines()[0] == f"{csv}:{number}: rating: not a whole number: '18x7'"


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("2025-06.csv", "player_id,rating,change,period_games,total_games,next_k,k10,flags,seal\n"
         '"' + "x" * 200_000 + '",1,2,3,4,5,true,,s\n', "not a CSV file: field larger than"),
        ("2025-06.json", "[" * 100_000 + "]" * 100_000, "nested too deep"),
        ("2025-06.json", '{"kind": "list", "players": [1', "not JSON"),
        ("2025-06.csv", b"\xff\xfe not text", "not UTF-8 (byte 0)"),
    ],
)  # fmt: skip
def test_hostile_files(
    site: Path, tmp_path: Path, name: str, content: str | bytes, error: str
) -> None:
    """A file no publish wrote: one line naming it, exit 1, never a traceback."""
    mine = tmp_path / "hostile"
    mine.mkdir()
    shutil.copyfile(site / "seals.json", mine / "seals.json")
    path = mine / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    code, out, err = invoke(None, "verify", str(path))
    assert (code, out) == (1, "")
    assert err.startswith(f"Error: {path}")
    assert error in err
    assert err.count("\n") == 1
