"""Title norms, titles by rating and title applications: the arithmetic of the FIDE Title
Regulations applied from 1 January 2024 (FIDE Handbook B.01), as docs/TITLES.md states it.

Pure: plain records in, verdicts out; no database, no clock. The service
(:mod:`ratings.service.titles.norms`) reads an event's games, the ratings of the list in force and
the register's titles and federations, and calls :func:`check_norms` once per player.

The rules, by article (docs/TITLES.md#the-rules-article-by-article says each in this
project's words):

* 1.1.4: in an event that lasts longer than 30 days, each game uses the opponent's rating
  (and title) when it was played; otherwise the list in force at the event's start
  (1.4.6a). The service picks the list; :data:`LONG_EVENT_DAYS`, :func:`is_long_for_norms`.
* 1.3 (1.3.1 to 1.3.4): FM 2300, CM 2200, WFM 2100, WCM 2000 by a published or interim
  rating reached at some time; a rating reached after 1 July 2017 needs 30 rated games at
  that time. :data:`RATING_TITLES`, :func:`title_by_rating`.
* 1.4.1: at least 9 games. 1.4.1c: 8 games in a 9-round event count as 9 when the player
  won a round without playing (a forfeit win or a pairing-allocated bye), in any round.
  1.4.1e: outside a round robin (pairings not fixed in advance) later rounds may be ignored
  once a norm is reached. 1.4.1f: results against defeated opponents may be ignored, 9
  games staying, the player choosing which; in a round robin the mix of opponents (1.4.3 to
  1.4.5) must hold over the whole event. When all the games give no norm,
  :func:`check_norms` tries both and gives the best norm either allows.
* 1.4.2: not counted: (a) games against opponents outside FIDE's federations (``FID`` is
  accepted), (b) in a round robin, games against unrated opponents who scored zero against
  rated opponents (:func:`zero_scorers`), (c) games not played over the board (forfeits; here
  also games stored as not rated).
* 1.4.3: opponents from at least two federations other than the player's. 1.4.3a-d: the
  exemptions an event may have (:class:`NormExemption`); an exempt event checks neither 1.4.3
  nor 1.4.4.
* 1.4.4: at most 3/5 of the opponents from the player's federation, at most 2/3 from one
  federation (maxima rounded down); ``FID`` is no federation here.
* 1.4.5: at least 50% of the opponents title holders, CM and WCM not counting (1.4.5a), and
  at least 1/3, at least 3, holding the norm's title or a higher one (1.4.5b-e; minima
  rounded up). In a double round robin the opponents are counted as players, not games,
  and the holders of the title must be at least half of them (at least 3).
* 1.4.6: (a) the list in force at the start; (b, c) the one lowest-rated opponent below the
  adjusted rating floor (GM 2200, IM 2050, WGM 2000, WIM 1850) is raised to it; (d) other
  unrated opponents count as 1400.
* 1.4.7: Ra, the average of the opponents' ratings after 1.4.6, rounded to a whole number,
  0.5 up.
* 1.4.8: Rp = Ra + dp, at least 2600 / 2450 / 2400 / 2250 (2599.5 and so on before rounding:
  with Ra rounded first, Rp is whole); (a) Ra at least 2380 / 2230 / 2180 / 2030; (b) at least
  35%. 1.4.9: dp from the percentage rounded to a whole percent, 0.5 up; FIDE's table 1.4.9
  is the Rating Regulations' table 8.1.1, which :func:`ratings.rules.dp` holds (never a second
  copy here).
* 1.5: an application: norms covering at least 27 games (1.5.1), a norm good for several
  titles counting for each (1.5.2), a rating of GM 2500, IM 2400, WGM 2300, WIM 2200 reached
  at some time, published or interim (1.5.3, 1.5.3a: the rating after any game). 1.4.3e: at
  least one norm without a 1.4.3 exemption. :func:`application`.
* 1.7: a norm of an event of more than 13 rounds counts as 13 games.

What this module cannot establish, and leaves to the rating officer
(docs/TITLES.md#what-is-not-checked):

* the texts of 1.4.1 to 1.4.5, 1.4.3e and 1.4.4's rounding were read in a secondary
  transcription of the regulations, not in FIDE's own page: the numbers above are from it;
* 1.4.1b (7 or 8 games in team championships and the World Cup) and 1.4.1d (each full point
  above the norm counting as one more game) are not applied: the exact text was not found;
* whether an exemption of 1.4.3a-d also lifts 1.4.4 is read from the transcription (1.4.3d:
  "otherwise 1.4.4 applies"), not from FIDE's text;
* 1.4.2d (events changed to favour a player),
  1.5.6 (one norm from the events it lists), 1.1.3a and the rest of 1.1 (the conditions of
  play) are not checked;
* 1.4.1f searches every choice of defeated opponents up to :data:`SEARCH_LIMIT` choices a
  title (an event with more than about 18 wins is not searched to the end).

Over 600 lines: the Title Regulations' arithmetic, article by article, and its records.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ratings.rules.base import RulesError, divide_half_away
from ratings.rules.players import dp

__all__ = [
    "APPLICATION_GAMES",
    "APPLICATION_RATINGS",
    "LEAST_NORM_AVERAGE",
    "LONG_EVENT_DAYS",
    "MAX_NORM_GAMES",
    "MIN_NORM_GAMES",
    "MIN_NORM_PERCENT",
    "NORM_REQUIREMENTS",
    "RATING_TITLES",
    "SEARCH_LIMIT",
    "THIRTY_GAMES_AFTER",
    "TITLE_GAMES",
    "TITLE_HOLDERS",
    "UNRATED_OPPONENT",
    "Application",
    "NormCheck",
    "NormEvent",
    "NormExemption",
    "NormGame",
    "NormPlayer",
    "NormRecord",
    "NormRequirement",
    "NormTitle",
    "Reason",
    "TitleRatingPoint",
    "TitleReached",
    "application",
    "check_norms",
    "holds_or_higher",
    "interim_rating",
    "interim_ratings",
    "is_long_for_norms",
    "norm_out_of_reach",
    "norm_possible",
    "norm_titles",
    "title_by_rating",
    "titles_by_rating",
    "zero_scorers",
]


class NormTitle(enum.Enum):
    """A title gained by norms (art. 1.4)."""

    GM = "GM"
    IM = "IM"
    WGM = "WGM"
    WIM = "WIM"


_RANK = {"GM": 4, "IM": 3, "WGM": 2, "WIM": 1}
"""The norm titles from the highest; a player holding one needs no norm for it or a lower
one (and a woman IM none for WGM: 1.4.5 counts an IM among the WGM title holders)."""


@dataclass(frozen=True, slots=True)
class NormRequirement:
    """What one title's norm needs (art. 1.4.5, 1.4.6b, 1.4.8, 1.4.8a)."""

    title: NormTitle
    performance: int
    """Least Rp (1.4.8)."""
    average: int
    """Least Ra (1.4.8a)."""
    rating_floor: int
    """The adjusted rating floor of 1.4.6b."""
    holders: frozenset[str]
    """The opponents' titles that count for 1.4.5b-e: the norm's title and the higher ones."""
    holders_article: str
    """1.4.5b (GM), 1.4.5c (IM), 1.4.5d (WGM) or 1.4.5e (WIM)."""
    women_only: bool


