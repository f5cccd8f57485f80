"""Shell completion: click's own, with player and event names read from
the database.

``eval "$(_RATINGS_COMPLETE=bash_source ratings)"`` (zsh: ``zsh_source``, fish:
``fish_source``) installs it; the README says where. Every PLAYER argument and ``--player``
option completes registered names, every EVENT argument and ``--event`` option stored event
names, from the database that ``--db`` (or ``RATINGS_DB``) names. Completion never creates,
migrates or locks a database, and a database it cannot read completes nothing.

Names hold spaces and commas (``Smith, Ann``). Two of click's shell scripts would break them:
bash inserts a completion as it is (so it is escaped here, unless the word is being typed in
quotes), and click's fish script keeps only the text before the first comma (so this module
gives fish a script that splits once).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import (
    BashComplete,
    CompletionItem,
    FishComplete,
    add_completion_class,
)

from ratings.names import key_of_stored

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

__all__ = ["complete_event", "complete_player", "install"]

LIMIT = 200
"""Most names offered at once."""

_UNSAFE = re.compile(r"([^\w@%+=:,./-])")
"""Characters that the shell reads as syntax: escaped with a backslash for bash."""


@contextmanager
def _database(ctx: click.Context) -> Iterator[Connection | None]:
    """A connection to the database ``--db`` names, or None when there is none to read."""
    from ratings.db import database_url, make_engine, sqlite_path  # when completing only

    db = ctx.find_root().params.get("db") or os.environ.get("RATINGS_DB") or "ratings.db"
    url = database_url(str(db))
    path = sqlite_path(url)
    if path is not None and not path.is_file():
        yield None
        return
    engine = make_engine(url, create=False)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


def _names(ctx: click.Context, incomplete: str, kind: str) -> list[str]:
    """Stored player (``kind`` players) or event names that start with ``incomplete``
    (compared by name key: any case, any Unicode form)."""
    text = incomplete.strip()
    if (text.isascii() and text.isdigit()) or text.lower().startswith("fide:"):
        return []  # an id: nothing to complete
    import sqlalchemy as sa

    key = key_of_stored(incomplete)
    try:
        with _database(ctx) as conn:
            if conn is None:
                return []
            if kind == "players":
                escaped = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                rows = conn.execute(
                    sa.text(
                        "SELECT DISTINCT name FROM players WHERE merged_into_id IS NULL "
                        "AND name_key LIKE :prefix ESCAPE '\\' ORDER BY name LIMIT :n"
                    ),
                    {"prefix": escaped + "%", "n": LIMIT},
                )
                return [name for (name,) in rows]
            names = conn.execute(sa.text("SELECT DISTINCT name FROM events")).scalars()
            found = sorted(n for n in names if key_of_stored(n).startswith(key))
            return found[:LIMIT]
    except Exception:  # a completion must never fail the shell: it offers nothing
        return []


def complete_player(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Registered players' names starting with what was typed."""
    return [CompletionItem(name) for name in _names(ctx, incomplete, "players")]


def complete_event(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Stored events' names starting with what was typed."""
    return [CompletionItem(name) for name in _names(ctx, incomplete, "events")]


def _open_quote(words: str) -> bool:
    """Whether the command line ends inside a quote (the word being completed is quoted)."""
    quote = None
    escaped = False
    for char in words:
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote is None and char in "'\"":
            quote = char
        elif char == quote:
            quote = None
    return quote is not None


class _Bash(BashComplete):
    """click's bash completion with each name escaped for the shell: bash inserts a
    completion as it is, so ``Smith, Ann`` would become two words. A word typed in quotes
    needs no escape (the shell closes the quote)."""

    quoted = False

    def get_completion_args(self) -> tuple[list[str], str]:
        self.quoted = _open_quote(os.environ.get("COMP_WORDS", ""))
        return super().get_completion_args()

    def format_completion(self, item: CompletionItem[Any]) -> str:
        value = str(item.value)
        if item.type == "plain" and not self.quoted:
            # escaped for the shell, then each backslash doubled for the script's `read`
            value = _UNSAFE.sub(r"\\\1", value).replace("\\", "\\\\")
        return f"{item.type},{value}"


class _Fish(FishComplete):
    """click's fish completion, splitting each line at its first comma only (click's script
    keeps the text before a name's comma: ``Smith``)."""

    source_template = FishComplete.source_template.replace(
        'string split "," $completion', 'string split -m 1 "," $completion'
    )


def install(group: click.Group) -> None:
    """Give every PLAYER and EVENT parameter of ``group``'s commands (arguments whose metavar
    says so, ``--player`` and ``--event`` options, game add's WHITE and BLACK) its names, and
    use the bash and fish scripts above."""
    add_completion_class(_Bash)
    add_completion_class(_Fish)
    for command in _commands(group):
        for param in command.params:
            what = _kind(param)
            if what is not None and param._custom_shell_complete is None:
                # one rule for every command of every module, set after the fact (click keeps
                # a parameter's completion function here; its constructor takes it)
                complete = complete_player if what == "player" else complete_event
                param._custom_shell_complete = complete


def _commands(group: click.Group) -> Iterator[click.Command]:
    for command in group.commands.values():
        yield command
        if isinstance(command, click.Group):
            yield from _commands(command)


_PLAYER_METAVARS = {"PLAYER", "KEEP", "DUPLICATE", "WHITE", "BLACK"}


def _kind(param: click.Parameter) -> str | None:
    """``player``, ``event`` or None for a parameter."""
    metavar = (param.metavar or "").strip(".").rstrip(".").upper()
    names = {*param.opts} if isinstance(param, click.Option) else set()
    if metavar.startswith("PLAYER") or metavar in _PLAYER_METAVARS or "--player" in names:
        return "player"
    if isinstance(param, click.Argument) and param.name in ("white", "black"):
        return "player"
    if metavar.startswith("EVENT") or "--event" in names:
        return "event"
    return None
