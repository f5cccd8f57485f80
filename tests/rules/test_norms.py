"""The norm arithmetic (``ratings.rules.norms``): FIDE Title Regulations applied from 1
January 2024, each rule on hand-worked events (docs/TITLES.md#worked-examples), the test ids
naming the article."""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import inspect
import itertools
import random
import re
from pathlib import Path

import pytest

from ratings.rules import norms, players
from ratings.rules.norms import (
    NormCheck,
    NormEvent,
    NormExemption,
    NormGame,
    NormPlayer,
    NormRecord,
    NormTitle,
    TitleRatingPoint,
)

GM, IM, WGM, WIM = NormTitle.GM, NormTitle.IM, NormTitle.WGM, NormTitle.WIM
ENG = NormPlayer(1, "ENG", True, None, "m")
WOMAN = NormPlayer(1, "ENG", True, None, "f")
RR9 = NormEvent(rounds=9, round_robin=True)
SWISS9 = NormEvent(rounds=9, round_robin=False)

Spec = tuple[int | None, str | None, str | None, int]
"""(opponent's rating, title, federation, the player's half points)."""


def played(*specs: Spec, first_round: int = 1, member: bool = True) -> list[NormGame]:
    """Games in rounds 1, 2, ... against opponents 101, 102, ..."""
    return [
        NormGame(
            round_no=first_round + i,
            round_label=str(first_round + i),
            opponent_id=101 + i,
            rating=rating,
            title=title,
            federation=fed,
            member=member,
            score_half_points=halves,
        )
        for i, (rating, title, fed, halves) in enumerate(specs)
    ]


def one(player: NormPlayer, games: list[NormGame], event: NormEvent, title: NormTitle) -> NormCheck:
    (check,) = norms.check_norms(player, games, event, titles=[title])
    return check


# The 10-player round robin of docs/TITLES.md: nine opponents, Ra 22150 / 9 = 2461.11 ->
# 2461; 7 of 9 = 77.78% -> 78%, dp 220, Rp 2681: GM and IM norms.
ROUND_ROBIN: list[Spec] = [
    (2600, "GM", "GER", 2),
    (2580, "GM", "NED", 1),
    (2550, "GM", "FRA", 2),
    (2500, "IM", "ESP", 1),
    (2450, "IM", "ITA", 2),
    (2420, "IM", "ENG", 1),
    (2400, "FM", "ENG", 2),
    (2350, "FM", "USA", 1),
    (2300, None, "ENG", 2),
]


def test_round_robin_gm_norm_1_4_8() -> None:
    """Every requirement met: the docs' 10-player round robin."""
    games = played(*ROUND_ROBIN)
    gm, im = norms.check_norms(ENG, games, RR9)
    assert (gm.title, gm.norm, gm.games, gm.norm_games, gm.score_half_points) == (
        GM,
        True,
        9,
        9,
        14,
    )
    assert (gm.ra_before_floor, gm.ra, gm.percent, gm.rp) == (2461, 2461, 78, 2681)
    assert (gm.titled, gm.holders, gm.other_federations, gm.own_federation) == (8, 3, 6, 3)
    assert gm.raised is None
    assert gm.failures == gm.reasons == ()
    assert (im.title, im.norm, im.holders, im.rp) == (IM, True, 6, 2681)


