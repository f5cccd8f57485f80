"""An event's final ranking by score and tie-breaks (ratings/tiebreaks.py, FIDE
Tie-Break Regulations C.07): the values worked by hand from C.07's definitions, the order
they give, the edition by the event's start, and the crosstables that show them (the event
page and ``ratings event show``)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest

from ratings import tiebreaks
from ratings.tiebreaks import PlayedRound, final_ranking, tiebreak_text
from tests.io.test_trf import player_line
from tests.publish_helpers import ok
from tests.support import Club

START = dt.date(2025, 1, 5)


def _event(results: dict[tuple[int, int, int], int]) -> dict[int, list[PlayedRound]]:
    """Rounds by player from ``(round, white, black) -> White's half points``."""
    rounds: dict[int, list[PlayedRound]] = {}
    for (number, white, black), halves in results.items():
        rounds.setdefault(white, []).append(PlayedRound(number, black, True, halves, "played"))
        rounds.setdefault(black, []).append(PlayedRound(number, white, False, 2 - halves, "played"))
    return rounds


# a round robin of four: 1 beats 2 and 4 and draws 3; 3 draws 4 and beats 2; 2 beats 4
ROUND_ROBIN = _event(
    {(1, 1, 2): 2, (1, 3, 4): 1, (2, 1, 3): 1, (2, 2, 4): 2, (3, 1, 4): 2, (3, 2, 3): 0}
)


def test_a_round_robin_worked_by_hand() -> None:
    """Scores 2½, 1, 2, ½. SB (art. 9.1): the scores of the opponents beaten, half those
    drawn: player 1 beat 2 (1) and 4 (½) and drew 3 (2 / 2) = 2.5. KS (art. 9.2): points
    against opponents with at least half the maximum (1½ of 3: player 1 and 3): player 4
    drew 3 = ½."""
    ranked = final_ranking(ROUND_ROBIN, 3, {}, [1, 2, 3, 4], round_robin=True, start=START)
    assert ranked.tiebreaks == tiebreaks.ROUND_ROBIN
    assert [t.code for t in ranked.tiebreaks] == ["DE", "WIN", "SB", "KS"]
    assert ranked.order == (1, 3, 2, 4)
    assert ranked.values == {  # WIN, SB, KS (DE orders a tied group: no value)
        1: (Decimal(2), Decimal("2.5"), Decimal("0.5")),
        3: (Decimal(1), Decimal("2.5"), Decimal("0.5")),
        2: (Decimal(1), Decimal("0.5"), Decimal(0)),
        4: (Decimal(0), Decimal(1), Decimal("0.5")),
    }


def test_direct_encounter_comes_first_in_a_round_robin() -> None:
    """1 and 2 tie on 2 of 3; 1 won twice, 2 once, but 2 beat 1: direct encounter
    (art. 6) comes before the wins in a round robin, so 2 is above 1 (and 1 comes first by
    rating, the fallback)."""
    results = {(1, 2, 1): 2, (1, 3, 4): 2, (2, 1, 3): 2, (2, 2, 4): 1, (3, 1, 4): 2, (3, 3, 2): 1}
    ranked = final_ranking(_event(results), 3, {}, [1, 2, 3, 4], round_robin=True, start=START)
    assert ranked.order == (2, 1, 3, 4)
    assert (ranked.values[1][0], ranked.values[2][0]) == (Decimal(2), Decimal(1))  # WIN


# a Swiss of six in three rounds, every game played
SWISS = _event(
    {
        (1, 1, 4): 2, (1, 2, 5): 1, (1, 3, 6): 2,
        (2, 1, 3): 1, (2, 5, 2): 0, (2, 4, 6): 2,
        (3, 2, 1): 0, (3, 3, 5): 2, (3, 6, 4): 1,
    }
)  # fmt: skip


def _by_hand(rounds: dict[int, list[PlayedRound]]) -> dict[int, tuple[Decimal, ...]]:
    """BH-C1, BH and SB from their definitions (C.07 art. 8.1, 14.1, 9.1) for events where
    every game was played: the opponents' scores summed, less the lowest; the scores of the
    opponents beaten and half those drawn."""
    score = {pid: Decimal(sum(r.half_points for r in own)) / 2 for pid, own in rounds.items()}
    found: dict[int, tuple[Decimal, ...]] = {}
    for pid, own in rounds.items():
        theirs = [score[r.opponent_id] for r in own if r.opponent_id is not None]
        sb = sum(
            (score[r.opponent_id] * r.half_points / 2 for r in own if r.opponent_id is not None),
            Decimal(0),
        )
        bh = sum(theirs, Decimal(0))
        found[pid] = (bh - min(theirs), bh, sb)
    return found


