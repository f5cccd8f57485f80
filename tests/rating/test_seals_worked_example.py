"""docs/SEALS.md's worked example is what the code gives: its commands build the database
and the website, and every ``$`` line of its console blocks, run with the system's
``sha256sum`` and ``printf``, prints what the page says."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from ratings.cli import cli
from tests.support import run

DOC = Path(__file__).resolve().parents[2] / "docs" / "SEALS.md"
_INPUT_FILES = ("games.csv", "byes.csv", "register.csv", "settings.csv")


def _section() -> str:
    text = DOC.read_text("utf-8")
    return text[text.index("## A worked example") : text.index("## With the program")]


def _blocks(section: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", section, re.DOTALL)


def _sessions(block: str) -> list[tuple[str, str]]:
    """The ``$`` commands of a console block, each with the output the page shows."""
    found: list[tuple[str, str]] = []
    for line in block.splitlines(keepends=True):
        if line.startswith("$ "):
            found.append((line[2:].rstrip("\n"), ""))
        else:
            command, output = found[-1]
            found[-1] = (command, output + line)
    return found


@pytest.mark.skipif(
    shutil.which("sha256sum") is None or shutil.which("sh") is None,
    reason="needs sha256sum and a POSIX shell",
)
def test_the_worked_example_is_what_the_code_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    blocks = _blocks(_section())
    commands = [line for line in blocks[0].splitlines() if line.startswith("ratings ")]
    assert len(commands) == 7
    for command in commands:
        args = [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', command)][1:]
        result = CliRunner().invoke(cli, ["--db", "club.db", *args])
        assert result.exit_code == 0, (command, result.output)
    chain = json.loads((tmp_path / "site/seals.json").read_text("utf-8"))["seals"]
    january, february = chain
    # the seals.json excerpt
    excerpt = blocks[2]
    for key in ("seal", "rows_digest", "inputs_digest"):
        assert f'"{key}": "{january[key]}"' in excerpt
    assert '"previous_seal": null' in excerpt
    assert february["previous_seal"] == january["seal"]
    cwd = tmp_path
    ran = 0
    for block in blocks[1:]:
        if not block.startswith("$ "):
            continue
        for command, output in _sessions(block):
            if command.startswith("cd "):
                cwd = cwd / command[3:]
                continue
            name = command.removeprefix("cat ")
            if name in _INPUT_FILES:
                # the tables the page shows: their digests below must be the seal's parts
                (cwd / name).write_text(output, "utf-8")
                continue
            done = subprocess.run(
                ["sh", "-c", command], cwd=cwd, capture_output=True, text=True, check=True
            )
            assert done.stdout == output, command
            ran += 1
    assert ran == 7
    every_digest = set(re.findall(r"\b[0-9a-f]{64}\b", _section()))
    sealed = {
        january["seal"], january["rows_digest"], january["inputs_digest"],
        *january["inputs"].values(),
        february["seal"], february["rows_digest"], february["inputs_digest"],
    }  # fmt: skip
    assert every_digest == sealed
    assert run(None, "verify", str(tmp_path / "site")).exit_code == 0