NORM_REQUIREMENTS: dict[NormTitle, NormRequirement] = {
    req.title: req
    for req in (
        NormRequirement(NormTitle.GM, 2600, 2380, 2200, frozenset({"GM"}), "1.4.5b", False),
        NormRequirement(NormTitle.IM, 2450, 2230, 2050, frozenset({"GM", "IM"}), "1.4.5c", False),
        NormRequirement(
            NormTitle.WGM, 2400, 2180, 2000, frozenset({"GM", "IM", "WGM"}), "1.4.5d", True
        ),
        NormRequirement(
            NormTitle.WIM, 2250, 2030, 1850, frozenset({"GM", "IM", "WGM", "WIM"}), "1.4.5e", True
        ),
    )
}
"""Each norm's requirements (art. 1.4.5b-e, 1.4.6b, 1.4.8, 1.4.8a)."""

LEAST_NORM_AVERAGE = min(req.average for req in NORM_REQUIREMENTS.values())
"""The least Ra of any norm (the WIM norm's 2030, 1.4.8a)."""

TITLE_HOLDERS = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
"""The titles that make a title holder for 1.4.5a: CM and WCM do not count."""
UNRATED_OPPONENT = 1400
"""The rating an unrated opponent counts at (1.4.6d)."""
MIN_NORM_GAMES = 9
"""Games a norm needs (1.4.1)."""


def norm_possible(most_games: int) -> bool:
    """Whether an event whose busiest player has ``most_games`` games there can give any
    norm: at least 8 (nine, or eight in a nine-round event with an unplayed win: 1.4.1,
    1.4.1c). The website skips the norm checks of the other events."""
    return most_games >= MIN_NORM_GAMES - 1


def norm_out_of_reach(games: Iterable[NormGame]) -> bool:
    """Whether no norm of any title can come of a player's ``games`` in an event, however
    many rounds or games 1.4.1e and 1.4.1f ignore: none of the opponents is rated at least
    :data:`LEAST_NORM_AVERAGE` (an unrated one counting at :data:`UNRATED_OPPONENT`).

    Every norm needs Ra at least its title's average (1.4.8a). Ra is the average of the
    counted opponents' ratings with the lowest raised to the title's floor (1.4.6b), a floor
    below that average for every title; so Ra is at most the highest of the counted ratings
    (or the floor), and the games counted are some of ``games``. The website, which shows
    only the norms reached, leaves such a player's checks out."""
    return all(
        (UNRATED_OPPONENT if g.rating is None else g.rating) < LEAST_NORM_AVERAGE for g in games
    )