@pytest.mark.parametrize(
    ("halves", "percent", "rp", "gm", "im"),
    [
        pytest.param(13, 72, 2627, True, True, id="1.4.8-6.5-of-9"),
        pytest.param(12, 67, 2586, False, True, id="1.4.8-6-of-9-im-only"),
        pytest.param(9, 50, 2461, False, True, id="1.4.8-4.5-of-9"),
        pytest.param(8, 44, 2418, False, False, id="1.4.8-4-of-9"),
    ],
)
def test_performance_decides_1_4_8(halves: int, percent: int, rp: int, gm: bool, im: bool) -> None:
    """Rp = Ra + dp(p), p rounded to a whole percent (1.4.8, 1.4.9): 2600 for GM, 2450 IM."""
    specs = [(r, t, f, 0) for r, t, f, _ in ROUND_ROBIN]
    for i in range(halves // 2):
        specs[i] = (*specs[i][:3], 2)
    if halves % 2:
        specs[halves // 2] = (*specs[halves // 2][:3], 1)
    g, i_ = norms.check_norms(ENG, played(*specs), RR9)
    assert (g.percent, g.rp, g.norm, i_.norm) == (percent, rp, gm, im)
    if not gm:
        assert g.failures[0] == norms.Reason("1.4.8", f"Rp {rp}, at least 2600")


@pytest.mark.parametrize(
    ("last", "ra", "rp", "norm"),
    [
        pytest.param(2454, 2450, 2599, False, id="1.4.8-Rp-2599.4"),
        pytest.param(2455, 2451, 2600, True, id="1.4.8-Rp-2599.5"),
    ],
)
def test_the_rounding_edge_of_rp_1_4_8(last: int, ra: int, rp: int, norm: bool) -> None:
    """Ten opponents, nine at 2450 and one at ``last``: Ra exactly 2450.4 or 2450.5, 7 of 10
    = 70%, dp 149: Rp 2599.4 rounds to 2599 (no norm), 2599.5 to 2600 (a norm; 1.4.7b, the
    table of 1.4.8)."""
    feds = ["GER", "FRA", "NED", "ESP", "ITA", "USA", "NOR", "SWE", "POL", "HUN"]
    titles = ["GM", "GM", "GM", "GM", "IM", None, None, None, None, None]
    specs: list[Spec] = [  # three losses first: no shorter run of rounds gives a norm
        (2450 if i < 9 else last, titles[i], feds[i], 0 if i < 3 else 2) for i in range(10)
    ]
    check = one(ENG, played(*specs), NormEvent(rounds=10, round_robin=False), GM)
    assert (check.ra, check.percent, check.rp, check.norm) == (ra, 70, rp, norm)


@pytest.mark.parametrize(
    ("ratings", "ra"),
    [
        pytest.param([2400, 2401], 2401, id="1.4.7b-half-up"),
        pytest.param([2400, 2400, 2401], 2400, id="1.4.7b-third-down"),
        pytest.param([2400, 2401, 2401], 2401, id="1.4.7b-two-thirds-up"),
    ],
)
def test_ra_is_rounded_half_up_1_4_7(ratings: list[int], ra: int) -> None:
    """Ra to a whole number, 0.5 up (1.4.7b)."""
    check = one(ENG, played(*[(r, "GM", "GER", 1) for r in ratings]), SWISS9, GM)
    assert (check.ra_before_floor, check.ra) == (ra, ra)


def test_at_least_9_games_1_4_1() -> None:
    """Eight games, no round won unplayed: too few (1.4.1)."""
    check = one(ENG, played(*ROUND_ROBIN[:8]), RR9, GM)
    assert not check.norm
    assert check.failures[0] == norms.Reason("1.4.1", "8 games counted, at least 9 needed")


def test_eight_games_and_a_round_won_unplayed_count_as_nine_1_4_1c() -> None:
    """Eight games and an allocated bye or a forfeit win in a 9-round event: a 9-game norm
    (1.4.1c); the forfeit itself is not counted (1.4.2c)."""
    games = played(*ROUND_ROBIN[:8])
    bye = one(ENG, games, SWISS9, GM)
    assert not bye.norm
    check = norms.check_norms(ENG, games, SWISS9, unplayed_wins=1, titles=[GM])[0]
    assert (check.norm, check.games, check.norm_games) == (True, 8, 9)
    assert check.notes[0].article == "1.4.1c"
    forfeit = NormGame(9, "9", 120, 2500, "GM", "SWE", True, 2, over_the_board=False)
    by_forfeit = one(ENG, [*games, forfeit], SWISS9, GM)
    assert (by_forfeit.norm, by_forfeit.games, by_forfeit.norm_games) == (True, 8, 9)
    ten_rounds = one(ENG, [*games, forfeit], NormEvent(rounds=10, round_robin=False), GM)
    assert not ten_rounds.norm  # 1.4.1c is for a 9-round event


def test_later_rounds_may_be_ignored_in_a_swiss_1_4_1e() -> None:
    """An 11-round Swiss: the round robin's nine games, then losses to a 2500 GM and a 2480
    IM. All eleven: Ra 27130 / 11 = 2466.4 -> 2466, 7 of 11 = 63.6% -> 64%, dp 102, Rp 2568
    (1.4.8). After round 10: Ra 24650 / 10 = 2465, 7 of 10 = 70%, dp 149, Rp 2614, four GMs
    of ten: a norm, round 11 ignored (1.4.1e; the longest run of rounds is taken)."""
    games = played(*ROUND_ROBIN, (2500, "GM", "SWE", 0), (2480, "IM", "POL", 0))
    swiss = NormEvent(rounds=11, round_robin=False)
    check = one(ENG, games, swiss, GM)
    assert (check.norm, check.games, check.ra, check.rp, check.ignored_rounds) == (
        True, 10, 2465, 2614, (11,),
    )  # fmt: skip
    assert check.reasons[0] == norms.Reason(
        "1.4.1e", "a norm after round 10: round 11 may be ignored"
    )
    whole = norms._evaluate(norms.NORM_REQUIREMENTS[GM], ENG, games, swiss, 0, str)
    assert (whole.norm, whole.ra, whole.percent, whole.rp) == (False, 2466, 64, 2568)
    fixed = one(ENG, games, NormEvent(rounds=11, round_robin=True), GM)
    assert not fixed.norm  # a round robin's pairings are fixed in advance: all rounds count


def test_ignoring_games_does_not_always_give_a_norm_1_4_1e_f() -> None:
    """A 10-round Swiss, 6 of 10: nine opponents 2480-2600 and, last, a win over an unrated
    player. All ten: he counts at 1400 and, the lowest, is raised to the floor 2200 (1.4.6);
    Ra (23000 + 2200) / 10 = 2520, 60%, dp 72, Rp 2592 (1.4.8). Without round 10 (1.4.1e),
    the same as without the game against him (1.4.1f): nine games, Ra 23000 / 9 = 2555.6 ->
    2556, 5 of 9 = 55.6% -> 56%, dp 43, Rp 2599: still none. Dropping the other win too
    leaves 8 games. The verdict is the one over all ten."""
    specs: list[Spec] = [
        (2600, "GM", "GER", 2),
        (2590, "GM", "NED", 1),
        (2580, "GM", "FRA", 1),
        (2570, "IM", "ESP", 1),
        (2560, "IM", "ITA", 1),
        (2550, "GM", "USA", 1),
        (2540, "IM", "NOR", 1),
        (2530, "IM", "SWE", 1),
        (2480, "IM", "POL", 1),
        (None, None, "ENG", 2),
    ]
    swiss = NormEvent(rounds=10, round_robin=False)
    check = one(ENG, played(*specs), swiss, GM)
    assert (check.norm, check.ra_before_floor, check.ra, check.percent, check.rp) == (
        False, 2440, 2520, 60, 2592,
    )  # fmt: skip
    assert check.raised == (110, 1400, 2200)


def test_one_defeated_opponent_dropped_gives_the_norm_1_4_1f() -> None:
    """The docs' 1.4.1f example: an 11-player round robin whose mix holds over the whole
    event (four GMs of ten). All ten: Ra 23790 / 10 = 2379, below 2380 (1.4.8a), though 8.5
    of 10 = 85%, dp 296, Rp 2675. Without the win over the 2210 player, the lowest-rated
    defeated opponent: Ra 21580 / 9 = 2397.8 -> 2398, 7.5 of 9 = 83.3% -> 83%, dp 273, Rp
    2671: a GM norm."""
    specs: list[Spec] = [
        (2470, "GM", "GER", 2),
        (2460, "GM", "NED", 2),
        (2450, "GM", "FRA", 2),
        (2440, "IM", "ESP", 2),
        (2420, "IM", "ITA", 2),
        (2400, "IM", "USA", 1),
        (2380, "GM", "NOR", 2),
        (2290, None, "ENG", 1),
        (2270, None, "ENG", 1),
        (2210, None, "ENG", 2),
    ]
    rr = NormEvent(rounds=10, round_robin=True)
    check = one(ENG, played(*specs), rr, GM)
    assert (check.norm, check.games, check.ra, check.percent, check.rp) == (
        True, 9, 2398, 83, 2671,
    )  # fmt: skip
    assert check.ignored_opponents == (110,)
    assert check.reasons[0] == norms.Reason(
        "1.4.1f", "a norm without the 1 game against player 110 (round 10, defeated)"
    )
    whole = norms._evaluate(norms.NORM_REQUIREMENTS[GM], ENG, played(*specs), rr, 0, str)
    assert (whole.ra, whole.rp, [r.article for r in whole.failures]) == (2379, 2675, ["1.4.8a"])


def test_a_round_robin_drops_games_only_if_its_whole_mix_holds_1_4_1f() -> None:
    """In a round robin the mix of opponents must hold over the whole event (1.4.1f): with
    only two GMs among the ten (four needed, 1.4.5b), no game is dropped."""
    specs: list[Spec] = [
        (2470, "GM", "GER", 2),
        (2460, "GM", "NED", 2),
        (2450, "IM", "FRA", 2),
        (2440, "IM", "ESP", 2),
        (2420, "IM", "ITA", 2),
        (2400, "IM", "USA", 1),
        (2380, "FM", "NOR", 2),
        (2290, None, "ENG", 1),
        (2270, None, "ENG", 1),
        (2210, None, "ENG", 2),
    ]
    check = one(ENG, played(*specs), NormEvent(rounds=10, round_robin=True), GM)
    assert not check.norm
    assert [r.article for r in check.failures] == ["1.4.5b", "1.4.8a"]


# An ENG player's 10-round Swiss, 7 of 10: seven GER opponents (four GMs, two IMs, an FM
# 2460), a FRA IM 2450, an ESP FM 2440 and a NED 2420; wins over the GER IM 2500, the GER FM
# (round 1), the FRA IM and the ESP FM. All ten: 7 of 10 from GER, at most 6 (1.4.4).
CHOOSE: list[Spec] = [
    (2460, "FM", "GER", 2),
    (2600, "GM", "GER", 1),
    (2580, "GM", "GER", 1),
    (2560, "GM", "GER", 1),
    (2540, "GM", "GER", 1),
    (2500, "IM", "GER", 2),
    (2480, "IM", "GER", 1),
    (2450, "IM", "FRA", 2),
    (2440, "FM", "ESP", 2),
    (2420, None, "NED", 1),
]


def twice(*specs: Spec) -> list[NormGame]:
    """A double round robin's games: each opponent (101, 102, ...) met in round i and again
    in round i + n, with the same result."""
    once = played(*specs)
    n = len(once)
    return [
        *once,
        *(
            dataclasses.replace(g, round_no=g.round_no + n, round_label=str(g.round_no + n))
            for g in once
        ),
    ]


# A 6-player double round robin: five opponents met twice, 6.5 of 10. Ra 12720 / 5 = 2544,
# 65%, dp 110, Rp 2654; every opponent titled, from five federations.
DOUBLE: list[Spec] = [
    (2620, "GM", "GER", 1),
    (2600, "GM", "NED", 1),
    (2520, "IM", "FRA", 2),
    (2500, "IM", "ESP", 1),
    (2480, "IM", "USA", 2),
]
DOUBLE_HALVES = [1, 1, 2, 1, 2, 1, 1, 1, 1, 2]  # 13 halves: 6.5 of 10
DRR10 = NormEvent(rounds=10, round_robin=True, double_round_robin=True)


def _double(gms: int) -> list[NormGame]:
    specs = [(r, "GM" if i < gms else "IM", f, 0) for i, (r, _, f, _) in enumerate(DOUBLE)]
    return [
        dataclasses.replace(g, score_half_points=h)
        for g, h in zip(twice(*specs), DOUBLE_HALVES, strict=True)
    ]


def _forfeit_win(round_no: int) -> NormGame:
    return NormGame(round_no, str(round_no), 120, 2500, "GM", "SWE", True, 2, over_the_board=False)


def _eight_and(round_no: int) -> list[NormGame]:
    """The docs' round robin's first eight games, in the rounds other than ``round_no``, and
    a forfeit win in round ``round_no``."""
    games = played(*ROUND_ROBIN[:8])
    others = [r for r in range(1, 10) if r != round_no]
    moved = [
        dataclasses.replace(g, round_no=r, round_label=str(r))
        for g, r in zip(games, others, strict=True)
    ]
    return sorted([*moved, _forfeit_win(round_no)], key=lambda g: g.round_no)


Verdict = tuple[bool, int, int | None, int | None, tuple[int, ...], str | None]
"""norm, games, Ra, Rp, opponents ignored, and the reason that decides: the first failure of
a miss, the note of a norm (None: a norm without a note)."""

FIDE_CASES = [
    pytest.param(
        ENG, played(*CHOOSE), NormEvent(rounds=10, round_robin=False), GM,
        (True, 9, 2508, 2633, (101,),
         "1.4.1f: a norm without the 1 game against player 101 (round 1, defeated)"),
        id="1.4.1f-the-player-ignores-the-ger-fm-not-the-lowest-rated-esp",
    ),
    pytest.param(
        ENG, played(*CHOOSE[:8], (2440, "FM", "GER", 2), CHOOSE[9]),
        NormEvent(rounds=10, round_robin=False), GM,
        (False, 10, 2503, 2652, (), "1.4.4: 8 of 10 opponents from GER, at most 6"),
        id="1.4.1f-no-choice-of-one-game-gives-the-mix",
    ),
    pytest.param(
        ENG, _double(2), DRR10, GM,
        (False, 10, 2544, 2654, (),
         "1.4.5b: 2 of 5 opponents (players met, a double round robin) hold GM, at least 3"),
        id="1.4.5-double-round-robin-two-gms-met-twice-is-no-gm-norm",
    ),
    pytest.param(
        ENG, _double(2), DRR10, IM,
        (True, 10, 2544, 2654, (),
         "1.4.5: a double round robin: the opponents counted as players, the holders of the "
         "title at least half of them"),
        id="1.4.5-double-round-robin-an-im-norm",
    ),
    pytest.param(
        ENG, _double(3), DRR10, GM,
        (True, 10, 2544, 2654, (),
         "1.4.5: a double round robin: the opponents counted as players, the holders of the "
         "title at least half of them"),
        id="1.4.5-double-round-robin-three-gms-of-five",
    ),
    pytest.param(
        ENG, _double(2), NormEvent(rounds=10, round_robin=False), GM,
        (True, 10, 2544, 2654, (), None),
        id="1.4.5b-the-same-games-outside-a-double-round-robin-count-as-games",
    ),
    pytest.param(
        ENG, _eight_and(3), SWISS9, GM,
        (True, 8, 2481, 2674, (),
         "1.4.1c: 8 games and a round won unplayed (forfeit or allocated bye) of 9 count as 9"),
        id="1.4.1c-the-unplayed-win-in-round-3",
    ),
    pytest.param(
        ENG, _eight_and(9), SWISS9, GM,
        (True, 8, 2481, 2674, (),
         "1.4.1c: 8 games and a round won unplayed (forfeit or allocated bye) of 9 count as 9"),
        id="1.4.1c-the-unplayed-win-in-round-9",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("player", "games", "event", "title", "want"), FIDE_CASES)
def test_verdicts_fide_would_give(
    player: NormPlayer, games: list[NormGame], event: NormEvent, title: NormTitle, want: Verdict
) -> None:
    """Cases worked from the Title Regulations, each id naming its article: 1.4.1f (the
    player chooses which defeated opponents to ignore: every choice is searched and the best
    norm given), the double round robin's clause of 1.4.5 (players, not games; the holders
    of the title half of them) and 1.4.1c (the round won unplayed may be any round)."""
    check = one(player, games, event, title)
    *numbers, reason = want
    assert [check.norm, check.games, check.ra, check.rp, check.ignored_opponents] == numbers
    reasons = [str(r) for r in check.reasons]
    if reason is None:
        assert reasons == []
    elif check.norm:
        assert reason in reasons
    else:
        assert reasons[0] == reason


def test_games_against_opponents_outside_fide_are_not_counted_1_4_2a() -> None:
    """An opponent of no FIDE federation is left out (1.4.2a); FID is accepted."""
    outsider = NormGame(10, "10", 150, 2700, "GM", "XYZ", False, 0)
    fid = NormGame(10, "10", 151, 2700, "GM", "FID", True, 0)
    games = played(*ROUND_ROBIN)
    check = one(ENG, [*games, outsider], NormEvent(rounds=10, round_robin=True), GM)
    assert (check.norm, check.games, check.rp) == (True, 9, 2681)
    assert check.notes[0] == norms.Reason(
        "1.4.2a", "1 game against opponents outside FIDE's federations not counted (XYZ)"
    )
    with_fid = one(ENG, [*games, fid], NormEvent(rounds=10, round_robin=True), GM)
    assert (with_fid.games, with_fid.other_federations) == (10, 6)  # FID no federation


def test_unrated_zero_scorers_in_a_round_robin_are_not_counted_1_4_2b() -> None:
    """An unrated opponent who scored zero against rated ones: his game is left out in a
    round robin (1.4.2b), counted (at 1400, raised to the floor) in a Swiss."""
    assert norms.zero_scorers(
        [(5, None, 2400, 0), (5, None, 2300, 0), (6, None, 2400, 1), (7, 2400, None, 2)]
    ) == frozenset({5})
    games = [*played(*ROUND_ROBIN), NormGame(10, "10", 5, None, None, "SWE", True, 2)]
    rr = NormEvent(rounds=10, round_robin=True, zero_scorers=frozenset({5}))
    check = one(ENG, games, rr, GM)
    assert (check.games, check.ra, check.rp) == (9, 2461, 2681)
    assert check.notes[0].article == "1.4.2b"
    swiss = NormEvent(10, False, zero_scorers=frozenset({5}))
    counted = norms._evaluate(norms.NORM_REQUIREMENTS[GM], ENG, games, swiss, 0, str)
    assert (counted.games, counted.raised) == (10, (5, 1400, 2200))


def test_forfeits_are_not_counted_1_4_2c() -> None:
    """A game won by forfeit is not counted (1.4.2c)."""
    forfeit = NormGame(10, "10", 150, 2700, "GM", "SWE", True, 2, over_the_board=False)
    check = one(ENG, [*played(*ROUND_ROBIN), forfeit], NormEvent(10, False), GM)
    assert (check.games, check.score_half_points) == (9, 14)
    assert check.notes[0] == norms.Reason("1.4.2c", "1 game not played over the board not counted")


def test_two_other_federations_needed_1_4_3() -> None:
    """Opponents from the player's federation and one other: no norm (1.4.3)."""
    specs = [(r, t, "GER" if i < 4 else "ENG", s) for i, (r, t, _, s) in enumerate(ROUND_ROBIN)]
    check = one(ENG, played(*specs), RR9, GM)
    assert check.failures[0] == norms.Reason(
        "1.4.3", "opponents from 1 other federation, at least 2 needed"
    )
    unknown = one(NormPlayer(1, None, False, None, "m"), played(*ROUND_ROBIN), RR9, GM)
    assert unknown.failures[0] == norms.Reason("1.4.3", "the player's federation is not known")


@pytest.mark.parametrize(
    "exemption",
    [pytest.param(e, id=e.article) for e in NormExemption],
)
def test_an_exempt_event_checks_no_federations_1_4_3(exemption: NormExemption) -> None:
    """A national championship (1.4.3a), national team championship (b), zonal (c) or
    qualifying Swiss (d): every opponent from the player's own federation, still a norm."""
    specs = [(r, t, "ENG", s) for r, t, _, s in ROUND_ROBIN]
    check = one(ENG, played(*specs), NormEvent(9, True, exemption=exemption), GM)
    assert (check.norm, check.own_federation, check.other_federations) == (True, 9, 0)
    assert check.notes == (
        norms.Reason(exemption.article, "exempt event: 1.4.3 and 1.4.4 not applied"),
    )
    plain = one(ENG, played(*specs), RR9, GM)
    assert [r.article for r in plain.failures] == ["1.4.3", "1.4.4"]


def test_a_miss_by_the_three_fifths_rule_1_4_4() -> None:
    """Six of nine opponents from the player's federation: at most 3/5 of 9, 5 (1.4.4)."""
    specs = list(ROUND_ROBIN)
    specs[0] = (2600, "GM", "ENG", 2)
    specs[1] = (2580, "GM", "ENG", 1)
    specs[2] = (2550, "GM", "ENG", 2)
    check = one(ENG, played(*specs), RR9, GM)
    assert (check.norm, check.own_federation, check.other_federations) == (False, 6, 3)
    assert check.failures == (
        norms.Reason("1.4.4", "6 of 9 opponents from ENG, the player's federation, at most 5"),
    )
    five = list(ROUND_ROBIN)
    five[0] = (2600, "GM", "ENG", 2)
    five[1] = (2580, "GM", "ENG", 1)
    assert one(ENG, played(*five), RR9, GM).norm  # 5 of 9: the most allowed


def test_two_thirds_from_one_federation_1_4_4() -> None:
    """Seven of nine opponents from one other federation: at most 2/3 of 9, 6 (1.4.4)."""
    specs = [(r, t, "GER" if i < 7 else ("FRA" if i == 7 else "NED"), s)
             for i, (r, t, _, s) in enumerate(ROUND_ROBIN)]  # fmt: skip
    check = one(ENG, played(*specs), RR9, GM)
    assert check.failures == (norms.Reason("1.4.4", "7 of 9 opponents from GER, at most 6"),)


def test_half_the_opponents_title_holders_not_counting_cm_1_4_5a() -> None:
    """Five of nine title holders are needed (1.4.5a); a CM or WCM is none."""
    specs = [(r, t if i < 4 else ("CM" if i < 6 else "WCM"), f, s)
             for i, (r, t, f, s) in enumerate(ROUND_ROBIN)]  # fmt: skip
    check = one(ENG, played(*specs), RR9, GM)
    assert check.failures[0] == norms.Reason(
        "1.4.5a", "4 of 9 opponents hold a title (CM and WCM not counted), at least 5"
    )


def test_a_miss_by_one_titled_opponent_1_4_5b() -> None:
    """Two GMs among nine opponents: a third, at least 3, are needed (1.4.5b); the IM norm
    (GMs and IMs, 1.4.5c) holds."""
    specs = list(ROUND_ROBIN)
    specs[2] = (2550, "IM", "FRA", 2)
    gm, im = norms.check_norms(ENG, played(*specs), RR9)
    assert gm.failures == (norms.Reason("1.4.5b", "2 of 9 opponents hold GM, at least 3"),)
    assert (im.norm, im.holders) == (True, 6)


def test_women_s_norms_count_higher_titles_1_4_5d_e() -> None:
    """A woman's WGM and WIM norms: IMs and GMs count among the WGMs (1.4.5d, e)."""
    checks = norms.check_norms(WOMAN, played(*ROUND_ROBIN), RR9)
    assert [(c.title, c.norm, c.holders) for c in checks] == [
        (GM, True, 3), (IM, True, 6), (WGM, True, 6), (WIM, True, 6),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("player", "titles"),
    [
        pytest.param(NormPlayer(1, "ENG", True, None, "m"), [GM, IM], id="1.4-man"),
        pytest.param(NormPlayer(1, "ENG", True, "FM", "f"), [GM, IM, WGM, WIM], id="1.4-wfm"),
        pytest.param(NormPlayer(1, "ENG", True, "WIM", "f"), [GM, IM, WGM], id="1.4-wim"),
        pytest.param(NormPlayer(1, "ENG", True, "WGM", "f"), [GM, IM], id="1.4-wgm"),
        pytest.param(NormPlayer(1, "ENG", True, "IM", "f"), [GM], id="1.4-woman-im"),
        pytest.param(NormPlayer(1, "ENG", True, "GM", "m"), [], id="1.4-gm"),
        pytest.param(NormPlayer(1, "ENG", True, None, None), [GM, IM], id="1.4-sex-unknown"),
    ],
)
def test_the_norms_worth_checking(player: NormPlayer, titles: list[NormTitle]) -> None:
    assert list(norms.norm_titles(player)) == titles


def test_the_swiss_with_an_unrated_opponent_and_the_floor_1_4_6() -> None:
    """The docs' Swiss: an unrated opponent (1400, 1.4.6d), the lowest, raised to the GM floor
    2200 (1.4.6b-c); the 2150 player stays 2150 (only one is raised). Ra before the floor
    20870 / 9 = 2318.9 -> 2319, after 21670 / 9 = 2407.8 -> 2408; 7 of 9 = 78%, dp 220, Rp
    2628: a GM norm, which without the floor would fail 1.4.8a (2319 < 2380)."""
    specs: list[Spec] = [
        (2550, "GM", "GER", 2),
        (2520, "GM", "NED", 1),
        (2500, "GM", "FRA", 2),
        (2480, "IM", "ESP", 1),
        (2450, "IM", "ITA", 2),
        (2420, "IM", "USA", 1),
        (2400, "FM", "NOR", 2),
        (2150, None, "SWE", 1),
        (None, None, "POL", 2),
    ]
    check = one(ENG, played(*specs), SWISS9, GM)
    assert (check.norm, check.ra_before_floor, check.ra, check.percent, check.rp) == (
        True, 2319, 2408, 78, 2628,
    )  # fmt: skip
    assert check.raised == (109, 1400, 2200)
    assert check.notes == (norms.Reason("1.4.6c", "player 109 counted at 2200, not 1400"),)
    im = one(ENG, played(*specs), SWISS9, IM)  # the IM floor is 2050
    assert (im.ra, im.raised) == (2391, (109, 1400, 2050))


def test_only_the_lowest_opponent_is_raised_1_4_6c() -> None:
    """Two opponents below the floor: the lower one is raised, the other stays (1.4.6c)."""
    specs = [(2100, None, "GER", 1), (2000, None, "FRA", 1), *[(2500, "GM", "NED", 1)] * 7]
    check = one(ENG, played(*specs), SWISS9, GM)
    assert check.raised == (102, 2000, 2200)
    assert check.ra == divide(2100 + 2200 + 7 * 2500, 9)


def divide(total: int, n: int) -> int:
    return (2 * total + n) // (2 * n)


@pytest.mark.parametrize(
    ("halves", "percent", "norm"),
    [
        pytest.param(6, 33, False, id="1.4.8b-3-of-9"),
        pytest.param(7, 39, True, id="1.4.8b-3.5-of-9"),
    ],
)
def test_at_least_35_percent_1_4_8b(halves: int, percent: int, norm: bool) -> None:
    """Nine 2800 GMs: 3 of 9 = 33% gives Rp 2800 - 125 = 2675 but misses 35% (1.4.8b)."""
    feds = ["GER", "FRA", "NED", "ESP", "ITA", "USA", "NOR", "SWE", "POL"]
    specs = [(2800, "GM", feds[i], 2 if i < halves // 2 else 0) for i in range(9)]
    if halves % 2:
        specs[halves // 2] = (2800, "GM", feds[halves // 2], 1)
    check = one(ENG, played(*specs), SWISS9, GM)
    assert (check.percent, check.norm) == (percent, norm)
    if not norm:
        assert check.failures == (norms.Reason("1.4.8b", "33%, at least 35%"),)


def test_the_average_must_reach_the_minimum_1_4_8a() -> None:
    """Nine wins against 2300s: Rp 3100, Ra 2300 < 2380 (1.4.8a)."""
    feds = ["GER", "FRA", "NED", "ESP", "ITA", "USA", "NOR", "SWE", "POL"]
    check = one(ENG, played(*[(2300, "GM", f, 2) for f in feds]), SWISS9, GM)
    assert (check.rp, check.failures) == (3100, (norms.Reason("1.4.8a", "Ra 2300, at least 2380"),))


def test_an_event_of_more_than_13_rounds_counts_13_games_1_7() -> None:
    """A 16-player round robin (15 rounds): a norm over 15 games counts as 13 (1.7)."""
    specs = [*ROUND_ROBIN, *ROUND_ROBIN[:6]]
    check = one(ENG, played(*specs), NormEvent(rounds=15, round_robin=True), GM)
    assert (check.norm, check.games, check.norm_games) == (True, 15, 13)
    assert check.notes[-1] == norms.Reason("1.7", "15 games in 15 rounds count as 13")
    thirteen = one(ENG, played(*specs[:13]), NormEvent(rounds=13, round_robin=True), GM)
    assert (thirteen.norm, thirteen.norm_games) == (True, 13)


@pytest.mark.parametrize(
    ("end", "long"),
    [
        pytest.param(dt.date(2026, 3, 30), False, id="1.1.4-30-days"),
        pytest.param(dt.date(2026, 3, 31), True, id="1.1.4-31-days"),
    ],
)
def test_events_longer_than_30_days_1_1_4(end: dt.date, long: bool) -> None:
    assert norms.is_long_for_norms(dt.date(2026, 3, 1), end) is long


def test_the_table_is_the_rating_regulations_table_8_1_1_1_4_9() -> None:
    """dp comes from the one table 8.1.1 of ``ratings.rules`` (1.4.9 is the same table)."""
    assert vars(norms)["dp"] is players.dp  # imported there, not exported
    source = inspect.getsource(norms)
    assert "-677" not in source


# --- titles by rating (1.3) and applications (1.5) --------------------------------------------


def point(
    period: str, day: dt.date, rating: int, games: int | None, game: int | None = 1
) -> TitleRatingPoint:
    return TitleRatingPoint(period, day, game, rating, games)


def test_interim_ratings_after_each_game_1_5_3a() -> None:
    """2290 at the period start, K 20, dR +.50, +.40, -.30 (hundredths): 2290 + 10 = 2300,
    + 18 = 2308, + 12 = 2302 (K x the sum so far, rounded once, half away from zero)."""
    day = dt.date(2026, 3, 5)
    got = norms.interim_ratings(
        "2026-03", 2290, 28, 20, 100, [(11, day, 50), (12, day, 40), (13, day, -30)]
    )
    assert [(p.game_id, p.rating, p.games) for p in got] == [
        (11, 2300, 29), (12, 2308, 30), (13, 2302, 31),
    ]  # fmt: skip
    assert [p.games for p in norms.interim_ratings("x", 2290, None, 20, 100, [(1, day, 5)])] == [
        None
    ]
    half = norms.interim_ratings("x", 2000, 0, 10, 100, [(1, day, -25)])  # -2.5 -> -3
    assert half[0].rating == 1997


@pytest.mark.parametrize(
    ("points", "reached", "game", "unknown"),
    [
        pytest.param([(2299, 40), (2300, 29), (2301, 30)], True, 3, False, id="1.3-30-games"),
        pytest.param([(2300, 30)], True, 1, False, id="1.3-2300"),
        pytest.param([(2299, 100)], False, None, False, id="1.3-2299"),
        pytest.param([(2300, None)], False, 1, True, id="1.3-games-unknown"),
    ],
)
def test_fm_by_rating_with_30_games_1_3(
    points: list[tuple[int, int | None]], reached: bool, game: int | None, unknown: bool
) -> None:
    """FM at 2300, with 30 rated games then (1.3.1)."""
    day = dt.date(2026, 3, 5)
    ps = [point("2026-03", day, r, g, i) for i, (r, g) in enumerate(points, 1)]
    got = norms.title_by_rating("FM", 2300, ps)
    assert (got.reached, got.point.game_id if got.point else None, got.games_unknown) == (
        reached, game, unknown,
    )  # fmt: skip


def test_30_games_only_after_1_july_2017_1_3() -> None:
    """A rating reached on 1 July 2017 needs no 30 games; one reached on 2 July does."""
    on = norms.title_by_rating("CM", 2200, [point("2017-07", dt.date(2017, 7, 1), 2200, 10)])
    after = norms.title_by_rating("CM", 2200, [point("2017-07", dt.date(2017, 7, 2), 2200, 10)])
    assert (on.reached, after.reached) == (True, False)


def test_titles_by_rating_for_women_1_3() -> None:
    """FM 2300, CM 2200, WFM 2100, WCM 2000 (1.3.1-1.3.4): 2150 with 40 games."""
    ps = [point("2026-03", dt.date(2026, 3, 5), 2150, 40)]
    assert [(t.title, t.reached) for t in norms.titles_by_rating("f", ps)] == [
        ("FM", False), ("CM", False), ("WFM", True), ("WCM", True),
    ]  # fmt: skip
    assert [t.title for t in norms.titles_by_rating("m", ps)] == ["FM", "CM"]


def record(games: int, exempt: bool = False, event: int = 1) -> NormRecord:
    return NormRecord(event, f"Event {event}", dt.date(2026, 3, 9), games, exempt)


def test_an_application_needs_27_games_and_the_rating_1_5() -> None:
    """Norms of 9 + 9 + 9 games and an interim 2500 (GM): complete (1.5.1, 1.5.3); 9 + 13 is
    22 games, short (1.5.1); a highest rating of 2499, short (1.5.3)."""
    day = dt.date(2026, 5, 3)
    trail = [
        point("2026-04", day, 2480, 100, 1),
        point("2026-05", day, 2490, 101, 2),
        point("2026-05", day, 2500, 102, 3),
        point("2026-05", day, 2495, 103, 4),
    ]
    done = norms.application(GM, [record(9, event=i) for i in (1, 2, 3)], trail)
    assert (done.complete, done.norm_games, done.rating.point) == (True, 27, trail[2])
    assert done.trail == tuple(trail[1:3])
    short = norms.application(GM, [record(9), record(13, event=2)], trail)
    assert short.missing == (norms.Reason("1.5.1", "norms cover 22 games, at least 27 needed"),)
    low = norms.application(GM, [record(9, event=i) for i in (1, 2, 3)], trail[:2])
    assert low.missing == (norms.Reason("1.5.3", "the highest rating is 2490, 2500 needed"),)
    assert low.trail == (trail[1],)


def test_one_norm_without_an_exemption_1_4_3e() -> None:
    """Every norm from an exempt event: the application lacks one under the normal foreign
    rules (1.4.3e)."""
    ps = [point("2026-05", dt.date(2026, 5, 3), 2410, 100)]
    got = norms.application(IM, [record(9, True, i) for i in (1, 2, 3)], ps)
    assert got.missing == (
        norms.Reason("1.4.3e", "every norm was made in an event exempt from 1.4.3"),
    )
    assert norms.application(IM, [record(9, True, 1), record(18, False, 2)], ps).complete


def test_the_docs_name_tests_that_exist() -> None:
    """Every test docs/TITLES.md names is a test function of the file it names."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "TITLES.md").read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![\w/])(?:tests/)?((?:\w+/)*test_\w+\.py)::(test_\w+)", text))
    assert len(named) > 20
    for file, name in sorted(named):
        tree = ast.parse((root / "tests" / file).read_text(encoding="utf-8"))
        functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert name in functions, f"{file}::{name}"


def test_no_norm_is_possible_below_eight_games() -> None:
    """1.4.1 and 1.4.1c: nine games, or eight with an unplayed win in nine rounds; the
    website skips the norm checks of an event whose busiest player has fewer."""
    assert [norms.norm_possible(n) for n in (0, 7, 8, 9, 13)] == [False, False, True, True, True]


# Nine opponents of nine federations, a third of them WIM or higher: the WIM norm's mix.
EDGE: list[tuple[str | None, str]] = [
    ("WIM", "GER"), ("WGM", "NED"), ("IM", "FRA"), ("WIM", "ESP"), (None, "ITA"),
    (None, "USA"), ("WFM", "SWE"), (None, "NOR"), (None, "DEN"),
]  # fmt: skip


def test_a_norm_is_out_of_reach_below_the_least_average_and_only_there() -> None:
    """1.4.8a: Ra at least 2030 for the WIM norm, the least of any norm. Nine opponents
    rated 2030 and 8 of 9 (89%, dp 366): the norm, exactly at Ra 2030. Rated 2029: no
    norm of any title, however rounds or games are ignored, and
    :func:`norms.norm_out_of_reach` says so beforehand."""
    assert norms.LEAST_NORM_AVERAGE == 2030
    assert all(r.rating_floor < r.average for r in norms.NORM_REQUIREMENTS.values())
    for rating, reached in ((2030, True), (2029, False)):
        games = played(*((rating, t, f, 2 if i else 0) for i, (t, f) in enumerate(EDGE)))
        check = one(WOMAN, games, SWISS9, WIM)
        assert (check.norm, norms.norm_out_of_reach(games)) == (reached, not reached)
        assert check.ra == rating
    unrated = played(*((None, t, f, 2) for t, f in EDGE))  # counted at 1400 (1.4.6d)
    assert norms.norm_out_of_reach(unrated)


def test_no_norm_comes_of_games_out_of_reach() -> None:
    """Random events (seeded): a player :func:`norms.norm_out_of_reach` rules out reaches
    no norm of any title in them; some of the others do, so the draw reaches both."""
    rng = random.Random(30)
    reached = ruled_out = 0
    for _ in range(3000):
        n = rng.randint(8, 13)
        event = NormEvent(rounds=n, round_robin=rng.random() < 0.3)
        top = rng.choice((2029, 2100, 2500, 2700))
        games = played(
            *(
                (
                    None if rng.random() < 0.05 else rng.randint(top - 400, top),
                    rng.choice(("GM", "IM", "WGM", "WIM", "FM", None)),
                    rng.choice(("GER", "NED", "FRA", "ESP", "ENG", "USA")),
                    rng.choice((0, 1, 2, 2, 2)),
                )
                for _ in range(n)
            )
        )
        checks = norms.check_norms(WOMAN, games, event, titles=list(NormTitle))
        if norms.norm_out_of_reach(games):
            ruled_out += 1
            assert not any(c.norm for c in checks)
        elif any(c.norm for c in checks):
            reached += 1
    assert (reached > 50, ruled_out > 500) == (True, True), (reached, ruled_out)


def _brute_force(
    req: norms.NormRequirement, games: list[NormGame], event: NormEvent
) -> tuple[int, int, int] | None:
    """1.4.1f by trying every choice of defeated opponents, nothing skipped: (games
    ignored, -Rp, -Ra) of the best norm, None for none."""
    won = [g for g in games if g.score_half_points == 2 and g.over_the_board]
    best = None
    for j in range(1, len(won) + 1):
        for choice in itertools.combinations(won, j):
            if len(games) - j < norms.MIN_NORM_GAMES:
                continue
            kept = [g for g in games if all(g is not c for c in choice)]
            check = norms._evaluate(req, ENG, kept, event, 0, str)
            if check.norm:
                key = (j, -(check.rp or 0), -(check.ra or 0))
                best = key if best is None or key < best else best
    return best


def test_the_search_of_1_4_1f_skips_no_choice_that_gives_a_norm() -> None:
    """Random Swiss events (seeded): the 1.4.1f search, which skips a number of games
    ignored when Ra and Rp are out of reach, finds the same best norm as trying every
    choice."""
    rng = random.Random(42)
    found = 0
    for _ in range(400):
        n = rng.randint(9, 12)
        event = NormEvent(rounds=n, round_robin=False)
        games = played(
            *(
                (
                    None if rng.random() < 0.05 else rng.randint(2150, 2650),
                    rng.choice(("GM", "GM", "IM", "FM", None)),
                    rng.choice(("GER", "GER", "NED", "FRA", "ENG")),
                    rng.choice((0, 1, 2, 2, 2)),
                )
                for _ in range(n)
            )
        )
        req = norms.NORM_REQUIREMENTS[GM]
        full = norms._evaluate(req, ENG, games, event, 0, str)
        if full.norm:
            continue
        searched = norms._defeated_ignored(req, ENG, games, event, full, str)
        want = _brute_force(req, games, event)
        got = (
            None
            if searched is None
            else (len(searched.ignored_opponents), -(searched.rp or 0), -(searched.ra or 0))
        )
        assert got == want, games
        found += want is not None
    assert found > 20, found