def test_a_swiss_worked_by_hand() -> None:
    ranked = final_ranking(SWISS, 3, {}, list(range(1, 7)), round_robin=False, start=START)
    assert [t.code for t in ranked.tiebreaks] == ["BH-C1", "BH", "SB"]
    assert dict(ranked.values) == _by_hand(SWISS)
    # 1 and 3 on 2½: BH-C1 4 and 3 (the opponents 4, 3, 2 on 1½, 2½, 1½; 6, 1, 5 on ½, 2½,
    # ½)
    assert ranked.values[1][0] == 4
    assert ranked.values[3][0] == 3
    assert ranked.order[:2] == (1, 3)
    # players with the same score in the order of BH-C1, then BH, then SB, then the fallback
    score = {pid: sum(r.half_points for r in own) for pid, own in SWISS.items()}
    keys = [(-score[p], *(-v for v in ranked.values[p])) for p in ranked.order]
    assert keys == sorted(keys)


def test_byes_count_as_c07_art_16_says() -> None:
    """Unplayed rounds: player 1 beats 2 and 3 and has a pairing-allocated bye in the last
    round (3 points). His Buchholz: 2's adjusted score (art. 16.3: his zero-point bye in the
    last round counts as a draw: ½ + ½ = 1), 3's 1 (his bye scored and counts as it is), and
    the bye's virtual opponent (art. 16.4): on 1's own 3 points in the 2024 edition, capped
    at a draw in every round (1½) from the edition of 1 March 2026."""
    rounds = _event({(1, 1, 2): 2, (2, 1, 3): 2, (2, 2, 4): 1, (3, 3, 4): 0})
    rounds.setdefault(3, []).append(PlayedRound(1, None, True, 2, "U"))
    rounds.setdefault(4, []).append(PlayedRound(1, None, True, 0, "Z"))
    rounds[1].append(PlayedRound(3, None, True, 2, "U"))
    rounds[2].append(PlayedRound(3, None, True, 0, "Z"))
    ranked = final_ranking(rounds, 3, {}, [1, 2, 3, 4], round_robin=False, start=START)
    assert ranked.order[0] == 1
    assert ranked.values[1][1] == 1 + 1 + 3
    later = dt.date(2026, 3, 1)
    ranked = final_ranking(rounds, 3, {}, [1, 2, 3, 4], round_robin=False, start=later)
    assert ranked.values[1][1] == Decimal("3.5")


@pytest.mark.parametrize(
    ("start", "edition"),
    [
        (dt.date(2024, 7, 31), "fide-2024"),  # the earliest edition the package implements
        (dt.date(2024, 8, 1), "fide-2024"),
        (dt.date(2026, 2, 28), "fide-2024"),
        (dt.date(2026, 3, 1), "fide-2026"),  # C.07 of 1 March 2026 (art. 16.4's caps)
    ],
)
def test_the_edition_by_the_event_start(start: dt.date, edition: str) -> None:
    assert tiebreaks.edition(start) == edition


@pytest.mark.parametrize(
    ("value", "text"),
    [("35", "35"), ("37.5", "37½"), ("0.5", "½"), ("28.75", "28.75"), ("0", "0")],
)
def test_a_value_as_a_crosstable_prints_it(value: str, text: str) -> None:
    assert tiebreak_text(Decimal(value)) == text


def test_the_event_page_names_its_tie_breaks(tmp_path: Path) -> None:
    """A round robin's page: its tie-breaks named in the headings and the note, their
    values in the rows, each player's title and federation under the name."""
    club = Club(tmp_path / "club.db")
    for name, rating, title in (("Ann", "1850", "WFM"), ("Bob", "1700", ""), ("Cat", "2050", "")):
        club.player(name, "--rating", rating, "--games", "40", "--federation", "NED",
                    *(("--title", title) if title else ()))  # fmt: skip
    club.game("Ann", "Bob", "1-0", "2025-01-05", "--event", "Jan Open", "--round", "1")
    club.game("Cat", "Ann", "1/2-1/2", "2025-01-06", "--event", "Jan Open", "--round", "2")
    club.game("Bob", "Cat", "0-1", "2025-01-07", "--event", "Jan Open", "--round", "3")
    club.ok("rate")
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(tmp_path / "club.db"))
    page = (site / "events/1.html").read_text("utf-8")
    heads = re.findall(r'<th scope="col">(?:<abbr title="([^"]*)">)?([^<]*)', page)
    assert [h for _, h in heads][-7:] == [
        "Score",
        "WIN",
        "SB",
        "KS",
        "Perf.",
        "K\N{MULTIPLICATION SIGN}ΣdR",
        "Games",
    ]
    assert ("Sonneborn-Berger (FIDE C.07 art. 9.1)", "SB") in heads
    assert (
        "recommend for a round robin, in this order: DE (direct encounter, art. 6), WIN (number"
        " of wins, art. 7.1), SB (Sonneborn-Berger, art. 9.1), KS (Koya, art. 9.2); then by the"
        " rating used."
    ) in page
    ann = re.search(r'Ann</a> <span class="who">WFM NED</span></th>.*?</tr>', page)
    assert ann is not None
    assert '<td class="score">1½</td><td data-tb="WIN">1</td><td data-tb="SB">0.75</td>' in (
        ann.group(0)
    )