MIN_NORM_PERCENT = 35
"""The least score of any norm, in whole percent (1.4.8b)."""
MAX_NORM_GAMES = 13
"""A norm of an event of more than 13 rounds counts as 13 games (1.7)."""
LONG_EVENT_DAYS = 30
"""An event lasting longer than this uses the ratings (and titles) when each game was
played (1.1.4)."""
NOT_A_FEDERATION = "FID"
"""Players under FIDE's flag: accepted as opponents (1.4.2a), no federation for 1.4.3 and
1.4.4."""

RATING_TITLES: tuple[tuple[str, int, bool], ...] = (
    ("FM", 2300, False),
    ("CM", 2200, False),
    ("WFM", 2100, True),
    ("WCM", 2000, True),
)
"""Titles by rating (1.3.1 to 1.3.4): title, least rating, women only."""
TITLE_GAMES = 30
"""Rated games a title by rating needs at the time the rating is reached (1.3)."""
THIRTY_GAMES_AFTER = dt.date(2017, 7, 1)
"""1.3's 30 games apply to ratings reached after this day."""
APPLICATION_RATINGS = {
    NormTitle.GM: 2500,
    NormTitle.IM: 2400,
    NormTitle.WGM: 2300,
    NormTitle.WIM: 2200,
}
"""The rating a title application needs, reached at some time (1.5.3)."""
APPLICATION_GAMES = 27
"""Norm games a title application needs (1.5.1)."""


class NormExemption(enum.Enum):
    """An event's exemption from the foreign-opponent requirement (1.4.3a-d): an exempt
    event checks neither 1.4.3 nor 1.4.4. Set by ``ratings event edit --norm-exemption``
    (``events.norm_exemption``)."""

    NATIONAL_CHAMPIONSHIP = "national_championship"
    """1.4.3a: the final of a national championship."""
    NATIONAL_TEAM_CHAMPIONSHIP = "national_team_championship"
    """1.4.3b: a national team championship."""
    ZONAL = "zonal"
    """1.4.3c: a zonal or sub-zonal tournament."""
    QUALIFYING_SWISS = "qualifying_swiss"
    """1.4.3d: a Swiss with, in every round, at least 20 FIDE-rated players not from the host
    federation, from at least 3 federations, at least 10 of them GM, IM, WGM or WIM."""

    @property
    def article(self) -> str:
        """1.4.3a, 1.4.3b, 1.4.3c or 1.4.3d."""
        return "1.4.3" + "abcd"[list(NormExemption).index(self)]


class NormRulesError(RulesError):
    """Bad input to the norm arithmetic."""


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NormPlayer:
    """The player whose norms are checked, as the register holds them."""

    id: int
    federation: str | None
    """The federation code as stored (None: unknown)."""
    member: bool
    """Whether ``federation`` is one of FIDE's (``FID`` included)."""
    title: str | None
    """The title held (GM, IM, FM, CM, WGM, WIM, WFM, WCM), None for none."""
    sex: str | None
    """``f``, ``m`` or None: WGM and WIM norms are checked for women only."""


@dataclass(frozen=True, slots=True)
class NormGame:
    """One game of the player's, from his side."""

    round_no: int
    """The round's place in the event, 1 for the first (1.4.1e ignores later ones)."""
    round_label: str
    """The round as stored (for messages)."""
    opponent_id: int
    rating: int | None
    """The opponent's rating on the list used (1.4.6a, 1.1.4); None: unrated."""
    title: str | None
    """The opponent's title."""
    federation: str | None
    """The opponent's federation code as stored."""
    member: bool
    """Whether the opponent's federation is one of FIDE's (``FID`` included; 1.4.2a)."""
    score_half_points: int
    """The player's score: 2, 1 or 0."""
    over_the_board: bool = True
    """False for a game decided by forfeit or otherwise not played over the board (1.4.2c)."""


@dataclass(frozen=True, slots=True)
class NormEvent:
    """What the norm rules need to know of the event."""

    rounds: int
    """Rounds of the event (1.4.1c, 1.7)."""
    round_robin: bool
    """Every pair of players met: pairings fixed in advance (1.4.1e, 1.4.1f, 1.4.2b)."""
    exemption: NormExemption | None = None
    """The event's exemption from 1.4.3 and 1.4.4 (1.4.3a-d), if any."""
    zero_scorers: frozenset[int] = frozenset()
    """Unrated players who scored zero against rated opponents (:func:`zero_scorers`; only
    a round robin drops their games, 1.4.2b)."""
    double_round_robin: bool = False
    """Every pair of players met twice: 1.4.5 counts the opponents as players, and the
    holders of the title must be at least half of them."""


def zero_scorers(games: Iterable[tuple[int, int | None, int | None, int]]) -> frozenset[int]:
    """The unrated players who scored zero against rated opponents (1.4.2b).

    :param games: for every game played over the board, from each player's side: (player
        id, own rating on the list used or None, opponent's rating or None, the player's half
        points).
    """
    played: dict[int, int] = {}
    for player, own, opponent, halves in games:
        if own is None and opponent is not None:
            played[player] = played.get(player, 0) + halves
    return frozenset(pid for pid, halves in played.items() if halves == 0)


