"""Shell completion: click's completion for bash, zsh and fish, with player
and event names completed from the database."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.shell_completion import split_arg_string
from click.testing import CliRunner

from ratings.cli import cli, load_all
from ratings.cli.complete import _kind
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    for name in ("Smith, Ann", "Smith, Bob", "Öberg, Åsa", "Jones, Cy"):
        club.player(name)
    club.game("Smith, Ann", "Jones, Cy", "1-0", "2025-01-05", "--event", "Jan Open")
    club.game("Smith, Bob", "Jones, Cy", "1-0", "2025-01-06", "--event", "January Rapid")
    return club


def complete(shell: str, words: str, db: str) -> str:
    """What the completion prints for the command line ``words`` (the cursor at its end)."""
    line = f"ratings --db {db} {words}"
    env = {"_RATINGS_COMPLETE": f"{shell}_complete", "COMP_WORDS": line}
    if shell == "fish":
        env["COMP_CWORD"] = "" if line.endswith(" ") else line.split(" ")[-1]
    else:
        n = len(split_arg_string(line))
        env["COMP_CWORD"] = str(n if line.endswith(" ") else n - 1)
    result = CliRunner().invoke(cli, [], env=env, prog_name="ratings")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_player_names_complete_for_bash_escaped(club: Club) -> None:
    out = complete("bash", "player show Smi", club.db)
    # escaped for the shell (Smith,\ Ann), each backslash doubled for the script's `read`
    assert out.splitlines() == ["plain,Smith,\\\\ Ann", "plain,Smith,\\\\ Bob"]
    # typed in quotes: the shell closes the quote, nothing to escape
    out = complete("bash", 'player show "Smith, A', club.db)
    assert out.splitlines() == ["plain,Smith, Ann"]


def test_names_are_matched_by_key(club: Club) -> None:
    """Any case, any Unicode form: "öb" finds Öberg."""
    assert complete("zsh", "history öb", club.db).splitlines() == ["plain", "Öberg, Åsa", "_"]
    assert complete("zsh", "card SMITH,", club.db).count("plain") == 2


def test_every_place_that_takes_a_player_completes_names(club: Club) -> None:
    for words in ("player edit Jo", "game add Jo", "game add Smith,\\ Ann Jo",
                  "game list --player Jo", "performance Jo", "plot Jo"):  # fmt: skip
        assert "Jones, Cy" in complete("zsh", words, club.db), words


def test_event_names_complete(club: Club) -> None:
    assert complete("fish", "event show Jan", club.db).splitlines() == [
        "plain,Jan Open",
        "plain,January Rapid",
    ]
    assert complete("fish", "game list --event January", club.db) == "plain,January Rapid\n"
    assert "Jan Open" in complete("zsh", "export trf J", club.db)


def test_fish_keeps_the_whole_name(club: Club) -> None:
    """click's own fish script keeps the text before the first comma (``Smith``)."""
    source = CliRunner().invoke(cli, [], env={"_RATINGS_COMPLETE": "fish_source"},
                                prog_name="ratings").stdout  # fmt: skip
    assert 'string split -m 1 "," $completion' in source


def test_no_database_no_names_and_no_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    assert complete("zsh", "player show A", str(missing)) == "\n"  # nothing
    assert not missing.exists()
    # subcommands still complete (click's own)
    assert "plain\nshow\n" in complete("zsh", "player sh", str(missing))


def test_ids_are_not_completed(club: Club) -> None:
    assert complete("zsh", "player show 1", club.db) == "\n"  # nothing


def test_every_player_and_event_parameter_completes() -> None:
    def params(group: click.Group, path: str) -> list[tuple[str, click.Parameter]]:
        found = []
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                found += params(command, f"{path} {name}")
            found += [(f"{path} {name}", p) for p in command.params]
        return found

    load_all()
    completed = [(where, p.name) for where, p in params(cli, "ratings") if p._custom_shell_complete]
    assert ("ratings player show", "player_ref") in completed
    assert ("ratings event show", "event_ref") in completed
    for where, p in params(cli, "ratings"):
        if (p.metavar or "").startswith(("PLAYER", "EVENT")):
            assert _kind(p) is not None, (where, p.name)
            assert p._custom_shell_complete, (where, p.name)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_in_bash(club: Club, tmp_path: Path) -> None:
    """The script bash sources, run as bash runs it on TAB: the reply is one word per name,
    escaped."""
    script = tmp_path / "ratings-complete.bash"
    script.write_text(
        CliRunner().invoke(cli, [], env={"_RATINGS_COMPLETE": "bash_source"},
                           prog_name="ratings").stdout,
        encoding="utf-8",
    )  # fmt: skip
    ratings = tmp_path / "ratings"  # this checkout's CLI under the name completion uses
    ratings.write_text(
        f"#!{sys.executable}\nfrom ratings.cli import cli\ncli(prog_name='ratings')\n",
        encoding="utf-8",
    )
    ratings.chmod(0o755)
    test = (
        f"source {script}\n"
        # the words as typed: bash hands them over unquoted, backslashes and quotes included
        f"COMP_WORDS=(ratings --db {club.db} player show 'Smith,\\ A')\n"
        "COMP_CWORD=5\n"
        "_ratings_completion ratings\n"
        'printf "<%s>\\n" "${COMPREPLY[@]}"\n'
    )
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "--norc", "-c", test], capture_output=True, text=True,
                          env=env, check=True, timeout=60)  # fmt: skip
    assert done.stdout == "<Smith,\\ Ann>\n"
