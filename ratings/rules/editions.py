"""The dated editions of the rules a whole list follows: the rating floor (art. 7.1.4, 7.2.1),
the first rating and its maximum (art. 8.2), the K of the rapid and blitz lists, and FIDE's
one-time adjustment of the list of 1 March 2024.

Editions are data: :data:`LIST_RULES` and :data:`RAPID_BLITZ_LIST_RULES` list them by the date
they take effect, :func:`list_rules_for` picks the one in force for a rating period by its
first day (the date of the list in force, art. 7.1.1: "the rating period is the period where
a certain rating list is valid"), and :data:`RATING_ADJUSTMENTS` holds the one-time changes
of a list, found by :func:`adjustment_for`. Nothing else compares dates. (The 400-point rule,
which FIDE dates by the event's start, is :data:`ratings.rules.RULE_SETS`.)

Sources, as found (the texts are FIDE's; where a detail could not be established from them,
the edition's docstring says so):

* FIDE Handbook, Rating Regulations effective from 1 March 2024 (B.02, "Applied from 1
  March, 2024"): art. 7.1.4 "The rating must be at least 1400", 7.2.1 "Players whose ratings
  drop below 1400 are shown as unrated on the next list", 8.2.2 "Ra is the average rating of
  the player's rated opponents plus two hypothetical opponents rated 1800. The result against
  these two hypothetical opponents is considered as a draw", 8.2.3 "Ru = Ra + dp. Ru is
  rounded to the nearest whole number. The maximum initial rating is 2200."
* FIDE Handbook, Rating Regulations effective from 1 January 2022 till 29 February 2024,
  art. 8.2.2 "Ra is the average rating of the player's rated opponents", 8.2.3 "If the player
  scores 50%, then Ru = Ra. If they score more than 50%, then Ru = Ra + 20 for each half point
  scored over 50%. If they score less than 50%, then Ru = Ra + dp. Ru is rounded to the
  nearest whole number." (no maximum). The floor of 1000 until 29 February 2024: FIDE's news
  of 22 July 2023 ("the minimal rating being set too low at 1000 points ... raising the
  minimum rating from 1000 to 1400") and of 1 March 2024 on qc.fide.com ("the new rating
  floor will be set at 1400").
* The one-time adjustment: FIDE's "Proposals for changes to FIDE Ratings Regulations" (for
  the Council of 14 December 2023): "A one-off change to Standard Ratings ... For players with
  a standard rating lower than 2000 points, an increase will be applied following the formula
  (0.40) x (2000 - Rating). Players with a standard rating of 2000 or more will retain their
  current rating"; qc.fide.com, 1 March 2024: "As of 1 March 2024 ... all players with a
  rating between 1000 and 2000 will receive a one-time increase".
* The rapid and blitz K: FIDE's news of 16 November 2011 launching the lists ("the K factor
  used will in all cases be 20"); from the list of 1 October 2022 the standard rules of art.
  8.3.3 (reported by the Italian and Vietnamese federations' pages on the change; FIDE's own
  text of it was not found).
"""

from __future__ import annotations

import enum
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date

from ratings.rules.base import _check_date, _check_rating, divide_half_away
from ratings.rules.time_control import TimeControl
from ratings.rules.time_control import time_control as _time_control


class InitialMethod(enum.Enum):
    """How a first rating Ru is found from the pooled games (art. 8.2)."""

    PLUS_20 = "plus_20"
    """The regulations until 29 February 2024 (art. 8.2.2-8.2.3): Ra is the average of the
    rated opponents; at 50% Ru = Ra, above it Ra + 20 for each half point over 50%, below it
    Ra + dp(p) (table 8.1.1)."""
    HYPOTHETICAL_DRAWS = "hypothetical_draws"
    """From 1 March 2024 (art. 8.2.2-8.2.3): two hypothetical draws against 1800 are added to
    the games, and Ru = Ra + dp(p) over all of them."""


@dataclass(frozen=True, slots=True)
class ListRules:
    """One edition of the rules a list follows as a whole (art. 7.1.4, 7.2.1, 8.2; the K of
    the rapid and blitz lists)."""

    effective_from: date
    """The first rating period (by its first day, the date of the list in force) it rates."""
    name: str
    """Short human-readable name."""
    rating_floor: int
    """The lowest rating published (art. 7.1.4, a first rating) and kept (art. 7.2.1, a
    rating that drops below it is shown as unrated on the next list)."""
    initial_method: InitialMethod
    """How a first rating is found (art. 8.2)."""
    initial_max: int | None
    """The highest first rating (art. 8.2.3 from 2024: 2200); None: no maximum."""
    fixed_k: int | None = None
    """One K for every player instead of art. 8.3.3's (the 700 rule still applies); None:
    art. 8.3.3."""

    def keeps(self, rating: int) -> bool:
        """Whether ``rating`` is published: at or above the floor (art. 7.1.4, 7.2.1; a
        rating that drops below it is shown as unrated)."""
        return rating >= self.rating_floor


LIST_RULES: tuple[ListRules, ...] = (
    ListRules(
        effective_from=date(2017, 7, 1),
        name="fide 2017-07 and 2022-01: floor 1000, Ra + 20 a half point over 50%",
        rating_floor=1000,
        initial_method=InitialMethod.PLUS_20,
        initial_max=None,
    ),
    ListRules(
        effective_from=date(2024, 3, 1),
        name="fide 2024-03: floor 1400, two hypothetical draws against 1800, at most 2200",
        rating_floor=1400,
        initial_method=InitialMethod.HYPOTHETICAL_DRAWS,
        initial_max=2200,
    ),
)
"""The standard list's editions, sorted by :attr:`ListRules.effective_from`.

The first row stands for the regulations effective from 1 July 2017 (with the amendments of
1 February 2021) and for those effective from 1 January 2022 until 29 February 2024. The
2022 text of art. 8.2 is the one quoted in the module docstring; the 2017 text was not found
among the sources available, and is taken to be the same (the floor of 1000 is confirmed for
the whole time by FIDE's 2023 news). Periods before 1 July 2017 use this first row too: the
older rules are not modelled.
"""