def is_long_for_norms(start: dt.date, end: dt.date) -> bool:
    """Whether an event lasts longer than 30 days, its first and last day counted (1.1.4):
    each game then uses the ratings in force when it was played."""
    return (end - start).days + 1 > LONG_EVENT_DAYS


def norm_titles(player: NormPlayer) -> tuple[NormTitle, ...]:
    """The norms worth checking for a player: GM and IM, WGM and WIM for a woman, less the
    titles he holds and those below them."""
    held = _RANK.get((player.title or "").upper(), 0)
    return tuple(
        t
        for t in NormTitle
        if _RANK[t.value] > held and (player.sex == "f" or not NORM_REQUIREMENTS[t].women_only)
    )


# --------------------------------------------------------------------------------------------
# Verdicts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reason:
    """A requirement missed, or a note on how the verdict was reached, with its article."""

    article: str
    text: str

    def __str__(self) -> str:
        return f"{self.article}: {self.text}"


@dataclass(frozen=True, slots=True)
class NormCheck:
    """One player's verdict for one title's norm in one event."""

    title: NormTitle
    norm: bool
    """True: a norm (every requirement met, perhaps with games ignored under 1.4.1e-f)."""
    games: int
    """Games counted: the player's games less those 1.4.2 excludes (and those ignored)."""
    norm_games: int
    """What the norm counts for an application (1.5.1): the games, 9 for 1.4.1c, at most 13
    in an event of more than 13 rounds (1.7); 0 for a miss."""
    score_half_points: int
    """The score over the games counted, in half points."""
    percent: int | None
    """The score in whole percent, 0.5 up (1.4.9); None without a game."""
    ra_before_floor: int | None
    """Ra with unrated opponents at 1400 (1.4.6d), before the floor (1.4.7)."""
    ra: int | None
    """Ra after the floor (1.4.6b-c, 1.4.7)."""
    rp: int | None
    """Rp = Ra + dp (1.4.8)."""
    titled: int
    """Opponents holding a title that counts for 1.4.5a."""
    holders: int
    """Opponents holding the norm's title or a higher one (1.4.5b-e)."""
    other_federations: int
    """Federations other than the player's among the opponents (1.4.3; ``FID`` not one)."""
    own_federation: int
    """Opponents from the player's federation (1.4.4)."""
    raised: tuple[int, int, int] | None
    """The opponent raised to the floor: (id, rating counted before, floor) (1.4.6c)."""
    failures: tuple[Reason, ...]
    """The requirements missed, by article; empty for a norm."""
    notes: tuple[Reason, ...]
    """How the verdict was reached: games not counted (1.4.2), the floor (1.4.6c), an
    exemption (1.4.3a-d), rounds or games ignored (1.4.1e-f), 1.4.1c, 1.7."""
    ignored_rounds: tuple[int, ...] = ()
    """Rounds ignored under 1.4.1e (places in the event)."""
    ignored_opponents: tuple[int, ...] = ()
    """Defeated opponents whose games are ignored under 1.4.1f."""

    @property
    def reasons(self) -> tuple[Reason, ...]:
        """For a miss the requirements missed (the first is the first by article); for a
        norm the notes."""
        return self.failures if not self.norm else self.notes


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _excluded(games: Sequence[NormGame], event: NormEvent) -> tuple[list[NormGame], list[Reason]]:
    """The games 1.4.2 counts, and a note for each kind left out."""
    outside = [g for g in games if g.over_the_board and not g.member]
    zero = [
        g
        for g in games
        if g.over_the_board
        and g.member
        and event.round_robin
        and g.rating is None
        and g.opponent_id in event.zero_scorers
    ]
    unplayed = [g for g in games if not g.over_the_board]
    dropped = {id(g) for g in (*outside, *zero, *unplayed)}
    notes = []
    if outside:
        codes = sorted({g.federation or "none" for g in outside})
        notes.append(
            Reason(
                "1.4.2a",
                f"{_plural(len(outside), 'game')} against opponents outside FIDE's "
                f"federations not counted ({', '.join(codes)})",
            )
        )
    if zero:
        notes.append(
            Reason(
                "1.4.2b",
                f"{_plural(len(zero), 'game')} against unrated opponents who scored zero "
                "against rated ones not counted",
            )
        )
    if unplayed:
        notes.append(
            Reason(
                "1.4.2c", f"{_plural(len(unplayed), 'game')} not played over the board not counted"
            )
        )
    return [g for g in games if id(g) not in dropped], notes