def test_the_tie_breaks_an_event_file_names_rank_it() -> None:
    """An event whose file names its tie-breaks (TRF-2026 record 202) is ranked by them, in
    its order. In the Swiss above 2 and 4 tie on 1½ with the same BH-C1, BH and SB, so the
    fallback (rating, then name: here the ids' order) puts 2 first; with BPG (games played
    with Black, art. 7.3) first, 4 (Black twice) goes above 2 (once)."""
    default = final_ranking(SWISS, 3, {}, list(range(1, 7)), round_robin=False, start=START)
    assert default.order.index(2) < default.order.index(4)
    chosen, unknown = tiebreaks.named("BPG,BH-C1,XYZ")
    assert [t.code for t in chosen] == ["BPG", "BH-C1"]
    assert unknown == ("XYZ",)
    ranked = final_ranking(
        SWISS, 3, {}, list(range(1, 7)), round_robin=False, start=START, chosen=chosen
    )
    assert ranked.tiebreaks == chosen
    assert (ranked.values[4][0], ranked.values[2][0]) == (Decimal(2), Decimal(1))
    assert ranked.order.index(4) < ranked.order.index(2)
    assert ranked.order[:2] == default.order[:2]  # 1 and 3: their scores decide


@pytest.mark.parametrize(
    ("codes", "found", "unknown"),
    [
        (None, (), ()),
        ("", (), ()),
        ("bh-c1, sb", ("BH-C1", "SB"), ()),
        (("DE", "WIN", "DE"), ("DE", "WIN"), ()),
        ("PTS,ARO,BH-M1", ("ARO", "BH-M1"), ("PTS",)),
    ],
)
def test_codes_named(
    codes: str | tuple[str, ...] | None, found: tuple[str, ...], unknown: tuple[str, ...]
) -> None:
    chosen, left = tiebreaks.named(codes)
    assert tuple(t.code for t in chosen) == found
    assert left == unknown


def test_a_trf_2026_file_names_the_tie_breaks_the_crosstable_uses(tmp_path: Path) -> None:
    """Record 202 of a TRF-2026 file is kept with the event (unknown codes said once and
    kept as written), and its crosstable, on the page and in ``event show``, is ranked and
    named by the file's tie-breaks."""
    club = Club(tmp_path / "club.db")
    lines = [
        "012 Spring Swiss",
        "042 2026/03/01",
        "052 2026/03/03",
        "202 BPG,BH-C1,XYZ",
    ]
    # the Swiss of six above: round r, white, black -> White's half points
    games = {
        (1, 1, 4): 2, (1, 2, 5): 1, (1, 3, 6): 2,
        (2, 1, 3): 1, (2, 5, 2): 0, (2, 4, 6): 2,
        (3, 2, 1): 0, (3, 3, 5): 2, (3, 6, 4): 1,
    }  # fmt: skip
    codes = {2: "1", 1: "=", 0: "0"}
    for no in range(1, 7):
        blocks = []
        for r in (1, 2, 3):
            ((w, b, h),) = [
                (w, b, h) for (rr, w, b), h in games.items() if rr == r and no in (w, b)
            ]
            if no == w:
                blocks.append(f"{b:>4} w {codes[h]}")
            else:
                blocks.append(f"{w:>4} b {codes[2 - h]}")
        lines.append(player_line(no, f"Player{no}, Test", blocks, rating="1800", fed="NED"))
    trf = tmp_path / "spring.trf"
    trf.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = club.ok("import", "trf", str(trf), "--yes")
    assert "tie-break XYZ not computed here: the crosstable ranks ties by BPG, BH-C1" in out
    assert club.rows("SELECT tiebreaks FROM events") == [("BPG,BH-C1,XYZ",)]
    shown = club.ok("event", "show", "Spring Swiss")
    assert "Tie-breaks (FIDE C.07): BPG (games played with Black, art. 7.3), BH-C1" in shown
    order = [line.split()[1] for line in shown.splitlines() if line[:3].strip().isdigit()]
    assert order.index("Player4,") < order.index("Player2,")
    club.ok("rate")
    site = tmp_path / "site"
    ok("publish", str(site), "--db", str(tmp_path / "club.db"))
    page = (site / "events/1.html").read_text("utf-8")
    assert (
        "ranked by the tie-breaks the event's file names (FIDE Tie-Break Regulations, C.07), in"
        " this order: BPG (games played with Black, art. 7.3), BH-C1 (Buchholz cut 1, art. 8.1,"
        " 14.1); then by the rating used."
    ) in page
