"""The rating used, for a rated player whose games in an event were all against unrated
opponents.

Seen: such a player has no breakdown row of his own (the games change no rating of his,
docs/RULES.md#what-is-rated), so ``event show`` and the event page showed a blank rating: he
looked unrated. The rating his games used is the one his opponents' first-rating rows hold
for him."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.publish_helpers import Page
from tests.support import Club


@pytest.fixture
def club(tmp_path: Path) -> Club:
    club = Club(tmp_path / "club.db")
    club.player("Rated, Ann", "--rating", "1850", "--games", "40")
    club.player("Rated, Bob", "--rating", "1700", "--games", "40")
    club.player("New, Cat")
    club.player("New, Dan")
    for white, black, result, day in (
        ("Rated, Ann", "New, Cat", "1-0", "2025-01-05"),
        ("New, Dan", "Rated, Ann", "1/2-1/2", "2025-01-06"),
        ("Rated, Bob", "New, Cat", "0-1", "2025-01-07"),
        ("New, Dan", "Rated, Bob", "1-0", "2025-01-08"),
        ("New, Cat", "New, Dan", "1-0", "2025-01-09"),
    ):
        club.game(white, black, result, day, "--event", "Open", "--round", day[-1])
    club.ok("rate")
    return club


def test_event_show_gives_the_rating_used(club: Club) -> None:
    # Ann's games used 1850 (shown); she and Dan tie on 1½, which the Swiss's first
    # tie-break, Buchholz cut 1, decides (each round without a game a zero-point bye)
    assert club.ok("event", "show", "Open").splitlines()[4:] == [
        "#  name        rating    5    6    7    8    9  score  BH-C1  BH    SB  perf  K*sum(dR)",
        "1  New, Cat            3b0       4b1       2w1      2      7   9     2  1775",
        "2  New, Dan                 3w½       4w1  1b0     1½      7  8½     2  1968",
        "3  Rated, Ann    1850  1w1  2b½                    1½     6½   8  2.75",
        "4  Rated, Bob    1700            1w0  2b0           0     3½  3½     0",
    ]


def test_the_event_page_gives_the_rating_used(club: Club, tmp_path: Path) -> None:
    club.ok("publish", str(tmp_path / "site"))
    (page,) = (tmp_path / "site" / "events").glob("*.html")
    text = " ".join(" ".join(Page(page.read_text("utf-8")).text).split())
    assert re.search(r"Rated, Ann 1850 ", text), text
    assert re.search(r"Rated, Bob 1700 ", text), text
