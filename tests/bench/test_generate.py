"""The benchmark generator (bench/generate.py): counts, determinism, and files that parse back."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ratings.errors import InputFileErrors
from ratings.io.csv import GameRow, PlayerRow, read_games_csv, read_players_csv
from ratings.results import Result
from tests.safety_helpers import bench_module


def load_generator() -> ModuleType:
    """Import bench/generate.py by path: bench/ is not a package and not in the wheel."""
    return bench_module("generate.py", "bench_generate")


gen = load_generator()
Small = tuple[Any, list[PlayerRow], list[GameRow]]
"""The generator's GeneratedFiles (a class of the module loaded above), players and games."""


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Small:
    """One small federation: 200 players, 1000 games, 3 periods, parsed back."""
    files = gen.generate(200, 1000, 3, 7, tmp_path_factory.mktemp("small"))
    players = read_players_csv(files.players_csv.read_bytes(), str(files.players_csv))
    games = read_games_csv(files.games_csv.read_bytes(), str(files.games_csv))
    return files, players, games


def test_counts(small: Small) -> None:
    files, players, games = small
    assert len(players) == 200
    assert len(games) == 1000
    assert (files.players, files.games) == (200, 1000)
    assert files.periods == ("2015-01", "2015-02", "2015-03")
    assert sum(files.games_by_period.values()) == 1000
    assert len({g.event for g in games}) == files.events


def test_games_are_spread_evenly_over_the_months(small: Small) -> None:
    # by the month each event starts in: 1000 = 334 + 333 + 333
    _, _, games = small
    first_day: dict[str | None, date] = {}
    for game in games:
        first_day[game.event] = min(game.date, first_day.get(game.event, game.date))
    by_month = Counter(first_day[g.event].strftime("%Y-%m") for g in games)
    assert by_month == {"2015-01": 334, "2015-02": 333, "2015-03": 333}


def test_same_seed_gives_identical_bytes(tmp_path: Path) -> None:
    first = gen.generate(200, 1000, 3, 42, tmp_path / "a")
    second = gen.generate(200, 1000, 3, 42, tmp_path / "b")
    other = gen.generate(200, 1000, 3, 43, tmp_path / "c")
    assert first.players_csv.read_bytes() == second.players_csv.read_bytes()
    assert first.games_csv.read_bytes() == second.games_csv.read_bytes()
    assert first.games_by_period == second.games_by_period
    assert first.games_csv.read_bytes() != other.games_csv.read_bytes()


def test_every_reference_exists_and_nobody_plays_themself(
    small: Small,
) -> None:
    _, players, games = small
    by_fide = {p.fide_id: p.line for p in players if p.fide_id is not None}
    by_name = {p.name.casefold(): p.line for p in players}

    def line_of(reference: str) -> int:
        return by_fide[int(reference)] if reference.isdigit() else by_name[reference.casefold()]

    for game in games:
        assert line_of(game.white) != line_of(game.black)
    assert any(g.white_fide_id is not None for g in games)  # both kinds of reference occur
    assert any(g.white_fide_id is None for g in games)


def test_no_pairing_repeats_within_an_event(
    small: Small,
) -> None:
    _, _, games = small
    pairings = Counter((g.event, frozenset((g.white, g.black))) for g in games)
    assert max(pairings.values()) == 1


def test_events_look_like_tournaments(
    small: Small,
) -> None:
    _, _, games = small
    by_event: dict[str | None, list[GameRow]] = {}
    for game in games:
        by_event.setdefault(game.event, []).append(game)
    for rows in by_event.values():
        players = {g.white for g in rows} | {g.black for g in rows}
        assert len(players) <= 60
        rounds = {g.round for g in rows}
        assert rounds <= {str(n) for n in range(1, 10)}
        # a player plays at most once per round
        per_round = Counter((g.round, p) for g in rows for p in (g.white, g.black))
        assert max(per_round.values()) == 1
        # rounds are dated in order and every game of a round on one day
        dates = {g.round: g.date for g in rows}
        assert all(g.date == dates[g.round] for g in rows)
        ordered = [dates[r] for r in sorted(dates, key=lambda r: int(r or 0))]
        assert ordered == sorted(ordered)
    # realistic: most events are complete (8+ players), a few may be cut at the period's total
    sizes = [len({g.white for g in rows} | {g.black for g in rows}) for rows in by_event.values()]
    assert sum(size >= 8 for size in sizes) >= len(sizes) - 3