def _mix_failures(
    req: NormRequirement, player: NormPlayer, counted: Sequence[NormGame], event: NormEvent
) -> tuple[list[Reason], dict[str, int]]:
    """The federation and title requirements (1.4.3, 1.4.4, 1.4.5) missed, and the counts."""
    n = len(counted)
    failures: list[Reason] = []
    own = player.federation if player.member and player.federation != NOT_A_FEDERATION else None
    by_federation: dict[str, int] = {}
    for g in counted:
        if g.federation is not None and g.federation != NOT_A_FEDERATION:
            by_federation[g.federation] = by_federation.get(g.federation, 0) + 1
    others = len([f for f in by_federation if f != own])
    own_count = by_federation.get(own, 0) if own is not None else 0
    if event.exemption is None:
        if not player.member:
            text = (
                f"the player's federation {player.federation} is not one of FIDE's"
                if player.federation
                else "the player's federation is not known"
            )
            failures.append(Reason("1.4.3", text))
        elif others < 2:
            failures.append(
                Reason(
                    "1.4.3",
                    f"opponents from {_plural(others, 'other federation')}, at least 2 needed",
                )
            )
        if own is not None and 5 * own_count > 3 * n:
            failures.append(
                Reason(
                    "1.4.4",
                    f"{own_count} of {n} opponents from {own}, the player's federation, "
                    f"at most {3 * n // 5}",
                )
            )
        for fed, count in sorted(by_federation.items(), key=lambda kv: (-kv[1], kv[0])):
            if fed != own and 3 * count > 2 * n:
                failures.append(
                    Reason("1.4.4", f"{count} of {n} opponents from {fed}, at most {2 * n // 3}")
                )
    # a double round robin counts the players met, not the games: two GMs met twice are
    # two of the opponents, and the holders of the title must be half of them
    met = {g.opponent_id: g for g in counted}.values() if event.double_round_robin else counted
    m = len(met)
    titled = sum(1 for g in met if (g.title or "").upper() in TITLE_HOLDERS)
    holders = sum(1 for g in met if (g.title or "").upper() in req.holders)
    who = (
        "opponents (players met, a double round robin)"
        if event.double_round_robin
        else ("opponents")
    )
    if 2 * titled < m:
        failures.append(
            Reason(
                "1.4.5a",
                f"{titled} of {m} {who} hold a title (CM and WCM not counted), "
                f"at least {_ceil_div(m, 2)}",
            )
        )
    need = max(3, _ceil_div(m, 2 if event.double_round_robin else 3))
    if holders < need:
        what = " or ".join(sorted(req.holders, key=lambda t: -_RANK[t]))
        failures.append(
            Reason(req.holders_article, f"{holders} of {m} {who} hold {what}, at least {need}")
        )
    counts = {"titled": titled, "holders": holders, "others": others, "own": own_count}
    return failures, counts


def _evaluate(
    req: NormRequirement,
    player: NormPlayer,
    games: Sequence[NormGame],
    event: NormEvent,
    unplayed_wins: int,
    name_of: Callable[[int], str],
) -> NormCheck:
    """The verdict over ``games`` as they stand (no round or game ignored)."""
    counted, notes = _excluded(games, event)
    n = len(counted)
    halves = sum(g.score_half_points for g in counted)
    failures: list[Reason] = []
    eight = n == MIN_NORM_GAMES - 1 and event.rounds == MIN_NORM_GAMES and unplayed_wins > 0
    if n < MIN_NORM_GAMES and not eight:
        failures.append(
            Reason("1.4.1", f"{_plural(n, 'game')} counted, at least {MIN_NORM_GAMES} needed")
        )
    if eight:
        notes.append(
            Reason(
                "1.4.1c",
                "8 games and a round won unplayed (forfeit or allocated bye) of 9 count as 9",
            )
        )
    if event.exemption is not None:
        notes.append(Reason(event.exemption.article, "exempt event: 1.4.3 and 1.4.4 not applied"))
    if event.double_round_robin:
        notes.append(
            Reason(
                "1.4.5",
                "a double round robin: the opponents counted as players, the holders of the "
                "title at least half of them",
            )
        )
    mix, counts = _mix_failures(req, player, counted, event)
    failures += mix
    ra_before = ra = rp = percent = None
    raised = None
    if n:
        ratings = [UNRATED_OPPONENT if g.rating is None else g.rating for g in counted]
        total = sum(ratings)
        ra_before = divide_half_away(total, n)
        lowest = min(range(n), key=lambda i: (ratings[i], counted[i].round_no))
        if ratings[lowest] < req.rating_floor:
            raised = (counted[lowest].opponent_id, ratings[lowest], req.rating_floor)
            total += req.rating_floor - ratings[lowest]
            notes.append(
                Reason(
                    "1.4.6c",
                    f"{name_of(raised[0])} counted at {req.rating_floor}, not {raised[1]}",
                )
            )
        ra = divide_half_away(total, n)
        percent = divide_half_away(100 * halves, 2 * n)
        rp = ra + dp(percent)
        if rp < req.performance:
            failures.append(Reason("1.4.8", f"Rp {rp}, at least {req.performance}"))
        if ra < req.average:
            failures.append(Reason("1.4.8a", f"Ra {ra}, at least {req.average}"))
        if percent < MIN_NORM_PERCENT:
            failures.append(Reason("1.4.8b", f"{percent}%, at least {MIN_NORM_PERCENT}%"))
    norm = not failures
    norm_games = 0
    if norm:
        norm_games = MIN_NORM_GAMES if eight else n
        if event.rounds > MAX_NORM_GAMES and norm_games > MAX_NORM_GAMES:
            norm_games = MAX_NORM_GAMES
            notes.append(
                Reason("1.7", f"{n} games in {event.rounds} rounds count as {MAX_NORM_GAMES}")
            )
    return NormCheck(
        title=req.title,
        norm=norm,
        games=n,
        norm_games=norm_games,
        score_half_points=halves,
        percent=percent,
        ra_before_floor=ra_before,
        ra=ra,
        rp=rp,
        titled=counts["titled"],
        holders=counts["holders"],
        other_federations=counts["others"],
        own_federation=counts["own"],
        raised=raised,
        failures=tuple(failures),
        notes=tuple(notes),
    )


