"""An event's final ranking by score and tie-breaks (FIDE Tie-Break Regulations, Handbook
C.07), computed by the ``tiebreak-core`` package: its definitions of the tie-breaks, of the
unplayed rounds (C.07 art. 16) and of direct encounter (art. 6) are those of C.07's editions
(2024 and 2026), picked by the event's start date.

An event whose TRF-2026 file names its tie-breaks (record 202, ``events.tiebreaks``) is
ranked by those this package computes (:data:`BY_CODE`), in the file's order; every other
event gets FIDE's recommended sequence for its system
(docs/RULES.md#tie-breaks-of-the-crosstables): a round robin (every player met every other)
direct encounter, wins, Sonneborn-Berger, Koya; any other event (a Swiss) Buchholz cut 1,
Buchholz, Sonneborn-Berger. Ties they leave go by the rating the event used, then name.
The package, not :mod:`ratings.rules`, does the arithmetic: the rules layer takes the
standard library only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

import tiebreak_core

__all__ = [
    "BYE_HALF_POINTS",
    "BY_CODE",
    "ROUND_ROBIN",
    "SWISS",
    "FinalRanking",
    "PlayedRound",
    "TieBreak",
    "edition",
    "final_ranking",
    "named",
    "tiebreak_names",
    "tiebreak_text",
]


@dataclass(frozen=True, slots=True)
class TieBreak:
    """One tie-break of a ranking."""

    code: str
    """Its acronym in C.07 (``BH-C1``)."""
    name: str
    """Its name (``Buchholz cut 1``)."""
    article: str
    """Where C.07 defines it."""
    key: str
    """The ``tiebreak-core`` criterion."""
    column: bool = True
    """Whether it has a value of its own (direct encounter orders a tied group: none)."""


DE = TieBreak("DE", "direct encounter", "art. 6", "direct_encounter", column=False)
WIN = TieBreak("WIN", "number of wins", "art. 7.1", "wins")
SB = TieBreak("SB", "Sonneborn-Berger", "art. 9.1", "sonneborn_berger")
KS = TieBreak("KS", "Koya", "art. 9.2", "koya")
BH_C1 = TieBreak("BH-C1", "Buchholz cut 1", "art. 8.1, 14.1", "buchholz_cut1")
BH = TieBreak("BH", "Buchholz", "art. 8.1", "buchholz")

BY_CODE = {
    t.code: t
    for t in (
        DE, WIN, SB, KS, BH_C1, BH,
        TieBreak("BH-C2", "Buchholz cut 2", "art. 8.1, 14.1", "buchholz_cut2"),
        TieBreak("BH-M1", "median Buchholz", "art. 8.1, 14.2", "median_buchholz"),
        TieBreak("BH-M2", "median Buchholz 2", "art. 8.1, 14.2", "median_buchholz_2"),
        TieBreak("FB", "sum of the opponents' Buchholz", "art. 8.3", "buchholz_sum"),
        TieBreak("PS", "progressive score", "art. 7.5", "progressive"),
        TieBreak("BWG", "wins with Black", "art. 7.4", "wins_black"),
        TieBreak("BPG", "games played with Black", "art. 7.3", "games_black"),
        TieBreak("ARO", "average rating of opponents", "art. 10.1", "aro"),
        TieBreak("APRO", "average performance rating of opponents", "art. 10.4", "arpo"),
    )
}  # fmt: skip
"""The tie-breaks this package ranks by, by C.07's acronym (what a TRF-2026 file's record
202 writes); an event's file naming another is ranked by those of its list found here."""


def named(codes: str | Sequence[str] | None) -> tuple[tuple[TieBreak, ...], tuple[str, ...]]:
    """The tie-breaks of ``codes`` (a stored ``BH-C1,BH,SB``, or the file's list) that this
    package computes, in their order, and the codes it does not (said when the file is
    imported). None or empty: none."""
    if not codes:
        return (), ()
    listed = codes.split(",") if isinstance(codes, str) else list(codes)
    found: list[TieBreak] = []
    unknown: list[str] = []
    for code in (c.strip().upper() for c in listed):
        if not code:
            continue
        tb = BY_CODE.get(code)
        if tb is None:
            unknown.append(code)
        elif tb not in found:
            found.append(tb)
    return tuple(found), tuple(unknown)


ROUND_ROBIN = (DE, WIN, SB, KS)
"""A round robin's tie-breaks, in order (docs/RULES.md#tie-breaks-of-the-crosstables)."""
SWISS = (BH_C1, BH, SB)
"""A Swiss event's tie-breaks, in order."""

_EDITION_2026 = dt.date(2026, 3, 1)
"""C.07's edition in force from 1 March 2026 (caps on the virtual opponents of art. 16.4);
before it the edition of 1 August 2024, also for older events (the earliest the package
implements)."""


def edition(start: dt.date) -> str:
    """The ``tiebreak-core`` ruleset of C.07's edition in force at an event's start."""
    return "fide-2026" if start >= _EDITION_2026 else "fide-2024"


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """One round of a player's event, as the tie-breaks read it."""

    number: int
    """1, 2, ...: the crosstable's column."""
    opponent_id: int | None
    """The scheduled opponent; None for a round without one (a bye)."""
    white: bool
    half_points: int
    """What the round scored, in half points."""
    kind: str
    """``played``, ``forfeit`` (a game not played, scored by forfeit), or a bye's TRF code
    (``H``, ``F``, ``U``, ``Z``, ``+``, ``-``, ``?``)."""