RAPID_BLITZ_LIST_RULES: tuple[ListRules, ...] = (
    ListRules(
        effective_from=date(2012, 1, 1),
        name="fide rapid and blitz 2012-01: K 20 for every player, floor 1000",
        rating_floor=1000,
        initial_method=InitialMethod.PLUS_20,
        initial_max=None,
        fixed_k=20,
    ),
    ListRules(
        effective_from=date(2022, 10, 1),
        name="fide rapid and blitz 2022-10: the K of art. 8.3.3, floor 1000",
        rating_floor=1000,
        initial_method=InitialMethod.PLUS_20,
        initial_max=None,
    ),
    ListRules(
        effective_from=date(2024, 3, 1),
        name="fide rapid and blitz 2024-03: floor 1400, two hypothetical draws, at most 2200",
        rating_floor=1400,
        initial_method=InitialMethod.HYPOTHETICAL_DRAWS,
        initial_max=2200,
    ),
)
"""The rapid and blitz lists' editions (FIDE Rapid and Blitz Rating Regulations), sorted by
:attr:`ListRules.effective_from`. From 2012 until the list of 1 October 2022, K 20 for
every player, the 700 rule applying (FIDE's 2011 news; the Italian federation's summary of the
2022 change gives the old rule as K 20 for all, less only above 35 games in a period).
The floor and the first rating follow the standard list's editions (the 2024 Rapid and Blitz
Regulations repeat art. 7.1.4 and 8.2 of the standard ones, with the standard-rating seed of
their art. 7.2.1 besides). Not established, and not modelled: the rapid and blitz first
rating before 2024 (a secondary source of 2021 says the first event had to score a point,
not half a point); the 400-point rule of the rapid and blitz lists before 2024 (the same
source gives a maximum difference of 735); the rapid and blitz one-time change of the list
of 1 October 2022 (standard - 100 for ratings more than 100 below the standard one)."""

_LIST_DATES = tuple(r.effective_from for r in LIST_RULES)
_RAPID_BLITZ_DATES = tuple(r.effective_from for r in RAPID_BLITZ_LIST_RULES)
CURRENT_LIST_RULES = LIST_RULES[-1]
"""The standard list's edition in force today (the default of :func:`initial_rating`)."""


def list_rules_for(
    period_start: date, time_control: TimeControl | str = TimeControl.STANDARD
) -> ListRules:
    """The edition of the list rules for the rating period starting on ``period_start`` (the
    date of the list in force), on the list of ``time_control``. Dates before the first
    edition use the first edition (older rules are not modelled)."""
    day = _check_date(period_start)
    if _time_control(time_control) is TimeControl.STANDARD:
        editions, dates = LIST_RULES, _LIST_DATES
    else:
        editions, dates = RAPID_BLITZ_LIST_RULES, _RAPID_BLITZ_DATES
    return editions[max(bisect_right(dates, day) - 1, 0)]


@dataclass(frozen=True, slots=True)
class RatingAdjustment:
    """A one-time change FIDE made to every rating of one list (not a rating calculation):
    ratings below :attr:`below` are raised by ``fraction x (below - R)``, rounded to the
    nearest whole number, 0.5 away from zero."""

    list_date: date
    """The list it was applied to; here, the first list dated on or after it."""
    name: str
    """Short human-readable name."""
    below: int
    """Ratings below this are raised, towards it."""
    numerator: int
    """The fraction of the distance to :attr:`below` added (with :attr:`denominator`)."""
    denominator: int
    """See :attr:`numerator`."""
    time_controls: tuple[TimeControl, ...] = (TimeControl.STANDARD,)
    """The lists it applies to."""

    def apply(self, rating: int) -> int:
        """``rating`` after the adjustment (unchanged from :attr:`below` up)."""
        _check_rating(rating)
        if rating >= self.below:
            return rating
        return rating + divide_half_away(self.numerator * (self.below - rating), self.denominator)


RATING_ADJUSTMENTS: tuple[RatingAdjustment, ...] = (
    RatingAdjustment(
        list_date=date(2024, 3, 1),
        name="fide 2024-03: ratings below 2000 raised by 0.40 x (2000 - R)",
        below=2000,
        numerator=2,
        denominator=5,
    ),
)
"""FIDE's one-time adjustments, by list date. The only one: the standard list of 1 March 2024
(see the module docstring). FIDE's wording gives the formula, not its rounding; 0.40 x a
whole number always ends in .0, .2, .4, .6 or .8, so a half never arises and the rule for
halves does not matter; to the nearest whole number is assumed (not truncation: FIDE's text
does not say). Only the standard list: FIDE's proposal names "Standard Ratings" (one national
federation wrote that all three lists were changed; not established). It applies to every
rating below 2000 on the list, the first ratings it publishes included; a rating below 1000
(none was on FIDE's list, whose floor was 1000) is raised the same way."""


def adjustment_for(
    period_start: date, list_date: date, time_control: TimeControl | str = TimeControl.STANDARD
) -> RatingAdjustment | None:
    """The one-time adjustment of the list published by the period from ``period_start`` to
    the day before ``list_date`` (the first list dated on or after the adjustment's date),
    on the list of ``time_control``; None for nearly every period."""
    tc = _time_control(time_control)
    for adjustment in RATING_ADJUSTMENTS:
        if period_start < adjustment.list_date <= list_date and tc in adjustment.time_controls:
            return adjustment
    return None