def _with(
    check: NormCheck,
    note: Reason,
    *,
    rounds: tuple[int, ...] = (),
    opponents: tuple[int, ...] = (),
) -> NormCheck:
    """``check`` with one more note first and the rounds or opponents ignored."""
    return dataclasses.replace(
        check,
        notes=(note, *check.notes),
        ignored_rounds=rounds,
        ignored_opponents=opponents,
    )


def _later_rounds_ignored(
    req: NormRequirement,
    player: NormPlayer,
    games: Sequence[NormGame],
    event: NormEvent,
    unplayed_wins: int,
    name_of: Callable[[int], str],
) -> NormCheck | None:
    """1.4.1e: the norm after the latest round that gives one, outside a round robin."""
    if event.round_robin:
        return None
    last = max((g.round_no for g in games), default=0)
    for upto in sorted({g.round_no for g in games if g.round_no < last}, reverse=True):
        kept = [g for g in games if g.round_no <= upto]
        if len(kept) < MIN_NORM_GAMES:
            break
        check = _evaluate(req, player, kept, event, 0, name_of)
        if check.norm:
            ignored = tuple(range(upto + 1, max(last, event.rounds) + 1))
            span = f"{ignored[0]}" if len(ignored) == 1 else f"{ignored[0]}-{ignored[-1]}"
            note = Reason(
                "1.4.1e",
                f"a norm after round {upto}: round{'s' if len(ignored) > 1 else ''} {span} "
                "may be ignored",
            )
            return _with(check, note, rounds=ignored)
    return None


SEARCH_LIMIT = 50_000
"""The most choices of defeated opponents 1.4.1f tries for one title (every choice of an
event of up to about 18 wins; an event with more stops there)."""


def _defeated_ignored(
    req: NormRequirement,
    player: NormPlayer,
    games: Sequence[NormGame],
    event: NormEvent,
    full: NormCheck,
    name_of: Callable[[int], str],
) -> NormCheck | None:
    """1.4.1f: the best norm without the games against some defeated opponents, the player's
    choice: every choice that leaves at least 9 games is tried, the fewest games ignored
    first; of the choices that give a norm with as few ignored, the highest Rp (then Ra,
    then the earliest rounds ignored). In a round robin only when the whole event's mix of
    opponents holds.

    A number of games ignored is skipped without trying its choices when no choice can
    reach Ra and Rp: ignoring wins lowers the percentage by the same for any choice, and
    Ra is at most the average without the lowest-rated defeated opponents, the floor's
    raise (1.4.6b) at most the lowest counted rating's."""
    if event.round_robin and any(
        r.article.startswith(("1.4.3", "1.4.4", "1.4.5")) for r in full.failures
    ):
        return None
    counted, _ = _excluded(games, event)

    def rated(g: NormGame) -> int:
        return UNRATED_OPPONENT if g.rating is None else g.rating

    won = sorted(
        (g for g in counted if g.score_half_points == 2), key=lambda g: (rated(g), g.round_no)
    )
    if not counted:
        return None
    n = len(counted)
    total = sum(rated(g) for g in counted)
    halves = sum(g.score_half_points for g in counted)
    raise_at_most = max(0, req.rating_floor - min(rated(g) for g in counted))
    tried = 0
    for j in range(1, len(won) + 1):
        if n - j < MIN_NORM_GAMES:
            break
        kept_most = total - sum(rated(g) for g in won[:j]) + raise_at_most
        ra_most = divide_half_away(kept_most, n - j)
        percent = divide_half_away(100 * (halves - 2 * j), 2 * (n - j))
        if (
            ra_most < req.average
            or ra_most + dp(percent) < req.performance
            or percent < MIN_NORM_PERCENT
        ):
            continue
        best: tuple[tuple[int, int, tuple[int, ...]], NormCheck, tuple[NormGame, ...]] | None
        best = None
        for choice in itertools.combinations(won, j):
            tried += 1
            if tried > SEARCH_LIMIT:
                break
            drop = {id(g) for g in choice}
            check = _evaluate(req, player, [g for g in games if id(g) not in drop], event, 0,
                              name_of)  # fmt: skip
            if not check.norm:
                continue
            rounds = tuple(sorted(g.round_no for g in choice))
            key = (-(check.rp or 0), -(check.ra or 0), rounds)
            if best is None or key < best[0]:
                best = (key, check, choice)
        if best is not None:
            _, check, choice = best
            ordered = sorted(choice, key=lambda g: g.round_no)
            who = tuple(g.opponent_id for g in ordered)
            against = ", ".join(
                f"{name_of(g.opponent_id)} (round {g.round_label}, defeated)" for g in ordered
            )
            note = Reason("1.4.1f", f"a norm without the {_plural(j, 'game')} against {against}")
            return _with(check, note, opponents=who)
        if tried > SEARCH_LIMIT:
            break
    return None


