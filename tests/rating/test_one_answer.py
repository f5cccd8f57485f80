"""One database, one answer: whatever path led to a list, it is the list a rebuild from the
stored inputs gives (docs/DESIGN.md#the-rebuild).

A Hypothesis state machine drives random sequences of the real commands through the CLI on a
small register - games added, imported (standard, rapid and blitz; events across a month end
and the closing days; late events given a period), edited and voided; players added and
edited (birthdate, K=10 flag, entry rating); merges and unmerges; import undos; settings that
re-rate; rates and unrates - and after every ``rate`` asserts that ``ratings check --all``,
which rebuilds every list from scratch and compares, finds nothing, and after every ``rate``,
``unrate`` and ``import undo`` that ``ratings verify`` finds the lists and the chain of seals
as sealed.

A short run is in the test loop; the long one (2,000 sequences, two shards) is slow-marked,
and a shorter one runs on PostgreSQL in ``make test-postgres``. Every failure it finds
becomes a named regression test in ``tests/rating/test_one_answer_regressions.py``.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

from tests.conftest import BACKEND, PgDatabase, copy_database, init_database, table_rows
from tests.support import run

PLAYERS = (
    ("Ann", "--rating", "1800", "--games", "50", "--birthdate", "1985-03-01"),
    ("Ben", "--rating", "1650", "--games", "12", "--birthdate", "2009-06-01"),
    ("Cid", "--rating", "2395", "--games", "90", "--birthdate", "1990-01-01"),
    ("Dee", "--birthdate", "2008-02-02"),
    ("Eve", "--rating", "1500", "--games", "40", "--rapid-rating", "1550", "--rapid-games",
     "10", "--blitz-rating", "1480", "--blitz-games", "20", "--birthdate", "1975"),
    ("Fay", "--rapid-rating", "1700", "--rapid-games", "5"),
    ("Gus", "--rating", "2000", "--games", "200", "--birthdate", "2007-12-31"),
)  # fmt: skip
"""Seven players: rated and unrated, a junior of each kind, one near 2400, rapid and blitz
ratings, one rated only in rapid."""

NAMES = tuple(p[0] for p in PLAYERS)
RESULTS = ("1-0", "0-1", "1/2-1/2")
LISTS = ("standard", "standard", "rapid", "blitz")
EVENTS = (None, "Cup", "League", "Rapidplay")
MONTHS = (1, 2, 3, 4, 5, 6, 7)
DAYS = (1, 2, 14, 26, 27, 28, 29, 30, 31)
"""Days that sit on either side of a closing date (FIDE's 3 days, and 0 and 7)."""

TMP = Path("/dev/shm") if Path("/dev/shm").is_dir() and os.access("/dev/shm", os.W_OK) else None
"""Where the sequences' databases live: memory when the machine has it (a rate's COMMIT is
an fsync on a disk)."""

_TEMPLATES: dict[tuple[str, bool], Path | PgDatabase] = {}


def _template(other_lists: bool) -> Path | PgDatabase:
    """The register, made once a process (``init`` and seven ``player add``); without
    ``other_lists``, nobody has a rapid or blitz rating (those lists start with a game, or
    with a player registered later with such a rating)."""
    key = (BACKEND, other_lists)
    found = _TEMPLATES.get(key)
    if found is None:
        folder = Path(tempfile.mkdtemp(prefix="ratings-one-", dir=TMP))
        db = init_database(folder / "template.db")
        for name, *args in PLAYERS:
            if not other_lists:
                args = _standard_only(args)
            _ok(db, "player", "add", name, *args)
        found = Path(db) if BACKEND == "sqlite" else PgDatabase(db)
        _TEMPLATES[key] = found
    return found


def _standard_only(args: list[str]) -> list[str]:
    """``player add`` options without the rapid and blitz entries."""
    kept: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith(("--rapid", "--blitz")):
            skip = True
        else:
            kept.append(arg)
    return kept


def _run(db: str, *args: str) -> tuple[int, str]:
    result = run(db, *args)  # a traceback fails the test
    # 0: done; 1: refused with "Error: ..."; 2 would be a usage error of this test
    assert result.exit_code in (0, 1), (args, result.output)
    if result.exit_code == 1:
        assert "Error: " in result.output, (args, result.output)
    return result.exit_code, result.output


def _ok(db: str, *args: str) -> str:
    code, out = _run(db, *args)
    assert code == 0, (args, out)
    return out


days = st.builds(
    lambda month, day: _clamp(2025, month, day), st.sampled_from(MONTHS), st.sampled_from(DAYS)
)


def _clamp(year: int, month: int, day: int) -> dt.date:
    while True:
        try:
            return dt.date(year, month, day)
        except ValueError:
            day -= 1


class OneAnswer(RuleBasedStateMachine):
    """A database driven by random sequences of the real commands; after each rate, its
    lists are what a rebuild from its inputs gives."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="ratings-seq-", dir=TMP))
        self.db = ""
        self.files = itertools.count(1)
        self.added = 0
        self.dirty = True
        """Something changed since the last check."""
        self.log: list[str] = []

    def teardown(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def run(self, *args: str) -> tuple[int, str]:
        code, out = _run(self.db, *args)
        self.log.append(" ".join(args) + ("" if code == 0 else "  # refused"))
        self.dirty = self.dirty or code == 0
        return code, out

    def ids(self, sql: str) -> list[int]:
        """Ids the database holds now (games, imports, merged players), to draw from."""
        return [int(str(row[0])) for row in table_rows(self.db, sql)]

    # --- games -----------------------------------------------------------------------

    @initialize(
        other_lists=st.booleans(),
        games=st.lists(
            st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(RESULTS),
                      days),
            min_size=1, max_size=4,
        )
    )  # fmt: skip
    def first_games(self, other_lists: bool, games: list[tuple[str, str, str, dt.date]]) -> None:
        self.db = str(copy_database(_template(other_lists), self.folder / "one.db"))
        self.log.append(f"# the register {'with' if other_lists else 'without'} rapid and blitz")
        for white, black, result, day in games:
            if white != black:
                self.run("game", "add", white, black, result, "--date", day.isoformat(), "-y")

    @rule(
        white=st.sampled_from(NAMES),
        black=st.sampled_from(NAMES),
        result=st.sampled_from(RESULTS),
        day=days,
        event=st.sampled_from(EVENTS),
        tc=st.sampled_from(LISTS),
    )
    def add_game(
        self, white: str, black: str, result: str, day: dt.date, event: str | None, tc: str
    ) -> None:
        args = ["game", "add", white, black, result, "--date", day.isoformat(), "-y"]
        if event is not None:
            args += ["--event", event]
        if tc != "standard":
            args += ["--time-control", tc]
        self.run(*args)

    @rule(
        rows=st.lists(
            st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(RESULTS),
                      days),
            min_size=1, max_size=5,
        ),
        event=st.sampled_from(("Open", "Open", "Weekender", None)),
        tc=st.sampled_from(LISTS),
        late=st.booleans(),
    )  # fmt: skip
    def import_games(
        self,
        rows: list[tuple[str, str, str, dt.date]],
        event: str | None,
        tc: str,
        late: bool,
    ) -> None:
        n = next(self.files)
        path = self.folder / f"games-{n}.csv"
        lines = ["date,white,black,result,event,round"]
        rows = [row for row in rows if row[0] != row[1]]
        if not rows:
            return
        for i, (white, black, result, day) in enumerate(rows, 1):
            name = f"{event} {n}" if event else ""
            lines.append(f'{day.isoformat()},"{white}","{black}",{result},{name},{i}')
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        args = ["import", "games", str(path), "-y"]
        if tc != "standard":
            args += ["--time-control", tc]
        if late:
            last = max(day for *_, day in rows)
            period = dt.date(2025, min(last.month + 2, 12), 1)
            args += ["--period", f"{period:%Y-%m}", "--late-ok"]
        self.run(*args)

    def game(self, data: st.DataObject) -> str | None:
        found = self.ids("SELECT id FROM games ORDER BY id")
        return str(data.draw(st.sampled_from(found), label="game")) if found else None

    @rule(data=st.data(), result=st.sampled_from((*RESULTS, "+/-")))
    def edit_result(self, data: st.DataObject, result: str) -> None:
        game = self.game(data)
        if game is not None:
            self.run("game", "edit", game, "--result", result, "-y")

    @rule(data=st.data(), day=days)
    def edit_date(self, data: st.DataObject, day: dt.date) -> None:
        game = self.game(data)
        if game is not None:
            self.run("game", "edit", game, "--date", day.isoformat(), "-y")

    @rule(data=st.data())
    def void_game(self, data: st.DataObject) -> None:
        game = self.game(data)
        if game is not None:
            self.run("game", "void", game, "-y")

    # --- the register ----------------------------------------------------------------

    @rule(
        name=st.sampled_from(NAMES),
        change=st.sampled_from(
            (
                ("--birthdate", "2011-05-05"),
                ("--birthdate", "1970"),
                ("--k10",),
                ("--no-k10",),
                ("--rating", "2410"),
                ("--rating", "1700"),
                ("--rating", ""),
                ("--games", "3"),
                ("--rapid-rating", "1900"),
            )
        ),
    )
    def edit_player(self, name: str, change: tuple[str, ...]) -> None:
        self.run("player", "edit", name, *change)

    @precondition(lambda self: self.added < 3)
    @rule(
        rating=st.sampled_from((None, "1600", "2450")),
        tc=st.sampled_from(LISTS),
        opponent=st.sampled_from(NAMES),
        later=st.sampled_from((0, 1, 2, None)),
        day=days,
    )
    def add_player(
        self, rating: str | None, tc: str, opponent: str, later: int | None, day: dt.date
    ) -> None:
        """A player registered in the middle of the history, and a game of theirs: on a day
        of the history, or ``later`` periods after the newest rated one (the lists a newcomer
        joins without a game come first)."""
        newest = table_rows(self.db, "SELECT max(start_date) FROM rating_periods")[0][0]
        if later is not None and newest is not None:
            start = dt.date.fromisoformat(str(newest))
            month = start.month + later + 1
            day = _clamp(start.year + (month - 1) // 12, (month - 1) % 12 + 1, day.day)
        self.added += 1
        name = f"New {self.added}"
        args = ["player", "add", name]
        prefix = "" if tc == "standard" else f"{tc}-"
        if rating is not None:
            args += [f"--{prefix}rating", rating, f"--{prefix}games", "30"]
        self.run(*args)
        game = ["game", "add", name, opponent, "1/2-1/2", "--date", day.isoformat(), "-y"]
        self.run(*game, *([] if tc == "standard" else ["--time-control", tc]))

    @rule(keep=st.sampled_from(NAMES), remove=st.sampled_from(NAMES))
    def merge(self, keep: str, remove: str) -> None:
        self.run("player", "merge", keep, remove, "--force", "-y")

    @rule(data=st.data())
    def unmerge(self, data: st.DataObject) -> None:
        merged = self.ids("SELECT id FROM players WHERE merged_into_id IS NOT NULL")
        if merged:
            self.run("player", "unmerge", str(data.draw(st.sampled_from(merged))), "-y")

    @rule(data=st.data())
    def undo_import(self, data: st.DataObject) -> None:
        found = self.ids("SELECT id FROM imports WHERE undone_by IS NULL")
        if found:
            self.run("import", "undo", str(data.draw(st.sampled_from(found))), "-y")
            self._verify()  # the only correction that takes rows off published lists

    @rule(
        setting=st.sampled_from(
            (
                ("closing-days", "0"),
                ("closing-days", "3"),
                ("closing-days", "7"),
                ("k", "20"),
                ("k", "fide"),
                ("expected", "curve"),
                ("expected", "table"),
            )
        )
    )
    def change_setting(self, setting: tuple[str, str]) -> None:
        self.run("settings", *setting, "-y")

    # --- rating ----------------------------------------------------------------------

    @precondition(lambda self: self.dirty)
    @rule()
    def rate(self) -> None:
        """Rate, then check: only when something changed since the last check."""
        self._rate()

    @precondition(lambda self: self.dirty)
    @rule()
    def rate_again(self) -> None:
        """A second rule that rates: an administrator rates more often than anything else
        (Hypothesis draws its rules evenly)."""
        self._rate()

    def _rate(self) -> None:
        code, out = self.run("rate")
        assert code == 0, out
        self.dirty = False
        self._verify()
        code, out = _run(self.db, "check", "--all")
        if code == 1 and "nothing to check" in out:
            return
        assert code == 0, "\n".join(["the lists differ from their rebuild after:", *self.log,
                                     "", out])  # fmt: skip

    def _verify(self) -> None:
        """The chain of seals holds whatever path led here: every stored list is its current
        seal's, every seal links the one before (docs/DESIGN.md#sealed-lists)."""
        code, out = _run(self.db, "verify")
        assert code == 0, "\n".join(["the lists differ from their seals after:", *self.log,
                                     "", out])  # fmt: skip

    @rule(data=st.data())
    def unrate(self, data: st.DataObject) -> None:
        rated = [str(row[0]) for row in table_rows(self.db, "SELECT label FROM rating_periods")]
        if rated:
            self.run("unrate", "--from", data.draw(st.sampled_from(sorted(rated))), "-y")
            self._verify()


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        stateful_step_count=20,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


def test_one_answer() -> None:
    """The test loop's short run: 8 sequences; on PostgreSQL (make test-postgres) 25."""
    run_state_machine_as_test(OneAnswer, settings=_settings(8 if BACKEND == "sqlite" else 25))


@pytest.mark.slow  # 1,000 sequences of about 20 commands each: minutes, not seconds
@pytest.mark.sequences
@pytest.mark.parametrize("shard", [1, 2])
def test_one_answer_long(shard: int) -> None:
    """The long run, in two shards, each its own stream of sequences."""
    run_state_machine_as_test(OneAnswer, settings=_settings(1000))