@dataclass(frozen=True, slots=True)
class FinalRanking:
    """The final ranking: players in order and their tie-break values."""

    tiebreaks: tuple[TieBreak, ...]
    """What decided ties, in order (empty: none applied)."""
    order: tuple[int, ...]
    """Player ids, first place first."""
    values: Mapping[int, tuple[Decimal, ...]]
    """Per player the values of the tie-breaks that have one (:attr:`TieBreak.column`)."""


BYE_HALF_POINTS = {"H": 1, "F": 2, "U": 2, "Z": 0, "+": 2, "-": 0, "?": 0}
"""What a round without an opponent scores, in half points, by its TRF code."""

_BYES = {
    # full point without a game: a pairing-allocated bye or full-point bye (art. 16.2.1)
    "U": tiebreak_core.models.PAIRING_BYE,
    "F": tiebreak_core.models.PAIRING_BYE,
    # a point by forfeit, the opponent not known (art. 16.2.2), and its loss (16.2.4)
    "+": tiebreak_core.models.FORFEIT_WIN,
    "-": tiebreak_core.models.FORFEIT_LOSS,
}
"""A bye's kind by its TRF code; the others (``H``, ``Z``, ``?``) are requested byes
(art. 16.2.3, 16.2.5), scoring what their code says."""


def _record(r: PlayedRound, ratings: Mapping[int, int]) -> tiebreak_core.GameRecord:
    score = r.half_points / 2
    colour = "white" if r.white else "black"
    if r.opponent_id is None:
        kind = _BYES.get(r.kind, tiebreak_core.models.REQUESTED_BYE)
        return tiebreak_core.GameRecord(-1, 0, score, colour, r.number, kind=kind)
    if r.kind == "forfeit":
        kind = tiebreak_core.models.FORFEIT_WIN if score else tiebreak_core.models.FORFEIT_LOSS
    else:
        kind = tiebreak_core.models.PLAYED
    rating = ratings.get(r.opponent_id, 0)
    return tiebreak_core.GameRecord(r.opponent_id, rating, score, colour, r.number, kind=kind)


def final_ranking(
    rounds: Mapping[int, Sequence[PlayedRound]],
    count: int,
    ratings: Mapping[int, int],
    fallback: Sequence[int],
    *,
    round_robin: bool,
    start: dt.date,
    chosen: Sequence[TieBreak] = (),
) -> FinalRanking:
    """The players of ``rounds`` (id -> their rounds) ranked by score, then by ``chosen``
    (the tie-breaks the event's file names) or else the tie-breaks of the event's system
    (:data:`ROUND_ROBIN` or :data:`SWISS`), then in the order of ``fallback`` (the rating
    used, then name).

    :param count: the event's number of rounds.
    :param ratings: the ratings the event used (unrated players count as 0, as Article 10
        of C.07 leaves them out of no tie-break used here).
    :param start: the event's start date, which picks C.07's edition.
    :raises tiebreak_core.errors.TiebreakError: for rounds C.07 cannot rank (none of the
        events a crosstable shows).
    """
    chosen = tuple(chosen) or (ROUND_ROBIN if round_robin else SWISS)
    players = {
        pid: tiebreak_core.PlayerTiebreakData(
            pid,
            ratings.get(pid, 0),
            sum(r.half_points for r in own) / 2,
            [_record(r, ratings) for r in sorted(own, key=lambda r: r.number)],
        )
        for pid, own in rounds.items()
    }
    ruleset = edition(start)
    keys = {pid: i for i, pid in enumerate(fallback)}
    criteria = [t.key for t in chosen]
    if ruleset == "fide-2026":  # its round robins treat forfeits as C.07 art. 15.2 says
        mode = "round_robin" if round_robin else "swiss"
        result = tiebreak_core.rank_standings_strict(
            players, criteria, count, keys, ruleset=ruleset, mode=mode
        )
    else:  # the 2024 edition has no mode: the same rules for every system
        result = tiebreak_core.rank_standings_strict(players, criteria, count, keys, ruleset)
    # a half point, a quarter (SB) or an average: exact in binary, so exact as a Decimal
    values = {
        p.player_id: tuple(Decimal(p.values[t.key]) for t in chosen if t.column)
        for p in result.players
    }
    return FinalRanking(chosen, tuple(p.player_id for p in result.players), values)


def tiebreak_text(value: Decimal) -> str:
    """A tie-break's value as a crosstable prints it: ``23½``, ``12.25``, ``3``."""
    whole, part = divmod(value, 1)
    if part == 0:
        return str(int(whole))
    if part == Decimal("0.5"):
        return f"{int(whole) or ''}½"
    return str(value.normalize())


def tiebreak_names(chosen: Sequence[TieBreak]) -> str:
    """The tie-breaks named in order: ``BH-C1 (Buchholz cut 1, art. 8.1, 14.1), ...``."""
    return ", ".join(f"{t.code} ({t.name}, {t.article})" for t in chosen)