def check_norms(
    player: NormPlayer,
    games: Sequence[NormGame],
    event: NormEvent,
    *,
    unplayed_wins: int = 0,
    titles: Sequence[NormTitle] | None = None,
    name_of: Callable[[int], str] = lambda pid: f"player {pid}",
) -> tuple[NormCheck, ...]:
    """One player's verdict for each norm title in one event (FIDE Title Regulations 1.4).

    Over all his games first; when they give no norm, the best of: outside a round robin,
    later rounds ignored (1.4.1e, the longest run of rounds that gives one); the games
    against some defeated opponents ignored (1.4.1f, every choice searched). The best norm
    counts the most games, then has the highest Rp.

    :param games: the player's games in the event, in any order, forfeits included (1.4.2c
        leaves them out).
    :param unplayed_wins: rounds he won without playing: forfeit wins and pairing-allocated
        byes (1.4.1c).
    :param titles: the titles to check; default :func:`norm_titles`.
    :param name_of: an opponent's name for the notes.
    :raises NormRulesError: for a score that is not 0, 1 or 2 half points.
    """
    for g in games:
        if g.score_half_points not in (0, 1, 2):
            raise NormRulesError(f"a game's score must be 0, 1 or 2 half points: {g!r}")
    wins = unplayed_wins + sum(
        1 for g in games if not g.over_the_board and g.score_half_points == 2
    )
    verdicts = []
    for title in norm_titles(player) if titles is None else titles:
        req = NORM_REQUIREMENTS[title]
        full = _evaluate(req, player, games, event, wins, name_of)
        verdict = full
        if not full.norm and full.games >= MIN_NORM_GAMES:
            # the player's best: the norm that counts the most games (1.5.1), then the
            # highest Rp; later rounds (1.4.1e) before defeated opponents (1.4.1f) on a tie
            found = [
                c
                for c in (
                    _later_rounds_ignored(req, player, games, event, wins, name_of),
                    _defeated_ignored(req, player, games, event, full, name_of),
                )
                if c is not None
            ]
            verdict = min(found, key=lambda c: (-c.norm_games, -(c.rp or 0)), default=full)
        verdicts.append(verdict)
    return tuple(verdicts)


# --------------------------------------------------------------------------------------------
# Titles by rating (1.3) and applications (1.5)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TitleRatingPoint:
    """A rating a player had at some time (1.5.3a): after one game of a period (interim), a
    published first rating (no game), or the rating the register holds from before this
    database (no period, no date)."""

    period: str | None
    """The rating period, ``YYYY-MM``; None for the register's entry rating."""
    day: dt.date | None
    """The game's date; for a published rating, the list's date; None: not known (the entry
    rating)."""
    game_id: int | None
    """The game after which the player had the rating; None for a published one."""
    rating: int
    games: int | None
    """Rated games completed then (None: unknown, the count before registration was)."""


def interim_rating(rating_before: int, k: int, dr_units: int, units_per_point: int) -> int:
    """A rated player's rating after some games of a period (1.5.3a): the rating at the
    period start plus K x the sum of their dR (in 1/``units_per_point``), rounded once, half
    away from zero, as the period's change is (Rating Regulations art. 8.3.4)."""
    return rating_before + divide_half_away(k * dr_units, units_per_point)


def interim_ratings(
    period: str,
    rating_before: int,
    games_before: int | None,
    k: int,
    units_per_point: int,
    games: Sequence[tuple[int, dt.date, int]],
) -> list[TitleRatingPoint]:
    """A rated player's rating after each game of one period (1.5.3a): the rating at the
    period start plus K x the sum of dR so far, rounded once, half away from zero, as the
    period's change is (Rating Regulations art. 8.3.4); K is the period's (after the 700
    rule), as FIDE confirms interim ratings only once the period is rated.

    :param games: (game id, date, dR in 1/``units_per_point``) in the order played.
    """
    points = []
    total = 0
    for j, (game_id, day, dr_units) in enumerate(games, 1):
        total += dr_units
        points.append(
            TitleRatingPoint(
                period,
                day,
                game_id,
                interim_rating(rating_before, k, total, units_per_point),
                None if games_before is None else games_before + j,
            )
        )
    return points