def test_results_mix(small: Small) -> None:
    _, _, games = small
    results = Counter(g.result for g in games)
    assert 0.2 < results[Result.DRAW] / len(games) < 0.4
    forfeits = results[Result.WHITE_FORFEIT_WIN] + results[Result.BLACK_FORFEIT_WIN]
    assert 0 < forfeits < 40
    assert results[Result.DOUBLE_FORFEIT] == 0


def test_dates_within_the_periods(small: Small) -> None:
    _, _, games = small
    assert min(g.date for g in games) >= date(2015, 1, 1)
    assert max(g.date for g in games) <= date(2015, 3, 31)


def test_player_mix(tmp_path: Path) -> None:
    files = gen.generate(2000, 0, 1, 3, tmp_path)
    players = read_players_csv(files.players_csv.read_bytes(), "players.csv")
    n = len(players)
    rated = [p for p in players if p.rating is not None]
    juniors = [p for p in players if p.birth_year is not None and 2015 - p.birth_year <= 18]
    assert 0.75 < len(rated) / n < 0.85
    assert 0.12 < len(juniors) / n < 0.18
    assert 0.01 < sum(p.birth_year is None for p in players) / n < 0.06
    assert any(p.birth_date is None and p.birth_year is not None for p in players)
    assert any(p.birth_date is not None for p in players)
    assert 0.85 < sum(p.fide_id is not None for p in players) / n < 0.95
    assert all(1000 <= p.rating <= 2750 for p in rated if p.rating is not None)
    assert 1600 < sum(p.rating for p in rated if p.rating is not None) / len(rated) < 1750
    assert any(p.k10 for p in players)
    assert all(p.rating is not None and p.rating >= 2300 for p in players if p.k10)
    assert any(p.rating is not None and p.rating >= 2400 for p in players)
    assert all(p.games is not None and 0 <= p.games <= 300 for p in players)
    # no games: the header alone, which an import refuses as nothing to import
    with pytest.raises(InputFileErrors, match="no game below the header row"):
        read_games_csv(files.games_csv.read_bytes(), "games.csv")


def test_event_crossing_a_month_end_is_rated_in_the_next_period(tmp_path: Path) -> None:
    files = gen.generate(500, 20000, 2, 5, tmp_path)
    games = read_games_csv(files.games_csv.read_bytes(), "games.csv")
    months: dict[str | None, set[int]] = {}
    for game in games:
        months.setdefault(game.event, set()).add(game.date.month)
    crossing = [event for event, seen in months.items() if seen == {1, 2}]
    assert crossing
    # generated evenly by the month events start in; counted by the month they end in
    assert files.games_by_period["2015-01"] < 10000 < files.games_by_period["2015-02"]
    assert sum(files.games_by_period.values()) == 20000


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "30", "--games", "101", "--periods", "2", "--seed", "1"]
    assert gen.main([*argv, "--out", str(tmp_path), "--start", "2024-12-01"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"wrote 30 players to {tmp_path / 'players.csv'} and 101 games (")
    games = read_games_csv((tmp_path / "games.csv").read_bytes(), "games.csv")
    assert len(games) == 101
    assert {g.date.strftime("%Y-%m") for g in games} <= {"2024-12", "2025-01"}


def test_cli_rejects_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        gen.main(["--players", "1", "--games", "5", "--out", str(tmp_path)])
    assert info.value.code == 2
    assert "games need at least 2 players: 1" in capsys.readouterr().err


def test_mixed_lists_are_the_same_games_on_three_lists(small: Small, tmp_path: Path) -> None:
    """--mixed-lists only adds each event's list: the games are those of the plain run."""
    files = gen.generate(200, 1000, 3, 7, tmp_path, mixed_lists=True)
    mixed = read_games_csv(files.games_csv.read_bytes(), str(files.games_csv))
    plain = small[2]
    strip = [(g.date, g.white, g.black, g.result, g.event, g.round) for g in mixed]
    assert strip == [(g.date, g.white, g.black, g.result, g.event, g.round) for g in plain]
    assert all(g.time_control is None for g in plain)
    lists = {g.event: g.time_control for g in mixed}
    assert len({(g.event, g.time_control) for g in mixed}) == len(lists)  # one list per event
    counts = Counter(tc.value for tc in lists.values() if tc is not None)
    assert set(counts) == {"standard", "rapid", "blitz"}
    assert counts.most_common(1)[0][0] == "standard"