@dataclass(frozen=True, slots=True)
class TitleReached:
    """When a rating first met a threshold (1.3, 1.5.3)."""

    title: str
    threshold: int
    reached: bool
    point: TitleRatingPoint | None
    """The first rating that met the threshold (and, for 1.3, had the 30 games); for a
    threshold met while the count of games is unknown, the first such rating."""
    games_unknown: bool = False
    """The rating was reached, but whether with 30 rated games is not known (1.3)."""


def title_by_rating(
    title: str, threshold: int, points: Iterable[TitleRatingPoint], *, thirty_games: bool = True
) -> TitleReached:
    """The first rating at or above ``threshold`` (1.3): after 1 July 2017 with at least 30
    rated games at the time (``thirty_games``; 1.5.3 has no such condition). A rating of an
    unknown date needs the 30 games.

    :param points: the player's ratings in time order.
    """
    unknown: TitleRatingPoint | None = None
    for p in points:
        if p.rating < threshold:
            continue
        if not thirty_games or (p.day is not None and p.day <= THIRTY_GAMES_AFTER):
            return TitleReached(title, threshold, True, p)
        if p.games is None:
            unknown = unknown or p
        elif p.games >= TITLE_GAMES:
            return TitleReached(title, threshold, True, p)
    return TitleReached(title, threshold, False, unknown, games_unknown=unknown is not None)


_CATEGORIES = (("GM", "IM", "FM", "CM"), ("WGM", "WIM", "WFM", "WCM"))
"""The open and the women's titles, highest first (0.6.2: a lower title is a lesser one of
the same category)."""


def holds_or_higher(held: str | None, title: str) -> bool:
    """Whether a player holding ``held`` has ``title`` or a higher title of its category."""
    for category in _CATEGORIES:
        if title in category and held is not None and held.upper() in category:
            return category.index(held.upper()) <= category.index(title)
    return False


def titles_by_rating(
    sex: str | None, points: Sequence[TitleRatingPoint]
) -> tuple[TitleReached, ...]:
    """FM and CM, and WFM and WCM for a woman (1.3.1 to 1.3.4), each as
    :func:`title_by_rating` finds it."""
    return tuple(
        title_by_rating(title, threshold, points)
        for title, threshold, women in RATING_TITLES
        if sex == "f" or not women
    )


@dataclass(frozen=True, slots=True)
class NormRecord:
    """A norm the player made (for an application)."""

    event_id: int
    event: str
    day: dt.date
    """The event's last day."""
    norm_games: int
    exempt: bool
    """Made in an event exempt from 1.4.3 (1.4.3a-d)."""


@dataclass(frozen=True, slots=True)
class Application:
    """The state of a title application (1.5)."""

    title: NormTitle
    norms: tuple[NormRecord, ...]
    norm_games: int
    """The games the norms cover (1.5.1)."""
    rating: TitleReached
    """The rating requirement (1.5.3): reached or not, and when."""
    trail: tuple[TitleRatingPoint, ...]
    """The evidence: the ratings of the period in which the requirement was first met, up to
    the game that met it; else those of the period of the highest rating, up to it."""
    missing: tuple[Reason, ...]
    """What the application still lacks, by article; empty when complete."""

    @property
    def complete(self) -> bool:
        """Every requirement checked here is met."""
        return not self.missing


def application(
    title: NormTitle, norms: Sequence[NormRecord], points: Sequence[TitleRatingPoint]
) -> Application:
    """A title application's state (1.5): norms covering at least 27 games (1.5.1), one of
    them made without a 1.4.3 exemption (1.4.3e), and the title's rating reached at some
    time, published or interim (1.5.3, 1.5.3a).

    :param points: the player's ratings in time order.
    """
    threshold = APPLICATION_RATINGS[title]
    reached = title_by_rating(title.value, threshold, points, thirty_games=False)
    games = sum(n.norm_games for n in norms)
    missing = []
    if games < APPLICATION_GAMES:
        missing.append(
            Reason("1.5.1", f"norms cover {games} games, at least {APPLICATION_GAMES} needed")
        )
    if norms and all(n.exempt for n in norms):
        missing.append(Reason("1.4.3e", "every norm was made in an event exempt from 1.4.3"))
    if not reached.reached:
        best = max(points, key=lambda p: p.rating, default=None)
        have = f"the highest rating is {best.rating}" if best else "no rating"
        missing.append(Reason("1.5.3", f"{have}, {threshold} needed"))
    target = reached.point if reached.reached else max(points, key=lambda p: p.rating, default=None)
    trail: tuple[TitleRatingPoint, ...] = ()
    if target is not None:
        upto = points.index(target)
        start = upto
        while start > 0 and points[start - 1].period == target.period:
            start -= 1
        trail = tuple(points[start : upto + 1])
    return Application(title, tuple(norms), games, reached, trail, tuple(missing))
